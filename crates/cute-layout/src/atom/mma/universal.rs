//! `UniversalFMA<D,A,B,C>` (CuTe C++ 4.2's `mma_traits.hpp`): one thread, one `d = a * b + c`,
//! `Shape_MNK = (1,1,1)`, every layout `(1,1):(0,0)`. `A` defaults to `D`, `B` to `A`, `C` to `D`.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::MmaAtom;
use crate::atom::{type_bits, AtomError, TemplateName};

pub(super) fn resolve(t: &TemplateName, norm: &str) -> Option<Result<MmaAtom, AtomError>> {
    let base = t.base.strip_prefix("cute::").unwrap_or(&t.base);
    if base != "UniversalFMA" {
        return None;
    }
    if t.args.is_empty() || t.args.len() > 4 {
        return Some(Err(AtomError::BadArgument {
            name: norm.to_string(),
            what: format!("takes 1 to 4 types <D,A,B,C>, got {}", t.args.len()),
        }));
    }
    let mut bits = [0u32; 4];
    for (k, a) in t.args.iter().enumerate() {
        let Some(b) = type_bits(a) else {
            return Some(Err(AtomError::BadArgument {
                name: norm.to_string(),
                what: format!("unknown value type {a}"),
            }));
        };
        bits[k] = b;
    }
    // args are D, A, B, C; defaults A = D, B = A, C = D. val_bits are A, B, C, D.
    let d = bits[0];
    let a = if t.args.len() > 1 { bits[1] } else { d };
    let b = if t.args.len() > 2 { bits[2] } else { a };
    let c = if t.args.len() > 3 { bits[3] } else { d };
    let one = "(1,1):(0,0)";
    Some(MmaAtom::from_text(
        norm.to_string(),
        "1:0",
        "(1,1,1)",
        [one, one, one],
        [a, b, c, d],
    ))
}

pub(super) fn names(v: &mut Vec<String>) {
    v.push("UniversalFMA<float,float,float,float>".to_string());
}
