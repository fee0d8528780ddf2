//! Restructuring tensors (CuTe's tensor overloads; the algebra is
//! `cute_layout::LayoutTensor`'s): `make_tensor_like` and `outer_partition` are entries of
//! [`TENSOR_RESTRUCTURE_OPS`]; `flatten`, `coalesce`, `group`, `take`, `filter`,
//! `filter_zeros`, `composition`, `domain_offset` and `make_fragment_like` of [`crate::OPS`]
//! and the other tables take a tensor where they take a layout, through [`on_tensor`]: given
//! `counting_iter(B) o L`, `ArithTuple(B) o L` or a pointer tensor `PTR o L`, they answer with a
//! tensor, CuTe's `make_tensor(tensor.data() [+ offset], f(tensor.layout()))` (a zip tensor
//! takes `outer_partition`, as CuTe's).

use cute_layout::atom::copy::TiledCopy;
use cute_layout::atom::{Operand, TiledMma};
use cute_layout::{ComposedLayout, IntTuple, LayoutTensor};

use crate::table::{one, Kind as K, Topic};
use crate::{op, Args, OpError, OpSpec};

/// The tensor-only restructuring operations, one declaration each (hence `rustfmt::skip`).
#[rustfmt::skip]
pub static TENSOR_RESTRUCTURE_OPS: &[OpSpec] = &[
    op("make_tensor_like", Topic::Tensors, "CuTe make_tensor_like: a fresh compact tensor of the same shape, layout make_layout_like(L); its iterator is its own storage, written counting_iter(0) (for a pointer tensor too: CuTe prints the fresh array's address)")
        .params(&[one("", &[K::Tensor, K::Layout])])
        .returns(&[K::Tensor])
        .errors(&["InvalidArgument"])
        .law("R = counting_iter(0) o make_layout_like(L): same shape; L's 0 strides stay 0, every other leaf's stride is the product of the extents of the leaves of smaller stride (CuTe's compact_order: compact when L's strides differ)")
        .example(&["counting_iter(7) o (4,8):(40,2)"], "counting_iter(0) o (4,8):(8,1)")
        .run(|a| Ok(tensor_or_layout(a, 0)?.tensor_like()?.to_string())),
    op("outer_partition", Topic::Tensors, "CuTe outer_partition: element COORD of every tile, zipped_divide(T, TILER)((COORD,_...), (_...)) (an integer COORD indexes the tile 1-D); of a pointer tensor the pointer moves, of a zip tensor every tensor is partitioned")
        .params(&[one("", &[K::Tensor]), one("", &[K::Tiler]), one("", &[K::Coord])])
        .returns(&[K::Tensor])
        .errors(&["CoordOutOfRange", "InvalidArgument", "ModesOverlap", "NotComplementable", "NotInjective", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible"])
        .law("R(c) = T(c * tile + COORD) per mode, for every coordinate c of the grid of tiles")
        .example(&["counting_iter(0) o (4,6):(6,1)", "(2,3)", "(1,2)"], "counting_iter(8) o (2,2):(12,3)")
        .run(|a| Ok(a.tensor(0)?.outer_partition(&a.tiler(1)?, &a.tuple(2)?)?.to_string())),
];

/// Argument `k` as a tensor, or a layout (plain or swizzled) as the tensor
/// `counting_iter(0) o LAYOUT`.
fn tensor_or_layout(a: &Args<'_>, k: usize) -> Result<LayoutTensor, OpError> {
    match a.tensor_if(k)? {
        Some(t) => Ok(t),
        None => Ok(LayoutTensor::counting(
            0,
            a.parsed::<ComposedLayout>(k, "layout")?,
        )),
    }
}

/// `tensor(a)` when argument `k` is a tensor's text, else `other()` (the op's layout form).
pub(crate) fn on_tensor(
    a: &Args<'_>,
    k: usize,
    tensor: fn(&Args<'_>) -> Result<LayoutTensor, OpError>,
    other: impl FnOnce() -> Result<String, OpError>,
) -> Result<String, OpError> {
    if k < a.len() && a.is_tensor(k) {
        return Ok(tensor(a)?.to_string());
    }
    other()
}

/// `flatten TENSOR`.
pub(crate) fn flatten(a: &Args<'_>) -> Result<LayoutTensor, OpError> {
    Ok(a.tensor(0)?.flatten()?)
}

/// `coalesce TENSOR [PROFILE]`.
pub(crate) fn coalesce(a: &Args<'_>) -> Result<LayoutTensor, OpError> {
    let profile: Option<IntTuple> = if a.len() == 2 {
        Some(a.profile(1)?)
    } else {
        None
    };
    Ok(a.tensor(0)?.coalesce(profile.as_ref())?)
}

/// `group TENSOR BEGIN END` (CuTe `group_modes<B,E>(tensor)`).
pub(crate) fn group(a: &Args<'_>) -> Result<LayoutTensor, OpError> {
    Ok(a.tensor(0)?.group_modes(a.index(1)?, a.index(2)?)?)
}

/// `take TENSOR BEGIN END`.
pub(crate) fn take(a: &Args<'_>) -> Result<LayoutTensor, OpError> {
    Ok(a.tensor(0)?.take_modes(a.index(1)?, a.index(2)?)?)
}

/// `filter TENSOR`.
pub(crate) fn filter(a: &Args<'_>) -> Result<LayoutTensor, OpError> {
    Ok(a.tensor(0)?.filter()?)
}

/// `filter_zeros TENSOR`.
pub(crate) fn filter_zeros(a: &Args<'_>) -> Result<LayoutTensor, OpError> {
    Ok(a.tensor(0)?.filter_zeros()?)
}

/// `composition TENSOR LAYOUT|TILER`.
pub(crate) fn composition(a: &Args<'_>) -> Result<LayoutTensor, OpError> {
    Ok(a.tensor(0)?.compose_tiler(&a.tiler(1)?)?)
}

/// `domain_offset COORD TENSOR`.
pub(crate) fn domain_offset(a: &Args<'_>) -> Result<LayoutTensor, OpError> {
    Ok(a.tensor(1)?.domain_offset(&a.tuple(0)?)?)
}

/// `make_fragment_like TENSOR`.
pub(crate) fn fragment_like(a: &Args<'_>) -> Result<LayoutTensor, OpError> {
    Ok(a.tensor(0)?.fragment_like()?)
}

/// `tiled_mma ... FIELD TENSOR THREAD` with a tensor (argument 4): `partition_a|b|c`, CuTe's
/// `thr_mma.partition_A/B/C(tensor)`.
pub(crate) fn mma_partition(a: &Args<'_>, mma: &TiledMma, field: &str) -> Result<String, OpError> {
    let op = match field {
        "partition_a" => Operand::A,
        "partition_b" => Operand::B,
        "partition_c" => Operand::C,
        _ => return Err(tensor_field(a, field, "partition_a|b|c")),
    };
    Ok(a.tensor(4)?.partition_mma(mma, op, a.int(5)?)?.to_string())
}

/// `make_tiled_copy ... FIELD TENSOR THREAD` with a tensor (argument `k`): `partition_s|d`,
/// CuTe's `thr_copy.partition_S/D(tensor)`.
pub(crate) fn copy_partition(
    a: &Args<'_>,
    tc: &TiledCopy,
    field: &str,
    k: usize,
) -> Result<String, OpError> {
    let dst = match field {
        "partition_s" => false,
        "partition_d" => true,
        _ => return Err(tensor_field(a, field, "partition_s|d")),
    };
    Ok(a.tensor(k)?
        .partition_copy(tc, a.int(k + 1)?, dst)?
        .to_string())
}

fn tensor_field(a: &Args<'_>, field: &str, fields: &str) -> OpError {
    OpError::new(
        "BadRequest",
        format!(
            "{}: FIELD {field} takes a layout, not a tensor; with a tensor, {fields} (the first value's offset moves into the iterator)",
            a.op
        ),
    )
}

#[cfg(test)]
mod tests {
    use crate::test_util::{assert_kinds, kind, ok};

    #[test]
    fn tensors_through_the_layout_ops() {
        let t = "counting_iter(0) o ((2,2),3):((1,2),4)";
        assert_eq!(ok("flatten", &[t]), "counting_iter(0) o (2,2,3):(1,2,4)");
        assert_eq!(ok("coalesce", &[t]), "counting_iter(0) o 12:1");
        assert_eq!(
            ok("coalesce", &[t, "(1,1)"]),
            "counting_iter(0) o (4,3):(1,4)"
        );
        assert_eq!(
            ok("group", &["counting_iter(1) o (2,3,4):(1,2,6)", "0", "2"]),
            "counting_iter(1) o ((2,3),4):((1,2),6)"
        );
        assert_eq!(
            ok("take", &["counting_iter(1) o (2,3,4):(1,2,6)", "1", "3"]),
            "counting_iter(1) o (3,4):(2,6)"
        );
        assert_eq!(
            ok("filter", &["counting_iter(0) o (4,(2,3)):(0,(1,2))"]),
            "counting_iter(0) o 6:1"
        );
        assert_eq!(
            ok("filter_zeros", &["counting_iter(0) o (4,2):(0,1)"]),
            "counting_iter(0) o (1,2):(0,1)"
        );
        assert_eq!(
            ok("composition", &["counting_iter(0) o (4,6):(6,1)", "(2,3)"]),
            "counting_iter(0) o (2,3):(6,1)"
        );
        assert_eq!(
            ok(
                "domain_offset",
                &["(1,2)", "counting_iter(1) o (4,6):(6,1)"]
            ),
            "counting_iter(9) o (4,6):(6,1)"
        );
        assert_eq!(
            ok("make_fragment_like", &["counting_iter(7) o (4,8):(8,1)"]),
            "counting_iter(0) o (4,(8)):(1,(4))"
        );
        assert_eq!(
            ok("make_tensor_like", &["(4,8):(40,2)"]),
            "counting_iter(0) o (4,8):(8,1)"
        );
        let id = "ArithTuple(0,0) o (4,6):(1@0,1@1)";
        assert_eq!(
            ok("outer_partition", &[id, "(2,3)", "(1,2)"]),
            "ArithTuple(1,2) o (2,2):(2@0,3@1)"
        );
        assert_eq!(
            ok("domain_offset", &["(1,2)", id]),
            "ArithTuple(1,2) o (4,6):(1@0,1@1)"
        );
        assert_eq!(ok("coalesce", &[id]), "ArithTuple(0,0) o (4,6):(1@0,1@1)");
        // The layout forms are unchanged.
        assert_eq!(ok("flatten", &["((2,2),3):((1,2),4)"]), "(2,2,3):(1,2,4)");
        assert_eq!(
            ok("domain_offset", &["(1,2)", "(4,4):(4,1)"]),
            "((4,4):(4,1),6)"
        );
    }

    #[test]
    fn thread_partitions_of_tensors() {
        let mma = ["SM80_16x8x8_F16F16F16F16_TN", "(2,2)", "_"];
        let with = |f: &str, t: &str, k: &str| {
            let mut v = mma.to_vec();
            v.extend([f, t, k]);
            v.into_iter().map(String::from).collect::<Vec<_>>()
        };
        let run = |args: Vec<String>| {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            ok("tiled_mma", &args)
        };
        assert_eq!(
            run(with(
                "partition_c",
                "counting_iter(0) o (32,16):(1,32)",
                "5"
            )),
            "counting_iter(65) o ((2,2),1,1):((32,8),0,0)"
        );
        assert_eq!(
            run(with(
                "partition_c",
                "ArithTuple(0,0) o (32,16):(1@0,1@1)",
                "5"
            )),
            "ArithTuple(1,2) o ((2,2),1,1):((1@1,8@0),0,0)"
        );
        let cp = [
            "UniversalCopy<uint32_t>",
            "half_t",
            "(4,8):(1,4)",
            "(2,1):(1,0)",
        ];
        let mut a = cp.to_vec();
        a.extend(["partition_d", "ArithTuple(0,0) o (8,16):(1@0,1@1)", "13"]);
        assert_eq!(
            ok("make_tiled_copy", &a),
            "ArithTuple(2,3) o ((2,1),1,2):((1@0,0),0,8@1)"
        );
        let mut a = cp.to_vec();
        a.extend(["offset_d", "ArithTuple(0,0) o (8,16):(1@0,1@1)", "13"]);
        assert_eq!(kind("make_tiled_copy", &a), "BadRequest");
        let off: Vec<&str> = mma
            .iter()
            .copied()
            .chain(["offset_c", "counting_iter(0) o (32,16):(1,32)", "5"])
            .collect();
        assert_eq!(kind("tiled_mma", &off), "BadRequest");
        let sw: Vec<&str> = mma
            .iter()
            .copied()
            .chain([
                "partition_c",
                "counting_iter(0) o Sw<3,0,3> o 0 o (32,16):(16,1)",
                "5",
            ])
            .collect();
        assert_eq!(kind("tiled_mma", &sw), "Unsupported");
    }

    #[test]
    fn pointer_and_zip_tensors_through_the_layout_ops() {
        let p = "gmem_ptr[16b](0x1000) o ((2,2),3):((1,2),4)";
        assert_eq!(
            ok("flatten", &[p]),
            "gmem_ptr[16b](0x1000) o (2,2,3):(1,2,4)"
        );
        assert_eq!(ok("coalesce", &[p]), "gmem_ptr[16b](0x1000) o 12:1");
        let sw = "Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,64):(64,1)";
        assert_eq!(
            ok("domain_offset", &["(1,2)", sw]),
            "Sw<3,4,3>_smem_ptr[16b](0x1084) o (8,64):(64,1)"
        );
        assert_eq!(
            ok("outer_partition", &[sw, "(2,4)", "(1,3)"]),
            "Sw<3,4,3>_smem_ptr[16b](0x1086) o (4,16):(128,4)"
        );
        assert_eq!(
            ok("make_tensor_like", &[sw]),
            "counting_iter(0) o (8,64):(64,1)"
        );
        assert_eq!(
            ok("make_fragment_like", &[sw]),
            "counting_iter(0) o (8,(64)):(1,(8))"
        );
        let z = "zip(gmem_ptr[16b](0x1000) o (4,4):(4,1), counting_iter(7) o (4,4):(1,4))";
        assert_eq!(
            ok("outer_partition", &[z, "(2,2)", "(1,1)"]),
            "zip(gmem_ptr[16b](0x100a) o (2,2):(8,2), counting_iter(12) o (2,2):(2,8))"
        );
        for (op, args) in [
            ("flatten", vec![z]),
            ("coalesce", vec![z]),
            ("filter_zeros", vec![z]),
            ("domain_offset", vec!["(1,1)", z]),
            ("make_tensor_like", vec![z]),
            ("make_fragment_like", vec![z]),
        ] {
            assert_eq!(kind(op, &args), "InvalidArgument", "{op}");
        }
    }

    #[test]
    fn tensor_restructure_errors_are_typed() {
        let sw = "counting_iter(0) o Sw<3,0,3> o 0 o (8,8):(8,1)";
        assert_kinds(&[
            ("filter", &[sw], "InvalidArgument"),
            ("make_tensor_like", &[sw], "InvalidArgument"),
            (
                "make_tensor_like",
                &["ArithTuple(0,0) o (4,6):(1@0,1@1)"],
                "InvalidArgument",
            ),
            (
                "group",
                &["counting_iter(0) o (2,3):(1,2)", "1", "3"],
                "ModeOutOfRange",
            ),
            (
                "outer_partition",
                &["counting_iter(0) o (4,6):(6,1)", "(2,3)", "(2,0)"],
                "CoordOutOfRange",
            ),
            (
                "outer_partition",
                &["(4,6):(6,1)", "(2,3)", "(1,0)"],
                "KindMismatch",
            ),
            (
                "domain_offset",
                &["(9223372036854775807,0)", "counting_iter(1) o (4,6):(1,4)"],
                "Overflow",
            ),
        ]);
    }
}
