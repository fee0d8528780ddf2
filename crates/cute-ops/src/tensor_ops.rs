//! Tensors a layout tool can hold without data ([`cute_layout::LayoutTensor`]): counting tensors
//! `counting_iter(BASE) o LAYOUT` (values are offsets; the layout may be swizzled) and coordinate
//! tensors `ArithTuple(BASE) o LAYOUT` (values are coordinates; `make_identity_tensor`), in the
//! text CuTe's `print(tensor)` writes. One table, [`TENSOR_OPS`], listed in [`crate::GROUPS`];
//! `slice` and the divides of [`crate::OPS`] also take a tensor ([`slice`], [`divide`]). The
//! algebra is in `cute_layout`; these entries convert arguments.

use cute_layout::{
    tensor::is_tensor_text, ComposedLayout, IntTuple, Layout, LayoutError, LayoutTensor,
    SliceCoord, TensorValue, Tiler,
};

use crate::help::{h, OpHelp};
use crate::{op, Arg, Args, OpError, OpSpec};

/// The tensor operations, one line each (hence `rustfmt::skip`).
#[rustfmt::skip]
pub static TENSOR_OPS: &[OpSpec] = &[
    op("make_tensor", "LAYOUT|SWIZZLED [BASE] | PTR LAYOUT", (1, 2), "the counting tensor counting_iter(BASE) o LAYOUT (CuTe make_tensor(counting_iterator(BASE), LAYOUT)): its values are BASE + LAYOUT(c); with a pointer (make_gmem_ptr ...), CuTe's make_tensor(ptr, LAYOUT): its values are element addresses", make_tensor),
    op("make_identity_tensor", "SHAPE", (1, 1), "the coordinate tensor of SHAPE: its value at a coordinate is that coordinate (ArithTuple(0,...) o SHAPE:(1@0,...))", |a| Ok(LayoutTensor::identity(a.tuple(0)?)?.to_string())),
    op("tensor_value", "TENSOR COORD", (2, 2), "CuTe tensor(c): the value at a 1-D, R-D or natural coordinate (an offset, or a coordinate)", |a| Ok(a.tensor(0)?.value(&a.tuple(1)?)?.to_string())),
    op("local_tile", "TENSOR TILER COORD [PROJ]", (3, 4), "the tile at tile coordinate COORD: zipped_divide(T, TILER)((_,...), COORD); PROJ (Step<_1,X,_1> or (1,_,1)) dices TILER and COORD first", local_tile),
    op("inner_partition", "TENSOR TILER COORD", (3, 3), "CuTe inner_partition: the tile at tile coordinate COORD, zipped_divide(T, TILER)((_,...), COORD) (local_tile without a projection)", local_tile),
    op("local_partition", "TENSOR THR_LAYOUT INDEX [PROJ]", (3, 4), "what thread INDEX owns when T is tiled by THR_LAYOUT's shape and thread THR(c) takes element c of every tile; PROJ dices THR_LAYOUT first", local_partition),
    op("partition_tv", "TENSOR TV_LAYOUT THREAD", (3, 3), "thread THREAD's values under a (thread, value) -> index layout: composition(T, TV)(THREAD, _)", |a| Ok(a.tensor(0)?.partition_tv(&a.layout(1)?, a.int(2)?)?.to_string())),
    op("print_tensor", "TENSOR", (1, 1), "CuTe's print_tensor: the tensor, ':', then its values (%5d offsets, coordinates after two spaces) in a grid per rank", |a| Ok(a.tensor(0)?.print_tensor()?)),
    op("batch_reduce", "TENSOR", (1, 1), "CuTe batch_reduce into a zero dst: for a rank-2 (RedMode, BatchMode) tensor, the sums of T(_, i), as a tuple", |a| values(&a.tensor(0)?.batch_reduce()?)),
    op("logical_reduce", "TENSOR PROFILE", (2, 2), "CuTe logical_reduce into a zero dst: the sums over the modes where PROFILE has an integer, one per coordinate of its _ modes (dst = slice(PROFILE, shape), 1-D order), as a tuple", |a| values(&a.tensor(0)?.logical_reduce(&a.slice_coord(1)?)?)),
];

/// The help of [`TENSOR_OPS`]: name, law, example arguments, example output.
#[rustfmt::skip]
pub static TENSOR_HELP: &[OpHelp] = &[
    h("make_tensor", "T(c) = BASE + LAYOUT(c) at every coordinate c (BASE defaults to 0)", &["(4,8):(8,1)", "5"], "counting_iter(5) o (4,8):(8,1)"),
    h("make_identity_tensor", "T(c) = c, the natural coordinate, at every coordinate c of SHAPE", &["(4,8)"], "ArithTuple(0,0) o (4,8):(1@0,1@1)"),
    h("tensor_value", "BASE + LAYOUT(c) for a counting tensor, BASE + the basis sum for a coordinate tensor", &["counting_iter(5) o (4,8):(8,1)", "(1,2)"], "15"),
    h("local_tile", "R(c) = T(COORD * tile + c) per mode, for every coordinate c of the tile", &["counting_iter(0) o (4,6):(6,1)", "(2,3)", "(1,1)"], "counting_iter(15) o (2,3):(6,1)"),
    h("inner_partition", "the same as local_tile: R(c) = T(COORD * tile + c) per mode, for every coordinate c of the tile", &["counting_iter(0) o (4,6):(6,1)", "(2,3)", "(1,1)"], "counting_iter(15) o (2,3):(6,1)"),
    h("local_partition", "R(c) = T(c * shape(THR) + THR coordinate of INDEX) per mode; over all threads every element once", &["counting_iter(0) o (4,6):(6,1)", "(2,2):(2,1)", "1"], "counting_iter(1) o (2,3):(12,2)"),
    h("partition_tv", "R(v) = T(TV(THREAD, v)) for every value index v", &["counting_iter(0) o (4,4):(4,1)", "(4,4):(4,1)", "2"], "counting_iter(2) o (4):(4)"),
    h("print_tensor", "row m, column n of the grid is T(m, n); one line per value for rank 1; rank 3 and 4 print the grids of the last modes between rules", &["counting_iter(0) o (2,3):(3,1)"], "counting_iter(0) o (2,3):(3,1):\n    0    1    2\n    3    4    5"),
    h("batch_reduce", "R_i = sum over m of T(m, i), for i < size<1>(T)", &["counting_iter(0) o ((2,2),(2,2)):((2,8),(1,4))"], "(20,24,36,40)"),
    h("logical_reduce", "R_i = sum of T(c) over the c whose _ part is coordinate i of slice(PROFILE, shape)", &["counting_iter(0) o (2,2,2,2):(1,2,4,8)", "(_,1,_,1)"], "(20,24,36,40)"),
];

impl Args<'_> {
    /// Whether argument `k` is a tensor's text.
    pub(crate) fn is_tensor(&self, k: usize) -> bool {
        matches!(&self.args[k], Arg::Text(t) if is_tensor_text(t))
    }

    /// Argument `k` as a tensor (`counting_iter(BASE) o LAYOUT` or `ArithTuple(BASE) o LAYOUT`).
    pub(crate) fn tensor(&self, k: usize) -> Result<LayoutTensor, OpError> {
        let s = self.text(k, "tensor")?;
        if !is_tensor_text(&s) {
            return Err(self.arg_error(
                "BadRequest",
                k,
                format_args!(
                    " must be a tensor, counting_iter(BASE) o LAYOUT, ArithTuple(BASE) o LAYOUT or PTR o LAYOUT (make_tensor LAYOUT makes one), got {s:?}"
                ),
            ));
        }
        self.parse_text(k, &s, "tensor")
    }

    /// Argument `k` as a tensor if it is a tensor's text, else `None` (for an operation's
    /// layout form).
    pub(crate) fn tensor_if(&self, k: usize) -> Result<Option<LayoutTensor>, OpError> {
        if k < self.len() && self.is_tensor(k) {
            return self.tensor(k).map(Some);
        }
        Ok(None)
    }

    /// Argument `k` as a projection: CuTe's `Step<_1,X,_1>`, or `(1,X,1)` / `(1,_,1)`; `X` and
    /// `_` drop a mode.
    fn projection(&self, k: usize) -> Result<SliceCoord, OpError> {
        let s = self.text(k, "projection")?;
        let t = s.trim();
        let body = match t.strip_prefix("Step<").and_then(|r| r.strip_suffix('>')) {
            Some(inner) => format!("({inner})"),
            None => t.to_string(),
        };
        let body = body.replace('X', "_");
        self.parse_text(k, &body, "projection (Step<_1,X,_1> or (1,_,1))")
    }
}

fn make_tensor(a: &Args<'_>) -> Result<String, OpError> {
    if let Some(t) = crate::pointer_ops::make_tensor(a)? {
        return Ok(t);
    }
    let layout: ComposedLayout = a.parsed(0, "layout")?;
    let base = if a.len() == 2 { a.int(1)? } else { 0 };
    Ok(LayoutTensor::counting(base, layout).to_string())
}

fn local_tile(a: &Args<'_>) -> Result<String, OpError> {
    let proj = if a.len() == 4 {
        Some(a.projection(3)?)
    } else {
        None
    };
    let t = a.tensor(0)?;
    Ok(t.local_tile(&a.tiler(1)?, &a.tuple(2)?, proj.as_ref())?
        .to_string())
}

fn local_partition(a: &Args<'_>) -> Result<String, OpError> {
    let proj = if a.len() == 4 {
        Some(a.projection(3)?)
    } else {
        None
    };
    let t = a.tensor(0)?;
    Ok(t.local_partition(&a.layout(1)?, a.int(2)?, proj.as_ref())?
        .to_string())
}

/// Sums as a tuple, in dst's 1-D order.
fn values(v: &[TensorValue]) -> Result<String, OpError> {
    Ok(IntTuple::tuple(v.iter().map(TensorValue::to_tuple))?.to_string())
}

/// `slice COORD TENSOR`: CuTe's `tensor(coord)` with `_` entries, or `None` for a layout.
pub(crate) fn slice(a: &Args<'_>) -> Result<Option<String>, OpError> {
    let Some(t) = a.tensor_if(1)? else {
        return Ok(None);
    };
    Ok(Some(t.slice(&a.slice_coord(0)?)?.to_string()))
}

/// A divide of a tensor (`logical_divide TENSOR TILER`, ...), or `None` for a layout.
pub(crate) fn divide(
    a: &Args<'_>,
    f: fn(&Layout, &Tiler) -> Result<Layout, LayoutError>,
    g: fn(&ComposedLayout, &Tiler) -> Result<ComposedLayout, LayoutError>,
) -> Result<Option<String>, OpError> {
    let Some(t) = a.tensor_if(0)? else {
        return Ok(None);
    };
    Ok(Some(t.divide(&a.tiler(1)?, f, g)?.to_string()))
}

#[cfg(test)]
mod tests {
    use crate::test_util::{assert_kinds, ok};

    #[test]
    fn tensors_through_the_table() {
        let t = ok("make_tensor", &["(4,6):(6,1)"]);
        assert_eq!(t, "counting_iter(0) o (4,6):(6,1)");
        assert_eq!(
            ok("make_tensor", &["Sw<3,0,3> o 0 o (8,8):(8,1)", "0"]),
            "counting_iter(0) o Sw<3,0,3> o 0 o (8,8):(8,1)"
        );
        assert_eq!(
            ok(
                "slice",
                &["(2,_)", "counting_iter(0) o Sw<3,0,3> o 0 o (8,8):(8,1)"]
            ),
            "counting_iter(18) o ((2,2,2)):((1,-2,4))"
        );
        assert_eq!(
            ok(
                "slice",
                &["(_,3)", "counting_iter(0) o Sw<3,0,3> o 0 o (8,8):(8,1)"]
            ),
            "counting_iter(3) o ((4,2)):((7,36))"
        );
        assert_eq!(ok("tensor_value", &[&t, "(3,5)"]), "23");
        assert_eq!(
            ok("inner_partition", &[&t, "(2,3)", "(1,1)"]),
            ok("local_tile", &[&t, "(2,3)", "(1,1)"])
        );
        assert_eq!(
            ok("local_tile", &[&t, "(2,5,3)", "(1,0,1)", "Step<_1,X,_1>"]),
            "counting_iter(15) o (2,3):(6,1)"
        );
        assert_eq!(
            ok("local_tile", &[&t, "(2,5,3)", "(1,0,1)", "(1,X,1)"]),
            "counting_iter(15) o (2,3):(6,1)"
        );
        assert_eq!(
            ok(
                "local_partition",
                &[&t, "(2,7,2):(2,0,1)", "1", "Step<_1,X,_1>"]
            ),
            "counting_iter(1) o (2,3):(12,2)"
        );
        let id = ok("make_identity_tensor", &["(4,3)"]);
        assert_eq!(id, "ArithTuple(0,0) o (4,3):(1@0,1@1)");
        assert_eq!(
            ok("local_tile", &[&id, "(2,3)", "(1,0)"]),
            "ArithTuple(2,0) o (2,3):(1@0,1@1)"
        );
        assert_eq!(ok("tensor_value", &[&id, "7"]), "(3,1)");
        assert_eq!(
            ok(
                "local_partition",
                &["ArithTuple(0,0) o (4,6):(1@0,1@1)", "(2,2):(2,1)", "1"]
            ),
            "ArithTuple(0,1) o (2,3):(2@0,2@1)"
        );
        assert_eq!(
            ok("print_tensor", &["ArithTuple(0,1) o (2,2):(2@0,2@1)"]),
            "ArithTuple(0,1) o (2,2):(2@0,2@1):\n  (0,1)  (0,3)\n  (2,1)  (2,3)"
        );
        assert_eq!(
            ok("print_tensor", &["counting_iter(0) o (2,3,2):(1,2,6)"]),
            "counting_iter(0) o (2,3,2):(1,2,6):\n    0    2    4\n    1    3    5\n---------------\n    6    8   10\n    7    9   11"
        );
        assert_eq!(
            ok("print_tensor", &["ArithTuple0 o 3:1"]),
            "ArithTuple0 o 3:1:\n    0\n    1\n    2"
        );
        assert_eq!(
            ok("logical_divide", &["counting_iter(0) o (6,4):(4,1)", "2:1"]),
            format!(
                "counting_iter(0) o {}",
                ok("logical_divide", &["(6,4):(4,1)", "2:1"])
            )
        );
        assert_eq!(
            ok(
                "zipped_divide",
                &["ArithTuple(0,0) o (4,6):(1@0,1@1)", "(2,3)"]
            ),
            "ArithTuple(0,0) o ((2,3),(2,2)):((1@0,1@1),(2@0,3@1))"
        );
        assert_eq!(
            ok("logical_reduce", &["counting_iter(0) o 32:1", "1"]),
            "(496)"
        );
        assert_eq!(
            ok("batch_reduce", &["ArithTuple(0,0) o (2,3):(1@0,1@1)"]),
            "((1,0),(1,2),(1,4))"
        );
    }

    #[test]
    fn tensor_errors_are_typed() {
        assert_kinds(&[
            ("print_tensor", &["(4,6):(6,1)"], "BadRequest"),
            ("print_tensor", &["counting_iter(0) o (4,6"], "ParseError"),
            (
                "logical_product",
                &["counting_iter(0) o 6:1", "2:1"],
                "BadRequest",
            ),
            (
                "logical_divide",
                &["(6,4):(4,1)", "counting_iter(0) o 2:1"],
                "BadRequest",
            ),
            (
                "tensor_value",
                &["counting_iter(0) o (4,6):(6,1)", "(4,0)"],
                "CoordOutOfRange",
            ),
            (
                "local_tile",
                &["counting_iter(0) o (4,6):(6,1)", "(2,3)", "(2,0)"],
                "CoordOutOfRange",
            ),
            (
                "local_partition",
                &["counting_iter(0) o (4,6):(6,1)", "(2,2):(2,1)", "4"],
                "InvalidArgument",
            ),
            (
                "partition_tv",
                &["counting_iter(0) o (4,4):(4,1)", "16:1", "0"],
                "RankMismatch",
            ),
            (
                "batch_reduce",
                &["counting_iter(0) o (2,2,2):(1,2,4)"],
                "RankMismatch",
            ),
            (
                "local_tile",
                &[
                    "counting_iter(0) o (4,6):(6,1)",
                    "(2,3)",
                    "(1,1)",
                    "Step<_1,X,_1>",
                ],
                "InvalidArgument",
            ),
            (
                "print_tensor",
                &["counting_iter(0) o (512,512):(1,512)"],
                "TooLarge",
            ),
            (
                "tensor_value",
                &["counting_iter(9223372036854775807) o 2:1", "1"],
                "Overflow",
            ),
        ]);
    }
}
