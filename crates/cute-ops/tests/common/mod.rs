//! Helpers shared by the NVlabs PyCuTe test files of `cute-ops` (a module of `tests/all.rs`; a
//! test file reaches it with `use crate::common;`, and not every file uses every helper).
#![allow(dead_code)]

use std::collections::BTreeMap;

use cute_layout::{IntTuple, Layout};
use cute_ops::{run_op, Arg};
use serde_json::Value;

/// `run_op` on text arguments; a refusal as its kind and its message.
pub fn call_kind(op: &str, args: &[String]) -> Result<String, (String, String)> {
    let args: Vec<Arg> = args.iter().map(|s| Arg::Text(s.clone())).collect();
    run_op(op, &args).map_err(|e| (e.kind.to_string(), e.message))
}

/// `run_op` on text arguments; a refusal as `kind: message`.
pub fn call(op: &str, args: &[String]) -> Result<String, String> {
    call_kind(op, args).map_err(|(kind, message)| format!("{kind}: {message}"))
}

/// The text without its white space.
pub fn norm(s: &str) -> String {
    s.split_whitespace().collect()
}

/// A JSON list of strings.
pub fn strs(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|x| x.as_str().expect("text").to_string())
        .collect()
}

/// A layout's text parsed (panics with the text on an error).
pub fn layout(s: &str) -> Layout {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// A coordinate with its zero entries dropped at the end of every level, so that coordinates of
/// different widths compare by value.
pub fn coord_key(t: &IntTuple) -> String {
    if let Some(v) = t.as_int() {
        return v.to_string();
    }
    let mut elems: Vec<String> = t.elements().map(|e| coord_key(&e)).collect();
    while elems.last().is_some_and(|e| e == "0") {
        elems.pop();
    }
    if elems.is_empty() {
        "0".into()
    } else {
        format!("({})", elems.join(","))
    }
}

/// Verdicts by case category and verdict.
pub type Tally = BTreeMap<(String, &'static str), usize>;

/// Judges every case (a JSON line with a `category`), prints the tally of verdicts by category
/// and verdict (in columns of `widths`) and asserts that no case failed (a failure is named by
/// the case's `test` and its field `name`).
pub fn tally<'a>(
    lines: impl Iterator<Item = &'a str>,
    name: &str,
    widths: (usize, usize),
    judge: impl Fn(&Value) -> Result<&'static str, String>,
) -> Tally {
    let mut tally = Tally::new();
    let mut failures = Vec::new();
    for line in lines {
        let case: Value = serde_json::from_str(line).unwrap();
        let cat = case["category"].as_str().unwrap().to_string();
        match judge(&case) {
            Ok(k) => *tally.entry((cat, k)).or_default() += 1,
            Err(e) => failures.push(format!("{} {}: {e}", case["test"], case[name])),
        }
    }
    for ((cat, k), n) in &tally {
        println!("{cat:w0$} {k:w1$} {n}", w0 = widths.0, w1 = widths.1);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    tally
}
