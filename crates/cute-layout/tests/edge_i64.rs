//! The algebra at the edge of `i64`: layouts whose largest offset is `i64::MAX` (a span of
//! `i64::MAX`, cosize `2^63`), negative strides of that reach, and extents near `i64::MAX`. Every
//! operation answers exactly (checked here at sampled points in `i128`, by an evaluator of this
//! file) or refuses with a typed error; none panics.

use std::panic::{catch_unwind, AssertUnwindSafe};

use cute_layout::{IntTuple, Layout, Tiler};

fn lay(s: &str) -> Layout {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Layouts at the edge (each valid: span at most `i64::MAX`) and small ones to combine them with.
const EDGE: &[&str] = &[
    "2:9223372036854775807",
    "2:-9223372036854775807",
    "(8,230584300921369396):(1,40)",
    "(2,3):(1,4611686018427387903)",
    "(3,2):(-4611686018427387902,3)",
    "(2,2):(4611686018427387904,4611686018427387903)",
    "(2,2):(-1,9223372036854775806)",
    "9223372036854775807:1",
    "(4611686018427387903,2):(2,0)",
    "(2,4611686018427387903):(0,2)",
    "((2,2),2):((1,2),9223372036854775804)",
];

const SMALL: &[&str] = &[
    "1:0",
    "2:1",
    "4:2",
    "(2,2):(1,2)",
    "(2,3):(3,1)",
    "(2,2):(2,1)",
    "3:0",
];

/// `l` at the 1-D index `i` (colexicographic; past the size the last leaf's coordinate runs
/// on, as `index_any`), in `i128`.
fn eval(l: &Layout, i: i128) -> Option<i128> {
    if i < 0 {
        return None;
    }
    let (s, d) = (l.shape_leaves(), l.stride_leaves());
    let mut rest = i;
    let mut acc = 0i128;
    for k in 0..s.len() {
        let c = if k + 1 == s.len() {
            rest
        } else {
            let c = rest % i128::from(s[k]);
            rest /= i128::from(s[k]);
            c
        };
        acc += c * i128::from(d[k]);
    }
    Some(acc)
}

/// Indices to check in `[0, size)`: the first few, the last few, and a spread between.
fn samples(size: i64) -> Vec<i64> {
    let mut v: Vec<i64> = (0..size.min(8)).collect();
    v.extend((size.saturating_sub(8)..size).filter(|&i| i >= 8));
    let step = (size / 37).max(1);
    v.extend((0..37).map(|k| k * step).filter(|&i| i < size));
    v.sort_unstable();
    v.dedup();
    v
}

/// Runs `f`, turning a panic into a finding.
fn guarded(what: String, findings: &mut Vec<String>, f: impl FnOnce() -> Result<(), String>) {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => {}
        Ok(Err(e)) => findings.push(format!("{what}: {e}")),
        Err(_) => findings.push(format!("{what}: panicked")),
    }
}

/// `R(i) = A(B(i))` at the samples of B's domain (where A's extension is defined).
fn composition_law(a: &Layout, b: &Layout, r: &Layout) -> Result<(), String> {
    if r.size() != b.size() {
        return Err(format!("size {} != size(B) {}", r.size(), b.size()));
    }
    for i in samples(b.size()) {
        let Some(want) = eval(b, i.into()).and_then(|x| eval(a, x)) else {
            continue;
        };
        if eval(r, i.into()) != Some(want) {
            return Err(format!(
                "R({i}) = {:?}, A(B({i})) = {want}",
                eval(r, i.into())
            ));
        }
    }
    Ok(())
}

/// Every offset of a valid layout fits in `i64` and its text prints back.
fn valid(r: &Layout) -> Result<(), String> {
    let text = r.to_string();
    let back: Layout = text
        .parse()
        .map_err(|e| format!("{text} does not parse back: {e}"))?;
    if back.to_string() != text {
        return Err(format!("{text} prints back as {back}"));
    }
    let (lo, hi) = r.image_bounds();
    let span: i128 = r
        .shape_leaves()
        .iter()
        .zip(r.stride_leaves())
        .map(|(&s, &d)| i128::from(s - 1) * i128::from(d).abs())
        .sum();
    if span > i128::from(i64::MAX) || i128::from(r.cosize()) != span + 1 {
        return Err(format!("{text}: span {span}, cosize {}", r.cosize()));
    }
    if i128::from(hi) - i128::from(lo) != span {
        return Err(format!("{text}: bounds ({lo}, {hi}) for span {span}"));
    }
    Ok(())
}

#[test]
fn the_edge_layouts_are_valid_and_print_back() {
    for t in EDGE {
        let l = lay(t);
        assert_eq!(l.to_string(), *t);
        valid(&l).unwrap();
    }
}

/// Composition, complement, the divides and products, the inverses and coalesce on every pair
/// of an edge layout and a small one (both orders) and every pair of edge layouts: answers obey
/// the law at the samples, refusals are typed, nothing panics.
#[test]
fn the_algebra_at_the_i64_edge_is_exact_or_refuses() {
    let mut findings = Vec::new();
    let (mut answers, mut refusals) = (0usize, 0usize);
    let mut count = |ok: bool| {
        if ok {
            answers += 1;
        } else {
            refusals += 1;
        }
    };
    let all: Vec<&str> = EDGE.iter().chain(SMALL).copied().collect();
    for &ta in &all {
        let a = lay(ta);
        // One-argument operations.
        guarded(format!("coalesce {ta}"), &mut findings, || {
            let r = a.coalesce();
            valid(&r)?;
            for i in samples(a.size()) {
                if eval(&r, i.into()) != eval(&a, i.into()) {
                    return Err(format!("differs at {i}: {r}"));
                }
            }
            Ok(())
        });
        guarded(format!("right_inverse {ta}"), &mut findings, || {
            let r = a.right_inverse();
            valid(&r)?;
            for i in samples(r.size()) {
                let x = eval(&r, i.into()).ok_or("R undefined")?;
                if !(0..i128::from(a.size())).contains(&x) || eval(&a, x) != Some(i.into()) {
                    return Err(format!("{r}: A(R({i})) != {i}"));
                }
            }
            Ok(())
        });
        guarded(format!("left_inverse {ta}"), &mut findings, || {
            let r = a.left_inverse();
            count(r.is_ok());
            let Ok(r) = r else { return Ok(()) };
            valid(&r)?;
            let injective = a.stride_leaves().iter().all(|&d| d != 0) || a.size() == 1;
            for i in samples(a.size()) {
                let y = eval(&a, i.into()).unwrap();
                let back = eval(&r, y);
                if injective && y >= 0 && back != Some(i.into()) {
                    return Err(format!("{r}: R(A({i})) = {back:?}"));
                }
            }
            Ok(())
        });
        guarded(format!("complement {ta}"), &mut findings, || {
            let negative = a.stride_leaves().iter().any(|&d| d < 0 && a.size() > 1);
            for m in [Some(i64::MAX), Some(i64::MAX - 40), None] {
                let r = match m {
                    Some(m) => a.complement(m),
                    None => a.complement_cosize(),
                };
                count(r.is_ok());
                let r = match r {
                    Ok(r) => r,
                    Err(e) if negative && e.kind() != "InvalidArgument" => {
                        return Err(format!("{m:?}: {e}"));
                    }
                    // A typed refusal: overlapping or non-complementable modes, or a result
                    // past i64.
                    Err(_) => continue,
                };
                valid(&r)?;
                let s = samples(r.size());
                for w in s.windows(2) {
                    if eval(&r, w[0].into()) >= eval(&r, w[1].into()) {
                        return Err(format!("{m:?}: {r} not increasing at {w:?}"));
                    }
                }
            }
            Ok(())
        });
        for &tb in &all {
            let b = lay(tb);
            guarded(format!("composition {ta} {tb}"), &mut findings, || {
                let r = a.compose(&b);
                count(r.is_ok());
                let Ok(r) = r else { return Ok(()) };
                valid(&r)?;
                composition_law(&a, &b, &r)
            });
            guarded(format!("logical_divide {ta} {tb}"), &mut findings, || {
                let r = a.logical_divide(&Tiler::Layout(b.clone()));
                count(r.is_ok());
                let Ok(r) = r else { return Ok(()) };
                valid(&r)?;
                // (B, complement(B, size(A))), composed into A
                let c = b
                    .complement_shape(&IntTuple::int(a.size()))
                    .map_err(|e| format!("divide answered but the complement is refused: {e}"))?;
                let rhs = Layout::from_modes([b.clone(), c]).map_err(|e| e.to_string())?;
                composition_law(&a, &rhs, &r)
            });
            guarded(format!("logical_product {ta} {tb}"), &mut findings, || {
                let r = a.logical_product(&Tiler::Layout(b.clone()));
                count(r.is_ok());
                let Ok(r) = r else { return Ok(()) };
                valid(&r)?;
                let m0 = r.mode(0).ok_or("no mode 0")?;
                if m0 != a {
                    return Err(format!("mode 0 of {r} is not A"));
                }
                let m1 = r.mode(1).ok_or("no mode 1")?;
                if m1.size() != b.size() {
                    return Err(format!("mode 1 of {r} has not B's size"));
                }
                // (A, m1) is injective where A is: no A-offset repeats across the copies
                // (sampled: m1's offsets are not A's nonzero offsets).
                if a.stride_leaves().iter().all(|&d| d > 0)
                    && b.stride_leaves().iter().all(|&d| d > 0)
                {
                    for i in samples(m1.size()).into_iter().skip(1) {
                        let y = eval(&m1, i.into()).unwrap();
                        if (1..i128::from(a.size())).any(|j| eval(&a, j) == Some(y))
                            && a.size() < 64
                        {
                            return Err(format!("{r}: copy {i} lands on A"));
                        }
                    }
                }
                Ok(())
            });
        }
    }
    assert_eq!(findings, Vec::<String>::new());
    assert!(
        answers > 300 && refusals > 20,
        "{answers} answers, {refusals} refusals"
    );
}
