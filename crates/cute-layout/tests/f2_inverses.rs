//! The inverses of F2 layouts against brute force, on seeded random layouts, with an evaluator
//! of this file (XOR over the leaves of the carry-less product of coordinate and stride).
//! * right_inverse: lawful, and as large as the largest F2 layout obeying the law, found by
//!   enumerating every flat F2 layout (every extent sequence, every stride below the domain's
//!   size) mode by mode.
//! * left_inverse: lawful; refused as NotInjective exactly where two indices share a value; and
//!   answered wherever an injective layout's extents are powers of two, or the map from values
//!   to indices respects every XOR relation among the values (checked over all subsets), or the
//!   layout is an integer layout as a function (checked at every point) that CuTe's left
//!   inverse takes.

use cute_layout::{Layout, F2};

fn f2(t: &str) -> Layout<F2> {
    t.parse().unwrap_or_else(|e| panic!("{t}: {e}"))
}

fn clmul(a: u64, b: u64) -> u64 {
    (0..64)
        .filter(|j| b >> j & 1 == 1)
        .fold(0, |acc, j| acc ^ a << j)
}

/// The value at index `i` of the flat modes `(extent, stride)` (the last mode runs on).
fn eval(modes: &[(u64, u64)], i: u64) -> u64 {
    let mut rest = i;
    let mut acc = 0;
    for (k, &(s, d)) in modes.iter().enumerate() {
        let c = if k + 1 == modes.len() { rest } else { rest % s };
        rest /= s.max(1);
        acc ^= clmul(d, c);
    }
    acc
}

fn modes_of(l: &Layout<F2>) -> Vec<(u64, u64)> {
    l.shape_leaves()
        .iter()
        .zip(l.stride_leaves())
        .map(|(&s, d)| (s as u64, d.value()))
        .collect()
}

struct Rng(u64);

impl Rng {
    fn next(&mut self, m: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % m
    }
}

/// Random F2 layouts: 1 to 3 leaves, extents 1 to 6, strides below 32, at most `points` points.
fn random_layouts(seed: u64, count: usize, points: u64) -> Vec<Layout<F2>> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let n = 1 + rng.next(3) as usize;
        let s: Vec<u64> = (0..n).map(|_| 1 + rng.next(6)).collect();
        if s.iter().product::<u64>() > points {
            continue;
        }
        let d: Vec<String> = (0..n).map(|_| format!("F2({})", rng.next(32))).collect();
        let s: Vec<String> = s.iter().map(u64::to_string).collect();
        out.push(f2(&format!("({}):({})", s.join(","), d.join(","))));
    }
    out
}

/// The largest size of a flat F2 layout `R` (modes of extents >= 2, strides below `n`) with
/// `L(R(i)) = i` and `R(i) < n` for every `i < size(R)`: every extent and stride tried for each
/// next mode, a prefix kept while its points obey the law.
fn brute_largest(l: &[(u64, u64)], n: u64) -> u64 {
    fn go(l: &[(u64, u64)], n: u64, r: &mut Vec<(u64, u64)>, p: u64, best: &mut u64) {
        *best = (*best).max(p);
        for d in 0..n {
            for s in 2..=n / p {
                r.push((s, d));
                let ok = (p..p * s).all(|i| {
                    let x = eval(r, i);
                    x < n && eval(l, x) == i
                });
                if ok {
                    go(l, n, r, p * s, best);
                }
                r.pop();
                if !ok {
                    break; // a larger extent holds these points too
                }
            }
        }
    }
    let mut best = 1;
    go(l, n, &mut Vec::new(), 1, &mut best);
    best
}

#[test]
fn f2_right_inverse_is_the_largest_against_brute_force() {
    let (mut total, mut past_chain) = (0, 0);
    for l in random_layouts(0x5eed_f2a1, 1500, 24) {
        let m = modes_of(&l);
        let n = l.size() as u64;
        let r = l.right_inverse().unwrap();
        let rm = modes_of(&r);
        for i in 0..r.size() as u64 {
            let x = eval(&rm, i);
            assert!(x < n && eval(&m, x) == i, "{l}: R = {r} at {i}");
        }
        let best = brute_largest(&m, n);
        assert_eq!(r.size() as u64, best, "{l}: R = {r}, brute force {best}");
        total += 1;
        past_chain += usize::from(!l.shape_leaves().iter().all(|s| s.count_ones() == 1));
    }
    assert!(total == 1500 && past_chain > 300, "{past_chain}");
}

/// Exact answers of the search for layouts where PyCuTe's chain stops early.
#[test]
fn f2_right_inverse_past_the_chain() {
    for (l, want) in [
        ("(3,2):(F2(2),F2(1))", "2:F2(3)"),
        ("(4,2):(F2(2),F2(3))", "(2,4):(F2(5),F2(1))"),
        ("3:F2(1)", "3:F2(1)"),
        ("(3,3):(F2(1),F2(4))", "3:F2(1)"),
    ] {
        assert_eq!(f2(l).right_inverse().unwrap().to_string(), want, "{l}");
    }
}

/// Whether `L(i) -> i` respects every XOR relation among the values (so a GF(2)-linear map of
/// the value bits is a left inverse): over all subsets of the domain.
fn xor_consistent(m: &[(u64, u64)], n: u64) -> bool {
    (1u64..1 << n).all(|set| {
        let (mut v, mut i) = (0, 0);
        for k in 0..n {
            if set >> k & 1 == 1 {
                v ^= eval(m, k);
                i ^= k;
            }
        }
        v != 0 || i == 0
    })
}

/// Whether `L` is, as a function, the integer layout of its shape and strides.
fn integer_function(m: &[(u64, u64)], n: u64) -> bool {
    (0..n).all(|i| {
        let mut rest = i;
        let mut sum = 0;
        for (k, &(s, d)) in m.iter().enumerate() {
            let c = if k + 1 == m.len() { rest } else { rest % s };
            rest /= s.max(1);
            sum += c * d;
        }
        sum == eval(m, i)
    })
}

#[test]
fn f2_left_inverse_against_brute_force() {
    let (mut answered, mut not_injective, mut out_of_scope) = (0, 0, 0);
    for l in random_layouts(0x5eed_f2b2, 1500, 12) {
        let m = modes_of(&l);
        let n = l.size() as u64;
        let mut values: Vec<u64> = (0..n).map(|i| eval(&m, i)).collect();
        values.sort_unstable();
        let injective = values.windows(2).all(|w| w[0] != w[1]);
        match l.left_inverse() {
            Ok(r) => {
                assert!(injective, "{l}: {r}");
                for i in 0..n {
                    let y = eval(&m, i) as i64;
                    assert_eq!(r.index_1d(y), Some(i as i64), "{l}: R = {r} at {i}");
                }
                answered += 1;
            }
            Err(e) if !injective => {
                assert_eq!(e.kind(), "NotInjective", "{l}: {e}");
                not_injective += 1;
            }
            Err(e) => {
                assert_eq!(e.kind(), "NotRepresentable", "{l}: {e}");
                let pow2 = l.shape_leaves().iter().all(|s| s.count_ones() == 1);
                // The integer layout of the same function, where there is one, and CuTe's
                // left inverse of it.
                let integer = integer_function(&m, n) && {
                    let text = |v: Vec<String>| v.join(",");
                    let shape = text(m.iter().map(|x| x.0.to_string()).collect());
                    let stride = text(m.iter().map(|x| x.1.to_string()).collect());
                    let int: Layout = format!("({shape}):({stride})").parse().unwrap();
                    int.left_inverse().is_ok()
                };
                assert!(
                    !pow2 && !xor_consistent(&m, n) && !integer,
                    "{l}: refused ({e}) though a left inverse of the searched forms exists"
                );
                out_of_scope += 1;
            }
        }
    }
    assert!(
        answered > 1000 && not_injective > 50,
        "{answered} {not_injective} {out_of_scope}"
    );
}

#[test]
fn f2_left_inverse_exact_answers() {
    for (l, want) in [
        ("8:F2(2)", "(2,8):(0,1)"),
        ("(4,8):(F2(8),F2(1))", "(8,4):(4,1)"),
        ("(8,8):(F2(1),F2(9))", "(8,8):(F2(1),F2(9))"),
        ("4:F2(3)", "(2,2,2):(0,F2(1),F2(3))"),
    ] {
        assert_eq!(f2(l).left_inverse().unwrap().to_string(), want, "{l}");
    }
    for (l, want) in [
        (
            "(4,2):(F2(1),0)",
            "left_inverse: layout (4,2):(F2(1),0) is not injective: L(0) = L(4) = 0",
        ),
        (
            "(3,2):(F2(1),F2(3))",
            "left_inverse: layout (3,2):(F2(1),F2(3)) is not injective: L(1) = L(5) = 1",
        ),
    ] {
        assert_eq!(f2(l).left_inverse().unwrap_err().to_string(), want, "{l}");
    }
}
