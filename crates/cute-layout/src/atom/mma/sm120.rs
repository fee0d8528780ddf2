//! SM120 (Blackwell GeForce) warp MMA: CuTe C++ 4.2's `mma_traits_sm120.hpp`.
//!
//! * `SM120_16x8x32_TN<a,b,c>` (FP8/FP6/FP4 inputs, `c` = `float` or `half_t`) has the layouts
//!   of `SM80_16x8x32_S32S8S8S32_TN`, with A and B held as 8-bit registers;
//! * `SM120::BLOCKSCALED::SM120_16x8x32_TN_VS<a,b,c,sf,VS>` adds the scale-factor layouts
//!   `SFALayout = ((2,2,8),32):((8,0,1),16)`, `SFBLayout = ((4,8),32):((0,1),8)`;
//! * `SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<a,b,c,sf,VS>` (FP4) is `16x8x64` with 4-bit A and B.
//!
//! * sparse (2:4 A, `mma_traits_sm120_sparse.hpp`): `SM120::SPARSE::SM120_SPARSE_16x8x64_TN<a,b,c>`,
//!   `SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x64_TN_VS<a,b,c,sf,VS>` (with the dense
//!   16x8x64's scale-factor layouts) and `..._16x8x128_TN_VS` (FP4); their metadata layouts are
//!   not modelled.
//!
//! The type combinations accepted are those CuTe's `mma_sm120.hpp` defines instructions for.

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
    // (K, block-scaled, sparse): sparse atoms have a 2:4 A and twice the K of their dense kin.
    let (k, vs, sparse) = match base {
        "SM120_16x8x32_TN" => (32, false, false),
        "SM120::BLOCKSCALED::SM120_16x8x32_TN_VS" => (32, true, false),
        "SM120::BLOCKSCALED::SM120_16x8x64_TN_VS" => (64, true, false),
        "SM120::SPARSE::SM120_SPARSE_16x8x64_TN" => (64, false, true),
        "SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x64_TN_VS" => (64, true, true),
        "SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x128_TN_VS" => (128, true, true),
        _ => return None,
    };
    // The FP4-only atoms: dense 16x8x64 and sparse 16x8x128 block-scaled.
    let fp4_only = (k == 64 && vs && !sparse) || k == 128;
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
    let ab_allowed: &[&str] = if fp4_only { &AB_TYPES[..1] } else { AB_TYPES };
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
    let ab_bits = if fp4_only { 4 } else { 8 };
    let (a_l, b_l) = match (k, sparse) {
        (32, _) => (
            "((4,8),(4,2,2)):((64,1),(16,8,256))",
            "((4,8),(4,2)):((32,1),(8,128))",
        ),
        (64, false) => (
            "((4,8),(8,2,2)):((128,1),(16,8,512))",
            "((4,8),(8,2)):((64,1),(8,256))",
        ),
        (64, true) => (
            "((4,8),(8,2,2)):((128,1),(16,8,512))",
            "((4,8),(4,4)):((32,1),(8,128))",
        ),
        _ => (
            "((4,8),(16,2,2)):((256,1),(16,8,1024))",
            "((4,8),(8,4)):((64,1),(8,256))",
        ),
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
    if c != "float" {
        return bad(norm, "block-scaled SM120 MMA accumulates in float".into());
    }
    // CuTe's instructions: UE8M0 scale factors, and for E2M1 x E2M1 at K = 64, 128 also UE4M3.
    let fp4_pair = a == "float_e2m1_t" && b == "float_e2m1_t";
    if !(sf == "float_ue8m0_t" || (fp4_pair && k >= 64 && sf == "float_ue4m3_t")) {
        return bad(
            norm,
            format!("no {base} instruction with scale-factor type {sf}"),
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
    for n in [
        "SM120_16x8x32_TN<float_e4m3_t,float_e4m3_t,float>",
        "SM120::BLOCKSCALED::SM120_16x8x32_TN_VS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,32>",
        "SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,16>",
        "SM120::SPARSE::SM120_SPARSE_16x8x64_TN<float_e4m3_t,float_e4m3_t,float>",
        "SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x64_TN_VS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,32>",
        "SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x128_TN_VS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,16>",
    ] {
        v.push(n.into());
    }
}

/// Every name [`resolve`] accepts, for [`super::for_each_name`]: each of the six families with
/// every A/B type pair, accumulator, scale-factor type and vector size it takes.
pub(super) fn all_names(f: &mut dyn FnMut(&str)) {
    const BASES: [(&str, bool, bool); 6] = [
        // (name, block-scaled, FP4 only)
        ("SM120_16x8x32_TN", false, false),
        ("SM120::BLOCKSCALED::SM120_16x8x32_TN_VS", true, false),
        ("SM120::BLOCKSCALED::SM120_16x8x64_TN_VS", true, true),
        ("SM120::SPARSE::SM120_SPARSE_16x8x64_TN", false, false),
        (
            "SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x64_TN_VS",
            true,
            false,
        ),
        (
            "SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x128_TN_VS",
            true,
            true,
        ),
    ];
    for (base, vs, fp4_only) in BASES {
        let ab: &[&str] = if fp4_only { &AB_TYPES[..1] } else { AB_TYPES };
        for a in ab {
            for b in ab {
                if !vs {
                    for c in ["float", "half_t"] {
                        f(&format!("{base}<{a},{b},{c}>"));
                    }
                    continue;
                }
                let k64 = base.contains("x64") || base.contains("x128");
                let fp4_pair = *a == "float_e2m1_t" && *b == "float_e2m1_t";
                for sf in ["float_ue8m0_t", "float_ue4m3_t"] {
                    if sf == "float_ue4m3_t" && !(fp4_pair && k64) {
                        continue;
                    }
                    for v in [16, 32] {
                        f(&format!("{base}<{a},{b},float,{sf},{v}>"));
                    }
                }
            }
        }
    }
}
