//! Every operation of the table with arguments at the edge of `i64` (layouts whose largest
//! offset is `i64::MAX`, cosize `2^63`; negative strides of that reach; extents, strides,
//! cotargets and coordinates near `i64::MAX`): no panic; each answer of a declared kind and
//! obeying the law registry's checker (`laws/check.rs`), and a layout answer prints back; a
//! refusal is a typed error. Plus the issue-34 inputs with their exact answers.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use crate::laws;
use cute_ops::table::{Arity, Kind};
use cute_ops::{all, run_op, Arg};
use laws::check;
use laws::generate::{self, Bytes};

fn text(args: &[&str]) -> Vec<Arg> {
    args.iter().map(|s| Arg::Text((*s).to_string())).collect()
}

fn ok(op: &str, args: &[&str]) -> String {
    run_op(op, &text(args)).unwrap_or_else(|e| panic!("{op} {args:?}: {e:?}"))
}

fn err(op: &str, args: &[&str]) -> String {
    let e = run_op(op, &text(args)).unwrap_err();
    format!("{}: {}", e.kind, e.message)
}

/// Issue 34: `complement (5):(8) i64::MAX` is `(8,230584300921369396):(1,40)`, cosize `2^63`.
#[test]
fn complement_up_to_i64_max_and_cosize_2_pow_63() {
    let r = ok("complement", &["(5):(8)", "9223372036854775807"]);
    assert_eq!(r, "(8,230584300921369396):(1,40)");
    assert_eq!(ok("cosize", &[&r]), "9223372036854775808");
    assert_eq!(ok("coalesce", &[&r]), "(8,230584300921369396):(1,40)");
    assert_eq!(
        ok("crd2idx", &["1844674407370955167", &r]),
        "9223372036854775807"
    );
    assert_eq!(ok("complement", &[&r]), "5:8");
    assert_eq!(
        ok("complement", &["(5):(8)", "9223372036854775767"]),
        "(8,230584300921369395):(1,40)"
    );
    assert_eq!(
        ok("cosize", &["2:-9223372036854775807"]),
        "9223372036854775808"
    );
    assert_eq!(
        ok("cosize", &["(2,2):(-1,9223372036854775806)"]),
        "9223372036854775808"
    );
    assert_eq!(
        ok("cosize", &["2:9223372036854775806"]),
        "9223372036854775807"
    );
    // cosize 2^63 + 1: an offset past i64, refused naming the overflow
    assert_eq!(
        err("cosize", &["(2,2):(1,9223372036854775807)"]),
        "ParseError: cosize: argument 1 (layout): make_layout: integer overflow"
    );
    assert_eq!(
        err("complement", &["(5):(8)", "(9223372036854775807,2)"]),
        "Overflow: complement: integer overflow"
    );
    assert_eq!(ok("right_inverse", &["2:9223372036854775807"]), "1:0");
    assert_eq!(
        ok("composition", &["2:9223372036854775807", "(2,2):(1,0)"]),
        "(2,2):(9223372036854775807,0)"
    );
}

/// Values at the edge, by kind.
fn edge_pool(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Layout => &[
            "2:9223372036854775807",
            "2:-9223372036854775807",
            "(8,230584300921369396):(1,40)",
            "(2,3):(1,4611686018427387903)",
            "(2,2):(-1,9223372036854775806)",
            "9223372036854775807:1",
            "(2,2):(4611686018427387904,4611686018427387903)",
        ],
        Kind::Int => &[
            "9223372036854775807",
            "-9223372036854775807",
            "4611686018427387904",
        ],
        Kind::Tuple | Kind::Shape => &[
            "9223372036854775807",
            "(2,4611686018427387903)",
            "(9223372036854775807,1)",
            "(3074457345618258602,3)",
        ],
        Kind::Stride => &[
            "(1,9223372036854775806)",
            "9223372036854775807",
            "-9223372036854775807",
        ],
        Kind::Coord => &["9223372036854775806", "(1,4611686018427387902)", "(1,1)"],
        Kind::Composed => &[
            "9223372036854775807:1 o 0 o 2:4611686018427387903",
            "2:9223372036854775807 o 0 o 2:1",
            "Sw<1,0,1> o 0 o (2,2):(1,9223372036854775806)",
            "Sw<1,0,1> o 9223372036854775804 o 2:1",
        ],
        Kind::Tiler => &[
            "2:9223372036854775807",
            "(2,4611686018427387903)",
            "<2:9223372036854775807,_>",
        ],
        Kind::Tensor => &[
            "counting_iter(0) o 2:9223372036854775807",
            "counting_iter(9223372036854775806) o 2:1",
        ],
        Kind::Symbolic => &[
            "(2,N):(9223372036854775807,1)",
            "(N,2):(1,4611686018427387903)",
        ],
        Kind::F2Layout => &[
            "2:F2(9223372036854775807)",
            "(2,2):(F2(4611686018427387904),F2(1))",
            "3:F2(4611686018427387904)",
        ],
        _ => &[],
    }
}

use crate::laws_all::bytes;

/// One call: a panic, a law break, a layout answer that does not print back, or a call slower
/// than a second is a finding.
fn probe(op: &str, args: &[Arg], findings: &mut Vec<String>) -> bool {
    let start = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(|| run_op(op, args)));
    let shown = check::args_text(args);
    if start.elapsed() > Duration::from_secs(1) {
        findings.push(format!("{op} {shown}: {:?}", start.elapsed()));
    }
    let Ok(result) = result else {
        findings.push(format!("{op} {shown}: panicked"));
        return false;
    };
    if let Err(e) = check::check(op, args, &result) {
        findings.push(e);
    }
    if let Ok(ans) = &result {
        if let Ok(l) = ans.trim().parse::<cute_layout::Layout>() {
            if l.to_string() != ans.trim() {
                findings.push(format!("{op} {shown}: {ans} prints back as {l}"));
            }
        }
    }
    result.is_ok()
}

/// Every operation, every signature: a generated call of the declared kinds (the law registry's
/// generators), then each argument in turn replaced by every edge value of each kind its
/// parameter takes.
#[test]
fn every_op_at_the_i64_edge_answers_lawfully_or_refuses() {
    let mut findings = Vec::new();
    let (mut calls, mut answers) = (0usize, 0usize);
    for (k, spec) in all().enumerate() {
        for (g, sig) in spec.signatures().enumerate() {
            let params: Vec<_> = sig
                .iter()
                .filter(|p| !matches!(p.arity, Arity::Many | Arity::Optional))
                .collect();
            for base in 0..2u64 {
                let data = bytes((k as u64) << 20 ^ (g as u64) << 8 ^ base, 512);
                let mut b = Bytes::new(&data);
                let args: Vec<Arg> = params
                    .iter()
                    .map(|p| generate::kind_arg(&mut b, p.kinds[0]))
                    .collect();
                for (pos, p) in params.iter().enumerate() {
                    for &kind in p.kinds {
                        for edge in edge_pool(kind) {
                            let mut a = args.clone();
                            a[pos] = Arg::Text((*edge).to_string());
                            calls += 1;
                            answers += usize::from(probe(spec.name, &a, &mut findings));
                        }
                    }
                }
            }
        }
    }
    assert_eq!(findings, Vec::<String>::new(), "{calls} calls");
    assert!(
        calls > 2000 && answers > 300,
        "{calls} calls, {answers} answers"
    );
}
