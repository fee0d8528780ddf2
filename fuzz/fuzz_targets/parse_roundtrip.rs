//! The text parsers on arbitrary bytes and on generated text: no panic, and for every value that
//! parses, `print(x)` parses back to `x` and `print` is a fixed point.
//!
//! Every input is read twice: as text (lossy UTF-8, for the dictionary's tokens and the
//! mutations), and as the bytes that drive one of the argument generators of `ops_laws`
//! ([`gen::text_form`]: F2 and F2 basis layouts, symbolic layouts and monomials, basis and
//! basis-sum layouts, typed pointers, pointer and zip tensors, composed layouts, `TYPE ADDR`,
//! `L NAME=VALUE...`). Each text goes through every public parser of `cute_layout`
//! ([`roundtrip_all`]) and through `cute-ops`' argument reading ([`through_ops`]).
#![no_main]

use std::fmt::{Debug, Display};
use std::str::FromStr;

use cute_fuzz::gen::{self, Bytes};
use cute_fuzz::ops::{run_op, Arg};
use cute_layout::{
    BasisSum, ComposedLayout, F2Basis, IntTuple, Layout, LayoutChain, LayoutTensor, Pointer,
    ScaledBasis, SliceCoord, Swizzle, Sym, SymLayout, SymTuple, Tiler, F2,
};
use libfuzzer_sys::fuzz_target;

/// `s` parsed as `T`, checked: its print parses back to an equal value, and printing that gives
/// the same text. `None` when `s` does not parse.
fn roundtrip<T>(s: &str) -> Option<T>
where
    T: FromStr + Display + PartialEq + Debug,
    T::Err: Display,
{
    let v = s.parse::<T>().ok()?;
    let printed = v.to_string();
    let back: T = match printed.parse() {
        Ok(x) => x,
        Err(e) => panic!(
            "{}: {s:?} parsed, printed as {printed:?}, which does not parse: {e}",
            std::any::type_name::<T>()
        ),
    };
    assert_eq!(
        back,
        v,
        "{}: {s:?} -> {printed:?} -> {back:?}",
        std::any::type_name::<T>()
    );
    assert_eq!(
        back.to_string(),
        printed,
        "{}: print is not a fixed point for {s:?}",
        std::any::type_name::<T>()
    );
    Some(v)
}

/// A `cute-ops` answer: `Some` for `Ok`, `None` for an error of the operation's domain; a
/// `ParseError` for a text that `cute_layout` parses is a finding (the front end reads the form
/// differently from the library).
fn reads(op: &str, args: &[Arg], what: &str) -> Option<String> {
    match run_op(op, args) {
        Ok(r) => Some(r),
        Err(e) if e.kind == "ParseError" => panic!(
            "{what} {args:?} parses in cute_layout, but cute-ops' {op} answers ParseError: {}",
            e.message
        ),
        Err(_) => None,
    }
}

fn text(s: &str) -> Arg {
    Arg::Text(s.to_string())
}

/// Every public parser of `cute_layout` on `s`; values of the forms that `cute-ops` reads by
/// their own dispatch (F2, F2 basis, symbolic, basis and basis-sum layouts, pointers, tensors)
/// are also handed, printed, to an operation that takes them.
fn roundtrip_all(s: &str) {
    roundtrip::<IntTuple>(s);
    roundtrip::<Layout>(s);
    roundtrip::<Tiler>(s);
    roundtrip::<Swizzle>(s);
    roundtrip::<ComposedLayout>(s);
    roundtrip::<LayoutChain>(s);
    roundtrip::<SliceCoord>(s);
    roundtrip::<Sym>(s);
    roundtrip::<SymTuple>(s);
    roundtrip::<ScaledBasis>(s);
    roundtrip::<BasisSum>(s);
    if let Some(l) = roundtrip::<Layout<F2>>(s) {
        let p = l.to_string();
        if let Some(r) = reads("size", &[text(&p)], "F2 layout") {
            assert_eq!(r, l.size().to_string(), "size of the F2 layout {p}");
        }
    }
    if let Some(l) = roundtrip::<Layout<F2Basis>>(s) {
        let p = l.to_string();
        if let Some(r) = reads("size", &[text(&p)], "F2 basis layout") {
            assert_eq!(r, l.size().to_string(), "size of the F2 basis layout {p}");
        }
    }
    if let Some(l) = roundtrip::<SymLayout>(s) {
        if !l.symbols().is_empty() {
            let p = l.to_string();
            if let Some(r) = reads("size", &[text(&p)], "symbolic layout") {
                roundtrip::<SymTuple>(&r).unwrap_or_else(|| panic!("size {p} = {r:?}"));
            }
        }
    }
    if let Some(l) = roundtrip::<Layout<ScaledBasis>>(s) {
        reads(
            "crd2idx",
            &[Arg::Int(0), text(&l.to_string())],
            "basis layout",
        );
    }
    if let Some(l) = roundtrip::<Layout<BasisSum>>(s) {
        reads(
            "crd2idx",
            &[Arg::Int(0), text(&l.to_string())],
            "basis-sum layout",
        );
    }
    if let Some(ptr) = roundtrip::<Pointer>(s) {
        let p = ptr.to_string();
        let bits = Arg::Int(i64::from(ptr.bits()));
        if let Some(r) = reads("recast_ptr", &[bits, text(&p)], "pointer") {
            assert_eq!(r, p, "recast_ptr to its own width");
        }
    }
    if let Some(t) = roundtrip::<LayoutTensor>(s) {
        let p = t.to_string();
        if let Some(r) = reads("flatten", &[text(&p)], "tensor") {
            roundtrip::<LayoutTensor>(&r).unwrap_or_else(|| panic!("flatten {p} = {r:?}"));
        }
    }
}

/// The forms only `cute-ops` reads: `TYPE ADDR` (the element type and address of the pointer
/// constructors) and `L NAME=VALUE...` (`subs`). An answer is a pointer, or a layout or tuple,
/// that prints back to itself.
fn through_ops(s: &str) {
    let words: Vec<&str> = s.split_whitespace().collect();
    if words.len() == 2 {
        let args = [text(words[0]), text(words[1])];
        for op in [
            "make_gmem_ptr",
            "make_smem_ptr",
            "make_rmem_ptr",
            "make_tmem_ptr",
        ] {
            if let Ok(r) = run_op(op, &args) {
                let p = roundtrip::<Pointer>(&r)
                    .unwrap_or_else(|| panic!("{op} {args:?} = {r:?}, not a pointer"));
                assert_eq!(p.to_string(), r, "{op} {args:?}");
            }
        }
    }
    if words.len() >= 2 && words[1..].iter().all(|w| w.contains('=')) {
        let args: Vec<Arg> = words.iter().map(|w| text(w)).collect();
        if let Ok(r) = run_op("subs", &args) {
            let ok = roundtrip::<SymLayout>(&r).is_some() || roundtrip::<SymTuple>(&r).is_some();
            assert!(ok, "subs {args:?} = {r:?}, neither a layout nor a tuple");
        }
    }
}

fn check(s: &str) {
    roundtrip_all(s);
    through_ops(s);
}

fuzz_target!(|data: &[u8]| {
    check(&String::from_utf8_lossy(data));
    let generated = gen::text_form(&mut Bytes::new(data));
    if std::env::var_os("CUTE_FUZZ_SHOW").is_some() {
        eprintln!("generated: {generated}");
    }
    check(&generated);
});
