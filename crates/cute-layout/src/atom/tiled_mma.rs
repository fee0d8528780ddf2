//! `TiledMma`: CuTe's `make_tiled_mma(atom, atom_layout, permutation)`.

use super::MmaAtom;

/// A tiled MMA (in progress).
#[derive(Clone, Debug)]
pub struct TiledMma {
    atom: MmaAtom,
}

impl TiledMma {
    /// The atom.
    pub fn atom(&self) -> &MmaAtom {
        &self.atom
    }
}
