//! Layouts with F2 (XOR) strides, NVlabs PyCuTe's `F2` stride scalar (not CuTe C++'s): the F2
//! overloads of the operations that take them. An argument of the F2 form
//! ([`crate::value::Form::F2Layout`], `(8,8):(F2(1),F2(9))`) makes [`crate::run_op`] call the
//! operation's declared F2 overload (`crate::OpSpec::f2`, or `crate::OpSpec::f2_basis` for
//! F2 basis strides); an operation without one refuses with `BadRequest` (`dispatch`). One
//! operation exists for F2 layouts only ([`F2_OPS`]): `f2_swizzle`. The algebra is in
//! `cute_layout` ([`cute_layout::F2`]).

use cute_layout::{ComposedLayout, F2Basis, IntTuple, Layout, F2, MAX_F2_POINTS};

use crate::table::{one, Kind as K, Topic};
use crate::{op, push_value, Arg, Args, OpError, OpSpec, MAX_TABLE_VALUES};

/// The operation for F2 layouts only (hence `rustfmt::skip`).
#[rustfmt::skip]
pub static F2_OPS: &[OpSpec] = &[
    op("f2_swizzle", Topic::Pycute, "the F2 layout as CuTe's swizzle composed with an integer layout, Sw<B,M,S> o 0 o LAYOUT, where one is (NVlabs PyCuTe's F2 strides)")
        .params(&[one("", &[K::F2Layout])])
        .returns(&[K::Composed])
        .errors(&["NotRepresentable"])
        .law("R(i) = L(i) for every i < size; the smallest swizzle B, then M, then S")
        .example(&["(8,8):(F2(1),F2(9))"], "Sw<3,0,3> o 0 o (8,8):(1,8)")
        .f2(f2_swizzle)
        .run(f2_swizzle),
];

/// The operations that take F2 layouts: those whose declaration has an F2 overload
/// (`OpSpec::f2`), in the table's order.
pub fn f2_takers() -> Vec<&'static str> {
    crate::all()
        .filter(|s| s.f2.is_some())
        .map(|s| s.name)
        .collect()
}

/// The operations that take F2 basis layouts (`(8,8):(F2(1)@0,F2(9)@0)`): those with an F2
/// basis overload (`OpSpec::f2_basis`).
pub fn f2_basis_takers() -> Vec<&'static str> {
    crate::all()
        .filter(|s| s.f2_basis.is_some())
        .map(|s| s.name)
        .collect()
}

fn is_f2_basis_arg(arg: &Arg) -> bool {
    let form = crate::value::Form::of(arg);
    form.has_f2(arg) && form.has_basis(arg)
}

/// Argument `k` as a layout with F2 basis strides.
fn basis(a: &Args<'_>, k: usize) -> Result<Layout<F2Basis>, OpError> {
    let Arg::Text(s) = &a.args[k] else {
        return Err(a.arg_error("BadRequest", k, " must be a layout"));
    };
    s.parse()
        .map_err(|e| a.arg_error("ParseError", k, format_args!(" (F2 basis layout): {e}")))
}

/// `size` of an F2 basis layout.
pub(crate) fn basis_size(a: &Args<'_>) -> Result<String, OpError> {
    Ok(basis(a, 0)?.size().to_string())
}

/// `rank` of an F2 basis layout.
pub(crate) fn basis_rank(a: &Args<'_>) -> Result<String, OpError> {
    Ok(basis(a, 0)?.rank().to_string())
}

/// `depth` of an F2 basis layout.
pub(crate) fn basis_depth(a: &Args<'_>) -> Result<String, OpError> {
    Ok(basis(a, 0)?.depth().to_string())
}

/// `shape` of an F2 basis layout.
pub(crate) fn basis_shape(a: &Args<'_>) -> Result<String, OpError> {
    Ok(basis(a, 0)?.shape().to_string())
}

/// `crd2idx COORD L` of an F2 basis layout.
pub(crate) fn basis_crd2idx(a: &Args<'_>) -> Result<String, OpError> {
    let l = basis(a, 1)?;
    Ok(l.value(&a.tuple(0)?)?.to_string())
}

/// `right_inverse` of an F2 basis layout.
pub(crate) fn basis_right_inverse(a: &Args<'_>) -> Result<String, OpError> {
    Ok(basis(a, 0)?.right_inverse()?.to_string())
}

/// Whether argument `arg` is an F2 layout's text.
pub fn is_f2_arg(arg: &Arg) -> bool {
    crate::value::Form::of(arg).has_f2(arg)
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

/// Answers operation `spec` where an argument has F2 strides: its declared F2 basis overload
/// where an argument has F2 basis strides, else its F2 overload (see the [module docs](self)).
///
/// # Errors
/// `BadRequest` for an operation without the overload; `ParseError` for an argument that is no
/// F2 layout where one is needed (a nonzero integer stride beside F2 strides among them: XOR and
/// integer addition do not mix); the library's error kinds.
pub(crate) fn dispatch(spec: &OpSpec, a: &Args<'_>) -> Result<String, OpError> {
    if a.args.iter().any(is_f2_basis_arg) {
        if let Some(f) = spec.f2_basis {
            return f(a);
        }
        basis(a, 0)?;
        return Err(OpError::new(
            "BadRequest",
            format!(
                "{} does not take layouts with F2 basis strides (NVlabs PyCuTe's ScaledBasis(F2(v), (i,))); these do: {}",
                a.op,
                f2_basis_takers().join(", ")
            ),
        ));
    }
    match spec.f2 {
        Some(f) => f(a),
        None => Err(OpError::new(
            "BadRequest",
            format!(
                "{} does not take layouts with F2 strides (NVlabs PyCuTe's XOR strides); these do: {}",
                a.op,
                f2_takers().join(", ")
            ),
        )),
    }
}

/// `size` of an F2 layout.
pub(crate) fn size(a: &Args<'_>) -> Result<String, OpError> {
    Ok(f2(a, 0)?.size().to_string())
}

/// `cosize` of an F2 layout.
pub(crate) fn cosize(a: &Args<'_>) -> Result<String, OpError> {
    Ok(f2(a, 0)?.cosize()?.to_string())
}

/// `rank` of an F2 layout.
pub(crate) fn rank(a: &Args<'_>) -> Result<String, OpError> {
    Ok(f2(a, 0)?.rank().to_string())
}

/// `depth` of an F2 layout.
pub(crate) fn depth(a: &Args<'_>) -> Result<String, OpError> {
    Ok(f2(a, 0)?.depth().to_string())
}

/// `shape` of an F2 layout.
pub(crate) fn shape(a: &Args<'_>) -> Result<String, OpError> {
    Ok(f2(a, 0)?.shape().to_string())
}

/// `stride` of an F2 layout.
pub(crate) fn stride(a: &Args<'_>) -> Result<String, OpError> {
    let t = f2(a, 0)?.to_string();
    Ok(t[t.find(':').map_or(0, |p| p + 1)..].to_string())
}

/// `crd2idx COORD L` of an F2 layout.
pub(crate) fn crd2idx(a: &Args<'_>) -> Result<String, OpError> {
    let c: IntTuple = a.tuple(0)?;
    Ok(f2(a, 1)?.value(&c)?.to_string())
}

/// The refusal of an overload the F2 form lacks (`coalesce` with a profile).
fn refused(a: &Args<'_>) -> OpError {
    OpError::new(
        "BadRequest",
        format!(
            "{} does not take layouts with F2 strides (NVlabs PyCuTe's XOR strides); these do: {}",
            a.op,
            f2_takers().join(", ")
        ),
    )
}

/// `coalesce` of an F2 layout (no profile).
pub(crate) fn coalesce(a: &Args<'_>) -> Result<String, OpError> {
    if a.len() != 1 {
        return Err(refused(a));
    }
    Ok(f2(a, 0)?.coalesce()?.to_string())
}

/// `coalesce_z` of an F2 layout (no profile).
pub(crate) fn coalesce_z(a: &Args<'_>) -> Result<String, OpError> {
    if a.len() != 1 {
        return Err(refused(a));
    }
    Ok(f2(a, 0)?.coalesce_z()?.to_string())
}

/// `right_inverse` of an F2 layout.
pub(crate) fn right_inverse(a: &Args<'_>) -> Result<String, OpError> {
    Ok(f2(a, 0)?.right_inverse().to_string())
}

/// `left_inverse` of an F2 layout.
pub(crate) fn left_inverse(a: &Args<'_>) -> Result<String, OpError> {
    Ok(f2(a, 0)?.left_inverse()?.to_string())
}

/// `layout_add` with an F2 side (the integer zero layout is the identity of every stride kind).
pub(crate) fn layout_add(a: &Args<'_>) -> Result<String, OpError> {
    let side = |k: usize| -> Result<Layout<F2>, OpError> {
        if is_f2_arg(&a.args[k]) {
            return f2(a, k);
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
    Ok(side(0)?.layout_add(&side(1)?)?.to_string())
}

/// `table` of an F2 layout.
pub(crate) fn table(a: &Args<'_>) -> Result<String, OpError> {
    let l = f2(a, 0)?;
    let n = if a.len() == 2 { a.int(1)? } else { l.size() };
    if !(0..=MAX_TABLE_VALUES).contains(&n) {
        return Err(OpError::new(
            "InvalidArgument",
            format!(
                "table: {n} values requested for {l}; between 0 and {MAX_TABLE_VALUES} allowed"
            ),
        ));
    }
    let mut out = String::new();
    for i in 0..n {
        push_value(&mut out, l.index_any(i)?);
    }
    Ok(out)
}

/// `equal` with an F2 side.
pub(crate) fn equal(a: &Args<'_>) -> Result<String, OpError> {
    if is_f2_arg(&a.args[0]) && is_f2_arg(&a.args[1]) {
        return Ok(bit(f2(a, 0)?.same_function(&f2(a, 1)?)?));
    }
    let n = size_of(a, 0)?;
    if n != size_of(a, 1)? {
        return Ok(bit(false));
    }
    if n > MAX_F2_POINTS {
        return Err(OpError::new(
            "TooLarge",
            format!("equal: {n} points to compare; at most {MAX_F2_POINTS} where one side has F2 strides and the other not"),
        ));
    }
    Ok(bit(values(a, 0, n)? == values(a, 1, n)?))
}

/// `injective` of an F2 layout.
pub(crate) fn injective(a: &Args<'_>) -> Result<String, OpError> {
    Ok(bit(f2(a, 0)?.is_injective()?))
}

/// `bijective` of an F2 layout.
pub(crate) fn bijective(a: &Args<'_>) -> Result<String, OpError> {
    Ok(bit(f2(a, 0)?.is_bijective()?))
}

/// `f2_matrix` of an F2 layout: rows are the value bits (as many as the largest value needs, at
/// least one), columns the index bits, as for integer layouts.
pub(crate) fn f2_matrix(a: &Args<'_>) -> Result<String, OpError> {
    let cols = f2(a, 0)?.f2_matrix()?;
    let all = cols.iter().fold(0i64, |acc, &c| acc | c);
    let rows = (64 - all.leading_zeros()).max(1);
    let row = |r: u32| {
        let bits: Vec<String> = cols.iter().map(|c| ((c >> r) & 1).to_string()).collect();
        format!("({})", bits.join(","))
    };
    Ok(format!(
        "({})",
        (0..rows).map(row).collect::<Vec<_>>().join(",")
    ))
}

/// `f2_swizzle` of an F2 layout.
pub(crate) fn f2_swizzle(a: &Args<'_>) -> Result<String, OpError> {
    Ok(f2(a, 0)?.to_swizzle()?.to_string())
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
        assert_eq!(
            super::f2_takers(),
            [
                "size",
                "cosize",
                "rank",
                "depth",
                "shape",
                "stride",
                "crd2idx",
                "coalesce",
                "right_inverse",
                "left_inverse",
                "equal",
                "injective",
                "bijective",
                "table",
                "f2_matrix",
                "layout_add",
                "coalesce_z",
                "f2_swizzle",
                "cute_to_gluon",
                "equal_function"
            ]
        );
        assert_eq!(
            super::f2_basis_takers(),
            ["size", "rank", "depth", "shape", "crd2idx", "right_inverse"]
        );
        for name in super::f2_takers() {
            let spec = crate::find(name).unwrap_or_else(|| panic!("{name} is no op"));
            let text = crate::help::render(spec);
            assert!(text.contains("F2"), "{name}: {text}");
        }
        assert!(!crate::help::render(crate::find("composition").unwrap()).contains("F2"));
    }

    /// Issue 34: the F2 right inverse is the largest (a permutation of [0, 8) has one of size 8).
    #[test]
    fn f2_right_inverse_is_the_largest() {
        assert_eq!(
            ok("right_inverse", &["(4,2):(F2(2),F2(3))"]),
            "(2,4):(F2(5),F2(1))"
        );
        assert_eq!(
            ok("right_inverse", &["(4,2):(F2(2),F2(5))"]),
            "(2,4):(F2(6),F2(1))"
        );
        assert_eq!(ok("size", &["(2,4):(F2(5),F2(1))"]), "8");
    }
}
