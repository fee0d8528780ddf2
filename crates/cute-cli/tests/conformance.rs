//! CuTe conformance: every vendored case of `tests/conformance/*.jsonl` through `cute batch`.
//!
//! For each file the built `cute` binary is run once with one request per case (SPEC.md section 5
//! maps files to batch ops). Each answer is then judged:
//!
//! * where CuTe's static answer satisfies the operation's law (`law_ok: true`), ours must be the
//!   same text ("agreed"); an error there is a false refusal;
//! * elsewhere (CuTe refused, or its answer breaks the law, or there is no reference) ours must be
//!   an error ("refused ...") or a result that satisfies the law, checked point by point below by
//!   brute force ("law-abiding alternative");
//! * `UnknownOp` / `NotImplemented` answers are counted as "not implemented" and fail the run;
//! * `swizzle` and `swizzle_composition` answers are also judged by their value tables (`table`
//!   of the swizzle, and of CuTe's composed layout, equal to the reference's `cute_static_table`).
//!
//! The law checkers follow the "Laws" section of `../shared/conformance/README.md` and evaluate
//! layouts with the library (`index_1d`, `index_any`, `offsets`); results are parsed with the
//! library's `FromStr`. Before any of that, the checkers themselves are validated: they must
//! accept CuTe's answer on every case the reference marks `law_ok: true` and reject it on every
//! case marked `law_ok: false`.
//!
//! The report (a table of counts by operation) is printed by
//! `cargo test -p cute-cli --test all -- conformance:: --nocapture`, and with the failures.

use crate::common;

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use cute_layout::{ComposedLayout, IntTuple, Layout, ScaledBasis};
use serde_json::{json, Value};

/// Largest domain a checker enumerates.
const ENUM_LIMIT: i64 = 1 << 22;

type Check = Result<(), String>;

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------

fn lay(s: &str) -> Result<Layout, String> {
    s.parse().map_err(|e| format!("{s:?} is not a layout: {e}"))
}

fn tup(s: &str) -> Result<IntTuple, String> {
    s.parse()
        .map_err(|e| format!("{s:?} is not an int tuple: {e}"))
}

fn int(s: &str) -> Result<i64, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("{s:?} is not an integer"))
}

/// An IntTuple as a plain tree, for the independent implementations below.
#[derive(Clone, Debug, PartialEq)]
enum T {
    I(i64),
    U(Vec<T>),
}

fn tree(t: &IntTuple) -> T {
    match t.as_int() {
        Some(v) => T::I(v),
        None => T::U(t.elements().map(|e| tree(&e)).collect()),
    }
}

impl T {
    fn size(&self) -> i64 {
        match self {
            T::I(v) => *v,
            T::U(xs) => xs.iter().map(T::size).product(),
        }
    }
    fn rank(&self) -> usize {
        match self {
            T::I(_) => 1,
            T::U(xs) => xs.len(),
        }
    }
    fn depth(&self) -> usize {
        match self {
            T::I(_) => 0,
            T::U(xs) => 1 + xs.iter().map(T::depth).max().unwrap_or(0),
        }
    }
    fn leaves(&self, out: &mut Vec<i64>) {
        match self {
            T::I(v) => out.push(*v),
            T::U(xs) => xs.iter().for_each(|x| x.leaves(out)),
        }
    }
    fn same_tree(&self, other: &T) -> bool {
        match (self, other) {
            (T::I(_), T::I(_)) => true,
            (T::U(a), T::U(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_tree(y))
            }
            _ => false,
        }
    }
}

/// weakly_congruent: an integer of `a` matches anything; a tuple needs a tuple of equal length.
fn weakly_congruent(a: &T, b: &T) -> bool {
    match (a, b) {
        (T::I(_), _) => true,
        (T::U(x), T::U(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| weakly_congruent(p, q))
        }
        _ => false,
    }
}

/// compatible: an integer of `a` matches a sub-tree of `b` of that size; a tuple needs a tuple.
fn compatible(a: &T, b: &T) -> bool {
    match (a, b) {
        (T::I(n), _) => *n == b.size(),
        (T::U(x), T::U(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| compatible(p, q)),
        _ => false,
    }
}

fn leaves(l: &Layout) -> Vec<(i64, i64)> {
    l.shape_leaves()
        .iter()
        .copied()
        .zip(l.stride_leaves().iter().copied())
        .collect()
}

/// The 1-D function of flat `(extent, stride)` leaves at any index: colexicographic, the last
/// leaf absorbing what is left, truncating division (the README's evaluator).
fn eval_leaves(ls: &[(i64, i64)], mut i: i64) -> i64 {
    let mut acc = 0;
    for (k, &(s, d)) in ls.iter().enumerate() {
        if k + 1 == ls.len() {
            acc += i * d;
        } else {
            acc += (i % s) * d;
            i /= s;
        }
    }
    acc
}

/// `Ok` when the number is the expected one, else `v != want`.
fn equal(v: i64, want: i64) -> Check {
    if v == want {
        Ok(())
    } else {
        Err(format!("{v} != {want}"))
    }
}

/// `Ok` when the text is the expected one, else `expected WANT`.
fn expect_text(ours: &str, want: &str) -> Check {
    if ours == want {
        Ok(())
    } else {
        Err(format!("expected {want}"))
    }
}

fn guard(size: i64, what: &str) -> Check {
    if size > ENUM_LIMIT {
        Err(format!("{what} has {size} points, too many to check"))
    } else {
        Ok(())
    }
}

/// The function of `l` over its domain.
fn values(l: &Layout) -> Result<Vec<i64>, String> {
    guard(l.size(), &l.to_string())?;
    Ok(l.offsets().collect())
}

/// `l` at any index (past the end: the last mode runs on).
fn at(l: &Layout, i: i64) -> Result<i64, String> {
    l.index_any(i).map_err(|e| format!("{l} at {i}: {e}"))
}

fn mode(l: &Layout, i: usize) -> Result<Layout, String> {
    l.mode(i).ok_or_else(|| format!("{l} has no mode {i}"))
}

fn same_function(ours: &Layout, want: &Layout, what: &str) -> Check {
    if ours.size() != want.size() {
        return Err(format!("{what}: size {} != {}", ours.size(), want.size()));
    }
    let (a, b) = (values(ours)?, values(want)?);
    match a.iter().zip(&b).position(|(x, y)| x != y) {
        Some(i) => Err(format!(
            "{what}: value at {i} is {} , expected {}",
            a[i], b[i]
        )),
        None => Ok(()),
    }
}

/// Enumerate a product domain in colexicographic order of `sizes`, calling `f` on each coordinate.
fn enumerate(
    sizes: &[i64],
    mut f: impl FnMut(&[i64]) -> Result<i64, String>,
) -> Result<Vec<i64>, String> {
    let total = sizes
        .iter()
        .try_fold(1i64, |a, &s| a.checked_mul(s))
        .unwrap_or(i64::MAX);
    guard(total, "expected function")?;
    let mut c = vec![0i64; sizes.len()];
    let mut out = Vec::with_capacity(total as usize);
    for _ in 0..total {
        out.push(f(&c)?);
        for (k, &s) in sizes.iter().enumerate() {
            c[k] += 1;
            if c[k] < s {
                break;
            }
            c[k] = 0;
        }
    }
    Ok(out)
}

fn expect_function(r: &Layout, want: &[i64]) -> Check {
    if r.size() != want.len() as i64 {
        return Err(format!("size {} != expected {}", r.size(), want.len()));
    }
    let got = values(r)?;
    match got.iter().zip(want).position(|(x, y)| x != y) {
        Some(i) => Err(format!("value at {i} is {}, expected {}", got[i], want[i])),
        None => Ok(()),
    }
}

fn mode_sizes(l: &Layout) -> Vec<i64> {
    l.modes().map(|m| m.size()).collect()
}

/// The reference complement of `t` with respect to `m`: filter, sort the leaves by stride, fill
/// the gaps, then repeat up to `m`. `None` if the leaves overlap or a stride is not a multiple of
/// the extent covered so far.
fn ref_complement(t: &Layout, m: i64) -> Option<Vec<(i64, i64)>> {
    let mut ls: Vec<(i64, i64)> = leaves(t)
        .into_iter()
        .filter(|&(s, d)| s > 1 && d != 0)
        .collect();
    if ls.iter().any(|&(_, d)| d < 0) {
        return None;
    }
    ls.sort_by_key(|&(s, d)| (d, s));
    let mut cur = 1i64;
    let mut out = Vec::new();
    for (s, d) in ls {
        if d < cur || d % cur != 0 {
            return None;
        }
        if d / cur > 1 {
            out.push((d / cur, cur));
        }
        cur = d.checked_mul(s)?;
    }
    out.push((((m + cur - 1) / cur).max(1), cur));
    Some(out)
}

fn pad_rank(l: &Layout, r: usize) -> Result<Vec<Layout>, String> {
    let mut ms: Vec<Layout> = l.modes().collect();
    while ms.len() < r {
        ms.push(lay("1:0")?);
    }
    Ok(ms)
}

fn cosize_max(l: &Layout) -> Result<i64, String> {
    Ok(values(l)?.into_iter().max().unwrap_or(0) + 1)
}

// ---------------------------------------------------------------------------------------------
// Tilers
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
enum Tiler {
    Keep,
    L(Box<Layout>),
    Modes(Vec<Tiler>),
}

fn top_level_colon(s: &str) -> bool {
    let mut d = 0i32;
    for ch in s.chars() {
        match ch {
            '(' | '<' => d += 1,
            ')' | '>' => d -= 1,
            ':' if d == 0 => return true,
            _ => {}
        }
    }
    false
}

fn split_top(inner: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut d, mut start) = (0i32, 0usize);
    for (k, ch) in inner.char_indices() {
        match ch {
            '(' | '<' => d += 1,
            ')' | '>' => d -= 1,
            ',' if d == 0 => {
                out.push(&inner[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    out.push(&inner[start..]);
    out
}

fn parse_tiler(s: &str) -> Result<Tiler, String> {
    let s = s.trim();
    if s == "_" {
        return Ok(Tiler::Keep);
    }
    if top_level_colon(s) {
        return Ok(Tiler::L(Box::new(lay(s)?)));
    }
    if let Ok(n) = int(s) {
        return Ok(Tiler::L(Box::new(lay(&format!("{n}:1"))?)));
    }
    let inner = s
        .strip_prefix('(')
        .and_then(|x| x.strip_suffix(')'))
        .ok_or_else(|| format!("{s:?} is not a tiler"))?;
    Ok(Tiler::Modes(
        split_top(inner)
            .into_iter()
            .map(parse_tiler)
            .collect::<Result<_, _>>()?,
    ))
}

/// The layout of a flat (non-nested) tiler element.
fn tiler_layout(t: &Tiler) -> Result<&Layout, String> {
    match t {
        Tiler::L(l) => Ok(l),
        other => Err(format!(
            "tiler element {other:?} is not a layout or integer"
        )),
    }
}

// ---------------------------------------------------------------------------------------------
// Laws
// ---------------------------------------------------------------------------------------------

fn check_compose(a: &Layout, b: &Layout, r: &Layout) -> Check {
    if !compatible(&tree(&b.shape()), &tree(&r.shape())) {
        return Err(format!(
            "shape {} is not compatible with {}",
            r.shape(),
            b.shape()
        ));
    }
    guard(b.size(), "B")?;
    for (i, bi) in b.offsets().enumerate() {
        let want = at(a, bi)?;
        let got = r.index_1d(i as i64).ok_or("R smaller than B")?;
        if got != want {
            return Err(format!("R({i}) = {got}, A(B({i})) = {want}"));
        }
    }
    Ok(())
}

/// A layout or a composed layout (`Sw<B,M,S> o OFFSET o LAYOUT`), evaluated by the library.
fn comp(s: &str) -> Result<ComposedLayout, String> {
    s.parse()
        .map_err(|e| format!("{s:?} is not a (composed) layout: {e}"))
}

/// The function of a composed layout over its domain.
fn cvalues(c: &ComposedLayout) -> Result<Vec<i64>, String> {
    guard(c.size(), &c.to_string())?;
    Ok(c.offsets().collect())
}

/// A composed layout at any index (the last mode of the inner layout runs on).
fn cat(c: &ComposedLayout, i: i64) -> Result<i64, String> {
    c.index_any(i).map_err(|e| format!("{c} at {i}: {e}"))
}

fn basis_lay(s: &str) -> Result<Layout<ScaledBasis>, String> {
    s.parse()
        .map_err(|e| format!("{s:?} is not a layout with basis strides: {e}"))
}

/// composition with basis strides: B's value is a coordinate of A (or A's value a coordinate).
fn check_compose_basis(a: &str, b: &str, ours: &str) -> Check {
    let mut points = Vec::new();
    if b.contains('@') {
        let (a, b, r) = (lay(a)?, basis_lay(b)?, lay(ours)?);
        guard(b.size(), "B")?;
        for i in 0..b.size() {
            let c = b.value_1d(i).ok_or("B has no value")?;
            let want = a.index(&c).map_err(|e| e.to_string())?;
            points.push((i, r.index_1d(i), Some(want), r.shape(), b.shape()));
        }
    } else {
        let (a, b, r) = (basis_lay(a)?, lay(b)?, basis_lay(ours)?);
        guard(b.size(), "B")?;
        for i in 0..b.size() {
            let bi = b.index_1d(i).ok_or("B short")?;
            let want = a.value(&IntTuple::int(bi)).map_err(|e| e.to_string())?;
            let got = r.value_1d(i);
            if got.as_ref() != Some(&want) {
                return Err(format!("R({i}) = {got:?}, A(B({i})) = {want}"));
            }
        }
        return Ok(());
    }
    for (i, got, want, rs, bs) in points {
        if !compatible(&tree(&bs), &tree(&rs)) {
            return Err(format!("shape {rs} is not compatible with {bs}"));
        }
        if got != want {
            return Err(format!("R({i}) = {got:?}, A(B({i})) = {want:?}"));
        }
    }
    Ok(())
}

/// composition where an operand or the result is a composed layout: R(i) = A(B(i)).
fn check_compose_composed(a: &ComposedLayout, b: &ComposedLayout, r: &ComposedLayout) -> Check {
    if !compatible(&tree(&b.shape()), &tree(&r.shape())) {
        return Err(format!(
            "shape {} is not compatible with {}",
            r.shape(),
            b.shape()
        ));
    }
    for (i, bi) in cvalues(b)?.into_iter().enumerate() {
        let want = cat(a, bi)?;
        let got = r.index_1d(i as i64).ok_or("R smaller than B")?;
        if got != want {
            return Err(format!("R({i}) = {got}, A(B({i})) = {want}"));
        }
    }
    Ok(())
}

fn check_compose_tiler(a: &Layout, t: &Tiler, r: &Layout) -> Check {
    match t {
        Tiler::Keep => same_function(r, a, "kept mode"),
        Tiler::L(b) => check_compose(a, b, r),
        Tiler::Modes(ts) => {
            let (k, ra, rr) = (ts.len(), a.rank(), r.rank());
            if k > ra {
                return Err(format!("tiler of {k} modes for a layout of rank {ra}"));
            }
            if rr != k && rr != ra {
                return Err(format!("result rank {rr}, expected {k} (or {ra})"));
            }
            for (i, ti) in ts.iter().enumerate() {
                check_compose_tiler(&mode(a, i)?, ti, &mode(r, i)?)
                    .map_err(|e| format!("mode {i}: {e}"))?;
            }
            for i in k..rr {
                same_function(&mode(r, i)?, &mode(a, i)?, &format!("untiled mode {i}"))?;
            }
            Ok(())
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Variant {
    Logical,
    Zipped,
    Tiled,
    Flat,
}

fn variant(op: &str) -> Variant {
    match op.split('_').next() {
        Some("zipped") => Variant::Zipped,
        Some("tiled") => Variant::Tiled,
        Some("flat") => Variant::Flat,
        _ => Variant::Logical,
    }
}

/// One tiled mode of a divide or product: the values of its two factors and how they combine.
struct Pair {
    first: Vec<i64>,
    second: Vec<i64>,
    /// `true`: value = A(first + second) (divide); `false`: first + second (product).
    through: Option<Layout>,
}

impl Pair {
    fn value(&self, x: i64, y: i64) -> Result<i64, String> {
        let (u, v) = (self.first[x as usize], self.second[y as usize]);
        match &self.through {
            Some(a) => at(a, u + v),
            None => Ok(u + v),
        }
    }
}

/// Checks a divide or product result `r` given its tiled pairs and untiled modes.
fn check_split(
    r: &Layout,
    pairs: &[Pair],
    untiled: &[Layout],
    var: Variant,
    tuple: bool,
    first_exact: Option<&[Layout]>,
) -> Check {
    let k = pairs.len();
    let fs: Vec<i64> = pairs.iter().map(|p| p.first.len() as i64).collect();
    let ss: Vec<i64> = pairs.iter().map(|p| p.second.len() as i64).collect();
    let us: Vec<Vec<i64>> = untiled.iter().map(values).collect::<Result<_, _>>()?;
    let usz: Vec<i64> = us.iter().map(|u| u.len() as i64).collect();
    // Coordinate order of the result's 1-D index.
    let mut sizes = Vec::new();
    if var == Variant::Logical {
        for i in 0..k {
            sizes.extend([fs[i], ss[i]]);
        }
    } else {
        sizes.extend(&fs);
        sizes.extend(&ss);
    }
    sizes.extend(&usz);
    let want = enumerate(&sizes, |c| {
        let mut v = 0;
        for (i, p) in pairs.iter().enumerate() {
            let (x, y) = if var == Variant::Logical {
                (c[2 * i], c[2 * i + 1])
            } else {
                (c[i], c[k + i])
            };
            v += p.value(x, y)?;
        }
        for (j, u) in us.iter().enumerate() {
            v += u[c[c.len() - us.len() + j] as usize];
        }
        Ok(v)
    })?;
    expect_function(r, &want)?;

    // Mode structure.
    let ms = mode_sizes(r);
    let prod = |v: &[i64]| v.iter().product::<i64>();
    let rest: Vec<i64> = ss.iter().chain(&usz).copied().collect();
    let firsts_of = |m: &Layout| -> Vec<Layout> { m.modes().collect() };
    match (var, tuple) {
        (Variant::Logical, false) | (Variant::Zipped, false) => {
            if ms != [fs[0], ss[0]] {
                return Err(format!(
                    "mode sizes {ms:?}, expected [{}, {}]",
                    fs[0], ss[0]
                ));
            }
        }
        (Variant::Logical, true) => {
            if ms.len() != k + usz.len() {
                return Err(format!("rank {}, expected {}", ms.len(), k + usz.len()));
            }
            for i in 0..k {
                let mi = mode(r, i)?;
                if mode_sizes(&mi) != [fs[i], ss[i]] {
                    return Err(format!(
                        "mode {i} is {mi}, expected sizes [{}, {}]",
                        fs[i], ss[i]
                    ));
                }
            }
        }
        (Variant::Zipped, true) => {
            let (m0, m1) = (mode(r, 0)?, mode(r, 1)?);
            if ms.len() != 2 || mode_sizes(&m0) != fs || mode_sizes(&m1) != rest {
                return Err(format!(
                    "zipped mode sizes {:?}/{:?}, expected {fs:?}/{rest:?}",
                    mode_sizes(&m0),
                    mode_sizes(&m1)
                ));
            }
        }
        (Variant::Tiled, _) => {
            let m0 = mode(r, 0)?;
            let ok = if tuple {
                mode_sizes(&m0) == fs && ms[1..] == rest[..]
            } else {
                m0.size() == fs[0] && prod(&ms[1..]) == ss[0]
            };
            if !ok {
                return Err(format!(
                    "tiled mode sizes {:?} + {:?}, expected {fs:?} + {rest:?}",
                    mode_sizes(&m0),
                    &ms[1..]
                ));
            }
        }
        (Variant::Flat, _) => {
            let ok = if tuple {
                ms.len() == k + rest.len() && ms[..k] == fs[..] && ms[k..] == rest[..]
            } else {
                (1..ms.len()).any(|p| prod(&ms[..p]) == fs[0] && prod(&ms[p..]) == ss[0])
            };
            if !ok {
                return Err(format!(
                    "flat mode sizes {ms:?}, expected {fs:?} then {rest:?}"
                ));
            }
        }
    }
    if let Some(exact) = first_exact {
        // Products: the block modes are A's modes, exactly.
        let got: Vec<Layout> = if !tuple {
            vec![mode(r, 0)?]
        } else if var == Variant::Logical {
            (0..k)
                .map(|i| mode(&mode(r, i)?, 0))
                .collect::<Result<_, _>>()?
        } else {
            firsts_of(&mode(r, 0)?)
        };
        for (g, w) in got.iter().zip(exact) {
            if g.to_string() != w.to_string() {
                return Err(format!("block mode {g} is not {w}"));
            }
        }
    }
    Ok(())
}

/// The tiled modes of `a` for a tiler.
/// `(mode of A, tiler element)` pairs, the untiled modes of A, and whether the tiler is a tuple.
type ByMode = (Vec<(Layout, Layout)>, Vec<Layout>, bool);

fn by_mode(a: &Layout, t: &Tiler) -> Result<ByMode, String> {
    match t {
        Tiler::L(b) => Ok((vec![(a.clone(), (**b).clone())], vec![], false)),
        Tiler::Keep => Err("`_` tiler".into()),
        Tiler::Modes(ts) => {
            if ts.len() > a.rank() {
                return Err(format!(
                    "tiler of {} modes for a layout of rank {}",
                    ts.len(),
                    a.rank()
                ));
            }
            let mut pairs = Vec::new();
            for (i, ti) in ts.iter().enumerate() {
                pairs.push((mode(a, i)?, tiler_layout(ti)?.clone()));
            }
            let rest = (ts.len()..a.rank())
                .map(|i| mode(a, i))
                .collect::<Result<_, _>>()?;
            Ok((pairs, rest, true))
        }
    }
}

/// `Ok(None)`: no reference (a complement does not exist), the law cannot be checked.
fn check_divide(op: &str, a: &Layout, tiler: &str, r: &Layout) -> Result<Option<()>, String> {
    let (pairs, untiled, tuple) = by_mode(a, &parse_tiler(tiler)?)?;
    let mut ps = Vec::new();
    for (ai, ti) in &pairs {
        let Some(tc) = ref_complement(ti, ai.size()) else {
            return Ok(None);
        };
        let tcsize: i64 = tc.iter().map(|x| x.0).product();
        guard(tcsize, "complement")?;
        ps.push(Pair {
            first: values(ti)?,
            second: (0..tcsize).map(|y| eval_leaves(&tc, y)).collect(),
            through: Some(ai.clone()),
        });
    }
    check_split(r, &ps, &untiled, variant(op), tuple, None).map(Some)
}

fn check_product(op: &str, a: &Layout, b: &str, r: &Layout) -> Result<Option<()>, String> {
    let var = variant(op);
    if op == "blocked_product" || op == "raked_product" {
        let b = lay(b)?;
        let rk = a.rank().max(b.rank());
        let (am, bm) = (pad_rank(a, rk)?, pad_rank(&b, rk)?);
        let Some(ac) = ref_complement(a, a.size() * cosize_max(&b)?) else {
            return Ok(None);
        };
        let raked = op == "raked_product";
        let av: Vec<Vec<i64>> = am.iter().map(values).collect::<Result<_, _>>()?;
        let bv: Vec<Vec<i64>> = bm.iter().map(values).collect::<Result<_, _>>()?;
        let mut sizes = Vec::new();
        for i in 0..rk {
            let (x, y) = (av[i].len() as i64, bv[i].len() as i64);
            sizes.extend(if raked { [y, x] } else { [x, y] });
        }
        let want = enumerate(&sizes, |c| {
            let (mut va, mut vb) = (0, 0);
            for i in 0..rk {
                let (ca, cb) = if raked {
                    (c[2 * i + 1], c[2 * i])
                } else {
                    (c[2 * i], c[2 * i + 1])
                };
                va += av[i][ca as usize];
                vb += bv[i][cb as usize];
            }
            Ok(va + eval_leaves(&ac, vb))
        })?;
        expect_function(r, &want)?;
        let ms = mode_sizes(r);
        let expect: Vec<i64> = (0..rk).map(|i| am[i].size() * bm[i].size()).collect();
        if ms != expect {
            return Err(format!("mode sizes {ms:?}, expected {expect:?}"));
        }
        return Ok(Some(()));
    }
    let (pairs, untiled, tuple) = by_mode(a, &parse_tiler(b)?)?;
    let mut ps = Vec::new();
    let mut blocks = Vec::new();
    for (ai, bi) in &pairs {
        let Some(ac) = ref_complement(ai, ai.size() * cosize_max(bi)?) else {
            return Ok(None);
        };
        ps.push(Pair {
            first: values(ai)?,
            second: values(bi)?
                .into_iter()
                .map(|v| eval_leaves(&ac, v))
                .collect(),
            through: None,
        });
        blocks.push(ai.clone());
    }
    check_split(r, &ps, &untiled, var, tuple, Some(&blocks)).map(Some)
}

fn check_complement(a: &Layout, m: i64, r: &Layout) -> Check {
    let rv = values(r)?;
    if let Some(i) = rv.windows(2).position(|w| w[0] >= w[1]) {
        return Err(format!(
            "R is not strictly increasing at {i}: {} then {}",
            rv[i],
            rv[i + 1]
        ));
    }
    let av = values(a)?;
    let image: HashSet<i64> = av.iter().copied().collect();
    if let Some(i) = (1..rv.len()).find(|&i| image.contains(&rv[i])) {
        return Err(format!("R({i}) = {} is in the image of A", rv[i]));
    }
    let amax = av.iter().copied().max().unwrap_or(0);
    let rmax = rv.iter().copied().max().unwrap_or(0);
    if amax + rmax + 1 < m {
        return Err(format!("cosize((A,R)) = {} < {m}", amax + rmax + 1));
    }
    let fa: Vec<(i64, i64)> = leaves(a)
        .into_iter()
        .filter(|&(s, d)| s > 1 && d != 0)
        .collect();
    let fsize: i64 = fa.iter().map(|x| x.0).product();
    if r.size() < m / fsize {
        return Err(format!(
            "size(R) = {} < M / size(filter(A)) = {}",
            r.size(),
            m / fsize
        ));
    }
    let fvals: Vec<i64> = (0..fsize).map(|i| eval_leaves(&fa, i)).collect();
    let mut seen = HashSet::new();
    if fvals.iter().all(|&v| seen.insert(v)) {
        guard(fsize.saturating_mul(r.size()), "(filter(A), R)")?;
        let mut seen = HashSet::new();
        let all_distinct = rv
            .iter()
            .all(|&y| fvals.iter().all(|&x| seen.insert(x + y)));
        if !all_distinct {
            return Err("(filter(A), R) is not injective".into());
        }
    }
    Ok(())
}

fn swizzle(b: i64, m: i64, s: i64, x: i64) -> i64 {
    let mask = ((1i64 << b) - 1) << (m + s.max(0));
    if s >= 0 {
        x ^ ((x & mask) >> s)
    } else {
        x ^ ((x & mask) << -s)
    }
}

fn swizzle_args(v: &Value) -> Result<(i64, i64, i64), String> {
    let xs: Vec<i64> = v
        .as_array()
        .ok_or("swizzle args not a list")?
        .iter()
        .map(|x| match x {
            Value::String(s) => int(s),
            Value::Number(n) => n.as_i64().ok_or_else(|| format!("{n}")),
            _ => Err(format!("{x}")),
        })
        .collect::<Result<_, _>>()?;
    match xs[..] {
        [b, m, s] => Ok((b, m, s)),
        _ => Err(format!("swizzle needs 3 integers, got {xs:?}")),
    }
}

/// Text of argument `k` of a case.
fn arg(case: &Value, k: usize) -> Result<String, String> {
    match &case["args"][k] {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        other => Err(format!("argument {k} is {other}")),
    }
}

/// Whether `ours` satisfies the law of the case's operation (`case["op"]`, the file's name).
fn check(case: &Value, ours: &str) -> Check {
    let op = case["op"].as_str().ok_or("no op")?;
    let a0 = || arg(case, 0);
    let a1 = || arg(case, 1);
    match op {
        "make_layout" => {
            let (shape, r) = (tup(&a0()?)?, lay(ours)?);
            if r.shape() != shape {
                return Err(format!("shape {} != {shape}", r.shape()));
            }
            let mut sh = Vec::new();
            tree(&shape).leaves(&mut sh);
            let want = enumerate(&sh, |c| {
                Ok(if a1()? == "LayoutLeft" {
                    // LayoutLeft is the identity function.
                    c.iter().zip(&sh).rev().fold(0, |acc, (&x, &s)| acc * s + x)
                } else {
                    // LayoutRight: row-major index of the natural coordinate.
                    c.iter().zip(&sh).fold(0, |acc, (&x, &s)| acc * s + x)
                })
            })?;
            expect_function(&r, &want)
        }
        "size" | "cosize" | "rank" | "depth" => {
            let (a, v) = (lay(&a0()?)?, int(ours)?);
            let t = tree(&a.shape());
            let want = match op {
                "size" => values(&a)?.len() as i64,
                "cosize" => cosize_max(&a)?,
                "rank" => t.rank() as i64,
                _ => t.depth() as i64,
            };
            equal(v, want)
        }
        "flatten" => {
            let (a, r) = (lay(&a0()?)?, lay(ours)?);
            let flat = |t: &T| -> String {
                let mut v = Vec::new();
                t.leaves(&mut v);
                match t {
                    T::I(x) => x.to_string(),
                    T::U(_) => format!(
                        "({})",
                        v.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
                    ),
                }
            };
            let want = format!("{}:{}", flat(&tree(&a.shape())), flat(&tree(&a.stride())));
            expect_text(&r.to_string(), &want)
        }
        "crd2idx" => {
            fn eval(c: &T, l: &Layout) -> Result<i64, String> {
                match c {
                    T::I(i) => at(l, *i),
                    T::U(xs) => {
                        if xs.len() != l.rank() || l.is_leaf() {
                            return Err(format!("coordinate rank {} for {l}", xs.len()));
                        }
                        xs.iter()
                            .enumerate()
                            .map(|(k, x)| eval(x, &mode(l, k)?))
                            .sum()
                    }
                }
            }
            let want = eval(&tree(&tup(&a0()?)?), &lay(&a1()?)?)?;
            let v = int(ours)?;
            equal(v, want)
        }
        "idx2crd" => {
            let i = int(&a0()?)?;
            let got = tree(&tup(ours)?);
            let (shape, leaf) = if case["variant"] == "layout" {
                let l = lay(&a1()?)?;
                let mut out = Vec::new();
                for (s, d) in leaves(&l) {
                    out.push(if s == 1 {
                        0
                    } else if d == 0 {
                        return Err("stride-0 leaf: no coordinate exists".into());
                    } else {
                        (i / d) % s
                    });
                }
                (l.shape(), out)
            } else {
                let shape = tup(&a1()?)?;
                let mut sh = Vec::new();
                tree(&shape).leaves(&mut sh);
                // Colexicographic: every leaf but the last reduced, the last runs on.
                let mut rest = i;
                let n = sh.len();
                let out: Vec<i64> = sh
                    .iter()
                    .enumerate()
                    .map(|(k, &s)| {
                        if k + 1 == n {
                            rest
                        } else {
                            let v = rest % s;
                            rest /= s;
                            v
                        }
                    })
                    .collect();
                (shape, out)
            };
            let mut gl = Vec::new();
            got.leaves(&mut gl);
            if !got.same_tree(&tree(&shape)) || gl != leaf {
                return Err(format!("expected leaves {leaf:?} in the tree of {shape}"));
            }
            Ok(())
        }
        "coalesce" => {
            let (a, r) = (lay(&a0()?)?, lay(ours)?);
            if r.depth() > 1 {
                return Err(format!("depth {} > 1", r.depth()));
            }
            same_function(&r, &a, "coalesce")
        }
        "coalesce_by_mode" => {
            fn by_mode(a: &Layout, r: &Layout, p: &T) -> Check {
                match p {
                    T::I(_) => {
                        if r.depth() > 1 {
                            return Err(format!("{r}: depth > 1"));
                        }
                        same_function(r, a, "coalesced mode")
                    }
                    T::U(ps) => {
                        if r.rank() != a.rank() {
                            return Err(format!("rank {} != {}", r.rank(), a.rank()));
                        }
                        for k in 0..a.rank() {
                            let (am, rm) = (mode(a, k)?, mode(r, k)?);
                            match ps.get(k) {
                                Some(pk) => {
                                    by_mode(&am, &rm, pk).map_err(|e| format!("mode {k}: {e}"))?
                                }
                                None if rm.to_string() != am.to_string() => {
                                    return Err(format!("mode {k} changed: {rm} != {am}"))
                                }
                                None => {}
                            }
                        }
                        same_function(r, a, "coalesce")
                    }
                }
            }
            by_mode(&lay(&a0()?)?, &lay(ours)?, &tree(&tup(&a1()?)?))
        }
        "filter" => {
            let (a, r) = (lay(&a0()?)?, lay(ours)?);
            let kept: Vec<(i64, i64)> = leaves(&a)
                .into_iter()
                .filter(|&(s, d)| s > 1 && d != 0)
                .collect();
            let n: i64 = kept.iter().map(|x| x.0).product();
            guard(n, "filter")?;
            let want: Vec<i64> = (0..n).map(|i| eval_leaves(&kept, i)).collect();
            expect_function(&r, &want)?;
            if ours != "1:0" && r.stride_leaves().contains(&0) {
                return Err("a stride-0 mode is left".into());
            }
            Ok(())
        }
        "complement" | "complement_nocotarget" => {
            let a = lay(&a0()?)?;
            let m = if op == "complement" {
                tup(&a1()?)?.size().map_err(|e| e.to_string())?
            } else {
                i64::try_from(a.cosize()).map_err(|e| e.to_string())?
            };
            check_complement(&a, m, &lay(ours)?)
        }
        "composition" if a0()?.contains('@') || a1()?.contains('@') => {
            check_compose_basis(&a0()?, &a1()?, ours)
        }
        "composition"
            if [a0()?, a1()?, ours.to_string()]
                .iter()
                .any(|x| x.contains("Sw")) =>
        {
            check_compose_composed(&comp(&a0()?)?, &comp(&a1()?)?, &comp(ours)?)
        }
        "composition" => check_compose(&lay(&a0()?)?, &lay(&a1()?)?, &lay(ours)?),
        "composition_tiler" => {
            check_compose_tiler(&lay(&a0()?)?, &parse_tiler(&a1()?)?, &lay(ours)?)
        }
        "swizzle_composition" => {
            let (b, m, s) = swizzle_args(&case["args"][0])?;
            let a = lay(&a1()?)?;
            let parts: Vec<&str> = ours.split(" o ").collect();
            let [sw, off, l] = parts[..] else {
                return Err("expected `Sw<B,M,S> o OFFSET o LAYOUT`".into());
            };
            let inner = sw
                .strip_prefix("Sw<")
                .and_then(|x| x.strip_suffix('>'))
                .ok_or("no Sw<>")?;
            let v: Vec<i64> = inner.split(',').map(int).collect::<Result<_, _>>()?;
            let [rb, rm, rs] = v[..] else {
                return Err("Sw needs 3 integers".into());
            };
            let (off, l) = (int(off)?, lay(l)?);
            if !compatible(&tree(&a.shape()), &tree(&l.shape())) {
                return Err(format!(
                    "shape {} not compatible with {}",
                    l.shape(),
                    a.shape()
                ));
            }
            for (i, ai) in values(&a)?.into_iter().enumerate() {
                let got = swizzle(rb, rm, rs, off + l.index_1d(i as i64).ok_or("short")?);
                let want = swizzle(b, m, s, ai);
                if got != want {
                    return Err(format!("value at {i} is {got}, expected {want}"));
                }
            }
            Ok(())
        }
        "swizzle" => {
            let want = format!("Sw<{},{},{}>", a0()?, a1()?, arg(case, 2)?);
            expect_text(ours, &want)
        }
        "right_inverse" => {
            let (a, r) = (comp(&a0()?)?, comp(ours)?);
            for (i, ri) in cvalues(&r)?.into_iter().enumerate() {
                if cat(&a, ri)? != i as i64 {
                    return Err(format!("A(R({i})) = {} != {i}", cat(&a, ri)?));
                }
            }
            Ok(())
        }
        "left_inverse" => {
            let (a, r) = (comp(&a0()?)?, comp(ours)?);
            let av = cvalues(&a)?;
            let injective = av.iter().collect::<HashSet<_>>().len() == av.len();
            for (i, &x) in av.iter().enumerate() {
                let rx = cat(&r, x)?;
                if injective && rx != i as i64 {
                    return Err(format!("R(A({i})) = {rx} != {i}"));
                }
                if !injective && cat(&a, rx)? != x {
                    return Err(format!("A(R(A({i}))) != A({i})"));
                }
            }
            Ok(())
        }
        "nullspace" => {
            let (a, r) = (lay(&a0()?)?, lay(ours)?);
            let want: i64 = leaves(&a)
                .iter()
                .filter(|x| x.1 == 0)
                .map(|x| x.0)
                .product();
            if r.size() != want {
                return Err(format!(
                    "size {} != product of stride-0 extents {want}",
                    r.size()
                ));
            }
            let rv = values(&r)?;
            if rv.iter().collect::<HashSet<_>>().len() != rv.len() {
                return Err("R is not injective".into());
            }
            for (i, x) in rv.into_iter().enumerate() {
                if at(&a, x)? != 0 {
                    return Err(format!("A(R({i})) != 0"));
                }
            }
            Ok(())
        }
        "max_common_vector" => {
            let (a, b, n) = (lay(&a0()?)?, lay(&a1()?)?, int(ours)?);
            let av = values(&a)?;
            let common: HashSet<i64> = av
                .iter()
                .enumerate()
                .filter(|&(i, &x)| b.index_any(i as i64).ok() == Some(x))
                .map(|(_, &x)| x)
                .collect();
            match (0..n).find(|v| !common.contains(v)) {
                Some(v) => Err(format!("no coordinate with A(c) = B(c) = {v}")),
                None if n >= 1 => Ok(()),
                None => Err(format!("{n} < 1")),
            }
        }
        "max_common_layout" => {
            let (a, b, r) = (lay(&a0()?)?, lay(&a1()?)?, lay(ours)?);
            for (i, x) in values(&r)?.into_iter().enumerate() {
                let (va, vb) = (at(&a, x)?, at(&b, x)?);
                if va != i as i64 || vb != i as i64 {
                    return Err(format!("A(R({i})) = {va}, B(R({i})) = {vb}"));
                }
            }
            Ok(())
        }
        "upcast" | "downcast" => {
            let (n, a, r) = (int(&a0()?)?, lay(&a1()?)?, lay(ours)?);
            if !tree(&a.shape()).same_tree(&tree(&r.shape())) {
                return Err(format!(
                    "shape {} is not congruent to {}",
                    r.shape(),
                    a.shape()
                ));
            }
            let (al, rl) = (leaves(&a), leaves(&r));
            // downcast: one leaf of stride +-1 grows (the first of extent above 1, else the
            // first), so the narrow elements of one wide element stay adjacent; CuTe grows every
            // stride-1 leaf, which covers more than the same memory when there are two.
            let grow = al
                .iter()
                .position(|&(s, d)| d.abs() == 1 && s > 1)
                .or_else(|| al.iter().position(|&(_, d)| d.abs() == 1));
            for (k, (&(s, d), &(s2, d2))) in al.iter().zip(&rl).enumerate() {
                let ok = if op == "downcast" {
                    if Some(k) == grow {
                        (s2, d2) == (s * n, d)
                    } else {
                        (s2, d2) == (s, d * n)
                    }
                } else if d == 0 {
                    s2 == s
                } else {
                    let f = (n + d.abs() - 1) / d.abs();
                    s2 == (s + f - 1) / f
                };
                if !ok {
                    return Err(format!("leaf {k}: {s2}:{d2} from {s}:{d}"));
                }
            }
            if op == "upcast" {
                // N * R(u) == A(u') with u' scaled on leaves with 0 < |d| < N.
                let shape: Vec<i64> = rl.iter().map(|x| x.0).collect();
                let mut bad = None;
                enumerate(&shape, |c| {
                    let rv: i64 = c.iter().zip(&rl).map(|(x, l)| x * l.1).sum();
                    let mut av = 0;
                    for (x, &(_, d)) in c.iter().zip(&al) {
                        let scale = if d != 0 && d.abs() < n {
                            if n % d.abs() != 0 {
                                return Err(format!("stride {d} does not divide {n}"));
                            }
                            n / d.abs()
                        } else {
                            1
                        };
                        av += x * scale * d;
                    }
                    if n * rv != av && bad.is_none() {
                        bad = Some(format!("N*R({c:?}) = {} != A(u') = {av}", n * rv));
                    }
                    Ok(0)
                })?;
                if let Some(b) = bad {
                    return Err(b);
                }
            }
            Ok(())
        }
        "logical_divide" | "zipped_divide" | "tiled_divide" | "flat_divide" => {
            check_divide(op, &lay(&a0()?)?, &a1()?, &lay(ours)?).map(|_| ())
        }
        "logical_product" | "zipped_product" | "tiled_product" | "blocked_product"
        | "raked_product" => check_product(op, &lay(&a0()?)?, &a1()?, &lay(ours)?).map(|_| ()),
        "weakly_congruent" | "compatible" => {
            let (a, b) = (tree(&tup(&a0()?)?), tree(&tup(&a1()?)?));
            let want = if op == "compatible" {
                compatible(&a, &b)
            } else {
                weakly_congruent(&a, &b)
            };
            let want = if want { "1" } else { "0" };
            expect_text(ours, want)
        }
        "evenly_divides" => {
            match ours {
                "0" => return Ok(()), // CuTe only promises "true => ..."
                "1" => {}
                _ => return Err("expected 1 or 0".into()),
            }
            let b = a1()?;
            if top_level_colon(&b) || b.contains(':') {
                return Ok(()); // layout tilers: no law
            }
            let (a, b) = (tree(&tup(&a0()?)?), tree(&tup(&b)?));
            let divides = |m: &T, t: &T| matches!(t, T::I(n) if m.size() % n == 0);
            let ok = match &b {
                T::I(_) => divides(&a, &b),
                T::U(bs) if bs.iter().any(|x| matches!(x, T::U(_))) => return Ok(()), // nested: no law
                T::U(bs) => bs.iter().enumerate().all(|(i, bi)| match (&a, i) {
                    (T::U(am), _) => am.get(i).is_some_and(|m| divides(m, bi)),
                    (T::I(_), 0) => divides(&a, bi),
                    _ => false,
                }),
            };
            if ok {
                Ok(())
            } else {
                Err("true, but the tiler does not divide the shape".into())
            }
        }
        other => Err(format!("no law checker for {other}")),
    }
}

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

/// Whether CuTe's answer is a value this library can hold. CuTe occasionally prints layouts
/// outside the model (a negative extent: `left_inverse((4):(-1))` is `(-1,4):(0,1)`); such a case
/// has no text to agree with, so it is judged by the law alone.
fn reference_usable(case: &Value) -> bool {
    match case["cute_static_norm"].as_str() {
        Some(r) if r.contains(':') && !r.contains(" o ") && !r.contains('@') => lay(r).is_ok(),
        _ => true,
    }
}

/// The batch op a conformance file maps onto (SPEC.md section 5).
fn batch_op(op: &str) -> &str {
    match op {
        "coalesce_by_mode" => "coalesce",
        "complement_nocotarget" => "complement",
        "composition_tiler" | "swizzle_composition" => "composition",
        other => other,
    }
}

/// One request and how to judge its answer.
struct Request {
    label: String,
    case: Value,
    line: String,
    /// Expected text where CuTe's answer obeys the law.
    reference: Option<String>,
    /// Swizzle tables are judged against the formula instead of `check`.
    table: Option<String>,
}

fn requests(case: &Value) -> Vec<Request> {
    let op = case["op"].as_str().unwrap_or("?");
    let reference = case["cute_static_norm"].as_str().map(String::from);
    let mut out = vec![Request {
        label: op.to_string(),
        case: case.clone(),
        line: json!({"op": batch_op(op), "args": case["args"]}).to_string(),
        reference: reference.clone(),
        table: None,
    }];
    if op == "swizzle_composition" {
        // The value table of CuTe's composed layout, through our parser and evaluator (the
        // composition's own answer must equal that text, so it has the same table).
        if let (Some(r), Some(t)) = (reference.as_deref(), case["cute_static_table"].as_array()) {
            let want: Vec<String> = t.iter().map(|v| v.to_string()).collect();
            out.push(Request {
                label: "swizzle_composition (table)".into(),
                case: case.clone(),
                line: json!({"op": "table", "args": [r]}).to_string(),
                reference: Some(want.join(",")),
                table: Some(want.join(",")),
            });
        }
    }
    if op == "swizzle" {
        if let (Ok((b, m, s)), Some(t)) = (
            swizzle_args(&case["args"]),
            case["cute_static_table"].as_array(),
        ) {
            let want: Vec<String> = (0..t.len() as i64)
                .map(|x| swizzle(b, m, s, x).to_string())
                .collect();
            out.push(Request {
                label: "swizzle (table)".into(),
                case: case.clone(),
                line: json!({"op": "table", "args": [case["args"], t.len()]}).to_string(),
                reference: Some(want.join(",")),
                table: Some(want.join(",")),
            });
        }
    }
    out
}

#[derive(Default, Clone, Copy)]
struct Counts {
    agreed: u32,
    refused_both: u32,
    refused_unsound: u32,
    refused_noref: u32,
    alternative: u32,
    not_implemented: u32,
    failed: u32,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.agreed += o.agreed;
        self.refused_both += o.refused_both;
        self.refused_unsound += o.refused_unsound;
        self.refused_noref += o.refused_noref;
        self.alternative += o.alternative;
        self.not_implemented += o.not_implemented;
        self.failed += o.failed;
    }
}

struct Failure {
    id: String,
    args: String,
    ours: String,
    expected: String,
    why: String,
}

fn judge(req: &Request, answer: &Value, counts: &mut Counts, failures: &mut Vec<Failure>) {
    let case = &req.case;
    let law_ok = if overridden(case) {
        // CuTe's answer is judged by this project's law (see `overridden`).
        case["cute_static_norm"]
            .as_str()
            .map(|cute| check(case, cute).is_ok())
    } else {
        case["law_ok"].as_bool().filter(|_| reference_usable(case))
    };
    let cute_refused = case.get("cute_static_error").is_some_and(|e| !e.is_null());
    let mut fail = |ours: String, why: String| {
        failures.push(Failure {
            id: case["id"].as_str().unwrap_or("?").to_string(),
            args: case["args"].to_string(),
            ours,
            expected: req.reference.clone().unwrap_or_else(|| {
                format!(
                    "error ({})",
                    case["cute_static_error"].as_str().unwrap_or("no reference")
                )
            }),
            why,
        });
    };
    if let Some(kind) = answer["kind"].as_str() {
        let msg = answer["error"].as_str().unwrap_or("");
        if kind == "UnknownOp" || kind == "NotImplemented" {
            counts.not_implemented += 1;
        } else if law_ok == Some(true) {
            counts.failed += 1;
            fail(
                format!("error {kind}: {msg}"),
                "refused, but CuTe's answer obeys the law".into(),
            );
        } else if cute_refused {
            counts.refused_both += 1;
        } else if law_ok == Some(false) {
            counts.refused_unsound += 1;
        } else {
            counts.refused_noref += 1;
        }
        return;
    }
    let Some(ours) = answer["ok"].as_str() else {
        counts.failed += 1;
        fail(
            answer.to_string(),
            "answer is neither {\"ok\"} nor {\"error\", \"kind\"}".into(),
        );
        return;
    };
    // Where the answer is fixed (a value table, or CuTe's lawful answer), it must be that.
    let fixed = if let Some(want) = &req.table {
        Some((
            Some(want.as_str()),
            "value table differs from the reference table",
        ))
    } else if law_ok == Some(true) {
        Some((
            req.reference.as_deref(),
            "differs from CuTe's answer, which obeys the law",
        ))
    } else {
        None
    };
    if let Some((want, why)) = fixed {
        if Some(ours) == want {
            counts.agreed += 1;
        } else {
            counts.failed += 1;
            fail(ours.into(), why.into());
        }
        return;
    }
    if law_ok.is_none() && !cute_refused && Some(ours) == req.reference.as_deref() {
        counts.agreed += 1; // no reference law; same answer as CuTe
        return;
    }
    match check(case, ours) {
        Ok(()) => counts.alternative += 1,
        Err(why) => {
            counts.failed += 1;
            fail(ours.into(), format!("breaks the law: {why}"));
        }
    }
}

fn run_batch(lines: &[String]) -> Result<Vec<Value>, String> {
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let out = common::batch_raw(input.as_bytes());
    if !out.status.success() {
        return Err(format!(
            "cute batch exited with {}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let text = String::from_utf8(out.stdout).map_err(|e| e.to_string())?;
    let answers: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).map_err(|e| format!("answer {l:?} is not JSON: {e}")))
        .collect::<Result<_, _>>()?;
    if answers.len() != lines.len() {
        return Err(format!(
            "{} requests, {} answers",
            lines.len(),
            answers.len()
        ));
    }
    Ok(answers)
}

fn load(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect()
}

/// A wrong answer near a right one: the last integer of the text incremented (`1`/`0` flipped).
fn mutate(answer: &str) -> Option<String> {
    match answer {
        "1" => return Some("0".into()),
        "0" => return Some("1".into()),
        _ => {}
    }
    let end = answer.rfind(|c: char| c.is_ascii_digit())? + 1;
    let start = answer[..end]
        .rfind(|c: char| !c.is_ascii_digit() && c != '-')
        .map_or(0, |p| p + 1);
    let v: i64 = answer[start..end].parse().ok()?;
    Some(format!("{}{}{}", &answer[..start], v + 1, &answer[end..]))
}

/// How many mutated answers each checker rejects: a checker that rejects none is vacuous.
fn checker_strength(files: &[(String, Vec<Value>)]) -> BTreeMap<String, (u32, u32)> {
    let mut out: BTreeMap<String, (u32, u32)> = BTreeMap::new();
    for (_, cases) in files {
        for case in cases {
            if case["law_ok"].as_bool() != Some(true) || !reference_usable(case) {
                continue;
            }
            let (Some(cute), Some(op)) = (case["cute_static_norm"].as_str(), case["op"].as_str())
            else {
                continue;
            };
            let Some(m) = mutate(cute) else { continue };
            let e = out.entry(op.to_string()).or_default();
            e.1 += 1;
            if check(case, &m).is_err() {
                e.0 += 1;
            }
        }
    }
    out
}

/// The checkers must agree with the reference's `law_ok` on CuTe's own answers.
/// Records whose reference law verdict this project does not share: `downcast` of a layout with
/// two or more stride-+-1 leaves, where CuTe grows every such leaf and so covers more than the
/// same memory (`downcast 2 (1,5):(1,1)`: CuTe `(2,10):(1,1)` reaches offset 10); the library
/// grows one (`(1,10):(2,1)`), and the checker judges by that rule.
fn overridden(case: &Value) -> bool {
    case["op"] == "downcast"
        && case["args"][1]
            .as_str()
            .and_then(|t| lay(t).ok())
            .is_some_and(|l| leaves(&l).iter().filter(|&&(_, d)| d.abs() == 1).count() >= 2)
}

fn validate_checkers(files: &[(String, Vec<Value>)]) -> Vec<String> {
    let mut problems = Vec::new();
    for (_, cases) in files {
        for case in cases {
            let Some(law_ok) = case["law_ok"].as_bool() else {
                continue;
            };
            if !reference_usable(case) {
                continue;
            }
            let Some(cute) = case["cute_static_norm"].as_str() else {
                continue;
            };
            let verdict = check(case, cute);
            if verdict.is_ok() != law_ok && !overridden(case) {
                problems.push(format!(
                    "{} {} -> {cute}: reference law_ok={law_ok} ({}), checker says {:?}",
                    case["id"].as_str().unwrap_or("?"),
                    case["args"],
                    case["law_note"].as_str().unwrap_or(""),
                    verdict
                ));
            }
            if case["op"] == "swizzle" {
                if let (Ok((b, m, s)), Some(t)) = (
                    swizzle_args(&case["args"]),
                    case["cute_static_table"].as_array(),
                ) {
                    let ok = t
                        .iter()
                        .enumerate()
                        .all(|(x, v)| v.as_i64() == Some(swizzle(b, m, s, x as i64)));
                    if !ok {
                        problems.push(format!(
                            "{}: swizzle formula differs from CuTe's table",
                            case["id"]
                        ));
                    }
                }
            }
        }
    }
    problems
}

#[test]
fn conformance_vectors() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    paths.sort();
    assert!(
        !paths.is_empty(),
        "no conformance files in {}",
        dir.display()
    );
    let files: Vec<(String, Vec<Value>)> = paths
        .iter()
        .map(|p| {
            (
                p.file_stem()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned(),
                load(p),
            )
        })
        .collect();

    let problems = validate_checkers(&files);
    if !problems.is_empty() {
        eprintln!(
            "law checkers disagree with the reference on {} cases:",
            problems.len()
        );
        for p in problems
            .iter()
            .filter(|p| std::env::var("CHECKER_FILTER").map_or(true, |f| p.contains(&f)))
            .take(30)
        {
            eprintln!("  {p}");
        }
        panic!("the law checkers disagree with the reference (listed above)");
    }

    let strength = checker_strength(&files);
    let vacuous: Vec<&String> = strength
        .iter()
        .filter(|&(_, &(killed, total))| total >= 10 && killed == 0)
        .map(|(op, _)| op)
        .collect();
    if !vacuous.is_empty() {
        eprintln!("law checkers that reject no mutated answer: {vacuous:?}");
        panic!("law checkers that reject no mutated answer (listed above)");
    }

    let mut by_op: BTreeMap<String, Counts> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut errors = Vec::new();
    for (name, cases) in &files {
        let reqs: Vec<Request> = cases.iter().flat_map(requests).collect();
        let lines: Vec<String> = reqs.iter().map(|r| r.line.clone()).collect();
        match run_batch(&lines) {
            Ok(answers) => {
                for (req, ans) in reqs.iter().zip(&answers) {
                    let label = if name.starts_with("cute_unit_") {
                        format!("{} (unit)", req.label)
                    } else {
                        req.label.clone()
                    };
                    judge(req, ans, by_op.entry(label).or_default(), &mut failures);
                }
            }
            Err(e) => errors.push(format!("{name}: {e}")),
        }
    }

    println!();
    println!("CuTe conformance through `cute batch` (../shared/conformance, vendored)");
    println!(
        "{:<26} {:>7} {:>8} {:>8} {:>8} {:>8} {:>8} {:>7}",
        "op", "agreed", "ref/cute", "ref/unsd", "ref/noref", "altern.", "not impl", "FAILED"
    );
    let row = |name: &str, c: &Counts| {
        println!(
            "{name:<26} {:>7} {:>8} {:>8} {:>8} {:>8} {:>8} {:>7}",
            c.agreed,
            c.refused_both,
            c.refused_unsound,
            c.refused_noref,
            c.alternative,
            c.not_implemented,
            c.failed
        );
    };
    let mut total = Counts::default();
    for (op, c) in &by_op {
        row(op, c);
        total.add(c);
    }
    let c = total;
    row("TOTAL", &c);
    println!(
        "(agreed: same text as CuTe; ref/cute: refused where CuTe also refused; ref/unsd: refused where \
         CuTe's answer breaks the law; ref/noref: refused where no law reference exists; altern.: a \
         different answer that obeys the law)"
    );
    let strength: Vec<String> = strength
        .iter()
        .map(|(op, (k, t))| format!("{op} {k}/{t}"))
        .collect();
    println!(
        "law checkers reject these shares of mutated CuTe answers (last integer + 1): {}",
        strength.join(", ")
    );
    if c.not_implemented > 0 {
        errors.push(format!(
            "{} requests answered UnknownOp / NotImplemented",
            c.not_implemented
        ));
    }
    if !errors.is_empty() || !failures.is_empty() {
        for e in &errors {
            eprintln!("ERROR {e}");
        }
        eprintln!("{} failures; the first ones:", failures.len());
        for f in failures.iter().take(25) {
            eprintln!(
                "  {} args={} ours={:?} expected={:?}: {}",
                f.id, f.args, f.ours, f.expected, f.why
            );
        }
        panic!("conformance failures (listed above)");
    }
}
