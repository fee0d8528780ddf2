//! Shared code of the fuzz targets: the CLI's operation table and batch loop (compiled from the
//! CLI's own sources), an input generator driven by the fuzzer's bytes, and the conformance law
//! checkers.
#![forbid(unsafe_code)]

/// `crates/cute-cli/src/ops.rs`, unchanged: the table every `cute OP` and `cute batch` call runs.
#[path = "../../crates/cute-cli/src/ops.rs"]
#[allow(dead_code)]
pub mod ops;

/// `crates/cute-cli/src/batch.rs`, unchanged: `cute batch`'s loop over a reader and a writer.
#[path = "../../crates/cute-cli/src/batch.rs"]
#[allow(dead_code)]
pub mod batch;

/// `crates/cute-cli/src/analysis.rs`, unchanged: the analysis operations of the table.
#[path = "../../crates/cute-cli/src/analysis.rs"]
#[allow(dead_code)]
pub mod analysis;

pub mod gen;
pub mod laws;
