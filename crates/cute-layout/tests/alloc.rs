//! Layouts are small values: building, copying, querying and evaluating a layout of up to 16
//! leaves must not touch the heap. A counting global allocator (`support/counting.rs`, test code
//! only; the library itself forbids `unsafe`) counts the allocations of the current thread.

use std::hint::black_box;

use cute_layout::{Idx2Crd, IntTuple, Layout};

#[path = "support/counting.rs"]
mod counting;
use counting::allocations;

/// 16 leaves, two levels of nesting, mixed strides (26 tree tokens, within the inline 32).
const SHAPE: &str = "((2,2,2,2),(2,2,2,2),(2,2,2,2),(2,2,2,2))";
const STRIDE: &str = "((1,2,4,8),(16,32,64,128),(256,512,1024,2048),(4096,8192,16384,-32768))";

fn parts() -> (IntTuple, IntTuple) {
    (SHAPE.parse().unwrap(), STRIDE.parse().unwrap())
}

#[test]
fn building_does_not_allocate() {
    let (shape, stride) = parts();
    let modes: [Layout; 2] = [
        "((2,2,2,2),(2,2,2,2)):((1,2,4,8),(16,32,64,128))"
            .parse()
            .unwrap(),
        "((2,2,2,2),(2,2,2,2)):((256,512,1024,2048),(4096,8192,16384,-32768))"
            .parse()
            .unwrap(),
    ];
    let (n, built) = allocations(|| {
        let a = Layout::new(black_box(shape.clone()), black_box(stride.clone())).unwrap();
        let b = Layout::col_major(black_box(shape.clone())).unwrap();
        let c = Layout::row_major(black_box(shape.clone())).unwrap();
        let d = Layout::from_modes(black_box(modes.clone())).unwrap();
        (a, b, c, d)
    });
    assert_eq!(n, 0, "building a 16-leaf layout allocated {n} times");
    let (a, b, _, d) = built;
    assert_eq!(a.leaf_count(), 16);
    assert_eq!(a.to_string(), format!("{SHAPE}:{STRIDE}"));
    assert_eq!(b.stride_leaves()[15], 32768);
    // from_modes groups the two halves: same leaves, one more level.
    assert_eq!(d.shape_leaves(), a.shape_leaves());
    assert_eq!(d.stride_leaves(), a.stride_leaves());
}

#[test]
fn cloning_and_querying_do_not_allocate() {
    let (shape, stride) = parts();
    let l = Layout::new(shape, stride).unwrap();
    let (n, out) = allocations(|| {
        let c = black_box(l.clone());
        let q = (c.size(), c.cosize(), c.rank(), c.depth(), c.leaf_count());
        let m0 = c.mode(0).unwrap();
        let m3 = c.mode(3).unwrap();
        let m21 = c.mode_at(&[2, 1]).unwrap();
        let eq = c == l;
        (q, m0.size(), m3.cosize(), m21.stride_leaves()[0], eq)
    });
    assert_eq!(n, 0, "cloning/querying allocated {n} times");
    let (q, m0, _, s21, eq) = out;
    assert_eq!(q.0, 1 << 16);
    assert_eq!((q.2, q.3, q.4), (4, 2, 16));
    assert_eq!((m0, s21, eq), (16, 512, true));
}

#[test]
fn evaluating_does_not_allocate() {
    let (shape, stride) = parts();
    let l = Layout::new(shape, stride).unwrap();
    let natural: IntTuple = "((1,0,1,0),(0,1,0,1),(1,1,0,0),(0,0,1,1))".parse().unwrap();
    let rd: IntTuple = "(5,10,3,12)".parse().unwrap();
    let (n, out) = allocations(|| {
        let mut acc = 0i64;
        for i in (0..l.size()).step_by(97) {
            acc = acc.wrapping_add(l.index_1d(black_box(i)).unwrap());
            acc = acc.wrapping_add(l.index_any(black_box(i + l.size())).unwrap());
        }
        let walked: i64 = l.offsets().fold(0i64, i64::wrapping_add);
        let a = l.index(black_box(&natural)).unwrap();
        let b = l.index(black_box(&rd)).unwrap();
        let c = l.index(black_box(&IntTuple::int(12345))).unwrap();
        (acc, walked, a, b, c)
    });
    assert_eq!(n, 0, "evaluating allocated {n} times");
    let (_, _, a, b, c) = out;
    assert_eq!(a, b, "natural and R-D coordinates of the same point");
    assert_eq!(c, l.index_1d(12345).unwrap());
}

#[test]
fn idx2crd_does_not_allocate() {
    let (shape, _) = parts();
    let f = Idx2Crd::new(&shape).unwrap();
    let mut buf = [0i64; 16];
    let (n, out) = allocations(|| {
        let mut acc = 0i64;
        for i in (0..1i64 << 16).step_by(97) {
            f.split(black_box(i), &mut buf).unwrap();
            acc = acc.wrapping_add(buf.iter().sum::<i64>());
            let c = black_box(&f).coord(black_box(i));
            let d = black_box(&shape)
                .idx2crd(&IntTuple::int(black_box(i)))
                .unwrap();
            acc = acc.wrapping_add(i64::from(c == d));
        }
        acc
    });
    assert_eq!(n, 0, "idx2crd allocated {n} times");
    assert!(out > 0);
}

// The 16 benchmark cases are checked by cute-bench's tests/alloc.rs, which runs the benchmark's
// own code (`cute_bench::Case::run`) under the same counting allocator.
