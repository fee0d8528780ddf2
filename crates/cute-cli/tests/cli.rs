//! The `cute` binary: `show`, `OP ARGS...`, exit statuses, and `batch` on malformed input.

use crate::common;

use std::io::{Read, Write};
use std::process::{Command, Stdio};

use common::{batch, cute, stderr, stdout};

#[test]
fn show_prints_properties_and_table() {
    let o = cute(&["show", "(2,(2,2)):(4,(2,1))"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "layout: (2,(2,2)):(4,(2,1))
size:   8
cosize: 8
rank:   2
depth:  2
(2,(2,2)):(4,(2,1))
      0   1   2   3 \n    +---+---+---+---+
 0  | 0 | 2 | 1 | 3 |
    +---+---+---+---+
 1  | 4 | 6 | 5 | 7 |
    +---+---+---+---+
"
    );
    assert_eq!(stderr(&o), "");
}

#[test]
fn show_rank1_as_one_row_and_accepts_cute_style() {
    let o = cute(&["show", "_8 : _2"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(
        text.contains("\n 0  |  0 |  2 |  4 |  6 |  8 | 10 | 12 | 14 |\n"),
        "{text}"
    );
    assert!(text.starts_with("layout: 8:2\n"));
}

#[test]
fn operations_on_the_command_line() {
    for (args, want) in [
        (&["size", "(2,(2,2)):(4,(2,1))"][..], "8\n"),
        (&["cosize", "(4,8):(1,4)"], "32\n"),
        (&["make_layout", "(2,4)", "LayoutRight"], "(2,4):(4,1)\n"),
        (&["crd2idx", "(1,5)", "(3,(2,3)):(3,(12,1))"], "17\n"),
        (&["crd2idx", "-1", "8:1"], "-1\n"),
        (&["idx2crd", "16", "(3,(2,3))"], "(1,(1,2))\n"),
        (&["weakly_congruent", "(2,3)", "((2,2),(3,1))"], "1\n"),
        (&["compatible", "(24)", "24"], "0\n"),
        (
            &["select", "(2,3,5,7):(1,2,6,30)", "1", "3"],
            "(3,7):(2,30)\n",
        ),
        (&["table", "(2,4):(12,1)"], "0,12,1,13,2,14,3,15\n"),
    ] {
        let o = cute(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), want, "{args:?}");
    }
}

#[test]
fn usage_errors_exit_2_with_one_line() {
    for args in [
        &["frobnicate", "8:1"][..],
        &["size"],
        &["size", "8:1", "8:1"],
        &["size", "(2,3:(1,2)"],
        &["show", "(2,2):(1)"],
    ] {
        let o = cute(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(stdout(&o), "", "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("cute: error["), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let o = cute(&["frobnicate"]);
    assert_eq!(
        stderr(&o).trim_end(),
        "cute: error[UnknownOp]: unknown command or operation \"frobnicate\" (`cute --help` lists the commands, `cute ops` the operations)"
    );
}

#[test]
fn domain_errors_exit_1() {
    let o = cute(&["idx2crd", "3", "(2,3):(0,2)"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("cute: error[ZeroStride]: idx2crd:"),
        "{}",
        stderr(&o)
    );
    let o = cute(&["make_layout", "(2,0)"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("InvalidExtent"));
}

#[test]
fn no_subcommand_is_a_usage_error() {
    let o = cute(&[]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn batch_answers_every_line_in_order() {
    let mut input = Vec::new();
    input.extend_from_slice(br#"{"op": "size", "args": ["(2,(2,2)):(4,(2,1))"]}"#);
    input.push(b'\n');
    input.push(b'\n'); // empty line
    input.extend_from_slice(b"\xff\xfe{\"op\"}\n"); // not UTF-8
    input.extend_from_slice(b"{\"op\": \"size\", \"args\": [\n"); // bad JSON
    input.extend_from_slice(b"{\"op\": \"frobnicate\", \"args\": []}\n"); // unknown op
    input.extend_from_slice(b"{\"op\": \"size\", \"args\": []}\n"); // arity
    input.extend_from_slice(b"{\"op\": \"size\", \"args\": [\"(2,\"]}\n"); // bad text
    input.extend_from_slice(b"[1, 2]\n"); // JSON, not a request
    input.extend_from_slice(b"{\"op\": \"size\", \"args\": [true]}\n"); // bad argument
    input.extend_from_slice(b"{\"op\": \"crd2idx\", \"args\": [16, \"(3,(2,3)):(3,(12,1))\"]}\r\n");
    input.extend_from_slice(b"{\"op\": \"compatible\", \"args\": [\"24\", \"(4,6)\"]}"); // no final newline
    let (out, answers) = batch(&input);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(answers.len(), 11, "{}", stdout(&out));
    let kinds: Vec<&str> = answers
        .iter()
        .map(|a| a["kind"].as_str().unwrap_or("ok"))
        .collect();
    assert_eq!(
        kinds,
        [
            "ok",
            "BadRequest",
            "BadRequest",
            "BadRequest",
            "UnknownOp",
            "Arity",
            "ParseError",
            "BadRequest",
            "BadRequest",
            "ok",
            "ok"
        ]
    );
    assert_eq!(answers[0]["ok"], "8");
    assert_eq!(answers[9]["ok"], "17");
    assert_eq!(answers[10]["ok"], "1");
    // Exact line format (SPEC.md section 5).
    let first = stdout(&out).lines().next().unwrap().to_string();
    assert_eq!(first, r#"{"ok": "8"}"#);
    for a in &answers[1..9] {
        assert!(
            a["error"]
                .as_str()
                .is_some_and(|m| !m.is_empty() && !m.contains('\n')),
            "{a}"
        );
    }
}

#[test]
fn batch_on_empty_input_prints_nothing() {
    let (out, answers) = batch(b"");
    assert!(out.status.success());
    assert!(answers.is_empty());
}

#[test]
fn batch_survives_a_huge_line() {
    let mut input = vec![b'x'; (1 << 20) + 5];
    input.push(b'\n');
    input.extend_from_slice(b"{\"op\": \"rank\", \"args\": [\"(2,3):(1,2)\"]}\n");
    let (out, answers) = batch(&input);
    assert!(out.status.success());
    assert_eq!(answers.len(), 2);
    assert_eq!(answers[0]["kind"], "BadRequest");
    assert_eq!(answers[1]["ok"], "2");
}

#[test]
fn batch_exits_quietly_when_the_reader_goes_away() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cute"))
        .arg("batch")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let line = b"{\"op\": \"table\", \"args\": [\"(64,64):(64,1)\"]}\n";
        for _ in 0..2000 {
            if stdin.write_all(line).is_err() {
                break;
            }
        }
    });
    let mut first = [0u8; 16];
    let mut out = child.stdout.take().unwrap();
    out.read_exact(&mut first).unwrap();
    drop(out); // close the pipe
    let status = child.wait().unwrap();
    writer.join().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.is_empty(), "{err}");
    assert!(status.success(), "{status}");
}

#[test]
fn ops_lists_every_operation() {
    let o = cute(&["ops"]);
    assert!(o.status.success());
    let text = stdout(&o);
    for op in [
        "make_layout",
        "size",
        "crd2idx",
        "idx2crd",
        "table",
        "weakly_congruent",
    ] {
        assert!(text.lines().any(|l| l.starts_with(op)), "{op} missing");
    }
}

/// `cute show` of a swizzled layout prints the composed text and the table through the swizzle
/// (`Sw<1,0,2>(x) = x ^ ((x & 4) >> 2)` on the row-major offsets `4r + c`).
#[test]
fn show_swizzled_layout() {
    let o = cute(&["show", "Sw<1,0,2> o 0 o (4,4):(4,1)", "--vector"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("layout: Sw<1,0,2> o 0 o (4,4):(4,1)\nsize:   16\n"),
        "{out}"
    );
    let sw = |x: i64| x ^ ((x & 4) >> 2);
    for r in 0..4 {
        let row: Vec<String> = (0..4).map(|c| format!("{:>2}", sw(4 * r + c))).collect();
        let want = format!(" {r}  | {} |", row.join(" | "));
        assert!(out.contains(&want), "no row {want:?} in\n{out}");
    }
    let index: String = (0..16)
        .map(|i| format!(" {:>2}", sw(4 * (i % 4) + i / 4)))
        .collect();
    assert!(out.contains(&format!("\nIndex :{index}\n")), "{out}");
}

#[test]
fn smem_search_counts_only_the_address_lanes() {
    // ldmatrix.x2 over a 32 x 8 bf16 tile: lanes 16-31 repeat lanes 0-15 (stride 0), the
    // hardware takes addresses from lanes 0-15 only: 2 wavefronts, not 4.
    let tv = "((16,2),8):((1,0),32)";
    let args = |lanes: &'static str| {
        [
            "smem-search",
            "--tile",
            "(32,8)",
            "--write",
            tv,
            "--read",
            tv,
            "--elem",
            "2",
            "--read-lanes",
            lanes,
            "--layout",
            "(32,8):(8,1)",
        ]
    };
    let o = cute(&args("16"));
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("write_wavefronts=4 "), "{text}");
    assert!(
        text.contains("read_wavefronts=2 read_conflicts=0 "),
        "{text}"
    );
    let o = cute(&args("33"));
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("read address lanes 33 is not from 1 to 32"));
    // The same through the operation table: smem_evaluate's optional lane arguments.
    let o = cute(&[
        "smem_evaluate",
        "(32,8)",
        tv,
        tv,
        "2",
        "(32,8):(8,1)",
        "32",
        "16",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("read_wavefronts=2 "));
}

/// `cute codegen` of a chain with a layout as its outer function names the condition (as the
/// table's `codegen` does in `cute batch`), not a parse error.
#[test]
fn codegen_of_a_layout_outer_chain_is_not_implemented() {
    let o = cute(&["codegen", "16:1 o 0 o 8:1"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o).trim_end(),
        "cute: error[NotImplemented]: codegen: argument 1: 16:1 o 0 o 8:1 has a layout as its outer function; code is emitted for layouts and Sw<B,M,S> o OFFSET o LAYOUT"
    );
    let o = cute(&["codegen", "x o"]);
    assert!(
        stderr(&o).starts_with("cute: error[ParseError]: codegen:"),
        "{}",
        stderr(&o)
    );
}
