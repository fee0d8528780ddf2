//! Shared-memory layout atoms of the GMMA / UMMA instructions ([`cute_layout::gpu::smem_atom`]):
//! `smem_atom` prints CuTe's `Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>` (optionally tiled
//! to a shape) as CuTe does, `smem_atom_layout` the same function on element offsets as a
//! composed layout every operation takes. One table, [`SMEM_ATOM_OPS`], in [`crate::GROUPS`].

use cute_layout::atom::type_bits;
use cute_layout::gpu::smem_atom::{Major, SmemAtom, SmemSwizzle};
use cute_layout::{ComposedLayout, IntTuple};

use crate::table::{one, opt, Kind as K, Topic};
use crate::{op, Args, OpError, OpSpec};

/// The shared-memory atom operations, one declaration each (hence `rustfmt::skip`).
#[rustfmt::skip]
pub static SMEM_ATOM_OPS: &[OpSpec] = &[
    op("smem_atom", Topic::Gpu, "CuTe's GMMA/UMMA smem layout atom (Layout_K_SW128_Atom<T>, or K|MN INTER|SW32|SW64|SW128|SW128_32B), tile_to_shape'd to SHAPE if given, printed as CuTe does")
        .params(&[one("", &[K::Name]), one("TYPE|BITS", &[K::Type, K::Int]), opt("", &[K::Shape]), opt("ORDER", &[K::Tuple])])
        .overloads(&[&[one("MAJOR", &[K::Name]), one("SWIZZLE", &[K::Name]), one("TYPE|BITS", &[K::Type, K::Int]), opt("", &[K::Shape]), opt("ORDER", &[K::Tuple])]])
        .returns(&[K::Composed])
        .errors(&["InvalidArgument", "RankMismatch"])
        .law("R = upcast<bits>(Layout_{MAJOR}_{SWIZZLE}_Atom_Bits): the swizzle acts on byte addresses, the inner layout counts elements")
        .example(&["Layout_K_SW128_Atom", "half_t"], "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)")
        .run(|a| atom_op(a, true)),
    op("smem_atom_layout", Topic::Gpu, "smem_atom as a function on element offsets (the byte swizzle moved to elements): a composed layout the other ops take")
        .params(&[one("", &[K::Name]), one("TYPE|BITS", &[K::Type, K::Int]), opt("", &[K::Shape]), opt("ORDER", &[K::Tuple])])
        .overloads(&[&[one("MAJOR", &[K::Name]), one("SWIZZLE", &[K::Name]), one("TYPE|BITS", &[K::Type, K::Int]), opt("", &[K::Shape]), opt("ORDER", &[K::Tuple])]])
        .returns(&[K::Composed])
        .errors(&["InvalidArgument", "RankMismatch"])
        .law("R(c) = Sw_bits(L(c) * bits) / bits with L the atom's inner layout: the swizzle's base lowered by log2(bits / 8)")
        .example(&["K", "SW128", "bfloat16_t", "(128,64)"], "Sw<3,3,3> o 0 o ((8,16),(64,1)):((64,512),(1,0))")
        .run(|a| atom_op(a, false)),
];

/// The atom of the leading arguments and the index of the first one after them.
fn atom_of(a: &Args<'_>) -> Result<(SmemAtom, usize), OpError> {
    let first = a.text_arg(0)?;
    if first.contains("Layout_") {
        let bits = bits_of(a, 1)?;
        return Ok((SmemAtom::from_name(&first, bits)?, 2));
    }
    if a.len() < 3 {
        return Err(OpError::new(
            "Arity",
            format!("{}: expected NAME TYPE or MAJOR SWIZZLE TYPE", a.op),
        ));
    }
    let major = Major::parse(&first).ok_or_else(|| {
        OpError::new(
            "InvalidArgument",
            format!("{}: major {first:?} is not K or MN", a.op),
        )
    })?;
    let sw_text = a.text_arg(1)?;
    let sw = SmemSwizzle::parse(&sw_text).ok_or_else(|| {
        OpError::new(
            "InvalidArgument",
            format!(
                "{}: swizzle {sw_text:?} is not INTER, SW32, SW64, SW128 or SW128_32B",
                a.op
            ),
        )
    })?;
    Ok((SmemAtom::new(major, sw, bits_of(a, 2)?)?, 3))
}

/// Argument `k` as an element width: an integer number of bits or a CuTe type name.
fn bits_of(a: &Args<'_>, k: usize) -> Result<i64, OpError> {
    let t = a.text_arg(k)?;
    if let Ok(b) = t.trim().parse::<i64>() {
        return Ok(b);
    }
    type_bits(&t).map(i64::from).ok_or_else(|| {
        a.arg_error(
            "InvalidArgument",
            k,
            format_args!(" ({t:?}) is neither a number of bits nor a CuTe value type"),
        )
    })
}

fn atom_op(a: &Args<'_>, cute: bool) -> Result<String, OpError> {
    let (atom, k) = atom_of(a)?;
    let mut el: ComposedLayout = atom.elements()?;
    if a.len() > k + 2 {
        return Err(OpError::new(
            "Arity",
            format!("{}: after the atom, at most SHAPE and ORDER", a.op),
        ));
    }
    if a.len() > k {
        let shape = a.tuple(k)?;
        let order: Option<IntTuple> = if a.len() > k + 1 {
            Some(a.tuple(k + 1)?)
        } else {
            None
        };
        el = el.tile_to_shape(&shape, order.as_ref())?;
    }
    Ok(if cute {
        atom.cute_text_of(el.layout())
    } else {
        el.to_string()
    })
}

#[cfg(test)]
mod tests {
    use crate::test_util::run;

    #[test]
    fn names_and_parts_agree() {
        assert_eq!(
            run("smem_atom", &["GMMA::Layout_MN_SW64_Atom", "float"]),
            run("smem_atom", &["MN", "SW64", "32"])
        );
        assert_eq!(
            run("smem_atom", &["Layout_MN_SW64_Atom", "float"]).unwrap(),
            "Sw<2,4,3> o smem_ptr[32b](unset) o (16,8):(1,16)"
        );
        assert_eq!(
            run("smem_atom_layout", &["MN", "SW64", "float"]).unwrap(),
            "Sw<2,2,3> o 0 o (16,8):(1,16)"
        );
        // The element form goes on through the other operations.
        let el = run("smem_atom_layout", &["K", "SW128", "half_t"]).unwrap();
        assert_eq!(
            run("tile_to_shape", &[&el, "(64,128)", "(1,0)"]),
            run(
                "smem_atom_layout",
                &["K", "SW128", "half_t", "(64,128)", "(1,0)"]
            )
        );
        assert_eq!(
            run("smem_atom", &["K", "SW128", "half_t", "(64,128)", "(1,0)"]).unwrap(),
            "Sw<3,4,3> o smem_ptr[16b](unset) o ((8,8),(64,2)):((64,1024),(1,512))"
        );
    }

    #[test]
    fn errors_are_typed() {
        assert_eq!(
            run("smem_atom", &["K", "SW128", "halff"]).unwrap_err(),
            "InvalidArgument"
        );
        assert_eq!(
            run("smem_atom", &["K", "SW256", "16"]).unwrap_err(),
            "InvalidArgument"
        );
        assert_eq!(
            run("smem_atom", &["KM", "SW128", "16"]).unwrap_err(),
            "InvalidArgument"
        );
        assert_eq!(
            run("smem_atom", &["K", "SW128", "float_e2m3_t"]).unwrap_err(),
            "InvalidArgument"
        );
        assert_eq!(run("smem_atom", &["K", "SW128"]).unwrap_err(), "Arity");
        assert_eq!(
            run(
                "smem_atom",
                &["Layout_K_SW128_Atom", "16", "(8,64)", "(1,0)", "x"]
            )
            .unwrap_err(),
            "KindMismatch"
        );
        assert_eq!(
            run("smem_atom", &["K", "SW128", "16", "(12,64)"]).unwrap_err(),
            "InvalidArgument"
        );
    }
}
