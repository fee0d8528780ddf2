//! Explaining the operations that walk a layout's modes: coalesce, the inverses, the nullspace
//! and the casts.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::trace::{Explanation, Modes, Operand, Step};
use crate::algebra::flat_modes;
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;

/// `s:d` of one mode.
fn mode(m: (i64, i64)) -> String {
    format!("{}:{}", m.0, m.1)
}

/// The modes `(extent, stride)` as a layout's text (`1:0` for none).
fn modes_text(modes: &[(i64, i64)]) -> String {
    if modes.is_empty() {
        return String::from("1:0");
    }
    format!("{}", Modes(modes.to_vec()))
}

/// A's leaves with their index weights (the 1-D index step of each leaf: the product of the
/// extents before it), extent-1 leaves left out.
fn weighted_leaves(a: &Layout) -> Vec<(i64, i64, i64)> {
    let mut out = Vec::new();
    let mut w = 1i64;
    for (s, d) in flat_modes(a).iter().copied() {
        if s > 1 {
            out.push((s, d, w));
        }
        w = w.saturating_mul(s);
    }
    out
}

/// The result of steps, coalesced, for the closing step ("coalesce: ...").
fn collect(e: &mut Explanation, modes: Vec<(i64, i64)>) {
    let text = modes_text(&modes);
    let coalesced = Layout::new(
        IntTuple::flat(modes.iter().map(|m| m.0)),
        IntTuple::flat(modes.iter().map(|m| m.1)),
    )
    .map(|l| l.coalesce());
    match coalesced {
        Ok(l) => e.steps.push(Step::Note(format!("coalesce {text}: {l}"))),
        Err(err) => e.steps.push(Step::Note(format!("{text}: {err}"))),
    }
}

/// Explain `coalesce(a)`: flatten, drop extent-1 modes, merge neighbours `s0:d0, s1:d1` with
/// `d1 = s0 * d0`.
///
/// ```
/// # use cute_layout::{Layout, analysis::explain_coalesce};
/// let e = explain_coalesce(&"(2,(1,6)):(1,(6,2))".parse::<Layout>()?);
/// assert_eq!(e.outcome.as_ref().unwrap().to_string(), "12:1");
/// assert!(e.to_string().contains("2:1 and 6:2 merge into 12:1 (2 = 2 * 1)"));
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub fn explain_coalesce(a: &Layout) -> Explanation {
    let mut e = Explanation::new("coalesce", alloc::vec![Operand::Layout(a.clone())]);
    e.outcome = Ok(a.coalesce());
    let leaves: Vec<(i64, i64)> = flat_modes(a).iter().copied().collect();
    e.steps
        .push(Step::Note(format!("flatten A: {}", modes_text(&leaves))));
    let kept: Vec<(i64, i64)> = leaves.iter().copied().filter(|m| m.0 != 1).collect();
    if kept.len() != leaves.len() {
        e.steps.push(Step::Note(format!(
            "drop the extent-1 modes (they add nothing to any index): {}",
            modes_text(&kept)
        )));
    }
    e.steps.push(Step::Note(String::from(
        "merge neighbours s0:d0, s1:d1 where d1 = s0 * d0 (the second mode continues the first)",
    )));
    let mut out: Vec<(i64, i64)> = Vec::new();
    for m in kept {
        match out.last_mut() {
            Some(last) if last.0.checked_mul(last.1) == Some(m.1) => {
                let merged = (last.0.saturating_mul(m.0), last.1);
                e.steps.push(Step::Detail(format!(
                    "{} and {} merge into {} ({} = {} * {})",
                    mode(*last),
                    mode(m),
                    mode(merged),
                    m.1,
                    last.0,
                    last.1
                )));
                *last = merged;
            }
            Some(last) => {
                e.steps.push(Step::Detail(format!(
                    "{} and {} stay apart ({} != {} * {})",
                    mode(*last),
                    mode(m),
                    m.1,
                    last.0,
                    last.1
                )));
                out.push(m);
            }
            None => out.push(m),
        }
    }
    collect(&mut e, out);
    e
}

/// A's modes with extent > 1 and stride != 0, sorted by stride, with their index weights; the
/// note that says so.
fn sorted_modes(e: &mut Explanation, a: &Layout) -> Vec<(i64, i64, i64)> {
    let mut m: Vec<(i64, i64, i64)> = weighted_leaves(a)
        .into_iter()
        .filter(|m| m.1 != 0)
        .collect();
    m.sort_by_key(|x| x.1);
    let list: Vec<String> = m
        .iter()
        .map(|&(s, d, w)| format!("{s}:{d} (index step {w})"))
        .collect();
    e.steps.push(Step::Note(format!(
        "A's modes by increasing stride, without stride-0 and extent-1 modes: {}",
        if list.is_empty() {
            String::from("none")
        } else {
            list.join(", ")
        }
    )));
    m
}

/// Explain `right_inverse(a)`: the chain of modes with strides `1, s0, s0*s1, ...` in stride
/// order, each mapped back to its index step.
///
/// ```
/// # use cute_layout::{Layout, analysis::explain_right_inverse};
/// let e = explain_right_inverse(&"(8,16,4):(64,1,16)".parse::<Layout>()?);
/// assert_eq!(e.outcome.as_ref().unwrap().to_string(), "(64,8):(8,1)");
/// assert!(e.to_string().contains("coalesce (16,4,8):(8,128,1): (64,8):(8,1)"));
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub fn explain_right_inverse(a: &Layout) -> Explanation {
    let mut e = Explanation::new("right_inverse", alloc::vec![Operand::Layout(a.clone())]);
    e.outcome = Ok(a.right_inverse());
    let sorted = sorted_modes(&mut e, a);
    e.steps.push(Step::Note(String::from(
        "follow the chain from offset 1: a mode whose stride is the next offset not yet reached adds extent:index-step to R",
    )));
    let mut next = 1i64;
    let mut out = Vec::new();
    for (s, d, w) in sorted {
        if d != next {
            e.steps.push(Step::Detail(format!(
                "{s}:{d}: stride {d} is not the next offset {next}; the chain ends (R covers offsets [0, {next}))"
            )));
            break;
        }
        e.steps.push(Step::Detail(format!(
            "{s}:{d}: stride {d} = next offset; R gets {s}:{w}, offsets now reach {}",
            next.saturating_mul(s)
        )));
        out.push((s, w));
        next = next.saturating_mul(s);
    }
    collect(&mut e, out);
    e
}

/// Explain `left_inverse(a)`: in stride order, each stride must be a multiple of the one
/// before it; R spends each gap between strides on stride 0 (offsets A never produces) and
/// maps the rest back to the index steps.
///
/// ```
/// # use cute_layout::{Layout, analysis::explain_left_inverse};
/// let e = explain_left_inverse(&"(8,(2,4)):(2,(1,32))".parse::<Layout>()?);
/// assert_eq!(e.outcome.as_ref().unwrap().to_string(), "(2,64):(8,1)");
/// assert!(e.to_string().contains("coalesce (2,16,4):(8,1,16): (2,64):(8,1)"));
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub fn explain_left_inverse(a: &Layout) -> Explanation {
    let mut e = Explanation::new("left_inverse", alloc::vec![Operand::Layout(a.clone())]);
    e.outcome = a.left_inverse();
    let sorted = sorted_modes(&mut e, a);
    if sorted.iter().any(|m| m.1 < 0) {
        e.steps.push(Step::Note(String::from(
            "negative strides: the modes are reflected first (see the result)",
        )));
        return e;
    }
    e.steps.push(Step::Note(String::from(
        "for each mode s:d in stride order: a gap d/covered:0 if d is past the offsets covered, then (next stride / d):index-step (s:index-step for the last)",
    )));
    let mut covered = 1i64;
    let mut out = Vec::new();
    for (k, &(s, d, w)) in sorted.iter().enumerate() {
        if d % covered != 0 {
            e.steps.push(Step::Detail(format!(
                "{s}:{d}: stride {d} is not a multiple of {covered}, the offsets covered below it: no layout inverts A"
            )));
            return e;
        }
        let gap = d / covered;
        if gap > 1 {
            e.steps.push(Step::Detail(format!(
                "{s}:{d}: offsets below {d} step by {covered}: gap {gap}:0"
            )));
            out.push((gap, 0));
        }
        let extent = match sorted.get(k + 1) {
            Some(&(_, d2, _)) if d2 % d == 0 => d2 / d,
            Some(&(_, d2, _)) => {
                e.steps.push(Step::Detail(format!(
                    "{s}:{d}: the next stride {d2} is not a multiple of {d}: no layout inverts A"
                )));
                return e;
            }
            None => s,
        };
        e.steps.push(Step::Detail(format!(
            "{s}:{d}: R gets {extent}:{w} (offsets {d} apart are index steps {w} apart)"
        )));
        out.push((extent, w));
        covered = d.saturating_mul(extent);
    }
    collect(&mut e, out);
    e
}

/// Explain `nullspace(a)`: the stride-0 leaves, each with its index step.
///
/// ```
/// # use cute_layout::{Layout, analysis::explain_nullspace};
/// let e = explain_nullspace(&"(2,3,4):(0,1,0)".parse::<Layout>()?);
/// assert_eq!(e.outcome.as_ref().unwrap().to_string(), "(2,4):(1,6)");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub fn explain_nullspace(a: &Layout) -> Explanation {
    let mut e = Explanation::new("nullspace", alloc::vec![Operand::Layout(a.clone())]);
    e.outcome = Ok(a.nullspace());
    e.steps.push(Step::Note(String::from(
        "a coordinate maps to 0 exactly when it moves only along stride-0 leaves",
    )));
    let mut out = Vec::new();
    for (s, d, w) in weighted_leaves(a) {
        if d == 0 {
            e.steps.push(Step::Detail(format!(
                "leaf {s}:0 (index step {w}): R gets {s}:{w}"
            )));
            out.push((s, w));
        }
    }
    collect(&mut e, out);
    e
}

/// Explain `upcast(n, a)`: each leaf seen in elements `n` times wider.
///
/// ```
/// # use cute_layout::{Layout, analysis::explain_upcast};
/// let e = explain_upcast(2, &"(4,8):(8,1)".parse::<Layout>()?);
/// assert_eq!(e.outcome.as_ref().unwrap().to_string(), "(4,4):(4,1)");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub fn explain_upcast(n: i64, a: &Layout) -> Explanation {
    let mut e = Explanation::new(
        "upcast",
        alloc::vec![Operand::Shape(IntTuple::int(n)), Operand::Layout(a.clone())],
    );
    e.outcome = a.upcast(n);
    e.steps.push(Step::Note(format!(
        "each leaf s:d with d != 0 becomes ceil(s / ceil({n}/|d|)) : sign(d) * ceil(|d|/{n}); stride-0 leaves stay"
    )));
    for (s, d) in flat_modes(a).iter().copied() {
        if d == 0 || n < 1 {
            e.steps.push(Step::Detail(format!("{s}:{d} stays")));
            continue;
        }
        let per = (n + d.abs() - 1) / d.abs();
        let (s2, d2) = ((s + per - 1) / per, d.signum() * ((d.abs() + n - 1) / n));
        e.steps
            .push(Step::Detail(format!("{s}:{d} becomes {s2}:{d2}")));
    }
    e
}

/// Explain `downcast(n, a)`: each leaf seen in elements `n` times narrower.
///
/// ```
/// # use cute_layout::{Layout, analysis::explain_downcast};
/// let e = explain_downcast(2, &"(4,8):(8,1)".parse::<Layout>()?);
/// assert_eq!(e.outcome.as_ref().unwrap().to_string(), "(4,16):(16,1)");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub fn explain_downcast(n: i64, a: &Layout) -> Explanation {
    let mut e = Explanation::new(
        "downcast",
        alloc::vec![Operand::Shape(IntTuple::int(n)), Operand::Layout(a.clone())],
    );
    e.outcome = a.downcast(n);
    e.steps.push(Step::Note(format!(
        "a leaf with stride ±1 gets {n} times the extent; every other stride is multiplied by {n}"
    )));
    for (s, d) in flat_modes(a).iter().copied() {
        let to = if d.abs() == 1 {
            (s.saturating_mul(n), d)
        } else {
            (s, d.saturating_mul(n))
        };
        e.steps
            .push(Step::Detail(format!("{s}:{d} becomes {}", mode(to))));
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    /// The layout the last step names, and the outcome, for layouts where both exist.
    fn agrees(e: &Explanation) {
        let Ok(out) = &e.outcome else { return };
        let Some(Step::Note(last)) = e.steps.last() else {
            panic!("{e}")
        };
        let got = last.rsplit(": ").next().unwrap_or_default();
        assert_eq!(got, out.to_string(), "{e}");
    }

    #[test]
    fn steps_lead_to_the_result() {
        for text in [
            "(2,(1,6)):(1,(6,2))",
            "(8,16,4):(64,1,16)",
            "(8,(2,4)):(2,(1,32))",
            "(4,8):(8,1)",
            "(2,4):(3,6)",
            "4:2",
            "(2,3,4):(0,1,0)",
            "((2,4),(2,8)):((1,2),(16,32))",
            "(3,(2,5)):(10,(1,30))",
            "(4,4):(1,4)",
            "1:0",
        ] {
            let a: Layout = text.parse().unwrap();
            agrees(&explain_coalesce(&a));
            agrees(&explain_right_inverse(&a));
            agrees(&explain_left_inverse(&a));
            agrees(&explain_nullspace(&a));
        }
    }
}
