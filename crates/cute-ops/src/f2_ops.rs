//! Layouts with F2 (XOR) strides, NVlabs PyCuTe's `F2` stride scalar (not CuTe C++'s): the
//! operations that take them. An argument whose text holds `F2(` is an F2 layout
//! (`(8,8):(F2(1),F2(9))`); [`crate::run_op`] hands every request with one to [`run`], which
//! answers the operations listed in [`F2_TAKERS`] and refuses the others with `BadRequest`.
//! One operation exists for F2 layouts only ([`F2_OPS`]): `f2_swizzle`. The
//! algebra is in `cute_layout` ([`cute_layout::F2`]).

use cute_layout::{ComposedLayout, F2Basis, IntTuple, Layout, F2, MAX_F2_POINTS};

use crate::help::{h, OpHelp};
use crate::{op, push_value, Arg, Args, OpError, OpSpec, MAX_TABLE_VALUES};

/// The operation for F2 layouts only, one line each (hence `rustfmt::skip`).
#[rustfmt::skip]
pub static F2_OPS: &[OpSpec] = &[
    op("f2_swizzle", "F2LAYOUT", (1, 1), "the F2 layout as CuTe's swizzle composed with an integer layout, Sw<B,M,S> o 0 o LAYOUT, where one is (NVlabs PyCuTe's F2 strides)", |a| run(a.op, a.args)),
];

/// The help of [`F2_OPS`]: name, law, example arguments, example output.
#[rustfmt::skip]
pub static F2_HELP: &[OpHelp] = &[
    h("f2_swizzle", "R(i) = L(i) for every i < size; the smallest swizzle B, then M, then S", &["(8,8):(F2(1),F2(9))"], "Sw<3,0,3> o 0 o (8,8):(1,8)"),
];

/// The operations that take F2 layouts (besides [`F2_OPS`]).
pub const F2_TAKERS: &[&str] = &[
    "size",
    "cosize",
    "rank",
    "depth",
    "shape",
    "stride",
    "crd2idx",
    "coalesce",
    "coalesce_z",
    "right_inverse",
    "left_inverse",
    "layout_add",
    "table",
    "equal",
    "injective",
    "bijective",
    "f2_matrix",
    "f2_swizzle",
];

/// The operations that take F2 basis layouts (`(8,8):(F2(1)@0,F2(9)@0)`).
pub const F2_BASIS_TAKERS: &[&str] =
    &["size", "rank", "depth", "shape", "crd2idx", "right_inverse"];

fn is_f2_basis_arg(arg: &Arg) -> bool {
    matches!(arg, Arg::Text(s) if cute_layout::pycute::f2::is_f2_text(s) && s.contains('@'))
}

/// Operation `op` where an argument is an F2 basis layout.
fn run_basis(a: &Args<'_>) -> Result<String, OpError> {
    let k = usize::from(a.op == "crd2idx");
    let Arg::Text(s) = &a.args[k] else {
        return Err(a.arg_error("BadRequest", k, " must be a layout"));
    };
    let l: Layout<F2Basis> = s
        .parse()
        .map_err(|e| a.arg_error("ParseError", k, format_args!(" (F2 basis layout): {e}")))?;
    Ok(match a.op {
        "size" => l.size().to_string(),
        "rank" => l.rank().to_string(),
        "depth" => l.depth().to_string(),
        "shape" => l.shape().to_string(),
        "crd2idx" => l.value(&a.tuple(0)?)?.to_string(),
        "right_inverse" => l.right_inverse()?.to_string(),
        _ => {
            return Err(OpError::new(
                "BadRequest",
                format!(
                    "{} does not take layouts with F2 basis strides (NVlabs PyCuTe's ScaledBasis(F2(v), (i,))); these do: {}",
                    a.op,
                    F2_BASIS_TAKERS.join(", ")
                ),
            ))
        }
    })
}

/// Whether argument `arg` is an F2 layout's text.
pub fn is_f2_arg(arg: &Arg) -> bool {
    matches!(arg, Arg::Text(s) if cute_layout::pycute::f2::is_f2_text(s))
}

fn f2(a: &Args<'_>, k: usize) -> Result<Layout<F2>, OpError> {
    let Arg::Text(s) = &a.args[k] else {
        return Err(a.arg_error("BadRequest", k, " must be an F2 layout"));
    };
    if !s.contains(':') {
        return Err(a.arg_error(
            "ParseError",
            k,
            format_args!(
                " ({s}): an F2 value is a stride, not a shape or an integer; an F2 layout is SHAPE:STRIDE"
            ),
        ));
    }
    s.parse()
        .map_err(|e| a.arg_error("ParseError", k, format_args!(" (F2 layout): {e}")))
}

fn bit(b: bool) -> String {
    String::from(if b { "1" } else { "0" })
}

/// The values of any function argument at `0..n` (an F2 layout, or a layout or composed layout).
fn values(a: &Args<'_>, k: usize, n: i64) -> Result<Vec<i64>, OpError> {
    if is_f2_arg(&a.args[k]) {
        let l = f2(a, k)?;
        return (0..n).map(|i| Ok(l.index_any(i)?)).collect();
    }
    let c = composed(a, k)?;
    (0..n).map(|i| Ok(c.index_any(i)?)).collect()
}

/// Argument `k` as a layout or composed layout (not an F2 layout).
fn composed(a: &Args<'_>, k: usize) -> Result<ComposedLayout, OpError> {
    a.text_arg(k)?
        .parse()
        .map_err(|e| a.arg_error("ParseError", k, format_args!(": {e}")))
}

fn size_of(a: &Args<'_>, k: usize) -> Result<i64, OpError> {
    if is_f2_arg(&a.args[k]) {
        return Ok(f2(a, k)?.size());
    }
    Ok(composed(a, k)?.size())
}

/// Answers operation `op` where an argument is an F2 layout (see the [module docs](self)).
///
/// # Errors
/// `BadRequest` for an operation that does not take F2 layouts; `ParseError` for an argument
/// that is no F2 layout where one is needed (a nonzero integer stride beside F2 strides among
/// them: XOR and integer addition do not mix); the library's error kinds.
pub fn run(op: &'static str, args: &[Arg]) -> Result<String, OpError> {
    let a = Args { op, args };
    if args.iter().any(is_f2_basis_arg) {
        return run_basis(&a);
    }
    let one = || f2(&a, 0);
    Ok(match op {
        "size" => one()?.size().to_string(),
        "cosize" => one()?.cosize()?.to_string(),
        "rank" => one()?.rank().to_string(),
        "depth" => one()?.depth().to_string(),
        "shape" => one()?.shape().to_string(),
        "stride" => {
            let l = one()?;
            let t = l.to_string();
            t[t.find(':').map_or(0, |p| p + 1)..].to_string()
        }
        "crd2idx" => {
            let c: IntTuple = a.tuple(0)?;
            f2(&a, 1)?.value(&c)?.to_string()
        }
        "coalesce" if a.len() == 1 => one()?.coalesce()?.to_string(),
        "coalesce_z" if a.len() == 1 => one()?.coalesce_z()?.to_string(),
        "right_inverse" => one()?.right_inverse().to_string(),
        "left_inverse" => one()?.left_inverse()?.to_string(),
        "layout_add" => {
            // The integer zero layout is the identity of every stride kind.
            let side = |k: usize| -> Result<Layout<F2>, OpError> {
                if is_f2_arg(&a.args[k]) {
                    return f2(&a, k);
                }
                let l = a.layout(k)?;
                Layout::<F2>::from_zero_layout(&l).map_err(|_| {
                    OpError::new(
                        "BadRequest",
                        format!(
                            "layout_add: {l} has integer strides and the other layout F2 strides; XOR and integer addition do not mix (PyCuTe raises TypeError)"
                        ),
                    )
                })
            };
            side(0)?.layout_add(&side(1)?)?.to_string()
        }
        "table" => {
            let l = one()?;
            let n = if a.len() == 2 { a.int(1)? } else { l.size() };
            if !(0..=MAX_TABLE_VALUES).contains(&n) {
                return Err(OpError::new(
                    "InvalidArgument",
                    format!("table: {n} values requested for {l}; between 0 and {MAX_TABLE_VALUES} allowed"),
                ));
            }
            let mut out = String::new();
            for i in 0..n {
                push_value(&mut out, l.index_any(i)?);
            }
            out
        }
        "equal" => {
            if is_f2_arg(&a.args[0]) && is_f2_arg(&a.args[1]) {
                return Ok(bit(f2(&a, 0)?.same_function(&f2(&a, 1)?)?));
            }
            let n = size_of(&a, 0)?;
            if n != size_of(&a, 1)? {
                return Ok(bit(false));
            }
            if n > MAX_F2_POINTS {
                return Err(OpError::new(
                    "TooLarge",
                    format!("equal: {n} points to compare; at most {MAX_F2_POINTS} where one side has F2 strides and the other not"),
                ));
            }
            bit(values(&a, 0, n)? == values(&a, 1, n)?)
        }
        "injective" => bit(one()?.is_injective()?),
        "bijective" => bit(one()?.is_bijective()?),
        "f2_matrix" => {
            // As for integer layouts: rows are the value bits (as many as the largest value
            // needs, at least one), columns the index bits.
            let cols = one()?.f2_matrix()?;
            let all = cols.iter().fold(0i64, |acc, &c| acc | c);
            let rows = (64 - all.leading_zeros()).max(1);
            let row = |r: u32| {
                let bits: Vec<String> = cols.iter().map(|c| ((c >> r) & 1).to_string()).collect();
                format!("({})", bits.join(","))
            };
            format!("({})", (0..rows).map(row).collect::<Vec<_>>().join(","))
        }
        "f2_swizzle" => one()?.to_swizzle()?.to_string(),
        _ => {
            return Err(OpError::new(
                "BadRequest",
                format!(
                    "{op} does not take layouts with F2 strides (NVlabs PyCuTe's XOR strides); these do: {}",
                    F2_TAKERS.join(", ")
                ),
            ))
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::test_util::{kind, ok};

    #[test]
    fn f2_layouts_through_the_table() {
        assert_eq!(ok("table", &["(2,2):(F2(10),F2(12))"]), "0,10,12,6");
        assert_eq!(ok("size", &["(4,8):(F2(1),F2(8))"]), "32");
        assert_eq!(ok("cosize", &["4:F2(3)"]), "8");
        assert_eq!(ok("stride", &["(4,8):(F2(1),0)"]), "(F2(1),0)");
        assert_eq!(ok("coalesce", &["(4,4):(F2(1),F2(4))"]), "16:F2(1)");
        assert_eq!(
            ok("coalesce_z", &["(3,4):(F2(1),F2(3))"]),
            "(3,4):(F2(1),F2(3))"
        );
        assert_eq!(
            ok("right_inverse", &["(8,8):(F2(9),F2(1))"]),
            "(8,8):(F2(8),F2(9))"
        );
        assert_eq!(ok("left_inverse", &["(4,8):(F2(1),F2(4))"]), "32:1");
        assert_eq!(ok("layout_add", &["8:F2(7)", "8:0"]), "8:F2(7)");
        assert_eq!(ok("layout_add", &["8:0", "8:F2(7)"]), "8:F2(7)");
        assert_eq!(kind("layout_add", &["8:F2(1)", "8:1"]), "BadRequest");
        assert_eq!(
            ok(
                "equal",
                &["(8,8):(F2(1),F2(9))", "Sw<3,0,3> o 0 o (8,8):(1,8)"]
            ),
            "1"
        );
        assert_eq!(ok("equal", &["(4,4):(F2(3),F2(12))", "16:F2(3)"]), "1");
        assert_eq!(ok("injective", &["(4,4):(F2(1),F2(1))"]), "0");
        assert_eq!(ok("bijective", &["(8,8):(F2(1),F2(13))"]), "1");
        assert_eq!(ok("crd2idx", &["(1,1)", "(2,2):(F2(10),F2(12))"]), "6");
        assert_eq!(ok("f2_matrix", &["(2,2):(F2(1),F2(3))"]), "((1,1),(0,1))");
        assert_eq!(
            ok("f2_swizzle", &["(8,8):(F2(1),F2(9))"]),
            "Sw<3,0,3> o 0 o (8,8):(1,8)"
        );
        assert_eq!(kind("composition", &["8:F2(1)", "2:1"]), "BadRequest");
        assert_eq!(kind("size", &["F2(5)"]), "ParseError");
        assert_eq!(kind("table", &["8:(F2(1)"]), "ParseError");
        assert_eq!(kind("left_inverse", &["8:F2(2)"]), "NotRepresentable");
        assert_eq!(
            ok("right_inverse", &["(8,8):(F2(1)@0,F2(1)@1)"]),
            "(8,8):(F2(1),F2(8))"
        );
        assert_eq!(ok("crd2idx", &["13", "(8,8):(F2(1)@0,F2(1)@1)"]), "(5,1)");
        assert_eq!(kind("coalesce", &["4:F2(1)@0"]), "BadRequest");
        assert_eq!(
            kind("right_inverse", &["(2,2):(F2(1)@0,1@1)"]),
            "ParseError"
        );
    }

    #[test]
    fn help_names_f2_for_the_ops_that_take_it() {
        for name in super::F2_TAKERS {
            let spec = crate::find(name).unwrap_or_else(|| panic!("{name} is no op"));
            let text = crate::help::render(spec);
            assert!(text.contains("F2"), "{name}: {text}");
        }
        assert!(!crate::help::render(crate::find("composition").unwrap()).contains("F2"));
    }
}
