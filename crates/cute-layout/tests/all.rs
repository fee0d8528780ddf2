//! The integration tests of `cute-layout`, compiled as one test binary: one link for all the files,
//! and the test threads shared between them. `cargo test -p cute-layout --test all -- NAME::` runs the
//! tests of `tests/NAME.rs`.
//!
//! A new test file `tests/NAME.rs` needs its line `mod NAME;` below; the test
//! `every_test_file_is_a_module` fails while a `tests/*.rs` file has none. Helpers shared by several
//! files: `common` (a file reaches it with `use crate::common;`) and `support/`.

mod common;

mod alloc;
mod analysis;
mod atoms_lint;
mod atoms_mma;
mod basis;
mod chain_algebra;
mod chain_soundness;
mod codegen_gpp;
mod construct;
mod copy_laws;
mod copy_pictures;
mod cute_docs;
mod edge_i64;
mod examples;
mod f2_inverses;
mod fused;
mod issue34_complement;
mod kernels;
mod laws;
mod layering;
mod layout_tensor;
mod offset_analysis;
mod offsets;
mod pointer_tensor;
mod pycute_extras;
mod readme;
mod regressions;
mod render;
mod roundtrip;
mod seeds;
mod smem_search_heldout;
mod smem_search_laws;
mod soundness;
mod surface;
mod swizzle;
mod symbolic;
mod tensor;
mod tensor_restructure;

#[path = "support/roots.rs"]
mod roots;

#[test]
fn every_test_file_is_a_module() {
    roots::assert_every_test_file_is_a_module(env!("CARGO_MANIFEST_DIR"), include_str!("all.rs"));
}
