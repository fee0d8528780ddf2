//! CuTe's structural `==` (`Layout::operator==`, tuples' `==`, `ComposedLayout`'s): the same
//! shape and the same stride, leaf by leaf and level by level, as opposed to `equal` (the same
//! function). The algebra is the library's `PartialEq` of [`IntTuple`], [`Layout`],
//! [`LayoutChain`] and [`Swizzle`]. One table, [`EQUALITY_OPS`], in [`crate::GROUPS`].

use cute_layout::{IntTuple, Layout, LayoutChain, ScaledBasis, Swizzle};

use crate::table::{one, Kind as K, Topic};
use crate::{bit, op, Args, OpError, OpSpec};

/// The equality operations, one declaration each (hence `rustfmt::skip`).
#[rustfmt::skip]
pub static EQUALITY_OPS: &[OpSpec] = &[
    op("structural_equal", Topic::Analysis, "CuTe's ==: the same shape and stride (the same tree: (4):(1) is not 4:1); equal compares functions")
        .params(&[one("", &[K::Layout, K::Composed, K::Swizzle, K::Tuple]), one("", &[K::Layout, K::Composed, K::Swizzle, K::Tuple])])
        .returns(&[K::Bool])
        .errors(&["InvalidSwizzle"])
        .law("1 iff shape(A) == shape(B) and stride(A) == stride(B) as trees (composed: every layer too); equal(A, B) can be 1 where this is 0")
        .example(&["((2,2),2):((1,4),2)", "(2,2,2):(1,4,2)"], "0")
        .run(structural_equal),
];

/// One argument of `structural_equal`, by kind (two values live at a time: no boxing).
#[allow(clippy::large_enum_variant)]
#[derive(PartialEq)]
enum Value {
    Tuple(IntTuple),
    Basis(Layout<ScaledBasis>),
    Chain(LayoutChain),
    Swizzle(Swizzle),
}

fn value(a: &Args<'_>, k: usize) -> Result<Value, OpError> {
    if a.is_basis(k) {
        return Ok(Value::Basis(a.basis_layout(k)?));
    }
    let layout_like = a.is_swizzled(k) || a.form(k).is_layout_form(&a.args[k]);
    if !layout_like {
        return Ok(Value::Tuple(a.tuple(k)?));
    }
    Ok(match a.func(k)?.into_chain() {
        Ok(c) => Value::Chain(c),
        Err(s) => Value::Swizzle(s),
    })
}

/// `structural_equal A B`: `1` if both are the same value of the same kind, else `0`.
fn structural_equal(a: &Args<'_>) -> Result<String, OpError> {
    Ok(bit(value(a, 0)? == value(a, 1)?))
}

#[cfg(test)]
mod tests {
    use crate::{run_op, Arg};

    fn run(a: &str, b: &str) -> String {
        run_op(
            "structural_equal",
            &[Arg::Text(a.into()), Arg::Text(b.into())],
        )
        .unwrap()
    }

    #[test]
    fn structure_not_function() {
        assert_eq!(run("(4,8):(1,4)", "(4,8):(1,4)"), "1");
        assert_eq!(run("(_4,_8):(_1,_4)", "(4,8):(1,4)"), "1");
        assert_eq!(run("((2,2),2):((1,4),2)", "(2,2,2):(1,4,2)"), "0");
        assert_eq!(run("(4):(1)", "4:1"), "0");
        assert_eq!(run("(2,3)", "(2,3)"), "1");
        assert_eq!(run("(2,3)", "(2,(3))"), "0");
        assert_eq!(run("Sw<3,4,3> o 0 o 8:1", "Sw<3,4,3> o 0 o 8:1"), "1");
        assert_eq!(run("Sw<3,4,3> o 0 o 8:1", "8:1"), "0");
        assert_eq!(run("Sw<3,4,3>", "Sw<3,4,3>"), "1");
        assert_eq!(run("(2,3):(1@0,1@1)", "(2,3):(1@0,1@1)"), "1");
        assert_eq!(run("(2,3):(1@0,1@1)", "(2,3):(1,2)"), "0");
        assert_eq!(run("(2,3)", "(2,3):(1,2)"), "0");
    }

    /// Law over a small domain: structurally equal layouts are functionally equal, and two
    /// layouts are structurally equal exactly when their texts are the same.
    #[test]
    fn structural_implies_functional() {
        let ls = [
            "(2,2):(1,2)",
            "4:1",
            "(2,2):(2,1)",
            "((2,2)):((1,2))",
            "(4,1):(1,0)",
            "(4,1):(1,4)",
            "(2,(2,1)):(1,(2,0))",
        ];
        for x in ls {
            for y in ls {
                let s = run(x, y);
                assert_eq!(s == "1", x == y, "{x} {y}");
                if s == "1" {
                    let f = run_op("equal", &[Arg::Text(x.into()), Arg::Text(y.into())]).unwrap();
                    assert_eq!(f, "1");
                }
            }
        }
    }
}
