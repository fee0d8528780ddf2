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

/// Every `UniversalFMA` name [`resolve`] accepts, for [`super::for_each_name`], over the value
/// types of [`type_bits`]: `<D>` and `<D,A>` for every type, `<D,A,B>` and `<D,A,B,C>` for one
/// type of each width (the layouts do not depend on the types; the widths are the value bits).
pub(super) fn all_names(f: &mut dyn FnMut(&str)) {
    const TYPES: &[&str] = &[
        "bool",
        "int8_t",
        "uint8_t",
        "char",
        "signed char",
        "unsigned char",
        "uint1b_t",
        "uint1_t",
        "bin1_t",
        "int2b_t",
        "uint2b_t",
        "uint2_t",
        "int4b_t",
        "uint4b_t",
        "uint4_t",
        "int4_t",
        "float_e2m1_t",
        "int6b_t",
        "uint6b_t",
        "uint6_t",
        "float_e2m3_t",
        "float_e3m2_t",
        "float_e4m3_t",
        "float_e5m2_t",
        "float_ue8m0_t",
        "float_ue4m3_t",
        "half_t",
        "bfloat16_t",
        "int16_t",
        "uint16_t",
        "short",
        "unsigned short",
        "float",
        "tfloat32_t",
        "int32_t",
        "uint32_t",
        "int",
        "unsigned",
        "unsigned int",
        "double",
        "int64_t",
        "uint64_t",
        "long long",
        "unsigned long long",
        "uint128_t",
        "type_erased_dynamic_float8_t",
        "type_erased_dynamic_float6_t",
        "type_erased_dynamic_float4_t",
        "complex<half_t>",
        "complex<float>",
        "complex<double>",
    ];
    // One type of each width: 1, 2, 4, 6, 8, 16, 32, 64, 128 bits.
    const WIDTHS: &[&str] = &[
        "uint1b_t",
        "int2b_t",
        "int4b_t",
        "int6b_t",
        "int8_t",
        "half_t",
        "float",
        "double",
        "complex<double>",
    ];
    for d in TYPES {
        f(&format!("UniversalFMA<{d}>"));
        for a in TYPES {
            f(&format!("UniversalFMA<{d},{a}>"));
        }
    }
    for d in WIDTHS {
        for a in WIDTHS {
            for b in WIDTHS {
                f(&format!("UniversalFMA<{d},{a},{b}>"));
                for c in WIDTHS {
                    f(&format!("UniversalFMA<{d},{a},{b},{c}>"));
                }
            }
        }
    }
}
