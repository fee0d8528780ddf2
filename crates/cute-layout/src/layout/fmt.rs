//! CuTe's text form: `(2,(2,2)):(4,(2,1))`, no spaces, no `_` markers.

use core::fmt;

use crate::layout::tree::Tok;

/// The largest number of values (cells) a text rendering accepts. Tables are for reading: at 64Ki
/// cells the text is already several megabytes, and a larger request is more likely a mistake than
/// a wish. [`Layout::table`](crate::Layout::table) and [`Layout::vector_table`](crate::Layout::vector_table) return
/// [`LayoutError::InvalidArgument`](crate::LayoutError::InvalidArgument) past it.
pub const MAX_TABLE_CELLS: i64 = 1 << 16;

/// Write a tree of integers in CuTe's notation.
pub(crate) fn write_tree(f: &mut fmt::Formatter<'_>, toks: &[Tok], leaves: &[i64]) -> fmt::Result {
    write_tree_with(f, toks, leaves, |f, v| write!(f, "{v}"))
}

/// Write a tree whose leaves are printed by `leaf`.
pub(crate) fn write_tree_with<T>(
    f: &mut fmt::Formatter<'_>,
    toks: &[Tok],
    leaves: &[T],
    mut leaf: impl FnMut(&mut fmt::Formatter<'_>, &T) -> fmt::Result,
) -> fmt::Result {
    let mut li = 0usize;
    // A comma goes before an element that follows another element of the same tuple.
    let mut need_comma = false;
    for t in toks {
        match t {
            Tok::Open => {
                if need_comma {
                    f.write_str(",")?;
                }
                f.write_str("(")?;
                need_comma = false;
            }
            Tok::Close => {
                f.write_str(")")?;
                need_comma = true;
            }
            Tok::Leaf => {
                if need_comma {
                    f.write_str(",")?;
                }
                leaf(f, &leaves[li])?;
                li += 1;
                need_comma = true;
            }
        }
    }
    Ok(())
}
