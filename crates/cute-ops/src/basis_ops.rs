//! Basis strides (CuTe's `ScaledBasis` / `ArithmeticTuple`): `make_basis_like`, `basis_get`,
//! `basis_value`, and NVlabs PyCuTe's `tiler_to_layout`. One table, [`BASIS_OPS`], listed in
//! [`crate::GROUPS`]; the algebra is in `cute_layout` ([`cute_layout::ScaledBasis`],
//! [`cute_layout::Layout::from_tiler`], [`cute_layout::Layout::stride_text`]).

use cute_layout::{Layout, ScaledBasis};

use crate::table::{one, Kind as K, Topic};
use crate::{op, OpSpec};

/// The basis-stride operations, one declaration each (hence `rustfmt::skip`).
#[rustfmt::skip]
pub static BASIS_OPS: &[OpSpec] = &[
    op("make_basis_like", Topic::Basis, "the unit basis stride at each leaf's mode path (the stride of make_identity_layout)")
        .params(&[one("", &[K::Shape])])
        .returns(&[K::Stride])
        .errors(&["InvalidExtent", "Overflow"])
        .law("make_layout(SHAPE, R) is make_identity_layout(SHAPE): leaf p of R is 1@p")
        .example(&["(4,(2,3))"], "(1@0,(1@0@1,1@1@1))")
        .run(|a| Ok(Layout::identity(a.tuple(0)?)?.stride_text().to_string())),
    op("basis_get", Topic::Basis, "the element of TUPLE at BASIS's mode path (CuTe's basis_get; TUPLE itself for a plain number)")
        .params(&[one("", &[K::Basis]), one("", &[K::Tuple])])
        .returns(&[K::Int, K::Tuple])
        .errors(&["ModeOutOfRange"])
        .law("basis_get(1@p, c) = c_p, the entry of c at mode path p (1@i0@i1 reads get<i1,i0>)")
        .example(&["1@0@1", "(7,(8,9))"], "8")
        .run(|a| Ok(a.basis_stride(0)?.get(&a.tuple(1)?)?.to_string())),
    op("basis_value", Topic::Basis, "the scale v of a basis stride v@i... (CuTe's basis_value; a plain number is itself)")
        .params(&[one("", &[K::Basis])])
        .returns(&[K::Int])
        .law("basis_value(v@p) = v: v@p is v times the unit basis 1@p")
        .example(&["3@1@0"], "3")
        .run(|a| Ok(a.basis_stride(0)?.value().to_string())),
    op("tiler_to_layout", Topic::Basis, "the tiler as one layout: n is n:1, mode i of a tuple steps along basis @i (NVlabs PyCuTe; not CuTe C++)")
        .params(&[one("", &[K::Tiler])])
        .returns(&[K::Layout])
        .errors(&["InvalidArgument", "InvalidExtent", "Overflow"])
        .law("an integer n is n:1, a layout itself; mode i of a tuple is tiler i's layout along basis @i, so a shape is its identity layout")
        .example(&["(4:2,5:3)"], "(4,5):(2@0,3@1)")
        .run(|a| Ok(Layout::<ScaledBasis>::from_tiler(&a.tiler(0)?)?.to_string())),
];
