//! Pictures (issue 4): SVG, TikZ, thread-value, bank and operation pictures. Every SVG is parsed
//! as XML and its cells and labels are checked against the layout evaluated point by point.

use crate::common;

use cute_layout::render::{self, Access, Banks, Op, Style};
use cute_layout::{IntTuple, Layout, LayoutError, Tiler};
use proptest::prelude::*;

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

#[path = "support/svg.rs"]
mod svg;
use svg::parse;

/// The grid values of a layout, row-major, by brute force: rows = size of mode 0 (1 for rank
/// 1), cell (m, n) = L(m + rows * n).
fn grid_values(a: &Layout) -> Vec<i64> {
    let rows = if a.rank() >= 2 {
        a.mode(0).unwrap().size()
    } else {
        1
    };
    let cols = a.size() / rows;
    let mut v = Vec::new();
    for m in 0..rows {
        for n in 0..cols {
            v.push(a.index_1d(m + rows * n).unwrap());
        }
    }
    v
}

fn check_layout_svg(a: &Layout) {
    let svg = render::svg(a, &Style::new()).unwrap();
    let p = parse(&svg);
    assert_eq!(p.panels.len(), 1);
    let panel = &p.panels[0];
    let want = grid_values(a);
    let (classes, labels) = (panel.classes(), panel.labels());
    assert_eq!(classes.len(), want.len(), "{a}: one cell per point");
    assert_eq!(labels.len(), want.len(), "{a}: one label per point");
    for (k, v) in want.iter().enumerate() {
        assert_eq!(labels[k], v.to_string(), "{a}: label of cell {k}");
        assert_eq!(
            classes[k],
            format!("o{}", v.rem_euclid(8)),
            "{a}: colour of cell {k}"
        );
        assert!(p.styles.contains(&format!(".o{}{{fill:#", v.rem_euclid(8))));
    }
    assert_eq!(panel.title, a.to_string());
}

#[test]
fn svg_cells_and_labels_match_the_layout() {
    for s in [
        "8:1",
        "(8):(2)",
        "((4,2)):((2,1))",
        "(2,4):(4,1)",
        "(2,(2,2)):(4,(2,1))",
        "(3,(2,3)):(3,(12,1))",
        "((2,2),(2,3)):((4,1),(2,8))",
        "(4,2,3):(2,1,8)",
        "(3,4):(-1,3)",
        "(4,8):(0,1)",
        "1:0",
    ] {
        check_layout_svg(&l(s));
    }
}

#[test]
fn svg_headers_show_natural_coordinates() {
    // Issue 4: columns of (2,(2,2)) are labelled (0,0) (1,0) (0,1) (1,1).
    let svg = render::svg(&l("(2,(2,2)):(4,(2,1))"), &Style::new()).unwrap();
    let pos: Vec<usize> = ["(0,0)", "(1,0)", "(0,1)", "(1,1)"]
        .iter()
        .map(|c| svg.find(&format!(">{c}</text>")).unwrap())
        .collect();
    assert!(pos.windows(2).all(|w| w[0] < w[1]), "in column order");
    // Rows of ((2,2),3) get natural row coordinates too, and a heavier line every 2 rows.
    let svg = render::svg(&l("((2,2),3):((1,6),2)"), &Style::new()).unwrap();
    for c in ["(0,0)", "(1,0)", "(0,1)", "(1,1)"] {
        assert!(svg.contains(&format!(">{c}</text>")), "row coordinate {c}");
    }
    assert!(svg.contains("<path class=\"g1\""));
}

#[test]
fn svg_notes_say_how_other_ranks_are_drawn() {
    let svg = render::svg(&l("(4,2,3):(2,1,8)"), &Style::new()).unwrap();
    assert!(svg.contains("rank 3: rows are mode 0, columns are modes 1..3 grouped"));
    let svg = render::svg(&l("8:2"), &Style::new()).unwrap();
    assert!(svg.contains("rank 1: drawn as one row of 8"));
}

#[test]
fn svg_escapes_titles() {
    let svg = render::svg(&l("4:1"), &Style::new().title("Sw<1,0,1> o 0 & \"x\"")).unwrap();
    parse(&svg);
    assert!(svg.contains("Sw&lt;1,0,1&gt; o 0 &amp; &quot;x&quot;"));
}

#[test]
fn pictures_refuse_huge_layouts_at_once() {
    let huge = l("(1048576,1048576):(1,1048576)"); // 2^40 points
    let t0 = std::time::Instant::now();
    let tile: IntTuple = "(1048576,1048576)".parse().unwrap();
    let errs = [
        render::svg(&huge, &Style::new()).unwrap_err(),
        render::latex(&huge, &Style::new()).unwrap_err(),
        render::svg_banks(&huge, Banks::default(), Access::Rows, &Style::new()).unwrap_err(),
        render::bank_conflicts(&huge, Banks::default(), Access::Rows, &Style::new()).unwrap_err(),
        render::svg_tv(&l("(32,4):(1,32)"), &tile, &Style::new()).unwrap_err(),
        render::svg_tv(&huge, &"(4,4)".parse().unwrap(), &Style::new()).unwrap_err(),
        render::latex_tv(&huge, &"(4,4)".parse().unwrap(), &Style::new()).unwrap_err(),
        render::svg_op(
            Op::LogicalDivide,
            &huge,
            &"(2,2)".parse().unwrap(),
            &Style::new(),
        )
        .unwrap_err(),
    ];
    for e in &errs {
        assert_eq!(e.kind(), "TooLarge", "{e}");
    }
    assert_eq!(
        errs[0].to_string(),
        "svg: layout (1048576,1048576):(1,1048576) has 1099511627776 cells, more than a picture may show (the limit is 65536)"
    );
    assert!(t0.elapsed().as_millis() < 500, "refusals are immediate");
}

#[test]
fn svg_128x128_is_fast_and_compact() {
    let a = l("(128,128):(128,1)");
    let t0 = std::time::Instant::now();
    let svg = render::svg(&a, &Style::new()).unwrap();
    let dt = t0.elapsed();
    eprintln!("128x128 SVG: {} bytes in {dt:?}", svg.len());
    // Measured: about 15 ms at opt-level 1 (the test profile); well under a second.
    assert!(dt.as_millis() < 1000, "128x128 took {dt:?}");
    // About 80 bytes per cell: one rect with a class, one text; no per-cell style.
    assert!(svg.len() < 2_000_000, "{} bytes", svg.len());
    assert!(svg.matches("style=").count() <= 1);
    let p = parse(&svg);
    assert_eq!(p.panels[0].classes().len(), 128 * 128);
}

/// CuTe's `Sw<B,M,S>` on an offset, for tests only (the library's swizzles come separately).
fn swizzle(b: u32, m: u32, s: u32) -> impl Fn(i64) -> i64 {
    move |x: i64| x ^ ((x & (((1i64 << b) - 1) << (m + s))) >> s)
}

#[test]
fn post_map_hook_draws_a_swizzled_layout() {
    let a = l("(8,8):(8,1)");
    let sw = swizzle(3, 0, 3);
    let style = Style::new()
        .post_map(&sw)
        .title("Sw<3,0,3> o 0 o (8,8):(8,1)");
    let p = parse(&render::svg(&a, &style).unwrap());
    let want: Vec<i64> = grid_values(&a).into_iter().map(&sw).collect();
    let got: Vec<i64> = p.panels[0]
        .labels()
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(got, want);
    assert_eq!(p.panels[0].title, "Sw<3,0,3> o 0 o (8,8):(8,1)");
    // Row m holds 8m + (n ^ m): a permutation of the row.
    assert_eq!(&got[8..16], &[9, 8, 11, 10, 13, 12, 15, 14]);
    // TikZ through the same hook.
    let tex = render::latex(&a, &style).unwrap();
    assert!(tex.starts_with("% Layout: Sw<3,0,3> o 0 o (8,8):(8,1)\n"));
    assert!(tex.contains("\\node[fill=black!40] at (1,0) {9};\n"));
}

#[test]
fn post_map_hook_removes_bank_conflicts() {
    // A warp reading a column of a 32x32 row-major float tile: 32-way conflict; Sw<5,0,5> fixes it.
    let a = l("(32,32):(32,1)");
    let banks = Banks::new(32, 4).unwrap();
    let plain = render::bank_conflicts(&a, banks, Access::Columns, &Style::new()).unwrap();
    assert_eq!(plain.requests.len(), 32);
    assert_eq!(
        (plain.max_wavefronts(), plain.wavefronts(), plain.ideal()),
        (32, 1024, 32)
    );
    let sw = swizzle(5, 0, 5);
    let sty = Style::new().post_map(&sw);
    let fixed = render::bank_conflicts(&a, banks, Access::Columns, &sty).unwrap();
    assert!(fixed.is_conflict_free());
    assert_eq!(fixed.wavefronts(), 32);
    let svg = render::svg_banks(&a, banks, Access::Columns, &sty).unwrap();
    assert!(svg.contains("0 extra from bank conflicts"));
}

/// Independent model: wavefronts = max over banks of the distinct 4-byte words in that bank.
fn model_wavefronts(offsets: &[i64], banks: i64, elem: i64) -> (usize, usize) {
    let mut words: Vec<i64> = offsets
        .iter()
        .flat_map(|&x| (x * elem..(x + 1) * elem).map(|byte| byte.div_euclid(4)))
        .collect();
    words.sort();
    words.dedup();
    let mut per = vec![0usize; banks as usize];
    for w in &words {
        per[w.rem_euclid(banks) as usize] += 1;
    }
    (
        per.into_iter().max().unwrap_or(0),
        words.len().div_ceil(banks as usize),
    )
}

#[test]
fn bank_model_examples() {
    let b = Banks::new(32, 4).unwrap();
    // Row-major 32x32 floats, a warp per row: conflict-free.
    let r = render::bank_conflicts(&l("(32,32):(32,1)"), b, Access::Rows, &Style::new()).unwrap();
    assert!(r.is_conflict_free());
    // Padding by one element (stride 33) makes columns conflict-free too.
    let r =
        render::bank_conflicts(&l("(32,32):(33,1)"), b, Access::Columns, &Style::new()).unwrap();
    assert!(r.is_conflict_free());
    // Broadcast: every thread reads offset 0.
    let r = render::bank_conflicts(&l("(1,32):(0,0)"), b, Access::Rows, &Style::new()).unwrap();
    assert_eq!((r.requests[0].words, r.max_wavefronts()), (1, 1));
    // 8-byte elements: 32 threads read 256 bytes, at best 2 wavefronts.
    let b8 = Banks::new(32, 8).unwrap();
    let r = render::bank_conflicts(&l("(1,32):(0,1)"), b8, Access::Rows, &Style::new()).unwrap();
    assert_eq!((r.requests[0].wavefronts, r.requests[0].ideal), (2, 2));
    // 2-byte elements 64 apart (128 bytes, 32 words): every thread in bank 0, 32-way.
    let b2 = Banks::new(32, 2).unwrap();
    let r = render::bank_conflicts(&l("(1,32):(0,64)"), b2, Access::Rows, &Style::new()).unwrap();
    assert_eq!(r.max_wavefronts(), 32);
    assert_eq!(
        r.to_string(),
        "32 banks x 4 B, 2-byte elements, each row is one request: 1 request, 32 wavefronts (ideal 1), 31 extra from bank conflicts, worst request 32 wavefronts"
    );
    // Chunks of 32 consecutive coordinates of a column-major 32x4: each chunk is a column.
    let r =
        render::bank_conflicts(&l("(32,4):(1,32)"), b, Access::Chunks(32), &Style::new()).unwrap();
    assert_eq!(r.requests.len(), 4);
    assert!(r.is_conflict_free());
    // Bad parameters.
    assert_eq!(Banks::new(0, 4).unwrap_err().kind(), "InvalidArgument");
    assert_eq!(Banks::new(32, 0).unwrap_err().kind(), "InvalidArgument");
    assert_eq!(
        render::bank_conflicts(&l("4:1"), b, Access::Chunks(0), &Style::new())
            .unwrap_err()
            .kind(),
        "InvalidArgument"
    );
}

#[test]
fn bank_svg_cells_show_offset_and_bank() {
    let a = l("(4,8):(1,4)");
    let b = Banks::new(8, 4).unwrap();
    let p = parse(&render::svg_banks(&a, b, Access::Rows, &Style::new()).unwrap());
    let want = grid_values(&a);
    assert_eq!(p.panels[0].labels().len(), 32);
    for (k, v) in want.iter().enumerate() {
        assert_eq!(p.panels[0].labels()[k], format!("{v}|b{}", v % 8));
        assert_eq!(p.panels[0].classes()[k], format!("b{}", v % 8));
    }
    for k in 0..8 {
        assert!(p.styles.contains(&format!(".b{k}{{fill:#")));
    }
}

#[test]
fn tv_picture_of_an_mma_accumulator() {
    let tv = l("((4,8),(2,2)):((16,1),(8,64))");
    let tile: IntTuple = "(16,8)".parse().unwrap();
    let p = parse(&render::svg_tv(&tv, &tile, &Style::new()).unwrap());
    let cells = &p.panels[0];
    assert_eq!(cells.labels().len(), 128);
    // Brute force: every (t, v) lands at cell (idx % 16, idx / 16), row-major index m*8 + n.
    let mut want = vec![String::new(); 128];
    let mut class = vec![String::new(); 128];
    for t in 0..32 {
        for v in 0..4 {
            let idx = tv.index_1d(t + 32 * v).unwrap();
            let (m, n) = (idx % 16, idx / 16);
            want[(m * 8 + n) as usize] = format!("T{t} V{v}");
            class[(m * 8 + n) as usize] = format!("t{}", t % 32);
        }
    }
    assert_eq!(cells.labels(), want);
    assert_eq!(cells.classes(), class);
    assert_eq!(cells.labels()[0], "T0 V0");
    assert_eq!(cells.labels()[1], "T1 V0");
}

#[test]
fn tv_marks_unreached_and_shared_cells() {
    // 4 threads x 2 values; value 1 lands on value 0's cell: cells 0..4 twice, 4..8 never.
    let tv = l("(4,2):(1,0)");
    let tile: IntTuple = "(4,2)".parse().unwrap();
    let svg = render::svg_tv(&tv, &tile, &Style::new()).unwrap();
    let p = parse(&svg);
    let c = &p.panels[0];
    assert_eq!(c.classes().iter().filter(|k| *k == "multi").count(), 4);
    assert_eq!(c.classes().iter().filter(|k| *k == "none").count(), 4);
    assert_eq!(c.labels()[0], "T0 V0 +1");
    assert!(svg.contains("4 cells reached by no (thread, value) pair (grey)"));
    assert!(svg.contains("4 cells reached by several pairs"));
    let tex = render::latex_tv(&tv, &tile, &Style::new()).unwrap();
    assert_eq!(tex.matches("\\shortstack").count(), 4);
    assert_eq!(tex.matches("\\node[fill=black!30]").count(), 4);
    assert_eq!(tex.matches("ultra thick").count(), 4);
}

#[test]
fn tv_errors() {
    let tile: IntTuple = "(4,4)".parse().unwrap();
    let e = render::svg_tv(&l("(4,8):(1,4)"), &tile, &Style::new()).unwrap_err();
    assert_eq!(e.kind(), "InvalidArgument");
    assert_eq!(
        e.to_string(),
        "svg_tv: thread 0 value 4 of TV layout (4,8):(1,4) maps to index 16, outside the tile (4,4) of 16 cells"
    );
    let e = render::svg_tv(&l("16:1"), &tile, &Style::new()).unwrap_err();
    assert!(matches!(
        e,
        LayoutError::RankMismatch {
            expected: 2,
            found: 1,
            ..
        }
    ));
    let e = render::svg_tv(&l("(4,4):(1,4)"), &"16".parse().unwrap(), &Style::new()).unwrap_err();
    assert_eq!(e.kind(), "RankMismatch");
    let e =
        render::svg_tv(&l("(4,4):(1,4)"), &"(4,0)".parse().unwrap(), &Style::new()).unwrap_err();
    assert_eq!(e.kind(), "InvalidExtent");
}

#[test]
fn latex_matches_cutes_print_latex() {
    // cute_algorithms.md 7.3, verified for (_2,_3):(_3,_1).
    let want = "% Layout: (2,3):(3,1)
\\documentclass[convert]{standalone}
\\usepackage{tikz}

\\begin{document}
\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]

\\node[fill=black!00] at (0,0) {0};
\\node[fill=black!40] at (0,1) {1};
\\node[fill=black!20] at (0,2) {2};
\\node[fill=black!60] at (1,0) {3};
\\node[fill=black!10] at (1,1) {4};
\\node[fill=black!50] at (1,2) {5};
\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid (2,3);

\\node at (0,-1) {\\Large{\\texttt{0}}};
\\node at (1,-1) {\\Large{\\texttt{1}}};
\\node at (-1,0) {\\Large{\\texttt{0}}};
\\node at (-1,1) {\\Large{\\texttt{1}}};
\\node at (-1,2) {\\Large{\\texttt{2}}};
\\end{tikzpicture}
\\end{document}
";
    assert_eq!(
        render::latex(&l("(2,3):(3,1)"), &Style::new()).unwrap(),
        want
    );
    // Rank 1: padded to a column, as CuTe's append<2>(layout, 1:0).
    for (s, pad) in [
        ("3:2", "(3,1):(2,0)"),
        ("(3):(2)", "(3,1):(2,0)"),
        ("((2,2)):((1,4))", "((2,2),1):((1,4),0)"),
    ] {
        let tex = render::latex(&l(s), &Style::new()).unwrap();
        assert!(tex.starts_with(&format!("% Layout: {pad}\n")), "{s}: {tex}");
    }
    // Rank 3: modes 1..3 grouped (CuTe refuses).
    let tex = render::latex(&l("(2,2,2):(1,2,4)"), &Style::new()).unwrap();
    assert!(tex.starts_with("% Layout: (2,(2,2)):(1,(2,4))\n"));
    assert!(tex.contains("grid (2,4);"));
}

#[test]
fn latex_tv_matches_cutes_format() {
    let tv = l("((4,8),(2,2)):((16,1),(8,64))");
    let tex = render::latex_tv(&tv, &"(16,8)".parse().unwrap(), &Style::new()).unwrap();
    let lines: Vec<&str> = tex.lines().collect();
    assert_eq!(lines[0], "% Layout TV: ((4,8),(2,2)):((16,1),(8,64))");
    assert_eq!(
        lines[7],
        "\\node[fill={rgb,255:red,175;green,175;blue,255}] at (0,0) {\\shortstack{T0 \\\\ V0}};"
    );
    // Thread 0's values in order: (0,0), (8,0), (0,4), (8,4).
    assert_eq!(
        lines[8],
        "\\node[fill={rgb,255:red,175;green,175;blue,255}] at (8,0) {\\shortstack{T0 \\\\ V1}};"
    );
    assert_eq!(
        lines[11],
        "\\node[fill={rgb,255:red,175;green,255;blue,175}] at (0,1) {\\shortstack{T1 \\\\ V0}};"
    );
    assert_eq!(
        lines[7 + 128],
        "\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid (16,8);"
    );
    assert_eq!(lines.len(), 7 + 128 + 2 + 16 + 8 + 2);
}

#[test]
fn op_pictures_put_operands_beside_the_result() {
    // 02_layout_algebra.md, Logical Divide 1-D example.
    let a = l("(4,2,3):(2,1,8)");
    let t: Tiler = "4:2".parse().unwrap();
    let p = parse(&render::svg_op(Op::LogicalDivide, &a, &t, &Style::new()).unwrap());
    assert_eq!(p.panels.len(), 3);
    assert_eq!(p.panels[0].title, "A = (4,2,3):(2,1,8)");
    assert_eq!(p.panels[1].title, "B = 4:2");
    assert_eq!(
        p.panels[2].title,
        "logical_divide(A, B) = ((2,2),(2,3)):((4,1),(2,8))"
    );
    // The first tile is column 0 of the 4x6 result: outline = 1 top + 1 bottom + 4 left + 4 right.
    assert_eq!(p.panels[2].highlight_segments, 10);
    // In A, the tile's values 0,1,4,5 sit in two 1x2 blocks: 2 * (2 + 2 + 1 + 1).
    assert_eq!(p.panels[0].highlight_segments, 12);
    // Labels of the result are its values.
    let r = a.logical_divide(&t).unwrap();
    let want: Vec<String> = grid_values(&r).iter().map(|v| v.to_string()).collect();
    assert_eq!(p.panels[2].labels(), want);

    // 2-D divide: tile (2,4) of an 8x8: a 2x4 block in the result.
    let a = l("(8,8):(8,1)");
    let t: Tiler = "(2,4)".parse().unwrap();
    let p = parse(&render::svg_op(Op::LogicalDivide, &a, &t, &Style::new()).unwrap());
    // Result ((2,4),(4,2)): tile rows {0,1}, tile columns {0..3}: perimeter 4+4+2+2.
    assert_eq!(p.panels[2].highlight_segments, 12);
    assert_eq!(p.panels[0].highlight_segments, 12);

    // Products: the first copy of A in the result, B's cell 0.
    let a = l("(2,5):(5,1)");
    let b: Tiler = "(3,4):(1,3)".parse().unwrap();
    for op in [Op::BlockedProduct, Op::RakedProduct, Op::LogicalProduct] {
        let svg = render::svg_op(op, &a, &b, &Style::new()).unwrap();
        let p = parse(&svg);
        assert_eq!(p.panels.len(), 3, "{op}");
        assert_eq!(p.panels[1].highlight_segments, 4, "{op}: cell 0 of B");
        assert!(p.panels[2].highlight_segments >= 4, "{op}");
    }
    // The blocked product's first block is the 2x5 top-left block: 5 + 5 + 2 + 2.
    let p = parse(&render::svg_op(Op::BlockedProduct, &a, &b, &Style::new()).unwrap());
    assert_eq!(p.panels[2].highlight_segments, 14);

    // Composition: the cells of A that B selects.
    let a = l("(6,2):(8,2)");
    let b: Tiler = "(4,3):(3,1)".parse().unwrap();
    let p = parse(&render::svg_op(Op::Composition, &a, &b, &Style::new()).unwrap());
    assert_eq!(
        p.panels[2].title,
        "composition(A, B) = ((2,2),3):((24,2),8)"
    );
    assert!(p.panels[0].highlight_segments > 0);

    // Errors of the operation come through; so do tilers that are not layouts.
    let e = render::svg_op(
        Op::LogicalDivide,
        &l("(4,3):(0,1)"),
        &"(2,3):(2,1)".parse().unwrap(),
        &Style::new(),
    );
    assert!(e.is_err());
    let e = render::svg_op(
        Op::BlockedProduct,
        &l("4:1"),
        &"(2,_)".parse().unwrap(),
        &Style::new(),
    )
    .unwrap_err();
    assert_eq!(e.kind(), "InvalidArgument");
    // Tuple tilers are drawn through A's coordinates: (2,4) on 8x8 selects i + 8j; `_` keeps
    // the whole mode.
    let a = l("(8,8):(8,1)");
    let p = parse(
        &render::svg_op(
            Op::LogicalDivide,
            &a,
            &"(2,4)".parse().unwrap(),
            &Style::new(),
        )
        .unwrap(),
    );
    assert_eq!(
        p.panels[1].labels(),
        ["0", "8", "16", "24", "1", "9", "17", "25"]
    );
    let p = parse(
        &render::svg_op(
            Op::LogicalDivide,
            &a,
            &"(_,4)".parse().unwrap(),
            &Style::new(),
        )
        .unwrap(),
    );
    assert_eq!(p.panels.len(), 3);
    assert_eq!(p.panels[1].labels().len(), 32);
    // Products draw a tuple tiler as the layout of its modes; one with `_` is not drawn.
    let svg = render::svg_op(
        Op::LogicalProduct,
        &l("(2,2):(1,2)"),
        &"(_,2)".parse().unwrap(),
        &Style::new(),
    )
    .unwrap();
    assert_eq!(parse(&svg).panels.len(), 2);
    assert!(svg.contains("is not drawn"));
    for op in Op::ALL {
        assert_eq!(Op::from_name(op.name()), Some(op));
    }
}

#[test]
fn ansi_table_strips_to_the_plain_table() {
    for s in ["(2,(2,2)):(4,(2,1))", "(3,4):(-1,3)", "8:1"] {
        let a = l(s);
        let plain = a.table().unwrap().to_string();
        let ansi = a.table().unwrap().with_ansi().to_string();
        assert_ne!(plain, ansi);
        let mut stripped = String::new();
        let mut it = ansi.chars();
        while let Some(c) = it.next() {
            if c == '\x1b' {
                for d in it.by_ref() {
                    if d == 'm' {
                        break;
                    }
                }
            } else {
                stripped.push(c);
            }
        }
        assert_eq!(stripped, plain, "{s}");
        let coords = a.table().unwrap().with_coords();
        assert!(coords.with_ansi().to_string().contains("\x1b[0m"));
    }
}

/// Random layouts: depth <= 2, extents <= 5, strides in -3..=12, at most 4096 points.
fn layout_strategy() -> impl Strategy<Value = Layout> {
    let leaf = (1i64..=5, -3i64..=12);
    let modes = prop::collection::vec(prop::collection::vec(leaf, 1..=3), 1..=3)
        .prop_filter("at most 4096 points", |ms| {
            ms.iter().flatten().map(|l| l.0).product::<i64>() <= 4096
        });
    modes.prop_map(common::nested)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Every SVG is well-formed, with one cell and one label per point, labelled and coloured
    /// by the layout's value there; the TikZ text has one node per point.
    #[test]
    fn svg_and_latex_agree_with_the_layout(a in layout_strategy()) {
        check_layout_svg(&a);
        let tex = render::latex(&a, &Style::new()).unwrap();
        prop_assert_eq!(tex.matches("\\node[fill=").count() as i64, a.size());
    }

    /// The bank report agrees with an independent model, request by request.
    #[test]
    fn bank_report_matches_the_model(a in layout_strategy(), nb in 1i64..=8, eb in 1i64..=8) {
        let b = Banks::new(nb, eb).unwrap();
        let r = render::bank_conflicts(&a, b, Access::Rows, &Style::new()).unwrap();
        let v = grid_values(&a);
        let rows = if a.rank() >= 2 { a.mode(0).unwrap().size() as usize } else { 1 };
        let cols = v.len() / rows;
        prop_assert_eq!(r.requests.len(), rows);
        for (m, q) in r.requests.iter().enumerate() {
            let (w, ideal) = model_wavefronts(&v[m * cols..(m + 1) * cols], nb, eb);
            prop_assert_eq!((q.wavefronts, q.ideal), (w, ideal));
            prop_assert!(q.wavefronts >= q.ideal);
        }
    }

    /// Any rank-2 layout is a TV layout for the tile of its cosize: pictures never panic, and
    /// every pair is accounted for.
    #[test]
    fn tv_pictures_account_for_every_pair(a in layout_strategy()) {
        prop_assume!(a.rank() == 2 && a.stride_leaves().iter().all(|&d| d >= 0));
        let tile: IntTuple = format!("({},1)", a.cosize().max(1)).parse().unwrap();
        let p = parse(&render::svg_tv(&a, &tile, &Style::new()).unwrap());
        let c = &p.panels[0];
        let shared: usize = c.labels().iter().filter_map(|s| s.split('+').nth(1)).map(|k| k.parse::<usize>().unwrap()).sum();
        let reached = c.classes().iter().filter(|k| *k != "none").count();
        prop_assert_eq!((reached + shared) as i64, a.size());
    }
}

/// SVG thread-value pictures give every thread of a warp its own colour (thread mod 32), so
/// threads 8 apart look different; TikZ keeps CuTe's 8 colours.
#[test]
fn tv_colours_distinguish_a_warp() {
    // 64 threads, one value each, on an 8 x 8 tile.
    let tv = l("(64,1):(1,0)");
    let tile: IntTuple = "(8,8)".parse().unwrap();
    let svg = render::svg_tv(&tv, &tile, &Style::new()).unwrap();
    let mut fills = std::collections::BTreeMap::new();
    for line in svg
        .lines()
        .filter(|l| l.starts_with(".t") && !l.starts_with(".title"))
    {
        let (class, rest) = line[1..].split_once('{').unwrap();
        fills.insert(class.to_string(), rest.to_string());
    }
    assert_eq!(fills.len(), 32, "{fills:?}");
    let distinct: std::collections::BTreeSet<&String> = fills.values().collect();
    assert_eq!(distinct.len(), 32, "32 threads, 32 colours");
    assert_eq!(svg.matches("<rect class=\"t0\"").count(), 2); // threads 0 and 32
    assert!(svg.contains("colour = thread mod 32"));
    // The highlighted thread's cells are outlined.
    let hl = render::svg_tv(&tv, &tile, &Style::new().highlight_thread(9)).unwrap();
    assert!(hl.contains("class=\"hl\"") && hl.contains("thread 9"));
    // CuTe's TikZ keeps its 8 colours: thread 8 is filled like thread 0.
    let tex = render::latex_tv(&tv, &tile, &Style::new()).unwrap();
    let fill = |t: i64| {
        let line = tex
            .lines()
            .find(|l| l.contains(&format!("{{T{t} \\\\ V0}}")))
            .unwrap();
        line[..line.find(']').unwrap()].to_string()
    };
    assert_eq!(fill(0), fill(8));
    assert_ne!(fill(0), fill(1));
}

/// Palettes of one to six colours from a fixed set.
fn palette_strategy() -> impl Strategy<Value = Vec<render::Color>> {
    let names = [
        "red",
        "#00ff00",
        "rgb(0,0,255)",
        "black!40",
        "lightblue",
        "#abc",
    ];
    prop::collection::vec(0usize..names.len(), 1..=6)
        .prop_map(move |ks| ks.iter().map(|&k| names[k].parse().unwrap()).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// CuTe's colour function as a palette: every cell of the TikZ and the SVG picture of a
    /// layout is painted palette[value mod N], and nothing else changes.
    #[test]
    fn palettes_paint_each_value(a in layout_strategy(), p in palette_strategy()) {
        let style = Style::new().palette(&p);
        let values = grid_values(&a);
        let svg = parse(&render::svg(&a, &style).unwrap());
        let classes = svg.panels[0].classes();
        prop_assert_eq!(classes.len(), values.len());
        for (k, v) in values.iter().enumerate() {
            let want = p[v.rem_euclid(p.len() as i64) as usize];
            prop_assert_eq!(svg.colors[&classes[k]], [want.r, want.g, want.b]);
        }
        let tex = render::latex(&a, &style).unwrap();
        let plain = render::latex(&a, &Style::new()).unwrap();
        let mut nodes = 0;
        for (line, base) in tex.lines().zip(plain.lines()) {
            if let Some(rest) = line.strip_prefix("\\node[fill=") {
                let (fill, tail) = rest.split_once("] at ").unwrap();
                let v: i64 = tail.rsplit_once('{').unwrap().1.trim_end_matches("};").parse().unwrap();
                prop_assert_eq!(fill, p[v.rem_euclid(p.len() as i64) as usize].tikz());
                prop_assert!(base.ends_with(tail));
                nodes += 1;
            } else {
                prop_assert_eq!(line, base);
            }
        }
        prop_assert_eq!(nodes as i64, a.size());
    }
}
