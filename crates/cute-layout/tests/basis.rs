//! Law checks for basis strides and identity layouts, over whole domains.

use cute_layout::{IntTuple, Layout, LayoutError, ScaledBasis};
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
        for i in 0..id.size() {
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
