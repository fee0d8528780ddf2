//! Helpers shared by the integration tests of `cute-layout` (a module of `tests/all.rs`; a test
//! file reaches it with `use crate::common;`, and not every file uses every helper).
#![allow(dead_code)]

use cute_layout::{ComposedLayout, IntTuple, Layout, LayoutError, Swizzle};

/// The flat tuple layout `(s0,s1,...):(d0,d1,...)` of `modes` (a tuple even for one mode).
pub fn flat(modes: &[(i64, i64)]) -> Layout {
    let sh: Vec<String> = modes.iter().map(|m| m.0.to_string()).collect();
    let st: Vec<String> = modes.iter().map(|m| m.1.to_string()).collect();
    format!("({}):({})", sh.join(","), st.join(","))
        .parse()
        .unwrap()
}

/// A depth-2 layout: one top-level mode per inner list (an integer mode `s:d` for a list of one,
/// else a flat tuple), and the single mode itself when there is only one list.
pub fn nested(modes: Vec<Vec<(i64, i64)>>) -> Layout {
    let mut ms: Vec<Layout> = modes
        .into_iter()
        .map(|m| match m[..] {
            [(s, d)] => format!("{s}:{d}").parse().unwrap(),
            _ => flat(&m),
        })
        .collect();
    if ms.len() == 1 {
        ms.pop().unwrap()
    } else {
        Layout::from_modes(ms).unwrap()
    }
}

/// The compact rank-2 layout of `2^a` by `2^b` points: row-major `(m,n):(n,1)` or column-major
/// `(m,n):(1,m)`.
pub fn pow2_tile(a: u32, b: u32, row: bool) -> Layout {
    let (m, n) = (1i64 << a, 1i64 << b);
    let (dm, dn) = if row { (n, 1) } else { (1, m) };
    flat(&[(m, dm), (n, dn)])
}

/// `Sw<b,m,s> o 0 o l` (panics unless the swizzle is valid).
pub fn swizzled(l: Layout, b: i64, m: i64, s: i64) -> ComposedLayout {
    ComposedLayout::new(Swizzle::new(b, m, s).unwrap(), 0, l).unwrap()
}

/// Indices of `0..size` to check a law on: every index when `size <= full`, else `count` indices
/// spread evenly (step `size / count`) and the last one. Property tests whose random layouts can
/// hold millions of points check them pointwise on this sample, so that no seed makes a case
/// enumerate (or allocate) more than `max(full, count + 1)` points.
pub fn sample(size: i64, full: i64, count: i64) -> Vec<i64> {
    if size <= full {
        (0..size).collect()
    } else {
        let step = size / count;
        (0..count).map(|k| k * step).chain([size - 1]).collect()
    }
}

/// The products' complement where `a` has holes (`complement` refuses with
/// `NotComplementable`): CuTe's chain without the coverage check, written from its definition:
/// the filtered modes sorted by stride, `g_i = d_i / S_{i-1}` at stride `S_{i-1}`, then the rest
/// `ceil(m / S_k)` (at least 2, so that the chain runs on above `a`), coalesced.
pub fn product_chain_def(a: &Layout, m: i64) -> Result<Layout, LayoutError> {
    let f = a.filter();
    let mut modes: Vec<(i64, i64)> = f
        .shape()
        .leaves()
        .iter()
        .zip(f.stride().leaves())
        .filter(|&(&s, &d)| s > 1 && d != 0)
        .map(|(&s, &d)| (s, d))
        .collect();
    modes.sort_by_key(|m| m.1);
    let (mut shape, mut stride, mut span) = (Vec::new(), Vec::new(), 1i64);
    for (s, d) in modes {
        if d < span {
            return Err(a.complement(m).unwrap_err());
        }
        shape.push(d / span);
        stride.push(span);
        span = d.checked_mul(s).ok_or(a.complement(m).unwrap_err())?;
    }
    shape.push((m + span - 1).div_euclid(span).max(2));
    stride.push(span);
    Ok(Layout::new(IntTuple::flat(shape), IntTuple::flat(stride))?.coalesce())
}
