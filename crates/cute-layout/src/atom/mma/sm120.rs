//! SM120 (Blackwell GeForce) warp MMA: CuTe C++ 4.2's `mma_traits_sm120.hpp`.
//!
//! * `SM120_16x8x32_TN<a,b,c>` (FP8/FP6/FP4 inputs, `c` = `float` or `half_t`) has the layouts
//!   of `SM80_16x8x32_S32S8S8S32_TN`, with A and B held as 8-bit registers;
//! * `SM120::BLOCKSCALED::SM120_16x8x32_TN_VS<a,b,c,sf,VS>` adds the scale-factor layouts
//!   `SFALayout = ((2,2,8),32):((8,0,1),16)`, `SFBLayout = ((4,8),32):((0,1),8)`;
//! * `SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<a,b,c,sf,VS>` (FP4) is `16x8x64` with 4-bit A and B.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::MmaAtom;
use crate::atom::{type_bits, AtomError, TemplateName};

const AB_TYPES: &[&str] = &[
    "float_e2m1_t",
    "float_e2m3_t",
    "float_e3m2_t",
    "float_e4m3_t",
    "float_e5m2_t",
];

fn strip(t: &str) -> &str {
    let t = t.strip_prefix("cute::").unwrap_or(t);
    t.strip_prefix("cutlass::").unwrap_or(t)
}

fn bad(norm: &str, what: String) -> Option<Result<MmaAtom, AtomError>> {
    Some(Err(AtomError::BadArgument {
        name: norm.to_string(),
        what,
    }))
}

pub(super) fn resolve(t: &TemplateName, norm: &str) -> Option<Result<MmaAtom, AtomError>> {
    let base = t.base.strip_prefix("cute::").unwrap_or(&t.base);
    let bs = base.strip_prefix("SM120::BLOCKSCALED::");
    let (k, vs) = match (base, bs) {
        ("SM120_16x8x32_TN", _) => (32, false),
        (_, Some("SM120_16x8x32_TN_VS")) => (32, true),
        (_, Some("SM120_16x8x64_TN_VS")) => (64, true),
        _ => return None,
    };
    let want = if vs { 5 } else { 3 };
    if !t.brackets || t.args.len() != want {
        return bad(
            norm,
            format!(
                "takes {want} template arguments ({}), got {}",
                if vs { "a, b, c, sf, VS" } else { "a, b, c" },
                t.args.len()
            ),
        );
    }
    let (a, b, c) = (strip(&t.args[0]), strip(&t.args[1]), strip(&t.args[2]));
    let ab_allowed: &[&str] = if k == 64 { &AB_TYPES[..1] } else { AB_TYPES };
    if !ab_allowed.contains(&a) || !ab_allowed.contains(&b) {
        return bad(
            norm,
            format!("A and B types must be one of {}", ab_allowed.join(", ")),
        );
    }
    if !matches!(c, "float" | "half_t") {
        return bad(norm, "the accumulator type must be float or half_t".into());
    }
    let cbits = type_bits(c).unwrap_or(32);
    let ab_bits = if k == 64 { 4 } else { 8 };
    let (a_l, b_l) = if k == 64 {
        (
            "((4,8),(8,2,2)):((128,1),(16,8,512))",
            "((4,8),(8,2)):((64,1),(8,256))",
        )
    } else {
        (
            "((4,8),(4,2,2)):((64,1),(16,8,256))",
            "((4,8),(4,2)):((32,1),(8,128))",
        )
    };
    let atom = MmaAtom::from_text(
        norm.to_string(),
        "32:1",
        &format!("(16,8,{k})"),
        [a_l, b_l, "((4,8),(2,2)):((32,1),(16,8))"],
        [ab_bits, ab_bits, cbits, cbits],
    );
    if !vs {
        return Some(atom);
    }
    let sf = strip(&t.args[3]);
    if !matches!(sf, "float_ue8m0_t" | "float_ue4m3_t") {
        return bad(
            norm,
            "the scale-factor type must be float_ue8m0_t or float_ue4m3_t".into(),
        );
    }
    if !matches!(t.args[4].as_str(), "16" | "32") {
        return bad(norm, "the scale vector size VS must be 16 or 32".into());
    }
    Some(atom.and_then(|atom| {
        let sfa = format!("((2,2,8),{k}):((8,0,1),16)").parse()?;
        let sfb = format!("((4,8),{k}):((0,1),8)").parse()?;
        Ok(atom.with_scale_factors(sfa, sfb))
    }))
}

pub(super) fn names(v: &mut Vec<String>) {
    v.push("SM120_16x8x32_TN<float_e4m3_t,float_e4m3_t,float>".into());
    v.push(
        "SM120::BLOCKSCALED::SM120_16x8x32_TN_VS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,32>"
            .into(),
    );
    v.push(
        "SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,16>"
            .into(),
    );
}
