//! Helpers shared by the integration tests that run the `cute` binary.
#![allow(dead_code)] // each test file uses its own subset

use std::io::Write;
use std::process::{Child, Command, Output, Stdio};

use serde_json::Value;

/// The `cute` binary under test.
pub const CUTE: &str = env!("CARGO_BIN_EXE_cute");

/// Runs `cute ARGS...` and waits for it.
pub fn cute(args: &[&str]) -> Output {
    Command::new(CUTE).args(args).output().expect("run cute")
}

/// The output's stdout as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

/// The output's stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

/// Starts `cute batch` with stdin, stdout and stderr piped.
pub fn spawn_batch() -> Child {
    Command::new(CUTE)
        .arg("batch")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run cute batch")
}

/// Runs `cute batch` on `input`, written from another thread so that large inputs cannot
/// deadlock against the answers.
pub fn batch_raw(input: &[u8]) -> Output {
    let mut child = spawn_batch();
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let w = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().expect("wait for cute batch");
    w.join().expect("writer thread").expect("write stdin");
    out
}

/// [`batch_raw`], with every answer line parsed as JSON.
pub fn batch(input: &[u8]) -> (Output, Vec<Value>) {
    let out = batch_raw(input);
    let answers = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}")))
        .collect();
    (out, answers)
}

/// Runs every vector of a CuTe conformance file (`{"id", "op", "args", "cute"[, "exact"]}` lines)
/// through one `cute batch` and asserts each answer is CuTe's: the text without spaces (CuTe's
/// static `_N` printed as `N`), or exactly where the vector says `"exact": true`. A refusal is a
/// failure. Returns the number of vectors.
pub fn assert_cute_vectors(text: &str) -> usize {
    let norm = |s: &str| s.split_whitespace().collect::<String>();
    let cases: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("vector line"))
        .collect();
    let mut input = String::new();
    for c in &cases {
        input.push_str(&serde_json::json!({"op": c["op"], "args": c["args"]}).to_string());
        input.push('\n');
    }
    let (_, answers) = batch(input.as_bytes());
    assert_eq!(answers.len(), cases.len());
    let mut bad = Vec::new();
    for (c, a) in cases.iter().zip(&answers) {
        let want = c["cute"].as_str().expect("cute answer");
        let exact = c["exact"].as_bool().unwrap_or(false);
        match a["ok"].as_str() {
            Some(ours) if exact && ours == want => {}
            Some(ours) if !exact && norm(ours) == want => {}
            _ => bad.push(format!(
                "{} {} {}: CuTe {want:?}, ours {a}",
                c["id"], c["op"], c["args"]
            )),
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} differ:\n{}",
        bad.len(),
        cases.len(),
        bad.join("\n")
    );
    cases.len()
}
