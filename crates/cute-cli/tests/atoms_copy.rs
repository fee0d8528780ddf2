//! Copy atoms and tiled copies against CuTe C++ 4.2: every field of every vendored vector of
//! `tests/conformance/atoms/{copy_atoms,tiled_copy}.jsonl` (copied from
//! `../shared/conformance/atoms`) through `cute batch`, compared as exact text with the
//! vectors' underscore-free `cute` form.

mod common;

use serde_json::{json, Value};

fn vectors(file: &str) -> Vec<Value> {
    let path = format!(
        "{}/tests/conformance/atoms/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// One request and the answer it must give.
struct Case {
    label: String,
    request: Value,
    want: String,
}

/// Runs every case through one `cute batch`; returns the disagreements.
fn run(cases: &[Case]) -> Vec<String> {
    let mut input = String::new();
    for c in cases {
        input.push_str(&c.request.to_string());
        input.push('\n');
    }
    let (_, answers) = common::batch(input.as_bytes());
    assert_eq!(answers.len(), cases.len());
    let mut bad = Vec::new();
    for (c, a) in cases.iter().zip(&answers) {
        match a.get("ok").and_then(Value::as_str) {
            Some(got) if got == c.want => {}
            _ => bad.push(format!(
                "{}: {} -> {a}, want {}",
                c.label, c.request, c.want
            )),
        }
    }
    bad
}

fn copy_atom_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for v in vectors("copy_atoms.jsonl") {
        let (name, ty) = (text(&v["args"][0]), text(&v["args"][1]));
        let c = &v["cute"];
        let mut fields = vec![
            ("thr_id", c["thr_id"].clone()),
            ("src_bits", c["bits"]["src"].clone()),
            ("dst_bits", c["bits"]["dst"].clone()),
            ("ref_bits", c["bits"]["ref"].clone()),
            ("src", c["typed"]["src"].clone()),
            ("dst", c["typed"]["dst"].clone()),
            ("ref", c["typed"]["ref"].clone()),
            ("num_val_src", c["num_val_src"].clone()),
            ("num_val_dst", c["num_val_dst"].clone()),
            ("value_bits", v["value_bits"].clone()),
        ];
        if let Some(vid) = c.get("val_id") {
            fields.push(("val_id", vid.clone()));
        }
        for (f, want) in fields {
            cases.push(Case {
                label: format!("copy_atom {name} {ty} {f}"),
                request: json!({"op": "copy_atom", "args": [name, ty, f]}),
                want: text(&want),
            });
        }
    }
    cases
}

fn tiled_copy_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for v in vectors("tiled_copy.jsonl") {
        let op = text(&v["op"]);
        let args: Vec<Value> = v["args"].as_array().expect("args").clone();
        let c = &v["cute"];
        let mut push = |field: &str, extra: Vec<Value>, want: &Value| {
            let mut a = args.clone();
            a.push(json!(field));
            a.extend(extra);
            cases.push(Case {
                label: format!("{op} {field}"),
                request: json!({"op": op, "args": a}),
                want: text(want),
            });
        };
        if op == "make_layout_tv" {
            for f in ["layout_tv", "tiler_mn", "layout_mn"] {
                push(f, vec![], &c[f]);
            }
            continue;
        }
        for f in [
            "tiler_mn",
            "tiled_layout_tv",
            "layout_s_tv",
            "layout_d_tv",
            "size",
        ] {
            push(f, vec![], &c[f]);
        }
        let tensor = c["tensor"].clone();
        for t in c["threads"].as_array().expect("threads") {
            for f in ["partition_s", "offset_s", "partition_d", "offset_d"] {
                push(f, vec![tensor.clone(), t["t"].clone()], &t[f]);
            }
        }
        if let Some(r) = c.get("retile") {
            for f in ["retile_s", "retile_d"] {
                push(f, vec![r["fragment"].clone()], &r[f]);
            }
        }
    }
    cases
}

#[test]
fn copy_atoms_agree_with_cute() {
    let cases = copy_atom_cases();
    let bad = run(&cases);
    println!(
        "copy_atoms.jsonl: {}/{} fields agree",
        cases.len() - bad.len(),
        cases.len()
    );
    assert!(
        bad.is_empty(),
        "{} disagreements:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn tiled_copies_agree_with_cute() {
    let cases = tiled_copy_cases();
    let bad = run(&cases);
    println!(
        "tiled_copy.jsonl: {}/{} fields agree",
        cases.len() - bad.len(),
        cases.len()
    );
    assert!(
        bad.is_empty(),
        "{} disagreements:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
