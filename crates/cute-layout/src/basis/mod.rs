//! Basis strides (`ScaledBasis`, CuTe's `E<i>`), identity layouts, the algebra of
//! basis-strided layouts and PyCuTe's tiler promotion to them.

pub(crate) mod basis_algebra;
pub(crate) mod basis_like;
pub(crate) mod basis_tiler;
pub(crate) mod scaled_basis;

pub use scaled_basis::{ScaledBasis, MAX_BASIS_DEPTH};
