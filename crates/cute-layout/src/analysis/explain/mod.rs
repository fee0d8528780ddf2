//! Explanations: the derivation of an algebra operation, step by step, as data.
//!
//! [`Explanation`] records what an operation does to its operands in the terms of CuTe's
//! 02_layout_algebra.md: for composition the left-distribution over B's leaves, the "divide out
//! the stride" and "mod out the shape" steps with the intermediate shapes and strides, and the
//! by-mode coalesce; for complement the sorted modes and the gaps filled; for divides and products
//! the complement and composition they are made of (as nested explanations); for coalesce, the
//! inverses, the nullspace and the casts the modes in the order the operation visits them. A refusal names the
//! condition that failed, where (leaf of B, mode of A), and a counter-example point: an index `i`
//! where CuTe's per-mode answer and `A(B(i))` differ.
//!
//! The result of every explanation (`outcome`) is the library operation's own result, so an
//! explanation never disagrees with the algebra; the steps are recomputed alongside it (and the
//! tests check that they lead to the same layout).
//!
//! ```
//! # use cute_layout::{Layout, analysis::explain_composition};
//! let a: Layout = "(10,2):(16,4)".parse()?;
//! let b: Layout = "(4,5):(5,2)".parse()?;
//! let e = explain_composition(&a, &b);
//! assert!(e.outcome.is_err());
//! let text = e.to_string();
//! assert!(text.contains("i = 13"));
//! assert!(text.contains("176") && text.contains("20"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod complement;
mod composition;
mod display;
mod modes;
mod swizzled;
mod tiling;
mod trace;

pub use complement::explain_complement;
pub use composition::{explain_composition, explain_composition_tiler};
pub use modes::{
    explain_coalesce, explain_downcast, explain_left_inverse, explain_nullspace,
    explain_right_inverse, explain_upcast,
};
pub use swizzled::{
    explain_composed_layout, explain_layout_swizzle, explain_swizzle_layout, SwizzleExplanation,
};
pub use tiling::{explain_logical_divide, explain_logical_product, explain_rearranged};
pub use trace::{Condition, Explanation, Modes, Operand, Step, MAX_COUNTEREXAMPLE_SEARCH};
