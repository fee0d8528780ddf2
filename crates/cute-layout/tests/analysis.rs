//! Layout analysis against brute force: find_layout round trips and refusals (with the seed's
//! exhaustive search as an independent oracle), equality vs enumeration on 10^5+ pairs, the
//! predicates and the image over a whole small domain, and explanations vs the algebra.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

use common::flat;
use cute_layout::analysis::{Condition, Step};
use cute_layout::{
    analysis::explain_complement, analysis::explain_composition, analysis::find_layout,
    analysis::find_layout_with_shape, IntTuple, Layout, LayoutError,
};
use proptest::prelude::*;

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

fn table(x: &Layout) -> Vec<i64> {
    x.offsets().collect()
}

/// splitmix64: a tiny deterministic generator for the bulk tests.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
}

/// A random flat layout: 1..=4 modes, extents 1..=4, strides in lo..=hi.
fn random_layout(rng: &mut Rng, lo: i64, hi: i64) -> Vec<(i64, i64)> {
    let k = rng.range(1, 4) as usize;
    (0..k)
        .map(|_| (rng.range(1, 4), rng.range(lo, hi)))
        .collect()
}

/// A function-preserving rewrite: split a mode `n:d` with `n = a*b` into `(a,b):(d,a*d)`, insert
/// extent-1 modes with junk strides, or merge neighbours that coalesce.
fn rewrite(rng: &mut Rng, modes: &[(i64, i64)]) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    for &(n, d) in modes {
        if rng.range(0, 3) == 0 {
            out.push((1, rng.range(-9, 9)));
        }
        let a = (2..n).find(|a| n % a == 0 && rng.range(0, 1) == 0);
        match a {
            Some(a) => {
                out.push((a, d));
                out.push((n / a, a * d));
            }
            None => out.push((n, d)),
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// find_layout
// ---------------------------------------------------------------------------------------------

/// The seed's search (000): guess the first extent from the largest down, recurse. Exponential in
/// the worst case but fine for the small inputs used here; independent of the library.
fn seed_search(f: &[i64]) -> Option<Vec<(i64, i64)>> {
    let m = f.len();
    if m == 0 || f[0] != 0 {
        return None;
    }
    if m == 1 {
        return Some(vec![]);
    }
    let s0 = f[1];
    let t = (0..m).find(|&k| f[k] != k as i64 * s0).unwrap_or(m);
    if t == m {
        return Some(vec![(m as i64, s0)]);
    }
    for n0 in (2..=t).rev() {
        if !m.is_multiple_of(n0) {
            continue;
        }
        let consistent = (0..m).all(|x| f[x] == f[n0 * (x / n0)] + s0 * (x % n0) as i64);
        if consistent {
            let rest: Vec<i64> = (0..m / n0).map(|j| f[j * n0]).collect();
            let mut r = seed_search(&rest)?;
            r.insert(0, (n0 as i64, s0));
            return Some(r);
        }
    }
    None
}

#[test]
fn find_layout_seed_000() {
    assert_eq!(
        find_layout(&[0, 2, 4, 7, 9, 11]).unwrap().to_string(),
        "(3,2):(2,7)"
    );
    assert_eq!(find_layout(&[0]).unwrap().to_string(), "1:0");
    assert_eq!(find_layout(&[0, 0, 0, 0]).unwrap().to_string(), "4:0");
    assert_eq!(find_layout(&[0, -3, -6]).unwrap().to_string(), "3:-3");
    assert_eq!(
        find_layout(&[0, 1, 0, 1, 5, 6, 5, 6]).unwrap().to_string(),
        "(2,2,2):(1,0,5)"
    );
    assert_eq!(find_layout(&[]).unwrap_err().kind(), "InvalidArgument");
}

#[test]
fn find_layout_error_messages() {
    let e = find_layout(&[3, 1]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "find_layout: no layout has these values: value 3 at index 0, but every layout maps 0 to 0"
    );
    let e = find_layout(&[0, 1, 2, 0, 1, 2, 5]).unwrap_err();
    assert_eq!(
        e,
        LayoutError::NotALayout {
            op: "find_layout",
            index: 7,
            found: None,
            expected: None,
            modes: vec![(3, 1), (2, 0), (2, 5)],
        }
    );
    let e = find_layout(&[0, i64::MAX, 1, 5]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "find_layout: no layout has these values: value 5 at index 3, but the only layout fitting the values before it predicts a value past i64 (modes so far: 2:9223372036854775807, 2:1)"
    );
    let e = find_layout(&[0, i64::MAX, 5]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "find_layout: no layout has these values: 3 values, but the values force blocks of 2, which 3 is not a multiple of (modes so far: 2:9223372036854775807, 2:5)"
    );
    // Strides of both signs whose span leaves i64.
    let big = 1i64 << 62;
    let e = find_layout(&[0, big, -big, 0]).unwrap_err();
    assert_eq!(e.kind(), "Overflow");
}

/// Every layout in the conformance vectors (arguments and CuTe's results) round-trips.
#[test]
fn find_layout_round_trips_every_conformance_layout() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cute-cli/tests/conformance");
    let mut seen = BTreeSet::new();
    let mut skipped = BTreeSet::new(); // over 2^22 points: too slow to enumerate in a unit test
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        // The algebra's vectors only (atoms/ holds the atom vectors, other fields).
        if path.extension().is_none_or(|e| e != "jsonl") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let mut strings: Vec<String> = Vec::new();
            if let Some(args) = v["args"].as_array() {
                strings.extend(args.iter().filter_map(|a| a.as_str().map(String::from)));
            }
            if let Some(s) = v["cute_static_norm"].as_str() {
                strings.push(s.to_string());
            }
            for s in strings {
                if !s.contains(':') || s.contains(" o ") {
                    continue;
                }
                if let Ok(x) = s.parse::<Layout>() {
                    if x.size() <= 1 << 22 {
                        seen.insert(x.to_string());
                    } else {
                        skipped.insert(x.to_string());
                    }
                }
            }
        }
    }
    assert!(seen.len() > 1000, "only {} layouts found", seen.len());
    println!(
        "{} distinct conformance layouts round-trip ({} larger ones skipped)",
        seen.len(),
        skipped.len()
    );
    for s in &seen {
        let x = l(s);
        let values = table(&x);
        let found = find_layout(&values).unwrap_or_else(|e| panic!("{x}: {e}"));
        assert_eq!(table(&found), values, "{x} -> {found}");
        assert_eq!(found, x.canonical(), "{x}");
        assert!(found.same_function(&x));
        let again = find_layout_with_shape(&values, &x.shape()).unwrap();
        assert_eq!(table(&again), values);
        assert_eq!(again.shape(), x.shape());
    }
}

/// Random functions that are not layouts are refused, at the first index no layout fits, and
/// exactly when the seed's exhaustive search finds no layout.
#[test]
fn find_layout_agrees_with_the_seed_search() {
    let mut rng = Rng(6);
    let mut refused = 0;
    for round in 0..20_000 {
        let mut values = table(&flat(&random_layout(&mut rng, -3, 12)));
        // Perturb: one value, a swap, a truncation, or nothing.
        match round % 4 {
            0 if values.len() > 1 => {
                let i = rng.range(1, values.len() as i64 - 1) as usize;
                values[i] += rng.range(-2, 2);
            }
            1 if values.len() > 2 => {
                let i = rng.range(1, values.len() as i64 - 1) as usize;
                let j = rng.range(1, values.len() as i64 - 1) as usize;
                values.swap(i, j);
            }
            2 if values.len() > 2 => {
                let k = rng.range(1, values.len() as i64 - 1) as usize;
                values.truncate(k);
            }
            _ => {}
        }
        let oracle = seed_search(&values);
        match find_layout(&values) {
            Ok(found) => {
                assert_eq!(table(&found), values);
                let o = oracle.unwrap_or_else(|| panic!("{values:?}: oracle found none"));
                assert!(found.same_function(&flat(&o).coalesce()) || o.is_empty());
            }
            Err(LayoutError::NotALayout {
                index,
                found,
                expected,
                modes,
                ..
            }) => {
                refused += 1;
                assert!(oracle.is_none(), "{values:?}: oracle found {oracle:?}");
                // The forced modes, with the open one run far enough, fit every value before
                // `index` and predict `expected` there.
                if let (Some(found), Some(expected)) = (found, expected) {
                    assert_ne!(found, expected);
                    assert_eq!(values[index], found);
                    if index > 0 {
                        let mut m = modes.clone();
                        if let Some(last) = m.last_mut() {
                            last.0 += 2;
                        }
                        let cand = flat(&m);
                        for (i, &v) in values[..index].iter().enumerate() {
                            assert_eq!(cand.index_any(i as i64).unwrap(), v, "{values:?}");
                        }
                        assert_eq!(cand.index_any(index as i64).unwrap(), expected);
                    }
                } else {
                    assert_eq!(index, values.len());
                }
            }
            Err(e) => panic!("{values:?}: {e}"),
        }
    }
    assert!(refused > 3000, "only {refused} refusals");
}

#[test]
fn find_layout_with_shape_cases() {
    let v = table(&l("(4,6):(6,1)"));
    assert_eq!(
        find_layout_with_shape(&v, &"((2,2),(3,2))".parse().unwrap())
            .unwrap()
            .to_string(),
        "((2,2),(3,2)):((6,12),(1,3))"
    );
    let e = find_layout_with_shape(&v, &"(6,4)".parse().unwrap()).unwrap_err();
    assert_eq!(e.kind(), "NotRepresentable");
    let e = find_layout_with_shape(&v, &"(5,5)".parse().unwrap()).unwrap_err();
    assert_eq!(e.kind(), "InvalidArgument");
    // Every shape of size 24 with these values: Ok exactly when brute force agrees.
    for shape in [
        "(2,12)",
        "(4,6)",
        "(4,(2,3))",
        "(8,3)",
        "(24)",
        "((4,1),(3,2))",
    ] {
        let s: IntTuple = shape.parse().unwrap();
        let ok = find_layout_with_shape(&v, &s);
        // Brute force: the forced strides, evaluated.
        let mut p = 1;
        let stride: Vec<String> = s
            .flatten()
            .leaves()
            .iter()
            .map(|&n| {
                let d = if n > 1 { v[p as usize] } else { 0 };
                p *= n;
                d.to_string()
            })
            .collect();
        // The hierarchy does not change the 1-D function: evaluate the flattened candidate.
        let cand = Layout::new(
            s.flatten(),
            format!("({})", stride.join(",")).parse().unwrap(),
        )
        .unwrap();
        assert_eq!(ok.is_ok(), table(&cand) == v, "{shape}");
    }
}

// ---------------------------------------------------------------------------------------------
// Equality and the canonical form
// ---------------------------------------------------------------------------------------------

/// 10^5+ random pairs: `same_function` agrees with enumeration. Half of the pairs are rewrites
/// of each other (equal by construction, unless the rewrite is perturbed), half independent.
#[test]
fn equality_agrees_with_enumeration() {
    let mut rng = Rng(2026);
    let (mut equal, mut total) = (0, 0);
    for round in 0..120_000 {
        let a = random_layout(&mut rng, -2, 9);
        let b = if round % 2 == 0 {
            let mut b = rewrite(&mut rng, &a);
            if rng.range(0, 2) == 0 {
                let k = rng.range(0, b.len() as i64 - 1) as usize;
                b[k].1 += rng.range(-1, 1);
            }
            b
        } else {
            random_layout(&mut rng, -2, 9)
        };
        let (la, lb) = (flat(&a), flat(&b));
        let brute = la.size() == lb.size() && table(&la) == table(&lb);
        assert_eq!(la.same_function(&lb), brute, "{la} vs {lb}");
        assert_eq!(la.canonical() == lb.canonical(), brute, "{la} vs {lb}");
        equal += usize::from(brute);
        total += 1;
    }
    assert!(total >= 100_000);
    assert!(equal > 30_000, "only {equal} equal pairs");
}

#[test]
fn canonical_is_idempotent_and_unique() {
    let mut rng = Rng(7);
    for _ in 0..5000 {
        let a = flat(&random_layout(&mut rng, -3, 9));
        let c = a.canonical();
        assert_eq!(c.canonical(), c);
        assert_eq!(table(&c), table(&a));
        assert_eq!(find_layout(&table(&a)).unwrap(), c);
    }
}

// ---------------------------------------------------------------------------------------------
// Predicates and the image, over a whole small domain
// ---------------------------------------------------------------------------------------------

fn check_predicates(a: &Layout) {
    let t = table(a);
    let set: BTreeSet<i64> = t.iter().copied().collect();
    let (lo, hi) = (*set.first().unwrap(), *set.last().unwrap());
    let injective = set.len() == t.len();
    let surjective = set.len() as i64 == hi - lo + 1;
    assert_eq!(a.image_bounds(), (lo, hi), "{a}");
    assert_eq!(a.is_injective().unwrap(), injective, "injective {a}");
    assert_eq!(a.is_surjective(), surjective, "surjective {a}");
    assert_eq!(a.is_bijective(), injective && surjective, "bijective {a}");
    assert_eq!(
        a.is_compact(),
        injective && surjective && lo == 0,
        "compact {a}"
    );
    match a.image() {
        Ok(img) => {
            let mut got = BTreeSet::new();
            for s in img.starts.offsets() {
                for k in 0..img.run {
                    assert!(got.insert(img.offset + s + k * img.step), "{a}: {img}");
                }
            }
            assert_eq!(got, set, "{a}: {img}");
            assert_eq!(img.count(), set.len() as i64);
            assert_eq!(img.is_interval(), surjective, "{a}: {img}");
        }
        Err(e) => assert_eq!(e.kind(), "NotRepresentable", "{a}"),
    }
}

/// Every flat layout with up to 3 modes, extents 1..=4 and strides -3..=8.
#[test]
fn predicates_over_the_whole_small_domain() {
    let strides: Vec<i64> = (-3..=8).collect();
    let mut count = 0;
    for k in 1..=3usize {
        let total = (4 * strides.len()).pow(k as u32);
        for mut code in 0..total {
            let mut modes = Vec::with_capacity(k);
            for _ in 0..k {
                let e = (code % 4) as i64 + 1;
                code /= 4;
                let d = strides[code % strides.len()];
                code /= strides.len();
                modes.push((e, d));
            }
            check_predicates(&flat(&modes));
            count += 1;
        }
    }
    assert!(count > 100_000);
}

#[test]
fn predicate_examples() {
    assert!(l("(2,(2,2)):(4,(2,1))").is_compact());
    assert!(l("(3,2):(2,3)").is_injective().unwrap());
    assert!(!l("(3,2):(2,3)").is_surjective()); // 0,2,3,4,5,7: 1 and 6 missed
    assert_eq!(
        l("(3,2):(2,3)").image().unwrap_err().kind(),
        "NotRepresentable"
    );
    let big = l("(4096,4096):(3,5)"); // not a chain, 2^24 points: too many to enumerate
    assert_eq!(
        big.is_injective().unwrap_err().to_string(),
        "injective: deciding this for (4096,4096):(3,5) would enumerate 16777216 points (the limit is 4194304)"
    );
    assert!(l("(4096,4096):(1,4096)").is_injective().unwrap()); // a chain: decided at once
}

// ---------------------------------------------------------------------------------------------
// Explanations
// ---------------------------------------------------------------------------------------------

#[test]
fn explain_worked_example_1() {
    let e = explain_composition(&l("(6,2):(8,2)"), &l("(4,3):(3,1)"));
    assert_eq!(
        e.to_string(),
        "composition((6,2):(8,2), (4,3):(3,1))
1. coalesce A = (6,2):(8,2) (flat; its last mode runs on): (6,2):(8,2)
2. left-distribute over the leaves of B:
   R = (6,2):(8,2) o (4,3):(3,1)
     = ((6,2):(8,2) o 4:3, (6,2):(8,2) o 3:1)
3. compute (6,2):(8,2) o 4:3 (leaf 0 of B)
   - divide out the stride 3: (6,2):(8,2) / 3 = (6/3,2):(8*3,2) = (2,2):(24,2)
   - mod out the shape 4: (2,2):(24,2) % 4 = (2,2):(24,2)
   - without its extent-1 modes: (2,2):(24,2)
4. compute (6,2):(8,2) o 3:1 (leaf 1 of B)
   - divide out the stride 1: (6,2):(8,2) / 1 = (6,2):(8,2)
   - mod out the shape 3: (6,2):(8,2) % 3 = (3,1):(8,2)
   - without its extent-1 modes: 3:8
5. put the results in B's shape and coalesce each mode:
   R = ((2,2):(24,2), (3,1):(8,2))
     = ((2,2),3):((24,2),8)
=> ((2,2),3):((24,2),8)
"
    );
}

#[test]
fn explain_seed_002() {
    let e = explain_composition(&l("(10,2):(16,4)"), &l("(4,5):(5,2)"));
    assert!(e.outcome.is_err());
    assert_eq!(
        e.failed_conditions(),
        vec![&Condition::Disjointness {
            mode: 0,
            extent: 10,
            digits: vec![(0, 5), (1, 8)],
        }]
    );
    assert!(e.steps.contains(&Step::Counterexample {
        index: 13,
        b_value: 11,
        naive: 176,
        actual: 20,
    }));
    // The other two counter-examples of seed 002.
    for (a, b, i, naive, actual) in [
        ("(10,2):(16,4)", "(2,5):(5,2)", 7, 176, 20),
        ("(6,2):(8,2)", "(4,3):(3,2)", 9, 56, 10),
    ] {
        let e = explain_composition(&l(a), &l(b));
        assert!(e.outcome.is_err(), "{a} o {b}");
        let found = e.steps.iter().any(|s| {
            matches!(s, Step::Counterexample { index, naive: n, actual: x, .. }
                if *index == i && *n == naive && *x == actual)
        });
        assert!(found, "{e}");
    }
}

#[test]
fn explain_complement_examples() {
    // 02_layout_algebra.md, Complement examples: the explained result is the library's.
    for (a, m, want) in [
        ("4:1", 24, "6:4"),
        ("6:4", 24, "4:1"),
        ("(4,6):(1,4)", 24, "1:0"),
        ("4:2", 24, "(2,3):(1,8)"),
        ("(2,4):(1,6)", 24, "3:2"),
        ("(2,2):(1,6)", 24, "(3,2):(2,12)"),
    ] {
        let e = explain_complement(&l(a), Some(&IntTuple::int(m)));
        assert_eq!(e.outcome.as_ref().unwrap().to_string(), want);
        let collected = e.steps.iter().find_map(|s| match s {
            Step::Collect { result, .. } => Some(result.clone()),
            _ => None,
        });
        assert_eq!(collected.unwrap().to_string(), want, "{e}");
    }
    let e = explain_complement(&l("(2,2):(1,1)"), Some(&IntTuple::int(8)));
    assert!(e.steps.contains(&Step::Collision {
        layout: l("(2,2):(1,1)"),
        i: 1,
        j: 2,
        value: 1,
    }));
    assert_eq!(e.outcome.unwrap_err().kind(), "NotInjective");
    // CuTe's answer (2,3):(1,14) leaves (A, R) short of 42.
    let e = explain_complement(&l("(3,2):(2,7)"), Some(&IntTuple::int(42)));
    assert_eq!(
        e.failed_conditions(),
        vec![&Condition::ComplementRemainder {
            mode: (2, 7),
            span: 6
        }]
    );
    assert!(e.steps.contains(&Step::ShortCover {
        layout: l("((3,2),(2,3)):((2,7),(1,14))"),
        cosize: 41,
        cotarget: 42,
    }));
    assert_eq!(e.outcome.unwrap_err().kind(), "NotComplementable");
}

/// The explained complement is the library's on random layouts; refusals name a condition.
#[test]
fn explain_complement_agrees_with_complement() {
    let mut rng = Rng(5);
    for _ in 0..20_000 {
        let a = flat(&random_layout(&mut rng, 0, 12));
        let m = i64::try_from(a.filter().cosize()).unwrap() * rng.range(1, 3);
        let e = explain_complement(&a, Some(&IntTuple::int(m)));
        assert_eq!(e.outcome, a.complement(m));
        let collected = e.steps.iter().find_map(|s| match s {
            Step::Collect { result, .. } => Some(result.clone()),
            _ => None,
        });
        match &e.outcome {
            Ok(r) => {
                assert!(e.failed_conditions().is_empty(), "{e}");
                if let Some(c) = collected {
                    assert_eq!(&c, r, "{e}");
                }
            }
            Err(_) => assert!(!e.failed_conditions().is_empty(), "{e}"),
        }
    }
}

#[test]
fn explain_composition_with_tilers() {
    let a = l("(12,(4,8)):(59,(13,1))");
    for t in ["<3:4,8:2>", "(3,8)", "(_,8:2)", "6"] {
        let t: cute_layout::Tiler = t.parse().unwrap();
        let e = cute_layout::analysis::explain_composition_tiler(&a, &t);
        assert_eq!(e.outcome, a.compose_tiler(&t), "{t}");
        assert!(e.outcome.is_ok(), "{e}");
    }
}

/// On random pairs the explanation agrees with the algebra: it finds a failed condition exactly
/// when composition refuses, and its per-mode answer is the result otherwise; a refusal of a
/// per-mode answer that CuTe would compute comes with a counter-example.
#[test]
fn explain_composition_agrees_with_compose() {
    let mut rng = Rng(11);
    let mut lucky = 0;
    for round in 0..30_000 {
        // A third of the pairs with negative strides.
        let lo = if round % 3 == 0 { -6 } else { 0 };
        let a = flat(&random_layout(&mut rng, lo, 12));
        let b = flat(&random_layout(&mut rng, lo, 12));
        let e = explain_composition(&a, &b);
        assert_eq!(e.outcome, a.compose(&b));
        let failed = e.failed_conditions();
        match &e.outcome {
            Ok(r) => {
                assert!(failed.is_empty(), "{a} o {b}: {e}");
                let naive = e.steps.iter().find_map(|s| match s {
                    Step::ByModeCoalesce { result, .. } => Some(result.clone()),
                    _ => None,
                });
                assert_eq!(naive.as_ref(), Some(r), "{e}");
            }
            Err(err) => {
                assert!(!failed.is_empty(), "{a} o {b} refused ({err}) but: {e}");
                let kind = match failed[0] {
                    Condition::StrideDivisibility { .. } | Condition::WeakDivisibility { .. } => {
                        "StrideNotDivisible"
                    }
                    Condition::ShapeDivisibility { .. } => "ShapeNotDivisible",
                    Condition::Disjointness { .. } => "ModesOverlap",
                    Condition::OppositeSigns { .. } => "NotRepresentable",
                    _ => "?",
                };
                assert_eq!(kind, err.kind(), "{e}");
                if matches!(failed[0], Condition::WeakDivisibility { .. })
                    && e.steps
                        .iter()
                        .any(|s| matches!(s, Step::NoCounterexample { .. }))
                {
                    // CuTe's per-mode answer is right after all: a false refusal.
                    eprintln!("false refusal: {a} o {b}");
                    lucky += 1;
                } else if matches!(err, LayoutError::ModesOverlap { .. })
                    || matches!(failed[0], Condition::WeakDivisibility { .. })
                {
                    let ce = e.steps.iter().find_map(|s| match s {
                        Step::Counterexample {
                            index,
                            naive,
                            actual,
                            ..
                        } => Some((*index, *naive, *actual)),
                        _ => None,
                    });
                    let (i, naive, actual) = ce.unwrap_or_else(|| panic!("{e}"));
                    assert_ne!(naive, actual);
                    assert_eq!(a.index_any(b.index_1d(i).unwrap()).unwrap(), actual);
                }
            }
        }
    }
    assert_eq!(
        lucky, 0,
        "refusals where CuTe's per-mode answer is right after all"
    );
}

// ---------------------------------------------------------------------------------------------
// Property tests
// ---------------------------------------------------------------------------------------------

fn layout_strategy() -> impl Strategy<Value = Layout> {
    let leaf = (1i64..=6, -4i64..=16);
    prop::collection::vec(leaf, 1..=5).prop_map(|m| flat(&m))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn find_layout_round_trip(a in layout_strategy()) {
        let v = table(&a);
        let f = find_layout(&v).unwrap();
        prop_assert_eq!(table(&f), v);
        prop_assert_eq!(f, a.canonical());
    }

    #[test]
    fn same_function_is_an_equivalence(a in layout_strategy(), b in layout_strategy()) {
        prop_assert!(a.same_function(&a));
        prop_assert_eq!(a.same_function(&b), b.same_function(&a));
        prop_assert!(a.same_function(&a.canonical()));
        let brute = a.size() == b.size() && table(&a) == table(&b);
        prop_assert_eq!(a.same_function(&b), brute);
    }

    #[test]
    fn predicates_match_enumeration(a in layout_strategy()) {
        check_predicates(&a);
    }

    #[test]
    fn find_layout_with_shape_recovers_the_strides(a in layout_strategy()) {
        // A leaf of extent >= 2 has its stride forced; a leaf of extent 1 gets 0.
        let f = find_layout_with_shape(&table(&a), &a.shape()).unwrap();
        prop_assert_eq!(f.shape(), a.shape());
        for ((&n, &d), &e) in a.shape_leaves().iter().zip(a.stride_leaves()).zip(f.stride_leaves()) {
            prop_assert_eq!(e, if n > 1 { d } else { 0 });
        }
    }
}

/// Every explanation, on random (also degenerate) operands: no panic, the outcome is the
/// library's, and the text ends with the outcome.
#[test]
fn explanations_never_panic() {
    use cute_layout::analysis::explain_composition_tiler;
    use cute_layout::{
        analysis::explain_logical_divide, analysis::explain_logical_product,
        analysis::explain_rearranged, Tiler,
    };
    let mut rng = Rng(99);
    let ops = [
        "zipped_divide",
        "tiled_divide",
        "flat_divide",
        "zipped_product",
        "tiled_product",
        "flat_product",
        "blocked_product",
        "raked_product",
    ];
    for round in 0..3000 {
        let a = flat(&random_layout(&mut rng, -3, 9));
        let b = flat(&random_layout(&mut rng, -3, 9));
        let t = Tiler::Layout(b.clone());
        let e = explain_composition(&a, &b);
        assert_eq!(e.outcome, a.compose(&b));
        let e = explain_composition_tiler(&a, &t);
        assert_eq!(e.outcome, a.compose_tiler(&t));
        let e = explain_complement(&a, None);
        assert_eq!(e.outcome, a.complement_cosize());
        let e = explain_logical_divide(&a, &t);
        assert_eq!(e.outcome, a.logical_divide(&t));
        let e = explain_logical_product(&a, &t);
        assert_eq!(e.outcome, a.logical_product(&t));
        let text = e.to_string();
        match &e.outcome {
            Ok(r) => assert!(text.ends_with(&format!("=> {r}\n")), "{text}"),
            Err(err) => assert!(text.ends_with(&format!("=> refused: {err}\n")), "{text}"),
        }
        let op = ops[round % ops.len()];
        let e = explain_rearranged(op, &a, &t).unwrap();
        assert!(e.to_string().starts_with(op));
        // A tuple tiler, with `_`.
        let tt: Tiler = format!("(_,{})", b.mode(0).unwrap()).parse().unwrap();
        if a.rank() >= 2 {
            assert_eq!(
                explain_logical_divide(&a, &tt).outcome,
                a.logical_divide(&tt)
            );
            assert_eq!(
                explain_composition_tiler(&a, &tt).outcome,
                a.compose_tiler(&tt)
            );
        }
    }
    assert!(explain_rearranged("size", &l("4:1"), &"2".parse().unwrap()).is_err());
}
