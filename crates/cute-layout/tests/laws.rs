//! Law checks: every algebra operation, on CuTe's documented examples and on random layouts,
//! checked point by point against brute-force enumeration (the only place enumeration is used).

use crate::common;

use cute_layout::{Idx2Crd, IntTuple, Layout, LayoutError, Tiler};
use proptest::prelude::*;

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

fn table(x: &Layout) -> Vec<i64> {
    x.offsets().collect()
}

/// Most points a law visits in one layout: a random layout here has up to 6^9 (about 10^7)
/// points, so laws on a whole layout are checked pointwise on `points(size)`.
const POINTS: i64 = 4096;

/// Every index of a layout of at most `POINTS` points, else `POINTS` of them spread evenly.
fn points(size: i64) -> Vec<i64> {
    common::sample(size, POINTS, POINTS)
}

/// The image (set of values) of a layout, built leaf by leaf as sums of `k * stride`: its size is
/// bounded by the span of the values, not by the number of points.
fn image(x: &Layout) -> std::collections::BTreeSet<i64> {
    let mut img = std::collections::BTreeSet::from([0i64]);
    for (s, d) in leaves(x) {
        img = img
            .iter()
            .flat_map(|&v| (0..s).map(move |k| v + k * d))
            .collect();
    }
    img
}

/// Whether no two points of the layout share a value.
fn is_injective(x: &Layout) -> bool {
    image(x).len() as i64 == x.size()
}

fn check_coalesce(a: &Layout) {
    let c = a.coalesce();
    assert!(c.depth() <= 1);
    assert_eq!(c.size(), a.size());
    for i in points(a.size()) {
        assert_eq!(c.index_1d(i), a.index_1d(i), "coalesce({a}) = {c} at {i}");
    }
}

/// `Ok` must satisfy `R(i) == A(B(i))` (on `points(size(B))`); a `ModesOverlap` refusal must
/// have a witness where the per-leaf sum differs from `A(B(i))` (searched for where B has at most
/// 512 points).
fn check_compose(a: &Layout, b: &Layout) {
    match a.compose(b) {
        Ok(r) => {
            assert_eq!(r.size(), b.size(), "{a} o {b} = {r}");
            for i in points(b.size()) {
                let want = a.index_any(b.index_1d(i).unwrap()).unwrap();
                assert_eq!(r.index_1d(i).unwrap(), want, "{a} o {b} = {r} at {i}");
            }
        }
        Err(LayoutError::ModesOverlap { .. }) if b.size() <= 512 => {
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
    let img = image(a);
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
        *image(&both).last().unwrap() + 1 >= m,
        "complement({a},{m}) = {r} short"
    );
    if is_injective(&f) {
        let fr = Layout::from_modes([f.clone(), r.clone()]).unwrap();
        assert!(is_injective(&fr), "(filter({a}), {r}) not injective");
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
    let injective = is_injective(a);
    for i in points(a.size()) {
        let y = a.index_1d(i).unwrap();
        let back = r.index_any(y).unwrap();
        if injective {
            assert_eq!(back, i, "{a} L={r} at {i}");
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
    for i in points(b.size().min(a.size())) {
        let want = a.index_any(b.index_1d(i).unwrap()).unwrap();
        assert_eq!(r.index_any(i).unwrap(), want, "{a} / {t} = {r} at {i}");
    }
}

fn check_product(a: &Layout, b: &Layout) {
    let Ok(r) = a.logical_product(&Tiler::Layout(b.clone())) else {
        return;
    };
    assert_eq!(r.mode(0).unwrap(), *a);
    let Some(m) = a.size().checked_mul(b.cosize()) else {
        return;
    };
    let comp = match a.complement(m) {
        Err(LayoutError::NotComplementable { .. }) => common::product_chain_def(a, m).unwrap(),
        c => c.unwrap(),
    };
    let m1 = r.mode(1).unwrap();
    for j in points(b.size()) {
        let want = comp.index_any(b.index_1d(j).unwrap()).unwrap();
        assert_eq!(m1.index_1d(j).unwrap(), want, "{a} x {b} = {r}");
    }
}

fn check_coalesce_by_mode(a: &Layout) {
    let ones = IntTuple::flat(vec![1; a.rank()]);
    let r = a.coalesce_by_mode(&ones).unwrap();
    for i in points(a.size()) {
        assert_eq!(
            r.index_1d(i),
            a.index_1d(i),
            "coalesce_by_mode({a}) = {r} at {i}"
        );
    }
    if a.rank() > 1 {
        assert_eq!(r.rank(), a.rank(), "coalesce_by_mode({a}) = {r}");
        for k in 0..a.rank() {
            let (x, y) = (r.mode(k).unwrap(), a.mode(k).unwrap());
            assert!(x.depth() <= 1, "mode {k} of coalesce_by_mode({a}) = {r}");
            assert_eq!(
                table(&x),
                table(&y),
                "mode {k} of coalesce_by_mode({a}) = {r}"
            );
        }
    }
}

fn check_filter_zeros(a: &Layout) {
    let r = a.filter_zeros();
    assert!(r.shape().congruent(&a.shape()), "filter_zeros({a}) = {r}");
    for ((s, d), (rs, rd)) in leaves(a).into_iter().zip(leaves(&r)) {
        if d == 0 {
            assert_eq!(rs, 1, "filter_zeros({a}) = {r}");
        } else {
            assert_eq!((rs, rd), (s, d), "filter_zeros({a}) = {r}");
        }
    }
}

/// Flat `(extent, stride)` leaves of a layout.
fn leaves(x: &Layout) -> Vec<(i64, i64)> {
    let s = x.shape().flatten();
    let d = x.stride().flatten();
    s.elements()
        .zip(d.elements())
        .map(|(s, d)| (s.size().unwrap(), d.size().unwrap()))
        .collect()
}

fn check_upcast(a: &Layout, n: i64) {
    let Ok(r) = a.upcast(n) else { return };
    assert_eq!(r.shape().rank(), a.shape().rank(), "upcast<{n}>({a}) = {r}");
    for ((s, d), (rs, rd)) in leaves(a).into_iter().zip(leaves(&r)) {
        if d == 0 {
            assert_eq!((rs, rd), (s, 0), "upcast<{n}>({a}) = {r}");
            continue;
        }
        let scale = if d.abs() < n { n / d.abs() } else { 1 };
        assert_eq!(rs, (s + scale - 1) / scale, "upcast<{n}>({a}) = {r}");
        // N * R(u) == A(u') with u' = scale * u, leaf by leaf (both are linear in u)
        assert_eq!(n * rd, d * scale, "upcast<{n}>({a}) = {r}");
    }
}

fn check_downcast(a: &Layout, n: i64) {
    let Ok(r) = a.downcast(n) else { return };
    // One unit-stride leaf grows (the first of extent above 1, else the first); the other strides
    // scale by N (downcast<1> is A itself).
    let la = leaves(a);
    let unit = |k: &usize| la[*k].1.abs() == 1;
    let grow = (0..la.len())
        .find(|k| unit(k) && la[*k].0 > 1)
        .or_else(|| (0..la.len()).find(unit))
        .filter(|_| n > 1);
    for (k, ((s, d), (rs, rd))) in la.iter().copied().zip(leaves(&r)).enumerate() {
        let want = if Some(k) == grow {
            (s * n, d)
        } else if n > 1 {
            (s, d * n)
        } else {
            (s, d)
        };
        assert_eq!((rs, rd), want, "downcast<{n}>({a}) = {r}");
    }
    // Pointwise: the coordinate x of A, with the grown leaf's coordinate scaled by N, is a
    // coordinate of R, and R there is N * A(x). Checked on up to 4096 points of A spread evenly over
    // its domain (R can hold N^9 times more points than A, too many to enumerate).
    let lr = leaves(&r);
    let step = (a.size() / 4096).max(1);
    for i in (0..a.size()).step_by(step as usize) {
        let (mut rest, mut j, mut w) = (i, 0i64, 1i64);
        for (k, (&(s, _), &(rs, _))) in la.iter().zip(&lr).enumerate() {
            let x = rest % s;
            rest /= s;
            j += w * if Some(k) == grow { x * n } else { x };
            w *= rs;
        }
        let want = n * a.index_1d(i).unwrap();
        assert_eq!(
            r.index_1d(j).unwrap(),
            want,
            "downcast<{n}>({a}) = {r} at {i}"
        );
    }
}

fn check_nullspace(a: &Layout) {
    let r = a.nullspace();
    let zeros: i64 = leaves(a).iter().filter(|m| m.1 == 0).map(|m| m.0).product();
    assert_eq!(r.size(), zeros, "nullspace({a}) = {r}");
    // Injective on every point (or on the sample, for a nullspace of more than POINTS points).
    let t: Vec<i64> = points(r.size())
        .into_iter()
        .map(|i| r.index_1d(i).unwrap())
        .collect();
    let mut u = t.clone();
    u.sort();
    u.dedup();
    assert_eq!(u.len(), t.len(), "nullspace({a}) = {r} is not injective");
    for y in t {
        assert_eq!(a.index_any(y).unwrap(), 0, "nullspace({a}) = {r} at {y}");
    }
}

/// `max_common_vector` (where A has at most `POINTS` points: the witnesses are searched for in the
/// whole tables) and `max_common_layout` (on `points(size(R))`).
fn check_max_common(a: &Layout, b: &Layout) {
    if a.size() <= POINTS {
        let n = a.max_common_vector(b);
        let (ta, tb) = (table(a), table(b));
        for v in 0..n {
            assert!(
                ta.iter().zip(&tb).any(|(&x, &y)| x == v && y == v),
                "max_common_vector({a}, {b}) = {n}, but no coordinate maps to {v} in both"
            );
        }
    }
    let r = a.max_common_layout(b);
    for i in points(r.size()) {
        let c = r.index_1d(i).unwrap();
        assert_eq!(
            a.index_any(c).unwrap(),
            i,
            "max_common_layout({a}, {b}) = {r}"
        );
        assert_eq!(
            b.index_any(c).unwrap(),
            i,
            "max_common_layout({a}, {b}) = {r}"
        );
    }
}

/// Two-mode tilers on two-mode layouts: the zipped, tiled and flat variants hold the same
/// sub-layouts as the logical one, regrouped.
fn check_regroupings(a: &Layout, t: &Tiler, divide: bool) {
    let (l, z, ti, f) = if divide {
        (
            a.logical_divide(t),
            a.zipped_divide(t),
            a.tiled_divide(t),
            a.flat_divide(t),
        )
    } else {
        (
            a.logical_product(t),
            a.zipped_product(t),
            a.tiled_product(t),
            a.flat_product(t),
        )
    };
    let Ok(l) = l else {
        assert!(
            z.is_err() && ti.is_err() && f.is_err(),
            "{a} {t}: only logical refused"
        );
        return;
    };
    let (z, ti, f) = (z.unwrap(), ti.unwrap(), f.unwrap());
    let same = |x: Layout, y: Layout| {
        assert_eq!(x.size(), y.size(), "{a} {t}: {l} {z} {ti} {f}");
        for i in points(x.size()) {
            assert_eq!(
                x.index_1d(i),
                y.index_1d(i),
                "{a} {t}: {l} {z} {ti} {f} at {i}"
            );
        }
    };
    assert_eq!(
        (l.rank(), z.rank(), ti.rank(), f.rank()),
        (2, 2, 3, 4),
        "{a} {t}: {l} {z} {ti} {f}"
    );
    for k in 0..2 {
        let lk = l.mode(k).unwrap();
        same(z.mode(0).unwrap().mode(k).unwrap(), lk.mode(0).unwrap());
        same(z.mode(1).unwrap().mode(k).unwrap(), lk.mode(1).unwrap());
        same(ti.mode(0).unwrap().mode(k).unwrap(), lk.mode(0).unwrap());
        same(ti.mode(1 + k).unwrap(), lk.mode(1).unwrap());
        same(f.mode(k).unwrap(), lk.mode(0).unwrap());
        same(f.mode(2 + k).unwrap(), lk.mode(1).unwrap());
    }
}

/// blocked / raked product of two rank-2 layouts: value at ((a0,b0),(a1,b1)) (raked:
/// ((b0,a0),(b1,a1))) is A(a0,a1) + C(B(b0,b1)), C the complement of A to size(A) cosize(B)
/// (the products' chain where A has holes, see `common::product_chain_def`).
fn check_blocked_raked(a: &Layout, b: &Layout) {
    let m = a.size() * b.cosize();
    let c = match a.complement(m) {
        Err(LayoutError::NotComplementable { .. }) => common::product_chain_def(a, m),
        c => c,
    };
    let Ok(c) = c else {
        assert!(
            a.blocked_product(b).is_err(),
            "{a} x {b}: no complement, yet a blocked product"
        );
        assert!(
            a.raked_product(b).is_err(),
            "{a} x {b}: no complement, yet a raked product"
        );
        return;
    };
    let (a0, a1) = (a.mode(0).unwrap().size(), a.mode(1).unwrap().size());
    let (b0, b1) = (b.mode(0).unwrap().size(), b.mode(1).unwrap().size());
    for (raked, r) in [(false, a.blocked_product(b)), (true, a.raked_product(b))] {
        let Ok(r) = r else { continue };
        assert_eq!(r.rank(), 2, "{a} x {b} = {r}");
        for ia in 0..a.size() {
            for ib in 0..b.size() {
                let (x0, x1, y0, y1) = (ia % a0, ia / a0, ib % b0, ib / b0);
                let (m0, m1) = if raked {
                    (y0 + b0 * x0, y1 + b1 * x1)
                } else {
                    (x0 + a0 * y0, x1 + a1 * y1)
                };
                let want = a.index_1d(ia).unwrap() + c.index_any(b.index_1d(ib).unwrap()).unwrap();
                let got = r.index_1d(m0 + a0 * b0 * m1).unwrap();
                assert_eq!(
                    got, want,
                    "raked={raked}: {a} x {b} = {r} at a={ia}, b={ib}"
                );
            }
        }
    }
}

fn check_compose_tiler(a: &Layout, t0: &Layout, t1: &Layout) {
    let t = Tiler::Modes(vec![Tiler::Layout(t0.clone()), Tiler::Layout(t1.clone())]);
    let Ok(r) = a.compose_tiler(&t) else {
        assert!(
            a.mode(0).unwrap().compose(t0).is_err() || a.mode(1).unwrap().compose(t1).is_err(),
            "{a} o {t} refused though each mode composes"
        );
        return;
    };
    for (k, tk) in [t0, t1].into_iter().enumerate() {
        let (got, want) = (r.mode(k).unwrap(), a.mode(k).unwrap().compose(tk).unwrap());
        assert_eq!(got.size(), want.size(), "{a} o {t} = {r}, mode {k}");
        for i in points(want.size()) {
            assert_eq!(
                got.index_1d(i),
                want.index_1d(i),
                "{a} o {t} = {r}, mode {k} at {i}"
            );
        }
    }
}

fn check_tile_to_shape(block: &Layout, k0: i64, k1: i64) {
    let (s0, s1) = (
        block.mode(0).unwrap().size() * k0,
        block.mode(1).unwrap().size() * k1,
    );
    let shape = IntTuple::flat(vec![s0, s1]);
    let r = block.tile_to_shape(&shape, None);
    let want = block.blocked_product(&Layout::col_major(IntTuple::flat(vec![k0, k1])).unwrap());
    let (Ok(r), Ok(want)) = (r.clone(), want) else {
        assert!(
            r.is_err(),
            "tile_to_shape({block}, {shape}) = {r:?} but blocked_product fails"
        );
        return;
    };
    assert_eq!(r.rank(), 2);
    assert_eq!(
        (r.mode(0).unwrap().size(), r.mode(1).unwrap().size()),
        (s0, s1)
    );
    assert_eq!(
        r.size(),
        want.size(),
        "tile_to_shape({block}, {shape}) = {r}"
    );
    for i in points(r.size()) {
        assert_eq!(
            r.index_1d(i),
            want.index_1d(i),
            "tile_to_shape({block}, {shape}) = {r} at {i}"
        );
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

/// CuTe's weakly divisible walk is right in a stride-0 mode of A when the carries out of it still
/// match; no false refusal there, and the wrong cases stay refused.
#[test]
fn weak_divisibility_in_stride_zero_modes() {
    for (a, b, want) in [
        (
            "(3,3,4):(0,0,4)",
            "(2,4):(0,5)",
            Some("(2,(2,2)):(0,(0,4))"),
        ),
        ("(2,3,2,3):(12,0,5,5)", "(4):(4)", Some("((2,2)):((0,5))")),
        ("(9,4):(0,4)", "10:5", None),
        ("(9,4):(1,4)", "4:5", None),
        ("(7,2):(1,21)", "4:4", None),
    ] {
        let (a, b) = (l(a), l(b));
        check_compose(&a, &b);
        match want {
            Some(w) => assert_eq!(a.compose(&b).unwrap().to_string(), w),
            None => assert_eq!(a.compose(&b).unwrap_err().kind(), "StrideNotDivisible"),
        }
    }
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
fn inverses_follow_cute_stride_order() {
    // CuTe's exchange sort is not stable: equal strides come out in CuTe's order.
    let a = l("(3,5,2):(2,2,1)");
    assert_eq!(a.right_inverse().to_string(), "(2,5):(15,3)");
    check_right_inverse(&a);
    assert_eq!(
        l("(2,4,3):(1,3,2)").right_inverse().to_string(),
        "(2,3):(1,8)"
    );
    assert_eq!(
        l("(2,3,2):(1,0,2)").right_inverse().to_string(),
        "(2,2):(1,6)"
    );
}

#[test]
fn simplification_and_casts_docs() {
    for s in [
        "(2,(1,6)):(1,(6,2))",
        "((2,4),(2,8)):((1,2),(8,16))",
        "(4,(2,3)):(0,(1,0))",
        "((8,2),3):((2,0),16)",
    ] {
        let a = l(s);
        check_coalesce_by_mode(&a);
        check_filter_zeros(&a);
        check_nullspace(&a);
        for n in [1, 2, 4, 8] {
            check_upcast(&a, n);
            check_downcast(&a, n);
        }
    }
    assert_eq!(
        l("(8,3):(1,0)").upcast(4).unwrap().to_string(),
        "(2,3):(1,0)"
    );
    assert_eq!(
        l("(8,3):(2,-8)").upcast(4).unwrap().to_string(),
        "(4,3):(1,-2)"
    );
    assert_eq!(
        l("(9,2):(2,1)").downcast(4).unwrap().to_string(),
        "(9,8):(8,1)"
    );
    assert_eq!(
        l("(8,4):(1,8)").recast(16, 32).unwrap().to_string(),
        "(4,4):(1,4)"
    );
    assert_eq!(
        l("(8,4):(1,8)").recast(32, 16).unwrap().to_string(),
        "(16,4):(1,16)"
    );
    assert_eq!(l("(4,8):(1,4)").max_common_vector(&l("(4,8):(8,1)")), 1);
    assert_eq!(l("(4,8):(1,4)").max_common_vector(&l("(4,8):(1,8)")), 4);
    check_max_common(&l("(2,8,4,4):(8,1,16,64)"), &l("(2,8,4,4):(32,1,8,64)"));
    check_max_common(&l("(2,4):(4,1)"), &l("(2,4):(4,1)"));
}

#[test]
fn cute_docs_divide_and_product_variants() {
    let a = l("(9,(4,8)):(59,(13,1))");
    let t: Tiler = "<3:3,(2,4):(1,8)>".parse().unwrap();
    check_regroupings(&a, &t, true);
    assert_eq!(
        a.zipped_divide(&t).unwrap().to_string(),
        "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))"
    );
    let b = l("(2,5):(5,1)");
    let t: Tiler = "<3:5,4:6>".parse().unwrap();
    check_regroupings(&b, &t, false);
    check_blocked_raked(&l("(2,2):(1,2)"), &l("(2,3):(3,1)"));
    check_blocked_raked(&l("(2,5):(5,1)"), &l("(3,4):(1,3)"));
    check_compose_tiler(&l("(12,(4,8)):(59,(13,1))"), &l("3:4"), &l("8:2"));
    check_tile_to_shape(&l("(2,2):(1,2)"), 3, 4);
}

#[test]
fn evenly_divides_examples() {
    let s: IntTuple = "(8,6)".parse().unwrap();
    assert!(s.evenly_divides(&"(4,3)".parse().unwrap()));
    assert!(!s.evenly_divides(&"(3,3)".parse().unwrap()));
}

/// The largest layouts `layout_strategy` can produce (nine leaves of extent 6: 6^9, about 10^7
/// points): the laws that the property tests check on whole random layouts stay within their
/// bound of points on them (zero strides make the nullspace as large as the layout).
#[test]
fn laws_on_the_largest_random_layouts() {
    for strides in [
        [1i64; 9],
        [0; 9],
        [16, 3, 0, 7, 1, 16, 2, 5, 0],
        [-4, 16, 1, -1, 0, 9, 2, -3, 5],
    ] {
        let modes = strides
            .chunks(3)
            .map(|c| c.iter().map(|&d| (6, d)).collect())
            .collect();
        let a = common::nested(modes);
        assert_eq!(a.size(), 6i64.pow(9));
        check_coalesce(&a);
        assert_eq!(image(&a), image(&a.filter()), "{a}");
        check_right_inverse(&a);
        check_left_inverse(&a);
        check_coalesce_by_mode(&a);
        check_filter_zeros(&a);
        check_nullspace(&a);
        for n in [1, 2, 8] {
            check_upcast(&a, n);
            check_downcast(&a, n);
        }
        if strides.iter().all(|&d| d >= 0) {
            for k in 1..4 {
                check_complement(&a, a.filter().cosize() * k);
            }
            check_compose(&a, &a);
            check_divide(&a, &a);
            check_product(&a, &a.coalesce());
            let pair = Layout::from_modes([a.clone(), a.clone()]).unwrap();
            let t = Tiler::Modes(vec![Tiler::Layout(a.clone()), Tiler::Layout(a.clone())]);
            check_regroupings(&pair, &t, true);
            check_regroupings(&pair, &t, false);
            check_compose_tiler(&pair, &a, &a);
            check_tile_to_shape(&pair, 3, 3);
        }
        check_max_common(&a, &a);
        check_max_common(&a, &common::nested(vec![vec![(6, 1); 9]]));
    }
}

/// Random layouts: depth <= 2, extents <= 6, strides in -4..=16 (mostly non-negative).
fn layout_strategy(neg: bool) -> impl Strategy<Value = Layout> {
    let lo = if neg { -4i64 } else { 0 };
    let leaf = (1i64..=6, lo..=16i64);
    prop::collection::vec(prop::collection::vec(leaf, 1..=3), 1..=3).prop_map(common::nested)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn coalesce_keeps_the_function(a in layout_strategy(true)) {
        check_coalesce(&a);
        let f = a.filter();
        prop_assert_eq!(image(&a), image(&f));
    }

    #[test]
    fn compose_agrees_pointwise(a in layout_strategy(true), b in layout_strategy(false)) {
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
    fn simplification_and_cast_laws(a in layout_strategy(true), n in 1i64..=8) {
        check_coalesce_by_mode(&a);
        check_filter_zeros(&a);
        check_nullspace(&a);
        check_upcast(&a, n);
        check_downcast(&a, n);
    }

    #[test]
    fn max_common_laws(a in layout_strategy(true), d in prop::collection::vec(-2i64..=16, 9)) {
        // b: same shape as a, other strides
        let fs = a.shape().flatten();
        let fd = if fs.is_int() {
            IntTuple::int(d[0])
        } else {
            IntTuple::flat(d[..fs.rank()].iter().copied())
        };
        let flat = Layout::new(fs, fd).unwrap();
        let b = flat.with_shape(&a.shape()).unwrap_or(flat);
        if b.size() == a.size() {
            check_max_common(&a, &b);
        }
    }

    #[test]
    fn regrouped_divides_and_products(
        a0 in layout_strategy(false), a1 in layout_strategy(false),
        t0 in layout_strategy(false), t1 in layout_strategy(false),
    ) {
        let a = Layout::from_modes([a0.clone(), a1.clone()]).unwrap();
        let t = Tiler::Modes(vec![Tiler::Layout(t0.clone()), Tiler::Layout(t1.clone())]);
        check_regroupings(&a, &t, true);
        check_regroupings(&a, &t, false);
        check_compose_tiler(&a, &t0, &t1);
        check_tile_to_shape(&a, t0.size().min(3), t1.size().min(3));
        // The blocked / raked products are checked at every pair of points of A and B.
        if a.size() <= 256 && t0.size() <= 8 && t1.size() <= 8 {
            let b = Layout::from_modes([t0.coalesce(), t1.coalesce()]).unwrap();
            check_blocked_raked(&a, &b);
        }
    }

    /// `Idx2Crd` (precomputed division) gives `idx2crd`'s coordinate for any index, in range or
    /// not, negative or not, and `index_1d` inverts it on the domain of a compact layout.
    #[test]
    fn idx2crd_precomputed(a in layout_strategy(true), near in -64i64..=64, far in any::<i64>()) {
        let shape = a.shape();
        let f = Idx2Crd::new(&shape).unwrap();
        let mut buf = vec![0i64; shape.leaves().len()];
        for i in [near, a.size() + near, far] {
            let want = shape.idx2crd(&IntTuple::int(i)).unwrap();
            prop_assert_eq!(f.coord(i), want.clone());
            f.split(i, &mut buf).unwrap();
            prop_assert_eq!(&buf[..], want.leaves());
        }
        let compact = Layout::col_major(shape.clone()).unwrap();
        for i in 0..a.size().min(256) {
            prop_assert_eq!(compact.index(&f.coord(i)).unwrap(), i);
        }
    }

    #[test]
    fn divide_and_product_laws(a in layout_strategy(false), t in layout_strategy(false)) {
        check_divide(&a, &t);
        check_product(&t, &a.coalesce());
    }
}
