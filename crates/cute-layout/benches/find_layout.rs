//! `find_layout` scaling: the time to recover the layout of M = 2^10 .. 2^20 values.
//!
//! The values are those of a random layout of size M (a random factorisation of M into extents
//! 2..=16, strides a random permutation of the compact ones, so no two modes coalesce by
//! accident), fixed per M by a seed. The algorithm reads every value once, so the time should
//! grow like M^1. Run with `cargo bench -p cute-layout --bench find_layout`;
//! `scripts/find_layout_scaling.py` runs it and fits the growth exponent.

use cute_layout::{analysis::find_layout, Layout};

fn main() {
    divan::main();
}

/// splitmix64.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The values of a random layout of size `2^log_m`.
fn values(log_m: u32) -> Vec<i64> {
    let mut s = u64::from(log_m) * 7919;
    // Extents: powers of two from 2 to 16 whose product is 2^log_m.
    let mut left = log_m;
    let mut extents = Vec::new();
    while left > 0 {
        let e = (1 + next(&mut s) % 4).min(u64::from(left)) as u32;
        extents.push(1i64 << e);
        left -= e;
    }
    // Strides: the compact strides of the extents taken in a random order.
    let mut order: Vec<usize> = (0..extents.len()).collect();
    for k in (1..order.len()).rev() {
        order.swap(k, (next(&mut s) % (k as u64 + 1)) as usize);
    }
    let mut strides = vec![0i64; extents.len()];
    let mut acc = 1i64;
    for &k in &order {
        strides[k] = acc;
        acc *= extents[k];
    }
    let text = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    let l: Layout = format!("({}):({})", text(&extents), text(&strides))
        .parse()
        .expect("a valid layout");
    let v: Vec<i64> = l.offsets().collect();
    assert_eq!(v.len(), 1usize << log_m);
    v
}

/// log2 of M.
const LOG_M: &[u32] = &[10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20];

#[divan::bench(args = LOG_M)]
fn find_layout_of_random_layout(bencher: divan::Bencher, log_m: u32) {
    let v = values(log_m);
    bencher
        .counter(divan::counter::ItemsCount::new(v.len()))
        .bench(|| find_layout(divan::black_box(&v)).expect("values of a layout"));
}
