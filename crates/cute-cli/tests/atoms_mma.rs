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

use crate::common;

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

/// The vendored vectors carry the corrected records (`corrected`: what CuTe 4.2 printed and why
/// it is wrong), and `cute` answers the corrected layout.
#[test]
fn corrected_records_are_vendored_and_answered() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/atoms/mma_atoms.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let mut names = Vec::new();
    for line in text.lines().filter(|l| l.contains("\"corrected\"")) {
        let d: Value = serde_json::from_str(line).unwrap();
        let name = d["args"][0].as_str().unwrap().to_string();
        assert!(
            d["corrected"]
                .as_str()
                .unwrap()
                .starts_with("layout_b_tv: CuTe 4.2 prints ((_4,_8),(_8)):((_32,_1),(_8))"),
            "{name}: {}",
            d["corrected"]
        );
        assert_eq!(
            d["cute"]["layout_b_tv"], "((4,8),(8)):((64,1),(8))",
            "{name}"
        );
        names.push(name);
    }
    assert_eq!(
        names,
        [
            "SM80_16x8x32_S32S4S4S32_TN",
            "SM80_16x8x32_S32S4S4S32_TN_SATURATE",
            "SM80_16x8x32_S32S4U4S32_TN_SATURATE",
            "SM80_16x8x32_S32U4S4S32_TN_SATURATE",
            "SM80_16x8x32_S32U4U4S32_TN",
        ]
    );
    let input: String = names
        .iter()
        .map(|n| {
            format!(
                "{}\n",
                json!({"op": "mma_atom", "args": [n, "layout_b_tv"]})
            )
        })
        .collect();
    let (_, answers) = common::batch(input.as_bytes());
    for a in answers {
        assert_eq!(a, json!({"ok": "((4,8),(8)):((64,1),(8))"}));
    }
}

#[test]
fn tiled_mma_agrees_with_cute() {
    run("tiled_mma.jsonl", 817);
}

/// `fragment_{a,b,c}` (`partition_fragment_A/B/C` of thread 0) against the fragments CuTe
/// printed in `tiled_copy.jsonl` (`make_tiled_copy_A/B/C/C_atom` cases: the MMA's fragment).
#[test]
fn fragments_agree_with_cute() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/atoms/tiled_copy.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let mut cases = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let d: Value = serde_json::from_str(line).unwrap();
        let x = match d["op"].as_str().unwrap() {
            "make_tiled_copy_A" => "a",
            "make_tiled_copy_B" => "b",
            "make_tiled_copy_C" | "make_tiled_copy_C_atom" => "c",
            _ => continue,
        };
        let Some(frag) = d["cute"]["retile"]["fragment"].as_str() else {
            continue;
        };
        let a = d["args"].as_array().unwrap();
        let req = json!({"op": "tiled_mma", "args": [a[2], a[3], a[4], format!("fragment_{x}"), d["cute"]["tensor"], 0]});
        cases.push((req, frag.to_string()));
    }
    assert!(cases.len() >= 15, "{}", cases.len());
    let input: String = cases.iter().map(|(r, _)| format!("{r}\n")).collect();
    let (_, answers) = common::batch(input.as_bytes());
    for ((req, want), got) in cases.iter().zip(&answers) {
        assert_eq!(got["ok"].as_str(), Some(want.as_str()), "{req}");
    }
}

#[test]
fn unknown_atom_names_the_nearest() {
    let (_, a) = common::batch(
        br#"{"op":"mma_atom","args":["SM80_16x8x16_F16F16F16F16_NT","thr_id"]}
{"op":"mma_atom","args":["SM90_64x12x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>","thr_id"]}
{"op":"mma_atom","args":["SM90_64x8x16_F16F16F16_RS<GMMA::Major::K>","thr_id"]}
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

fn ok(args: &[&str]) -> String {
    let o = common::cute(args);
    assert!(o.status.success(), "cute {args:?}: {}", common::stderr(&o));
    common::stdout(&o)
}

#[test]
fn cli_lists_and_prints_atoms() {
    let all = ok(&["atoms"]);
    for arch in [
        "SM61",
        "SM70",
        "SM75",
        "SM80",
        "SM89",
        "SM90",
        "SM100",
        "SM120",
        "Universal",
    ] {
        assert!(
            all.contains(&format!("mma {arch} ")),
            "{arch} missing:\n{all}"
        );
    }
    let sm90 = ok(&["atoms", "sm90"]);
    assert!(sm90.lines().all(|l| l.contains(" SM90 ")), "{sm90}");
    let names = ok(&["atoms", "--names", "SM90_64x256x16_F16F16F16"]);
    assert_eq!(names.lines().count(), 6, "{names}");
    let m = ok(&["mma", "SM80_16x8x16_F16F16F16F16_TN", "--layout", "(2,2,1)"]);
    assert!(
        m.contains("layout_c_tv: ((4,8),(2,2)):((32,1),(16,8))"),
        "{m}"
    );
    assert!(m.contains("thr_layout_vmnk: (32,2,2,1):(1,32,64,0)"), "{m}");
    let o = common::cute(&["mma", "SM80_16x8x16_F16F16F16F16_NT"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(common::stderr(&o).contains("nearest known: SM80_16x8x16_F16F16F16F16_TN"));
}

fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let dec = png::Decoder::new(bytes);
    let mut reader = dec.read_info().expect("PNG");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// `cute svg|png|latex mma`: the PNG's cells have the thread colours the SVG's cells name, and
/// the SVG's cells are the ones the TV layouts give (the library's test checks every cell).
#[test]
fn cli_draws_mma_pictures() {
    let dir = std::env::temp_dir().join(format!("cute-mma-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (svg_path, png_path) = (dir.join("m.svg"), dir.join("m.png"));
    let atom = "SM80_16x8x8_F16F16F16F16_TN";
    ok(&[
        "svg",
        "mma",
        atom,
        "--layout",
        "(1,2,1)",
        "-o",
        svg_path.to_str().unwrap(),
    ]);
    ok(&[
        "png",
        "mma",
        atom,
        "--layout",
        "(1,2,1)",
        "--scale",
        "1",
        "-o",
        png_path.to_str().unwrap(),
    ]);
    let tex = ok(&["latex", "mma", atom, "--layout", "(1,2,1)"]);
    assert!(tex.contains(
        "\\node[fill={rgb,255:red,175;green,175;blue,255}] at (0,0) {\\shortstack{T0 \\\\ V0}};"
    ));
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let img = decode_png(&std::fs::read(&png_path).unwrap());
    let doc = roxmltree::Document::parse(&svg).unwrap();
    // The fill of class `t{k}` in the SVG's style block: one colour per thread of a warp.
    let fill = |k: usize| -> [u8; 3] {
        let at = svg.find(&format!(".t{k}{{fill:#")).unwrap() + format!(".t{k}{{fill:#").len();
        let hex = |i: usize| u8::from_str_radix(&svg[at + i..at + i + 2], 16).unwrap();
        [hex(0), hex(2), hex(4)]
    };
    let palette: Vec<[u8; 3]> = (0..32).map(fill).collect();
    for (i, a) in palette.iter().enumerate() {
        for b in &palette[i + 1..] {
            assert_ne!(a, b, "threads of a warp share a colour");
        }
    }
    let mut cells = 0;
    for n in doc
        .descendants()
        .filter(|n| n.attribute("data-op").is_some())
    {
        let f = |k: &str| n.attribute(k).unwrap().parse::<f64>().unwrap();
        let t = f("data-t") as usize;
        let (x, y) = ((f("x") + 3.0) as u32, (f("y") + 3.0) as u32);
        let i = ((y * img.0 + x) * 3) as usize;
        let got = [img.2[i], img.2[i + 1], img.2[i + 2]];
        let want: [u8; 3] = palette[t % 32];
        assert!(
            got.iter().zip(want).all(|(&g, w)| g.abs_diff(w) <= 2),
            "cell {x},{y}: {got:?} vs {want:?}"
        );
        cells += 1;
    }
    // C 16x16, A 16x8, B 16x8.
    assert_eq!(cells, 16 * 16 + 16 * 8 + 16 * 8);
    let _ = std::fs::remove_dir_all(&dir);
}
