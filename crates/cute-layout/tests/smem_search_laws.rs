//! The laws of `smem_search::search` on a grid of access patterns of a 32 x 32 tile (rows and
//! columns, scalar and vector, 2-, 4- and 8-byte elements): the first result takes no more
//! wavefronts than any other candidate (the row-major, column-major and padded tiles among them),
//! has at least as wide vectors among those with as few, and is a bijection onto its offsets; `evaluate` of the first result
//! reproduces it. Address lanes: all 32 is the default, and fewer never cost more wavefronts or
//! conflicts, nor change the requests or vectors.

use cute_layout::gpu::smem_search::{search, Problem};
use cute_layout::render::Banks;
use cute_layout::Layout;

/// TV layouts of 256 threads over the 32 x 32 tile (index r + 32 c).
const PATTERNS: &[&str] = &[
    "((32,8),4):((32,1),8)",   // a warp along a row, 4 rows 8 apart (scalar)
    "((32,8),4):((1,32),256)", // a warp down a column (scalar)
    "((8,32),4):((128,1),32)", // 8 threads x 4 consecutive columns (vectors along rows)
    "((8,32),4):((4,32),1)",   // 8 threads x 4 consecutive rows (vectors down columns)
];

/// Every problem of the grid: write pattern `w`, read pattern `r` (both of `PATTERNS`) and
/// `elem`-byte elements (2, 4, 8), on the 32 x 32 tile and 32 banks.
fn for_each_problem(mut f: impl FnMut(&str, &str, i64, &Problem)) {
    for elem in [2, 4, 8] {
        for w in PATTERNS {
            for r in PATTERNS {
                let (wl, rl): (Layout, Layout) = (w.parse().unwrap(), r.parse().unwrap());
                let p = Problem::new(
                    "(32,32)".parse().unwrap(),
                    wl,
                    rl,
                    Banks::new(32, elem).unwrap(),
                )
                .unwrap();
                f(w, r, elem, &p);
            }
        }
    }
}

#[test]
fn best_is_no_worse_than_every_baseline() {
    for_each_problem(|w, r, elem, p| {
        let ranked = search(p).unwrap();
        let best = &ranked[0];
        for other in &ranked {
            assert!(
                best.wavefronts() <= other.wavefronts(),
                "{w} {r} {elem}: {best} vs {other}"
            );
            if best.wavefronts() == other.wavefronts() {
                assert!(
                    best.write.vector_bytes + best.read.vector_bytes
                        >= other.write.vector_bytes + other.read.vector_bytes,
                    "{w} {r} {elem}: {best} vs {other}"
                );
            }
        }
        let mut offs: Vec<i64> = best.layout.offsets().collect();
        offs.sort_unstable();
        offs.dedup();
        assert_eq!(offs.len(), 1024, "{w} {r} {elem}: {best} is not injective");
        let again = p.evaluate(&best.layout).unwrap();
        assert_eq!((again.write, again.read), (best.write, best.read));
    });
}

#[test]
fn fewer_address_lanes_never_cost_more() {
    for_each_problem(|_, _, _, p| {
        for smem in [
            "(32,32):(32,1)",
            "(32,32):(33,1)",
            "Sw<3,2,5> o 0 o (32,32):(32,1)",
        ] {
            let smem = smem.parse().unwrap();
            let all = p.evaluate(&smem).unwrap();
            let same = p
                .clone()
                .address_lanes(32, 32)
                .unwrap()
                .evaluate(&smem)
                .unwrap();
            assert_eq!(all, same);
            let mut prev = all;
            for lanes in [16, 8, 4, 1] {
                let e = p
                    .clone()
                    .address_lanes(lanes, lanes)
                    .unwrap()
                    .evaluate(&smem)
                    .unwrap();
                for (a, b) in [(&e.write, &prev.write), (&e.read, &prev.read)] {
                    assert!(a.wavefronts <= b.wavefronts && a.conflicts() <= b.conflicts());
                    assert_eq!((a.requests, a.vector), (b.requests, b.vector));
                }
                prev = e;
            }
        }
    });
}
