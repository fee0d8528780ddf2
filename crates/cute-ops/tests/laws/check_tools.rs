//! Law checkers of the layout and tuple tools (restructuring, coordinates, casts, products,
//! predicates, permutations, PyCuTe's shape relations, the higher-order tuple operations).
//!
//! The reference is computed here: integer tuples and integer-strided layouts are read into a
//! tree of their own ([`T`], [`Lay`]) and every answer is rebuilt from the leaves by the rule of
//! the operation's law line (CuTe's definition where the law names it). An operation that takes
//! another operation (`transform`, `fold`, `at_mode`, `any_of`, ...) is checked against that
//! operation called through the table element by element. Arguments the reference does not
//! cover (composed, basis, F2 or symbolic strides, huge values) are left to the contract.
//!
//! Every checker calls [`judged`]'s counter when it compares an answer with the reference, so a
//! test can require that the generated arguments exercise each law (`laws_tools.rs`).

use std::cell::Cell;
use std::fmt;

use cute_ops::value::Form;
use cute_ops::{run_op, Arg, OpError};

type Out = Result<String, OpError>;
type Res = Result<(), String>;

/// Largest absolute integer a reference computes with; larger arguments are left unjudged.
const BIG: i64 = 1 << 20;
/// Largest domain a checker enumerates.
const ENUM: i64 = 1 << 12;

thread_local! {
    static JUDGED: Cell<u64> = const { Cell::new(0) };
}

/// How many answers the checkers of this file compared with their reference on this thread.
pub fn judged() -> u64 {
    JUDGED.with(|c| c.get())
}

fn mark() {
    JUDGED.with(|c| c.set(c.get() + 1));
}

// ---------------------------------------------------------------------------------------------
// Trees: integers, `_`, and tuples of those

/// An integer tuple (or coordinate with `_`), read here from its text.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum T {
    I(i64),
    U,
    Tup(Vec<T>),
}

impl fmt::Display for T {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            T::I(x) => write!(f, "{x}"),
            T::U => write!(f, "_"),
            T::Tup(v) => {
                write!(f, "(")?;
                for (k, e) in v.iter().enumerate() {
                    if k > 0 {
                        write!(f, ",")?;
                    }
                    write!(f, "{e}")?;
                }
                write!(f, ")")
            }
        }
    }
}

struct Reader<'a> {
    s: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn skip(&mut self) {
        while self.s.get(self.pos) == Some(&b' ') {
            self.pos += 1;
        }
    }

    fn tree(&mut self) -> Option<T> {
        self.skip();
        match *self.s.get(self.pos)? {
            b'(' => {
                self.pos += 1;
                let mut v = Vec::new();
                self.skip();
                if self.s.get(self.pos) == Some(&b')') {
                    self.pos += 1;
                    return Some(T::Tup(v));
                }
                loop {
                    v.push(self.tree()?);
                    self.skip();
                    match *self.s.get(self.pos)? {
                        b',' => self.pos += 1,
                        b')' => {
                            self.pos += 1;
                            return Some(T::Tup(v));
                        }
                        _ => return None,
                    }
                }
            }
            b'_' => {
                self.pos += 1;
                Some(T::U)
            }
            _ => {
                let start = self.pos;
                if self.s.get(self.pos) == Some(&b'-') {
                    self.pos += 1;
                }
                while self.s.get(self.pos).is_some_and(u8::is_ascii_digit) {
                    self.pos += 1;
                }
                std::str::from_utf8(&self.s[start..self.pos])
                    .ok()?
                    .parse()
                    .ok()
                    .map(T::I)
            }
        }
    }
}

/// A whole text as a tree (`_` allowed), or `None`.
pub fn tree_u(s: &str) -> Option<T> {
    let mut r = Reader {
        s: s.trim().as_bytes(),
        pos: 0,
    };
    let t = r.tree()?;
    r.skip();
    (r.pos == r.s.len()).then_some(t)
}

/// A tree without `_`, every integer at most [`BIG`] in absolute value.
pub fn tree(s: &str) -> Option<T> {
    let t = tree_u(s)?;
    (!t.has_u() && t.leaves().iter().all(|x| x.unsigned_abs() <= BIG as u64)).then_some(t)
}

impl T {
    fn has_u(&self) -> bool {
        match self {
            T::U => true,
            T::I(_) => false,
            T::Tup(v) => v.iter().any(T::has_u),
        }
    }

    pub fn leaves(&self) -> Vec<i64> {
        let mut out = Vec::new();
        self.collect(&mut out);
        out
    }

    fn collect(&self, out: &mut Vec<i64>) {
        match self {
            T::I(x) => out.push(*x),
            T::U => {}
            T::Tup(v) => v.iter().for_each(|e| e.collect(out)),
        }
    }

    /// The top-level elements (modes); an integer is its own one mode.
    pub fn modes(&self) -> Vec<T> {
        match self {
            T::Tup(v) => v.clone(),
            x => vec![x.clone()],
        }
    }

    fn rank(&self) -> usize {
        self.modes().len()
    }

    /// The product of the leaves, checked.
    pub fn size(&self) -> Option<i64> {
        self.leaves()
            .iter()
            .try_fold(1i64, |a, x| a.checked_mul(*x))
    }

    fn same_tree(&self, o: &T) -> bool {
        match (self, o) {
            (T::Tup(a), T::Tup(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_tree(y))
            }
            (T::Tup(_), _) | (_, T::Tup(_)) => false,
            _ => true,
        }
    }

    /// The same tree with the leaves taken in order from `it`.
    fn refill(&self, it: &mut impl Iterator<Item = i64>) -> Option<T> {
        Some(match self {
            T::Tup(v) => T::Tup(v.iter().map(|e| e.refill(it)).collect::<Option<_>>()?),
            _ => T::I(it.next()?),
        })
    }

    fn positive(&self) -> bool {
        self.leaves().iter().all(|x| *x >= 1)
    }
}

fn tup(v: Vec<T>) -> T {
    T::Tup(v)
}

// ---------------------------------------------------------------------------------------------
// Integer layouts

/// An integer-strided layout `SHAPE:STRIDE`, read here.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Lay {
    pub s: T,
    pub d: T,
}

impl fmt::Display for Lay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.s, self.d)
    }
}

/// A layout text with integer strides (positive extents, congruent shape and stride), or `None`.
pub fn lay(s: &str) -> Option<Lay> {
    let (a, b) = s.trim().split_once(':')?;
    let (s, d) = (tree(a)?, tree(b)?);
    (s.same_tree(&d) && s.positive()).then_some(Lay { s, d })
}

impl Lay {
    fn modes(&self) -> Vec<Lay> {
        self.s
            .modes()
            .into_iter()
            .zip(self.d.modes())
            .map(|(s, d)| Lay { s, d })
            .collect()
    }

    fn size(&self) -> Option<i64> {
        self.s.size()
    }

    /// Positive extents and a size that can be enumerated.
    fn small(&self) -> bool {
        self.s.positive() && self.size().is_some_and(|n| n <= ENUM)
    }

    fn leaves(&self) -> Vec<(i64, i64)> {
        self.s.leaves().into_iter().zip(self.d.leaves()).collect()
    }

    /// `L(i)`: colexicographic over the leaves, the last leaf running on.
    fn at(&self, i: i64) -> Option<i64> {
        let l = self.leaves();
        let mut rest = i;
        let mut acc = 0i64;
        for (k, (s, d)) in l.iter().enumerate() {
            let c = if k + 1 == l.len() { rest } else { rest % s };
            acc = acc.checked_add(c.checked_mul(*d)?)?;
            rest /= s;
        }
        Some(acc)
    }

    fn values(&self) -> Option<Vec<i64>> {
        (0..self.size()?).map(|i| self.at(i)).collect()
    }

    fn from_modes(m: Vec<Lay>) -> Lay {
        let (s, d) = m.into_iter().map(|l| (l.s, l.d)).unzip();
        Lay {
            s: T::Tup(s),
            d: T::Tup(d),
        }
    }
}

/// `crd2idx(c, s, d)`: a tuple coordinate mode by mode, an integer coordinate unfolded
/// colexicographically into a tuple shape (the last mode running on), C division.
fn crd2idx(c: &T, s: &T, d: &T) -> Option<i64> {
    match (c, s, d) {
        (T::Tup(cv), T::Tup(sv), T::Tup(dv)) => {
            if cv.len() != sv.len() {
                return None;
            }
            let mut acc = 0i64;
            for k in 0..cv.len() {
                acc = acc.checked_add(crd2idx(&cv[k], &sv[k], &dv[k])?)?;
            }
            Some(acc)
        }
        (T::I(x), T::Tup(sv), T::Tup(dv)) => {
            let mut rest = *x;
            let mut acc = 0i64;
            for k in 0..sv.len() {
                let n = sv[k].size()?;
                let here = if k + 1 == sv.len() {
                    rest
                } else {
                    if n == 0 {
                        return None;
                    }
                    rest % n
                };
                acc = acc.checked_add(crd2idx(&T::I(here), &sv[k], &dv[k])?)?;
                if k + 1 < sv.len() {
                    rest /= n;
                }
            }
            Some(acc)
        }
        (T::I(x), T::I(_), T::I(dd)) => x.checked_mul(*dd),
        _ => None,
    }
}

/// The natural coordinate of `i` in shape `s` (colexicographic, the last mode running on).
fn idx2crd(i: i64, s: &T) -> Option<T> {
    match s {
        T::Tup(v) => {
            let mut rest = i;
            let mut out = Vec::new();
            for (k, e) in v.iter().enumerate() {
                let n = e.size()?;
                if k + 1 == v.len() {
                    out.push(idx2crd(rest, e)?);
                } else {
                    if n == 0 {
                        return None;
                    }
                    out.push(idx2crd(rest % n, e)?);
                    rest /= n;
                }
            }
            Some(T::Tup(out))
        }
        _ => Some(T::I(i)),
    }
}

// ---------------------------------------------------------------------------------------------
// Arguments and answers

fn text(a: &Arg) -> Option<String> {
    match a {
        Arg::Int(i) => Some(i.to_string()),
        Arg::Text(t) => Some(t.trim().to_string()),
        Arg::List(_) => None,
    }
}

fn int(a: &Arg) -> Option<i64> {
    text(a)?
        .parse()
        .ok()
        .filter(|x: &i64| x.unsigned_abs() <= BIG as u64)
}

fn targ(a: &Arg) -> Option<T> {
    tree(&text(a)?)
}

fn larg(a: &Arg) -> Option<Lay> {
    lay(&text(a)?)
}

/// What the reference expects of a call.
enum Want {
    /// This answer, compared as text.
    Is(String),
    /// A refusal: no answer exists.
    Refuse(String),
}

fn expect(r: &Out, w: Want) -> Res {
    match (w, r) {
        (Want::Is(x), Ok(a)) => {
            mark();
            if a.trim() == x {
                Ok(())
            } else {
                Err(format!("the reference gives {x}"))
            }
        }
        (Want::Is(x), Err(_)) => Err(format!("refused, the reference gives {x}")),
        (Want::Refuse(why), Ok(_)) => Err(format!("answered where no answer exists: {why}")),
        (Want::Refuse(_), Err(_)) => Ok(()),
    }
}

fn is<D: fmt::Display>(x: D) -> Want {
    Want::Is(x.to_string())
}

fn refuse(why: &str) -> Want {
    Want::Refuse(why.to_string())
}

/// The answer as a tree.
fn ans_tree(r: &Out) -> Result<Option<T>, String> {
    match r {
        Ok(a) => tree_u(a)
            .map(Some)
            .ok_or_else(|| format!("answer {a:?} is not an integer tuple")),
        Err(_) => Ok(None),
    }
}

/// The answer's modes equal `want` (a tuple of rank 1 and its element alike).
fn expect_modes(r: &Out, want: Option<Vec<T>>) -> Res {
    match (want, ans_tree(r)?) {
        (Some(w), Some(a)) => {
            mark();
            if a.modes() == w {
                Ok(())
            } else {
                Err(format!(
                    "modes {:?}, the reference gives {}",
                    a.to_string(),
                    tup(w)
                ))
            }
        }
        (Some(w), None) => Err(format!("refused, the reference gives modes {}", tup(w))),
        (None, Some(_)) => Err("answered where no answer exists".into()),
        (None, None) => Ok(()),
    }
}

fn expect_lmodes(r: &Out, want: Option<Vec<Lay>>) -> Res {
    match (want, r) {
        (Some(w), Ok(a)) => {
            mark();
            let got = lay(a).ok_or_else(|| format!("answer {a:?} is not an integer layout"))?;
            if got.modes() == w {
                Ok(())
            } else {
                Err(format!(
                    "the reference gives the modes of {}",
                    Lay::from_modes(w)
                ))
            }
        }
        (Some(w), Err(_)) => Err(format!(
            "refused, the reference gives the modes of {}",
            Lay::from_modes(w)
        )),
        (None, Ok(_)) => Err("answered where no answer exists".into()),
        (None, Err(_)) => Ok(()),
    }
}

fn expect_bool(r: &Out, b: bool) -> Res {
    expect(r, is(i64::from(b)))
}

/// The argument as a layout or a tuple, for the operations that take both.
enum Lt {
    L(Lay),
    T(T),
}

fn lt(a: &Arg) -> Option<Lt> {
    let t = text(a)?;
    match Form::of_text(&t) {
        Form::Layout => lay(&t).map(Lt::L),
        Form::Int | Form::Tuple => tree(&t).map(Lt::T),
        _ => None,
    }
}

/// Both arguments layouts or both tuples: the modes of each, as layouts or as trees.
fn pair_modes(args: &[Arg]) -> Option<Lt2> {
    let v: Option<Vec<Lt>> = args.iter().map(lt).collect();
    let v = v?;
    if v.iter().all(|x| matches!(x, Lt::L(_))) {
        Some(Lt2::L(
            v.into_iter()
                .map(|x| match x {
                    Lt::L(l) => l,
                    Lt::T(_) => unreachable!("all layouts"),
                })
                .collect(),
        ))
    } else if v.iter().all(|x| matches!(x, Lt::T(_))) {
        Some(Lt2::T(
            v.into_iter()
                .map(|x| match x {
                    Lt::T(t) => t,
                    Lt::L(_) => unreachable!("all tuples"),
                })
                .collect(),
        ))
    } else {
        None
    }
}

enum Lt2 {
    L(Vec<Lay>),
    T(Vec<T>),
}

// ---------------------------------------------------------------------------------------------
// Restructuring: append, prepend, replace, insert, remove, group, take, select, tuple_cat, zip

/// The modes of the first argument edited by `f` (the same edit for layouts and tuples).
fn edit<F>(args: &[Arg], r: &Out, parts: usize, f: F) -> Res
where
    F: Fn(usize, Vec<usize>) -> Option<Vec<usize>>,
{
    // Modes are numbered: 0..rank(A) are A's, rank(A).. are the other arguments as whole modes.
    let Some(v) = pair_modes(&args[..parts]) else {
        return Ok(());
    };
    match v {
        Lt2::L(ls) => {
            let mut pool: Vec<Lay> = ls[0].modes();
            let rank = pool.len();
            pool.extend(ls[1..].iter().cloned());
            let want = f(rank, (0..pool.len()).collect())
                .map(|ix| ix.into_iter().map(|k| pool[k].clone()).collect());
            expect_lmodes(r, want)
        }
        Lt2::T(ts) => {
            let mut pool: Vec<T> = ts[0].modes();
            let rank = pool.len();
            pool.extend(ts[1..].iter().cloned());
            let want = f(rank, (0..pool.len()).collect())
                .map(|ix| ix.into_iter().map(|k| pool[k].clone()).collect());
            expect_modes(r, want)
        }
    }
}

pub fn law_append(args: &[Arg], r: &Out) -> Res {
    if args.len() != 2 {
        return Ok(());
    }
    edit(args, r, 2, |_, ix| Some(ix))
}

pub fn law_prepend(args: &[Arg], r: &Out) -> Res {
    if args.len() != 2 {
        return Ok(());
    }
    edit(args, r, 2, |rank, mut ix| {
        ix.rotate_left(rank);
        Some(ix)
    })
}

pub fn law_replace(args: &[Arg], r: &Out) -> Res {
    let [a, i, b] = args else { return Ok(()) };
    let Some(i) = int(i) else { return Ok(()) };
    let two = [a.clone(), b.clone()];
    edit(&two, r, 2, |rank, mut ix| {
        let i = usize::try_from(i).ok().filter(|i| *i < rank)?;
        ix[i] = rank;
        ix.truncate(rank);
        Some(ix)
    })
}

/// A tuple argument (insert and remove take tuples only).
fn is_tuple(a: &Arg) -> bool {
    matches!(lt(a), Some(Lt::T(_)))
}

pub fn law_insert(args: &[Arg], r: &Out) -> Res {
    let [a, i, b] = args else { return Ok(()) };
    let Some(i) = int(i).filter(|_| is_tuple(a) && is_tuple(b)) else {
        return Ok(());
    };
    let two = [a.clone(), b.clone()];
    edit(&two, r, 2, |rank, mut ix| {
        let i = usize::try_from(i).ok().filter(|i| *i <= rank)?;
        let x = ix.pop()?;
        ix.insert(i, x);
        Some(ix)
    })
}

pub fn law_remove(args: &[Arg], r: &Out) -> Res {
    let [a, i] = args else { return Ok(()) };
    let Some(i) = int(i).filter(|_| is_tuple(a)) else {
        return Ok(());
    };
    edit(std::slice::from_ref(a), r, 1, |rank, mut ix| {
        let i = usize::try_from(i).ok().filter(|i| *i < rank)?;
        ix.remove(i);
        Some(ix)
    })
}

/// `[BEGIN, END)` within the rank, or `None`; an empty range is left unjudged (`Err`).
fn range(b: i64, e: i64, rank: usize) -> Result<Option<(usize, usize)>, ()> {
    if b == e && (0..=rank as i64).contains(&b) {
        return Err(());
    }
    Ok((0 <= b && b < e && e <= rank as i64).then_some((b as usize, e as usize)))
}

pub fn law_take(args: &[Arg], r: &Out) -> Res {
    let [a, b, e] = args else { return Ok(()) };
    let (Some(b), Some(e)) = (int(b), int(e)) else {
        return Ok(());
    };
    let Some(v) = pair_modes(std::slice::from_ref(a)) else {
        return Ok(());
    };
    let rank = match &v {
        Lt2::L(l) => l[0].modes().len(),
        Lt2::T(t) => t[0].rank(),
    };
    let Ok(rg) = range(b, e, rank) else {
        return Ok(());
    };
    edit(std::slice::from_ref(a), r, 1, |_, ix| {
        rg.map(|(b, e)| ix[b..e].to_vec())
    })
}

pub fn law_group(args: &[Arg], r: &Out) -> Res {
    let [a, b, e] = args else { return Ok(()) };
    let (Some(b), Some(e)) = (int(b), int(e)) else {
        return Ok(());
    };
    match pair_modes(std::slice::from_ref(a)) {
        Some(Lt2::L(l)) => {
            let m = l[0].modes();
            let Ok(rg) = range(b, e, m.len()) else {
                return Ok(());
            };
            let want = rg.map(|(b, e)| {
                let mut out = m[..b].to_vec();
                out.push(Lay::from_modes(m[b..e].to_vec()));
                out.extend(m[e..].iter().cloned());
                out
            });
            expect_lmodes(r, want)
        }
        Some(Lt2::T(t)) => {
            let m = t[0].modes();
            let Ok(rg) = range(b, e, m.len()) else {
                return Ok(());
            };
            let want = rg.map(|(b, e)| {
                let mut out = m[..b].to_vec();
                out.push(tup(m[b..e].to_vec()));
                out.extend(m[e..].iter().cloned());
                out
            });
            expect_modes(r, want)
        }
        None => Ok(()),
    }
}

pub fn law_select(args: &[Arg], r: &Out) -> Res {
    if args.len() < 2 {
        return Ok(());
    }
    let ix: Option<Vec<i64>> = args[1..].iter().map(int).collect();
    let Some(ix) = ix else { return Ok(()) };
    edit(&args[..1], r, 1, |rank, all| {
        ix.iter()
            .map(|i| {
                usize::try_from(*i)
                    .ok()
                    .filter(|i| *i < rank)
                    .map(|i| all[i])
            })
            .collect()
    })
}

pub fn law_tuple_cat(args: &[Arg], r: &Out) -> Res {
    match pair_modes(args) {
        Some(Lt2::L(ls)) if !ls.is_empty() => {
            expect_lmodes(r, Some(ls.iter().flat_map(Lay::modes).collect()))
        }
        Some(Lt2::T(ts)) if !ts.is_empty() => {
            expect_modes(r, Some(ts.iter().flat_map(T::modes).collect()))
        }
        _ => Ok(()),
    }
}

/// The transpose of rows that are all tuples of one rank.
fn transpose(rows: &[T]) -> Option<Vec<T>> {
    let k = match rows.first()? {
        T::Tup(v) => v.len(),
        _ => return None,
    };
    let mut cols = vec![Vec::new(); k];
    for row in rows {
        let T::Tup(v) = row else { return None };
        if v.len() != k {
            return None;
        }
        for (j, e) in v.iter().enumerate() {
            cols[j].push(e.clone());
        }
    }
    Some(cols.into_iter().map(T::Tup).collect())
}

pub fn law_zip(args: &[Arg], r: &Out) -> Res {
    let Some(v) = pair_modes(args) else {
        return Ok(());
    };
    match v {
        // CuTe zips one or two layouts.
        Lt2::L(ls) if ls.len() > 2 => Ok(()),
        Lt2::L(ls) => {
            let rows: Vec<Lay> = if ls.len() == 1 { ls[0].modes() } else { ls };
            let s: Vec<T> = rows.iter().map(|l| l.s.clone()).collect();
            let d: Vec<T> = rows.iter().map(|l| l.d.clone()).collect();
            let (Some(s), Some(d)) = (transpose(&s), transpose(&d)) else {
                return Ok(());
            };
            let want = s.into_iter().zip(d).map(|(s, d)| Lay { s, d }).collect();
            expect_lmodes(r, Some(want))
        }
        Lt2::T(ts) => {
            let rows = if ts.len() == 1 { ts[0].modes() } else { ts };
            match transpose(&rows) {
                Some(w) => expect_modes(r, Some(w)),
                None => Ok(()),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Indexing: mode, get, slice, dice, slice_and_offset, domain_offset

/// The node at a hierarchical index: an integer answers index 0 with itself.
fn at_path(t: &T, path: &[i64]) -> Option<T> {
    let Some((i, rest)) = path.split_first() else {
        return Some(t.clone());
    };
    let i = usize::try_from(*i).ok()?;
    match t {
        T::Tup(v) => at_path(v.get(i)?, rest),
        _ if i == 0 => at_path(t, rest),
        _ => None,
    }
}

fn path_args(args: &[Arg]) -> Option<Vec<i64>> {
    args.iter().map(int).collect()
}

/// `mode` and `get`: the node at the index, of a layout (shape and stride) or a tuple.
pub fn law_mode(args: &[Arg], r: &Out) -> Res {
    let Some((a, rest)) = args.split_first() else {
        return Ok(());
    };
    let Some(path) = path_args(rest) else {
        return Ok(());
    };
    match lt(a) {
        Some(Lt::L(l)) => {
            let want = at_path(&l.s, &path).zip(at_path(&l.d, &path));
            match want {
                Some((s, d)) => expect(r, is(Lay { s, d })),
                None => expect(r, refuse("no node at that index")),
            }
        }
        Some(Lt::T(t)) => match at_path(&t, &path) {
            Some(x) => expect(r, is(x)),
            None => expect(r, refuse("no element at that index")),
        },
        None => Ok(()),
    }
}

/// CuTe's slice (`keep_u`) or dice: the nodes where the coordinate has `_` (an integer),
/// concatenated; a tuple coordinate goes into the matching tuple, its results flattened in.
fn cut(c: &T, t: &T, keep_u: bool) -> Option<T> {
    match c {
        T::Tup(_) => Some(T::Tup(lift(c, t, keep_u)?)),
        T::U if keep_u => Some(t.clone()),
        T::U => Some(T::Tup(Vec::new())),
        T::I(_) if keep_u => Some(T::Tup(Vec::new())),
        T::I(_) => Some(t.clone()),
    }
}

fn lift(c: &T, t: &T, keep_u: bool) -> Option<Vec<T>> {
    match (c, t) {
        (T::Tup(cv), T::Tup(tv)) => {
            if cv.len() != tv.len() {
                return None;
            }
            let mut out = Vec::new();
            for (x, y) in cv.iter().zip(tv) {
                out.extend(lift(x, y, keep_u)?);
            }
            Some(out)
        }
        (T::Tup(_), _) => None,
        (T::U, _) => Some(if keep_u { vec![t.clone()] } else { Vec::new() }),
        (_, _) => Some(if keep_u { Vec::new() } else { vec![t.clone()] }),
    }
}

/// The coordinate's integer leaves are inside their extents (a leaf against a tuple node: its
/// 1-D index inside the node's size).
fn in_range(c: &T, s: &T) -> bool {
    match (c, s) {
        (T::Tup(cv), T::Tup(sv)) => {
            cv.len() == sv.len() && cv.iter().zip(sv).all(|(x, y)| in_range(x, y))
        }
        (T::Tup(_), _) => false,
        (T::U, _) => true,
        (T::I(x), _) => s.size().is_some_and(|n| (0..n).contains(x)),
    }
}

/// The offset of a coordinate with `_`: its integer leaves against their nodes.
fn fixed_offset(c: &T, s: &T, d: &T) -> Option<i64> {
    match (c, s, d) {
        (T::U, _, _) => Some(0),
        (T::Tup(cv), T::Tup(sv), T::Tup(dv)) if cv.len() == sv.len() => {
            let mut acc = 0i64;
            for k in 0..cv.len() {
                acc = acc.checked_add(fixed_offset(&cv[k], &sv[k], &dv[k])?)?;
            }
            Some(acc)
        }
        (T::Tup(_), _, _) => None,
        (T::I(_), _, _) => crd2idx(c, s, d),
    }
}

fn slice_like(args: &[Arg], r: &Out, keep_u: bool) -> Res {
    let [c, a] = args else { return Ok(()) };
    let Some(c) = text(c).and_then(|t| tree_u(&t)) else {
        return Ok(());
    };
    match lt(a) {
        Some(Lt::L(l)) => {
            if !in_range(&c, &l.s) {
                return Ok(());
            }
            match cut(&c, &l.s, keep_u).zip(cut(&c, &l.d, keep_u)) {
                Some((s, d)) => expect(r, is(Lay { s, d })),
                None => expect(r, refuse("the coordinate does not fit the shape")),
            }
        }
        Some(Lt::T(t)) => {
            if !in_range(&c, &t) {
                return Ok(());
            }
            match cut(&c, &t, keep_u) {
                Some(x) => expect(r, is(x)),
                None => expect(r, refuse("the coordinate does not fit the tuple")),
            }
        }
        None => Ok(()),
    }
}

pub fn law_slice(args: &[Arg], r: &Out) -> Res {
    slice_like(args, r, true)
}

pub fn law_dice(args: &[Arg], r: &Out) -> Res {
    slice_like(args, r, false)
}

/// `(LAYOUT,INT)` answers: the layout text and the integer.
fn layout_and_int(a: &str) -> Option<(Lay, i64)> {
    let inner = a.trim().strip_prefix('(')?.strip_suffix(')')?;
    let (l, off) = inner.rsplit_once(',')?;
    Some((lay(l)?, off.trim().parse().ok()?))
}

fn expect_layout_and_int(r: &Out, want: (Lay, i64)) -> Res {
    match r {
        Ok(a) => {
            mark();
            match layout_and_int(a) {
                Some(got) if got == want => Ok(()),
                _ => Err(format!("the reference gives ({},{})", want.0, want.1)),
            }
        }
        Err(_) => Err(format!(
            "refused, the reference gives ({},{})",
            want.0, want.1
        )),
    }
}

pub fn law_slice_and_offset(args: &[Arg], r: &Out) -> Res {
    let [c, a] = args else { return Ok(()) };
    let (Some(c), Some(l)) = (text(c).and_then(|t| tree_u(&t)), larg(a)) else {
        return Ok(());
    };
    if !in_range(&c, &l.s) {
        return Ok(());
    }
    let want = cut(&c, &l.s, true)
        .zip(cut(&c, &l.d, true))
        .zip(fixed_offset(&c, &l.s, &l.d));
    match want {
        Some(((s, d), off)) => expect_layout_and_int(r, (Lay { s, d }, off)),
        None => Ok(()),
    }
}

pub fn law_domain_offset(args: &[Arg], r: &Out) -> Res {
    let [c, a] = args else { return Ok(()) };
    let (Some(c), Some(l)) = (targ(c), larg(a)) else {
        return Ok(());
    };
    if !in_range(&c, &l.s) {
        return Ok(());
    }
    match crd2idx(&c, &l.s, &l.d) {
        Some(off) => expect_layout_and_int(r, (l, off)),
        None => Ok(()),
    }
}

// ---------------------------------------------------------------------------------------------
// Coordinates: crd2idx, get_hier_coord, get_flat_coord, get_1d_coord, crd2crd

pub fn law_crd2idx(args: &[Arg], r: &Out) -> Res {
    let (c, s, d) = match args {
        [c, a] => match lt(a) {
            Some(Lt::L(l)) => (c, l.s, l.d),
            Some(Lt::T(s)) => match compact_strides(&s, 1, false) {
                Some(d) => (c, s, d),
                None => return Ok(()),
            },
            None => return Ok(()),
        },
        [c, s, d] => match (targ(s), targ(d)) {
            (Some(s), Some(d)) if s.same_tree(&d) => (c, s, d),
            _ => return Ok(()),
        },
        _ => return Ok(()),
    };
    let Some(c) = targ(c) else { return Ok(()) };
    // Inside the shape: past it the law does not say which mode runs on.
    if !s.positive() || !in_range(&c, &s) {
        return Ok(());
    }
    match crd2idx(&c, &s, &d) {
        Some(v) => expect(r, is(v)),
        None => Ok(()),
    }
}

/// `idx2crd(i, shape, stride)`: each leaf `(i / d) % s` (C division); `None` for a stride-0
/// leaf (refused when its extent is above 1).
fn hier_coord(l: &Lay, i: i64) -> Result<Option<T>, ()> {
    let mut out = Vec::new();
    for (s, d) in l.leaves() {
        if d == 0 {
            return if s > 1 { Ok(None) } else { Err(()) };
        }
        out.push((i / d) % s);
    }
    Ok(l.s.refill(&mut out.into_iter()))
}

fn hier_args(args: &[Arg]) -> Option<(Lay, i64, Result<Option<T>, ()>)> {
    let [a, i] = args else { return None };
    let (l, i) = (larg(a)?, int(i)?);
    if !l.s.positive() {
        return None;
    }
    let h = hier_coord(&l, i);
    Some((l, i, h))
}

pub fn law_get_hier_coord(args: &[Arg], r: &Out) -> Res {
    match hier_args(args) {
        Some((_, _, Ok(Some(c)))) => expect(r, is(c)),
        Some((_, _, Ok(None))) => expect(r, refuse("a stride-0 leaf of extent above 1")),
        _ => Ok(()),
    }
}

pub fn law_get_flat_coord(args: &[Arg], r: &Out) -> Res {
    let Some((l, _, Ok(Some(c)))) = hier_args(args) else {
        return Ok(());
    };
    let want: Option<Vec<T>> = c
        .modes()
        .iter()
        .zip(l.s.modes())
        .map(|(cm, sm)| Some(T::I(crd2idx(cm, &sm, &compact_strides(&sm, 1, false)?)?)))
        .collect();
    match want {
        Some(w) => expect_modes(r, Some(w)),
        None => Ok(()),
    }
}

pub fn law_get_1d_coord(args: &[Arg], r: &Out) -> Res {
    let Some((l, _, Ok(Some(c)))) = hier_args(args) else {
        return Ok(());
    };
    match compact_strides(&l.s, 1, false).and_then(|d| crd2idx(&c, &l.s, &d)) {
        Some(v) => expect(r, is(v)),
        None => Ok(()),
    }
}

/// CuTe's crd2crd: three tuples of one rank element by element (refused for other ranks), else
/// the coordinate of S2 with the colexicographic index of c in S1. `Err` where the index
/// leaves S2 (the law does not say which mode runs on).
fn crd2crd(c: &T, s1: &T, s2: &T) -> Result<Option<T>, ()> {
    if let (T::Tup(x), T::Tup(y), T::Tup(z)) = (c, s1, s2) {
        if x.len() != y.len() || y.len() != z.len() {
            return Ok(None);
        }
        let mut out = Vec::new();
        for k in 0..x.len() {
            match crd2crd(&x[k], &y[k], &z[k])? {
                Some(e) => out.push(e),
                None => return Ok(None),
            }
        }
        return Ok(Some(tup(out)));
    }
    let i = compact_strides(s1, 1, false)
        .and_then(|d| crd2idx(c, s1, &d))
        .ok_or(())?;
    if s2.size().is_none_or(|n| i >= n) || !in_range(c, s1) {
        return Err(());
    }
    Ok(Some(idx2crd(i, s2).ok_or(())?))
}

/// tuples of one rank: element by element; else crd2idx(R, S2) = crd2idx(c, S1), R the natural
/// coordinate of S2 (both colexicographic).
pub fn law_crd2crd(args: &[Arg], r: &Out) -> Res {
    let [c, s1, s2] = args else { return Ok(()) };
    let (Some(c), Some(s1), Some(s2)) = (targ(c), targ(s1), targ(s2)) else {
        return Ok(());
    };
    if !s1.positive() || !s2.positive() {
        return Ok(());
    }
    match crd2crd(&c, &s1, &s2) {
        Ok(Some(w)) => expect(r, is(w)),
        Ok(None) => expect(r, refuse("tuples of different ranks")),
        Err(()) => Ok(()),
    }
}

// ---------------------------------------------------------------------------------------------
// Predicates of tuples

fn two_trees(args: &[Arg]) -> Option<(T, T)> {
    let [a, b] = args else { return None };
    Some((targ(a)?, targ(b)?))
}

pub fn law_congruent(args: &[Arg], r: &Out) -> Res {
    match two_trees(args) {
        Some((a, b)) => expect_bool(r, a.same_tree(&b)),
        None => Ok(()),
    }
}

fn weakly(a: &T, b: &T) -> bool {
    match (a, b) {
        (T::Tup(x), T::Tup(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| weakly(p, q)),
        (T::Tup(_), _) => false,
        _ => true,
    }
}

pub fn law_weakly_congruent(args: &[Arg], r: &Out) -> Res {
    match two_trees(args) {
        Some((a, b)) => expect_bool(r, weakly(&a, &b)),
        None => Ok(()),
    }
}

/// CuTe's compatible: an integer of A against a node of B of that size, tuples mode by mode.
fn compatible(a: &T, b: &T) -> Option<bool> {
    Some(match (a, b) {
        (T::Tup(x), T::Tup(y)) => {
            if x.len() != y.len() {
                return Some(false);
            }
            for (p, q) in x.iter().zip(y) {
                if !compatible(p, q)? {
                    return Some(false);
                }
            }
            true
        }
        (T::Tup(_), _) => false,
        (T::I(x), _) => b.size()? == *x,
        (T::U, _) => return None,
    })
}

pub fn law_compatible(args: &[Arg], r: &Out) -> Res {
    match two_trees(args).and_then(|(a, b)| compatible(&a, &b)) {
        Some(w) => expect_bool(r, w),
        None => Ok(()),
    }
}

/// CuTe's lex_less, colex_less (`colex`) on trees; `None` where an integer meets a tuple.
fn lex(a: &T, b: &T, colex: bool) -> Option<bool> {
    match (a, b) {
        (T::I(x), T::I(y)) => Some(x < y),
        (T::Tup(x), T::Tup(y)) => {
            for i in 0.. {
                if i == y.len() {
                    return Some(false);
                }
                if i == x.len() {
                    return Some(true);
                }
                let (p, q) = if colex {
                    (&x[x.len() - 1 - i], &y[y.len() - 1 - i])
                } else {
                    (&x[i], &y[i])
                };
                if lex(p, q, colex)? {
                    return Some(true);
                }
                if p != q {
                    // Not less and not equal: unless the other way is undefined, it is greater.
                    lex(q, p, colex)?;
                    return Some(false);
                }
            }
            None
        }
        _ => None,
    }
}

fn elem_less(a: &T, b: &T) -> Option<bool> {
    match (a, b) {
        (T::I(x), T::I(y)) => Some(x < y),
        (T::Tup(x), T::Tup(y)) => {
            if x.len() > y.len() {
                return None;
            }
            let mut all = true;
            for (p, q) in x.iter().zip(y) {
                all &= elem_less(p, q)?;
            }
            Some(all)
        }
        _ => None,
    }
}

pub fn law_lex_less(args: &[Arg], r: &Out) -> Res {
    match two_trees(args).and_then(|(a, b)| lex(&a, &b, false)) {
        Some(w) => expect_bool(r, w),
        None => Ok(()),
    }
}

pub fn law_colex_less(args: &[Arg], r: &Out) -> Res {
    match two_trees(args).and_then(|(a, b)| lex(&a, &b, true)) {
        Some(w) => expect_bool(r, w),
        None => Ok(()),
    }
}

pub fn law_elem_less(args: &[Arg], r: &Out) -> Res {
    match two_trees(args).and_then(|(a, b)| elem_less(&a, &b)) {
        Some(w) => expect_bool(r, w),
        None => Ok(()),
    }
}

pub fn law_structural_equal(args: &[Arg], r: &Out) -> Res {
    match pair_modes(args) {
        Some(Lt2::L(l)) if l.len() == 2 => expect_bool(r, l[0] == l[1]),
        Some(Lt2::T(t)) if t.len() == 2 => expect_bool(r, t[0] == t[1]),
        _ => Ok(()),
    }
}

pub fn law_tuple_find(args: &[Arg], r: &Out) -> Res {
    let Some((t, x)) = two_trees(args) else {
        return Ok(());
    };
    let m = t.modes();
    let k = m.iter().position(|e| *e == x).unwrap_or(m.len());
    expect(r, is(k))
}

/// The top-level elements of a tiler text `(a,b,...)`, split at its top-level commas.
fn tiler_parts(t: &str) -> Option<Vec<String>> {
    let inner = t.trim().strip_prefix('(')?.strip_suffix(')')?;
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (k, c) in inner.char_indices() {
        match c {
            '(' | '<' => depth += 1,
            ')' | '>' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(inner[start..k].trim().to_string());
                start = k + 1;
            }
            _ => {}
        }
        if depth < 0 {
            return None;
        }
    }
    parts.push(inner[start..].trim().to_string());
    // A tuple of tuples is one shape, not a tiler of layouts.
    (depth == 0 && !inner.trim().is_empty()).then_some(parts)
}

/// Whether a tiler divides a shape without a partial tile: a tuple tiler mode by mode (no more
/// modes than the shape), an integer tile by CuTe's ceil_div. `None` for the tilers left to the
/// contract (layouts).
fn evenly(s: &T, t: &str) -> Option<bool> {
    match Form::of_text(t) {
        Form::Underscore => Some(true),
        Form::Int => {
            // CuTe: size(S) = T * size(ceil_div(S, T)), the tile divided out of the leaves left
            // to right, rounding up.
            let n: i64 = t.parse().ok()?;
            if !(1..=BIG).contains(&n) {
                return None;
            }
            let (mut rest, mut quot) = (n, 1i64);
            for a in s.leaves() {
                quot = quot.checked_mul((a + rest - 1) / rest)?;
                rest = (rest + a - 1) / a;
            }
            Some(quot.checked_mul(n)? == s.size()?)
        }
        Form::Tuple => {
            if t.contains('<') || tree_u(t).is_some_and(|x| !x.positive()) {
                return None;
            }
            let parts = tiler_parts(t)?;
            let m = s.modes();
            if parts.len() > m.len() {
                return Some(false);
            }
            let mut all = true;
            for (p, x) in parts.iter().zip(&m) {
                all &= evenly(x, p)?;
            }
            Some(all)
        }
        _ => None,
    }
}

pub fn law_evenly_divides(args: &[Arg], r: &Out) -> Res {
    let [s, t] = args else { return Ok(()) };
    let (Some(s), Some(t)) = (targ(s), text(t)) else {
        return Ok(());
    };
    if !s.positive() {
        return Ok(());
    }
    match evenly(&s, &t) {
        Some(w) => expect_bool(r, w),
        None => Ok(()),
    }
}

// ---------------------------------------------------------------------------------------------
// Tuple arithmetic

/// CuTe's shape_div of two integers, refused where neither divides the other.
fn div_int(a: i64, b: i64) -> Option<i64> {
    if b == 0 {
        return None;
    }
    if a % b == 0 {
        Some(a / b)
    } else if a != 0 && b % a == 0 {
        Some(a.signum() * b.signum())
    } else {
        None
    }
}

/// CuTe's shape_div: elementwise, an integer divided out left to right, a tuple divisor by its
/// product. `Err` where the reference is not defined (ranks or divisibility).
fn shape_div(a: &T, b: &T) -> Option<T> {
    match (a, b) {
        (T::Tup(x), T::Tup(y)) => {
            if x.len() != y.len() {
                return None;
            }
            Some(tup(x
                .iter()
                .zip(y)
                .map(|(p, q)| shape_div(p, q))
                .collect::<Option<_>>()?))
        }
        (T::Tup(x), T::I(n)) => {
            let mut rest = *n;
            let mut out = Vec::new();
            for e in x {
                out.push(shape_div(e, &T::I(rest))?);
                rest = div_int(rest, e.size()?)?;
            }
            Some(tup(out))
        }
        (T::I(x), T::Tup(_)) => Some(T::I(div_int(*x, b.size()?)?)),
        (T::I(x), T::I(y)) => Some(T::I(div_int(*x, *y)?)),
        _ => None,
    }
}

/// The shape of the first B elements: the smaller of two integers where one divides the other.
fn mod_int(a: i64, b: i64) -> Option<i64> {
    if b == 0 || a == 0 {
        return None;
    }
    if a % b == 0 {
        Some(b)
    } else if b % a == 0 {
        Some(a)
    } else {
        None
    }
}

fn shape_mod(a: &T, b: &T) -> Option<T> {
    match (a, b) {
        (T::Tup(x), T::Tup(y)) => {
            if x.len() != y.len() {
                return None;
            }
            Some(tup(x
                .iter()
                .zip(y)
                .map(|(p, q)| shape_mod(p, q))
                .collect::<Option<_>>()?))
        }
        (T::Tup(x), T::I(n)) => {
            let mut rest = *n;
            let mut out = Vec::new();
            for e in x {
                out.push(shape_mod(e, &T::I(rest))?);
                rest = div_int(rest, e.size()?)?;
            }
            Some(tup(out))
        }
        (T::I(x), T::Tup(_)) => Some(T::I(mod_int(*x, b.size()?)?)),
        (T::I(x), T::I(y)) => Some(T::I(mod_int(*x, *y)?)),
        _ => None,
    }
}

fn positive_pair(args: &[Arg]) -> Option<(T, T)> {
    two_trees(args).filter(|(a, b)| a.positive() && b.positive())
}

pub fn law_shape_div(args: &[Arg], r: &Out) -> Res {
    let Some((a, b)) = positive_pair(args) else {
        return Ok(());
    };
    match shape_div(&a, &b) {
        Some(w) => expect(r, is(w)),
        None => expect(r, refuse("ranks differ or neither divides the other")),
    }
}

pub fn law_shape_mod(args: &[Arg], r: &Out) -> Res {
    let Some((a, b)) = positive_pair(args) else {
        return Ok(());
    };
    match shape_mod(&a, &b) {
        Some(w) => {
            // size(R) * size(shape_div(A, B)) = size(A) where both are defined.
            if let (Some(q), Some(n), Some(m)) =
                (shape_div(&a, &b).and_then(|q| q.size()), a.size(), w.size())
            {
                if m.checked_mul(q) != Some(n) {
                    return Err(format!("reference {w}: size {m} * {q} != {n}"));
                }
            }
            expect(r, is(w))
        }
        None => expect(r, refuse("ranks differ or neither divides the other")),
    }
}

fn elem_scale(a: &T, b: &T) -> Result<Option<T>, ()> {
    match (a, b) {
        (T::Tup(x), T::Tup(y)) => {
            if x.len() != y.len() {
                return Err(());
            }
            let mut out = Vec::new();
            for (p, q) in x.iter().zip(y) {
                match elem_scale(p, q)? {
                    Some(v) => out.push(v),
                    None => return Ok(None),
                }
            }
            Ok(Some(tup(out)))
        }
        (T::Tup(_), _) => Err(()),
        (T::I(x), _) => Ok(b.size().and_then(|p| x.checked_mul(p)).map(T::I)),
        (T::U, _) => Err(()),
    }
}

pub fn law_elem_scale(args: &[Arg], r: &Out) -> Res {
    let Some((a, b)) = two_trees(args) else {
        return Ok(());
    };
    match elem_scale(&a, &b) {
        Ok(Some(w)) => expect(r, is(w)),
        Ok(None) => expect(r, refuse("the product overflows")),
        Err(()) => Ok(()),
    }
}

pub fn law_product_each(args: &[Arg], r: &Out) -> Res {
    let [a] = args else { return Ok(()) };
    let Some(a) = targ(a) else { return Ok(()) };
    let want: Option<Vec<T>> = a.modes().iter().map(|m| m.size().map(T::I)).collect();
    match want {
        Some(w) => expect_modes(r, Some(w)),
        None => expect(r, refuse("a product overflows")),
    }
}

fn product_like(t: &T, g: &T) -> Result<Option<T>, ()> {
    match (t, g) {
        (T::Tup(x), T::Tup(y)) => {
            if x.len() != y.len() {
                return Err(());
            }
            let mut out = Vec::new();
            for (p, q) in x.iter().zip(y) {
                match product_like(p, q)? {
                    Some(v) => out.push(v),
                    None => return Ok(None),
                }
            }
            Ok(Some(tup(out)))
        }
        (_, T::Tup(_)) => Err(()),
        _ => Ok(t.size().map(T::I)),
    }
}

pub fn law_product_like(args: &[Arg], r: &Out) -> Res {
    let Some((t, g)) = two_trees(args) else {
        return Ok(());
    };
    match product_like(&t, &g) {
        Ok(Some(w)) => expect(r, is(w)),
        Ok(None) => expect(r, refuse("a product overflows")),
        Err(()) => Ok(()),
    }
}

pub fn law_unflatten(args: &[Arg], r: &Out) -> Res {
    let [f, p] = args else { return Ok(()) };
    let Some(p) = text(p).and_then(|t| tree(&t)) else {
        return Ok(());
    };
    // The profile's leaves may be any integers: only its tree counts.
    let profile = |t: &T| -> T {
        fn zero(t: &T) -> T {
            match t {
                T::Tup(v) => T::Tup(v.iter().map(zero).collect()),
                _ => T::I(0),
            }
        }
        zero(t)
    };
    let p = profile(&p);
    let n = p.leaves().len();
    match lt(f) {
        Some(Lt::L(l)) if l.s.leaves().len() == n => {
            let s = p.refill(&mut l.s.leaves().into_iter());
            let d = p.refill(&mut l.d.leaves().into_iter());
            match s.zip(d) {
                Some((s, d)) => expect(r, is(Lay { s, d })),
                None => Ok(()),
            }
        }
        Some(Lt::T(t)) if t.leaves().len() == n => match p.refill(&mut t.leaves().into_iter()) {
            Some(w) => expect(r, is(w)),
            None => Ok(()),
        },
        Some(_) => expect(r, refuse("the leaf counts differ")),
        None => Ok(()),
    }
}

pub fn law_repeat_like(args: &[Arg], r: &Out) -> Res {
    let Some((t, v @ T::I(_))) = two_trees(args) else {
        return Ok(());
    };
    fn fill(t: &T, v: &T) -> T {
        match t {
            T::Tup(x) => T::Tup(x.iter().map(|e| fill(e, v)).collect()),
            _ => v.clone(),
        }
    }
    expect(r, is(fill(&t, &v)))
}

pub fn law_wrap(args: &[Arg], r: &Out) -> Res {
    let [a] = args else { return Ok(()) };
    match targ(a) {
        Some(t @ T::Tup(_)) => expect(r, is(t)),
        Some(t) => expect(r, is(tup(vec![t]))),
        None => Ok(()),
    }
}

pub fn law_unwrap(args: &[Arg], r: &Out) -> Res {
    let [a] = args else { return Ok(()) };
    let Some(mut t) = targ(a) else { return Ok(()) };
    while let T::Tup(v) = &t {
        if v.len() != 1 {
            break;
        }
        t = v[0].clone();
    }
    expect(r, is(t))
}

/// Column-major strides with extent-1 leaves at stride 0; `None` on overflow.
fn compact_strides(s: &T, start: i64, rev: bool) -> Option<T> {
    let mut l = s.leaves();
    if rev {
        l.reverse();
    }
    let mut acc = start;
    let mut out = Vec::new();
    for (k, x) in l.iter().enumerate() {
        out.push(if *x == 1 { 0 } else { acc });
        if k + 1 < l.len() {
            acc = acc.checked_mul(*x)?;
        }
    }
    if rev {
        out.reverse();
    }
    s.refill(&mut out.into_iter())
}

fn law_compact_major(args: &[Arg], r: &Out, rev: bool) -> Res {
    let Some(s) = args.first().and_then(targ) else {
        return Ok(());
    };
    let start = match args.get(1) {
        None => 1,
        Some(x) => match int(x) {
            Some(v) => v,
            None => return Ok(()),
        },
    };
    if args.len() > 2 || !s.positive() {
        return Ok(());
    }
    match compact_strides(&s, start, rev) {
        Some(w) => expect(r, is(w)),
        None => expect(r, refuse("a stride overflows")),
    }
}

pub fn law_compact_col_major(args: &[Arg], r: &Out) -> Res {
    law_compact_major(args, r, false)
}

pub fn law_compact_row_major(args: &[Arg], r: &Out) -> Res {
    law_compact_major(args, r, true)
}

/// The groups of an order against a shape: each leaf of ORDER with the node of SHAPE at its
/// place (ORDER weakly congruent to SHAPE).
fn groups(o: &T, s: &T, out: &mut Vec<(i64, T)>) -> Option<()> {
    match (o, s) {
        (T::I(x), _) => out.push((*x, s.clone())),
        (T::Tup(x), T::Tup(y)) if x.len() == y.len() => {
            for (p, q) in x.iter().zip(y) {
                groups(p, q, out)?;
            }
        }
        _ => return None,
    }
    Some(())
}

/// The start of group `k` of the groups of an order (their ranks and nodes).
type Start = dyn Fn(usize, &[(i64, T)]) -> Option<i64>;

/// The strides of SHAPE with each group's node column-major from `start(g)`.
fn grouped_strides(o: &T, s: &T, start: &Start) -> Option<Option<T>> {
    let mut g = Vec::new();
    groups(o, s, &mut g)?;
    let mut strides = Vec::new();
    for k in 0..g.len() {
        let Some(st) = start(k, &g) else {
            return Some(None);
        };
        let Some(c) = compact_strides(&g[k].1, st, false) else {
            return Some(None);
        };
        strides.extend(c.leaves());
    }
    Some(s.refill(&mut strides.into_iter()))
}

pub fn law_compact_order(args: &[Arg], r: &Out) -> Res {
    let [s, o] = args else { return Ok(()) };
    let Some(s) = targ(s) else { return Ok(()) };
    if !s.positive() {
        return Ok(());
    }
    let want = match text(o).as_deref() {
        Some("LayoutLeft") => compact_strides(&s, 1, false),
        Some("LayoutRight") => compact_strides(&s, 1, true),
        _ => {
            let Some(o) = targ(o) else { return Ok(()) };
            // Each group from the product of the sizes of the groups ranked strictly below it.
            let start = |k: usize, g: &[(i64, T)]| {
                g.iter()
                    .filter(|(r, _)| *r < g[k].0)
                    .try_fold(1i64, |a, (_, n)| a.checked_mul(n.size()?))
            };
            match grouped_strides(&o, &s, &start) {
                Some(w) => w,
                None => return Ok(()),
            }
        }
    };
    match want {
        Some(w) => expect(r, is(w)),
        None => expect(r, refuse("a stride overflows")),
    }
}

pub fn law_make_ordered_layout(args: &[Arg], r: &Out) -> Res {
    let [s, o] = args else { return Ok(()) };
    let (Some(s), Some(o)) = (targ(s), targ(o)) else {
        return Ok(());
    };
    if !s.positive() {
        return Ok(());
    }
    // Compact: the groups in the order of (ORDER, position).
    let start = |k: usize, g: &[(i64, T)]| {
        g.iter()
            .enumerate()
            .filter(|(j, (r, _))| (*r, *j) < (g[k].0, k))
            .try_fold(1i64, |a, (_, (_, n))| a.checked_mul(n.size()?))
    };
    match grouped_strides(&o, &s, &start) {
        Some(Some(d)) => expect(r, is(Lay { s, d })),
        Some(None) => expect(r, refuse("a stride overflows")),
        None => Ok(()),
    }
}

pub fn law_make_identity_layout(args: &[Arg], r: &Out) -> Res {
    let [s] = args else { return Ok(()) };
    let Some(s) = targ(s) else { return Ok(()) };
    if !s.positive() || s.size().is_none_or(|n| n > ENUM) {
        return Ok(());
    }
    let Ok(a) = r else {
        return Err("refused".into());
    };
    // Evaluate the answer at every coordinate: L(c) = c (a tuple of the shape's tree).
    let Some((sh, st)) = a.trim().split_once(':') else {
        return Err(format!("answer {a:?} is not a layout"));
    };
    if tree(sh).as_ref() != Some(&s) {
        return Err(format!("shape {sh}, want {s}"));
    }
    mark();
    // Each stride leaf is `1@p` with p the leaf's path, innermost index first in the text.
    let mut paths = Vec::new();
    leaf_paths(&s, &mut Vec::new(), &mut paths);
    let strides: Vec<String> = paths
        .iter()
        .map(|p| {
            let mut t = String::from("1");
            for i in p.iter().rev() {
                t.push_str(&format!("@{i}"));
            }
            t
        })
        .collect();
    let got: Vec<String> = st
        .split(['(', ')', ','])
        .filter(|x| !x.trim().is_empty())
        .map(|x| x.trim().to_string())
        .collect();
    if got != strides {
        return Err(format!(
            "strides {got:?}, the unit basis of each leaf's path is {strides:?}"
        ));
    }
    Ok(())
}

fn leaf_paths(t: &T, here: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    match t {
        T::Tup(v) => {
            for (k, e) in v.iter().enumerate() {
                here.push(k);
                leaf_paths(e, here, out);
                here.pop();
            }
        }
        _ => out.push(here.clone()),
    }
}

pub fn law_make_coord_iterator(args: &[Arg], r: &Out) -> Res {
    let Some(s) = args.first().and_then(targ) else {
        return Ok(());
    };
    let l = s.leaves();
    if l.is_empty() || !s.positive() || s.size().is_none_or(|n| n > ENUM) || args.len() > 3 {
        return Ok(());
    }
    let start = match args.get(1).and_then(text).as_deref() {
        None | Some("_") => vec![0; l.len()],
        Some(t) => match tree(t) {
            Some(c) if c.same_tree(&s) && in_range(&c, &s) => c.leaves(),
            _ => return Ok(()),
        },
    };
    let rank: Vec<i64> = match args.get(2) {
        None => (0..l.len() as i64).collect(),
        Some(o) => match targ(o) {
            Some(o) if o.same_tree(&s) => {
                let mut p = o.leaves();
                p.sort_unstable();
                if p.iter().enumerate().any(|(i, x)| *x != i as i64) {
                    return expect(r, refuse("ORDER is not the ranks 0..n-1 of the leaves"));
                }
                o.leaves()
            }
            _ => return Ok(()),
        },
    };
    // The leaves from fastest to slowest: by ORDER, ties by position.
    let mut order: Vec<usize> = (0..l.len()).collect();
    order.sort_by_key(|k| (rank[*k], *k));
    let mut c = start;
    let mut out = Vec::new();
    'walk: loop {
        out.push(s.refill(&mut c.clone().into_iter()).ok_or("refill")?);
        for &k in &order {
            c[k] += 1;
            if c[k] < l[k] {
                continue 'walk;
            }
            c[k] = 0;
        }
        break;
    }
    expect(r, is(tup(out)))
}

// ---------------------------------------------------------------------------------------------
// Casts: upcast, downcast, recast, recast_layout

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// The values of a layout as a sorted set.
fn value_set(l: &Lay) -> Option<Vec<i64>> {
    let mut v = l.values()?;
    v.sort_unstable();
    v.dedup();
    Some(v)
}

/// The answer is a layout congruent to L whose offsets are the set `want` (when given).
fn cast_answer(l: &Lay, r: &Out, want: Option<Vec<i64>>) -> Res {
    let Ok(a) = r else {
        return Err("refused".into());
    };
    let rl = lay(a).ok_or_else(|| format!("answer {a:?} is not an integer layout"))?;
    mark();
    if !rl.s.same_tree(&l.s) {
        return Err(format!("{} is not congruent to {}", rl.s, l.s));
    }
    if let Some(w) = want {
        if rl.size().is_none_or(|n| n > ENUM) {
            return Err(format!("size {:?} for {} offsets", rl.size(), w.len()));
        }
        let got = value_set(&rl).ok_or("overflow")?;
        if got != w {
            return Err(format!("offsets {got:?}, the same memory is {w:?}"));
        }
    }
    Ok(())
}

/// upcast<N>: refused unless every nonzero stride and N divide one way. For an injective L with
/// one leaf of stride below N (the vector), the offsets of R are the wide elements holding L's:
/// floor(L(i) / N) for strides >= 0 (ceil for strides <= 0, counted from the other end). Else
/// leaf by leaf: ceil(s / (N/|d|)) : sign(d) for |d| < N, s : d / N otherwise.
fn upcast_law(l: &Lay, n: i64, r: &Out) -> Res {
    let leaves = l.leaves();
    if leaves
        .iter()
        .any(|(_, d)| *d != 0 && d.abs() % n != 0 && n % d.abs() != 0)
    {
        return expect(r, refuse("a stride and N divide neither way"));
    }
    let partial: Vec<(i64, i64)> = leaves
        .iter()
        .copied()
        .filter(|(_, d)| *d != 0 && d.abs() < n)
        .collect();
    let v = l.values();
    let injective = v.is_some() && value_set(l).map(|s| s.len()) == v.as_ref().map(Vec::len);
    let d: Vec<i64> = leaves.iter().map(|x| x.1).collect();
    if injective && partial.len() <= 1 {
        let v = v.unwrap_or_default();
        let want = if d.iter().all(|x| *x >= 0) {
            Some(v.iter().map(|x| x.div_euclid(n)).collect::<Vec<_>>())
        } else if d.iter().all(|x| *x <= 0) {
            Some(v.iter().map(|x| -(-x).div_euclid(n)).collect())
        } else {
            None
        };
        return cast_answer(
            l,
            r,
            want.map(|mut w| {
                w.sort_unstable();
                w.dedup();
                w
            }),
        );
    }
    let mut s = Vec::new();
    let mut dd = Vec::new();
    for (x, y) in leaves {
        if y == 0 || y.abs() >= n {
            s.push(x);
            dd.push(y / n);
            continue;
        }
        // CuTe's static shape_div needs one of extent and N/|d| to divide the other; the
        // library rounds the others up (its help law).
        let q = n / y.abs();
        s.push(x.div_euclid(q) + i64::from(x % q != 0));
        dd.push(y.signum());
    }
    match l
        .s
        .refill(&mut s.into_iter())
        .zip(l.d.refill(&mut dd.into_iter()))
    {
        Some((s, d)) => expect(r, is(Lay { s, d })),
        None => Ok(()),
    }
}

/// downcast<N>: refused unless a leaf has stride +-1; for an injective L with strides of one
/// sign, the offsets of R are the narrow elements of L's: N L(i) + k (N L(i) - k), k < N.
fn downcast_law(l: &Lay, n: i64, r: &Out) -> Res {
    if n == 1 {
        return expect(r, is(l));
    }
    let d = l.d.leaves();
    if !d.iter().any(|x| x.abs() == 1) {
        return expect(r, refuse("no stride-1 leaf"));
    }
    let want = match l.values() {
        Some(v) if value_set(l).is_some_and(|s| s.len() == v.len()) => {
            let sign = if d.iter().all(|x| *x >= 0) {
                1
            } else if d.iter().all(|x| *x <= 0) {
                -1
            } else {
                0
            };
            let mut w: Vec<i64> = v
                .iter()
                .flat_map(|x| (0..n).map(move |k| n * x + sign * k))
                .collect();
            w.sort_unstable();
            w.dedup();
            (sign != 0).then_some(w)
        }
        _ => None,
    };
    if want.as_ref().is_some_and(|w| w.len() as i64 > ENUM) {
        return Ok(());
    }
    cast_answer(l, r, want)
}

fn cast_args(args: &[Arg], k: usize) -> Option<(Vec<i64>, Lay)> {
    if args.len() != k + 1 {
        return None;
    }
    let n: Option<Vec<i64>> = args[..k].iter().map(int).collect();
    let n = n?;
    let l = larg(&args[k]).filter(Lay::small)?;
    n.iter().all(|x| (1..=64).contains(x)).then_some((n, l))
}

pub fn law_upcast(args: &[Arg], r: &Out) -> Res {
    match cast_args(args, 1) {
        Some((n, l)) => upcast_law(&l, n[0], r),
        None => Ok(()),
    }
}

pub fn law_downcast(args: &[Arg], r: &Out) -> Res {
    match cast_args(args, 1) {
        Some((n, l)) => downcast_law(&l, n[0], r),
        None => Ok(()),
    }
}

/// recast: with NEW / OLD = num / den in lowest terms, the layout itself (1/1), upcast<num>
/// (num/1), downcast<den> (1/den), else downcast<den>(upcast<num>(L)).
pub fn law_recast(args: &[Arg], r: &Out) -> Res {
    let Some((n, l)) = cast_args(args, 2) else {
        return Ok(());
    };
    let g = gcd(n[0], n[1]);
    let (num, den) = (n[1] / g, n[0] / g);
    match (num, den) {
        (1, 1) => expect(r, is(l)),
        (num, 1) => upcast_law(&l, num, r),
        (1, den) => downcast_law(&l, den, r),
        (num, den) => {
            let up = run_op("upcast", &[Arg::Int(num), args[2].clone()]);
            let want = up.and_then(|u| run_op("downcast", &[Arg::Int(den), Arg::Text(u)]));
            match want {
                Ok(w) => expect(r, Want::Is(w)),
                Err(e) => expect(r, Want::Refuse(e.message)),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Products: blocked_product, raked_product, tile_to_shape

/// `R` at the 1-D index of coordinate `x` (one integer per top-level mode).
fn index_of(x: &[i64], sizes: &[i64]) -> i64 {
    let mut acc = 0;
    let mut w = 1;
    for (c, n) in x.iter().zip(sizes) {
        acc += c * w;
        w *= n;
    }
    acc
}

/// R is logical_product(A, B) with mode i of R the pair (A_i, B_i) (blocked) or (B_i, A_i)
/// (raked): R(x) = P(a, b) where each x_i splits into A's and B's parts.
fn product_function(a: &Lay, b: &Lay, lp: &Lay, rl: &Lay, raked: bool) -> Res {
    let (am, bm) = (a.modes(), b.modes());
    let rank = am.len().max(bm.len());
    let sz = |m: &[Lay], i: usize| m.get(i).map_or(Some(1), Lay::size);
    let asz: Option<Vec<i64>> = (0..rank).map(|i| sz(&am, i)).collect();
    let bsz: Option<Vec<i64>> = (0..rank).map(|i| sz(&bm, i)).collect();
    let (Some(asz), Some(bsz)) = (asz, bsz) else {
        return Ok(());
    };
    let rm = rl.modes();
    if rm.len() != rank {
        return Err(format!(
            "rank {} != max(rank(A), rank(B)) = {rank}",
            rm.len()
        ));
    }
    let rsz: Vec<i64> = rm.iter().map(|m| m.size().unwrap_or(0)).collect();
    for i in 0..rank {
        if rsz[i] != asz[i] * bsz[i] {
            return Err(format!(
                "mode {i} has size {}, A_i and B_i {} and {}",
                rsz[i], asz[i], bsz[i]
            ));
        }
    }
    let (na, total) = (a.size().unwrap_or(0), rl.size().unwrap_or(0));
    mark();
    for ridx in 0..total {
        let mut rest = ridx;
        let (mut xa, mut xb) = (Vec::new(), Vec::new());
        for i in 0..rank {
            let x = rest % rsz[i];
            rest /= rsz[i];
            if raked {
                xb.push(x % bsz[i]);
                xa.push(x / bsz[i]);
            } else {
                xa.push(x % asz[i]);
                xb.push(x / asz[i]);
            }
        }
        let pidx = index_of(&xa, &asz) + na * index_of(&xb, &bsz);
        let (want, got) = (lp.at(pidx), rl.at(ridx));
        if want != got {
            return Err(format!(
                "R({ridx}) = {got:?}, logical_product at ({xa:?}, {xb:?}) = {want:?}"
            ));
        }
    }
    Ok(())
}

fn law_product(args: &[Arg], r: &Out, raked: bool) -> Res {
    let [a, b] = args else { return Ok(()) };
    let (Some(la), Some(lb)) = (larg(a), larg(b)) else {
        return Ok(());
    };
    if !la.small() || !lb.small() {
        return Ok(());
    }
    let lp = run_op("logical_product", args);
    match (r, &lp) {
        (Ok(x), Ok(p)) => {
            let (Some(rl), Some(pl)) = (lay(x), lay(p)) else {
                return Ok(());
            };
            if rl.size().is_none_or(|n| n > ENUM) {
                return Ok(());
            }
            product_function(&la, &lb, &pl, &rl, raked)
        }
        // CuTe's zip of a tuple with an integer-shaped rank-1 operand: Mismatched Ranks.
        (Err(e), Ok(_))
            if e.kind == "RankMismatch" && la.modes().len() == 1 && lb.modes().len() == 1 =>
        {
            Ok(())
        }
        (Err(_), Ok(p)) => Err(format!("refused where logical_product answers {p}")),
        _ => Ok(()),
    }
}

pub fn law_blocked_product(args: &[Arg], r: &Out) -> Res {
    law_product(args, r, false)
}

pub fn law_raked_product(args: &[Arg], r: &Out) -> Res {
    law_product(args, r, true)
}

pub fn law_tile_to_shape(args: &[Arg], r: &Out) -> Res {
    if !(2..=3).contains(&args.len()) {
        return Ok(());
    }
    let (Some(a), Some(s)) = (larg(&args[0]), targ(&args[1])) else {
        return Ok(());
    };
    if !a.small() || !s.positive() || s.size().is_none_or(|n| n > ENUM) {
        return Ok(());
    }
    let (am, sm) = (a.modes(), s.modes());
    if am.len() > sm.len() {
        return Ok(());
    }
    let mut reps = Vec::new();
    for (i, m) in sm.iter().enumerate() {
        let (n, k) = (
            m.size().unwrap_or(0),
            am.get(i).map_or(Some(1), Lay::size).unwrap_or(0),
        );
        if k == 0 || n % k != 0 {
            return expect(r, refuse("a block mode does not divide its target mode"));
        }
        reps.push(n / k);
    }
    let order: Vec<i64> = match args.get(2) {
        None => (0..reps.len() as i64).collect(),
        Some(o) => match targ(o) {
            Some(T::Tup(v)) if v.len() == reps.len() && v.iter().all(|x| matches!(x, T::I(_))) => {
                v.iter().flat_map(T::leaves).collect()
            }
            _ => return Ok(()),
        },
    };
    // The repetition: compact, ranked by (ORDER, position).
    let mut strides = vec![0i64; reps.len()];
    let mut ix: Vec<usize> = (0..reps.len()).collect();
    ix.sort_by_key(|k| (order[*k], *k));
    let mut acc = 1;
    for k in ix {
        strides[k] = acc;
        acc *= reps[k];
    }
    let b = Lay {
        s: tup(reps.iter().map(|x| T::I(*x)).collect()),
        d: tup(strides.into_iter().map(T::I).collect()),
    };
    let lp = run_op(
        "logical_product",
        &[args[0].clone(), Arg::Text(b.to_string())],
    );
    match (r, &lp) {
        (Ok(x), Ok(p)) => {
            let (Some(rl), Some(pl)) = (lay(x), lay(p)) else {
                return Ok(());
            };
            let got: Vec<i64> = rl.modes().iter().map(|m| m.size().unwrap_or(0)).collect();
            let want: Vec<i64> = sm.iter().map(|m| m.size().unwrap_or(0)).collect();
            if got != want {
                return Err(format!("mode sizes {got:?}, SHAPE's {want:?}"));
            }
            // The same function as blocked_product(A, B) with each mode coalesced.
            let mut pa = am.clone();
            pa.resize(
                sm.len(),
                Lay {
                    s: T::I(1),
                    d: T::I(0),
                },
            );
            product_function(&Lay::from_modes(pa), &b, &pl, &rl, false)
        }
        (Err(_), Ok(p)) => Err(format!("refused where logical_product(A, {b}) answers {p}")),
        _ => Ok(()),
    }
}

// ---------------------------------------------------------------------------------------------
// Questions about one layout

fn one_small(args: &[Arg]) -> Option<Lay> {
    let [a] = args else { return None };
    larg(a).filter(Lay::small)
}

pub fn law_nullspace(args: &[Arg], r: &Out) -> Res {
    let Some(l) = one_small(args) else {
        return Ok(());
    };
    let Ok(a) = r else {
        return Err("refused".into());
    };
    let rl = lay(a).ok_or_else(|| format!("answer {a:?} is not a layout"))?;
    mark();
    // The 1-D indices whose coordinate is 0 on every leaf of nonzero stride.
    let lv = l.leaves();
    let n = l.size().unwrap_or(0);
    let mut want: Vec<i64> = (0..n)
        .filter(|i| {
            let mut rest = *i;
            lv.iter().enumerate().all(|(k, (s, d))| {
                let c = if k + 1 == lv.len() { rest } else { rest % s };
                rest /= s;
                *d == 0 || c == 0
            })
        })
        .collect();
    let mut got = rl.values().ok_or("answer overflows")?;
    for (i, x) in got.iter().enumerate() {
        if l.at(*x) != Some(0) || !(0..n).contains(x) {
            return Err(format!("A(R({i})) = A({x}) != 0"));
        }
    }
    got.sort_unstable();
    want.sort_unstable();
    if got != want {
        return Err(format!(
            "R's values {got:?}, the zero-stride coordinates are {want:?}"
        ));
    }
    Ok(())
}

fn two_small(args: &[Arg]) -> Option<(Lay, Lay)> {
    let [a, b] = args else { return None };
    Some((larg(a).filter(Lay::small)?, larg(b).filter(Lay::small)?))
}

/// Whether some index both map to `j`, for every `j < n`.
fn common_run(a: &Lay, b: &Lay, n: i64) -> Result<(), String> {
    let m = a.size().unwrap_or(0).min(b.size().unwrap_or(0));
    for j in 0..n {
        if !(0..m).any(|c| a.at(c) == Some(j) && b.at(c) == Some(j)) {
            return Err(format!("no coordinate c with A(c) = B(c) = {j}"));
        }
    }
    Ok(())
}

pub fn law_max_common_vector(args: &[Arg], r: &Out) -> Res {
    let Some((a, b)) = two_small(args) else {
        return Ok(());
    };
    let Ok(x) = r else {
        return Err("refused".into());
    };
    let n: i64 = x
        .trim()
        .parse()
        .map_err(|_| format!("answer {x:?} is not an integer"))?;
    mark();
    if n < 1 {
        return Err(format!("{n} < 1"));
    }
    common_run(&a, &b, if n > 1 { n } else { 0 })
}

pub fn law_max_common_layout(args: &[Arg], r: &Out) -> Res {
    let Some((a, b)) = two_small(args) else {
        return Ok(());
    };
    let Ok(x) = r else {
        return Err("refused".into());
    };
    let rl = lay(x).ok_or_else(|| format!("answer {x:?} is not a layout"))?;
    mark();
    let m = a.size().unwrap_or(0).min(b.size().unwrap_or(0));
    let vals = rl.values().ok_or("overflow")?;
    if vals.len() > 1 {
        for (i, c) in vals.iter().enumerate() {
            let i = i as i64;
            if !(0..m).contains(c) || a.at(*c) != Some(i) || b.at(*c) != Some(i) {
                return Err(format!(
                    "R({i}) = {c}: A(R(i)) = {:?}, B(R(i)) = {:?}",
                    a.at(*c),
                    b.at(*c)
                ));
            }
        }
    }
    if let Ok(v) = run_op("max_common_vector", args) {
        if v.trim().parse::<i64>().ok() != Some(vals.len() as i64) && vals.len() > 1 {
            return Err(format!("size(R) = {}, max_common_vector = {v}", vals.len()));
        }
    }
    Ok(())
}

pub fn law_image(args: &[Arg], r: &Out) -> Res {
    let Some(l) = one_small(args) else {
        return Ok(());
    };
    let Ok(a) = r else { return Ok(()) };
    let (off, body) = match a.split_once(" + ") {
        Some((o, b)) => (
            o.trim()
                .parse::<i64>()
                .map_err(|_| format!("offset {o:?}"))?,
            b,
        ),
        None => (0, a.as_str()),
    };
    let rl = lay(body).ok_or_else(|| format!("answer {a:?} is not OFFSET + LAYOUT"))?;
    mark();
    let mut want = l.values().ok_or("overflow")?;
    want.sort_unstable();
    want.dedup();
    let got: Option<Vec<i64>> = (0..rl.size().unwrap_or(0).min(ENUM + 1))
        .map(|i| rl.at(i).and_then(|v| v.checked_add(off)))
        .collect();
    match got {
        Some(g) if g == want => Ok(()),
        g => Err(format!(
            "offsets {g:?}, the image in increasing order is {want:?}"
        )),
    }
}

/// `p(i) = L(i) - min`, for a layout whose values are a dense interval hit once each.
fn perm(l: &Lay) -> Option<Vec<i64>> {
    let v = l.values()?;
    let min = *v.iter().min()?;
    let p: Vec<i64> = v.iter().map(|x| x - min).collect();
    let mut s = p.clone();
    s.sort_unstable();
    s.iter()
        .enumerate()
        .all(|(i, x)| *x == i as i64)
        .then_some(p)
}

fn cycles(p: &[i64]) -> Vec<Vec<i64>> {
    let mut seen = vec![false; p.len()];
    let mut out = Vec::new();
    for i in 0..p.len() {
        if seen[i] {
            continue;
        }
        let mut c = Vec::new();
        let mut j = i;
        while !seen[j] {
            seen[j] = true;
            c.push(j as i64);
            j = p[j] as usize;
        }
        out.push(c);
    }
    out
}

fn ints(v: &[i64]) -> T {
    tup(v.iter().map(|x| T::I(*x)).collect())
}

pub fn law_permutation(args: &[Arg], r: &Out) -> Res {
    let Some(l) = one_small(args) else {
        return Ok(());
    };
    match perm(&l) {
        Some(p) => expect(r, is(ints(&p))),
        None => expect(
            r,
            refuse("the image is not a dense interval hit once per point"),
        ),
    }
}

pub fn law_cycles(args: &[Arg], r: &Out) -> Res {
    let Some(l) = one_small(args) else {
        return Ok(());
    };
    match perm(&l) {
        Some(p) => expect(r, is(tup(cycles(&p).iter().map(|c| ints(c)).collect()))),
        None => expect(r, refuse("not a permutation")),
    }
}

pub fn law_permutation_order(args: &[Arg], r: &Out) -> Res {
    let Some(l) = one_small(args) else {
        return Ok(());
    };
    match perm(&l) {
        Some(p) => {
            let k = cycles(&p).iter().fold(1i64, |acc, c| {
                acc / gcd(acc, c.len() as i64) * c.len() as i64
            });
            expect(r, is(k))
        }
        None => expect(r, refuse("not a permutation")),
    }
}

/// The largest `n <= size` with `L(i) = L(0) + i` for `i < n`.
fn contiguity(l: &Lay) -> Option<i64> {
    let v = l.values()?;
    let n = v
        .iter()
        .enumerate()
        .take_while(|(i, x)| **x == v[0] + *i as i64)
        .count();
    Some(n.max(1) as i64)
}

pub fn law_mode_contiguity(args: &[Arg], r: &Out) -> Res {
    let Some(l) = one_small(args) else {
        return Ok(());
    };
    let want: Option<Vec<T>> = l.modes().iter().map(|m| contiguity(m).map(T::I)).collect();
    match want {
        Some(w) => expect_modes(r, Some(w)),
        None => Ok(()),
    }
}

pub fn law_offset_table(args: &[Arg], r: &Out) -> Res {
    let Some(l) = one_small(args) else {
        return Ok(());
    };
    let Some(a) = ans_tree(r)? else {
        return Err("refused".into());
    };
    mark();
    let n = l.size().unwrap_or(0);
    let mut seen = std::collections::HashSet::new();
    let mut last = None;
    for e in a.modes() {
        let T::Tup(pair) = &e else {
            return Err(format!("entry {e} is not (OFFSET,(COORD,...))"));
        };
        let [T::I(v), cs] = &pair[..] else {
            return Err(format!("entry {e} is not (OFFSET,(COORD,...))"));
        };
        if last.is_some_and(|x| x >= *v) {
            return Err(format!("offset {v} is not above the one before"));
        }
        last = Some(*v);
        let T::Tup(cs) = cs else {
            return Err(format!("entry {e}: the coordinates are not a tuple"));
        };
        for c in cs {
            if !c.same_tree(&l.s) || !in_range(c, &l.s) {
                return Err(format!("{c} is not a natural coordinate of {}", l.s));
            }
            if crd2idx(c, &l.s, &l.d) != Some(*v) {
                return Err(format!("L({c}) = {:?} != {v}", crd2idx(c, &l.s, &l.d)));
            }
            if !seen.insert(c.to_string()) {
                return Err(format!("{c} appears twice"));
            }
        }
    }
    if seen.len() as i64 != n {
        return Err(format!("{} coordinates listed, size {n}", seen.len()));
    }
    Ok(())
}

/// A basis stride `v@i` as (v, i); `None` for the stride 0.
type BasisStride = Option<(i64, usize)>;

/// A layout with basis strides `v@i` (one level, v >= 1) or 0: its extents and, per leaf, the
/// scale and mode of its stride (`None` for 0).
fn basis_leaves(t: &str) -> Option<(Vec<i64>, Vec<BasisStride>)> {
    let (sh, st) = t.trim().split_once(':')?;
    let s = tree(sh)?;
    let d: Vec<&str> = st
        .split(['(', ')', ','])
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .collect();
    let d: Option<Vec<BasisStride>> = d
        .iter()
        .map(|x| match x.split_once('@') {
            None => (*x == "0").then_some(None),
            Some((v, i)) => {
                let (v, i): (i64, usize) = (v.parse().ok()?, i.parse().ok()?);
                ((1..=BIG).contains(&v) && i < 8).then_some(Some((v, i)))
            }
        })
        .collect();
    let d = d?;
    (s.positive() && s.leaves().len() == d.len() && d.iter().any(Option::is_some))
        .then(|| (s.leaves(), d))
}

pub fn law_coshape(args: &[Arg], r: &Out) -> Res {
    let [a] = args else { return Ok(()) };
    if let Some((s, d)) = text(a).and_then(|t| basis_leaves(&t)) {
        // 1 + the inner product of (shape - 1) and the strides, mode by mode of the codomain.
        let n = d.iter().flatten().map(|(_, i)| i + 1).max().unwrap_or(0);
        let mut c = vec![1i64; n];
        for (x, y) in s.iter().zip(&d) {
            if let Some((v, i)) = y {
                c[*i] += (x - 1) * v;
            }
        }
        return expect(r, is(ints(&c)));
    }
    let Some(l) = larg(a).filter(|l| l.s.positive()) else {
        return Ok(());
    };
    let c = l.leaves().iter().try_fold(1i64, |acc, (s, d)| {
        acc.checked_add((s - 1).checked_mul(d.abs())?)
    });
    match c {
        Some(c) => expect(r, is(c)),
        None => Ok(()),
    }
}

pub fn law_coprofile(args: &[Arg], r: &Out) -> Res {
    let [a] = args else { return Ok(()) };
    if let Some((_, d)) = text(a).and_then(|t| basis_leaves(&t)) {
        // The codomain's tree: one mode per basis index up to the largest, every entry 0.
        let n = d.iter().flatten().map(|(_, i)| i + 1).max().unwrap_or(0);
        return expect(r, is(ints(&vec![0; n])));
    }
    match larg(a) {
        Some(_) => expect(r, is(0)),
        None => Ok(()),
    }
}

/// The leaves of a flat coalesced layout: no extent-1 leaf but a lone one, no two adjacent
/// leaves that merge.
fn coalesced(l: &Lay) -> Result<(), String> {
    if l.s.modes().iter().any(|m| matches!(m, T::Tup(_))) {
        return Err("not flat".into());
    }
    let v = l.leaves();
    if v.len() > 1 && v.iter().any(|(s, _)| *s == 1) {
        return Err("an extent-1 mode is left".into());
    }
    for k in 1..v.len() {
        if v[k - 1].0.checked_mul(v[k - 1].1) == Some(v[k].1) {
            return Err(format!("modes {} and {k} merge", k - 1));
        }
    }
    Ok(())
}

/// R is `want` as a function on [0, size(want)), with the same size.
fn same_function(want: &Lay, r: &Out) -> Res {
    let Ok(a) = r else {
        return Err(format!("refused, the reference gives {want}"));
    };
    let rl = lay(a).ok_or_else(|| format!("answer {a:?} is not a layout"))?;
    mark();
    if rl.size() != want.size() {
        return Err(format!(
            "size {:?}, the reference {want} has {:?}",
            rl.size(),
            want.size()
        ));
    }
    for i in 0..want.size().unwrap_or(0) {
        if rl.at(i) != want.at(i) {
            return Err(format!(
                "R({i}) = {:?}, the reference {want} gives {:?}",
                rl.at(i),
                want.at(i)
            ));
        }
    }
    Ok(())
}

pub fn law_domain_distribute(args: &[Arg], r: &Out) -> Res {
    let [s, n] = args else { return Ok(()) };
    let (Some(s), Some(n)) = (targ(s), int(n)) else {
        return Ok(());
    };
    if !s.positive() || n < 1 || s.size().is_none_or(|x| x > ENUM) {
        return Ok(());
    }
    let mut rest = n;
    let mut stride = 1;
    let mut modes = Vec::new();
    for x in s.leaves() {
        let g = gcd(x, rest);
        if g > 1 {
            modes.push(Lay {
                s: T::I(g),
                d: T::I(stride),
            });
        }
        rest /= g;
        stride *= x;
    }
    if rest != 1 {
        return Ok(());
    }
    let want = if modes.is_empty() {
        Lay {
            s: T::I(1),
            d: T::I(0),
        }
    } else {
        Lay::from_modes(modes)
    };
    same_function(&want, r)?;
    coalesced(&lay(r.as_ref().map_err(|e| e.message.clone())?).ok_or("layout")?)
}

/// gcd(size(P<0>), the strides of P<1>'s leaves of extent above 1), P = logical_divide(C,
/// right_inverse(C)), C = coalesce(L): each step through the table (each has its own law).
pub fn law_max_alignment(args: &[Arg], r: &Out) -> Res {
    if one_small(args).is_none() {
        return Ok(());
    }
    let steps = run_op("coalesce", args).and_then(|c| {
        let inv = run_op("right_inverse", &[Arg::Text(c.clone())])?;
        run_op("logical_divide", &[Arg::Text(c), Arg::Text(inv)])
    });
    let Some(p) = steps.ok().and_then(|p| lay(&p)) else {
        return Ok(());
    };
    let m = p.modes();
    let (Some(p0), Some(p1)) = (m.first(), m.get(1)) else {
        return Ok(());
    };
    let g = p1
        .leaves()
        .iter()
        .filter(|(s, _)| *s > 1)
        .fold(p0.size().unwrap_or(0), |g, (_, d)| gcd(g, *d));
    expect(r, is(g))
}

// ---------------------------------------------------------------------------------------------
// Layouts like a layout: make_layout_like, make_fragment_like, bw_coalesce

/// The leaves `(extent, stride of L, stride of R)` where both are integer layouts of the same
/// leaves (make_fragment_like may group the modes after mode 0).
fn like_leaves(l: &Lay, rl: &Lay) -> Result<Vec<(i64, i64, i64)>, String> {
    if rl.s.leaves() != l.s.leaves() {
        return Err(format!("shape {}, want the leaves of {}", rl.s, l.s));
    }
    Ok(l.leaves()
        .into_iter()
        .zip(rl.d.leaves())
        .map(|((s, d), r)| (s, d, r))
        .collect())
}

/// Leaves of extent above 1 keep the order of their strides (equal strides share one) and, where
/// the given strides differ, R's strides are compact from `start`.
fn ordered_like(v: &[(i64, i64, i64)], start: i64) -> Result<(), String> {
    let v: Vec<_> = v.iter().filter(|x| x.0 > 1).collect();
    for a in &v {
        for b in &v {
            if a.1 < b.1 && a.2 >= b.2 || a.1 == b.1 && a.2 != b.2 {
                return Err(format!(
                    "strides {} and {} become {} and {}",
                    a.1, b.1, a.2, b.2
                ));
            }
        }
    }
    let mut d: Vec<i64> = v.iter().map(|x| x.1).collect();
    d.sort_unstable();
    if d.windows(2).all(|w| w[0] != w[1]) {
        let mut by: Vec<_> = v.iter().map(|x| (x.2, x.0)).collect();
        by.sort_unstable();
        let mut acc = start;
        for (r, s) in by {
            if r != acc {
                return Err(format!("stride {r} where the compact stride is {acc}"));
            }
            acc *= s;
        }
    }
    Ok(())
}

pub fn law_make_layout_like(args: &[Arg], r: &Out) -> Res {
    let Some(l) = one_small(args) else {
        return Ok(());
    };
    if l.d.leaves().iter().any(|d| *d < 0) {
        return Ok(());
    }
    let Ok(a) = r else {
        return Err("refused".into());
    };
    let rl = lay(a).ok_or_else(|| format!("answer {a:?} is not a layout"))?;
    mark();
    let v = like_leaves(&l, &rl)?;
    if let Some(x) = v.iter().find(|x| (x.1 == 0 || x.0 == 1) && x.2 != 0) {
        return Err(format!("a stride-0 or extent-1 leaf gets stride {}", x.2));
    }
    let nz: Vec<_> = v.iter().copied().filter(|x| x.1 != 0).collect();
    ordered_like(&nz, 1)
}

pub fn law_make_fragment_like(args: &[Arg], r: &Out) -> Res {
    let [a] = args else { return Ok(()) };
    let t = text(a).unwrap_or_default();
    if matches!(Form::of_text(&t), Form::Int | Form::Tuple) {
        let Some(s) = tree(&t).filter(T::positive) else {
            return Ok(());
        };
        return match compact_strides(&s, 1, false) {
            Some(d) => expect(r, is(Lay { s, d })),
            None => Ok(()),
        };
    }
    let Some(l) = one_small(args) else {
        return Ok(());
    };
    if l.modes().len() == 1 {
        // Rank 1: compact column-major, as CuTe's make_layout(shape).
        return match compact_strides(&l.s, 1, false) {
            Some(d) => expect(r, is(Lay { s: l.s, d })),
            None => Ok(()),
        };
    }
    if l.d.leaves().iter().any(|d| *d < 0) || l.modes().is_empty() {
        return Ok(());
    }
    let Ok(x) = r else {
        return Err("refused".into());
    };
    let rl = lay(x).ok_or_else(|| format!("answer {x:?} is not a layout"))?;
    mark();
    let v = like_leaves(&l, &rl)?;
    let n0 = l.modes()[0].s.leaves().len();
    // Mode 0: column-major over its nonzero-stride leaves, its stride-0 leaves kept at 0.
    let mut acc = 1i64;
    for (s, d, r) in &v[..n0] {
        if *s == 1 {
            continue;
        }
        let want = if *d == 0 { 0 } else { acc };
        if *r != want {
            return Err(format!(
                "mode 0 leaf {s}:{d} gets stride {r}, column-major gives {want}"
            ));
        }
        if *d != 0 {
            acc *= s;
        }
    }
    // The other modes ordered like L's strides, after mode 0.
    ordered_like(&v[n0..], acc)
}

pub fn law_bw_coalesce(args: &[Arg], r: &Out) -> Res {
    let Some(l) = args.first().and_then(larg).filter(Lay::small) else {
        return Ok(());
    };
    let mut leaves = l.leaves();
    match args.get(1) {
        None => {}
        Some(i) => match larg(i) {
            Some(init) if init.small() && init.s.modes().iter().all(|m| matches!(m, T::I(_))) => {
                leaves.extend(init.leaves())
            }
            _ => return Ok(()),
        },
    }
    if args.len() > 2
        || leaves
            .iter()
            .try_fold(1i64, |a, (s, _)| a.checked_mul(*s))
            .is_none_or(|n| n > ENUM)
    {
        return Ok(());
    }
    let want = Lay::from_modes(
        leaves
            .into_iter()
            .map(|(s, d)| Lay {
                s: T::I(s),
                d: T::I(d),
            })
            .collect(),
    );
    same_function(&want, r)
}

// ---------------------------------------------------------------------------------------------
// Shape relations (NVlabs PyCuTe): common_refinement, common_coarsening, greatest_common_domain

/// A shape argument: a tuple, or a layout's shape.
fn shape_arg(a: &Arg) -> Option<T> {
    match lt(a)? {
        Lt::L(l) => Some(l.s),
        Lt::T(t) => Some(t),
    }
    .filter(T::positive)
}

/// The least shape compatible with both (an integer against a node of its size takes the node,
/// tuples mode by mode), `None` where none exists.
fn refinement(a: &T, b: &T) -> Option<T> {
    match (a, b) {
        (T::Tup(x), T::Tup(y)) => {
            if x.len() != y.len() {
                return None;
            }
            Some(tup(x
                .iter()
                .zip(y)
                .map(|(p, q)| refinement(p, q))
                .collect::<Option<_>>()?))
        }
        (T::I(x), _) => (b.size()? == *x).then(|| b.clone()),
        (_, T::I(y)) => (a.size()? == *y).then(|| a.clone()),
        _ => None,
    }
}

/// The greatest shape both are compatible with: tuples of one rank whose modes have equal
/// sizes mode by mode, else one integer of the common size.
fn coarsening(a: &T, b: &T) -> Option<T> {
    if let (T::Tup(x), T::Tup(y)) = (a, b) {
        if x.len() == y.len()
            && x.iter()
                .zip(y)
                .all(|(p, q)| p.size().is_some() && p.size() == q.size())
        {
            return Some(tup(x
                .iter()
                .zip(y)
                .map(|(p, q)| coarsening(p, q))
                .collect::<Option<_>>()?));
        }
    }
    let n = a.size()?;
    (b.size()? == n).then_some(T::I(n))
}

fn two_shapes(args: &[Arg]) -> Option<(T, T)> {
    let [a, b] = args else { return None };
    Some((shape_arg(a)?, shape_arg(b)?))
}

pub fn law_common_refinement(args: &[Arg], r: &Out) -> Res {
    let Some((a, b)) = two_shapes(args) else {
        return Ok(());
    };
    match refinement(&a, &b) {
        Some(w) => expect(r, is(w)),
        None => expect(r, refuse("no shape is compatible with both")),
    }
}

pub fn law_common_coarsening(args: &[Arg], r: &Out) -> Res {
    let Some((a, b)) = two_shapes(args) else {
        return Ok(());
    };
    match coarsening(&a, &b) {
        Some(w) => expect(r, is(w)),
        None => expect(r, refuse("the sizes differ")),
    }
}

/// Whether `s:d` is a sub-mode of one leaf of `shape` (flat, column-major index positions):
/// the leaf of position `p` holds `d = p t` with `t s` dividing its extent.
fn sub_mode(shape: &T, s: i64, d: i64) -> bool {
    let mut p = 1i64;
    for x in shape.leaves() {
        if d >= p && d < p.saturating_mul(x) && d % p == 0 {
            let t = d / p;
            return x % t.saturating_mul(s) == 0;
        }
        p = p.saturating_mul(x);
    }
    false
}

pub fn law_greatest_common_domain(args: &[Arg], r: &Out) -> Res {
    let Some((a, b)) = two_shapes(args) else {
        return Ok(());
    };
    let (Some(na), Some(nb)) = (a.size(), b.size()) else {
        return Ok(());
    };
    let Ok(x) = r else {
        return Err("refused".into());
    };
    let rl = lay(x).ok_or_else(|| format!("answer {x:?} is not a layout"))?;
    mark();
    if rl.s.modes().iter().any(|m| matches!(m, T::Tup(_))) {
        return Err("not depth 1".into());
    }
    for (s, d) in rl.leaves() {
        if s > 1 && (!sub_mode(&a, s, d) || !sub_mode(&b, s, d)) {
            return Err(format!("{s}:{d} is not a sub-mode of a leaf of both"));
        }
    }
    let n = rl.size().unwrap_or(0);
    if n < 1 || gcd(na, nb) % n != 0 {
        return Err(format!("size {n} does not divide gcd({na}, {nb})"));
    }
    let swapped = run_op(
        "greatest_common_domain",
        &[args[1].clone(), args[0].clone()],
    );
    if swapped.as_ref().ok() != Some(x) {
        return Err(format!("not symmetric: the swapped call gives {swapped:?}"));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Regroupings of divisions: tile_unzip, hier_unzip

pub fn law_tile_unzip(args: &[Arg], r: &Out) -> Res {
    let [a, t] = args else { return Ok(()) };
    let (Some(l), Some(tt)) = (larg(a), text(t)) else {
        return Ok(());
    };
    let Some(parts) = tiler_parts(&tt) else {
        return Ok(());
    };
    if parts.iter().any(|p| p.starts_with('(') || p.contains('<')) {
        return Ok(());
    }
    let m = l.modes();
    if parts.len() > m.len() {
        return Ok(());
    }
    let (mut firsts, mut seconds) = (Vec::new(), Vec::new());
    for x in &m[..parts.len()] {
        let xm = x.modes();
        if xm.len() != 2 || !matches!(x.s, T::Tup(_)) {
            return Ok(());
        }
        firsts.push(xm[0].clone());
        seconds.push(xm[1].clone());
    }
    seconds.extend(m[parts.len()..].iter().cloned());
    let want = Lay::from_modes(vec![Lay::from_modes(firsts), Lay::from_modes(seconds)]);
    expect(r, is(want))
}

pub fn law_hier_unzip(args: &[Arg], r: &Out) -> Res {
    let [op, a, t] = args else { return Ok(()) };
    let base = match text(op).as_deref() {
        Some("logical_divide") => "zipped_divide",
        Some("logical_product") => "zipped_product",
        _ => return Ok(()),
    };
    if larg(a).is_none() {
        return Ok(());
    }
    match run_op(base, &[a.clone(), t.clone()]) {
        Ok(w) => expect(r, Want::Is(w)),
        Err(e) => expect(r, Want::Refuse(format!("{base} refuses: {}", e.message))),
    }
}

// ---------------------------------------------------------------------------------------------
// Operations that take an operation: transform_layout, at_mode, transform, fold, iscan, escan,
// any_of, all_of, none_of, find_if. The inner operation is called through the table.

/// An unknown inner operation is refused, whatever the tuple.
fn unknown(op: &str, r: &Out) -> Option<Res> {
    cute_ops::find(op)
        .is_none()
        .then(|| expect(r, refuse("an unknown operation")))
}

/// An inner call's layout answer, or why it is not one.
fn inner_layout(op: &str, args: &[Arg]) -> Result<Option<Lay>, OpError> {
    let x = run_op(op, args)?;
    Ok(lay(&x))
}

pub fn law_transform_layout(args: &[Arg], r: &Out) -> Res {
    if !(2..=3).contains(&args.len()) {
        return Ok(());
    }
    let (Some(op), Some(l)) = (text(&args[0]), larg(&args[1])) else {
        return Ok(());
    };
    if let Some(v) = unknown(&op, r) {
        return v;
    }
    let m = l.modes();
    let extra: Vec<String> = match args.get(2) {
        None => Vec::new(),
        Some(t) => match text(t).and_then(|t| tiler_parts(&t)) {
            Some(p) if p.len() <= m.len() => p,
            _ => return Ok(()),
        },
    };
    let mut want = Vec::new();
    for (k, mode) in m.iter().enumerate() {
        let mut call = vec![Arg::Text(mode.to_string())];
        if args.len() == 3 {
            match extra.get(k) {
                Some(x) => call.push(Arg::Text(x.clone())),
                None => {
                    want.push(mode.clone());
                    continue;
                }
            }
        }
        match inner_layout(&op, &call) {
            Ok(Some(x)) => want.push(x),
            Ok(None) => return Ok(()),
            Err(e) => {
                return expect(
                    r,
                    Want::Refuse(format!("{op} refuses mode {k}: {}", e.message)),
                )
            }
        }
    }
    expect_lmodes(r, Some(want))
}

/// The node of a layout at a path replaced.
fn replace_at(t: &T, path: &[i64], x: &T) -> Option<T> {
    let Some((i, rest)) = path.split_first() else {
        return Some(x.clone());
    };
    let i = usize::try_from(*i).ok()?;
    match t {
        T::Tup(v) => {
            let mut v = v.clone();
            let e = replace_at(v.get(i)?, rest, x)?;
            v[i] = e;
            Some(T::Tup(v))
        }
        _ if i == 0 => replace_at(t, rest, x),
        _ => None,
    }
}

pub fn law_at_mode(args: &[Arg], r: &Out) -> Res {
    if args.len() < 3 {
        return Ok(());
    }
    let (Some(path), Some(op), Some(l)) = (targ(&args[0]), text(&args[1]), larg(&args[2])) else {
        return Ok(());
    };
    if let Some(v) = unknown(&op, r) {
        return v;
    }
    let path = path.leaves();
    if matches!(targ(&args[0]), Some(T::Tup(ref v)) if v.iter().any(|e| matches!(e, T::Tup(_)))) {
        return Ok(());
    }
    let (Some(s), Some(d)) = (at_path(&l.s, &path), at_path(&l.d, &path)) else {
        return Ok(());
    };
    let mut call = vec![Arg::Text(Lay { s, d }.to_string())];
    call.extend(args[3..].iter().cloned());
    match inner_layout(&op, &call) {
        Ok(Some(x)) => match replace_at(&l.s, &path, &x.s).zip(replace_at(&l.d, &path, &x.d)) {
            Some((s, d)) => expect(r, is(Lay { s, d })),
            None => Ok(()),
        },
        Ok(None) => Ok(()),
        Err(e) => expect(
            r,
            Want::Refuse(format!("{op} refuses the mode: {}", e.message)),
        ),
    }
}

/// The inner operation's answers on each top-level element (with the extra arguments), or the
/// first refusal.
fn each(op: &str, t: &T, extra: &[Arg]) -> Result<Vec<String>, OpError> {
    t.modes()
        .iter()
        .map(|e| {
            let mut call = vec![Arg::Text(e.to_string())];
            call.extend(extra.iter().cloned());
            run_op(op, &call)
        })
        .collect()
}

/// A tuple of answers that are all integers or tuples, as the tuple's text.
fn joined(v: &[String]) -> Option<T> {
    let v: Option<Vec<T>> = v.iter().map(|x| tree(x)).collect();
    v.map(T::Tup)
}

pub fn law_transform(args: &[Arg], r: &Out) -> Res {
    if args.len() < 2 {
        return Ok(());
    }
    let (Some(op), Some(t)) = (text(&args[0]), targ(&args[1])) else {
        return Ok(());
    };
    if let Some(v) = unknown(&op, r) {
        return v;
    }
    match each(&op, &t, &args[2..]) {
        Ok(v) => match (&t, joined(&v)) {
            (T::Tup(_), Some(w)) => expect(r, is(w)),
            (T::I(_), _) => expect(r, Want::Is(v[0].trim().to_string())),
            _ => Ok(()),
        },
        Err(e) => expect(
            r,
            Want::Refuse(format!("{op} refuses an element: {}", e.message)),
        ),
    }
}

/// The fold's running values: `INIT, OP(INIT, t0), OP(OP(INIT, t0), t1), ...`.
fn scan(op: &str, t: &T, init: &Arg) -> Result<Vec<String>, OpError> {
    let mut acc = text(init).unwrap_or_default();
    let mut out = vec![acc.clone()];
    for e in t.modes() {
        acc = run_op(op, &[Arg::Text(acc), Arg::Text(e.to_string())])?
            .trim()
            .to_string();
        out.push(acc.clone());
    }
    Ok(out)
}

fn scan_args(args: &[Arg]) -> Option<(String, T)> {
    let [op, t, init] = args else { return None };
    text(init)?;
    Some((text(op)?, targ(t).filter(|t| matches!(t, T::Tup(_)))?))
}

pub fn law_fold(args: &[Arg], r: &Out) -> Res {
    let Some((op, t)) = scan_args(args) else {
        return Ok(());
    };
    if let Some(v) = unknown(&op, r) {
        return v;
    }
    match scan(&op, &t, &args[2]) {
        Ok(v) => expect(r, Want::Is(v.last().cloned().unwrap_or_default())),
        Err(e) => expect(
            r,
            Want::Refuse(format!("{op} refuses a step: {}", e.message)),
        ),
    }
}

fn law_scan(args: &[Arg], r: &Out, inclusive: bool) -> Res {
    let Some((op, t)) = scan_args(args) else {
        return Ok(());
    };
    if let Some(v) = unknown(&op, r) {
        return v;
    }
    match scan(&op, &t, &args[2]) {
        Ok(v) => {
            let n = v.len() - 1;
            let part = if inclusive { &v[1..] } else { &v[..n] };
            match joined(part) {
                Some(w) => expect(r, is(w)),
                None => Ok(()),
            }
        }
        Err(e) => expect(
            r,
            Want::Refuse(format!("{op} refuses a step: {}", e.message)),
        ),
    }
}

pub fn law_iscan(args: &[Arg], r: &Out) -> Res {
    law_scan(args, r, true)
}

pub fn law_escan(args: &[Arg], r: &Out) -> Res {
    law_scan(args, r, false)
}

/// The predicate's verdict on each top-level element; `None` where one is not 0 or 1, or
/// refused.
fn verdicts(args: &[Arg]) -> Option<Vec<bool>> {
    if args.len() < 2 {
        return None;
    }
    let (op, t) = (text(&args[0])?, targ(&args[1])?);
    cute_ops::find(&op)?;
    let v = each(&op, &t, &args[2..]).ok()?;
    v.iter()
        .map(|x| match x.trim() {
            "1" => Some(true),
            "0" => Some(false),
            _ => None,
        })
        .collect()
}

pub fn law_any_of(args: &[Arg], r: &Out) -> Res {
    if let Some(v) = args.first().and_then(text).and_then(|op| unknown(&op, r)) {
        return v;
    }
    match verdicts(args) {
        Some(v) => expect_bool(r, v.iter().any(|x| *x)),
        None => Ok(()),
    }
}

pub fn law_all_of(args: &[Arg], r: &Out) -> Res {
    if let Some(v) = args.first().and_then(text).and_then(|op| unknown(&op, r)) {
        return v;
    }
    match verdicts(args) {
        Some(v) => expect_bool(r, v.iter().all(|x| *x)),
        None => Ok(()),
    }
}

pub fn law_none_of(args: &[Arg], r: &Out) -> Res {
    if let Some(v) = args.first().and_then(text).and_then(|op| unknown(&op, r)) {
        return v;
    }
    match verdicts(args) {
        Some(v) => expect_bool(r, !v.iter().any(|x| *x)),
        None => Ok(()),
    }
}

pub fn law_find_if(args: &[Arg], r: &Out) -> Res {
    if let Some(v) = args.first().and_then(text).and_then(|op| unknown(&op, r)) {
        return v;
    }
    match verdicts(args) {
        Some(v) => expect(r, is(v.iter().position(|x| *x).unwrap_or(v.len()))),
        None => Ok(()),
    }
}
