//! `find_layout`: the layout of a function given by its values.

use crate::algebra::{from_flat, Modes};
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::tree::Leaves;
use crate::layout::Layout;

const OP: &str = "find_layout";

/// The layout whose 1-D function takes the given values: `L(i) == values[i]` for every
/// `0 <= i < values.len()`, in the coalesced canonical form (see [`Layout::canonical`]); or why no
/// layout does.
///
/// # The algorithm (one pass, O(M) time, O(log M) extra space)
///
/// Write `f(i) = values[i]` and `M = values.len()`. Every layout has the same function as its
/// canonical form `C = (n_0,...,n_k):(d_0,...,d_k)` (all `n_j >= 2`, and `d_{j+1} != n_j d_j`, else
/// the two modes would merge). Let `P_j = n_0 ... n_{j-1}`. Then:
///
/// * `f(0) = 0`, and `f(i) = d_0 i` for `i < n_0`, while `f(n_0) = d_1 != n_0 d_0`: the first mode
///   is *forced*, its stride is `f(1)` and its extent is the first `q` with `f(q) != q f(1)`.
/// * `C = (first j modes, rest)`, so for `i = q P_j + r`, `0 <= r < P_j`:
///   **(Condition 1)** `f(i) = f(q P_j) + f(r)`, and the values `f(q P_j)` are the rest's function,
///   whose first mode is again forced: stride `d_j = f(P_j)`, extent the first `q` with
///   **(Condition 2)** `f(q P_j) != f((q-1) P_j) + d_j`.
///
/// The scan walks `i = 1, 2, ..., M-1` once, keeping `P` (the block of the modes closed so far),
/// `q = i / P`, `r = i mod P` (as counters: no division) and the open mode's stride `d`. At `r != 0`
/// it checks Condition 1; at `r == 0, q == 1` it reads `d = f(P)`; at `r == 0, q >= 2` it checks
/// Condition 2 and, if it fails, closes the open mode as `q:d`, so that `P = i`, `q = 1` and the
/// new open stride is `f(i)`. At the end the open mode gets extent `M / P`, which needs `P | M`.
///
/// *Correctness.* Each step is forced: if some layout agrees with `f` on `[0, i]`, its canonical
/// form's modes that close at or before `i` are exactly those the scan closed (by the first bullet,
/// applied level by level), so it satisfies the check at `i`. Hence a failing check at `i` means
/// **no** layout agrees with `f` on `[0, i]`, and `i` is the first such index. Conversely when all
/// checks pass, Conditions 1 and 2 together say `f(q P + r) = f(r) + q d` for every `i`, which is
/// the function of `(closed modes, M/P : d)` by induction on the number of closed modes.
///
/// *Complexity.* O(1) work per index, so O(M) time; the closed modes number at most `log2 M`
/// (each has extent >= 2). The seed's search (try every first extent, recurse) is O(M² log M);
/// there is nothing to try here because the canonical form is unique.
///
/// *Which layout.* Several layouts share a function (`(2,3):(1,2)` and `6:1`); the result is the
/// coalesced one, which is what [`Layout::canonical`] returns for all of them: flat, no extent-1
/// modes, no mergeable neighbours, an integer layout for one mode and `1:0` for `M == 1`.
/// Stride-0 and repeated values need no special case: `0,0,0,0` gives `4:0`, `0,0,1,1` gives
/// `(2,2):(0,1)`.
///
/// # Laws
/// * `find_layout(values)?.index_1d(i) == Some(values[i])` for every `i`.
/// * `find_layout(l.offsets())? == l.canonical()` for every layout `l` (round trip).
///
/// # Errors
/// * [`LayoutError::InvalidArgument`]: no values.
/// * [`LayoutError::NotALayout`]: the first index no layout fits, the value there and the value
///   the forced layout predicts (`f(0) != 0` is index 0); or, with `index == M`, that `M` is not a
///   multiple of the block the values force.
/// * [`LayoutError::Overflow`]: the layout's span `Σ (n-1)|d|` leaves `i64` (possible with strides
///   of both signs).
///
/// # Examples
/// ```
/// # use cute_layout::analysis::find_layout;
/// assert_eq!(find_layout(&[0, 2, 4, 7, 9, 11])?.to_string(), "(3,2):(2,7)");
/// assert_eq!(find_layout(&[0, 1, 2, 3])?.to_string(), "4:1");
/// assert_eq!(find_layout(&[0, 0, 1, 1])?.to_string(), "(2,2):(0,1)");
/// let err = find_layout(&[0, 1, 5, 7]).unwrap_err();
/// assert_eq!(err.kind(), "NotALayout");
/// assert_eq!(err.to_string(), "find_layout: no layout has these values: value 7 at index 3, but the only layout fitting the values before it predicts 6 (modes so far: 2:1, 2:5)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[doc(alias = "layout_of")]
pub fn find_layout(values: &[i64]) -> Result<Layout, LayoutError> {
    let modes = find_modes(values)?;
    from_flat(OP, &modes)
}

/// The canonical modes of `values` (see [`find_layout`]).
pub(crate) fn find_modes(values: &[i64]) -> Result<Modes, LayoutError> {
    let m = values.len();
    let Some(&f0) = values.first() else {
        return Err(LayoutError::InvalidArgument {
            op: OP,
            what: "no values".into(),
        });
    };
    let mut fixed = Modes::new();
    if f0 != 0 {
        return Err(not_a_layout(0, Some(f0), Some(0), &fixed, 0, 0));
    }
    let mut block = 1usize; // P: product of the closed extents
    let mut q = 0usize; // i / P
    let mut r = 0usize; // i % P
    let mut d = 0i64; // stride of the open mode (read at i == P)
    for (i, &v) in values.iter().enumerate().skip(1) {
        r += 1;
        if r == block {
            r = 0;
            q += 1;
        }
        if r != 0 {
            // Condition 1: f(q P + r) == f(q P) + f(r).
            let expected = values[i - r].checked_add(values[r]);
            if expected != Some(v) {
                return Err(not_a_layout(i, Some(v), expected, &fixed, q, d));
            }
        } else if q == 1 {
            d = v;
        } else if values[i - block].checked_add(d) != Some(v) {
            // Condition 2 fails: the open mode closes with extent q.
            fixed.push((q as i64, d));
            block = i;
            q = 1;
            d = v;
        }
    }
    if !m.is_multiple_of(block) {
        return Err(not_a_layout(m, None, None, &fixed, q, d));
    }
    let n = m / block;
    if n > 1 {
        fixed.push((n as i64, d));
    }
    Ok(fixed)
}

fn not_a_layout(
    index: usize,
    found: Option<i64>,
    expected: Option<i64>,
    fixed: &Modes,
    q: usize,
    d: i64,
) -> LayoutError {
    let mut modes: alloc::vec::Vec<(i64, i64)> = fixed.iter().copied().collect();
    if q >= 1 {
        modes.push((q as i64 + 1, d));
    }
    LayoutError::NotALayout {
        op: OP,
        index,
        found,
        expected,
        modes,
    }
}

/// The layout of shape `shape` whose 1-D function takes the given values, or why there is none
/// (the hierarchical variant of [`find_layout`]).
///
/// The strides are forced: the point with coordinate 1 in leaf `j` and 0 elsewhere is the 1-D
/// index `P_j` (the product of the extents before `j`), so a leaf of extent `>= 2` must have
/// stride `values[P_j]`. A leaf of extent 1 never contributes and gets stride 0. The candidate is
/// then compared with [`find_layout`]`(values)` through [`Layout::canonical`] (no enumeration),
/// so the whole cost is O(M + leaves).
///
/// # Laws
/// * `R.shape() == *shape` and `R.index_1d(i) == Some(values[i])` for every `i`.
///
/// # Errors
/// * [`LayoutError::InvalidArgument`]: `size(shape) != values.len()`.
/// * The errors of [`find_layout`] when the values are no layout's at all.
/// * [`LayoutError::NotRepresentable`]: the values are a layout's, but not of this shape; the
///   message names the first index where the forced candidate differs.
///
/// # Examples
/// ```
/// # use cute_layout::analysis::find_layout_with_shape;
/// let v = [0, 2, 4, 7, 9, 11];
/// assert_eq!(find_layout_with_shape(&v, &"(3,(1,2))".parse()?)?.to_string(), "(3,(1,2)):(2,(0,7))");
/// let w = [0, 1, 2, 3, 4, 5, 6, 7];
/// assert_eq!(find_layout_with_shape(&w, &"((2,2),2)".parse()?)?.to_string(), "((2,2),2):((1,2),4)");
/// assert!(find_layout_with_shape(&v, &"(2,3)".parse()?).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn find_layout_with_shape(values: &[i64], shape: &IntTuple) -> Result<Layout, LayoutError> {
    const OPS: &str = "find_layout_with_shape";
    shape.check_extents(OPS)?;
    let size = shape.size()?;
    if usize::try_from(size).ok() != Some(values.len()) {
        return Err(LayoutError::InvalidArgument {
            op: OPS,
            what: alloc::format!(
                "shape {shape} has size {size} but {} values were given",
                values.len()
            ),
        });
    }
    let canonical = find_modes(values)?;
    let mut stride: Leaves<i64> = Leaves::new();
    let mut p = 1usize;
    for &n in shape.leaves() {
        stride.push(if n > 1 { values[p] } else { 0 });
        // p * n <= size == values.len(), so this fits.
        p *= n as usize;
    }
    let candidate = Layout::checked(OPS, shape.toks.clone(), shape.leaves.clone(), stride)?;
    let cand_modes = crate::algebra::bw_coalesce(&crate::algebra::flat_modes(&candidate), None);
    if cand_modes == canonical {
        return Ok(candidate);
    }
    // Not the same function: name the first point where they differ (diagnostic only).
    let at = candidate
        .offsets()
        .zip(values.iter())
        .position(|(a, &b)| a != b)
        .unwrap_or(0);
    Err(LayoutError::NotRepresentable {
        op: OPS,
        what: alloc::format!(
            "the values are the function of {}, but the only layout of shape {shape} that could take them, {candidate}, gives {} at index {at} instead of {}",
            from_flat(OP, &canonical)?,
            candidate.index_1d(at as i64).unwrap_or(0),
            values[at]
        ),
    })
}
