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
