//! Copy atoms and tiled copies against CuTe C++ 4.2: every field of every vendored vector of
//! `tests/conformance/atoms/{copy_atoms,tiled_copy}.jsonl` (copied from
//! `../shared/conformance/atoms`) through `cute batch`, compared as exact text with the
//! vectors' underscore-free `cute` form.

use crate::common;

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

/// Runs `cases` (read from `file`), prints how many agree, and asserts that there are at least
/// `min_cases` of them and that every one agrees.
fn agree(file: &str, cases: &[Case], min_cases: usize) {
    let bad = run(cases);
    println!(
        "{file}: {}/{} fields agree",
        cases.len() - bad.len(),
        cases.len()
    );
    assert!(
        cases.len() >= min_cases,
        "{file}: {} cases, fewer than {min_cases}",
        cases.len()
    );
    assert!(
        bad.is_empty(),
        "{} disagreements:\n{}",
        bad.len(),
        bad.join("\n")
    );
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

fn tiled_copy_cases(file: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for v in vectors(file) {
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
    agree("copy_atoms.jsonl", &cases, 0);
}

#[test]
fn tiled_copies_agree_with_cute() {
    let cases = tiled_copy_cases("tiled_copy.jsonl");
    agree("tiled_copy.jsonl", &cases, 0);
}

#[test]
fn cli_copy_prints_the_atom_and_the_tiled_copy() {
    let o = common::cute(&[
        "copy",
        "SM75_U32x4_LDSM_N",
        "half_t",
        "--thr",
        "(32,1):(1,0)",
        "--val",
        "(1,8):(0,1)",
    ]);
    assert!(o.status.success(), "{}", common::stderr(&o));
    let out = common::stdout(&o);
    for line in [
        "  ThrID:        32:1",
        "  ValLayoutDst: (32,(2,4)):(2,(1,64))",
        "  NumValSrc:    8",
        "  Tiler_MN:       (32,8)",
        "  layout_D_TV:    (32,(8,1)):(1,(32,0))",
    ] {
        assert!(out.lines().any(|l| l == line), "{line:?} not in\n{out}");
    }
    let o = common::cute(&[
        "copy",
        "SM75_U32x4_LDSM_N",
        "half_t",
        "--mma",
        "SM80_16x8x16_F16F16F16F16_TN",
        "--layout",
        "(2,2,1)",
        "--permutation",
        "(32,32,16)",
        "--operand",
        "A",
    ]);
    assert!(
        common::stdout(&o).contains("  layout_S_TV:    ((16,2,2,2),(8,1)):((1,256,16,0),(32,0))")
    );
    let o = common::cute(&["copy", "SM75_U32x4_LDSM_T", "half_t"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(common::stderr(&o).contains("nearest known: SM75_U32x4_LDSM_N"));
}

#[test]
fn cli_copy_pictures() {
    let dir = std::env::temp_dir().join(format!("cute-copy-pictures-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let args = [
        "copy",
        "UniversalCopy<uint32_t>",
        "float",
        "--thr",
        "(2,2):(1,2)",
        "--val",
        "(1,2):(0,1)",
    ];
    let o = common::cute(&[&["latex"][..], &args].concat());
    assert!(o.status.success(), "{}", common::stderr(&o));
    let tex = common::stdout(&o);
    assert!(tex.contains(
        "\\node[fill={rgb,255:red,175;green,255;blue,175}] at (1,0) {\\shortstack{T1 \\\\ V0}};"
    ));
    assert!(tex.contains("\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,7) grid (2,11);"));
    for (cmd, file) in [("svg", "c.svg"), ("png", "c.png")] {
        let path = dir.join(file);
        let p = path.to_str().unwrap();
        let o = common::cute(&[&[cmd][..], &args, &["-o", p]].concat());
        assert!(o.status.success(), "{cmd}: {}", common::stderr(&o));
        assert!(std::fs::metadata(&path).unwrap().len() > 100);
    }
    let svg = std::fs::read_to_string(dir.join("c.svg")).unwrap();
    for t in 0..4 {
        for v in 0..2 {
            assert_eq!(
                svg.matches(&format!(">T{t} V{v}<")).count(),
                2,
                "T{t} V{v} in source and destination"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// More swizzled-tensor partitions (`tiled_copy_swizzle_extra.jsonl`, printed by
/// `tiled_copy_swizzle_extra.cpp` beside it, compiled host-only against CuTe 4.2 as the shared
/// vectors were): other swizzles, column-major tensors, LDSM/STSM atoms, and partitions that
/// stay swizzled (CuTe then prints the inner offset as `M_0|(d&F)=v`). Compared after removing
/// the `_` in front of digits, as the shared vectors' `cute` text.
#[test]
fn swizzled_partitions_agree_with_cute() {
    let norm = |v: &Value| {
        let s = text(v);
        let mut out = String::with_capacity(s.len());
        let b: Vec<char> = s.chars().collect();
        for (i, &c) in b.iter().enumerate() {
            if c == '_' && b.get(i + 1).is_some_and(|d| d.is_ascii_digit()) {
                continue;
            }
            out.push(c);
        }
        out
    };
    let mut cases = Vec::new();
    for v in vectors("tiled_copy_swizzle_extra.jsonl") {
        for f in ["partition_s", "offset_s", "partition_d", "offset_d"] {
            let args = json!([
                v["atom"],
                v["ty"],
                v["thr"],
                v["val"],
                f,
                v["tensor"],
                v["t"]
            ]);
            cases.push(Case {
                label: format!("swizzle {} {} t={}", v["atom"], v["tensor"], v["t"]),
                request: json!({"op": "make_tiled_copy", "args": args}),
                want: norm(&v[f]),
            });
        }
    }
    agree("tiled_copy_swizzle_extra.jsonl", &cases, 0);
}

/// Every (copy atom, value type) pair `cute` accepts for ten value types (`float`, `half_t`,
/// `uint8_t`, `double`, `bfloat16_t`, `uint128_t`, `int4_t`, `float_e2m3_t`, `complex<float>`,
/// `uint1_t`): 1,603 pairs, printed by CuTe C++ 4.2 (`gen_copy_atoms_extra.py` writes the C++
/// program; CuTe compiled every pair, so it accepts every pair we accept).
#[test]
fn every_atom_and_type_agrees_with_cute() {
    let mut cases = Vec::new();
    for v in vectors("copy_atoms_extra.jsonl") {
        let (name, ty) = (text(&v["args"][0]), text(&v["args"][1]));
        for f in ["thr_id", "src", "dst", "ref", "num_val_src", "num_val_dst"] {
            let want: String = text(&v[f]).replace("_", "");
            cases.push(Case {
                label: format!("copy_atom {name} {ty} {f}"),
                request: json!({"op": "copy_atom", "args": [name, ty, f]}),
                want,
            });
        }
    }
    agree("copy_atoms_extra.jsonl", &cases, 9001);
}

/// 34 more TiledCopy configurations in the shared vectors' format (`tiled_copy_extra.jsonl`,
/// printed by CuTe C++ 4.2 from the program `gen_tiled_copy_extra.py` writes, with
/// `tiled_copy_extra.hpp`): other atoms (LDSM x1/x2, MOVM, XOR4 shuffle, SM100 U8 LDSM/STSM,
/// 256-bit loads, DefaultCopy, AutoVectorizingCopy, cp.async ZFILL), rank-3 thread layouts,
/// 64-thread LDSM tilings, and make_tiled_copy_A/B/C/C_atom over SM80 F16/BF16/TF32/F64/S8 and
/// SM90 GMMA tiled MMAs, with column-major, row-major and swizzled tensors.
#[test]
fn more_tiled_copies_agree_with_cute() {
    let cases = tiled_copy_cases("tiled_copy_extra.jsonl");
    agree("tiled_copy_extra.jsonl", &cases, 500);
}

/// `make_cotiled_copy` through the batch protocol (CuTe 4.2's answer; the library test
/// `copy_laws.rs` checks more configurations).
#[test]
fn cotiled_copy_through_batch() {
    let args = json!([
        "UniversalCopy<uint128_t>",
        "half_t",
        "((8,16),8):((8,64),1)",
        "(32,64):(64,1)"
    ]);
    let cases: Vec<Case> = [
        ("tiler_mn", "(16:1,(8,8):(8,1))"),
        ("tiled_layout_tv", "((8,16),8):((16,1),128)"),
        ("layout_s_tv", "((8,16),(8,1)):((16,1),(128,0))"),
    ]
    .iter()
    .map(|(f, want)| {
        let mut a = args.as_array().unwrap().clone();
        a.push(json!(f));
        Case {
            label: format!("make_cotiled_copy {f}"),
            request: json!({"op": "make_cotiled_copy", "args": a}),
            want: want.to_string(),
        }
    })
    .collect();
    let bad = run(&cases);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
