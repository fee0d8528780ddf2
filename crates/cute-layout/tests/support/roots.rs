//! The check that every test file runs: each crate compiles its integration tests into one
//! binary whose root (`tests/all.rs`) declares every `tests/*.rs` file as a module, so a file
//! without its `mod` line there would compile nowhere and its tests would be skipped silently.
//! Shared by the test roots of `cute-layout`, `cute-ops`, `cute-cli` and `cute-bench` (through
//! `#[path]`).

use std::path::Path;

/// Panics, naming the files, if a `tests/*.rs` file of the crate at `manifest_dir` (other than
/// the root `tests/all.rs`, whose text is `root`) has no `mod NAME;` line in the root, or if a
/// `tests/*/main.rs` exists (cargo would build it as a test binary of its own).
pub fn assert_every_test_file_is_a_module(manifest_dir: &str, root: &str) {
    let dir = Path::new(manifest_dir).join("tests");
    let declared: Vec<String> = root
        .lines()
        .map(str::trim)
        .filter_map(|l| l.strip_prefix("mod "))
        .filter_map(|l| l.strip_suffix(';'))
        .map(str::to_owned)
        .collect();
    let mut missing = Vec::new();
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if path.join("main.rs").is_file() {
            missing.push(format!("{name}/main.rs"));
        }
        let Some(stem) = name.strip_suffix(".rs") else {
            continue;
        };
        if stem != "all" && !declared.iter().any(|m| m == stem) {
            missing.push(format!("{name} (add `mod {stem};` to tests/all.rs)"));
        }
    }
    missing.sort();
    assert!(
        missing.is_empty(),
        "test files that tests/all.rs does not reach: {}",
        missing.join(", ")
    );
}
