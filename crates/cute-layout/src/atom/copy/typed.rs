//! The copy atom types: CuTe's `Copy_Traits<Op>` ([`CopyAtom`], layouts in bits) and
//! `Copy_Atom<Op, T>` ([`TypedCopyAtom`], layouts in elements of `T`); their methods are in
//! `copy/mod.rs`.

use alloc::string::{String, ToString};

use super::types::ValueType;
use crate::atom::AtomError;
use crate::layout::Layout;

/// A copy atom: CuTe's `Copy_Traits<Op>` (layouts in bits).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopyAtom {
    pub(super) name: String,
    pub(super) thr_id: Layout,
    pub(super) val_id: Option<Layout>,
    pub(super) src: Layout,
    pub(super) dst: Layout,
    pub(super) ref_: Layout,
}

/// A typed copy atom: CuTe's `Copy_Atom<Op, T>` (layouts in elements of `T`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypedCopyAtom {
    pub(super) atom: CopyAtom,
    pub(super) ty: ValueType,
    pub(super) src: Layout,
    pub(super) dst: Layout,
    pub(super) ref_: Layout,
}

/// An [`AtomError::BadArgument`] about the atom `name`.
pub(crate) fn bad(name: &str, what: &str) -> AtomError {
    AtomError::BadArgument {
        name: name.to_string(),
        what: what.to_string(),
    }
}
