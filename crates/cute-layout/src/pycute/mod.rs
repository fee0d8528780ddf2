//! The stride kinds and operations of NVlabs PyCuTe that CuTe C++ does not have: F2 (XOR)
//! strides, symbolic layouts, sums of basis elements as strides, and PyCuTe's extra operations.

pub(crate) mod basis_sum;
pub(crate) mod extras;
pub mod f2;
pub(crate) mod symbolic;
