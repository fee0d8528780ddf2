//! Property tests of the layout construction and restructuring operations (`construct.rs`):
//! `domain_offset`, `max_alignment`, `zip`, `tile_unzip`, `bw_coalesce`, `transform_layout`,
//! `map_mode`, `compact_order` and the coordinates of a shape.

use crate::common;

use cute_layout::{IntTuple, Layout, LayoutChain, LayoutError, OuterFn, Tiler};
use proptest::prelude::*;

fn modes(max_rank: usize) -> impl Strategy<Value = Vec<(i64, i64)>> {
    prop::collection::vec((1i64..=4, -6i64..=12), 1..=max_rank)
}

fn nonneg_modes(max_rank: usize) -> impl Strategy<Value = Vec<(i64, i64)>> {
    prop::collection::vec((1i64..=4, 0i64..=24), 1..=max_rank)
}

fn int(i: i64) -> IntTuple {
    IntTuple::int(i)
}

proptest! {
    /// domain_offset of a layout is (L, L(c)); of `A o O o B` it moves `B(c)` into `O`, and the
    /// result is `x -> A(O + B(c) + B(x))`.
    #[test]
    fn domain_offset_moves_the_offset(outer in modes(3), inner in modes(3), off in -4i64..=8, k in 0i64..64) {
        let (a, b) = (common::flat(&outer), common::flat(&inner));
        let i = k % b.size();
        let (same, o) = b.domain_offset(&int(i)).unwrap();
        prop_assert_eq!(&same, &b);
        prop_assert_eq!(o, b.index(&int(i)).unwrap());
        let c = LayoutChain::new(OuterFn::Layout(a.clone()), off, b.clone());
        let (r, zero) = c.domain_offset(&int(i)).unwrap();
        prop_assert_eq!(zero, 0);
        for x in 0..b.size() {
            let want = a.index_any(off + o + b.index(&int(x)).unwrap()).unwrap();
            prop_assert_eq!(r.index(&int(x)).unwrap(), want);
        }
    }

    /// max_alignment R: for non-negative strides the image is a union of aligned blocks of R
    /// consecutive offsets, and the first R offsets in the right inverse's order are 0..R.
    #[test]
    fn max_alignment_blocks(m in nonneg_modes(4)) {
        let l = common::flat(&m);
        let Ok(r) = l.max_alignment() else { return Ok(()) };
        prop_assert!(r >= 1);
        let inv = l.coalesce().right_inverse();
        prop_assert_eq!(inv.size() % r, 0);
        for i in 0..r {
            prop_assert_eq!(l.index(&int(inv.index(&int(i)).unwrap())).unwrap(), i);
        }
        let image: std::collections::BTreeSet<i64> =
            (0..l.size()).map(|i| l.index(&int(i)).unwrap()).collect();
        for &v in &image {
            let base = v - v.rem_euclid(r);
            for w in base..base + r {
                prop_assert!(image.contains(&w), "{} : R = {}, {} in the image, {} not", l, r, v, w);
            }
        }
    }

    /// zip of a rank-2 layout of two flat modes of the same rank transposes its natural
    /// coordinate and is an involution.
    #[test]
    fn zip_transposes(m0 in modes(3), m1 in modes(3)) {
        let n = m0.len().min(m1.len());
        let (a, b) = (common::flat(&m0[..n]), common::flat(&m1[..n]));
        let pair = Layout::from_modes([a.clone(), b.clone()]).unwrap();
        let z = pair.zip().unwrap();
        prop_assert_eq!(&z, &a.zip_with(&b).unwrap());
        prop_assert_eq!(z.zip().unwrap(), pair.clone());
        prop_assert_eq!(z.size(), pair.size());
        let mut vz: Vec<i64> = (0..z.size()).map(|i| z.index(&int(i)).unwrap()).collect();
        let mut vp: Vec<i64> = (0..pair.size()).map(|i| pair.index(&int(i)).unwrap()).collect();
        vz.sort_unstable();
        vp.sort_unstable();
        prop_assert_eq!(vz, vp);
    }

    /// tile_unzip(logical_divide(L, T), T) is zipped_divide(L, T), and the same for products.
    #[test]
    fn tile_unzip_gathers(m in nonneg_modes(3), t in prop::collection::vec(1i64..=4, 1..=3)) {
        let l = common::flat(&m);
        let n = t.len().min(m.len());
        let tiler = Tiler::from_shape(&IntTuple::flat(t[..n].iter().copied())).unwrap();
        if let Ok(d) = l.logical_divide(&tiler) {
            prop_assert_eq!(d.tile_unzip(&tiler).unwrap(), l.zipped_divide(&tiler).unwrap());
        }
        if let Ok(p) = l.logical_product(&tiler) {
            prop_assert_eq!(p.tile_unzip(&tiler).unwrap(), l.zipped_product(&tiler).unwrap());
        }
    }

    /// bw_coalesce keeps the function of (flatten(L)..., INIT...) on its whole domain.
    #[test]
    fn bw_coalesce_keeps_the_function(m in modes(4), init in modes(2), leaf in any::<bool>()) {
        let l = common::flat(&m);
        let init = if leaf {
            Layout::new(int(init[0].0), int(init[0].1)).unwrap()
        } else {
            common::flat(&init)
        };
        let r = l.bw_coalesce(Some(&init)).unwrap();
        let full = Layout::from_modes(l.modes().chain(init.modes())).unwrap();
        prop_assert_eq!(r.size(), full.size());
        for i in 0..full.size() {
            prop_assert_eq!(r.index(&int(i)).unwrap(), full.index(&int(i)).unwrap());
        }
        prop_assert_eq!(l.bw_coalesce(None).unwrap(), l.coalesce());
    }

    /// transform_layout with the identity is the identity (as a rank-preserving concat), and
    /// map_mode changes exactly the mode on its path.
    #[test]
    fn transform_and_map_mode(m0 in modes(2), m1 in modes(2), which in 0usize..2) {
        let l = Layout::from_modes([common::flat(&m0), common::flat(&m1)]).unwrap();
        let same = l.transform_layout(|m| Ok::<_, LayoutError>(m.clone())).unwrap();
        prop_assert_eq!(&same, &l);
        let r = l.map_mode(&[which], |m| Ok::<_, LayoutError>(m.coalesce())).unwrap();
        prop_assert_eq!(r.mode(which).unwrap(), l.mode(which).unwrap().coalesce());
        prop_assert_eq!(r.mode(1 - which).unwrap(), l.mode(1 - which).unwrap());
    }

    /// compact_order with distinct ranks is make_ordered_layout's stride: a bijection onto
    /// [0, size).
    #[test]
    fn compact_order_is_compact(shape in prop::collection::vec(1i64..=4, 1..=4), seed in any::<u64>()) {
        let n = shape.len();
        let mut order: Vec<i64> = (0..n as i64).collect();
        let mut s = seed;
        for k in (1..n).rev() {
            order.swap(k, (s % (k as u64 + 1)) as usize);
            s /= k as u64 + 1;
        }
        let (sh, o) = (IntTuple::flat(shape.clone()), IntTuple::flat(order.clone()));
        let r = IntTuple::compact_order(&sh, &o).unwrap();
        let l = Layout::new(sh.clone(), r).unwrap();
        prop_assert_eq!(&l, &Layout::ordered(sh.clone(), o.clone()).unwrap());
        prop_assert!(l.is_compact());
        // The coordinates in ORDER's order are the layout's offsets 0, 1, 2, ...
        let cs = sh.coordinates(None, Some(&o)).unwrap();
        prop_assert_eq!(cs.len() as i64, l.size());
        for (i, c) in cs.iter().enumerate() {
            prop_assert_eq!(l.index(c).unwrap(), i as i64);
        }
    }
}
