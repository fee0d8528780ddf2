//! CuTe's tuple algorithms (`cute/algorithm/tuple_algorithms.hpp`): `repeat`, `repeat_like`,
//! `wrap`, `unwrap`, `reverse`, `front`, `back` (the library's [`IntTuple`] methods), and the
//! higher-order ones whose function is one operation of the table, called on each top-level
//! element as `transform_layout OP` does: `transform`, `fold`, `any_of`/`all_of`/`none_of`,
//! `tuple_find` (CuTe's `find`; `cute find` is `find_layout`) / `find_if`, `iscan`/`escan`.
//! One table, [`TUPLE_FN_OPS`], in [`crate::GROUPS`].

use cute_layout::IntTuple;

use crate::table::{many, one, Kind as K, Topic};
use crate::{bit, op, run_op, Arg, Args, OpError, OpSpec};

/// The tuple-algorithm operations, one declaration each (hence `rustfmt::skip`).
#[rustfmt::skip]
pub static TUPLE_FN_OPS: &[OpSpec] = &[
    op("repeat", Topic::Tuples, "CuTe repeat<N>(x): the tuple of N copies of X (X itself for N = 1)")
        .params(&[one("N", &[K::Int]), one("X", &[K::Tuple])])
        .returns(&[K::Tuple])
        .errors(&["InvalidArgument", "Overflow"])
        .law("rank(R) = N and every element of R is X (R = X for N = 1)")
        .example(&["3", "(2,4)"], "((2,4),(2,4),(2,4))")
        .run(|a| Ok(IntTuple::repeat(&a.tuple(1)?, a.int(0)?)?.to_string())),
    op("repeat_like", Topic::Tuples, "TUPLE's tree with every leaf V")
        .params(&[one("", &[K::Tuple]), one("V", &[K::Int])])
        .returns(&[K::Tuple])
        .law("R is congruent to TUPLE and every leaf is V")
        .example(&["((2,3),4)", "0"], "((0,0),0)")
        .run(|a| Ok(IntTuple::repeat_like(&a.tuple(0)?, a.int(1)?).to_string())),
    op("wrap", Topic::Tuples, "X if a tuple, else (X)")
        .params(&[one("", &[K::Tuple])])
        .returns(&[K::Tuple])
        .law("R is X for a tuple, (X) for an integer; unwrap(wrap(X)) = unwrap(X)")
        .example(&["7"], "(7)")
        .run(|a| Ok(a.tuple(0)?.wrap().to_string())),
    op("unwrap", Topic::Tuples, "the element of a rank-1 tuple, repeatedly (((7)) is 7)")
        .params(&[one("", &[K::Tuple])])
        .returns(&[K::Int, K::Tuple])
        .law("R = unwrap(get<0>(X)) while X is a rank-1 tuple")
        .example(&["((7))"], "7")
        .run(|a| Ok(a.tuple(0)?.unwrap_tuple().to_string())),
    op("reverse", Topic::Tuples, "the top-level elements in reverse order")
        .params(&[one("", &[K::Tuple])])
        .returns(&[K::Tuple])
        .law("get<i>(R) = get<rank-1-i>(X); reverse(reverse(X)) = X")
        .example(&["((1,2),3,4)"], "(4,3,(1,2))")
        .run(|a| Ok(a.tuple(0)?.reverse().to_string())),
    op("front", Topic::Tuples, "the first leaf (front(get<0>(t)), recursively)")
        .params(&[one("", &[K::Tuple])])
        .returns(&[K::Int, K::Tuple])
        .law("R = the first leaf of flatten(X)")
        .example(&["((1,2),3)"], "1")
        .run(|a| Ok(a.tuple(0)?.front().to_string())),
    op("back", Topic::Tuples, "the last leaf (back(get<R-1>(t)), recursively)")
        .params(&[one("", &[K::Tuple])])
        .returns(&[K::Int, K::Tuple])
        .law("R = the last leaf of flatten(X)")
        .example(&["((1,2),(3,4))"], "4")
        .run(|a| Ok(a.tuple(0)?.back().to_string())),
    op("transform", Topic::Tuples, "(OP(t0, ARGS...), OP(t1, ARGS...), ...) over the top-level elements (OP(t, ARGS...) for an integer)")
        .params(&[one("", &[K::Op]), one("", &[K::Tuple]), many("ARGS", &[K::Text])])
        .returns(&[K::Tuple, K::Layout, K::Tiler])
        .errors(&["InvalidArgument", "InvalidExtent", "ModesOverlap", "NotComplementable", "NotImplemented", "NotInjective", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible", "UnknownOp"])
        .law("get<i>(R) = OP(get<i>(TUPLE), ARGS...)")
        .example(&["product", "((2,3),4,(5,6))"], "(6,4,30)")
        .run(transform),
    op("fold", Topic::Tuples, "OP(...OP(OP(INIT, t0), t1)..., t_last)")
        .params(&[one("", &[K::Op]), one("", &[K::Tuple]), one("INIT", &[K::Int])])
        .returns(&[K::Int, K::Tuple, K::Layout, K::Tiler])
        .errors(&["InvalidArgument", "InvalidExtent", "ModesOverlap", "Overflow", "RankMismatch", "ShapeNotDivisible", "UnknownOp"])
        .law("R = OP(fold(OP, init(TUPLE), INIT), back(TUPLE)); fold of () is INIT")
        .example(&["shape_div", "(2,4)", "64"], "8")
        .run(|a| scan(a, Scan::Fold)),
    op("iscan", Topic::Tuples, "inclusive scan: r_i = OP(r_{i-1}, t_i), r_{-1} = INIT")
        .params(&[one("", &[K::Op]), one("", &[K::Tuple]), one("INIT", &[K::Int])])
        .returns(&[K::Tuple, K::Layout, K::Tiler])
        .errors(&["InvalidArgument", "InvalidExtent", "ModesOverlap", "NotInjective", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible", "UnknownOp"])
        .law("get<i>(R) = fold(OP, take<0,i+1>(TUPLE), INIT)")
        .example(&["elem_scale", "(2,3,4)", "1"], "(2,6,24)")
        .run(|a| scan(a, Scan::Inclusive)),
    op("escan", Topic::Tuples, "exclusive scan: r_0 = INIT, r_i = OP(r_{i-1}, t_{i-1})")
        .params(&[one("", &[K::Op]), one("", &[K::Tuple]), one("INIT", &[K::Int])])
        .returns(&[K::Tuple, K::Layout, K::Tiler])
        .errors(&["InvalidArgument", "InvalidExtent", "ModesOverlap", "Overflow", "RankMismatch", "ShapeNotDivisible", "UnknownOp"])
        .law("get<i>(R) = fold(OP, take<0,i>(TUPLE), INIT)")
        .example(&["elem_scale", "(2,3,4)", "1"], "(1,2,6)")
        .run(|a| scan(a, Scan::Exclusive)),
    op("any_of", Topic::Tuples, "1 if PRED(t_i, ARGS...) is 1 for some top-level element")
        .params(&[one("PRED", &[K::Op]), one("", &[K::Tuple]), many("ARGS", &[K::Text])])
        .returns(&[K::Bool])
        .errors(&["InvalidArgument", "InvalidExtent", "NotImplemented", "NotInjective", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible", "UnknownOp"])
        .law("R = OR of PRED(t_i, ARGS...)")
        .example(&["congruent", "((1,2),3)", "0"], "1")
        .run(|a| quantify(a, Quant::Any)),
    op("all_of", Topic::Tuples, "1 if PRED(t_i, ARGS...) is 1 for every top-level element")
        .params(&[one("PRED", &[K::Op]), one("", &[K::Tuple]), many("ARGS", &[K::Text])])
        .returns(&[K::Bool])
        .errors(&["InvalidArgument", "InvalidExtent", "NotImplemented", "Overflow", "RankMismatch", "ShapeNotDivisible", "UnknownOp"])
        .law("R = AND of PRED(t_i, ARGS...)")
        .example(&["congruent", "((1,2),3)", "0"], "0")
        .run(|a| quantify(a, Quant::All)),
    op("none_of", Topic::Tuples, "1 if PRED(t_i, ARGS...) is 1 for no top-level element")
        .params(&[one("PRED", &[K::Op]), one("", &[K::Tuple]), many("ARGS", &[K::Text])])
        .returns(&[K::Bool])
        .errors(&["InvalidArgument", "InvalidExtent", "NotComplementable", "NotImplemented", "NotInjective", "Overflow", "RankMismatch", "ShapeNotDivisible", "UnknownOp"])
        .law("R = not any_of")
        .example(&["congruent", "((1,2),(3,4))", "0"], "1")
        .run(|a| quantify(a, Quant::None)),
    op("tuple_find", Topic::Tuples, "the index of the first top-level element equal to X (the rank if none)")
        .params(&[one("", &[K::Tuple]), one("X", &[K::Tuple])])
        .returns(&[K::Int])
        .law("get<R>(TUPLE) = X and no earlier element is; R = rank if none")
        .example(&["(2,(3,4),5)", "5"], "2")
        .run(find),
    op("find_if", Topic::Tuples, "the index of the first top-level element with PRED(t_i, ARGS...) = 1 (the rank if none)")
        .params(&[one("PRED", &[K::Op]), one("", &[K::Tuple]), many("ARGS", &[K::Text])])
        .returns(&[K::Int])
        .errors(&["InvalidArgument", "InvalidExtent", "ModesOverlap", "NotComplementable", "NotImplemented", "Overflow", "RankMismatch", "ShapeNotDivisible", "UnknownOp"])
        .law("PRED(get<R>(TUPLE), ARGS...) = 1 and no earlier one is; R = rank if none")
        .example(&["congruent", "((1,2),3,4)", "0"], "1")
        .run(find_if),
];

/// The operation named by argument `k`, checked to exist.
fn fn_name(a: &Args<'_>, k: usize) -> Result<String, OpError> {
    let name = a.text_arg(k)?.trim().to_string();
    crate::find(&name).ok_or_else(|| crate::unknown_op(&name))?;
    Ok(name)
}

/// The top-level elements of argument `k` as text (an integer is one element, as CuTe applies
/// the function to it directly).
fn elements(a: &Args<'_>, k: usize) -> Result<(IntTuple, Vec<String>), OpError> {
    let t = a.tuple(k)?;
    let elems = if t.is_int() {
        vec![t.to_string()]
    } else {
        t.elements().map(|e| e.to_string()).collect()
    };
    Ok((t, elems))
}

/// `name(first, rest...)`, its error naming the algorithm.
fn call(alg: &str, name: &str, first: &str, rest: &[Arg]) -> Result<String, OpError> {
    let mut args = vec![Arg::Text(first.to_string())];
    args.extend_from_slice(rest);
    run_op(name, &args)
        .map_err(|e| OpError::new(e.kind, format!("{alg} {name} at {first}: {}", e.message)))
}

fn join(items: &[String]) -> String {
    format!("({})", items.join(","))
}

fn transform(a: &Args<'_>) -> Result<String, OpError> {
    let name = fn_name(a, 0)?;
    let (t, elems) = elements(a, 1)?;
    let rest: Vec<Arg> = (2..a.len())
        .map(|k| Arg::Text(a.text_arg(k).unwrap_or_default()))
        .collect();
    let out: Vec<String> = elems
        .iter()
        .map(|e| call("transform", &name, e, &rest))
        .collect::<Result<_, _>>()?;
    Ok(if t.is_int() {
        out[0].clone()
    } else {
        join(&out)
    })
}

#[derive(Clone, Copy, PartialEq)]
enum Scan {
    Fold,
    Inclusive,
    Exclusive,
}

fn scan(a: &Args<'_>, kind: Scan) -> Result<String, OpError> {
    let name = fn_name(a, 0)?;
    let (t, elems) = elements(a, 1)?;
    let mut acc = a.text_arg(2)?.trim().to_string();
    let alg = match kind {
        Scan::Fold => "fold",
        Scan::Inclusive => "iscan",
        Scan::Exclusive => "escan",
    };
    let mut out = Vec::with_capacity(elems.len());
    for e in &elems {
        if kind == Scan::Exclusive {
            out.push(acc.clone());
        }
        acc = call(alg, &name, &acc, &[Arg::Text(e.clone())])?;
        if kind == Scan::Inclusive {
            out.push(acc.clone());
        }
    }
    Ok(match kind {
        Scan::Fold => acc,
        _ if t.is_int() => out[0].clone(),
        _ => join(&out),
    })
}

/// Whether `PRED(e, rest...)` holds: the predicate must answer `1` or `0`.
fn holds(alg: &str, name: &str, e: &str, rest: &[Arg]) -> Result<bool, OpError> {
    match call(alg, name, e, rest)?.trim() {
        "1" => Ok(true),
        "0" => Ok(false),
        other => Err(OpError::new(
            "BadRequest",
            format!("{alg}: {name} answers {other} at {e}, not a predicate's 1 or 0"),
        )),
    }
}

#[derive(Clone, Copy)]
enum Quant {
    Any,
    All,
    None,
}

fn quantify(a: &Args<'_>, q: Quant) -> Result<String, OpError> {
    let name = fn_name(a, 0)?;
    let (_, elems) = elements(a, 1)?;
    let rest: Vec<Arg> = (2..a.len())
        .map(|k| Arg::Text(a.text_arg(k).unwrap_or_default()))
        .collect();
    let alg = a.op;
    let mut any = false;
    let mut all = true;
    for e in &elems {
        let h = holds(alg, &name, e, &rest)?;
        any |= h;
        all &= h;
    }
    Ok(bit(match q {
        Quant::Any => any,
        Quant::All => all,
        Quant::None => !any,
    }))
}

fn find(a: &Args<'_>) -> Result<String, OpError> {
    let t = a.tuple(0)?;
    let x = a.tuple(1)?;
    if t.is_int() {
        return Ok(if t == x { "0" } else { "1" }.to_string());
    }
    let i = t.elements().position(|e| e == x).unwrap_or(t.rank());
    Ok(i.to_string())
}

fn find_if(a: &Args<'_>) -> Result<String, OpError> {
    let name = fn_name(a, 0)?;
    let (_, elems) = elements(a, 1)?;
    let rest: Vec<Arg> = (2..a.len())
        .map(|k| Arg::Text(a.text_arg(k).unwrap_or_default()))
        .collect();
    for (i, e) in elems.iter().enumerate() {
        if holds("find_if", &name, e, &rest)? {
            return Ok(i.to_string());
        }
    }
    Ok(elems.len().to_string())
}

#[cfg(test)]
mod tests {
    use crate::test_util::run;

    #[test]
    fn higher_order() {
        assert_eq!(
            run("transform", &["shape_div", "(8,(4,16),6)", "2"]).unwrap(),
            "(4,(2,16),3)"
        );
        assert_eq!(run("transform", &["size", "7"]).unwrap(), "7");
        assert_eq!(run("fold", &["elem_scale", "()", "5"]).unwrap(), "5");
        assert_eq!(
            run("iscan", &["ceil_div", "(2,3)", "20"]).unwrap(),
            "(10,4)"
        );
        assert_eq!(
            run("escan", &["ceil_div", "(2,3)", "20"]).unwrap(),
            "(20,10)"
        );
        assert_eq!(
            run("find_if", &["congruent", "((1,2),(3,4))", "0"]).unwrap(),
            "2"
        );
        assert_eq!(run("tuple_find", &["(2,3)", "(3)"]).unwrap(), "2");
        assert_eq!(run("tuple_find", &["4", "4"]).unwrap(), "0");
    }

    /// Laws over a small domain: fold is the last of iscan, escan shifted by one is iscan,
    /// none_of is not any_of, all_of is none_of the negation (checked through find_if).
    #[test]
    fn scan_and_quantifier_laws() {
        for t in ["(2,3,4)", "(1,(2,2),3)", "(5)", "(2,2,2,2)"] {
            let is = run("iscan", &["elem_scale", t, "1"]).unwrap();
            let es = run("escan", &["elem_scale", t, "1"]).unwrap();
            let f = run("fold", &["elem_scale", t, "1"]).unwrap();
            assert_eq!(run("back", &[&is]).ok().map(|_| ()), Some(()));
            assert_eq!(
                run(
                    "get",
                    &[
                        &is,
                        &(run("rank", &[t]).unwrap().parse::<usize>().unwrap() - 1).to_string()
                    ]
                )
                .unwrap(),
                f
            );
            assert_eq!(run("get", &[&es, "0"]).unwrap(), "1");
            let any = run("any_of", &["congruent", t, "0"]).unwrap();
            let none = run("none_of", &["congruent", t, "0"]).unwrap();
            assert_ne!(any, none);
        }
    }

    #[test]
    fn errors_are_typed() {
        assert_eq!(
            run("transform", &["nope", "(1,2)"]).unwrap_err(),
            "UnknownOp"
        );
        assert_eq!(run("any_of", &["size", "(2,3)"]).unwrap_err(), "BadRequest");
        assert_eq!(run("repeat", &["0", "1"]).unwrap_err(), "InvalidArgument");
        assert_eq!(
            run("transform", &["shape_div", "(8,3)", "2"]).unwrap_err(),
            "InvalidArgument"
        );
    }
}
