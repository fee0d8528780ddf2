//! Law checks: every algebra operation, on CuTe's documented examples and on random layouts,
//! checked point by point against brute-force enumeration (the only place enumeration is used).

use cute_layout::{IntTuple, Layout, LayoutError, Tiler};
use proptest::prelude::*;

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

fn table(x: &Layout) -> Vec<i64> {
    x.offsets().collect()
}

fn check_coalesce(a: &Layout) {
    let c = a.coalesce();
    assert!(c.depth() <= 1);
    assert_eq!(c.size(), a.size());
    assert_eq!(table(&c), table(a), "coalesce({a}) = {c}");
}

/// `Ok` must satisfy `R(i) == A(B(i))`; a `ModesOverlap` refusal must have a witness where the
/// per-leaf sum differs from `A(B(i))`.
fn check_compose(a: &Layout, b: &Layout) {
    match a.compose(b) {
        Ok(r) => {
            assert_eq!(r.size(), b.size(), "{a} o {b} = {r}");
            for i in 0..b.size() {
                let want = a.index_any(b.index_1d(i).unwrap()).unwrap();
                assert_eq!(r.index_1d(i).unwrap(), want, "{a} o {b} = {r} at {i}");
            }
        }
        Err(LayoutError::ModesOverlap { .. }) => {
            // Σ_k A(B_k(x_k)) must differ from A(B(x)) somewhere.
            let flat = b.flatten();
            let leaves: Vec<Layout> = if flat.is_leaf() {
                vec![flat.clone()]
            } else {
                flat.modes().collect()
            };
            let witness = (0..b.size()).any(|i| {
                let mut rest = i;
                let mut sum = 0;
                for m in &leaves {
                    let x = rest % m.size();
                    rest /= m.size();
                    sum += a.index_any(m.index_1d(x).unwrap()).unwrap();
                }
                sum != a.index_any(b.index_1d(i).unwrap()).unwrap()
            });
            assert!(
                witness,
                "{a} o {b} refused as overlapping without a witness"
            );
        }
        Err(_) => {}
    }
}

fn check_complement(a: &Layout, m: i64) {
    let Ok(r) = a.complement(m) else { return };
    let t = table(&r);
    assert!(
        t.windows(2).all(|w| w[0] < w[1]),
        "complement({a},{m}) = {r} not increasing"
    );
    let img: std::collections::HashSet<i64> = table(a).into_iter().collect();
    assert!(
        t.iter().skip(1).all(|v| !img.contains(v)),
        "complement({a},{m}) = {r} hits A"
    );
    let f = a.filter();
    assert!(
        r.size() >= m / f.size(),
        "complement({a},{m}) = {r} too small"
    );
    let both = Layout::from_modes([a.clone(), r.clone()]).unwrap();
    assert!(
        *table(&both).iter().max().unwrap() + 1 >= m,
        "complement({a},{m}) = {r} short"
    );
    let fr = Layout::from_modes([f.clone(), r.clone()]).unwrap();
    let mut v = table(&fr);
    let n = v.len();
    v.sort();
    v.dedup();
    let f_injective = {
        let mut w = table(&f);
        let k = w.len();
        w.sort();
        w.dedup();
        w.len() == k
    };
    if f_injective {
        assert_eq!(v.len(), n, "(filter({a}), {r}) not injective");
    }
}

fn check_right_inverse(a: &Layout) {
    let r = a.right_inverse();
    for i in 0..r.size() {
        assert_eq!(
            a.index_any(r.index_1d(i).unwrap()).unwrap(),
            i,
            "{a} R={r} at {i}"
        );
    }
}

fn check_left_inverse(a: &Layout) {
    let Ok(r) = a.left_inverse() else { return };
    let t = table(a);
    let mut u = t.clone();
    u.sort();
    u.dedup();
    let injective = u.len() == t.len();
    for (i, &y) in t.iter().enumerate() {
        let back = r.index_any(y).unwrap();
        if injective {
            assert_eq!(back, i as i64, "{a} L={r} at {i}");
        } else {
            assert_eq!(a.index_any(back).unwrap(), y, "{a} L={r} at {i}");
        }
    }
}

fn check_divide(a: &Layout, t: &Layout) {
    let Ok(r) = a.logical_divide(&Tiler::Layout(t.clone())) else {
        return;
    };
    let comp = t.complement_shape(&a.coalesce().shape()).unwrap();
    let b = Layout::from_modes([t.clone(), comp]).unwrap();
    assert_eq!(r.mode(0).unwrap().size(), t.size());
    for i in 0..b.size().min(a.size()) {
        let want = a.index_any(b.index_1d(i).unwrap()).unwrap();
        assert_eq!(r.index_any(i).unwrap(), want, "{a} / {t} = {r} at {i}");
    }
}

fn check_product(a: &Layout, b: &Layout) {
    let Ok(r) = a.logical_product(&Tiler::Layout(b.clone())) else {
        return;
    };
    assert_eq!(r.mode(0).unwrap(), *a);
    let comp = a.complement(a.size() * b.cosize()).unwrap();
    let m1 = r.mode(1).unwrap();
    for j in 0..b.size() {
        let want = comp.index_any(b.index_1d(j).unwrap()).unwrap();
        assert_eq!(m1.index_1d(j).unwrap(), want, "{a} x {b} = {r}");
    }
}

#[test]
fn cute_docs_coalesce() {
    for s in [
        "(2,(1,6)):(1,(6,2))",
        "(4,2):(1,4)",
        "(2,4):(4,1)",
        "((2,4),(2,8)):((1,2),(8,16))",
    ] {
        check_coalesce(&l(s));
    }
}

#[test]
fn cute_docs_composition() {
    for (a, b) in [
        ("(6,2):(8,2)", "(4,3):(3,1)"),            // Example 1
        ("(10,2):(16,4)", "(5,4):(1,5)"),          // Example 3
        ("20:2", "(5,4):(4,1)"),                   // Example 2
        ("(12,(4,8)):(59,(13,1))", "(3,8):(4,2)"), // tiler examples
        ("(4,6,8):(2,3,5)", "6:3"),
        ("(7,2):(1,21)", "4:4"),
        ("(10,2):(16,4)", "(4,5):(5,2)"),
    ] {
        check_compose(&l(a), &l(b));
    }
    assert_eq!(
        l("20:2").compose(&l("(5,4):(4,1)")).unwrap().to_string(),
        "(5,4):(8,2)"
    );
    assert_eq!(
        l("(10,2):(16,4)")
            .compose(&l("(5,4):(1,5)"))
            .unwrap()
            .to_string(),
        "(5,(2,2)):(16,(80,4))"
    );
}

#[test]
fn cute_docs_complement() {
    for (a, m) in [
        ("4:1", 24),
        ("6:4", 24),
        ("(4,6):(1,4)", 24),
        ("4:2", 24),
        ("(2,4):(1,6)", 24),
        ("(2,2):(1,6)", 24),
        ("(2,2):(1,1)", 8),
    ] {
        check_complement(&l(a), m);
    }
}

#[test]
fn cute_docs_divide_and_product() {
    check_divide(&l("(4,2,3):(2,1,8)"), &l("4:2"));
    check_divide(&l("(9,(4,8)):(59,(13,1))"), &l("3:3"));
    check_product(&l("(2,2):(4,1)"), &l("6:1"));
    check_product(&l("(2,2):(4,1)"), &l("(4,2):(2,1)"));
    let a = l("(9,(4,8)):(59,(13,1))");
    let t: Tiler = "<3:3,(2,4):(1,8)>".parse().unwrap();
    assert_eq!(
        a.logical_divide(&t).unwrap().to_string(),
        "((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))"
    );
    let b = l("(2,5):(5,1)");
    let p = b.logical_product(&"<3:5,4:6>".parse().unwrap()).unwrap();
    assert_eq!(p.to_string(), "((2,3),(5,4)):((5,10),(1,30))");
}

#[test]
fn inverses_docs() {
    for s in [
        "(8,16,4):(64,1,16)",
        "(8,(2,4)):(2,(1,32))",
        "(4,2):(1,4)",
        "(2,2):(1,1)",
        "(4):(-1)",
        "((4,4),(2,8)):((8,64),(1,2))",
    ] {
        check_right_inverse(&l(s));
        check_left_inverse(&l(s));
    }
}

#[test]
fn evenly_divides_examples() {
    let s: IntTuple = "(8,6)".parse().unwrap();
    assert!(s.evenly_divides(&"(4,3)".parse().unwrap()));
    assert!(!s.evenly_divides(&"(3,3)".parse().unwrap()));
}

/// Random layouts: depth <= 2, extents <= 6, strides in -4..=16 (mostly non-negative).
fn layout_strategy(neg: bool) -> impl Strategy<Value = Layout> {
    let lo = if neg { -4i64 } else { 0 };
    let leaf = (1i64..=6, lo..=16i64);
    prop::collection::vec(prop::collection::vec(leaf, 1..=3), 1..=3).prop_map(|modes| {
        let ms: Vec<Layout> = modes
            .into_iter()
            .map(|m| {
                if m.len() == 1 {
                    format!("{}:{}", m[0].0, m[0].1).parse().unwrap()
                } else {
                    let sh: Vec<String> = m.iter().map(|x| x.0.to_string()).collect();
                    let st: Vec<String> = m.iter().map(|x| x.1.to_string()).collect();
                    format!("({}):({})", sh.join(","), st.join(","))
                        .parse()
                        .unwrap()
                }
            })
            .collect();
        if ms.len() == 1 {
            ms.into_iter().next().unwrap()
        } else {
            Layout::from_modes(ms).unwrap()
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn coalesce_keeps_the_function(a in layout_strategy(true)) {
        check_coalesce(&a);
        let f = a.filter();
        let mut x: Vec<i64> = table(&a); x.sort(); x.dedup();
        let mut y: Vec<i64> = table(&f); y.sort(); y.dedup();
        prop_assert_eq!(x, y);
    }

    #[test]
    fn compose_agrees_pointwise(a in layout_strategy(true), b in layout_strategy(false)) {
        if b.size() > 512 {
            return Ok(());
        }
        check_compose(&a, &b);
    }

    #[test]
    fn complement_is_ordered_and_disjoint(a in layout_strategy(false), k in 1i64..4) {
        let m = a.filter().cosize() * k;
        check_complement(&a, m);
    }

    #[test]
    fn right_inverse_law(a in layout_strategy(true)) {
        check_right_inverse(&a);
    }

    #[test]
    fn left_inverse_law(a in layout_strategy(true)) {
        check_left_inverse(&a);
    }

    #[test]
    fn divide_and_product_laws(a in layout_strategy(false), t in layout_strategy(false)) {
        if a.size() > 512 || t.size() > 64 {
            return Ok(());
        }
        check_divide(&a, &t);
        check_product(&t, &a.coalesce());
    }
}
