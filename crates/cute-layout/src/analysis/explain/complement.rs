//! Explaining complement: sorted modes, gaps, repetition.

use alloc::vec::Vec;

use super::trace::{Condition, Explanation, Modes, Operand, Step, MAX_COUNTEREXAMPLE_SEARCH};
use crate::algebra::{bw_coalesce, ceil_div, flat_modes, from_flat};
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;

/// Explain `complement(a, cotarget)` (see the [module docs](super)); `None` as cotarget means
/// CuTe's default, `cosize(filter(a))`.
///
/// # Examples
/// ```
/// # use cute_layout::{Layout, analysis::explain_complement};
/// let a: Layout = "(2,2):(1,6)".parse()?;
/// let e = explain_complement(&a, Some(&"24".parse()?));
/// assert_eq!(e.outcome.as_ref().unwrap().to_string(), "(3,2):(2,12)");
/// assert!(e.to_string().contains("gap below 2:6"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn explain_complement(a: &Layout, cotarget: Option<&IntTuple>) -> Explanation {
    let f = a.filter();
    // The default cotarget is the cosize, which may be 2^63, one past i64: then it is no shape
    // and the explanation names the one-argument complement (whose last span reaches past
    // i64, so no step below uses the cotarget).
    let (cot, operands) = match cotarget
        .cloned()
        .map(Ok)
        .unwrap_or_else(|| i64::try_from(f.cosize()).map(IntTuple::int))
    {
        Ok(c) => (
            c.clone(),
            alloc::vec![Operand::Layout(a.clone()), Operand::Shape(c)],
        ),
        Err(_) => (
            IntTuple::int(i64::MAX),
            alloc::vec![Operand::Layout(a.clone())],
        ),
    };
    let one_argument = operands.len() == 1;
    let mut e = Explanation::new("complement", operands);
    e.outcome = if one_argument {
        a.complement_cosize()
    } else {
        a.complement_shape(&cot)
    };
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
    let mut remainder: Option<Condition> = None;
    for &(s, d) in &modes {
        if d < span {
            e.steps.push(Step::Failed(Condition::ComplementOverlap {
                mode: (s, d),
                span,
            }));
            if let Some(c) = collision(&f) {
                e.steps.push(c);
            }
            return e;
        }
        if d % span != 0 && remainder.is_none() {
            remainder = Some(Condition::ComplementRemainder { mode: (s, d), span });
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
            cotarget: cot.clone(),
            mode,
        });
        out.push(mode);
        if let Ok(result) = from_flat("complement", &bw_coalesce(&out, None)) {
            e.steps.push(Step::Collect {
                modes: Modes(out),
                result: result.clone(),
            });
            if let (Err(_), Some(cond)) = (&e.outcome, remainder) {
                // CuTe returns `result` here; show which law it breaks.
                e.steps.push(Step::Failed(cond));
                e.steps.push(Step::Naive {
                    layout: result.clone(),
                });
                if let Ok(both) = Layout::from_modes([f.clone(), result]) {
                    let m = cot.size().unwrap_or(i64::MAX);
                    match collision(&both) {
                        Some(c) => e.steps.push(c),
                        None if both.cosize() < m.unsigned_abs() => {
                            e.steps.push(Step::ShortCover {
                                cosize: both.cosize(),
                                layout: both,
                                cotarget: m,
                            })
                        }
                        None => {}
                    }
                }
            }
        }
    }
    e
}

/// Two indices of `l` with the same offset (searching at most
/// [`MAX_COUNTEREXAMPLE_SEARCH`] points).
fn collision(l: &Layout) -> Option<Step> {
    if l.size() > MAX_COUNTEREXAMPLE_SEARCH {
        return None;
    }
    let mut seen: Vec<(i64, i64)> = l.offsets().zip(0..).collect();
    seen.sort_unstable();
    let w = seen.windows(2).find(|w| w[0].0 == w[1].0)?;
    Some(Step::Collision {
        layout: l.clone(),
        i: w[0].1.min(w[1].1),
        j: w[0].1.max(w[1].1),
        value: w[0].0,
    })
}
