//! CuTe C++ conformance of the tensor operations (counting and identity tensors, slicing
//! swizzled tensors, `local_tile`/`local_partition` with and without a `Step` projection, the
//! thread slice of a TV layout, the divides of a tensor, `print_tensor`, `batch_reduce`,
//! `logical_reduce`): every vector of `tests/conformance/surface/tensors_cpp.jsonl` (made by
//! `scripts/gen-conformance-tensors.py` from CuTe's own answers, static integers) goes through
//! one `cute batch` run. Single-line answers are compared without spaces (CuTe's static `_N`
//! printed as `N`); `print_tensor` tables exactly. A refusal is a failure.

mod common;

use serde_json::{json, Value};

fn norm(s: &str) -> String {
    s.split_whitespace().collect()
}

#[test]
fn tensor_vectors_match_cute() {
    let text = include_str!("conformance/surface/tensors_cpp.jsonl");
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
        let exact = c["exact"].as_bool().unwrap_or(false);
        match a["ok"].as_str() {
            Some(ours) if exact && ours == want => {}
            Some(ours) if !exact && norm(ours) == want => {}
            _ => bad.push(format!(
                "{} {} {}: CuTe {want:?}, ours {a}",
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

#[test]
fn print_tensor_on_the_command_line() {
    let o = common::cute(&["print_tensor", "counting_iter(0) o (2,3):(3,1)"]);
    assert!(o.status.success(), "{}", common::stderr(&o));
    assert_eq!(
        common::stdout(&o),
        "counting_iter(0) o (2,3):(3,1):\n    0    1    2\n    3    4    5\n"
    );
    let o = common::cute(&["print_tensor", "(2,3):(3,1)"]);
    assert_eq!(o.status.code(), Some(2), "{}", common::stderr(&o));
    assert!(common::stderr(&o).contains("error[BadRequest]"));
}
