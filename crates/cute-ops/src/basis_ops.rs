//! Basis strides (CuTe's `ScaledBasis` / `ArithmeticTuple`): `make_basis_like`, `basis_get`,
//! `basis_value`, and NVlabs PyCuTe's `tiler_to_layout`. One table, [`BASIS_OPS`], listed in
//! [`crate::GROUPS`]; the algebra is in `cute_layout` ([`cute_layout::ScaledBasis`],
//! [`cute_layout::Layout::from_tiler`], [`cute_layout::Layout::stride_text`]).

use cute_layout::{Layout, ScaledBasis};

use crate::help::{h, OpHelp};
use crate::{op, OpSpec};

/// The basis-stride operations, one line each (hence `rustfmt::skip`).
#[rustfmt::skip]
pub static BASIS_OPS: &[OpSpec] = &[
    op("make_basis_like", "SHAPE", (1, 1), "the unit basis stride at each leaf's mode path (the stride of make_identity_layout)", |a| Ok(Layout::identity(a.tuple(0)?)?.stride_text().to_string())),
    op("basis_get", "BASIS TUPLE", (2, 2), "the element of TUPLE at BASIS's mode path (CuTe's basis_get; TUPLE itself for a plain number)", |a| Ok(a.basis_stride(0)?.get(&a.tuple(1)?)?.to_string())),
    op("basis_value", "BASIS", (1, 1), "the scale v of a basis stride v@i... (CuTe's basis_value; a plain number is itself)", |a| Ok(a.basis_stride(0)?.value().to_string())),
    op("tiler_to_layout", "TILER", (1, 1), "the tiler as one layout: n is n:1, mode i of a tuple steps along basis @i (NVlabs PyCuTe; not CuTe C++)", |a| Ok(Layout::<ScaledBasis>::from_tiler(&a.tiler(0)?)?.to_string())),
];

/// The help of [`BASIS_OPS`]: name, law, example arguments, example output.
#[rustfmt::skip]
pub static BASIS_HELP: &[OpHelp] = &[
    h("make_basis_like", "make_layout(SHAPE, R) is make_identity_layout(SHAPE): leaf p of R is 1@p", &["(4,(2,3))"], "(1@0,(1@0@1,1@1@1))"),
    h("basis_get", "basis_get(1@p, c) = c_p, the entry of c at mode path p (1@i0@i1 reads get<i1,i0>)", &["1@0@1", "(7,(8,9))"], "8"),
    h("basis_value", "basis_value(v@p) = v: v@p is v times the unit basis 1@p", &["3@1@0"], "3"),
    h("tiler_to_layout", "an integer n is n:1, a layout itself; mode i of a tuple is tiler i's layout along basis @i, so a shape is its identity layout", &["(4:2,5:3)"], "(4,5):(2@0,3@1)"),
];
