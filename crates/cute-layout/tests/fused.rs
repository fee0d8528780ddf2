//! The one-pass kernels of zipped divide and blocked/raked product must give exactly what the
//! definitions give, result and error alike: `zipped_divide` gathers the modes of
//! `logical_divide` as `((tiles...), (rests..., modes past the tiler...))`, and the blocked
//! (raked) product zips the two modes of `logical_product` as `((a_i, b*_i))_i`
//! (`((b*_i, a_i))_i`).

use cute_layout::{Layout, LayoutError, Tiler};

const LAYOUTS: &[&str] = &[
    "(8,4):(1,8)",
    "(4,6):(6,1)",
    "(128,64):(64,1)",
    "(256,128):(1,256)",
    "(2,(3,4)):(12,(1,3))",
    "((2,2),(4,2)):((1,16),(2,32))",
    "(6,4):(0,1)",
    "(4,8):(-1,4)",
    "(12,8,3):(1,12,96)",
    "(9,(4,8)):(59,(13,1))",
];

const TILERS: &[&str] = &[
    "(2,2)",
    "(32,16)",
    "<4:2,2:1>",
    "<2:1,(2,2):(1,4)>",
    "<3:1,4:1>",
    "<1:0,8:1>",
    "(4,2,3)",
    "<2:0,2:1>",
    "4",
    "4:2",
];

const TILES: &[&str] = &[
    "(2,2):(1,2)",
    "(4,2):(1,4)",
    "(2,4):(4,1)",
    "(3,2):(2,1)",
    "(2,(2,2)):(1,(2,4))",
    "(1,2):(0,1)",
    "(2,3,2):(1,2,6)",
    "4:1",
];

/// Compares; true if both are layouts.
fn same(got: Result<Layout, LayoutError>, want: Result<Layout, LayoutError>, what: &str) -> bool {
    match (got, want) {
        (Ok(g), Ok(w)) => {
            assert_eq!(g.to_string(), w.to_string(), "{what}");
            true
        }
        (Err(g), Err(w)) => {
            assert_eq!(g.kind(), w.kind(), "{what}: {g} vs {w}");
            false
        }
        (g, w) => panic!("{what}: {g:?} vs {w:?}"),
    }
}

fn zipped_def(a: &Layout, t: &Tiler) -> Result<Layout, LayoutError> {
    let ld = a.logical_divide(t)?;
    let n = match t {
        Tiler::Modes(ts) => ts.len(),
        _ => return Ok(ld),
    };
    let mut tiles = Vec::new();
    let mut rests = Vec::new();
    for (k, m) in ld.modes().enumerate() {
        if k < n {
            if m.is_leaf() || m.rank() != 2 {
                return Err(LayoutError::RankMismatch {
                    op: "zipped_divide",
                    expected: 2,
                    found: m.rank(),
                });
            }
            tiles.push(m.mode(0).unwrap());
            rests.push(m.mode(1).unwrap());
        } else {
            rests.push(m);
        }
    }
    Layout::from_modes([Layout::from_modes(tiles)?, Layout::from_modes(rests)?])
}

fn rank_product_def(a: &Layout, b: &Layout, raked: bool) -> Result<Layout, LayoutError> {
    let p = a.logical_product(&Tiler::Layout(b.clone()))?;
    let (x, y) = (p.mode(0).unwrap(), p.mode(1).unwrap());
    let (first, second) = if raked { (y, x) } else { (x, y) };
    let pairs = (0..first.rank())
        .map(|i| Layout::from_modes([first.mode(i).unwrap(), second.mode(i).unwrap()]))
        .collect::<Result<Vec<_>, _>>()?;
    Layout::from_modes(pairs)
}

#[test]
fn zipped_divide_matches_the_definition() {
    let mut ok = 0;
    for a in LAYOUTS {
        let l: Layout = a.parse().unwrap();
        for t in TILERS {
            let t: Tiler = t.parse().unwrap();
            ok += usize::from(same(
                l.zipped_divide(&t),
                zipped_def(&l, &t),
                &format!("zipped_divide {a} {t:?}"),
            ));
        }
    }
    assert!(ok >= 40, "only {ok} results");
}

#[test]
fn blocked_and_raked_products_match_the_definition() {
    let mut ok = 0;
    for a in LAYOUTS {
        let l: Layout = a.parse().unwrap();
        for b in TILES {
            let b: Layout = b.parse().unwrap();
            if l.rank() != b.rank() {
                continue;
            }
            for raked in [false, true] {
                let got = if raked {
                    l.raked_product(&b)
                } else {
                    l.blocked_product(&b)
                };
                ok += usize::from(same(
                    got,
                    rank_product_def(&l, &b, raked),
                    &format!("{raked} {a} {b}"),
                ));
            }
        }
    }
    assert!(ok >= 40, "only {ok} results");
}
