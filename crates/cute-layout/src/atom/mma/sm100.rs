//! SM100 (Blackwell) UMMA, `tcgen05.mma`: CuTe C++ 4.2's `mma_traits_sm100.hpp`.

use alloc::string::String;
use alloc::vec::Vec;

use super::MmaAtom;
use crate::atom::{AtomError, TemplateName};

pub(super) fn resolve(_t: &TemplateName, _norm: &str) -> Option<Result<MmaAtom, AtomError>> {
    None
}

pub(super) fn names(_v: &mut Vec<String>) {}
