//! The IntTuple toolkit on tuples (CuTe's `int_tuple.hpp`, `stride.hpp`), and the layout
//! construction and restructuring helpers around it: one table, [`TUPLE_OPS`], listed in
//! [`crate::GROUPS`]. The algebra is in `cute_layout` (`IntTuple`'s toolkit methods,
//! [`cute_layout::layout::coord_less`], [`Layout`]'s constructors); these entries convert arguments.

use cute_layout::{layout::coord_less, layout::safe_div, CoordOrder, IntTuple, Layout};

use crate::table::{many, one, opt, Kind as K, Topic};
use crate::{bit, op, Args, Either, OpError, OpSpec};

/// The IntTuple toolkit's operations, one declaration each (hence `rustfmt::skip`).
#[rustfmt::skip]
pub static TUPLE_OPS: &[OpSpec] = &[
    op("shape_div", Topic::Tuples, "CuTe shape_div: elementwise, or the integer divided out of the elements left to right (ceil)")
        .params(&[one("", &[K::Tuple]), one("", &[K::Tuple])])
        .returns(&[K::Tuple])
        .errors(&["InvalidArgument", "Overflow"])
        .law("size(R) * B = size(A) when B divides along A; elementwise for two tuples, else B divided out of the elements left to right")
        .example(&["(4,5,6)", "40"], "(1,1,3)")
        .run(|a| Ok(a.tuple(0)?.shape_div(&a.tuple(1)?)?.to_string())),
    op("shape_mod", Topic::Tuples, "the shape of the first B elements (CuTe docs; not CuTe C++)")
        .params(&[one("", &[K::Tuple]), one("", &[K::Tuple])])
        .returns(&[K::Tuple])
        .errors(&["InvalidArgument", "Overflow"])
        .law("size(R) * size(shape_div(A, B)) = size(A): the shape of the first B elements of A")
        .example(&["(3,6,2,8)", "9"], "(3,3,1,1)")
        .run(|a| Ok(a.tuple(0)?.shape_mod(&a.tuple(1)?)?.to_string())),
    op("ceil_div", Topic::Tuples, "CuTe ceil_div: as shape_div, a shorter divisor padded with 1s")
        .params(&[one("", &[K::Tuple]), one("", &[K::Tuple])])
        .returns(&[K::Tuple])
        .errors(&["InvalidArgument", "Overflow"])
        .law("R = ceil(A / B) element by element (B divided out left to right for an integer B; a shorter B padded with 1s)")
        .example(&["(10,7)", "(4,2)"], "(3,4)")
        .run(|a| Ok(a.tuple(0)?.ceil_div(&a.tuple(1)?)?.to_string())),
    op("round_up", Topic::Tuples, "each element rounded up to a multiple of the divisor's")
        .params(&[one("", &[K::Tuple]), one("", &[K::Tuple])])
        .returns(&[K::Tuple])
        .errors(&["InvalidArgument", "Overflow"])
        .law("R is the smallest multiple of B that is >= A, element by element")
        .example(&["(10,7)", "(4,2)"], "(12,8)")
        .run(|a| Ok(a.tuple(0)?.round_up(&a.tuple(1)?)?.to_string())),
    op("elem_scale", Topic::Tuples, "elementwise product (an integer times the product of the second)")
        .params(&[one("", &[K::Tuple]), one("", &[K::Tuple])])
        .returns(&[K::Tuple])
        .errors(&["InvalidArgument", "Overflow"])
        .law("R_i = A_i * B_i element by element; an integer A times the product of B")
        .example(&["(2,3)", "(4,5)"], "(8,15)")
        .run(|a| Ok(a.tuple(0)?.elem_scale(&a.tuple(1)?)?.to_string())),
    op("inner_product", Topic::Tuples, "sum of the products of congruent leaves")
        .params(&[one("", &[K::Tuple]), one("", &[K::Tuple])])
        .returns(&[K::Int])
        .errors(&["InvalidArgument", "Overflow"])
        .law("R = sum of A_i * B_i over the leaves of congruent A and B")
        .example(&["(1,(2,3))", "(4,(5,6))"], "32")
        .run(|a| Ok(a.tuple(0)?.inner_product(&a.tuple(1)?)?.to_string())),
    op("safe_div", Topic::Tuples, "a / b where b divides a")
        .params(&[one("", &[K::Int]), one("", &[K::Int])])
        .returns(&[K::Int])
        .errors(&["InvalidArgument"])
        .law("R * B = A (B must divide A)")
        .example(&["12", "4"], "3")
        .run(|a| Ok(safe_div(a.int(0)?, a.int(1)?)?.to_string())),
    op("sum", Topic::Tuples, "sum of the leaves")
        .params(&[one("", &[K::Tuple])])
        .returns(&[K::Int])
        .errors(&["Overflow"])
        .law("R = sum of the leaves")
        .example(&["(1,(2,3))"], "6")
        .run(|a| Ok(a.tuple(0)?.sum()?.to_string())),
    op("product", Topic::Tuples, "product of the leaves (size)")
        .params(&[one("", &[K::Tuple])])
        .returns(&[K::Int])
        .errors(&["Overflow"])
        .law("R = product of the leaves (size)")
        .example(&["(2,(3,4))"], "24")
        .run(|a| Ok(a.tuple(0)?.size()?.to_string())),
    op("product_each", Topic::Tuples, "the product of each top-level element")
        .params(&[one("", &[K::Tuple])])
        .returns(&[K::Tuple])
        .errors(&["Overflow"])
        .law("R_i = product of the leaves of element i (an integer is one element)")
        .example(&["((2,3),(4,5))"], "(6,20)")
        .run(|a| Ok(a.tuple(0)?.product_each()?.to_string())),
    op("product_like", Topic::Tuples, "the products of the elements of TUPLE at the leaves of GUIDE")
        .params(&[one("", &[K::Tuple]), one("GUIDE", &[K::Tuple])])
        .returns(&[K::Tuple])
        .errors(&["InvalidArgument", "Overflow"])
        .law("at each leaf of GUIDE, the product of TUPLE's element there")
        .example(&["((2,3),(4,(5,6)))", "(0,(0,0))"], "(6,(4,30))")
        .run(product_like),
    op("tuple_max", Topic::Tuples, "the largest leaf")
        .params(&[one("", &[K::Tuple])])
        .returns(&[K::Int])
        .errors(&["InvalidArgument"])
        .law("R = the largest leaf")
        .example(&["((1,9),(4,2))"], "9")
        .run(|a| extreme(a, true)),
    op("tuple_min", Topic::Tuples, "the smallest leaf")
        .params(&[one("", &[K::Tuple])])
        .returns(&[K::Int])
        .errors(&["InvalidArgument"])
        .law("R = the smallest leaf")
        .example(&["((1,9),(4,2))"], "1")
        .run(|a| extreme(a, false)),
    op("unflatten", Topic::Tuples, "the leaves of FLAT regrouped as PROFILE (tuples or layouts)")
        .params(&[one("FLAT", &[K::Tuple, K::Layout]), one("", &[K::Profile])])
        .returns(&[K::Tuple, K::Layout])
        .errors(&["InvalidArgument"])
        .law("flatten(R) = FLAT and R has PROFILE's tree")
        .example(&["(1,2,3,4,5)", "((0,0),(0,0,0))"], "((1,2),(3,4,5))")
        .run(unflatten),
    op("get", Topic::Tuples, "the element at a hierarchical index (get<I...>)")
        .params(&[one("", &[K::Tuple, K::Layout]), many("I", &[K::Int])])
        .returns(&[K::Int, K::Tuple, K::Layout])
        .errors(&["ModeOutOfRange"])
        .law("R is the element at the hierarchical index I... (get<I...>)")
        .example(&["(1,2,(3,4),5)", "2", "1"], "4")
        .run(crate::mode_any),
    op("dice", Topic::Tuples, "the modes where COORD has an integer (the complement of slice)")
        .params(&[one("", &[K::Coord]), one("", &[K::Layout, K::Tuple])])
        .returns(&[K::Layout, K::Tuple])
        .errors(&["InvalidArgument"])
        .law("R keeps the modes where COORD has an integer: the complement of slice")
        .example(&["(0,_)", "(3,4):(1,4)"], "(3):(1)")
        .run(dice),
    op("lex_less", Topic::Tuples, "lexicographic a < b")
        .params(&[one("", &[K::Coord]), one("", &[K::Coord])])
        .returns(&[K::Bool])
        .errors(&["InvalidArgument"])
        .law("1 when A < B comparing the first elements first (a proper prefix is less)")
        .example(&["(1,5)", "(2,0)"], "1")
        .run(|a| order(a, CoordOrder::Lex, 0)),
    op("lex_leq", Topic::Tuples, "lexicographic a <= b")
        .params(&[one("", &[K::Coord]), one("", &[K::Coord])])
        .returns(&[K::Bool])
        .errors(&["InvalidArgument"])
        .law("lex_leq(A, B) = not lex_less(B, A)")
        .example(&["(1,5)", "(1,5)"], "1")
        .run(|a| order(a, CoordOrder::Lex, 1)),
    op("lex_gtr", Topic::Tuples, "lexicographic a > b")
        .params(&[one("", &[K::Coord]), one("", &[K::Coord])])
        .returns(&[K::Bool])
        .errors(&["InvalidArgument"])
        .law("lex_gtr(A, B) = lex_less(B, A)")
        .example(&["(2,0)", "(1,5)"], "1")
        .run(|a| order(a, CoordOrder::Lex, 2)),
    op("lex_geq", Topic::Tuples, "lexicographic a >= b")
        .params(&[one("", &[K::Coord]), one("", &[K::Coord])])
        .returns(&[K::Bool])
        .errors(&["InvalidArgument"])
        .law("lex_geq(A, B) = not lex_less(A, B)")
        .example(&["(2,0)", "(1,5)"], "1")
        .run(|a| order(a, CoordOrder::Lex, 3)),
    op("colex_less", Topic::Tuples, "colexicographic a < b")
        .params(&[one("", &[K::Coord]), one("", &[K::Coord])])
        .returns(&[K::Bool])
        .errors(&["InvalidArgument"])
        .law("1 when A < B comparing the last elements first: the order of the 1-D index")
        .example(&["(1,5)", "(2,0)"], "0")
        .run(|a| order(a, CoordOrder::Colex, 0)),
    op("colex_leq", Topic::Tuples, "colexicographic a <= b")
        .params(&[one("", &[K::Coord]), one("", &[K::Coord])])
        .returns(&[K::Bool])
        .errors(&["InvalidArgument"])
        .law("colex_leq(A, B) = not colex_less(B, A)")
        .example(&["(1,5)", "(2,0)"], "0")
        .run(|a| order(a, CoordOrder::Colex, 1)),
    op("colex_gtr", Topic::Tuples, "colexicographic a > b")
        .params(&[one("", &[K::Coord]), one("", &[K::Coord])])
        .returns(&[K::Bool])
        .errors(&["InvalidArgument"])
        .law("colex_gtr(A, B) = colex_less(B, A)")
        .example(&["(1,5)", "(2,0)"], "1")
        .run(|a| order(a, CoordOrder::Colex, 2)),
    op("colex_geq", Topic::Tuples, "colexicographic a >= b")
        .params(&[one("", &[K::Coord]), one("", &[K::Coord])])
        .returns(&[K::Bool])
        .errors(&["InvalidArgument"])
        .law("colex_geq(A, B) = not colex_less(A, B)")
        .example(&["(1,5)", "(2,0)"], "1")
        .run(|a| order(a, CoordOrder::Colex, 3)),
    op("elem_less", Topic::Tuples, "every element of a < b's")
        .params(&[one("", &[K::Coord]), one("", &[K::Coord])])
        .returns(&[K::Bool])
        .errors(&["InvalidArgument"])
        .law("1 when every element of A is less than B's")
        .example(&["(1,0)", "(2,1)"], "1")
        .run(|a| order(a, CoordOrder::Elem, 0)),
    op("elem_leq", Topic::Tuples, "not elem_less(b, a)")
        .params(&[one("", &[K::Coord]), one("", &[K::Coord])])
        .returns(&[K::Bool])
        .errors(&["InvalidArgument"])
        .law("elem_leq(A, B) = not elem_less(B, A)")
        .example(&["(1,0)", "(2,1)"], "1")
        .run(|a| order(a, CoordOrder::Elem, 1)),
    op("elem_gtr", Topic::Tuples, "elem_less(b, a)")
        .params(&[one("", &[K::Coord]), one("", &[K::Coord])])
        .returns(&[K::Bool])
        .errors(&["InvalidArgument"])
        .law("elem_gtr(A, B) = elem_less(B, A)")
        .example(&["(2,1)", "(1,0)"], "1")
        .run(|a| order(a, CoordOrder::Elem, 2)),
    op("elem_geq", Topic::Tuples, "not elem_less(a, b)")
        .params(&[one("", &[K::Coord]), one("", &[K::Coord])])
        .returns(&[K::Bool])
        .errors(&["InvalidArgument"])
        .law("elem_geq(A, B) = not elem_less(A, B)")
        .example(&["(2,1)", "(1,0)"], "1")
        .run(|a| order(a, CoordOrder::Elem, 3)),
    op("compact_col_major", Topic::Tuples, "column-major stride of SHAPE starting at START (default 1)")
        .params(&[one("", &[K::Shape]), opt("START", &[K::Int])])
        .returns(&[K::Tuple])
        .errors(&["InvalidExtent", "Overflow"])
        .law("SHAPE:R is column-major with smallest stride START (extent-1 leaves get stride 0)")
        .example(&["(2,(3,4))", "2"], "(2,(4,12))")
        .run(|a| compact(a, false)),
    op("compact_row_major", Topic::Tuples, "row-major stride of SHAPE starting at START (default 1)")
        .params(&[one("", &[K::Shape]), opt("START", &[K::Int])])
        .returns(&[K::Tuple])
        .errors(&["InvalidExtent", "Overflow"])
        .law("SHAPE:R is row-major with smallest stride START (extent-1 leaves get stride 0)")
        .example(&["(2,3,4)"], "(12,4,1)")
        .run(|a| compact(a, true)),
    op("prefix_product", Topic::Tuples, "exclusive prefix product (the column-major stride)")
        .params(&[one("", &[K::Tuple]), opt("START", &[K::Int])])
        .returns(&[K::Tuple])
        .errors(&["Overflow"])
        .law("R_i = START * the product of the extents before leaf i (the column-major stride)")
        .example(&["(2,3,4)"], "(1,2,6)")
        .run(|a| Ok(a.tuple(0)?.prefix_products(if a.len() == 2 { a.int(1)? } else { 1 })?.to_string())),
    op("make_layout_like", Topic::Construction, "compact layout of the same shape, strides in the order of LAYOUT's (stride-0 modes kept); basis strides ordered by mode path, then scale (NVlabs PyCuTe's order)")
        .params(&[one("", &[K::Layout, K::Symbolic])])
        .returns(&[K::Layout, K::Symbolic])
        .errors(&["Overflow", "Undecidable"])
        .law("same shape, compact where LAYOUT's strides differ, strides increasing in their order (equal strides share one, as in CuTe); stride-0 modes keep stride 0")
        .example(&["(4,(2,3)):(6,(0,1))"], "(4,(2,3)):(3,(0,1))")
        .run(|a| crate::first(crate::symbolic_ops::make_layout_like(a), || Ok(if a.is_basis(0) { a.basis_layout(0)?.layout_like()? } else { a.layout(0)?.layout_like()? }.to_string()))),
    op("make_fragment_like", Topic::Construction, "register fragment for LAYOUT: mode 0 column-major, the rest ordered like LAYOUT; of a tensor (counting or pointer), the fresh tensor counting_iter(0) o that layout")
        .params(&[one("", &[K::Layout, K::Shape, K::Tensor])])
        .returns(&[K::Layout, K::Tensor])
        .errors(&["InvalidArgument", "InvalidExtent", "Overflow"])
        .law("same size; rank 1: compact column-major (as CuTe); else mode 0 column-major (its stride-0 leaves kept), the other modes ordered like LAYOUT's and placed after it")
        .example(&["((2,2),4,2):((1,0),16,64)"], "((2,2),4,2):((1,0),2,8)")
        .run(|a| crate::tensor_restructure_ops::on_tensor(a, 0, crate::tensor_restructure_ops::fragment_like, || fragment_like(a))),
    op("coshape", Topic::Queries, "CuTe coshape: 1 + the inner product of (shape - 1) and |stride| (a coordinate for basis strides)")
        .params(&[one("", &[K::Layout])])
        .returns(&[K::Int, K::Tuple])
        .law("1 + sum of (s_i - 1) * |d_i| over the leaves (its size is the cosize)")
        .example(&["(4,(2,3)):(2,(1,-8))"], "24")
        .run(|a| Ok(if a.is_basis(0) { a.basis_layout(0)?.coshape()? } else { a.layout(0)?.coshape()? }.to_string())),
    op("coprofile", Topic::Queries, "CuTe coprofile: the codomain's tree with every entry 0 (0 for integer strides)")
        .params(&[one("", &[K::Layout])])
        .returns(&[K::Tuple, K::Int])
        .law("the tree of the sum of the strides with every entry 0: a basis stride v@p adds mode p")
        .example(&["(2,3,5):(4@1,0,7@1@2)"], "(0,0,(0,0))")
        .run(|a| Ok(if a.is_basis(0) { a.basis_layout(0)?.coprofile()?.to_string() } else { a.layout(0).map(|_| "0".to_string())? })),
    op("domain_distribute", Topic::Construction, "CuTe domain_distribute: N distributed over the flat modes of SHAPE (gcd by gcd), coalesced")
        .params(&[one("", &[K::Shape]), one("N", &[K::Int])])
        .returns(&[K::Layout])
        .errors(&["InvalidArgument", "InvalidExtent", "Overflow"])
        .law("N spread over the flat modes of SHAPE, gcd(extent, rest) from each, with SHAPE's column-major strides, coalesced")
        .example(&["(2,3,4)", "8"], "(2,4):(1,6)")
        .run(|a| Ok(Layout::domain_distribute(&a.tuple(0)?, a.int(1)?)?.to_string())),
];

fn extreme(a: &Args<'_>, max: bool) -> Result<String, OpError> {
    let t = a.tuple(0)?;
    let v = if max { t.tuple_max() } else { t.tuple_min() };
    v.map(|v| v.to_string()).ok_or_else(|| {
        OpError::new(
            "InvalidArgument",
            format!("{}: the empty tuple has no leaves", a.op),
        )
    })
}

fn product_like(a: &Args<'_>) -> Result<String, OpError> {
    let (t, g) = (a.tuple(0)?, a.tuple(1)?);
    Ok(t.product_like(&g)?.to_string())
}

fn unflatten(a: &Args<'_>) -> Result<String, OpError> {
    let profile = a.shape(1)?;
    Ok(match a.layout_or_tuple(0)? {
        Either::Tuple(t) => t.unflatten(&profile)?.to_string(),
        Either::Layout(l) => Layout::new(
            l.shape().unflatten(&profile)?,
            l.stride().unflatten(&profile)?,
        )?
        .to_string(),
    })
}

fn dice(a: &Args<'_>) -> Result<String, OpError> {
    let c = a.slice_coord(0)?;
    Ok(match a.layout_or_tuple(1)? {
        Either::Tuple(t) => t.dice_tuple(&c)?.to_string(),
        Either::Layout(l) => l.dice(&c)?.to_string(),
    })
}

fn order(a: &Args<'_>, o: CoordOrder, which: u8) -> Result<String, OpError> {
    let (x, y) = (a.tuple(0)?, a.tuple(1)?);
    Ok(bit(match which {
        0 => coord_less(o, &x, &y)?,
        1 => !coord_less(o, &y, &x)?,
        2 => coord_less(o, &y, &x)?,
        _ => !coord_less(o, &x, &y)?,
    }))
}

fn compact(a: &Args<'_>, row: bool) -> Result<String, OpError> {
    let shape = a.tuple(0)?;
    let start = if a.len() == 2 { a.int(1)? } else { 1 };
    Ok(IntTuple::compact_major(&shape, start, row)?.to_string())
}

fn fragment_like(a: &Args<'_>) -> Result<String, OpError> {
    Ok(match a.layout_or_tuple(0)? {
        Either::Tuple(t) => Layout::col_major(t)?.to_string(),
        Either::Layout(l) => l.fragment_like()?.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use crate::test_util::ok;

    #[test]
    fn tuple_toolkit_answers() {
        // CuTe's prefix_product: an extent-1 leaf still gets the product before it.
        assert_eq!(ok("prefix_product", &["(4,1)"]), "(1,4)");
        assert_eq!(
            ok("prefix_product", &["(2,(1,3),4)", "5"]),
            "(5,(10,10),30)"
        );
        assert_eq!(ok("prefix_product", &["(3,-2,4)"]), "(1,3,-6)");
        assert_eq!(ok("shape_div", &["(3,4)", "6"]), "(1,2)");
        assert_eq!(ok("shape_div", &["(4,5,6)", "40"]), "(1,1,3)");
        assert_eq!(ok("shape_mod", &["(6,2)", "2"]), "(2,1)");
        assert_eq!(ok("round_up", &["1", "4"]), "4");
        assert_eq!(ok("elem_scale", &["(2,3)", "(4,5)"]), "(8,15)");
        assert_eq!(ok("safe_div", &["12", "4"]), "3");
        assert_eq!(ok("product_each", &["((2,2),8)"]), "(4,8)");
        assert_eq!(ok("tuple_max", &["((1,9),(4,2))"]), "9");
        assert_eq!(
            ok("unflatten", &["(1,2,3,4)", "(((0,0),0),0)"]),
            "(((1,2),3),4)"
        );
        assert_eq!(
            ok("unflatten", &["(2,3,5,7):(1,2,6,30)", "((0,0),(0,0))"]),
            "((2,3),(5,7)):((1,2),(6,30))"
        );
        assert_eq!(ok("get", &["(3,127,128)", "1"]), "127");
        assert_eq!(ok("mode", &["(1,2,(3,4),5,(6))", "2", "1"]), "4");
        assert_eq!(ok("slice", &["(_,0)", "(3,4)"]), "(3)");
        assert_eq!(ok("dice", &["(0,_)", "(3,4)"]), "(3)");
        assert_eq!(ok("dice", &["0", "(3,4):(1,4)"]), "(3,4):(1,4)");
        assert_eq!(ok("slice", &["_", "4"]), "4");
        assert_eq!(ok("dice", &["(0,_)", "(3,4):(1,4)"]), "(3):(1)");
        assert_eq!(ok("lex_less", &["(1,5)", "(2,0)"]), "1");
        assert_eq!(ok("colex_less", &["(1,5)", "(2,0)"]), "0");
        assert_eq!(ok("colex_geq", &["(1,5)", "(2,0)"]), "1");
        assert_eq!(ok("elem_less", &["(1,0)", "(2,1)"]), "1");
        assert_eq!(ok("compact_col_major", &["(2,(3,4))", "2"]), "(2,(4,12))");
        assert_eq!(ok("compact_row_major", &["(2,3,4)"]), "(12,4,1)");
        assert_eq!(
            ok("coalesce", &["(2,(1,6)):(1,(6,2))", "(_,_)"]),
            "(2,6):(1,2)"
        );
    }
}
