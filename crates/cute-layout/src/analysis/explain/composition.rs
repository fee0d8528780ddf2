//! Explaining composition: left-distribution, divide out the stride, mod out the shape.

use alloc::vec::Vec;

use super::trace::by_mode;
use super::trace::{Condition, Explanation, Modes, Operand, Step, MAX_COUNTEREXAMPLE_SEARCH};
use crate::algebra::{bw_coalesce_x, ceil_div, flat_modes, from_flat, weak_step, Tiler, WeakStep};
use crate::layout::error::LayoutError;
use crate::layout::tree::{Tok, Toks};
use crate::layout::Layout;

/// Per-leaf working record.
struct LeafWork {
    modes: Vec<(i64, i64)>, // after mod, extent-1 dropped (CuTe's per-leaf shape)
    footprint: Vec<(usize, i64)>,
    sign: i64,
    /// A weak-divisibility step that is right only if no other leaf of B moves.
    alone: Option<Condition>,
}

/// Explain `a ∘ b` (see the [module docs](super)).
///
/// # Examples
/// ```
/// # use cute_layout::{Layout, analysis::explain_composition};
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
    let moving = leaves.iter().filter(|&&(n, r)| n > 1 && r != 0).count();
    if moving > 1 {
        if let Some(c) = works.iter().find_map(|w| w.alone.clone()) {
            e.steps.push(Step::Failed(c));
        }
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
        steps.push(Step::Trivial {
            leaf: k,
            zero_stride: r == 0,
            result,
        });
        parts.push(Modes(alloc::vec![(n, d)]));
        return Some(LeafWork {
            modes: alloc::vec![(n, d)],
            footprint: Vec::new(),
            sign,
            alone: None,
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
            // (An extent-1 leaf takes only the value 0: any stride is lawful.)
            if rest % s != 0 && rest >= s && n > 1 {
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
    let mut alone = None;
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
        }
        let mut top = (new - 1).checked_mul(divisors[j])?;
        if rest_n % new == 0 && a[j].0 % divisors[j] != 0 && new < rest_n {
            // As in `Layout::compose`: harmless in a stride-0 mode whose carries still match
            // CuTe's, i.e. when (rest_n / new) * e < divisor with e = divisor * new - extent.
            let weak = Condition::WeakDivisibility {
                leaf: k,
                mode: j,
                divisor: divisors[j],
                extent: a[j].0,
                shape: rest_n,
            };
            match weak_step(a, j, divisors[j], new, rest_n) {
                WeakStep::Right(t) => top = t,
                WeakStep::RightAlone => alone = Some(weak),
                WeakStep::Wrong => steps.push(Step::Failed(weak)),
            }
        }
        kept.push((new, st));
        modes.push((new, st));
        footprint.push((j, top));
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
        alone,
    })
}

/// CuTe's per-mode answer: each leaf's modes in B's tree (a tuple where a leaf has several).
fn assemble(b: &Layout, works: &[LeafWork]) -> Result<Layout, LayoutError> {
    let mut toks = Toks::new();
    let mut shape = crate::layout::tree::Leaves::new();
    let mut stride = crate::layout::tree::Leaves::new();
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
    // Leaves that use no digit of a bounded mode add whatever their signs (see `Layout::compose`).
    let bounded = works.iter().any(|w| !w.footprint.is_empty());
    for (k, w) in works.iter().enumerate().filter(|_| bounded) {
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

/// Explain composition with a tiler: a layout (or integer `n`, the layout `n:1`) composes the
/// whole layout as [`explain_composition`]; a tuple tiler composes mode by mode (modes past the
/// tiler are dropped); `_` keeps the layout.
///
/// # Examples
/// ```
/// # use cute_layout::{Layout, analysis::explain_composition_tiler};
/// let a: Layout = "(12,(4,8)):(59,(13,1))".parse()?;
/// let e = explain_composition_tiler(&a, &"<3:4,8:2>".parse()?);
/// assert_eq!(e.outcome.as_ref().unwrap().to_string(), "(3,(2,4)):(236,(26,1))");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn explain_composition_tiler(a: &Layout, tiler: &Tiler) -> Explanation {
    match tiler {
        Tiler::Layout(b) => explain_composition(a, b),
        Tiler::Int(n) => explain_composition(a, &Tiler::int_layout(*n, false)),
        _ => {
            let mut e = Explanation::new(
                "composition",
                alloc::vec![Operand::Layout(a.clone()), Operand::Tiler(tiler.clone())],
            );
            e.outcome = a.compose_tiler(tiler);
            by_mode(&mut e, a, tiler, explain_composition_tiler, false);
            e
        }
    }
}
