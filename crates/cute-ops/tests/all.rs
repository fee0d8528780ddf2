//! The integration tests of `cute-ops`, compiled as one test binary: one link for all the files,
//! and the test threads shared between them. `cargo test -p cute-ops --test all -- NAME::` runs the
//! tests of `tests/NAME.rs`.
//!
//! A new test file `tests/NAME.rs` needs its line `mod NAME;` below; the test
//! `every_test_file_is_a_module` fails while a `tests/*.rs` file has none. Helpers shared by several files:
//! `common` (a file reaches it with `use crate::common;`).

mod common;

mod chain_soundness;
mod declared_errors;
mod latex_conformance;
mod laws;
mod laws_all;
mod laws_apps;
mod laws_tools;
mod nvlabs_extras;
mod nvlabs_rest;
mod nvlabs_sympy;

#[path = "../../cute-layout/tests/support/roots.rs"]
mod roots;

#[test]
fn every_test_file_is_a_module() {
    roots::assert_every_test_file_is_a_module(env!("CARGO_MANIFEST_DIR"), include_str!("all.rs"));
}
