//! The `latex` operation against CuTe C++ 4.2's `print_latex` (layouts and swizzled layouts,
//! with CuTe's colours and with a colour function given as `--palette`), `print_latex_tv` (thread-value layouts) and
//! `print_latex(TiledMMA)`.
//!
//! `tests/data/latex/cute_latex.jsonl` is written by `scripts/gen-conformance-latex.py` from
//! `tests/data/latex/print_latex.cpp` (compiled host-only against the `nvidia-cutlass==4.2.0.0`
//! headers). Each vector's `latex` answer must be CuTe's text line for line, after the `skip`
//! comment lines in which CuTe prints its own (thread, value) -> coordinate layouts (ours print
//! the TV layouts the arguments name); each `svg` answer must hold the same `T<t> V<v>` in the
//! same cells of A, B and C.

use cute_ops::{run_op, Arg};
use serde_json::Value;

const DATA: &str = include_str!("data/latex/cute_latex.jsonl");

#[test]
fn latex_is_cutes_print_latex() {
    let mut checked = 0;
    for line in DATA.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if v["op"] != "latex" {
            continue;
        }
        let id = v["id"].as_str().unwrap();
        let args = args_of(&v);
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
    assert_eq!(checked, 12);
}

fn args_of(v: &Value) -> Vec<Arg> {
    v["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| Arg::Text(a.as_str().unwrap().to_string()))
        .collect()
}

/// The text of attribute `name` in `line` (`name="..."`).
fn attr<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let at = line.find(&format!(" {name}=\""))? + name.len() + 3;
    line[at..].split('"').next()
}

/// The text of the `<text>` element at the start of `s`, and what follows it.
fn text_element(s: &str) -> (&str, &str) {
    let start = s.find('>').unwrap() + 1;
    let end = s.find("</text>").unwrap();
    (&s[start..end], &s[end + 7..])
}

/// (operand, row, col, t, v) of every cell of CuTe's `print_svg(TiledMMA)`: a 20-unit cell at
/// grid (x, y) holds C(m, n) at (n + K + 2, m + K + 2), A(m, k) at (k + 1, m + K + 2) and
/// B(n, k) at (n + K + 2, k + 1), followed by its texts `T<t>` and `V<v>`.
fn cute_svg_cells(svg: &str) -> Vec<(String, i64, i64, i64, i64)> {
    let tile = svg
        .split("Tile: (")
        .nth(1)
        .unwrap()
        .split(')')
        .next()
        .unwrap();
    let k: i64 = tile
        .split(',')
        .nth(2)
        .unwrap()
        .trim_start_matches('_')
        .parse()
        .unwrap();
    let mut cells = Vec::new();
    for (i, _) in svg.match_indices("<rect ") {
        let line = svg[i..].lines().next().unwrap();
        let (x, y) = (attr(line, "x").unwrap(), attr(line, "y").unwrap());
        let (gx, gy) = (
            x.parse::<i64>().unwrap() / 20,
            y.parse::<i64>().unwrap() / 20,
        );
        let rest = &svg[i + line.len()..];
        let (t, rest) = text_element(&rest[rest.find("<text").unwrap()..]);
        let (v, _) = text_element(&rest[rest.find("<text").unwrap()..]);
        let t: i64 = t.trim_start_matches('T').parse().unwrap();
        let v: i64 = v.trim_start_matches('V').parse().unwrap();
        let cell = match (gx > k + 1, gy > k + 1) {
            (true, true) => ("C", gy - k - 2, gx - k - 2),
            (false, true) => ("A", gy - k - 2, gx - 1),
            (true, false) => ("B", gx - k - 2, gy - 1),
            _ => panic!("cell at {x},{y}"),
        };
        cells.push((cell.0.to_string(), cell.1, cell.2, t, v));
    }
    cells.sort();
    cells
}

/// The same of our SVG: `<rect class="t.." data-op data-row data-col data-t data-v ...>`.
fn our_svg_cells(svg: &str) -> Vec<(String, i64, i64, i64, i64)> {
    let mut cells: Vec<_> = svg
        .lines()
        .filter(|l| l.contains(" data-op=\""))
        .map(|l| {
            let n = |a: &str| attr(l, a).unwrap().parse::<i64>().unwrap();
            let op = attr(l, "data-op").unwrap().to_string();
            (op, n("data-row"), n("data-col"), n("data-t"), n("data-v"))
        })
        .collect();
    cells.sort();
    cells
}

#[test]
fn svg_mma_cells_are_cutes_print_svg() {
    let mut checked = 0;
    for line in DATA.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if v["op"] != "svg" {
            continue;
        }
        let id = v["id"].as_str().unwrap();
        let ours = run_op("svg", &args_of(&v)).unwrap_or_else(|e| panic!("{id}: {e}"));
        let (a, b) = (
            our_svg_cells(&ours),
            cute_svg_cells(v["cute"].as_str().unwrap()),
        );
        assert!(!b.is_empty(), "{id}");
        assert_eq!(a, b, "{id}");
        checked += 1;
    }
    assert_eq!(checked, 2);
}
