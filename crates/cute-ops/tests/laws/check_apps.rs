//! Law checkers of the atoms, tensors, pointers, pictures and GPU operations, registered in
//! [`LAWS`](super::check::LAWS).
//!
//! Every reference is computed here from the arguments' text: layouts (integer, basis, F2 and
//! swizzled ones) are parsed into their leaves by [`Tx`] and evaluated colexicographically,
//! tensors are an iterator and such a layout, pointers an address and a width. A checker that
//! compares the answer with its reference calls [`judged`], so that the floor test
//! (`tests/laws_apps.rs`) can count the calls each law really judged.

use std::cell::Cell;
use std::collections::BTreeMap;

use super::generate::{name_mnk, COPY_ATOMS, MMA_ATOMS};
use cute_ops::{run_op, Arg, OpError};

type Res = Result<String, OpError>;
type Out = Result<(), String>;

/// Largest domain of an argument a checker enumerates.
const MAX_N: i64 = 1 << 12;
/// Largest layout an answer may be for a checker to enumerate it.
const MAX_ANSWER: i64 = 1 << 20;

thread_local! {
    static JUDGED: Cell<u64> = const { Cell::new(0) };
}

/// How many comparisons with a reference the checkers of this file made on this thread.
pub fn judged_count() -> u64 {
    JUDGED.with(Cell::get)
}

fn judged() {
    JUDGED.with(|c| c.set(c.get() + 1));
}

// ---------------------------------------------------------------------------------------------
// Text: tuples, layouts, swizzled layouts, pointers and tensors

/// A tuple's tree with text leaves.
#[derive(Clone, Debug, PartialEq)]
pub enum Tx {
    L(String),
    N(Vec<Tx>),
}

/// `s` split at the `sep`s outside brackets (`()`, `[]`, `<>`).
fn split_top(s: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (k, c) in s.char_indices() {
        match c {
            '(' | '[' | '<' => depth += 1,
            ')' | ']' | '>' => depth -= 1,
            _ if c == sep && depth == 0 => {
                out.push(&s[start..k]);
                start = k + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// `s` without one pair of enclosing parentheses, if the first one closes at the end.
fn strip_parens(s: &str) -> Option<&str> {
    let inner = s.strip_prefix('(')?.strip_suffix(')')?;
    let mut depth = 0i32;
    for c in inner.chars() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
            }
            _ => {}
        }
    }
    (depth == 0).then_some(inner)
}

impl Tx {
    pub fn parse(s: &str) -> Option<Tx> {
        let s = s.trim();
        if s.is_empty() {
            return None;
        }
        match strip_parens(s) {
            Some("") => Some(Tx::N(Vec::new())),
            Some(inner) => split_top(inner, ',')
                .into_iter()
                .map(Tx::parse)
                .collect::<Option<Vec<_>>>()
                .map(Tx::N),
            None => {
                let f2 = s.strip_prefix("F2(").and_then(|x| x.strip_suffix(')'));
                if f2.is_some_and(|x| x.chars().all(|c| c.is_ascii_digit())) {
                    return Some(Tx::L(s.to_string()));
                }
                if s.contains(['(', ')', ',', ':']) {
                    return None;
                }
                Some(Tx::L(s.to_string()))
            }
        }
    }

    fn leaves(&self) -> Vec<&str> {
        match self {
            Tx::L(s) => vec![s.as_str()],
            Tx::N(v) => v.iter().flat_map(Tx::leaves).collect(),
        }
    }

    fn ints(&self) -> Option<Vec<i64>> {
        self.leaves().iter().map(|x| x.parse().ok()).collect()
    }

    fn text(&self) -> String {
        match self {
            Tx::L(s) => s.clone(),
            Tx::N(v) => format!("({})", v.iter().map(Tx::text).collect::<Vec<_>>().join(",")),
        }
    }

    /// The leaf paths (top-level index first), in leaf order.
    fn paths(&self) -> Vec<Vec<usize>> {
        match self {
            Tx::L(_) => vec![Vec::new()],
            Tx::N(v) => v
                .iter()
                .enumerate()
                .flat_map(|(k, e)| {
                    e.paths().into_iter().map(move |mut p| {
                        p.insert(0, k);
                        p
                    })
                })
                .collect(),
        }
    }

    /// Whether two trees have the same nesting.
    fn congruent(&self, o: &Tx) -> bool {
        match (self, o) {
            (Tx::L(_), Tx::L(_)) => true,
            (Tx::N(a), Tx::N(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.congruent(y))
            }
            _ => false,
        }
    }
}

/// The product, if it fits.
fn prod(v: &[i64]) -> Option<i64> {
    v.iter().try_fold(1i64, |a, x| a.checked_mul(*x))
}

fn no_space(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// A stride: an integer, a scaled basis `v@a@b` (its path top-level first: `[b, a]`) or an F2
/// value `F2(v)`.
#[derive(Clone, Debug, PartialEq)]
enum St {
    I(i64),
    B(i64, Vec<usize>),
    F(u64),
}

fn stride_leaf(s: &str) -> Option<St> {
    if let Some(v) = s.strip_prefix("F2(").and_then(|r| r.strip_suffix(')')) {
        return Some(St::F(v.parse().ok()?));
    }
    if s.contains('@') {
        let mut parts = s.split('@');
        let v: i64 = parts.next()?.parse().ok()?;
        let mut path: Vec<usize> = parts.map(|p| p.parse().ok()).collect::<Option<_>>()?;
        path.reverse();
        return Some(St::B(v, path));
    }
    s.parse().ok().map(St::I)
}

/// A layout's leaves: extents, strides, and the leaf range of each top-level mode.
#[derive(Clone, Debug)]
struct Lay {
    shape: Tx,
    ext: Vec<i64>,
    st: Vec<St>,
    modes: Vec<(usize, usize)>,
}

impl Lay {
    fn parse(s: &str) -> Option<Lay> {
        Lay::parse_with(s, MAX_N)
    }

    /// The layout if its size is at most `limit`.
    fn parse_with(s: &str, limit: i64) -> Option<Lay> {
        let parts = split_top(s.trim(), ':');
        if parts.len() != 2 {
            return None;
        }
        let (shape, stride) = (Tx::parse(parts[0])?, Tx::parse(parts[1])?);
        if !shape.congruent(&stride) {
            return None;
        }
        let ext: Vec<i64> = shape.ints()?;
        if ext.iter().any(|e| *e < 1) {
            return None;
        }
        let st: Vec<St> = stride
            .leaves()
            .iter()
            .map(|x| stride_leaf(x))
            .collect::<Option<_>>()?;
        let modes = match &shape {
            Tx::L(_) => vec![(0, 1)],
            Tx::N(v) => {
                let mut at = 0;
                v.iter()
                    .map(|m| {
                        let n = m.leaves().len();
                        at += n;
                        (at - n, at)
                    })
                    .collect()
            }
        };
        let l = Lay {
            shape,
            ext,
            st,
            modes,
        };
        // Integer strides whose values overflow make no layout.
        if let Some(d) = l.ints() {
            l.ext.iter().zip(&d).try_fold(1i64, |acc, (e, d)| {
                acc.checked_add((e - 1).checked_mul(d.checked_abs()?)?)
            })?;
        }
        (l.size()? <= limit).then_some(l)
    }

    /// The compact column-major layout of a shape.
    fn of_shape(s: &str) -> Option<Lay> {
        let t = Tx::parse(s)?;
        let ext = t.ints()?;
        let mut acc = 1i64;
        let strides: Vec<String> = ext
            .iter()
            .map(|e| {
                let here = acc;
                acc = acc.saturating_mul(*e);
                here.to_string()
            })
            .collect();
        let mut k = 0;
        let stride = map_leaves(&t, &mut |_| {
            k += 1;
            strides[k - 1].clone()
        });
        Lay::parse(&format!("{}:{}", t.text(), stride.text()))
    }

    fn size(&self) -> Option<i64> {
        self.ext.iter().try_fold(1i64, |a, e| a.checked_mul(*e))
    }

    fn n(&self) -> i64 {
        self.size().unwrap_or(0)
    }

    fn rank(&self) -> usize {
        self.modes.len()
    }

    fn mode_size(&self, k: usize) -> i64 {
        self.modes
            .get(k)
            .map_or(1, |&(a, b)| self.ext[a..b].iter().product())
    }

    fn mode_sizes(&self) -> Vec<i64> {
        (0..self.rank()).map(|k| self.mode_size(k)).collect()
    }

    fn ints(&self) -> Option<Vec<i64>> {
        self.st
            .iter()
            .map(|s| match s {
                St::I(d) => Some(*d),
                _ => None,
            })
            .collect()
    }

    /// The leaf coordinates of the 1-D index `i` (the last leaf runs on).
    fn coords(&self, i: i64) -> Vec<i64> {
        let mut rest = i;
        let n = self.ext.len();
        (0..n)
            .map(|k| {
                if k + 1 == n {
                    rest
                } else {
                    let c = rest.rem_euclid(self.ext[k]);
                    rest = rest.div_euclid(self.ext[k]);
                    c
                }
            })
            .collect()
    }

    /// `L(i)` for integer strides.
    fn at(&self, i: i64) -> Option<i64> {
        let d = self.ints()?;
        self.coords(i)
            .iter()
            .zip(&d)
            .try_fold(0i64, |acc, (c, d)| acc.checked_add(c.checked_mul(*d)?))
    }

    /// `L(i)` for F2 strides (and integer ones): the XOR of the carry-less products.
    fn at_f2(&self, i: i64) -> Option<u64> {
        let mut acc = 0u64;
        for (c, s) in self.coords(i).iter().zip(&self.st) {
            let d = match s {
                St::F(v) => *v,
                St::I(v) if *v >= 0 => *v as u64,
                _ => return None,
            };
            let c = u64::try_from(*c).ok()?;
            for bit in 0..64 {
                if c >> bit & 1 == 1 {
                    acc ^= d.checked_shl(bit)?;
                    if d.leading_zeros() < bit {
                        return None;
                    }
                }
            }
        }
        Some(acc)
    }

    /// `L(i)` of an F2 layout, or of an integer one by integer arithmetic.
    fn at_any(&self, i: i64) -> Option<u64> {
        match self.ints() {
            Some(_) => u64::try_from(self.at(i)?).ok(),
            None => self.at_f2(i),
        }
    }

    /// `L(i)` for basis strides: the value at each path.
    fn at_basis(&self, i: i64) -> Option<BTreeMap<Vec<usize>, i64>> {
        let mut out = BTreeMap::new();
        for (c, s) in self.coords(i).iter().zip(&self.st) {
            match s {
                St::B(v, p) => {
                    let e = out.entry(p.clone()).or_insert(0i64);
                    *e = e.checked_add(c.checked_mul(*v)?)?;
                }
                St::I(d) => {
                    let e = out.entry(Vec::new()).or_insert(0i64);
                    *e = e.checked_add(c.checked_mul(*d)?)?;
                }
                St::F(_) => return None,
            }
        }
        out.retain(|_, v| *v != 0);
        Some(out)
    }

    /// The 1-D index of per-mode 1-D coordinates.
    fn index_of(&self, cs: &[i64]) -> i64 {
        let mut acc = 0i64;
        let mut scale = 1i64;
        for (k, c) in cs.iter().enumerate() {
            acc += c * scale;
            scale *= self.mode_size(k);
        }
        acc
    }

    /// The per-mode 1-D coordinates of the 1-D index `i`.
    fn mode_coords(&self, i: i64) -> Vec<i64> {
        colex(i, &self.mode_sizes())
    }
}

/// `i` as a colexicographic coordinate in `sizes` (the last one runs on).
fn colex(i: i64, sizes: &[i64]) -> Vec<i64> {
    let mut rest = i;
    let n = sizes.len();
    (0..n)
        .map(|k| {
            if k + 1 == n {
                rest
            } else {
                let c = rest.rem_euclid(sizes[k].max(1));
                rest = rest.div_euclid(sizes[k].max(1));
                c
            }
        })
        .collect()
}

fn map_leaves(t: &Tx, f: &mut impl FnMut(&str) -> String) -> Tx {
    match t {
        Tx::L(s) => Tx::L(f(s)),
        Tx::N(v) => Tx::N(v.iter().map(|e| map_leaves(e, f)).collect()),
    }
}

/// A swizzle's `(B, M, S)`.
type Sw3 = (i64, i64, i64);

/// A swizzle `Sw<B,M,S>` with `B, M >= 0` and `|S| >= B`.
fn swz(s: &str) -> Option<(i64, i64, i64)> {
    let inner = s.trim().strip_prefix("Sw<")?.strip_suffix('>')?;
    let v: Vec<i64> = inner
        .split(',')
        .map(|x| x.trim().parse().ok())
        .collect::<Option<_>>()?;
    let [b, m, s] = v[..] else { return None };
    valid_swizzle(b, m, s).then_some((b, m, s))
}

/// CuTe's condition on `Swizzle<B,M,S>` (`|S| >= B`), with every bit below 48.
fn valid_swizzle(b: i64, m: i64, s: i64) -> bool {
    b >= 0
        && m >= 0
        && s.checked_abs()
            .is_some_and(|a| a >= b && i128::from(b) + i128::from(m) + i128::from(a) < 48)
}

fn yyy((b, m, s): (i64, i64, i64)) -> i64 {
    ((1i64 << b) - 1) << (m + s.max(0))
}

fn zzz((b, m, s): (i64, i64, i64)) -> i64 {
    ((1i64 << b) - 1) << (m - s.min(0))
}

/// `x ^ ((x & yyy) >> S)`, a left shift for negative `S`.
fn sw_apply(w: (i64, i64, i64), x: i64) -> i64 {
    let y = x & yyy(w);
    if w.2 >= 0 {
        x ^ (y >> w.2)
    } else {
        x ^ (y << -w.2)
    }
}

/// An outer function of a composed layout.
#[derive(Clone, Debug)]
enum Outer {
    Sw((i64, i64, i64)),
    L(Lay),
}

/// A layout or a composed layout `F o OFF o ... o L` (outer functions outermost first).
#[derive(Clone, Debug)]
struct Fun {
    layers: Vec<(Outer, i64)>,
    inner: Lay,
}

impl Fun {
    fn parse(s: &str) -> Option<Fun> {
        Fun::parse_with(s, MAX_N)
    }

    fn parse_with(s: &str, limit: i64) -> Option<Fun> {
        let parts: Vec<&str> = s.split(" o ").collect();
        if parts.len().is_multiple_of(2) {
            return None;
        }
        let inner = Lay::parse_with(parts[parts.len() - 1], limit)?;
        inner.ints()?;
        let mut layers = Vec::new();
        for pair in parts[..parts.len() - 1].chunks(2) {
            let f = if pair[0].trim().starts_with("Sw<") {
                Outer::Sw(swz(pair[0])?)
            } else {
                let l = Lay::parse(pair[0])?;
                l.ints()?;
                Outer::L(l)
            };
            layers.push((f, pair[1].trim().parse().ok()?));
        }
        Some(Fun { layers, inner })
    }

    fn n(&self) -> i64 {
        self.inner.n()
    }

    fn at(&self, i: i64) -> Option<i64> {
        let mut v = self.inner.at(i)?;
        for (f, off) in self.layers.iter().rev() {
            v = v.checked_add(*off)?;
            v = match f {
                Outer::Sw(w) => sw_apply(*w, v),
                Outer::L(l) if v >= 0 => l.at(v)?,
                Outer::L(_) => return None,
            };
        }
        Some(v)
    }

    fn values(&self) -> Option<Vec<i64>> {
        (0..self.n()).map(|i| self.at(i)).collect()
    }
}

/// A typed pointer: memory space prefix, swizzle, element width, byte address, bit (sub-byte).
#[derive(Clone, Debug, PartialEq)]
struct Ptr {
    space: String,
    sw: Option<(i64, i64, i64)>,
    bits: i64,
    addr: i64,
    bit: Option<i64>,
}

fn parse_addr(s: &str) -> Option<i64> {
    let s = s.trim();
    match s.strip_prefix("0x") {
        Some(h) => i64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// A pointer's address: `0x...`, or `(nil)` for 0.
fn ptr_addr(s: &str) -> Option<i64> {
    match s.trim() {
        "(nil)" => Some(0),
        s => i64::from_str_radix(s.strip_prefix("0x")?, 16).ok(),
    }
}

impl Ptr {
    fn parse(s: &str) -> Option<Ptr> {
        let s = s.trim();
        let (sw, rest) = match s.strip_prefix("Sw<") {
            Some(_) => {
                let k = s.find(">_")?;
                // Sw<0,M,S> is the identity: no swizzle.
                (Some(swz(&s[..=k])?).filter(|w| w.0 > 0), &s[k + 2..])
            }
            None => (None, s),
        };
        let open = rest.find('[')?;
        let name = &rest[..open];
        let close = rest.find("b](")?;
        let bits: i64 = rest[open + 1..close].parse().ok()?;
        let addr = rest[close + 3..].strip_suffix(')')?;
        let (space, sub) = match name {
            "gmem_ptr" | "smem_ptr" | "ptr" => (name.trim_end_matches("ptr"), false),
            "gmem_subptr" | "smem_subptr" | "subptr" if bits < 8 => {
                (name.trim_end_matches("subptr"), true)
            }
            "tmem_" => ("tmem_", true),
            _ => return None,
        };
        let (addr, bit) = if space == "tmem_" {
            let (a, b) = addr.split_once('.')?;
            (ptr_addr(a)?, Some(ptr_addr(&format!("0x{b}"))?))
        } else if sub {
            let (a, b) = addr.rsplit_once('.')?;
            (ptr_addr(a)?, Some(b.parse().ok()?))
        } else {
            (ptr_addr(addr)?, None)
        };
        if !sub && (bits < 8 || bits % 8 != 0 || addr % (bits / 8) != 0) {
            return None;
        }
        Some(Ptr {
            space: space.to_string(),
            sw,
            bits,
            addr,
            bit,
        })
    }

    /// The byte address of element `k` (whole-byte elements, not tensor memory).
    fn elem(&self, k: i64) -> Option<i64> {
        if self.bits % 8 != 0 || self.bit.is_some() || self.space == "tmem_" {
            return None;
        }
        // A negative address is no address (the library refuses it).
        let a = self.addr.checked_add(k.checked_mul(self.bits / 8)?)?;
        (a >= 0).then(|| self.sw.map_or(a, |w| sw_apply(w, a)))
    }
}

/// A tensor's iterator.
#[derive(Clone, Debug)]
enum It {
    Count(i64),
    Arith(Tx),
    Ptr(Ptr),
}

/// A tensor: an iterator over a (composed) layout; or a zip of tensors.
#[derive(Clone, Debug)]
enum Ten {
    One(It, Fun),
    Zip(Vec<Ten>),
}

/// A tensor's value at an index.
#[derive(Clone, Debug, PartialEq)]
enum Val {
    I(i64),
    C(Tx),
    A(i64),
    Z(Vec<Val>),
}

impl Val {
    fn text(&self) -> String {
        match self {
            Val::I(v) => v.to_string(),
            Val::C(t) => t.text(),
            Val::A(a) => format!("{a:#x}"),
            Val::Z(v) => format!(
                "({})",
                v.iter().map(Val::text).collect::<Vec<_>>().join(",")
            ),
        }
    }
}

fn add_at(t: &mut Tx, path: &[usize], v: i64) -> Option<()> {
    match (t, path.split_first()) {
        (Tx::L(s), None) => {
            let x: i64 = s.parse().ok()?;
            *s = x.checked_add(v)?.to_string();
            Some(())
        }
        (Tx::N(c), Some((k, rest))) => add_at(c.get_mut(*k)?, rest, v),
        _ => None,
    }
}

impl Ten {
    fn parse(s: &str) -> Option<Ten> {
        Ten::parse_with(s, MAX_N)
    }

    fn parse_with(s: &str, limit: i64) -> Option<Ten> {
        let s = s.trim();
        if let Some(inner) = s.strip_prefix("zip(").and_then(|r| r.strip_suffix(')')) {
            return split_top(inner, ',')
                .into_iter()
                .map(|t| Ten::parse_with(t, limit))
                .collect::<Option<Vec<_>>>()
                // A zip's tensors have the first one's mode sizes.
                .filter(|v| v.iter().all(|t| t.mode_sizes() == v[0].mode_sizes()))
                .map(Ten::Zip);
        }
        let (it, rest) = s.split_once(" o ")?;
        let it = if let Some(b) = it
            .strip_prefix("counting_iter(")
            .and_then(|r| r.strip_suffix(')'))
        {
            It::Count(b.parse().ok()?)
        } else if let Some(o) = it.strip_prefix("ArithTuple") {
            It::Arith(Tx::parse(o)?)
        } else {
            It::Ptr(Ptr::parse(it)?)
        };
        let f = if let It::Arith(_) = it {
            let l = Lay::parse_with(rest, limit)?;
            Fun {
                layers: Vec::new(),
                inner: l,
            }
        } else {
            Fun::parse_with(rest, limit)?
        };
        // A pointer tensor's layout is a layout or a swizzled one (no layout outer functions).
        if matches!(it, It::Ptr(_)) && f.layers.iter().any(|(o, _)| matches!(o, Outer::L(_))) {
            return None;
        }
        Some(Ten::One(it, f))
    }

    fn fun(&self) -> Option<&Fun> {
        match self {
            Ten::One(_, f) => Some(f),
            Ten::Zip(v) => v.first()?.fun(),
        }
    }

    fn n(&self) -> i64 {
        self.fun().map_or(0, Fun::n)
    }

    fn mode_sizes(&self) -> Vec<i64> {
        self.fun().map_or(Vec::new(), |f| f.inner.mode_sizes())
    }

    fn at(&self, i: i64) -> Option<Val> {
        match self {
            Ten::Zip(v) => v.iter().map(|t| t.at(i)).collect::<Option<_>>().map(Val::Z),
            Ten::One(It::Count(b), f) => Some(Val::I(b.checked_add(f.at(i)?)?)),
            Ten::One(It::Ptr(p), f) => Some(Val::A(p.elem(f.at(i)?)?)),
            Ten::One(It::Arith(o), f) => {
                let mut v = o.clone();
                for (p, x) in f.inner.at_basis(i)? {
                    add_at(&mut v, &p, x)?;
                }
                Some(Val::C(v))
            }
        }
    }
}

/// Whether the tile `t` divides mode `k` of the tensor leaf by leaf (CuTe's composition
/// divisibility: each leaf's extent divides what is left of `t`, or the rest divides it).
fn divides_mode(t: &Ten, k: usize, tile: i64) -> bool {
    let Some((a, b)) = t.fun().and_then(|f| f.inner.modes.get(k).copied()) else {
        return false;
    };
    let ext = &t.fun().map(|f| f.inner.ext.clone()).unwrap_or_default()[a..b];
    let mut rest = tile;
    for e in ext {
        if rest == 1 {
            break;
        }
        if rest % e == 0 {
            rest /= e;
        } else if e % rest == 0 {
            rest = 1;
        } else {
            return false;
        }
    }
    rest == 1
}

/// The same values at every index and the same mode sizes.
fn same_tensor(r: &Ten, want: &dyn Fn(i64) -> Option<Val>, sizes: &[i64]) -> Out {
    if r.mode_sizes() != sizes {
        return Err(format!(
            "mode sizes {:?}, the reference {sizes:?}",
            r.mode_sizes()
        ));
    }
    for i in 0..r.n() {
        let Some(w) = want(i) else { return Ok(()) };
        let got = r.at(i);
        if got.as_ref() != Some(&w) {
            return Err(format!("R({i}) = {got:?}, the reference {w:?}"));
        }
    }
    judged();
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Small helpers

fn text(a: &Arg) -> Option<&str> {
    match a {
        Arg::Text(s) => Some(s.trim()),
        _ => None,
    }
}

fn int(a: &Arg) -> Option<i64> {
    match a {
        Arg::Int(i) => Some(*i),
        Arg::Text(s) => s.trim().parse().ok(),
        Arg::List(_) => None,
    }
}

fn answer(r: &Res) -> Option<&str> {
    r.as_ref().ok().map(|s| s.trim())
}

fn want_layout(s: &str) -> Result<Lay, String> {
    Lay::parse_with(s, MAX_ANSWER).ok_or_else(|| format!("answer {s:?} is not a layout"))
}

fn want_fun(s: &str) -> Result<Fun, String> {
    Fun::parse_with(s, MAX_ANSWER).ok_or_else(|| format!("answer {s:?} is not a (composed) layout"))
}

fn want_tensor(s: &str) -> Result<Ten, String> {
    Ten::parse_with(s, MAX_ANSWER).ok_or_else(|| format!("answer {s:?} is not a tensor"))
}

fn expect_text(r: &Res, want: &str) -> Out {
    match answer(r) {
        Some(a) if no_space(a) == no_space(want) => {
            judged();
            Ok(())
        }
        Some(a) => Err(format!("answer {a}, the reference gives {want}")),
        None => Err(format!("refused, the reference gives {want}")),
    }
}

fn expect_int(r: &Res, want: i64) -> Out {
    expect_text(r, &want.to_string())
}

/// The bits of an element type (a CuTe type name or a width).
fn type_bits(a: &Arg) -> Option<i64> {
    if let Arg::Int(n) = a {
        return [1, 2, 4, 8, 16, 32, 64, 128].contains(n).then_some(*n);
    }
    Some(match text(a)? {
        "half_t" | "bfloat16_t" | "int16_t" | "uint16_t" => 16,
        "float" | "tfloat32_t" | "int32_t" | "uint32_t" => 32,
        "int4_t" | "uint4_t" => 4,
        "uint2_t" | "int2_t" => 2,
        "int8_t" | "uint8_t" => 8,
        "double" | "int64_t" | "uint64_t" => 64,
        "uint128_t" => 128,
        s => {
            let n: i64 = s.parse().ok()?;
            return [1, 2, 4, 8, 16, 32, 64, 128].contains(&n).then_some(n);
        }
    })
}

/// Sorted values of the layout over `[0, size)`.
fn sorted_values(l: &Lay) -> Option<Vec<i64>> {
    let mut v: Vec<i64> = (0..l.n()).map(|i| l.at(i)).collect::<Option<_>>()?;
    v.sort_unstable();
    Some(v)
}

/// Whether the layout is a bijection onto `[0, size)`.
fn is_bijection(l: &Lay) -> bool {
    sorted_values(l).is_some_and(|v| v.iter().enumerate().all(|(k, x)| *x == k as i64))
}

/// A TV layout's values stay in `[0, tile)` and reach every index of it; with `one_to_one`,
/// each exactly once.
fn covers(l: &Lay, tile: i64, one_to_one: bool) -> Out {
    let Some(v) = sorted_values(l) else {
        return Err("not an integer layout".into());
    };
    if let Some(x) = v.iter().find(|x| !(0..tile).contains(*x)) {
        return Err(format!("value {x} is outside the tile [0, {tile})"));
    }
    let mut d = v.clone();
    d.dedup();
    if d.len() as i64 != tile {
        return Err(format!("reaches {} of the {tile} tile indices", d.len()));
    }
    if one_to_one && v.len() as i64 != tile {
        return Err(format!("{} values for a tile of {tile}", v.len()));
    }
    judged();
    Ok(())
}

/// Threads of an MMA atom (SM70's quadpairs have 8).
fn atom_threads(name: &str) -> i64 {
    if name.starts_with("SM70_") {
        8
    } else {
        32
    }
}

/// The per-mode sizes of a tiled MMA's atom layout `(am,an,ak)` (a shape of integers).
fn atom_layout(a: &Arg) -> Option<[i64; 3]> {
    let v = Tx::parse(text(a)?)?.ints()?;
    let mut out = [1, 1, 1];
    for (k, x) in v.iter().enumerate() {
        *out.get_mut(k)? = *x;
    }
    (v.len() <= 3 && out.iter().all(|x| *x >= 1)).then_some(out)
}

// ---------------------------------------------------------------------------------------------
// Atoms

pub fn law_mma_atom(args: &[Arg], r: &Res) -> Out {
    let [name, field] = args else { return Ok(()) };
    let (Some(name), Some(field)) = (text(name), text(field)) else {
        return Ok(());
    };
    let (Some([m, n, k]), true) = (name_mnk(name), MMA_ATOMS.contains(&name)) else {
        return Ok(());
    };
    let tile = match field {
        "shape_mnk" => return expect_text(r, &format!("({m},{n},{k})")),
        "thr_id" => {
            let l = want_layout(answer(r).ok_or("refused thr_id")?)?;
            if l.n() != atom_threads(name) {
                return Err(format!("{} threads, not {}", l.n(), atom_threads(name)));
            }
            judged();
            return Ok(());
        }
        "layout_a_tv" => m * k,
        "layout_b_tv" => n * k,
        "layout_c_tv" => m * n,
        _ => return Ok(()),
    };
    let l = want_layout(answer(r).ok_or("refused a TV layout")?)?;
    if l.mode_size(0) != atom_threads(name) {
        return Err(format!("thread mode of size {}", l.mode_size(0)));
    }
    covers(&l, tile, field == "layout_c_tv")
}

pub fn law_tiled_mma(args: &[Arg], r: &Res) -> Out {
    if args.len() < 4 {
        return Ok(());
    }
    let (Some(name), Some(al), Some("_"), Some(field)) = (
        text(&args[0]),
        atom_layout(&args[1]),
        text(&args[2]),
        text(&args[3]),
    ) else {
        return Ok(());
    };
    let Some([m, n, k]) = name_mnk(name).filter(|_| MMA_ATOMS.contains(&name)) else {
        return Ok(());
    };
    let Some(threads) = prod(&al).and_then(|p| p.checked_mul(atom_threads(name))) else {
        return Ok(());
    };
    let (tm, tn, tk) = (m * al[0], n * al[1], k * al[2]);
    let quadpair = atom_threads(name) != 32;
    let op_tile = |x: &str| match x {
        "a" => Some((tm, tk)),
        "b" => Some((tn, tk)),
        "c" => Some((tm, tn)),
        _ => None,
    };
    if args.len() == 4 {
        return match field {
            "size" if !quadpair => expect_int(r, threads),
            "tile_size_mnk" => expect_text(r, &format!("({tm},{tn},{tk})")),
            "thr_layout_vmnk" if !quadpair => {
                let l = want_layout(answer(r).ok_or("refused")?)?;
                if l.n() != threads {
                    return Err(format!("size {} != {threads} threads", l.n()));
                }
                judged();
                Ok(())
            }
            f => {
                let Some((a, b)) = f
                    .strip_prefix("layout_")
                    .and_then(|x| x.strip_suffix("_tv"))
                    .and_then(op_tile)
                else {
                    return Ok(());
                };
                let l = want_layout(answer(r).ok_or("refused a TV layout")?)?;
                if quadpair {
                    // SM70's lanes outside the atoms' quadpairs alias them: coverage only.
                    return covers(&l, a * b, false);
                }
                if l.mode_size(0) != threads {
                    return Err(format!("thread mode {} != {threads}", l.mode_size(0)));
                }
                covers(&l, a * b, f == "layout_c_tv")
            }
        };
    }
    // partition_X / offset_X of a global layout of exactly the operand's tile, for a thread.
    let [_, _, _, _, g, thread] = args else {
        return Ok(());
    };
    let Some((kind, x)) = field.split_once('_') else {
        return Ok(());
    };
    let (Some((rows, cols)), Some(g), Some(thread)) =
        (op_tile(x), text(g).and_then(Lay::parse), int(thread))
    else {
        return Ok(());
    };
    if quadpair || g.mode_sizes() != [rows, cols] || !(0..threads).contains(&thread) {
        return Ok(());
    }
    let tv_args: Vec<Arg> = args[..3]
        .iter()
        .cloned()
        .chain([Arg::Text(format!("layout_{x}_tv"))])
        .collect();
    let Some(tv) = run_op("tiled_mma", &tv_args)
        .ok()
        .and_then(|s| Lay::parse(&s))
    else {
        return Ok(());
    };
    let vals = tv.n() / threads;
    let mine: Option<Vec<i64>> = (0..vals)
        .map(|v| g.at(tv.at(thread + threads * v)?))
        .collect();
    let Some(mut mine) = mine else { return Ok(()) };
    match kind {
        "offset" => expect_int(r, mine[0]),
        "partition" => {
            let p = want_layout(answer(r).ok_or("refused a partition")?)?;
            let off_args: Vec<Arg> = args
                .iter()
                .cloned()
                .enumerate()
                .map(|(k, a)| {
                    if k == 3 {
                        Arg::Text(format!("offset_{x}"))
                    } else {
                        a
                    }
                })
                .collect();
            let Some(off) = run_op("tiled_mma", &off_args)
                .ok()
                .and_then(|s| s.trim().parse::<i64>().ok())
            else {
                return Ok(());
            };
            let got: Option<Vec<i64>> = (0..p.n()).map(|i| Some(off + p.at(i)?)).collect();
            let mut got = got.ok_or("the partition does not evaluate")?;
            got.sort_unstable();
            mine.sort_unstable();
            if got != mine {
                return Err(format!(
                    "thread {thread}'s elements {got:?}, the TV layout gives {mine:?}"
                ));
            }
            judged();
            Ok(())
        }
        _ => Ok(()),
    }
}

pub fn law_list_atoms(args: &[Arg], r: &Res) -> Out {
    let filter = match args {
        [] => "",
        [f] => match text(f) {
            Some(f) => f,
            None => return Ok(()),
        },
        _ => return Ok(()),
    };
    let Some(a) = answer(r) else {
        return Ok(());
    };
    if filter.is_empty() && a.is_empty() {
        return Err("no atom families".into());
    }
    for line in a.lines().filter(|l| !l.is_empty()) {
        let kind = line.split_whitespace().next().unwrap_or("");
        if !matches!(kind, "mma" | "copy") || !line.contains(" -- ") {
            return Err(format!("line {line:?} is not `kind arch pattern -- what`"));
        }
        // kind, architecture, then the name patterns up to ` -- `.
        let head = line.split(" -- ").next().unwrap_or("").to_lowercase();
        let mut words = head.splitn(3, ' ');
        let (k, arch, pattern) = (
            words.next().unwrap_or(""),
            words.next().unwrap_or(""),
            words.next().unwrap_or(""),
        );
        let f = filter.to_lowercase();
        let hit = f.is_empty() || pattern.contains(&f) || arch == f || k == f;
        if pattern.is_empty() || !hit {
            return Err(format!("line {line:?} does not match {filter:?}"));
        }
    }
    judged();
    Ok(())
}

pub fn law_copy_atom(args: &[Arg], r: &Res) -> Out {
    let [name, ty, field] = args else {
        return Ok(());
    };
    let (Some(n), Some(w), Some(f)) = (text(name), type_bits(ty), text(field)) else {
        return Ok(());
    };
    if !COPY_ATOMS.contains(&n) {
        return Ok(());
    }
    let bits_of = |side: &str| -> Option<Lay> {
        let a = [name.clone(), ty.clone(), Arg::Text(format!("{side}_bits"))];
        run_op("copy_atom", &a).ok().and_then(|s| Lay::parse(&s))
    };
    match f {
        "src" | "dst" | "ref" => {
            let Some(bl) = bits_of(f) else { return Ok(()) };
            let Some(a) = answer(r) else { return Ok(()) };
            if bl.mode_size(1) % w != 0 {
                // A value type wider than the atom's values: CuTe's recast rounds up.
                return Ok(());
            }
            let el = want_layout(a)?;
            let (t, vb, ve) = (el.mode_size(0), bl.mode_size(1), el.mode_size(1));
            if bl.mode_size(0) != t || ve * w != vb {
                return Err(format!(
                    "{t} x {ve} elements of {w} bits for a {} x {vb} bit layout",
                    bl.mode_size(0)
                ));
            }
            for th in 0..t {
                for v in 0..ve {
                    let (x, y) = (el.at(th + t * v), bl.at(th + t * v * w));
                    if x.zip(y).map(|(x, y)| x * w == y) != Some(true) {
                        return Err(format!(
                            "{f}({th},{v}) = {x:?}, the bit layout at ({th},{}) = {y:?}",
                            v * w
                        ));
                    }
                }
            }
            judged();
            Ok(())
        }
        "num_val_src" | "num_val_dst" => {
            let Some(bl) = bits_of(&f[8..]) else {
                return Ok(());
            };
            if bl.mode_size(1) % w != 0 {
                return Ok(());
            }
            expect_int(r, bl.mode_size(1) / w)
        }
        _ => Ok(()),
    }
}

/// Rank-2 sizes of a layout of rank at most 2 (a rank-1 one gets an extent-1 second mode).
fn two_modes(l: &Lay) -> Option<[i64; 2]> {
    match l.rank() {
        1 => Some([l.mode_size(0), 1]),
        2 => Some([l.mode_size(0), l.mode_size(1)]),
        _ => None,
    }
}

/// The raked product of a thread and a value layout, as CuTe's make_layout_tv defines it:
/// tile coordinate `m_i = v_i + V_i * t_i` per mode; the TV layout's law: `(t, v)` sits at the
/// tile index where the product is `THR(t) + size(THR) * VAL(v)`.
struct Raked {
    thr: Lay,
    val: Lay,
    t: [i64; 2],
    v: [i64; 2],
}

impl Raked {
    fn new(thr: &Arg, val: &Arg) -> Option<Raked> {
        let thr = Lay::parse(text(thr)?)?;
        let val = match text(val)? {
            "_" => Lay::parse("1:0")?,
            s => Lay::parse(s)?,
        };
        thr.ints()?;
        val.ints()?;
        let (t, v) = (two_modes(&thr)?, two_modes(&val)?);
        Some(Raked { thr, val, t, v })
    }

    /// The tiler `(M0,M1)`, of rank 1 when both layouts are.
    fn tiler_text(&self) -> String {
        let t = self.tile();
        if self.thr.rank() == 1 && self.val.rank() == 1 {
            format!("({})", t[0])
        } else {
            format!("({},{})", t[0], t[1])
        }
    }

    fn tile(&self) -> [i64; 2] {
        [self.t[0] * self.v[0], self.t[1] * self.v[1]]
    }

    /// THR(t) + size(THR) * VAL(v) at the tile coordinate (m0, m1).
    fn at(&self, m: [i64; 2]) -> Option<i64> {
        let (t0, t1) = (m[0] / self.v[0], m[1] / self.v[1]);
        let (v0, v1) = (m[0] % self.v[0], m[1] % self.v[1]);
        Some(self.thr.at(t0 + self.t[0] * t1)? + self.thr.n() * self.val.at(v0 + self.v[0] * v1)?)
    }

    /// The law of a TV layout: thread t's value v is at the tile index where the product is
    /// `t + size(THR) * v`.
    fn check_tv(&self, tv: &Lay) -> Out {
        if !is_bijection(&self.thr) || !is_bijection(&self.val) {
            return Ok(());
        }
        let (nt, nv) = (self.thr.n(), self.val.n());
        if tv.mode_size(0) != nt || tv.n() != nt * nv {
            return Err(format!(
                "TV sizes ({}, {}), THR and VAL give ({nt}, {nv})",
                tv.mode_size(0),
                tv.n() / tv.mode_size(0).max(1)
            ));
        }
        let tile = self.tile();
        for v in 0..nv {
            for t in 0..nt {
                let k = tv.at(t + nt * v).ok_or("TV does not evaluate")?;
                if !(0..tile[0] * tile[1]).contains(&k) {
                    return Err(format!("TV({t},{v}) = {k} is outside the tile"));
                }
                let m = [k % tile[0], k / tile[0]];
                if self.at(m) != Some(t + nt * v) {
                    return Err(format!(
                        "TV({t},{v}) = {k}, where the raked product is {:?}",
                        self.at(m)
                    ));
                }
            }
        }
        judged();
        Ok(())
    }
}

pub fn law_make_layout_tv(args: &[Arg], r: &Res) -> Out {
    let [thr, val, field] = args else {
        return Ok(());
    };
    let (Some(k), Some(f)) = (Raked::new(thr, val), text(field)) else {
        return Ok(());
    };
    if !is_bijection(&k.thr) {
        return Ok(());
    }
    let tile = k.tile();
    match f {
        "tiler_mn" => expect_text(r, &k.tiler_text()),
        "layout_tv" => k.check_tv(&want_layout(answer(r).ok_or("refused")?)?),
        "layout_mn" => {
            let l = want_layout(answer(r).ok_or("refused")?)?;
            if two_modes(&l) != Some(tile) {
                return Err(format!("mode sizes {:?}, tile {tile:?}", l.mode_sizes()));
            }
            for m1 in 0..tile[1] {
                for m0 in 0..tile[0] {
                    let (x, y) = (l.at(m0 + tile[0] * m1), k.at([m0, m1]));
                    if x != y {
                        return Err(format!("R({m0},{m1}) = {x:?}, the raked product {y:?}"));
                    }
                }
            }
            judged();
            Ok(())
        }
        _ => Ok(()),
    }
}

pub fn law_make_tiled_copy(args: &[Arg], r: &Res) -> Out {
    let [_, _, thr, val, field] = args else {
        return Ok(());
    };
    let (Some(k), Some(f)) = (Raked::new(thr, val), text(field)) else {
        return Ok(());
    };
    if !is_bijection(&k.thr) || !is_bijection(&k.val) {
        return Ok(());
    }
    let tile = k.tile();
    match f {
        // The atom's own conditions (values and threads per copy) may refuse.
        _ if r.is_err() => Ok(()),
        "tiler_mn" => expect_text(r, &k.tiler_text()),
        "size" => expect_int(r, k.thr.n()),
        "tiled_layout_tv" => match answer(r) {
            Some(a) => k.check_tv(&want_layout(a)?),
            None => Ok(()),
        },
        "layout_s_tv" | "layout_d_tv" => match answer(r) {
            Some(a) => covers(&want_layout(a)?, tile[0] * tile[1], false),
            None => Ok(()),
        },
        _ => Ok(()),
    }
}

/// The per-thread sorted values of a TV layout with `threads` threads.
fn per_thread(l: &Lay, threads: i64) -> Option<Vec<Vec<i64>>> {
    if threads < 1 || l.n() % threads != 0 {
        return None;
    }
    (0..threads)
        .map(|t| {
            let mut v: Vec<i64> = (0..l.n() / threads)
                .map(|v| l.at(t + threads * v))
                .collect::<Option<_>>()?;
            v.sort_unstable();
            Some(v)
        })
        .collect()
}

fn tiled_copy_mma(args: &[Arg], r: &Res, x: &str) -> Out {
    let [_, _, mma, al, perm, field] = args else {
        return Ok(());
    };
    let (Some(name), Some(alv), Some("_"), Some(f)) =
        (text(mma), atom_layout(al), text(perm), text(field))
    else {
        return Ok(());
    };
    let Some([m, n, k]) = name_mnk(name).filter(|_| MMA_ATOMS.contains(&name)) else {
        return Ok(());
    };
    let Some(threads) = prod(&alv).and_then(|p| p.checked_mul(atom_threads(name))) else {
        return Ok(());
    };
    let (tm, tn, tk) = (m * alv[0], n * alv[1], k * alv[2]);
    let Some(ans) = answer(r) else { return Ok(()) };
    if atom_threads(name) != 32 {
        // SM70's lanes outside the atoms' quadpairs alias them (see law_tiled_mma).
        return Ok(());
    }
    match (f, x) {
        ("size", _) => expect_int(r, threads),
        ("tiler_mn", "a") => expect_text(r, &format!("({tm},{tk})")),
        ("tiler_mn", "b") => expect_text(r, &format!("({tn},{tk})")),
        ("tiler_mn", "c") => expect_text(r, &format!("({tm},{tn})")),
        ("tiled_layout_tv", "c_atom") => {
            let l = want_layout(ans)?;
            if !is_bijection(&l) {
                return Err("not a bijection onto [0, size)".into());
            }
            judged();
            Ok(())
        }
        ("tiled_layout_tv", _) => {
            let l = want_layout(ans)?;
            let q = [
                mma.clone(),
                al.clone(),
                perm.clone(),
                Arg::Text(format!("layout_{x}_tv")),
            ];
            let Some(tv) = run_op("tiled_mma", &q).ok().and_then(|s| Lay::parse(&s)) else {
                return Ok(());
            };
            let (a, b) = (per_thread(&l, threads), per_thread(&tv, threads));
            if a.is_none() || a != b {
                return Err(format!(
                    "the threads' values differ from the tiled MMA's layout_{x}_tv {}",
                    tv.shape.text()
                ));
            }
            judged();
            Ok(())
        }
        _ => Ok(()),
    }
}

pub fn law_make_tiled_copy_a(args: &[Arg], r: &Res) -> Out {
    tiled_copy_mma(args, r, "a")
}

pub fn law_make_tiled_copy_b(args: &[Arg], r: &Res) -> Out {
    tiled_copy_mma(args, r, "b")
}

pub fn law_make_tiled_copy_c(args: &[Arg], r: &Res) -> Out {
    tiled_copy_mma(args, r, "c")
}

pub fn law_make_tiled_copy_c_atom(args: &[Arg], r: &Res) -> Out {
    tiled_copy_mma(args, r, "c_atom")
}

/// A tiler of layouts `(16:1,(2,4):(4,1))`: one layout per mode.
fn layout_tiler(s: &str) -> Option<Vec<Lay>> {
    let inner = strip_parens(s.trim())?;
    split_top(inner, ',').into_iter().map(Lay::parse).collect()
}

pub fn law_make_cotiled_copy(args: &[Arg], r: &Res) -> Out {
    let [_, _, atv, data, field] = args else {
        return Ok(());
    };
    let (Some(atv), Some(data), Some(f)) = (
        text(atv).and_then(Lay::parse),
        text(data).and_then(Lay::parse),
        text(field),
    ) else {
        return Ok(());
    };
    let (Some(_), Some(dv)) = (atv.ints(), sorted_values(&data)) else {
        return Ok(());
    };
    if data.rank() != 2 || dv.windows(2).any(|w| w[0] == w[1]) {
        return Ok(());
    }
    let Some(ans) = answer(r) else { return Ok(()) };
    let q: Vec<Arg> = args[..4]
        .iter()
        .cloned()
        .chain([Arg::Text("tiler_mn".into())])
        .collect();
    let tiler = if f == "tiler_mn" {
        ans.to_string()
    } else {
        match run_op("make_cotiled_copy", &q) {
            Ok(s) => s,
            Err(_) => return Ok(()),
        }
    };
    let tl = layout_tiler(&tiler).ok_or(format!("tiler {tiler:?} is not two layouts"))?;
    if tl.len() != 2 {
        return Err(format!("tiler {tiler} has {} modes", tl.len()));
    }
    let sizes = [tl[0].n(), tl[1].n()];
    // The data address at tile index k.
    let addr = |k: i64| -> Option<i64> {
        let (k0, k1) = (k % sizes[0], k / sizes[0]);
        let (d0, d1) = (tl[0].at(k0)?, tl[1].at(k1)?);
        if !(0..data.mode_size(0)).contains(&d0) || !(0..data.mode_size(1)).contains(&d1) {
            return None;
        }
        data.at(d0 + data.mode_size(0) * d1)
    };
    let (nt, n) = (atv.mode_size(0), atv.n());
    match f {
        "tiler_mn" => {
            let mut reach: Vec<i64> = (0..n).filter_map(|i| atv.at(i)).collect();
            reach.sort_unstable();
            reach.dedup();
            let mut tile: Vec<i64> = (0..sizes[0] * sizes[1])
                .map(|k| addr(k).ok_or(format!("tile index {k} leaves the data")))
                .collect::<Result<_, _>>()?;
            tile.sort_unstable();
            tile.dedup();
            if tile != reach {
                return Err(format!(
                    "the tiler reaches {} addresses, the atom {}",
                    tile.len(),
                    reach.len()
                ));
            }
            judged();
            Ok(())
        }
        "tiled_layout_tv" => {
            let tv = want_layout(ans)?;
            if tv.mode_size(0) != nt || tv.n() != n {
                return Err(format!(
                    "TV sizes {:?}, the atom's {nt} x {}",
                    tv.mode_sizes(),
                    n / nt
                ));
            }
            for i in 0..n {
                let k = tv.at(i).ok_or("TV does not evaluate")?;
                if addr(k) != atv.at(i) {
                    return Err(format!(
                        "(t,v) = ({},{}) reaches address {:?}, ATOM_TV gives {:?}",
                        i % nt,
                        i / nt,
                        addr(k),
                        atv.at(i)
                    ));
                }
            }
            judged();
            Ok(())
        }
        _ => Ok(()),
    }
}

// ---------------------------------------------------------------------------------------------
// GPU: code generation, the bank model, shared-memory atoms, TMA

/// Runs the body of `CUTE_GEN_FN int64_t NAME(PARAMS) { ... }` on the given arguments.
fn run_body(body: &[&str], params: &[&str], vals: &[i64]) -> Result<i64, String> {
    let mut vars: BTreeMap<String, i64> = params
        .iter()
        .zip(vals)
        .map(|(p, v)| (p.to_string(), *v))
        .collect();
    let lit = |s: &str| -> Option<i64> {
        let s = s.trim();
        if s == "INT64_MIN" {
            return Some(i64::MIN);
        }
        parse_addr(s)
    };
    let term = |s: &str, vars: &BTreeMap<String, i64>| -> Option<i64> {
        let (t, mul) = match s.rsplit_once(" * ") {
            Some((t, m)) => (t.trim(), lit(m)?),
            None => (s.trim(), 1),
        };
        let v = if let Some(inner) = t.strip_prefix('(').and_then(|x| x.strip_suffix(')')) {
            if let Some((var, k)) = inner.split_once(" & ") {
                vars.get(var.trim())? & lit(k)?
            } else {
                let (var, k) = inner.split_once(" % ")?;
                vars.get(var.trim())? % lit(k)?
            }
        } else if let Some(v) = vars.get(t) {
            *v
        } else {
            lit(t)?
        };
        Some(v.wrapping_mul(mul))
    };
    for raw in body {
        let line = raw.split("//").next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = || format!("codegen statement {line:?} not understood");
        let st = line.strip_suffix(';').ok_or_else(bad)?;
        if st == "int64_t o = 0" {
            vars.insert("o".into(), 0);
        } else if let Some(x) = st.strip_prefix("return ") {
            return vars.get(x.trim()).copied().ok_or_else(bad);
        } else if let Some(x) = st.strip_prefix("(void)") {
            vars.get(x.trim()).ok_or_else(bad)?;
        } else if let Some(e) = st.strip_prefix("o ^= (o & ") {
            let (mask, rest) = e.split_once(") ").ok_or_else(bad)?;
            let o = vars["o"];
            let y = o & lit(mask).ok_or_else(bad)?;
            let v = if let Some(s) = rest.strip_prefix(">> ") {
                y >> lit(s).ok_or_else(bad)?
            } else {
                y << lit(rest.strip_prefix("<< ").ok_or_else(bad)?).ok_or_else(bad)?
            };
            vars.insert("o".into(), o ^ v);
        } else {
            let (var, op, e) = ["+=", "-=", ">>=", "/="]
                .iter()
                .find_map(|op| {
                    st.split_once(&format!(" {op} "))
                        .map(|(a, b)| (a.trim(), *op, b))
                })
                .ok_or_else(bad)?;
            let cur = *vars.get(var).ok_or_else(bad)?;
            let v = match op {
                "+=" => cur.wrapping_add(term(e, &vars).ok_or_else(bad)?),
                "-=" => cur.wrapping_sub(term(e, &vars).ok_or_else(bad)?),
                ">>=" => cur >> lit(e).ok_or_else(bad)?,
                _ => cur / lit(e).filter(|d| *d != 0).ok_or_else(bad)?,
            };
            vars.insert(var.to_string(), v);
        }
    }
    Err("the function does not return".into())
}

/// The body lines of the emitted function `NAME` with `arity` parameters.
fn function<'a>(src: &'a str, name: &str, arity: usize) -> Option<(Vec<&'a str>, Vec<String>)> {
    let params: Vec<String> = if arity == 0 {
        vec!["i".into()]
    } else {
        (0..arity).map(|k| format!("c{k}")).collect()
    };
    let sig = format!(
        "CUTE_GEN_FN int64_t {name}({}) {{",
        params
            .iter()
            .map(|p| format!("int64_t {p}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let mut lines = src.lines().skip_while(|l| l.trim() != sig);
    lines.next()?;
    let body: Vec<&str> = lines.take_while(|l| l.trim() != "}").collect();
    Some((body, params))
}

fn codegen_name(args: &[Arg]) -> Option<String> {
    match args.get(1) {
        None => Some("f".into()),
        Some(a) => text(a).map(str::to_string),
    }
}

pub fn law_codegen(args: &[Arg], r: &Res) -> Out {
    let (Some(f), Some(name)) = (
        args.first().and_then(text).and_then(Fun::parse),
        codegen_name(args),
    ) else {
        return Ok(());
    };
    if f.layers.iter().any(|(o, _)| matches!(o, Outer::L(_))) || args.len() > 3 {
        return Ok(());
    }
    let Some(src) = answer(r) else { return Ok(()) };
    if !src.contains(&format!("constexpr int64_t {name}_size = {};", f.n())) {
        return Err(format!("no `{name}_size = {}`", f.n()));
    }
    let (body, params) = function(src, &name, 0).ok_or("no 1-D function")?;
    let ps: Vec<&str> = params.iter().map(String::as_str).collect();
    let l = &f.inner;
    let rank = l.rank();
    let by_mode = if rank >= 2 {
        Some(function(src, &name, rank).ok_or("no by-mode function")?)
    } else {
        None
    };
    for i in 0..f.n() {
        let Some(want) = f.at(i) else { return Ok(()) };
        let got = run_body(&body, &ps, &[i])?;
        if got != want {
            return Err(format!("{name}({i}) = {got}, the layout gives {want}"));
        }
        if let Some((b, p)) = &by_mode {
            let ps: Vec<&str> = p.iter().map(String::as_str).collect();
            let cs = l.mode_coords(i);
            let got = run_body(b, &ps, &cs)?;
            if got != want {
                return Err(format!("{name}{cs:?} = {got}, the layout gives {want}"));
            }
        }
    }
    judged();
    Ok(())
}

pub fn law_codegen_check(args: &[Arg], r: &Res) -> Out {
    let (Some(f), Some(name)) = (
        args.first().and_then(text).and_then(Fun::parse),
        codegen_name(args),
    ) else {
        return Ok(());
    };
    if f.layers.iter().any(|(o, _)| matches!(o, Outer::L(_))) || args.len() > 3 {
        return Ok(());
    }
    let Some(src) = answer(r) else { return Ok(()) };
    let Some(vals) = f.values() else {
        return Ok(());
    };
    let start = src
        .find("expected[] = {")
        .ok_or("no table of expected values")?;
    let rest = &src[start + "expected[] = {".len()..];
    let table = &rest[..rest.find("};").ok_or("the table does not end")?];
    let got: Vec<i64> = table
        .split(',')
        .map(|x| {
            let x = x.trim();
            if x == "INT64_MIN" {
                Some(i64::MIN)
            } else {
                x.parse().ok()
            }
        })
        .collect::<Option<_>>()
        .ok_or("the table has a non-integer")?;
    if got != vals {
        return Err(format!("expected table {got:?}, the layout {vals:?}"));
    }
    if !src.contains(&format!("const int64_t n = {};", f.n())) {
        return Err(format!("n is not {}", f.n()));
    }
    if !src.contains(&format!("#include \"{name}.hpp\"")) || !src.contains("(i) != expected[i]") {
        return Err(format!(
            "the program does not include {name}.hpp and compare {name}(i)"
        ));
    }
    judged();
    Ok(())
}

/// One side of the bank model (the module docs of cute_layout::gpu::smem_search).
#[derive(Debug, PartialEq)]
struct Side {
    vector_bytes: i64,
    requests: i64,
    wavefronts: i64,
    conflicts: i64,
}

/// Words `[x * e / 4, ((x + 1) * e - 1) / 4]` of the element at offset `x`.
fn words(x: i64, e: i64, bank_bytes: i64) -> (i64, i64) {
    (
        (x * e).div_euclid(bank_bytes),
        ((x + 1) * e - 1).div_euclid(bank_bytes),
    )
}

fn bank_side(tv: &Lay, smem: &[i64], e: i64, lanes: i64) -> Option<Side> {
    let (t_n, v_n) = (tv.mode_size(0), tv.n() / tv.mode_size(0).max(1));
    let off = |t: i64, v: i64| -> Option<i64> {
        smem.get(usize::try_from(tv.at(t + t_n * v)?).ok()?)
            .copied()
    };
    let mut w = 1i64;
    loop {
        let w2 = w * 2;
        if w2 * e > 16 || v_n % w2 != 0 {
            break;
        }
        let mut ok = true;
        for t in 0..t_n {
            for g in 0..v_n / w2 {
                let b = off(t, g * w2)?;
                ok &= b.rem_euclid(w2) == 0;
                for j in 1..w2 {
                    ok &= off(t, g * w2 + j)? == b + j;
                }
            }
        }
        if !ok {
            break;
        }
        w = w2;
    }
    let bytes = w * e;
    let phase = (128 / bytes.max(4)).clamp(1, 32);
    let (mut requests, mut wavefronts, mut ideal) = (0, 0, 0);
    let mut warp0 = 0;
    while warp0 < t_n {
        let end = (warp0 + lanes).min(t_n);
        for g in 0..v_n / w {
            requests += 1;
            let mut p0 = warp0;
            while p0 < end {
                let mut ws = Vec::new();
                for t in p0..(p0 + phase).min(end) {
                    let first = words(off(t, g * w)?, e, 4).0;
                    let last = words(off(t, g * w + w - 1)?, e, 4).1;
                    ws.extend(first..=last);
                }
                ws.sort_unstable();
                ws.dedup();
                let mut per = [0i64; 32];
                for x in &ws {
                    per[x.rem_euclid(32) as usize] += 1;
                }
                wavefronts += per.iter().max().copied().unwrap_or(0);
                ideal += (ws.len() as i64 + 31) / 32;
                p0 += phase;
            }
        }
        warp0 += 32;
    }
    Some(Side {
        vector_bytes: bytes,
        requests,
        wavefronts,
        conflicts: wavefronts - ideal,
    })
}

/// The numbers of a report's last line `key=value ...`.
fn report_line(s: &str) -> Option<BTreeMap<String, String>> {
    let last = s.lines().last()?;
    let (head, layout) = last.split_once(" layout=")?;
    let mut m: BTreeMap<String, String> = head
        .split_whitespace()
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    m.insert("layout".into(), layout.to_string());
    Some(m)
}

fn reported(m: &BTreeMap<String, String>, side: &str) -> Option<Side> {
    let g = |k: &str| m.get(&format!("{side}_{k}"))?.parse().ok();
    Some(Side {
        vector_bytes: g("vector_bytes")?,
        requests: g("requests")?,
        wavefronts: g("wavefronts")?,
        conflicts: g("conflicts")?,
    })
}

/// The bank model of both sides for the tile stored as `smem`.
struct SmemProblem {
    rows: i64,
    cols: i64,
    write: Lay,
    read: Lay,
    e: i64,
    lanes: (i64, i64),
}

impl SmemProblem {
    fn new(args: &[Arg], e_at: Option<usize>, lanes_at: usize) -> Option<SmemProblem> {
        let tile = Tx::parse(text(args.first()?)?)?.ints()?;
        let [rows, cols] = tile[..] else { return None };
        let write = Lay::parse(text(args.get(1)?)?)?;
        let read = Lay::parse(text(args.get(2)?)?)?;
        let e = match e_at.and_then(|k| args.get(k)) {
            Some(a) => int(a)?,
            None => 4,
        };
        let lane = |k: usize| match args.get(k) {
            Some(a) => int(a).filter(|x| (1..=32).contains(x)),
            None => Some(32),
        };
        let lanes = (lane(lanes_at)?, lane(lanes_at + 1)?);
        if ![1, 2, 4, 8, 16].contains(&e) || rows < 1 || cols < 1 {
            return None;
        }
        for tv in [&write, &read] {
            let v = sorted_values(tv)?;
            let n = rows.checked_mul(cols)?;
            if v.first().is_some_and(|x| *x < 0) || v.last().is_some_and(|x| *x >= n) {
                return None;
            }
        }
        Some(SmemProblem {
            rows,
            cols,
            write,
            read,
            e,
            lanes,
        })
    }

    fn evaluate(&self, smem: &Fun) -> Option<(Side, Side)> {
        if smem.n() != self.rows * self.cols {
            return None;
        }
        let offs = smem.values()?;
        if offs.iter().any(|x| *x < 0) {
            return None;
        }
        Some((
            bank_side(&self.write, &offs, self.e, self.lanes.0)?,
            bank_side(&self.read, &offs, self.e, self.lanes.1)?,
        ))
    }
}

fn check_report(p: &SmemProblem, m: &BTreeMap<String, String>) -> Result<i64, String> {
    let smem = Fun::parse(&m["layout"]).ok_or("the reported layout does not parse")?;
    let Some((w, r)) = p.evaluate(&smem) else {
        return Err("the reported layout does not store the tile".into());
    };
    for (side, want) in [("write", &w), ("read", &r)] {
        let got = reported(m, side).ok_or("the report lacks a number")?;
        if &got != want {
            return Err(format!(
                "{side}: reported {got:?}, the bank model gives {want:?}"
            ));
        }
    }
    Ok(w.wavefronts + r.wavefronts)
}

pub fn law_smem_evaluate(args: &[Arg], r: &Res) -> Out {
    let (Some(p), Some(smem)) = (
        SmemProblem::new(args, Some(3), 5),
        args.get(4).and_then(text).and_then(Fun::parse),
    ) else {
        return Ok(());
    };
    let Some(ans) = answer(r) else { return Ok(()) };
    if p.evaluate(&smem).is_none() {
        return Ok(());
    }
    let m = report_line(ans).ok_or("no `key=value` line")?;
    check_report(&p, &m)?;
    judged();
    Ok(())
}

pub fn law_smem_search(args: &[Arg], r: &Res) -> Out {
    let Some(p) = SmemProblem::new(args, Some(3).filter(|k| args.len() > *k), 4) else {
        return Ok(());
    };
    let Some(ans) = answer(r) else { return Ok(()) };
    let m = report_line(ans).ok_or("no `key=value` line")?;
    let best = check_report(&p, &m)?;
    let (rows, cols) = (p.rows, p.cols);
    for base in [
        format!("({rows},{cols}):({cols},1)"),
        format!("({rows},{cols}):(1,{rows})"),
    ] {
        let f = Fun::parse(&base).ok_or("baseline")?;
        if let Some((w, r)) = p.evaluate(&f) {
            if w.wavefronts + r.wavefronts < best {
                return Err(format!(
                    "{base} takes {} wavefronts, the answer {best}",
                    w.wavefronts + r.wavefronts
                ));
            }
        }
    }
    judged();
    Ok(())
}

pub fn law_bank_conflicts(args: &[Arg], r: &Res) -> Out {
    let Some(f) = args.first().and_then(text).and_then(Fun::parse) else {
        return Ok(());
    };
    let get = |k: usize, d: i64| args.get(k).map_or(Some(d), int);
    let (Some(e), Some(threads), Some(banks), Some(bb)) =
        (get(1, 0), get(2, 32), get(3, 32), get(4, 4))
    else {
        return Ok(());
    };
    if !(1..=64).contains(&e)
        || !(1..=1024).contains(&threads)
        || !(1..=64).contains(&banks)
        || !(1..=16).contains(&bb)
    {
        return Ok(());
    }
    let t_n = f.inner.mode_size(0);
    let v_n = f.n() / t_n.max(1);
    let mut per: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for t in 0..threads.min(t_n) {
        for v in 0..v_n {
            let Some(x) = f.at(t + t_n * v) else {
                return Ok(());
            };
            let Some(hi) = x.checked_add(1).and_then(|y| y.checked_mul(e)) else {
                return Ok(());
            };
            let (a, b) = ((x * e).div_euclid(bb), (hi - 1).div_euclid(bb));
            for w in a..=b {
                per.entry(w.rem_euclid(banks)).or_default().push(w);
            }
        }
    }
    let most = per
        .values_mut()
        .map(|v| {
            v.sort_unstable();
            v.dedup();
            v.len() as i64
        })
        .max()
        .unwrap_or(0);
    if answer(r).is_none() {
        return Ok(());
    }
    expect_int(r, most)
}

/// The inner bit layout of CuTe's GMMA smem atoms: `(major, swizzle)` to the swizzle and the
/// layout in bits.
fn smem_atom_bits(major: &str, sw: &str) -> Option<(Sw3, [i64; 2], [i64; 2])> {
    let (b, w) = match sw {
        "INTER" => (0, 128),
        "SW32" => (1, 256),
        "SW64" => (2, 512),
        "SW128" => (3, 1024),
        _ => return None,
    };
    let s = (b, 4, 3);
    match major {
        "K" => Some((s, [8, w], [w, 1])),
        "MN" => Some((s, [w, 8], [1, w])),
        _ => None,
    }
}

/// The atom's arguments: `(major, swizzle, bits, shape)`; `None` when ORDER is given.
fn smem_atom_args(args: &[Arg]) -> Option<(String, String, i64, Option<[i64; 2]>)> {
    let first = text(args.first()?)?;
    let (major, sw, rest) = if let Some(n) = first
        .strip_prefix("Layout_")
        .and_then(|n| n.strip_suffix("_Atom"))
    {
        let (m, s) = n.split_once('_')?;
        (m.to_string(), s.to_string(), &args[1..])
    } else {
        (
            first.to_string(),
            text(args.get(1)?)?.to_string(),
            &args[2..],
        )
    };
    let bits = type_bits(rest.first()?)?;
    let shape = match rest.len() {
        1 => None,
        2 => {
            let v = Tx::parse(text(&rest[1])?)?.ints()?;
            let [m, n] = v[..] else { return None };
            Some([m, n])
        }
        _ => return None,
    };
    Some((major, sw, bits, shape))
}

/// The atom's element layout (upcast to `bits`), tiled to `shape` column-major: `R(c0, c1)`.
fn smem_atom_at(ext: [i64; 2], st: [i64; 2], shape: [i64; 2], c: [i64; 2]) -> i64 {
    let (a0, a1) = (c[0] % ext[0], c[1] % ext[1]);
    let (t0, t1) = (c[0] / ext[0], c[1] / ext[1]);
    let tiles0 = shape[0] / ext[0];
    a0 * st[0] + a1 * st[1] + ext[0] * ext[1] * (t0 + tiles0 * t1)
}

fn smem_atom_law(args: &[Arg], r: &Res, as_layout: bool) -> Out {
    let Some((major, sw, bits, shape)) = smem_atom_args(args) else {
        return Ok(());
    };
    let Some((s, ext_b, st_b)) = smem_atom_bits(&major, &sw) else {
        return Ok(());
    };
    if bits < 8 {
        return Ok(());
    }
    let up = |x: i64| if x == 1 { 1 } else { x / bits };
    let (ext, st) = if major == "K" {
        ([ext_b[0], ext_b[1] / bits], [up(st_b[0]), 1])
    } else {
        ([ext_b[0] / bits, ext_b[1]], [1, up(st_b[1])])
    };
    let shape = shape.unwrap_or(ext);
    if shape[0] % ext[0] != 0 || shape[1] % ext[1] != 0 || shape[0] * shape[1] > MAX_N {
        return Ok(());
    }
    let Some(ans) = answer(r) else {
        return Err("refused a GMMA atom of whole-byte elements".into());
    };
    let bytes = bits / 8;
    let inner_text = if as_layout {
        ans
    } else {
        let parts: Vec<&str> = ans.splitn(3, " o ").collect();
        let [swt, ptr, inner] = parts[..] else {
            return Err("not `Sw o smem_ptr o LAYOUT`".into());
        };
        if swz(swt) != Some(s) {
            return Err(format!(
                "swizzle {swt}, CuTe's atom has Sw<{},{},{}>",
                s.0, s.1, s.2
            ));
        }
        if ptr != format!("smem_ptr[{bits}b](unset)") {
            return Err(format!("pointer {ptr}, not smem_ptr[{bits}b](unset)"));
        }
        inner
    };
    let f = want_fun(inner_text)?;
    if two_modes(&f.inner) != Some(shape) {
        return Err(format!(
            "mode sizes {:?}, the shape {shape:?}",
            f.inner.mode_sizes()
        ));
    }
    for c1 in 0..shape[1] {
        for c0 in 0..shape[0] {
            let e = smem_atom_at(ext, st, shape, [c0, c1]);
            let want = if as_layout {
                sw_apply(s, e * bytes) / bytes
            } else {
                e
            };
            let got = f.at(c0 + shape[0] * c1);
            if got != Some(want) {
                return Err(format!("R({c0},{c1}) = {got:?}, the atom gives {want}"));
            }
        }
    }
    judged();
    Ok(())
}

pub fn law_smem_atom(args: &[Arg], r: &Res) -> Out {
    smem_atom_law(args, r, false)
}

pub fn law_smem_atom_layout(args: &[Arg], r: &Res) -> Out {
    smem_atom_law(args, r, true)
}

pub fn law_tma_gbasis(args: &[Arg], r: &Res) -> Out {
    let (Some(g), Some(s)) = (
        args.first().and_then(text).and_then(Lay::parse),
        args.get(1).and_then(text).and_then(Lay::parse),
    ) else {
        return Ok(());
    };
    match (args.get(2).and_then(text), args.get(3).and_then(text)) {
        (None | Some("_"), None | Some("gbasis")) => {}
        _ => return Ok(()),
    }
    if g.rank() != 2 || s.rank() != 2 || g.ints().is_none() || !is_bijection(&s) {
        return Ok(());
    }
    let sizes = s.mode_sizes();
    if sizes[0] > g.mode_size(0) || sizes[1] > g.mode_size(1) {
        return Ok(());
    }
    let Some(ans) = answer(r) else { return Ok(()) };
    let rl = want_layout(ans)?;
    // smem offset -> tile index
    let mut inv = vec![0i64; s.n() as usize];
    for j in 0..s.n() {
        inv[s.at(j).unwrap_or(0) as usize] = j;
    }
    if rl.n() > s.n() {
        return Err(format!(
            "box of {} elements for a tile of {}",
            rl.n(),
            s.n()
        ));
    }
    for i in 0..rl.n() {
        let c = colex(inv[i as usize], &sizes);
        let mut want = BTreeMap::new();
        for (k, x) in c.iter().enumerate() {
            if *x != 0 {
                want.insert(vec![k], *x);
            }
        }
        let got = rl.at_basis(i).ok_or("the answer is not basis-strided")?;
        if got != want {
            return Err(format!(
                "R({i}) = {got:?}, smem offset {i} holds gmem coordinate {c:?}"
            ));
        }
    }
    judged();
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// F2, swizzles, bases

/// An F2 layout or a layout of integer strides (possibly swizzled) evaluated at `i`.
fn bits_value(a: &str, i: i64) -> Option<u64> {
    if let Some(f) = Fun::parse(a) {
        return u64::try_from(f.at(i)?).ok();
    }
    Lay::parse(a)?.at_f2(i)
}

fn size_of_text(a: &str) -> Option<i64> {
    Fun::parse(a)
        .map(|f| f.n())
        .or_else(|| Lay::parse(a).map(|l| l.n()))
}

pub fn law_f2_matrix(args: &[Arg], r: &Res) -> Out {
    let [a] = args else { return Ok(()) };
    let Some(a) = text(a) else { return Ok(()) };
    let Some(n) = size_of_text(a) else {
        return Ok(());
    };
    let Some(ans) = answer(r) else { return Ok(()) };
    let rows: Vec<Vec<i64>> = match Tx::parse(ans) {
        Some(Tx::N(rows)) => rows
            .iter()
            .map(|row| match row {
                Tx::N(_) => row.ints(),
                Tx::L(_) => None,
            })
            .collect::<Option<_>>()
            .ok_or("the answer is not a matrix of rows")?,
        _ => return Err(format!("answer {ans:?} is not a matrix")),
    };
    for i in 0..n {
        let Some(want) = bits_value(a, i) else {
            return Ok(());
        };
        let mut got = 0u64;
        for (rk, row) in rows.iter().enumerate() {
            let mut bit = 0;
            for (c, x) in row.iter().enumerate() {
                if *x == 1 && c < 63 && (i >> c) & 1 == 1 {
                    bit ^= 1;
                }
            }
            if rk < 64 {
                got |= bit << rk;
            }
        }
        if got != want {
            return Err(format!("M * bits({i}) = {got}, L({i}) = {want}"));
        }
    }
    judged();
    Ok(())
}

pub fn law_f2_swizzle(args: &[Arg], r: &Res) -> Out {
    let [a] = args else { return Ok(()) };
    let Some(l) = text(a).and_then(Lay::parse) else {
        return Ok(());
    };
    let Some(ans) = answer(r) else { return Ok(()) };
    let f = want_fun(ans)?;
    if f.n() != l.n() {
        return Err(format!("size {} != {}", f.n(), l.n()));
    }
    for i in 0..l.n() {
        let Some(want) = l.at_any(i) else {
            return Ok(());
        };
        let got = f.at(i).and_then(|x| u64::try_from(x).ok());
        if got != Some(want) {
            return Err(format!("R({i}) = {got:?}, L({i}) = {want}"));
        }
    }
    judged();
    Ok(())
}

/// A contiguous run of set bits: `(count, lowest)`.
fn bit_run(x: i64) -> Option<(i64, i64)> {
    if x <= 0 {
        return None;
    }
    let low = x.trailing_zeros() as i64;
    let count = (x >> low).trailing_ones() as i64;
    ((x >> low).count_ones() as i64 == count).then_some((count, low))
}

pub fn law_make_swizzle(args: &[Arg], r: &Res) -> Out {
    let [y, z] = args else { return Ok(()) };
    let (Some(y), Some(z)) = (int(y), int(z)) else {
        return Ok(());
    };
    let (Some((by, ly)), Some((bz, lz))) = (bit_run(y), bit_run(z)) else {
        return Ok(());
    };
    let s = ly - lz;
    let valid = by == bz && s.abs() >= by && ly + by < 48 && lz + bz < 48;
    match answer(r) {
        None if valid => Err(format!("refused, Y and Z give Sw<{by},{},{s}>", ly.min(lz))),
        None => Ok(()),
        Some(a) => {
            let w = swz(a).ok_or(format!("answer {a:?} is not a valid swizzle"))?;
            if yyy(w) != y || zzz(w) != z {
                return Err(format!(
                    "{a} reads {:#x} and toggles {:#x}, not {y:#x} and {z:#x}",
                    yyy(w),
                    zzz(w)
                ));
            }
            judged();
            Ok(())
        }
    }
}

pub fn law_swizzle(args: &[Arg], r: &Res) -> Out {
    let [b, m, s] = args else { return Ok(()) };
    let (Some(b), Some(m), Some(s)) = (int(b), int(m), int(s)) else {
        return Ok(());
    };
    if !valid_swizzle(b, m, s) {
        return Ok(());
    }
    let want = format!("Sw<{b},{m},{s}>");
    let a = answer(r).ok_or(format!("refused the valid {want}"))?;
    let w = swz(a).ok_or(format!("answer {a:?} is not a swizzle"))?;
    // The XOR definition, for every x below the highest bit read.
    let top = 1i64 << (b + m + s.abs()).min(16);
    for x in 0..top {
        let want_x = x ^ ((x & yyy((b, m, s))) >> s.max(0) << (-s).max(0));
        if sw_apply(w, x) != want_x {
            return Err(format!(
                "{a}({x}) = {}, Sw<B,M,S> gives {want_x}",
                sw_apply(w, x)
            ));
        }
    }
    expect_text(r, &want)
}

pub fn law_get_swizzle_portion(args: &[Arg], r: &Res) -> Out {
    let [a] = args else { return Ok(()) };
    let Some(f) = text(a).and_then(Fun::parse) else {
        return Ok(());
    };
    match f.layers.first() {
        None => expect_text(r, "Sw<0,4,3>"),
        Some((Outer::Sw(w), _)) => expect_text(r, &format!("Sw<{},{},{}>", w.0, w.1, w.2)),
        Some((Outer::L(_), _)) => Ok(()),
    }
}

pub fn law_get_nonswizzle_portion(args: &[Arg], r: &Res) -> Out {
    let [a] = args else { return Ok(()) };
    let Some(f) = text(a).and_then(Fun::parse) else {
        return Ok(());
    };
    let Some(ans) = answer(r) else {
        return Err("refused".into());
    };
    let rest = want_fun(ans)?;
    let (w, off) = match f.layers.first() {
        None => (None, 0),
        Some((Outer::Sw(w), off)) => (Some(*w), *off),
        Some((Outer::L(_), _)) => return Ok(()),
    };
    if rest.n() != f.n() {
        return Err(format!("size {} != {}", rest.n(), f.n()));
    }
    for i in 0..f.n() {
        let Some(want) = f.at(i) else { return Ok(()) };
        let got = rest.at(i).map(|x| {
            let y = x + off;
            w.map_or(y, |w| sw_apply(w, y))
        });
        if got != Some(want) {
            return Err(format!("Sw(O + R({i})) = {got:?}, the layout gives {want}"));
        }
    }
    judged();
    Ok(())
}

pub fn law_make_basis_like(args: &[Arg], r: &Res) -> Out {
    let [s] = args else { return Ok(()) };
    let Some(t) = text(s).and_then(Tx::parse) else {
        return Ok(());
    };
    if t.ints()
        .is_none_or(|v| v.iter().any(|x| *x < 1) || prod(&v).is_none())
    {
        return Ok(());
    }
    let paths = t.paths();
    let mut k = 0;
    let want = map_leaves(&t, &mut |_| {
        let p = &paths[k];
        k += 1;
        if p.is_empty() {
            "1".to_string()
        } else {
            let mut at: Vec<String> = p.iter().map(usize::to_string).collect();
            at.reverse();
            format!("1@{}", at.join("@"))
        }
    });
    expect_text(r, &want.text())
}

pub fn law_basis_get(args: &[Arg], r: &Res) -> Out {
    let [b, t] = args else { return Ok(()) };
    let (Some(b), Some(tup)) = (text(b), text(t).and_then(Tx::parse)) else {
        return Ok(());
    };
    if tup.ints().is_none() {
        return Ok(());
    }
    let path = match stride_leaf(b) {
        Some(St::B(_, p)) => p,
        Some(St::I(_)) => Vec::new(),
        _ => return Ok(()),
    };
    let mut at = &tup;
    for k in &path {
        match at {
            Tx::N(v) if *k < v.len() => at = &v[*k],
            _ => return Ok(()),
        }
    }
    expect_text(r, &at.text())
}

pub fn law_basis_value(args: &[Arg], r: &Res) -> Out {
    let [b] = args else { return Ok(()) };
    match text(b).and_then(stride_leaf) {
        Some(St::B(v, _) | St::I(v)) => expect_int(r, v),
        _ => match b {
            Arg::Int(v) => expect_int(r, *v),
            _ => Ok(()),
        },
    }
}

pub fn law_tiler_to_layout(args: &[Arg], r: &Res) -> Out {
    let [t] = args else { return Ok(()) };
    let Some(t) = text(t) else { return Ok(()) };
    if let Ok(n) = t.parse::<i64>() {
        if n >= 1 {
            return expect_text(r, &format!("{n}:1"));
        }
        return Ok(());
    }
    if let Some(l) = Lay::parse(t) {
        let Some(ans) = answer(r).filter(|_| moderate(&l)) else {
            return Ok(());
        };
        let got = want_layout(ans)?;
        if got.shape != l.shape || got.st != l.st {
            return Err(format!("{ans} is not the layout {t}"));
        }
        judged();
        return Ok(());
    }
    // A tuple of integers and layouts: mode i is tiler i's layout along @i.
    let inner = t
        .strip_prefix('<')
        .and_then(|x| x.strip_suffix('>'))
        .or_else(|| strip_parens(t));
    let Some(inner) = inner else { return Ok(()) };
    let modes: Option<Vec<Lay>> = split_top(inner, ',')
        .iter()
        .map(|m| match m.trim().parse::<i64>() {
            Ok(n) if n >= 1 => Lay::parse(&format!("{n}:1")),
            Ok(_) => None,
            Err(_) => Lay::parse(m).filter(|l| l.ints().is_some()),
        })
        .collect();
    let Some(modes) = modes else { return Ok(()) };
    if !modes.iter().all(moderate) {
        return Ok(());
    }
    let sizes: Vec<i64> = modes.iter().map(Lay::n).collect();
    if prod(&sizes).is_none_or(|p| p > MAX_N) {
        return Ok(());
    }
    let Some(ans) = answer(r) else {
        return Err("refused a tuple of layouts".into());
    };
    let got = want_layout(ans)?;
    if got.mode_sizes() != sizes {
        return Err(format!(
            "mode sizes {:?}, the tiler's {sizes:?}",
            got.mode_sizes()
        ));
    }
    for i in 0..got.n() {
        let c = colex(i, &sizes);
        let mut want = BTreeMap::new();
        for (k, (m, x)) in modes.iter().zip(&c).enumerate() {
            let v = m.at(*x).ok_or("mode")?;
            if v != 0 {
                want.insert(vec![k], v);
            }
        }
        let g = got.at_basis(i).ok_or("the answer is not basis-strided")?;
        if g != want {
            return Err(format!("R({i}) = {g:?}, the tiler gives {want:?}"));
        }
    }
    judged();
    Ok(())
}

/// Every value below 2^40 in absolute value: far from the overflow checks of the library's
/// own bookkeeping (cosizes, sums of modes), which may refuse more extreme ones.
fn moderate(l: &Lay) -> bool {
    (0..l.n()).all(|i| l.at(i).is_some_and(|v| v.abs() < 1 << 40))
}

// ---------------------------------------------------------------------------------------------
// Tensors

/// A tensor argument whose values this file evaluates (not sub-byte or tensor memory).
fn tensor_arg(a: Option<&Arg>) -> Option<Ten> {
    Ten::parse(text(a?)?).filter(|t| (0..t.n()).all(|i| t.at(i).is_some()))
}

/// A flat tuple of integers (a tiler or a coordinate), or one integer.
fn flat_ints(a: &Arg) -> Option<Vec<i64>> {
    if let Some(i) = int(a) {
        return Some(vec![i]);
    }
    match Tx::parse(text(a)?)? {
        Tx::N(v) if v.iter().all(|e| matches!(e, Tx::L(_))) => Tx::N(v).ints(),
        _ => None,
    }
}

pub fn law_make_tensor(args: &[Arg], r: &Res) -> Out {
    let want = match args {
        [l] | [l, _] if text(l).is_some_and(|s| !s.contains("ptr")) => {
            let base = match args.get(1) {
                Some(b) => match int(b) {
                    Some(b) => b,
                    None => return Ok(()),
                },
                None => 0,
            };
            text(l)
                .and_then(Fun::parse)
                .map(|f| Ten::One(It::Count(base), f))
        }
        [p, l] => match (text(p).and_then(Ptr::parse), text(l).and_then(Fun::parse)) {
            (Some(p), Some(f)) => Some(Ten::One(It::Ptr(p), f)),
            _ => None,
        },
        _ => None,
    };
    let Some(want) = want else { return Ok(()) };
    let Some(ans) = answer(r) else { return Ok(()) };
    let got = want_tensor(ans)?;
    same_tensor(&got, &|i| want.at(i), &want.mode_sizes())
}

/// The natural coordinate of `i` in `shape`.
fn natural(shape: &Tx, i: i64) -> Option<Tx> {
    match shape {
        Tx::L(_) => Some(Tx::L(i.to_string())),
        Tx::N(v) => {
            let sizes: Vec<i64> = v
                .iter()
                .map(|m| m.ints().and_then(|x| prod(&x)))
                .collect::<Option<_>>()?;
            let c = colex(i, &sizes);
            v.iter()
                .zip(c)
                .map(|(m, x)| natural(m, x))
                .collect::<Option<_>>()
                .map(Tx::N)
        }
    }
}

pub fn law_make_identity_tensor(args: &[Arg], r: &Res) -> Out {
    let [s] = args else { return Ok(()) };
    let Some(shape) = text(s).and_then(Tx::parse) else {
        return Ok(());
    };
    let Some(ext) = shape.ints() else {
        return Ok(());
    };
    if ext.iter().any(|e| *e < 1) || prod(&ext).is_none_or(|p| p > MAX_N) {
        return Ok(());
    }
    let Some(ans) = answer(r) else {
        return Err("refused a shape".into());
    };
    let got = want_tensor(ans)?;
    let sizes: Vec<i64> = match &shape {
        Tx::L(_) => vec![ext[0]],
        Tx::N(v) => v
            .iter()
            .map(|m| m.ints().and_then(|x| prod(&x)).unwrap_or(0))
            .collect(),
    };
    same_tensor(&got, &|i| natural(&shape, i).map(Val::C), &sizes)
}

/// The 1-D index of a coordinate (1-D, per mode, or natural) in `shape`.
fn crd_index(c: &Tx, shape: &Tx) -> Option<i64> {
    match (c, shape) {
        (Tx::L(x), _) => {
            let x: i64 = x.parse().ok()?;
            let n = prod(&shape.ints()?)?;
            (0..n).contains(&x).then_some(x)
        }
        (Tx::N(cs), Tx::N(ss)) if cs.len() == ss.len() => {
            let mut acc = 0;
            let mut scale = 1;
            for (c, s) in cs.iter().zip(ss) {
                acc += crd_index(c, s)? * scale;
                scale = prod(&s.ints()?)?.checked_mul(scale)?;
            }
            Some(acc)
        }
        _ => None,
    }
}

pub fn law_tensor_value(args: &[Arg], r: &Res) -> Out {
    let [t, c] = args else { return Ok(()) };
    let (Some(t), Some(c)) = (tensor_arg(Some(t)), text(c).and_then(Tx::parse)) else {
        return Ok(());
    };
    let Some(shape) = t.fun().map(|f| f.inner.shape.clone()) else {
        return Ok(());
    };
    let Some(i) = crd_index(&c, &shape) else {
        return Ok(());
    };
    let Some(want) = t.at(i) else { return Ok(()) };
    let Some(ans) = answer(r) else {
        return Err(format!("refused, the reference gives {}", want.text()));
    };
    match want {
        Val::A(a) => {
            let p = Ptr::parse(ans).ok_or(format!("answer {ans:?} is not a pointer"))?;
            if p.addr != a || p.bit.is_some() {
                return Err(format!("address {:#x}, the reference {a:#x}", p.addr));
            }
            judged();
            Ok(())
        }
        Val::Z(v) if v.iter().any(|x| matches!(x, Val::A(_))) => Ok(()),
        w => expect_text(r, &w.text()),
    }
}

/// The tile law of local_tile and inner_partition: `R(c) = T(COORD * tile + c)` per mode, the
/// modes past the tiler whole.
fn tile_law(t: &Ten, tiler: &[i64], coord: &[i64], r: &Res) -> Out {
    let ms = t.mode_sizes();
    if tiler.len() > ms.len() || coord.len() != tiler.len() {
        return Ok(());
    }
    for k in 0..tiler.len() {
        if tiler[k] < 1
            || ms[k] % tiler[k] != 0
            || !divides_mode(t, k, tiler[k])
            || !(0..ms[k] / tiler[k]).contains(&coord[k])
        {
            return Ok(());
        }
    }
    let Some(ans) = answer(r) else {
        return Err("refused a dividing tiler".into());
    };
    let got = want_tensor(ans)?;
    let sizes: Vec<i64> = (0..ms.len())
        .map(|k| if k < tiler.len() { tiler[k] } else { ms[k] })
        .collect();
    let lay = t.fun().map(|f| f.inner.clone()).ok_or("no layout")?;
    same_tensor(
        &got,
        &|i| {
            let c = colex(i, &sizes);
            let full: Vec<i64> = c
                .iter()
                .enumerate()
                .map(|(k, x)| {
                    if k < tiler.len() {
                        coord[k] * tiler[k] + x
                    } else {
                        *x
                    }
                })
                .collect();
            t.at(lay.index_of(&full))
        },
        &sizes,
    )
}

/// An integer tiler tiles the tensor's 1-D domain: `R(c) = T(COORD * tile + c)`.
fn tile_law_1d(t: &Ten, tile: i64, coord: i64, r: &Res) -> Out {
    let leaves = t.fun().map(|f| f.inner.ext.clone()).unwrap_or_default();
    let mut rest = tile;
    for e in &leaves {
        if rest == 1 {
            break;
        }
        if rest % e == 0 {
            rest /= e;
        } else if e % rest == 0 {
            rest = 1;
        } else {
            return Ok(());
        }
    }
    if tile < 1 || rest != 1 || t.n() % tile != 0 || !(0..t.n() / tile).contains(&coord) {
        return Ok(());
    }
    let Some(ans) = answer(r) else {
        // A coordinate tensor's 1-D tile may cross its coordinate modes: no basis layout.
        if matches!(t, Ten::One(It::Arith(_), _)) {
            return Ok(());
        }
        return Err("refused a dividing integer tiler".into());
    };
    let got = want_tensor(ans)?;
    if got.n() != tile {
        return Err(format!("{} values, the tile has {tile}", got.n()));
    }
    for c in 0..tile {
        let (g, w) = (got.at(c), t.at(coord * tile + c));
        if g != w {
            return Err(format!("R({c}) = {g:?}, T({}) = {w:?}", coord * tile + c));
        }
    }
    judged();
    Ok(())
}

/// `Step<_1,X>` or `(1,X)`: which modes a projection keeps.
fn projection(a: &Arg) -> Option<Vec<bool>> {
    let s = text(a)?;
    let inner = s
        .strip_prefix("Step<")
        .and_then(|x| x.strip_suffix('>'))
        .or_else(|| strip_parens(s))?;
    inner
        .split(',')
        .map(|x| match x.trim() {
            "_1" | "1" => Some(true),
            "X" | "_" => Some(false),
            _ => None,
        })
        .collect()
}

pub fn law_local_tile(args: &[Arg], r: &Res) -> Out {
    if args.len() < 3 || args.len() > 4 {
        return Ok(());
    }
    let (Some(t), Some(mut tiler), Some(mut coord)) = (
        tensor_arg(args.first()),
        flat_ints(&args[1]),
        flat_ints(&args[2]),
    ) else {
        return Ok(());
    };
    if let (Some(a), Some(c), None) = (int(&args[1]), int(&args[2]), args.get(3)) {
        return tile_law_1d(&t, a, c, r);
    }
    if let Some(p) = args.get(3) {
        let Some(keep) = projection(p) else {
            return Ok(());
        };
        if keep.len() != tiler.len() || keep.len() != coord.len() {
            return Ok(());
        }
        let dice = |v: &[i64]| -> Vec<i64> {
            v.iter()
                .zip(&keep)
                .filter(|(_, k)| **k)
                .map(|(x, _)| *x)
                .collect()
        };
        tiler = dice(&tiler);
        coord = dice(&coord);
        if tiler.is_empty() {
            return Ok(());
        }
    }
    tile_law(&t, &tiler, &coord, r)
}

pub fn law_inner_partition(args: &[Arg], r: &Res) -> Out {
    let [t, tiler, coord] = args else {
        return Ok(());
    };
    if let (Some(a), Some(c)) = (int(tiler), int(coord)) {
        return match tensor_arg(Some(t)) {
            Some(t) => tile_law_1d(&t, a, c, r),
            None => Ok(()),
        };
    }
    let (Some(t), Some(tiler), Some(coord)) =
        (tensor_arg(Some(t)), flat_ints(tiler), flat_ints(coord))
    else {
        return Ok(());
    };
    tile_law(&t, &tiler, &coord, r)
}

pub fn law_outer_partition(args: &[Arg], r: &Res) -> Out {
    let [t, tiler, coord] = args else {
        return Ok(());
    };
    let (Some(t), Some(tiler)) = (tensor_arg(Some(t)), flat_ints(tiler)) else {
        return Ok(());
    };
    let ms = t.mode_sizes();
    if tiler.len() != ms.len()
        || tiler
            .iter()
            .zip(&ms)
            .enumerate()
            .any(|(k, (a, m))| *a < 1 || m % a != 0 || !divides_mode(&t, k, *a))
    {
        return Ok(());
    }
    let c = match (int(coord), flat_ints(coord)) {
        (Some(i), _) if (0..prod(&tiler).unwrap_or(0)).contains(&i) => colex(i, &tiler),
        (None, Some(v))
            if v.len() == tiler.len() && v.iter().zip(&tiler).all(|(x, a)| (0..*a).contains(x)) =>
        {
            v
        }
        _ => return Ok(()),
    };
    let Some(ans) = answer(r) else {
        return Err("refused a dividing tiler".into());
    };
    let got = want_tensor(ans)?;
    let sizes: Vec<i64> = ms.iter().zip(&tiler).map(|(m, a)| m / a).collect();
    let lay = t.fun().map(|f| f.inner.clone()).ok_or("no layout")?;
    same_tensor(
        &got,
        &|i| {
            let g = colex(i, &sizes);
            let full: Vec<i64> = g
                .iter()
                .zip(&tiler)
                .zip(&c)
                .map(|((x, a), y)| x * a + y)
                .collect();
            t.at(lay.index_of(&full))
        },
        &sizes,
    )
}

pub fn law_local_partition(args: &[Arg], r: &Res) -> Out {
    let [t, thr, index] = args else {
        return Ok(());
    };
    let (Some(t), Some(thr), Some(index)) = (
        tensor_arg(Some(t)),
        text(thr).and_then(Lay::parse),
        int(index),
    ) else {
        return Ok(());
    };
    let ms = t.mode_sizes();
    let ts = thr.mode_sizes();
    if ts.len() != ms.len()
        || ts
            .iter()
            .zip(&ms)
            .enumerate()
            .any(|(k, (a, m))| m % a != 0 || !divides_mode(&t, k, *a))
    {
        return Ok(());
    }
    let owners: Vec<i64> = (0..thr.n()).filter(|j| thr.at(*j) == Some(index)).collect();
    let [j] = owners[..] else { return Ok(()) };
    let c = thr.mode_coords(j);
    let Some(ans) = answer(r) else {
        return Err(format!("refused thread {index}, which THR_LAYOUT has once"));
    };
    let got = want_tensor(ans)?;
    let sizes: Vec<i64> = ms.iter().zip(&ts).map(|(m, a)| m / a).collect();
    let lay = t.fun().map(|f| f.inner.clone()).ok_or("no layout")?;
    same_tensor(
        &got,
        &|i| {
            let g = colex(i, &sizes);
            let full: Vec<i64> = g
                .iter()
                .zip(&ts)
                .zip(&c)
                .map(|((x, a), y)| x * a + y)
                .collect();
            t.at(lay.index_of(&full))
        },
        &sizes,
    )
}

pub fn law_partition_tv(args: &[Arg], r: &Res) -> Out {
    let [t, tv, thread] = args else {
        return Ok(());
    };
    let (Some(t), Some(tv), Some(th)) = (
        tensor_arg(Some(t)),
        text(tv).and_then(Lay::parse),
        int(thread),
    ) else {
        return Ok(());
    };
    let nt = tv.mode_size(0);
    if !(0..nt).contains(&th) || tv.ints().is_none() || tv.rank() != 2 {
        return Ok(());
    }
    let nv = tv.n() / nt;
    let idx: Option<Vec<i64>> = (0..nv)
        .map(|v| tv.at(th + nt * v).filter(|x| (0..t.n()).contains(x)))
        .collect();
    let Some(idx) = idx else { return Ok(()) };
    // composition(T, TV) may fail CuTe's divisibility conditions: a refusal is not judged.
    let Some(ans) = answer(r) else { return Ok(()) };
    let got = want_tensor(ans)?;
    if got.n() != nv {
        return Err(format!("{} values, the TV layout gives {nv}", got.n()));
    }
    for (v, k) in idx.iter().enumerate() {
        let (g, w) = (got.at(v as i64), t.at(*k));
        if w.is_some() && g != w {
            return Err(format!("R({v}) = {g:?}, T(TV({th},{v})) = T({k}) = {w:?}"));
        }
    }
    judged();
    Ok(())
}

pub fn law_print_tensor(args: &[Arg], r: &Res) -> Out {
    let [a] = args else { return Ok(()) };
    let Some(t) = tensor_arg(Some(a)) else {
        return Ok(());
    };
    if matches!(t, Ten::Zip(_)) {
        return Ok(());
    }
    let ms = t.mode_sizes();
    let (rows, cols) = match ms[..] {
        [m] => (m, 1),
        [m, n] => (m, n),
        _ => return Ok(()),
    };
    // CuTe prints integers with %5d: wider ones run into their neighbours.
    let wide = (0..t.n()).any(|i| matches!(t.at(i), Some(Val::I(v)) if v.to_string().len() > 4));
    let Some(ans) = answer(r).filter(|_| !wide) else {
        return Ok(());
    };
    let mut lines = ans.lines();
    let head = lines.next().unwrap_or("");
    if !head.ends_with(':') {
        return Err("the first line is not `TENSOR:`".into());
    }
    let grid: Vec<Vec<&str>> = lines.map(|l| l.split_whitespace().collect()).collect();
    if grid.len() as i64 != rows {
        return Err(format!("{} lines, {rows} rows", grid.len()));
    }
    for (m, row) in grid.iter().enumerate() {
        if row.len() as i64 != cols {
            return Err(format!("row {m} has {} cells, not {cols}", row.len()));
        }
        for (n, cell) in row.iter().enumerate() {
            let Some(w) = t.at(m as i64 + rows * n as i64) else {
                return Ok(());
            };
            if *cell != w.text() {
                return Err(format!(
                    "cell ({m},{n}) is {cell}, T({m},{n}) = {}",
                    w.text()
                ));
            }
        }
    }
    judged();
    Ok(())
}

/// The sums of a counting tensor over the modes not kept, one per coordinate of the kept ones.
fn reduce(t: &Ten, keep: &[bool]) -> Option<Vec<i64>> {
    let ms = t.mode_sizes();
    if keep.len() != ms.len() {
        return None;
    }
    let kept: Vec<i64> = ms
        .iter()
        .zip(keep)
        .filter(|(_, k)| **k)
        .map(|(m, _)| *m)
        .collect();
    let mut out = vec![0i64; kept.iter().product::<i64>() as usize];
    for i in 0..t.n() {
        let c = colex(i, &ms);
        let kc: Vec<i64> = c
            .iter()
            .zip(keep)
            .filter(|(_, k)| **k)
            .map(|(x, _)| *x)
            .collect();
        let mut j = 0;
        let mut scale = 1;
        for (x, m) in kc.iter().zip(&kept) {
            j += x * scale;
            scale *= m;
        }
        let Val::I(v) = t.at(i)? else { return None };
        out[j as usize] = out[j as usize].checked_add(v)?;
    }
    Some(out)
}

fn expect_ints(r: &Res, want: &[i64]) -> Out {
    let Some(ans) = answer(r) else {
        return Err(format!("refused, the reference gives {want:?}"));
    };
    let got = Tx::parse(ans).and_then(|t| t.ints());
    if got.as_deref() != Some(want) {
        return Err(format!("answer {ans}, the reference gives {want:?}"));
    }
    judged();
    Ok(())
}

pub fn law_batch_reduce(args: &[Arg], r: &Res) -> Out {
    let [a] = args else { return Ok(()) };
    let Some(t @ Ten::One(It::Count(_), _)) = tensor_arg(Some(a)) else {
        return Ok(());
    };
    if t.mode_sizes().len() != 2 {
        return Ok(());
    }
    match reduce(&t, &[false, true]) {
        Some(w) => expect_ints(r, &w),
        None => Ok(()),
    }
}

pub fn law_logical_reduce(args: &[Arg], r: &Res) -> Out {
    let [a, p] = args else { return Ok(()) };
    let (Some(t @ Ten::One(It::Count(_), _)), Some(Tx::N(p))) =
        (tensor_arg(Some(a)), text(p).and_then(Tx::parse))
    else {
        return Ok(());
    };
    let keep: Option<Vec<bool>> = p
        .iter()
        .map(|e| match e {
            Tx::L(s) if s == "_" => Some(true),
            Tx::L(s) if s.parse::<i64>().is_ok() => Some(false),
            _ => None,
        })
        .collect();
    let Some(keep) = keep else { return Ok(()) };
    if keep.len() != t.mode_sizes().len()
        || matches!(t.fun().map(|f| &f.inner.shape), Some(Tx::L(_)))
    {
        return Ok(());
    }
    match reduce(&t, &keep) {
        Some(w) => expect_ints(r, &w),
        None => Ok(()),
    }
}

pub fn law_make_tensor_like(args: &[Arg], r: &Res) -> Out {
    let [a] = args else { return Ok(()) };
    let Some(s) = text(a) else { return Ok(()) };
    let l = match Ten::parse(s) {
        Some(Ten::One(It::Count(_) | It::Ptr(_), f)) if f.layers.is_empty() => f.inner,
        Some(_) => return Ok(()),
        None => match Lay::parse(s) {
            Some(l) => l,
            None => return Ok(()),
        },
    };
    let Some(d) = l.ints() else { return Ok(()) };
    if d.iter().any(|x| *x < 0) {
        return Ok(());
    }
    let Some(ans) = answer(r) else {
        return Err("refused".into());
    };
    let got = want_tensor(ans)?;
    let Ten::One(It::Count(0), f) = &got else {
        return Err("the iterator is not counting_iter(0)".into());
    };
    if !f.layers.is_empty() || f.inner.shape != l.shape {
        return Err(format!(
            "layout {}, not of the shape {}",
            f.inner.shape.text(),
            l.shape.text()
        ));
    }
    let rd = f.inner.ints().ok_or("not integer strides")?;
    // CuTe's compact_order by L's strides: a leaf's stride is the product of the extents of
    // the leaves of smaller (nonzero) stride; L's zero strides stay 0.
    for k in (0..d.len()).filter(|k| l.ext[*k] > 1) {
        let want = if d[k] == 0 {
            0
        } else {
            (0..d.len())
                .filter(|j| d[*j] != 0 && d[*j] < d[k])
                .map(|j| l.ext[j])
                .product()
        };
        if rd[k] != want {
            return Err(format!(
                "leaf {k}: stride {}, compact_order of L's strides {d:?} gives {want}",
                rd[k]
            ));
        }
    }
    judged();
    Ok(())
}

/// The bytes a pointer tensor of whole-byte elements reaches, sorted and deduplicated.
fn bytes_of(t: &Ten) -> Option<Vec<i64>> {
    let Ten::One(It::Ptr(p), f) = t else {
        return None;
    };
    if p.bits % 8 != 0 || p.sw.is_some() {
        return None;
    }
    let mut v = Vec::new();
    for i in 0..f.n() {
        let a = p.elem(f.at(i)?)?;
        v.extend(a..a.checked_add(p.bits / 8)?);
    }
    v.sort_unstable();
    v.dedup();
    Some(v)
}

pub fn law_recast_tensor(args: &[Arg], r: &Res) -> Out {
    let [ty, t] = args else { return Ok(()) };
    let (Some(bits), Some(t)) = (type_bits(ty), tensor_arg(Some(t))) else {
        return Ok(());
    };
    let Some(want) = bytes_of(&t) else {
        return Ok(());
    };
    let Ten::One(It::Ptr(p0), f0) = &t else {
        return Ok(());
    };
    let d0 = f0.inner.ints().unwrap_or_default();
    let unit: Vec<i64> = f0
        .inner
        .ext
        .iter()
        .zip(&d0)
        .filter(|(_, d)| d.abs() == 1)
        .map(|(e, _)| *e)
        .collect();
    // The help's condition: the unit-stride modes span whole elements of both widths.
    let spans = !unit.is_empty() && unit.iter().all(|e| *e > 1 && (e * p0.bits) % bits == 0);
    if bits % 8 != 0 || !f0.layers.is_empty() || (bits != p0.bits && !spans) {
        return Ok(());
    }
    let Some(ans) = answer(r) else { return Ok(()) };
    let got = want_tensor(ans)?;
    let (Ten::One(It::Ptr(p), _), Ten::One(It::Ptr(q), _)) = (&t, &got) else {
        return Err("the answer is not a pointer tensor".into());
    };
    if q.bits != bits || q.addr != p.addr || q.space != p.space {
        return Err(format!(
            "pointer {q:?}, the argument's {p:?} recast to {bits} bits"
        ));
    }
    if bytes_of(&got).as_ref() != Some(&want) {
        return Err("the new tensor reaches other bytes".into());
    }
    judged();
    Ok(())
}

fn same_parts(parts: &[Ten], got: &[Ten]) -> Out {
    if parts.len() != got.len() {
        return Err(format!(
            "{} tensors, the argument has {}",
            got.len(),
            parts.len()
        ));
    }
    for (p, g) in parts.iter().zip(got) {
        same_tensor(g, &|i| p.at(i), &p.mode_sizes())?;
    }
    Ok(())
}

pub fn law_make_zip_tensor(args: &[Arg], r: &Res) -> Out {
    let parts: Option<Vec<Ten>> = args.iter().map(|a| tensor_arg(Some(a))).collect();
    let Some(parts) = parts else { return Ok(()) };
    if parts.len() < 2
        || parts
            .iter()
            .any(|p| p.mode_sizes() != parts[0].mode_sizes() || matches!(p, Ten::Zip(_)))
    {
        return Ok(());
    }
    let Some(ans) = answer(r) else {
        return Err("refused tensors of one shape".into());
    };
    match want_tensor(ans)? {
        Ten::Zip(got) => same_parts(&parts, &got),
        _ => Err("the answer is not a zip tensor".into()),
    }
}

pub fn law_unzip_tensor(args: &[Arg], r: &Res) -> Out {
    let Some(Ten::Zip(parts)) = tensor_arg(args.first()) else {
        return Ok(());
    };
    let Some(ans) = answer(r) else { return Ok(()) };
    match args.get(1).map(int) {
        None => {
            let got: Vec<Ten> = ans
                .lines()
                .map(|l| Ten::parse(l).ok_or(format!("line {l:?} is not a tensor")))
                .collect::<Result<_, _>>()?;
            same_parts(&parts, &got)
        }
        Some(Some(i)) if (0..parts.len() as i64).contains(&i) => {
            same_parts(&parts[i as usize..=i as usize], &[want_tensor(ans)?])
        }
        _ => Ok(()),
    }
}

pub fn law_as_position_independent_swizzle_tensor(args: &[Arg], r: &Res) -> Out {
    let [a] = args else { return Ok(()) };
    let Some(t @ Ten::One(It::Ptr(_), _)) = tensor_arg(Some(a)) else {
        return Ok(());
    };
    let Some(ans) = answer(r) else { return Ok(()) };
    let got = want_tensor(ans)?;
    same_tensor(&got, &|i| t.at(i), &t.mode_sizes())
}

// ---------------------------------------------------------------------------------------------
// Pointers

fn ptr_answer(r: &Res) -> Result<Option<Ptr>, String> {
    match answer(r) {
        None => Ok(None),
        Some(a) => Ptr::parse(a)
            .map(Some)
            .ok_or(format!("answer {a:?} is not a pointer")),
    }
}

fn check_ptr(got: &Ptr, want: &Ptr) -> Out {
    if got != want {
        return Err(format!("pointer {got:?}, the reference {want:?}"));
    }
    judged();
    Ok(())
}

fn make_ptr_law(args: &[Arg], r: &Res, space: &str) -> Out {
    if args.len() < 2 {
        return Ok(());
    }
    let (Some(bits), Some(addr)) = (
        type_bits(&args[0]),
        text(&args[1])
            .and_then(parse_addr)
            .or_else(|| int(&args[1])),
    ) else {
        return Ok(());
    };
    let sw = match args.get(2) {
        None => None,
        Some(s) => match text(s).and_then(swz) {
            Some(w) if w.0 > 0 => Some(w),
            Some(_) => None,
            None => return Ok(()),
        },
    };
    if addr < 0 {
        return Ok(());
    }
    let Some(got) = ptr_answer(r)? else {
        return Ok(());
    };
    let want = Ptr {
        space: space.into(),
        sw,
        bits,
        addr,
        bit: (bits < 8).then_some(0),
    };
    check_ptr(&got, &want)
}

pub fn law_make_gmem_ptr(args: &[Arg], r: &Res) -> Out {
    make_ptr_law(args, r, "gmem_")
}

pub fn law_make_smem_ptr(args: &[Arg], r: &Res) -> Out {
    make_ptr_law(args, r, "smem_")
}

pub fn law_make_rmem_ptr(args: &[Arg], r: &Res) -> Out {
    make_ptr_law(args, r, "")
}

pub fn law_make_tmem_ptr(args: &[Arg], r: &Res) -> Out {
    let (Some(bits), Some(addr)) = (
        args.first().and_then(type_bits),
        match args.get(1) {
            None => Some(0),
            Some(a) => text(a).and_then(parse_addr).or_else(|| int(a)),
        },
    ) else {
        return Ok(());
    };
    if !(0..1 << 32).contains(&addr) {
        return Ok(());
    }
    let Some(got) = ptr_answer(r)? else {
        return Ok(());
    };
    let want = Ptr {
        space: "tmem_".into(),
        sw: None,
        bits,
        addr: addr >> 16,
        bit: Some(addr & 0xffff),
    };
    check_ptr(&got, &want)
}

pub fn law_make_swizzle_ptr(args: &[Arg], r: &Res) -> Out {
    let [p, s] = args else { return Ok(()) };
    let (Some(p), Some(w)) = (text(p).and_then(Ptr::parse), text(s).and_then(swz)) else {
        return Ok(());
    };
    if p.sw.is_some() || p.space == "tmem_" {
        return Ok(());
    }
    let Some(got) = ptr_answer(r)? else {
        return Ok(());
    };
    let want = Ptr {
        sw: (w.0 > 0).then_some(w),
        ..p
    };
    check_ptr(&got, &want)
}

pub fn law_recast_ptr(args: &[Arg], r: &Res) -> Out {
    let [ty, p] = args else { return Ok(()) };
    let (Some(bits), Some(p)) = (type_bits(ty), text(p).and_then(Ptr::parse)) else {
        return Ok(());
    };
    if p.space == "tmem_" {
        return Ok(());
    }
    let Some(got) = ptr_answer(r)? else {
        return Ok(());
    };
    let bit = p.bit.unwrap_or(0);
    let want = Ptr {
        bits,
        bit: (bits < 8).then_some(bit),
        ..p
    };
    check_ptr(&got, &want)
}

// ---------------------------------------------------------------------------------------------
// Pictures and answers about layouts

/// A picture's layout argument: a (composed) layout or a shape (its compact column-major layout).
fn picture_fun(a: &Arg) -> Option<Fun> {
    let s = text(a)?;
    Fun::parse(s).or_else(|| {
        Lay::of_shape(s).map(|inner| Fun {
            layers: Vec::new(),
            inner,
        })
    })
}

/// Rows and columns of a layout's table: mode 0 down, the other modes across (a rank-1
/// layout is one row).
fn table_dims(f: &Fun, rank1_column: bool) -> (i64, i64) {
    let n = f.n();
    if f.inner.rank() < 2 && rank1_column {
        (n, 1)
    } else if f.inner.rank() < 2 {
        (1, n)
    } else {
        let m = f.inner.mode_size(0);
        (m, n / m.max(1))
    }
}

/// Compares cells `(r, c, text)` with the layout's table.
fn check_cells(f: &Fun, cells: &[(i64, i64, String)], rank1_column: bool) -> Out {
    let (rows, cols) = table_dims(f, rank1_column);
    if cells.len() as i64 != rows * cols {
        return Err(format!("{} cells, a {rows} x {cols} table", cells.len()));
    }
    for (r, c, v) in cells {
        if !(0..rows).contains(r) || !(0..cols).contains(c) {
            return Err(format!("cell ({r},{c}) is outside the table"));
        }
        let Some(want) = f.at(r + rows * c) else {
            return Ok(());
        };
        if *v != want.to_string() {
            return Err(format!("cell ({r},{c}) shows {v}, the layout has {want}"));
        }
    }
    judged();
    Ok(())
}

/// The cells of a print_layout table: `  r  | v | v |` rows.
fn table_cells(s: &str) -> Vec<(i64, i64, String)> {
    let mut out = Vec::new();
    let mut row = 0;
    for line in s.lines() {
        let parts: Vec<&str> = line.split('|').collect();
        if parts.len() < 3 || parts[0].trim().parse::<i64>().is_err() {
            continue;
        }
        for (c, v) in parts[1..parts.len() - 1].iter().enumerate() {
            out.push((row, c as i64, v.trim().to_string()));
        }
        row += 1;
    }
    out
}

pub fn law_print_layout(args: &[Arg], r: &Res) -> Out {
    let [a] = args else { return Ok(()) };
    let Some(f) = picture_fun(a) else {
        return Ok(());
    };
    let Some(ans) = answer(r) else { return Ok(()) };
    check_cells(&f, &table_cells(ans), false)
}

pub fn law_show(args: &[Arg], r: &Res) -> Out {
    let [a] = args else { return Ok(()) };
    let Some(f) = picture_fun(a) else {
        return Ok(());
    };
    let Some(ans) = answer(r) else { return Ok(()) };
    let field = |k: &str| {
        ans.lines()
            .find_map(|l| l.strip_prefix(k))
            .map(|v| v.trim().to_string())
    };
    if field("size:") != Some(f.n().to_string()) {
        return Err(format!("size line {:?}, size {}", field("size:"), f.n()));
    }
    if f.layers.is_empty() {
        if let Some(v) = f.values().filter(|v| v.iter().all(|x| *x >= 0)) {
            let cosize = v.iter().max().map_or(0, |m| m + 1);
            if field("cosize:") != Some(cosize.to_string()) {
                return Err(format!(
                    "cosize line {:?}, cosize {cosize}",
                    field("cosize:")
                ));
            }
        }
        if field("rank:") != Some(f.inner.rank().to_string()) {
            return Err(format!("rank line {:?}", field("rank:")));
        }
    }
    check_cells(&f, &table_cells(ans), false)
}

/// `<text x=".." y="..">v</text>` elements of the svg's `labels` group.
fn svg_cells(s: &str) -> Option<Vec<(i64, i64, String)>> {
    let start = s.find("<g class=\"labels\">")?;
    let group = &s[start..start + s[start..].find("</g>")?];
    let mut pts: Vec<(f64, f64, String)> = Vec::new();
    for el in group.split("<text ").skip(1) {
        let attr = |k: &str| -> Option<f64> {
            let at = el.find(&format!("{k}=\""))? + k.len() + 2;
            el[at..at + el[at..].find('"')?].parse().ok()
        };
        let v = &el[el.find('>')? + 1..el.find("</text>")?];
        pts.push((attr("x")?, attr("y")?, v.to_string()));
    }
    let mut xs: Vec<f64> = pts.iter().map(|p| p.0).collect();
    let mut ys: Vec<f64> = pts.iter().map(|p| p.1).collect();
    for v in [&mut xs, &mut ys] {
        v.sort_by(f64::total_cmp);
        v.dedup();
    }
    Some(
        pts.into_iter()
            .map(|(x, y, v)| {
                let r = ys.iter().position(|z| *z == y).unwrap_or(0) as i64;
                let c = xs.iter().position(|z| *z == x).unwrap_or(0) as i64;
                (r, c, v)
            })
            .collect(),
    )
}

pub fn law_svg(args: &[Arg], r: &Res) -> Out {
    let [a] = args else { return Ok(()) };
    let Some(f) = picture_fun(a) else {
        return Ok(());
    };
    let Some(ans) = answer(r) else { return Ok(()) };
    let cells = svg_cells(ans).ok_or("no labels group")?;
    check_cells(&f, &cells, false)
}

pub fn law_latex(args: &[Arg], r: &Res) -> Out {
    let [a] = args else { return Ok(()) };
    let Some(f) = picture_fun(a) else {
        return Ok(());
    };
    let Some(ans) = answer(r) else { return Ok(()) };
    let mut cells = Vec::new();
    for line in ans.lines().filter(|l| l.starts_with("\\node[fill")) {
        let parse = || -> Option<(i64, i64, String)> {
            let at = &line[line.find("] at (")? + 6..];
            let (rc, rest) = at.split_once(") {")?;
            let (r, c) = rc.split_once(',')?;
            let v = rest.strip_suffix("};")?;
            Some((
                r.trim().parse().ok()?,
                c.trim().parse().ok()?,
                v.to_string(),
            ))
        };
        cells.push(parse().ok_or(format!("node line {line:?} not understood"))?);
    }
    check_cells(&f, &cells, true)
}

pub fn law_find_layout(args: &[Arg], r: &Res) -> Out {
    let Some(vals) = args.first().and_then(text) else {
        return Ok(());
    };
    let Some(v) = vals
        .split(',')
        .map(|x| x.trim().parse::<i64>().ok())
        .collect::<Option<Vec<_>>>()
    else {
        return Ok(());
    };
    let shape = match args.get(1) {
        None => None,
        Some(s) => match text(s).and_then(Tx::parse) {
            Some(t) if t.ints().and_then(|e| prod(&e)) == Some(v.len() as i64) => Some(t),
            _ => return Ok(()),
        },
    };
    if args.len() > 2 {
        return Ok(());
    }
    // Values of a layout of extents 1..=4 (the generator's), so a layout exists.
    let Some(ans) = answer(r) else {
        return Ok(());
    };
    let l = want_layout(ans)?;
    if l.n() != v.len() as i64 {
        return Err(format!("size {} for {} values", l.n(), v.len()));
    }
    if let Some(s) = shape {
        if l.ext != s.ints().unwrap_or_default() {
            return Err(format!("shape {}, not SHAPE {}", l.shape.text(), s.text()));
        }
    }
    for (i, x) in v.iter().enumerate() {
        if l.at(i as i64) != Some(*x) {
            return Err(format!("R({i}) = {:?}, v_{i} = {x}", l.at(i as i64)));
        }
    }
    judged();
    Ok(())
}

pub fn law_explain(args: &[Arg], r: &Res) -> Out {
    let Some(op) = args.first().and_then(text) else {
        return Ok(());
    };
    let Some(ans) = answer(r) else { return Ok(()) };
    let Some(last) = ans.lines().last().and_then(|l| l.strip_prefix("=> ")) else {
        return Err("the last line is not `=> RESULT`".into());
    };
    let rest = &args[1..];
    let direct = run_op(op, rest);
    match &direct {
        Ok(d) if no_space(d) != no_space(last) => {
            return Err(format!("the explanation ends in {last}, {op} gives {d}"));
        }
        Ok(_) => {}
        Err(_) => return Ok(()),
    }
    if let Some(law) = super::check::law(op) {
        law(rest, &Ok(last.to_string())).map_err(|e| format!("{op}'s law: {e}"))?;
    }
    judged();
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The algebra on chains, symbolic and F2 layouts, for the checkers of check.rs: each returns
// `Some(verdict)` when the arguments are of these kinds, `None` to leave the call to the
// integer checker.

/// Substitutions of positive integers for the symbols, 1 included.
const SUBS: &[&[(&str, i64)]] = &[
    &[("N", 1), ("M", 1), ("K", 1)],
    &[("N", 1), ("M", 2), ("K", 3)],
    &[("N", 2), ("M", 3), ("K", 4)],
    &[("N", 4), ("M", 1), ("K", 2)],
    &[("N", 3), ("M", 5), ("K", 2)],
];

fn is_symbolic(a: &Arg) -> bool {
    text(a).is_some_and(|s| cute_ops::value::Form::of_text(s) == cute_ops::value::Form::Symbolic)
}

fn is_f2(a: &Arg) -> bool {
    text(a).is_some_and(|s| s.contains("F2(") && !s.contains('@'))
}

/// `text` with the symbols substituted, as an integer layout's text.
fn subs_text(t: &str, env: &[(&str, i64)]) -> Option<String> {
    let l: cute_layout::SymLayout = t.trim().parse().ok()?;
    l.subs(env).ok().map(|l| l.to_string())
}

/// `subs(OP(L)) = OP(subs(L))`: the integer law of `op` judges the substituted answer at every
/// substitution where the arguments become integer layouts.
fn symbolic_law(op: &str, args: &[Arg], r: &Res) -> Out {
    let Some(ans) = answer(r) else { return Ok(()) };
    let law = super::check::law(op).ok_or("no law")?;
    for env in SUBS {
        let subs_args: Option<Vec<Arg>> = args
            .iter()
            .map(|a| {
                if is_symbolic(a) {
                    subs_text(text(a)?, env).map(Arg::Text)
                } else {
                    Some(a.clone())
                }
            })
            .collect();
        let Some(subs_args) = subs_args else { continue };
        // Judged where the substituted layouts are small and their values moderate.
        let small = subs_args
            .iter()
            .filter(|a| text(a).is_some_and(|s| s.contains(':')))
            .all(|a| text(a).and_then(Lay::parse).is_some_and(|l| moderate(&l)));
        if !small || subs_args.iter().any(is_symbolic) {
            continue;
        }
        let subs_ans = if cute_ops::value::Form::of_text(ans) == cute_ops::value::Form::Symbolic {
            match subs_text(ans, env) {
                Some(s) => s,
                // Both refuse: the answer's values leave i64 there, and so do the operation's
                // on the substituted arguments.
                None if run_op(op, &subs_args).is_err() => continue,
                None => return Err(format!("at {env:?}: the answer {ans} does not substitute")),
            }
        } else {
            ans.to_string()
        };
        law(&subs_args, &Ok(subs_ans)).map_err(|e| format!("at {env:?}: {e}"))?;
    }
    judged();
    Ok(())
}

/// `R(i) = A(B(i))` for a chain A (swizzles or layouts as outer functions, offsets) and an
/// integer layout B.
fn chain_composition(a: &Fun, b: &Lay, r: &Res) -> Out {
    let Some(ans) = answer(r) else { return Ok(()) };
    let f = want_fun(ans)?;
    if f.n() != b.n() {
        return Err(format!("size {} != size(B) = {}", f.n(), b.n()));
    }
    for i in 0..b.n() {
        let Some(bi) = b.at(i).filter(|x| *x >= 0) else {
            continue;
        };
        let Some(want) = a.at(bi) else { continue };
        if f.at(i) != Some(want) {
            return Err(format!(
                "R({i}) = {:?}, A(B({i})) = A({bi}) = {want}",
                f.at(i)
            ));
        }
    }
    judged();
    Ok(())
}

/// Chains and symbolic layouts in composition.
pub fn general_composition(args: &[Arg], r: &Res) -> Option<Out> {
    let [a, b] = args else { return None };
    if is_symbolic(a) || is_symbolic(b) {
        return Some(symbolic_law("composition", args, r));
    }
    let fa = text(a)
        .and_then(Fun::parse)
        .filter(|f| !f.layers.is_empty())?;
    let lb = text(b)
        .and_then(Lay::parse)
        .filter(|l| l.ints().is_some())?;
    Some(chain_composition(&fa, &lb, r))
}

/// Chains in logical_divide: mode 0 of the divided chain is A o T.
pub fn general_logical_divide(args: &[Arg], r: &Res) -> Option<Out> {
    let [a, t] = args else { return None };
    let fa = text(a)
        .and_then(Fun::parse)
        .filter(|f| !f.layers.is_empty())?;
    let lt = text(t)
        .and_then(Lay::parse)
        .filter(|l| l.ints().is_some())?;
    let Some(ans) = answer(r) else {
        return Some(Ok(()));
    };
    Some((|| {
        let f = want_fun(ans)?;
        if f.n() < fa.n() {
            return Err(format!("size {} < size(A) = {}", f.n(), fa.n()));
        }
        if f.inner.mode_size(0) != lt.n() {
            return Err(format!(
                "mode 0 of size {}, T's {}",
                f.inner.mode_size(0),
                lt.n()
            ));
        }
        for i in 0..lt.n() {
            let Some(ti) = lt.at(i).filter(|x| *x >= 0) else {
                continue;
            };
            let Some(want) = fa.at(ti) else { continue };
            if f.at(i) != Some(want) {
                return Err(format!("mode 0 at {i} = {:?}, A(T({i})) = {want}", f.at(i)));
            }
        }
        judged();
        Ok(())
    })())
}

/// Symbolic layouts in complement, under substitutions.
pub fn general_complement(args: &[Arg], r: &Res) -> Option<Out> {
    (args.iter().any(is_symbolic)).then(|| symbolic_law("complement", args, r))
}

/// Chains and F2 layouts in coalesce: the same function, on the whole domain.
pub fn general_coalesce(args: &[Arg], r: &Res) -> Option<Out> {
    let [a] = args else { return None };
    let s = text(a)?;
    let ans = answer(r);
    if is_f2(a) {
        let l = Lay::parse(s)?;
        let ans = ans?;
        return Some((|| {
            let g = Lay::parse_with(ans, MAX_ANSWER)
                .ok_or(format!("answer {ans:?} is not an F2 layout"))?;
            if g.n() != l.n() {
                return Err(format!("size {} != {}", g.n(), l.n()));
            }
            for i in 0..l.n() {
                let (x, y) = (l.at_f2(i), g.at_any(i));
                if x.is_some() && x != y {
                    return Err(format!("R({i}) = {y:?}, A({i}) = {x:?}"));
                }
            }
            judged();
            Ok(())
        })());
    }
    let f = Fun::parse(s).filter(|f| !f.layers.is_empty())?;
    let ans = ans?;
    Some((|| {
        let g = want_fun(ans)?;
        if g.n() != f.n() {
            return Err(format!("size {} != {}", g.n(), f.n()));
        }
        for i in 0..f.n() {
            let x = f.at(i);
            if x.is_some() && x != g.at(i) {
                return Err(format!("R({i}) = {:?}, A({i}) = {x:?}", g.at(i)));
            }
        }
        judged();
        Ok(())
    })())
}

/// F2 layouts in left_inverse: `R(A(i)) = i` where A is one-to-one.
pub fn general_left_inverse(args: &[Arg], r: &Res) -> Option<Out> {
    let [a] = args else { return None };
    if !is_f2(a) {
        return None;
    }
    let l = text(a).and_then(Lay::parse)?;
    let ans = answer(r)?;
    let vals: Option<Vec<u64>> = (0..l.n()).map(|i| l.at_f2(i)).collect();
    let vals = vals?;
    let mut d = vals.clone();
    d.sort_unstable();
    d.dedup();
    if d.len() != vals.len() {
        return Some(Ok(()));
    }
    Some((|| {
        let g =
            Lay::parse_with(ans, MAX_ANSWER).ok_or(format!("answer {ans:?} is not a layout"))?;
        for (i, v) in vals.iter().enumerate() {
            let back = i64::try_from(*v).ok().and_then(|v| g.at_any(v));
            if back != Some(i as u64) {
                return Err(format!("R(A({i})) = R({v}) = {back:?} != {i}"));
            }
        }
        judged();
        Ok(())
    })())
}
