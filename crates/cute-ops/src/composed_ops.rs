//! The operations on swizzles and composed layouts (`Sw<B,M,S>`, `Sw<B,M,S> o OFFSET o LAYOUT`):
//! argument accessors and the overloads of `composition`, the inverses, `table` and the
//! divides and products, dispatched by argument kind as CuTe overloads them.

use cute_layout::{
    BasisSum, ComposedLayout, IntTuple, Layout, LayoutChain, OuterFn, ScaledBasis, Swizzle, Tiler,
};

use crate::{push_value, Arg, Args, OpError, MAX_TABLE_VALUES};

/// A layout-like argument: a plain layout, a swizzle, or a composed layout (with layers).
pub(super) enum Func {
    Layout(Layout),
    Swizzle(Swizzle),
    Composed(ComposedLayout),
    /// A composed layout with a layout as an outer function (CuTe's general `ComposedLayout`).
    Chain(LayoutChain),
}

impl Func {
    /// The function as a chain, or the swizzle back (a swizzle has no domain).
    pub(super) fn into_chain(self) -> Result<LayoutChain, Swizzle> {
        match self {
            Func::Layout(l) => Ok(l.into()),
            Func::Composed(c) => Ok(c.into()),
            Func::Chain(c) => Ok(c),
            Func::Swizzle(sw) => Err(sw),
        }
    }
}

impl Args<'_> {
    /// Argument `k` as a layout, a swizzle (`[B,M,S]` or `Sw<B,M,S>`) or a composed layout.
    pub(super) fn func(&self, k: usize) -> Result<Func, OpError> {
        let text = match &self.args[k] {
            Arg::List(items) => {
                let v: Vec<i64> = (0..items.len())
                    .map(|j| match &items[j] {
                        Arg::Int(i) => Ok(*i),
                        Arg::Text(t) => t.trim().parse::<i64>().map_err(|_| t.clone()),
                        other => Err(other.to_string()),
                    })
                    .collect::<Result<_, _>>()
                    .map_err(|t| {
                        self.arg_error(
                            "BadRequest",
                            k,
                            format_args!(": a swizzle list holds integers, got {t}"),
                        )
                    })?;
                let [b, m, s] = v[..] else {
                    return Err(self.arg_error(
                        "BadRequest",
                        k,
                        format_args!(": a swizzle is [B,M,S], got {} values", v.len()),
                    ));
                };
                return Ok(Func::Swizzle(Swizzle::new(b, m, s)?));
            }
            Arg::Int(_) => return Ok(Func::Layout(self.layout(k)?)),
            Arg::Text(t) => t.trim(),
        };
        let form = self.form(k);
        if form == crate::value::Form::Swizzle {
            return self.parse_text(k, text, "swizzle").map(Func::Swizzle);
        }
        if form.is_layered(&self.args[k]) {
            let c: LayoutChain = self.parse_text(k, text, "composed layout")?;
            if c.layers().is_empty() {
                return Ok(Func::Layout(c.layout().clone()));
            }
            return Ok(match c.to_composed() {
                Some(c) => Func::Composed(c),
                None => Func::Chain(c),
            });
        }
        Ok(Func::Layout(self.layout(k)?))
    }

    /// Whether argument `k` is a layout with basis strides (`1@0`).
    pub(super) fn is_basis(&self, k: usize) -> bool {
        self.form(k).has_basis(&self.args[k])
    }

    /// Whether argument `k` is a layout with a stride that is a sum of bases (`1@0+1@1`).
    pub(super) fn is_sum(&self, k: usize) -> bool {
        self.form(k).has_sum(&self.args[k])
    }

    /// Argument `k` as a layout whose strides are sums of bases (basis or integer strides too).
    pub(super) fn sum_layout(&self, k: usize) -> Result<Layout<BasisSum>, OpError> {
        if let crate::value::Value::SumLayout(l) = self.value(k) {
            return Ok((**l).clone());
        }
        self.parsed(k, "layout with basis-sum strides")
    }

    /// Argument `k` as one basis stride (`3@1@0`, or a plain number).
    pub(super) fn basis_stride(&self, k: usize) -> Result<ScaledBasis, OpError> {
        self.parsed(k, "basis stride")
    }

    /// Argument `k` as a layout with basis strides.
    pub(super) fn basis_layout(&self, k: usize) -> Result<Layout<ScaledBasis>, OpError> {
        if let crate::value::Value::BasisLayout(l) = self.value(k) {
            return Ok((**l).clone());
        }
        self.parsed(k, "layout with basis strides")
    }

    /// Whether argument `k` is a swizzle or a composed layout (not a plain layout or tiler). A
    /// list is a swizzle `[B,M,S]` when it holds three integers, else a tuple.
    pub(super) fn is_swizzled(&self, k: usize) -> bool {
        self.form(k).is_layered(&self.args[k])
    }
}

/// `swizzle B M S`: the swizzle's text form.
pub(super) fn swizzle(a: &Args<'_>) -> Result<String, OpError> {
    Ok(Swizzle::new(a.int(0)?, a.int(1)?, a.int(2)?)?.to_string())
}

/// `composition A B` for every pairing of layouts, swizzles, composed layouts and tilers.
pub(super) fn composition(a: &Args<'_>) -> Result<String, OpError> {
    if let Some(args) = crate::construct_ops::promoted_left(a)? {
        return crate::run_op(a.op, &args);
    }
    if a.is_sum(0) && !a.is_basis(1) {
        return Ok(a.sum_layout(0)?.compose(&a.layout(1)?)?.to_string());
    }
    if a.is_sum(1) && !a.is_sum(0) {
        let rhs = a.sum_layout(1)?;
        return Ok(if a.is_basis(0) {
            a.basis_layout(0)?.compose_sum(&rhs)?.to_string()
        } else {
            a.layout(0)?.compose_sum(&rhs)?.to_string()
        });
    }
    if a.is_basis(0) {
        return Ok(a.basis_layout(0)?.compose(&a.layout(1)?)?.to_string());
    }
    if a.is_basis(1) {
        return Ok(a.layout(0)?.compose_basis(&a.basis_layout(1)?)?.to_string());
    }
    let lhs = a.func(0)?;
    if !a.is_swizzled(1) && !matches!(lhs, Func::Swizzle(_)) {
        let t = a.tiler(1)?;
        return Ok(match lhs {
            Func::Composed(c) => c.compose_tiler(&t)?.to_string(),
            Func::Chain(c) => c.compose_tiler(&t)?.to_string(),
            Func::Layout(l) => l.compose_tiler(&t)?.to_string(),
            Func::Swizzle(_) => a.layout(0)?.compose_tiler(&t)?.to_string(),
        });
    }
    let rhs = a.func(1)?;
    Ok(match (lhs, rhs) {
        (Func::Swizzle(sw), Func::Swizzle(s2)) => sw.compose(&s2)?.to_string(),
        (Func::Swizzle(sw), Func::Layout(l)) => sw.compose_layout(&l).to_string(),
        (Func::Swizzle(sw), Func::Composed(c)) => sw.compose_composed(&c)?.to_string(),
        (Func::Layout(l), Func::Swizzle(sw)) => l.compose_swizzle(&sw)?.to_string(),
        (Func::Layout(l), Func::Composed(c)) => match l.compose_composed(&c) {
            Ok(r) => r.to_string(),
            // The swizzle does not move through the layout: keep `l o 0 o c` as CuTe's
            // general ComposedLayout (the same function).
            Err(_) => LayoutChain::over(OuterFn::Layout(l), 0, &c.into()).to_string(),
        },
        (Func::Composed(c), Func::Swizzle(sw)) => c.compose_swizzle(&sw)?.to_string(),
        (Func::Composed(c), Func::Composed(c2)) => match c.compose_composed(&c2) {
            Ok(r) => r.to_string(),
            Err(_) => {
                return chain_composition(a, Func::Composed(c), Func::Composed(c2));
            }
        },
        (Func::Layout(l), Func::Layout(r)) => l.compose(&r)?.to_string(),
        (Func::Composed(c), Func::Layout(r)) => c.compose(&r)?.to_string(),
        // Every pairing left has a general composed layout on a side.
        (lhs @ Func::Chain(_), rhs) | (lhs, rhs @ Func::Chain(_)) => {
            return chain_composition(a, lhs, rhs);
        }
    })
}

/// `composition A B` where a side is a general composed layout (a layout as an outer
/// function): CuTe's `composition(A o O o L, B) = A o O o (L ∘ B)` with `L ∘ B` folded where
/// that is the same function ([`Layout::compose_chain`]), `Sw o 0 o B` for a swizzle on the
/// left, or the swizzle on the right moved into the inner layout.
fn chain_composition(a: &Args<'_>, lhs: Func, rhs: Func) -> Result<String, OpError> {
    let inner = match rhs.into_chain() {
        Ok(inner) => inner,
        Err(sw) => {
            // CuTe: composition(ComposedLayout, Tiler) recurses into the inner layout, which
            // takes the swizzle on its right.
            let c = lhs.into_chain().map_err(|_| {
                OpError::new("BadRequest", format!("{}: no layout on the left", a.op))
            })?;
            return Ok(c.compose_swizzle(&sw)?.to_string());
        }
    };
    Ok(match lhs.into_chain() {
        Ok(outer) => outer.compose_chain(&inner)?,
        Err(sw) => LayoutChain::over(OuterFn::Swizzle(sw), 0, &inner),
    }
    .to_string())
}

/// The refusal of an operation that CuTe C++ does not define on basis strides: it complements
/// the layout, and its complement does not compile with `ScaledBasis` (no `<` or `/`).
pub(super) fn basis_not_cutes(a: &Args<'_>, what: &str) -> OpError {
    OpError::new(
        "NotImplemented",
        format!(
            "{}: {what} is not CuTe's: CuTe C++ complements it, which does not compile with \
             ScaledBasis strides",
            a.op
        ),
    )
}

/// `right_inverse` / `left_inverse` of a layout, a swizzle (itself) or a composed layout.
pub(super) fn inverse(a: &Args<'_>, right: bool) -> Result<String, OpError> {
    if a.is_basis(0) {
        let l = a.basis_layout(0)?;
        if right {
            // The library's slot-by-slot right inverse takes a coordinate of the codomain
            // (NVlabs PyCuTe's generalized law); CuTe C++'s right_inverse does not compile with
            // basis strides, and the integer law `L(R(i)) == i` it promises cannot hold for a
            // coordinate-valued `L`.
            return Err(OpError::new(
                "NotImplemented",
                format!(
                    "right_inverse: {l} has basis strides; CuTe C++ has no right_inverse of \
                     them (the Rust library's Layout<ScaledBasis>::right_inverse maps \
                     coordinates of the codomain back, slot by slot)"
                ),
            ));
        }
        return Ok(l.left_inverse()?.to_string());
    }
    Ok(match a.func(0)? {
        Func::Layout(l) => {
            if right {
                l.right_inverse().to_string()
            } else {
                l.left_inverse()?.to_string()
            }
        }
        Func::Swizzle(sw) => sw.inverse().to_string(),
        Func::Composed(c) => {
            if right {
                c.right_inverse()?.to_string()
            } else {
                c.left_inverse()?.to_string()
            }
        }
        Func::Chain(c) => {
            if right {
                c.right_inverse()?.to_string()
            } else {
                c.left_inverse()?.to_string()
            }
        }
    })
}

/// A divide or product: on a composed layout it applies to the inner layout.
pub(super) fn by_tiler(
    a: &Args<'_>,
    divide: bool,
    f: fn(&Layout, &Tiler) -> Result<Layout, cute_layout::LayoutError>,
    g: fn(&ComposedLayout, &Tiler) -> Result<ComposedLayout, cute_layout::LayoutError>,
) -> Result<String, OpError> {
    if matches!(a.op, "logical_divide" | "zipped_divide")
        && matches!(&a.args[0], Arg::Text(t) if t.trim() == "_")
    {
        // NVlabs PyCuTe's divide of `None`, the identity of unknown extent.
        let zipped = a.op == "zipped_divide";
        return Ok(Layout::<ScaledBasis>::identity_divide(&a.tiler(1)?, zipped)?.to_string());
    }
    if let Some(args) = crate::construct_ops::promoted_left(a)? {
        return crate::run_op(a.op, &args);
    }
    if a.is_basis(1) && !a.is_basis(0) && matches!(a.op, "logical_divide" | "zipped_divide") {
        // NVlabs PyCuTe's divide by a basis-strided tiler: complemented mode by mode.
        return Ok(a.layout(0)?.divide_basis(&a.basis_layout(1)?)?.to_string());
    }
    if a.is_basis(1) || (a.is_basis(0) && !divide) {
        // CuTe's divides complement the tiler and its products complement the block; neither
        // compiles with ScaledBasis strides (no `<` or `/` on them).
        let what = if a.is_basis(1) {
            "a basis-strided tiler"
        } else {
            "a product of a basis-strided layout"
        };
        return Err(basis_not_cutes(a, what));
    }
    if a.is_basis(0) && divide {
        return match a.basis_layout(0)?.divide_with(&a.tiler(1)?, f) {
            Ok(r) => Ok(r.to_string()),
            Err(cute_layout::LayoutError::NotRepresentable { what, .. }) => Err(OpError::new(
                "NotImplemented",
                format!("{}: a divide of a basis-strided layout that splits its coordinate modes differently ({what})", a.op),
            )),
            Err(e) => Err(e.into()),
        };
    }
    Ok(match a.func(0)? {
        Func::Composed(c) => g(&c, &a.tiler(1)?)?.to_string(),
        Func::Chain(c) => {
            let t = a.tiler(1)?;
            c.map(|l| f(l, &t))?.to_string()
        }
        Func::Swizzle(sw) => {
            return Err(OpError::new(
                "BadRequest",
                format!("{}: {sw} is a swizzle, not a layout", a.op),
            ))
        }
        Func::Layout(l) => f(&l, &a.tiler(1)?)?.to_string(),
    })
}

/// `table`: the values of a layout or composed layout over its domain (or `N` values), or the
/// first `N` values of a swizzle (default `2^(B+M+|S|)`, every pattern of the bits it touches).
pub(super) fn table(a: &Args<'_>) -> Result<String, OpError> {
    let f = a.func(0)?;
    let n = if a.len() == 2 { Some(a.int(1)?) } else { None };
    let (size, what) = match &f {
        Func::Layout(l) => (l.size(), l.to_string()),
        Func::Composed(c) => (c.size(), c.to_string()),
        Func::Chain(c) => (c.size(), c.to_string()),
        Func::Swizzle(sw) => (1i64 << sw.top_bit(), sw.to_string()),
    };
    let count = n.unwrap_or(size);
    if !(0..=MAX_TABLE_VALUES).contains(&count) {
        return Err(OpError::new(
            "InvalidArgument",
            format!(
                "table: {count} values requested for {what}; between 0 and {MAX_TABLE_VALUES} allowed"
            ),
        ));
    }
    let mut out = String::new();
    match (&f, n) {
        (Func::Layout(l), None) => l.offsets().for_each(|v| push_value(&mut out, v)),
        (Func::Composed(c), None) => c.offsets().for_each(|v| push_value(&mut out, v)),
        (Func::Layout(l), Some(_)) => {
            for i in 0..count {
                push_value(&mut out, l.index_any(i)?);
            }
        }
        (Func::Composed(c), Some(_)) => {
            for i in 0..count {
                push_value(&mut out, c.index_any(i)?);
            }
        }
        (Func::Swizzle(sw), _) => (0..count).for_each(|x| push_value(&mut out, sw.apply(x))),
        (Func::Chain(c), _) => {
            for i in 0..count {
                push_value(&mut out, c.post(c.layout().index_any(i)?)?);
            }
        }
    }
    Ok(out)
}

/// `make_identity_layout SHAPE`: the shape with unit basis strides.
pub(super) fn make_identity_layout(a: &Args<'_>) -> Result<String, OpError> {
    let shape: IntTuple = a.tuple(0)?;
    Ok(Layout::identity(shape)?.to_string())
}

#[cfg(test)]
mod tests {
    use crate::{run_op, Arg};

    fn t(s: &str) -> Arg {
        Arg::Text(s.into())
    }

    fn sw(b: i64, m: i64, s: i64) -> Arg {
        Arg::List(vec![Arg::Int(b), Arg::Int(m), Arg::Int(s)])
    }

    #[test]
    fn swizzle_ops_answer() {
        let ok = |op: &str, args: &[Arg]| run_op(op, args).unwrap();
        assert_eq!(
            ok("swizzle", &[Arg::Int(3), Arg::Int(4), Arg::Int(3)]),
            "Sw<3,4,3>"
        );
        assert_eq!(
            ok("composition", &[sw(1, 2, 3), t("(8,8):(1,8)")]),
            "Sw<1,2,3> o 0 o (8,8):(1,8)"
        );
        assert_eq!(
            ok("composition", &[t("Sw<0,2,3>"), t("(8,8):(1,8)")]),
            "(8,8):(1,8)"
        );
        assert_eq!(
            ok("composition", &[t("(8,8):(8,1)"), t("Sw<2,0,-3>")]),
            "Sw<2,0,3> o 0 o (8,8):(8,1)"
        );
        assert_eq!(
            ok("composition", &[t("Sw<1,0,3>"), t("Sw<1,1,3>")]),
            "Sw<2,0,3>"
        );
        assert_eq!(
            ok(
                "composition",
                &[t("Sw<1,0,2> o 0 o (4,4):(4,1)"), t("(2,2)")]
            ),
            "Sw<1,0,2> o 0 o (2,2):(4,1)"
        );
        assert_eq!(ok("table", &[t("Sw<1,0,1>")]), "0,1,3,2");
        assert_eq!(ok("table", &[sw(1, 0, 1), Arg::Int(6)]), "0,1,3,2,4,5");
        assert_eq!(ok("table", &[t("Sw<1,0,1> o 0 o 4:1")]), "0,1,3,2");
        assert_eq!(
            ok("table", &[t("Sw<1,0,1> o 0 o 4:1"), Arg::Int(5)]),
            "0,1,3,2,4"
        );
        assert_eq!(ok("right_inverse", &[t("Sw<1,0,2>")]), "Sw<1,0,2>");
        assert_eq!(
            ok("left_inverse", &[t("Sw<1,0,1> o 0 o (4,4):(8,1)")]),
            "Sw<1,2,1> o 0 o (8,4):(4,1)"
        );
        assert_eq!(
            ok("logical_divide", &[t("Sw<1,0,2> o 0 o 16:1"), t("4")]),
            "Sw<1,0,2> o 0 o (4,4):(1,4)"
        );
        assert_eq!(
            ok("make_identity_layout", &[t("(2,(3,4))")]),
            "(2,(3,4)):(1@0,(1@0@1,1@1@1))"
        );
        assert_eq!(
            ok("composition", &[t("(4,4):(4,1)"), t("(4,4):(1@1,1@0)")]),
            "(4,4):(1,4)"
        );
    }

    #[test]
    fn swizzle_ops_refuse_with_typed_errors() {
        let kind = |op: &str, args: &[Arg]| run_op(op, args).unwrap_err().kind;
        assert_eq!(
            kind("swizzle", &[Arg::Int(3), Arg::Int(4), Arg::Int(2)]),
            "InvalidSwizzle"
        );
        assert_eq!(
            kind("composition", &[sw(3, 4, 2), t("8:1")]),
            "InvalidSwizzle"
        );
        assert_eq!(
            kind("composition", &[Arg::List(vec![Arg::Int(1)]), t("8:1")]),
            "BadRequest"
        );
        assert_eq!(kind("composition", &[t("Sw<3,4>"), t("8:1")]), "ParseError");
        assert_eq!(
            kind("composition", &[t("(3,4):(1,3)"), t("Sw<1,0,1>")]),
            "NotRepresentable"
        );
        assert_eq!(
            kind("right_inverse", &[t("Sw<1,0,1> o 4 o 8:1")]),
            "NotRepresentable"
        );
        assert_eq!(
            kind("logical_divide", &[t("Sw<1,0,1>"), t("2")]),
            "BadRequest"
        );
        assert_eq!(
            kind("logical_divide", &[t("8:1"), t("Sw<1,0,1>")]),
            "KindMismatch"
        );
        assert_eq!(
            kind("composition", &[t("Sw<1,0,1>"), t("Sw<1,0,2>")]),
            "InvalidArgument"
        );
    }
}
