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
use core::cmp::Ordering;
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

    /// The value with 1 put in for the symbols `ones`.
    fn with_ones(&self, ones: &[String]) -> Sym {
        let mut out = self.clone();
        out.factors.retain(|(n, _)| !ones.contains(n));
        out
    }

    /// The power of symbol `name` in the value.
    fn power(&self, name: &str) -> u32 {
        self.factors
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0, |&(_, p)| p)
    }

    /// Whether `self < other` at every substitution of integers >= 2, for positive values:
    /// exactly when every power in `self` is at most `other`'s and the quotient is above 1
    /// where every symbol is 2 (its smallest value there).
    fn below_positive(&self, other: &Sym) -> bool {
        let mut extra = 0u32;
        for (n, p) in &self.factors {
            let q = other.power(n);
            if q < *p {
                return false;
            }
            extra = extra.saturating_add(q - p);
        }
        for (n, q) in &other.factors {
            if self.power(n) == 0 {
                extra = extra.saturating_add(*q);
            }
        }
        // other.coef * 2^extra > self.coef
        let scaled = if extra >= 64 {
            u128::MAX
        } else {
            (other.coef as u128).saturating_mul(1u128 << extra)
        };
        scaled > self.coef as u128
    }

    /// The order of `self` and `other` at every substitution of integers >= 2 for the symbols
    /// (the same order everywhere), or `None` where it depends on the substitution.
    /// `Equal` only for equal monomials.
    fn cmp2(&self, other: &Sym) -> Option<core::cmp::Ordering> {
        use core::cmp::Ordering::{Equal, Greater, Less};
        if self == other {
            return Some(Equal);
        }
        let sign = |c: i64| c.signum();
        match (sign(self.coef), sign(other.coef)) {
            (a, b) if a != b => return Some(a.cmp(&b)),
            _ => {}
        }
        if self.coef == 0 {
            return Some(Equal);
        }
        let (a, b, flip) = if self.coef > 0 {
            (self.clone(), other.clone(), false)
        } else {
            (
                Sym {
                    coef: self.coef.checked_neg()?,
                    factors: self.factors.clone(),
                },
                Sym {
                    coef: other.coef.checked_neg()?,
                    factors: other.factors.clone(),
                },
                true,
            )
        };
        let r = if a.below_positive(&b) {
            Less
        } else if b.below_positive(&a) {
            Greater
        } else {
            return None;
        };
        Some(if flip { r.reverse() } else { r })
    }

    /// Floor division and remainder where they are the same at every substitution of
    /// integers >= 2: [`Sym::divmod`], or a non-negative static `self` below a positive
    /// `other` (quotient 0).
    fn divmod2(&self, other: &Sym) -> Option<(Sym, Sym)> {
        if let Some(qr) = self.divmod(other) {
            return Some(qr);
        }
        if self.is_static()
            && self.coef >= 0
            && other.coef > 0
            && self.cmp2(other) == Some(core::cmp::Ordering::Less)
        {
            return Some((Sym::int(0), self.clone()));
        }
        None
    }

    /// `ceil(self / other)` for positive values where it is the same at every substitution of
    /// integers >= 2: [`Sym::ceil_div`], or a positive `self` at most `other` (quotient 1).
    fn ceil_div2(&self, other: &Sym) -> Option<Sym> {
        if let Some(q) = self.ceil_div(other) {
            return Some(q);
        }
        if self.coef > 0
            && other.coef > 0
            && matches!(
                self.cmp2(other),
                Some(core::cmp::Ordering::Less | core::cmp::Ordering::Equal)
            )
        {
            return Some(Sym::int(1));
        }
        None
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

    /// The same tree with 1 put in for the symbols `ones`.
    fn with_ones(&self, ones: &[String]) -> SymTuple {
        match self {
            SymTuple::Leaf(s) => SymTuple::Leaf(s.with_ones(ones)),
            SymTuple::Tuple(v) => SymTuple::Tuple(v.iter().map(|t| t.with_ones(ones)).collect()),
        }
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

    /// PyCuTe's fold of adjacent modes, keeping a trailing extent-1 mode: the flat lists. Two
    /// neighbours merge where `s_a * d_a == d_b` and both extents are static or both symbolic.
    fn fold(&self) -> Result<(Vec<Sym>, Vec<Sym>), LayoutError> {
        self.fold_by(true)
    }

    /// The fold of [`SymLayout::fold`] and [`SymLayout::fold_all`]: with `same_kind`, only
    /// neighbours whose extents are both static or both symbolic merge (and a product that does
    /// not fit merges nothing); without it every linear pair merges.
    fn fold_by(&self, same_kind: bool) -> Result<(Vec<Sym>, Vec<Sym>), LayoutError> {
        let one = Sym::int(1);
        let (shape, stride) = self.leaves();
        let (mut rs, mut rd): (Vec<Sym>, Vec<Sym>) = (Vec::new(), Vec::new());
        for (sb, db) in shape.into_iter().zip(stride) {
            while rs.last() == Some(&one) {
                rs.pop();
                rd.pop();
            }
            if let (Some(sa), Some(da)) = (rs.last_mut(), rd.last()) {
                let merge = if same_kind {
                    sa.is_static() == sb.is_static() && sa.mul(da).is_ok_and(|x| x == db)
                } else {
                    sa.mul(da)? == db
                };
                if merge {
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

    /// The layout with 1 put in for the symbols `ones`.
    fn with_ones(&self, ones: &[String]) -> SymLayout {
        SymLayout {
            shape: self.shape.with_ones(ones),
            stride: self.stride.with_ones(ones),
        }
    }

    /// A normal form of the function on `[0, size)`: the leaves with the extent-1 ones dropped
    /// and neighbours `s_a:d_a`, `s_b:d_b` with `s_a * d_a == d_b` merged. Layouts with equal
    /// normal forms are the same function on `[0, size)` at every substitution.
    fn normal(&self) -> Result<(Vec<Sym>, Vec<Sym>), LayoutError> {
        let (rs, rd, _) = self.normal_parts()?;
        Ok((rs, rd))
    }

    /// [`SymLayout::normal`] with the extents of the leaves merged into each mode.
    #[allow(clippy::type_complexity)]
    fn normal_parts(&self) -> Result<(Vec<Sym>, Vec<Sym>, Vec<Vec<Sym>>), LayoutError> {
        let (shape, stride) = self.leaves();
        let one = Sym::int(1);
        let (mut rs, mut rd): (Vec<Sym>, Vec<Sym>) = (Vec::new(), Vec::new());
        let mut parts: Vec<Vec<Sym>> = Vec::new();
        for (s, d) in shape.into_iter().zip(stride) {
            if s == one {
                continue;
            }
            if let (Some(sa), Some(da), Some(p)) = (rs.last_mut(), rd.last(), parts.last_mut()) {
                if sa.mul(da)? == d {
                    *sa = sa.mul(&s)?;
                    p.push(s);
                    continue;
                }
            }
            rs.push(s.clone());
            rd.push(d);
            parts.push(alloc::vec![s]);
        }
        Ok((rs, rd, parts))
    }

    /// [`SymLayout::fold`] that merges neighbours whatever their extents (static or symbolic):
    /// the same function at every index `>= 0` (the last mode running on).
    fn fold_all(&self) -> Result<(Vec<Sym>, Vec<Sym>), LayoutError> {
        let (rs, rd) = self.fold_by(false)?;
        if rs.is_empty() {
            return Ok((alloc::vec![Sym::int(1)], alloc::vec![Sym::int(0)]));
        }
        Ok((rs, rd))
    }

    /// PyCuTe's complement (integer codomain), CuTe's algorithm: the modes of stride `d != 0`
    /// and extent `s != 1`, sorted by stride; each adds the extent `d / r` (with `r` the running
    /// span, starting at 1) at stride `r`, and the span becomes `d * s`; the last mode has
    /// extent 1 at the final span, and the result is coalesced keeping it (`coalesce_z`). With
    /// `extend` (PyCuTe's `_complement(extend=...)`, cute's shape cotarget) that last mode grows
    /// to cover the shape: each leaf `e` of `extend` contributes `ceil(e / c)` with `c` the part
    /// of the span not yet covered (`c` becomes `ceil(c / e)`), as CuTe's `ceil_div`; where
    /// that falls short of the shape's size `m`, the last extent is `ceil(m / span)`.
    ///
    /// Law: at every substitution `v` of positive integers, `subs(complement(L), v)` is the
    /// integer complement of `subs(L, v)` (one argument: `complement(L, cosize(L))`) as a
    /// function on its domain, of the same size. Every decision (the order of two strides, a
    /// quotient, a ceiling, whether a symbol is 1) must be the same at every substitution, else
    /// the answer is refused.
    ///
    /// # Errors
    /// [`LayoutError::Undecidable`] where a decision depends on the substitution (the order
    /// of `X` and `Y`, the quotient `X / 2`, whether `N = 1` changes the answer) or a stride
    /// leaves a gap (no multiple of the span below it: the integer complement then checks
    /// coverage, the symbolic one refuses); [`LayoutError::InvalidArgument`] for a negative
    /// stride, an extent of `extend` below 1, or overlapping modes (at every substitution);
    /// [`LayoutError::Overflow`].
    ///
    /// ```
    /// # use cute_layout::{SymLayout, SymTuple};
    /// let l: SymLayout = "(N,4):(1,N)".parse()?;
    /// assert_eq!(l.complement(None)?.to_string(), "1:4*N");
    /// let l: SymLayout = "256:1".parse()?;
    /// let extend: SymTuple = "(32,4,2,2,N)".parse()?;
    /// assert_eq!(l.complement(Some(&extend))?.to_string(), "(2,N):(256,512)");
    /// let l: SymLayout = "(2,2):(X,Y)".parse()?; // X < Y or Y < X: no one answer
    /// assert_eq!(l.complement(None).unwrap_err().kind(), "Undecidable");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn complement(&self, extend: Option<&SymTuple>) -> Result<SymLayout, LayoutError> {
        let mut names = self.symbols();
        if let Some(e) = extend {
            for n in e.symbols() {
                if !names.contains(&n) {
                    names.push(n);
                }
            }
        }
        uniform("complement", &names, |ones| {
            let extend = extend.map(|e| e.with_ones(ones));
            self.with_ones(ones).complement2(extend.as_ref())
        })?
        .representable()
    }

    /// [`SymLayout::complement`] where every symbol is at least 2.
    fn complement2(&self, extend: Option<&SymTuple>) -> Result<SymLayout, LayoutError> {
        const C: &str = "complement";
        let undecided = |condition: String| LayoutError::Undecidable { op: C, condition };
        let (shape, stride) = self.leaves();
        // (stride, extent), stable-sorted by stride
        let mut sorted: Vec<(Sym, Sym)> = Vec::new();
        for (s, d) in shape.into_iter().zip(stride) {
            if d.coef() == 0 || s == Sym::int(1) {
                continue;
            }
            if d.coef() < 0 {
                return Err(LayoutError::InvalidArgument {
                    op: C,
                    what: format!(
                        "stride {d} of {self} is negative; complement needs non-negative strides"
                    ),
                });
            }
            let mut k = sorted.len();
            while k > 0 {
                match sorted[k - 1].0.cmp2(&d) {
                    Some(Ordering::Greater) => k -= 1,
                    Some(_) => break,
                    None => {
                        return Err(undecided(format!(
                            "the order of the strides {} and {d} of {self}",
                            sorted[k - 1].0
                        )))
                    }
                }
            }
            sorted.insert(k, (d, s));
        }
        let (mut rs, mut rd) = (Vec::new(), Vec::new());
        let mut span = Sym::int(1);
        for (d, s) in &sorted {
            match d.cmp2(&span) {
                Some(Ordering::Less) => {
                    return Err(LayoutError::InvalidArgument {
                        op: C,
                        what: format!("stride {d} of {self} is below the span {span} of the modes with smaller strides (not injective)"),
                    })
                }
                None => {
                    return Err(undecided(format!(
                        "whether the stride {d} of {self} reaches the span {span} of the modes with smaller strides"
                    )))
                }
                Some(_) => {}
            }
            let q = d.div_exact(&span).ok_or_else(|| {
                undecided(format!(
                    "the quotient {d} / {span} as one monomial (a stride of {self} that is no multiple of the span below it leaves a gap)"
                ))
            })?;
            rs.push(q);
            rd.push(span.clone());
            span = d.mul(s)?;
        }
        let Some(extend) = extend else {
            rs.push(Sym::int(1));
            rd.push(span);
            return Self::flat(rs, rd).coalesce_z_raw();
        };
        let mut grown = Vec::new();
        let mut left = span.clone();
        let mut total = Sym::int(1);
        let mut m = Sym::int(1);
        for e in extend.leaves() {
            if !e.positive() {
                return Err(LayoutError::InvalidArgument {
                    op: C,
                    what: format!("cotarget {extend} has extent {e} below 1"),
                });
            }
            let r = e
                .ceil_div2(&left)
                .ok_or_else(|| undecided(format!("ceil({e} / {left})")))?;
            left = left
                .ceil_div2(e)
                .ok_or_else(|| undecided(format!("ceil({left} / {e})")))?;
            total = total.mul(&r)?;
            m = m.mul(e)?;
            grown.push(r);
        }
        match total.mul(&span)?.cmp2(&m) {
            Some(Ordering::Less) => {
                let r = m
                    .ceil_div2(&span)
                    .ok_or_else(|| undecided(format!("ceil({m} / {span})")))?;
                grown = alloc::vec![r];
            }
            None => {
                return Err(undecided(format!(
                    "whether {total}*{span} reaches the size {m} of the cotarget {extend}"
                )))
            }
            Some(_) => {}
        }
        let mut run = span;
        for r in grown {
            rd.push(run.clone());
            run = run.mul(&r)?;
            rs.push(r);
        }
        Self::flat(rs, rd).coalesce_raw()
    }

    /// The right inverse (integer codomain), CuTe's algorithm: the modes of `coalesce(L)` in
    /// stride order are followed from stride 1; a mode `s:d` continues the chain when `d`
    /// equals the running extent, and the inverse takes its extent `s` at the mode's position
    /// in `L`'s domain (the prefix product of the extents before it). Among modes of equal
    /// stride the first in CuTe's stride order continues it.
    ///
    /// Law: at every substitution `v` of positive integers, `subs(R, v)` is the integer
    /// `right_inverse(subs(L, v))` as a function (the same size and values), so
    /// `subs(L, v)(subs(R, v)(i)) == i` for `i < size(R)` and `R` is as large as the integer
    /// one. Every decision (whether a stride equals the running extent, whether two
    /// neighbours merge, whether a symbol is 1) must be the same at every substitution, else
    /// the answer is refused.
    ///
    /// # Errors
    /// [`LayoutError::Undecidable`] where a decision depends on the substitution (`N:X`: at
    /// `X = 1` the inverse is `N:1`, elsewhere `1:0`); [`LayoutError::Overflow`].
    ///
    /// ```
    /// # use cute_layout::SymLayout;
    /// let l: SymLayout = "(N,4):(1,N)".parse()?;
    /// assert_eq!(l.right_inverse()?.to_string(), "(N,4):(1,N)");
    /// let l: SymLayout = "(P,P,P):(P*P,P,1)".parse()?;
    /// assert_eq!(l.right_inverse()?.to_string(), "(P,P,P):(P*P,P,1)");
    /// let l: SymLayout = "N:2*X".parse()?;
    /// assert_eq!(l.right_inverse()?.to_string(), "1:0");
    /// let l: SymLayout = "N:X".parse()?;
    /// assert_eq!(l.right_inverse().unwrap_err().kind(), "Undecidable");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn right_inverse(&self) -> Result<SymLayout, LayoutError> {
        uniform("right_inverse", &self.symbols(), |ones| {
            self.with_ones(ones).right_inverse2()
        })?
        .representable()
    }

    /// [`SymLayout::right_inverse`] where every symbol is at least 2.
    fn right_inverse2(&self) -> Result<SymLayout, LayoutError> {
        const R: &str = "right_inverse";
        let undecided = |condition: String| LayoutError::Undecidable { op: R, condition };
        // coalesce(L): the merges the monomials show (a merge that only some substitutions
        // make is checked below, where it could change the chain)
        let (fs, fd, parts) = self.normal_parts()?;
        let mut touched = alloc::vec![false; fs.len()];
        let mut weights = Vec::with_capacity(fs.len());
        let mut acc = Sym::int(1);
        for s in &fs {
            weights.push(acc.clone());
            acc = acc.mul(s)?;
        }
        let mut used = alloc::vec![false; fs.len()];
        let mut order: Option<Vec<usize>> = None;
        let (mut rs, mut rw) = (Vec::new(), Vec::new());
        let mut curr = Sym::int(1);
        loop {
            let mut hits = Vec::new();
            for (k, d) in fd.iter().enumerate() {
                if used[k] {
                    continue;
                }
                match d.cmp2(&curr) {
                    Some(Ordering::Equal) => {
                        touched[k] = true;
                        hits.push(k);
                    }
                    Some(_) => {}
                    None => {
                        return Err(undecided(format!(
                            "whether the stride {d} of {self} equals the running extent {curr}"
                        )))
                    }
                }
            }
            let pick = match hits.as_slice() {
                [] => break,
                [k] => *k,
                _ => {
                    if order.is_none() {
                        order = Some(exchange_order(&fd, self)?);
                    }
                    let first = order
                        .as_ref()
                        .and_then(|o| o.iter().find(|k| hits.contains(k)).copied());
                    match first {
                        Some(k) => k,
                        None => break,
                    }
                }
            };
            used[pick] = true;
            curr = curr.mul(&fs[pick])?;
            // the mode's leaves one by one (the same function; PyCuTe's coalesce then
            // merges what it merges)
            let mut w = weights[pick].clone();
            for s in &parts[pick] {
                rs.push(s.clone());
                rw.push(w.clone());
                w = w.mul(s)?;
            }
        }
        // A merge of neighbours that only some substitutions make (the integer coalesce makes
        // it there) changes the chain only where one of them met the running extent: a mode
        // that never did keeps its stride apart from every running extent, merged or not.
        for k in 1..fs.len() {
            if !(touched[k - 1] || touched[k]) {
                continue;
            }
            let span = fs[k - 1].mul(&fd[k - 1])?;
            if span.cmp2(&fd[k]).is_none() {
                return Err(undecided(format!(
                    "whether {}:{} and {}:{} of {self} merge ({span} = {}?)",
                    fs[k - 1],
                    fd[k - 1],
                    fs[k],
                    fd[k],
                    fd[k]
                )));
            }
        }
        if rs.is_empty() {
            return Ok(Self::flat(
                alloc::vec![Sym::int(1)],
                alloc::vec![Sym::int(0)],
            ));
        }
        Self::flat(rs, rw).coalesce_raw()
    }

    /// `L(i)` for an integer index and the digits it takes in `L`'s modes (`(mode, digit)`,
    /// the last mode running on), where every split is the same at every substitution of
    /// integers >= 2.
    fn value_at(&self, i: &Sym) -> Result<(Sym, Vec<(usize, Sym)>), LayoutError> {
        let (shape, stride) = self.leaves();
        let mut rest = i.clone();
        let mut total: Option<Sym> = None;
        let mut digits = Vec::new();
        let n = shape.len();
        for (k, (s, d)) in shape.iter().zip(&stride).enumerate() {
            let c = if k + 1 == n {
                rest.clone()
            } else {
                let (q, r) = rest.divmod2(s).ok_or_else(|| LayoutError::Undecidable {
                    op: "composition",
                    condition: format!("the coordinate of {i} in {self}"),
                })?;
                rest = q;
                r
            };
            if c.coef() != 0 {
                digits.push((k, c.clone()));
            }
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
        Ok((total.unwrap_or_else(|| Sym::int(0)), digits))
    }

    /// PyCuTe's composition `A o B` (integer codomain), CuTe's algorithm: `A` is coalesced
    /// (keeping the function past its end), a tuple-shaped `B` distributes over its leaves,
    /// and each leaf `s:d` of `B` takes the first modes of `A` covering `d*s` (shape
    /// divisibility) and divides the stride `d` out of them (stride divisibility); each leaf's
    /// result is coalesced. The leaves' results add up to `A(B(i))` only where their digits in
    /// each mode of `A` but the last add up without a carry; that is checked.
    ///
    /// Law: at every substitution `v` of positive integers, `subs(R, v)` is compatible with
    /// `subs(B, v)` and `subs(R, v)(i) == subs(A, v)(subs(B, v)(i))` for `i < size(B)`
    /// (`A`'s last mode running on past its extent, as in CuTe): the integer composition's
    /// function. Every decision (a quotient, the order of two values, whether a symbol is 1)
    /// must be the same at every substitution, else the answer is refused.
    ///
    /// # Errors
    /// [`LayoutError::Undecidable`] where a divisibility condition involves a symbol and cannot
    /// be decided (`4 % N == 0`: PyCuTe raises ValueError), where it fails for static values
    /// (the integer composition may still answer by CuTe's weak divisibility), or where the
    /// leaves' digits cannot be shown to add without a carry; [`LayoutError::NotRepresentable`]
    /// where they carry at every substitution (the integer composition: `ModesOverlap`);
    /// [`LayoutError::Overflow`].
    ///
    /// ```
    /// # use cute_layout::SymLayout;
    /// let a: SymLayout = "(12,N):(X,Y)".parse()?;
    /// assert_eq!(a.compose(&"6:4".parse()?)?.to_string(), "(3,2):(4*X,Y)");
    /// let a: SymLayout = "(N,8):(X,Y)".parse()?;
    /// assert!(a.compose(&"4:1".parse()?).is_err());
    /// let a: SymLayout = "(4,N):(4,1)".parse()?; // A(B(3,3)) = A(6) = 9, not 24
    /// assert_eq!(a.compose(&"(4,4):(1,1)".parse()?).unwrap_err().kind(), "NotRepresentable");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn compose(&self, b: &SymLayout) -> Result<SymLayout, LayoutError> {
        let mut names = self.symbols();
        for n in b.symbols() {
            if !names.contains(&n) {
                names.push(n);
            }
        }
        uniform("composition", &names, |ones| {
            self.with_ones(ones).compose2(&b.with_ones(ones))
        })?
        .representable()
    }

    /// [`SymLayout::compose`] where every symbol is at least 2.
    fn compose2(&self, b: &SymLayout) -> Result<SymLayout, LayoutError> {
        let (a_s, a_d) = self.fold_all()?;
        let a = Self::flat(a_s, a_d);
        let mut footprint: Vec<(usize, usize, Sym, Sym)> = Vec::new();
        let mut leaf = 0usize;
        let r = a.compose_tree(b, 0, &mut leaf, &mut footprint)?;
        a.check_carries(self, b, &footprint)?;
        Ok(r)
    }

    /// The composition with the tree `b`, leaf by leaf; each leaf's digits in the modes of
    /// `self` (flat, coalesced) but the last go to `footprint` as `(leaf, mode, step, count)`:
    /// the digits `0, step, ..., (count - 1) * step`.
    fn compose_tree(
        &self,
        b: &SymLayout,
        depth: usize,
        leaf: &mut usize,
        footprint: &mut Vec<(usize, usize, Sym, Sym)>,
    ) -> Result<SymLayout, LayoutError> {
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
                    let r = self.compose_tree(&m, depth + 1, leaf, footprint)?;
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
        let here = *leaf;
        *leaf += 1;
        self.compose_leaf(&s, &d, b, here, footprint)
    }

    fn compose_leaf(
        &self,
        s: &Sym,
        d: &Sym,
        b: &SymLayout,
        here: usize,
        footprint: &mut Vec<(usize, usize, Sym, Sym)>,
    ) -> Result<SymLayout, LayoutError> {
        const C: &str = "composition";
        let (mut rs, mut rd) = self.leaves();
        let n = rs.len();
        if d.coef() == 0 {
            return Ok(Self::flat(alloc::vec![s.clone()], alloc::vec![Sym::int(0)]));
        }
        if *s == Sym::int(1) {
            let (v, digits) = self.value_at(d)?;
            for (j, c) in digits {
                if j + 1 < n {
                    footprint.push((here, j, c, Sym::int(2)));
                }
            }
            return Ok(Self::flat(alloc::vec![s.clone()], alloc::vec![v]));
        }
        let undecided = |condition: String| LayoutError::Undecidable { op: C, condition };
        if d.coef() < 0 {
            return Err(undecided(format!(
                "the negative stride {d} of {b} (the symbolic composition takes non-negative strides)"
            )));
        }
        // keep the modes of A that cover d*s; the last one takes what is left
        let mut last = d.mul(s)?;
        let mut keep = n;
        for (i, ext) in rs.iter_mut().enumerate().take(n.saturating_sub(1)) {
            let (q, r) = last.divmod2(ext).ok_or_else(|| {
                undecided(format!(
                    "the shape divisibility condition ({last} divided by {ext}) of {self} o {b}"
                ))
            })?;
            if q.coef() == 0 {
                *ext = r;
                keep = i + 1;
                break;
            }
            if r.coef() != 0 {
                return Err(undecided(format!(
                    "the shape divisibility condition of {self} o {b}: {last} is no multiple of {ext} (the symbolic composition needs it)"
                )));
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
        let mut stride = d.clone();
        let mut pivot = None;
        for i in 0..keep.saturating_sub(1) {
            if let Some((q, r)) = rs[i].divmod2(&stride) {
                if r.coef() == 0 && q.coef() != 0 {
                    rs[i] = q;
                    rd[i] = rd[i].mul(&stride)?;
                    pivot = Some((i, stride.clone()));
                    break;
                }
            }
            let (q, r) = stride.divmod2(&rs[i]).ok_or_else(|| {
                undecided(format!(
                    "the stride divisibility condition ({stride} divided by {}) of {self} o {b}",
                    rs[i]
                ))
            })?;
            if r.coef() != 0 {
                return Err(undecided(format!(
                    "the stride divisibility condition of {self} o {b}: {stride} and {} divide neither way (the symbolic composition needs one to)",
                    rs[i]
                )));
            }
            stride = q;
            rs[i] = Sym::int(1);
        }
        let pivot = match pivot {
            Some(p) => p,
            None => {
                let k = keep - 1;
                let (q, r) = rs[k].divmod2(&stride).ok_or_else(|| {
                    undecided(format!(
                        "the last extent ({} divided by {stride}) of {self} o {b}",
                        rs[k]
                    ))
                })?;
                if r.coef() != 0 && k + 1 < n {
                    return Err(undecided(format!(
                        "the stride divisibility condition of {self} o {b}: {} is no multiple of {stride}",
                        rs[k]
                    )));
                }
                rs[k] = q;
                rd[k] = rd[k].mul(&stride)?;
                (k, stride.clone())
            }
        };
        for (j, q) in rs.iter().enumerate() {
            if j + 1 >= n || j < pivot.0 || *q == Sym::int(1) {
                continue;
            }
            let step = if j == pivot.0 {
                pivot.1.clone()
            } else {
                Sym::int(1)
            };
            footprint.push((here, j, step, q.clone()));
        }
        Self::flat(rs, rd).coalesce_raw()
    }

    /// Checks that the leaves' digits (`footprint`) add up without a carry in every mode of
    /// `self` (flat, coalesced) but the last: sorted by step, each step at least the span
    /// (`count * step`) of the one before, and the last span at most the mode's extent; with
    /// static values, the exact condition (the largest digits add up to at most `extent - 1`).
    fn check_carries(
        &self,
        a: &SymLayout,
        b: &SymLayout,
        footprint: &[(usize, usize, Sym, Sym)],
    ) -> Result<(), LayoutError> {
        const C: &str = "composition";
        let (shape, _) = self.leaves();
        for (j, ext) in shape.iter().enumerate() {
            let mut here: Vec<(usize, Sym, Sym)> = Vec::new();
            for (leaf, mode, step, count) in footprint {
                if *mode != j {
                    continue;
                }
                let mut k = here.len();
                while k > 0 {
                    match here[k - 1].1.cmp2(step) {
                        Some(Ordering::Greater) => k -= 1,
                        Some(_) => break,
                        None => {
                            return Err(LayoutError::Undecidable {
                                op: C,
                                condition: format!(
                                    "whether the leaves of {b} overlap in mode {j} of {a} (the order of the steps {} and {step})",
                                    here[k - 1].1
                                ),
                            })
                        }
                    }
                }
                here.insert(k, (*leaf, step.clone(), count.clone()));
            }
            if here.len() < 2 {
                continue;
            }
            let nested = here.windows(2).try_fold(true, |ok, w| {
                let span = w[0].2.mul(&w[0].1)?;
                Ok::<bool, LayoutError>(
                    ok && matches!(
                        w[1].1.cmp2(&span),
                        Some(Ordering::Greater | Ordering::Equal)
                    ),
                )
            })?;
            let top = here
                .last()
                .map(|(_, g, q)| q.mul(g))
                .transpose()?
                .unwrap_or_else(|| Sym::int(0));
            if nested && matches!(top.cmp2(ext), Some(Ordering::Less | Ordering::Equal)) {
                continue;
            }
            let exact = here.iter().try_fold(Some(0i64), |acc, (_, g, q)| {
                Ok::<Option<i64>, LayoutError>(match (acc, g.as_int(), q.as_int()) {
                    (Some(a), Some(g), Some(q)) => Some(
                        (q - 1)
                            .checked_mul(g)
                            .and_then(|x| x.checked_add(a))
                            .ok_or(LayoutError::overflow(C))?,
                    ),
                    _ => None,
                })
            })?;
            match (exact, ext.as_int()) {
                (Some(sum), Some(e)) if sum < e => continue,
                (Some(sum), Some(e)) if self.merges_nowhere()? => {
                    return Err(LayoutError::NotRepresentable {
                        op: C,
                        what: format!(
                            "leaves {} and {} of {b} overlap in mode {j} of {a}: their largest digits add up to {sum}, past the extent {e} (a carry at every substitution), so A(B(i)) is not the sum of the leaves' compositions",
                            here[0].0, here[1].0
                        ),
                    })
                }
                _ => {
                    return Err(LayoutError::Undecidable {
                        op: C,
                        condition: format!(
                            "whether the leaves of {b} overlap in mode {j} (extent {ext}) of {a}"
                        ),
                    })
                }
            }
        }
        Ok(())
    }

    /// Whether no two neighbours `s_a:d_a`, `s_b:d_b` (flat) have `s_a * d_a == d_b` at any
    /// substitution of integers >= 2: the integer `coalesce` then keeps every mode.
    fn merges_nowhere(&self) -> Result<bool, LayoutError> {
        let (s, d) = self.leaves();
        for k in 1..s.len() {
            let span = s[k - 1].mul(&d[k - 1])?;
            if !matches!(span.cmp2(&d[k]), Some(Ordering::Less | Ordering::Greater)) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// PyCuTe's `make_ordered_layout`: the compact layout of `shape` whose strides increase in
    /// the order of `order` (congruent to `shape`), equal order values by position, as the
    /// integer `make_ordered_layout`; an extent-1 leaf gets stride 0.
    ///
    /// Law: at every substitution `v` of positive integers, `subs(R, v)` is the integer
    /// `make_ordered_layout(subs(shape, v), subs(order, v))` as a function. The order of every
    /// two leaves must be the same at every substitution, else the answer is refused.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] when the trees differ or an extent is not positive;
    /// [`LayoutError::Undecidable`] where the order of two order values depends on the
    /// substitution (`P` and `Q`); [`LayoutError::Overflow`].
    ///
    /// ```
    /// # use cute_layout::SymLayout;
    /// let r = SymLayout::ordered(&"(2,3,4)".parse()?, &"(2*P,0,P)".parse()?)?;
    /// assert_eq!(r.to_string(), "(2,3,4):(12,1,3)");
    /// assert!(SymLayout::ordered(&"(2,3)".parse()?, &"(P,Q)".parse()?).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn ordered(shape: &SymTuple, order: &SymTuple) -> Result<SymLayout, LayoutError> {
        let mut names = shape.symbols();
        for n in order.symbols() {
            if !names.contains(&n) {
                names.push(n);
            }
        }
        uniform("make_ordered_layout", &names, |ones| {
            Self::ordered2(&shape.with_ones(ones), &order.with_ones(ones))
        })?
        .representable()
    }

    /// [`SymLayout::ordered`] where every symbol is at least 2.
    fn ordered2(shape: &SymTuple, order: &SymTuple) -> Result<SymLayout, LayoutError> {
        const O: &str = "make_ordered_layout";
        if !shape.congruent(order) {
            return Err(LayoutError::InvalidArgument {
                op: O,
                what: format!("shape {shape} and order {order} are not congruent"),
            });
        }
        let o = order.leaves();
        // leaf j comes before leaf k (j < k) where o_j <= o_k
        Self::compact_by(shape, &[], |j, k| {
            let (first, second) = if j < k { (j, k) } else { (k, j) };
            let before = match o[first].cmp2(o[second]) {
                Some(Ordering::Greater) => false,
                Some(_) => true,
                None => {
                    return Err(LayoutError::Undecidable {
                        op: O,
                        condition: format!(
                            "the order of {} and {} in {order}",
                            o[first], o[second]
                        ),
                    })
                }
            };
            Ok(if j < k { before } else { !before })
        })
    }

    /// The compact layout of `shape` where leaf `k`'s stride is the product of the extents of
    /// the leaves `j` with `below(j, k)`; extent-1 leaves and the leaves in `zero` get stride
    /// 0 (and count for no other leaf).
    fn compact_by(
        shape: &SymTuple,
        zero: &[bool],
        below: impl Fn(usize, usize) -> Result<bool, LayoutError>,
    ) -> Result<SymLayout, LayoutError> {
        let flat: Vec<&Sym> = shape.leaves();
        let skip: Vec<bool> = flat
            .iter()
            .enumerate()
            .map(|(k, s)| **s == Sym::int(1) || zero.get(k).copied().unwrap_or(false))
            .collect();
        let mut strides = alloc::vec![Sym::int(0); flat.len()];
        for k in 0..flat.len() {
            if skip[k] {
                continue;
            }
            let mut acc = Sym::int(1);
            for j in 0..flat.len() {
                if j != k && !skip[j] && below(j, k)? {
                    acc = acc.mul(flat[j])?;
                }
            }
            strides[k] = acc;
        }
        let stride = shape.unflatten(&mut strides.into_iter());
        SymLayout::new(shape.clone(), stride)
    }

    /// The integer `make_layout_like` (CuTe C++'s, cute's integer operation): the compact
    /// layout of `L`'s shape whose strides follow the order of `L`'s strides; leaves of equal
    /// stride start at the same stride (the product of the extents of smaller strides); a
    /// stride-0 or extent-1 leaf gets stride 0.
    ///
    /// Law: at every substitution `v` of positive integers, `subs(R, v)` is the integer
    /// `make_layout_like(subs(L, v))` as a function (the same shape and values). The order of
    /// every two strides must be the same at every substitution, else the answer is refused.
    ///
    /// # Errors
    /// [`LayoutError::Undecidable`] where the order of two strides depends on the substitution
    /// (`X` and `Y`, or `N` and `2` where `N = 2` ties); [`LayoutError::Overflow`].
    ///
    /// ```
    /// # use cute_layout::SymLayout;
    /// let l: SymLayout = "(2,N,4):(1,4*X,2)".parse()?;
    /// assert_eq!(l.layout_like()?.to_string(), "(2,N,4):(1,8,2)");
    /// let l: SymLayout = "(2,2):(2*N,N)".parse()?;
    /// assert_eq!(l.layout_like()?.to_string(), "(2,2):(2,1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn layout_like(&self) -> Result<SymLayout, LayoutError> {
        uniform("make_layout_like", &self.symbols(), |ones| {
            self.with_ones(ones).layout_like2()
        })?
        .representable()
    }

    /// [`SymLayout::layout_like`] where every symbol is at least 2.
    fn layout_like2(&self) -> Result<SymLayout, LayoutError> {
        let d = self.stride.leaves();
        let zero: Vec<bool> = d.iter().map(|x| x.coef() == 0).collect();
        Self::compact_by(&self.shape, &zero, |j, k| match d[j].cmp2(d[k]) {
            Some(o) => Ok(o == Ordering::Less),
            None => Err(LayoutError::Undecidable {
                op: "make_layout_like",
                condition: format!("the order of the strides {} and {} of {self}", d[j], d[k]),
            }),
        })
    }
}

/// CuTe's exchange sort of the inverses (`for i, for j > i: if d_j < d_i swap`), as indices,
/// where every comparison it makes is the same at every substitution.
fn exchange_order(d: &[Sym], l: &SymLayout) -> Result<Vec<usize>, LayoutError> {
    let mut v: Vec<usize> = (0..d.len()).collect();
    for i in 0..v.len() {
        for j in i + 1..v.len() {
            match d[v[j]].cmp2(&d[v[i]]) {
                Some(Ordering::Less) => v.swap(i, j),
                Some(_) => {}
                None => {
                    return Err(LayoutError::Undecidable {
                        op: "right_inverse",
                        condition: format!(
                            "the order of the strides {} and {} of {l}",
                            d[v[j]], d[v[i]]
                        ),
                    })
                }
            }
        }
    }
    Ok(v)
}

/// Most symbols a symbolic operation splits on (it evaluates once per subset of them).
pub const MAX_SPLIT_SYMBOLS: usize = 10;

/// The answer of `f` (computed where every symbol is at least 2) when it is the answer at
/// every substitution of positive integers: `f` again with each subset of `names` put to 1
/// must give the same function (equal normal forms), else [`LayoutError::Undecidable`].
fn uniform(
    op: &'static str,
    names: &[String],
    f: impl Fn(&[String]) -> Result<SymLayout, LayoutError>,
) -> Result<SymLayout, LayoutError> {
    let subsets = || {
        (1u32..(1u32 << names.len().min(MAX_SPLIT_SYMBOLS))).map(|mask| {
            names
                .iter()
                .enumerate()
                .filter(|(k, _)| mask >> k & 1 == 1)
                .map(|(_, n)| n.clone())
                .collect::<Vec<String>>()
        })
    };
    let main = match f(&[]) {
        Ok(main) => main,
        Err(e) if e.kind() == "Undecidable" => return Err(e),
        Err(e) => {
            // a refusal where every symbol is at least 2 holds only if it holds at 1 too
            if names.len() <= MAX_SPLIT_SYMBOLS {
                let answers = |ones: &Vec<String>| match f(ones) {
                    Ok(_) => true,
                    Err(e) => e.kind() == "Undecidable",
                };
                if let Some(ones) = subsets().find(answers) {
                    return Err(LayoutError::Undecidable {
                        op,
                        condition: format!(
                            "the answer at {} = 1, where the refusal elsewhere may not hold ({e})",
                            ones.join(" = ")
                        ),
                    });
                }
            }
            return Err(e);
        }
    };
    if names.len() > MAX_SPLIT_SYMBOLS {
        return Err(LayoutError::Undecidable {
            op,
            condition: format!(
                "the answer where some of the {} symbols are 1 (at most {MAX_SPLIT_SYMBOLS} symbols are checked)",
                names.len()
            ),
        });
    }
    for ones in subsets() {
        let which = ones.join(" = ");
        let there = f(&ones).map_err(|e| LayoutError::Undecidable {
            op,
            condition: match e {
                LayoutError::Undecidable { condition, .. } => {
                    format!("the answer at {which} = 1 (there, {condition})")
                }
                e => format!("the answer at {which} = 1 (there, {e})"),
            },
        })?;
        if main.with_ones(&ones).normal()? != there.normal()? {
            return Err(LayoutError::Undecidable {
                op,
                condition: format!(
                    "one answer for every {which}: {there} at {which} = 1, {main} elsewhere"
                ),
            });
        }
    }
    Ok(main)
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
