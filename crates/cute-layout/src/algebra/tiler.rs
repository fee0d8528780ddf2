//! Tilers: what divides, products and composition-by-mode take as their right operand.

use super::build;
use crate::layout::error::LayoutError;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use crate::layout::error::{ParseError, ParseErrorKind};
use crate::layout::int_tuple::IntTuple;
use crate::layout::parse::Parser;
use crate::layout::tree::{Leaves, Tok, Toks};
use crate::layout::Layout;

/// A tiler: a layout, an integer, `_` (keep the mode as it is), or a tuple of tilers applied
/// mode by mode.
///
/// An integer `n` stands for the layout `n:1` (CuTe: `composition` uses `n:1`, the divides and
/// products use `make_layout(n)`, which is `1:0` for `n == 1`). A shape such as `(32,16)` is the
/// tuple of its integers. Text form: a layout, an integer, `_`, or `(t0,t1,...)`; the
/// documentation's `<t0,t1>` is accepted too. Printing always uses `(...)`.
///
/// # Examples
/// ```
/// # use cute_layout::Tiler;
/// let t: Tiler = "<3:4,8:2>".parse()?;
/// assert_eq!(t.to_string(), "(3:4,8:2)");
/// assert_eq!("(32,16)".parse::<Tiler>()?.to_string(), "(32,16)");
/// assert_eq!("(_,(2,2):(1,4))".parse::<Tiler>()?.to_string(), "(_,(2,2):(1,4))");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
// A layout is stored inline (no allocation for a layout tiler); the size difference to the
// `Modes` variant is deliberate.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Tiler {
    /// Compose the mode with this layout.
    Layout(Layout),
    /// The integer `n` (the layout `n:1`; see the type's documentation for `n == 1`).
    Int(i64),
    /// Keep the mode (`_`).
    Skip,
    /// One tiler per mode.
    Modes(Vec<Tiler>),
}

impl From<Layout> for Tiler {
    fn from(l: Layout) -> Self {
        Tiler::Layout(l)
    }
}

impl Tiler {
    /// The tiler of a shape: an integer stays an integer, a tuple is the tuple of its elements'
    /// tilers. `None` if an extent is below 1.
    pub fn from_shape(shape: &IntTuple) -> Option<Tiler> {
        if let Some(n) = shape.as_int() {
            (n >= 1).then_some(Tiler::Int(n))
        } else {
            shape
                .elements()
                .map(|e| Tiler::from_shape(&e))
                .collect::<Option<Vec<_>>>()
                .map(Tiler::Modes)
        }
    }

    /// The layout an integer tiler stands for in divides and products (CuTe `make_layout(n)`).
    pub(crate) fn int_layout(n: i64, compact: bool) -> Layout {
        let d = if compact && n == 1 { 0 } else { 1 };
        Layout::from_parts_unchecked(
            super::leaf_toks(),
            Leaves::from_slice(&[n]),
            Leaves::from_slice(&[d]),
        )
    }

    /// Number of modes the tiler addresses (1 for a layout or `_`).
    pub fn rank(&self) -> usize {
        match self {
            Tiler::Modes(m) => m.len(),
            _ => 1,
        }
    }
}

impl fmt::Display for Tiler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tiler::Layout(l) => write!(f, "{l}"),
            Tiler::Int(n) => write!(f, "{n}"),
            Tiler::Skip => f.write_str("_"),
            Tiler::Modes(m) => {
                f.write_str("(")?;
                for (i, t) in m.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// Intermediate parse node: a tuple could still turn out to be the shape of a layout.
#[allow(clippy::large_enum_variant)]
enum Node {
    Int(i64),
    Skip,
    Layout(Layout),
    Tuple(Vec<Node>),
}

impl Node {
    /// The int-tuple this node denotes, if it contains only integers.
    fn to_int_tuple(&self, toks: &mut Toks, leaves: &mut Leaves<i64>) -> bool {
        match self {
            Node::Int(v) => {
                toks.push(Tok::Leaf);
                leaves.push(*v);
                true
            }
            Node::Tuple(es) => {
                toks.push(Tok::Open);
                for e in es {
                    if !e.to_int_tuple(toks, leaves) {
                        return false;
                    }
                }
                toks.push(Tok::Close);
                true
            }
            _ => false,
        }
    }

    fn into_tiler(self, at: usize) -> Result<Tiler, ParseError> {
        Ok(match self {
            Node::Int(n) => Tiler::from_shape(&IntTuple::int(n)).ok_or(ParseError {
                offset: at,
                kind: ParseErrorKind::Invalid(crate::LayoutError::InvalidExtent {
                    op: "tiler",
                    extent: n,
                }),
            })?,
            Node::Skip => Tiler::Skip,
            Node::Layout(l) => Tiler::Layout(l),
            Node::Tuple(es) => Tiler::Modes(
                es.into_iter()
                    .map(|e| e.into_tiler(at))
                    .collect::<Result<_, _>>()?,
            ),
        })
    }
}

impl Parser<'_> {
    fn tiler_node(&mut self, depth: usize) -> Result<Node, ParseError> {
        if depth > crate::MAX_DEPTH {
            return Err(ParseError {
                offset: self.pos,
                kind: ParseErrorKind::TooDeep,
            });
        }
        let start = {
            self.skip_ws();
            self.pos
        };
        let mut nodes = self.nodes;
        self.count_node(&mut nodes)?;
        self.nodes = nodes;
        match self.peek() {
            Some(b'_') if !matches!(self.s.get(self.pos + 1), Some(c) if c.is_ascii_digit() || *c == b'-') =>
            {
                self.pos += 1;
                Ok(Node::Skip)
            }
            Some(open @ (b'<' | b'(')) => {
                let close = if open == b'<' { b'>' } else { b')' };
                self.pos += 1;
                let mut es = Vec::new();
                if self.peek() == Some(close) {
                    self.pos += 1;
                } else {
                    loop {
                        es.push(self.tiler_node(depth + 1)?);
                        match self.peek() {
                            Some(b',') => self.pos += 1,
                            Some(c) if c == close => {
                                self.pos += 1;
                                break;
                            }
                            _ => {
                                return Err(self.error(if open == b'<' {
                                    "',' or '>'"
                                } else {
                                    "',' or ')'"
                                }))
                            }
                        }
                    }
                }
                let node = Node::Tuple(es);
                if open == b'(' && self.peek() == Some(b':') {
                    self.pos += 1;
                    let mut toks = Toks::new();
                    let mut leaves = Leaves::new();
                    if !node.to_int_tuple(&mut toks, &mut leaves) {
                        return Err(ParseError {
                            offset: start,
                            kind: ParseErrorKind::UnexpectedChar {
                                found: ':',
                                expected: "',' or ')' (a layout's shape holds integers only)",
                            },
                        });
                    }
                    return self.finish_layout(start, IntTuple { toks, leaves });
                }
                Ok(node)
            }
            _ => {
                let v = self.int()?;
                if self.peek() == Some(b':') {
                    self.pos += 1;
                    return self.finish_layout(start, IntTuple::int(v));
                }
                Ok(Node::Int(v))
            }
        }
    }

    fn finish_layout(&mut self, start: usize, shape: IntTuple) -> Result<Node, ParseError> {
        self.stride_for(start, shape).map(Node::Layout)
    }

    pub(crate) fn tiler(&mut self) -> Result<Tiler, ParseError> {
        let at = {
            self.skip_ws();
            self.pos
        };
        self.tiler_node(0)?.into_tiler(at)
    }
}

impl FromStr for Tiler {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let mut p = Parser::new(s);
        let t = p.tiler()?;
        p.finish()?;
        Ok(t)
    }
}
/// Whether modes beyond the profile are kept or dropped by [`by_mode`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rest {
    /// Append the remaining modes of the layout unchanged (CuTe `transform_layout`).
    Keep,
    /// Drop them (CuTe's composition with a tiler).
    Drop,
}

/// The one tiler dispatch of composition, divides and products: `_` keeps the layout, an integer
/// `n` stands for the layout [`Tiler::int_layout`]`(n, one_is_zero)`, a layout tiler goes to `f`,
/// and a tuple of tilers recurses mode by mode through [`by_mode`] (`rest` says whether modes past
/// the tiler are kept).
pub(crate) fn by_tiler<F>(
    op: &'static str,
    layout: &Layout,
    tiler: &Tiler,
    one_is_zero: bool,
    rest: Rest,
    f: &F,
) -> Result<Layout, LayoutError>
where
    F: Fn(&Layout, &Layout) -> Result<Layout, LayoutError>,
{
    match tiler {
        Tiler::Layout(t) => f(layout, t),
        Tiler::Int(n) => f(layout, &Tiler::int_layout(*n, one_is_zero)),
        Tiler::Skip => Ok(layout.clone()),
        Tiler::Modes(ts) => by_mode(op, layout, ts.iter(), rest, |m, t| {
            by_tiler(op, m, t, one_is_zero, rest, f)
        }),
    }
}

/// Apply `f` to each top-level mode of `layout` paired with the matching element of `profile`,
/// and concatenate the results (CuTe `transform_layout`). A layout with an integer shape counts as
/// the 1-tuple of itself. This is the one place where operations recurse along a profile or tiler.
///
/// # Errors
/// [`LayoutError::RankMismatch`] if `profile` has more elements than `layout` has modes, and
/// whatever `f` returns.
pub(crate) fn by_mode<T>(
    op: &'static str,
    layout: &Layout,
    profile: impl ExactSizeIterator<Item = T>,
    rest: Rest,
    mut f: impl FnMut(&Layout, T) -> Result<Layout, LayoutError>,
) -> Result<Layout, LayoutError> {
    let rank = layout.rank();
    let n = profile.len();
    if n > rank {
        return Err(LayoutError::RankMismatch {
            op,
            expected: rank,
            found: n,
        });
    }
    let mut out = build::LayoutBuilder::new();
    out.open();
    let whole = crate::layout::tree::Span::whole(layout);
    let mut modes = crate::layout::tree::modes(&layout.toks);
    // `n <= rank`: every profile element meets a mode.
    for (p, m) in profile.zip(&mut modes) {
        out.push(&f(&layout.sub(m.offset(whole)), p)?);
    }
    if rest == Rest::Keep {
        for m in modes {
            out.push_span(layout, m.offset(whole));
        }
    }
    out.close();
    out.finish(op)
}
