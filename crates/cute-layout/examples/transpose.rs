//! Transpose a matrix through layouts: the same copy, two layouts.
//!
//! The source is a row-major `M x N` matrix, `(M,N):(N,1)`. The destination buffer should hold
//! the transpose, an `N x M` row-major matrix: element `(i,j)` of the source goes to position
//! `j*M + i`, which is the column-major layout `(M,N):(1,M)` of the *source's* shape. So a
//! transpose is `copy(src, dst)` where `dst` views its buffer as `(M,N):(1,M)`: no index
//! arithmetic in user code.
//!
//! Run with `cargo run --example transpose`.

use cute_layout::{IntTuple, Layout, Tensor};

pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (m, n) = (4i64, 6i64);
    let src_layout: Layout = format!("({m},{n}):({n},1)").parse()?;
    let dst_layout: Layout = format!("({m},{n}):(1,{m})").parse()?;
    let src = Tensor::new((0..m * n).collect::<Vec<i64>>(), src_layout.clone())?;
    let mut dst = Tensor::new(vec![0i64; (m * n) as usize], dst_layout.clone())?;
    dst.copy_from(&src)?;

    println!("source {src_layout} (row-major {m} x {n}):");
    print_rows(src.data(), n);
    println!(
        "destination buffer, viewed by the copy as {dst_layout}; it is the {n} x {m} transpose:"
    );
    print_rows(dst.data(), m);

    // The buffer read row-major as N x M is the transpose of the source.
    let t = Tensor::new(dst.data(), format!("({n},{m}):({m},1)").parse::<Layout>()?)?;
    for i in 0..m {
        for j in 0..n {
            let a = src.get(&IntTuple::flat([i, j]))?;
            let b = t.get(&IntTuple::flat([j, i]))?;
            assert_eq!(a, b, "transpose differs at ({i},{j})");
        }
    }
    println!("checked: dst[j][i] == src[i][j] for all {} elements", m * n);
    Ok(())
}

fn print_rows(data: &[i64], width: i64) {
    for row in data.chunks(width as usize) {
        let cells: Vec<String> = row.iter().map(|v| format!("{v:3}")).collect();
        println!("  {}", cells.join(""));
    }
}
