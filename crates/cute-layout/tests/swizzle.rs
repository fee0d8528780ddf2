//! Law checks for swizzles and composed layouts, point by point over whole domains.

use crate::common;

use cute_layout::{ComposedLayout, Layout, LayoutError, Swizzle, Tiler};
use proptest::prelude::*;

fn swizzle_strategy(max_top: i64) -> impl Strategy<Value = Swizzle> {
    (0i64..=3, 0i64..=4, -5i64..=5).prop_filter_map("valid swizzle", move |(b, m, s)| {
        Swizzle::new(b, m, s)
            .ok()
            .filter(|sw| sw.top_bit() <= max_top)
    })
}

/// A bit permutation: `k` modes of extent 2 whose strides are distinct powers of two, sometimes
/// coalesced into wider modes.
fn bit_layout_strategy() -> impl Strategy<Value = (Layout, i64)> {
    (2usize..=7)
        .prop_flat_map(|k| {
            (
                Just(k),
                Just((0..k as i64).collect::<Vec<_>>()).prop_shuffle(),
                any::<bool>(),
            )
        })
        .prop_map(|(k, perm, merge)| {
            let sh = vec!["2"; k].join(",");
            let st: Vec<String> = perm.iter().map(|p| (1i64 << p).to_string()).collect();
            let l: Layout = format!("({sh}):({})", st.join(",")).parse().unwrap();
            (if merge { l.coalesce() } else { l }, k as i64)
        })
}

fn layout_strategy() -> impl Strategy<Value = Layout> {
    let leaf = (1i64..=8, 0i64..=16);
    prop::collection::vec(leaf, 1..=4).prop_map(|m| common::flat(&m))
}

/// Every swizzle with `B + M + |S| <= 8`.
fn all_swizzles() -> Vec<Swizzle> {
    let mut out = Vec::new();
    for b in 1..=4 {
        for m in 0..=7 {
            for s in -8i64..=8 {
                if let Ok(sw) = Swizzle::new(b, m, s) {
                    if sw.top_bit() <= 8 {
                        out.push(sw);
                    }
                }
            }
        }
    }
    out
}

/// `Ok(R)` must satisfy `R(i) == L(sw(i))`; a refusal must be a `NotRepresentable` or
/// `Overflow`, and, for a bit permutation `l` with every swizzle bit inside its domain, no swizzle
/// at all may satisfy `sw'(L(i)) == L(sw(i))`.
fn check_compose_swizzle(l: &Layout, sw: &Swizzle, exhaustive: bool) {
    match l.compose_swizzle(sw) {
        Ok(r) => {
            assert_eq!(r.layout(), l);
            for i in 0..l.size() {
                assert_eq!(
                    r.index_1d(i),
                    l.index_any(sw.apply(i)).ok(),
                    "{l} o {sw} = {r} at {i}"
                );
            }
        }
        Err(LayoutError::NotRepresentable { .. } | LayoutError::Overflow { .. }) => {
            if exhaustive {
                let want: Vec<i64> = (0..l.size())
                    .map(|i| l.index_any(sw.apply(i)).unwrap())
                    .collect();
                let found = std::iter::once(Swizzle::IDENTITY)
                    .chain(all_swizzles())
                    .find(|s2| {
                        (0..l.size()).all(|i| s2.apply(l.index_1d(i).unwrap()) == want[i as usize])
                    });
                assert!(found.is_none(), "{l} o {sw} refused, but {found:?} works");
            }
        }
        Err(e) => panic!("{l} o {sw}: unexpected error {e}"),
    }
}

#[test]
fn compose_swizzle_cute_examples() {
    // 8.3 of the algorithm notes: (8,8):(8,1) o Sw<2,0,-3> = Sw<2,0,3> o 0 o (8,8):(8,1)
    let l: Layout = "(8,8):(8,1)".parse().unwrap();
    let sw = Swizzle::new(2, 0, -3).unwrap();
    assert_eq!(
        l.compose_swizzle(&sw).unwrap().to_string(),
        "Sw<2,0,3> o 0 o (8,8):(8,1)"
    );
    check_compose_swizzle(&l, &sw, true);
    // A layout that does not act on bits is refused.
    let odd: Layout = "(3,4):(4,1)".parse().unwrap();
    assert_eq!(
        odd.compose_swizzle(&sw).unwrap_err().kind(),
        "NotRepresentable"
    );
    check_compose_swizzle(&odd, &sw, false);
}

#[test]
fn compose_swizzle_exact_on_whole_families() {
    // The identity layout commutes with every swizzle; a transpose with many.
    let id: Layout = "256:1".parse().unwrap();
    let tr: Layout = "(16,16):(16,1)".parse().unwrap();
    let mut transposed_ok = 0;
    for sw in all_swizzles() {
        assert_eq!(id.compose_swizzle(&sw).unwrap().swizzle(), sw);
        check_compose_swizzle(&id, &sw, true);
        check_compose_swizzle(&tr, &sw, true);
        transposed_ok += usize::from(tr.compose_swizzle(&sw).is_ok());
    }
    assert!(transposed_ok > 20, "{transposed_ok}");
}

#[test]
fn composed_text_roundtrip_and_errors() {
    for s in [
        "Sw<3,4,3> o 0 o (8,64):(64,1)",
        "Sw<2,0,3> o 0 o Sw<2,0,3> o 0 o (8,8):(1,8)",
        "Sw<1,0,-1> o -4 o 4:1",
        "(2,(2,2)):(4,(2,1))",
    ] {
        let c: ComposedLayout = s.parse().unwrap();
        assert_eq!(c.to_string(), s);
    }
    let c: ComposedLayout = " Sw<3, 4, 3> o _0 o (_8,_64):(_64,_1)".parse().unwrap();
    assert_eq!(c.to_string(), "Sw<3,4,3> o 0 o (8,64):(64,1)");
    for bad in [
        "Sw<3,4,3> o 0",
        "Sw<3,4,3> 0 o 8:1",
        "Sw<3,4,2> o 0 o 8:1",
        "Sw<3,4,3> o x o 8:1",
    ] {
        assert!(bad.parse::<ComposedLayout>().is_err(), "{bad}");
    }
    let e = "Sw<3,4,3> o 9223372036854775807 o 8:1"
        .parse::<ComposedLayout>()
        .unwrap_err();
    assert!(e.to_string().contains("overflow"), "{e}");
}

#[test]
fn composed_offsets_and_bounds() {
    let c: ComposedLayout = "Sw<3,4,3> o 0 o (8,64):(64,1)".parse().unwrap();
    let v: Vec<i64> = c.offsets().collect();
    let mut sorted = v.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        (0..512).collect::<Vec<_>>(),
        "a swizzle permutes a tile"
    );
    for (i, x) in v.iter().enumerate() {
        assert_eq!(c.index_1d(i as i64), Some(*x));
        assert_eq!(c.index_any(i as i64), Ok(*x));
    }
    assert_eq!(c.image_bounds(), (0, 511));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn swizzle_twice_is_identity(sw in swizzle_strategy(12), x in -5000i64..5000) {
        prop_assert_eq!(sw.apply(sw.apply(x)), x);
        prop_assert_eq!(sw.inverse(), sw);
        prop_assert_eq!(sw.to_string().parse::<Swizzle>().unwrap(), sw);
    }

    #[test]
    fn compose_swizzle_on_bit_permutations_is_exact((l, k) in bit_layout_strategy(), sw in swizzle_strategy(7)) {
        // Exhaustive refusal check only where every bit of the swizzle lies in the domain.
        check_compose_swizzle(&l, &sw, sw.top_bit() <= k);
    }

    #[test]
    fn compose_swizzle_agrees_pointwise(l in layout_strategy(), sw in swizzle_strategy(8)) {
        check_compose_swizzle(&l, &sw, false);
    }

    #[test]
    fn composed_inverses_obey_their_laws((l, _) in bit_layout_strategy(), sw in swizzle_strategy(7), off in prop::sample::select(vec![0i64, 0, 8])) {
        let c = ComposedLayout::new(sw, off, l.clone()).unwrap();
        match c.right_inverse() {
            Ok(r) => {
                for i in 0..r.size() {
                    prop_assert_eq!(c.index_any(r.index_1d(i).unwrap()), Ok(i), "{} with R = {}", c, r);
                }
            }
            Err(e) => prop_assert_eq!(e.kind(), "NotRepresentable"),
        }
        match c.left_inverse() {
            Ok(r) => {
                for i in 0..c.size() {
                    prop_assert_eq!(r.index_any(c.index_1d(i).unwrap()), Ok(i), "{} with L = {}", c, r);
                }
            }
            Err(e) => prop_assert_eq!(e.kind(), "NotRepresentable"),
        }
    }

    #[test]
    fn layout_compose_composed_agrees_pointwise((b, _) in bit_layout_strategy(), (a, _) in bit_layout_strategy(), sw in swizzle_strategy(7)) {
        let rhs = sw.compose_layout(&b);
        if let Ok(r) = a.compose_composed(&rhs) {
            for i in 0..b.size() {
                prop_assert_eq!(r.index_1d(i), a.index_any(rhs.index_1d(i).unwrap()).ok(), "{} o {} = {}", a, rhs, r);
            }
        }
    }

    #[test]
    fn composed_algebra_acts_on_the_inner_layout(l in layout_strategy(), sw in swizzle_strategy(8), off in 0i64..64, n in 1i64..=4) {
        let c = ComposedLayout::new(sw, off, l.clone()).unwrap();
        let (lo, hi) = c.image_bounds();
        for (i, v) in c.offsets().enumerate() {
            prop_assert_eq!(Some(v), c.post(l.index_1d(i as i64).unwrap()));
            prop_assert!(lo <= v && v <= hi, "{} at {}: {} outside [{}, {}]", c, i, v, lo, hi);
        }
        let t = Tiler::Int(n);
        let pairs: [(Result<ComposedLayout, LayoutError>, Result<Layout, LayoutError>); 5] = [
            (c.logical_divide(&t), l.logical_divide(&t)),
            (c.zipped_divide(&t), l.zipped_divide(&t)),
            (c.logical_product(&t), l.logical_product(&t)),
            (c.compose_tiler(&t), l.compose_tiler(&t)),
            (Ok(c.coalesce()), Ok(l.coalesce())),
        ];
        for (x, y) in pairs {
            match (x, y) {
                (Ok(x), Ok(y)) => {
                    prop_assert_eq!(x.layout(), &y);
                    for i in 0..y.size() {
                        prop_assert_eq!(x.index_1d(i), c.post(y.index_1d(i).unwrap()));
                    }
                }
                (Err(e), Err(f)) => prop_assert_eq!(e, f),
                (x, y) => prop_assert!(false, "{:?} vs {:?}", x, y),
            }
        }
    }
}

#[test]
fn swizzle_error_messages() {
    let msg = |e: LayoutError| e.to_string();
    assert_eq!(
        msg(Swizzle::new(-1, 0, 3).unwrap_err()),
        "swizzle: Sw<-1,0,3>: the bit count B is negative"
    );
    assert_eq!(
        msg(Swizzle::new(1, -2, 3).unwrap_err()),
        "swizzle: Sw<1,-2,3>: the base M is negative"
    );
    assert_eq!(
        msg(Swizzle::new(3, 4, -2).unwrap_err()),
        "swizzle: Sw<3,4,-2>: |S| is smaller than B, so the bit fields overlap"
    );
    assert_eq!(
        msg(Swizzle::new(20, 30, 20).unwrap_err()),
        "swizzle: Sw<20,30,20>: B + M + |S| exceeds 62 bits"
    );
    assert_eq!(
        msg(Swizzle::from_masks(0b11, 0b1000).unwrap_err()),
        "make_swizzle: masks 0b11 and 0b1000: the masks have different numbers of bits"
    );
    let l: Layout = "(3,4):(1,3)".parse().unwrap();
    assert_eq!(
        msg(l.compose_swizzle(&Swizzle::new(1, 0, 1).unwrap()).unwrap_err()),
        "composition: (3,4):(1,3) does not commute Sw<1,0,1> into a swizzle: extent 3 is not a power of two"
    );
    let c: ComposedLayout = "Sw<1,0,1> o 4 o 8:1".parse().unwrap();
    assert_eq!(
        msg(c.right_inverse().unwrap_err()),
        "right_inverse: Sw<1,0,1> o 4 o 8:1 has offset 4; its inverse composes a swizzle after a layout"
    );
    let e = cute_layout::Tensor::new(vec![0u8; 4], l.clone()).unwrap_err();
    assert_eq!(
        msg(e),
        "make_tensor: the layout reaches offsets 0 to 11, outside storage of length 4"
    );
    let t = cute_layout::Tensor::new(vec![0u8; 12], l).unwrap();
    assert_eq!(
        msg(t.get(&"(3,0)".parse().unwrap()).unwrap_err()),
        "tensor: coordinate (3,0) is outside shape (3,4)"
    );
}
