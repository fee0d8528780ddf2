//! The atom lint (`cute_layout::atom::lint`) over every name the atom families accept, and the
//! table fixes it led to.

use cute_layout::atom::copy::copy_atom;
use cute_layout::atom::lint::{lint_all, lint_copy, lint_mma};
use cute_layout::atom::{mma_atom, Operand};

#[test]
fn every_atom_the_families_name_obeys_the_laws() {
    let r = lint_all();
    let shown: Vec<String> = r.findings.iter().take(20).map(|f| f.to_string()).collect();
    assert!(
        r.findings.is_empty(),
        "{} findings:\n{}",
        r.findings.len(),
        shown.join("\n")
    );
    assert!(
        r.refused.is_empty(),
        "{:?}",
        &r.refused[..r.refused.len().min(20)]
    );
    assert_eq!((r.mma_atoms, r.copy_atoms), (113_832, 7_581));
    // The one operand CuTe declares incongruently: refused, so not linted.
    let why = "CuTe declares the A layout ((4,8),(32,2)):((512,1),((16,8))) with a stride incongruent with its shape";
    assert_eq!(
        r.unsupported,
        [
            format!("SM80_16x8x128_S32U1U1S32_TN_XORPOPC: A: atom: SM80_16x8x128_S32U1U1S32_TN_XORPOPC: {why}"),
            format!("SM80_16x8x128_S32U1U1S32_TN_ANDPOPC: A: atom: SM80_16x8x128_S32U1U1S32_TN_ANDPOPC: {why}"),
        ]
    );
}

/// CuTe 4.2's B layout of the SM80 16x8x32 4-bit atoms, `((4,8),(8)):((32,1),(8))`, sends the
/// 256 (thread, value) pairs onto 160 cells; the table has stride 64 (CUTLASS PR 3140).
#[test]
fn sm80_16x8x32_4bit_b_is_one_to_one() {
    for a in ["S4", "U4"] {
        for b in ["S4", "U4"] {
            for sat in ["", "_SATURATE"] {
                let name = format!("SM80_16x8x32_S32{a}{b}S32_TN{sat}");
                let atom = mma_atom(&name).unwrap();
                let b = atom.layout_tv(Operand::B).unwrap();
                assert_eq!(b.to_string(), "((4,8),(8)):((64,1),(8))", "{name}");
                assert_eq!(atom.field("layout_b_tv").unwrap(), b.to_string());
                // Thread t holds k = 8 * (t % 4) + i, i < 8, of column n = t / 4.
                for t in 0..32 {
                    for i in 0..8 {
                        let c: cute_layout::IntTuple = format!("({t},{i})").parse().unwrap();
                        assert_eq!(b.index(&c).unwrap(), t / 4 + 8 * (8 * (t % 4) + i));
                    }
                }
                assert_eq!(lint_mma(&atom).unwrap(), []);
            }
        }
    }
}

/// A CTA pair holds half of M and of N: CuTe's 2-SM layouts leave a row unreached when either
/// is odd, so those names are refused.
#[test]
fn two_sm_umma_needs_even_m_and_n() {
    let e = mma_atom(
        "SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,129,64,UMMA::Major::K,UMMA::Major::K>",
    )
    .unwrap_err();
    assert_eq!(e.kind(), "BadArgument");
    assert_eq!(
        e.to_string(),
        "atom: SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,129,64,UMMA::Major::K,UMMA::Major::K>: M = 129, N = 64: a 2-SM UMMA splits M and N between the two CTAs, so both are even"
    );
    let e = mma_atom(
        "SM100_MMA_MXF4_2x1SM_SS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,7,16,UMMA::Major::K,UMMA::Major::K>",
    )
    .unwrap_err();
    assert!(
        e.to_string().ends_with(
            "M = 128, N = 7: a 2-SM UMMA splits M and N between the two CTAs, so both are even"
        ),
        "{e}"
    );
    // Even M and N stay accepted, off the instruction shapes too.
    let a = mma_atom(
        "SM100_MMA_TF32_2x1SM_SS<tfloat32_t,tfloat32_t,float,6,10,UMMA::Major::K,UMMA::Major::K>",
    )
    .unwrap();
    assert_eq!(a.layout_c_tv().unwrap().to_string(), "(2,(3,10)):(3,(1,6))");
    assert_eq!(lint_mma(&a).unwrap(), []);
}

/// cp.async copies its source unchanged: source and destination types of different widths are
/// refused (a converting `UniversalCopy<S,D>` is not).
#[test]
fn cp_async_needs_one_width() {
    let e = copy_atom("SM80_CP_ASYNC_CACHEALWAYS<uint32_t, uint64_t>").unwrap_err();
    assert_eq!(e.kind(), "BadArgument");
    assert_eq!(
        e.to_string(),
        "atom: SM80_CP_ASYNC_CACHEALWAYS<uint32_t,uint64_t>: cp.async copies its source unchanged: TS and TD have the same width (CuTe's \"cp.async requires sizeof(src_value_type) == sizeof(dst_value_type)\"), got 32 and 64 bits"
    );
    let same = copy_atom("SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<float, int32_t>").unwrap();
    assert_eq!(same.dst_bits().to_string(), "(1,32):(0,1)");
    assert_eq!(lint_copy(&same).unwrap(), []);
    let convert = copy_atom("UniversalCopy<uint32_t, uint64_t>").unwrap();
    assert_eq!(lint_copy(&convert).unwrap(), []);
}

/// The lint's cost is bounded: an atom beyond `MAX_LINT_POINTS` is refused, not evaluated.
#[test]
fn too_large_to_lint_is_refused() {
    let name = "SM100_MMA_F16BF16_SS<half_t,half_t,float,4096,4096,UMMA::Major::K,UMMA::Major::K>";
    let e = lint_mma(&mma_atom(name).unwrap()).unwrap_err();
    assert_eq!(e.kind(), "Unsupported");
    assert_eq!(
        e.to_string(),
        format!("atom: {name}: not linted: a tile of 16777216 points, more than the lint's limit of 4194304")
    );
}
