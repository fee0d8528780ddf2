//! Printing an explanation in the style of 02_layout_algebra.md.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use super::trace::{write_modes, Explanation, Operand, Step};

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
                    | Step::Note(_)
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
                if leaves.len() == 1 {
                    return writeln!(f, "B has one mode: R = {lhs} o {rhs}");
                }
                writeln!(f, "left-distribute over the leaves of B:")?;
                pad(f, depth)?;
                writeln!(f, "   R = {lhs} o {rhs}")?;
                pad(f, depth)?;
                let (open, close) = if leaves.len() == 1 { ("", "") } else { ("(", ")") };
                write!(f, "     = {open}")?;
                for (k, (n, r)) in leaves.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{lhs} o {n}:{r}")?;
                }
                writeln!(f, "{close}")
            }
            Step::Leaf { leaf, mode } => {
                let lhs = self.steps.iter().find_map(|s| match s {
                    Step::Distribute { lhs, .. } => Some(lhs.clone()),
                    _ => None,
                });
                let lhs = lhs.map(|m| alloc::format!("{m}")).unwrap_or(a_text);
                writeln!(f, "compute {lhs} o {}:{} (leaf {leaf} of B)", mode.0, mode.1)
            }
            Step::Trivial {
                zero_stride,
                result,
                ..
            } => {
                if *zero_stride {
                    writeln!(f, "stride 0: every point is A(0), the trivial case: {result}")
                } else {
                    writeln!(f, "A has one mode, so the stride scales: the trivial case: {result}")
                }
            }
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
                let (open, close) = if parts.len() == 1 { ("", "") } else { ("(", ")") };
                write!(f, "   R = {open}")?;
                for (k, p) in parts.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{p}")?;
                }
                writeln!(f, "{close}")?;
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
                "gap below {}:{}: the modes below span {span}, and {}/{span} = {}, so the gap is {}:{}",
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
            Step::Naive { layout } => match &self.outcome {
                Ok(_) => writeln!(
                    f,
                    "CuTe's answer would be {layout}, which is wrong; the algebra returns the layout below"
                ),
                Err(_) => writeln!(f, "CuTe's answer would be {layout}, which breaks the law:"),
            },
            Step::Counterexample {
                index,
                b_value,
                naive,
                actual,
            } => writeln!(
                f,
                "counter-example: i = {index}: B({index}) = {b_value}; the per-mode answer gives R({index}) = {naive}, but A(B({index})) = A({b_value}) = {actual}"
            ),
            Step::Collision { layout, i, j, value } => writeln!(
                f,
                "counter-example: {layout} maps both {i} and {j} to {value}"
            ),
            Step::ShortCover {
                layout,
                cosize,
                cotarget,
            } => writeln!(
                f,
                "counter-example: (A, R) = {layout} has cosize {cosize}, short of the cotarget {cotarget}"
            ),
            Step::NoCounterexample { searched } => writeln!(
                f,
                "no counter-example among the first {searched} points: the per-mode answer happens to agree there"
            ),
            Step::Note(text) | Step::Detail(text) => writeln!(f, "{text}"),
            Step::Sub(_) => Ok(()),
        }
    }
}
