//! Hardening (issue 8) of the `cute` binary: whatever arrives on stdin or the command line,
//! `cute batch` answers every input line with exactly one JSON line and keeps going, memory stays
//! bounded on an endless line, a closed pipe ends the program quietly, and exit statuses are the
//! documented ones (`cute --help`, README "Exit status").

use std::io::{Read, Write};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::common;

use common::{batch, cute, spawn_batch, CUTE};

/// The kind of an answer, `"ok"` for a result; panics on anything that is neither form.
fn kind(a: &Value) -> &str {
    let o = a.as_object().expect("answer is an object");
    if o.len() == 1 && o["ok"].is_string() {
        return "ok";
    }
    assert_eq!(o.len(), 2, "{a}");
    assert!(o["error"].as_str().is_some_and(|m| !m.is_empty()), "{a}");
    o["kind"].as_str().expect("kind")
}

fn req(op: &str, args: &[&str]) -> String {
    serde_json::json!({"op": op, "args": args}).to_string()
}

/// The scenario of the issue: malformed text, overflow, deep nesting and garbage JSON, each
/// followed by good requests that must still be answered, in order, one line each.
#[test]
fn bad_inputs_get_error_lines_and_later_lines_are_answered() {
    let deep_text = "(".repeat(10_000);
    let deep_json = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let deep_args = format!(
        r#"{{"op": "size", "args": {}"8:1"{}}}"#,
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    let many = format!("({})", vec!["1"; 5000].join(","));
    let bad: Vec<(Vec<u8>, &str)> = vec![
        // malformed text
        (
            req("size", &["(2,(2,2):(4,(2,1))"]).into_bytes(),
            "ParseError",
        ),
        (
            req("composition", &["(4,2):(1", "2:1"]).into_bytes(),
            "ParseError",
        ),
        (req("size", &["(2,2):(1,2,3)"]).into_bytes(), "ParseError"),
        (req("size", &["8:1 junk"]).into_bytes(), "ParseError"),
        (
            req("logical_divide", &["8:1", "<2:1"]).into_bytes(),
            "ParseError",
        ),
        (req("size", &["_"]).into_bytes(), "KindMismatch"),
        // overflow
        (
            req("size", &["(4294967296,4294967296):(1,0)"]).into_bytes(),
            "ParseError",
        ),
        (
            req("size", &["99999999999999999999"]).into_bytes(),
            "ParseError",
        ),
        (
            // Its largest index, 2 * (2^63 - 1), is past i64 (`2:9223372036854775807` is a
            // layout: cosize 2^63).
            req("cosize", &["3:9223372036854775807"]).into_bytes(),
            "ParseError",
        ),
        (
            // The complement's last mode would have stride 2^63 - 2 and extent 2: its cosize
            // does not fit (`2:2^62` in i64::MAX is `2^62:1`, which does: issue 23).
            req(
                "complement",
                &["3:3074457345618258602", "9223372036854775807"],
            )
            .into_bytes(),
            "Overflow",
        ),
        (
            req("logical_product", &["4:1", "3:4611686018427387903"]).into_bytes(),
            "Overflow",
        ),
        (
            req("size", &["(4294967296,4294967296)"]).into_bytes(),
            "Overflow",
        ),
        (
            req("crd2idx", &["(0,4)", "(2,2):(1,4611686018427387903)"]).into_bytes(),
            "Overflow",
        ),
        (
            req("idx2crd", &["-9223372036854775808", "(4,3):(-1,4)"]).into_bytes(),
            "Overflow",
        ),
        (br#"{"op": "size", "args": [1e400]}"#.to_vec(), "BadRequest"),
        (
            br#"{"op": "upcast", "args": [18446744073709551616, "4:1"]}"#.to_vec(),
            "BadRequest",
        ),
        // deep nesting and size limits
        (req("size", &[&deep_text]).into_bytes(), "ParseError"),
        (
            req("logical_divide", &["8:1", &deep_text]).into_bytes(),
            "ParseError",
        ),
        (deep_json.into_bytes(), "BadRequest"),
        (deep_args.into_bytes(), "BadRequest"),
        (req("rank", &[&many]).into_bytes(), "ParseError"),
        // garbage JSON and requests that are not requests
        (b"{".to_vec(), "BadRequest"),
        (b"}{".to_vec(), "BadRequest"),
        (b"null".to_vec(), "BadRequest"),
        (b"\"size\"".to_vec(), "BadRequest"),
        (b"{\"op\": 7}".to_vec(), "BadRequest"),
        (b"{\"args\": [\"8:1\"]}".to_vec(), "BadRequest"),
        (
            b"{\"op\": \"size\", \"args\": \"8:1\"}".to_vec(),
            "BadRequest",
        ),
        (
            b"{\"op\": \"size\", \"args\": [null]}".to_vec(),
            "BadRequest",
        ),
        (
            b"{\"op\": \"size\", \"args\": [{\"a\": 1}]}".to_vec(),
            "BadRequest",
        ),
        (
            b"{\"op\": \"size\", \"args\": [\"8:1\"]} trailing".to_vec(),
            "BadRequest",
        ),
        (
            b"{\"op\": \"\\ud800\", \"args\": []}".to_vec(),
            "BadRequest",
        ),
        (
            b"{\"op\": \"size\\u0000\", \"args\": [\"8:1\"]}".to_vec(),
            "UnknownOp",
        ),
        (
            b"\xef\xbb\xbf{\"op\": \"size\", \"args\": [\"8:1\"]}".to_vec(),
            "BadRequest",
        ),
        (b"\xc3\x28\xa0\xa1".to_vec(), "BadRequest"),
        (b"\x00\x00\x00".to_vec(), "BadRequest"),
        (Vec::new(), "BadRequest"),
        (b"   \t ".to_vec(), "BadRequest"),
        (b"\r".to_vec(), "BadRequest"),
        // refusals of well-formed input
        (req("size", &["0:1"]).into_bytes(), "ParseError"),
        (
            req("idx2crd", &["5", "(2,0,3)"]).into_bytes(),
            "InvalidExtent",
        ),
        (
            req("print_layout", &["(1048576,1048576):(1,1048576)"]).into_bytes(),
            "InvalidArgument",
        ),
        (
            req("table", &["(1048576,1048576):(1,1048576)"]).into_bytes(),
            "InvalidArgument",
        ),
        (
            req("complement", &["(2,2):(1,1)", "8"]).into_bytes(),
            "NotInjective",
        ),
        (req("nope", &[]).into_bytes(), "UnknownOp"),
        (req("size", &[]).into_bytes(), "Arity"),
    ];
    let good = [
        (req("size", &["(2,(2,2)):(4,(2,1))"]), "8"),
        (
            req("composition", &["(6,2):(8,2)", "(4,3):(3,1)"]),
            "((2,2),3):((24,2),8)",
        ),
    ];
    let mut input = Vec::new();
    for (line, _) in &bad {
        input.extend_from_slice(line);
        input.push(b'\n');
        for (g, _) in &good {
            input.extend_from_slice(g.as_bytes());
            input.push(b'\n');
        }
    }
    let (out, answers) = batch(&input);
    assert!(out.status.success(), "{out:?}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(answers.len(), bad.len() * (1 + good.len()));
    for (k, ((line, want), chunk)) in bad.iter().zip(answers.chunks(1 + good.len())).enumerate() {
        let shown = String::from_utf8_lossy(&line[..line.len().min(80)]).to_string();
        assert_eq!(
            kind(&chunk[0]),
            *want,
            "bad line {k} {shown:?}: {}",
            chunk[0]
        );
        for ((_, result), a) in good.iter().zip(&chunk[1..]) {
            assert_eq!(a["ok"], *result, "after bad line {k} {shown:?}");
        }
    }
}

/// A line far longer than the 1 MiB cap is streamed through without being held: the answer
/// is an error line, the next line is answered, and the process's peak memory stays small.
/// The line is 1 GiB, written in 1 MiB chunks (about a second).
#[test]
fn an_endless_line_uses_bounded_memory() {
    let mut child = spawn_batch();
    let pid = child.id();
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = child.stdout.take().expect("stdout");
    let chunk = vec![b'('; 1 << 20];
    for _ in 0..1024 {
        stdin.write_all(&chunk).expect("write");
    }
    stdin.write_all(b"\n").expect("write");
    stdin
        .write_all(req("rank", &["(2,3):(1,2)"]).as_bytes())
        .expect("write");
    stdin.write_all(b"\n").expect("write");
    stdin.flush().expect("flush");
    // Both answers arrive while stdin is still open: the process is alive and measurable.
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    while got.iter().filter(|&&c| c == b'\n').count() < 2 {
        let n = stdout.read(&mut buf).expect("read");
        assert!(n > 0, "cute batch ended early");
        got.extend_from_slice(&buf[..n]);
    }
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let hwm_kb: Option<u64> = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok());
    drop(stdin);
    let out = child.wait_with_output().expect("wait");
    assert!(out.status.success());
    let text = String::from_utf8(got).expect("UTF-8");
    let answers: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(answers.len(), 2, "{text}");
    assert_eq!(answers[0]["kind"], "BadRequest");
    assert_eq!(
        answers[0]["error"],
        "request line longer than 1048576 bytes"
    );
    assert_eq!(answers[1]["ok"], "2");
    if let Some(kb) = hwm_kb {
        // The line cap (1 MiB) plus buffers and the binary: far below the 1 GiB streamed.
        assert!(kb < 48 * 1024, "peak resident memory {kb} kB");
    }
}

/// `cute ... | head`: the reader goes away early; cute ends quietly (no panic, nothing on
/// stderr) with status 0.
#[test]
fn piping_into_head_exits_quietly() {
    let request = req("table", &["(64,64):(64,1)"]);
    let pipelines = [
        (
            format!("yes '{request}' | head -n 20000 | {CUTE} batch"),
            "head -c 10",
        ),
        (format!("{CUTE} ops"), "head -n 1"),
        (format!("{CUTE} show '(256,256):(256,1)'"), "head -n 1"),
        (
            format!("{CUTE} print_layout '(256,256):(256,1)'"),
            "head -n 2",
        ),
        (format!("{CUTE} --help"), "head -n 1"),
    ];
    let dir = std::env::temp_dir().join(format!("cute-hardening-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let err = dir.join("stderr");
    for (writer, head) in pipelines {
        // cute's stderr goes to a file; PIPESTATUS gives cute's status (the one before head).
        let o = Command::new("bash")
            .arg("-c")
            .arg(format!(
                "{writer} 2>'{}' | {head} > /dev/null; echo \"${{PIPESTATUS[@]}}\"",
                err.display()
            ))
            .output()
            .expect("bash");
        let statuses = String::from_utf8_lossy(&o.stdout).trim().to_string();
        let cute_status = statuses.split_whitespace().rev().nth(1).unwrap_or("?");
        let stderr = std::fs::read_to_string(&err).unwrap_or_default();
        assert_eq!(
            cute_status, "0",
            "{writer} | {head}: statuses {statuses}; {stderr}"
        );
        assert!(stderr.is_empty(), "{writer} | {head}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Exit statuses as documented: 0 success, 1 refusal or batch I/O failure, 2 usage.
#[test]
fn exit_statuses_are_the_documented_ones() {
    let help = String::from_utf8(cute(&["--help"]).stdout).expect("UTF-8");
    assert!(help.contains("Exit status:"), "{help}");
    for (args, code) in [
        (vec!["size", "(2,2):(1,2)"], 0),
        (vec!["complement", "(2,2):(1,1)", "8"], 1),
        (vec!["idx2crd", "5", "(2,0,3)"], 1),
        (vec!["print_layout", "(1048576,1048576):(1,1048576)"], 1),
        (vec!["size", "((((((((("], 2),
        (vec!["size", "(4294967296,4294967296):(1,0)"], 2),
        (vec!["frobnicate"], 2),
        (vec!["size"], 2),
        (vec!["--no-such-flag"], 2),
    ] {
        let o = cute(&args);
        assert_eq!(o.status.code(), Some(code), "{args:?}: {o:?}");
        let err = String::from_utf8(o.stderr).expect("UTF-8");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        if code == 0 {
            assert!(err.is_empty(), "{args:?}: {err}");
        } else if args[0] != "--no-such-flag" {
            // One line, naming the error kind.
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
            assert!(err.starts_with("cute: error["), "{args:?}: {err}");
        }
    }
    // A 10,000-deep argument on the command line.
    let o = cute(&["size", &"(".repeat(10_000)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nesting deeper than 64 levels"));
    // An argument that is not UTF-8 is a usage error, not a crash.
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let o = Command::new(CUTE)
            .arg("size")
            .arg(std::ffi::OsStr::from_bytes(b"\xff\xfe"))
            .output()
            .expect("run cute");
        assert_eq!(o.status.code(), Some(2), "{o:?}");
        assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
    }
    // `cute batch` whose stdin cannot be read: status 1, one line on stderr.
    let dir = std::fs::File::open(".").expect("open the current directory");
    let o = Command::new(CUTE)
        .arg("batch")
        .stdin(Stdio::from(dir))
        .output()
        .expect("run cute batch");
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let err = String::from_utf8(o.stderr).expect("UTF-8");
    assert!(err.starts_with("cute batch: "), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    // Empty input: no answers, status 0.
    let (out, answers) = batch(&Vec::new());
    assert!(out.status.success() && answers.is_empty());
}

/// Every line gets one answer, whatever the line endings and bytes, including a final line
/// without a newline and lines made only of `\r`, spaces or NULs.
#[test]
fn one_answer_per_line_whatever_the_bytes() {
    let good = req("depth", &["((2,2),3):((1,2),4)"]);
    let lines: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"\r".to_vec(),
        b" ".to_vec(),
        b"\t\x0b\x0c".to_vec(),
        b"\x00".to_vec(),
        b"\xff".to_vec(),
        b"\xed\xa0\x80".to_vec(), // an encoded surrogate: not UTF-8
        good.clone().into_bytes(),
        b"\x1b[31m".to_vec(),
        format!("{good}\r").into_bytes(),
    ];
    let mut input = lines.join(&b'\n');
    input.extend_from_slice(b"\n");
    input.extend_from_slice(good.as_bytes()); // no final newline
    let (out, answers) = batch(&input);
    assert!(out.status.success());
    let kinds: Vec<&str> = answers.iter().map(kind).collect();
    assert_eq!(
        kinds,
        [
            "BadRequest",
            "BadRequest",
            "BadRequest",
            "BadRequest",
            "BadRequest",
            "BadRequest",
            "BadRequest",
            "ok",
            "BadRequest",
            "ok",
            "ok"
        ]
    );
    assert!(answers[5]["error"]
        .as_str()
        .unwrap_or("")
        .contains("not UTF-8"));
    assert_eq!(answers[10]["ok"], "2");
}

/// An error line written to a stderr pipe whose reader has gone: still the documented status
/// (`eprintln!` would panic on the failed write).
#[test]
fn a_closed_stderr_pipe_is_not_a_panic() {
    // The process substitution's reader exits at once; after the pause, writes to fd 2 fail
    // with EPIPE.
    let o = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "exec 2> >(exec true); sleep 0.3; {CUTE} frobnicate; echo \"status=$?\""
        ))
        .output()
        .expect("bash");
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "status=2");
}
