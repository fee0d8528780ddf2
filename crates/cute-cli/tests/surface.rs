//! CuTe C++ conformance of the layout surface of issue #29 (the IntTuple toolkit, layout
//! construction and restructuring, general composed layouts): every vector of
//! `tests/conformance/surface/cute_cpp.jsonl` (made by `scripts/gen-conformance-surface.py` from
//! CuTe's own answers, static integers) goes through one `cute batch` run, and the answer must
//! be CuTe's text (spaces ignored, CuTe's static `_N` printed as `N`). A refusal is a failure:
//! every vector is one CuTe answers.

mod common;

use serde_json::{json, Value};

fn norm(s: &str) -> String {
    s.split_whitespace().collect()
}

#[test]
fn surface_vectors_match_cute() {
    let text = include_str!("conformance/surface/cute_cpp.jsonl");
    let cases: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("vector line"))
        .collect();
    assert!(cases.len() >= 100, "{} vectors", cases.len());
    let mut input = String::new();
    for c in &cases {
        input.push_str(&json!({"op": c["op"], "args": c["args"]}).to_string());
        input.push('\n');
    }
    let (_, answers) = common::batch(input.as_bytes());
    assert_eq!(answers.len(), cases.len());
    let mut bad = Vec::new();
    for (c, a) in cases.iter().zip(&answers) {
        let want = c["cute"].as_str().expect("cute answer");
        match a["ok"].as_str() {
            Some(ours) if norm(ours) == want => {}
            _ => bad.push(format!(
                "{} {} {}: CuTe {want}, ours {a}",
                c["id"], c["op"], c["args"]
            )),
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} differ:\n{}",
        bad.len(),
        cases.len(),
        bad.join("\n")
    );
}
