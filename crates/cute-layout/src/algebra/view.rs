//! Borrowed layouts: a (sub-)tree of a layout, or a small layout on the stack, as slices.
//!
//! The algebra's kernels read their operands through views and append their results to a layout
//! under construction, so that operating on a mode of a layout does not copy it, and a result is
//! moved once (when the public operation returns it). Moving a `Layout` copies its whole inline
//! storage (over 300 bytes), whatever its size.

use crate::layout::tree::{Span, Tok, Toks};
use crate::layout::Layout;

/// A borrowed layout: the tokens and leaves of a well-formed tree.
#[derive(Clone, Copy)]
pub(crate) struct View<'a> {
    pub toks: &'a [Tok],
    pub shape: &'a [i64],
    pub stride: &'a [i64],
}

impl<'a> View<'a> {
    /// The sub-tree `s` of this view (spans relative to the view).
    #[inline]
    pub fn span(self, s: Span) -> View<'a> {
        View {
            toks: &self.toks[s.tok.0..s.tok.1],
            shape: &self.shape[s.leaf.0..s.leaf.1],
            stride: &self.stride[s.leaf.0..s.leaf.1],
        }
    }

    /// An owned copy (for error values).
    pub fn to_layout(self) -> Layout {
        Layout::from_parts_unchecked(
            Toks::from_slice(self.toks),
            self.shape.into(),
            self.stride.into(),
        )
    }

    /// Product of the extents.
    #[inline]
    pub fn size(self) -> i64 {
        self.shape.iter().product()
    }
}

impl Layout {
    /// The whole layout as a view.
    #[inline]
    pub(crate) fn view(&self) -> View<'_> {
        View {
            toks: &self.toks,
            shape: &self.shape,
            stride: &self.stride,
        }
    }
}

/// Tokens of an integer layout.
pub(crate) const LEAF: &[Tok] = &[Tok::Leaf];

/// Append the tree of `v` to `out` (tokens and leaves).
#[inline]
pub(crate) fn push_view(out: &mut Layout, v: View<'_>) {
    extend(&mut out.toks, v.toks);
    extend(&mut out.shape, v.shape);
    extend(&mut out.stride, v.stride);
}

/// Append flat modes to `out` as CuTe's `from_flat` shapes them: an integer layout for one mode,
/// a flat tuple otherwise, `1:0` for none.
#[inline]
pub(crate) fn push_flat(out: &mut Layout, modes: &[(i64, i64)]) {
    match modes {
        [] => {
            out.toks.push(Tok::Leaf);
            out.shape.push(1);
            out.stride.push(0);
        }
        [(s, d)] => {
            out.toks.push(Tok::Leaf);
            out.shape.push(*s);
            out.stride.push(*d);
        }
        _ => {
            out.toks.push(Tok::Open);
            for &(s, d) in modes {
                out.toks.push(Tok::Leaf);
                out.shape.push(s);
                out.stride.push(d);
            }
            out.toks.push(Tok::Close);
        }
    }
}

/// Write the modes `pairs` to the empty layout `out` as [`push_flat`] writes them, after the
/// merges of `coalesce` ([`super::coalesce::push_merged`]: extent-1 modes dropped, a mode whose
/// stride is the previous mode's extent * stride merged into it). The mode being merged is kept
/// in registers and each finished mode pushed straight into `out`'s leaves.
#[inline(always)]
pub(crate) fn push_flat_merged(out: &mut Layout, pairs: impl Iterator<Item = (i64, i64)>) {
    let mut m = super::merge::Merger::new();
    for (s, d) in pairs {
        if let Some((s, d)) = m.feed(s, d) {
            out.shape.push(s);
            out.stride.push(d);
        }
    }
    // The last mode (`1:0` if there is none).
    let (s, d) = m.finish().unwrap_or((1, 0));
    out.shape.push(s);
    out.stride.push(d);
    match out.shape.len() {
        1 => out.toks.push(Tok::Leaf),
        n => {
            out.toks.push(Tok::Open);
            for _ in 0..n {
                out.toks.push(Tok::Leaf);
            }
            out.toks.push(Tok::Close);
        }
    }
}

/// Append a few `Copy` elements. SmallVec's `extend_from_slice` goes through a general insert
/// (reserve, shift, copy) that costs more than pushing the handful of leaves a mode has.
#[inline]
pub(crate) fn extend<A: smallvec::Array>(v: &mut smallvec::SmallVec<A>, s: &[A::Item])
where
    A::Item: Copy,
{
    for &x in s {
        v.push(x);
    }
}
