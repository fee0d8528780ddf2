//! Property tests of the text form and the coordinate maps on random values (depth <= 3,
//! extents <= 8, strides in -16..=16). Values are built with the programmatic constructors, so the
//! parser is tested against something it did not produce.

use crate::common;

use cute_layout::{IntTuple, Layout};
use proptest::prelude::*;

/// A tree with a payload per leaf.
#[derive(Clone, Debug)]
enum Tree<T> {
    Leaf(T),
    Node(Vec<Tree<T>>),
}

fn tree<T: Clone + std::fmt::Debug + 'static>(
    leaf: impl Strategy<Value = T> + Clone + 'static,
    min_len: usize,
) -> impl Strategy<Value = Tree<T>> {
    leaf.prop_map(Tree::Leaf)
        .prop_recursive(3, 12, 4, move |inner| {
            prop::collection::vec(inner, min_len..=4).prop_map(Tree::Node)
        })
}

fn to_tuple<T>(t: &Tree<T>, f: &impl Fn(&T) -> i64) -> IntTuple {
    match t {
        Tree::Leaf(v) => IntTuple::int(f(v)),
        Tree::Node(xs) => IntTuple::tuple(xs.iter().map(|x| to_tuple(x, f))).unwrap(),
    }
}

fn int_tuple() -> impl Strategy<Value = IntTuple> {
    tree(-16i64..=16, 0).prop_map(|t| to_tuple(&t, &|v| *v))
}

fn layout() -> impl Strategy<Value = Layout> {
    tree((1i64..=8, -16i64..=16), 1).prop_map(|t| {
        let shape = to_tuple(&t, &|v| v.0);
        let stride = to_tuple(&t, &|v| v.1);
        Layout::new(shape, stride).unwrap()
    })
}

/// CuTe's own style of the same text: `_` on every integer and spaces after separators.
fn cute_style(s: &str) -> String {
    let mut out = String::new();
    let mut prev_digit = false;
    for c in s.chars() {
        let starts_int = (c.is_ascii_digit() || c == '-') && !prev_digit;
        if starts_int {
            out.push('_');
        }
        out.push(c);
        if c == ',' || c == ':' {
            out.push(' ');
        }
        prev_digit = c.is_ascii_digit() || c == '-';
    }
    out
}

/// The indices a property visits: all of them for small layouts, an even sample otherwise.
fn sample(size: i64) -> Vec<i64> {
    common::sample(size, 4096, 1024)
}

/// The R-D coordinate of index `i`: one 1-D index per top-level mode (colexicographic).
fn rd_coord(l: &Layout, i: i64) -> IntTuple {
    if l.is_leaf() {
        return IntTuple::int(i);
    }
    let mut rest = i;
    let sizes: Vec<i64> = l.modes().map(|m| m.size()).collect();
    let parts = sizes.iter().map(|&s| {
        let v = rest % s;
        rest /= s;
        v
    });
    IntTuple::flat(parts.collect::<Vec<_>>())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn text_roundtrip_int_tuple(t in int_tuple()) {
        let text = t.to_string();
        prop_assert!(!text.contains(' '));
        prop_assert_eq!(text.parse::<IntTuple>().unwrap(), t.clone());
        prop_assert_eq!(cute_style(&text).parse::<IntTuple>().unwrap(), t);
    }

    #[test]
    fn text_roundtrip_layout(l in layout()) {
        let text = l.to_string();
        prop_assert!(!text.contains(' ') && !text.contains('_'));
        prop_assert_eq!(text.parse::<Layout>().unwrap(), l.clone());
        prop_assert_eq!(cute_style(&text).parse::<Layout>().unwrap(), l.clone());
        prop_assert_eq!(l.shape().to_string() + ":" + &l.stride().to_string(), text);
    }

    #[test]
    fn crd2idx_of_idx2crd_is_index_1d(l in layout()) {
        let shape = l.shape();
        for i in sample(l.size()) {
            let nat = shape.idx2crd(&IntTuple::int(i)).unwrap();
            prop_assert!(nat.congruent(&shape), "{} vs {}", nat, shape);
            let want = l.index_1d(i).unwrap();
            prop_assert_eq!(l.index(&nat).unwrap(), want, "{} at {}", l, nat);
            // The inner product of the natural coordinate with the stride.
            let dot: i64 = nat.leaves().iter().zip(l.stride_leaves()).map(|(c, d)| c * d).sum();
            prop_assert_eq!(dot, want);
            prop_assert_eq!(shape.crd2idx(&nat).unwrap(), i);
        }
    }

    #[test]
    fn every_coordinate_kind_gives_the_same_offset(l in layout()) {
        let shape = l.shape();
        for i in sample(l.size()) {
            let one = IntTuple::int(i);
            let rd = rd_coord(&l, i);
            let nat = shape.idx2crd(&one).unwrap();
            let want = l.index_1d(i).unwrap();
            prop_assert_eq!(l.index(&one).unwrap(), want);
            prop_assert_eq!(l.index_any(i).unwrap(), want);
            prop_assert_eq!(l.index(&rd).unwrap(), want, "{} at R-D {}", l, rd);
            prop_assert_eq!(shape.idx2crd(&rd).unwrap(), nat.clone(), "R-D {}", rd);
            prop_assert_eq!(l.index(&nat).unwrap(), want);
        }
    }

    #[test]
    fn offsets_equal_index_1d(l in layout()) {
        // The whole walk for small layouts, its first 16Ki steps for large ones.
        let n = l.size().min(1 << 14);
        let walked: Vec<i64> = l.offsets().take(n as usize).collect();
        let direct: Vec<i64> = (0..n).map(|i| l.index_1d(i).unwrap()).collect();
        prop_assert_eq!(walked, direct);
        prop_assert_eq!(l.offsets().size_hint().0 as i64, l.size());
    }
}
