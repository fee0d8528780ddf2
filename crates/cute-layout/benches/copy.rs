//! Copy between tensors of different layouts on a 4096 x 4096 f32 matrix, against a plain
//! nested-loop copy and `copy_from_slice` (memcpy).
//!
//! Run: `cargo bench -p cute-layout --bench copy`. Each iteration moves 64 MiB (read) + 64 MiB
//! (write); divan's throughput column counts the 64 MiB copied. See BENCHMARKS.md, "Tensor copy".

use cute_layout::{ComposedLayout, Layout, Swizzle, Tensor};
use divan::counter::BytesCount;
use divan::{black_box, Bencher};

const N: usize = 4096;
const BYTES: usize = N * N * 4;

fn main() {
    divan::main();
}

fn source() -> Vec<f32> {
    (0..N * N).map(|k| k as f32).collect()
}

fn row_major() -> Layout {
    format!("({N},{N}):({N},1)").parse().unwrap()
}

fn col_major() -> Layout {
    format!("({N},{N}):(1,{N})").parse().unwrap()
}

/// `copy_from_slice`: the memcpy baseline.
#[divan::bench]
fn memcpy(b: Bencher) {
    let src = source();
    let mut dst = vec![0f32; N * N];
    b.counter(BytesCount::new(BYTES)).bench_local(|| {
        dst.copy_from_slice(black_box(&src));
        black_box(&mut dst);
    });
}

/// Nested loops over the source in row-major order, element `(i, j)` stored at `dst_index(i, j)`.
fn nested_loop(b: Bencher, dst_index: impl Fn(usize, usize) -> usize) {
    let src = source();
    let mut dst = vec![0f32; N * N];
    b.counter(BytesCount::new(BYTES)).bench_local(|| {
        let s = black_box(&src);
        for i in 0..N {
            for j in 0..N {
                dst[dst_index(i, j)] = s[i * N + j];
            }
        }
        black_box(&mut dst);
    });
}

/// Nested loops, same layout (row-major to row-major).
#[divan::bench]
fn loop_copy(b: Bencher) {
    nested_loop(b, |i, j| i * N + j);
}

/// Nested loops, transpose (row-major to column-major).
#[divan::bench]
fn loop_transpose(b: Bencher) {
    nested_loop(b, |i, j| j * N + i);
}

/// Tensor copy from the row-major source into a destination of layout `dst`.
fn tensor_copy_to(b: Bencher, dst: Layout) {
    let src = Tensor::new(source(), row_major()).unwrap();
    let mut dst = Tensor::new(vec![0f32; N * N], dst).unwrap();
    b.counter(BytesCount::new(BYTES)).bench_local(|| {
        dst.copy_from(black_box(&src)).unwrap();
        black_box(&mut dst);
    });
}

/// Tensor copy, same layout: the layouts coalesce to one contiguous run.
#[divan::bench]
fn tensor_copy(b: Bencher) {
    tensor_copy_to(b, row_major());
}

/// Tensor copy, transpose: row-major source into a column-major view of the destination.
#[divan::bench]
fn tensor_transpose(b: Bencher) {
    tensor_copy_to(b, col_major());
}

/// Tensor copy into a swizzled layout (the generic path: both offset sequences walked by
/// odometer, the swizzle applied per element).
#[divan::bench]
fn tensor_copy_swizzled(b: Bencher) {
    let src = Tensor::new(source(), row_major()).unwrap();
    let sw: ComposedLayout = Swizzle::new(3, 2, 3).unwrap().compose_layout(&row_major());
    let mut dst = Tensor::new(vec![0f32; N * N], sw).unwrap();
    b.counter(BytesCount::new(BYTES)).bench_local(|| {
        dst.copy_from(black_box(&src)).unwrap();
        black_box(&mut dst);
    });
}
