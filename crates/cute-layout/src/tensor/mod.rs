//! Tensors: a layout over CPU storage (`Tensor`), the tensors without data a layout tool holds
//! (`LayoutTensor`: counting, basis, pointer and composed tensors), typed pointers, and the
//! restructuring of tensors.

pub(crate) mod chain_tensor;
pub(crate) mod data;
pub(crate) mod kinds;
pub(crate) mod layout_tensor;
pub(crate) mod pointer;
pub(crate) mod pointer_tensor;
pub(crate) mod tensor_restructure;
pub(crate) mod tensor_text;

pub use layout_tensor::is_tensor_text;
pub use pointer::{element_type_bits, is_pointer_text};
pub use pointer_tensor::parse_smem_ptr_flag;
