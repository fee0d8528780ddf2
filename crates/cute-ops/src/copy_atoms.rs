//! The copy-atom operations: copy atoms (`Copy_Traits` / `Copy_Atom`), tiled copies and the
//! CuTe DSL's `make_layout_tv`. Every entry converts its arguments and calls
//! [`cute_layout::atom::copy`]; the op names are CuTe's function names and the arguments those
//! of `../shared/conformance/atoms/tiled_copy.jsonl` plus a FIELD.

use cute_layout::atom::copy::{self, TiledCopy};
use cute_layout::atom::Operand;
use cute_layout::{ComposedLayout, Layout};

use crate::table::{one, opt, Kind as K, Topic};
use crate::{op, Args, OpError, OpSpec};

/// The copy-atom operations, one declaration each (hence `rustfmt::skip`).
#[rustfmt::skip]
pub static COPY_OPS: &[OpSpec] = &[
    op("copy_atom", Topic::Atoms, "a copy atom's field for value type TYPE: thr_id, val_id, src_bits, dst_bits, ref_bits (bit layouts), src, dst, ref (recast to TYPE), num_val_src, num_val_dst")
        .params(&[one("", &[K::Name]), one("", &[K::Type]), one("", &[K::Field])])
        .returns(&[K::Layout, K::Tuple, K::Tiler, K::Int, K::Tensor])
        .errors(&["BadArgument", "UnknownAtom"])
        .law("src, dst and ref are the atom's (thread, value) -> bit layouts recast to TYPE's width, as CuTe's Copy_Atom<ATOM,TYPE> holds them")
        .example(&["SM75_U32x4_LDSM_N", "half_t", "src"], "(32,8):(8,1)")
        .run(copy_atom),
    op("make_tiled_copy", Topic::Atoms, "make_tiled_copy(Copy_Atom<ATOM,TYPE>, thr, val) (VAL_LAYOUT `_`: 1:0); FIELD tiler_mn, tiled_layout_tv, layout_s_tv, layout_d_tv, size, partition_s|d / offset_s|d TENSOR THREAD (a tensor text: partition_s|d as a tensor), retile_s|d FRAGMENT")
        .params(&[one("", &[K::Atom]), one("", &[K::Type]), one("THR_LAYOUT", &[K::Layout]), one("VAL_LAYOUT", &[K::Layout, K::Underscore]), one("", &[K::Field]), opt("TENSOR|FRAGMENT", &[K::Tensor, K::Layout]), opt("THREAD", &[K::Int])])
        .returns(&[K::Layout, K::Tuple, K::Tiler, K::Int, K::Tensor])
        .errors(&["BadArgument", "InvalidArgument", "NotComplementable", "NotInjective", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible", "UnknownAtom"])
        .law("tiled_layout_tv maps (thread, value) to the index in the tiler_mn tile, from the raked product of THR_LAYOUT and VAL_LAYOUT, as CuTe's make_tiled_copy")
        .example(&["UniversalCopy<uint128_t>", "half_t", "(32,8):(8,1)", "(1,8):(0,1)", "tiled_layout_tv"], "((8,32),8):((256,1),32)")
        .run(make_tiled_copy),
    op("make_tiled_copy_A", Topic::Atoms, "make_tiled_copy_A(Copy_Atom<ATOM,TYPE>, make_tiled_mma(MMA_ATOM, ATOM_LAYOUT, PERMUTATION)) (`_`: CuTe's default); FIELD as make_tiled_copy")
        .params(&[one("", &[K::Atom]), one("", &[K::Type]), one("MMA_ATOM", &[K::Atom]), one("ATOM_LAYOUT", &[K::Layout, K::Shape, K::Underscore]), one("PERMUTATION", &[K::Tiler, K::Underscore]), one("", &[K::Field]), opt("TENSOR|FRAGMENT", &[K::Tensor, K::Layout]), opt("THREAD", &[K::Int])])
        .returns(&[K::Tuple, K::Layout, K::Tiler, K::Int, K::Tensor])
        .errors(&["BadArgument", "InvalidArgument", "InvalidExtent", "NotComplementable", "NotInjective", "Overflow", "ShapeNotDivisible", "StrideNotDivisible", "UnknownAtom"])
        .law("the tiled copy whose threads and values partition the tile as the tiled MMA's A operand does")
        .example(&["SM75_U32x4_LDSM_N", "half_t", "SM80_16x8x16_F16F16F16F16_TN", "(2,2,1)", "_", "tiler_mn"], "(32,16)")
        .run(|a| mma_copy(a, Some(Operand::A))),
    op("make_tiled_copy_B", Topic::Atoms, "make_tiled_copy_B of the tiled MMA; FIELD as make_tiled_copy")
        .params(&[one("", &[K::Atom]), one("", &[K::Type]), one("MMA_ATOM", &[K::Atom]), one("ATOM_LAYOUT", &[K::Layout, K::Shape, K::Underscore]), one("PERMUTATION", &[K::Tiler, K::Underscore]), one("", &[K::Field]), opt("TENSOR|FRAGMENT", &[K::Tensor, K::Layout]), opt("THREAD", &[K::Int])])
        .returns(&[K::Tuple, K::Layout, K::Tiler, K::Int, K::Tensor])
        .errors(&["BadArgument", "InvalidArgument", "InvalidExtent", "NotComplementable", "NotInjective", "Overflow", "ShapeNotDivisible", "StrideNotDivisible", "UnknownAtom"])
        .law("the tiled copy whose threads and values partition the tile as the tiled MMA's B operand does")
        .example(&["UniversalCopy<uint32_t>", "half_t", "SM80_16x8x16_F16F16F16F16_TN", "(2,2,1)", "_", "tiler_mn"], "(16,16)")
        .run(|a| mma_copy(a, Some(Operand::B))),
    op("make_tiled_copy_C", Topic::Atoms, "make_tiled_copy_C of the tiled MMA; FIELD as make_tiled_copy")
        .params(&[one("", &[K::Atom]), one("", &[K::Type]), one("MMA_ATOM", &[K::Atom]), one("ATOM_LAYOUT", &[K::Layout, K::Shape, K::Underscore]), one("PERMUTATION", &[K::Tiler, K::Underscore]), one("", &[K::Field]), opt("TENSOR|FRAGMENT", &[K::Tensor, K::Layout]), opt("THREAD", &[K::Int])])
        .returns(&[K::Tuple, K::Layout, K::Tiler, K::Int, K::Tensor])
        .errors(&["BadArgument", "InvalidArgument", "InvalidExtent", "ModesOverlap", "NotComplementable", "NotInjective", "Overflow", "ShapeNotDivisible", "StrideNotDivisible", "UnknownAtom"])
        .law("the tiled copy whose threads and values partition the tile as the tiled MMA's C operand does")
        .example(&["UniversalCopy<uint32_t>", "half_t", "SM80_16x8x16_F16F16F16F16_TN", "(2,2,1)", "_", "tiler_mn"], "(32,16)")
        .run(|a| mma_copy(a, Some(Operand::C))),
    op("make_tiled_copy_C_atom", Topic::Atoms, "make_tiled_copy_C_atom: the smallest tiled copy retiling the MMA's C (the atom's values only); FIELD as make_tiled_copy")
        .params(&[one("", &[K::Atom]), one("", &[K::Type]), one("MMA_ATOM", &[K::Atom]), one("ATOM_LAYOUT", &[K::Layout, K::Shape, K::Underscore]), one("PERMUTATION", &[K::Tiler, K::Underscore]), one("", &[K::Field]), opt("TENSOR|FRAGMENT", &[K::Tensor, K::Layout]), opt("THREAD", &[K::Int])])
        .returns(&[K::Tiler, K::Layout, K::Tuple, K::Int, K::Tensor])
        .errors(&["BadArgument", "InvalidArgument", "InvalidExtent", "NotComplementable", "NotRepresentable", "Overflow", "ShapeNotDivisible", "StrideNotDivisible", "UnknownAtom"])
        .law("the smallest tiled copy retiling the MMA's C: each thread copies only the values of its own MMA atom")
        .example(&["UniversalCopy<uint32_t>", "half_t", "SM80_16x8x16_F16F16F16F16_TN", "(2,2,1)", "_", "tiler_mn"], "((8,2):(1,16),(8,2):(2,1))")
        .run(|a| mma_copy(a, None)),
    op("make_cotiled_copy", Topic::Atoms, "make_cotiled_copy(Copy_Atom<ATOM,TYPE>, atom (thr,val) -> address, data coord -> address); FIELD as make_tiled_copy")
        .params(&[one("", &[K::Atom]), one("", &[K::Type]), one("ATOM_TV_LAYOUT", &[K::Layout]), one("DATA_LAYOUT", &[K::Layout]), one("", &[K::Field]), opt("TENSOR|FRAGMENT", &[K::Tensor, K::Layout]), opt("THREAD", &[K::Int])])
        .returns(&[K::Tiler, K::Layout, K::Tuple, K::Int, K::Tensor])
        .errors(&["BadArgument", "NotRepresentable", "Overflow", "ShapeNotDivisible", "StrideNotDivisible", "UnknownAtom"])
        .law("the tiled copy whose thread t's value v reaches data address ATOM_TV_LAYOUT(t, v) of the tensor DATA_LAYOUT; the tiler keeps only the coordinates it reaches")
        .example(&["UniversalCopy<uint128_t>", "half_t", "((8,16),8):((8,64),1)", "(32,64):(64,1)", "tiler_mn"], "(16:1,(8,8):(8,1))")
        .run(make_cotiled_copy),
    op("make_layout_tv", Topic::Atoms, "the CuTe DSL's make_layout_tv: FIELD layout_mn (raked_product), layout_tv (its right inverse), tiler_mn")
        .params(&[one("THR_LAYOUT", &[K::Layout]), one("VAL_LAYOUT", &[K::Layout]), one("", &[K::Field])])
        .returns(&[K::Layout, K::Tuple])
        .errors(&["InvalidArgument", "ModesOverlap", "NotComplementable", "NotInjective", "NotRepresentable", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible"])
        .law("layout_mn = raked_product(THR_LAYOUT, VAL_LAYOUT); layout_tv = its right inverse shaped (size(THR), size(VAL)): thread t's value v is at layout_tv(t, v)")
        .example(&["(4,8):(8,1)", "(2,2):(2,1)", "layout_tv"], "((8,4),(2,2)):((16,2),(8,1))")
        .run(make_layout_tv),
];

fn copy_atom(a: &Args<'_>) -> Result<String, OpError> {
    let atom = copy::copy_atom(&a.text_arg(0)?)?.typed(&a.text_arg(1)?)?;
    Ok(atom.field(a.text_arg(2)?.trim())?)
}

/// A layout argument where `_` stands for CuTe's default `Layout<_1>` (`1:0`).
fn layout_or_default(a: &Args<'_>, k: usize) -> Result<Layout, OpError> {
    if a.text_arg(k)?.trim() == "_" {
        return Ok(Layout::col_major(cute_layout::IntTuple::int(1))?);
    }
    a.layout(k)
}

fn make_tiled_copy(a: &Args<'_>) -> Result<String, OpError> {
    let atom = copy::copy_atom(&a.text_arg(0)?)?.typed(&a.text_arg(1)?)?;
    let tc = TiledCopy::make_tiled_copy(atom, &a.layout(2)?, &layout_or_default(a, 3)?)?;
    tiled_field(&tc, a, 4)
}

/// FIELD (argument `k`) of a tiled copy, with its extra arguments after it.
pub(crate) fn tiled_field(tc: &TiledCopy, a: &Args<'_>, k: usize) -> Result<String, OpError> {
    let field = a.text_arg(k)?;
    let field = field.trim();
    let extra = a.len() - k - 1;
    let want = |n: usize, what: &str| -> Result<(), OpError> {
        if extra == n {
            Ok(())
        } else {
            Err(OpError::new(
                "Arity",
                format!("{}: FIELD {field} takes {what}", a.op),
            ))
        }
    };
    match field {
        "tiler_mn" | "tiled_layout_tv" | "layout_s_tv" | "layout_d_tv" | "size" => {
            want(0, "no more arguments")?
        }
        "partition_s" | "partition_d" | "offset_s" | "offset_d" => {
            want(2, "two more arguments: TENSOR_LAYOUT THREAD")?
        }
        "retile_s" | "retile_d" => want(1, "one more argument: FRAGMENT_LAYOUT")?,
        _ => {
            return Err(OpError::new(
                "BadRequest",
                format!("{}: unknown FIELD {field} (tiler_mn, tiled_layout_tv, layout_s_tv, layout_d_tv, size, partition_s, partition_d, offset_s, offset_d, retile_s, retile_d)", a.op),
            ))
        }
    }
    Ok(match field {
        "tiler_mn" => tc.tiler_mn().to_string(),
        "tiled_layout_tv" => tc.tiled_layout_tv().to_string(),
        "layout_s_tv" => tc.layout_s_tv()?.to_string(),
        "layout_d_tv" => tc.layout_d_tv()?.to_string(),
        "size" => tc.size().to_string(),
        "retile_s" | "retile_d" => tc.retile(&a.layout(k + 1)?)?.to_string(),
        _ if a.is_tensor(k + 1) => {
            crate::tensor_restructure_ops::copy_partition(a, tc, field, k + 1)?
        }
        _ => {
            let text = a.text_arg(k + 1)?;
            let tensor: ComposedLayout = text.parse().map_err(|e| {
                OpError::new("ParseError", format!("{}: TENSOR_LAYOUT {text}: {e}", a.op))
            })?;
            let thr = a.int(k + 2)?;
            let dst = field.ends_with("_d");
            let (part, offset) = tc.partition_text(&tensor, thr, dst)?;
            if field.starts_with("offset") {
                offset.to_string()
            } else {
                part
            }
        }
    })
}

fn make_cotiled_copy(a: &Args<'_>) -> Result<String, OpError> {
    let atom = copy::copy_atom(&a.text_arg(0)?)?.typed(&a.text_arg(1)?)?;
    let tc = TiledCopy::make_cotiled_copy(atom, &a.layout(2)?, &a.layout(3)?)?;
    tiled_field(&tc, a, 4)
}

fn mma_copy(a: &Args<'_>, op: Option<Operand>) -> Result<String, OpError> {
    let atom = copy::copy_atom(&a.text_arg(0)?)?.typed(&a.text_arg(1)?)?;
    let mma = crate::atoms::tiled_mma_of(a, 2)?;
    let tc = match op {
        Some(op) => TiledCopy::make_tiled_copy_mma(atom, &mma, op)?,
        None => TiledCopy::make_tiled_copy_c_atom_mma(atom, &mma)?,
    };
    tiled_field(&tc, a, 5)
}

fn make_layout_tv(a: &Args<'_>) -> Result<String, OpError> {
    let t = copy::make_layout_tv(&a.layout(0)?, &layout_or_default(a, 1)?)?;
    let field = a.text_arg(2)?;
    Ok(match field.trim() {
        "layout_mn" => t.layout_mn.to_string(),
        "layout_tv" => t.layout_tv.to_string(),
        "tiler_mn" => t.tiler_mn.to_string(),
        f => {
            return Err(OpError::new(
                "BadRequest",
                format!("make_layout_tv: unknown FIELD {f} (layout_mn, layout_tv, tiler_mn)"),
            ))
        }
    })
}

/// How a front end names a TiledCopy: a copy atom and value type, and either thread and value
/// layouts (`make_tiled_copy`) or a tiled MMA and operand (`make_tiled_copy_A/B/C/C_atom`).
#[derive(Clone, Debug, Default)]
pub struct TiledCopySpec<'a> {
    /// The copy atom, as CuTe spells it.
    pub atom: &'a str,
    /// The value type.
    pub ty: &'a str,
    /// `make_tiled_copy`'s thread layout (default: `1:0`, one thread).
    pub thr: Option<&'a str>,
    /// `make_tiled_copy`'s value layout (default `1:0`).
    pub val: Option<&'a str>,
    /// The MMA atom of `make_tiled_copy_A/B/C/C_atom`.
    pub mma: Option<&'a str>,
    /// `make_tiled_mma`'s atom layout.
    pub layout: Option<&'a str>,
    /// `make_tiled_mma`'s permutation.
    pub permutation: Option<&'a str>,
    /// With `mma`: `A`, `B`, `C` (the default) or `C_atom`.
    pub operand: Option<&'a str>,
}

fn parse_layout(what: &str, t: &str) -> Result<Layout, OpError> {
    if t.trim() == "_" {
        return Ok(Layout::col_major(cute_layout::IntTuple::int(1))?);
    }
    t.parse()
        .map_err(|e| OpError::new("ParseError", format!("{what} {t:?}: {e}")))
}

/// The TiledCopy `spec` names.
///
/// # Errors
/// Unknown atoms or types, layouts that do not parse, an operand other than A, B, C, C_atom.
pub fn make_tiled_copy_spec(spec: &TiledCopySpec<'_>) -> Result<TiledCopy, OpError> {
    let atom = copy::copy_atom(spec.atom)?.typed(spec.ty)?;
    if let Some(m) = spec.mma {
        if spec.thr.is_some() || spec.val.is_some() {
            return Err(OpError::new(
                "BadRequest",
                "a tiled copy takes either --thr/--val (make_tiled_copy) or --mma (make_tiled_copy_A/B/C)",
            ));
        }
        let mma = crate::atoms::make_tiled_mma(m, spec.layout, spec.permutation)?;
        return Ok(match spec.operand.map(str::trim) {
            Some("A" | "a") => TiledCopy::make_tiled_copy_mma(atom, &mma, Operand::A)?,
            Some("B" | "b") => TiledCopy::make_tiled_copy_mma(atom, &mma, Operand::B)?,
            Some("C" | "c") | None => TiledCopy::make_tiled_copy_mma(atom, &mma, Operand::C)?,
            Some("C_atom" | "c_atom") => TiledCopy::make_tiled_copy_c_atom_mma(atom, &mma)?,
            Some(o) => {
                return Err(OpError::new(
                    "BadRequest",
                    format!("operand {o:?}: expected A, B, C or C_atom"),
                ))
            }
        });
    }
    let thr = parse_layout("thread layout", spec.thr.unwrap_or("_"))?;
    let val = parse_layout("value layout", spec.val.unwrap_or("_"))?;
    Ok(TiledCopy::make_tiled_copy(atom, &thr, &val)?)
}

/// `cute copy`'s text: the atom's layouts (CuTe's `print(Copy_Atom)`: ThrID, bit and typed
/// Src/Dst/Ref layouts) and, for a tiled copy, its tiler and TV layouts.
///
/// # Errors
/// As [`make_tiled_copy_spec`].
pub fn describe_copy(spec: &TiledCopySpec<'_>) -> Result<String, OpError> {
    let atom = copy::copy_atom(spec.atom)?.typed(spec.ty)?;
    let a = atom.atom();
    let mut out = format!(
        "Copy_Atom<{}, {}> ({} bits per value)\n",
        a.name(),
        atom.value_type().name(),
        atom.value_type().bits()
    );
    out += &format!("  ThrID:        {}\n", a.thr_id());
    if let Some(v) = a.val_id() {
        out += &format!("  ValID:        {v}\n");
    }
    out += &format!("  SrcLayout:    {}  (bits)\n", a.src_bits());
    out += &format!("  DstLayout:    {}  (bits)\n", a.dst_bits());
    out += &format!("  RefLayout:    {}  (bits)\n", a.ref_bits());
    out += &format!("  ValLayoutSrc: {}\n", atom.src());
    out += &format!("  ValLayoutDst: {}\n", atom.dst());
    out += &format!("  ValLayoutRef: {}\n", atom.ref_());
    out += &format!(
        "  NumValSrc:    {}\n  NumValDst:    {}\n",
        atom.num_val_src(),
        atom.num_val_dst()
    );
    if spec.thr.is_some() || spec.val.is_some() || spec.mma.is_some() {
        let tc = make_tiled_copy_spec(spec)?;
        out += &format!(
            "TiledCopy\n  Tiler_MN:       {}\n  TiledLayout_TV: {}\n  layout_S_TV:    {}\n  layout_D_TV:    {}\n  size:           {}\n",
            tc.tiler_mn(),
            tc.tiled_layout_tv(),
            tc.layout_s_tv()?,
            tc.layout_d_tv()?,
            tc.size()
        );
    }
    Ok(out)
}
