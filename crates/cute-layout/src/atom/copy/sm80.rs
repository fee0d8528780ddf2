//! The copy atoms of CuTe C++ 4.2's `copy_traits_sm80.hpp`, by rule: the four `cp.async`
//! families `SM80_CP_ASYNC_{CACHEALWAYS,CACHEGLOBAL}[_ZFILL]<TS, TD = TS>`, one thread moving
//! `sizeof_bits<TS>` bits from global memory and `sizeof_bits<TD>` into shared memory
//! (`(1,bits):(0,1)` layouts, the reference is the source).
//!
//! CuTe's `Copy_Traits` instantiate for any `TS`/`TD` (the instruction's own `static_assert` on
//! the width is not instantiated by the traits), so any value type is accepted here too, but
//! `TS` and `TD` of different widths are refused: the copy would read `sizeof_bits<TS>` bits and
//! claim to write `sizeof_bits<TD>` (the instruction's other `static_assert`).

use alloc::format;
use alloc::vec::Vec;

use super::super::{AtomError, TemplateName};
use super::{bad, one_thread, type_bits, CopyAtom};

/// The four family names.
pub(super) const BASES: [&str; 4] = [
    "SM80_CP_ASYNC_CACHEALWAYS",
    "SM80_CP_ASYNC_CACHEGLOBAL",
    "SM80_CP_ASYNC_CACHEALWAYS_ZFILL",
    "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL",
];

/// The atom of `t` if its base is one of the cp.async families.
pub(super) fn lookup(t: &TemplateName, name: &str) -> Option<Result<CopyAtom, AtomError>> {
    if !BASES.contains(&t.base.as_str()) {
        return None;
    }
    Some((|| {
        if t.args.is_empty() || t.args.len() > 2 {
            return Err(bad(
                name,
                "cp.async takes one or two value types: <TS> or <TS,TD>",
            ));
        }
        let s = type_bits(name, &t.args[0])?;
        let d = match t.args.get(1) {
            Some(a) => type_bits(name, a)?,
            None => s,
        };
        if s != d {
            return Err(bad(
                name,
                &format!(
                    "cp.async copies its source unchanged: TS and TD have the same width (CuTe's \"cp.async requires sizeof(src_value_type) == sizeof(dst_value_type)\"), got {s} and {d} bits"
                ),
            ));
        }
        one_thread(name, s, d, None)
    })())
}

/// Every name [`lookup`] accepts, for [`super::for_each_copy_name`]: the four families with one
/// value type and with every pair of value types of the same width.
pub(super) fn all_names(f: &mut dyn FnMut(&str)) {
    let types: Vec<(&str, u32)> = super::types::VALUE_TYPES.to_vec();
    for b in BASES {
        for &(s, sb) in &types {
            f(&format!("{b}<{s}>"));
            for &(d, db) in &types {
                if sb == db {
                    f(&format!("{b}<{s},{d}>"));
                }
            }
        }
    }
}
