//! Slicing a composed layout: CuTe's `slice` and `slice_and_offset` of a `ComposedLayout`.

use crate::composed::composed_layout::ComposedLayout;
use crate::layout::error::LayoutError;
use crate::layout::slice::SliceCoord;

impl ComposedLayout {
    /// CuTe `slice_and_offset` of a composed layout: the offset moves *into* the result
    /// (`Sw ∘ (offset + off) ∘ slice(L)`), because the swizzle must see it; the returned offset is
    /// always 0.
    ///
    /// # Errors
    /// As [`Layout::slice_and_offset`](crate::Layout::slice_and_offset); [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout, SliceCoord};
    /// let c: ComposedLayout = "Sw<3,4,3> o 0 o (8,64):(64,1)".parse()?;
    /// let (row, off) = c.slice_and_offset(&"(3,_)".parse::<SliceCoord>()?)?;
    /// assert_eq!((row.to_string(), off), ("Sw<3,4,3> o 192 o (64):(1)".to_string(), 0));
    /// assert!((0..64).all(|j| row.index_1d(j) == c.index_1d(3 + 8 * j)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn slice_and_offset(&self, c: &SliceCoord) -> Result<(ComposedLayout, i64), LayoutError> {
        let (s, off) = self.layout().slice_and_offset(c)?;
        if self.layers().is_empty() {
            return Ok((ComposedLayout::from(s), off));
        }
        let mut layers: alloc::vec::Vec<_> = self.layers().to_vec();
        let last = layers.len() - 1;
        layers[last].1 = layers[last]
            .1
            .checked_add(off)
            .ok_or(LayoutError::overflow("slice"))?;
        Ok((ComposedLayout::from_layers(layers, s)?, 0))
    }

    /// CuTe `slice` of a composed layout.
    ///
    /// # Errors
    /// As [`ComposedLayout::slice_and_offset`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{ComposedLayout, SliceCoord};
    /// let c: ComposedLayout = "Sw<3,4,3> o 0 o (8,64):(64,1)".parse()?;
    /// assert_eq!(c.slice(&"(_,5)".parse::<SliceCoord>()?)?.to_string(), "Sw<3,4,3> o 5 o (8):(64)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn slice(&self, c: &SliceCoord) -> Result<ComposedLayout, LayoutError> {
        Ok(self.slice_and_offset(c)?.0)
    }
}
