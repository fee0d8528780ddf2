//! Shared code of the fuzz targets: the operation table (`cute-ops`) and the CLI's batch loop
//! (compiled from the CLI's own source), an input generator driven by the fuzzer's bytes, and the conformance law
//! checkers.
#![forbid(unsafe_code)]

/// The operation table every `cute OP` and `cute batch` call runs (the `cute-ops` crate).
pub use cute_ops as ops;

/// `crates/cute-cli/src/batch.rs`, unchanged: `cute batch`'s loop over a reader and a writer.
#[path = "../../crates/cute-cli/src/batch.rs"]
#[allow(dead_code)]
pub mod batch;

pub mod gen;
pub mod laws;
