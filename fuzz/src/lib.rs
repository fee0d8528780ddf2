//! Shared code of the fuzz targets: the operation table (`cute-ops`) and the CLI's batch loop
//! (compiled from the CLI's own source), the law registry and input generators shared with
//! `crates/cute-ops/tests/laws_all.rs`, and the conformance law checkers.
#![forbid(unsafe_code)]

/// The operation table every `cute OP` and `cute batch` call runs (the `cute-ops` crate).
pub use cute_ops as ops;

/// `crates/cute-cli/src/batch.rs`, unchanged: `cute batch`'s loop over a reader and a writer.
#[path = "../../crates/cute-cli/src/batch.rs"]
#[allow(dead_code)]
pub mod batch;

/// The law registry and the argument generators of `crates/cute-ops/tests/laws/`, the same code
/// the seeded test `laws_all` runs.
#[path = "../../crates/cute-ops/tests/laws/mod.rs"]
pub mod shared;
pub use shared::generate as gen;

pub mod laws;
