//! Symbolic layouts: extents and strides that are monomials over named positive integers
//! (`N`, `4*N`, `N*M`), as NVlabs PyCuTe builds with sympy symbols. CuTe C++ has no such
//! layouts; these follow PyCuTe's conventions.
//!
//! A symbol stands for a positive integer that is never taken for 1 ("generic"): `N == 1` is
//! false, so a symbolic extent is never dropped as an extent-1 mode. Symbolic values can be
//! compared only for equality of monomials; where an operation must order them, a symbolic
//! value ranks after every static one and symbolic values keep their left-to-right order among
//! themselves. A condition that cannot be decided from the monomials (`4 % N == 0`) is refused
//! with [`LayoutError::Undecidable`], never guessed.
//!
//! [`SymLayout::subs`] puts integers in for the symbols and gives an ordinary [`Layout`]: every
//! operation here agrees with the integer operation at the substitutions where the generic
//! assumptions hold (see each operation).

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use crate::layout::error::{ParseError, ParseErrorKind};
use crate::{IntTuple, Layout, LayoutError, MAX_DEPTH, MAX_NODES};

const OP: &str = "symbolic";

/// A monomial: an integer coefficient times a product of named symbols with positive powers
/// (`4*N`, `N*M`, `-2*X*X`, `7`). Symbols stand for positive integers.
///
/// Equality is that of polynomials: the order of the factors does not matter (`N*M == M*N`).
/// The text form writes the coefficient first (omitted when 1) and each factor as often as its
/// power, in the order the factors first appeared.
///
/// ```
/// # use cute_layout::Sym;
/// let a: Sym = "4*N".parse()?;
/// let b: Sym = "N*2".parse()?;
/// assert_eq!(a.mul(&b)?.to_string(), "8*N*N");
/// assert_eq!(a.div_exact(&b), Some(Sym::int(2)));
/// assert_eq!("N*M".parse::<Sym>()?, "M*N".parse::<Sym>()?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Eq)]
pub struct Sym {
    coef: i64,
    factors: Vec<(String, u32)>,
}

impl PartialEq for Sym {
    fn eq(&self, other: &Self) -> bool {
        self.coef == other.coef
            && self.factors.len() == other.factors.len()
            && self.factors.iter().all(|f| other.factors.contains(f))
    }
}

impl Sym {
    /// The integer `v`.
    pub fn int(v: i64) -> Self {
        Sym {
            coef: v,
            factors: Vec::new(),
        }
    }

    /// The symbol `name` (a letter, then letters, digits or `_`).
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] when `name` is not such an identifier.
    pub fn symbol(name: &str) -> Result<Self, LayoutError> {
        if !is_identifier(name) {
            return Err(LayoutError::InvalidArgument {
                op: OP,
                what: format!(
                    "{name:?} is not a symbol name (a letter, then letters, digits or _)"
                ),
            });
        }
        Ok(Sym {
            coef: 1,
            factors: alloc::vec![(name.to_string(), 1)],
        })
    }

    /// The coefficient.
    pub fn coef(&self) -> i64 {
        self.coef
    }

    /// The symbols and their powers, in the order they first appeared.
    pub fn factors(&self) -> &[(String, u32)] {
        &self.factors
    }

    /// Whether the value has no symbol (a plain integer).
    pub fn is_static(&self) -> bool {
        self.factors.is_empty()
    }

    /// The integer, when the value has no symbol.
    pub fn as_int(&self) -> Option<i64> {
        self.is_static().then_some(self.coef)
    }

    /// The product.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] when the coefficient or a power overflows.
    pub fn mul(&self, other: &Sym) -> Result<Sym, LayoutError> {
        let coef = self
            .coef
            .checked_mul(other.coef)
            .ok_or(LayoutError::overflow(OP))?;
        if coef == 0 {
            return Ok(Sym::int(0));
        }
        let mut factors = self.factors.clone();
        for (name, p) in &other.factors {
            match factors.iter_mut().find(|(n, _)| n == name) {
                Some((_, q)) => *q = q.checked_add(*p).ok_or(LayoutError::overflow(OP))?,
                None => factors.push((name.clone(), *p)),
            }
        }
        Ok(Sym { coef, factors })
    }

    /// The exact quotient `self / other` when it is a monomial (the coefficient divides and
    /// every factor of `other` divides `self`'s), else `None` (also for `other == 0`).
    pub fn div_exact(&self, other: &Sym) -> Option<Sym> {
        if other.coef == 0 {
            return None;
        }
        if self.coef == 0 {
            return Some(Sym::int(0));
        }
        if self.coef % other.coef != 0 {
            return None;
        }
        let mut factors = self.factors.clone();
        for (name, p) in &other.factors {
            let k = factors.iter().position(|(n, _)| n == name)?;
            let q = factors[k].1.checked_sub(*p)?;
            if q == 0 {
                factors.remove(k);
            } else {
                factors[k].1 = q;
            }
        }
        Some(Sym {
            coef: self.coef / other.coef,
            factors,
        })
    }

    /// Floor division and remainder where the monomials decide them: both static, an exact
    /// quotient, or `self == 0`; `None` otherwise (e.g. `4` by `N`, `N` by `4`).
    pub fn divmod(&self, other: &Sym) -> Option<(Sym, Sym)> {
        if let (Some(a), Some(b)) = (self.as_int(), other.as_int()) {
            if b == 0 {
                return None;
            }
            let q = a.checked_div(b)?;
            let r = a.checked_rem(b)?;
            // Python's floor division: the remainder takes the divisor's sign
            let (q, r) = if r != 0 && ((r < 0) != (b < 0)) {
                (q - 1, r + b)
            } else {
                (q, r)
            };
            return Some((Sym::int(q), Sym::int(r)));
        }
        self.div_exact(other).map(|q| (q, Sym::int(0)))
    }

    /// `ceil(self / other)` for positive values where the monomials decide it: both static, an
    /// exact quotient, a numerator of 1 (the quotient of 1 by a positive value rounds up to 1) or
    /// a denominator of 1; `None` otherwise.
    pub fn ceil_div(&self, other: &Sym) -> Option<Sym> {
        if let (Some(a), Some(b)) = (self.as_int(), other.as_int()) {
            if b <= 0 || a < 0 {
                return None;
            }
            return Some(Sym::int(a.checked_add(b - 1)? / b));
        }
        if let Some(q) = self.div_exact(other) {
            return Some(q);
        }
        if self.as_int() == Some(1) && other.coef > 0 {
            return Some(Sym::int(1));
        }
        None
    }

    /// The value with integers put in for the symbols.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] for a symbol without a value; [`LayoutError::Overflow`].
    pub fn eval(&self, env: &[(&str, i64)]) -> Result<i64, LayoutError> {
        let mut v = self.coef;
        for (name, p) in &self.factors {
            let x = env
                .iter()
                .find(|(n, _)| n == name)
                .map(|&(_, x)| x)
                .ok_or_else(|| LayoutError::InvalidArgument {
                    op: "subs",
                    what: format!("no value for the symbol {name}"),
                })?;
            v = x
                .checked_pow(*p)
                .and_then(|xp| v.checked_mul(xp))
                .ok_or(LayoutError::overflow("subs"))?;
        }
        Ok(v)
    }

    fn positive(&self) -> bool {
        self.coef > 0
    }

    /// PyCuTe's ordering key: static values by value, then every symbolic value (equal keys;
    /// a stable sort keeps them left to right).
    fn rank_key(&self) -> (u8, i64) {
        match self.as_int() {
            Some(v) => (0, v),
            None => (1, 0),
        }
    }
}

impl fmt::Display for Sym {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.factors.is_empty() {
            return write!(f, "{}", self.coef);
        }
        match self.coef {
            1 => {}
            -1 => f.write_str("-")?,
            c => write!(f, "{c}*")?,
        }
        let mut first = true;
        for (name, p) in &self.factors {
            for _ in 0..*p {
                if !first {
                    f.write_str("*")?;
                }
                first = false;
                f.write_str(name)?;
            }
        }
        Ok(())
    }
}

fn is_identifier(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(ch) if ch.is_ascii_alphabetic())
        && c.all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
}

/// A tuple of [`Sym`]: a leaf or a tuple of tuples, in the text form `(N,(4,M))`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SymTuple {
    /// One value.
    Leaf(Sym),
    /// A tuple (possibly empty).
    Tuple(Vec<SymTuple>),
}

impl SymTuple {
    /// The leaves, left to right.
    pub fn leaves(&self) -> Vec<&Sym> {
        let mut out = Vec::new();
        self.collect(&mut out);
        out
    }

    fn collect<'a>(&'a self, out: &mut Vec<&'a Sym>) {
        match self {
            SymTuple::Leaf(s) => out.push(s),
            SymTuple::Tuple(v) => v.iter().for_each(|t| t.collect(out)),
        }
    }

    /// Whether both have the same tree.
    pub fn congruent(&self, other: &SymTuple) -> bool {
        match (self, other) {
            (SymTuple::Leaf(_), SymTuple::Leaf(_)) => true,
            (SymTuple::Tuple(a), SymTuple::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.congruent(y))
            }
            _ => false,
        }
    }

    /// The product of the leaves.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`].
    pub fn size(&self) -> Result<Sym, LayoutError> {
        self.leaves()
            .into_iter()
            .try_fold(Sym::int(1), |acc, s| acc.mul(s))
    }

    /// Whether no leaf has a symbol.
    pub fn is_static(&self) -> bool {
        self.leaves().iter().all(|s| s.is_static())
    }

    /// The names of the symbols, in the order they first appear.
    pub fn symbols(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for s in self.leaves() {
            for (n, _) in s.factors() {
                if !out.contains(n) {
                    out.push(n.clone());
                }
            }
        }
        out
    }

    /// The same tree with `next()` values for its leaves.
    fn unflatten(&self, it: &mut impl Iterator<Item = Sym>) -> SymTuple {
        match self {
            SymTuple::Leaf(_) => SymTuple::Leaf(it.next().unwrap_or_else(|| Sym::int(0))),
            SymTuple::Tuple(v) => SymTuple::Tuple(v.iter().map(|t| t.unflatten(it)).collect()),
        }
    }

    /// The integer tuple with integers put in for the symbols.
    ///
    /// # Errors
    /// As [`Sym::eval`].
    pub fn subs(&self, env: &[(&str, i64)]) -> Result<IntTuple, LayoutError> {
        match self {
            SymTuple::Leaf(s) => Ok(IntTuple::int(s.eval(env)?)),
            SymTuple::Tuple(v) => IntTuple::tuple(
                v.iter()
                    .map(|t| t.subs(env))
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        }
    }

    fn flat(leaves: Vec<Sym>) -> SymTuple {
        if leaves.len() == 1 {
            let mut l = leaves;
            SymTuple::Leaf(l.remove(0))
        } else {
            SymTuple::Tuple(leaves.into_iter().map(SymTuple::Leaf).collect())
        }
    }
}

impl fmt::Display for SymTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SymTuple::Leaf(s) => write!(f, "{s}"),
            SymTuple::Tuple(v) => {
                f.write_str("(")?;
                for (k, t) in v.iter().enumerate() {
                    if k > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// A layout whose extents and strides are [`Sym`] monomials: NVlabs PyCuTe's layouts over
/// sympy symbols (`(N,M):(1,N)`, `(X,1):(1,N*X)`). Extents are positive (a positive
/// coefficient; symbols are positive integers); strides are any monomials.
///
/// The operations follow PyCuTe: [`coalesce`](Self::coalesce),
/// [`coalesce_z`](Self::coalesce_z), [`complement`](Self::complement),
/// [`right_inverse`](Self::right_inverse), [`compose`](Self::compose),
/// [`ordered`](Self::ordered), [`layout_like`](Self::layout_like); [`subs`](Self::subs)
/// substitutes integers.
///
/// ```
/// # use cute_layout::SymLayout;
/// let l: SymLayout = "(N,M):(1,N)".parse()?;
/// assert_eq!(l.coalesce()?.to_string(), "N*M:1");
/// assert_eq!(l.subs(&[("N", 3), ("M", 5)])?.to_string(), "(3,5):(1,3)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymLayout {
    shape: SymTuple,
    stride: SymTuple,
}

impl SymLayout {
    /// The layout `shape:stride`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] when the trees differ or an extent is not positive.
    pub fn new(shape: SymTuple, stride: SymTuple) -> Result<Self, LayoutError> {
        if !shape.congruent(&stride) {
            return Err(LayoutError::InvalidArgument {
                op: "make_layout",
                what: format!("shape {shape} and stride {stride} are not congruent"),
            });
        }
        if let Some(bad) = shape.leaves().into_iter().find(|s| !s.positive()) {
            return Err(LayoutError::InvalidArgument {
                op: "make_layout",
                what: format!("shape extent {bad} is not positive"),
            });
        }
        Ok(SymLayout { shape, stride })
    }

    /// `self`, or [`LayoutError::Overflow`] when it has no symbol and is not a representable
    /// integer layout (its cosize past `i64`), as every integer layout constructor requires.
    fn representable(self) -> Result<Self, LayoutError> {
        if self.symbols().is_empty() {
            self.subs(&[])?;
        }
        Ok(self)
    }

    fn flat(shape: Vec<Sym>, stride: Vec<Sym>) -> Self {
        SymLayout {
            shape: SymTuple::flat(shape),
            stride: SymTuple::flat(stride),
        }
    }

    /// The shape.
    pub fn shape(&self) -> &SymTuple {
        &self.shape
    }

    /// The stride.
    pub fn stride(&self) -> &SymTuple {
        &self.stride
    }

    /// The number of points: the product of the extents.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`].
    pub fn size(&self) -> Result<Sym, LayoutError> {
        self.shape.size()
    }

    /// The names of the symbols, in the order they first appear (shape, then stride).
    pub fn symbols(&self) -> Vec<String> {
        let mut out = self.shape.symbols();
        for n in self.stride.symbols() {
            if !out.contains(&n) {
                out.push(n);
            }
        }
        out
    }

    /// The ordinary layout with integers put in for the symbols.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] for a symbol without a value or a value below 1 (symbols
    /// are positive); [`LayoutError::Overflow`]; the errors of [`Layout::new`].
    pub fn subs(&self, env: &[(&str, i64)]) -> Result<Layout, LayoutError> {
        if let Some((n, v)) = env.iter().find(|(_, v)| *v < 1) {
            return Err(LayoutError::InvalidArgument {
                op: "subs",
                what: format!("{n} = {v}: symbols stand for positive integers"),
            });
        }
        Layout::new(self.shape.subs(env)?, self.stride.subs(env)?)
    }

    fn leaves(&self) -> (Vec<Sym>, Vec<Sym>) {
        (
            self.shape.leaves().into_iter().cloned().collect(),
            self.stride.leaves().into_iter().cloned().collect(),
        )
    }

    /// PyCuTe's fold of adjacent modes, keeping a trailing extent-1 mode: the flat lists.
    fn fold(&self) -> Result<(Vec<Sym>, Vec<Sym>), LayoutError> {
        let one = Sym::int(1);
        let (shape, stride) = self.leaves();
        let (mut rs, mut rd): (Vec<Sym>, Vec<Sym>) = (Vec::new(), Vec::new());
        for (sb, db) in shape.into_iter().zip(stride) {
            while rs.last() == Some(&one) {
                rs.pop();
                rd.pop();
            }
            if let (Some(sa), Some(da)) = (rs.last_mut(), rd.last()) {
                let linear = sa.mul(da).map(|x| x == db).unwrap_or(false);
                if sa.is_static() == sb.is_static() && linear {
                    *sa = sa.mul(&sb)?;
                    continue;
                }
            }
            rs.push(sb);
            rd.push(db);
        }
        Ok((rs, rd))
    }

    /// PyCuTe's `coalesce_z`: adjacent modes `s_a:d_a`, `s_b:d_b` merge into `s_a*s_b:d_a`
    /// where `s_a*d_a == d_b` and both extents are static or both symbolic; extent-1 modes are
    /// dropped except the last one, so the function is kept past the end.
    ///
    /// Law: at every substitution `v` (symbols >= 1), `subs(coalesce_z(L), v)(i) ==
    /// subs(L, v)(i)` for every `i >= 0` (the last mode running on).
    ///
    /// # Errors
    /// [`LayoutError::Overflow`].
    ///
    /// ```
    /// # use cute_layout::SymLayout;
    /// let l: SymLayout = "(1,N):(X,Y)".parse()?;
    /// assert_eq!(l.coalesce_z()?.to_string(), "N:Y");
    /// let l: SymLayout = "(4,N):(1,4)".parse()?;
    /// assert_eq!(l.coalesce_z()?.to_string(), "(4,N):(1,4)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn coalesce_z(&self) -> Result<SymLayout, LayoutError> {
        self.coalesce_z_raw()?.representable()
    }

    fn coalesce_z_raw(&self) -> Result<SymLayout, LayoutError> {
        let (rs, rd) = self.fold()?;
        if rs.is_empty() {
            return Ok(Self::flat(
                alloc::vec![Sym::int(1)],
                alloc::vec![Sym::int(0)],
            ));
        }
        Ok(Self::flat(rs, rd))
    }

    /// PyCuTe's (and CuTe's) `coalesce`: [`coalesce_z`](Self::coalesce_z), then a trailing
    /// extent-1 mode is dropped.
    ///
    /// Law: at every substitution `v`, `subs(coalesce(L), v)` is the same function as
    /// `subs(L, v)` on `[0, size)`, with depth at most 1.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`].
    ///
    /// ```
    /// # use cute_layout::SymLayout;
    /// let l: SymLayout = "(2,3,4):(X,2*X,6*X)".parse()?;
    /// assert_eq!(l.coalesce()?.to_string(), "24:X");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn coalesce(&self) -> Result<SymLayout, LayoutError> {
        self.coalesce_raw()?.representable()
    }

    fn coalesce_raw(&self) -> Result<SymLayout, LayoutError> {
        let (mut rs, mut rd) = self.fold()?;
        if rs.is_empty() {
            return Ok(Self::flat(
                alloc::vec![Sym::int(1)],
                alloc::vec![Sym::int(0)],
            ));
        }
        if rs.len() > 1 && rs.last() == Some(&Sym::int(1)) {
            rs.pop();
            rd.pop();
        }
        Ok(Self::flat(rs, rd))
    }

    /// PyCuTe's complement (integer codomain): the modes sorted by stride (static strides by
    /// value, then symbolic ones left to right); each mode `s:d` of stride `d != 0` and extent
    /// `s != 1` adds the extent `d / r` (with `r` the running span, starting at 1) at stride `r`,
    /// and the span becomes `d * s`; the last mode has extent 1 at the final span, and the
    /// result is coalesced keeping it (`coalesce_z`). With `extend` (PyCuTe's
    /// `_complement(extend=...)`, cute's shape cotarget) the last extent-1 mode is grown to
    /// cover the shape: each leaf `e` of `extend` contributes `ceil(e / c)` with `c` the part of
    /// the span not yet covered (`c` becomes `ceil(c / e)`), then the result is coalesced.
    ///
    /// Law: at every substitution where a symbolic stride exceeds every static stride, the
    /// symbolic strides increase left to right and each running-span quotient is exact,
    /// `subs(complement(L), v)` is the integer complement of `subs(L, v)` as a function.
    ///
    /// # Errors
    /// [`LayoutError::Undecidable`] where a quotient is not a monomial (`X / 2`) or a ceiling
    /// cannot be decided; [`LayoutError::InvalidArgument`] for a negative stride or (static
    /// strides) overlapping modes; [`LayoutError::Overflow`].
    ///
    /// ```
    /// # use cute_layout::{SymLayout, SymTuple};
    /// let l: SymLayout = "N:X".parse()?;
    /// assert_eq!(l.complement(None)?.to_string(), "(X,1):(1,X*N)");
    /// let l: SymLayout = "256:1".parse()?;
    /// let extend: SymTuple = "(32,4,2,2,N)".parse()?;
    /// assert_eq!(l.complement(Some(&extend))?.to_string(), "(2,N):(256,512)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn complement(&self, extend: Option<&SymTuple>) -> Result<SymLayout, LayoutError> {
        self.complement_raw(extend)?.representable()
    }

    fn complement_raw(&self, extend: Option<&SymTuple>) -> Result<SymLayout, LayoutError> {
        const C: &str = "complement";
        let (shape, stride) = self.leaves();
        let mut modes: Vec<(Sym, Sym)> = stride.into_iter().zip(shape).collect();
        modes.sort_by_key(|(d, _)| d.rank_key());
        let (mut rs, mut rd) = (Vec::new(), alloc::vec![Sym::int(1)]);
        for (d, s) in modes {
            if d.coef() == 0 || s == Sym::int(1) {
                continue;
            }
            if d.coef() < 0 {
                return Err(LayoutError::InvalidArgument {
                    op: C,
                    what: format!("stride {d} of {self} is negative"),
                });
            }
            let span = rd.last().cloned().unwrap_or_else(|| Sym::int(1));
            if let (Some(dv), Some(sv)) = (d.as_int(), span.as_int()) {
                if dv < sv {
                    return Err(LayoutError::InvalidArgument {
                        op: C,
                        what: format!("stride {dv} of {self} is below the span {sv} of the modes with smaller strides (not injective)"),
                    });
                }
            }
            let (q, _) = d.divmod(&span).ok_or_else(|| LayoutError::Undecidable {
                op: C,
                condition: format!("the quotient {d} / {span}"),
            })?;
            rs.push(q);
            rd.push(d.mul(&s)?);
        }
        rs.push(Sym::int(1));
        let result = Self::flat(rs, rd).coalesce_z()?;
        let Some(extend) = extend else {
            return Ok(result);
        };
        let (cs, cd) = result.leaves();
        let last_stride = cd.last().cloned().unwrap_or_else(|| Sym::int(1));
        let mut uncovered = last_stride.clone();
        let mut grown = Vec::new();
        for e in extend.leaves() {
            let undecidable = |a: &Sym, b: &Sym| LayoutError::Undecidable {
                op: C,
                condition: format!("ceil({a} / {b})"),
            };
            let r = e
                .ceil_div(&uncovered)
                .ok_or_else(|| undecidable(e, &uncovered))?;
            uncovered = uncovered
                .ceil_div(e)
                .ok_or_else(|| undecidable(&uncovered, e))?;
            grown.push(r);
        }
        // the leading modes keep their strides; the grown last mode runs from the last stride
        let (mut ns, mut nd) = (Vec::new(), Vec::new());
        for (s, d) in cs.iter().zip(&cd).take(cs.len().saturating_sub(1)) {
            ns.push(s.clone());
            nd.push(d.clone());
        }
        let mut run = last_stride;
        for r in grown {
            nd.push(run.clone());
            run = run.mul(&r)?;
            ns.push(r);
        }
        Self::flat(ns, nd).coalesce()
    }

    /// PyCuTe's right inverse (integer codomain): the modes of `coalesce_z(L)` sorted by stride
    /// (static strides by value, then symbolic ones left to right) are followed from stride 1;
    /// a mode `s:d` continues the chain when `d` equals the running extent (as monomials), and
    /// the inverse takes its extent `s` at the mode's position in `L`'s domain (the prefix
    /// product of the extents before it). A symbolic stride is never 1, so a layout whose
    /// strides are all symbolic has the trivial inverse `1:0`.
    ///
    /// Law: at every substitution `v`, `subs(L, v)(subs(R, v)(i)) == i` for `i < size(R)`;
    /// where no symbolic stride equals a running extent it is the integer right inverse.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`].
    ///
    /// ```
    /// # use cute_layout::SymLayout;
    /// let l: SymLayout = "(N,4):(1,N)".parse()?;
    /// assert_eq!(l.right_inverse()?.to_string(), "(N,4):(1,N)");
    /// let l: SymLayout = "N:X".parse()?;
    /// assert_eq!(l.right_inverse()?.to_string(), "1:0");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn right_inverse(&self) -> Result<SymLayout, LayoutError> {
        self.right_inverse_raw()?.representable()
    }

    fn right_inverse_raw(&self) -> Result<SymLayout, LayoutError> {
        let (fs, fd) = self.fold()?;
        let mut chain = Vec::new();
        let mut pp = Sym::int(1);
        for (s, d) in fs.into_iter().zip(fd) {
            let next = pp.mul(&s)?;
            chain.push((d, s, pp));
            pp = next;
        }
        chain.sort_by_key(|(d, _, _)| d.rank_key());
        let (mut rs, mut rd) = (Vec::new(), Vec::new());
        let mut curr = Sym::int(1);
        for (d, s, p) in chain {
            if d.coef() == 0 || s == Sym::int(1) || d != curr {
                continue;
            }
            curr = s.mul(&curr)?;
            rs.push(s);
            rd.push(p);
        }
        if rs.is_empty() {
            return Ok(Self::flat(
                alloc::vec![Sym::int(1)],
                alloc::vec![Sym::int(0)],
            ));
        }
        Self::flat(rs, rd).coalesce()
    }

    /// `L(i)` for an integer index, where the symbolic extents allow the split of `i` into a
    /// coordinate (every extent but the last divides or is decided against `i`).
    fn value_at(&self, i: &Sym) -> Result<Sym, LayoutError> {
        let (shape, stride) = self.leaves();
        let mut rest = i.clone();
        let mut total: Option<Sym> = None;
        let n = shape.len();
        for (k, (s, d)) in shape.iter().zip(&stride).enumerate() {
            let c = if k + 1 == n {
                rest.clone()
            } else {
                let (q, r) = rest.divmod(s).ok_or_else(|| LayoutError::Undecidable {
                    op: "composition",
                    condition: format!("the coordinate of {i} in {self}"),
                })?;
                rest = q;
                r
            };
            let term = c.mul(d)?;
            if term.coef() == 0 {
                continue;
            }
            total = Some(match total {
                None => term,
                Some(t) if t.is_static() && term.is_static() => Sym::int(
                    t.coef()
                        .checked_add(term.coef())
                        .ok_or(LayoutError::overflow("composition"))?,
                ),
                Some(t) => {
                    return Err(LayoutError::Undecidable {
                        op: "composition",
                        condition: format!(
                            "{t} + {term} as one monomial, the value of {self} at {i}"
                        ),
                    })
                }
            });
        }
        Ok(total.unwrap_or_else(|| Sym::int(0)))
    }

    /// PyCuTe's composition `A o B` (integer codomain): `A` is coalesced (`coalesce_z`), a
    /// tuple-shaped `B` distributes over its top-level modes, and each mode `s:d` of `B` takes
    /// the first modes of `A` covering `d*s` (shape divisibility) and divides the stride `d`
    /// out of them (stride divisibility); the result is coalesced.
    ///
    /// Law: `compatible(B, R)` and `R(i) == A(B(i))` for `i < size(B)` at every substitution of
    /// integers >= 2 for the symbols (`A`'s last mode running on past its extent, as in CuTe).
    ///
    /// # Errors
    /// [`LayoutError::Undecidable`] where a divisibility condition involves a symbol and cannot
    /// be decided (`4 % N == 0`: PyCuTe raises ValueError); [`LayoutError::InvalidArgument`] where
    /// a static divisibility condition fails; [`LayoutError::Overflow`].
    ///
    /// ```
    /// # use cute_layout::SymLayout;
    /// let a: SymLayout = "(12,N):(X,Y)".parse()?;
    /// assert_eq!(a.compose(&"6:4".parse()?)?.to_string(), "(3,2):(4*X,Y)");
    /// let a: SymLayout = "(N,8):(X,Y)".parse()?;
    /// assert!(a.compose(&"4:1".parse()?).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn compose(&self, b: &SymLayout) -> Result<SymLayout, LayoutError> {
        self.compose_raw(b)?.representable()
    }

    fn compose_raw(&self, b: &SymLayout) -> Result<SymLayout, LayoutError> {
        let a = self.coalesce_z()?;
        a.compose_coalesced(b, 0)
    }

    fn compose_coalesced(&self, b: &SymLayout, depth: usize) -> Result<SymLayout, LayoutError> {
        const C: &str = "composition";
        if depth > MAX_DEPTH {
            return Err(LayoutError::TooDeep {
                op: C,
                limit: MAX_DEPTH,
            });
        }
        let (s, d) = match (&b.shape, &b.stride) {
            (SymTuple::Tuple(ss), SymTuple::Tuple(ds)) => {
                let mut shape = Vec::new();
                let mut stride = Vec::new();
                for (s, d) in ss.iter().zip(ds) {
                    let m = SymLayout {
                        shape: s.clone(),
                        stride: d.clone(),
                    };
                    let r = self.compose_coalesced(&m, depth + 1)?;
                    shape.push(r.shape);
                    stride.push(r.stride);
                }
                return Ok(SymLayout {
                    shape: SymTuple::Tuple(shape),
                    stride: SymTuple::Tuple(stride),
                });
            }
            (SymTuple::Leaf(s), SymTuple::Leaf(d)) => (s.clone(), d.clone()),
            _ => {
                return Err(LayoutError::InvalidArgument {
                    op: C,
                    what: format!("{b} is not congruent"),
                })
            }
        };
        if d.coef() == 0 {
            return Ok(Self::flat(alloc::vec![s], alloc::vec![Sym::int(0)]));
        }
        if s == Sym::int(1) {
            let v = self.value_at(&d)?;
            return Ok(Self::flat(alloc::vec![s], alloc::vec![v]));
        }
        let (mut rs, mut rd) = self.leaves();
        let n = rs.len();
        let undecided = |what: &str, x: &Sym, y: &Sym| LayoutError::Undecidable {
            op: C,
            condition: format!("{what} ({x} divided by {y}) of {self} o {b}"),
        };
        // keep the modes of A that cover d*s; the last one takes what is left
        let mut last = d.mul(&s)?;
        let mut keep = n;
        for (i, ext) in rs.iter_mut().enumerate().take(n.saturating_sub(1)) {
            let (q, r) = last
                .divmod(ext)
                .ok_or_else(|| undecided("the shape divisibility condition", &last, ext))?;
            if q.coef() == 0 {
                *ext = r;
                keep = i + 1;
                break;
            }
            if r.coef() != 0 {
                return Err(LayoutError::InvalidArgument {
                    op: C,
                    what: format!(
                        "shape divisibility: {last} is not a multiple of {ext} in {self} o {b}"
                    ),
                });
            }
            last = q;
        }
        if keep == n {
            if let Some(x) = rs.last_mut() {
                *x = last;
            }
        }
        rs.truncate(keep);
        rd.truncate(keep);
        // divide the stride d out of the leading modes
        let mut stride = d;
        let mut done = false;
        for i in 0..keep.saturating_sub(1) {
            if let Some((q, r)) = rs[i].divmod(&stride) {
                if r.coef() == 0 {
                    rs[i] = q;
                    rd[i] = rd[i].mul(&stride)?;
                    done = true;
                    break;
                }
            }
            let (q, r) = stride
                .divmod(&rs[i])
                .ok_or_else(|| undecided("the stride divisibility condition", &stride, &rs[i]))?;
            if r.coef() != 0 {
                return Err(LayoutError::InvalidArgument {
                    op: C,
                    what: format!(
                        "stride divisibility: {stride} and {} divide neither way in {self} o {b}",
                        rs[i]
                    ),
                });
            }
            stride = q;
            rs[i] = Sym::int(1);
        }
        if !done {
            let k = keep - 1;
            let (q, _) = rs[k]
                .divmod(&stride)
                .ok_or_else(|| undecided("the last extent", &rs[k], &stride))?;
            rs[k] = q;
            rd[k] = rd[k].mul(&stride)?;
        }
        Self::flat(rs, rd).coalesce()
    }

    /// PyCuTe's `make_ordered_layout`: the compact layout of `shape` whose strides increase in
    /// the order of `order` (congruent to `shape`); static order values rank by value, symbolic
    /// ones after every static one and among themselves left to right.
    ///
    /// Law: at every substitution where the symbolic order values exceed the static ones and
    /// increase left to right, `subs(R, v)` is the integer `make_ordered_layout`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] when the trees differ or an extent is not positive;
    /// [`LayoutError::Overflow`].
    ///
    /// ```
    /// # use cute_layout::SymLayout;
    /// let r = SymLayout::ordered(&"(2,3,4)".parse()?, &"(P,0,Q)".parse()?)?;
    /// assert_eq!(r.to_string(), "(2,3,4):(3,1,6)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn ordered(shape: &SymTuple, order: &SymTuple) -> Result<SymLayout, LayoutError> {
        Self::ordered_raw(shape, order)?.representable()
    }

    fn ordered_raw(shape: &SymTuple, order: &SymTuple) -> Result<SymLayout, LayoutError> {
        if !shape.congruent(order) {
            return Err(LayoutError::InvalidArgument {
                op: "make_ordered_layout",
                what: format!("shape {shape} and order {order} are not congruent"),
            });
        }
        let keys: Vec<(u8, i64)> = order.leaves().iter().map(|o| o.rank_key()).collect();
        Self::compact_by(shape, &keys, &[])
    }

    fn compact_by(
        shape: &SymTuple,
        keys: &[(u8, i64)],
        zero: &[bool],
    ) -> Result<SymLayout, LayoutError> {
        let flat: Vec<&Sym> = shape.leaves();
        let mut idx: Vec<usize> = (0..flat.len()).collect();
        idx.sort_by_key(|&i| keys.get(i).copied().unwrap_or((0, 0)));
        let mut strides = alloc::vec![Sym::int(0); flat.len()];
        let mut current = Sym::int(1);
        for i in idx {
            if zero.get(i).copied().unwrap_or(false) {
                continue;
            }
            strides[i] = current.clone();
            current = current.mul(flat[i])?;
        }
        let stride = shape.unflatten(&mut strides.into_iter());
        SymLayout::new(shape.clone(), stride)
    }

    /// PyCuTe's `make_layout_like`: the compact layout of `L`'s shape whose strides follow the
    /// order of `L`'s strides (static strides by value, then symbolic ones left to right); a
    /// static stride 0 stays 0, and an extent-1 mode takes the running product as PyCuTe gives
    /// it (CuTe gives it stride 0: the same function). Unlike CuTe C++'s `make_layout_like` (cute's integer
    /// operation), equal strides are not shared.
    ///
    /// Law: at every substitution where the symbolic strides exceed the static ones and
    /// increase left to right, and the non-zero strides differ, `subs(R, v)` is the integer
    /// `make_layout_like(subs(L, v))` as a function (the same shape and values).
    ///
    /// # Errors
    /// [`LayoutError::Overflow`].
    ///
    /// ```
    /// # use cute_layout::SymLayout;
    /// let l: SymLayout = "(2,N,4):(1,X,2)".parse()?;
    /// assert_eq!(l.layout_like()?.to_string(), "(2,N,4):(1,8,2)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn layout_like(&self) -> Result<SymLayout, LayoutError> {
        self.layout_like_raw()?.representable()
    }

    fn layout_like_raw(&self) -> Result<SymLayout, LayoutError> {
        let d = self.stride.leaves();
        let keys: Vec<(u8, i64)> = d.iter().map(|x| x.rank_key()).collect();
        let zero: Vec<bool> = d.iter().map(|x| x.coef() == 0).collect();
        Self::compact_by(&self.shape, &keys, &zero)
    }
}

impl fmt::Display for SymLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.shape, self.stride)
    }
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    nodes: usize,
}

impl Parser<'_> {
    fn err(&self, kind: ParseErrorKind) -> ParseError {
        ParseError {
            offset: self.pos,
            kind,
        }
    }

    fn skip(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip();
        self.s.get(self.pos).copied()
    }

    fn unexpected(&self, expected: &'static str) -> ParseError {
        match self.s.get(self.pos) {
            Some(&c) => self.err(ParseErrorKind::UnexpectedChar {
                found: c as char,
                expected,
            }),
            None => self.err(ParseErrorKind::UnexpectedEnd { expected }),
        }
    }

    fn tuple(&mut self, depth: usize) -> Result<SymTuple, ParseError> {
        if depth > MAX_DEPTH {
            return Err(self.err(ParseErrorKind::TooDeep));
        }
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(self.err(ParseErrorKind::TooLarge));
        }
        if self.peek() != Some(b'(') {
            return Ok(SymTuple::Leaf(self.monomial()?));
        }
        self.pos += 1;
        let mut items = Vec::new();
        if self.peek() == Some(b')') {
            self.pos += 1;
            return Ok(SymTuple::Tuple(items));
        }
        loop {
            items.push(self.tuple(depth + 1)?);
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b')') => {
                    self.pos += 1;
                    return Ok(SymTuple::Tuple(items));
                }
                _ => return Err(self.unexpected("',' or ')'")),
            }
        }
    }

    fn monomial(&mut self) -> Result<Sym, ParseError> {
        let mut value = Sym::int(1);
        if self.peek() == Some(b'-') {
            self.pos += 1;
            value = Sym::int(-1);
        }
        loop {
            let f = self.factor()?;
            value = value
                .mul(&f)
                .map_err(|_| self.err(ParseErrorKind::IntegerOverflow))?;
            if self.peek() == Some(b'*') {
                self.pos += 1;
            } else {
                return Ok(value);
            }
        }
    }

    fn factor(&mut self) -> Result<Sym, ParseError> {
        let start = {
            self.skip();
            self.pos
        };
        match self.s.get(self.pos) {
            Some(c) if c.is_ascii_digit() => {
                while self.s.get(self.pos).is_some_and(|c| c.is_ascii_digit()) {
                    self.pos += 1;
                }
                let text = core::str::from_utf8(&self.s[start..self.pos]).unwrap_or("");
                text.parse::<i64>().map(Sym::int).map_err(|_| ParseError {
                    offset: start,
                    kind: ParseErrorKind::IntegerOverflow,
                })
            }
            Some(c) if c.is_ascii_alphabetic() => {
                while self
                    .s
                    .get(self.pos)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
                {
                    self.pos += 1;
                }
                let text = core::str::from_utf8(&self.s[start..self.pos]).unwrap_or("");
                Sym::symbol(text).map_err(|e| ParseError {
                    offset: start,
                    kind: ParseErrorKind::Invalid(e),
                })
            }
            _ => Err(self.unexpected("an integer or a symbol name")),
        }
    }

    fn end(&mut self) -> Result<(), ParseError> {
        if self.peek().is_some() {
            return Err(self.unexpected("the end"));
        }
        Ok(())
    }
}

/// The whole of `s` read by `read`.
fn parse_all<T>(
    s: &str,
    read: impl FnOnce(&mut Parser<'_>) -> Result<T, ParseError>,
) -> Result<T, ParseError> {
    let mut p = Parser {
        s: s.as_bytes(),
        pos: 0,
        nodes: 0,
    };
    let v = read(&mut p)?;
    p.end()?;
    Ok(v)
}

impl FromStr for Sym {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        parse_all(s, |p| p.monomial())
    }
}

impl FromStr for SymTuple {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        parse_all(s, |p| p.tuple(0))
    }
}

/// `SHAPE:STRIDE`, each a tuple of monomials (`(N,4):(1,N)`, `N*M:1`); the stride is required.
impl FromStr for SymLayout {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let (shape, stride) = parse_all(s, |p| {
            let shape = p.tuple(0)?;
            if p.peek() != Some(b':') {
                return Err(p.unexpected("':'"));
            }
            p.pos += 1;
            Ok((shape, p.tuple(0)?))
        })?;
        SymLayout::new(shape, stride).map_err(|e| ParseError {
            offset: 0,
            kind: ParseErrorKind::Invalid(e),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(s: &str) -> SymLayout {
        s.parse().unwrap()
    }

    #[test]
    fn parse_print() {
        assert_eq!(l("(N, M):(1,N)").to_string(), "(N,M):(1,N)");
        assert_eq!(l("N*M:1").to_string(), "N*M:1");
        assert_eq!(l("(X,1):(1,N*X)").to_string(), "(X,1):(1,N*X)");
        assert_eq!(l("(2,4):(-X,2*X*X)").to_string(), "(2,4):(-X,2*X*X)");
        assert!("(N,0):(1,N)".parse::<SymLayout>().is_err());
        assert!("(N,M):(1)".parse::<SymLayout>().is_err());
        assert!("N".parse::<SymLayout>().is_err());
        assert!("1@0:N".parse::<SymLayout>().is_err());
        let deep = "(".repeat(100) + &")".repeat(100);
        assert!(deep.parse::<SymTuple>().is_err());
    }

    #[test]
    fn decisions() {
        let n: Sym = "N".parse().unwrap();
        assert_eq!(Sym::int(4).divmod(&n), None);
        assert_eq!(n.divmod(&Sym::int(4)), None);
        assert_eq!(
            Sym::int(-7).divmod(&Sym::int(2)),
            Some((Sym::int(-4), Sym::int(1)))
        );
        assert_eq!(Sym::int(1).ceil_div(&n), Some(Sym::int(1)));
        assert_eq!(Sym::int(2).ceil_div(&n), None);
    }
}
