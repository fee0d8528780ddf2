//! Law checks for basis strides and identity layouts, over whole domains.

use crate::common;

use cute_layout::{BasisSum, IntTuple, Layout, LayoutError, ScaledBasis, Tiler};
use proptest::prelude::*;

/// The non-zero entries of a coordinate with their mode paths: equal for coordinates that differ
/// only by zero padding (ArithmeticTuple equality).
fn canon(t: &IntTuple) -> Vec<(Vec<usize>, i64)> {
    fn walk(t: &IntTuple, path: &mut Vec<usize>, out: &mut Vec<(Vec<usize>, i64)>) {
        match t.as_int() {
            Some(0) => {}
            Some(v) => out.push((path.clone(), v)),
            None => {
                for (k, e) in t.elements().enumerate() {
                    path.push(k);
                    walk(&e, path, out);
                    path.pop();
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(t, &mut Vec::new(), &mut out);
    out
}

fn shape_strategy() -> impl Strategy<Value = IntTuple> {
    prop::collection::vec(prop::collection::vec(1i64..=5, 1..=3), 1..=3).prop_map(|modes| {
        let ms: Vec<String> = modes
            .iter()
            .map(|m| {
                if m.len() == 1 {
                    m[0].to_string()
                } else {
                    let v: Vec<String> = m.iter().map(|x| x.to_string()).collect();
                    format!("({})", v.join(","))
                }
            })
            .collect();
        format!("({})", ms.join(",")).parse().unwrap()
    })
}

#[test]
fn identity_layout_text() {
    let id = Layout::identity("(2,(3,4))".parse().unwrap()).unwrap();
    assert_eq!(id.to_string(), "(2,(3,4)):(1@0,(1@0@1,1@1@1))"); // notes 7.1
    assert_eq!(
        Layout::identity("8".parse().unwrap()).unwrap().to_string(),
        "8:1"
    );
    for s in [
        "(4,8):(1@0,1@1)",
        "(2,(3,4)):(1@0,(1@0@1,1@1@1))",
        "(4,4):(2@1,3)",
        "8:1",
    ] {
        let l: Layout<ScaledBasis> = s.parse().unwrap();
        assert_eq!(l.to_string(), s);
    }
    let l: Layout<ScaledBasis> = "(_4,_8):(_1@0,_1@1)".parse().unwrap();
    assert_eq!(l.to_string(), "(4,8):(1@0,1@1)");
    assert!("(4,8):(1@0)".parse::<Layout<ScaledBasis>>().is_err());
    assert!("(4,8):(1@0,1@-1)".parse::<Layout<ScaledBasis>>().is_err());
    assert!("4:1@0@0@0@0@0@0@0@0@0"
        .parse::<Layout<ScaledBasis>>()
        .is_err());
    let e = Layout::identity("(4,0)".parse().unwrap()).unwrap_err();
    assert_eq!(e.kind(), "InvalidExtent");
}

#[test]
fn compose_basis_rejects_nested_selections() {
    let a: Layout = "(4,(2,3)):(6,(3,1))".parse().unwrap();
    let b: Layout<ScaledBasis> = "(2,3):(1@1,1@1@1)".parse().unwrap();
    assert_eq!(a.compose_basis(&b).unwrap_err().kind(), "NotRepresentable");
    let c: Layout<ScaledBasis> = "(2,3):(1@5,1@0)".parse().unwrap();
    assert_eq!(a.compose_basis(&c).unwrap_err().kind(), "ModeOutOfRange");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn identity_maps_every_coordinate_to_itself(shape in shape_strategy()) {
        let id = Layout::identity(shape.clone()).unwrap();
        prop_assert_eq!(id.to_string().parse::<Layout<ScaledBasis>>().unwrap(), id.clone());
        // Every point up to 4096, else 4096 spread evenly (the shape can hold 5^9 points).
        for i in common::sample(id.size(), 4096, 4096) {
            prop_assert_eq!(id.value_1d(i).unwrap(), shape.idx2crd(&IntTuple::int(i)).unwrap());
        }
        prop_assert_eq!(id.value_1d(id.size()), None);
    }

    #[test]
    fn identity_composed_with_a_layout_agrees_pointwise(
        shape in shape_strategy(),
        leaves in prop::collection::vec((1i64..=4, 0i64..=12), 1..=3),
    ) {
        let id = Layout::identity(shape.clone()).unwrap();
        let sh: Vec<String> = leaves.iter().map(|x| x.0.to_string()).collect();
        let st: Vec<String> = leaves.iter().map(|x| x.1.to_string()).collect();
        let b: Layout = format!("({}):({})", sh.join(","), st.join(",")).parse().unwrap();
        match id.compose(&b) {
            Ok(r) => {
                for i in 0..b.size() {
                    let want = id.value(&IntTuple::int(b.index_1d(i).unwrap())).unwrap();
                    prop_assert_eq!(canon(&r.value_1d(i).unwrap()), canon(&want), "{} o {} = {}", id, b, r);
                }
            }
            Err(e) => prop_assert!(matches!(e,
                LayoutError::NotRepresentable { .. } | LayoutError::StrideNotDivisible { .. }
                | LayoutError::ShapeNotDivisible { .. } | LayoutError::ModesOverlap { .. }), "{}", e),
        }
    }

    #[test]
    fn compose_basis_agrees_pointwise(
        shape in shape_strategy(),
        pick in prop::collection::vec((1i64..=3, 0usize..3, 0usize..3, 1i64..=2), 1..=3),
    ) {
        let a = Layout::col_major(shape.clone()).unwrap();
        // B: leaves selecting top-level modes (or sub-modes) of A.
        let mut sh = Vec::new();
        let mut st = Vec::new();
        for (n, m, sub, v) in pick {
            let m = m % a.rank();
            let mode = a.mode(m).unwrap();
            let path = if mode.is_leaf() { vec![m] } else { vec![m, sub % mode.rank()] };
            sh.push(n.to_string());
            st.push(ScaledBasis::new(v, &path).unwrap().to_string());
        }
        let b: Layout<ScaledBasis> = format!("({}):({})", sh.join(","), st.join(",")).parse().unwrap();
        // The definition: leaf k adds c_k * v_k to the coordinate of A's mode at its path.
        let eval = |i: i64| -> i64 {
            let c = b.shape().idx2crd(&IntTuple::int(i)).unwrap();
            let mut sums: Vec<(Vec<usize>, i64)> = Vec::new();
            for (k, d) in b.stride_leaves().iter().enumerate() {
                let p: Vec<usize> = d.path().collect();
                let add = c.leaves()[k] * d.value();
                match sums.iter_mut().find(|s| s.0 == p) {
                    Some(s) => s.1 += add,
                    None => sums.push((p, add)),
                }
            }
            sums.iter().map(|(p, x)| a.mode_at(p).unwrap().index_any(*x).unwrap()).sum()
        };
        match a.compose_basis(&b) {
            Ok(r) => {
                prop_assert_eq!(r.size(), b.size());
                for i in 0..b.size() {
                    let want = eval(i);
                    prop_assert_eq!(r.index_1d(i), Some(want), "{} o {} = {}", a, b, r);
                }
            }
            Err(e) => prop_assert!(matches!(e,
                LayoutError::NotRepresentable { .. } | LayoutError::StrideNotDivisible { .. }
                | LayoutError::ShapeNotDivisible { .. } | LayoutError::ModesOverlap { .. }), "{}", e),
        }
    }
}

/// PyCuTe's post-conditions of `make_layout_like` on a basis-strided `l`: the same shape, stride
/// 0 exactly at the stride-0 leaves (of extent above 1), the other strides the prefix products
/// of the extents in the order of (mode path, scale), and a fixed point of the integer
/// `make_layout_like`.
fn check_layout_like(l: &Layout<ScaledBasis>) -> Result<(), String> {
    let r = l.layout_like().map_err(|e| e.to_string())?;
    if r.shape() != l.shape() {
        return Err(format!("{l} -> {r}: another shape"));
    }
    let key = |d: &ScaledBasis| (d.value() != 0).then(|| (d.path().collect::<Vec<_>>(), d.value()));
    let mut live = Vec::new();
    for ((&e, d), &s) in l
        .shape_leaves()
        .iter()
        .zip(l.stride_leaves())
        .zip(r.stride_leaves())
    {
        match key(d) {
            None if e != 1 && s != 0 => return Err(format!("{l} -> {r}: stride 0 not kept")),
            Some(k) if e != 1 => live.push((k, e, s)),
            _ => {}
        }
    }
    live.sort_by(|x, y| x.0.cmp(&y.0));
    let mut at = 0;
    while at < live.len() {
        // Leaves with equal keys start at the same stride (CuTe's compact_order).
        let start: i64 = live[..at].iter().map(|t| t.1).product();
        let mut end = at;
        while end < live.len() && live[end].0 == live[at].0 {
            if live[end].2 != start {
                return Err(format!(
                    "{l} -> {r}: stride {} where {start} is due",
                    live[end].2
                ));
            }
            end += 1;
        }
        at = end;
    }
    if r.layout_like().map_err(|e| e.to_string())? != r {
        return Err(format!("{l} -> {r}: not a fixed point"));
    }
    Ok(())
}

#[test]
fn layout_like_of_basis_strides_over_a_small_domain() {
    let strides = ["0", "1@0", "2@0", "1@1", "3@1", "1@0@1", "1@1@1", "1"];
    let mut n = 0;
    for rank in 1..=3usize {
        let count = (3 * strides.len()).pow(rank as u32);
        for mut code in 0..count {
            let (mut sh, mut st) = (Vec::new(), Vec::new());
            for _ in 0..rank {
                sh.push((code % 3 + 1).to_string());
                code /= 3;
                st.push(strides[code % strides.len()]);
                code /= strides.len();
            }
            let text = format!("({}):({})", sh.join(","), st.join(","));
            let l: Layout<ScaledBasis> = text.parse().unwrap();
            check_layout_like(&l).unwrap();
            n += 1;
        }
    }
    assert!(n > 10_000);
    // NVlabs PyCuTe's own examples (test/test_make_layout.py).
    for (src, want) in [
        ("(2,3,4):(1@2,1@1,1@0)", "(2,3,4):(12,4,1)"),
        ("(2,3,4):(1@1,1@2,1@0)", "(2,3,4):(4,8,1)"),
        ("(4,3):(3@0,1@0)", "(4,3):(3,1)"),
        ("(2,3,4):(1@0@0,1@1@0,1@1)", "(2,3,4):(1,2,6)"),
        ("(2,3):(0,1@0)", "(2,3):(0,1)"),
    ] {
        let l: Layout<ScaledBasis> = src.parse().unwrap();
        assert_eq!(l.layout_like().unwrap().to_string(), want);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn layout_like_of_basis_strides_keeps_the_laws(
        leaves in prop::collection::vec((1i64..=6, -3i64..=3, 0usize..3, 0usize..3), 1..=5),
    ) {
        let sh: Vec<String> = leaves.iter().map(|x| x.0.to_string()).collect();
        let st: Vec<String> = leaves
            .iter()
            .map(|&(_, v, m, depth)| ScaledBasis::new(v, &vec![m; depth]).unwrap().to_string())
            .collect();
        let l: Layout<ScaledBasis> = format!("({}):({})", sh.join(","), st.join(",")).parse().unwrap();
        prop_assert!(check_layout_like(&l).is_ok(), "{:?}", check_layout_like(&l));
    }
}

/// Every tiler of rank 1 to 2 whose modes are an integer in 1..=3 or a layout `s:d` with `s`
/// in 1..=3 and `d` in 0..=2 (and the single-mode tilers themselves).
fn small_tilers() -> Vec<String> {
    let mut modes: Vec<String> = (1..=3).map(|n| n.to_string()).collect();
    for s in 1..=3 {
        for d in 0..=2 {
            modes.push(format!("{s}:{d}"));
        }
    }
    let mut out = modes.clone();
    for a in &modes {
        for b in &modes {
            out.push(format!("({a},{b})"));
        }
    }
    out
}

/// A tiler mode as its integer layout (`n` is `n:1`).
fn mode_layout(t: &str) -> Layout {
    if t.contains(':') {
        t.parse().unwrap()
    } else {
        format!("{t}:1").parse().unwrap()
    }
}

/// The top-level modes of a tiler's text.
fn tiler_modes(t: &str) -> Vec<String> {
    match t.strip_prefix('(').and_then(|x| x.strip_suffix(')')) {
        Some(inner) => inner.split(',').map(str::to_string).collect(),
        None => vec![t.to_string()],
    }
}

#[test]
fn tiler_to_layout_over_a_small_domain() {
    for t in small_tilers() {
        let tiler: Tiler = t.parse().unwrap();
        let r = Layout::<ScaledBasis>::from_tiler(&tiler).unwrap();
        let modes = tiler_modes(&t);
        if !t.starts_with('(') {
            // A single layout (or n:1) is itself, with plain strides.
            assert_eq!(r.to_string(), mode_layout(&t).to_string(), "{t}");
            continue;
        }
        assert_eq!(r.rank(), modes.len(), "{t} -> {r}");
        for (i, m) in modes.iter().enumerate() {
            let l = mode_layout(m);
            let ri = r.mode(i).unwrap();
            for x in 0..l.size() {
                // Mode i sends x to L_i(x) along coordinate mode i.
                let want = match l.index_1d(x).unwrap() {
                    0 => vec![],
                    v => vec![(vec![i], v)],
                };
                assert_eq!(
                    canon(&ri.value_1d(x).unwrap()),
                    want,
                    "{t} -> {r} at mode {i}, {x}"
                );
            }
        }
    }
    // A shape is its identity layout.
    for s in ["(4,5)", "(2,3,5)", "(3,(2,4))", "((2,2),(3,1))"] {
        let r = Layout::<ScaledBasis>::from_tiler(&s.parse().unwrap()).unwrap();
        assert_eq!(r, Layout::identity(s.parse().unwrap()).unwrap());
    }
    assert_eq!(
        Layout::<ScaledBasis>::from_tiler(&"(2,_)".parse().unwrap())
            .unwrap_err()
            .kind(),
        "InvalidArgument"
    );
}

#[test]
fn identity_divide_over_a_small_domain() {
    for t in small_tilers() {
        let tiler: Tiler = t.parse().unwrap();
        let logical = Layout::<ScaledBasis>::identity_divide(&tiler, false);
        let zipped = Layout::<ScaledBasis>::identity_divide(&tiler, true);
        let modes = tiler_modes(&t);
        // The injectivity law below holds for injective tiler modes (a stride-0 mode of extent
        // above 1 is skipped by the complement, as CuTe's).
        let injective = modes.iter().all(|m| {
            let l = mode_layout(m);
            l.size() == 1 || l.stride_leaves()[0] != 0
        });
        let (logical, zipped) = (logical.unwrap(), zipped.unwrap());
        let tile = Layout::<ScaledBasis>::from_tiler(&tiler).unwrap();
        if !t.starts_with('(') {
            assert_eq!(logical, zipped, "{t}");
            assert_eq!(logical.mode(0).unwrap(), tile, "{t}");
            continue;
        }
        assert_eq!(zipped.mode(0).unwrap(), tile, "{t}");
        for (i, m) in modes.iter().enumerate() {
            let (ti, ci) = (
                logical.mode(i).unwrap().mode(0).unwrap(),
                logical.mode(i).unwrap().mode(1).unwrap(),
            );
            assert_eq!(ti, tile.mode(i).unwrap(), "{t}");
            assert_eq!(zipped.mode(1).unwrap().mode(i).unwrap(), ci, "{t}");
            // (B_i, C_i) along mode i is injective for an injective B_i.
            if !injective {
                continue;
            }
            let b = mode_layout(m);
            let mut seen = std::collections::BTreeSet::new();
            for x in 0..b.size() {
                for y in 0..ci.size() {
                    let v = b.index_1d(x).unwrap()
                        + canon(&ci.value_1d(y).unwrap()).first().map_or(0, |e| e.1);
                    assert!(seen.insert(v), "{t}: ({b}, {ci}) is not injective");
                }
            }
        }
    }
}

/// The same shape and the same value at every index: CuTe's divides give an extent-1 tile mode
/// stride 0 (`make_layout(1)` is `1:0`), PyCuTe's `tiler_to_layout(1)` is `1:1`.
fn same_function(a: &Layout, b: &Layout) -> bool {
    a.shape() == b.shape() && (0..a.size()).all(|i| a.index_1d(i) == b.index_1d(i))
}

#[test]
fn divide_basis_is_zipped_divide_of_the_tuple_over_a_small_domain() {
    let mut checked = 0;
    for a0 in [2, 4, 6, 8, 12] {
        for a1 in [1, 3, 4, 8] {
            for (rows, cols) in [(1, a0), (a1, 1)] {
                let a: Layout = format!("({a0},{a1}):({rows},{cols})").parse().unwrap();
                for t in small_tilers().into_iter().filter(|t| t.starts_with('(')) {
                    let tiler: Tiler = t.parse().unwrap();
                    let b = Layout::<ScaledBasis>::from_tiler(&tiler).unwrap();
                    match (a.zipped_divide(&tiler), a.divide_basis(&b)) {
                        (Ok(want), Ok(got)) => {
                            assert!(same_function(&got, &want), "{a} / {b}: {got}, {want}");
                            checked += 1;
                        }
                        (Err(_), Err(_)) => {}
                        (x, y) => panic!("{a} / {t}: {x:?}, {a} / {b}: {y:?}"),
                    }
                }
            }
        }
    }
    assert!(checked > 500, "{checked}");
}

#[test]
fn basis_get_and_stride_text_over_a_small_domain() {
    for s in ["(4,5)", "(2,(3,2))", "((2,2),(3,1),2)", "7"] {
        let shape: IntTuple = s.parse().unwrap();
        let id = Layout::identity(shape.clone()).unwrap();
        assert_eq!(
            format!("{}:{}", id.shape(), id.stride_text()),
            id.to_string()
        );
        for i in 0..id.size() {
            let c = shape.idx2crd(&IntTuple::int(i)).unwrap();
            for (k, e) in id.stride_leaves().iter().enumerate() {
                // The entry of c at leaf k's mode path is leaf k of c.
                assert_eq!(
                    e.get(&c).unwrap(),
                    IntTuple::int(c.leaves()[k]),
                    "{s} at {c}"
                );
            }
        }
        let past = ScaledBasis::new(1, &[9]).unwrap();
        assert_eq!(past.get(&shape).unwrap_err().kind(), "ModeOutOfRange");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn basis_stride_text_round_trips(v in -50i64..50, path in prop::collection::vec(0usize..12, 0..=4)) {
        let b = ScaledBasis::new(v, &path).unwrap();
        prop_assert_eq!(b.to_string().parse::<ScaledBasis>().unwrap(), b);
        prop_assert_eq!(b.value(), v);
    }

    #[test]
    fn divide_basis_agrees_with_zipped_divide(
        a in prop::collection::vec(1i64..=12, 2..=3),
        t in prop::collection::vec((1i64..=4, 0i64..=3), 1..=3),
    ) {
        prop_assume!(t.len() <= a.len());
        let ash: Vec<String> = a.iter().map(|x| x.to_string()).collect();
        let a: Layout = format!("({})", ash.join(",")).parse::<IntTuple>().map(Layout::col_major).unwrap().unwrap();
        let tm: Vec<String> = t.iter().map(|(s, d)| format!("{s}:{d}")).collect();
        let tiler: Tiler = format!("({})", tm.join(",")).parse().unwrap();
        let b = Layout::<ScaledBasis>::from_tiler(&tiler).unwrap();
        match (a.zipped_divide(&tiler), a.divide_basis(&b)) {
            (Ok(want), Ok(got)) => prop_assert!(same_function(&got, &want), "{} / {}: {} {}", a, b, got, want),
            (Err(_), Err(_)) => {}
            (x, y) => prop_assert!(false, "{} / {}: {:?} / {:?}", a, b, x, y),
        }
    }
}

/// Layouts with strides that are sums of bases, over two modes of extents 2 and 3.
fn sum_layouts() -> Vec<Layout<BasisSum>> {
    let strides = ["1@0+1@1", "2@0", "1@1", "3@0+1@1", "0", "1@0+2@2"];
    let mut out = Vec::new();
    for (s0, s1) in [(2, 3), (4, 2), (3, 1)] {
        for a in strides {
            for b in strides {
                out.push(format!("({s0},{s1}):({a},{b})").parse().unwrap());
            }
        }
    }
    out
}

fn int_layouts() -> Vec<Layout> {
    let mut out = Vec::new();
    for s in 1..=4 {
        for d in 0..=3 {
            out.push(format!("{s}:{d}").parse().unwrap());
            out.push(format!("({s},2):({d},{})", s * d.max(1)).parse().unwrap());
        }
    }
    out
}

fn allowed(e: &LayoutError) -> bool {
    matches!(
        e,
        LayoutError::NotRepresentable { .. }
            | LayoutError::StrideNotDivisible { .. }
            | LayoutError::ShapeNotDivisible { .. }
            | LayoutError::ModesOverlap { .. }
            | LayoutError::ModeOutOfRange { .. }
    )
}

#[test]
fn basis_sum_text_and_value() {
    let l: Layout<BasisSum> = "(4,4):(1@0+1@1,3@0+1@1)".parse().unwrap();
    assert_eq!(l.to_string(), "(4,4):(1@0+1@1,3@0+1@1)");
    assert_eq!(
        l.value(&"(2,1)".parse().unwrap()).unwrap().to_string(),
        "(5,3)"
    );
    // Canonical: one term per path, sorted, zero terms dropped.
    assert_eq!(
        "2@1+1@0+1@1+0@3".parse::<BasisSum>().unwrap().to_string(),
        "1@0+3@1"
    );
    assert_eq!("1@0+-1@0".parse::<BasisSum>().unwrap().to_string(), "0");
    // A plain number does not add to a basis stride (CuTe's int + ScaledBasis).
    assert!("1+1@0".parse::<BasisSum>().is_err());
    assert!("1@0+1@1+1@2+1@3+1@4".parse::<BasisSum>().is_err());
}

#[test]
fn basis_sum_composition_over_a_small_domain() {
    let mut checked = 0;
    for a in sum_layouts() {
        for b in int_layouts() {
            match a.compose(&b) {
                Ok(r) => {
                    assert!(b.shape().compatible(&r.shape()), "{a} o {b} = {r}");
                    for i in 0..b.size() {
                        let x = IntTuple::int(b.index_1d(i).unwrap());
                        let want = a.value(&x).unwrap();
                        let got = r.value(&IntTuple::int(i)).unwrap();
                        assert_eq!(canon(&got), canon(&want), "{a} o {b} = {r} at {i}");
                    }
                    checked += 1;
                }
                Err(e) => assert!(allowed(&e), "{a} o {b}: {e}"),
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn composition_with_basis_sum_strides_on_the_right_over_a_small_domain() {
    let a: Layout = "(4,(2,3),5):(3,(1,40),7)".parse().unwrap();
    let id = Layout::identity("(4,(2,3),5)".parse().unwrap()).unwrap();
    let terms = ["1@0", "1@0+1@2", "2@1+1@0", "1@0@1+1@2", "1@1@1+2@0", "0"];
    let mut checked = 0;
    for s in 1..=4 {
        for t in terms {
            let b: Layout<BasisSum> = format!("{s}:{t}").parse().unwrap();
            match (a.compose_sum(&b), id.compose_sum(&b)) {
                (Ok(r), Ok(ri)) => {
                    for i in 0..b.size() {
                        // R(i) == A(B(i)), B(i) a coordinate of A's shape (zero padded; an
                        // entry for a tuple mode is a 1-D index into it).
                        let direct = b.value(&IntTuple::int(i)).unwrap();
                        let crd = pad_to(&direct, &a.shape());
                        assert_eq!(
                            r.index_1d(i).unwrap(),
                            a.index(&crd).unwrap(),
                            "{a} o {b} = {r} at {i}"
                        );
                        // The identity's composition is B(i) as a natural coordinate.
                        let nat = pad_to(&ri.value(&IntTuple::int(i)).unwrap(), &a.shape());
                        assert_eq!(
                            a.index(&nat).unwrap(),
                            a.index(&crd).unwrap(),
                            "{id} o {b} = {ri} at {i}"
                        );
                    }
                    checked += 1;
                }
                (Err(e), _) | (_, Err(e)) => assert!(allowed(&e), "{a} o {b}: {e}"),
            }
        }
    }
    assert!(checked > 15, "{checked}");
}

/// `c` padded with zeros to `shape`'s tree.
fn pad_to(c: &IntTuple, shape: &IntTuple) -> IntTuple {
    if c.is_int() || shape.is_int() {
        return c.clone();
    }
    IntTuple::tuple((0..shape.rank()).map(|k| {
        let s = shape.get(k).unwrap();
        c.get(k).map_or(IntTuple::int(0), |e| pad_to(&e, &s))
    }))
    .unwrap()
}

#[test]
fn basis_sum_layout_add_over_a_small_domain() {
    let ls = sum_layouts();
    let mut checked = 0;
    for a in &ls {
        for b in ls.iter().filter(|b| b.size() == a.size()) {
            match a.layout_add(b) {
                Ok(r) => {
                    for i in 0..a.size() {
                        let at = |l: &Layout<BasisSum>| canon(&l.value(&IntTuple::int(i)).unwrap());
                        let mut want = at(a);
                        for (p, v) in at(b) {
                            match want.iter_mut().find(|w| w.0 == p) {
                                Some(w) => w.1 += v,
                                None => want.push((p, v)),
                            }
                        }
                        want.retain(|w| w.1 != 0);
                        want.sort();
                        assert_eq!(at(&r), want, "{a} + {b} = {r} at {i}");
                    }
                    checked += 1;
                }
                Err(e) => assert!(
                    allowed(&e) || e.kind() == "InvalidArgument",
                    "{a} + {b}: {e}"
                ),
            }
        }
    }
    assert!(checked > 500, "{checked}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn basis_sum_text_round_trips(terms in prop::collection::vec((-9i64..9, 0usize..4, 1usize..3), 0..=4)) {
        let t: Vec<ScaledBasis> = terms.iter().map(|&(v, m, d)| ScaledBasis::new(v, &vec![m; d]).unwrap()).collect();
        if let Ok(s) = BasisSum::new(&t) {
            prop_assert_eq!(s.to_string().parse::<BasisSum>().unwrap(), s);
        }
    }

    #[test]
    fn basis_sum_composition_agrees_pointwise(
        st in prop::collection::vec(prop::collection::vec((0i64..4, 0usize..3), 0..=2), 2..=3),
        b in (1i64..=6, 0i64..=4),
    ) {
        let strides: Vec<String> = st.iter().map(|ts| {
            let t: Vec<ScaledBasis> = ts.iter().map(|&(v, m)| ScaledBasis::new(v, &[m]).unwrap()).collect();
            BasisSum::new(&t).unwrap().to_string()
        }).collect();
        let shape: Vec<String> = (0..strides.len()).map(|k| (k + 2).to_string()).collect();
        let a: Layout<BasisSum> = format!("({}):({})", shape.join(","), strides.join(",")).parse().unwrap();
        let bl: Layout = format!("{}:{}", b.0, b.1).parse().unwrap();
        match a.compose(&bl) {
            Ok(r) => for i in 0..bl.size() {
                let want = a.value(&IntTuple::int(bl.index_1d(i).unwrap())).unwrap();
                prop_assert_eq!(canon(&r.value(&IntTuple::int(i)).unwrap()), canon(&want));
            },
            Err(e) => prop_assert!(allowed(&e), "{}", e),
        }
    }
}

/// NVlabs PyCuTe's generalized right inverse (test_inverse_right.py, `test_right_inverse_coord`)
/// on the library's `Layout<ScaledBasis>::right_inverse`: `R(L(R(i))) == R(i)` and `R`'s shape
/// weakly congruent with `coprofile(L)`. The `right_inverse` op refuses basis strides (CuTe C++
/// has no such inverse and promises the integer law).
#[test]
fn right_inverse_of_basis_strides_obeys_pycutes_law() {
    for s in [
        "(4,5):(1@0,1@1)",
        "(4,5):(1@1,1@0)",
        "(4,5):(1@1,1@1@4)",
        "(4,5):(2@0,2@1)",
        "((2,2,2),(2,2,2)):((1@0,2@1,4@0),(1@1,2@0,4@1))",
        "((2,2,2),(2,2,2)):((1@0,2@1,5@0),(1@1,2@0,5@1))",
        "((2,2,2),(2,2,2)):((1@0,2@1,5@0),(1@1,2@0,4@1))",
        "((4,2),4):((1@1,4@0),1@0)",
        "((4,8),(2,2)):((2@1,1@0),(1@1,8@0))",
    ] {
        let l: Layout<ScaledBasis> = s.parse().unwrap();
        let r = l.right_inverse().unwrap();
        assert!(
            l.coprofile().unwrap().weakly_congruent(&r.shape()),
            "{s}: {r}"
        );
        for i in 0..r.size() {
            let x = r.index_1d(i).unwrap();
            let back = r.index(&l.value(&IntTuple::int(x)).unwrap()).unwrap();
            assert_eq!(back, x, "{s}: R = {r}, R(L(R({i})))");
        }
    }
}
