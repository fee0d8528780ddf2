//! Every fast path against the general algorithm it shortcuts: the same layout (text and
//! tree), or `None` from the fast path, on every flat layout of up to three leaves over small
//! extents and strides (both signs, zero) and on random layouts, flat and nested, of up to
//! seventeen leaves (past the working arrays' [`WORK`](super::flat::WORK) and one past the result's arrays, so
//! that both capacity checks are exercised).

use alloc::string::ToString;

use super::flat::{Few, Flat, ResultModes};
use super::testing::{layout_of, small_modes, Rng};
use super::{coalesce, complement, inverse, Modes};
use crate::layout::Layout;

fn flat_layout(modes: &[(i64, i64)]) -> Layout {
    layout_of(modes, 0)
}

fn same(fast: Option<Layout>, slow: Option<Layout>, what: &str, l: &Layout, used: &mut usize) {
    if let Some(f) = fast {
        *used += 1;
        let s = slow.unwrap_or_else(|| panic!("{what} of {l}: fast path {f}, general path error"));
        assert_eq!(f.to_string(), s.to_string(), "{what} of {l}");
        assert!(f == s, "{what} of {l}: same text, different tree");
    }
}

/// Each fast path on both result types against its general algorithm; `used` counts the
/// answers (right_inverse, complement, coalesce) of `Few`, then of `Flat`, then those of
/// left_inverse (on `Flat` only).
fn check(l: &Layout, used: &mut [usize; 7]) {
    if l.check("test").is_err() {
        return;
    }
    check_with::<Few>(l, &mut used[..3]);
    check_with::<Flat>(l, &mut used[3..6]);
    // left_inverse runs on arrays only.
    let mut slow = Layout::building();
    let ok = inverse::left_inverse_into(l, &mut slow).is_ok();
    same(
        inverse::left_inverse_small(l),
        ok.then_some(slow),
        "left_inverse",
        l,
        &mut used[6],
    );
}

fn check_with<R: ResultModes>(l: &Layout, used: &mut [usize]) {
    let mut slow = Layout::building();
    inverse::right_inverse_into(l, &mut slow);
    same(
        inverse::right_inverse_small::<R>(l),
        Some(slow),
        "right_inverse",
        l,
        &mut used[0],
    );

    let mut slow = Layout::building();
    let pairs = l.shape.iter().copied().zip(l.stride.iter().copied());
    super::view::push_flat_merged(&mut slow, pairs);
    same(
        coalesce::coalesce_small::<R>(l),
        Some(slow),
        "coalesce",
        l,
        &mut used[2],
    );

    for m in [1, 2, 5, 12, 24, 64, 4096, 1 << 62, i64::MAX - 1, i64::MAX] {
        let mut f = Modes::new();
        complement::filter_modes(l, &mut f);
        let slow = complement::complement_filtered(&f, &[m]).ok();
        let fast = complement::complement_small::<R>(&l.shape, &l.stride, m);
        same(fast, slow, "complement", l, &mut used[1]);
    }
}

/// `Few` gives up exactly where the result has more than four modes, and the public
/// operations (which try `Few`, then `Flat`, then the general algorithm) answer alike.
#[test]
fn few_holds_four_modes() {
    let text = |l: Option<Layout>| l.map(|l| l.to_string());
    let five = flat_layout(&[(2, 1), (3, 4), (5, 16), (7, 128), (11, 1024)]);
    assert_eq!(text(coalesce::coalesce_small::<Few>(&five)), None);
    let want = "(2,3,5,7,11):(1,4,16,128,1024)";
    assert_eq!(
        text(coalesce::coalesce_small::<Flat>(&five)).as_deref(),
        Some(want)
    );
    assert_eq!(five.coalesce().to_string(), want);
    let four = flat_layout(&[(2, 1), (3, 4), (5, 16), (7, 128)]);
    assert_eq!(
        text(coalesce::coalesce_small::<Few>(&four)).as_deref(),
        Some("(2,3,5,7):(1,4,16,128)")
    );
    // A complement of five modes.
    let gaps = flat_layout(&[(2, 1), (2, 4), (2, 16), (2, 64), (2, 256)]);
    let few = complement::complement_small::<Few>(&gaps.shape, &gaps.stride, 1 << 20);
    assert_eq!(text(few), None);
    let flat = complement::complement_small::<Flat>(&gaps.shape, &gaps.stride, 1 << 20);
    assert_eq!(
        text(flat.clone()).as_deref(),
        Some("(2,2,2,2,2048):(2,8,32,128,512)")
    );
    assert_eq!(flat.ok_or(()), gaps.complement(1 << 20).map_err(|_| ()));
    // The empty result is `1:0` in both.
    let one = flat_layout(&[(1, 0)]);
    assert_eq!(
        text(coalesce::coalesce_small::<Few>(&one)).as_deref(),
        Some("1:0")
    );
    assert_eq!(
        text(coalesce::coalesce_small::<Flat>(&one)).as_deref(),
        Some("1:0")
    );
}

#[test]
fn fast_paths_agree_with_the_general_algorithms() {
    let modes = small_modes();
    let mut used = [0usize; 7];
    for &a in &modes {
        check(&flat_layout(&[a]), &mut used);
        for &b in &modes {
            check(&flat_layout(&[a, b]), &mut used);
            for &c in modes.iter().step_by(3) {
                check(&flat_layout(&[a, b, c]), &mut used);
            }
        }
    }
    // Random layouts up to the inline capacity and one past it, flat and nested.
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..10_000 {
        check(&flat_layout(&rng.modes(17, 1 << 40)), &mut used);
        check(&rng.layout(17, 1 << 40), &mut used);
    }
    assert!(used.iter().all(|&u| u > 1000), "fast paths taken: {used:?}");
}

/// The fast paths of `shape_divide` against the general path.
mod shape_divide {
    use crate::layout::tree::Toks;
    use alloc::format;
    use alloc::string::ToString;
    use alloc::vec::Vec;

    use super::super::shape_divide::*;
    use crate::algebra::kernels;
    use crate::algebra::Tiler;
    use crate::layout::Layout;

    fn lay(s: &str) -> Layout {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    /// The general path's answer (the kernels into a layout), for comparison.
    fn general(a: &Layout, t: &Tiler, zipped: bool) -> Result<Layout, crate::LayoutError> {
        let mut out = Layout::building();
        if zipped {
            crate::algebra::divide::zipped_into(
                "zipped_divide",
                kernels::Kernel::Divide,
                a,
                t,
                &mut out,
            )?;
        } else {
            kernels::run(kernels::Kernel::Divide, a, t, &mut out)?;
        }
        Ok(out)
    }

    #[test]
    fn token_tables_are_the_trees_of_the_results() {
        for (r, (logicals, zippeds)) in TOKS[0].iter().zip(&TOKS[1]).enumerate().skip(1) {
            for (k, (&(toks, n), &zipped)) in
                logicals.iter().zip(zippeds).enumerate().take(r + 1).skip(1)
            {
                let logical: Layout = Layout::from_parts_unchecked(
                    Toks::from_slice(&toks[..n]),
                    (0..r + k).map(|_| 1).collect(),
                    (0..r + k).map(|_| 0).collect(),
                );
                assert_eq!(logical.rank(), r, "r {r} k {k}");
                let (toks, n) = zipped;
                let zipped: Layout = Layout::from_parts_unchecked(
                    Toks::from_slice(&toks[..n]),
                    (0..r + k).map(|_| 1).collect(),
                    (0..r + k).map(|_| 0).collect(),
                );
                assert_eq!(zipped.rank(), 2, "r {r} k {k}");
                assert!(crate::layout::tree::is_well_formed(&zipped.toks));
                assert!(crate::layout::tree::is_well_formed(&logical.toks));
            }
        }
    }

    /// Every flat layout of up to three modes over small extents and strides (negative and zero
    /// included), divided by every integer tiler of up to its rank over small extents: where the
    /// fast path answers, the general path gives the same layout; where the extents divide and
    /// the layout is a flat tuple, the fast path answers.
    #[test]
    fn agrees_with_the_general_path() {
        let extents = [1i64, 2, 3, 4, 6, 8];
        let strides = [-3i64, 0, 1, 2, 5];
        let tiles = [1i64, 2, 3, 4, 5, 8];
        let mut answered = 0usize;
        for r in 1..=3usize {
            let combos = (extents.len() * strides.len()).pow(r as u32);
            for c in 0..combos {
                let mut c2 = c;
                let mut modes = Vec::new();
                for _ in 0..r {
                    let m = c2 % (extents.len() * strides.len());
                    c2 /= extents.len() * strides.len();
                    modes.push((extents[m % extents.len()], strides[m / extents.len()]));
                }
                let text = format!(
                    "({}):({})",
                    modes
                        .iter()
                        .map(|m| m.0.to_string())
                        .collect::<Vec<_>>()
                        .join(","),
                    modes
                        .iter()
                        .map(|m| m.1.to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                );
                let a = lay(&text);
                for k in 1..=r {
                    for tc in 0..tiles.len().pow(k as u32) {
                        let mut tc2 = tc;
                        let ts: Vec<Tiler> = (0..k)
                            .map(|_| {
                                let n = tiles[tc2 % tiles.len()];
                                tc2 /= tiles.len();
                                Tiler::Int(n)
                            })
                            .collect();
                        let divides = ts
                            .iter()
                            .zip(&modes)
                            .all(|(t, m)| matches!(t, Tiler::Int(n) if m.0 % n == 0));
                        let tiler = Tiler::Modes(ts.clone());
                        for zipped in [false, true] {
                            let fast = divide_by_shape(&a, &ts, zipped);
                            assert_eq!(fast.is_some(), divides, "{text} / {tiler:?}");
                            if let Some(f) = fast {
                                let g = general(&a, &tiler, zipped)
                                    .unwrap_or_else(|e| panic!("{text} / {tiler:?}: {e}"));
                                assert_eq!(f, g, "{text} / {tiler:?} zipped {zipped}");
                                answered += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(answered > 100_000, "{answered}");
    }

    #[test]
    fn declines_what_it_does_not_cover() {
        let ts = [Tiler::Int(2), Tiler::Int(2)];
        // Nested, a leaf, too many tiles, an extent that does not divide, `_`, a layout tile.
        for a in ["((4,2),4):((1,4),8)", "8:1", "(4):(1)", "(3,4):(1,3)"] {
            assert!(divide_by_shape(&lay(a), &ts, false).is_none(), "{a}");
        }
        let a = lay("(4,4):(1,4)");
        assert!(divide_by_shape(&a, &[Tiler::Int(2), Tiler::Skip], false).is_none());
        assert!(divide_by_shape(&a, &[Tiler::Layout(lay("2:1"))], false).is_none());
        assert!(divide_by_shape(&a, &[], false).is_none());
        let wide = lay("(2,2,2,2,2,2,2,2):(1,2,4,8,16,32,64,128)");
        assert!(divide_by_shape(&wide, &ts, true).is_none());
        let seven = lay("(2,2,2,2,2,2,4):(1,2,4,8,16,32,64)");
        let all: Vec<Tiler> = (0..7).map(|_| Tiler::Int(2)).collect();
        for (zipped, want) in [
            (
                false,
                "((2,1),(2,1),(2,1),(2,1),(2,1),(2,1),(2,2)):\
                 ((1,0),(2,0),(4,0),(8,0),(16,0),(32,0),(64,128))",
            ),
            (
                true,
                "((2,2,2,2,2,2,2),(1,1,1,1,1,1,2)):((1,2,4,8,16,32,64),(0,0,0,0,0,0,128))",
            ),
        ] {
            let f = divide_by_shape(&seven, &all, zipped);
            assert_eq!(f.as_ref().map(|l| l.to_string()).as_deref(), Some(want));
            assert_eq!(
                f.as_ref(),
                general(&seven, &Tiler::Modes(all.clone()), zipped)
                    .ok()
                    .as_ref()
            );
        }
    }
}

/// The fast paths of `linear_product` against the general path.
mod linear_product {
    use alloc::string::ToString;
    use alloc::vec::Vec;

    use super::super::linear_product::*;
    use crate::algebra::kernels;
    use crate::algebra::Tiler;
    use crate::layout::testing::{layout_of, small_modes, Rng};
    use crate::layout::Layout;

    /// The general path's answers (the kernels into a layout).
    fn general_logical(a: &Layout, b: &Layout) -> Result<Layout, crate::LayoutError> {
        let mut out = Layout::building();
        kernels::run(
            kernels::Kernel::Product,
            a,
            &Tiler::Layout(b.clone()),
            &mut out,
        )?;
        Ok(out)
    }

    fn general_rank(a: &Layout, b: &Layout, raked: bool) -> Result<Layout, crate::LayoutError> {
        let mut out = Layout::building();
        crate::algebra::product::rank_product_into(a, b, raked, &mut out)?;
        Ok(out)
    }

    /// Both products against the general path on pairs of small layouts (every flat pair of up
    /// to two modes each, over small extents and strides of both signs and zero; random flat
    /// and nested pairs of up to nine leaves): where the fast path answers, the same layout.
    #[test]
    fn agrees_with_the_general_path() {
        let modes = small_modes();
        let mut flats: Vec<Vec<(i64, i64)>> = modes.iter().map(|&m| Vec::from([m])).collect();
        for &x in &modes {
            for &y in &modes {
                flats.push(Vec::from([x, y]));
            }
        }
        let mut answered = [0usize; 3];
        let mut check = |a: &Layout, b: &Layout| {
            if let Some(f) = logical_product(a, b) {
                let g = general_logical(a, b).unwrap_or_else(|e| panic!("{a} * {b}: {e}"));
                assert_eq!(f, g, "{a} * {b}");
                answered[0] += 1;
            }
            for (i, raked) in [(1, false), (2, true)] {
                if let Some(f) = rank_product(a, b, raked) {
                    let g = general_rank(a, b, raked).unwrap_or_else(|e| panic!("{a} * {b}: {e}"));
                    assert_eq!(f, g, "{a} * {b} raked {raked}");
                    answered[i] += 1;
                }
            }
        };
        // Every pair whose first operand is compact-like (two modes) against a sample of
        // second operands, and every pair of one-mode layouts.
        for (i, fa) in flats.iter().enumerate() {
            let a = layout_of(fa, 0);
            for fb in flats.iter().skip(i % 7).step_by(7) {
                check(&a, &layout_of(fb, 0));
            }
        }
        let mut rng = Rng(0x51f1_5eed_0bad_cafe);
        for _ in 0..20_000 {
            let na = 1 + rng.next(5) as usize;
            let nb = 1 + rng.next(5) as usize;
            let mut fa = Vec::new();
            let mut span = 1i64;
            for _ in 0..na {
                let e = 1 + rng.next(5) as i64;
                let d = match rng.next(6) {
                    0 => rng.next(9) as i64 - 2,
                    _ => span,
                };
                span *= e;
                fa.push((e, d));
            }
            for _ in 0..rng.next(3) {
                let (i, j) = (rng.next(na as u64) as usize, rng.next(na as u64) as usize);
                fa.swap(i, j);
            }
            let fb: Vec<(i64, i64)> = (0..nb)
                .map(|_| (1 + rng.next(5) as i64, rng.next(13) as i64 - 3))
                .collect();
            let nest = rng.next(3) as usize;
            check(&layout_of(&fa, nest), &layout_of(&fb, nest));
            check(&layout_of(&fa, 0), &layout_of(&fb, 0));
        }
        assert!(answered.iter().all(|&n| n > 5_000), "{answered:?}");
    }

    #[test]
    fn declines_what_it_does_not_cover() {
        let lay = |s: &str| s.parse::<Layout>().unwrap_or_else(|e| panic!("{s}: {e}"));
        // A complement of two modes (a gap), operands of other forms, too many leaves.
        assert!(logical_product(&lay("4:2"), &lay("3:1")).is_none());
        assert!(rank_product(&lay("(4,2):(2,8)"), &lay("(3,2):(1,3)"), false).is_none());
        assert!(rank_product(&lay("(4,2):(1,4)"), &lay("3:1"), false).is_none());
        assert!(rank_product(&lay("(4,2):(1,4)"), &lay("(3,2,2):(1,3,6)"), true).is_none());
        assert!(rank_product(&lay("((4,2),2):((1,4),8)"), &lay("(3,2):(1,3)"), true).is_none());
        let nine = lay("(2,2,2,2,2,2,2,2,2):(1,2,4,8,16,32,64,128,256)");
        assert!(logical_product(&nine, &nine).is_none());
        assert_eq!(
            logical_product(&lay("(4,8):(8,1)"), &lay("(2,4):(1,2)")).map(|l| l.to_string()),
            Some("((4,8),(2,4)):((8,1),(32,64))".into())
        );
    }
}
