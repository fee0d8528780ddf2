//! The `latex` operation against CuTe C++ 4.2's `print_latex` (layouts, with CuTe's colours and
//! with a colour function given as `--palette`), `print_latex_tv` (thread-value layouts) and
//! `print_latex(TiledMMA)`.
//!
//! `tests/data/latex/cute_latex.jsonl` is written by `scripts/gen-conformance-latex.py` from
//! `tests/data/latex/print_latex.cpp` (compiled host-only against the `nvidia-cutlass==4.2.0.0`
//! headers). Each vector's `latex` answer must be CuTe's text line for line, after the `skip`
//! comment lines in which CuTe prints its own (thread, value) -> coordinate layouts (ours print
//! the TV layouts the arguments name).

use cute_ops::{run_op, Arg};
use serde_json::Value;

const DATA: &str = include_str!("data/latex/cute_latex.jsonl");

#[test]
fn latex_is_cutes_print_latex() {
    let mut checked = 0;
    for line in DATA.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let id = v["id"].as_str().unwrap();
        let args: Vec<Arg> = v["args"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| Arg::Text(a.as_str().unwrap().to_string()))
            .collect();
        let skip = v["skip"].as_u64().unwrap() as usize;
        let cute = v["cute"].as_str().unwrap();
        let ours = run_op("latex", &args).unwrap_or_else(|e| panic!("{id}: {e}")) + "\n";
        assert_eq!(
            ours.lines().count(),
            cute.lines().count(),
            "{id}: line count"
        );
        let (a, b): (Vec<&str>, Vec<&str>) = (ours.lines().collect(), cute.lines().collect());
        for k in 0..skip {
            assert!(
                a[k].starts_with('%') && b[k].starts_with('%'),
                "{id}: comment {k}"
            );
        }
        if let Some(k) = (skip..a.len()).find(|&k| a[k] != b[k]) {
            panic!("{id}: line {k} differs\nours: {}\ncute: {}", a[k], b[k]);
        }
        assert!(ours.ends_with("\\end{document}\n") && cute.ends_with("\\end{document}\n"));
        checked += 1;
    }
    assert_eq!(checked, 10);
}
