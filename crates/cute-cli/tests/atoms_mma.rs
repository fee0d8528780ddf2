//! MMA atoms and tiled MMAs against CuTe C++ 4.2: every field of every vendored case of
//! `tests/conformance/atoms/{mma_atoms,tiled_mma}.jsonl` (copied from
//! `../shared/conformance/atoms`, see the README there) through `cute batch`, exact text
//! (the underscore-free `cute` form).
//!
//! * `mma_atoms.jsonl`: `{"op":"mma_atom","args":[NAME, FIELD]}` for every field of `cute`
//!   (`thr_id`, `shape_mnk`, `layout_{a,b,c}_tv`, SM120 block-scaled `layout_sf{a,b}_tv`);
//! * `tiled_mma.jsonl`: `{"op":"tiled_mma","args":[ATOM, ATOM_LAYOUT, PERMUTATION, FIELD]}` for
//!   the seven tile fields, and `[..., FIELD, GMEM_LAYOUT, THREAD]` for `partition_{a,b,c}` and
//!   `offset_{a,b,c}` of both recorded threads.

mod common;

use std::path::Path;

use serde_json::{json, Value};

/// Requests and the answers CuTe gave, for one file.
fn cases(file: &str) -> Vec<(Value, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/conformance/atoms")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let d: Value = serde_json::from_str(line).expect("JSON line");
        let args: Vec<Value> = d["args"].as_array().expect("args").clone();
        let cute = &d["cute"];
        let text = |v: &Value| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        match d["op"].as_str().expect("op") {
            "mma_atom" => {
                for (field, v) in cute.as_object().expect("cute") {
                    out.push((json!({"op": "mma_atom", "args": [args[0], field]}), text(v)));
                }
            }
            "tiled_mma" => {
                for field in [
                    "thr_layout_vmnk",
                    "permutation_mnk",
                    "layout_a_tv",
                    "layout_b_tv",
                    "layout_c_tv",
                    "tile_size_mnk",
                    "size",
                ] {
                    let mut a = args.clone();
                    a.push(json!(field));
                    out.push((json!({"op": "tiled_mma", "args": a}), text(&cute[field])));
                }
                for th in cute["threads"].as_array().expect("threads") {
                    for x in ["a", "b", "c"] {
                        for f in ["partition_", "offset_"] {
                            let mut a = args.clone();
                            a.push(json!(format!("{f}{x}")));
                            a.push(cute["gmem"][x].clone());
                            a.push(th["t"].clone());
                            out.push((
                                json!({"op": "tiled_mma", "args": a}),
                                text(&th[format!("{f}{x}")]),
                            ));
                        }
                    }
                }
            }
            other => panic!("unexpected op {other}"),
        }
    }
    out
}

fn run(file: &str, expect_cases: usize) {
    let cases = cases(file);
    let input: String = cases.iter().map(|(r, _)| format!("{r}\n")).collect();
    let (_, answers) = common::batch(input.as_bytes());
    assert_eq!(answers.len(), cases.len());
    let mut bad = Vec::new();
    for ((req, want), got) in cases.iter().zip(&answers) {
        if got["ok"].as_str() != Some(want.as_str()) {
            bad.push(format!("{req} -> {got}, CuTe: {want}"));
        }
    }
    println!(
        "{file}: {} of {} fields agree",
        cases.len() - bad.len(),
        cases.len()
    );
    assert!(
        bad.is_empty(),
        "{} disagree:\n{}",
        bad.len(),
        bad.join("\n")
    );
    assert!(
        cases.len() >= expect_cases,
        "{file}: only {} fields",
        cases.len()
    );
}

#[test]
fn mma_atoms_agree_with_cute() {
    run("mma_atoms.jsonl", 1244);
}

#[test]
fn tiled_mma_agrees_with_cute() {
    run("tiled_mma.jsonl", 817);
}

#[test]
fn unknown_atom_names_the_nearest() {
    let (_, a) = common::batch(
        br#"{"op":"mma_atom","args":["SM80_16x8x16_F16F16F16F16_NT","thr_id"]}
{"op":"mma_atom","args":["SM90_64x12x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>","thr_id"]}
{"op":"mma_atom","args":["SM90_64x8x16_F16F16F16_RS<GMMA::Major::MN,GMMA::Major::K>","thr_id"]}
{"op":"mma_atom","args":["SM80_16x8x16_F16F16F16F16_TN","layout_d_tv"]}
{"op":"tiled_mma","args":["SM80_16x8x16_F16F16F16F16_TN","_","_","partition_a","(32,32):(1,32)",32]}
"#,
    );
    assert_eq!(a[0]["kind"], "UnknownAtom");
    assert!(
        a[0]["error"]
            .as_str()
            .unwrap()
            .contains("nearest known: SM80_16x8x16_F16F16F16F16_TN"),
        "{}",
        a[0]
    );
    assert_eq!(a[1]["kind"], "UnknownAtom");
    assert_eq!(a[2]["kind"], "BadArgument");
    assert_eq!(a[3]["kind"], "BadArgument");
    assert_eq!(a[4]["kind"], "BadArgument");
}
