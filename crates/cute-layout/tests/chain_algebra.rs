//! The algebra of general composed layouts ([`LayoutChain`]): CuTe's `right_inverse`,
//! `left_inverse`, `complement`, `nullspace` and `composition` with a swizzle on the right.
//! Each answer is CuTe's construction; the tests check the laws point by point over a whole
//! small domain of chains, and that a refusal happens only where CuTe's construction breaks the
//! law.

use crate::common;

use cute_layout::{IntTuple, Layout, LayoutChain, OuterFn, ScaledBasis, Swizzle};
use proptest::prelude::*;

/// Every flat layout of rank 1 or 2 with the given extents and strides.
fn flats(extents: &[i64], strides: &[i64]) -> Vec<Layout> {
    let mut out = Vec::new();
    for &s in extents {
        for &d in strides {
            out.push(common::flat(&[(s, d)]));
            for &s2 in extents {
                for &d2 in strides {
                    out.push(common::flat(&[(s, d), (s2, d2)]));
                }
            }
        }
    }
    out
}

/// `C(R(i)) == i` on R's domain.
fn right_law(c: &LayoutChain, r: &LayoutChain) -> Option<i64> {
    (0..r.size()).find(|&i| {
        let x = r.index_any(i).unwrap();
        c.index_any(x).unwrap() != i
    })
}

/// `C(R(C(i))) == C(i)`, and `R(C(i)) == i` if C is injective.
fn left_law(c: &LayoutChain, r: &LayoutChain) -> Option<i64> {
    let vals: Vec<i64> = (0..c.size()).map(|i| c.index_any(i).unwrap()).collect();
    let mut sorted = vals.clone();
    sorted.sort_unstable();
    sorted.dedup();
    let injective = sorted.len() == vals.len();
    (0..c.size()).find(|&i| {
        let x = r.index_any(vals[i as usize]).unwrap();
        (injective && x != i) || c.index_any(x).unwrap() != vals[i as usize]
    })
}

/// CuTe's construction for one layout layer `A o O o B`: `inv(B) o -O o inv(A)`.
fn cute_formula(a: &Layout, off: i64, b: &Layout, right: bool) -> Option<LayoutChain> {
    let (ra, rb) = if right {
        (a.right_inverse(), b.right_inverse())
    } else {
        (a.left_inverse().ok()?, b.left_inverse().ok()?)
    };
    Some(LayoutChain::from_layers([(OuterFn::Layout(rb), -off)], ra))
}

/// Law over a whole small domain: every chain `A o O o B` with A, B flat layouts of rank <= 2
/// (extents 1..4, strides 0..4) and offsets 0..3. Each inverse is CuTe's construction, it obeys
/// its law, and a refusal is a case where CuTe's construction breaks the law.
#[test]
fn inverses_of_one_layer_chains_obey_the_laws() {
    let outers = flats(&[2, 4], &[0, 1, 2]);
    let inners = flats(&[1, 2, 3], &[0, 1, 2, 4]);
    let (mut answered, mut refused) = (0usize, 0usize);
    for a in &outers {
        for b in &inners {
            for off in [0i64, 1, 3] {
                let c = LayoutChain::new(OuterFn::Layout(a.clone()), off, b.clone());
                for right in [true, false] {
                    let got = if right {
                        c.right_inverse()
                    } else {
                        c.left_inverse()
                    };
                    let cute = cute_formula(a, off, b, right);
                    match got {
                        Ok(r) => {
                            answered += 1;
                            let bad = if right {
                                right_law(&c, &r)
                            } else {
                                left_law(&c, &r)
                            };
                            assert_eq!(bad, None, "{c}: {r} breaks the law (right: {right})");
                            assert_eq!(Some(&r), cute.as_ref(), "{c}: not CuTe's construction");
                        }
                        Err(e) => {
                            refused += 1;
                            if let Some(f) = cute {
                                assert_eq!(e.kind(), "NotRepresentable", "{c}: {e}");
                                let bad = if right {
                                    right_law(&c, &f)
                                } else {
                                    left_law(&c, &f)
                                };
                                assert!(bad.is_some(), "{c}: refused, but CuTe's {f} is lawful");
                            }
                        }
                    }
                }
            }
        }
    }
    // CuTe's construction holds where inv(A)(i) - O stays in the domain that inv(B) inverts;
    // about 4 in 10 of these small chains leave it.
    assert!(answered > refused, "{answered} answered, {refused} refused");
}

/// Chains with swizzle layers among the layout layers: the answer obeys the law wherever one
/// is given.
#[test]
fn inverses_of_mixed_chains_obey_the_laws() {
    let sws = [(1, 0, 1), (1, 0, 2), (2, 0, 2), (1, 1, 2)];
    let outers = flats(&[2, 4, 8], &[1, 2]);
    let inners = ["16:1", "(4,4):(4,1)", "(2,8):(8,1)", "(4,2):(1,8)", "8:2"];
    let mut answered = 0usize;
    for &(b, m, s) in &sws {
        let sw = Swizzle::new(b, m, s).unwrap();
        for a in &outers {
            for inner in inners {
                let l: Layout = inner.parse().unwrap();
                for layers in [
                    vec![(OuterFn::Layout(a.clone()), 0), (OuterFn::Swizzle(sw), 0)],
                    vec![(OuterFn::Swizzle(sw), 0), (OuterFn::Layout(a.clone()), 0)],
                    vec![(OuterFn::Swizzle(sw), 0), (OuterFn::Layout(a.clone()), 2)],
                ] {
                    let c = LayoutChain::from_layers(layers, l.clone());
                    if let Ok(r) = c.right_inverse() {
                        answered += 1;
                        assert_eq!(right_law(&c, &r), None, "{c}: {r}");
                    }
                    if let Ok(r) = c.left_inverse() {
                        answered += 1;
                        assert_eq!(left_law(&c, &r), None, "{c}: {r}");
                    }
                }
            }
        }
    }
    assert!(answered > 200, "{answered}");
}

/// CuTe's answers (CuTe 4.2, host-only build; also in the conformance vectors).
#[test]
fn cute_answers() {
    let chain = |s: &str| s.parse::<LayoutChain>().unwrap();
    let cases = [
        (
            "32:2 o 3 o (2,4):(1,2)",
            "8:1 o -3 o 1:0",
            "8:1 o -3 o (2,32):(0,1)",
        ),
        (
            "(4,4):(4,1) o 0 o (2,8):(8,1)",
            "(8,2):(2,1) o 0 o (4,4):(4,1)",
            "(8,2):(2,1) o 0 o (4,4):(4,1)",
        ),
        (
            "16:2 o 0 o Sw<2,0,2> o 0 o 16:1",
            "Sw<2,0,2> o 0 o 16:1 o 0 o 1:0",
            "Sw<2,0,2> o 0 o 16:1 o 0 o (2,16):(0,1)",
        ),
    ];
    for (c, r, l) in cases {
        assert_eq!(chain(c).right_inverse().unwrap().to_string(), r);
        assert_eq!(chain(c).left_inverse().unwrap().to_string(), l);
    }
    assert_eq!(
        chain("Sw<2,0,2> o 0 o 16:1 o 0 o Sw<1,0,1> o 0 o 16:1")
            .right_inverse()
            .unwrap()
            .to_string(),
        "Sw<1,0,1> o 0 o 16:1 o 0 o Sw<2,0,2> o 0 o 16:1"
    );
    let sw = Swizzle::new(3, 0, 3).unwrap();
    assert_eq!(
        chain("32:2 o 3 o (8,8):(8,1)")
            .compose_swizzle(&sw)
            .unwrap()
            .to_string(),
        "32:2 o 3 o Sw<3,0,-3> o 0 o (8,8):(8,1)"
    );
    let c = chain("32:2 o 3 o (2,4):(2,4)");
    assert_eq!(c.complement_cosize().unwrap().to_string(), "2:1");
    assert_eq!(
        c.complement(&IntTuple::int(64)).unwrap().to_string(),
        "(2,4):(1,16)"
    );
    assert_eq!(
        chain("32:2 o 3 o (2,4):(0,4)").nullspace().to_string(),
        "1:0"
    );
    // A swizzle with an offset under a layout: CuTe's inverse is a composed layout over the
    // swizzle, given its domain by the outer layout's inverse.
    assert_eq!(
        chain("8:1 o 0 o Sw<1,0,1> o 2 o 8:1")
            .right_inverse()
            .unwrap()
            .to_string(),
        "8:1 o -2 o Sw<1,0,1> o 0 o 8:1"
    );
    // Outermost, it leaves the answer without a domain.
    let e = chain("Sw<1,0,1> o 2 o 8:1 o 0 o 8:1")
        .right_inverse()
        .unwrap_err();
    assert_eq!(e.kind(), "NotRepresentable");
}

fn modes(max_rank: usize) -> impl Strategy<Value = Vec<(i64, i64)>> {
    prop::collection::vec((1i64..=4, -2i64..=8), 1..=max_rank)
}

proptest! {
    /// Random chains of one or two layout layers: an inverse, when given, obeys its law; the
    /// complement and nullspace are CuTe's (the inner layout's complement, `1:0`); composing
    /// with a swizzle on the right evaluates the chain after the swizzle.
    #[test]
    fn chain_algebra_laws(
        a in modes(2), b in modes(2), inner in modes(3), o1 in -2i64..=4, o2 in 0i64..=3,
        two in any::<bool>(), k in 1i64..=3
    ) {
        let (la, lb, li) = (common::flat(&a), common::flat(&b), common::flat(&inner));
        let mut layers = vec![(OuterFn::Layout(la), o1)];
        if two {
            layers.push((OuterFn::Layout(lb), o2));
        }
        let c = LayoutChain::from_layers(layers, li.clone());
        if let Ok(r) = c.right_inverse() {
            prop_assert_eq!(right_law(&c, &r), None, "{} -> {}", c, r);
        }
        if let Ok(r) = c.left_inverse() {
            prop_assert_eq!(left_law(&c, &r), None, "{} -> {}", c, r);
        }
        let m = IntTuple::int(i64::try_from(li.cosize()).unwrap() * k);
        prop_assert_eq!(c.complement(&m).ok(), li.complement_shape(&m).ok());
        prop_assert_eq!(c.nullspace().to_string(), "1:0");
        let sw = Swizzle::new(1, 0, 1).unwrap();
        let sq: Layout = "(4,4):(4,1)".parse().unwrap();
        let c2 = c.map(|_| Ok(sq.clone())).unwrap();
        if let Ok(r) = c2.compose_swizzle(&sw) {
            for i in 0..16 {
                prop_assert_eq!(r.index_any(i).unwrap(), c2.index_any(sw.apply(i)).unwrap());
            }
        }
    }
}

/// Every basis-strided layout of rank <= 2 with extents 1..4 and strides `v@p` (v in 0..4, p
/// in 0..1, or `v@0@1`) or a plain 0.
fn basis_layouts() -> Vec<Layout<ScaledBasis>> {
    let mut strides: Vec<String> = vec!["0".into()];
    for v in 0..=4 {
        for p in ["@0", "@1", "@0@1"] {
            strides.push(format!("{v}{p}"));
        }
    }
    let mut out = Vec::new();
    for s0 in 1..=4 {
        for d0 in &strides {
            out.push(format!("{s0}:{d0}").parse().unwrap());
            for s1 in 1..=4 {
                for d1 in &strides {
                    out.push(format!("({s0},{s1}):({d0},{d1})").parse().unwrap());
                }
            }
        }
    }
    out
}

/// The entry of coordinate `c` at `path` (0 where `c` is narrower).
fn entry(c: &IntTuple, path: &[usize]) -> i64 {
    let mut cur = c.clone();
    for &i in path {
        if cur.is_int() {
            return if i == 0 { cur.as_int().unwrap() } else { 0 };
        }
        match cur.get(i) {
            Some(x) => cur = x,
            None => return 0,
        }
    }
    if cur.is_int() {
        cur.as_int().unwrap()
    } else {
        assert!(cur.leaves().iter().all(|&x| x == 0), "{c} at {path:?}");
        0
    }
}

/// Law over a whole small domain of basis-strided layouts: coshape bounds every value, the
/// nullspace maps to the zero coordinate, the slot-by-slot inverses obey their laws (checked
/// here independently: every coordinate of R's domain for the right inverse, every point of
/// L's for the left one).
#[test]
fn basis_algebra_obeys_the_laws() {
    let (mut right, mut left) = (0usize, 0usize);
    for l in basis_layouts() {
        let paths: Vec<Vec<usize>> = {
            let mut v: Vec<Vec<usize>> = l
                .stride_leaves()
                .iter()
                .map(|d| d.path().collect::<Vec<_>>())
                .filter(|p| !p.is_empty())
                .collect();
            v.sort();
            v.dedup();
            v
        };
        let Some(vals) = (0..l.size())
            .map(|i| l.value_1d(i))
            .collect::<Option<Vec<IntTuple>>>()
        else {
            // A coordinate mode stepped along both as a whole and inside (`1@1` and `1@0@1`).
            assert!(
                l.right_inverse().is_err() && l.left_inverse().is_err(),
                "{l}"
            );
            continue;
        };
        if let Ok(cs) = l.coshape() {
            for v in &vals {
                for p in &paths {
                    assert!(entry(v, p) < entry(&cs, p), "{l}: {v} !< {cs}");
                }
            }
        }
        let k = l.nullspace();
        for i in 0..k.size() {
            let v = l.value_1d(k.index_1d(i).unwrap()).unwrap();
            assert!(v.leaves().iter().all(|&x| x == 0), "{l}: nullspace {k}");
        }
        if let Ok(r) = l.right_inverse() {
            right += 1;
            let shape = r.shape();
            for i in 0..r.size() {
                let c = shape.idx2crd(&IntTuple::int(i)).unwrap();
                let v = l.value_1d(r.index(&c).unwrap()).unwrap();
                for p in &paths {
                    // R's modes at slot p read the coordinate's entry there as a 1-D index.
                    let sub = r.shape().get_at(p).unwrap();
                    let want = sub.crd2idx(&c.get_at(p).unwrap()).unwrap();
                    assert_eq!(entry(&v, p), want, "{l}: R = {r} at {c}");
                }
            }
        }
        if let Ok(r) = l.left_inverse() {
            left += 1;
            let mut distinct: Vec<String> = vals.iter().map(|v| v.to_string()).collect();
            distinct.sort();
            distinct.dedup();
            let injective = distinct.len() == vals.len();
            for (i, v) in vals.iter().enumerate() {
                let c = fit_to(v, &r.shape());
                let x = r.index(&c).unwrap();
                if injective {
                    assert_eq!(x, i as i64, "{l}: left inverse {r} at {v}");
                }
                // CuTe evaluates L at any integer (the last mode runs on).
                let back = l.value(&IntTuple::int(x)).unwrap();
                for p in &paths {
                    assert_eq!(entry(&back, p), entry(v, p), "{l}: {r} at {v}");
                }
            }
        }
    }
    assert!(
        right > 2000 && left > 2000,
        "{right} right, {left} left inverses"
    );
}

/// `c` padded with zeros to the tree of `s` (an integer entry stays a 1-D index).
fn fit_to(c: &IntTuple, s: &IntTuple) -> IntTuple {
    if c.is_int() && s.is_int() {
        return c.clone();
    }
    if s.is_int() {
        return IntTuple::int(entry(c, &[]));
    }
    if c.is_int() && c.as_int() != Some(0) {
        return c.clone();
    }
    let elems: Vec<IntTuple> = (0..s.rank())
        .map(|k| {
            let sk = s.get(k).unwrap();
            match c.get(k) {
                Some(ck) if !c.is_int() => fit_to(&ck, &sk),
                _ => fit_to(&IntTuple::int(0), &sk),
            }
        })
        .collect();
    IntTuple::tuple(elems).unwrap()
}

/// The answers for NVlabs PyCuTe's test inputs (their generalized laws; CuTe C++ does not
/// compile these) and CuTe's own coshape / coprofile / cosize / nullspace.
#[test]
fn basis_answers() {
    let b = |s: &str| s.parse::<Layout<ScaledBasis>>().unwrap();
    assert_eq!(
        b("(4,5):(1@1,1@0)").right_inverse().unwrap().to_string(),
        "(5,4):(4,1)"
    );
    assert_eq!(
        b("(4,5):(1@1,1@1@4)").left_inverse().unwrap().to_string(),
        "(1,4,1,1,(1,5)):(0,1,0,0,(0,4))"
    );
    assert_eq!(
        b("(4,5):(2@0,2@1)").left_inverse().unwrap().to_string(),
        "((2,4),(2,5)):((0,1),(0,4))"
    );
    assert_eq!(
        b("(2,5,3):(4@1,5@0,16@1)").coshape().unwrap().to_string(),
        "(21,37)"
    );
    assert_eq!(
        b("(2,3,5):(4@1,0,7@1@2)").coprofile().unwrap().to_string(),
        "(0,0,(0,0))"
    );
    assert_eq!(b("(4,(2,3)):(1@0,(1@0@1,1@1@1))").cosize().unwrap(), 24);
    assert_eq!(b("(4,5):(0,1@0)").nullspace().to_string(), "4:1");
    assert_eq!(b("(4,5):(0@1,1@0)").nullspace().to_string(), "1:0");
    assert_eq!(
        b("(2,3):(1,1@1)").coshape().unwrap_err().kind(),
        "InvalidArgument"
    );
    assert_eq!(
        b("(2,2):(1@0,1@0@0)").left_inverse().unwrap_err().kind(),
        "InvalidArgument"
    );
}

fn basis_modes() -> impl Strategy<Value = Vec<(i64, i64, usize)>> {
    prop::collection::vec((1i64..=4, -1i64..=9, 0usize..4), 1..=4)
}

proptest! {
    /// Random basis-strided layouts (strides `v@0`, `v@1`, `v@0@1` or a plain 0): each inverse,
    /// when given, obeys its law slot by slot; coshape bounds every value of a layout with
    /// non-negative strides.
    #[test]
    fn basis_inverse_laws(m in basis_modes()) {
        let paths = ["@0", "@1", "@0@1", ""];
        let sh: Vec<String> = m.iter().map(|x| x.0.to_string()).collect();
        let st: Vec<String> = m
            .iter()
            .map(|x| if x.2 == 3 { "0".to_string() } else { format!("{}{}", x.1, paths[x.2]) })
            .collect();
        let l: Layout<ScaledBasis> = format!("({}):({})", sh.join(","), st.join(",")).parse().unwrap();
        let Some(vals) = (0..l.size()).map(|i| l.value_1d(i)).collect::<Option<Vec<IntTuple>>>() else {
            return Ok(());
        };
        let mut used: Vec<Vec<usize>> = l
            .stride_leaves()
            .iter()
            .map(|d| d.path().collect::<Vec<_>>())
            .filter(|p| !p.is_empty())
            .collect();
        used.sort();
        used.dedup();
        if let Ok(r) = l.left_inverse() {
            for v in &vals {
                let x = r.index(&fit_to(v, &r.shape())).unwrap();
                let back = l.value(&IntTuple::int(x)).unwrap();
                for p in &used {
                    prop_assert_eq!(entry(&back, p), entry(v, p), "{} {} at {}", l, r, v);
                }
            }
        }
        if let Ok(r) = l.right_inverse() {
            let shape = r.shape();
            for i in 0..r.size() {
                let c = shape.idx2crd(&IntTuple::int(i)).unwrap();
                let v = l.value_1d(r.index(&c).unwrap()).unwrap();
                for p in &used {
                    let (sub, cp) = (shape.get_at(p).unwrap(), c.get_at(p).unwrap());
                    prop_assert_eq!(entry(&v, p), sub.crd2idx(&cp).unwrap(), "{} {}", l, r);
                }
            }
        }
        if m.iter().all(|x| x.1 >= 0) {
            if let Ok(cs) = l.coshape() {
                for v in &vals {
                    for p in &used {
                        prop_assert!(entry(v, p) < entry(&cs, p).max(1), "{} {} {}", l, v, cs);
                    }
                }
            }
        }
    }
}
