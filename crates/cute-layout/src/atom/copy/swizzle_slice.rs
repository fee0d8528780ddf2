//! CuTe's `slice_and_offset` of a swizzled layout (`Sw<B,M,S> o offset o layout`) at a
//! coordinate that fixes some modes: where the swizzle can be, it is folded into the strides of
//! the result for the fixed part's offset (a plain layout); otherwise the result stays swizzled.

use super::super::AtomError;
use crate::composed::ComposedLayout;
use crate::slice::SliceCoord;

/// `slice_and_offset(c, layout)` for a swizzled layout.
pub(crate) fn slice_and_offset(
    l: &ComposedLayout,
    c: &SliceCoord,
) -> Result<(ComposedLayout, i64), AtomError> {
    Ok(l.slice_and_offset(c)?)
}
