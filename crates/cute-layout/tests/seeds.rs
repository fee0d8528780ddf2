//! Every example of seeds 000, 001, 002 and 004 (the project's source documents) as a test.

use cute_layout::{Layout, LayoutError};

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

/// Brute-force check of `R(i) == A(B(i))` over B's domain.
fn composes(a: &Layout, b: &Layout, r: &Layout) -> bool {
    r.size() == b.size()
        && (0..b.size())
            .all(|i| r.index_1d(i).unwrap() == a.index_any(b.index_1d(i).unwrap()).unwrap())
}

// Seed 000: complement examples.
#[test]
fn seed000_complement_of_4_3() {
    // complement((4):(3), 24) = (3,2):(1,12); more generally complement(n:d, knd) = (d,k):(1,nd)
    assert_eq!(
        l("(4):(3)").complement(24).unwrap().to_string(),
        "(3,2):(1,12)"
    );
    for k in 1..5 {
        let r = l("4:3").complement(12 * k).unwrap();
        let expect = if k == 1 {
            "3:1".to_string()
        } else {
            format!("(3,{k}):(1,12)")
        };
        assert_eq!(r.to_string(), expect);
    }
}

#[test]
fn seed000_equivalent_layouts_have_equal_functions() {
    // (10):(3) and (2,5):(3,6) are the same function
    let a = l("(10):(3)");
    let b = l("(2,5):(3,6)");
    assert_eq!(
        a.offsets().collect::<Vec<_>>(),
        b.offsets().collect::<Vec<_>>()
    );
    assert_eq!(a.coalesce(), b.coalesce());
}

// Seed 001: coalesce of adjacent modes and the complement formula.
#[test]
fn seed001_coalesce_rules() {
    // (N0,N1):(d0,N0*d0) merges into (N0*N1):(d0); size-1 modes vanish
    assert_eq!(l("(3,4):(2,6)").coalesce().to_string(), "12:2");
    assert_eq!(l("(1,5):(7,3)").coalesce().to_string(), "5:3");
    assert_eq!(l("(1,2,3):(1,1,2)").coalesce().to_string(), "6:1");
    assert_eq!(l("((1,2),3):((1,1),2)").coalesce().to_string(), "6:1");
}

#[test]
fn seed001_complement_formula() {
    // complement(A, M) = (d0, d1/(N0 d0), ..., M/(Na da)) : (1, N0 d0, ..., Na da)
    let r = l("(2,4):(3,12)").complement(96).unwrap();
    assert_eq!(r.to_string(), "(3,2,2):(1,6,48)");
    let mut all: Vec<i64> = l("(2,4):(3,12)")
        .offsets()
        .flat_map(|x| r.offsets().map(move |y| x + y))
        .collect();
    all.sort();
    assert_eq!(all, (0..96).collect::<Vec<_>>());
}

#[test]
fn seed001_composition_of_a_prefix() {
    // (3,6,2,8):(w,x,y,z) o 16:9 = (1,2,2,4):(9w,3x,y,z) -> coalesced by CuTe's walk
    let a = l("(3,6,2,8):(1,3,18,36)");
    let b = l("16:9");
    let r = a.compose(&b).unwrap();
    assert!(composes(&a, &b, &r));
}

// Seed 002: six passing compositions give CuTe's layouts, three mismatches give errors.
#[test]
fn seed002_passing_cases_match_cute() {
    for (a, b, c) in [
        ("(6,2):(8,2)", "(4,3):(3,1)", "((2,2),3):((24,2),8)"),
        ("(10,2):(16,4)", "(10,2):(2,1)", "((5,2),2):((32,4),16)"),
        ("(10,2):(16,4)", "(5,4):(1,5)", "(5,(2,2)):(16,(80,4))"),
        ("(10,2):(16,4)", "(5,2):(2,1)", "(5,2):(32,16)"),
        ("(10,2):(16,4)", "(4,5):(5,1)", "((2,2),5):((80,4),16)"),
        ("(10,2):(16,4)", "(2,10):(10,2)", "(2,(5,2)):(4,(32,4))"),
    ] {
        let (a, b) = (l(a), l(b));
        let r = a.compose(&b).unwrap();
        assert_eq!(r.to_string(), c, "{a} o {b}");
        assert!(composes(&a, &b, &r));
    }
}

#[test]
fn seed002_mismatches_are_errors() {
    for (a, b) in [
        ("(10,2):(16,4)", "(4,5):(5,2)"),
        ("(10,2):(16,4)", "(2,5):(5,2)"),
        ("(6,2):(8,2)", "(4,3):(3,2)"),
    ] {
        let err = l(a).compose(&l(b)).unwrap_err();
        assert!(
            matches!(err, LayoutError::ModesOverlap { .. }),
            "{a} o {b}: {err}"
        );
    }
    let err = l("(10,2):(16,4)").compose(&l("(4,5):(5,2)")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "composition: modes 0 and 1 of (4,5):(5,2) overlap in the coordinate space of (10,2):(16,4)"
    );
}

// Seed 004: right inverse.
#[test]
fn seed004_right_inverse() {
    let a = l("(8,16,4):(64,1,16)");
    let r = a.right_inverse();
    assert_eq!(r.to_string(), "(64,8):(8,1)");
    // the manual inverse (16,4,8):(8,128,1) coalesces to the same layout
    assert_eq!(
        l("(16,4,8):(8,128,1)").coalesce().to_string(),
        "(64,8):(8,1)"
    );
    for i in 0..r.size() {
        assert_eq!(a.index_any(r.index_1d(i).unwrap()).unwrap(), i);
    }
}

// SPEC section 4: soundness examples.
#[test]
fn spec_soundness_examples() {
    assert!(
        l("(4,3):(0,1)").compose(&l("(2,3):(2,1)")).is_err() || {
            let (a, b) = (l("(4,3):(0,1)"), l("(2,3):(2,1)"));
            composes(&a, &b, &a.compose(&b).unwrap())
        }
    );
    assert!(matches!(
        l("(2,2):(1,1)").complement(8),
        Err(LayoutError::NotInjective { .. })
    ));
    assert!(l("(4,6,8):(2,3,5)").compose(&l("6:3")).is_err()); // cutlass#3177
    let (a, b) = (l("(7,2):(1,21)"), l("4:4"));
    match a.compose(&b) {
        Ok(r) => assert!(composes(&a, &b, &r)),
        Err(e) => assert!(matches!(e, LayoutError::StrideNotDivisible { .. })),
    }
}
