//! Slicing with a wildcard: CuTe's `slice`, `slice_and_offset` and the `_` coordinate.
//!
//! A slice coordinate is a coordinate some of whose entries are `_` ("all of this mode"). Fixing
//! the other entries picks a sub-layout and an offset: for a row-major `(4,8):(8,1)` matrix,
//! `(2,_)` is row 2, the layout `(8):(1)` at offset 16, and `(_,3)` is column 3, `(4):(8)` at
//! offset 3.
//!
//! ```
//! use cute_layout::{Layout, SliceCoord};
//! let a: Layout = "(4,8):(8,1)".parse()?;
//! let (row, off) = a.slice_and_offset(&"(2,_)".parse::<SliceCoord>()?)?;
//! assert_eq!((row.to_string(), off), ("(8):(1)".to_string(), 16));
//! let (col, off) = a.slice_and_offset(&"(_,3)".parse::<SliceCoord>()?)?;
//! assert_eq!((col.to_string(), off), ("(4):(8)".to_string(), 3));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
use core::str::FromStr;

use crate::layout::error::{LayoutError, ParseError};
use crate::layout::int_tuple::IntTuple;
use crate::layout::parse::Parser;
use crate::layout::tree::{self, Leaves, Tok, Toks, TupleBuilder};
use crate::layout::Layout;

/// One entry of a [`SliceCoord`]: a fixed coordinate or the wildcard `_`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Slice {
    /// A fixed coordinate (1-D within the mode it meets).
    At(i64),
    /// `_`: keep the whole mode.
    All,
}

/// A coordinate whose entries may be `_`: `(_,3)`, `(1,(_,2))`, `_`. Text form as CuTe writes it
/// (an integer with CuTe's static `_` prefix, such as `_3`, is an integer).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SliceCoord {
    toks: Toks,
    leaves: Leaves<Slice>,
}

impl SliceCoord {
    /// The wildcard `_` alone.
    pub fn all() -> Self {
        let mut toks = Toks::new();
        toks.push(Tok::Leaf);
        let mut leaves = Leaves::new();
        leaves.push(Slice::All);
        SliceCoord { toks, leaves }
    }

    /// The flat tuple of the given entries, e.g. `[Slice::All, Slice::At(3)]` for `(_,3)`.
    pub fn flat<I: IntoIterator<Item = Slice>>(entries: I) -> Self {
        let mut b = TupleBuilder::open();
        for e in entries {
            b.push_leaf(e);
        }
        let (toks, leaves) = b.close();
        SliceCoord { toks, leaves }
    }

    /// The tuple of the given slice coordinates, e.g. `(_,(1,_))`.
    ///
    /// # Errors
    /// [`LayoutError::TooDeep`] past [`MAX_DEPTH`](crate::MAX_DEPTH).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IntTuple, SliceCoord};
    /// let c = SliceCoord::tuple([SliceCoord::all(), SliceCoord::from(IntTuple::int(3))])?;
    /// assert_eq!(c.to_string(), "(_,3)");
    /// assert_eq!(c, "(_,3)".parse()?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tuple<I: IntoIterator<Item = SliceCoord>>(elems: I) -> Result<Self, LayoutError> {
        let mut b = TupleBuilder::open();
        for e in elems {
            b.push_tree(&e.toks, &e.leaves);
        }
        let (toks, leaves) = b.close();
        if tree::depth(&toks) > tree::MAX_DEPTH {
            return Err(LayoutError::TooDeep {
                op: "slice",
                limit: tree::MAX_DEPTH,
            });
        }
        Ok(SliceCoord { toks, leaves })
    }

    /// The coordinate with every `_` replaced by 0 (the origin of the slice).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{SliceCoord};
    /// assert_eq!("(_,(2,_))".parse::<SliceCoord>()?.origin().to_string(), "(0,(2,0))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn origin(&self) -> IntTuple {
        IntTuple {
            toks: self.toks.clone(),
            leaves: self
                .leaves
                .iter()
                .map(|s| match s {
                    Slice::At(v) => *v,
                    Slice::All => 0,
                })
                .collect(),
        }
    }

    /// Whether any entry is `_`.
    pub fn has_wildcard(&self) -> bool {
        self.leaves.contains(&Slice::All)
    }

    /// Whether any entry is an integer (fixes part of a mode).
    pub fn fixes_any(&self) -> bool {
        self.leaves.iter().any(|s| matches!(s, Slice::At(_)))
    }

    /// The entry if the coordinate is one entry (an integer or `_`), `None` for a tuple.
    pub fn as_leaf(&self) -> Option<Slice> {
        tree::is_leaf(&self.toks).then(|| self.leaves[0])
    }

    /// The top-level elements of a tuple coordinate.
    pub fn elements(&self) -> impl Iterator<Item = SliceCoord> + '_ {
        tree::modes(&self.toks).map(move |s| SliceCoord {
            toks: Toks::from_slice(&self.toks[s.tok.0..s.tok.1]),
            leaves: Leaves::from_slice(&self.leaves[s.leaf.0..s.leaf.1]),
        })
    }
}

impl From<IntTuple> for SliceCoord {
    /// A coordinate without wildcards.
    fn from(c: IntTuple) -> Self {
        SliceCoord {
            toks: c.toks.clone(),
            leaves: c.leaves.iter().map(|&v| Slice::At(v)).collect(),
        }
    }
}

impl fmt::Display for SliceCoord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::layout::fmt::write_tree_with(f, &self.toks, &self.leaves, |f, s| match s {
            Slice::At(v) => write!(f, "{v}"),
            Slice::All => f.write_str("_"),
        })
    }
}

impl fmt::Debug for SliceCoord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SliceCoord({self})")
    }
}

impl FromStr for SliceCoord {
    type Err = ParseError;
    /// Parse `(_,3)`, `(1,(_,2))`, `_`, `5`.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let mut p = Parser::new(s);
        let (toks, leaves) = p.tree(|p| {
            p.skip_ws();
            let is_wild = p.s.get(p.pos) == Some(&b'_')
                && !matches!(p.s.get(p.pos + 1), Some(c) if c.is_ascii_digit() || *c == b'-');
            if is_wild {
                p.pos += 1;
                Ok(Slice::All)
            } else {
                p.int().map(Slice::At)
            }
        })?;
        p.finish()?;
        Ok(SliceCoord { toks, leaves })
    }
}

/// Output of a slice: tree tokens, shape and stride leaves.
struct Out {
    b: TupleBuilder<i64>,
    stride: Leaves<i64>,
}

impl Out {
    fn new() -> Self {
        Out {
            b: TupleBuilder::open(),
            stride: Leaves::new(),
        }
    }
    fn push(&mut self, l: &Layout) {
        self.b.push_tree(&l.toks, &l.shape);
        self.stride.extend_from_slice(&l.stride);
    }
}

impl Layout {
    /// CuTe `slice_and_offset(c, layout)`: the sub-layout of the modes where `c` is `_`, and the
    /// offset of the fixed entries. Structure as in CuTe: a tuple coordinate gives the flat tuple,
    /// in order, of the modes its `_` entries meet (each kept whole; nested tuple coordinates
    /// splice their kept modes in); `_` alone is the whole layout; a coordinate without `_` gives
    /// the empty layout `():()`.
    ///
    /// # Laws
    /// * For every coordinate `d` of the result, `self(c with its _ replaced by d) ==
    ///   offset + R(d)`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if a tuple in `c` meets an integer or a tuple of another
    /// rank in the shape; [`LayoutError::CoordOutOfRange`] if a fixed entry lies outside the
    /// mode it fixes (CuTe would produce a point past the end; a slice here is always a part of
    /// the layout's image).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, SliceCoord};
    /// let a: Layout = "((2,3),(4,5)):((1,2),(6,24))".parse()?;
    /// let (s, off) = a.slice_and_offset(&"((1,_),(_,3))".parse::<SliceCoord>()?)?;
    /// assert_eq!((s.to_string(), off), ("(3,4):(2,6)".to_string(), 73));
    /// assert_eq!(a.slice(&"(_,7)".parse::<SliceCoord>()?)?.to_string(), "((2,3)):((1,2))");
    /// assert!(a.slice(&"(_,20)".parse::<SliceCoord>()?).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn slice_and_offset(&self, c: &SliceCoord) -> Result<(Layout, i64), LayoutError> {
        let mut off = 0i64;
        if tree::is_leaf(&c.toks) {
            return match c.leaves[0] {
                Slice::All => Ok((self.clone(), 0)),
                Slice::At(_) => {
                    self.slice_into(c, &mut Out::new(), &mut off)?;
                    let out = Out::new();
                    let (toks, shape) = out.b.close();
                    Ok((Layout::checked("slice", toks, shape, out.stride)?, off))
                }
            };
        }
        let mut out = Out::new();
        self.slice_tuple(c, &mut out, &mut off)?;
        let (toks, shape) = out.b.close();
        Ok((Layout::checked("slice", toks, shape, out.stride)?, off))
    }

    /// CuTe `slice(c, layout)`: the sub-layout of [`Layout::slice_and_offset`].
    ///
    /// # Errors
    /// As [`Layout::slice_and_offset`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, SliceCoord};
    /// let a: Layout = "(4,8):(8,1)".parse()?;
    /// assert_eq!(a.slice(&"(_,1)".parse::<SliceCoord>()?)?.to_string(), "(4):(8)");
    /// assert_eq!(a.slice(&"_".parse::<SliceCoord>()?)?, a);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn slice(&self, c: &SliceCoord) -> Result<Layout, LayoutError> {
        Ok(self.slice_and_offset(c)?.0)
    }

    /// Slice of a tuple coordinate against `self`'s modes, elements appended to `out`.
    fn slice_tuple(&self, c: &SliceCoord, out: &mut Out, off: &mut i64) -> Result<(), LayoutError> {
        if self.is_leaf() || c.elements().count() != self.rank() {
            return Err(LayoutError::InvalidArgument {
                op: "slice",
                what: alloc::format!("coordinate {c} does not fit shape {}", self.shape()),
            });
        }
        for (ci, li) in c.elements().zip(self.modes()) {
            li.slice_into(&ci, out, off)?;
        }
        Ok(())
    }

    /// CuTe's `lift_slice`: append what slicing `self` by `c` leaves, as one element (or none).
    fn slice_into(&self, c: &SliceCoord, out: &mut Out, off: &mut i64) -> Result<(), LayoutError> {
        if !tree::is_leaf(&c.toks) {
            // CuTe's filter_tuple: what a nested coordinate keeps is spliced into the parent.
            return self.slice_tuple(c, out, off);
        }
        match c.leaves[0] {
            Slice::All => out.push(self),
            Slice::At(i) => {
                let v = self
                    .index_1d(i)
                    .ok_or_else(|| LayoutError::CoordOutOfRange {
                        op: "slice",
                        coord: IntTuple::int(i).into(),
                        shape: self.shape().into(),
                    })?;
                *off = off.checked_add(v).ok_or(LayoutError::overflow("slice"))?;
            }
        }
        Ok(())
    }
}
