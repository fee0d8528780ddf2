//! The fast kernels behind `compose_tiler`, `logical_divide` and `logical_product` (layout,
//! integer and flat tuple tilers) must give exactly what the definitions give, result and error
//! alike: `a ∘ t` by `compose`, `a ⊘ t = a ∘ (t, complement(t, shape(coalesce(a))))` and
//! `a ⊗ b = (a, complement(a, size(a) * cosize(b)) ∘ b)`, mode by mode for a tuple tiler (modes
//! past the tiler kept, except by composition, which drops them).

use crate::common;

use cute_layout::{Layout, LayoutError, Tiler};

const LAYOUTS: &[&str] = &[
    "1:0",
    "8:1",
    "12:2",
    "(4,6):(1,4)",
    "(4,6):(6,1)",
    "(128,64):(64,1)",
    "(2,(3,4)):(12,(1,3))",
    "((2,2),(4,2)):((1,16),(2,32))",
    "(6,4):(0,1)",
    "(3,1,5):(5,0,1)",
    "(4,8):(-1,4)",
    "(9,(4,8)):(59,(13,1))",
];

const TILERS: &[&str] = &[
    "1:0",
    "2:1",
    "4:2",
    "3:1",
    "(2,2):(1,4)",
    "4:3",
    "(2,3):(3,1)",
    "6:1",
    "2:0",
    "8:-1",
];

fn divide_def(a: &Layout, t: &Layout) -> Result<Layout, LayoutError> {
    let comp = t.complement_shape(&a.coalesce().shape())?;
    a.compose(&Layout::from_modes([t.clone(), comp])?)
}

fn product_def(a: &Layout, b: &Layout) -> Result<Layout, LayoutError> {
    let m = a.size() * i64::try_from(b.cosize()).unwrap();
    let comp = match a.complement(m) {
        Err(LayoutError::NotComplementable { .. }) => common::product_chain_def(a, m)?,
        c => c?,
    };
    Layout::from_modes([a.clone(), comp.compose(b)?])
}

fn same(got: Result<Layout, LayoutError>, want: Result<Layout, LayoutError>, what: &str) {
    match (got, want) {
        (Ok(g), Ok(w)) => assert_eq!(g.to_string(), w.to_string(), "{what}"),
        (Err(g), Err(w)) => assert_eq!(g.kind(), w.kind(), "{what}: {g} vs {w}"),
        (g, w) => panic!("{what}: {g:?} vs {w:?}"),
    }
}

/// The definition mode by mode for a tuple tiler (modes past the tiler kept or dropped).
fn by_mode(
    a: &Layout,
    ts: &[Layout],
    f: fn(&Layout, &Layout) -> Result<Layout, LayoutError>,
    keep: bool,
) -> Result<Layout, LayoutError> {
    let mut modes = Vec::new();
    for (k, m) in a.modes().enumerate() {
        match ts.get(k) {
            Some(t) => modes.push(f(&m, t)?),
            None if keep => modes.push(m),
            None => {}
        }
    }
    Layout::from_modes(modes)
}

fn compose_def(a: &Layout, t: &Layout) -> Result<Layout, LayoutError> {
    a.compose(t)
}

#[test]
fn kernels_match_the_definitions() {
    let layouts: Vec<Layout> = LAYOUTS.iter().map(|s| s.parse().unwrap()).collect();
    let tilers: Vec<Layout> = TILERS.iter().map(|s| s.parse().unwrap()).collect();
    for a in &layouts {
        for t in &tilers {
            let what = format!("{a} by {t}");
            let tl = Tiler::Layout(t.clone());
            same(a.logical_divide(&tl), divide_def(a, t), &what);
            same(a.logical_product(&tl), product_def(a, t), &what);
            same(a.compose_tiler(&tl), compose_def(a, t), &what);
            // a tuple tiler with a layout first and an integer second
            if a.rank() >= 2 {
                for n in [1i64, 2, 4] {
                    let tiler = Tiler::Modes(vec![Tiler::Layout(t.clone()), Tiler::Int(n)]);
                    let int = if n == 1 { "1:0" } else { "_:1" }.replace('_', &n.to_string());
                    let ts = [t.clone(), int.parse().unwrap()];
                    let what = format!("{a} by {tiler}");
                    let want = by_mode(a, &ts, divide_def, true);
                    same(a.logical_divide(&tiler), want, &what);
                    let want = by_mode(a, &ts, product_def, true);
                    same(a.logical_product(&tiler), want, &what);
                    // composition: an integer n is n:1, also for n == 1; later modes dropped
                    let cts = [t.clone(), format!("{n}:1").parse().unwrap()];
                    let want = by_mode(a, &cts, compose_def, false);
                    same(a.compose_tiler(&tiler), want, &what);
                    let first = Tiler::Modes(vec![Tiler::Int(n)]);
                    let want = by_mode(a, &cts[1..], compose_def, false);
                    same(a.compose_tiler(&first), want, &format!("{a} by {first}"));
                }
            }
        }
    }
}
