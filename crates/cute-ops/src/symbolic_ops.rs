//! Symbolic layouts (NVlabs PyCuTe's sympy layouts; not CuTe C++): the existing operations
//! `coalesce`, `coalesce_z`, `composition`, `complement`, `right_inverse`,
//! `make_ordered_layout`, `make_layout_like` and `size` take a layout or tuple whose extents,
//! strides or order values are monomials over named symbols (`(N,M):(1,N)`, `(1,P)`): each
//! tries its symbolic overload here first (one function per operation, `coalesce`, `size`,
//! ...), which answers only when an argument has the symbolic form (an integer argument never
//! reaches it). `subs` ([`SYMBOLIC_OPS`]) puts integers in for the symbols. The algebra is
//! [`cute_layout::SymLayout`].

use cute_layout::{SymLayout, SymTuple};

use crate::table::{more, one, Kind as K, Topic};
use crate::value::{Form, Value};
use crate::{op, Args, OpError, OpSpec};

/// The operations on symbolic values that no integer operation has, one declaration each.
#[rustfmt::skip]
pub static SYMBOLIC_OPS: &[OpSpec] = &[
    op("subs", Topic::Pycute, "the layout or tuple with integers put in for its symbols (NVlabs PyCuTe's sympy layouts; not CuTe C++)")
        .params(&[one("", &[K::Symbolic]), more("", &[K::Binding])])
        .returns(&[K::Layout, K::Symbolic, K::Int, K::Tuple])
        .errors(&["InvalidArgument", "Overflow"])
        .law("each symbol replaced by its value (a positive integer); coalesce, coalesce_z, composition, complement, right_inverse, make_ordered_layout, make_layout_like and size also take symbolic layouts, and their answer R obeys subs(R, v) = OP(subs(L, v)) as a function at every substitution v of positive integers (1 included), else they refuse with Undecidable naming the condition that depends on v")
        .example(&["(N,M):(1,N)", "N=3", "M=5"], "(3,5):(1,3)")
        .run(subs),
];

/// Argument `k` as a symbolic layout: `None` unless its text is `SHAPE:STRIDE` of monomials
/// with at least one symbol.
fn layout(a: &Args<'_>, k: usize) -> Option<SymLayout> {
    if a.form(k) != crate::value::Form::Symbolic {
        return None;
    }
    let text = a.text(k, "layout").ok()?;
    let l: SymLayout = text.parse().ok()?;
    (!l.symbols().is_empty()).then_some(l)
}

/// Argument `k` as a symbolic or integer layout (the other operand of a symbolic one).
fn any_layout(a: &Args<'_>, k: usize) -> Option<SymLayout> {
    a.text(k, "layout").ok()?.parse().ok()
}

/// Argument `k` as a tuple of monomials, `Some` only when it is one with a symbol
/// ([`crate::value::Form::SymTuple`]; a bare word is a name, not a symbolic tuple).
fn tuple(a: &Args<'_>, k: usize) -> Option<SymTuple> {
    if a.form(k) != crate::value::Form::SymTuple {
        return None;
    }
    let t = any_tuple(a, k)?;
    (!t.symbols().is_empty()).then_some(t)
}

fn any_tuple(a: &Args<'_>, k: usize) -> Option<SymTuple> {
    a.text(k, "tuple").ok()?.parse().ok()
}

fn no_profile(a: &Args<'_>, name: &str) -> Result<(), OpError> {
    if a.len() > 1 {
        return Err(OpError::new(
            "NotImplemented",
            format!("{name}: a profile with a symbolic layout"),
        ));
    }
    Ok(())
}

/// The answer of `f` on argument 0 when it is a symbolic layout (`Ok(None)` otherwise: the
/// integer operation answers); a profile is refused.
fn unary<T: std::fmt::Display>(
    a: &Args<'_>,
    f: impl FnOnce(&SymLayout) -> Result<T, cute_layout::LayoutError>,
) -> Result<Option<String>, OpError> {
    let Some(l) = layout(a, 0) else {
        return Ok(None);
    };
    no_profile(a, a.op)?;
    Ok(Some(f(&l)?.to_string()))
}

/// `coalesce` of a symbolic layout.
pub(crate) fn coalesce(a: &Args<'_>) -> Result<Option<String>, OpError> {
    unary(a, SymLayout::coalesce)
}

/// `coalesce_z` of a symbolic layout.
pub(crate) fn coalesce_z(a: &Args<'_>) -> Result<Option<String>, OpError> {
    unary(a, SymLayout::coalesce_z)
}

/// `right_inverse` of a symbolic layout.
pub(crate) fn right_inverse(a: &Args<'_>) -> Result<Option<String>, OpError> {
    unary(a, SymLayout::right_inverse)
}

/// `make_layout_like` of a symbolic layout.
pub(crate) fn make_layout_like(a: &Args<'_>) -> Result<Option<String>, OpError> {
    unary(a, SymLayout::layout_like)
}

/// `size` of a symbolic layout or tuple.
pub(crate) fn size(a: &Args<'_>) -> Result<Option<String>, OpError> {
    Ok(Some(match (layout(a, 0), tuple(a, 0)) {
        (Some(l), _) => l.size()?.to_string(),
        (None, Some(t)) => t.size()?.to_string(),
        _ => return Ok(None),
    }))
}

/// `composition A B` where A or B is symbolic (the other may be an integer layout).
pub(crate) fn composition(a: &Args<'_>) -> Result<Option<String>, OpError> {
    if layout(a, 0).is_none() && layout(a, 1).is_none() {
        return Ok(None);
    }
    let Some(l) = any_layout(a, 0) else {
        return Ok(None);
    };
    let r = match (a.form(1), a.value(1)) {
        // An integer tiler N is the layout N:1.
        (_, Value::Int(n)) => a.parse_text(1, &format!("{n}:1"), "tiler")?,
        (Form::Tuple | Form::SymTuple | Form::Underscore, _) => {
            return Err(a.arg_error(
                "NotImplemented",
                1,
                " is a tuple tiler: a symbolic layout is composed with a layout or an integer; a tuple tiler composes mode by mode, so compose each mode of A with its tile",
            ));
        }
        _ => match any_layout(a, 1) {
            Some(r) => r,
            None => return Ok(None),
        },
    };
    Ok(Some(l.compose(&r)?.to_string()))
}

/// `complement A [COTARGET]` where A or the cotarget is symbolic.
pub(crate) fn complement(a: &Args<'_>) -> Result<Option<String>, OpError> {
    let extend = if a.len() > 1 { tuple(a, 1) } else { None };
    if layout(a, 0).is_none() && extend.is_none() {
        return Ok(None);
    }
    let Some(l) = any_layout(a, 0) else {
        return Ok(None);
    };
    let extend = match (a.len() > 1, extend) {
        (true, None) => any_tuple(a, 1),
        (_, e) => e,
    };
    Ok(Some(l.complement(extend.as_ref())?.to_string()))
}

/// `make_ordered_layout SHAPE ORDER` where either is symbolic.
pub(crate) fn make_ordered_layout(a: &Args<'_>) -> Result<Option<String>, OpError> {
    if tuple(a, 0).is_none() && tuple(a, 1).is_none() {
        return Ok(None);
    }
    let (Some(s), Some(o)) = (any_tuple(a, 0), any_tuple(a, 1)) else {
        return Ok(None);
    };
    Ok(Some(SymLayout::ordered(&s, &o)?.to_string()))
}

fn subs(a: &Args<'_>) -> Result<String, OpError> {
    let mut env: Vec<(String, i64)> = Vec::new();
    for k in 1..a.len() {
        for item in a.text(k, "NAME=VALUE")?.split(',') {
            let bad = || {
                OpError::new(
                    "BadRequest",
                    format!("subs: {item:?} is not NAME=VALUE (a symbol and an integer)"),
                )
            };
            let (n, v) = item.split_once('=').ok_or_else(bad)?;
            let v: i64 = v.trim().parse().map_err(|_| bad())?;
            env.push((n.trim().to_string(), v));
        }
    }
    let env: Vec<(&str, i64)> = env.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    let text = a.text(0, "layout or tuple")?;
    if let Ok(l) = text.parse::<SymLayout>() {
        return Ok(l.subs(&env)?.to_string());
    }
    match text.parse::<SymTuple>() {
        Ok(t) => Ok(t.subs(&env)?.to_string()),
        Err(e) => Err(OpError::new(
            "ParseError",
            format!("subs: argument 1 (layout or tuple): {e}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use crate::test_util::{err, kind, ok};

    #[test]
    fn symbolic_arguments_reach_the_symbolic_algebra() {
        assert_eq!(ok("coalesce", &["(N,M):(1,N)"]), "N*M:1");
        assert_eq!(ok("coalesce_z", &["(2,4):(X,2*X)"]), "8:X");
        assert_eq!(ok("complement", &["2*N:X"]), "(X,1):(1,2*X*N)");
        assert_eq!(
            ok("complement", &["256:1", "(32,4,2,2,N)"]),
            "(2,N):(256,512)"
        );
        assert_eq!(ok("right_inverse", &["(4,N):(1,4)"]), "(4,N):(1,4)");
        assert_eq!(ok("composition", &["(12,N):(X,Y)", "6:4"]), "(3,2):(4*X,Y)");
        // A symbolic layout and a tiler: an integer is N:1, a tuple is refused by name.
        assert_eq!(ok("composition", &["(4,N):(1,4)", "2"]), "2:1");
        assert_eq!(
            err("composition", &["(4,N):(1,4)", "(2,2)"]).to_string(),
            "composition: argument 2 is a tuple tiler: a symbolic layout is composed with a layout or an integer; a tuple tiler composes mode by mode, so compose each mode of A with its tile"
        );
        assert_eq!(
            ok("make_ordered_layout", &["(4,8)", "(P,2*P)"]),
            "(4,8):(1,4)"
        );
        assert_eq!(ok("make_layout_like", &["(N,M):(X,2*X)"]), "(N,M):(1,N)");
        assert_eq!(ok("size", &["(N,4):(1,N)"]), "4*N");
        assert_eq!(ok("subs", &["(N,M):(1,N)", "N=3,M=5"]), "(3,5):(1,3)");
        assert_eq!(ok("subs", &["(N,4*M)", "N=2", "M=2"]), "(2,8)");
        // integer arguments keep the integer operations
        assert_eq!(ok("coalesce", &["(2,4):(1,2)"]), "8:1");
        assert_eq!(ok("size", &["(2,3)"]), "6");
        assert_eq!(kind("composition", &["(N,8):(X,Y)", "4:1"]), "Undecidable");
        assert_eq!(
            kind("coalesce", &["(N,M):(1,N)", "(1,1)"]),
            "NotImplemented"
        );
        assert_eq!(kind("subs", &["N:1", "M=2"]), "InvalidArgument");
        assert_eq!(kind("subs", &["N:1", "N=0"]), "InvalidArgument");
        assert_eq!(kind("subs", &["N:1", "N"]), "BadRequest");
        assert_eq!(kind("coalesce", &["(N,M):(1"]), "ParseError");
    }

    /// Issue 34's symbolic reproducers through the operation table, with their exact text.
    #[test]
    fn issue_34_symbolic_reproducers() {
        // A(B(3,3)) = A(6) = 9 for every N; (4,4):(4,4) gave 24
        assert_eq!(
            err("composition", &["(4,N):(4,1)", "(4,4):(1,1)"]).to_string(),
            "composition: leaves 0 and 1 of (4,4):(1,1) overlap in mode 0 of (4,N):(4,1): their largest digits add up to 6, past the extent 4 (a carry at every substitution), so A(B(i)) is not the sum of the leaves' compositions"
        );
        assert_eq!(
            kind("composition", &["(6,N):(0,1)", "(4,4):(1,1)"]),
            "NotRepresentable"
        );
        assert_eq!(ok("make_layout_like", &["(2,2):(2*N,N)"]), "(2,2):(2,1)");
        assert_eq!(ok("make_layout_like", &["(N,N):(4*N,N)"]), "(N,N):(N,1)");
        let r = ok("right_inverse", &["(P,P,P):(P*P,P,1)"]);
        assert_eq!(r, "(P,P,P):(P*P,P,1)");
        assert_eq!(ok("size", &[&r]), "P*P*P");
        assert_eq!(ok("subs", &[&r, "P=3"]), "(3,3,3):(9,3,1)");
        assert_eq!(ok("right_inverse", &["(3,3,3):(9,3,1)"]), "(3,3,3):(9,3,1)");
        // an answer that some substitution contradicts is refused, naming the condition
        assert_eq!(
            err("right_inverse", &["N:X"]).to_string(),
            "right_inverse: one answer for every X: N:1 at X = 1, 1:0 elsewhere cannot be decided for symbolic values (a symbol is any positive integer)"
        );
        assert_eq!(
            err("make_ordered_layout", &["(4,8)", "(P,Q)"]).to_string(),
            "make_ordered_layout: the order of P and Q in (P,Q) cannot be decided for symbolic values (a symbol is any positive integer)"
        );
    }
}
