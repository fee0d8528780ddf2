//! CuTe's `slice_and_offset` of a swizzled layout (`Sw<B,M,S> o offset o layout`) at a
//! coordinate that fixes some modes, as `partition_S/D` of a swizzled tensor uses it.
//!
//! The fixed part's offset splits into its bits under the swizzle's Y and Z masks and the rest.
//! If the remaining (sliced) layout reaches both bits of a swizzled (Y, Z) pair, the result stays
//! swizzled: `Sw o (offset ^ zy bits) o sliced`, offset = the other bits. Otherwise the swizzle
//! is folded into the strides for this offset: each Z bit of the sliced layout gets stride
//! `+-Z` (the sign from the partner Y bit of the offset) and each Y bit `Y +- Z` (from the partner
//! Z bit), and the result is a plain layout. As in CuTe, whose folded strides are run-time
//! values, strides of different bits are never merged into one mode: a leaf of the sliced layout
//! that spans several bits of the swizzle becomes a tuple of one mode per segment.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::composed::composed_layout::ComposedLayout;
use crate::composed::swizzle::Swizzle;
use crate::layout::int_tuple::IntTuple;
use crate::layout::slice::SliceCoord;
use crate::layout::Layout;

/// The result of [`slice_and_offset`]: the layout, the offset, and, when the result stays
/// swizzled, CuTe's `MixedBits` form of its inner offset `(static, dynamic, mask)` (printed
/// `M_S|(d&F)=v`).
pub(crate) struct Sliced {
    pub layout: ComposedLayout,
    pub offset: i64,
    pub mixed: Option<(i64, i64, i64)>,
}

impl Sliced {
    /// CuTe's print of the layout (with the `MixedBits` offset where CuTe has one).
    pub fn cute_text(&self) -> String {
        match (self.mixed, self.layout.layers()) {
            (Some((st, dy, mask)), [(sw, _)]) if mask != 0 => format!(
                "{sw} o M{st}|({dy}&{mask})={} o {}",
                st | (dy & mask),
                self.layout.layout()
            ),
            _ => match self.layout.as_layout() {
                Some(l) => format!("{l}"),
                None => format!("{}", self.layout),
            },
        }
    }
}

fn plain(r: (ComposedLayout, i64)) -> Sliced {
    Sliced {
        layout: r.0,
        offset: r.1,
        mixed: None,
    }
}

/// `slice_and_offset(c, layout)` for a swizzled layout; `diced` is the part of the layout the
/// coordinate fixes (for CuTe's mask of the offset's swizzle bits). `merge` says the coordinate
/// is static (CuTe's `Int<N>`): CuTe's folded strides are then static and its composition
/// coalesces contiguous segments of a leaf; with a run-time coordinate they stay apart.
pub(crate) fn slice_and_offset(
    l: &ComposedLayout,
    c: &SliceCoord,
    diced: &Layout,
    merge: bool,
) -> Result<Sliced, crate::layout::error::LayoutError> {
    let [(sw, off)] = l.layers() else {
        return Ok(plain(l.slice_and_offset(c)?));
    };
    let (sw, off) = (*sw, *off);
    let (sliced, off_l) = l.layout().slice_and_offset(c)?;
    let zy = sw.yyy_mask() | sw.zzz_mask();
    let offset_only_zy = off ^ (off_l & zy);
    let offset_anti_zy = off_l & !zy;
    let last = sliced.size() - 1;
    let active = sliced.index_1d(last).unwrap_or(0) & zy;
    if active & !sw.apply(active) != 0 {
        // Hits a Y bit and its Z partner: not reducible.
        let mask = diced
            .shape_leaves()
            .iter()
            .zip(diced.stride_leaves())
            .fold(0, |m, (&s, &d)| m | ((s - 1) * d.abs()) & zy);
        let r = ComposedLayout::new(sw, offset_only_zy, sliced)?;
        return Ok(Sliced {
            layout: r,
            offset: offset_anti_zy,
            mixed: Some((off, off_l & zy, mask)),
        });
    }
    match fold(&sw, offset_only_zy, &sliced, merge) {
        Some(folded) => Ok(Sliced {
            layout: ComposedLayout::from(folded),
            offset: sw.apply(offset_only_zy) + offset_anti_zy,
            mixed: None,
        }),
        None => Ok(plain(l.slice_and_offset(c)?)),
    }
}

/// One segment of the swizzle's bit decomposition: first bit, number of bits (`None`: all the
/// bits above), stride of the first.
struct Segment {
    start: u32,
    bits: Option<u32>,
    stride: i64,
}

fn segments(sw: &Swizzle, offset: i64) -> Vec<Segment> {
    let (b, m, s) = (
        sw.bits() as u32,
        sw.base() as u32,
        sw.shift().unsigned_abs() as u32,
    );
    let z = sw.zzz_mask() & sw.zzz_mask().wrapping_neg();
    let y = sw.yyy_mask() & sw.yyy_mask().wrapping_neg();
    // CuTe's make_swizzle_strides: the bit of the lower (first) or upper mask.
    let strides = |first: bool, i: u32| -> i64 {
        if first {
            if offset & (y << i) == 0 {
                z << i
            } else {
                -(z << i)
            }
        } else if offset & (z << i) == 0 {
            (y + z) << i
        } else {
            (y - z) << i
        }
    };
    let mut v = Vec::new();
    if m > 0 {
        v.push(Segment {
            start: 0,
            bits: Some(m),
            stride: 1,
        });
    }
    for i in 0..b {
        v.push(Segment {
            start: m + i,
            bits: Some(1),
            stride: strides(z < y, i),
        });
    }
    if s > b {
        v.push(Segment {
            start: m + b,
            bits: Some(s - b),
            stride: 1 << (m + b),
        });
    }
    for i in 0..b {
        v.push(Segment {
            start: m + s + i,
            bits: Some(1),
            stride: strides(z > y, i),
        });
    }
    v.push(Segment {
        start: m + s + b,
        bits: None,
        stride: 1 << (m + s + b),
    });
    v
}

/// `composition(swizzle_layout, sliced)` with the folded strides, as text pieces per leaf;
/// `None` if a leaf is not a power-of-two extent with a power-of-two (or zero) stride.
fn fold(sw: &Swizzle, offset: i64, sliced: &Layout, merge: bool) -> Option<Layout> {
    let segs = segments(sw, offset);
    let (mut shape, mut stride) = (String::new(), String::new());
    walk(
        &sliced.shape(),
        &sliced.stride(),
        &segs,
        merge,
        &mut shape,
        &mut stride,
    )?;
    format!("{shape}:{stride}").parse().ok()
}

fn walk(
    sh: &IntTuple,
    st: &IntTuple,
    segs: &[Segment],
    merge: bool,
    shape: &mut String,
    stride: &mut String,
) -> Option<()> {
    if let (Some(s), Some(d)) = (sh.as_int(), st.as_int()) {
        let (ps, pd) = leaf(s, d, segs, merge)?;
        shape.push_str(&ps);
        stride.push_str(&pd);
        return Some(());
    }
    shape.push('(');
    stride.push('(');
    for (k, (a, b)) in sh.elements().zip(st.elements()).enumerate() {
        if k > 0 {
            shape.push(',');
            stride.push(',');
        }
        walk(&a, &b, segs, merge, shape, stride)?;
    }
    shape.push(')');
    stride.push(')');
    Some(())
}

fn leaf(s: i64, d: i64, segs: &[Segment], merge: bool) -> Option<(String, String)> {
    if s == 1 {
        return Some((String::from("1"), String::from("0")));
    }
    if d == 0 {
        return Some((format!("{s}"), String::from("0")));
    }
    if s <= 0 || d < 0 || s.count_ones() != 1 || d.count_ones() != 1 {
        return None;
    }
    let (lo, hi) = (d.trailing_zeros(), d.trailing_zeros() + s.trailing_zeros());
    let mut pieces: Vec<(i64, i64)> = Vec::new();
    for g in segs {
        let end = g.bits.map_or(u32::MAX, |n| g.start + n);
        let (a, b) = (lo.max(g.start), hi.min(end));
        if a < b {
            let stride = g.stride.checked_mul(1i64.checked_shl(a - g.start)?)?;
            let extent = 1i64.checked_shl(b - a)?;
            match pieces.last_mut() {
                Some((e, t)) if merge && e.checked_mul(*t) == Some(stride) => *e *= extent,
                _ => pieces.push((extent, stride)),
            }
        }
    }
    Some(match pieces.as_slice() {
        [(e, t)] => (format!("{e}"), format!("{t}")),
        _ => {
            let e: Vec<String> = pieces.iter().map(|p| format!("{}", p.0)).collect();
            let t: Vec<String> = pieces.iter().map(|p| format!("{}", p.1)).collect();
            (format!("({})", e.join(",")), format!("({})", t.join(",")))
        }
    })
}
