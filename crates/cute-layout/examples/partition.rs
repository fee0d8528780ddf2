//! Partition a 128 x 64 tile over a 32 x 4 thread layout and show what thread 5 owns.
//!
//! `local_partition(tile, thr, idx)` tiles the data by the thread layout's shape (32 x 4) and
//! gives thread `idx` the element at its own position `thr⁻¹(idx)` of every tile: a
//! `(128/32) x (64/4)` = 4 x 16 tensor. An identity tensor partitioned the same way names the
//! tile coordinates of those elements.
//!
//! Run with `cargo run --example partition`.

use cute_layout::{IdentityTensor, IntTuple, Layout, Tensor};

pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tile_layout: Layout = "(128,64):(64,1)".parse()?; // row-major 128 x 64 tile
    let thr: Layout = "(32,4):(4,1)".parse()?; // 128 threads, row-major over a 32 x 4 block
    let tile = Tensor::new((0..128 * 64).collect::<Vec<u32>>(), tile_layout.clone())?;
    let coords = IdentityTensor::new("(128,64)".parse()?)?;

    let idx = 5;
    let mine = tile.local_partition(&thr, idx)?;
    let my_coords = coords.local_partition(&thr, idx)?;
    println!("tile {tile_layout}, threads {thr}");
    println!(
        "thread {idx} sits at {} of the thread block; its partition has layout {} (shape {})",
        thr.coord(idx)?,
        mine.layout(),
        mine.shape()
    );
    println!("its elements (row, column) -> storage offset:");
    for i in 0..4 {
        let row: Vec<String> = (0..16)
            .map(|j| {
                let c = IntTuple::flat([i, j]);
                let crd = my_coords.get(&c).unwrap();
                format!("{crd}->{}", mine.get(&c).unwrap())
            })
            .collect();
        println!("  {}", row.join(" "));
    }

    // Every element of the tile belongs to exactly one thread.
    let mut owner = vec![None; 128 * 64];
    for t in 0..thr.size() {
        for &v in tile.local_partition(&thr, t)?.iter() {
            assert!(owner[v as usize].is_none(), "element {v} owned twice");
            owner[v as usize] = Some(t);
        }
    }
    assert!(owner.iter().all(Option::is_some));
    println!(
        "checked: the {} partitions cover all {} elements once",
        thr.size(),
        128 * 64
    );
    Ok(())
}
