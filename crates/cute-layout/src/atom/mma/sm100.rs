//! SM100 (Blackwell) MMA: CuTe C++ 4.2's `mma_traits_sm100.hpp`, UMMA (`tcgen05.mma`) generated
//! by CuTe's rule, and the two fixed FFMA2 atoms.
//!
//! A UMMA atom is issued by one thread for the CTA (`ThrID = 1:0`) or by a pair of CTAs
//! (`_2x1SM`, `ThrID = 2:1`, each CTA holding half of M and half of N of B). `K` is always 256
//! bits of A's type (8 for TF32, 16 for F16/BF16, 32 for 8-bit and F8F6F4, 64 for MXF4):
//! * 1-SM: A `(1,(M,K)):(0,(1,M))`, B `(1,(N,K)):(0,(1,N))`, C `(1,(M,N)):(0,(1,M))`;
//! * 2-SM: A `(2,(M/2,K)):(M/2,(1,M))`, B `(2,(N/2,K)):(N/2,(1,N))`, C `(2,(M/2,N)):(M/2,(1,M))`.
//!
//! Names are accepted where CuTe compiles `MMA_Traits<...>`: the traits' own `static_assert`s
//! apply (type widths, the variadic F8F6F4 `_SS` shapes, MXF4's vector size), the instructions'
//! (M of 64 or 128, N a multiple of 8 or 16, a K-major A for `_TS`) do not, since CuTe's traits
//! do not instantiate them. One rule CuTe's traits lack is added: a 2-SM atom's M and N are even
//! (each CTA holds half; an odd M or N would leave a row of the tile unreached). `_SCALED` (F16BF16, a `ScaleC` argument after the majors) has the
//! plain layouts; `_SPARSE` (2:4 structured-sparse A; TF32, F16BF16, S8, F8F6F4, MXF8F6F4,
//! MXF4NVF4) doubles K (512 bits of A's type; 64 for F8F6F4 and MXF8F6F4, 128 for MXF4NVF4); its
//! metadata layout is not modelled. SM103's `SM103::SM103_MXF4_ULTRA[_2x1SM]_SS_VS<a,b,c,sf,M,N,VS,
//! majors...>` (same header) is the MXF4 rule with K = 96 and K-major operands only.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::{Fixed, MmaAtom};
use crate::atom::{type_bits, AtomError, TemplateName};

/// The two fixed FFMA2 atoms.
#[rustfmt::skip]
pub(super) static ATOMS: &[Fixed] = &[
    Fixed { name: "SM100_2x1x1_F32F32F32F32", thr_id: "1:0", shape_mnk: "(2,1,1)", a: "(1,2):(0,1)", b: "(1,1):(0,0)", c: "(1,2):(0,1)", bits: [32, 32, 32, 32] },
    Fixed { name: "SM100_1x2x1_F32F32F32F32", thr_id: "1:0", shape_mnk: "(1,2,1)", a: "(1,1):(0,0)", b: "(1,2):(0,1)", c: "(1,2):(0,1)", bits: [32, 32, 32, 32] },
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Tf32,
    F16Bf16,
    S8,
    F8f6f4,
    Mxf8f6f4,
    Mxf4,
    Mxf4nvf4,
    Mxf4Ultra,
}

/// The plain instruction, `_SCALED` (a C scale argument) or `_SPARSE` (2:4 A, K doubled).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Variant {
    Plain,
    Scaled,
    Sparse,
}

const KINDS: &[(&str, Kind)] = &[
    ("TF32", Kind::Tf32),
    ("F16BF16", Kind::F16Bf16),
    ("S8", Kind::S8),
    ("F8F6F4", Kind::F8f6f4),
    ("MXF8F6F4", Kind::Mxf8f6f4),
    ("MXF4", Kind::Mxf4),
    ("MXF4NVF4", Kind::Mxf4nvf4),
    ("MXF4_ULTRA", Kind::Mxf4Ultra),
];

fn strip_ns(a: &str) -> &str {
    let mut a = a;
    for p in ["cute::", "cutlass::", "SM100::"] {
        a = a.strip_prefix(p).unwrap_or(a);
    }
    a
}

/// `UMMA::Major::K` -> false, `UMMA::Major::MN` -> true (also as
/// `integral_constant<UMMA::Major,UMMA::Major::K>`).
fn major(a: &str) -> Option<bool> {
    let a = strip_ns(a);
    let a = a
        .strip_prefix("integral_constant<UMMA::Major,")
        .and_then(|x| x.strip_suffix('>'))
        .map(strip_ns)
        .unwrap_or(a);
    match a {
        "UMMA::Major::K" => Some(false),
        "UMMA::Major::MN" => Some(true),
        _ => None,
    }
}

fn scale_ok(a: &str) -> bool {
    let a = strip_ns(a);
    let a = a
        .strip_prefix("integral_constant<UMMA::ScaleIn,")
        .and_then(|x| x.strip_suffix('>'))
        .map(strip_ns)
        .unwrap_or(a);
    matches!(a, "UMMA::ScaleIn::One" | "UMMA::ScaleIn::Neg")
}

fn sat_ok(a: &str) -> bool {
    matches!(
        strip_ns(a),
        "UMMA::Saturate::False" | "UMMA::Saturate::True"
    )
}

/// An integer argument: `128`, `C<128>`, `Int<128>`, `_128`.
fn int_arg(a: &str) -> Option<i64> {
    let a = strip_ns(a);
    let a = a
        .strip_prefix("C<")
        .or_else(|| a.strip_prefix("Int<"))
        .and_then(|x| x.strip_suffix('>'))
        .or_else(|| a.strip_prefix('_'))
        .unwrap_or(a);
    let a = a.strip_suffix('u').unwrap_or(a);
    a.parse().ok()
}

fn bad(norm: &str, what: String) -> Option<Result<MmaAtom, AtomError>> {
    Some(Err(AtomError::BadArgument {
        name: norm.to_string(),
        what,
    }))
}

/// Whether `n` is a multiple of `step` in `[lo, 256]`.
fn n_in(n: i64, step: i64, lo: i64) -> bool {
    n % step == 0 && (lo..=256).contains(&n)
}

pub(super) fn resolve(t: &TemplateName, norm: &str) -> Option<Result<MmaAtom, AtomError>> {
    let base = strip_ns(&t.base);
    // SM103's MXF4 "ultra" atoms (in the same header) read like MXF4 with the suffix _VS.
    let (fam, rest) = match base.strip_prefix("SM103::SM103_MXF4_ULTRA_") {
        Some(r) => ("MXF4_ULTRA", r.strip_suffix("_VS")?),
        None => base.strip_prefix("SM100_MMA_")?.split_once('_')?,
    };
    let kind = KINDS.iter().find(|(n, _)| *n == fam)?.1;
    let (sm2, rest) = match rest.strip_prefix("2x1SM_") {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let (rest, variant) = match (rest.strip_suffix("_SCALED"), rest.strip_suffix("_SPARSE")) {
        (Some(r), _) => (r, Variant::Scaled),
        (_, Some(r)) => (r, Variant::Sparse),
        _ => (rest, Variant::Plain),
    };
    let ts = match rest {
        "SS" => false,
        "TS" if matches!(kind, Kind::Tf32 | Kind::F16Bf16 | Kind::S8 | Kind::F8f6f4) => true,
        _ => return None,
    };
    let exists = match variant {
        Variant::Plain => kind != Kind::Mxf4nvf4,
        _ if kind == Kind::Mxf4Ultra => false,
        Variant::Scaled => kind == Kind::F16Bf16,
        Variant::Sparse => !ts && kind != Kind::Mxf4,
    };
    if !exists {
        return None;
    }
    let sparse = variant == Variant::Sparse;
    let scaled = usize::from(variant == Variant::Scaled);
    if !t.brackets {
        return bad(
            norm,
            "takes template arguments <a_type, b_type, c_type, ...>".into(),
        );
    }
    let args = &t.args;
    // Layout of the arguments: types, then (sf_type), M, N, (VS), majors, the rest optional.
    let variadic = kind == Kind::F8f6f4 && !ts && !sparse;
    let n_types = if matches!(
        kind,
        Kind::Mxf8f6f4 | Kind::Mxf4 | Kind::Mxf4nvf4 | Kind::Mxf4Ultra
    ) {
        4
    } else {
        3
    };
    let vs_pos =
        matches!(kind, Kind::Mxf4 | Kind::Mxf4nvf4 | Kind::Mxf4Ultra).then_some(n_types + 2);
    let maj_pos = n_types + 2 + usize::from(vs_pos.is_some());
    let max_extra = match (kind, ts) {
        (Kind::S8, false) => 1, // c_sat
        (_, true) => 3,         // a_neg, b_neg, c_sat
        _ => 2,                 // a_neg, b_neg
    };
    let (min, max) = if variadic {
        (maj_pos + 4, maj_pos + 4)
    } else {
        (maj_pos + 2 + scaled, maj_pos + 2 + scaled + max_extra)
    };
    if args.len() < min || args.len() > max {
        return bad(
            norm,
            format!(
                "takes {min} to {max} template arguments, got {}",
                args.len()
            ),
        );
    }
    let mut bits = [0u32; 3];
    for k in 0..3 {
        match type_bits(&args[k]) {
            Some(b) => bits[k] = b,
            None => return bad(norm, format!("unknown value type {}", args[k])),
        }
    }
    let ab_ok = match kind {
        Kind::Tf32 => bits[0] == 32 && bits[1] == 32,
        Kind::F16Bf16 => bits[0] == 16 && bits[1] == 16,
        Kind::S8 => bits[0] == 8 && bits[1] == 8,
        Kind::F8f6f4 | Kind::Mxf8f6f4 => bits[0] <= 8 && bits[1] <= 8,
        Kind::Mxf4 | Kind::Mxf4nvf4 | Kind::Mxf4Ultra => bits[0] == 4 && bits[1] == 4,
    };
    if !ab_ok {
        return bad(
            norm,
            format!(
                "A and B types {} and {} are not {fam} types",
                args[0], args[1]
            ),
        );
    }
    if n_types == 4 && type_bits(&args[3]).is_none() {
        return bad(norm, format!("unknown scale-factor type {}", args[3]));
    }
    let (Some(m), Some(n)) = (int_arg(&args[n_types]), int_arg(&args[n_types + 1])) else {
        return bad(norm, "M and N are integers".into());
    };
    let (Some(a_mn), Some(b_mn)) = (major(&args[maj_pos]), major(&args[maj_pos + 1])) else {
        return bad(
            norm,
            "the A and B majors are UMMA::Major::K or UMMA::Major::MN".into(),
        );
    };
    if kind == Kind::Mxf4Ultra && (a_mn || b_mn) {
        // MMA_Traits<SM103_MXF4_ULTRA...>'s static_assert.
        return bad(
            norm,
            "SM103 MXF4 ultra MMA does not support transpose: both majors are UMMA::Major::K"
                .into(),
        );
    }
    if scaled == 1 && int_arg(&args[maj_pos + 2]).is_none_or(|c| c < 0) {
        return bad(
            norm,
            "the C scale argument ScaleC is an unsigned integer".into(),
        );
    }
    let extra = maj_pos + 2 + scaled;
    for (k, a) in args.iter().enumerate().skip(extra) {
        // S8 _SS ends with c_sat; _TS with a_neg, b_neg, c_sat; the others a_neg, b_neg.
        let sat = (kind == Kind::S8 && !ts) || (ts && k == extra + 2);
        let ok = if sat { sat_ok(a) } else { scale_ok(a) };
        if !ok {
            return bad(
                norm,
                format!("argument {a} is not a UMMA::ScaleIn / UMMA::Saturate value"),
            );
        }
    }
    if let Some(p) = vs_pos {
        let vs = int_arg(&args[p]);
        let fp4 = |a: &str| matches!(strip_ns(a), "float_e2m1_t" | "type_erased_dynamic_float4_t");
        let wide = fp4(&args[0]) && fp4(&args[1]) && strip_ns(&args[3]) == "float_ue8m0_t";
        if kind == Kind::Mxf4nvf4 {
            // MMA_Traits<SM100_MMA_MXF4NVF4[_2x1SM]_SS_SPARSE>'s static_assert.
            if !(vs == Some(32) || (vs == Some(64) && wide)) {
                return bad(norm, "VS must be 32, or 64 with float_e2m1_t A and B and float_ue8m0_t scale factors".into());
            }
        } else if kind == Kind::Mxf4Ultra {
            if !matches!(vs, Some(v) if v >= 1) {
                return bad(
                    norm,
                    "the scale vector size VS is a positive integer".into(),
                );
            }
        } else if !(matches!(vs, Some(16 | 32)) || (sm2 && matches!(vs, Some(v) if v >= 1))) {
            return bad(norm, "the scale vector size VS must be 16 or 32".into());
        }
        // MMA_Traits<SM100_MMA_MXF4_SS>'s static_assert (the 2x1SM traits have none).
        if kind == Kind::Mxf4 && !sm2 && vs == Some(32) && !wide {
            return bad(
                norm,
                "VS = 32 needs float_e2m1_t A and B and float_ue8m0_t scale factors".into(),
            );
        }
    }
    // A CTA pair holds half of M (A and C) and half of N (B) in each CTA: CuTe's layouts
    // `(2,(M/2,K)):(M/2,(1,M))` and `(2,(N/2,K)):(N/2,(1,N))` leave a row of the tile
    // unreached when M or N is odd (CuTe's traits compile them all the same).
    if sm2 && (m % 2 != 0 || n % 2 != 0) {
        return bad(
            norm,
            format!("M = {m}, N = {n}: a 2-SM UMMA splits M and N between the two CTAs, so both are even"),
        );
    }
    // The static_asserts of CuTe's MMA_Traits on M and N (only the variadic F8F6F4 _SS traits
    // have them; the instructions' own asserts are not instantiated by the traits, so CuTe
    // compiles `MMA_Traits<...>` for any other M and N, with these layouts).
    let shape_ok = match (kind, sm2, ts) {
        (Kind::F8f6f4, _, false) if sparse => m >= 2 && n >= 2,
        (Kind::F8f6f4, false, false) => {
            (m == 64 || m == 128) && if b_mn { n_in(n, 16, 16) } else { n_in(n, 8, 8) }
        }
        (Kind::F8f6f4, true, false) => {
            (m == 128 || m == 256)
                && if b_mn {
                    n_in(n, 32, 32)
                } else {
                    n_in(n, 16, 16)
                }
        }
        (_, false, _) => m >= 1 && n >= 1,
        (_, true, _) => m >= 2 && n >= 2,
    };
    if !shape_ok {
        return bad(
            norm,
            format!("M = {m}, N = {n} is not a shape CuTe's {base} accepts"),
        );
    }
    let k = match kind {
        Kind::Mxf4Ultra => 96,
        Kind::Mxf4 | Kind::Mxf4nvf4 => 64,
        Kind::F8f6f4 | Kind::Mxf8f6f4 => 32,
        _ => 256 / i64::from(bits[0]),
    } * if sparse { 2 } else { 1 };
    let (thr, a, b, c) = if sm2 {
        (
            "2:1",
            format!("(2,({},{k})):({},(1,{m}))", m / 2, m / 2),
            format!("(2,({},{k})):({},(1,{n}))", n / 2, n / 2),
            format!("(2,({},{n})):({},(1,{m}))", m / 2, m / 2),
        )
    } else {
        (
            "1:0",
            format!("(1,({m},{k})):(0,(1,{m}))"),
            format!("(1,({n},{k})):(0,(1,{n}))"),
            format!("(1,({m},{n})):(0,(1,{m}))"),
        )
    };
    Some(
        MmaAtom::from_text(
            norm.to_string(),
            thr,
            &format!("({m},{n},{k})"),
            [&a, &b, &c],
            [bits[0], bits[1], bits[2], bits[2]],
        )
        .map(|a| a.with_descriptors(true, true)),
    )
}

pub(super) fn names(v: &mut Vec<String>) {
    const K: &str = "UMMA::Major::K";
    v.push(format!(
        "SM100_MMA_TF32_SS<tfloat32_t,tfloat32_t,float,128,128,{K},{K}>"
    ));
    v.push(format!(
        "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,128,{K},{K}>"
    ));
    v.push(format!(
        "SM100_MMA_F16BF16_TS<half_t,half_t,float,128,128,{K},{K}>"
    ));
    v.push(format!(
        "SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,128,{K},{K}>"
    ));
    v.push(format!(
        "SM100_MMA_S8_SS<int8_t,int8_t,int32_t,128,128,{K},{K}>"
    ));
    v.push(format!(
        "SM100_MMA_F8F6F4_TS<float_e4m3_t,float_e4m3_t,float,128,128,{K},{K}>"
    ));
    v.push(format!(
        "SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,128,128,{K},{K}>"
    ));
    v.push(format!(
        "SM103::SM103_MXF4_ULTRA_SS_VS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,128,128,16,{K},{K}>"
    ));
    v.push(format!(
        "SM100_MMA_F16BF16_SS_SCALED<half_t,half_t,float,128,128,{K},{K},1>"
    ));
    v.push(format!(
        "SM100_MMA_F16BF16_SS_SPARSE<half_t,half_t,float,128,128,{K},{K}>"
    ));
    v.push(format!(
        "SM100_MMA_MXF4NVF4_SS_SPARSE<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,128,128,64,{K},{K}>"
    ));
    v.push(format!(
        "SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,128,128,32,{K},{K}>"
    ));
}

/// The M and N of the shape grid [`all_names`] runs every family over: every M and N the
/// `tcgen05.mma` instructions define (M of 64 and 128, or 128 and 256 for a CTA pair; N a
/// multiple of 8 up to 256) and the edge values the traits also accept (1, odd, one past a
/// power of two, beyond 256). A CTA pair holds half of M and of N in each CTA: only even values.
fn grid(sm2: bool) -> (Vec<i64>, Vec<i64>) {
    let mut m: Vec<i64> =
        alloc::vec![1, 2, 3, 4, 7, 8, 16, 32, 63, 64, 65, 96, 128, 192, 255, 256, 257, 258];
    let mut n: Vec<i64> = alloc::vec![1, 2, 3, 4, 5, 7, 9, 15, 17, 31, 33, 255, 257, 258];
    n.extend((8..=256).step_by(8));
    if sm2 {
        m.retain(|x| x % 2 == 0);
        n.retain(|x| x % 2 == 0);
    }
    n.sort_unstable();
    (m, n)
}

/// Every name [`resolve`] accepts, for [`super::for_each_name`], in two sweeps per family
/// (each operand source, 1-SM and 2-SM, plain, `_SCALED` and `_SPARSE`):
/// * at two instruction shapes (M = 64, N = 64 and M = 128, N = 256; a CTA pair M = 128, N = 64
///   and M = 256, N = 256): every A/B/C (and scale-factor) type the family takes, every pair of majors, every
///   run of the optional trailing arguments, every vector size;
/// * with the first of those argument lists: every M and N of [`grid`] the family accepts (the
///   variadic F8F6F4 `_SS` traits only their instruction shapes).
///
/// The layouts are a function of the family, M, N and K alone, so the two sweeps together reach
/// every layout any accepted name has at those shapes.
pub(super) fn all_names(f: &mut dyn FnMut(&str)) {
    const MAJ: [&str; 2] = ["UMMA::Major::K", "UMMA::Major::MN"];
    const NEG: [&str; 2] = ["UMMA::ScaleIn::One", "UMMA::ScaleIn::Neg"];
    const SAT: [&str; 2] = ["UMMA::Saturate::False", "UMMA::Saturate::True"];
    const F8: [&str; 5] = [
        "float_e4m3_t",
        "float_e5m2_t",
        "float_e2m3_t",
        "float_e3m2_t",
        "float_e2m1_t",
    ];
    for &(fam, kind) in KINDS {
        let ultra = kind == Kind::Mxf4Ultra;
        let mut srcs: Vec<(bool, Variant)> = Vec::new();
        match kind {
            Kind::Tf32 | Kind::S8 | Kind::F8f6f4 => srcs.extend([
                (false, Variant::Plain),
                (true, Variant::Plain),
                (false, Variant::Sparse),
            ]),
            Kind::F16Bf16 => srcs.extend([
                (false, Variant::Plain),
                (true, Variant::Plain),
                (false, Variant::Scaled),
                (true, Variant::Scaled),
                (false, Variant::Sparse),
            ]),
            Kind::Mxf8f6f4 => srcs.extend([(false, Variant::Plain), (false, Variant::Sparse)]),
            Kind::Mxf4 | Kind::Mxf4Ultra => srcs.push((false, Variant::Plain)),
            Kind::Mxf4nvf4 => srcs.push((false, Variant::Sparse)),
        }
        // A, B, C (and scale-factor) type lists.
        let types: Vec<Vec<&str>> = match kind {
            Kind::Tf32 => product(&[
                &["tfloat32_t", "float"],
                &["tfloat32_t", "float"],
                &["float"],
            ]),
            Kind::F16Bf16 => product(&[
                &["half_t", "bfloat16_t"],
                &["half_t", "bfloat16_t"],
                &["half_t", "float"],
            ]),
            Kind::S8 => product(&[&["int8_t", "uint8_t"], &["int8_t", "uint8_t"], &["int32_t"]]),
            Kind::F8f6f4 => product(&[&F8, &F8, &["half_t", "float"]]),
            Kind::Mxf8f6f4 => product(&[&F8, &F8, &["float"], &["float_ue8m0_t"]]),
            Kind::Mxf4 | Kind::Mxf4nvf4 | Kind::Mxf4Ultra => product(&[
                &["float_e2m1_t"],
                &["float_e2m1_t"],
                &["float"],
                &["float_ue8m0_t", "float_ue4m3_t"],
            ]),
        };
        for sm2 in [false, true] {
            for &(ts, variant) in &srcs {
                let base = if ultra {
                    format!(
                        "SM103::SM103_MXF4_ULTRA{}_SS_VS",
                        if sm2 { "_2x1SM" } else { "" }
                    )
                } else {
                    format!(
                        "SM100_MMA_{fam}{}_{}{}",
                        if sm2 { "_2x1SM" } else { "" },
                        if ts { "TS" } else { "SS" },
                        match variant {
                            Variant::Plain => "",
                            Variant::Scaled => "_SCALED",
                            Variant::Sparse => "_SPARSE",
                        }
                    )
                };
                let sparse = variant == Variant::Sparse;
                let variadic = kind == Kind::F8f6f4 && !ts && !sparse;
                // The optional trailing arguments: (a_neg, b_neg) or c_sat (S8 _SS), and for
                // _TS (a_neg, b_neg, c_sat); the variadic F8F6F4 _SS takes both negations.
                let trailing: Vec<Vec<&str>> = if variadic {
                    product(&[&NEG, &NEG])
                } else if ts {
                    let mut v = prefixes(&[&NEG, &NEG]);
                    v.extend(product(&[&NEG, &NEG, &SAT]));
                    v
                } else if kind == Kind::S8 {
                    prefixes(&[&SAT])
                } else {
                    prefixes(&[&NEG, &NEG])
                };
                let scale_c: &[&str] = if variant == Variant::Scaled {
                    &["0", "1", "3"]
                } else {
                    &[""]
                };
                let majors: &[(&str, &str)] = if ultra {
                    &[(MAJ[0], MAJ[0])]
                } else {
                    &[
                        (MAJ[0], MAJ[0]),
                        (MAJ[0], MAJ[1]),
                        (MAJ[1], MAJ[0]),
                        (MAJ[1], MAJ[1]),
                    ]
                };
                let vs_list = |t: &[&str]| -> Vec<&'static str> {
                    let wide = t.get(3) == Some(&"float_ue8m0_t");
                    match kind {
                        Kind::Mxf4nvf4 if wide => alloc::vec!["32", "64"],
                        Kind::Mxf4nvf4 => alloc::vec!["32"],
                        Kind::Mxf4Ultra => alloc::vec!["1", "16", "32", "64"],
                        Kind::Mxf4 if sm2 => alloc::vec!["1", "16", "32", "64"],
                        Kind::Mxf4 if wide => alloc::vec!["16", "32"],
                        Kind::Mxf4 => alloc::vec!["16"],
                        _ => alloc::vec![""],
                    }
                };
                let mut name = |t: &[&str],
                                m: i64,
                                n: i64,
                                vs: &str,
                                maj: (&str, &str),
                                c: &str,
                                tail: &[&str]| {
                    let mut args: Vec<String> = t.iter().map(|s| s.to_string()).collect();
                    args.push(m.to_string());
                    args.push(n.to_string());
                    if !vs.is_empty() {
                        args.push(vs.to_string());
                    }
                    args.push(maj.0.to_string());
                    args.push(maj.1.to_string());
                    if !c.is_empty() {
                        args.push(c.to_string());
                    }
                    args.extend(tail.iter().map(|s| s.to_string()));
                    f(&format!("{base}<{}>", args.join(",")));
                };
                // Sweep 1: every argument list at two instruction shapes.
                let ms: [i64; 2] = if sm2 { [128, 256] } else { [64, 128] };
                for (m, n) in [(ms[0], 64), (ms[1], 256)] {
                    for t in &types {
                        for vs in vs_list(t) {
                            for &maj in majors {
                                for c in scale_c {
                                    for tail in &trailing {
                                        name(t, m, n, vs, maj, c, tail);
                                    }
                                }
                            }
                        }
                    }
                }
                // Sweep 2: every shape of the grid with the first argument list.
                let t = &types[0];
                let vs = vs_list(t)[0];
                let (gm, gn) = if variadic {
                    let n_step = if sm2 { 16 } else { 8 };
                    (
                        alloc::vec![ms[0], ms[1]],
                        (n_step..=256).step_by(n_step as usize).collect(),
                    )
                } else {
                    grid(sm2)
                };
                for &m in &gm {
                    for &n in &gn {
                        // The sparse F8F6F4 traits' shape rule.
                        if kind == Kind::F8f6f4 && sparse && (m < 2 || n < 2) {
                            continue;
                        }
                        name(t, m, n, vs, majors[0], scale_c[0], &trailing[0]);
                    }
                }
            }
        }
    }
}

/// Every list taking one element from each of `lists`, in order.
fn product<'a>(lists: &[&[&'a str]]) -> Vec<Vec<&'a str>> {
    let mut out: Vec<Vec<&'a str>> = alloc::vec![Vec::new()];
    for l in lists {
        out = out
            .iter()
            .flat_map(|p| {
                l.iter().map(move |x| {
                    let mut q = p.clone();
                    q.push(*x);
                    q
                })
            })
            .collect();
    }
    out
}

/// Every list of the first `j` of `lists` (`j` = 0 ..= len), one element from each.
fn prefixes<'a>(lists: &[&[&'a str]]) -> Vec<Vec<&'a str>> {
    (0..=lists.len())
        .flat_map(|j| product(&lists[..j]))
        .collect()
}
