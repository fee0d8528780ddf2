//! `cute find` and `cute explain`, and the batch operations of layout analysis (`find_layout`,
//! `equal`, `injective`, `surjective`, `bijective`; their lines are in [`crate::OPS`]).

use cute_layout::analysis::explain::{
    explain_composed_layout, explain_layout_swizzle, explain_swizzle_layout,
};
use cute_layout::analysis::explain_composition_tiler;
use cute_layout::{
    analysis::explain_coalesce, analysis::explain_complement, analysis::explain_downcast,
    analysis::explain_left_inverse, analysis::explain_logical_divide,
    analysis::explain_logical_product, analysis::explain_nullspace, analysis::explain_rearranged,
    analysis::explain_right_inverse, analysis::explain_upcast, analysis::find_layout,
    analysis::find_layout_with_shape, ComposedLayout, IntTuple, Layout, Swizzle, Tiler,
};

use crate::value::{Form, Value};
use crate::{Args, OpError};

/// Parses `0,2,4` (or several such words) into values.
pub fn parse_values(words: &[String]) -> Result<Vec<i64>, OpError> {
    let mut out = Vec::new();
    for w in words {
        for part in w.split(',') {
            let t = part.trim();
            if t.is_empty() {
                if words.len() == 1 && w.trim().is_empty() {
                    break;
                }
                return Err(OpError::new(
                    "ParseError",
                    format!("find_layout: empty value in {w:?}"),
                ));
            }
            out.push(t.parse().map_err(|_| {
                OpError::new(
                    "ParseError",
                    format!("find_layout: {t:?} is not a 64-bit integer"),
                )
            })?);
        }
    }
    Ok(out)
}

/// `cute find VALUES... [--shape SHAPE]`.
pub fn find(words: &[String], shape: Option<&str>) -> Result<String, OpError> {
    let values = parse_values(words)?;
    let l = match shape {
        None => find_layout(&values)?,
        Some(s) => {
            let shape: IntTuple = s
                .parse()
                .map_err(|e| OpError::new("ParseError", format!("find: shape: {e}")))?;
            find_layout_with_shape(&values, &shape)?
        }
    };
    Ok(l.to_string())
}

/// Batch `find_layout VALUES [SHAPE]`.
pub fn find_op(a: &Args<'_>) -> Result<String, OpError> {
    let values = parse_values(&[a.text_arg(0)?])?;
    Ok(if a.len() == 2 {
        find_layout_with_shape(&values, &a.tuple(1)?)?
    } else {
        find_layout(&values)?
    }
    .to_string())
}

fn bit(b: bool) -> String {
    String::from(if b { "1" } else { "0" })
}

/// Batch `equal A B`.
pub fn equal(a: &Args<'_>) -> Result<String, OpError> {
    Ok(bit(a.layout(0)?.same_function(&a.layout(1)?)))
}

/// Batch `injective L`.
pub fn injective(a: &Args<'_>) -> Result<String, OpError> {
    Ok(bit(a.layout(0)?.is_injective()?))
}

/// The operations `cute explain` knows, as `cute explain --help` lists them.
pub const EXPLAINED_HELP: &str = "Operations:\n  \
    composition A B|TILER (A or B may be a swizzle Sw<B,M,S>, A a swizzled layout)\n  \
    coalesce A\n  \
    right_inverse A, left_inverse A, nullspace A\n  \
    upcast N A, downcast N A\n  \
    complement A [COTARGET]\n  \
    logical_divide, zipped_divide, tiled_divide, flat_divide A TILER\n  \
    logical_product, zipped_product, tiled_product, flat_product A TILER\n  \
    blocked_product, raked_product A B";

/// The operations `cute explain` knows, with their usage.
pub const EXPLAINED: &str =
    "composition A B|TILER | coalesce A | right_inverse A | left_inverse A | nullspace A | \
    upcast N A | downcast N A | complement A [COTARGET] | logical_divide A TILER | \
    zipped_divide, tiled_divide, flat_divide A TILER | logical_product A TILER | \
    zipped_product, tiled_product, flat_product A TILER | blocked_product, raked_product A B";

fn parse<T: std::str::FromStr<Err = cute_layout::ParseError>>(
    what: &str,
    k: usize,
    s: &str,
) -> Result<T, OpError> {
    s.parse()
        .map_err(|e| OpError::new("ParseError", format!("explain: argument {k} ({what}): {e}")))
}

/// Batch `explain OP ARGS...`.
pub fn explain_op(a: &Args<'_>) -> Result<String, OpError> {
    let words = (1..a.len())
        .map(|k| a.text_arg(k))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(explain(&a.text_arg(0)?, &words)?.trim_end().to_string())
}

/// Whether `text` is a swizzle or a composed layout whose outermost function is a swizzle (read
/// by the grammar, [`Value::of_text`]).
fn swizzle_outer(text: &str) -> bool {
    Value::of_text(text.trim()).is_swizzle_outer()
}

/// `cute explain OP ARGS...`: the derivation, or the refusal with its reasons (exit status 0
/// either way: the explanation is the answer).
pub fn explain(op: &str, args: &[String]) -> Result<String, OpError> {
    let arity = |lo: usize, hi: usize| -> Result<(), OpError> {
        if args.len() < lo || args.len() > hi {
            return Err(OpError::new(
                "Arity",
                format!(
                    "explain {op}: expected {lo}{} arguments, got {}",
                    if hi > lo {
                        format!(" to {hi}")
                    } else {
                        String::new()
                    },
                    args.len()
                ),
            ));
        }
        Ok(())
    };
    let e = match op {
        "composition" if args.iter().any(|a| swizzle_outer(a)) => {
            arity(2, 2)?;
            let (x, y) = (args[0].trim(), args[1].trim());
            let e = if Form::of_text(x) == Form::Swizzle {
                let sw: Swizzle = parse("swizzle", 1, x)?;
                explain_swizzle_layout(&sw, &parse("layout", 2, y)?)
            } else if Form::of_text(y) == Form::Swizzle {
                let sw: Swizzle = parse("swizzle", 2, y)?;
                explain_layout_swizzle(&parse("layout", 1, x)?, &sw)
            } else if swizzle_outer(x) && !swizzle_outer(y) {
                let c: ComposedLayout = parse("swizzled layout", 1, x)?;
                explain_composed_layout(&c, &parse("layout", 2, y)?)
            } else {
                return Err(OpError::new(
                    "NotImplemented",
                    "explain composition: a swizzled layout on the right is not explained; cute composition computes it",
                ));
            };
            return Ok(e.to_string());
        }
        "coalesce" | "right_inverse" | "left_inverse" | "nullspace" => {
            arity(1, 1)?;
            let a: Layout = parse("layout", 1, &args[0])?;
            match op {
                "coalesce" => explain_coalesce(&a),
                "right_inverse" => explain_right_inverse(&a),
                "left_inverse" => explain_left_inverse(&a),
                _ => explain_nullspace(&a),
            }
        }
        "upcast" | "downcast" => {
            arity(2, 2)?;
            let n: i64 = args[0].trim().parse().map_err(|_| {
                OpError::new(
                    "ParseError",
                    format!(
                        "explain {op}: argument 1 (N) must be an integer, got {:?}",
                        args[0]
                    ),
                )
            })?;
            let a: Layout = parse("layout", 2, &args[1])?;
            if op == "upcast" {
                explain_upcast(n, &a)
            } else {
                explain_downcast(n, &a)
            }
        }
        "composition" => {
            arity(2, 2)?;
            let a: Layout = parse("layout", 1, &args[0])?;
            let b: Tiler = parse("layout or tiler", 2, &args[1])?;
            explain_composition_tiler(&a, &b)
        }
        "complement" => {
            arity(1, 2)?;
            let a: Layout = parse("layout", 1, &args[0])?;
            let c: Option<IntTuple> = match args.get(1) {
                Some(s) => Some(parse("cotarget", 2, s)?),
                None => None,
            };
            explain_complement(&a, c.as_ref())
        }
        "logical_divide" | "logical_product" => {
            arity(2, 2)?;
            let a: Layout = parse("layout", 1, &args[0])?;
            let t: Tiler = parse("tiler", 2, &args[1])?;
            if op == "logical_divide" {
                explain_logical_divide(&a, &t)
            } else {
                explain_logical_product(&a, &t)
            }
        }
        "zipped_divide" | "tiled_divide" | "flat_divide" | "zipped_product" | "tiled_product"
        | "flat_product" | "blocked_product" | "raked_product" => {
            arity(2, 2)?;
            let a: Layout = parse("layout", 1, &args[0])?;
            let t: Tiler = parse("tiler", 2, &args[1])?;
            explain_rearranged(op, &a, &t)?
        }
        _ => {
            let known = [
                "composition",
                "coalesce",
                "right_inverse",
                "left_inverse",
                "nullspace",
                "upcast",
                "downcast",
                "complement",
                "logical_divide",
                "zipped_divide",
                "tiled_divide",
                "flat_divide",
                "logical_product",
                "zipped_product",
                "tiled_product",
                "flat_product",
                "blocked_product",
                "raked_product",
            ];
            let hint = match crate::help::suggest(op, known) {
                Some(n) => format!("did you mean {n}? "),
                None => String::new(),
            };
            return Err(OpError::new(
                "UnknownOp",
                format!("explain: cannot explain {op:?}; {hint}known: {EXPLAINED}"),
            ));
        }
    };
    Ok(e.to_string())
}
