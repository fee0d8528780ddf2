//! NVlabs PyCuTe's extras, which CuTe C++ does not have: `layout_add`,
//! `greatest_common_domain`, `coalesce_z`, `common_refinement`, `common_coarsening`. One table,
//! [`PYCUTE_OPS`], listed in [`crate::GROUPS`]; the algebra is in `cute_layout`
//! ([`cute_layout::Layout::layout_add`], [`cute_layout::IntTuple::greatest_common_domain`], ...).

use crate::table::{one, opt, Kind as K, Topic};
use crate::{op, Args, OpError, OpSpec};

/// PyCuTe's extras, one declaration each (hence `rustfmt::skip`).
#[rustfmt::skip]
pub static PYCUTE_OPS: &[OpSpec] = &[
    op("layout_add", Topic::Pycute, "R(i) = A(i) + B(i) for i < size (NVlabs PyCuTe; not CuTe C++)")
        .params(&[one("", &[K::Layout]), one("", &[K::Layout])])
        .returns(&[K::Layout, K::F2Layout])
        .errors(&["NotRepresentable", "SizeMismatch"])
        .law("size(R) = size(A) = size(B) and R(i) = A(i) + B(i) for every i < size; R is coalesced")
        .example(&["(4,3):(1,4)", "(4,3):(3,1)"], "(4,3):(4,5)")
        .f2(crate::f2_ops::layout_add)
        .run(layout_add),
    op("greatest_common_domain", Topic::Pycute, "the sub-modes two shapes share in order, as index positions (NVlabs PyCuTe; not CuTe C++)")
        .params(&[one("", &[K::Shape, K::Layout]), one("", &[K::Shape, K::Layout])])
        .returns(&[K::Layout])
        .errors(&["InvalidExtent", "Overflow"])
        .law("each mode s_k:d_k of R is a sub-mode of one leaf of each shape at index position d_k; depth 1, symmetric, size(R) divides gcd(size(A), size(B))")
        .example(&["(5,3,4)", "(10,6)"], "(5,2):(1,30)")
        .run(|a| Ok(a.shape(0)?.greatest_common_domain(&a.shape(1)?)?.to_string())),
    op("coalesce_z", Topic::Pycute, "coalesce keeping the function past the end: an extent-1 last mode stays (NVlabs PyCuTe; not CuTe C++)")
        .params(&[one("", &[K::Layout, K::Symbolic]), opt("", &[K::Profile])])
        .returns(&[K::Layout, K::Symbolic, K::F2Layout])
        .errors(&["NotImplemented", "RankMismatch"])
        .law("R(i) = L(i) for every integer i (the last mode runs on past the end); coalesce(R) = coalesce(L)")
        .example(&["(2,1,6,1):(1,7,8,0)"], "(2,6,1):(1,8,0)")
        .f2(crate::f2_ops::coalesce_z)
        .run(coalesce_z),
    op("common_refinement", Topic::Pycute, "the least shape both are compatible with (NVlabs PyCuTe; not CuTe C++)")
        .params(&[one("", &[K::Shape, K::Layout]), one("", &[K::Shape, K::Layout])])
        .returns(&[K::Tuple])
        .errors(&["InvalidExtent", "NoCommonRefinement"])
        .law("compatible(A, R) and compatible(B, R), and R is compatible with every such shape")
        .example(&["(4,(3,5))", "((2,2),15)"], "((2,2),(3,5))")
        .run(|a| Ok(a.shape(0)?.common_refinement(&a.shape(1)?)?.to_string())),
    op("common_coarsening", Topic::Pycute, "the greatest shape compatible with both (NVlabs PyCuTe; not CuTe C++)")
        .params(&[one("", &[K::Shape, K::Layout]), one("", &[K::Shape, K::Layout])])
        .returns(&[K::Tuple])
        .errors(&["InvalidExtent", "Overflow", "SizeMismatch"])
        .law("compatible(R, A) and compatible(R, B), and every such shape is compatible with R; exists iff size(A) = size(B)")
        .example(&["(4,(3,5))", "((2,2),15)"], "(4,15)")
        .run(|a| Ok(a.shape(0)?.common_coarsening(&a.shape(1)?)?.to_string())),
];

fn layout_add(a: &Args<'_>) -> Result<String, OpError> {
    if a.is_basis(0) || a.is_basis(1) {
        // Basis strides along different modes add to a sum of bases (PyCuTe's ArithTuple).
        return Ok(a.sum_layout(0)?.layout_add(&a.sum_layout(1)?)?.to_string());
    }
    Ok(a.layout(0)?.layout_add(&a.layout(1)?)?.to_string())
}

fn coalesce_z(a: &Args<'_>) -> Result<String, OpError> {
    if let Some(r) = crate::symbolic_ops::coalesce_z(a)? {
        return Ok(r);
    }
    if a.is_basis(0) {
        if a.len() == 2 {
            return Err(OpError::new(
                "NotImplemented",
                "coalesce_z: a profile with basis strides",
            ));
        }
        return Ok(a.basis_layout(0)?.coalesce_z()?.to_string());
    }
    let l = a.layout(0)?;
    Ok(if a.len() == 2 {
        l.coalesce_z_by_mode(&a.profile(1)?)?
    } else {
        l.coalesce_z()
    }
    .to_string())
}

#[cfg(test)]
mod tests {
    use crate::test_util::run;

    #[test]
    fn pycute_extras_answer() {
        let ok = |op, args: &[&str]| run(op, args).unwrap();
        assert_eq!(ok("layout_add", &["12:1", "12:1"]), "12:2");
        assert_eq!(ok("layout_add", &["8:2@0", "8:3@0"]), "8:5@0");
        assert_eq!(
            ok("layout_add", &["(4,3):(1@0,1@1)", "12:0"]),
            "(4,3):(1@0,1@1)"
        );
        assert_eq!(
            ok("greatest_common_domain", &["(2,21)", "(3,14)"]),
            "(7):(6)"
        );
        assert_eq!(
            ok("greatest_common_domain", &["(5,3,4):(12,4,1)", "(10,6)"]),
            "(5,2):(1,30)"
        );
        assert_eq!(ok("coalesce_z", &["(1,1):(5,7)"]), "1:7");
        assert_eq!(
            ok("coalesce_z", &["(2,1,6,1):(1@1,1@3@2,2@1,1@3@2)"]),
            "(12,1):(1@1,1@3@2)"
        );
        assert_eq!(ok("common_refinement", &["10", "(10)"]), "(10)");
        assert_eq!(ok("common_coarsening", &["10", "(10)"]), "10");
        assert_eq!(
            ok("common_coarsening", &["(2,15):(1,2)", "(2,(3,5))"]),
            "(2,15)"
        );
    }

    #[test]
    fn pycute_extras_refuse_with_types() {
        assert_eq!(
            run("layout_add", &["6:1", "8:1"]),
            Err("SizeMismatch".into())
        );
        assert_eq!(
            run("layout_add", &["(7,11):(11,1)", "(11,7):(7,1)"]),
            Err("NotALayout".into())
        );
        assert_eq!(
            run("layout_add", &["8:1@0", "8:1"]),
            Err("NotRepresentable".into())
        );
        assert_eq!(
            run("common_refinement", &["(6)", "(2,3)"]),
            Err("NoCommonRefinement".into())
        );
        assert_eq!(
            run("common_coarsening", &["7", "(2,3)"]),
            Err("SizeMismatch".into())
        );
        assert_eq!(
            run("coalesce_z", &["(2,3):(1,2)", "(1,1,1)"]),
            Err("RankMismatch".into())
        );
    }
}
