//! Compiles the law checkers of the conformance test into the fuzz crate, verbatim, so that the
//! fuzzer and `crates/cute-cli/tests/conformance.rs` judge results with the same code.
//!
//! The checkers are the part of conformance.rs from `/// Largest domain a checker enumerates.`
//! up to the banner of the section `// The run`; that slice is written to `$OUT_DIR/laws.rs` and
//! `include!`d by `src/laws.rs`.
use std::{env, fs, path::PathBuf};

fn main() {
    let src = PathBuf::from("../crates/cute-cli/tests/conformance.rs");
    println!("cargo:rerun-if-changed={}", src.display());
    let text = fs::read_to_string(&src).expect("read crates/cute-cli/tests/conformance.rs");
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with("/// Largest domain a checker enumerates."))
        .expect("conformance.rs: marker `/// Largest domain a checker enumerates.` not found");
    let run = lines
        .iter()
        .position(|l| l.trim() == "// The run")
        .expect("conformance.rs: section banner `// The run` not found");
    // Stop before the dashed line above the banner.
    let end = run.saturating_sub(1);
    assert!(
        start < end,
        "conformance.rs: law section markers out of order"
    );
    let body = lines[start..end].join("\n");
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR")).join("laws.rs");
    fs::write(out, body + "\n").expect("write laws.rs");
}
