//! `Layout::offsets` has a fast internal iteration (`fold`, used by `sum`, `for_each`,
//! `collect`...) besides `next`: both must give `index_1d(i)` for every `i`, also after the
//! iterator was partly consumed with `next`.

use cute_layout::Layout;

const LAYOUTS: &[&str] = &[
    "1:0",
    "7:3",
    "(1,1):(0,0)",
    "(2,4):(12,1)",
    "(3,1,5):(1,0,3)",
    "((4,8),(2,4,16)):((64,1),(8,16,256))",
    "((2,3),(1,5),2):((-1,4),(0,7),100)",
    "(4,8):(0,-2)",
];

#[test]
fn fold_and_next_agree_with_index_1d_from_every_start() {
    for text in LAYOUTS {
        let l: Layout = text.parse().unwrap();
        let want: Vec<i64> = (0..l.size()).map(|i| l.index_1d(i).unwrap()).collect();
        let by_next: Vec<i64> = {
            let mut it = l.offsets();
            std::iter::from_fn(|| it.next()).collect()
        };
        assert_eq!(by_next, want, "next() over {text}");
        for skip in 0..want.len() {
            let mut it = l.offsets();
            for _ in 0..skip {
                it.next();
            }
            let rest: Vec<i64> = it.fold(Vec::new(), |mut v, x| {
                v.push(x);
                v
            });
            assert_eq!(rest, want[skip..], "fold over {text} after {skip} steps");
        }
    }
}
