//! Does precomputed division pay for repeated idx2crd? (Issue #7 asks for it "if it pays".)
//! Each benchmark maps every index of `[0, size)` of a shape to its colexicographic coordinate
//! (every leaf but the last `(i / P) % s`, the last `i / P`):
//!
//! * `idx2crd`: [`IntTuple::idx2crd`] (hardware division, shift and mask for powers of two; builds
//!   the coordinate tuple);
//! * `coord_precomputed`: [`Idx2Crd::coord`] (divisions precomputed; builds the tuple);
//! * `split_hardware`: the bare per-leaf loop with `/` and `%` into a buffer;
//! * `split_precomputed`: [`Idx2Crd::split`] into a buffer.
//!
//! Run: `cargo bench -p cute-layout --bench division`. See BENCHMARKS.md, "Precomputed division".

use cute_layout::{Idx2Crd, IntTuple};
use divan::counter::ItemsCount;
use divan::{black_box, Bencher};

fn main() {
    divan::main();
}

/// Odd extents (real divisions), a few leaves; and powers of two (shift and mask).
const SHAPES: &[&str] = &[
    "(3,5,7,11)",
    "(6,10,12)",
    "(3,3,3,3,3,3,3,3)",
    "(4,8,2,4,16)",
];

fn parse(shape: &str) -> (IntTuple, i64) {
    let t: IntTuple = shape.parse().unwrap();
    let size = t.size().unwrap();
    (t, size)
}

#[divan::bench(args = SHAPES)]
fn idx2crd(b: Bencher, shape: &str) {
    let (t, size) = parse(shape);
    b.counter(ItemsCount::new(size as usize)).bench_local(|| {
        let mut acc = 0i64;
        for i in 0..size {
            let c = black_box(&t).idx2crd(&IntTuple::int(black_box(i))).unwrap();
            acc = acc.wrapping_add(c.leaves().iter().sum::<i64>());
        }
        acc
    });
}

#[divan::bench(args = SHAPES)]
fn coord_precomputed(b: Bencher, shape: &str) {
    let (t, size) = parse(shape);
    let f = Idx2Crd::new(&t).unwrap();
    b.counter(ItemsCount::new(size as usize)).bench_local(|| {
        let mut acc = 0i64;
        for i in 0..size {
            let c = black_box(&f).coord(black_box(i));
            acc = acc.wrapping_add(c.leaves().iter().sum::<i64>());
        }
        acc
    });
}

#[divan::bench(args = SHAPES)]
fn split_hardware(b: Bencher, shape: &str) {
    let (t, size) = parse(shape);
    let e = t.leaves().to_vec();
    let mut out = vec![0i64; e.len()];
    b.counter(ItemsCount::new(size as usize)).bench_local(|| {
        let mut acc = 0i64;
        let e = black_box(&e[..]);
        let n = e.len();
        for i in 0..size {
            let mut c = black_box(i);
            for k in 0..n - 1 {
                out[k] = c % e[k];
                c /= e[k];
            }
            out[n - 1] = c;
            acc = acc.wrapping_add(out.iter().sum::<i64>());
        }
        acc
    });
}

#[divan::bench(args = SHAPES)]
fn split_precomputed(b: Bencher, shape: &str) {
    let (t, size) = parse(shape);
    let f = Idx2Crd::new(&t).unwrap();
    let mut out = vec![0i64; t.leaves().len()];
    b.counter(ItemsCount::new(size as usize)).bench_local(|| {
        let mut acc = 0i64;
        for i in 0..size {
            black_box(&f).split(black_box(i), &mut out).unwrap();
            acc = acc.wrapping_add(out.iter().sum::<i64>());
        }
        acc
    });
}
