//! The restructuring operations of a tensor without data (`LayoutTensor::flatten`, `coalesce`,
//! `group_modes`, `take_modes`, `filter_zeros`, `filter`, `compose_tiler`, `domain_offset`,
//! `tensor_like`, `fragment_like`, `outer_partition`) checked against their laws on whole
//! domains: for every tensor of a small family and for random counting, swizzled, coordinate
//! and pointer tensors (plain, swizzled and sub-byte pointers; their values are element
//! addresses), and zip tensors (`outer_partition` only, as CuTe's).

use crate::common;

use cute_layout::{
    ComposedLayout, IntTuple, Layout, LayoutTensor, Pointer, Slice, SliceCoord, TensorValue, Tiler,
};
use proptest::prelude::*;

/// All values in 1-D order.
fn values(t: &LayoutTensor) -> Vec<TensorValue> {
    t.values(1 << 12).unwrap()
}

/// The extents of the top-level modes.
fn extents(t: &LayoutTensor) -> Vec<i64> {
    let s = t.shape();
    if s.is_int() {
        return vec![s.size().unwrap()];
    }
    s.elements().map(|m| m.size().unwrap()).collect()
}

fn int(v: &TensorValue) -> i64 {
    match v {
        TensorValue::Int(x) => *x,
        other => panic!("not an offset: {other}"),
    }
}

/// A counting tensor over a layout of rank 2 or 3 (the first mode possibly nested) with
/// extents 1..=4 and strides in -3..=6 (zeros included), and a base.
fn plain_tensor() -> impl Strategy<Value = LayoutTensor> {
    (
        prop::collection::vec((1i64..=4, -3i64..=6), 2..=4),
        any::<bool>(),
        -10i64..10,
    )
        .prop_map(|(modes, nest, base)| {
            let sh: Vec<String> = modes.iter().map(|m| m.0.to_string()).collect();
            let st: Vec<String> = modes.iter().map(|m| m.1.to_string()).collect();
            let text = if nest && modes.len() >= 3 {
                format!(
                    "(({},{}),{}):(({},{}),{})",
                    sh[0],
                    sh[1],
                    sh[2..].join(","),
                    st[0],
                    st[1],
                    st[2..].join(",")
                )
            } else {
                format!("({}):({})", sh.join(","), st.join(","))
            };
            LayoutTensor::counting(base, text.parse::<Layout>().unwrap())
        })
}

/// A swizzled counting tensor: a compact rank-2 tile of power-of-two extents under a swizzle
/// whose bits lie inside it.
fn swizzled_tensor() -> impl Strategy<Value = LayoutTensor> {
    (1u32..4, 1u32..4, any::<bool>(), 1u32..3, 0u32..2, -5i64..5).prop_map(
        |(a, b, row, bits, base, origin)| {
            let l = common::pow2_tile(a, b, row);
            let shift = bits.max(1);
            let c = if a + b >= base + shift + bits {
                common::swizzled(l, bits as i64, base as i64, shift as i64)
            } else {
                ComposedLayout::from(l)
            };
            LayoutTensor::counting(origin, c)
        },
    )
}

fn coord_tensor() -> impl Strategy<Value = LayoutTensor> {
    (1i64..5, 1i64..5, 1i64..4, any::<bool>()).prop_map(|(m, n, k, nest)| {
        let shape: IntTuple = if nest {
            format!("(({m},{k}),{n})")
        } else {
            format!("({m},{n})")
        }
        .parse()
        .unwrap();
        LayoutTensor::identity(shape).unwrap()
    })
}

/// A counting tensor over a composed layout with a layout outer function,
/// `counting_iter(B) o 64:D o O o (m,n):(s,t)`.
fn chain_tensor() -> impl Strategy<Value = LayoutTensor> {
    (
        1i64..=4,
        1i64..=4,
        0i64..=6,
        0i64..=6,
        1i64..=3,
        0i64..=4,
        -5i64..5,
    )
        .prop_map(|(m, n, s, t, d, o, base)| {
            format!("counting_iter({base}) o 64:{d} o {o} o ({m},{n}):({s},{t})")
                .parse()
                .unwrap()
        })
}

/// A pointer tensor over the layout of a plain or swizzled counting tensor: a global pointer
/// of 8, 16 or 32-bit elements, or a swizzled shared-memory pointer of 16-bit elements.
fn pointer_tensor() -> impl Strategy<Value = LayoutTensor> {
    (
        prop_oneof![plain_tensor(), swizzled_tensor()],
        prop::sample::select(vec![
            "gmem_ptr[8b](0x1000)",
            "gmem_ptr[16b](0x2000)",
            "gmem_ptr[32b](0x4000)",
            "Sw<2,4,3>_smem_ptr[16b](0x1000)",
        ]),
    )
        .prop_map(|(t, p)| {
            let LayoutTensor::Counting { layout, .. } = t else {
                unreachable!()
            };
            LayoutTensor::from_pointer(p.parse::<Pointer>().unwrap(), layout)
        })
}

fn any_tensor() -> impl Strategy<Value = LayoutTensor> {
    prop_oneof![
        plain_tensor(),
        swizzled_tensor(),
        coord_tensor(),
        chain_tensor(),
        pointer_tensor()
    ]
}

/// Law checks of the operations that keep the 1-D function: flatten, coalesce (with and
/// without a profile), group_modes.
fn check_same_function(t: &LayoutTensor) {
    let v = values(t);
    let mut same = vec![t.flatten().unwrap(), t.coalesce(None).unwrap()];
    if t.rank() >= 2 {
        let ones = IntTuple::flat(core::iter::repeat_n(1, t.rank()));
        same.push(t.coalesce(Some(&ones)).unwrap());
        same.push(t.group_modes(0, 2).unwrap());
        same.push(t.group_modes(0, t.rank()).unwrap());
    }
    for r in same {
        assert_eq!(values(&r), v, "{t} -> {r}");
        assert_eq!(r.size(), t.size());
    }
    assert_eq!(
        t.flatten().unwrap().shape().depth(),
        t.shape().depth().min(1)
    );
}

/// Law: `take(b, e)` is the slice with `_` in modes `[b, e)` and 0 elsewhere.
fn check_take(t: &LayoutTensor) {
    let r = t.rank();
    for b in 0..r {
        for e in b + 1..=r {
            let c = SliceCoord::flat((0..r).map(|k| {
                if (b..e).contains(&k) {
                    Slice::All
                } else {
                    Slice::At(0)
                }
            }));
            let want = values(&t.slice(&c).unwrap());
            let got = t.take_modes(b, e).unwrap();
            assert_eq!(values(&got), want, "{t} take({b},{e}) = {got}");
        }
    }
}

/// Laws of filter_zeros and filter (plain counting and coordinate tensors).
fn check_filters(t: &LayoutTensor) {
    let fz = t.filter_zeros().unwrap();
    let shape = fz.shape();
    for i in 0..fz.size() {
        let nat = shape.idx2crd(&IntTuple::int(i)).unwrap();
        assert_eq!(
            fz.value(&nat).unwrap(),
            t.value(&nat).unwrap(),
            "{t} filter_zeros {fz} at {nat}"
        );
    }
    let f = t.filter().unwrap();
    let want: Vec<TensorValue> = values(&fz).into_iter().take(f.size() as usize).collect();
    assert_eq!(values(&f), want, "{t} filter {f}");
    // Every value of the tensor is a value of its filter.
    let mut all: Vec<String> = values(t).iter().map(|v| v.to_string()).collect();
    let mut kept: Vec<String> = values(&f).iter().map(|v| v.to_string()).collect();
    all.sort();
    all.dedup();
    kept.sort();
    kept.dedup();
    assert_eq!(all, kept, "{t} filter {f}");
}

/// Law: `composition(T, B)(c) == T(B(c))` (a 1-D index of `T`) wherever it is defined.
fn check_compose(t: &LayoutTensor, b: &Layout) {
    let Ok(r) = t.compose_tiler(&Tiler::Layout(b.clone())) else {
        return;
    };
    for c in 0..b.size() {
        let i = b.index(&IntTuple::int(c)).unwrap();
        if (0..t.size()).contains(&i) {
            assert_eq!(
                r.value(&IntTuple::int(c)).unwrap(),
                t.value(&IntTuple::int(i)).unwrap(),
                "{t} o {b} = {r} at {c}"
            );
        }
    }
}

/// Laws of a rank-2 flat tensor: domain_offset, composition by mode, outer_partition.
fn check_rank2(t: &LayoutTensor) {
    let e = extents(t);
    let (m, n) = (e[0], e[1]);
    let at = |i: i64, j: i64| t.value(&IntTuple::flat([i, j])).unwrap();
    for ci in 0..m {
        for cj in 0..n {
            let r = t.domain_offset(&IntTuple::flat([ci, cj])).unwrap();
            assert_eq!(r.shape(), t.shape());
            for x in 0..m - ci {
                for y in 0..n - cj {
                    assert_eq!(
                        r.value(&IntTuple::flat([x, y])).unwrap(),
                        at(ci + x, cj + y),
                        "{t} domain_offset ({ci},{cj}) = {r} at ({x},{y})"
                    );
                }
            }
        }
    }
    for (a, b) in [(1, 1), (m, n), ((m + 1) / 2, n), (m, 1)] {
        let r = t
            .compose_tiler(&format!("({a},{b})").parse().unwrap())
            .unwrap();
        for i in 0..a {
            for j in 0..b {
                assert_eq!(r.value(&IntTuple::flat([i, j])).unwrap(), at(i, j));
            }
        }
    }
    for tm in (1..=m).filter(|d| m % d == 0) {
        for tn in (1..=n).filter(|d| n % d == 0) {
            let tiler: Tiler = format!("({tm},{tn})").parse().unwrap();
            for i in 0..tm {
                for j in 0..tn {
                    let p = t.outer_partition(&tiler, &IntTuple::flat([i, j])).unwrap();
                    let q = t
                        .outer_partition(&tiler, &IntTuple::int(i + j * tm))
                        .unwrap();
                    assert_eq!(values(&p), values(&q));
                    for bm in 0..m / tm {
                        for bn in 0..n / tn {
                            assert_eq!(
                                p.value(&IntTuple::flat([bm, bn])).unwrap(),
                                at(bm * tm + i, bn * tn + j),
                                "{t} outer_partition ({tm},{tn}) ({i},{j}) = {p}"
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Laws of the fresh tensors: the same shape (per mode), values `0..size` once each when the
/// strides are distinct and nonzero, the iterator at 0.
fn check_like(t: &LayoutTensor) {
    let (LayoutTensor::Counting { layout, .. } | LayoutTensor::Pointer { layout, .. }) = t else {
        assert!(t.tensor_like().is_err() && t.fragment_like().is_err());
        return;
    };
    let mut fresh = vec![t.fragment_like().unwrap()];
    match layout.as_layout() {
        Some(_) => fresh.push(t.tensor_like().unwrap()),
        None => assert!(t.tensor_like().is_err()),
    }
    // Ties between strides give ties in CuTe's order (equal strides), so only distinct nonzero
    // strides promise a bijection.
    let mut st: Vec<i64> = layout.layout().stride_leaves().to_vec();
    st.sort();
    st.dedup();
    let zero = st.contains(&0) || st.len() != layout.layout().stride_leaves().len();
    for r in fresh {
        assert_eq!(extents(&r), extents(t), "{t} -> {r}");
        assert!(r.to_string().starts_with("counting_iter(0) o "));
        if !zero {
            let mut v: Vec<i64> = values(&r).iter().map(int).collect();
            v.sort();
            assert_eq!(v, (0..t.size()).collect::<Vec<_>>(), "{t} -> {r}");
        }
    }
}

/// Every law over a fixed family of small tensors: plain (nested, strided, stride-0),
/// swizzled, coordinate, over a composed layout with a layout outer function.
#[test]
fn laws_over_small_tensors() {
    for s in [
        "counting_iter(0) o ((2,2),3):((1,2),4)",
        "counting_iter(3) o (4,(2,3)):(0,(1,2))",
        "counting_iter(-2) o (3,4):(4,-1)",
        "counting_iter(0) o (2,3,4):(12,1,3)",
        "counting_iter(1) o (4,6):(6,1)",
        "counting_iter(0) o Sw<3,0,3> o 0 o (8,8):(8,1)",
        "counting_iter(5) o Sw<2,1,3> o 0 o ((2,2,2),(2,2,2)):((32,2,8),(4,1,16))",
        "ArithTuple(0,0) o (4,6):(1@0,1@1)",
        "ArithTuple((0,0),0) o ((2,2),3):((1@0@0,1@1@0),1@1)",
        "counting_iter(0) o 32:2 o 3 o (2,4):(1,2)",
        "counting_iter(3) o (4,8):(8,1) o 0 o (4,8):(1,4)",
        "counting_iter(0) o 64:1 o 2 o ((2,2),4):((1,8),2)",
        "gmem_ptr[16b](0x1000) o ((2,2),3):((1,2),4)",
        "gmem_ptr[32b](0x2000) o (4,(2,3)):(0,(1,2))",
        "ptr[8b](0x100) o (3,4):(4,-1)",
        "gmem_subptr[4b](0x1000.0) o (4,6):(1,4)",
        "Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,32):(32,1)",
        "smem_ptr[16b](0x1000) o Sw<3,0,3> o 0 o (8,8):(8,1)",
        "tmem_[32b](0x0000.0000) o (4,8):(65536,1)",
    ] {
        let t: LayoutTensor = s.parse().unwrap();
        check_same_function(&t);
        check_take(&t);
        check_like(&t);
        let composed = matches!(&t, LayoutTensor::Chain { .. })
            || matches!(&t, LayoutTensor::Counting { layout, .. } | LayoutTensor::Pointer { layout, .. } if layout.as_layout().is_none());
        if !composed {
            check_filters(&t);
        } else {
            assert!(t.filter().is_err() && t.filter_zeros().is_err());
        }
        for b in ["6:1", "(2,3):(1,2)", "(2,2):(2,1)", "3:2", "(2,3):(3,1)"] {
            check_compose(&t, &b.parse().unwrap());
        }
        if t.rank() == 2 && t.shape().depth() == 1 {
            check_rank2(&t);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn restructuring_keeps_the_values(t in any_tensor()) {
        check_same_function(&t);
        check_take(&t);
        check_like(&t);
    }

    #[test]
    fn filters_keep_the_values(t in prop_oneof![plain_tensor(), coord_tensor(), pointer_tensor()]) {
        prop_assume!(matches!(&t, LayoutTensor::Coords(_)) || !t.to_string().contains(" o Sw<"));
        check_filters(&t);
    }

    #[test]
    fn composition_evaluates_through(t in any_tensor(), s0 in 1i64..4, s1 in 1i64..4, d0 in 0i64..5, d1 in 0i64..7) {
        let b = Layout::new(IntTuple::flat([s0, s1]), IntTuple::flat([d0, d1])).unwrap();
        check_compose(&t, &b);
    }

    #[test]
    fn rank2_laws(t in prop_oneof![swizzled_tensor(), coord_tensor(), plain_tensor(), chain_tensor(), pointer_tensor()]) {
        prop_assume!(t.rank() == 2 && t.shape().depth() == 1);
        check_rank2(&t);
    }
}

/// Law: over every thread of a tiled MMA (C) and a tiled copy (S and D), the partitions of a
/// counting and of a coordinate tensor hold every value of the tensor exactly once, and a
/// counting tensor's partition is the layout partition moved by its base.
#[test]
fn thread_partitions_cover_the_tensor_once() {
    use cute_layout::atom::copy::{copy_atom, TiledCopy};
    use cute_layout::atom::{mma_atom, Operand, TiledMma};
    let layout: Layout = "(2,2)"
        .parse::<IntTuple>()
        .map(Layout::col_major)
        .unwrap()
        .unwrap();
    let mma = TiledMma::new(
        mma_atom("SM80_16x8x8_F16F16F16F16_TN").unwrap(),
        Some(&layout),
        None,
    )
    .unwrap();
    let atom = copy_atom("UniversalCopy<uint32_t>")
        .unwrap()
        .typed("half_t")
        .unwrap();
    let tc = TiledCopy::make_tiled_copy(
        atom,
        &"(4,8):(1,4)".parse().unwrap(),
        &"(2,1):(1,0)".parse().unwrap(),
    )
    .unwrap();
    type Part<'a> = Box<dyn Fn(&LayoutTensor, i64) -> LayoutTensor + 'a>;
    let cases: Vec<(&str, i64, Part)> = vec![
        (
            "(32,16)",
            mma.size(),
            Box::new(|t, k| t.partition_mma(&mma, Operand::C, k).unwrap()),
        ),
        (
            "(8,16)",
            tc.size(),
            Box::new(|t, k| t.partition_copy(&tc, k, false).unwrap()),
        ),
        (
            "(8,16)",
            tc.size(),
            Box::new(|t, k| t.partition_copy(&tc, k, true).unwrap()),
        ),
    ];
    for (shape, threads, part) in cases {
        let shape: IntTuple = shape.parse().unwrap();
        let l = Layout::col_major(shape.clone()).unwrap();
        for t in [
            LayoutTensor::counting(7, l.clone()),
            LayoutTensor::identity(shape.clone()).unwrap(),
        ] {
            let mut seen: Vec<String> = Vec::new();
            for k in 0..threads {
                seen.extend(values(&part(&t, k)).iter().map(|v| v.to_string()));
            }
            seen.sort();
            let mut all: Vec<String> = values(&t).iter().map(|v| v.to_string()).collect();
            all.sort();
            assert_eq!(seen, all, "{t}");
        }
    }
    let c = LayoutTensor::counting(7, "(32,16):(1,32)".parse::<Layout>().unwrap());
    let (p, off) = mma
        .partition(Operand::C, &"(32,16):(1,32)".parse().unwrap(), 5)
        .unwrap();
    assert_eq!(
        c.partition_mma(&mma, Operand::C, 5).unwrap(),
        LayoutTensor::counting(7 + off, p)
    );
}

/// Law: a pointer tensor's restructuring is the counting tensor's with the offset on the
/// pointer, `op(P o L) == (P + k) o L'` where `op(counting_iter(0) o L) == counting_iter(k) o L'`;
/// a zip tensor's `outer_partition` is the zip of its tensors' and the other restructuring
/// operations refuse it (CuTe's `ZipLayout` has no modes for them).
#[test]
fn pointer_and_zip_tensors_follow_their_offsets() {
    let ptrs = [
        "gmem_ptr[16b](0x1000)",
        "Sw<3,4,3>_smem_ptr[16b](0x1000)",
        "gmem_subptr[4b](0x1000.0)",
    ];
    let layouts = [
        "(4,6):(6,1)",
        "((2,2),6):((1,2),-4)",
        "Sw<2,0,2> o 0 o (4,8):(8,1)",
    ];
    let tiler: Tiler = "(2,3)".parse().unwrap();
    let coord = IntTuple::flat([1, 2]);
    type Op = fn(&LayoutTensor) -> Result<LayoutTensor, cute_layout::LayoutError>;
    let ops: [Op; 9] = [
        |t| t.flatten(),
        |t| t.coalesce(None),
        |t| t.take_modes(1, 2),
        |t| t.group_modes(0, 2),
        |t| t.compose_tiler(&"(2,3):(3,1)".parse().unwrap()),
        |t| t.compose_tiler(&"(2,3):(2,8)".parse().unwrap()),
        |t| t.filter(),
        |t| t.domain_offset(&IntTuple::flat([1, 2])),
        |t| t.outer_partition(&"(2,3)".parse().unwrap(), &IntTuple::flat([1, 2])),
    ];
    for p in ptrs {
        let ptr: Pointer = p.parse().unwrap();
        for l in layouts {
            let layout: ComposedLayout = l.parse().unwrap();
            let t = LayoutTensor::from_pointer(ptr, layout.clone());
            let c = LayoutTensor::counting(0, layout);
            for f in ops {
                match (f(&c), f(&t)) {
                    (Ok(LayoutTensor::Counting { base, layout }), Ok(r)) => {
                        let p = ptr.offset(base, "test").unwrap();
                        assert_eq!(r, LayoutTensor::from_pointer(p, layout), "{t}");
                    }
                    (Err(e), Err(g)) => assert_eq!(e, g, "{t}"),
                    other => panic!("{t}: {other:?}"),
                }
            }
        }
    }
    let a: LayoutTensor = "gmem_ptr[16b](0x1000) o (4,6):(6,1)".parse().unwrap();
    let b: LayoutTensor = "counting_iter(7) o (4,6):(1,4)".parse().unwrap();
    let z = LayoutTensor::zip(vec![a.clone(), b.clone()]).unwrap();
    let parts = vec![
        a.outer_partition(&tiler, &coord).unwrap(),
        b.outer_partition(&tiler, &coord).unwrap(),
    ];
    assert_eq!(
        z.outer_partition(&tiler, &coord).unwrap(),
        LayoutTensor::zip(parts).unwrap()
    );
    for r in [
        z.flatten(),
        z.coalesce(None),
        z.group_modes(0, 2),
        z.take_modes(0, 1),
        z.filter(),
        z.filter_zeros(),
        z.compose_tiler(&tiler),
        z.domain_offset(&coord),
        z.tensor_like(),
        z.fragment_like(),
    ] {
        assert!(
            matches!(r, Err(cute_layout::LayoutError::InvalidArgument { .. })),
            "{r:?}"
        );
    }
}
