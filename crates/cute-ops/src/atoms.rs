//! The atom operations: MMA atoms and tiled MMAs (and, from H26b, copy atoms and tiled
//! copies). Every entry converts its arguments and calls [`cute_layout::atom`].

use cute_layout::atom::{self, AtomError};

use crate::{op, Args, OpError, OpSpec};

impl From<AtomError> for OpError {
    fn from(e: AtomError) -> Self {
        OpError::new(e.kind(), e.to_string())
    }
}

/// The atom operations (one line each, hence `rustfmt::skip`).
#[rustfmt::skip]
pub static ATOM_OPS: &[OpSpec] = &[
    op("mma_atom", "NAME FIELD", (2, 2), "an MMA atom's field: thr_id, shape_mnk, layout_a_tv, layout_b_tv, layout_c_tv (layout_sfa_tv, layout_sfb_tv)", mma_atom),
    op("list_atoms", "[FILTER]", (0, 1), "the atom families (kind, arch, pattern), one per line; with FILTER only those containing it", list_atoms),
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
