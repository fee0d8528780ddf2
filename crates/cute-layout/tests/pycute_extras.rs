//! Laws of NVlabs PyCuTe's extras (not CuTe C++): `common_refinement` / `common_coarsening`
//! (join and meet of `compatible`), `greatest_common_domain`, `coalesce_z`, `layout_add`, over
//! whole small domains and by proptest.

use crate::common;

use cute_layout::{analysis::find_layout, IntTuple, Layout};
use proptest::prelude::*;

fn t(s: &str) -> IntTuple {
    s.parse().unwrap()
}

/// Tuples of 1 to 3 of `elems` whose size is at most `max`.
fn tuples_of(elems: &[IntTuple], max: i64) -> Vec<IntTuple> {
    let size = |x: &IntTuple| x.size().unwrap();
    let mut all: Vec<Vec<IntTuple>> = elems.iter().map(|x| vec![x.clone()]).collect();
    let mut frontier = all.clone();
    for _ in 1..3 {
        let mut next = Vec::new();
        for f in &frontier {
            let s: i64 = f.iter().map(size).product();
            for x in elems.iter().filter(|x| s * size(x) <= max) {
                let mut g = f.clone();
                g.push(x.clone());
                next.push(g);
            }
        }
        all.extend(next.iter().cloned());
        frontier = next;
    }
    all.into_iter()
        .map(|e| IntTuple::tuple(e).unwrap())
        .collect()
}

/// The shapes of size at most `max` and depth at most 2, ranks up to 3: integers, and tuples
/// of integers >= 2, of flat tuples of them, and of at most one extent-1 element.
fn shapes(max: i64) -> Vec<IntTuple> {
    let ints: Vec<IntTuple> = (2..=max).map(IntTuple::int).collect();
    let mut inner = ints.clone();
    inner.extend(tuples_of(&ints, max));
    inner.push(IntTuple::int(1));
    let mut out: Vec<IntTuple> = (1..=max).map(IntTuple::int).collect();
    out.extend(
        tuples_of(&inner, max)
            .into_iter()
            .filter(|x| x.elements().filter(|e| e.as_int() == Some(1)).count() <= 1),
    );
    out
}

#[test]
fn refinement_is_the_join_and_coarsening_the_meet_over_a_whole_domain() {
    let all = shapes(12);
    let by_size =
        |n: i64| -> Vec<&IntTuple> { all.iter().filter(|x| x.size().unwrap() == n).collect() };
    let mut checked = 0;
    for a in &all {
        let same = by_size(a.size().unwrap());
        for b in &same {
            let join = a.common_refinement(b);
            let uppers: Vec<&&IntTuple> = same
                .iter()
                .filter(|c| a.compatible(c) && b.compatible(c))
                .collect();
            match &join {
                Ok(r) => {
                    assert!(a.compatible(r) && b.compatible(r), "{a} {b} -> {r}");
                    assert!(
                        uppers.iter().all(|c| r.compatible(c)),
                        "{a} {b} -> {r}: not least"
                    );
                    assert_eq!(b.common_refinement(a).as_ref(), Ok(r));
                }
                Err(e) => {
                    assert_eq!(e.kind(), "NoCommonRefinement");
                    assert!(
                        uppers.is_empty(),
                        "{a} {b}: refused, but {} refines both",
                        uppers[0]
                    );
                }
            }
            let meet = a.common_coarsening(b).unwrap();
            assert!(
                meet.compatible(a) && meet.compatible(b),
                "{a} {b} -> {meet}"
            );
            for c in same.iter().filter(|c| c.compatible(a) && c.compatible(b)) {
                assert!(
                    c.compatible(&meet),
                    "{a} {b} -> {meet}: {c} is below both, not below it"
                );
            }
            assert_eq!(b.common_coarsening(a).unwrap(), meet);
            checked += 1;
        }
        assert_eq!(a.common_refinement(a).as_ref(), Ok(a));
        assert_eq!(a.common_coarsening(a).as_ref(), Ok(a));
    }
    assert!(checked > 30_000, "{checked}");
    let e = t("(2,3)").common_coarsening(&t("(4,5)")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "common_coarsening: the sizes differ (6 and 20)"
    );
    let e = t("(4,(3,5))")
        .common_refinement(&t("(4,(2,5))"))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "common_refinement: 3 and 2 have no common refinement (two different integers, an integer and a tuple of another size, or tuples of different ranks)"
    );
}

/// Each mode `s:d` of `r` lies inside one leaf of `shape`: the leaf starting at index `p` with
/// extent `n` has `p | d`, and `(d / p) * s` divides `n`.
fn inside_leaves(r: &Layout, shape: &IntTuple) -> bool {
    let mut starts = Vec::new();
    let mut p = 1i64;
    for &n in shape.leaves() {
        starts.push((p, n));
        p *= n;
    }
    r.shape_leaves()
        .iter()
        .zip(r.stride_leaves())
        .all(|(&s, &d)| {
            s == 1
                || starts
                    .iter()
                    .any(|&(p, n)| d % p == 0 && d < p * n && n % ((d / p) * s) == 0)
        })
}

#[test]
fn greatest_common_domain_over_a_whole_domain() {
    let all: Vec<IntTuple> = shapes(24).into_iter().filter(|x| x.depth() <= 1).collect();
    for a in &all {
        for b in &all {
            let r = a.greatest_common_domain(b).unwrap();
            assert_eq!(b.greatest_common_domain(a).unwrap(), r, "{a} {b}");
            assert!(r.depth() == 1, "{a} {b} -> {r}");
            let (na, nb) = (a.size().unwrap(), b.size().unwrap());
            let g = (1..=na.min(nb))
                .rev()
                .find(|k| na % k == 0 && nb % k == 0)
                .unwrap();
            assert_eq!(g % r.size(), 0, "{a} {b} -> {r}");
            assert!(
                inside_leaves(&r, a) && inside_leaves(&r, b),
                "{a} {b} -> {r}"
            );
            // Admissible compositions: col_major(a) o R exists, and is R's own function.
            for s in [a, b] {
                let c = Layout::col_major(s.clone()).unwrap().compose(&r).unwrap();
                assert!(
                    (0..r.size()).all(|i| c.index_1d(i) == r.index_1d(i)),
                    "{s} o {r}"
                );
            }
            let ds = r.stride_leaves();
            for k in 1..ds.len() {
                assert!(
                    ds[k] >= ds[k - 1] * r.shape_leaves()[k - 1],
                    "{a} {b} -> {r}"
                );
            }
            if r.size() == na && na == nb {
                assert_eq!(r, Layout::col_major(r.shape()).unwrap(), "{a} {b}");
            }
        }
    }
    // Depends only on the leaves: extent-1 leaves and nesting change nothing.
    let r = t("(5,3,3,4)")
        .greatest_common_domain(&t("(10,6,3)"))
        .unwrap();
    assert_eq!(
        r,
        t("(5,1,1,3,1,3,4)")
            .greatest_common_domain(&t("(10,(6,3))"))
            .unwrap()
    );
}

/// Every flat layout with up to `leaves` leaves, extents from `extents` and strides from
/// `strides`.
fn flat_layouts(leaves: usize, extents: &[i64], strides: &[i64]) -> Vec<Layout> {
    let mut out = Vec::new();
    let mut cur: Vec<Vec<(i64, i64)>> = vec![vec![]];
    for _ in 0..leaves {
        let mut next = Vec::new();
        for c in &cur {
            for &s in extents {
                for &d in strides {
                    let mut m = c.clone();
                    m.push((s, d));
                    next.push(m);
                }
            }
        }
        for m in &next {
            let sh: Vec<String> = m.iter().map(|x| x.0.to_string()).collect();
            let st: Vec<String> = m.iter().map(|x| x.1.to_string()).collect();
            out.push(
                format!("({}):({})", sh.join(","), st.join(","))
                    .parse()
                    .unwrap(),
            );
        }
        cur = next;
    }
    out
}

/// Most points a law on one random layout visits (`arb_layout` has up to 6^9 points).
const POINTS: i64 = 4096;

/// The indices `-(n + 12)..n + 12` around a layout of `n` points: all of them for
/// `n <= POINTS`, else `2 * POINTS` spread evenly and the 24 around each of `-n`, 0 and `n`.
fn around(n: i64) -> Vec<i64> {
    let len = 2 * (n + 12);
    if n <= POINTS {
        return (-(n + 12)..n + 12).collect();
    }
    let mut v: Vec<i64> = common::sample(len, 0, 2 * POINTS)
        .into_iter()
        .map(|k| k - (n + 12))
        .chain([-n, 0, n].into_iter().flat_map(|c| c - 12..c + 12))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

fn coalesce_z_law(l: &Layout) {
    let r = l.coalesce_z();
    assert!(r.depth() <= 1 && r.size() == l.size(), "{l} -> {r}");
    for i in around(l.size()) {
        assert_eq!(
            r.index_any(i).ok(),
            l.index_any(i).ok(),
            "{l} -> {r} at {i}"
        );
    }
    assert_eq!(r.coalesce_z(), r, "{l}");
    assert_eq!(r.coalesce(), l.coalesce(), "{l}");
}

#[test]
fn coalesce_z_keeps_the_function_on_every_index_over_a_whole_domain() {
    let all = flat_layouts(4, &[1, 2, 3], &[0, 1, 2, 3, 6, -2]);
    assert!(all.len() > 100_000);
    for l in &all {
        coalesce_z_law(l);
    }
    let l: Layout = "(2,1,6,1):(4,7,8,57)".parse().unwrap();
    assert_eq!(l.coalesce_z().to_string(), "(12,1):(4,57)");
    let l: Layout = "(2,1,6,1):(1,7,8,48)".parse().unwrap();
    assert_eq!(l.coalesce_z().to_string(), "(2,6):(1,8)");
}

fn values(l: &Layout) -> Vec<i64> {
    (0..l.size()).map(|i| l.index_1d(i).unwrap()).collect()
}

/// The layout_add law; above `POINTS` points the sums are checked on an even sample and the
/// search by values (which needs every value) is not run.
fn layout_add_law(a: &Layout, b: &Layout) {
    if a.size() > POINTS {
        match a.layout_add(b) {
            Ok(r) => {
                for i in common::sample(a.size(), POINTS, POINTS) {
                    let want = a.index_1d(i).unwrap() + b.index_1d(i).unwrap();
                    assert_eq!(r.index_1d(i), Some(want), "{a} + {b} = {r} at {i}");
                }
                assert_eq!(r, r.coalesce(), "{a} + {b} = {r}");
                assert_eq!(b.layout_add(a).unwrap(), r, "{a} + {b}");
            }
            Err(e) => assert_eq!(e.kind(), "NotALayout", "{a} + {b}: {e}"),
        }
        return;
    }
    let sums: Vec<i64> = values(a)
        .iter()
        .zip(values(b))
        .map(|(x, y)| x + y)
        .collect();
    match a.layout_add(b) {
        Ok(r) => {
            assert_eq!(values(&r), sums, "{a} + {b} = {r}");
            assert_eq!(r, r.coalesce(), "{a} + {b} = {r}");
            assert_eq!(b.layout_add(a).unwrap(), r, "{a} + {b}");
            // The construction on common sub-modes and the search by values agree.
            assert_eq!(find_layout(&sums).unwrap(), r, "{a} + {b}");
        }
        Err(e) => {
            assert_eq!(e.kind(), "NotALayout", "{a} + {b}: {e}");
            assert!(
                find_layout(&sums).is_err(),
                "{a} + {b}: refused, but a layout has the sums"
            );
        }
    }
}

#[test]
fn layout_add_over_a_whole_domain() {
    for n in [4i64, 6, 8, 12] {
        let all: Vec<Layout> = flat_layouts(3, &[2, 3, 4, 6, 8, 12], &[0, 1, 2, 3, -1])
            .into_iter()
            .filter(|l| l.size() == n)
            .collect();
        for a in &all {
            for b in &all {
                layout_add_law(a, b);
            }
            let zero: Layout = format!("{n}:0").parse().unwrap();
            assert_eq!(a.layout_add(&zero).unwrap(), a.coalesce(), "{a}");
        }
    }
    let l = |s: &str| s.parse::<Layout>().unwrap();
    let e = l("(4,3):(3,1)").layout_add(&l("(6,5):(5,1)")).unwrap_err();
    assert_eq!(e.to_string(), "layout_add: the sizes differ (12 and 30)");
}

/// The largest layouts `arb_layout` can produce (nine leaves of extent 6: 6^9 points): both laws
/// stay within their bound of points on them.
#[test]
fn laws_on_the_largest_random_layouts() {
    let a: Layout = "((6,6,6),(6,6,6),(6,6,6)):((1,6,36),(-8,8,0),(2,-3,5))"
        .parse()
        .unwrap();
    let b: Layout = "(6,6,6,6,6,6,6,6,6):(8,-8,1,0,0,3,-1,4,7)".parse().unwrap();
    let c: Layout = "(6,6,6,6,6,6,6,6,6):(1,6,36,216,1296,7776,46656,279936,1679616)"
        .parse()
        .unwrap();
    for l in [&a, &b] {
        coalesce_z_law(l);
        layout_add_law(l, &b);
        layout_add_law(&l.flatten().coalesce(), &b);
    }
    // A sum that is a layout: the compact layout plus itself.
    layout_add_law(&c, &c);
    coalesce_z_law(&c);
}

fn arb_layout() -> impl Strategy<Value = Layout> {
    let leaf = (1i64..=6, -8i64..=8);
    prop::collection::vec(prop::collection::vec(leaf, 1..=3), 1..=3).prop_map(|modes| {
        let parts: Vec<Layout> = modes
            .iter()
            .map(|m| {
                let sh: Vec<String> = m.iter().map(|x| x.0.to_string()).collect();
                let st: Vec<String> = m.iter().map(|x| x.1.to_string()).collect();
                format!("({}):({})", sh.join(","), st.join(","))
                    .parse()
                    .unwrap()
            })
            .collect();
        Layout::from_modes(parts).unwrap()
    })
}

proptest! {
    #[test]
    fn coalesce_z_law_holds(l in arb_layout()) {
        coalesce_z_law(&l);
        let profile = IntTuple::tuple((0..l.rank()).map(|_| IntTuple::int(1))).unwrap();
        let r = l.coalesce_z_by_mode(&profile).unwrap();
        prop_assert_eq!(r.rank(), l.rank());
        for (m, rm) in l.modes().zip(r.modes()) {
            prop_assert_eq!(rm, m.coalesce_z());
        }
    }

    #[test]
    fn layout_add_law_holds(a in arb_layout(), strides in prop::collection::vec(-8i64..=8, 9)) {
        // B: the same shape as A with other strides, then re-nested as a flat layout.
        let st = IntTuple::flat(strides.iter().copied().take(a.shape_leaves().len()));
        let b = Layout::new(a.shape().flatten(), st).unwrap();
        layout_add_law(&a, &b);
        layout_add_law(&a.flatten().coalesce(), &b);
    }

    #[test]
    fn greatest_common_domain_is_symmetric(a in prop::collection::vec(1i64..=12, 1..=4), b in prop::collection::vec(1i64..=12, 1..=4)) {
        let (a, b) = (IntTuple::flat(a), IntTuple::flat(b));
        let r = a.greatest_common_domain(&b).unwrap();
        prop_assert_eq!(&b.greatest_common_domain(&a).unwrap(), &r);
        prop_assert!(inside_leaves(&r, &a) && inside_leaves(&r, &b));
    }
}
