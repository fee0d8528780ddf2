//! `cute svg`, `cute png`, `cute latex`, `cute banks` and `cute show --color`: the pictures are
//! parsed (XML) and rendered to pixels, and the colour inside every cell is checked against the
//! class the layout's value there calls for.

use std::collections::HashMap;
use std::process::{Command, Output};

fn cute(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cute"))
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .expect("run cute")
}

fn ok(args: &[&str]) -> Vec<u8> {
    let o = cute(args);
    assert!(
        o.status.success(),
        "cute {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o.stdout
}

fn text(args: &[&str]) -> String {
    String::from_utf8(ok(args)).expect("UTF-8")
}

#[path = "../../cute-layout/tests/support/svg.rs"]
mod svg;
use svg::Cell;

/// The cells of every panel, in order, and the fill colour of every CSS class.
fn cells(picture: &str) -> (Vec<Vec<Cell>>, HashMap<String, [u8; 3]>) {
    let s = svg::parse(picture);
    (s.panels.into_iter().map(|p| p.cells).collect(), s.colors)
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

fn pixel(img: &(u32, u32, Vec<u8>), x: u32, y: u32) -> [u8; 3] {
    let i = ((y * img.0 + x) * 3) as usize;
    [img.2[i], img.2[i + 1], img.2[i + 2]]
}

fn close(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(&p, q)| p.abs_diff(q) <= 2)
}

/// Renders `args` as SVG and PNG and checks, in every cell, the pixel 3 px inside its top-left
/// corner (clear of grid lines, outlines and labels) against the colour of the cell's class.
fn check_pixels(args: &[&str], scale: &str) -> Vec<Vec<Cell>> {
    let dir = tempdir();
    let svg_path = dir.join("p.svg");
    let png_path = dir.join("p.png");
    let mut a = vec!["svg"];
    a.extend_from_slice(args);
    a.extend_from_slice(&["-o", svg_path.to_str().unwrap()]);
    ok(&a);
    a[0] = "png";
    let n = a.len();
    a[n - 1] = png_path.to_str().unwrap();
    a.extend_from_slice(&["--scale", scale]);
    ok(&a);
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let img = decode_png(&std::fs::read(&png_path).unwrap());
    let s: f32 = scale.parse().unwrap();
    let (panels, colors) = cells(&svg);
    for c in panels.iter().flatten() {
        let want = colors[&c.class];
        let (x, y) = (((c.x + 3.0) * s) as u32, ((c.y + 3.0) * s) as u32);
        let got = pixel(&img, x, y);
        assert!(
            close(got, want),
            "{args:?}: cell {c:?} at ({x},{y}) is {got:?}, want {want:?}"
        );
        // The label is drawn (with the embedded font, installed fonts or not): some dark
        // pixel inside the cell.
        if !c.label.is_empty() {
            let dark = (0..(c.h * s) as u32).any(|dy| {
                (0..(c.w * s) as u32).any(|dx| {
                    let p = pixel(&img, (c.x * s) as u32 + dx, (c.y * s) as u32 + dy);
                    p.iter().all(|&v| v < 90)
                })
            });
            assert!(dark, "{args:?}: no label drawn in {c:?}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    panels
}

fn tempdir() -> std::path::PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = std::env::temp_dir().join(format!(
        "cute-draw-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn png_cell_colours_follow_the_layout() {
    // Plain and hierarchical layouts: class o{v mod 8} for the value v in the label.
    for l in ["(4,8):(8,1)", "(3,(2,3)):(3,(12,1))", "(3,4):(-1,3)"] {
        let panels = check_pixels(&[l], "1");
        for c in &panels[0] {
            let v: i64 = c.label.parse().unwrap();
            assert_eq!(c.class, format!("o{}", v.rem_euclid(8)));
        }
    }
    // TV: class t{thread mod 32}, a colour per thread of a warp.
    let panels = check_pixels(
        &["--tv", "((4,8),(2,2)):((16,1),(8,64))", "--tile", "(16,8)"],
        "1.5",
    );
    assert_eq!(panels[0].len(), 128);
    for c in &panels[0] {
        let t: i64 = c.label[1..c.label.find(' ').unwrap()].parse().unwrap();
        assert_eq!(c.class, format!("t{}", t % 32));
    }
    let fills: std::collections::HashSet<&str> =
        panels[0].iter().map(|c| c.class.as_str()).collect();
    assert_eq!(fills.len(), 32, "32 threads, 32 colours");
    // Banks and an operation.
    check_pixels(&["--banks", "32", "--elem-bytes", "4", "(8,32):(1,8)"], "1");
    let panels = check_pixels(&["logical_divide", "(8,8):(8,1)", "(2,4)"], "1");
    assert_eq!(panels.len(), 3);
}

#[test]
fn svg_exact_cell_centres_without_fonts() {
    // Without fonts the labels vanish, so the very centre of each cell shows its fill.
    let svg = text(&["svg", "(2,(2,2)):(4,(2,1))"]);
    let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).unwrap();
    let size = tree.size().to_int_size();
    let mut pix = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(&tree, Default::default(), &mut pix.as_mut());
    let (panels, colors) = cells(&svg);
    let want_values = [0, 2, 1, 3, 4, 6, 5, 7]; // 01_layout.md print_layout(s2xh4), row by row
    for (c, v) in panels[0].iter().zip(want_values) {
        assert_eq!(c.label, v.to_string());
        let p = pix
            .pixel((c.x + c.w / 2.0) as u32, (c.y + c.h / 2.0) as u32)
            .unwrap();
        assert!(
            close([p.red(), p.green(), p.blue()], colors[&format!("o{v}")]),
            "cell {v}"
        );
    }
}

#[test]
fn svg_to_stdout_and_to_a_file() {
    let out = text(&["svg", "(2,4):(4,1)", "-o", "-"]);
    let (panels, _) = cells(&out);
    assert_eq!(panels[0].len(), 8);
    assert_eq!(text(&["svg", "(2,4):(4,1)"]), out, "stdout is the default");
    let dir = tempdir();
    let f = dir.join("x.svg");
    assert!(ok(&["svg", "(2,4):(4,1)", "-o", f.to_str().unwrap()]).is_empty());
    assert_eq!(std::fs::read_to_string(&f).unwrap(), out);
    let _ = std::fs::remove_dir_all(&dir);
    // --title replaces the layout's text.
    let t = text(&[
        "svg",
        "(2,4):(4,1)",
        "--title",
        "Sw<1,0,1> o 0 o (2,4):(4,1)",
    ]);
    assert!(t.contains(">Sw&lt;1,0,1&gt; o 0 o (2,4):(4,1)</text>"));
}

#[test]
fn png_to_a_pipe() {
    let bytes = ok(&["png", "4:1", "-o", "-"]);
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let o = cute(&["png", "4:1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("-o FILE"));
}

#[test]
fn latex_is_cutes_print_latex() {
    let t = text(&["latex", "(2,3):(3,1)"]);
    assert!(t.starts_with("% Layout: (2,3):(3,1)\n\\documentclass[convert]{standalone}\n"));
    assert!(t.contains("\\node[fill=black!40] at (0,1) {1};\n"));
    let tv = text(&[
        "latex",
        "--tv",
        "((4,8),(2,2)):((16,1),(8,64))",
        "--tile",
        "(16,8)",
    ]);
    assert!(tv.starts_with("% Layout TV: ((4,8),(2,2)):((16,1),(8,64))\n"));
    assert_eq!(tv.matches("\\shortstack").count(), 128);
}

#[test]
fn op_pictures_from_the_command_line() {
    for (op, b) in [
        ("composition", "(2,4):(1,4)"),
        ("logical_divide", "(2,4)"),
        ("zipped_divide", "(2,4)"),
        ("tiled_divide", "(2,4)"),
        ("flat_divide", "(2,4)"),
        ("logical_product", "(2,2):(1,2)"),
        ("blocked_product", "(2,2):(1,2)"),
        ("raked_product", "(2,2):(1,2)"),
    ] {
        let svg = text(&["svg", op, "(4,4):(4,1)", b]);
        let (panels, _) = cells(&svg);
        assert_eq!(panels.len(), 3, "{op}");
        assert!(svg.contains(&format!("{op}(A, B) = ")), "{op}");
    }
    let o = cute(&["svg", "divide", "(4,4):(4,1)", "(2,2)"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("error[UnknownOp]"));
    let o = cute(&["svg", "logical_divide", "(4,4):(4,1)"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("error[Arity]"));
}

#[test]
fn errors_are_typed_and_quick() {
    let t0 = std::time::Instant::now();
    let o = cute(&["svg", "(1048576,1048576):(1,1048576)"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("cute: error[TooLarge]: svg: layout"),
        "{err}"
    );
    assert!(t0.elapsed().as_secs() < 5);
    let o = cute(&["png", "(1048576,1048576):(1,1048576)", "-o", "-"]);
    assert_eq!(o.status.code(), Some(1));
    // Parse errors, TV outside the tile, missing --tile, bad access.
    let o = cute(&["svg", "(4,4):(1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("error[ParseError]"));
    let o = cute(&["svg", "--tv", "(4,8):(1,4)", "--tile", "(4,4)"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("error[InvalidArgument]"));
    let o = cute(&["svg", "--tv", "(4,8):(1,4)"]);
    assert_eq!(o.status.code(), Some(2));
    let o = cute(&["banks", "(4,4):(1,4)", "--access", "diagonal"]);
    assert_eq!(o.status.code(), Some(2));
    let o = cute(&["svg", "4:1", "--scale", "2"]);
    assert_eq!(o.status.code(), Some(2));
    let o = cute(&["png", "4:1", "-o", "-", "--scale", "0"]);
    assert_eq!(o.status.code(), Some(2));
    // An unwritable output file.
    let o = cute(&["svg", "4:1", "-o", "/nonexistent-dir/x.svg"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("error[Io]"));
}

#[test]
fn banks_report() {
    let t = text(&["banks", "(32,32):(32,1)", "--access", "columns"]);
    let mut lines = t.lines();
    assert_eq!(lines.next(), Some("(32,32):(32,1)"));
    assert_eq!(
        lines.next(),
        Some("32 banks x 4 B, 4-byte elements, each column is one request: 32 requests, 1024 wavefronts (ideal 32), 992 extra from bank conflicts, worst request 32 wavefronts")
    );
    assert_eq!(
        lines.next(),
        Some("request 0: 32 elements, 32 words, 32 wavefronts (ideal 1), conflict")
    );
    let t = text(&["banks", "(32,32):(33,1)", "--access", "columns"]);
    assert!(t.contains(" 0 extra from bank conflicts"));
    let svg = text(&["svg", "--banks", "16", "--elem-bytes", "2", "(4,16):(16,1)"]);
    assert!(svg.contains("banks: 16 x 4 B, 2-byte elements"));
}

#[test]
fn show_colours_only_when_asked_or_on_a_terminal() {
    let plain = text(&["show", "(2,(2,2)):(4,(2,1))"]);
    assert!(!plain.contains('\x1b'), "not a terminal: no colour");
    assert_eq!(
        text(&["show", "(2,(2,2)):(4,(2,1))", "--color", "never"]),
        plain
    );
    let coloured = text(&["show", "(2,(2,2)):(4,(2,1))", "--color", "always"]);
    assert!(coloured.contains("\x1b[30;48;5;"));
    let stripped: String = {
        let mut s = String::new();
        let mut skip = false;
        for c in coloured.chars() {
            match (skip, c) {
                (_, '\x1b') => skip = true,
                (true, 'm') => skip = false,
                (true, _) => {}
                (false, c) => s.push(c),
            }
        }
        s
    };
    assert_eq!(stripped, plain);
    let o = cute(&["show", "4:1", "--color", "sometimes"]);
    assert_eq!(o.status.code(), Some(2));
}

/// Splits a shell command line with single quotes (all the gallery uses).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let (mut quoted, mut any) = (false, false);
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    words.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(cur);
    }
    words
}

#[test]
fn gallery_commands_make_the_committed_pictures() {
    let gallery = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/gallery");
    let readme = std::fs::read_to_string(gallery.join("README.md")).unwrap();
    let dir = tempdir();
    let mut count = 0;
    for line in readme.lines().filter(|l| l.starts_with("cute png ")) {
        let mut words = shell_words(line);
        assert_eq!(words.remove(0), "cute");
        let at = words.iter().position(|w| w == "-o").unwrap() + 1;
        let name = words[at].clone();
        let out = dir.join(&name);
        words[at] = out.to_str().unwrap().to_string();
        let args: Vec<&str> = words.iter().map(String::as_str).collect();
        ok(&args);
        let made = decode_png(&std::fs::read(&out).unwrap());
        let committed = decode_png(&std::fs::read(gallery.join(&name)).unwrap());
        assert_eq!((made.0, made.1), (committed.0, committed.1), "{line}");
        let kb = std::fs::metadata(gallery.join(&name)).unwrap().len() / 1024;
        assert!(kb < 100, "{name} is {kb} KiB");
        count += 1;
    }
    assert!(count >= 6, "the gallery has {count} pictures");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Swizzled layouts `Sw<B,M,S> o OFF o L` are drawn and bank-analysed through their swizzle:
/// every cell label is the swizzled offset, and the swizzle removes the plain layout's conflicts.
#[test]
fn swizzled_layouts_are_drawn_through_the_swizzle() {
    let plain = String::from_utf8(ok(&["banks", "(4,32):(1,4)"])).unwrap();
    assert!(
        plain.contains("16 wavefronts (ideal 4), 12 extra"),
        "{plain}"
    );
    let sw = String::from_utf8(ok(&["banks", "Sw<2,0,5> o 0 o (4,32):(1,4)"])).unwrap();
    assert!(sw.starts_with("Sw<2,0,5> o 0 o (4,32):(1,4)\n"), "{sw}");
    assert!(sw.contains("4 wavefronts (ideal 4), 0 extra"), "{sw}");

    let text = "Sw<1,0,2> o 0 o (4,4):(4,1)";
    let svg = String::from_utf8(ok(&["svg", text, "-o", "-"])).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let title = doc
        .descendants()
        .find(|n| n.has_tag_name("text") && n.attribute("class") == Some("title"));
    assert_eq!(title.and_then(|n| n.text()), Some(text));
    // Cells in row-major order, coloured by offset mod 8; the offsets are row-major 4r + c
    // through Sw<1,0,2>(x) = x ^ ((x & 4) >> 2).
    let cells = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("cells"))
        .expect("a cells group");
    let classes: Vec<&str> = cells
        .children()
        .filter(|n| n.has_tag_name("rect"))
        .filter_map(|n| n.attribute("class"))
        .collect();
    let sw = |x: i64| x ^ ((x & 4) >> 2);
    let want: Vec<String> = (0..16).map(|x| format!("o{}", sw(x) % 8)).collect();
    assert_eq!(classes, want);
    assert_ne!(sw(4), 4, "the swizzle moves some offsets");
}

/// The answers of `cute batch` to one request per argument list of `op`.
fn batch_answers(op: &str, calls: &[Vec<&str>]) -> Vec<serde_json::Value> {
    use std::io::Write as _;
    use std::process::Stdio;
    let mut input = String::new();
    for args in calls {
        let args: Vec<String> = args
            .iter()
            .map(|a| cute_ops::request::json_string(a))
            .collect();
        input += &format!("{{\"op\": \"{op}\", \"args\": [{}]}}\n", args.join(", "));
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_cute"))
        .arg("batch")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run cute batch");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write requests");
    let out = child.wait_with_output().expect("cute batch");
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON answer"))
        .collect()
}

#[test]
fn the_latex_and_svg_ops_answer_what_the_subcommands_print() {
    let tv = "((4,8),(2,2)):((16,1),(8,64))";
    let mma = "SM80_16x8x16_F16F16F16F16_TN";
    let copy = ["copy", "SM75_U32x4_LDSM_N", "half_t"];
    let thr_val = ["--thr", "(32,1):(1,0)", "--val", "(1,8):(0,1)"];
    let both: Vec<Vec<&str>> = vec![
        vec!["(4,8):(8,1)"],
        vec!["(2,3,4):(1,2,6)"],
        vec!["(4,4)"],
        vec!["Sw<3,4,3> o 0 o (8,64):(64,1)"],
        vec!["Sw<1,0,1> o 0 o (2,4):(4,1)"],
        vec!["--tv", tv, "--tile", "(16,8)"],
        vec!["mma", mma],
        vec![
            "mma",
            mma,
            "--layout",
            "(2,2,1)",
            "--permutation",
            "(32,32,16)",
        ],
        [&copy[..], &thr_val[..]].concat(),
        [
            &copy[..],
            &["--mma", mma, "--operand", "A", "--layout", "(2,2,1)"][..],
        ]
        .concat(),
        vec!["(4,4):(4,1)", "--palette", "red,#0f0,rgb(0,0,255)"],
        vec![
            "--tv",
            tv,
            "--tile",
            "(16,8)",
            "--palette",
            "black!40,lightblue",
        ],
        vec!["mma", mma, "--palette", "wheat,plum,khaki"],
        [&copy[..], &thr_val[..], &["--palette", "#abc,#def"][..]].concat(),
    ];
    let svg_only: Vec<Vec<&str>> = vec![
        vec!["--tv", tv, "--tile", "(16,8)", "--highlight", "3"],
        vec![
            "(8,32):(32,1)",
            "--banks",
            "32",
            "--elem-bytes",
            "2",
            "--access",
            "columns",
        ],
        vec!["logical_divide", "(8,8):(8,1)", "(2,4)"],
        vec![
            "raked_product",
            "(2,2):(1,2)",
            "(2,3):(3,1)",
            "--title",
            "R",
        ],
        vec!["(32,32):(32,1)"],
        vec!["(32,32):(32,1)", "--color-by", "value"],
        vec![
            "(16,16):(16,1)",
            "--color-by",
            "range",
            "--palette",
            "navy,teal,olive,maroon",
        ],
        vec!["Sw<3,4,3> o 0 o (8,64):(64,1)", "--color-by", "2"],
    ];
    let mut checked = 0;
    for (op, calls) in [("latex", both.clone()), ("svg", [both, svg_only].concat())] {
        let answers = batch_answers(op, &calls);
        assert_eq!(answers.len(), calls.len());
        for (args, answer) in calls.iter().zip(&answers) {
            let printed = text(&[&[op][..], &args[..]].concat());
            let ok = answer["ok"]
                .as_str()
                .unwrap_or_else(|| panic!("{op} {args:?}: {answer}"));
            assert_eq!(format!("{ok}\n"), printed, "{op} {args:?}");
            checked += 1;
        }
    }
    assert_eq!(checked, 36);
}

#[test]
fn palettes_paint_the_cells() {
    // (4,4):(1,4) by value mod 3 in the palette's colours.
    let svg = text(&[
        "svg",
        "(4,4):(1,4)",
        "--palette",
        "#ff0000, lime ,rgb(0,0,255)",
    ]);
    let (panels, colors) = cells(&svg);
    let want = [[255, 0, 0], [0, 255, 0], [0, 0, 255]];
    for (k, c) in panels[0].iter().enumerate() {
        let v: usize = c.label.parse().unwrap();
        assert_eq!(v, (k % 4) * 4 + k / 4);
        assert_eq!(colors[&c.class], want[v % 3], "cell {k}");
    }
    // TikZ: the same colours, CuTe's {rgb,255:...} form, by value (layout) or thread (TV).
    let tex = text(&[
        "latex",
        "(4,4):(1,4)",
        "--palette",
        "#ff0000,lime,rgb(0,0,255)",
    ]);
    assert!(tex.contains("\\node[fill={rgb,255:red,0;green,255;blue,0}] at (0,1) {4};\n"));
    let tv = text(&[
        "latex",
        "--tv",
        "(2,2):(2,1)",
        "--tile",
        "(2,2)",
        "--palette",
        "white,black",
    ]);
    assert!(tv.contains(
        "\\node[fill={rgb,255:red,0;green,0;blue,0}] at (0,1) {\\shortstack{T1 \\\\ V0}};\n"
    ));
    // A malformed colour is a parse error (exit 2) naming the colour.
    for bad in ["#12", "red,nocolour", "rgb(1,2)", "black!200", ""] {
        for cmd in ["svg", "latex"] {
            let o = cute(&[cmd, "4:1", "--palette", bad]);
            assert_eq!(o.status.code(), Some(2), "{cmd} {bad:?}");
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(
                err.starts_with("cute: error[ParseError]: palette: "),
                "{err}"
            );
        }
    }
}
