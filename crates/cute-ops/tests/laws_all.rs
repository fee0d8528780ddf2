//! Every operation against its law checker (`laws/check.rs`) on seeded random arguments of the
//! kinds its declaration takes (`laws/generate.rs`); the same registry and generators as the fuzz
//! target `ops_laws`.
//!
//! `CUTE_LAWS_SEED` sets the seed (printed on every run), `CUTE_LAWS_CALLS` the calls per
//! operation (default 200).

use crate::laws;
use cute_ops::table::Kind;
use cute_ops::value::Form;
use cute_ops::{all, run_op, Arg};
use laws::check::{self, CONTRACT_ONLY, KNOWN_OPEN, LAWS};
use laws::generate::{self, Bytes};

/// A splitmix64 stream: the bytes of one call.
pub fn bytes(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed;
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        out.extend_from_slice(&z.to_le_bytes());
    }
    out
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.trim().parse().ok()
}

#[test]
fn every_op_has_a_checker_and_generators() {
    let mut missing = Vec::new();
    for spec in all() {
        if !check::registered(spec.name) {
            missing.push(spec.name);
        }
        if check::law(spec.name).is_some() && CONTRACT_ONLY.contains(&spec.name) {
            missing.push(spec.name);
        }
    }
    assert_eq!(missing, Vec::<&str>::new(), "operations without a checker");
    // No stale entries: every registered name is an operation.
    for name in LAWS
        .iter()
        .map(|(n, _)| *n)
        .chain(CONTRACT_ONLY.iter().copied())
    {
        assert!(cute_ops::find(name).is_some(), "{name} is not an operation");
    }
    assert_eq!(LAWS.len() + CONTRACT_ONLY.len(), all().count());
    // Every kind of every declaration gets generated values, and of the right form.
    let mut kinds: Vec<Kind> = Vec::new();
    for spec in all() {
        for sig in spec.signatures() {
            for p in sig {
                for k in p.kinds {
                    if !kinds.contains(k) {
                        kinds.push(*k);
                    }
                }
            }
        }
    }
    for kind in kinds {
        let mut seen_fit = false;
        for s in 0..64u64 {
            let data = bytes(s, 256);
            let a = generate::kind_arg(&mut Bytes::new(&data), kind);
            seen_fit |= fits(kind, &a);
        }
        assert!(seen_fit, "no generated value of kind {kind} has its form");
    }
}

/// Whether a generated argument has the form of `kind`.
fn fits(kind: Kind, a: &Arg) -> bool {
    let f = Form::of(a);
    let text = a.to_string();
    match kind {
        Kind::Int | Kind::Bool => f == Form::Int,
        Kind::Tuple | Kind::Shape | Kind::Coord | Kind::Profile => {
            matches!(f, Form::Tuple | Form::Int)
        }
        Kind::Stride => matches!(f, Form::Tuple | Form::Int | Form::Basis),
        Kind::Layout => matches!(f, Form::Layout | Form::BasisLayout | Form::SumLayout),
        Kind::Basis => f == Form::Basis,
        Kind::F2Layout => matches!(f, Form::F2Layout | Form::F2BasisLayout),
        Kind::Symbolic => f == Form::Symbolic,
        Kind::Swizzle => matches!(f, Form::Swizzle | Form::SwizzleList),
        Kind::Composed => f == Form::Composed,
        Kind::Tensor | Kind::Pointer => f == Form::Tensor,
        Kind::Tiler => !text.is_empty(),
        Kind::Underscore => f == Form::Underscore,
        Kind::Values => text.split(',').all(|x| x.parse::<i64>().is_ok()),
        Kind::Binding => text.contains('='),
        Kind::Tag(t) => text == t,
        Kind::Option => text.starts_with("--"),
        Kind::Type | Kind::Atom | Kind::Field | Kind::Name | Kind::Op | Kind::Text => {
            !text.is_empty()
        }
    }
}

#[test]
fn seeded_random_calls_obey_the_laws() {
    let seed = env_u64("CUTE_LAWS_SEED").unwrap_or(0x5eed_1a75);
    let per_op = env_u64("CUTE_LAWS_CALLS").unwrap_or(200);
    eprintln!("laws_all: CUTE_LAWS_SEED={seed} CUTE_LAWS_CALLS={per_op}");
    let (mut breaks, mut known) = (Vec::new(), Vec::new());
    let (mut calls, mut answers) = (0u64, 0u64);
    for (k, spec) in all().enumerate() {
        for i in 0..per_op {
            let s = seed ^ ((k as u64) << 40) ^ i.wrapping_mul(0x2545_F491_4F6C_DD1D);
            let data = bytes(s, 512);
            let mut b = Bytes::new(&data);
            let args = laws::call(&mut b, spec);
            let result = run_op(spec.name, &args);
            calls += 1;
            answers += u64::from(result.is_ok());
            match check::judge(spec.name, &args, &result) {
                Ok(()) => {}
                Err(check::Verdict::Break(e)) => breaks.push(e),
                Err(check::Verdict::KnownOpen(e)) => known.push(e),
            }
        }
    }
    eprintln!(
        "laws_all: {calls} calls, {answers} answers, {} breaks, {} known-open; {} ops with a law checker, {} contract-only, {} known-open conditions",
        breaks.len(),
        known.len(),
        LAWS.len(),
        CONTRACT_ONLY.len(),
        KNOWN_OPEN.len()
    );
    for e in known.iter().take(5) {
        eprintln!("KNOWN-OPEN {e}");
    }
    for e in breaks.iter().take(40) {
        eprintln!("BREAK {e}");
    }
    assert!(
        breaks.is_empty(),
        "{} law breaks (seed {seed})",
        breaks.len()
    );
}

/// The checkers reject wrong answers and false refusals, with the failed condition named.
#[test]
fn checkers_reject_wrong_answers() {
    let t = |s: &str| Arg::Text(s.to_string());
    let ok = |s: &str| Ok(s.to_string());
    let law = |op: &str| check::law(op).unwrap();
    assert_eq!(
        law("coalesce")(&[t("(2,2):(1,2)")], &ok("4:2")),
        Err("R(1) = Some(2), A(1) = Some(1)".to_string())
    );
    assert_eq!(law("coalesce")(&[t("(2,2):(1,2)")], &ok("4:1")), Ok(()));
    assert_eq!(
        law("coalesce")(&[t("(2,2):(1,2)")], &ok("(2,2):(1,2)")),
        Err("modes 0 and 1 merge".to_string())
    );
    assert_eq!(
        law("size")(
            &[t("(4,8):(8,1)")],
            &Err(cute_ops::OpError::new("Overflow", "x"))
        ),
        Err("refused, the reference gives 32".to_string())
    );
    assert_eq!(
        law("composition")(&[t("(4,8):(8,1)"), t("4:8")], &ok("4:1")),
        Err("R(1) = Some(1), A(B(1)) = A(8) = Some(2)".to_string())
    );
    assert_eq!(
        law("right_inverse")(&[t("(4,8):(8,1)")], &ok("8:1")),
        Err("A(R(1)) = A(1) = Some(8) != 1".to_string())
    );
    assert_eq!(
        law("filter")(&[t("(4,2):(0,3)")], &ok("(4,2):(0,3)")),
        Err("size 8 != 2".to_string())
    );
    assert_eq!(
        law("safe_div")(&[Arg::Int(12), Arg::Int(4)], &ok("4")),
        Err("4 * 4 != 12".to_string())
    );
    // Chains: a layout outer function with a negative offset, a swizzle on top.
    let chain = [t("8:2 o -1 o 4:2")];
    assert_eq!(run_op("table", &chain), Ok("-2,2,6,10".to_string()));
    assert_eq!(law("table")(&chain, &ok("-2,2,6,10")), Ok(()));
    assert_eq!(
        law("table")(&[t("8:2 o 1 o 4:2")], &ok("2,6,10,12")),
        Err("values [2, 6, 10, 12], the reference gives [2, 6, 10, 14]".to_string())
    );
    let sw = [t("Sw<1,1,1> o 0 o 8:1")];
    assert_eq!(law("table")(&sw, &run_op("table", &sw)), Ok(()));
    assert_eq!(run_op("table", &sw), Ok("0,1,2,3,6,7,4,5".to_string()));
    // F2: the brute-force largest right inverse.
    assert_eq!(
        law("right_inverse")(&[t("(8,8):(F2(1),F2(13))")], &ok("8:F2(1)")),
        Err("F2 right inverse not largest: size(R) = 8, every i < 64 is some A(j)".to_string())
    );
    assert_eq!(
        law("right_inverse")(&[t("(8,8):(F2(9),F2(1))")], &ok("(8,8):(F2(8),F2(9))")),
        Ok(())
    );
    // Symbolic: checked under substitutions.
    assert_eq!(
        law("coalesce")(&[t("(N,4):(1,N)")], &ok("(N,4):(1,2*N)")),
        Err("at [(\"N\", 2), (\"M\", 3), (\"K\", 4)]: R(2) = Some(4), A(2) = Some(2)".to_string())
    );
}

/// The right inverse of an F2 layout is the largest one (the brute-force size).
#[test]
fn f2_right_inverse_is_largest() {
    let args = [Arg::Text("(8,8):(F2(1),F2(13))".into())];
    let r = run_op("right_inverse", &args);
    assert_eq!(r, Ok("(8,2,2,2):(F2(1),F2(13),F2(31),F2(59))".to_string()));
    assert_eq!(check::check("right_inverse", &args, &r), Ok(()));
}

/// A tiler whose modes leave gaps that no complement mode can fill (stride 6 after a mode
/// ending at 4): CuTe's complement divides the strides and the quotient is smaller than A; the
/// checker takes the definition `A o (T, complement(T, size(A)))`, not size(A).
#[test]
fn logical_divide_by_a_tiler_with_gaps_follows_the_definition() {
    let args = [
        Arg::Text("(((2,6)),5):(((15,16)),-1)".into()),
        Arg::Text("(((4)),4):(((1)),6)".into()),
    ];
    let r = run_op("logical_divide", &args);
    assert_eq!(
        r.as_deref().ok(),
        Some("(((((2,2))),(2,2)),3):(((((15,16))),(48,-1)),-2)")
    );
    assert_eq!(
        run_op("complement", &[args[1].clone(), Arg::Text("60".into())])
            .as_deref()
            .ok(),
        Some("3:24")
    );
    check::check("logical_divide", &args, &r).unwrap();
}
