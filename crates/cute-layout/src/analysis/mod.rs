//! Layout analysis: the layout of a function given by its values, the canonical form and equality
//! of layout functions, predicates on the image, and step-by-step explanations of the algebra.
//!
//! ```
//! use cute_layout::{analysis::find_layout, Layout};
//! let l = find_layout(&[0, 2, 4, 7, 9, 11])?;
//! assert_eq!(l.to_string(), "(3,2):(2,7)");
//! let m: Layout = "((3,1),2):((2,5),7)".parse()?;
//! assert!(m.same_function(&l));
//! assert!(l.is_injective()? && !l.is_surjective());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod canonical;
pub mod explain;
mod find;
mod offsets;

pub use canonical::{Image, MAX_ENUMERATED};
pub use explain::{
    explain_coalesce, explain_complement, explain_composition, explain_composition_tiler,
    explain_downcast, explain_left_inverse, explain_logical_divide, explain_logical_product,
    explain_nullspace, explain_rearranged, explain_right_inverse, explain_upcast, Condition,
    Explanation, Modes, Operand, Step, MAX_COUNTEREXAMPLE_SEARCH,
};
pub use find::{find_layout, find_layout_with_shape};
pub use offsets::{MAX_LISTED, MAX_TABLED};
