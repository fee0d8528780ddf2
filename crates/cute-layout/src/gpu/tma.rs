//! What of CuTe's `make_tma_copy` a CPU can compute: the TMA's gmem basis
//! (`detail::construct_tma_gbasis`, the box of each TMA mode and the gmem mode(s) it steps
//! along), the box, and the global dimensions and strides the tensor map would be given
//! (`detail::fill_tma_gmem_shape_stride`). The tensor map itself (`cuTensorMapEncodeTiled`) is
//! the CUDA driver's and is not modelled.
//!
//! The construction is CuTe's: the shared-memory layout's right inverse (smem index to smem
//! coordinate), composed with the CTA tile's coordinates in the gmem tensor
//! (`make_identity_layout(shape(gmem)) o cta_tile`) and coalesced, is the map from smem index
//! to gmem coordinate; its leading modes that step a gmem mode by 1 are what one TMA box can
//! copy. The gmem strides of those modes are merged into boxes of at most 256 elements
//! (`coalesce_256`), the gmem modes the box does not cover are appended with extent 1, and the
//! modes past the fourth are grouped (TMA has at most 5 dimensions).
//!
//! ```
//! use cute_layout::{gpu::tma, Layout};
//! let gmem: Layout = "(256,512):(512,1)".parse()?; // row-major, K contiguous
//! let smem: Layout = "((8,16),(64,1)):((64,512),(1,0))".parse()?; // K-major SW128 tile (inner)
//! let g = tma::gbasis(&gmem, &smem, None)?;
//! assert_eq!(g.to_string(), "(64,128):(1@1,1@0)"); // box 64 x 128, mode 0 along gmem mode 1
//! assert_eq!(tma::box_shape(&g).to_string(), "(64,128)");
//! assert_eq!(tma::gmem_shape_stride(&gmem, &g)?, (vec![512, 256], vec![1, 512]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::basis::ScaledBasis;
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;

const OP: &str = "tma_gbasis";

/// The largest extent of one TMA box dimension.
pub const MAX_BOX_EXTENT: i64 = 256;

fn invalid(what: String) -> LayoutError {
    LayoutError::InvalidArgument { op: OP, what }
}

fn parse_basis(text: &str) -> Result<Layout<ScaledBasis>, LayoutError> {
    text.parse()
        .map_err(|e| invalid(format!("internal layout {text}: {e}")))
}

/// The basis layout `(s...):(d...)` of leaves `(extent, stride)`, always a tuple.
fn basis_of(leaves: &[(i64, ScaledBasis)]) -> Result<Layout<ScaledBasis>, LayoutError> {
    let s: Vec<String> = leaves.iter().map(|(s, _)| format!("{s}")).collect();
    let d: Vec<String> = leaves.iter().map(|(_, d)| format!("{d}")).collect();
    parse_basis(&format!("({}):({})", s.join(","), d.join(",")))
}

/// CuTe's `detail::coalesce_256`: the flat modes merged front to back where the strides continue
/// and the merged extent stays at most 256 (extent-1 modes dropped).
pub fn coalesce_256(layout: &Layout) -> Result<Layout, LayoutError> {
    let s = layout.shape_leaves();
    let d = layout.stride_leaves();
    let mut out: Vec<(i64, i64)> = Vec::new();
    for (k, (&si, &di)) in s.iter().zip(d).enumerate() {
        if k == 0 {
            out.push((si, di));
            continue;
        }
        if si == 1 {
            continue;
        }
        let (bs, bd) = *out.last().unwrap_or(&(1, 0));
        if out.len() == 1 && bs == 1 {
            out[0] = (si, di);
        } else if bs.checked_mul(bd) == Some(di)
            && si.checked_mul(bs).is_some_and(|m| m <= MAX_BOX_EXTENT)
        {
            let n = out.len() - 1;
            out[n].0 = si * bs;
        } else {
            out.push((si, di));
        }
    }
    let shape = IntTuple::flat(out.iter().map(|x| x.0));
    let stride = IntTuple::flat(out.iter().map(|x| x.1));
    if out.len() == 1 {
        return Layout::new(IntTuple::int(out[0].0), IntTuple::int(out[0].1));
    }
    Layout::new(shape, stride)
}

/// CuTe's `detail::construct_tma_gbasis(gmem, smem, make_identity_layout(shape(gmem)) o
/// cta_tile)` with the TMA's element type the tensor's: each mode of the result is one TMA
/// dimension, its extent the box extent and its stride the gmem mode(s) it steps along.
/// `cta_tile` is a tuple of extents, one per leading gmem mode (default: the extent of each mode
/// of `smem`, CuTe's `product_each(shape(slayout))`).
///
/// # Laws
/// * The smem index `i < size(box)` of the first box lands on gmem coordinate `R(i)` (flat
///   `R` modes in order), which `gmem` maps to `tile_gstride(i)`.
/// * `size(R) <= size(smem)`; each mode's extent is at most 256 unless one smem mode already
///   is longer.
///
/// # Errors
/// [`LayoutError::InvalidArgument`] if `gmem` has nested modes (not taken here), if `cta_tile`
/// is not a flat tuple no longer than `gmem`'s rank, if the sizes of `smem` and the tile differ
/// (CuTe's static assert), or if the smem's contiguous index does not step any gmem mode by 1
/// (CuTe: "Could not find a common tile-gmem vectorization"); the errors of the compositions.
pub fn gbasis(
    gmem: &Layout,
    smem: &Layout,
    cta_tile: Option<&IntTuple>,
) -> Result<Layout<ScaledBasis>, LayoutError> {
    if gmem.depth() > 1 {
        return Err(invalid(format!(
            "gmem layout {gmem} has nested modes; only a flat gmem layout is taken"
        )));
    }
    let tile = match cta_tile {
        Some(t) => t.clone(),
        None => smem.shape().product_each()?,
    };
    let tile_ext: Vec<i64> = match tile.as_int() {
        Some(n) => alloc::vec![n],
        None if tile.depth() == 1 => tile.leaves().to_vec(),
        None => {
            return Err(invalid(format!(
                "CTA tile {tile} is not a flat tuple of extents"
            )))
        }
    };
    if tile_ext.len() > gmem.rank() {
        return Err(invalid(format!(
            "CTA tile {tile} has more modes than gmem layout {gmem}"
        )));
    }
    let tile_size = tile_ext
        .iter()
        .try_fold(1i64, |a, &t| a.checked_mul(t))
        .ok_or_else(|| LayoutError::overflow(OP))?;
    if tile_size != smem.size() {
        return Err(invalid(format!(
            "CTA tile {tile} has {tile_size} elements, smem layout {smem} {}",
            smem.size()
        )));
    }
    // smem index -> gmem coordinate, coalesced: cta_v_map = (t0,t1,...):(1@0,1@1,...) composed
    // with the smem's right inverse
    let full = basis_of(&onto_tile(&tile_ext, &smem.right_inverse())?)?.coalesce()?;
    let leaves: Vec<(i64, ScaledBasis)> = full
        .shape_leaves()
        .iter()
        .copied()
        .zip(full.stride_leaves().iter().copied())
        .collect();
    let rank = leaves
        .iter()
        .position(|(_, d)| d.value() != 1)
        .unwrap_or(leaves.len());
    if rank == 0 {
        return Err(invalid(format!(
            "no common tile-gmem vectorization: smem index 1 of {smem} lands on {} in the gmem tensor, not a unit step of one gmem mode",
            full
        )));
    }
    let sidx2gmode = basis_of(&leaves[..rank])?;
    // The gmem strides of the smem vector, merged into boxes of at most 256.
    let tile_gstride = gmem.compose_basis(&sidx2gmode)?;
    let tma_gstride = coalesce_256(&tile_gstride)?;
    if tile_gstride.shape() != sidx2gmode.shape() {
        return Err(invalid(format!(
            "the gmem strides {tile_gstride} of the smem vector {sidx2gmode} split its modes"
        )));
    }
    // For a flat gmem layout, make_identity_layout(shape(gmem)) o sidx2gmode is sidx2gmode.
    let sizes: Vec<i64> = tma_gstride.shape_leaves().to_vec();
    let groups = split_modes(&leaves[..rank], &sizes)?;
    let mut modes: Vec<Layout<ScaledBasis>> = Vec::with_capacity(groups.len() + 4);
    for g in &groups {
        modes.push(if g.len() == 1 {
            parse_basis(&format!("{}:{}", g[0].0, g[0].1))?
        } else {
            basis_of(g)?
        });
    }
    // gmem modes the box does not step along, with extent 1
    let covered = |i: usize| {
        groups
            .iter()
            .flatten()
            .any(|(_, d)| d.value() == 1 && d.path().eq([i]))
    };
    for (i, (&s, &d)) in gmem
        .shape_leaves()
        .iter()
        .zip(gmem.stride_leaves())
        .enumerate()
    {
        if s == 1 || d == 0 || covered(i) {
            continue;
        }
        modes.push(parse_basis(&format!("1:1@{i}"))?);
    }
    let n = modes.len();
    let all = Layout::from_modes(modes)?;
    if n > 4 {
        all.group_modes(4, n)
    } else {
        Ok(all)
    }
}

/// `(t0,t1,...):(1@0,1@1,...) o inv` as flat leaves: each leaf `s:d` of `inv` (an index of the
/// tile, column-major) split where it crosses from one tile mode into the next, its stride the
/// step along that mode (CuTe's composition, without merging steps of different modes).
fn onto_tile(tile: &[i64], inv: &Layout) -> Result<Vec<(i64, ScaledBasis)>, LayoutError> {
    let mut weights = Vec::with_capacity(tile.len());
    let mut w = 1i64;
    for &t in tile {
        weights.push(w);
        w = w.checked_mul(t).ok_or_else(|| LayoutError::overflow(OP))?;
    }
    let mut out = Vec::new();
    for (&s0, &d0) in inv.shape_leaves().iter().zip(inv.stride_leaves()) {
        let (mut s, mut d) = (s0, d0);
        while s > 1 {
            let Some(i) = weights.iter().rposition(|&wi| wi <= d) else {
                return Err(invalid(format!("smem right inverse {inv} has stride {d}")));
            };
            if d % weights[i] != 0 || tile[i] % (d / weights[i]) != 0 {
                return Err(invalid(format!(
                    "smem right inverse {inv}: stride {d} does not step along one mode of the tile {tile:?}"
                )));
            }
            let v = d / weights[i];
            let cap = tile[i] / v;
            if s <= cap {
                out.push((s, ScaledBasis::new(v, &[i])?));
                break;
            }
            if s % cap != 0 || i + 1 >= tile.len() {
                return Err(invalid(format!(
                    "smem right inverse {inv}: extent {s} does not split over the tile {tile:?}"
                )));
            }
            out.push((cap, ScaledBasis::new(v, &[i])?));
            s /= cap;
            d = weights[i + 1];
        }
    }
    if out.is_empty() {
        out.push((1, ScaledBasis::new(1, &[0])?));
    }
    Ok(out)
}

/// `B o make_layout(sizes)` for a flat basis layout `B` (its leaves): mode `k` takes the leaves
/// of `B` over the next `sizes[k]` indices, a leaf split where a mode ends (CuTe's composition
/// with a column-major layout, without merging steps of different modes).
fn split_modes(
    leaves: &[(i64, ScaledBasis)],
    sizes: &[i64],
) -> Result<Vec<Vec<(i64, ScaledBasis)>>, LayoutError> {
    let mut rest: Vec<(i64, ScaledBasis)> = leaves.iter().rev().copied().collect();
    let mut out = Vec::with_capacity(sizes.len());
    for &n in sizes {
        let mut mode = Vec::new();
        let mut r = n;
        while r > 1 {
            let Some((s, e)) = rest.pop() else {
                return Err(invalid(format!("box extent {n} runs past the smem vector")));
            };
            if s <= r {
                if r % s != 0 {
                    return Err(invalid(format!("box extent {n} does not split at {s}")));
                }
                mode.push((s, e));
                r /= s;
            } else {
                if s % r != 0 {
                    return Err(invalid(format!("box extent {n} does not split {s}")));
                }
                mode.push((r, e));
                let v = e
                    .value()
                    .checked_mul(r)
                    .ok_or_else(|| LayoutError::overflow(OP))?;
                rest.push((s / r, e.with_value(v)));
                r = 1;
            }
        }
        if mode.is_empty() {
            mode.push((1, rest.last().map_or(ScaledBasis::new(1, &[0])?, |x| x.1)));
        }
        out.push(mode);
    }
    Ok(out)
}

/// The TMA box: the size of each mode of a gmem basis (CuTe's `smem_box_shape`, no multicast).
pub fn box_shape(gbasis: &Layout<ScaledBasis>) -> IntTuple {
    IntTuple::flat(gbasis.modes().map(|m| m.size()))
}

/// The global dimensions and strides (in elements) the tensor map gets for each TMA mode
/// (CuTe's `detail::fill_tma_gmem_shape_stride`): a mode along several gmem modes spans them
/// with the gcd of their strides.
///
/// # Errors
/// [`LayoutError::InvalidArgument`] if a stride of `gbasis` is not a unit basis element of a
/// mode of the flat `gmem`; [`LayoutError::Overflow`].
pub fn gmem_shape_stride(
    gmem: &Layout,
    gbasis: &Layout<ScaledBasis>,
) -> Result<(Vec<i64>, Vec<i64>), LayoutError> {
    let (gs, gd) = (gmem.shape_leaves(), gmem.stride_leaves());
    let mut shapes = Vec::new();
    let mut strides = Vec::new();
    for m in gbasis.modes() {
        let (mut shape, mut stride) = (1i64, 0i64);
        for e in m.stride_leaves() {
            let path: Vec<usize> = e.path().collect();
            let j = match path[..] {
                [j] if j < gs.len() => j,
                _ => {
                    return Err(invalid(format!(
                        "stride {e} of {gbasis} is not a mode of {gmem}"
                    )))
                }
            };
            let (sj, dj) = (gs[j], gd[j]);
            let old = stride;
            stride = gcd(stride, dj);
            shape = if stride != 0 {
                let a = (shape - 1).checked_mul(old / stride);
                let b = (sj - 1).checked_mul(dj / stride);
                a.zip(b)
                    .and_then(|(a, b)| a.checked_add(b)?.checked_add(1))
                    .ok_or_else(|| LayoutError::overflow(OP))?
            } else {
                sj
            };
        }
        shapes.push(shape);
        strides.push(stride);
    }
    Ok((shapes, strides))
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn l(s: &str) -> Layout {
        s.parse().unwrap()
    }

    #[test]
    fn cute_answers() {
        // Printed by CuTe's detail::construct_tma_gbasis<half_t> (host build).
        let cases = [
            ("(256,512):(512,1)", "(8,64):(64,1)", "(64,8):(1@1,1@0)"),
            (
                "(256,512):(512,1)",
                "((8,16),(64,1)):((64,512),(1,0))",
                "(64,128):(1@1,1@0)",
            ),
            (
                "(256,512):(1,256)",
                "((64,2),(8,8)):((1,512),(64,1024))",
                "(64,8):(1@0,1@1)",
            ),
            (
                "(64,64,4):(64,1,4096)",
                "(64,64):(64,1)",
                "(64,64,1):(1@1,1@0,1@2)",
            ),
            ("(32,32):(32,1)", "(32,32):(32,1)", "(32,32):(1@1,1@0)"),
            (
                "(16,16,16,16,16,16):(1,16,256,4096,65536,1048576)",
                "(16,16):(1,16)",
                "((16,16),1,1,1,(1)):((1@0,1@1),1@2,1@3,1@4,(1@5))",
            ),
            (
                "(8,8,8,8,8):(1,8,64,512,4096)",
                "(8,8,8):(1,8,64)",
                "((8,8),8,1,1):((1@0,1@1),1@2,1@3,1@4)",
            ),
        ];
        for (g, s, want) in cases {
            assert_eq!(
                gbasis(&l(g), &l(s), None).unwrap().to_string(),
                want,
                "{g} {s}"
            );
        }
    }

    /// Law: the box's smem indices land where CuTe's composition says, and the box covers
    /// a prefix of the smem tile; over every 2-D row/column-major pairing of small shapes.
    #[test]
    fn box_law_small_domain() {
        for (m, n) in [(4, 8), (8, 8), (16, 4), (32, 8)] {
            for g in [format!("({m},{n}):({n},1)"), format!("({m},{n}):(1,{m})")] {
                for s in [format!("({m},{n}):({n},1)"), format!("({m},{n}):(1,{m})")] {
                    let (gl, sl) = (l(&g), l(&s));
                    let b = gbasis(&gl, &sl, None).unwrap();
                    let inv = sl.right_inverse();
                    assert!(b.size() <= sl.size());
                    for i in 0..b.size() {
                        let c = b.value_1d(i).unwrap();
                        let k = inv.index_1d(i).unwrap(); // the smem coordinate's 1-D index
                        assert_eq!(c, IntTuple::flat([k % m, k / m]), "{g} {s} {i}");
                    }
                    let (shape, stride) = gmem_shape_stride(&gl, &b).unwrap();
                    let unit = |x: &Layout| x.stride_leaves().iter().position(|&d| d == 1);
                    if unit(&gl) == unit(&sl) {
                        assert_eq!(stride[0], 1, "{g} {s}: smem and gmem majorness agree");
                    }
                    assert_eq!(shape.iter().product::<i64>(), m * n);
                }
            }
        }
    }

    #[test]
    fn coalesce_256_merges_up_to_256() {
        assert_eq!(
            coalesce_256(&l("(16,16,16):(1,16,256)"))
                .unwrap()
                .to_string(),
            "(256,16):(1,256)"
        );
        assert_eq!(
            coalesce_256(&l("(64,8):(1,512)")).unwrap().to_string(),
            "(64,8):(1,512)"
        );
        assert_eq!(
            coalesce_256(&l("(1,8,1,4):(0,1,0,8)")).unwrap().to_string(),
            "32:1"
        );
    }

    #[test]
    fn errors() {
        let t: IntTuple = "(8,8)".parse().unwrap();
        let e = gbasis(&l("(8,8):(8,1)"), &l("(4,4):(4,1)"), Some(&t)).unwrap_err();
        assert_eq!(e.kind(), "InvalidArgument");
        let e = gbasis(&l("((2,4),8):((1,2),8)"), &l("(8,8):(1,8)"), None).unwrap_err();
        assert_eq!(e.kind(), "InvalidArgument");
    }
}
