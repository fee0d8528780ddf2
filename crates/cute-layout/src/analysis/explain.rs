//! Explanations: the derivation of an algebra operation, step by step, as data.
//!
//! [`Explanation`] records what an operation does to its operands in the terms of CuTe's
//! 02_layout_algebra.md: for composition the left-distribution over B's leaves, the "divide out
//! the stride" and "mod out the shape" steps with the intermediate shapes and strides, and the
//! by-mode coalesce; for complement the sorted modes and the gaps filled; for divides and products
//! the complement and composition they are made of (as nested explanations). A refusal names the
//! condition that failed, where (leaf of B, mode of A), and a counter-example point: an index `i`
//! where CuTe's per-mode answer and `A(B(i))` differ.
//!
//! The result of every explanation (`outcome`) is the library operation's own result, so an
//! explanation never disagrees with the algebra; the steps are recomputed alongside it (and the
//! tests check that they lead to the same layout).
//!
//! ```
//! # use cute_layout::{Layout, explain_composition};
//! let a: Layout = "(10,2):(16,4)".parse()?;
//! let b: Layout = "(4,5):(5,2)".parse()?;
//! let e = explain_composition(&a, &b);
//! assert!(e.outcome.is_err());
//! let text = e.to_string();
//! assert!(text.contains("i = 13"));
//! assert!(text.contains("176") && text.contains("20"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use crate::algebra::{bw_coalesce, bw_coalesce_x, ceil_div, flat_modes, from_flat, Tiler};
use crate::error::LayoutError;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::tree::{Tok, Toks};

/// Most points of B's domain searched for a counter-example.
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

fn write_modes(
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
    /// does not divide it, yet B's leaf runs past that mode (CuTe computes a wrong layout).
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
    /// Disjointness (seed 001's disjoint intervals): in A's mode `mode` the largest coordinate
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
    fn new(op: &'static str, operands: Vec<Operand>) -> Self {
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

// ------------------------------------------------------------------------------------------------
// Composition
// ------------------------------------------------------------------------------------------------

/// Per-leaf working record.
struct LeafWork {
    modes: Vec<(i64, i64)>, // after mod, extent-1 dropped (CuTe's per-leaf shape)
    footprint: Vec<(usize, i64)>,
    sign: i64,
}

/// Explain `a ∘ b` (see the [module docs](self)).
///
/// # Examples
/// ```
/// # use cute_layout::{Layout, explain_composition};
/// let a: Layout = "(6,2):(8,2)".parse()?;
/// let b: Layout = "(4,3):(3,1)".parse()?;
/// let e = explain_composition(&a, &b);
/// assert_eq!(e.outcome.as_ref().unwrap().to_string(), "((2,2),3):((24,2),8)");
/// assert!(e.to_string().contains("(6,2):(8,2) / 3 = (6/3,2):(8*3,2) = (2,2):(24,2)"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn explain_composition(a: &Layout, b: &Layout) -> Explanation {
    let mut e = Explanation::new(
        "composition",
        alloc::vec![Operand::Layout(a.clone()), Operand::Layout(b.clone())],
    );
    e.outcome = a.compose(b);
    let work = bw_coalesce_x(a);
    let work_v: Vec<(i64, i64)> = work.iter().copied().collect();
    e.steps.push(Step::Coalesce {
        layout: a.clone(),
        result: Modes(work_v.clone()),
    });
    let leaves: Vec<(i64, i64)> = flat_modes(b).iter().copied().collect();
    e.steps.push(Step::Distribute {
        lhs: Modes(work_v.clone()),
        rhs: b.clone(),
        leaves: leaves.clone(),
    });
    let mut works: Vec<LeafWork> = Vec::new();
    let mut parts: Vec<Modes> = Vec::new();
    for (k, &(n, r)) in leaves.iter().enumerate() {
        e.steps.push(Step::Leaf {
            leaf: k,
            mode: (n, r),
        });
        let w = compose_leaf_steps(&work_v, k, n, r, &mut e.steps, &mut parts);
        let Some(w) = w else {
            return e; // overflow in the per-mode computation: the outcome says so
        };
        works.push(w);
    }
    // Put the per-leaf results in B's tree.
    let naive = assemble(b, &works);
    if let Ok(naive) = &naive {
        e.steps.push(Step::ByModeCoalesce {
            parts,
            result: naive.clone(),
        });
    }
    check_disjoint(&work_v, &works, &mut e.steps);
    if let Ok(naive) = naive {
        let differs = match &e.outcome {
            Ok(r) => r != &naive,
            Err(_) => true,
        };
        if differs {
            if e.outcome.is_ok() {
                e.steps.push(Step::Naive {
                    layout: naive.clone(),
                });
            }
            e.steps.push(counterexample(a, b, &naive));
        }
    }
    e
}

/// The divide and mod steps for one leaf; `None` on overflow.
fn compose_leaf_steps(
    a: &[(i64, i64)],
    k: usize,
    n: i64,
    r: i64,
    steps: &mut Vec<Step>,
    parts: &mut Vec<Modes>,
) -> Option<LeafWork> {
    let sign = if n == 1 { 0 } else { r.signum() };
    if r == 0 || a.len() == 1 {
        let d = if r == 0 { 0 } else { r.checked_mul(a[0].1)? };
        let result = from_flat("composition", &[(n, d)]).ok()?;
        steps.push(Step::Trivial { leaf: k, result });
        parts.push(Modes(alloc::vec![(n, d)]));
        return Some(LeafWork {
            modes: alloc::vec![(n, d)],
            footprint: Vec::new(),
            sign,
        });
    }
    // Divide out the stride.
    let last = a.len() - 1;
    let mut divisors = Vec::with_capacity(a.len());
    let mut strided = Vec::with_capacity(a.len());
    let mut rest = r.abs();
    for (j, &(s, d)) in a.iter().enumerate() {
        divisors.push(rest);
        let shape = if j == last { s } else { ceil_div(s, rest) };
        strided.push((shape, rest.checked_mul(r.signum())?.checked_mul(d)?));
        if j < last {
            if rest % s != 0 && rest >= s {
                steps.push(Step::Failed(Condition::StrideDivisibility {
                    leaf: k,
                    mode: j,
                    divisor: rest,
                    extent: s,
                }));
            }
            rest = ceil_div(rest, s);
        }
    }
    // The last mode is unbounded: its extent after dividing is whatever is asked of it.
    if let Some(m) = strided.last_mut() {
        m.0 = ceil_div(a[last].0, divisors[last]);
    }
    steps.push(Step::DivideStride {
        leaf: k,
        before: Modes(a.to_vec()),
        stride: r,
        divisors: divisors.clone(),
        after: Modes(strided.clone()),
    });
    // Mod out the shape.
    let mut rest_n = n;
    let mut kept = Vec::with_capacity(a.len());
    let mut modes = Vec::new();
    let mut footprint = Vec::new();
    for (j, &(sh, st)) in strided.iter().enumerate() {
        if j == last {
            kept.push((rest_n, st));
            if modes.is_empty() || rest_n > 1 {
                modes.push((rest_n, st));
            }
            break;
        }
        if sh == 1 || rest_n == 1 {
            kept.push((1, st));
            continue;
        }
        let new = sh.min(rest_n);
        if rest_n % new != 0 {
            steps.push(Step::Failed(Condition::ShapeDivisibility {
                leaf: k,
                mode: j,
                shape: rest_n,
                extent: new,
            }));
        } else if a[j].0 % divisors[j] != 0 && new < rest_n {
            steps.push(Step::Failed(Condition::WeakDivisibility {
                leaf: k,
                mode: j,
                divisor: divisors[j],
                extent: a[j].0,
                shape: rest_n,
            }));
        }
        kept.push((new, st));
        modes.push((new, st));
        footprint.push((j, (new - 1).checked_mul(divisors[j])?));
        rest_n = ceil_div(rest_n, new);
    }
    steps.push(Step::ModShape {
        leaf: k,
        before: Modes(strided),
        shape: n,
        after: Modes(kept.clone()),
    });
    steps.push(Step::LeafResult {
        leaf: k,
        result: from_flat("composition", &modes).ok()?,
    });
    parts.push(Modes(kept));
    Some(LeafWork {
        modes,
        footprint,
        sign,
    })
}

/// CuTe's per-mode answer: each leaf's modes in B's tree (a tuple where a leaf has several).
fn assemble(b: &Layout, works: &[LeafWork]) -> Result<Layout, LayoutError> {
    let mut toks = Toks::new();
    let mut shape = crate::tree::Leaves::new();
    let mut stride = crate::tree::Leaves::new();
    let mut k = 0usize;
    for &t in &b.toks {
        if t != Tok::Leaf {
            toks.push(t);
            continue;
        }
        let w = &works[k];
        k += 1;
        if w.modes.len() == 1 {
            toks.push(Tok::Leaf);
        } else {
            toks.push(Tok::Open);
            toks.extend(core::iter::repeat_n(Tok::Leaf, w.modes.len()));
            toks.push(Tok::Close);
        }
        for &(s, d) in &w.modes {
            shape.push(s);
            stride.push(d);
        }
    }
    Layout::checked("composition", toks, shape, stride)
}

fn check_disjoint(a: &[(i64, i64)], works: &[LeafWork], steps: &mut Vec<Step>) {
    if a.len() <= 1 || works.len() <= 1 {
        return;
    }
    let mut first: Option<(usize, i64)> = None;
    for (k, w) in works.iter().enumerate() {
        if w.sign == 0 {
            continue;
        }
        match first {
            None => first = Some((k, w.sign)),
            Some((k0, s0)) if s0 != w.sign => {
                steps.push(Step::Failed(Condition::OppositeSigns { leaves: (k0, k) }));
                return;
            }
            _ => {}
        }
    }
    for (j, &(s, _)) in a[..a.len() - 1].iter().enumerate() {
        let mut digits = Vec::new();
        let mut total = 0i64;
        for (k, w) in works.iter().enumerate() {
            for &(jj, m) in &w.footprint {
                if jj == j && m > 0 {
                    digits.push((k, m));
                    total = total.saturating_add(m);
                }
            }
        }
        if total > s - 1 {
            steps.push(Step::Failed(Condition::Disjointness {
                mode: j,
                extent: s,
                digits,
            }));
        }
    }
}

/// The first index of B's domain where `naive` and `A(B(i))` differ.
fn counterexample(a: &Layout, b: &Layout, naive: &Layout) -> Step {
    let n = b.size().min(naive.size()).min(MAX_COUNTEREXAMPLE_SEARCH);
    for i in 0..n {
        let (Some(bi), Some(ni)) = (b.index_1d(i), naive.index_1d(i)) else {
            break;
        };
        let Ok(ai) = a.index_any(bi) else {
            continue;
        };
        if ai != ni {
            return Step::Counterexample {
                index: i,
                b_value: bi,
                naive: ni,
                actual: ai,
            };
        }
    }
    Step::NoCounterexample { searched: n }
}

// ------------------------------------------------------------------------------------------------
// Complement
// ------------------------------------------------------------------------------------------------

/// Explain `complement(a, cotarget)` (see the [module docs](self)); `None` as cotarget means
/// CuTe's default, `cosize(filter(a))`.
///
/// # Examples
/// ```
/// # use cute_layout::{Layout, explain_complement};
/// let a: Layout = "(2,2):(1,6)".parse()?;
/// let e = explain_complement(&a, Some(&"24".parse()?));
/// assert_eq!(e.outcome.as_ref().unwrap().to_string(), "(3,2):(2,12)");
/// assert!(e.to_string().contains("gap below 2:6"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn explain_complement(a: &Layout, cotarget: Option<&IntTuple>) -> Explanation {
    let f = a.filter();
    let cot = match cotarget {
        Some(c) => c.clone(),
        None => IntTuple::int(f.cosize().max(1)),
    };
    let mut e = Explanation::new(
        "complement",
        alloc::vec![Operand::Layout(a.clone()), Operand::Shape(cot.clone())],
    );
    e.outcome = a.complement_shape(&cot);
    e.steps.push(Step::Filter {
        layout: a.clone(),
        result: f.clone(),
    });
    let mut modes: Vec<(i64, i64)> = flat_modes(&f).iter().copied().collect();
    if modes.len() == 1 && modes[0].1 == 0 {
        return e; // nothing to fill: the result is the cotarget itself
    }
    modes.sort_by_key(|m| m.1);
    e.steps.push(Step::SortModes {
        modes: Modes(modes.clone()),
    });
    let mut out = Vec::new();
    let mut span = 1i64;
    for &(s, d) in &modes {
        if d < span {
            break; // the modes overlap: the outcome names the failed condition
        }
        let gap = (d / span, span);
        e.steps.push(Step::FillGap {
            mode: (s, d),
            span,
            gap,
        });
        out.push(gap);
        let Some(next) = d.checked_mul(s) else {
            return e;
        };
        span = next;
    }
    if out.len() == modes.len() {
        let mut rest = 1i64;
        let mut left = span;
        for &c in cot.leaves() {
            rest = rest.saturating_mul(ceil_div(c, left));
            left = ceil_div(left, c);
        }
        let mode = (rest, if rest == 1 { 0 } else { span });
        e.steps.push(Step::Repeat {
            span,
            cotarget: cot,
            mode,
        });
        out.push(mode);
        if let Ok(result) = from_flat("complement", &bw_coalesce(&out, None)) {
            e.steps.push(Step::Collect {
                modes: Modes(out),
                result,
            });
        }
    }
    e
}

// ------------------------------------------------------------------------------------------------
// Divides and products
// ------------------------------------------------------------------------------------------------

fn tiler_layout(t: &Tiler) -> Option<Layout> {
    match t {
        Tiler::Layout(l) => Some(l.clone()),
        Tiler::Int(n) => Some(Tiler::int_layout(*n, true)),
        _ => None,
    }
}

/// Explain `logical_divide(a, tiler)`: `A ⊘ T = A ∘ (T, T*)`, `T* = complement(T, shape(coalesce(A)))`,
/// mode by mode for a tuple tiler.
///
/// # Examples
/// ```
/// # use cute_layout::{Layout, explain_logical_divide};
/// let a: Layout = "(4,2,3):(2,1,8)".parse()?;
/// let e = explain_logical_divide(&a, &"4:2".parse()?);
/// assert_eq!(e.outcome.as_ref().unwrap().to_string(), "((2,2),(2,3)):((4,1),(2,8))");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn explain_logical_divide(a: &Layout, tiler: &Tiler) -> Explanation {
    let mut e = Explanation::new(
        "logical_divide",
        alloc::vec![Operand::Layout(a.clone()), Operand::Tiler(tiler.clone())],
    );
    e.outcome = a.logical_divide(tiler);
    if let Some(t) = tiler_layout(tiler) {
        e.steps.push(Step::Definition {
            text: "A / T = A o (T, T*) with T* = complement(T, shape(coalesce(A)))",
        });
        let comp = explain_complement(&t, Some(&a.coalesce().shape()));
        let c = comp.outcome.clone();
        e.steps.push(Step::Sub(Box::new(comp)));
        let Ok(c) = c else { return e };
        let Ok(pair) = Layout::from_modes([t.clone(), c.clone()]) else {
            return e;
        };
        e.steps.push(Step::Concat {
            parts: alloc::vec![t, c],
            result: pair.clone(),
        });
        e.steps
            .push(Step::Sub(Box::new(explain_composition(a, &pair))));
    } else {
        by_mode(&mut e, a, tiler, explain_logical_divide);
    }
    e
}

/// Explain `logical_product(a, tiler)`: `A ⊗ B = (A, A* ∘ B)`,
/// `A* = complement(A, size(A) * cosize(B))`, mode by mode for a tuple tiler.
///
/// # Examples
/// ```
/// # use cute_layout::{Layout, explain_logical_product};
/// let a: Layout = "(2,2):(4,1)".parse()?;
/// let e = explain_logical_product(&a, &"6:1".parse()?);
/// assert_eq!(e.outcome.as_ref().unwrap().to_string(), "((2,2),(2,3)):((4,1),(2,8))");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn explain_logical_product(a: &Layout, tiler: &Tiler) -> Explanation {
    let mut e = Explanation::new(
        "logical_product",
        alloc::vec![Operand::Layout(a.clone()), Operand::Tiler(tiler.clone())],
    );
    e.outcome = a.logical_product(tiler);
    if let Some(b) = tiler_layout(tiler) {
        e.steps.push(Step::Definition {
            text: "A x B = (A, A* o B) with A* = complement(A, size(A) * cosize(B))",
        });
        let Some(m) = a.size().checked_mul(b.cosize().max(1)) else {
            return e;
        };
        let comp = explain_complement(a, Some(&IntTuple::int(m)));
        let c = comp.outcome.clone();
        e.steps.push(Step::Sub(Box::new(comp)));
        let Ok(c) = c else { return e };
        let sub = explain_composition(&c, &b);
        let cb = sub.outcome.clone();
        e.steps.push(Step::Sub(Box::new(sub)));
        let Ok(cb) = cb else { return e };
        if let Ok(r) = Layout::from_modes([a.clone(), cb.clone()]) {
            e.steps.push(Step::Concat {
                parts: alloc::vec![a.clone(), cb],
                result: r,
            });
        }
    } else {
        by_mode(&mut e, a, tiler, explain_logical_product);
    }
    e
}

fn by_mode(e: &mut Explanation, a: &Layout, tiler: &Tiler, f: fn(&Layout, &Tiler) -> Explanation) {
    let Tiler::Modes(ts) = tiler else {
        return; // `_`: the layout itself
    };
    e.steps.push(Step::Definition {
        text: "a tuple tiler applies mode by mode; modes past the tiler are kept",
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

/// Explain a divide or product that rearranges a logical divide / product: `op` is one of
/// `zipped_divide`, `tiled_divide`, `flat_divide`, `zipped_product`, `tiled_product`,
/// `flat_product`, `blocked_product`, `raked_product` (for the last two the tiler must be a
/// layout).
///
/// # Errors
/// [`LayoutError::InvalidArgument`] for another `op`, or a non-layout tiler for blocked/raked.
pub fn explain_rearranged(op: &str, a: &Layout, tiler: &Tiler) -> Result<Explanation, LayoutError> {
    let (name, base, how): (&'static str, bool, &'static str) = match op {
        "zipped_divide" => (
            "zipped_divide",
            true,
            "gather the tile modes and the rest modes: ((tile...),(rest...))",
        ),
        "tiled_divide" => (
            "tiled_divide",
            true,
            "gather as ((tile...),rest0,rest1,...)",
        ),
        "flat_divide" => ("flat_divide", true, "unpack as (tile...,rest...)"),
        "zipped_product" => (
            "zipped_product",
            false,
            "gather the block modes and the rest modes: ((block...),(rest...))",
        ),
        "tiled_product" => (
            "tiled_product",
            false,
            "gather as ((block...),rest0,rest1,...)",
        ),
        "flat_product" => ("flat_product", false, "unpack as (block...,rest...)"),
        "blocked_product" => (
            "blocked_product",
            false,
            "pad both to the same rank, then mode i = (A_i, (A* o B)_i)",
        ),
        "raked_product" => (
            "raked_product",
            false,
            "pad both to the same rank, then mode i = ((A* o B)_i, A_i)",
        ),
        _ => {
            return Err(LayoutError::InvalidArgument {
                op: "explain",
                what: alloc::format!("{op} is not a divide or product"),
            })
        }
    };
    let mut e = Explanation::new(
        name,
        alloc::vec![Operand::Layout(a.clone()), Operand::Tiler(tiler.clone())],
    );
    e.outcome = match name {
        "zipped_divide" => a.zipped_divide(tiler),
        "tiled_divide" => a.tiled_divide(tiler),
        "flat_divide" => a.flat_divide(tiler),
        "zipped_product" => a.zipped_product(tiler),
        "tiled_product" => a.tiled_product(tiler),
        "flat_product" => a.flat_product(tiler),
        _ => {
            let Tiler::Layout(b) = tiler else {
                return Err(LayoutError::InvalidArgument {
                    op: name,
                    what: alloc::format!("the tiler {tiler} must be a layout"),
                });
            };
            if name == "blocked_product" {
                a.blocked_product(b)
            } else {
                a.raked_product(b)
            }
        }
    };
    let sub = if base {
        explain_logical_divide(a, tiler)
    } else if matches!(name, "blocked_product" | "raked_product") {
        // CuTe pads both operands with 1:0 modes to the same rank first.
        let (pa, pt) = pad_pair(a, tiler);
        explain_logical_product(&pa, &pt)
    } else {
        explain_logical_product(a, tiler)
    };
    let from = sub.outcome.clone();
    e.steps.push(Step::Sub(Box::new(sub)));
    if let (Ok(from), Ok(to)) = (from, &e.outcome) {
        e.steps.push(Step::Rearrange {
            how,
            from,
            to: to.clone(),
        });
    }
    Ok(e)
}

fn pad_pair(a: &Layout, tiler: &Tiler) -> (Layout, Tiler) {
    let Tiler::Layout(b) = tiler else {
        return (a.clone(), tiler.clone());
    };
    let r = a.rank().max(b.rank());
    let pad = |l: &Layout| -> Layout {
        if l.rank() >= r {
            return l.clone();
        }
        let one = Tiler::int_layout(1, true);
        Layout::from_modes(l.modes().chain(core::iter::repeat_n(one, r - l.rank())))
            .unwrap_or_else(|_| l.clone())
    };
    (pad(a), Tiler::Layout(pad(b)))
}

// ------------------------------------------------------------------------------------------------
// Display
// ------------------------------------------------------------------------------------------------

impl fmt::Display for Explanation {
    /// The derivation, one step per line, nested derivations indented.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, 0)
    }
}

fn pad(f: &mut fmt::Formatter<'_>, depth: usize) -> fmt::Result {
    for _ in 0..depth {
        f.write_str("    ")?;
    }
    Ok(())
}

impl Explanation {
    fn write(&self, f: &mut fmt::Formatter<'_>, depth: usize) -> fmt::Result {
        pad(f, depth)?;
        write!(f, "{}(", self.op)?;
        for (k, o) in self.operands.iter().enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{o}")?;
        }
        f.write_str(")\n")?;
        let mut n = 0usize;
        for s in &self.steps {
            let numbered = matches!(
                s,
                Step::Coalesce { .. }
                    | Step::Distribute { .. }
                    | Step::Leaf { .. }
                    | Step::ByModeCoalesce { .. }
                    | Step::Filter { .. }
                    | Step::SortModes { .. }
                    | Step::Collect { .. }
                    | Step::Definition { .. }
                    | Step::Concat { .. }
                    | Step::Rearrange { .. }
                    | Step::Sub(_)
                    | Step::Keep { .. }
            );
            if numbered {
                n += 1;
            }
            self.write_step(f, s, depth, n, numbered)?;
        }
        pad(f, depth)?;
        match &self.outcome {
            Ok(l) => writeln!(f, "=> {l}"),
            Err(err) => writeln!(f, "=> refused: {err}"),
        }
    }

    fn write_step(
        &self,
        f: &mut fmt::Formatter<'_>,
        s: &Step,
        depth: usize,
        n: usize,
        numbered: bool,
    ) -> fmt::Result {
        if let Step::Sub(e) = s {
            pad(f, depth)?;
            writeln!(f, "{n}. derive:")?;
            return e.write(f, depth + 1);
        }
        pad(f, depth)?;
        if numbered {
            write!(f, "{n}. ")?;
        } else {
            f.write_str("   - ")?;
        }
        let a_text = match self.operands.first() {
            Some(Operand::Layout(l)) => alloc::format!("{l}"),
            _ => String::new(),
        };
        match s {
            Step::Coalesce { layout, result } => {
                writeln!(f, "coalesce A = {layout} (flat; its last mode runs on): {result}")
            }
            Step::Distribute { lhs, rhs, leaves } => {
                writeln!(f, "left-distribute over the leaves of B:")?;
                pad(f, depth)?;
                writeln!(f, "   R = {lhs} o {rhs}")?;
                pad(f, depth)?;
                f.write_str("     = (")?;
                for (k, (n, r)) in leaves.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{lhs} o {n}:{r}")?;
                }
                f.write_str(")\n")
            }
            Step::Leaf { leaf, mode } => {
                let lhs = self.steps.iter().find_map(|s| match s {
                    Step::Distribute { lhs, .. } => Some(lhs.clone()),
                    _ => None,
                });
                let lhs = lhs.map(|m| alloc::format!("{m}")).unwrap_or(a_text);
                writeln!(f, "compute {lhs} o {}:{} (leaf {leaf} of B)", mode.0, mode.1)
            }
            Step::Trivial { result, .. } => writeln!(
                f,
                "A has one mode (or the stride is 0), so this is the trivial case: {result}"
            ),
            Step::DivideStride {
                before,
                stride,
                divisors,
                after,
                ..
            } => {
                write!(f, "divide out the stride {}: {before} / {} = ", stride, stride.abs())?;
                // Symbolic form: (s/r, ...):(d*r, ...).
                let sym: Vec<(String, String)> = before
                    .0
                    .iter()
                    .zip(divisors.iter())
                    .map(|(&(s, d), &r)| {
                        let sr = if *stride < 0 { -r } else { r };
                        if r == 1 && *stride > 0 {
                            (s.to_string(), d.to_string())
                        } else {
                            (alloc::format!("{s}/{r}"), alloc::format!("{d}*{sr}"))
                        }
                    })
                    .collect();
                let symbolic = before.0.len() > 1 && sym.iter().any(|p| p.0.contains('/'));
                if symbolic {
                    let idx: Vec<(i64, i64)> = (0..sym.len() as i64).map(|i| (i, i)).collect();
                    write_modes(f, &idx, |m| sym[m.0 as usize].0.clone(), |m| {
                        sym[m.1 as usize].1.clone()
                    })?;
                    f.write_str(" = ")?;
                }
                writeln!(f, "{after}")
            }
            Step::ModShape {
                before,
                shape,
                after,
                ..
            } => writeln!(f, "mod out the shape {shape}: {before} % {shape} = {after}"),
            Step::LeafResult { result, .. } => writeln!(f, "without its extent-1 modes: {result}"),
            Step::ByModeCoalesce { parts, result } => {
                let naive = match &self.outcome {
                    Ok(r) if r == result => "",
                    _ => " (CuTe's per-mode answer)",
                };
                writeln!(f, "put the results in B's shape and coalesce each mode{naive}:")?;
                pad(f, depth)?;
                f.write_str("   R = (")?;
                for (k, p) in parts.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{p}")?;
                }
                f.write_str(")\n")?;
                pad(f, depth)?;
                writeln!(f, "     = {result}")
            }
            Step::Filter { layout, result } => {
                writeln!(f, "filter A (drop stride-0 and extent-1 modes, coalesce): filter({layout}) = {result}")
            }
            Step::SortModes { modes } => {
                f.write_str("sort the modes by stride: ")?;
                for (k, (s, d)) in modes.0.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{s}:{d}")?;
                }
                f.write_str("\n")
            }
            Step::FillGap { mode, span, gap } => writeln!(
                f,
                "gap below {}:{}: the smaller modes span {span}, so {}/{span} = {} steps of {span} fill it: {}:{}",
                mode.0, mode.1, mode.1, gap.0, gap.0, gap.1
            ),
            Step::Repeat {
                span,
                cotarget,
                mode,
            } => writeln!(
                f,
                "repeat the whole span {span} to cover the cotarget {cotarget}: ceil({cotarget}/{span}) = {} copies: {}:{}",
                mode.0, mode.0, mode.1
            ),
            Step::Collect { modes, result } => {
                writeln!(f, "collect the gaps and the repeat, and coalesce: {modes} = {result}")
            }
            Step::Definition { text } => writeln!(f, "{text}"),
            Step::Concat { parts, result } => {
                f.write_str("concatenate (")?;
                for (k, p) in parts.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{p}")?;
                }
                writeln!(f, ") = {result}")
            }
            Step::Rearrange { how, from, to } => writeln!(f, "{how}: {from} -> {to}"),
            Step::Keep { mode, layout } => writeln!(f, "mode {mode} is kept (_): {layout}"),
            Step::Failed(c) => writeln!(f, "condition failed: {c}"),
            Step::Naive { layout } => writeln!(
                f,
                "CuTe's per-mode answer would be {layout}, which is wrong; the algebra returns the layout below"
            ),
            Step::Counterexample {
                index,
                b_value,
                naive,
                actual,
            } => writeln!(
                f,
                "counter-example: i = {index}: B({index}) = {b_value}; the per-mode answer gives R({index}) = {naive}, but A(B({index})) = A({b_value}) = {actual}"
            ),
            Step::NoCounterexample { searched } => writeln!(
                f,
                "no counter-example among the first {searched} points: the per-mode answer happens to agree there"
            ),
            Step::Sub(_) => Ok(()),
        }
    }
}
