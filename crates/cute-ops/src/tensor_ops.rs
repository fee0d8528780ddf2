//! Tensors a layout tool can hold without data ([`cute_layout::LayoutTensor`]): counting tensors
//! `counting_iter(BASE) o LAYOUT` (values are offsets; the layout may be swizzled) and coordinate
//! tensors `ArithTuple(BASE) o LAYOUT` (values are coordinates; `make_identity_tensor`), in the
//! text CuTe's `print(tensor)` writes. One table, [`TENSOR_OPS`], listed in [`crate::GROUPS`];
//! `slice` and the divides of [`crate::OPS`] also take a tensor ([`slice`], [`divide`]). The
//! algebra is in `cute_layout`; these entries convert arguments.

use cute_layout::{
    ComposedLayout, IntTuple, Layout, LayoutError, LayoutTensor, SliceCoord, TensorValue, Tiler,
};

use crate::table::{one, opt, Kind as K, Topic};
use crate::{op, Args, OpError, OpSpec};

/// The tensor operations, one declaration each (hence `rustfmt::skip`).
#[rustfmt::skip]
pub static TENSOR_OPS: &[OpSpec] = &[
    op("make_tensor", Topic::Tensors, "the counting tensor counting_iter(BASE) o LAYOUT (CuTe make_tensor(counting_iterator(BASE), LAYOUT); LAYOUT may be swizzled, Sw<B,M,S> o OFFSET o L): its values are BASE + LAYOUT(c); with a pointer (make_gmem_ptr ...), CuTe's make_tensor(ptr, LAYOUT): its values are element addresses")
        .params(&[one("", &[K::Layout, K::Composed]), opt("BASE", &[K::Int])])
        .overloads(&[&[one("", &[K::Pointer]), one("", &[K::Layout, K::Composed])]])
        .returns(&[K::Tensor])
        .law("T(c) = BASE + LAYOUT(c) at every coordinate c (BASE defaults to 0)")
        .example(&["(4,8):(8,1)", "5"], "counting_iter(5) o (4,8):(8,1)")
        .run(make_tensor),
    op("make_identity_tensor", Topic::Tensors, "the coordinate tensor of SHAPE: its value at a coordinate is that coordinate (ArithTuple(0,...) o SHAPE:(1@0,...))")
        .params(&[one("", &[K::Shape])])
        .returns(&[K::Tensor])
        .errors(&["InvalidExtent", "Overflow"])
        .law("T(c) = c, the natural coordinate, at every coordinate c of SHAPE")
        .example(&["(4,8)"], "ArithTuple(0,0) o (4,8):(1@0,1@1)")
        .run(|a| Ok(LayoutTensor::identity(a.tuple(0)?)?.to_string())),
    op("tensor_value", Topic::Tensors, "CuTe tensor(c): the value at a 1-D, R-D or natural coordinate (an offset, or a coordinate)")
        .params(&[one("", &[K::Tensor]), one("", &[K::Coord])])
        .returns(&[K::Int, K::Tuple, K::Pointer, K::Text])
        .errors(&["CoordMismatch", "CoordOutOfRange", "Overflow"])
        .law("BASE + LAYOUT(c) for a counting tensor, BASE + the basis sum for a coordinate tensor")
        .example(&["counting_iter(5) o (4,8):(8,1)", "(1,2)"], "15")
        .run(|a| Ok(a.tensor(0)?.value(&a.tuple(1)?)?.to_string())),
    op("local_tile", Topic::Tensors, "the tile at tile coordinate COORD: zipped_divide(T, TILER)((_,...), COORD); PROJ (Step<_1,X,_1> or (1,_,1)) dices TILER and COORD first")
        .params(&[one("", &[K::Tensor]), one("", &[K::Tiler]), one("", &[K::Coord]), opt("PROJ", &[K::Coord, K::Text])])
        .returns(&[K::Tensor])
        .errors(&["CoordOutOfRange", "InvalidArgument", "ModesOverlap", "NotComplementable", "NotInjective", "NotRepresentable", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible"])
        .law("R(c) = T(COORD * tile + c) per mode, for every coordinate c of the tile")
        .example(&["counting_iter(0) o (4,6):(6,1)", "(2,3)", "(1,1)"], "counting_iter(15) o (2,3):(6,1)")
        .run(local_tile),
    op("inner_partition", Topic::Tensors, "CuTe inner_partition: the tile at tile coordinate COORD, zipped_divide(T, TILER)((_,...), COORD) (local_tile without a projection)")
        .params(&[one("", &[K::Tensor]), one("", &[K::Tiler]), one("", &[K::Coord])])
        .returns(&[K::Tensor])
        .errors(&["CoordOutOfRange", "InvalidArgument", "ModesOverlap", "NotComplementable", "NotInjective", "NotRepresentable", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible"])
        .law("the same as local_tile: R(c) = T(COORD * tile + c) per mode, for every coordinate c of the tile")
        .example(&["counting_iter(0) o (4,6):(6,1)", "(2,3)", "(1,1)"], "counting_iter(15) o (2,3):(6,1)")
        .run(local_tile),
    op("local_partition", Topic::Tensors, "what thread INDEX owns when T is tiled by THR_LAYOUT's shape and thread THR(c) takes element c of every tile; PROJ dices THR_LAYOUT first")
        .params(&[one("", &[K::Tensor]), one("THR_LAYOUT", &[K::Layout]), one("INDEX", &[K::Int]), opt("PROJ", &[K::Coord, K::Text])])
        .returns(&[K::Tensor])
        .errors(&["CoordOutOfRange", "InvalidArgument", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible", "ZeroStride"])
        .law("R(c) = T(c * shape(THR) + THR coordinate of INDEX) per mode; over all threads every element once")
        .example(&["counting_iter(0) o (4,6):(6,1)", "(2,2):(2,1)", "1"], "counting_iter(1) o (2,3):(12,2)")
        .run(local_partition),
    op("partition_tv", Topic::Tensors, "thread THREAD's values under a (thread, value) -> index layout: composition(T, TV)(THREAD, _)")
        .params(&[one("", &[K::Tensor]), one("TV_LAYOUT", &[K::Layout]), one("THREAD", &[K::Int])])
        .returns(&[K::Tensor])
        .errors(&["CoordOutOfRange", "NotRepresentable", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible"])
        .law("R(v) = T(TV(THREAD, v)) for every value index v")
        .example(&["counting_iter(0) o (4,4):(4,1)", "(4,4):(4,1)", "2"], "counting_iter(2) o (4):(4)")
        .run(|a| Ok(a.tensor(0)?.partition_tv(&a.layout(1)?, a.int(2)?)?.to_string())),
    op("print_tensor", Topic::Tensors, "CuTe's print_tensor: the tensor, ':', then its values (%5d offsets, coordinates after two spaces) in a grid per rank")
        .params(&[one("", &[K::Tensor])])
        .returns(&[K::Text])
        .errors(&["Overflow", "TooLarge"])
        .law("row m, column n of the grid is T(m, n); one line per value for rank 1; rank 3 and 4 print the grids of the last modes between rules")
        .example(&["counting_iter(0) o (2,3):(3,1)"], "counting_iter(0) o (2,3):(3,1):\n    0    1    2\n    3    4    5")
        .run(|a| Ok(a.tensor(0)?.print_tensor()?)),
    op("batch_reduce", Topic::Tensors, "CuTe batch_reduce into a zero dst: for a rank-2 (RedMode, BatchMode) tensor, the sums of T(_, i), as a tuple")
        .params(&[one("", &[K::Tensor])])
        .returns(&[K::Tuple])
        .errors(&["InvalidArgument", "Overflow", "RankMismatch", "TooLarge"])
        .law("R_i = sum over m of T(m, i), for i < size<1>(T)")
        .example(&["counting_iter(0) o ((2,2),(2,2)):((2,8),(1,4))"], "(20,24,36,40)")
        .run(|a| values(&a.tensor(0)?.batch_reduce()?)),
    op("logical_reduce", Topic::Tensors, "CuTe logical_reduce into a zero dst: the sums over the modes where PROFILE has an integer, one per coordinate of its _ modes (dst = slice(PROFILE, shape), 1-D order), as a tuple")
        .params(&[one("", &[K::Tensor]), one("", &[K::Profile])])
        .returns(&[K::Tuple])
        .errors(&["InvalidArgument", "Overflow", "TooLarge"])
        .law("R_i = sum of T(c) over the c whose _ part is coordinate i of slice(PROFILE, shape)")
        .example(&["counting_iter(0) o (2,2,2,2):(1,2,4,8)", "(_,1,_,1)"], "(20,24,36,40)")
        .run(|a| values(&a.tensor(0)?.logical_reduce(&a.slice_coord(1)?)?)),
];

impl Args<'_> {
    /// Whether argument `k` is a tensor's text.
    pub(crate) fn is_tensor(&self, k: usize) -> bool {
        self.form(k) == crate::value::Form::Tensor
    }

    /// Argument `k` as a tensor (`counting_iter(BASE) o LAYOUT` or `ArithTuple(BASE) o LAYOUT`).
    pub(crate) fn tensor(&self, k: usize) -> Result<LayoutTensor, OpError> {
        let s = self.text(k, "tensor")?;
        if self.form(k) != crate::value::Form::Tensor {
            return Err(self.arg_error(
                "BadRequest",
                k,
                format_args!(
                    " must be a tensor, counting_iter(BASE) o LAYOUT, ArithTuple(BASE) o LAYOUT or PTR o LAYOUT (make_tensor LAYOUT makes one), got {s:?}"
                ),
            ));
        }
        if let crate::value::Value::Tensor(t) = self.value(k) {
            return Ok((**t).clone());
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
    let base = if a.len() == 2 { a.int(1)? } else { 0 };
    if let crate::value::Value::Chain(c) = a.value(0) {
        if c.to_composed().is_none() {
            // A layout as an outer function: the tensor's text form reads the chain.
            let text = format!("counting_iter({base}) o {c}");
            return Ok(a
                .parse_text::<LayoutTensor>(0, &text, "layout")?
                .to_string());
        }
    }
    let layout: ComposedLayout = a.parsed(0, "layout")?;
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
            ("print_tensor", &["(4,6):(6,1)"], "KindMismatch"),
            ("print_tensor", &["counting_iter(0) o (4,6"], "ParseError"),
            (
                "logical_product",
                &["counting_iter(0) o 6:1", "2:1"],
                "KindMismatch",
            ),
            (
                "logical_divide",
                &["(6,4):(4,1)", "counting_iter(0) o 2:1"],
                "KindMismatch",
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
