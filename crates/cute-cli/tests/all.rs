//! The integration tests of `cute-cli`, compiled as one test binary: one link for all the files,
//! and the test threads shared between them. `cargo test -p cute-cli --test all -- NAME::` runs the
//! tests of `tests/NAME.rs`.
//!
//! A new test file `tests/NAME.rs` needs its line `mod NAME;` below; the test
//! `every_test_file_is_a_module` fails while a `tests/*.rs` file has none. Helpers shared by several files:
//! `common` (a file reaches it with `use crate::common;`).

mod common;

mod analysis;
mod atoms_copy;
mod atoms_mma;
mod cli;
mod conformance;
mod draw;
mod hardening;
mod newcomer;
mod rosetta;
mod soundness;
mod surface;
mod tensors;

#[path = "../../cute-layout/tests/support/roots.rs"]
mod roots;

#[test]
fn every_test_file_is_a_module() {
    roots::assert_every_test_file_is_a_module(env!("CARGO_MANIFEST_DIR"), include_str!("all.rs"));
}
