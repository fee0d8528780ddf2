//! Property tests of the layout surface of issue #29: general composed layouts
//! ([`LayoutChain`]), the IntTuple toolkit and the layout construction helpers.

use crate::common;

use cute_layout::{layout::coord_less, CoordOrder, IntTuple, Layout, LayoutChain, OuterFn, Tiler};
use proptest::prelude::*;

fn modes(max_rank: usize) -> impl Strategy<Value = Vec<(i64, i64)>> {
    prop::collection::vec((1i64..=4, -6i64..=12), 1..=max_rank)
}

proptest! {
    /// A chain evaluates its outer layout at the offset plus the inner layout's value, at every
    /// 1-D and natural coordinate; printing and parsing round-trip; domain operations keep the
    /// outer functions and the values (a divide re-indexes the same points).
    #[test]
    fn chain_evaluates_outer_after_inner(
        outer in modes(3), inner in modes(3), off in -4i64..=8, n in 1i64..=4
    ) {
        let (lo, li) = (common::flat(&outer), common::flat(&inner));
        let c = LayoutChain::new(OuterFn::Layout(lo.clone()), off, li.clone());
        prop_assert_eq!(c.to_string().parse::<LayoutChain>().unwrap(), c.clone());
        prop_assert_eq!(c.size(), li.size());
        for i in 0..li.size() {
            let want = lo.index_any(off + li.index_1d(i).unwrap()).unwrap();
            prop_assert_eq!(c.index(&IntTuple::int(i)).unwrap(), want);
            let nat = li.shape().idx2crd(&IntTuple::int(i)).unwrap();
            prop_assert_eq!(c.index(&nat).unwrap(), want);
        }
        let t = Tiler::from_shape(&IntTuple::int(n)).unwrap();
        if let (0, Ok(d)) = (li.size() % n, c.map(|l| l.logical_divide(&t))) {
            let mut a = d.values().unwrap();
            let mut b = c.values().unwrap();
            a.sort_unstable();
            b.sort_unstable();
            prop_assert_eq!(a, b);
        }
    }

    /// shape_div and shape_mod split a shape: when the divisor divides along it, the sizes
    /// multiply back to the shape's size.
    #[test]
    fn shape_div_mod_split(shape in prop::collection::vec(1i64..=6, 1..=3), k in 0usize..4) {
        let a = IntTuple::flat(shape.clone());
        let n: i64 = shape.iter().product();
        let divisors: Vec<i64> = (1..=n).filter(|b| n % b == 0).collect();
        let b = divisors[k % divisors.len()];
        if let (Ok(d), Ok(m)) = (a.shape_div(&IntTuple::int(b)), a.shape_mod(&IntTuple::int(b))) {
            prop_assert_eq!(d.size().unwrap() * b, n);
            prop_assert_eq!(m.size().unwrap() * d.size().unwrap(), n);
        }
    }

    /// make_layout_like keeps the shape; for an injective layout whose strides differ it is a
    /// bijection onto [0, size) of the non-broadcast leaves.
    #[test]
    fn layout_like_is_compact(m in modes(3)) {
        let l = common::flat(&m);
        let r = l.layout_like().unwrap();
        prop_assert_eq!(r.shape(), l.shape());
        let strides: Vec<i64> = m.iter().filter(|x| x.0 > 1).map(|x| x.1).collect();
        let distinct = strides.iter().enumerate().all(|(i, a)| strides[..i].iter().all(|b| b != a));
        if l.is_injective().unwrap() && distinct {
            prop_assert!(r.is_compact(), "{} -> {}", l, r);
        }
    }

    /// Colexicographic order of the natural coordinates of a shape is the order of their 1-D
    /// indices; lexicographic order is a strict total order on them.
    #[test]
    fn colex_order_is_index_order(shape in prop::collection::vec(1i64..=3, 1..=3)) {
        let s = IntTuple::flat(shape);
        let n = s.size().unwrap();
        let crd: Vec<IntTuple> = (0..n).map(|i| s.idx2crd(&IntTuple::int(i)).unwrap()).collect();
        for i in 0..crd.len() {
            for j in 0..crd.len() {
                prop_assert_eq!(coord_less(CoordOrder::Colex, &crd[i], &crd[j]).unwrap(), i < j);
                let (x, y) = (
                    coord_less(CoordOrder::Lex, &crd[i], &crd[j]).unwrap(),
                    coord_less(CoordOrder::Lex, &crd[j], &crd[i]).unwrap(),
                );
                prop_assert_eq!(x || y, i != j);
                prop_assert!(!(x && y));
            }
        }
    }

    /// compact_col_major(shape, k) is k times the column-major stride.
    #[test]
    fn compact_major_scales(shape in prop::collection::vec(1i64..=5, 1..=3), k in 1i64..=7) {
        let s = IntTuple::flat(shape);
        let base = Layout::col_major(s.clone()).unwrap().stride();
        let got = IntTuple::compact_major(&s, k, false).unwrap();
        let want: Vec<i64> = base.leaves().iter().map(|d| d * k).collect();
        prop_assert_eq!(got.leaves(), &want[..]);
    }
}
