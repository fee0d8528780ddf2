//! Explaining divides and products through their complement and composition.

use alloc::boxed::Box;

use super::complement::explain_complement;
use super::composition::explain_composition;
use super::trace::{by_mode, Explanation, Operand, Step};
use crate::algebra::Tiler;
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;

pub(super) fn tiler_layout(t: &Tiler) -> Option<Layout> {
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
/// # use cute_layout::{Layout, analysis::explain_logical_divide};
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
        by_mode(&mut e, a, tiler, explain_logical_divide, true);
    }
    e
}

/// Explain `logical_product(a, tiler)`: `A ⊗ B = (A, A* ∘ B)`,
/// `A* = complement(A, size(A) * cosize(B))`, mode by mode for a tuple tiler.
///
/// # Examples
/// ```
/// # use cute_layout::{Layout, analysis::explain_logical_product};
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
        let Some(m) = i64::try_from(b.cosize())
            .ok()
            .and_then(|c| a.size().checked_mul(c))
        else {
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
        by_mode(&mut e, a, tiler, explain_logical_product, true);
    }
    e
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
