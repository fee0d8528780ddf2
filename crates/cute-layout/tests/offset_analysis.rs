//! Property tests of the offset analyses of a layout function ([`LayoutChain::image_offsets`],
//! `offset_table`, `fixed_points`, `permutation`, `cycles`, `permutation_order`, `contiguity`,
//! `warp_bank_conflicts`, `f2_matrix`) and of `tuple_cat`, on random layouts and swizzled
//! layouts: each answer is checked against the values of the function.

use crate::common;

use common::flat;
use cute_layout::render::Banks;
use cute_layout::{IntTuple, Layout, LayoutChain, Swizzle};
use proptest::prelude::*;

fn layout_strategy() -> impl Strategy<Value = Layout> {
    prop::collection::vec((1i64..=4, -3i64..=8), 1..=3).prop_map(|m| flat(&m))
}

/// A layout, or a swizzled layout with offset 0 or small.
fn chain_strategy() -> impl Strategy<Value = LayoutChain> {
    (
        layout_strategy(),
        prop::option::of((1i64..=2, 0i64..=2, -3i64..=3, 0i64..=3)),
    )
        .prop_map(|(l, sw)| {
            match sw.and_then(|(b, m, s, off)| Swizzle::new(b, m, s).ok().map(|sw| (sw, off))) {
                Some((sw, off)) => format!("{sw} o {off} o {l}").parse().unwrap(),
                None => l.into(),
            }
        })
}

/// A layout of power-of-two extents whose strides are distinct powers of two or 0, swizzled or not.
fn linear_strategy() -> impl Strategy<Value = LayoutChain> {
    (
        prop::collection::vec((0u32..=2, prop::option::of(0u32..=4)), 1..=4),
        prop::option::of((1i64..=2, 0i64..=2, -4i64..=4)),
    )
        .prop_map(|(modes, sw)| {
            let mut used = 0i64;
            let m: Vec<(i64, i64)> = modes
                .iter()
                .map(|&(e, d)| {
                    let s = 1i64 << e;
                    let d = d.map_or(0, |p| 1i64 << p);
                    // keep the columns disjoint: push the stride past the bits in use
                    let mut d = d;
                    while d != 0 && (0..e).any(|b| used & (d << b) != 0) {
                        d <<= 1;
                    }
                    for b in 0..e {
                        used |= d << b;
                    }
                    (s, d)
                })
                .collect();
            let l = flat(&m);
            match sw.and_then(|(b, mm, s)| Swizzle::new(b, mm, s).ok()) {
                Some(sw) => format!("{sw} o 0 o {l}").parse().unwrap(),
                None => l.into(),
            }
        })
}

/// The offsets `M * bits(i) (mod 2)` for `i < n`.
fn f2_values(m: &[Vec<u8>], n: i64) -> Vec<i64> {
    (0..n)
        .map(|i| {
            m.iter().enumerate().fold(0i64, |y, (r, row)| {
                let bit = row
                    .iter()
                    .enumerate()
                    .fold(0u8, |a, (j, &e)| a ^ (e & ((i >> j) & 1) as u8));
                y | i64::from(bit) << r
            })
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn image_and_table_describe_the_values(c in chain_strategy()) {
        let v = c.values().unwrap();
        let img = c.image_offsets().unwrap();
        prop_assert!(img.windows(2).all(|w| w[0] < w[1]));
        prop_assert!(v.iter().all(|x| img.binary_search(x).is_ok()));
        let t = c.offset_table().unwrap();
        prop_assert_eq!(t.iter().map(|e| e.0).collect::<Vec<_>>(), img);
        let mut n = 0;
        for (off, cs) in &t {
            for crd in cs {
                prop_assert_eq!(c.index(crd).unwrap(), *off);
                n += 1;
            }
        }
        prop_assert_eq!(n, v.len());
        let fp = c.fixed_points().unwrap();
        prop_assert_eq!(fp, (0..v.len() as i64).filter(|&i| v[i as usize] == i).collect::<Vec<_>>());
    }

    #[test]
    fn permutation_iff_dense_and_injective(c in chain_strategy()) {
        let v = c.values().unwrap();
        let bij = c.is_bijective().unwrap();
        match c.permutation() {
            Ok(p) => {
                prop_assert!(bij);
                let lo = *v.iter().min().unwrap();
                prop_assert!(p.iter().zip(&v).all(|(&q, &x)| q == x - lo));
                let cy = c.cycles().unwrap();
                let lens: Vec<i64> = cy.iter().map(|c| c.len() as i64).collect();
                prop_assert_eq!(lens.iter().sum::<i64>(), v.len() as i64);
                let ord = c.permutation_order().unwrap();
                prop_assert!(lens.iter().all(|l| ord % l == 0));
            }
            Err(e) => {
                prop_assert!(!bij);
                prop_assert_eq!(e.kind(), "InvalidArgument");
            }
        }
    }

    #[test]
    fn contiguity_is_a_run_of_consecutive_values(c in chain_strategy()) {
        let v = c.values().unwrap();
        if let Some(k) = c.contiguity() {
            prop_assert!(k >= 1 && k <= v.len() as i64);
            prop_assert!((0..k as usize).all(|i| v[i] == v[0] + i as i64));
        }
    }

    #[test]
    fn f2_matrix_computes_every_offset(c in linear_strategy()) {
        let m = c.f2_matrix().unwrap();
        prop_assert_eq!(f2_values(&m, c.size()), c.values().unwrap());
    }

    #[test]
    fn f2_matrix_only_where_linear(c in chain_strategy()) {
        // Where a matrix is given it computes the function; elsewhere the refusal is typed.
        match c.f2_matrix() {
            Ok(m) => prop_assert_eq!(f2_values(&m, c.size()), c.values().unwrap()),
            Err(e) => prop_assert!(matches!(e.kind(), "InvalidArgument" | "TooLarge")),
        }
    }

    #[test]
    fn bank_conflicts_bound(c in chain_strategy(), eb in prop::sample::select(vec![1i64, 2, 4, 8]), t in 1i64..=40) {
        let r = c.warp_bank_conflicts(Banks::new(32, eb).unwrap(), t).unwrap();
        // at least one wavefront per access, at most one per distinct word
        prop_assert!(r.wavefronts >= 1 && r.wavefronts <= r.words.max(1));
        prop_assert!(r.ideal <= r.wavefronts);
    }

    #[test]
    fn tuple_cat_keeps_every_element(a in layout_strategy(), b in layout_strategy()) {
        let r = Layout::tuple_cat(&[a.clone(), b.clone()]).unwrap();
        prop_assert_eq!(r.rank(), a.rank() + b.rank());
        for i in 0..a.size() {
            for j in 0..b.size() {
                prop_assert_eq!(r.index_any(i + a.size() * j).unwrap(), a.index_any(i).unwrap() + b.index_any(j).unwrap());
            }
        }
        let t = IntTuple::tuple_cat(&[a.shape(), b.shape()]).unwrap();
        prop_assert_eq!(t, r.shape());
    }
}
