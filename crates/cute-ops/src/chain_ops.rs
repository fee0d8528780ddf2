//! Composed layouts (`Sw<B,M,S> o 0 o L`, `32:2 o 3 o (2,4):(1,2)`, CuTe's `ComposedLayout`)
//! wherever CuTe accepts them in place of a layout: the queries (size, rank, depth, cosize,
//! shape), `crd2idx`, `mode`, `flatten`, `coalesce`, the injectivity tests, `equal`,
//! `max_common_vector` / `max_common_layout`, and slicing. Each entry of [`crate::OPS`] calls
//! these first; a plain layout goes on to the layout's own code.

use cute_layout::{analysis::MAX_ENUMERATED, LayoutChain, SliceCoord};

use crate::{bit, Arg, Args, OpError};

impl Args<'_> {
    /// Argument `k` as a composed layout, if it is one (text with ` o ` layers or `Sw<..> o`).
    pub(super) fn chain(&self, k: usize) -> Result<Option<LayoutChain>, OpError> {
        match &self.args[k] {
            Arg::Text(t) if self.form(k).is_chain(&self.args[k]) => {
                self.parse_text(k, t, "composed layout").map(Some)
            }
            _ => Ok(None),
        }
    }

    /// Argument `k` as a layout or composed layout (a chain of no layers for a layout).
    pub(super) fn any_layout(&self, k: usize) -> Result<LayoutChain, OpError> {
        Ok(match self.chain(k)? {
            Some(c) => c,
            None => self.layout(k)?.into(),
        })
    }

    /// Argument `k` as a slicing coordinate (`_` for a whole mode).
    pub(super) fn slice_coord(&self, k: usize) -> Result<SliceCoord, OpError> {
        self.parsed(k, "coordinate")
    }
}

/// A query answered from a composed layout's inner layout, or `None` for a plain argument.
pub(super) fn query(
    a: &Args<'_>,
    f: fn(&LayoutChain) -> String,
) -> Result<Option<String>, OpError> {
    Ok(a.chain(0)?.map(|c| f(&c)))
}

/// A domain operation of a composed layout at argument `k` (CuTe's `group`, `take` of a
/// `ComposedLayout`): `f` applied to the inner layout, the outer functions kept; `None` for a
/// plain argument.
pub(super) fn inner(
    a: &Args<'_>,
    k: usize,
    f: impl FnOnce(&cute_layout::Layout) -> Result<cute_layout::Layout, cute_layout::LayoutError>,
) -> Result<Option<String>, OpError> {
    match a.chain(k)? {
        Some(c) => Ok(Some(c.map(f)?.to_string())),
        None => Ok(None),
    }
}

/// `upcast N SWIZZLE|COMPOSED` / `downcast N SWIZZLE|COMPOSED` (CuTe's overloads for a swizzle
/// and a swizzled layout: every layer and the offset recast; an `smem_ptr_flag` layout keeps
/// its swizzle, see [`crate::pointer_ops::flag_cast`]); `None` for a plain argument.
pub(super) fn recast(a: &Args<'_>, up: bool) -> Result<Option<String>, OpError> {
    if let Some(r) = crate::pointer_ops::flag_cast(a, up)? {
        return Ok(Some(r));
    }
    if let Arg::Text(t) = &a.args[1] {
        if a.form(1) == crate::value::Form::Swizzle {
            let sw: cute_layout::Swizzle = a.parse_text(1, t, "swizzle")?;
            let n = a.int(0)?;
            return Ok(Some(
                if up { sw.upcast(n)? } else { sw.downcast(n)? }.to_string(),
            ));
        }
    }
    let Some(c) = a.chain(1)? else {
        return Ok(None);
    };
    let Some(c) = c.to_composed() else {
        return Err(OpError::new(
            "NotImplemented",
            format!("{}: a composed layout with a layout as an outer function is not recast (only swizzled layouts Sw<B,M,S> o O o L)", a.op),
        ));
    };
    let n = a.int(0)?;
    Ok(Some(
        if up { c.upcast(n)? } else { c.downcast(n)? }.to_string(),
    ))
}

/// `crd2idx COORD COMPOSED`: the composed layout at the coordinate.
pub(super) fn crd2idx(a: &Args<'_>) -> Result<Option<String>, OpError> {
    if a.len() != 2 {
        return Ok(None);
    }
    let Some(c) = a.chain(1)? else {
        return Ok(None);
    };
    Ok(Some(c.index(&a.tuple(0)?)?.to_string()))
}

/// `mode COMPOSED I...`: the outer functions over the inner layout's mode.
pub(super) fn mode(a: &Args<'_>) -> Result<Option<String>, OpError> {
    let Some(c) = a.chain(0)? else {
        return Ok(None);
    };
    let path = a.indices(1)?;
    c.mode_at(&path)
        .map(|m| Some(m.to_string()))
        .ok_or_else(|| {
            OpError::new(
                "ModeOutOfRange",
                format!("mode: no mode {path:?} in layout {c}"),
            )
        })
}

/// `coalesce COMPOSED [PROFILE]` / `flatten COMPOSED`: on the inner layout.
pub(super) fn coalesce(a: &Args<'_>) -> Result<Option<String>, OpError> {
    let Some(c) = a.chain(0)? else {
        return Ok(None);
    };
    Ok(Some(if a.len() == 2 {
        let p = a.profile(1)?;
        c.map(|l| l.coalesce_by_mode(&p))?.to_string()
    } else {
        c.map(|l| Ok(l.coalesce()))?.to_string()
    }))
}

/// `injective`, `surjective`, `bijective` of a composed layout, by enumeration.
pub(super) fn injectivity(a: &Args<'_>, which: u8) -> Result<Option<String>, OpError> {
    let Some(c) = a.chain(0)? else {
        return Ok(None);
    };
    Ok(Some(bit(match which {
        0 => c.is_injective()?,
        1 => c.is_surjective()?,
        _ => c.is_bijective()?,
    })))
}

/// `equal A B` where a side is composed: the same values on the same domain size.
pub(super) fn equal(a: &Args<'_>) -> Result<Option<String>, OpError> {
    if a.chain(0)?.is_none() && a.chain(1)?.is_none() {
        return Ok(None);
    }
    let (x, y) = (a.any_layout(0)?, a.any_layout(1)?);
    Ok(Some(bit(x.equal_values(&y, MAX_ENUMERATED)?)))
}

fn undefined(a: &Args<'_>) -> OpError {
    OpError::new(
        "NotImplemented",
        format!(
            "{}: CuTe defines it for layouts and swizzled layouts (Sw<B,M,S> o OFFSET o LAYOUT) \
             with at most one swizzled side",
            a.op
        ),
    )
}

/// `max_common_vector A B` where a side is composed (CuTe's overloads for swizzled layouts).
pub(super) fn max_common_vector(a: &Args<'_>) -> Result<Option<String>, OpError> {
    if a.chain(0)?.is_none() && a.chain(1)?.is_none() {
        return Ok(None);
    }
    let (x, y) = (a.any_layout(0)?, a.any_layout(1)?);
    let v = x.max_common_vector(&y).ok_or_else(|| undefined(a))?;
    Ok(Some(v.to_string()))
}

/// `max_common_layout A B` where a side is composed (CuTe's overloads for swizzled layouts).
pub(super) fn max_common_layout(a: &Args<'_>) -> Result<Option<String>, OpError> {
    if a.chain(0)?.is_none() && a.chain(1)?.is_none() {
        return Ok(None);
    }
    let (x, y) = (a.any_layout(0)?, a.any_layout(1)?);
    let v = x.max_common_layout(&y).ok_or_else(|| undefined(a))?;
    Ok(Some(v.to_string()))
}

/// `complement COMPOSED [COTARGET]`: CuTe's complement of the inner layout.
pub(super) fn complement(a: &Args<'_>) -> Result<Option<String>, OpError> {
    let Some(c) = a.chain(0)? else {
        return Ok(None);
    };
    Ok(Some(if a.len() == 2 {
        c.complement(&a.tuple(1)?)?.to_string()
    } else {
        c.complement_cosize()?.to_string()
    }))
}

/// `nullspace COMPOSED`: CuTe's `1:0` for a composed layout.
pub(super) fn nullspace(a: &Args<'_>) -> Result<Option<String>, OpError> {
    Ok(a.chain(0)?.map(|c| c.nullspace().to_string()))
}

/// `slice COORD LAYOUT|COMPOSED`: CuTe `slice(coord, layout)`, the modes where the coordinate
/// has `_`.
pub(super) fn slice(a: &Args<'_>) -> Result<String, OpError> {
    let c = a.slice_coord(0)?;
    if a.chain(1)?.is_none() {
        if let crate::Either::Tuple(t) = a.layout_or_tuple(1)? {
            return Ok(t.slice_tuple(&c)?.to_string());
        }
    }
    let l = a.any_layout(1)?;
    let (s, _) = l.slice_and_offset(&c)?;
    Ok(s.to_string())
}

/// `slice_and_offset COORD LAYOUT|COMPOSED`: `(slice, offset)`; for a composed layout the
/// offset moves into the innermost offset and 0 is returned, as in CuTe.
pub(super) fn slice_and_offset(a: &Args<'_>) -> Result<String, OpError> {
    let c = a.slice_coord(0)?;
    let l = a.any_layout(1)?;
    let (s, off) = l.slice_and_offset(&c)?;
    Ok(format!("({s},{off})"))
}

#[cfg(test)]
mod tests {
    use crate::test_util::ok;
    use crate::{run_op, Arg};

    fn t(s: &str) -> Arg {
        Arg::Text(s.into())
    }

    #[test]
    fn group_take_and_recasts_of_composed_layouts() {
        let s = "Sw<1,0,2> o 0 o (2,2,4):(1,2,4)";
        assert_eq!(
            ok("group", &[s, "0", "2"]),
            "Sw<1,0,2> o 0 o ((2,2),4):((1,2),4)"
        );
        assert_eq!(ok("take", &[s, "1", "3"]), "Sw<1,0,2> o 0 o (2,4):(2,4)");
        let g = "32:2 o 3 o (2,4,2):(1,2,8)";
        assert_eq!(
            ok("group", &[g, "1", "3"]),
            "32:2 o 3 o (2,(4,2)):(1,(2,8))"
        );
        // group and take keep the function on the inner layout's domain.
        for i in 0..16 {
            let i = i.to_string();
            assert_eq!(
                ok("crd2idx", &[&i, &ok("group", &[g, "1", "3"])]),
                ok("crd2idx", &[&i, g])
            );
        }
        // CuTe tile_to_shape of a swizzled atom: the swizzle over the tiled inner layout.
        assert_eq!(
            ok(
                "tile_to_shape",
                &["Sw<3,3,3> o 0 o (8,64):(64,1)", "(128,64)"]
            ),
            "Sw<3,3,3> o 0 o ((8,16),(64,1)):((64,512),(1,0))"
        );
        let c = "Sw<1,0,2> o 0 o (4,4):(4,1)";
        for op in ["blocked_product", "raked_product"] {
            let inner = ok(op, &["(4,4):(4,1)", "(2,2):(1,2)"]);
            assert_eq!(
                ok(op, &[c, "(2,2):(1,2)"]),
                format!("Sw<1,0,2> o 0 o {inner}")
            );
        }
        let plain = ok("blocked_product", &["4:1", "2:1"]);
        assert_eq!(
            ok("blocked_product", &["32:2 o 3 o 4:1", "2:1"]),
            format!("32:2 o 3 o {plain}")
        );
        // CuTe upcast<2>(Sw<3,4,3> o _0 o (8,64):(64,1)) = Sw<3,3,3> o _0 o (_8,_32):(_32,_1)
        let k = "Sw<3,4,3> o 0 o (8,64):(64,1)";
        assert_eq!(ok("upcast", &["2", k]), "Sw<3,3,3> o 0 o (8,32):(32,1)");
        assert_eq!(ok("downcast", &["2", &ok("upcast", &["2", k])]), k);
        let err = |op: &str, args: &[&str]| {
            let args: Vec<Arg> = args.iter().map(|s| t(s)).collect();
            run_op(op, &args).unwrap_err().kind
        };
        assert_eq!(
            err("upcast", &["2", "32:2 o 3 o (2,4):(1,2)"]),
            "NotImplemented"
        );
        assert_eq!(
            err("take", &[s, "2", "5"]),
            err("take", &["(2,2,4):(1,2,4)", "2", "5"])
        );
        assert_eq!(err("group", &[s, "x", "1"]), "KindMismatch");
    }

    #[test]
    fn composed_layouts_where_layouts_are_accepted() {
        let g = "32:2 o 3 o (2,4):(1,2)";
        assert_eq!(ok("size", &[g]), "8");
        assert_eq!(ok("rank", &[g]), "2");
        assert_eq!(ok("depth", &[g]), "1");
        assert_eq!(ok("cosize", &[g]), "8");
        assert_eq!(ok("shape", &[g]), "(2,4)");
        assert_eq!(ok("crd2idx", &["(1,2)", g]), "16");
        assert_eq!(ok("crd2idx", &["5", g]), "16");
        let s = "Sw<3,0,3> o 0 o (8,8):(8,1)";
        assert_eq!(ok("size", &[s]), "64");
        assert_eq!(ok("rank", &[s]), "2");
        assert_eq!(ok("crd2idx", &["(1,1)", s]), "8");
        assert_eq!(ok("bijective", &[s]), "1");
        let m = "(4,4):(4,1) o 0 o Sw<3,0,3> o 0 o (8,8):(8,1)";
        assert_eq!(
            ok("mode", &[m, "0"]),
            "(4,4):(4,1) o 0 o Sw<3,0,3> o 0 o 8:8"
        );
        assert_eq!(
            ok("composition", &["(4,4):(4,1)", m]),
            "(4,4):(4,1) o 0 o (4,4):(4,1) o 0 o Sw<3,0,3> o 0 o (8,8):(8,1)"
        );
        assert_eq!(
            ok("logical_divide", &["16:2 o 0 o Sw<2,0,2> o 0 o 16:1", "4"]),
            "16:2 o 0 o Sw<2,0,2> o 0 o (4,4):(1,4)"
        );
        assert_eq!(
            ok("flat_product", &["8:2 o 0 o Sw<2,0,2> o 0 o 8:1", "3:1"]),
            "8:2 o 0 o Sw<2,0,2> o 0 o (8,3):(1,8)"
        );
        assert_eq!(
            ok("slice_and_offset", &["(2,_)", m]),
            "((4,4):(4,1) o 0 o Sw<3,0,3> o 16 o (8):(1),0)"
        );
        assert_eq!(
            ok("slice_and_offset", &["(_,1,_)", "(2,3,4):(1,2,6)"]),
            "((2,4):(1,6),2)"
        );
        assert_eq!(ok("slice", &["_", "(4,8):(1,4)"]), "(4,8):(1,4)");
        assert_eq!(ok("equal", &[g, g]), "1");
        assert_eq!(
            ok("max_common_vector", &["Sw<2,1,3> o 0 o 32:1", "32:1"]),
            "2"
        );
        assert_eq!(
            ok("max_common_layout", &["32:1", "Sw<2,1,3> o 0 o 32:1"]),
            "2:1"
        );
        assert_eq!(
            ok("table", &["8:2 o 0 o Sw<2,0,2> o 0 o 8:1"]),
            "0,2,4,6,10,8,14,12"
        );
        assert_eq!(
            ok("coalesce", &["(2,4,3):(1@0,2@0,1@1)"]),
            "(8,3):(1@0,1@1)"
        );
        assert_eq!(ok("coalesce", &["1:1@0"]), "1:0");
        assert_eq!(
            ok("zipped_divide", &["(4,6):(1@0,1@1)", "(2,3)"]),
            "((2,3),(2,2)):((1@0,1@1),(2@0,3@1))"
        );
    }

    /// CuTe's answers for the algebra of general composed layouts (CuTe 4.2, host-only).
    #[test]
    fn chain_inverses_complement_nullspace() {
        assert_eq!(
            ok("right_inverse", &["32:2 o 3 o (2,4):(1,2)"]),
            "8:1 o -3 o 1:0"
        );
        assert_eq!(
            ok("left_inverse", &["(4,4):(4,1) o 0 o (2,8):(8,1)"]),
            "(8,2):(2,1) o 0 o (4,4):(4,1)"
        );
        assert_eq!(
            ok("right_inverse", &["16:2 o 0 o Sw<2,0,2> o 0 o 16:1"]),
            "Sw<2,0,2> o 0 o 16:1 o 0 o 1:0"
        );
        assert_eq!(ok("complement", &["32:2 o 3 o (2,4):(2,4)"]), "2:1");
        assert_eq!(
            ok("complement", &["32:2 o 3 o (2,4):(2,4)", "64"]),
            "(2,4):(1,16)"
        );
        assert_eq!(
            ok("complement", &["Sw<1,0,2> o 0 o 4:2", "16"]),
            "(2,2):(1,8)"
        );
        assert_eq!(ok("nullspace", &["32:2 o 3 o (2,4):(0,4)"]), "1:0");
        assert_eq!(ok("nullspace", &["Sw<1,0,2> o 0 o (2,4):(0,4)"]), "1:0");
        assert_eq!(
            ok("composition", &["32:2 o 3 o (8,8):(8,1)", "Sw<3,0,3>"]),
            "32:2 o 3 o Sw<3,0,-3> o 0 o (8,8):(8,1)"
        );
        let args = [Arg::Text("8:1 o 0 o (2,2):(1,4)".into())];
        let e = run_op("right_inverse", &args).unwrap_err();
        assert_eq!(e.kind, "NotRepresentable", "{e}");
    }

    /// Basis strides: CuTe's coshape / coprofile / cosize / nullspace, the slot-by-slot left
    /// inverse; the right inverse is refused (not CuTe's; the integer law cannot hold).
    #[test]
    fn basis_strided_algebra() {
        assert_eq!(ok("coshape", &["(2,3,5):(4@1,0,7@1@2)"]), "(1,5,(1,29))");
        assert_eq!(ok("coprofile", &["(2,3,5):(4@1,0,7@1@2)"]), "(0,0,(0,0))");
        assert_eq!(ok("coprofile", &["(2,3):(4,1)"]), "0");
        assert_eq!(ok("cosize", &["(2,5,3):(4@1,5@0,16@1)"]), "777");
        assert_eq!(ok("nullspace", &["(4,5):(0,1@0)"]), "4:1");
        assert_eq!(
            ok("left_inverse", &["(4,5):(1@1,1@1@4)"]),
            "(1,4,1,1,(1,5)):(0,1,0,0,(0,4))"
        );
        let args = [Arg::Text("(4,5):(1@1,1@0)".into())];
        assert_eq!(
            run_op("right_inverse", &args).unwrap_err().kind,
            "NotImplemented"
        );
    }

    /// Law: crd2idx of a composed layout agrees with its table at every point, for outer
    /// layouts, swizzles and offsets over a small domain.
    #[test]
    fn crd2idx_agrees_with_table() {
        for g in [
            "32:2 o 3 o (2,4):(1,2)",
            "(4,4):(4,1) o 1 o (2,8):(8,1)",
            "16:2 o 0 o Sw<2,0,2> o 0 o 16:1",
        ] {
            let table = ok("table", &[g]);
            for (i, v) in table.split(',').enumerate() {
                assert_eq!(ok("crd2idx", &[&i.to_string(), g]), v, "{g} at {i}");
            }
        }
    }
}
