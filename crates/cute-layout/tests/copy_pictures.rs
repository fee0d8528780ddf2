//! TiledCopy pictures against CuTe C++ 4.2's `print_latex(tiled_copy)`.
//!
//! `tests/conformance/latex_copy/lat<k>.tex` is the output of `print_latex_copy.cpp` (beside
//! them; compiled host-only with g++ against the `nvidia-cutlass==4.2.0.0` headers and CUDA
//! 12.9's) for configuration `k`. Our [`latex_copy`] must give the same text after CuTe's two
//! comment lines (which print CuTe's TV tensors); our [`svg_copy`] must label the same cells
//! with the same `T<t> V<v>`, in the same place.

use cute_layout::atom::copy::{copy_atom, TiledCopy};
use cute_layout::atom::{mma_atom, Operand, TiledMma};
use cute_layout::render::{latex_copy, svg_copy, Style};
use cute_layout::{Layout, Tiler};

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

fn config(k: usize) -> TiledCopy {
    let atom = |n: &str, t: &str| copy_atom(n).unwrap().typed(t).unwrap();
    let mma = |name: &str| {
        TiledMma::new(
            mma_atom(name).unwrap(),
            Some(&l("(2,2,1):(1,2,0)")),
            Some(&"(32,32,16)".parse().unwrap()),
        )
        .unwrap()
    };
    match k {
        0 => TiledCopy::make_tiled_copy(
            atom("UniversalCopy<uint32_t>", "float"),
            &l("(2,2):(1,2)"),
            &l("(1,2):(0,1)"),
        ),
        1 => TiledCopy::make_tiled_copy(
            atom("SM75_U32x4_LDSM_N", "half_t"),
            &l("(32,1):(1,0)"),
            &l("(1,8):(0,1)"),
        ),
        2 => TiledCopy::make_tiled_copy_mma(
            atom("SM75_U32x4_LDSM_N", "half_t"),
            &mma("SM80_16x8x16_F16F16F16F16_TN"),
            Operand::A,
        ),
        5 => TiledCopy::make_tiled_copy_c_atom_mma(
            atom("SM90_U32x4_STSM_N", "half_t"),
            &mma("SM80_16x8x16_F32F16F16F32_TN"),
        ),
        6 => TiledCopy::make_tiled_copy(
            atom("SM50_Shuffle_U32_2x2Trans_XOR1", "float"),
            &l("(32,1):(1,0)"),
            &l("(1,2):(0,1)"),
        ),
        7 => TiledCopy::make_tiled_copy(
            atom("UniversalCopy<uint64_t>", "half_t"),
            &l("(4,2):(2,1)"),
            &l("(1,4):(0,1)"),
        ),
        _ => unreachable!(),
    }
    .unwrap()
}

const CONFIGS: [usize; 6] = [0, 1, 2, 5, 6, 7];

fn cute_tex(k: usize) -> String {
    let path = format!(
        "{}/tests/conformance/latex_copy/lat{k}.tex",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).unwrap()
}

fn body(tex: &str) -> String {
    tex.lines().skip(2).map(|l| format!("{l}\n")).collect()
}

#[test]
fn latex_matches_cute_print_latex() {
    for k in CONFIGS {
        let ours = latex_copy(&config(k)).unwrap();
        assert!(ours.starts_with("% Layout S TV: "), "{k}");
        let (a, b) = (body(&ours), body(&cute_tex(k)));
        if a != b {
            let line = a.lines().zip(b.lines()).position(|(x, y)| x != y);
            panic!(
                "configuration {k}: first different line {line:?}\nours: {:?}\ncute: {:?}",
                line.and_then(|i| a.lines().nth(i)),
                line.and_then(|i| b.lines().nth(i))
            );
        }
    }
}

/// `(m, n, t, v)` of every `\node[fill=...] at (m,n) {\shortstack{T<t> \\ V<v>}};` line.
fn tex_cells(tex: &str) -> Vec<(i64, i64, i64, i64)> {
    tex.lines()
        .filter(|l| l.starts_with("\\node[fill="))
        .map(|l| {
            let at = &l[l.find(" at (").unwrap() + 5..];
            let (m, rest) = at.split_once(',').unwrap();
            let (n, rest) = rest.split_once(')').unwrap();
            let t = rest[rest.find("{T").unwrap() + 2..]
                .split(' ')
                .next()
                .unwrap();
            let v = rest[rest.find("V").unwrap() + 1..]
                .split('}')
                .next()
                .unwrap();
            (
                m.parse().unwrap(),
                n.parse().unwrap(),
                t.parse().unwrap(),
                v.parse().unwrap(),
            )
        })
        .collect()
}

/// The SVG labels every cell CuTe's picture labels, with the same `T<t> V<v>`, source panel then
/// destination panel, each in row-major order; and each cell's pair really maps there.
#[test]
fn svg_cells_match_cute_cell_for_cell() {
    for k in CONFIGS {
        let tc = config(k);
        let svg = svg_copy(&tc, &Style::default()).unwrap();
        let n_ext = tc.tile_mn().unwrap().get(1).unwrap().as_int().unwrap();
        let m_ext = tc.tile_mn().unwrap().get(0).unwrap().as_int().unwrap();
        let mut cells = tex_cells(&cute_tex(k));
        // CuTe's order is (thread, value); the SVG's is row-major per panel.
        cells.sort_by_key(|&(m, n, _, _)| (n >= n_ext + 3, m, n));
        let want: Vec<String> = cells
            .iter()
            .map(|&(_, _, t, v)| format!("T{t} V{v}"))
            .collect();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let got: Vec<String> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .filter(|t| t.starts_with('T') && t.contains(" V"))
            .map(String::from)
            .collect();
        assert_eq!(
            got.len(),
            want.len(),
            "configuration {k}: number of labelled cells"
        );
        if let Some(i) = got.iter().zip(&want).position(|(a, b)| a != b) {
            panic!(
                "configuration {k}: label {i} is {}, CuTe's {}",
                got[i], want[i]
            );
        }
        // And the TV layouts put each labelled pair in its cell (through the tiler's layouts,
        // as CuTe's identity tensor does).
        let (s, d) = (tc.layout_s_tv().unwrap(), tc.layout_d_tv().unwrap());
        let map = |mode: usize, j: i64| match tc.tiler_mn() {
            Tiler::Modes(ms) => match &ms[mode] {
                Tiler::Layout(l) => l.index_1d(j).unwrap(),
                _ => j,
            },
            _ => j,
        };
        for &(m, n, t, v) in &cells {
            let (tv, n) = if n >= n_ext + 3 {
                (&d, n - n_ext - 3)
            } else {
                (&s, n)
            };
            let threads = tv.mode(0).unwrap().size();
            let idx = tv.index_1d(t + threads * v).unwrap();
            assert_eq!(
                (map(0, idx % m_ext), map(1, idx / m_ext)),
                (m, n),
                "configuration {k}"
            );
        }
    }
}
