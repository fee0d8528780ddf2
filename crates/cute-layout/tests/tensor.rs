//! Tensor operations checked against their definitions on whole domains.

use crate::common;

use cute_layout::{
    ComposedLayout, IdentityTensor, IntTuple, Layout, LayoutError, Slice, SliceCoord, Swizzle,
    Tensor, Tiler,
};
use proptest::prelude::*;

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

fn flat(v: &[i64]) -> IntTuple {
    IntTuple::flat(v.iter().copied())
}

/// A matrix `m x n` with `data[k] = k` and the given layout order.
fn matrix(m: i64, n: i64, row_major: bool) -> Tensor<Vec<i64>> {
    let lay = if row_major {
        format!("({m},{n}):({n},1)")
    } else {
        format!("({m},{n}):(1,{m})")
    };
    Tensor::new((0..m * n).collect(), l(&lay)).unwrap()
}

#[test]
fn tensor_bounds_are_proven_at_construction() {
    assert!(Tensor::new(vec![0u8; 32], l("(4,8):(8,1)")).is_ok());
    let e = Tensor::new(vec![0u8; 31], l("(4,8):(8,1)")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "make_tensor: the layout reaches offsets 0 to 31, outside storage of length 31"
    );
    // Negative strides need a base.
    assert_eq!(
        Tensor::new(vec![0u8; 8], l("8:-1")).unwrap_err().kind(),
        "OutOfBounds"
    );
    let t = Tensor::with_base((0..8).collect::<Vec<u8>>(), l("8:-1"), 7).unwrap();
    assert_eq!(t.to_vec(), [7, 6, 5, 4, 3, 2, 1, 0]);
    // A swizzled layout is bounded by its aligned block.
    let sw: ComposedLayout = "Sw<3,4,3> o 0 o (8,64):(64,1)".parse().unwrap();
    assert!(Tensor::new(vec![0u16; 512], sw.clone()).is_ok());
    assert!(Tensor::new(vec![0u16; 511], sw).is_err());
}

#[test]
fn tensor_indexing_by_every_coordinate_kind() {
    let a = Tensor::new((0..24).collect::<Vec<i64>>(), l("(3,(2,4)):(8,(4,1))")).unwrap();
    let shape = a.shape();
    for i in 0..24 {
        let nat = shape.idx2crd(&IntTuple::int(i)).unwrap();
        let want = a.layout().index_1d(i).unwrap();
        assert_eq!(*a.get(&IntTuple::int(i)).unwrap(), want);
        assert_eq!(*a.get(&nat).unwrap(), want);
        let rd = flat(&[i % 3, i / 3]);
        assert_eq!(*a.get(&rd).unwrap(), want);
        assert_eq!(a.get_1d(i), Some(&want));
    }
    for bad in ["24", "-1", "(3,0)", "(0,8)", "(0,(2,0))", "(0,(0,4))"] {
        let e = a.get(&bad.parse().unwrap()).unwrap_err();
        assert_eq!(e.kind(), "CoordOutOfRange", "{bad}");
    }
    assert!(a.get(&"(0,0,0)".parse().unwrap()).is_err());
    let mut b = a.clone();
    *b.get_mut(&flat(&[2, 7])).unwrap() = -1;
    assert_eq!(b.data()[a.position(&flat(&[2, 7])).unwrap()], -1);
}

/// The coordinate of the original layout for coordinate `d` of a slice by per-mode entries.
fn unslice(entries: &[Option<i64>], kept_shape: &IntTuple, d: i64) -> IntTuple {
    let kept = kept_shape.idx2crd(&IntTuple::int(d)).unwrap();
    let mut it = kept.elements();
    IntTuple::tuple(entries.iter().map(|e| match e {
        Some(v) => IntTuple::int(*v),
        None => it.next().unwrap(),
    }))
    .unwrap()
}

#[test]
fn tensor_local_tile_covers_the_matrix_once() {
    for row_major in [false, true] {
        let a = matrix(8, 12, row_major);
        let tiler: Tiler = "(4,3)".parse().unwrap();
        let mut seen = vec![0; 96];
        for ti in 0..2 {
            for tj in 0..4 {
                let t = a.local_tile(&tiler, &flat(&[ti, tj])).unwrap();
                assert_eq!(t.shape().to_string(), "(4,3)");
                for i in 0..4 {
                    for j in 0..3 {
                        let got = *t.get(&flat(&[i, j])).unwrap();
                        let want = *a.get(&flat(&[ti * 4 + i, tj * 3 + j])).unwrap();
                        assert_eq!(got, want);
                        seen[got as usize] += 1;
                    }
                }
            }
        }
        assert!(seen.iter().all(|&c| c == 1));
        assert_eq!(
            a.local_tile(&tiler, &flat(&[2, 0])).unwrap_err().kind(),
            "CoordOutOfRange"
        );
        // A partial coordinate keeps the remaining tile modes.
        let col = a.local_tile(&tiler, &flat(&[1])).unwrap();
        assert_eq!(col.shape().to_string(), "(4,3,4)");
    }
}

#[test]
fn tensor_local_partition_is_a_partition_in_layout_order() {
    // 128 x 64 over 32 x 4 threads, both thread orders.
    let a = matrix(128, 64, false);
    for thr in [l("(32,4):(1,32)"), l("(32,4):(4,1)")] {
        let mut seen = vec![0u8; 128 * 64];
        for idx in 0..128 {
            let p = a.local_partition(&thr, idx).unwrap();
            assert_eq!(p.shape().to_string(), "(4,16)");
            // Thread idx sits at tile coordinate (r, c) with thr(r, c) == idx.
            let hier = thr.coord(idx).unwrap();
            let (r, c) = (hier.leaves()[0], hier.leaves()[1]);
            for i in 0..4 {
                for j in 0..16 {
                    let got = *p.get(&flat(&[i, j])).unwrap();
                    assert_eq!(got, *a.get(&flat(&[r + 32 * i, c + 4 * j])).unwrap());
                    seen[got as usize] += 1;
                }
            }
        }
        assert!(seen.iter().all(|&c| c == 1), "{thr}");
    }
    assert_eq!(
        a.local_partition(&l("(32,4):(1,32)"), 128)
            .unwrap_err()
            .kind(),
        "InvalidArgument"
    );
    assert_eq!(
        a.local_partition(&l("(32,4):(0,1)"), 1).unwrap_err().kind(),
        "ZeroStride"
    );
}

#[test]
fn tensor_partition_tv_covers_the_tile_once() {
    // 8 x 8 tile, 16 threads x 4 values: thread t takes a 2 x 2 block.
    let a = matrix(8, 8, true);
    let tv = l("((4,4),(2,2)):((16,2),(8,1))");
    let mut seen = vec![0; 64];
    for t in 0..16 {
        let p = a.partition_tv(&tv, t).unwrap();
        for v in 0..4 {
            let i = tv.index(&flat(&[t, v])).unwrap();
            assert_eq!(p.get_1d(v), a.get_1d(i));
            seen[*p.get_1d(v).unwrap() as usize] += 1;
        }
    }
    assert!(seen.iter().all(|&c| c == 1));
    assert_eq!(
        a.partition_tv(&l("(4,4,4):(1,4,16)"), 0)
            .unwrap_err()
            .kind(),
        "RankMismatch"
    );
}

#[test]
fn tensor_fill_and_views() {
    let mut buf = vec![0i32; 20];
    {
        let mut t = Tensor::new(&mut buf[..], l("(2,4):(10,2)")).unwrap();
        t.fill(7);
        let mut row = t.slice_mut(&"(1,_)".parse().unwrap()).unwrap();
        row.fill(9);
    }
    let want: Vec<i32> = (0..20)
        .map(|k| match k {
            0 | 2 | 4 | 6 => 7,
            10 | 12 | 14 | 16 => 9,
            _ => 0,
        })
        .collect();
    assert_eq!(buf, want);
    let t = Tensor::new(&buf[..], l("(2,4):(10,2)")).unwrap();
    assert_eq!(t.coalesce().to_vec(), t.to_vec());
    assert_eq!(t.flatten().to_vec(), t.to_vec());
    assert_eq!(t.view().to_vec(), t.to_vec());
}

#[test]
fn tensor_copy_between_layouts() {
    let src = matrix(6, 10, true);
    for lay in [
        "(6,10):(1,6)",
        "(6,10):(10,1)",
        "(6,(2,5)):(1,(30,6))",
        "(6,10):(-1,-6)",
    ] {
        let dl = l(lay);
        let base = if lay.contains('-') { 59 } else { 0 };
        let mut dst = Tensor::with_base(vec![0i64; 60], dl.clone(), base).unwrap();
        dst.copy_from(&src).unwrap();
        for i in 0..60 {
            assert_eq!(dst.get_1d(i), src.get_1d(i), "{lay} at {i}");
        }
    }
    // Swizzled destination (generic path) and swizzled source.
    let sw: ComposedLayout = "Sw<2,0,3> o 0 o (6,10):(10,1)".parse().unwrap();
    let mut dst = Tensor::new(vec![0i64; 64], sw).unwrap();
    dst.copy_from(&src).unwrap();
    for i in 0..60 {
        assert_eq!(dst.get_1d(i), src.get_1d(i));
    }
    let mut back = Tensor::new(vec![0i64; 60], l("(6,10):(1,6)")).unwrap();
    back.copy_from(&dst).unwrap();
    for i in 0..60 {
        assert_eq!(back.get_1d(i), src.get_1d(i));
    }
    let mut small = Tensor::new(vec![0i64; 59], l("59:1")).unwrap();
    assert_eq!(small.copy_from(&src).unwrap_err().kind(), "InvalidArgument");
}

#[test]
fn tensor_divides_keep_the_elements() {
    let a = matrix(8, 12, false);
    let tiler: Tiler = "(4,3)".parse().unwrap();
    let mut base = a.to_vec();
    base.sort();
    for t in [
        a.logical_divide(&tiler).unwrap(),
        a.zipped_divide(&tiler).unwrap(),
        a.tiled_divide(&tiler).unwrap(),
        a.flat_divide(&tiler).unwrap(),
    ] {
        let mut v = t.to_vec();
        v.sort();
        assert_eq!(v, base);
    }
    let z = a.zipped_divide(&tiler).unwrap();
    assert_eq!(z.shape().to_string(), "((4,3),(2,4))");
    // Mode (tile, rest) of the zipped tensor is element (rest * tile + tile) of A.
    for r in 0..8 {
        for t in 0..12 {
            let got = *z.get(&flat(&[t, r])).unwrap();
            let (ti, tj, ri, rj) = (t % 4, t / 4, r % 2, r / 2);
            assert_eq!(got, *a.get(&flat(&[ri * 4 + ti, rj * 3 + tj])).unwrap());
        }
    }
    let g = a.group_modes(0, 2).unwrap();
    assert_eq!(g.to_vec(), a.to_vec());
}

#[test]
fn identity_tensor_predicates_partial_tiles() {
    let c = IdentityTensor::new("(10,7)".parse().unwrap()).unwrap();
    let tiler: Tiler = "(4,4)".parse().unwrap();
    let mut inside = 0;
    for ti in 0..3 {
        for tj in 0..2 {
            let t = c.local_tile(&tiler, &flat(&[ti, tj])).unwrap();
            for i in 0..4 {
                for j in 0..4 {
                    let g = t.get(&flat(&[i, j])).unwrap();
                    assert_eq!(g, flat(&[ti * 4 + i, tj * 4 + j]));
                    let ok = t.in_bounds(&flat(&[i, j])).unwrap();
                    assert_eq!(ok, ti * 4 + i < 10 && tj * 4 + j < 7);
                    inside += i64::from(ok);
                }
            }
        }
    }
    assert_eq!(inside, 70);
    // Partitions of the identity tensor name the coordinates of the data tensor's partitions.
    let a = matrix(16, 8, false);
    let id = IdentityTensor::new("(16,8)".parse().unwrap()).unwrap();
    let thr = l("(4,2):(2,1)");
    for idx in 0..8 {
        let p = a.local_partition(&thr, idx).unwrap();
        let q = id.local_partition(&thr, idx).unwrap();
        assert_eq!(p.shape(), q.shape());
        for k in 0..p.size() {
            let crd = q.get(&IntTuple::int(k)).unwrap();
            assert_eq!(p.get_1d(k), Some(a.get(&crd).unwrap()));
        }
    }
    let s = id.slice(&"(3,_)".parse().unwrap()).unwrap();
    assert_eq!(s.get(&IntTuple::int(5)).unwrap(), flat(&[3, 5]));
    assert_eq!(s.iter().count(), 8);
}

fn layout_strategy() -> impl Strategy<Value = Layout> {
    prop::collection::vec((1i64..=4, -6i64..=12), 1..=4).prop_map(|m| common::flat(&m))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn tensor_new_accepts_exactly_the_layouts_inside_storage(a in layout_strategy(), len in 1usize..80, base in 0usize..40) {
        let offsets: Vec<i64> = a.offsets().collect();
        let fits = offsets.iter().all(|&o| (0..len as i64).contains(&(o + base as i64)));
        let t = Tensor::with_base(vec![0u8; len], a.clone(), base);
        prop_assert_eq!(t.is_ok(), fits, "{} base {} len {}", a, base, len);
        if let Ok(t) = t {
            let pos: Vec<usize> = t.positions().collect();
            prop_assert_eq!(pos, offsets.iter().map(|&o| (o + base as i64) as usize).collect::<Vec<_>>());
        }
    }

    #[test]
    fn tensor_slice_agrees_with_the_original(a in layout_strategy(), picks in prop::collection::vec(prop::option::of(0i64..4), 4)) {
        let base = -a.image_bounds().0;
        let len = (a.image_bounds().1 + base + 1) as usize;
        let t = Tensor::with_base((0..len as i64).collect::<Vec<_>>(), a.clone(), base as usize).unwrap();
        let entries: Vec<Option<i64>> = a.modes().zip(&picks).map(|(m, p)| p.map(|v| v % m.size())).collect();
        let c = SliceCoord::flat(entries.iter().map(|e| e.map_or(Slice::All, Slice::At)));
        let s = t.slice(&c).unwrap();
        for d in 0..s.size() {
            let crd = unslice(&entries, &s.shape(), d);
            prop_assert_eq!(s.get_1d(d), Some(t.get(&crd).unwrap()), "{} sliced by {} = {}", a, c, s);
        }
        // Out of range entries are refused.
        if let Some(k) = entries.iter().position(|e| e.is_some()) {
            let mut bad = entries.clone();
            bad[k] = Some(a.mode(k).unwrap().size());
            let c = SliceCoord::flat(bad.iter().map(|e| e.map_or(Slice::All, Slice::At)));
            prop_assert_eq!(t.slice(&c).unwrap_err().kind(), "CoordOutOfRange");
        }
    }

    #[test]
    fn tensor_copy_matches_elementwise(a in layout_strategy(), perm in Just((0..4usize).collect::<Vec<_>>()).prop_shuffle(), sw in prop::option::of((1i64..=2, 0i64..=2))) {
        // Source: any layout; destination: a compact layout of the same shape with permuted
        // stride order, optionally swizzled.
        let base = -a.image_bounds().0;
        let len = (a.image_bounds().1 + base + 1) as usize;
        let src = Tensor::with_base((0..len as i64).collect::<Vec<_>>(), a.clone(), base as usize).unwrap();
        let shape = a.shape();
        let order = IntTuple::flat(perm.iter().take(a.rank()).map(|&p| p as i64));
        let dl = Layout::ordered(shape, order).unwrap();
        let dst_layout: ComposedLayout = match sw {
            Some((b, m)) => Swizzle::new(b, m, b).unwrap().compose_layout(&dl),
            None => dl.into(),
        };
        let n = (dst_layout.image_bounds().1 + 1) as usize;
        let mut dst = Tensor::new(vec![-1i64; n], dst_layout).unwrap();
        dst.copy_from(&src).unwrap();
        for i in 0..a.size() {
            prop_assert_eq!(dst.get_1d(i), src.get_1d(i));
        }
    }
}

#[test]
fn tensor_errors_are_typed() {
    let a = matrix(4, 4, true);
    let e: LayoutError = a.slice(&"(0,0,_)".parse().unwrap()).unwrap_err();
    assert_eq!(e.kind(), "InvalidArgument");
    assert_eq!(
        a.local_tile(&"(4,4,4)".parse().unwrap(), &flat(&[0]))
            .unwrap_err()
            .kind(),
        "RankMismatch"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// local_tile and local_partition on random 2-D tensors whose tiles divide them: the tiles /
    /// partitions over all tile coordinates / thread indices hold every element exactly once, each
    /// at the position the definition says.
    #[test]
    fn tensor_tiles_and_partitions_of_random_shapes(
        (tm, tn, gm, gn) in (1i64..=4, 1i64..=4, 1i64..=3, 1i64..=3),
        row_major in any::<bool>(),
        thr_row_major in any::<bool>(),
    ) {
        let (m, n) = (tm * gm, tn * gn);
        let a = matrix(m, n, row_major);
        let tiler: Tiler = format!("({tm},{tn})").parse().unwrap();
        let mut seen = vec![0u32; (m * n) as usize];
        for ti in 0..gm {
            for tj in 0..gn {
                let t = a.local_tile(&tiler, &flat(&[ti, tj])).unwrap();
                for i in 0..tm {
                    for j in 0..tn {
                        let v = *t.get(&flat(&[i, j])).unwrap();
                        prop_assert_eq!(v, *a.get(&flat(&[ti * tm + i, tj * tn + j])).unwrap());
                        seen[v as usize] += 1;
                    }
                }
            }
        }
        prop_assert!(seen.iter().all(|&c| c == 1));
        // Threads: a tm x tn block, column- or row-major.
        let thr: Layout = if thr_row_major {
            format!("({tm},{tn}):({tn},1)").parse().unwrap()
        } else {
            format!("({tm},{tn}):(1,{tm})").parse().unwrap()
        };
        let mut seen = vec![0u32; (m * n) as usize];
        for idx in 0..tm * tn {
            let p = a.local_partition(&thr, idx).unwrap();
            let c = thr.coord(idx).unwrap();
            let (r, k) = (c.leaves()[0], c.leaves()[1]);
            for i in 0..gm {
                for j in 0..gn {
                    let v = *p.get(&flat(&[i, j])).unwrap();
                    prop_assert_eq!(v, *a.get(&flat(&[r + tm * i, k + tn * j])).unwrap());
                    seen[v as usize] += 1;
                }
            }
        }
        prop_assert!(seen.iter().all(|&c| c == 1));
    }

    /// Tensor composition re-indexes: element i of t ∘ B is element B(i) of t (t's function,
    /// extended past its domain as CuTe's layouts are).
    #[test]
    fn tensor_compose_reindexes(shape in prop::collection::vec(1i64..=4, 1..=3), b in (1i64..=4, 0i64..=3)) {
        let sh: Vec<String> = shape.iter().map(|x| x.to_string()).collect();
        let lay = Layout::col_major(format!("({})", sh.join(",")).parse().unwrap()).unwrap();
        let size = lay.size();
        let t = Tensor::new((0..size).map(|k| k * 10).collect::<Vec<i64>>(), lay).unwrap();
        let bl: Layout = format!("{}:{}", b.0, b.1).parse().unwrap();
        match t.compose(&bl) {
            Ok(r) => {
                for i in 0..bl.size() {
                    // B may run past t's domain (the last mode runs on, as in CuTe); the
                    // storage bound was checked when the view was made.
                    let off = t.layout().index_any(bl.index_1d(i).unwrap()).unwrap();
                    prop_assert_eq!(r.get_1d(i), Some(&t.data()[off as usize]));
                }
            }
            Err(e) => prop_assert!(
                matches!(e.kind(), "OutOfBounds" | "StrideNotDivisible" | "ShapeNotDivisible" | "ModesOverlap"),
                "{}", e
            ),
        }
    }
}
