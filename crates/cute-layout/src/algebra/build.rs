//! Building result layouts in place: a token/leaf builder that sub-trees of existing layouts are
//! appended to, so that gathering and zipping modes (zipped divide, products) neither allocates
//! nor copies whole layouts.

use super::view::extend;
use crate::layout::error::LayoutError;
use crate::layout::tree::{Span, Tok};
use crate::layout::Layout;

/// A layout under construction: its preorder tokens and its leaves.
pub(crate) struct LayoutBuilder {
    l: Layout,
}

impl LayoutBuilder {
    #[inline]
    pub fn new() -> Self {
        LayoutBuilder {
            l: Layout::building(),
        }
    }

    /// Start a tuple.
    #[inline]
    pub fn open(&mut self) {
        self.l.toks.push(Tok::Open);
    }

    /// End the innermost tuple.
    #[inline]
    pub fn close(&mut self) {
        self.l.toks.push(Tok::Close);
    }

    /// Append the whole of `l` as one element.
    #[inline]
    pub fn push(&mut self, l: &Layout) {
        extend(&mut self.l.toks, &l.toks);
        extend(&mut self.l.shape, &l.shape);
        extend(&mut self.l.stride, &l.stride);
    }

    /// Append the sub-tree `s` of `l` as one element.
    #[inline]
    pub fn push_span(&mut self, l: &Layout, s: Span) {
        extend(&mut self.l.toks, &l.toks[s.tok.0..s.tok.1]);
        extend(&mut self.l.shape, &l.shape[s.leaf.0..s.leaf.1]);
        self.l
            .stride
            .extend_from_slice(&l.stride[s.leaf.0..s.leaf.1]);
    }

    /// The layout built (validated as every constructor does).
    pub fn finish(self, op: &'static str) -> Result<Layout, LayoutError> {
        self.l.check(op)?;
        Ok(self.l)
    }
}
