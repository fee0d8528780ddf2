//! Issue 34's reproducers for composed layouts with layouts as outer functions, through the
//! operation table every `cute OP` and `cute batch` call runs: each answer's exact text, and
//! that it is the function the operation's law names.

use cute_ops::{run_op, Arg};

fn ok(op: &str, args: &[&str]) -> String {
    let args: Vec<Arg> = args.iter().map(|s| Arg::Text((*s).into())).collect();
    run_op(op, &args).unwrap_or_else(|e| panic!("{op} {args:?}: {} {}", e.kind, e.message))
}

fn err(op: &str, args: &[&str]) -> (String, String) {
    let args: Vec<Arg> = args.iter().map(|s| Arg::Text((*s).into())).collect();
    match run_op(op, &args) {
        Ok(r) => panic!("{op} {args:?} = {r}, expected an error"),
        Err(e) => (e.kind.to_string(), e.message),
    }
}

fn table(l: &str) -> Vec<i64> {
    ok("table", &[l])
        .split(',')
        .map(|v| v.parse().unwrap())
        .collect()
}

#[test]
fn composition_of_a_layout_with_a_chain() {
    // CuTe folds (L ∘ 4:1) ∘ 8:1 = 8:1; L(i) for i < 8 is 0,1,2,3,16,17,18,19.
    assert_eq!(
        ok("composition", &["(4,4):(1,16)", "4:1 o 0 o 8:1"]),
        "(4,2):(1,16)"
    );
    assert_eq!(table("(4,2):(1,16)"), [0, 1, 2, 3, 16, 17, 18, 19]);
    assert_eq!(
        ok("composition", &["(2,2):(1,4)", "2:1 o 0 o 4:1"]),
        "(2,2):(1,4)"
    );
    // The chain written out evaluates to the same values.
    assert_eq!(
        table("(2,2):(1,4) o 0 o 2:1 o 0 o 4:1"),
        table("(2,2):(1,4)")
    );
    // CuTe's fold where the image stays in the outer layout's domain.
    assert_eq!(
        ok("composition", &["(4,4):(1,16)", "8:1 o 0 o 4:2"]),
        "(2,2):(2,16)"
    );
    // An offset (CuTe: "Require offset == 0"): the chain itself.
    assert_eq!(
        ok("composition", &["(4,4):(1,16)", "4:1 o 2 o 8:1"]),
        "(4,4):(1,16) o 0 o 4:1 o 2 o 8:1"
    );
    // A chain on the left recurses into its inner layout.
    assert_eq!(
        ok("composition", &["32:2 o 3 o (4,4):(1,16)", "4:1 o 0 o 8:1"]),
        "32:2 o 3 o (4,2):(1,16)"
    );
    assert_eq!(
        table("32:2 o 3 o (4,2):(1,16)"),
        table("32:2 o 3 o (4,4):(1,16) o 0 o 4:1 o 0 o 8:1")
    );
}

#[test]
fn inverses_of_a_chain_over_a_swizzle_with_an_offset() {
    let c = "10:1 o 0 o Sw<2,0,2> o 2 o (12,4):(4,1)";
    let r = ok("right_inverse", &[c]);
    assert_eq!(r, "(4,12):(12,1) o -2 o Sw<2,0,2> o 0 o 10:1");
    for i in 0..10 {
        let x = ok("crd2idx", &[&i.to_string(), &r]);
        assert_eq!(ok("crd2idx", &[&x, c]), i.to_string(), "C(R({i}))");
    }
    let c = "12:1 o -4 o Sw<2,2,-2> o 8 o (4):(1)";
    let l = ok("left_inverse", &[c]);
    assert_eq!(l, "4:1 o -8 o Sw<2,2,-2> o 4 o 12:1");
    for i in 0..4 {
        let y = ok("crd2idx", &[&i.to_string(), c]);
        assert_eq!(ok("crd2idx", &[&y, &l]), i.to_string(), "R(C({i}))");
    }
    assert_eq!(
        err("right_inverse", &["8:1 o 0 o (2,2):(1,4)"]),
        (
            "NotRepresentable".to_string(),
            "right_inverse: CuTe's right_inverse of 8:1 o 0 o (2,2):(1,4) is 2:1 o 0 o 8:1, \
             which breaks the law at i = 2: C(R(i)) = 4, not 2"
                .to_string()
        )
    );
}
