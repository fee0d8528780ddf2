//! Layout construction and restructuring (CuTe's `layout.hpp`, `stride.hpp`): `domain_offset`,
//! `max_alignment`, `zip`, `tile_unzip`, `hier_unzip`, `transform_layout`, `bw_coalesce`,
//! `compact_order`, `make_coord_iterator`, and `at_mode` (an operation applied at one mode, as
//! NVlabs PyCuTe's `op[mode]`); one table, [`CONSTRUCT_OPS`], listed in [`crate::GROUPS`]. The
//! algebra is in `cute_layout` ([`Layout`]'s and [`IntTuple`]'s methods); these entries convert
//! arguments. [`promoted_left`] is the promotion of an integer or a shape where `composition`,
//! the divides and the products expect a layout on the left.

use cute_layout::{IntTuple, Layout, LayoutChain};

use crate::composed_ops::Func;
use crate::table::{many, one, opt, Kind as K, Topic};
use crate::value::Form;
use crate::{op, run_op, Arg, Args, Either, OpError, OpSpec};

/// The construction and restructuring operations, one declaration each (hence `rustfmt::skip`).
#[rustfmt::skip]
pub static CONSTRUCT_OPS: &[OpSpec] = &[
    op("domain_offset", Topic::Queries, "(layout, offset of COORD); composed: the offset moves into the outermost offset, 0; of a tensor, the tensor with its iterator moved to T(COORD) (a pointer tensor's pointer by the element offset, its swizzle kept)")
        .params(&[one("", &[K::Coord]), one("", &[K::Layout, K::Composed, K::Tensor])])
        .returns(&[K::Text])
        .errors(&["CoordMismatch", "CoordOutOfRange", "InvalidArgument", "Overflow"])
        .law("R = (L, L(COORD)); for a composed A o O o B, (A o (O + B(COORD)) o B, 0)")
        .example(&["(1,2)", "(4,4):(4,1)"], "((4,4):(4,1),6)")
        .run(|a| crate::tensor_restructure_ops::on_tensor(a, 1, crate::tensor_restructure_ops::domain_offset, || domain_offset(a))),
    op("max_alignment", Topic::Queries, "the widest aligned vector of contiguous elements: gcd(size of right_inverse, the strides past it)")
        .params(&[one("", &[K::Layout, K::Composed, K::Swizzle])])
        .returns(&[K::Int])
        .errors(&["InvalidSwizzle"])
        .law("R = gcd(size(P<0>), stride(P<1>)) with P = logical_divide(coalesce(L), right_inverse(coalesce(L)))")
        .example(&["(4,2):(1,8)"], "4")
        .run(max_alignment),
    op("zip", Topic::Algebra, "transpose ((a,b),(x,y)) -> ((a,x),(b,y)); of two layouts, their modes paired")
        .params(&[one("", &[K::Layout, K::Composed, K::Tuple]), many("", &[K::Layout, K::Tuple])])
        .returns(&[K::Layout, K::Composed, K::Tuple])
        .errors(&["InvalidArgument", "RankMismatch"])
        .law("element j of element i of R is element i of element j of the argument (shape and stride alike)")
        .example(&["((2,3),(4,5)):((1,2),(6,24))"], "((2,4),(3,5)):((1,6),(2,24))")
        .run(zip),
    op("tile_unzip", Topic::Algebra, "the rank-2 modes at the tiler's leaves gathered: ((firsts...),(seconds...,rest...))")
        .params(&[one("", &[K::Layout, K::Composed]), one("", &[K::Tiler])])
        .returns(&[K::Layout, K::Composed])
        .errors(&["RankMismatch"])
        .law("zipped_divide(L, T) = tile_unzip(logical_divide(L, T), T): the rank-2 modes at T's leaves split into firsts and seconds")
        .example(&["((2,4),(3,5)):((1,2),(8,24))", "(2,3)"], "((2,3),(4,5)):((1,8),(2,24))")
        .run(|a| { let t = a.tiler(1)?; inner(a, |l| l.tile_unzip(&t)) }),
    op("hier_unzip", Topic::Algebra, "CuTe 3.x's hier_unzip(op, A, T): the zipped_divide / zipped_product")
        .params(&[one("", &[K::Tag("logical_divide"), K::Tag("logical_product")]), one("", &[K::Layout]), one("", &[K::Tiler])])
        .returns(&[K::Layout])
        .errors(&["InvalidArgument", "ModesOverlap", "NotComplementable", "NotImplemented", "NotInjective", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible"])
        .law("hier_unzip(logical_divide, A, T) = zipped_divide(A, T) (logical_product: zipped_product)")
        .example(&["logical_divide", "(8,6):(1,8)", "(2,3)"], "((2,3),(4,2)):((1,8),(2,24))")
        .run(hier_unzip),
    op("transform_layout", Topic::Algebra, "make_layout(OP(mode_i)...), or OP(mode_i, TUPLE_i) for the modes both have, then the rest of each")
        .params(&[one("", &[K::Op]), one("", &[K::Layout, K::Composed]), opt("", &[K::Tuple, K::Tiler])])
        .returns(&[K::Layout, K::Composed])
        .errors(&["InvalidArgument", "NotComplementable", "NotInjective", "NotRepresentable", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible", "UnknownOp"])
        .law("mode i of R is OP(mode i of L[, TUPLE_i]); modes past the shorter are appended")
        .example(&["logical_divide", "(8,6):(1,8)", "(2:1,_)"], "((2,4),6):((1,2),8)")
        .run(transform_layout),
    op("bw_coalesce", Topic::Algebra, "CuTe's backward coalesce of LAYOUT's flat modes onto the flat layout INIT (default: its last mode)")
        .params(&[one("", &[K::Layout]), opt("INIT", &[K::Int, K::Layout])])
        .returns(&[K::Layout])
        .errors(&["InvalidArgument", "Overflow"])
        .law("R(i) = (flatten(L)..., INIT...)(i) for every i of its domain, modes merged back to front")
        .example(&["(2,4):(1,2)", "3:8"], "24:1")
        .run(|a| Ok(a.layout(0)?.bw_coalesce(if a.len() == 2 { Some(a.layout(1)?) } else { None }.as_ref())?.to_string())),
    op("compact_order", Topic::Tuples, "the compact stride laying out the modes of SHAPE in the order ORDER ranks them")
        .params(&[one("", &[K::Shape]), one("ORDER|LayoutLeft|LayoutRight", &[K::Tuple, K::Tag("LayoutLeft"), K::Tag("LayoutRight")])])
        .returns(&[K::Tuple])
        .errors(&["InvalidArgument", "InvalidExtent", "Overflow"])
        .law("each leaf of ORDER lays out its node of SHAPE column-major from the product of the sizes of the nodes ranked strictly below it: compact when ORDER's leaves differ (equal ranks share a start, as CuTe)")
        .example(&["(2,(3,4))", "(1,0)"], "(12,(1,3))")
        .run(compact_order),
    op("make_coord_iterator", Topic::Tuples, "the coordinates of SHAPE in CuTe's iteration order, as a tuple (at most 65536 coordinates and 262144 integers in all)")
        .params(&[one("", &[K::Shape]), opt("START|_", &[K::Int, K::Underscore]), opt("ORDER", &[K::Tuple])])
        .returns(&[K::Tuple])
        .errors(&["CoordMismatch", "CoordOutOfRange", "InvalidArgument", "InvalidExtent", "Overflow", "TooLarge"])
        .law("from START (default 0) the leaf ORDER ranks 0 moves fastest; ORDER ranks the n leaves 0..n-1, each once (default: left to right, the 1-D index order)")
        .example(&["(2,3)"], "((0,0),(1,0),(0,1),(1,1),(0,2),(1,2))")
        .limits("at most 65536 coordinates (MAX_COORDINATES) and 262144 integers in all (MAX_COORDINATE_INTEGERS)")
        .run(coordinates),
    op("at_mode", Topic::Algebra, "OP applied to the sub-layout of LAYOUT at the index path MODE, the rest unchanged (PyCuTe op[mode])")
        .params(&[one("MODE", &[K::Int, K::Coord]), one("", &[K::Op]), one("", &[K::Layout, K::Composed]), many("ARGS", &[K::Text])])
        .returns(&[K::Layout, K::Composed])
        .errors(&["InvalidArgument", "InvalidExtent", "ModeOutOfRange", "ModesOverlap", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible", "UnknownOp"])
        .law("R at MODE is OP(L at MODE, ARGS...); every other mode is L's (CuTe: a tiler with _ elsewhere)")
        .example(&["1", "logical_divide", "((3,8),5):((1,3),24)", "5:1"], "((3,8),(5,1)):((1,3),(24,0))")
        .run(at_mode),
];

/// `domain_offset COORD LAYOUT|COMPOSED`.
fn domain_offset(a: &Args<'_>) -> Result<String, OpError> {
    let c = a.tuple(0)?;
    let l = a.any_layout(1)?;
    let (r, off) = l.domain_offset(&c)?;
    Ok(format!("({r},{off})"))
}

/// `max_alignment` of a layout, a swizzle (`2^M`) or a composed layout.
fn max_alignment(a: &Args<'_>) -> Result<String, OpError> {
    Ok(match a.func(0)? {
        Func::Layout(l) => l.max_alignment()?,
        Func::Swizzle(sw) => 1i64.checked_shl(sw.base() as u32).unwrap_or(i64::MAX),
        Func::Composed(c) => LayoutChain::from(c).max_alignment()?,
        Func::Chain(c) => c.max_alignment()?,
    }
    .to_string())
}

/// `f` of argument 0's layout; of a composed layout `A o O o f(B)` (CuTe's overloads of `zip`
/// and `tile_unzip` for `ComposedLayout`).
fn inner(
    a: &Args<'_>,
    f: impl FnOnce(&Layout) -> Result<Layout, cute_layout::LayoutError>,
) -> Result<String, OpError> {
    Ok(match a.chain(0)? {
        Some(c) => c.map(f)?.to_string(),
        None => f(&a.layout(0)?)?.to_string(),
    })
}

/// `zip`: of one layout or tuple, or of several (CuTe's `zip(t0, t1, ts...)`; for layouts CuTe
/// has the one- and two-argument forms only).
fn zip(a: &Args<'_>) -> Result<String, OpError> {
    if a.len() == 1 && a.chain(0)?.is_some() {
        return inner(a, |l| l.zip());
    }
    let items = (0..a.len())
        .map(|k| a.layout_or_tuple(k))
        .collect::<Result<Vec<_>, _>>()?;
    let layouts: Vec<&Layout> = items
        .iter()
        .filter_map(|e| match e {
            Either::Layout(l) => Some(l),
            Either::Tuple(_) => None,
        })
        .collect();
    if layouts.len() == items.len() {
        return Ok(match layouts[..] {
            [l] => l.zip()?,
            [x, y] => x.zip_with(y)?,
            _ => {
                return Err(OpError::new(
                    "BadRequest",
                    "zip: CuTe zips one or two layouts; zip tuples for more",
                ))
            }
        }
        .to_string());
    }
    if !layouts.is_empty() {
        return Err(OpError::new(
            "BadRequest",
            "zip: the arguments must be all layouts or all tuples",
        ));
    }
    let tuples: Vec<IntTuple> = items
        .into_iter()
        .filter_map(|e| match e {
            Either::Tuple(t) => Some(t),
            Either::Layout(_) => None,
        })
        .collect();
    Ok(match &tuples[..] {
        [t] => t.zip()?,
        _ => IntTuple::tuple(tuples)?.zip()?,
    }
    .to_string())
}

fn hier_unzip(a: &Args<'_>) -> Result<String, OpError> {
    let name = a.text_arg(0)?;
    let zipped = match name.trim() {
        "logical_divide" => "zipped_divide",
        "logical_product" => "zipped_product",
        other => {
            return Err(OpError::new(
                "BadRequest",
                format!("hier_unzip: argument 1 is {other:?}; CuTe unzips logical_divide or logical_product"),
            ))
        }
    };
    run_op(zipped, &a.args[1..])
}

/// The error for argument `k`'s text `t` whose brackets do not balance.
fn unbalanced(a: &Args<'_>, k: usize, t: &str) -> OpError {
    a.arg_error(
        "ParseError",
        k,
        format_args!(" ({t}) has unbalanced parentheses"),
    )
}

/// The text of each top-level element of argument `k`: the modes of a layout, the elements of
/// a tuple of layouts, tilers or integers (split at its top-level commas), or the argument
/// itself when it is neither a layout nor a tuple.
fn elements(a: &Args<'_>, k: usize) -> Result<Vec<String>, OpError> {
    let text = a.text(k, "tuple")?;
    let t = text.trim();
    if let Ok(l) = t.parse::<Layout>() {
        return Ok(l.modes().map(|m| m.to_string()).collect());
    }
    let Some(inner) = t.strip_prefix('(').and_then(|s| s.strip_suffix(')')) else {
        return Ok(vec![t.to_string()]);
    };
    let (mut out, mut depth, mut cur) = (Vec::new(), 0i32, String::new());
    for ch in inner.chars() {
        match ch {
            '(' | '<' => depth += 1,
            ')' | '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        if depth < 0 {
            return Err(unbalanced(a, k, t));
        }
        cur.push(ch);
    }
    if depth != 0 {
        return Err(unbalanced(a, k, t));
    }
    if !(out.is_empty() && cur.trim().is_empty()) {
        out.push(cur);
    }
    Ok(out.into_iter().map(|s| s.trim().to_string()).collect())
}

/// The answer of operation `name` on `args`, which must be a layout.
fn layout_answer(caller: &str, name: &str, args: &[Arg]) -> Result<Layout, OpError> {
    let r = run_op(name, args)?;
    r.parse().map_err(|_| {
        OpError::new(
            "BadRequest",
            format!("{caller}: {name} answers {r}, not a layout"),
        )
    })
}

/// `transform_layout OP LAYOUT [TUPLE]`: CuTe's `transform_layout(L, f)` and
/// `transform_layout(L, T, f)` with `f` an operation of the table that answers a layout.
fn transform_layout(a: &Args<'_>) -> Result<String, OpError> {
    let name = a.text_arg(0)?;
    let name = name.trim();
    crate::find(name).ok_or_else(|| crate::unknown_op(name))?;
    if a.is_swizzled(1) {
        // A o O o transform_layout(B): the modes are the inner layout's.
        if let Some(c) = a.chain(1)? {
            let mut args: Vec<Arg> = (0..a.len()).map(|k| a.args[k].clone()).collect();
            args[1] = Arg::Text(c.layout().to_string());
            let inner: Layout = run_op("transform_layout", &args)?
                .parse()
                .map_err(|e| OpError::new("BadRequest", format!("transform_layout: {e}")))?;
            return Ok(c.map(|_| Ok(inner))?.to_string());
        }
    }
    let l = a.layout(1)?;
    if a.len() == 2 {
        return Ok(l
            .transform_layout(|m| {
                layout_answer("transform_layout", name, &[Arg::Text(m.to_string())])
            })?
            .to_string());
    }
    let items = elements(a, 2)?;
    Ok(l.transform_layout_with(
        &items,
        |m, t| {
            layout_answer(
                "transform_layout",
                name,
                &[Arg::Text(m.to_string()), Arg::Text(t.clone())],
            )
        },
        |t| {
            t.parse::<Layout>().map_err(|_| {
                OpError::new(
                    "BadRequest",
                    format!("transform_layout: {t}, past the modes of {l}, is not a layout (CuTe appends it as a mode)"),
                )
            })
        },
    )?
    .to_string())
}

fn compact_order(a: &Args<'_>) -> Result<String, OpError> {
    let shape = a.tuple(0)?;
    if let Arg::Text(t) = &a.args[1] {
        match t.trim() {
            "LayoutLeft" => return Ok(IntTuple::compact_major(&shape, 1, false)?.to_string()),
            "LayoutRight" => return Ok(IntTuple::compact_major(&shape, 1, true)?.to_string()),
            _ => {}
        }
    }
    Ok(IntTuple::compact_order(&shape, &a.tuple(1)?)?.to_string())
}

fn coordinates(a: &Args<'_>) -> Result<String, OpError> {
    let shape = a.tuple(0)?;
    let start = match a.args.get(1) {
        Some(Arg::Text(t)) if t.trim() == "_" => None,
        Some(_) => Some(a.tuple(1)?),
        None => None,
    };
    let order = if a.len() == 3 {
        Some(a.tuple(2)?)
    } else {
        None
    };
    let cs = shape.coordinates(start.as_ref(), order.as_ref())?;
    // Written out directly: the list may hold more integers than one parsed value may.
    let mut out = String::from("(");
    for (i, c) in cs.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out += &c.to_string();
    }
    out.push(')');
    Ok(out)
}

/// `at_mode MODE OP LAYOUT [ARGS...]`.
fn at_mode(a: &Args<'_>) -> Result<String, OpError> {
    let mode = a.tuple(0)?;
    if mode.depth() > 1 {
        return Err(OpError::new(
            "BadRequest",
            format!("at_mode: MODE is an index or a flat tuple of indices, got {mode}"),
        ));
    }
    let path = mode
        .leaves()
        .iter()
        .map(|&i| usize::try_from(i))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| OpError::new("BadRequest", format!("at_mode: negative index in {mode}")))?;
    let name = a.text_arg(1)?;
    let name = name.trim();
    crate::find(name).ok_or_else(|| crate::unknown_op(name))?;
    let apply = |l: &Layout| {
        l.map_mode(&path, |m| {
            let mut args = vec![Arg::Text(m.to_string())];
            args.extend(a.args[3..].iter().cloned());
            layout_answer("at_mode", name, &args)
        })
    };
    // A composed layout `A o O o B` keeps its outer functions: `A o O o at_mode(B)`, as CuTe's
    // overloads of the domain operations for `ComposedLayout`.
    if let Some(c) = a.chain(2)? {
        let r = apply(c.layout())?;
        return Ok(c.map(|_| Ok(r))?.to_string());
    }
    Ok(apply(&a.layout(2)?)?.to_string())
}

/// Promotion of the left operand of `composition`, the divides and the products (NVlabs
/// PyCuTe's `tiler_to_layout`; not CuTe C++, whose left operand is a layout): an integer `n` is
/// the layout `n:1`, a shape `S` is `make_identity_layout(S)` (`(8,4)` is `(8,4):(1@0,1@1)`).
/// `Some(arguments)` with argument 0 replaced when it is an integer or a shape, else `None`.
pub(crate) fn promoted_left(a: &Args<'_>) -> Result<Option<Vec<Arg>>, OpError> {
    let shape = match &a.args[0] {
        Arg::Int(n) => IntTuple::int(*n),
        Arg::Text(_) if matches!(a.form(0), Form::Int | Form::Tuple) => match a.tuple(0) {
            Ok(s) => s,
            Err(_) => return Ok(None),
        },
        _ => return Ok(None),
    };
    let left = match shape.as_int() {
        Some(n) => Layout::col_major(IntTuple::int(n))?.to_string(),
        None => Layout::identity(shape)?.to_string(),
    };
    let mut args = a.args.to_vec();
    args[0] = Arg::Text(left);
    Ok(Some(args))
}

#[cfg(test)]
mod tests {
    use crate::test_util::{assert_kinds, kind, ok};

    #[test]
    fn transform_layout_of_a_composed_layout_acts_on_the_inner_layout() {
        let c = "Sw<3,3,3> o 0 o ((2,4),(8,8)):((1,2),(64,8))";
        assert_eq!(
            ok("transform_layout", &["coalesce", c]),
            "Sw<3,3,3> o 0 o (8,(8,8)):(1,(64,8))"
        );
        assert_eq!(
            ok(
                "transform_layout",
                &["logical_divide", "32:2 o 3 o (8,6):(1,8)", "(2:1,_)"]
            ),
            "32:2 o 3 o ((2,4),6):((1,2),8)"
        );
        assert_eq!(kind("transform_layout", &["nope", c]), "UnknownOp");
    }

    #[test]
    fn construct_answers() {
        assert_eq!(
            ok("domain_offset", &["(1,2)", "(4,4):(4,1)"]),
            "((4,4):(4,1),6)"
        );
        assert_eq!(
            ok("domain_offset", &["(1,2)", "32:2 o 3 o (2,4):(1,2)"]),
            "(32:2 o 8 o (2,4):(1,2),0)"
        );
        assert_eq!(ok("max_alignment", &["(2,2,2):(1,4,16)"]), "2");
        assert_eq!(
            ok("zip", &["(2,3):(1,2)", "(4,5):(6,24)"]),
            "((2,4),(3,5)):((1,6),(2,24))"
        );
        assert_eq!(ok("zip", &["(1,2)", "(3,4)"]), "((1,3),(2,4))");
        assert_eq!(ok("zip", &["((1,2,3),(4,5,6))"]), "((1,4),(2,5),(3,6))");
        assert_eq!(
            ok("hier_unzip", &["logical_product", "(2,2):(1,2)", "(3,4)"]),
            ok("zipped_product", &["(2,2):(1,2)", "(3,4)"])
        );
        assert_eq!(
            ok(
                "transform_layout",
                &["coalesce", "((2,4),(3,1)):((1,2),(8,0))"]
            ),
            "(8,3):(1,8)"
        );
        assert_eq!(
            ok(
                "transform_layout",
                &["composition", "(8,6):(1,8)", "(2:2,3:2)"]
            ),
            "(2,3):(2,16)"
        );
        assert_eq!(
            ok("transform_layout", &["logical_divide", "8:1", "(2:1,6:8)"]),
            "((2,4),6):((1,2),8)"
        );
        assert_eq!(
            ok("bw_coalesce", &["(2,4):(1,2)", "(3,5):(7,1)"]),
            "(8,3,5):(1,7,1)"
        );
        assert_eq!(ok("compact_order", &["(4,8)", "(5,5)"]), "(1,1)");
        assert_eq!(ok("compact_order", &["(2,3,4)", "LayoutRight"]), "(12,4,1)");
        assert_eq!(
            ok("make_coord_iterator", &["(2,3)", "_", "(1,0)"]),
            "((0,0),(0,1),(0,2),(1,0),(1,1),(1,2))"
        );
        assert_eq!(ok("make_coord_iterator", &["4", "2"]), "(2,3)");
        assert_eq!(
            ok(
                "at_mode",
                &["(0,1)", "logical_divide", "((3,8),5):((1,3),24)", "4:2"]
            ),
            "((3,(4,2)),5):((1,(6,3)),24)"
        );
        assert_eq!(ok("at_mode", &["()", "coalesce", "(2,4):(1,2)"]), "8:1");
        assert_eq!(
            ok(
                "at_mode",
                &[
                    "1",
                    "logical_divide",
                    "Sw<3,3,3> o 0 o (8,64):(64,1)",
                    "8:1"
                ]
            ),
            ok(
                "logical_divide",
                &["Sw<3,3,3> o 0 o (8,64):(64,1)", "(_,8:1)"]
            )
        );
        assert_kinds(&[
            ("zip", &["(1,2)", "3:1"], "BadRequest"),
            ("zip", &["((1,2),(3,4,5))"], "RankMismatch"),
            ("hier_unzip", &["composition", "8:1", "2"], "BadRequest"),
            ("transform_layout", &["size", "(8,6):(1,8)"], "BadRequest"),
            (
                "transform_layout",
                &["logical_divide", "8:1", "(2:1,3)"],
                "BadRequest",
            ),
            ("make_coord_iterator", &["(512,512)"], "TooLarge"),
            (
                "at_mode",
                &["2", "coalesce", "(2,4):(1,2)"],
                "ModeOutOfRange",
            ),
            ("at_mode", &["0", "size", "(2,4):(1,2)"], "BadRequest"),
        ]);
    }

    /// NVlabs PyCuTe's `op[mode]` cases (test_logical_divide.py, test_logical_product.py,
    /// test_composition.py, test_coalesce.py) agree with CuTe's tilers with `_` elsewhere.
    #[test]
    fn at_mode_is_a_tiler_with_underscores() {
        let a = "((3,8),5):((1,3),24)";
        for (mode, tiler) in [("0", "(4:2,_)"), ("1", "(_,4:2)"), ("(0,1)", "((_,4:2),_)")] {
            assert_eq!(
                ok("at_mode", &[mode, "logical_divide", a, "4:2"]),
                ok("logical_divide", &[a, tiler])
            );
        }
        assert_eq!(
            ok("at_mode", &["1", "composition", "(4,6):(1,4)", "3:2"]),
            "(4,3):(1,8)"
        );
        assert_eq!(
            ok("at_mode", &["1", "composition", "(4,6):(1,4)", "3:2"]),
            ok("composition", &["(4,6):(1,4)", "(_,3:2)"])
        );
        assert_eq!(
            ok("at_mode", &["1", "logical_product", "(2,4):(1,2)", "2:1"]),
            ok("logical_product", &["(2,4):(1,2)", "(_,2:1)"])
        );
        assert_eq!(
            ok("at_mode", &["1", "coalesce", "(2,(2,2)):(1,(2,4))"]),
            ok("coalesce", &["(2,(2,2)):(1,(2,4))", "(_,_)"])
        );
        // zipped_divide[0](A, tiler) == make_layout([zipped_divide(A[0], tiler), A[1]])
        let z = ok(
            "at_mode",
            &[
                "0",
                "zipped_divide",
                "((9,32),7):((1,9),288)",
                "(3:3,(2,4):(1,8))",
            ],
        );
        let inner = ok("zipped_divide", &["(9,32):(1,9)", "(3:3,(2,4):(1,8))"]);
        assert_eq!(z, ok("concat", &[&inner, "7:288"]));
    }

    /// NVlabs' promotion of an integer or a shape on the left (tiler_to_layout).
    #[test]
    fn left_promotion() {
        assert_eq!(ok("composition", &["12", "(4,3):(1,4)"]), "(4,3):(1,4)");
        assert_eq!(
            ok("composition", &["(8,4)", "((4,2),4):((8,4),1)"]),
            "((4,2),4):((1@1,4@0),1@0)"
        );
        assert_eq!(
            ok("logical_divide", &["6", "2:1"]),
            ok("logical_divide", &["6:1", "2:1"])
        );
    }
}
