//! Laws of the MMA atoms and tiled MMAs (`cute_layout::atom`).
//!
//! * every listed atom: its layouts parse, each TV layout's thread mode has `size(thr_id)`
//!   threads, every value lies inside its operand's tile, and C reaches every cell of the
//!   `M x N` tile exactly once;
//! * tiled MMAs over a spread of atoms, atom layouts and permutations: `layout_c_tv` covers the
//!   `tile_m x tile_n` tile exactly once; for every thread and every value, the TV layouts agree
//!   with `partition` of the column-major tile (offset + partition(v) = layout_tv(t, v)); the
//!   partitions of a two-by-two-tile tensor hold each element exactly `threads / owners` times.

use cute_layout::atom::{mma_atom, mma_names, Operand, TiledMma};
use cute_layout::{IntTuple, Layout, Tiler};

const OPS: [Operand; 3] = [Operand::A, Operand::B, Operand::C];

/// `layout(t, v)` for a rank-2 TV layout.
fn at(l: &Layout, t: i64, v: i64) -> i64 {
    let c: IntTuple = format!("({t},{v})").parse().unwrap();
    l.index(&c).unwrap()
}

#[test]
fn every_listed_atom_is_well_formed() {
    let names = mma_names();
    assert!(names.len() > 1500, "{}", names.len());
    for name in &names {
        let a = mma_atom(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let [m, n, k] = a.mnk();
        let threads = a.thr_id().size();
        for op in OPS {
            let Ok(l) = a.layout_tv(op) else {
                assert!(name.starts_with("SM80_16x8x128"), "{name}");
                continue;
            };
            assert_eq!(l.rank(), 2, "{name} {op:?}");
            assert_eq!(l.mode(0).unwrap().size(), threads, "{name} {op:?}");
            let cells = match op {
                Operand::A => m * k,
                Operand::B => n * k,
                Operand::C => m * n,
            };
            assert!(
                l.offsets().all(|o| (0..cells).contains(&o)),
                "{name} {op:?}"
            );
            if op == Operand::C {
                let mut seen = vec![0u32; cells as usize];
                for o in l.offsets() {
                    seen[o as usize] += 1;
                }
                assert!(seen.iter().all(|&c| c == 1), "{name}: C not a bijection");
            }
        }
    }
}

fn configs() -> Vec<(&'static str, Option<&'static str>, Option<&'static str>)> {
    vec![
        ("SM80_16x8x16_F16F16F16F16_TN", None, None),
        (
            "SM80_16x8x16_F16F16F16F16_TN",
            Some("(2,2,1):(1,2,0)"),
            None,
        ),
        (
            "SM80_16x8x16_F16F16F16F16_TN",
            Some("(2,2,1):(2,1,0)"),
            Some("(32,32,16)"),
        ),
        (
            "SM80_16x8x16_F16F16F16F16_TN",
            Some("(2,2):(1,2)"),
            Some("(32,(8,2,2):(1,16,8),16)"),
        ),
        (
            "SM80_16x8x8_F32TF32TF32F32_TN",
            Some("(1,4,1):(0,1,0)"),
            None,
        ),
        (
            "SM70_8x8x4_F32F16F16F32_NT",
            Some("(2,2,1):(1,2,0)"),
            Some("(32,32,4)"),
        ),
        (
            "SM70_8x8x4_F16F16F16F16_TN",
            Some("(2,2,1):(1,2,0)"),
            Some("(16,16,8)"),
        ),
        (
            "SM90_64x64x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>",
            Some("(2,1,1):(1,0,0)"),
            None,
        ),
        ("SM90_64x32x32_S32S8S8_RS_TN", None, None),
        (
            "SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,128,UMMA::Major::K,UMMA::Major::K>",
            None,
            None,
        ),
        (
            "UniversalFMA<float,float,float,float>",
            Some("(8,4,1):(4,1,0)"),
            Some("(8,(2,2):(2,1),2)"),
        ),
        ("SM61_DP4A", Some("(4,8,1):(1,4,0)"), None),
    ]
}

#[test]
fn tiled_mma_layouts_agree_with_partitions() {
    for (name, al, perm) in configs() {
        let al: Option<Layout> = al.map(|s| s.parse().unwrap());
        let perm: Option<Tiler> = perm.map(|s| s.parse().unwrap());
        let mma = TiledMma::new(mma_atom(name).unwrap(), al.as_ref(), perm.as_ref())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let [tm, tn, tk] = mma.tile_size_mnk();
        let threads = mma.size();
        for op in OPS {
            let (r, c) = match op {
                Operand::A => (tm, tk),
                Operand::B => (tn, tk),
                Operand::C => (tm, tn),
            };
            let tv = mma.layout_tv(op).unwrap();
            assert_eq!(tv.mode(0).unwrap().size(), threads, "{name} {op:?}");
            let offs: Vec<i64> = tv.offsets().collect();
            let tile = Layout::col_major(IntTuple::flat([r, c])).unwrap();
            let mut seen = vec![0u32; (r * c) as usize];
            for t in 0..threads {
                let (p, off) = mma.partition(op, &tile, t).unwrap();
                assert_eq!(p.size(), tv.mode(1).unwrap().size(), "{name} {op:?} t{t}");
                for (v, o) in p.offsets().enumerate() {
                    assert_eq!(
                        off + o,
                        offs[(t + v as i64 * threads) as usize],
                        "{name} {op:?} t{t} v{v}"
                    );
                    seen[(off + o) as usize] += 1;
                }
            }
            if op == Operand::C {
                assert!(
                    seen.iter().all(|&s| s == 1),
                    "{name}: C tile not covered once"
                );
            } else {
                let first = seen[0];
                assert!(
                    first > 0 && seen.iter().all(|&s| s == first),
                    "{name} {op:?}: uneven"
                );
            }
            // A tensor of two tiles per mode: the partitions together cover it evenly.
            let big = Layout::col_major(IntTuple::flat([2 * r, 2 * c])).unwrap();
            let mut seen = vec![0u32; (4 * r * c) as usize];
            for t in 0..threads {
                let (p, off) = mma.partition(op, &big, t).unwrap();
                for o in p.offsets() {
                    seen[(off + o) as usize] += 1;
                }
            }
            let first = seen[0];
            assert!(
                first > 0 && seen.iter().all(|&s| s == first),
                "{name} {op:?}: big uneven"
            );
        }
    }
}

#[test]
fn fragments() {
    let mma = TiledMma::new(
        mma_atom("SM80_16x8x16_F16F16F16F16_TN").unwrap(),
        Some(&"(2,2,1):(1,2,0)".parse().unwrap()),
        None,
    )
    .unwrap();
    let a: Layout = "(64,32):(1,64)".parse().unwrap();
    let f = mma.partition_fragment(Operand::A, &a, 3).unwrap();
    assert_eq!(f.to_string(), "((2,2,2),2,2):((1,2,4),8,16)");
    let c: Layout = "(64,32):(32,1)".parse().unwrap();
    let f = mma.partition_fragment(Operand::C, &c, 3).unwrap();
    assert_eq!(f.to_string(), "((2,2),2,2):((1,2),4,8)");
}

/// The first `(t, v)` (threads outer) that `tv` sends to each cell of a `rows x cols` tile,
/// computed independently of the renderer.
fn first_pairs(tv: &Layout, rows: i64, cols: i64) -> Vec<Option<(i64, i64)>> {
    let threads = tv.mode(0).unwrap().size();
    let values = tv.mode(1).unwrap().size();
    let offs: Vec<i64> = tv.offsets().collect();
    assert_eq!(offs[1], at(tv, 1 % threads, 1 / threads));
    let mut first = vec![None; (rows * cols) as usize];
    for t in 0..threads {
        for v in 0..values {
            let i = offs[(t + v * threads) as usize];
            if (0..rows * cols).contains(&i) && first[i as usize].is_none() {
                first[i as usize] = Some((t, v));
            }
        }
    }
    first
}

#[test]
fn mma_pictures_match_the_tv_layouts_cell_for_cell() {
    use cute_layout::render::{latex_mma, svg_mma, Style};
    for (name, al, perm) in configs() {
        let al: Option<Layout> = al.map(|s| s.parse().unwrap());
        let perm: Option<Tiler> = perm.map(|s| s.parse().unwrap());
        let mma = TiledMma::new(mma_atom(name).unwrap(), al.as_ref(), perm.as_ref()).unwrap();
        let [tm, tn, tk] = mma.tile_size_mnk();
        let svg = svg_mma(&mma, &Style::new()).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{name}: {e}"));
        let tex = latex_mma(&mma).unwrap();
        // "] at (x,y) {...};" tails of the node lines.
        let nodes: std::collections::HashSet<&str> = tex
            .lines()
            .filter_map(|l| l.find("] at (").map(|i| &l[i..]))
            .collect();
        for op in OPS {
            let (rows, cols) = match op {
                Operand::A => (tm, tk),
                Operand::B => (tn, tk),
                Operand::C => (tm, tn),
            };
            let want = first_pairs(&mma.layout_tv(op).unwrap(), rows, cols);
            let mut got = vec![None; (rows * cols) as usize];
            for n in doc
                .descendants()
                .filter(|n| n.attribute("data-op") == Some(op.name()))
            {
                let g = |k: &str| n.attribute(k).unwrap().parse::<i64>().unwrap();
                let (r, c) = (g("data-row"), g("data-col"));
                assert!(
                    got[(r + c * rows) as usize].is_none(),
                    "{name} {op:?}: cell twice"
                );
                got[(r + c * rows) as usize] = Some((g("data-t"), g("data-v")));
                // The two text lines after the cell.
                let t1 = n.next_sibling_element().unwrap();
                let t2 = t1.next_sibling_element().unwrap();
                assert_eq!(t1.text(), Some(format!("T{}", g("data-t")).as_str()));
                assert_eq!(t2.text(), Some(format!("V{}", g("data-v")).as_str()));
            }
            // CuTe's TikZ: the node of each cell at its grid position.
            for (i, p) in want.iter().enumerate() {
                let (r, c) = (i as i64 % rows, i as i64 / rows);
                let (x, y) = match op {
                    Operand::C => (r, c),
                    Operand::A => (r, c - tk - 1),
                    Operand::B => (c - tk - 1, r),
                };
                if let Some((t, v)) = p {
                    let node = format!("] at ({x},{y}) {{\\shortstack{{T{t} \\\\ V{v}}}}};");
                    assert!(nodes.contains(node.as_str()), "{name} {op:?}: no {node}");
                }
            }
            // Column-major index -> (row, col) as the picture's tile coordinates.
            assert_eq!(got, want, "{name} {op:?}");
        }
        let filled: usize = OPS
            .iter()
            .map(|&op| {
                let (r, c) = match op {
                    Operand::A => (tm, tk),
                    Operand::B => (tn, tk),
                    Operand::C => (tm, tn),
                };
                first_pairs(&mma.layout_tv(op).unwrap(), r, c)
                    .iter()
                    .flatten()
                    .count()
            })
            .sum();
        assert_eq!(tex.matches("shortstack").count(), filled, "{name}");
    }
}
