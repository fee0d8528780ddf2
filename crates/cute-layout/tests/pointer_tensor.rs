//! Pointer and zip tensors (`LayoutTensor::Pointer`, `LayoutTensor::Zip`) checked against their
//! definitions on whole domains, for random layouts, element widths, memory spaces, addresses
//! and pointer swizzles.

use crate::common;

use std::collections::BTreeSet;

use cute_layout::{
    ComposedLayout, IntTuple, LayoutTensor, MemSpace, Pointer, Slice, SliceCoord, Swizzle,
    TensorValue,
};
use proptest::prelude::*;

/// A rank-2 layout with power-of-two extents and compact strides in either order, optionally
/// swizzled (bits inside it).
fn layout() -> impl Strategy<Value = ComposedLayout> {
    (1u32..4, 1u32..4, any::<bool>(), 0i64..3).prop_map(|(a, b, row, bits)| {
        let l = common::pow2_tile(a, b, row);
        let bits = bits.min(i64::from(a + b) / 2);
        if bits > 0 {
            common::swizzled(l, bits, 0, bits)
        } else {
            l.into()
        }
    })
}

/// A pointer: global or shared memory, 4 to 64-bit elements, an address aligned to 1 KiB plus
/// a multiple of the element size, and (shared memory) a swizzle of the byte address.
fn pointer() -> impl Strategy<Value = Pointer> {
    (
        prop::sample::select(vec![4u32, 8, 16, 32, 64]),
        any::<bool>(),
        1i64..64,
        0i64..8,
        0i64..4,
    )
        .prop_map(|(bits, smem, kib, k, sw)| {
            let space = if smem { MemSpace::Smem } else { MemSpace::Gmem };
            let size = i64::from(bits.max(8) / 8);
            let p = Pointer::new(space, bits, kib * 1024 + k * size).unwrap();
            if smem && sw > 0 {
                p.with_swizzle(Swizzle::new(sw, 4, 3).unwrap()).unwrap()
            } else {
                p
            }
        })
}

fn address(v: TensorValue) -> i64 {
    match v {
        TensorValue::Ptr(p) => p.addr() * 8 + i64::from(p.bit_index()),
        other => panic!("not an address: {other}"),
    }
}

fn extents(t: &LayoutTensor) -> (i64, i64) {
    let e: Vec<i64> = t.shape().elements().map(|m| m.size().unwrap()).collect();
    (e[0], e[1])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Law: `T(c)` is `ptr + L(c)` dereferenced: the swizzle of the pointer applied to the byte
    /// address `addr + L(c) * bits / 8` (bit position for sub-byte types).
    #[test]
    fn value_is_the_element_address(p in pointer(), l in layout()) {
        let t = LayoutTensor::from_pointer(p, l.clone());
        let offsets = LayoutTensor::counting(0, l);
        for i in 0..t.size() {
            let c = IntTuple::int(i);
            let TensorValue::Int(off) = offsets.value(&c).unwrap() else { unreachable!() };
            let bit = p.addr() * 8 + off * i64::from(p.bits());
            let byte = match p.swizzle() {
                Some(sw) => sw.apply(bit.div_euclid(8)),
                None => bit.div_euclid(8),
            };
            prop_assert_eq!(address(t.value(&c).unwrap()), byte * 8 + bit.rem_euclid(8));
        }
    }

    /// Law: `T(i,_)(j) == T(i,j) == T(_,j)(i)`: slices move the pointer as CuTe does, for every
    /// row and column; and a zip tensor's slices are the zips of the slices.
    #[test]
    fn slices_move_the_pointer(p in pointer(), l in layout(), base in -8i64..8) {
        let t = LayoutTensor::from_pointer(p, l.clone());
        let z = LayoutTensor::zip(vec![t.clone(), LayoutTensor::counting(base, l)]).unwrap();
        let (m, n) = extents(&t);
        for i in 0..m {
            let c = SliceCoord::flat([Slice::At(i), Slice::All]);
            let row = t.slice(&c).unwrap();
            let zrow = z.slice(&c).unwrap();
            for j in 0..n {
                let want = t.value(&IntTuple::flat([i, j])).unwrap();
                prop_assert_eq!(row.value(&IntTuple::int(j)).unwrap(), want.clone());
                let TensorValue::Tuple(pair) = zrow.value(&IntTuple::int(j)).unwrap() else {
                    unreachable!()
                };
                prop_assert_eq!(&pair[0], &want);
                prop_assert_eq!(pair[1].clone(), z.unzip()[1].value(&IntTuple::flat([i, j])).unwrap());
            }
        }
        for j in 0..n {
            let col = t.slice(&SliceCoord::flat([Slice::All, Slice::At(j)])).unwrap();
            for i in 0..m {
                prop_assert_eq!(
                    col.value(&IntTuple::int(i)).unwrap(),
                    t.value(&IntTuple::flat([i, j])).unwrap()
                );
            }
        }
    }

    /// Law: a recast tensor reaches the same bytes: every element of the new tensor starts
    /// inside an element of the old one.
    #[test]
    fn recast_keeps_the_bytes(p in pointer(), l in layout(), wide in any::<bool>()) {
        let bits = if wide { (p.bits() * 2).min(64) } else { (p.bits() / 2).max(4) };
        let t = LayoutTensor::from_pointer(p.unswizzled(), l);
        let Ok(r) = t.recast(bits) else { return Ok(()) };
        let old: BTreeSet<i64> = (0..t.size()).map(|i| address(t.value(&IntTuple::int(i)).unwrap())).collect();
        for i in 0..r.size() {
            let a = address(r.value(&IntTuple::int(i)).unwrap());
            let inside = old.range(..=a).next_back().is_some_and(|&o| a < o + i64::from(p.bits()));
            prop_assert!(inside, "{} as {}b: element {} at bit {}", t, bits, i, a);
        }
    }

    /// Law: the position-independent form of a swizzled shared-memory tensor reaches the same
    /// address at every coordinate.
    #[test]
    fn position_independent_swizzle_is_the_same_tensor(p in pointer(), l in layout()) {
        let l = l.layout().clone();
        let t = LayoutTensor::from_pointer(p, l);
        let Ok(q) = t.as_position_independent_swizzle_tensor() else { return Ok(()) };
        for i in 0..t.size() {
            let c = IntTuple::int(i);
            prop_assert_eq!(t.value(&c).unwrap(), q.value(&c).unwrap());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// No input panics: texts made of pieces of pointer, zip and layout texts parse or fail
    /// with a typed error, and whatever parses answers its views and values or fails typed.
    #[test]
    fn pointer_texts_never_panic(
        pieces in prop::collection::vec(prop::sample::select(vec![
            "ptr[", "subptr[", "gmem_", "smem_", "tmem_[", "Sw<3,4,3>_", "Sw<", "16b](", "4b](",
            "0x1000", "0x1001", ".4", ".0", "(nil)", ")", " o ", "(4,4):(4,1)", "8:1", "zip(",
            ", ", "counting_iter(3)", "smem_ptr[16b](unset)", "ffffffffffffffff", "é", "-",
        ]), 0..12),
    ) {
        let s: String = pieces.concat();
        let _ = s.parse::<Pointer>().map(|p| (p.to_string(), p.offset(5, "t"), p.element(), p.recast(8)));
        if let Ok(t) = s.parse::<LayoutTensor>() {
            prop_assert_eq!(t.to_string().parse::<LayoutTensor>().ok(), Some(t.clone()));
            let _ = t.value(&IntTuple::int(1));
            let _ = t.slice(&SliceCoord::flat([Slice::At(1), Slice::All]));
            let _ = t.recast(32);
            let _ = t.as_position_independent_swizzle_tensor();
            let _ = t.print_tensor();
        }
        let _ = cute_layout::tensor::parse_smem_ptr_flag(&s);
    }
}
