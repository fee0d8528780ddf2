//! GPU-facing tools built on the algebra: C++ code generation, Gluon layouts, the sm90/sm100 shared-memory
//! layout atoms, the shared-memory layout search, and what a CPU can compute of a TMA copy.

pub mod codegen;
pub mod gluon;
pub mod smem_atom;
pub mod smem_search;
pub mod tma;
