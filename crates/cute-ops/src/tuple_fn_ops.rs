//! CuTe's tuple algorithms (`cute/algorithm/tuple_algorithms.hpp`): `repeat`, `repeat_like`,
//! `wrap`, `unwrap`, `reverse`, `front`, `back` (the library's [`IntTuple`] methods), and the
//! higher-order ones whose function is one operation of the table, called on each top-level
//! element as `transform_layout OP` does: `transform`, `fold`, `any_of`/`all_of`/`none_of`,
//! `tuple_find` (CuTe's `find`; `cute find` is `find_layout`) / `find_if`, `iscan`/`escan`.
//! One table, [`TUPLE_FN_OPS`], in [`crate::GROUPS`].

use cute_layout::IntTuple;

use crate::help::{h, OpHelp};
use crate::{bit, op, run_op, Arg, Args, OpError, OpSpec, MANY};

/// The tuple-algorithm operations, one line each (hence `rustfmt::skip`).
#[rustfmt::skip]
pub static TUPLE_FN_OPS: &[OpSpec] = &[
    op("repeat", "N X", (2, 2), "CuTe repeat<N>(x): the tuple of N copies of X (X itself for N = 1)", |a| Ok(IntTuple::repeat(&a.tuple(1)?, a.int(0)?)?.to_string())),
    op("repeat_like", "TUPLE V", (2, 2), "TUPLE's tree with every leaf V", |a| Ok(IntTuple::repeat_like(&a.tuple(0)?, a.int(1)?).to_string())),
    op("wrap", "TUPLE", (1, 1), "X if a tuple, else (X)", |a| Ok(a.tuple(0)?.wrap().to_string())),
    op("unwrap", "TUPLE", (1, 1), "the element of a rank-1 tuple, repeatedly (((7)) is 7)", |a| Ok(a.tuple(0)?.unwrap_tuple().to_string())),
    op("reverse", "TUPLE", (1, 1), "the top-level elements in reverse order", |a| Ok(a.tuple(0)?.reverse().to_string())),
    op("front", "TUPLE", (1, 1), "the first leaf (front(get<0>(t)), recursively)", |a| Ok(a.tuple(0)?.front().to_string())),
    op("back", "TUPLE", (1, 1), "the last leaf (back(get<R-1>(t)), recursively)", |a| Ok(a.tuple(0)?.back().to_string())),
    op("transform", "OP TUPLE [ARGS...]", (2, MANY), "(OP(t0, ARGS...), OP(t1, ARGS...), ...) over the top-level elements (OP(t, ARGS...) for an integer)", transform),
    op("fold", "OP TUPLE INIT", (3, 3), "OP(...OP(OP(INIT, t0), t1)..., t_last)", |a| scan(a, Scan::Fold)),
    op("iscan", "OP TUPLE INIT", (3, 3), "inclusive scan: r_i = OP(r_{i-1}, t_i), r_{-1} = INIT", |a| scan(a, Scan::Inclusive)),
    op("escan", "OP TUPLE INIT", (3, 3), "exclusive scan: r_0 = INIT, r_i = OP(r_{i-1}, t_{i-1})", |a| scan(a, Scan::Exclusive)),
    op("any_of", "PRED TUPLE [ARGS...]", (2, MANY), "1 if PRED(t_i, ARGS...) is 1 for some top-level element", |a| quantify(a, Quant::Any)),
    op("all_of", "PRED TUPLE [ARGS...]", (2, MANY), "1 if PRED(t_i, ARGS...) is 1 for every top-level element", |a| quantify(a, Quant::All)),
    op("none_of", "PRED TUPLE [ARGS...]", (2, MANY), "1 if PRED(t_i, ARGS...) is 1 for no top-level element", |a| quantify(a, Quant::None)),
    op("tuple_find", "TUPLE X", (2, 2), "the index of the first top-level element equal to X (the rank if none)", find),
    op("find_if", "PRED TUPLE [ARGS...]", (2, MANY), "the index of the first top-level element with PRED(t_i, ARGS...) = 1 (the rank if none)", find_if),
];

/// The help of [`TUPLE_FN_OPS`].
#[rustfmt::skip]
pub static TUPLE_FN_HELP: &[OpHelp] = &[
    h("repeat", "rank(R) = N and every element of R is X (R = X for N = 1)", &["3", "(2,4)"], "((2,4),(2,4),(2,4))"),
    h("repeat_like", "R is congruent to TUPLE and every leaf is V", &["((2,3),4)", "0"], "((0,0),0)"),
    h("wrap", "R is X for a tuple, (X) for an integer; unwrap(wrap(X)) = unwrap(X)", &["7"], "(7)"),
    h("unwrap", "R = unwrap(get<0>(X)) while X is a rank-1 tuple", &["((7))"], "7"),
    h("reverse", "get<i>(R) = get<rank-1-i>(X); reverse(reverse(X)) = X", &["((1,2),3,4)"], "(4,3,(1,2))"),
    h("front", "R = the first leaf of flatten(X)", &["((1,2),3)"], "1"),
    h("back", "R = the last leaf of flatten(X)", &["((1,2),(3,4))"], "4"),
    h("transform", "get<i>(R) = OP(get<i>(TUPLE), ARGS...)", &["product", "((2,3),4,(5,6))"], "(6,4,30)"),
    h("fold", "R = OP(fold(OP, init(TUPLE), INIT), back(TUPLE)); fold of () is INIT", &["shape_div", "(2,4)", "64"], "8"),
    h("iscan", "get<i>(R) = fold(OP, take<0,i+1>(TUPLE), INIT)", &["elem_scale", "(2,3,4)", "1"], "(2,6,24)"),
    h("escan", "get<i>(R) = fold(OP, take<0,i>(TUPLE), INIT)", &["elem_scale", "(2,3,4)", "1"], "(1,2,6)"),
    h("any_of", "R = OR of PRED(t_i, ARGS...)", &["congruent", "((1,2),3)", "0"], "1"),
    h("all_of", "R = AND of PRED(t_i, ARGS...)", &["congruent", "((1,2),3)", "0"], "0"),
    h("none_of", "R = not any_of", &["congruent", "((1,2),(3,4))", "0"], "1"),
    h("tuple_find", "get<R>(TUPLE) = X and no earlier element is; R = rank if none", &["(2,(3,4),5)", "5"], "2"),
    h("find_if", "PRED(get<R>(TUPLE), ARGS...) = 1 and no earlier one is; R = rank if none", &["congruent", "((1,2),3,4)", "0"], "1"),
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
