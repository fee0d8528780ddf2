//! The trace types: operands, steps, conditions, explanations.

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use crate::algebra::Tiler;
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;

/// Most points searched for a counter-example (explanations only; the algebra never enumerates).
pub const MAX_COUNTEREXAMPLE_SEARCH: i64 = 1 << 20;

/// An operand of an explained operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A layout.
    Layout(Layout),
    /// A tiler.
    Tiler(Tiler),
    /// A shape or integer (a cotarget).
    Shape(IntTuple),
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Layout(l) => write!(f, "{l}"),
            Operand::Tiler(t) => write!(f, "{t}"),
            Operand::Shape(s) => write!(f, "{s}"),
        }
    }
}

/// Flat modes `(extent, stride)` as a value of a step.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Modes(pub Vec<(i64, i64)>);

impl fmt::Display for Modes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_modes(f, &self.0, |m| m.0.to_string(), |m| m.1.to_string())
    }
}

pub(super) fn write_modes(
    f: &mut fmt::Formatter<'_>,
    modes: &[(i64, i64)],
    shape: impl Fn(&(i64, i64)) -> String,
    stride: impl Fn(&(i64, i64)) -> String,
) -> fmt::Result {
    let one = modes.len() == 1;
    let open = if one { "" } else { "(" };
    let close = if one { "" } else { ")" };
    f.write_str(open)?;
    for (k, m) in modes.iter().enumerate() {
        if k > 0 {
            f.write_str(",")?;
        }
        f.write_str(&shape(m))?;
    }
    write!(f, "{close}:{open}")?;
    for (k, m) in modes.iter().enumerate() {
        if k > 0 {
            f.write_str(",")?;
        }
        f.write_str(&stride(m))?;
    }
    f.write_str(close)
}

/// A condition of the algebra that failed, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Condition {
    /// Stride divisibility: the stride being divided out (`divisor`) and the extent of A's mode
    /// `mode` divide neither way (CuTe: a static assertion in `shape_div`).
    StrideDivisibility {
        /// Leaf of B (flattened position).
        leaf: usize,
        /// Mode of A (coalesced, flat).
        mode: usize,
        /// What is left of B's stride at this mode.
        divisor: i64,
        /// A's extent.
        extent: i64,
    },
    /// Weak divisibility: the stride left at mode `mode` is smaller than A's extent there and
    /// does not divide it, yet B's leaf runs past that mode (CuTe computes a wrong layout; only a
    /// stride-0 mode of A whose carries still match CuTe's escapes this).
    WeakDivisibility {
        /// Leaf of B.
        leaf: usize,
        /// Mode of A.
        mode: usize,
        /// What is left of B's stride at this mode.
        divisor: i64,
        /// A's extent.
        extent: i64,
        /// What is left of B's extent at this mode.
        shape: i64,
    },
    /// Shape divisibility: what is left of B's extent is not a multiple of the extent it must
    /// cover in A's mode `mode` (CuTe: a static assertion).
    ShapeDivisibility {
        /// Leaf of B.
        leaf: usize,
        /// Mode of A.
        mode: usize,
        /// What is left of B's extent.
        shape: i64,
        /// The (divided) extent of A's mode.
        extent: i64,
    },
    /// Disjointness (disjoint intervals): in A's mode `mode` the largest coordinate
    /// digits that B's leaves reach add up past `extent - 1`, so adding the leaves' images
    /// carries into the next mode and `A(Σ B_k) != Σ A(B_k)`.
    Disjointness {
        /// Mode of A.
        mode: usize,
        /// Its extent.
        extent: i64,
        /// `(leaf of B, largest digit it reaches in this mode)`, for each leaf that reaches it.
        digits: Vec<(usize, i64)>,
    },
    /// Two leaves of B with strides of opposite signs meet in a multi-mode A.
    OppositeSigns {
        /// The two leaves of B.
        leaves: (usize, usize),
    },
    /// Complement: a mode of `filter(A)`, in stride order, starts inside the span of the modes
    /// with smaller strides, so there is no gap to fill below it and the modes overlap.
    ComplementOverlap {
        /// The mode `n:d`.
        mode: (i64, i64),
        /// The span of the modes before it.
        span: i64,
    },
    /// Complement: a sorted stride is not a multiple of the span below it; the gap `d / span`
    /// leaves a remainder that no layout of the gaps reaches.
    ComplementRemainder {
        /// The mode `n:d`.
        mode: (i64, i64),
        /// The span of the modes before it.
        span: i64,
    },
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Condition::StrideDivisibility { leaf, mode, divisor, extent } => write!(
                f,
                "stride divisibility fails at leaf {leaf} of B, mode {mode} of A: stride {divisor} and extent {extent} divide neither way"
            ),
            Condition::WeakDivisibility { leaf, mode, divisor, extent, shape } => write!(
                f,
                "stride divisibility fails at leaf {leaf} of B, mode {mode} of A: stride {divisor} is below extent {extent} but does not divide it, and the leaf's {shape} elements run past that mode"
            ),
            Condition::ShapeDivisibility { leaf, mode, shape, extent } => write!(
                f,
                "shape divisibility fails at leaf {leaf} of B, mode {mode} of A: {shape} is not a multiple of {extent}"
            ),
            Condition::Disjointness { mode, extent, digits } => {
                write!(f, "disjointness fails in mode {mode} of A (extent {extent}): ")?;
                let mut total = 0i64;
                for (k, (leaf, m)) in digits.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "leaf {leaf} of B reaches coordinate {m}")?;
                    total = total.saturating_add(*m);
                }
                write!(
                    f,
                    "; together {total} > {}, so adding them carries into mode {}",
                    extent - 1,
                    mode + 1
                )
            }
            Condition::ComplementOverlap { mode, span } => write!(
                f,
                "the modes overlap: mode {}:{} starts at stride {} inside the span {span} of the modes with smaller strides",
                mode.0, mode.1, mode.1
            ),
            Condition::ComplementRemainder { mode, span } => write!(
                f,
                "the gaps are not a layout: stride {} of mode {}:{} is not a multiple of {span}, the span below it (remainder {})",
                mode.1, mode.0, mode.1, mode.1 % span
            ),
            Condition::OppositeSigns { leaves } => write!(
                f,
                "leaves {} and {} of B have strides of opposite signs, and A is not linear across its modes",
                leaves.0, leaves.1
            ),
        }
    }
}

/// One step of a derivation.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Step {
    /// A is flattened and coalesced into the working form (its last mode runs on past its end).
    Coalesce {
        /// The operand.
        layout: Layout,
        /// Its working form.
        result: Modes,
    },
    /// Left distributivity over B's leaves: `A ∘ B = (A ∘ B_0, A ∘ B_1, ...)`.
    Distribute {
        /// A (working form).
        lhs: Modes,
        /// B.
        rhs: Layout,
        /// B's leaves `n:r`.
        leaves: Vec<(i64, i64)>,
    },
    /// Start of `A ∘ n:r` for leaf `leaf` of B.
    Leaf {
        /// Position among B's leaves.
        leaf: usize,
        /// `(n, r)`.
        mode: (i64, i64),
    },
    /// `A ∘ n:r` where A has one mode `a:b` (`n:(r*b)`), or `r == 0` (`n:0`).
    Trivial {
        /// Leaf of B.
        leaf: usize,
        /// Whether the leaf's stride is 0 (else A has one mode).
        zero_stride: bool,
        /// The result.
        result: Layout,
    },
    /// "Divide out the stride": `A / r`, each mode's extent divided by what is left of `r`,
    /// its stride multiplied by it.
    DivideStride {
        /// Leaf of B.
        leaf: usize,
        /// A (working form).
        before: Modes,
        /// `r`.
        stride: i64,
        /// What is left of `|r|` at each mode (the divisor).
        divisors: Vec<i64>,
        /// The strided layout.
        after: Modes,
    },
    /// "Mod out the shape": keep the first `n` elements of the strided layout, from the left.
    ModShape {
        /// Leaf of B.
        leaf: usize,
        /// The strided layout.
        before: Modes,
        /// `n`.
        shape: i64,
        /// The result (extent-1 modes included).
        after: Modes,
    },
    /// The result for one leaf (extent-1 modes dropped).
    LeafResult {
        /// Leaf of B.
        leaf: usize,
        /// The result.
        result: Layout,
    },
    /// The per-leaf results put in B's tree (the by-mode coalesce).
    ByModeCoalesce {
        /// The per-leaf results, with their extent-1 modes.
        parts: Vec<Modes>,
        /// The layout they form.
        result: Layout,
    },
    /// Complement: `filter(A)`, the modes without stride 0 or extent 1.
    Filter {
        /// The operand.
        layout: Layout,
        /// `filter(layout)`.
        result: Layout,
    },
    /// Complement: the modes sorted by stride.
    SortModes {
        /// The sorted modes.
        modes: Modes,
    },
    /// Complement: the gap below a mode `n:d`, whose smaller modes span `span`: `(d/span):span`.
    FillGap {
        /// The mode.
        mode: (i64, i64),
        /// Span of the modes with smaller strides.
        span: i64,
        /// The gap mode.
        gap: (i64, i64),
    },
    /// Complement: the whole span repeated up to the cotarget.
    Repeat {
        /// Span of all modes.
        span: i64,
        /// The cotarget.
        cotarget: IntTuple,
        /// The repeating mode.
        mode: (i64, i64),
    },
    /// The modes collected so far, coalesced.
    Collect {
        /// The modes.
        modes: Modes,
        /// Coalesced.
        result: Layout,
    },
    /// A definition in terms of other operations, e.g. `A ⊘ T = A ∘ (T, T*)`.
    Definition {
        /// The formula.
        text: &'static str,
    },
    /// Concatenation of layouts into one.
    Concat {
        /// The parts.
        parts: Vec<Layout>,
        /// `(parts...)`.
        result: Layout,
    },
    /// A rearrangement of modes (zipped, tiled, flat, blocked, raked).
    Rearrange {
        /// What is done.
        how: &'static str,
        /// Before.
        from: Layout,
        /// After.
        to: Layout,
    },
    /// A nested derivation.
    Sub(Box<Explanation>),
    /// A step of the derivation in words, with its values (a numbered line).
    Note(String),
    /// A detail of the step before it, in words (an indented line).
    Detail(String),
    /// A mode of a tuple tiler kept as it is (`_`).
    Keep {
        /// The mode index.
        mode: usize,
        /// The mode.
        layout: Layout,
    },
    /// A condition failed.
    Failed(Condition),
    /// CuTe's per-mode answer, where it differs from the result returned.
    Naive {
        /// The per-mode answer.
        layout: Layout,
    },
    /// A point where CuTe's per-mode answer and `A(B(i))` differ.
    Counterexample {
        /// The index into B's domain.
        index: i64,
        /// `B(i)`.
        b_value: i64,
        /// The per-mode answer at `i`.
        naive: i64,
        /// `A(B(i))`.
        actual: i64,
    },
    /// Two points of `layout` with the same offset.
    Collision {
        /// The layout.
        layout: Layout,
        /// One index.
        i: i64,
        /// Another index.
        j: i64,
        /// Their common offset.
        value: i64,
    },
    /// `(A, R)` does not reach the cotarget: `cosize((A, R)) < size(cotarget)`.
    ShortCover {
        /// `(A, R)`.
        layout: Layout,
        /// Its cosize.
        cosize: u64,
        /// The cotarget's size.
        cotarget: i64,
    },
    /// No point of B's domain (searched up to [`MAX_COUNTEREXAMPLE_SEARCH`]) tells the per-mode
    /// answer from `A(B(i))`.
    NoCounterexample {
        /// How many points were searched.
        searched: i64,
    },
}

/// The derivation of one operation: operands, steps and the library's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The operation (CuTe's name).
    pub op: &'static str,
    /// Its operands.
    pub operands: Vec<Operand>,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// The library's answer.
    pub outcome: Result<Layout, LayoutError>,
}

impl Explanation {
    pub(super) fn new(op: &'static str, operands: Vec<Operand>) -> Self {
        Explanation {
            op,
            operands,
            steps: Vec::new(),
            outcome: Err(LayoutError::InvalidArgument {
                op,
                what: "not computed".into(),
            }),
        }
    }

    /// The conditions that failed, in order (nested explanations included).
    pub fn failed_conditions(&self) -> Vec<&Condition> {
        let mut out = Vec::new();
        for s in &self.steps {
            match s {
                Step::Failed(c) => out.push(c),
                Step::Sub(e) => out.extend(e.failed_conditions()),
                _ => {}
            }
        }
        out
    }
}
/// Explains a tuple tiler mode by mode with `f`: `_` keeps the mode, a failed mode ends the walk.
pub(super) fn by_mode(
    e: &mut Explanation,
    a: &Layout,
    tiler: &Tiler,
    f: fn(&Layout, &Tiler) -> Explanation,
    rest_kept: bool,
) {
    let Tiler::Modes(ts) = tiler else {
        return; // `_`: the layout itself
    };
    e.steps.push(Step::Definition {
        text: if rest_kept {
            "a tuple tiler applies mode by mode; modes past the tiler are kept"
        } else {
            "a tuple tiler applies mode by mode; modes past the tiler are dropped"
        },
    });
    for (i, (m, t)) in a.modes().zip(ts.iter()).enumerate() {
        if *t == Tiler::Skip {
            e.steps.push(Step::Keep { mode: i, layout: m });
            continue;
        }
        let sub = f(&m, t);
        let failed = sub.outcome.is_err();
        e.steps.push(Step::Sub(Box::new(sub)));
        if failed {
            return;
        }
    }
}
