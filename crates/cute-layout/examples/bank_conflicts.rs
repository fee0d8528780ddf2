//! Stage a tile through shared memory with and without a swizzle and count bank conflicts.
//!
//! Bank model (NVIDIA shared memory): 32 banks, 4 bytes wide; the byte address `a` lies in bank
//! `(a / 4) % 32`. A warp (32 threads) accesses one element each. Threads that hit the same
//! 4-byte word are served together (broadcast); distinct words in the same bank are served one
//! after another. The access takes as many *wavefronts* as the largest number of distinct words
//! any bank must serve; `wavefronts - 1` are the conflicts.
//!
//! The kernel shape being modelled: a 32 x 32 tile of f32 is read from global memory row by
//! row (warp `w` stores row `w`, thread `t` column `t`), then read back column by column (warp
//! `w` reads column `w`, thread `t` row `t`), as in a transpose. With the row-major shared
//! layout `(32,32):(32,1)` the column reads put all 32 threads in one bank. Composing the layout
//! with `Sw<5,0,5>` (XOR the row number into the column bits) spreads every column over all
//! banks; the row accesses stay conflict-free. A second case stages a 16-bit 32 x 64 tile with
//! `Sw<3,3,3>` the way 128-bit (8-element) vector accesses do.
//!
//! Run with `cargo run --example bank_conflicts`.

use cute_layout::{ComposedLayout, IntTuple, Swizzle};

/// Wavefronts for one warp access: `offsets` are element offsets, `bytes` the element size.
fn wavefronts(offsets: &[i64], bytes: i64) -> usize {
    let mut words_per_bank: Vec<Vec<i64>> = vec![Vec::new(); 32];
    for &o in offsets {
        let word = o * bytes / 4;
        let bank = word.rem_euclid(32) as usize;
        if !words_per_bank[bank].contains(&word) {
            words_per_bank[bank].push(word);
        }
    }
    words_per_bank.iter().map(Vec::len).max().unwrap_or(0)
}

/// Total wavefronts of a sequence of warp accesses (each a list of coordinates) on `smem`.
fn total(smem: &ComposedLayout, warps: &[Vec<IntTuple>], bytes: i64) -> usize {
    warps
        .iter()
        .map(|w| {
            let offs: Vec<i64> = w.iter().map(|c| smem.index(c).unwrap()).collect();
            wavefronts(&offs, bytes)
        })
        .sum()
}

fn report(
    name: &str,
    smem: &ComposedLayout,
    phases: &[(&str, Vec<Vec<IntTuple>>)],
    bytes: i64,
    unit: &str,
) -> Vec<usize> {
    println!("{name}: {smem}");
    let mut out = Vec::new();
    for (what, warps) in phases {
        let w = total(smem, warps, bytes);
        let ideal = warps.len();
        println!(
            "  {what:<28} {w:5} wavefronts for {ideal} {unit} ({} conflicts)",
            w - ideal
        );
        out.push(w);
    }
    out
}

pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Case 1: 32 x 32 f32, row-wise stores, column-wise loads.
    let rows: Vec<Vec<IntTuple>> = (0..32)
        .map(|w| (0..32).map(|t| IntTuple::flat([w, t])).collect())
        .collect();
    let cols: Vec<Vec<IntTuple>> = (0..32)
        .map(|w| (0..32).map(|t| IntTuple::flat([t, w])).collect())
        .collect();
    let phases = [
        ("store rows (thread = col)", rows),
        ("load columns (thread = row)", cols),
    ];
    let plain: ComposedLayout = "(32,32):(32,1)".parse()?;
    let sw = Swizzle::new(5, 0, 5)?;
    let swizzled = sw.compose_layout(plain.layout());
    let a = report("plain   ", &plain, &phases, 4, "warp accesses");
    let b = report("swizzled", &swizzled, &phases, 4, "warp accesses");
    assert_eq!(
        a,
        [32, 32 * 32],
        "column loads of the plain layout are 32-way conflicts"
    );
    assert_eq!(b, [32, 32], "the swizzle removes every conflict");
    // Same set of offsets: the swizzle permutes the tile within its 4 KiB.
    let mut o: Vec<i64> = swizzled.offsets().collect();
    o.sort();
    assert_eq!(o, (0..1024).collect::<Vec<_>>());

    // Case 2: 32 x 64 half-precision tile, row-major in shared memory. Each thread moves one
    // 128-bit vector (8 halves); a warp access covers 32 vectors. Stores: warp w stores rows
    // 4w..4w+4 (8 vectors per row). Loads (as for an operand read down the columns): warp w reads
    // vector column w of all 32 rows (one vector per row).
    let vec_store: Vec<Vec<IntTuple>> = (0..8)
        .map(|w| {
            (0..32)
                .map(|t| IntTuple::flat([4 * w + t / 8, 8 * (t % 8)]))
                .collect()
        })
        .collect();
    let vec_load: Vec<Vec<IntTuple>> = (0..8)
        .map(|w| (0..32).map(|t| IntTuple::flat([t, 8 * w])).collect())
        .collect();
    // A 16-byte vector spans 4 banks; model it by its 4 words (offsets of halves 0,2,4,6).
    let expand = |warps: &Vec<Vec<IntTuple>>| -> Vec<Vec<IntTuple>> {
        warps
            .iter()
            .map(|w| {
                w.iter()
                    .flat_map(|c| {
                        let (r, col) = (c.leaves()[0], c.leaves()[1]);
                        (0..4).map(move |k| IntTuple::flat([r, col + 2 * k]))
                    })
                    .collect()
            })
            .collect()
    };
    // 128 threads' worth of vector accesses are split into quarter-warps of 8 vectors each, as
    // the hardware serves 128-bit accesses: 8 threads x 16 bytes = 128 bytes per wavefront.
    let quarter = |warps: Vec<Vec<IntTuple>>| -> Vec<Vec<IntTuple>> {
        warps
            .iter()
            .flat_map(|w| w.chunks(32).map(<[IntTuple]>::to_vec).collect::<Vec<_>>())
            .collect()
    };
    let phases2 = [
        ("store 128-bit row vectors", quarter(expand(&vec_store))),
        ("load 128-bit column vectors", quarter(expand(&vec_load))),
    ];
    let plain2: ComposedLayout = "(32,64):(64,1)".parse()?;
    let swizzled2 = Swizzle::new(3, 3, 3)?.compose_layout(plain2.layout());
    let c = report("plain   ", &plain2, &phases2, 2, "quarter-warp accesses");
    let d = report("swizzled", &swizzled2, &phases2, 2, "quarter-warp accesses");
    assert_eq!(
        c,
        [32, 256],
        "column vector loads of the plain layout are 8-way conflicts"
    );
    assert_eq!(d, [32, 32], "the swizzle removes every conflict");
    Ok(())
}
