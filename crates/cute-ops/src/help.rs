//! Per-operation help, from each operation's declaration ([`crate::OpSpec`]): the usage line, the
//! summary, the law in one line and a CuTe example whose output is checked by the tests
//! ([`render`]); the operation list of `cute ops` ([`list`]) and docs/OPERATIONS.md
//! ([`markdown`]); and the nearest name to a misspelt one ([`suggest`]).
//!
//! ```
//! let spec = cute_ops::find("coalesce").unwrap();
//! let text = cute_ops::help::render(spec);
//! assert!(text.starts_with("Usage: cute coalesce "));
//! assert!(text.contains("$ cute coalesce '(2,(1,6)):(1,(6,2))'\n  12:1\n"));
//! assert_eq!(cute_ops::help::suggest("compositon", cute_ops::all().map(|s| s.name)), Some("composition"));
//! ```

use std::fmt::Write as _;

use crate::table::Topic;
use crate::{all, OpSpec};

/// `cute NAME USAGE`.
pub fn usage_line(spec: &OpSpec) -> String {
    let usage = spec.usage();
    if usage.is_empty() {
        format!("cute {}", spec.name)
    } else {
        format!("cute {} {usage}", spec.name)
    }
}

/// `arg` quoted for a POSIX shell where it needs it (`'(2,4)'`, but `16`, `8:1`).
pub fn shell_quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-+.,:/@=".contains(c));
    if plain {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

/// The example's command line: `cute NAME ARGS...`, quoted for a shell.
pub fn example_line(spec: &OpSpec) -> String {
    let mut line = format!("cute {}", spec.name);
    for a in spec.example {
        line.push(' ');
        line.push_str(&shell_quote(a));
    }
    line
}

/// The help text of an operation: usage, what it computes, its law, its example (with the
/// output), and the same call as a `cute batch` request.
pub fn render(spec: &OpSpec) -> String {
    let mut out = format!("Usage: {}\n\n{}\n", usage_line(spec), spec.summary);
    if spec.f2.is_some() && spec.name != "f2_swizzle" {
        out += "Also takes layouts with F2 (XOR) strides, NVlabs PyCuTe's (not CuTe C++'s): `(8,8):(F2(1),F2(9))`.\n";
    }
    if !spec.limits.is_empty() {
        let _ = writeln!(out, "Limits: {}", spec.limits);
    }
    out += "\n";
    out += &render_law_and_example(spec);
    out += "\nErrors:\n";
    for (kind, when) in spec.error_conditions() {
        let _ = writeln!(out, "  {kind}: {when}");
    }
    out
}

/// The law, the example with its output, and the same call as a `cute batch` request.
pub fn render_law_and_example(spec: &OpSpec) -> String {
    let mut out = format!(
        "Law: {}\n\nExample:\n  $ {}\n",
        spec.law,
        example_line(spec)
    );
    for line in spec.output.lines() {
        let _ = writeln!(out, "  {line}");
    }
    let args: Vec<String> = spec
        .example
        .iter()
        .map(|a| crate::request::json_string(a))
        .collect();
    let _ = writeln!(
        out,
        "\nIn `cute batch`: {{\"op\": \"{}\", \"args\": [{}]}}",
        spec.name,
        args.join(", ")
    );
    out
}

/// The list of `cute ops`: one line per operation, `NAME USAGE` padded, then the summary.
pub fn list() -> String {
    let calls: Vec<(String, &OpSpec)> = all()
        .map(|s| (format!("{} {}", s.name, s.usage()), s))
        .collect();
    let width = calls.iter().map(|(c, _)| c.len()).max().unwrap_or(0) + 1;
    let mut out = String::new();
    for (call, s) in calls {
        let _ = writeln!(out, "{call:<width$}  {}", s.summary);
    }
    out
}

/// docs/OPERATIONS.md: every operation grouped by topic, with its usage, result kinds, summary,
/// law, limits and example (`cute ops --markdown` prints it).
pub fn markdown() -> String {
    let mut out = String::from("# Operations\n\n");
    let n = all().count();
    let _ = writeln!(
        out,
        "The {n} operations of `cute`, `cute batch`, the Python package and the web page, by topic. \
         Generated from the operation table (`crates/cute-ops`, one declaration per operation) by \
         `cute ops --markdown > docs/OPERATIONS.md`; a test fails when this file is stale. Every \
         example's output is checked by a test.\n"
    );
    for &topic in Topic::ALL {
        let names: Vec<String> = by_topic(topic)
            .map(|s| format!("[`{0}`](#{0})", s.name))
            .collect();
        if !names.is_empty() {
            let _ = writeln!(out, "- **{}**: {}", topic.title(), names.join(", "));
        }
    }
    for &topic in Topic::ALL {
        if by_topic(topic).next().is_none() {
            continue;
        }
        let _ = writeln!(out, "\n## {}", topic.title());
        for s in by_topic(topic) {
            let returns: Vec<&str> = s.returns.iter().map(|k| k.word()).collect();
            let _ = writeln!(out, "\n### {}\n", s.name);
            let _ = writeln!(out, "`{}` &rarr; {}\n", usage_line(s), returns.join(" | "));
            let _ = writeln!(out, "{}\n", md_escape(s.summary));
            if s.f2.is_some() && s.name != "f2_swizzle" {
                let basis = if s.f2_basis.is_some() {
                    " and F2 basis strides"
                } else {
                    ""
                };
                let _ = writeln!(
                    out,
                    "Also takes layouts with F2 (XOR) strides{basis}, NVlabs PyCuTe's.\n"
                );
            }
            let _ = writeln!(out, "Law: {}\n", md_escape(s.law));
            if !s.limits.is_empty() {
                let _ = writeln!(out, "Limits: {}\n", md_escape(s.limits));
            }
            let _ = writeln!(out, "```\n$ {}\n{}\n```", example_line(s), s.output);
        }
    }
    out
}

fn by_topic(topic: Topic) -> impl Iterator<Item = &'static OpSpec> {
    all().filter(move |s| s.topic == topic)
}

/// Text for a Markdown paragraph: `<`, `>`, `*`, `_` and `|` written so they show as typed.
fn md_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '*' | '_' | '|' | '[' | ']' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// The candidate nearest to `word` (edit distance, adjacent swaps counting one), if it is near
/// enough to be a misspelling: at most a third of the word's length, and at least one edit.
///
/// The cost is bounded whatever the word's length: a candidate whose length differs from the
/// word's by more than the limit cannot be within it and is skipped unmeasured, so only words at
/// most half again as long as a candidate are ever compared, in time proportional to the two
/// lengths' product.
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let len = word.chars().count();
    let limit = (len / 3).max(1);
    let mut lower: Option<String> = None;
    let mut best: Option<(usize, &'a str)> = None;
    for c in candidates {
        if len.abs_diff(c.chars().count()) > limit {
            continue;
        }
        let lower = lower.get_or_insert_with(|| word.to_ascii_lowercase());
        let d = distance(lower, &c.to_ascii_lowercase());
        if d <= limit && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// Optimal string alignment distance: insertions, deletions, substitutions and swaps of
/// adjacent characters each cost one.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            d[i * w + j] = if i == 0 || j == 0 {
                i + j
            } else {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut best = (d[(i - 1) * w + j] + 1)
                    .min(d[i * w + j - 1] + 1)
                    .min(d[(i - 1) * w + j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    best = best.min(d[(i - 2) * w + j - 2] + 1);
                }
                best
            };
        }
    }
    d[a.len() * w + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Arity;
    use crate::{run_op, Arg};

    #[test]
    fn every_operation_is_declared_whole_and_its_example_prints_what_it_says() {
        for spec in all() {
            assert!(
                !spec.law.is_empty() && !spec.law.contains('\n'),
                "{}: law",
                spec.name
            );
            assert!(
                !spec.summary.is_empty() && !spec.summary.contains('\n'),
                "{}: summary",
                spec.name
            );
            assert!(!spec.returns.is_empty(), "{}: result kinds", spec.name);
            for sig in spec.signatures() {
                for (k, p) in sig.iter().enumerate() {
                    assert!(!p.kinds.is_empty(), "{}: parameter {k}", spec.name);
                    if matches!(p.arity, Arity::Many | Arity::OneOrMore) {
                        assert_eq!(
                            k + 1,
                            sig.len(),
                            "{}: a repeating parameter is last",
                            spec.name
                        );
                    }
                }
            }
            let args: Vec<Arg> = spec
                .example
                .iter()
                .map(|a| Arg::Text((*a).into()))
                .collect();
            assert!(
                (spec.min()..=spec.max()).contains(&args.len()),
                "{}",
                example_line(spec)
            );
            match run_op(spec.name, &args) {
                Ok(out) => assert_eq!(out, spec.output, "{}", example_line(spec)),
                Err(e) => panic!("{}: {e}", example_line(spec)),
            }
        }
    }

    /// The example's output has the form of the first declared result kind.
    #[test]
    fn the_first_result_kind_is_the_examples() {
        use crate::table::Kind as K;
        use crate::value::Form as F;
        let mut bad = Vec::new();
        for spec in all() {
            let out = spec.output;
            let first = spec.returns[0];
            let fits = if out.contains('\n') {
                first == K::Text
            } else {
                match F::of_text(out) {
                    F::Int => matches!(first, K::Int | K::Bool | K::Stride),
                    F::Tuple => {
                        matches!(first, K::Tuple | K::Stride | K::Values | K::Tiler | K::Text)
                    }
                    // A pair such as (LAYOUT, OFFSET) has the layout form too.
                    F::Layout | F::BasisLayout | F::SumLayout => {
                        matches!(first, K::Layout | K::Tiler | K::Text)
                    }
                    F::Composed => first == K::Composed,
                    F::Tensor => matches!(first, K::Tensor | K::Pointer),
                    F::Swizzle => first == K::Swizzle,
                    F::Basis => matches!(first, K::Stride | K::Basis),
                    F::F2Layout | F::F2BasisLayout => first == K::F2Layout,
                    F::Symbolic | F::SymTuple => first == K::Symbolic,
                    F::Word | F::Underscore | F::SwizzleList => {
                        matches!(first, K::Text | K::Values)
                    }
                }
            };
            if !fits {
                bad.push(format!("{}: {out:?} is no {first:?}", spec.name));
            }
        }
        assert!(bad.is_empty(), "{bad:#?}");
    }

    #[test]
    fn usage_lines_come_from_the_parameters() {
        let u = |name| crate::find(name).unwrap().usage();
        assert_eq!(u("size"), "LAYOUT|COMPOSED|TUPLE|SYMBOLIC");
        assert_eq!(u("make_layout"), "SHAPE [STRIDE|LayoutLeft|LayoutRight]");
        assert_eq!(u("concat"), "LAYOUT...");
        assert_eq!(u("mode"), "LAYOUT|COMPOSED|TUPLE [I...]");
        assert_eq!(
            u("bank_conflicts"),
            "LAYOUT|COMPOSED ELEM_BYTES [THREADS [BANKS [BANK_BYTES]]]"
        );
        assert_eq!(
            u("make_tensor"),
            "LAYOUT|COMPOSED [BASE] | PTR LAYOUT|COMPOSED"
        );
        let svg = crate::find("svg").unwrap();
        assert_eq!(
            svg.usage(),
            "LAYOUT|OP|mma|copy [A|ATOM [B|TYPE]] [--OPTION VALUE...]"
        );
        assert_eq!((svg.min(), svg.max()), (1, crate::MANY));
        assert_eq!(svg.param_names(), ["layout", "a", "b", "option_value"]);
    }

    /// docs/OPERATIONS.md is what [`markdown`] writes; `UPDATE=1 cargo test -p cute-ops --lib
    /// operations_md` (or `cute ops --markdown > docs/OPERATIONS.md`) rewrites it.
    #[test]
    fn operations_md_is_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/OPERATIONS.md");
        let want = markdown();
        if std::env::var_os("UPDATE").is_some() {
            std::fs::write(path, &want).unwrap();
        }
        let have = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            have == want,
            "docs/OPERATIONS.md is stale: run `UPDATE=1 cargo test -p cute-ops --lib operations_md` \
             or `cute ops --markdown > docs/OPERATIONS.md`"
        );
    }

    #[test]
    fn suggestions() {
        let names = || all().map(|s| s.name);
        assert_eq!(suggest("compositon", names()), Some("composition"));
        assert_eq!(suggest("coalsece", names()), Some("coalesce"));
        assert_eq!(suggest("Size", names()), Some("size"));
        assert_eq!(suggest("xyzzy", names()), None);
        assert_eq!(
            suggest("LayoutRigth", ["LayoutLeft", "LayoutRight"]),
            Some("LayoutRight")
        );
    }

    #[test]
    fn quoting() {
        assert_eq!(shell_quote("8:1"), "8:1");
        assert_eq!(shell_quote("(2,4)"), "'(2,4)'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }
}
