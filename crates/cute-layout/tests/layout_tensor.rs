//! Tensors without data (`LayoutTensor`: counting and coordinate tensors) checked against their
//! definitions on whole domains, for random layouts, swizzles, tilers and thread layouts.

use crate::common;

use cute_layout::{
    ComposedLayout, IntTuple, Layout, LayoutTensor, Slice, SliceCoord, TensorValue, Tiler,
};
use proptest::prelude::*;

/// The values of a rank-2 tensor as a grid `[m][n]` (each index 1-D within its mode).
fn grid(t: &LayoutTensor) -> Vec<Vec<TensorValue>> {
    let e: Vec<i64> = t.shape().elements().map(|m| m.size().unwrap()).collect();
    (0..e[0])
        .map(|m| {
            (0..e[1])
                .map(|n| t.value(&IntTuple::flat([m, n])).unwrap())
                .collect()
        })
        .collect()
}

/// A rank-2 layout with power-of-two extents, its leaves' strides a permutation of the compact
/// ones (so it is a bijection onto `0..size`, as a swizzled tile of shared memory is), with an
/// optional swizzle whose bits lie inside it, and a base.
fn counting_tensor() -> impl Strategy<Value = LayoutTensor> {
    (
        1u32..4,
        1u32..4,
        any::<bool>(),
        0u32..4,
        0u32..3,
        1i32..4,
        -20i64..20,
    )
        .prop_map(|(a, b, row, bits, base, shift, origin)| {
            let l = common::pow2_tile(a, b, row);
            let total = a + b;
            let bits = bits.min(total.saturating_sub(base + shift as u32));
            let c = if bits > 0 && shift as u32 >= bits {
                common::swizzled(l, bits as i64, base as i64, shift as i64)
            } else {
                ComposedLayout::from(l)
            };
            LayoutTensor::counting(origin, c)
        })
}

fn coord_tensor() -> impl Strategy<Value = LayoutTensor> {
    (1i64..7, 1i64..7).prop_map(|(m, n)| LayoutTensor::identity(IntTuple::flat([m, n])).unwrap())
}

fn any_tensor() -> impl Strategy<Value = LayoutTensor> {
    prop_oneof![counting_tensor(), coord_tensor()]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The text form round-trips.
    #[test]
    fn text_round_trips(t in any_tensor()) {
        let back: LayoutTensor = t.to_string().parse().unwrap();
        prop_assert_eq!(back.to_string(), t.to_string());
        prop_assert_eq!(grid(&back), grid(&t));
    }

    /// Law: `slice((i,_))(j) == T(i,j)` and `slice((_,j))(i) == T(i,j)` everywhere.
    #[test]
    fn slices_agree_with_the_tensor(t in any_tensor()) {
        let g = grid(&t);
        for (i, row) in g.iter().enumerate() {
            let r = t.slice(&SliceCoord::flat([Slice::At(i as i64), Slice::All])).unwrap();
            for (j, v) in row.iter().enumerate() {
                prop_assert_eq!(&r.value(&IntTuple::int(j as i64)).unwrap(), v, "{} row {}: {}", t, i, r);
            }
        }
        for j in 0..g[0].len() {
            let c = t.slice(&SliceCoord::flat([Slice::All, Slice::At(j as i64)])).unwrap();
            for (i, row) in g.iter().enumerate() {
                prop_assert_eq!(&c.value(&IntTuple::int(i as i64)).unwrap(), &row[j], "{} col {}: {}", t, j, c);
            }
        }
    }

    /// Law: a tile's value at `(m,n)` is `T(bm*tm + m, bn*tn + n)`, for tilers that divide.
    #[test]
    fn local_tiles_agree_with_the_tensor(t in any_tensor(), tm in 0u32..3, tn in 0u32..3, proj in any::<bool>()) {
        let g = grid(&t);
        let (em, en) = (g.len() as i64, g[0].len() as i64);
        let (tm, tn) = (1i64 << tm, 1i64 << tn);
        prop_assume!(em % tm == 0 && en % tn == 0);
        for bm in 0..em / tm {
            for bn in 0..en / tn {
                let tile = if proj {
                    // Step<_1,X,_1> over an (M, N, K)-shaped tiler: the middle mode is dropped.
                    let tiler: Tiler = format!("({tm},9,{tn})").parse().unwrap();
                    let p: SliceCoord = "(1,_,1)".parse().unwrap();
                    t.local_tile(&tiler, &IntTuple::flat([bm, 5, bn]), Some(&p)).unwrap()
                } else {
                    let tiler: Tiler = format!("({tm},{tn})").parse().unwrap();
                    t.local_tile(&tiler, &IntTuple::flat([bm, bn]), None).unwrap()
                };
                let tg = grid(&tile);
                for m in 0..tm {
                    for n in 0..tn {
                        prop_assert_eq!(&tg[m as usize][n as usize], &g[(bm * tm + m) as usize][(bn * tn + n) as usize]);
                    }
                }
            }
        }
    }

    /// Law: thread `thr(a,b)` of a column-major thread grid holds `T(i*T0 + a, j*T1 + b)`, and
    /// the partitions together hold every value once.
    #[test]
    fn local_partitions_cover_the_tensor(t in any_tensor(), t0 in 0u32..3, t1 in 0u32..3, row in any::<bool>()) {
        let g = grid(&t);
        let (em, en) = (g.len() as i64, g[0].len() as i64);
        let (t0, t1) = (1i64 << t0, 1i64 << t1);
        prop_assume!(em % t0 == 0 && en % t1 == 0);
        let thr: Layout = if row { format!("({t0},{t1}):({t1},1)") } else { format!("({t0},{t1}):(1,{t0})") }.parse().unwrap();
        let mut seen = 0;
        for a in 0..t0 {
            for b in 0..t1 {
                let idx = thr.index(&IntTuple::flat([a, b])).unwrap();
                let p = t.local_partition(&thr, idx, None).unwrap();
                let pg = grid(&p);
                for (i, r) in pg.iter().enumerate() {
                    for (j, v) in r.iter().enumerate() {
                        prop_assert_eq!(v, &g[(i as i64 * t0 + a) as usize][(j as i64 * t1 + b) as usize]);
                        seen += 1;
                    }
                }
            }
        }
        prop_assert_eq!(seen, em * en);
    }

    /// Law: `partition_tv(T, tv, t)(v) == T(tv(t, v))` for a TV layout that is a permutation
    /// of the tensor's 1-D indices.
    #[test]
    fn tv_partitions_agree_with_the_tensor(t in any_tensor(), split in 0u32..4, row in any::<bool>()) {
        let size = t.size();
        let nt = 1i64 << split.min(size.trailing_zeros());
        let nv = size / nt;
        prop_assume!(nt * nv == size);
        let tv: Layout = if row { format!("({nt},{nv}):({nv},1)") } else { format!("({nt},{nv}):(1,{nt})") }.parse().unwrap();
        for tid in 0..nt {
            // The coordinates of a TV layout's values are a basis-strided layout only where its
            // modes split the shape evenly (elsewhere the refusal is typed); a counting tensor's
            // always compose here.
            let p = match (t.partition_tv(&tv, tid), &t) {
                (Ok(p), _) => p,
                (Err(_), LayoutTensor::Coords(_)) => return Ok(()),
                (Err(e), _) => panic!("{t} {tv} {tid}: {e}"),
            };
            for v in 0..nv {
                let i = tv.index(&IntTuple::flat([tid, v])).unwrap();
                prop_assert_eq!(p.value(&IntTuple::int(v)).unwrap(), t.value(&IntTuple::int(i)).unwrap());
            }
        }
    }

    /// `print_tensor` has the header line and one line per row for rank 2, and its cells are
    /// the values in order.
    #[test]
    fn print_tensor_lists_the_values(t in any_tensor()) {
        let text = t.print_tensor().unwrap();
        let g = grid(&t);
        let lines: Vec<&str> = text.lines().collect();
        prop_assert_eq!(lines[0], format!("{t}:"));
        prop_assert_eq!(lines.len(), 1 + g.len());
        for (line, row) in lines[1..].iter().zip(&g) {
            let want: String = row.iter().map(|v| match v {
                TensorValue::Int(x) => format!("{x:>5}"),
                TensorValue::Coord(c) => format!("  {c}"),
                other => unreachable!("{other}"),
            }).collect();
            prop_assert_eq!(*line, want.as_str());
        }
    }

    /// Law: `batch_reduce` and `logical_reduce((_,0))` / `((0,_))` are the sums of the columns
    /// and rows of the grid.
    #[test]
    fn reductions_are_sums(t in counting_tensor()) {
        let g = grid(&t);
        let int = |v: &TensorValue| match v { TensorValue::Int(x) => *x, _ => unreachable!() };
        let cols: Vec<i64> = (0..g[0].len()).map(|j| g.iter().map(|r| int(&r[j])).sum()).collect();
        let rows: Vec<i64> = g.iter().map(|r| r.iter().map(int).sum()).collect();
        let b: Vec<i64> = t.batch_reduce().unwrap().iter().map(int).collect();
        prop_assert_eq!(&b, &cols);
        let lc: Vec<i64> = t.logical_reduce(&"(0,_)".parse().unwrap()).unwrap().iter().map(int).collect();
        prop_assert_eq!(&lc, &cols);
        let lr: Vec<i64> = t.logical_reduce(&"(_,0)".parse().unwrap()).unwrap().iter().map(int).collect();
        prop_assert_eq!(&lr, &rows);
    }
}
