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
