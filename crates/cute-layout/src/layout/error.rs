//! Errors: one variant per violated precondition, carrying the values involved.
//!
//! Messages follow one pattern: `operation: what failed, with the values`, lowercase, no final
//! period. `tests/messages.rs` pins every message verbatim.

use alloc::boxed::Box;
use alloc::string::String;
use core::fmt;

use crate::{IntTuple, Layout};

/// Everything that can go wrong in the layout API. Each variant names the precondition that
/// failed and carries the offending values.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LayoutError {
    /// A shape extent is not at least 1. Replaces CuTe's silent acceptance of `0` extents.
    InvalidExtent {
        /// Operation that was attempted.
        op: &'static str,
        /// The offending extent.
        extent: i64,
    },
    /// Shape and stride do not have the same tree (CuTe's `congruent(shape, stride)` assertion).
    NotCongruent {
        /// Operation that was attempted.
        op: &'static str,
        /// The shape.
        shape: Box<IntTuple>,
        /// The stride.
        stride: Box<IntTuple>,
    },
    /// Checked `i64` arithmetic overflowed.
    Overflow {
        /// Operation that was attempted.
        op: &'static str,
    },
    /// Nesting deeper than [`MAX_DEPTH`](crate::MAX_DEPTH).
    TooDeep {
        /// Operation that was attempted.
        op: &'static str,
        /// The limit.
        limit: usize,
    },
    /// Two tuples that must have equal rank do not (CuTe's "Mismatched Ranks").
    RankMismatch {
        /// Operation that was attempted.
        op: &'static str,
        /// The rank required.
        expected: usize,
        /// The rank given.
        found: usize,
    },
    /// A coordinate does not fit the shape's tree (a tuple where the shape has an integer, or a
    /// tuple of the wrong rank).
    CoordMismatch {
        /// Operation that was attempted.
        op: &'static str,
        /// The coordinate.
        coord: Box<IntTuple>,
        /// The shape.
        shape: Box<IntTuple>,
    },
    /// A mode index is not below the rank.
    ModeOutOfRange {
        /// Operation that was attempted.
        op: &'static str,
        /// The index asked for.
        index: usize,
        /// The rank of the value.
        rank: usize,
    },
    /// A mode range `[begin, end)` is empty or reversed (CuTe: "Empty layouts not allowed").
    EmptyModeRange {
        /// Operation that was attempted.
        op: &'static str,
        /// First mode.
        begin: usize,
        /// One past the last mode.
        end: usize,
    },
    /// An argument is outside the operation's domain; `what` says which and why.
    InvalidArgument {
        /// Operation that was attempted.
        op: &'static str,
        /// What is wrong, with the values.
        what: String,
    },
    /// A stride leaf of extent > 1 is 0 where the operation divides by strides
    /// (`idx2crd(i, shape, stride)`; CuTe divides by zero).
    ZeroStride {
        /// Operation that was attempted.
        op: &'static str,
        /// The layout.
        layout: Box<Layout>,
    },
    /// Stride divisibility (CuTe's `shape_div` "Divisibility Condition"): an extent of the left
    /// operand and a stride of the right operand divide neither way, so the left-distributive
    /// rule does not give `A(B(i))`.
    StrideNotDivisible {
        /// Operation that was attempted.
        op: &'static str,
        /// The left operand (coalesced).
        lhs: Box<Layout>,
        /// The stride being divided out.
        stride: i64,
        /// The extent it must divide or be divided by.
        extent: i64,
    },
    /// Shape divisibility: an extent that must be split into a prefix of the left operand's modes
    /// is not a multiple of the extents it has to cover.
    ShapeNotDivisible {
        /// Operation that was attempted.
        op: &'static str,
        /// The left operand (coalesced).
        lhs: Box<Layout>,
        /// The extent being split.
        shape: i64,
        /// The mode extent it must be a multiple of.
        extent: i64,
    },
    /// Two modes of the right operand reach overlapping coordinates of the left operand's
    /// coordinate space (the disjoint-interval condition), so `A(B(i))` is not the sum of
    /// the per-mode compositions. `index`, `naive` and `actual` give a witness point.
    ModesOverlap {
        /// Operation that was attempted.
        op: &'static str,
        /// The left operand.
        lhs: Box<Layout>,
        /// The right operand.
        rhs: Box<Layout>,
        /// The two modes (leaf positions of the right operand, flattened).
        modes: (usize, usize),
    },
    /// The operation needs an injective layout and got one that maps two coordinates to one index.
    NotInjective {
        /// Operation that was attempted.
        op: &'static str,
        /// The layout.
        layout: Box<Layout>,
    },
    /// As [`LayoutError::NotInjective`], for a layout of another stride kind (F2 strides),
    /// with two indices `i < j` it maps to one value: `witness = (i, j, value)`.
    NotInjectiveF2 {
        /// Operation that was attempted.
        op: &'static str,
        /// The layout, in its text form.
        layout: String,
        /// Two indices and their common value.
        witness: Box<(i64, i64, u128)>,
    },
    /// Complement: after sorting the modes by stride, a stride is not a multiple of the span
    /// (`extent * stride`) of the mode before it, so no strictly increasing layout fills the gaps.
    NotComplementable {
        /// Operation that was attempted.
        op: &'static str,
        /// The (filtered) layout.
        layout: Box<Layout>,
        /// The stride that breaks the chain.
        stride: i64,
        /// The span it must be a multiple of.
        span: i64,
    },
    /// No layout with the required shape computes the operation's defining function.
    NotRepresentable {
        /// Operation that was attempted.
        op: &'static str,
        /// Why, with the values.
        what: String,
    },
    /// `find_layout`: the values are not the 1-D function of any layout. `index` is the first
    /// index at which the values leave every layout that agrees with the values before it; past
    /// the last value (`index == len`) when every prefix fits but the count of values is not the
    /// size of the layout those prefixes force.
    NotALayout {
        /// Operation that was attempted.
        op: &'static str,
        /// The first index no layout fits.
        index: usize,
        /// The value found there (`None` past the end).
        found: Option<i64>,
        /// The value the only layout consistent with the values before `index` predicts there
        /// (`None` when it is past `i64` or past the end).
        expected: Option<i64>,
        /// The modes `(extent, stride)` that the values before `index` force, left to right (the
        /// last one still open: its extent is how far it has run so far).
        modes: alloc::vec::Vec<(i64, i64)>,
    },
    /// A request is larger than a fixed limit of the library: a picture with too many cells, a
    /// decision that would have to enumerate too many points, a value with too many nodes.
    /// Refused before any of the work is done.
    TooLarge {
        /// Operation that was attempted.
        op: &'static str,
        /// What is too large, and how large it is.
        what: String,
        /// The limit.
        limit: i64,
    },
    /// Swizzle parameters outside CuTe's domain (`B >= 0`, `M >= 0`, `|S| >= B`, the
    /// "BBits/MBase/SShift" static checks), or past the 63 bits of an `i64`.
    InvalidSwizzle {
        /// Operation that was attempted.
        op: &'static str,
        /// `B`, the number of bits toggled.
        bits: i64,
        /// `M`, the lowest toggled bit.
        base: i64,
        /// `S`, the distance from the toggling to the toggled bits.
        shift: i64,
        /// The condition that failed.
        reason: &'static str,
    },
    /// A tensor's layout reaches an offset outside its storage.
    OutOfBounds {
        /// Operation that was attempted.
        op: &'static str,
        /// Smallest and largest offset the layout can produce.
        bounds: (i64, i64),
        /// Length of the storage.
        len: usize,
    },
    /// A coordinate lies outside the layout's domain (a leaf coordinate `>=` its extent or
    /// negative).
    CoordOutOfRange {
        /// Operation that was attempted.
        op: &'static str,
        /// The coordinate.
        coord: Box<IntTuple>,
        /// The shape.
        shape: Box<IntTuple>,
    },
    /// Two arguments that must have the same size do not (e.g. `layout_add` of layouts with
    /// different domains).
    SizeMismatch {
        /// Operation that was attempted.
        op: &'static str,
        /// Size of the first argument.
        left: i64,
        /// Size of the second argument.
        right: i64,
    },
    /// A condition on symbolic values (NVlabs PyCuTe's sympy layouts, [`SymLayout`](crate::SymLayout))
    /// that the monomials do not decide, such as `4 % N == 0`: refused rather than guessed.
    Undecidable {
        /// Operation that was attempted.
        op: &'static str,
        /// The condition or quotient that cannot be decided, with the values.
        condition: String,
    },
    /// Two shapes have no common refinement (no shape that both are compatible with).
    NoCommonRefinement {
        /// Operation that was attempted.
        op: &'static str,
        /// The element of the first shape that does not fit.
        left: Box<IntTuple>,
        /// The element of the second shape it meets.
        right: Box<IntTuple>,
    },
}

impl LayoutError {
    /// [`LayoutError::TooLarge`] for a value with more than [`MAX_NODES`](crate::MAX_NODES)
    /// integers and tuples.
    pub(crate) fn too_many_nodes(op: &'static str) -> Self {
        LayoutError::TooLarge {
            op,
            what: String::from("a value with more integers and tuples than allowed"),
            limit: crate::layout::tree::MAX_NODES as i64,
        }
    }

    /// The variant's name, as used in `cute batch` (`"kind"` field).
    pub fn kind(&self) -> &'static str {
        match self {
            LayoutError::InvalidExtent { .. } => "InvalidExtent",
            LayoutError::NotCongruent { .. } => "NotCongruent",
            LayoutError::Overflow { .. } => "Overflow",
            LayoutError::TooDeep { .. } => "TooDeep",
            LayoutError::RankMismatch { .. } => "RankMismatch",
            LayoutError::CoordMismatch { .. } => "CoordMismatch",
            LayoutError::ModeOutOfRange { .. } => "ModeOutOfRange",
            LayoutError::EmptyModeRange { .. } => "EmptyModeRange",
            LayoutError::InvalidArgument { .. } => "InvalidArgument",
            LayoutError::ZeroStride { .. } => "ZeroStride",
            LayoutError::StrideNotDivisible { .. } => "StrideNotDivisible",
            LayoutError::ShapeNotDivisible { .. } => "ShapeNotDivisible",
            LayoutError::ModesOverlap { .. } => "ModesOverlap",
            LayoutError::NotInjective { .. } | LayoutError::NotInjectiveF2 { .. } => "NotInjective",
            LayoutError::NotComplementable { .. } => "NotComplementable",
            LayoutError::NotRepresentable { .. } => "NotRepresentable",
            LayoutError::NotALayout { .. } => "NotALayout",
            LayoutError::TooLarge { .. } => "TooLarge",
            LayoutError::InvalidSwizzle { .. } => "InvalidSwizzle",
            LayoutError::OutOfBounds { .. } => "OutOfBounds",
            LayoutError::CoordOutOfRange { .. } => "CoordOutOfRange",
            LayoutError::SizeMismatch { .. } => "SizeMismatch",
            LayoutError::NoCommonRefinement { .. } => "NoCommonRefinement",
            LayoutError::Undecidable { .. } => "Undecidable",
        }
    }

    pub(crate) fn overflow(op: &'static str) -> Self {
        LayoutError::Overflow { op }
    }
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutError::InvalidExtent { op, extent } => {
                write!(f, "{op}: shape extent {extent} is not positive")
            }
            LayoutError::NotCongruent { op, shape, stride } => {
                write!(f, "{op}: shape {shape} and stride {stride} are not congruent")
            }
            LayoutError::Overflow { op } => write!(f, "{op}: integer overflow"),
            LayoutError::TooDeep { op, limit } => {
                write!(f, "{op}: nesting deeper than {limit} levels")
            }
            LayoutError::RankMismatch {
                op,
                expected,
                found,
            } => write!(f, "{op}: expected rank {expected}, found rank {found}"),
            LayoutError::CoordMismatch { op, coord, shape } => {
                write!(f, "{op}: coordinate {coord} does not fit shape {shape}")
            }
            LayoutError::ModeOutOfRange { op, index, rank } => {
                write!(f, "{op}: mode {index} out of range for rank {rank}")
            }
            LayoutError::EmptyModeRange { op, begin, end } => {
                write!(f, "{op}: mode range [{begin},{end}) is empty")
            }
            LayoutError::InvalidArgument { op, what } => write!(f, "{op}: {what}"),
            LayoutError::ZeroStride { op, layout } => write!(
                f,
                "{op}: layout {layout} has a stride-0 mode of extent > 1, so indices do not determine coordinates"
            ),
            LayoutError::StrideNotDivisible {
                op,
                lhs,
                stride,
                extent,
            } => write!(
                f,
                "{op}: stride {stride} and extent {extent} of {lhs} do not divide each other (stride divisibility)"
            ),
            LayoutError::ShapeNotDivisible {
                op,
                lhs,
                shape,
                extent,
            } => write!(
                f,
                "{op}: shape {shape} is not a multiple of extent {extent} of {lhs} (shape divisibility)"
            ),
            LayoutError::ModesOverlap {
                op,
                lhs,
                rhs,
                modes,
            } => write!(
                f,
                "{op}: modes {} and {} of {rhs} overlap in the coordinate space of {lhs}",
                modes.0, modes.1
            ),
            LayoutError::NotInjective { op, layout } => {
                write!(f, "{op}: layout {layout} is not injective")
            }
            LayoutError::NotInjectiveF2 {
                op,
                layout,
                witness,
            } => write!(
                f,
                "{op}: layout {layout} is not injective: L({}) = L({}) = {}",
                witness.0, witness.1, witness.2
            ),
            LayoutError::NotComplementable {
                op,
                layout,
                stride,
                span,
            } => write!(
                f,
                "{op}: stride {stride} of {layout} is not a multiple of {span}, the span of the modes with smaller strides"
            ),
            LayoutError::NotRepresentable { op, what } => write!(f, "{op}: {what}"),
            LayoutError::NotALayout {
                op,
                index,
                found,
                expected,
                modes,
            } => {
                write!(f, "{op}: no layout has these values: ")?;
                match (found, expected) {
                    (Some(v), Some(e)) if *index == 0 => {
                        write!(f, "value {v} at index 0, but every layout maps 0 to {e}")
                    }
                    (Some(v), Some(e)) => write!(
                        f,
                        "value {v} at index {index}, but the only layout fitting the values before it predicts {e}"
                    ),
                    (Some(v), None) => write!(
                        f,
                        "value {v} at index {index}, but the only layout fitting the values before it predicts a value past i64"
                    ),
                    (None, _) => {
                        let block: i64 = modes[..modes.len().saturating_sub(1)]
                            .iter()
                            .map(|m| m.0)
                            .product();
                        write!(
                            f,
                            "{index} values, but the values force blocks of {block}, which {index} is not a multiple of"
                        )
                    }
                }?;
                if !modes.is_empty() {
                    f.write_str(" (modes so far: ")?;
                    for (k, (n, d)) in modes.iter().enumerate() {
                        if k > 0 {
                            f.write_str(", ")?;
                        }
                        write!(f, "{n}:{d}")?;
                    }
                    f.write_str(")")?;
                }
                Ok(())
            }
            LayoutError::TooLarge { op, what, limit } => {
                write!(f, "{op}: {what} (the limit is {limit})")
            }
            LayoutError::InvalidSwizzle {
                op,
                bits,
                base,
                shift,
                reason,
            } => write!(f, "{op}: Sw<{bits},{base},{shift}>: {reason}"),
            LayoutError::OutOfBounds { op, bounds, len } => write!(
                f,
                "{op}: the layout reaches offsets {} to {}, outside storage of length {len}",
                bounds.0, bounds.1
            ),
            LayoutError::CoordOutOfRange { op, coord, shape } => {
                write!(f, "{op}: coordinate {coord} is outside shape {shape}")
            }
            LayoutError::SizeMismatch { op, left, right } => {
                write!(f, "{op}: the sizes differ ({left} and {right})")
            }
            LayoutError::NoCommonRefinement { op, left, right } => write!(
                f,
                "{op}: {left} and {right} have no common refinement (two different integers, an integer and a tuple of another size, or tuples of different ranks)"
            ),
            LayoutError::Undecidable { op, condition } => write!(
                f,
                "{op}: {condition} cannot be decided for symbolic values (a symbol is any positive integer)"
            ),
        }
    }
}

impl core::error::Error for LayoutError {}

/// What went wrong while parsing, see [`ParseError`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A character that cannot start or continue what was expected.
    UnexpectedChar {
        /// The character found.
        found: char,
        /// What the grammar allows here.
        expected: &'static str,
    },
    /// The text ended early.
    UnexpectedEnd {
        /// What the grammar allows here.
        expected: &'static str,
    },
    /// An integer does not fit in `i64`.
    IntegerOverflow,
    /// Nesting deeper than [`MAX_DEPTH`](crate::MAX_DEPTH).
    TooDeep,
    /// More than [`MAX_NODES`](crate::MAX_NODES) integers and tuples in one value.
    TooLarge,
    /// The text parsed, but the value is invalid (e.g. shape and stride not congruent).
    Invalid(LayoutError),
}

/// A parse failure: where (byte offset into the input) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// Byte offset of the problem in the input.
    pub offset: usize,
    /// What went wrong.
    pub kind: ParseErrorKind,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ParseErrorKind::UnexpectedChar { found, expected } => write!(
                f,
                "parse: expected {expected} at byte {}, found {found:?}",
                self.offset
            ),
            ParseErrorKind::UnexpectedEnd { expected } => {
                write!(
                    f,
                    "parse: expected {expected} at byte {}, found end of input",
                    self.offset
                )
            }
            ParseErrorKind::IntegerOverflow => {
                write!(
                    f,
                    "parse: integer at byte {} does not fit in 64 bits",
                    self.offset
                )
            }
            ParseErrorKind::TooDeep => write!(
                f,
                "parse: nesting deeper than {} levels at byte {}",
                crate::MAX_DEPTH,
                self.offset
            ),
            ParseErrorKind::TooLarge => write!(
                f,
                "parse: more than {} integers and tuples in one value at byte {}",
                crate::MAX_NODES,
                self.offset
            ),
            ParseErrorKind::Invalid(e) => write!(f, "{e}"),
        }
    }
}

impl core::error::Error for ParseError {}

impl From<LayoutError> for ParseError {
    fn from(e: LayoutError) -> Self {
        ParseError {
            offset: 0,
            kind: ParseErrorKind::Invalid(e),
        }
    }
}
