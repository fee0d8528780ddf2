//! The atom operations: MMA atoms and tiled MMAs (and, from H26b, copy atoms and tiled
//! copies). Every entry converts its arguments and calls [`cute_layout::atom`].

use cute_layout::atom::{self, AtomError, Operand, TiledMma};
use cute_layout::Layout;

use crate::table::{one, opt, Kind as K, Topic};
use crate::value::Form;
use crate::{op, Args, OpError, OpSpec};

impl From<AtomError> for OpError {
    fn from(e: AtomError) -> Self {
        OpError::new(e.kind(), e.to_string())
    }
}

/// The atom operations, one declaration each (hence `rustfmt::skip`).
#[rustfmt::skip]
pub static ATOM_OPS: &[OpSpec] = &[
    op("mma_atom", Topic::Atoms, "an MMA atom's field: thr_id, shape_mnk, layout_a_tv, layout_b_tv, layout_c_tv (layout_sfa_tv, layout_sfb_tv)")
        .params(&[one("", &[K::Name]), one("", &[K::Field])])
        .returns(&[K::Layout, K::Tuple, K::Tiler, K::Int, K::Tensor])
        .errors(&["UnknownAtom"])
        .law("each field is CuTe's MMA_Traits member: layout_{a,b,c}_tv map (thread, value) to the index of the element in the atom's (M,K), (N,K), (M,N) tile")
        .example(&["SM80_16x8x16_F16F16F16F16_TN", "layout_c_tv"], "((4,8),(2,2)):((32,1),(16,8))")
        .run(mma_atom),
    op("tiled_mma", Topic::Atoms, "make_tiled_mma's field: thr_layout_vmnk, permutation_mnk, layout_{a,b,c}_tv, tile_size_mnk, size; with a tensor layout and a thread: partition_{a,b,c}, offset_{a,b,c}, fragment_{a,b,c}; with a tensor (counting_iter/ArithTuple) and a thread: partition_{a,b,c} as a tensor")
        .params(&[one("", &[K::Atom]), one("ATOM_LAYOUT|_", &[K::Layout, K::Shape, K::Underscore]), one("PERMUTATION|_", &[K::Tiler, K::Underscore]), one("", &[K::Field]), opt("GMEM_LAYOUT", &[K::Layout, K::Tensor]), opt("THREAD", &[K::Int])])
        .returns(&[K::Tuple, K::Layout, K::Tiler, K::Int, K::Tensor])
        .errors(&["BadArgument", "InvalidArgument", "InvalidExtent", "NotInjective", "Overflow", "ShapeNotDivisible", "StrideNotDivisible", "UnknownAtom"])
        .law("each field is the accessor of CuTe's make_tiled_mma(ATOM, ATOM_LAYOUT, PERMUTATION) of the same name; the atom is repeated over ATOM_LAYOUT")
        .example(&["SM80_16x8x16_F16F16F16F16_TN", "(2,2,1)", "_", "tile_size_mnk"], "(32,16,16)")
        .run(tiled_mma),
    op("list_atoms", Topic::Atoms, "the atom families (kind, arch, pattern), one per line; with FILTER only those whose pattern contains it or whose architecture or kind it is (ignoring case)")
        .params(&[opt("FILTER", &[K::Name])])
        .returns(&[K::Text])
        .law("one line per atom family: kind, architecture, name pattern, and what it computes")
        .example(&["SM61"], "mma SM61 SM61_{DP4A|DP2A}  -- single-thread dot products (1x1x4 int8, 1x1x2 int16)")
        .run(list_atoms),
];

fn mma_atom(a: &Args<'_>) -> Result<String, OpError> {
    let atom = atom::mma_atom(&a.text_arg(0)?)?;
    Ok(atom.field(a.text_arg(1)?.trim())?)
}

fn list_atoms(a: &Args<'_>) -> Result<String, OpError> {
    let filter = if a.is_empty() {
        String::new()
    } else {
        a.text_arg(0)?.to_lowercase()
    };
    let lines: Vec<String> = atom::families()
        .filter(|f| {
            filter.is_empty()
                || f.pattern.to_lowercase().contains(&filter)
                || f.arch.to_lowercase() == filter
                || f.kind.name() == filter
        })
        .map(|f| format!("{} {} {}  -- {}", f.kind.name(), f.arch, f.pattern, f.about))
        .collect();
    Ok(lines.join("\n"))
}

/// The tiled MMA of arguments `k..k+3`: atom, atom layout, permutation (`_` for a default).
pub(crate) fn tiled_mma_of(a: &Args<'_>, k: usize) -> Result<TiledMma, OpError> {
    let layout = a.text_arg(k + 1)?;
    let perm = a.text_arg(k + 2)?;
    make_tiled_mma(&a.text_arg(k)?, Some(&layout), Some(&perm))
}

/// `make_tiled_mma(MMA_Atom<atom>{}, layout, permutation)` from text: `layout` a layout or a
/// shape (column-major), `permutation` a tiler; `None` or `_` for CuTe's defaults.
///
/// # Errors
/// `UnknownAtom` / `BadArgument` for the atom, `ParseError` for the layout or permutation, and
/// the library's errors.
pub fn make_tiled_mma(
    atom: &str,
    layout: Option<&str>,
    permutation: Option<&str>,
) -> Result<TiledMma, OpError> {
    let atom = atom::mma_atom(atom)?;
    fn given(s: Option<&str>) -> Option<&str> {
        s.map(str::trim).filter(|s| *s != "_")
    }
    let layout: Option<Layout> = match given(layout) {
        None => None,
        Some(t) if !matches!(Form::of_text(t), Form::Int | Form::Tuple) => {
            Some(t.parse().map_err(|e| {
                OpError::new("ParseError", format!("tiled_mma: atom layout {t:?}: {e}"))
            })?)
        }
        Some(t) => {
            let shape: cute_layout::IntTuple = t.parse().map_err(|e| {
                OpError::new("ParseError", format!("tiled_mma: atom layout {t:?}: {e}"))
            })?;
            Some(Layout::col_major(shape)?)
        }
    };
    let perm: Option<cute_layout::Tiler> = match given(permutation) {
        None => None,
        Some(t) => Some(t.parse().map_err(|e| {
            OpError::new("ParseError", format!("tiled_mma: permutation {t:?}: {e}"))
        })?),
    };
    Ok(TiledMma::new(atom, layout.as_ref(), perm.as_ref())?)
}

fn operand(field: &str, prefix: &str) -> Option<Operand> {
    match field.strip_prefix(prefix)? {
        "a" => Some(Operand::A),
        "b" => Some(Operand::B),
        "c" => Some(Operand::C),
        _ => None,
    }
}

fn tiled_mma(a: &Args<'_>) -> Result<String, OpError> {
    let mma = tiled_mma_of(a, 0)?;
    let field = a.text_arg(3)?;
    let field = field.trim();
    let tuple3 = |v: [i64; 3]| format!("({},{},{})", v[0], v[1], v[2]);
    if a.len() == 4 {
        return Ok(match field {
            "thr_layout_vmnk" => mma.thr_layout_vmnk().to_string(),
            "permutation_mnk" => mma.permutation_text(),
            "tile_size_mnk" => tuple3(mma.tile_size_mnk()),
            "size" => mma.size().to_string(),
            "layout_a_tv" => mma.layout_tv(Operand::A)?.to_string(),
            "layout_b_tv" => mma.layout_tv(Operand::B)?.to_string(),
            "layout_c_tv" => mma.layout_tv(Operand::C)?.to_string(),
            _ => return Err(bad_field(field)),
        });
    }
    if a.len() != 6 {
        return Err(OpError::new(
            "Arity",
            "tiled_mma: partition_*/offset_*/fragment_* take GMEM_LAYOUT THREAD after FIELD",
        ));
    }
    if a.is_tensor(4) {
        return crate::tensor_restructure_ops::mma_partition(a, &mma, field);
    }
    let gmem = a.layout(4)?;
    let thread = a.int(5)?;
    if let Some(op) = operand(field, "partition_") {
        return Ok(mma.partition(op, &gmem, thread)?.0.to_string());
    }
    if let Some(op) = operand(field, "offset_") {
        return Ok(mma.partition(op, &gmem, thread)?.1.to_string());
    }
    if let Some(op) = operand(field, "fragment_") {
        return Ok(mma.partition_fragment(op, &gmem, thread)?.to_string());
    }
    Err(bad_field(field))
}

fn bad_field(field: &str) -> OpError {
    OpError::new(
        "BadRequest",
        format!(
            "tiled_mma: unknown field {field:?} (thr_layout_vmnk, permutation_mnk, layout_a_tv, layout_b_tv, layout_c_tv, tile_size_mnk, size; with GMEM_LAYOUT THREAD: partition_a|b|c, offset_a|b|c, fragment_a|b|c)"
        ),
    )
}
