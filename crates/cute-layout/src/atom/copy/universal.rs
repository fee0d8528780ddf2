//! The architecture-independent copy atoms of CuTe C++ 4.2's `copy_traits.hpp`, by rule:
//! `UniversalCopy<S, D = S>` (one thread moving `sizeof_bits<S>` bits in and `sizeof_bits<D>`
//! out), `AutoVectorizingCopyWithAssumedAlignment<N = 128>` and its aliases `AutoVectorizingCopy`
//! and `DefaultCopy` (one thread, `(1,1):(0,0)` bit layouts for every `N`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::super::{AtomError, TemplateName};
use super::{bad, one_thread, type_bits, CopyAtom};
use crate::layout::Layout;

/// The atom of `t` if its base is one of this file's families.
pub(super) fn lookup(t: &TemplateName, name: &str) -> Option<Result<CopyAtom, AtomError>> {
    match t.base.as_str() {
        "UniversalCopy" => Some(universal(t, name)),
        "AutoVectorizingCopyWithAssumedAlignment" => Some(auto_vectorizing(t, name)),
        "AutoVectorizingCopy" | "DefaultCopy" if !t.brackets => Some(unit(name)),
        _ => None,
    }
}

fn universal(t: &TemplateName, name: &str) -> Result<CopyAtom, AtomError> {
    if t.args.is_empty() || t.args.len() > 2 {
        return Err(bad(
            name,
            "UniversalCopy takes one or two value types: <S> or <S,D>",
        ));
    }
    let s = type_bits(name, &t.args[0])?;
    let d = match t.args.get(1) {
        Some(a) => type_bits(name, a)?,
        None => s,
    };
    one_thread(name, s, d, None)
}

fn auto_vectorizing(t: &TemplateName, name: &str) -> Result<CopyAtom, AtomError> {
    match t.args.as_slice() {
        [] => unit(name),
        [n] if n.parse::<u32>().is_ok_and(|n| n > 0) => unit(name),
        _ => Err(bad(
            name,
            &format!(
                "AutoVectorizingCopyWithAssumedAlignment takes one positive integer, got <{}>",
                t.args.join(",")
            ),
        )),
    }
}

/// One thread, one `(1,1):(0,0)` bit layout for source, destination and reference.
fn unit(name: &str) -> Result<CopyAtom, AtomError> {
    let bits: Layout = "(1,1):(0,0)".parse()?;
    Ok(CopyAtom {
        name: String::from(name),
        thr_id: "1:0".parse()?,
        val_id: None,
        src: bits.clone(),
        dst: bits.clone(),
        ref_: bits,
    })
}

/// Every name [`lookup`] accepts, for [`super::for_each_copy_name`]: `UniversalCopy<S>` and
/// `UniversalCopy<S,D>` for every value type (and `complex<T>` of the floating-point ones),
/// `AutoVectorizingCopyWithAssumedAlignment<N>` for N = 1 ..= 256 and `<>`, and the two aliases.
pub(super) fn all_names(f: &mut dyn FnMut(&str)) {
    let mut types: Vec<String> = super::types::VALUE_TYPES
        .iter()
        .map(|(n, _)| String::from(*n))
        .collect();
    for t in ["half_t", "float", "double"] {
        types.push(format!("complex<{t}>"));
    }
    for s in &types {
        f(&format!("UniversalCopy<{s}>"));
        for d in &types {
            f(&format!("UniversalCopy<{s},{d}>"));
        }
    }
    f("AutoVectorizingCopyWithAssumedAlignment<>");
    for n in 1..=256 {
        f(&format!("AutoVectorizingCopyWithAssumedAlignment<{n}>"));
    }
    f("AutoVectorizingCopy");
    f("DefaultCopy");
}
