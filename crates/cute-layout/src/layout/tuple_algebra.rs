//! CuTe's IntTuple toolkit on tuples (`int_tuple.hpp`, `tuple_algorithms.hpp`): `shape_div`,
//! `shape_mod`, `ceil_div`, `round_up`, `elem_scale`, `inner_product`, `sum`, `product_each`,
//! `max`/`min` of a tuple, `safe_div`, `unflatten`, `slice` and `dice` of a tuple, the
//! lexicographic, colexicographic and elementwise orders, `get` at a path.
//!
//! `shape_mod` is not CuTe C++'s (it is in CuTe's documentation, pycute-style tools and
//! tensor-layouts); everything else follows CuTe C++'s definitions with dynamic integers (no
//! static divisibility asserts, except where said).

use alloc::vec::Vec;

use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::slice::{Slice, SliceCoord};

/// An integer tuple as a tree, for the recursive definitions.
enum T {
    I(i64),
    Tup(Vec<T>),
}

fn tree(t: &IntTuple) -> T {
    match t.as_int() {
        Some(v) if t.is_int() => T::I(v),
        _ => T::Tup(t.elements().map(|e| tree(&e)).collect()),
    }
}

fn build(t: &T) -> Result<IntTuple, LayoutError> {
    match t {
        T::I(v) => Ok(IntTuple::int(*v)),
        T::Tup(v) => IntTuple::tuple(v.iter().map(build).collect::<Result<Vec<_>, _>>()?),
    }
}

fn ovf(op: &'static str) -> LayoutError {
    LayoutError::overflow(op)
}

fn invalid(op: &'static str, what: alloc::string::String) -> LayoutError {
    LayoutError::InvalidArgument { op, what }
}

fn product(t: &T, op: &'static str) -> Result<i64, LayoutError> {
    match t {
        T::I(v) => Ok(*v),
        T::Tup(v) => v.iter().try_fold(1i64, |acc, e| {
            acc.checked_mul(product(e, op)?).ok_or(ovf(op))
        }),
    }
}

/// `ceil(a / b)` for `b > 0`, checked.
fn ceil_div_int(op: &'static str, a: i64, b: i64) -> Result<i64, LayoutError> {
    if b <= 0 {
        return Err(invalid(op, alloc::format!("divisor {b} is not positive")));
    }
    Ok(a.div_euclid(b) + i64::from(a.rem_euclid(b) != 0))
}

/// The tuple/integer recursion shared by `shape_div`, `ceil_div` and `shape_mod`: elementwise
/// for two tuples, a fold of the integer through the elements for a tuple and an integer, the
/// product of the tuple for an integer and a tuple.
fn fold_div(
    op: &'static str,
    a: &T,
    b: &T,
    pad: bool,
    int: &dyn Fn(i64, i64) -> Result<i64, LayoutError>,
) -> Result<T, LayoutError> {
    match (a, b) {
        (T::Tup(x), T::Tup(y)) => {
            if y.len() > x.len() || (!pad && y.len() != x.len()) {
                return Err(invalid(
                    op,
                    alloc::format!("ranks {} and {} differ", x.len(), y.len()),
                ));
            }
            let one = T::I(1);
            x.iter()
                .enumerate()
                .map(|(k, xi)| fold_div(op, xi, y.get(k).unwrap_or(&one), pad, int))
                .collect::<Result<Vec<_>, _>>()
                .map(T::Tup)
        }
        (T::Tup(x), T::I(bv)) => {
            let mut rest = *bv;
            let mut out = Vec::with_capacity(x.len());
            for xi in x {
                out.push(fold_div(op, xi, &T::I(rest), pad, int)?);
                rest = ceil_div_int(op, rest, product(xi, op)?)?;
            }
            Ok(T::Tup(out))
        }
        (T::I(av), T::Tup(_)) => Ok(T::I(int(*av, product(b, op)?)?)),
        (T::I(av), T::I(bv)) => Ok(T::I(int(*av, *bv)?)),
    }
}

impl IntTuple {
    /// CuTe `shape_div(a, b)`: elementwise for two tuples; for a tuple and an integer the integer
    /// is divided out of the elements left to right (`shape_div((4,5,6),40) = (1,1,3)`); for an
    /// integer and a tuple, the tuple's product; for integers `ceil(a / b)` under CuTe's
    /// divisibility condition (`a % b == 0` or `b % a == 0`, which CuTe asserts for static
    /// integers and pycute always).
    ///
    /// # Laws
    /// * `size(shape_div(a, b)) * b == size(a)` when `b` divides `size(a)`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] for a divisor below 1, two integers that violate the
    /// divisibility condition, or tuples of different ranks.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let t = |s: &str| s.parse::<IntTuple>().unwrap();
    /// assert_eq!(t("(4,5,6)").shape_div(&t("40"))?.to_string(), "(1,1,3)");
    /// assert_eq!(t("(3,4)").shape_div(&t("6"))?.to_string(), "(1,2)");
    /// assert_eq!(t("(6,2)").shape_div(&t("2"))?.to_string(), "(3,2)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn shape_div(&self, b: &IntTuple) -> Result<IntTuple, LayoutError> {
        let op = "shape_div";
        build(&fold_div(op, &tree(self), &tree(b), false, &|x, y| {
            if x > 0 && y > 0 && x % y != 0 && y % x != 0 {
                return Err(invalid(
                    op,
                    alloc::format!("{x} and {y}: neither divides the other"),
                ));
            }
            ceil_div_int(op, x, y)
        })?)
    }

    /// CuTe `ceil_div(a, b)`: as [`IntTuple::shape_div`], but a shorter tuple `b` is padded
    /// with 1s.
    ///
    /// # Errors
    /// As [`IntTuple::shape_div`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let t = |s: &str| s.parse::<IntTuple>().unwrap();
    /// assert_eq!(t("(10,7)").ceil_div(&t("(4,2)"))?.to_string(), "(3,4)");
    /// assert_eq!(t("(10,7)").ceil_div(&t("(4)"))?.to_string(), "(3,7)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn ceil_div(&self, b: &IntTuple) -> Result<IntTuple, LayoutError> {
        let op = "ceil_div";
        build(&fold_div(op, &tree(self), &tree(b), true, &|x, y| {
            ceil_div_int(op, x, y)
        })?)
    }

    /// `shape_mod(a, b)` (CuTe's documentation; not in CuTe C++): the shape of the first `b`
    /// elements of `a`, the integer folded through the elements as in `shape_div`; for integers
    /// `min(a, b)` under the divisibility condition (`a % b == 0` or `b % a == 0`).
    ///
    /// # Laws
    /// * `size(shape_mod(a, b)) * size(shape_div(a, b)) == size(a)` when `b` divides along `a`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] when two integers violate the divisibility condition or a
    /// divisor is below 1.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let t = |s: &str| s.parse::<IntTuple>().unwrap();
    /// assert_eq!(t("(6,2)").shape_mod(&t("2"))?.to_string(), "(2,1)");
    /// assert_eq!(t("(3,6,2,8)").shape_mod(&t("9"))?.to_string(), "(3,3,1,1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn shape_mod(&self, b: &IntTuple) -> Result<IntTuple, LayoutError> {
        let op = "shape_mod";
        build(&fold_div(op, &tree(self), &tree(b), false, &|x, y| {
            if x <= 0 || y <= 0 {
                return Err(invalid(op, alloc::format!("{x} and {y} must be positive")));
            }
            if x % y == 0 || y % x == 0 {
                Ok(x.min(y))
            } else {
                Err(invalid(
                    op,
                    alloc::format!("{x} and {y}: neither divides the other"),
                ))
            }
        })?)
    }

    /// CuTe `round_up(a, b)`: each element rounded up to a multiple of `b`'s (elementwise for
    /// tuples, a shorter `b` padded with 1s).
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] for a divisor below 1 or a longer `b`;
    /// [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let t = |s: &str| s.parse::<IntTuple>().unwrap();
    /// assert_eq!(t("(10,7)").round_up(&t("(4,2)"))?.to_string(), "(12,8)");
    /// assert_eq!(t("1").round_up(&t("4"))?.to_string(), "4");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn round_up(&self, b: &IntTuple) -> Result<IntTuple, LayoutError> {
        fn go(a: &T, b: &T) -> Result<T, LayoutError> {
            let op = "round_up";
            match (a, b) {
                (T::Tup(x), T::Tup(y)) if y.len() <= x.len() => {
                    let one = T::I(1);
                    x.iter()
                        .enumerate()
                        .map(|(k, xi)| go(xi, y.get(k).unwrap_or(&one)))
                        .collect::<Result<Vec<_>, _>>()
                        .map(T::Tup)
                }
                (T::I(x), T::I(y)) => ceil_div_int(op, *x, *y)?
                    .checked_mul(*y)
                    .map(T::I)
                    .ok_or(ovf(op)),
                _ => Err(invalid(op, "arguments of different profiles".into())),
            }
        }
        build(&go(&tree(self), &tree(b))?)
    }

    /// CuTe `elem_scale(a, b)`: `a` scaled by `b` element by element; an integer `a` is
    /// multiplied by the product of `b`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if a tuple `a` meets a `b` of another rank or an integer;
    /// [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let t = |s: &str| s.parse::<IntTuple>().unwrap();
    /// assert_eq!(t("(2,3)").elem_scale(&t("(4,5)"))?.to_string(), "(8,15)");
    /// assert_eq!(t("2").elem_scale(&t("(3,4)"))?.to_string(), "24");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn elem_scale(&self, b: &IntTuple) -> Result<IntTuple, LayoutError> {
        fn go(a: &T, b: &T) -> Result<T, LayoutError> {
            let op = "elem_scale";
            match (a, b) {
                (T::Tup(x), T::Tup(y)) if x.len() == y.len() => x
                    .iter()
                    .zip(y)
                    .map(|(p, q)| go(p, q))
                    .collect::<Result<Vec<_>, _>>()
                    .map(T::Tup),
                (T::I(x), _) => x.checked_mul(product(b, op)?).map(T::I).ok_or(ovf(op)),
                _ => Err(invalid(
                    op,
                    "a tuple scaled by a tuple of another rank".into(),
                )),
            }
        }
        build(&go(&tree(self), &tree(b))?)
    }

    /// CuTe `inner_product(a, b)`: the sum of the products of congruent leaves.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if the tuples are not congruent;
    /// [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let t = |s: &str| s.parse::<IntTuple>().unwrap();
    /// assert_eq!(t("(1,(2,3))").inner_product(&t("(4,(5,6))"))?, 32);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn inner_product(&self, b: &IntTuple) -> Result<i64, LayoutError> {
        if !self.congruent(b) {
            return Err(invalid(
                "inner_product",
                alloc::format!("{self} and {b} are not congruent"),
            ));
        }
        self.leaves()
            .iter()
            .zip(b.leaves())
            .try_fold(0i64, |acc, (x, y)| {
                x.checked_mul(*y).and_then(|p| acc.checked_add(p))
            })
            .ok_or(ovf("inner_product"))
    }

    /// CuTe `sum(a)`: the sum of the leaves.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// assert_eq!("(1,(2,3))".parse::<IntTuple>()?.sum()?, 6);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn sum(&self) -> Result<i64, LayoutError> {
        self.leaves()
            .iter()
            .try_fold(0i64, |acc, x| acc.checked_add(*x))
            .ok_or(ovf("sum"))
    }

    /// CuTe `product_each(a)`: the product of each top-level element (an integer is wrapped:
    /// `product_each(16) = (16)`).
    ///
    /// # Errors
    /// [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let t = |s: &str| s.parse::<IntTuple>().unwrap();
    /// assert_eq!(t("((2,3),(4,5))").product_each()?.to_string(), "(6,20)");
    /// assert_eq!(t("16").product_each()?.to_string(), "(16)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn product_each(&self) -> Result<IntTuple, LayoutError> {
        if self.is_int() {
            return IntTuple::tuple([self.clone()]);
        }
        IntTuple::tuple(
            self.elements()
                .map(|e| e.size().map(IntTuple::int))
                .collect::<Result<Vec<_>, _>>()?,
        )
    }

    /// CuTe `max(a)` of a tuple: the largest leaf (`None` for the empty tuple).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// assert_eq!("((1,9),(4,2))".parse::<IntTuple>()?.tuple_max(), Some(9));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tuple_max(&self) -> Option<i64> {
        self.leaves().iter().copied().max()
    }

    /// CuTe `min(a)` of a tuple: the smallest leaf (`None` for the empty tuple).
    pub fn tuple_min(&self) -> Option<i64> {
        self.leaves().iter().copied().min()
    }

    /// CuTe `unflatten(flat, profile)`: the leaves of `self` (a flat tuple, or any tuple read
    /// leaf by leaf) regrouped as `profile`'s tree.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if the leaf counts differ.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let t = |s: &str| s.parse::<IntTuple>().unwrap();
    /// assert_eq!(t("(1,2,3,4,5)").unflatten(&t("((0,0),(0,0,0))"))?.to_string(), "((1,2),(3,4,5))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn unflatten(&self, profile: &IntTuple) -> Result<IntTuple, LayoutError> {
        if self.leaves().len() != profile.leaves().len() {
            return Err(invalid(
                "unflatten",
                alloc::format!(
                    "{self} has {} leaves, the profile {profile} {}",
                    self.leaves().len(),
                    profile.leaves().len()
                ),
            ));
        }
        let mut it = self.leaves().iter();
        fn go(p: &T, it: &mut core::slice::Iter<'_, i64>) -> T {
            match p {
                T::I(_) => T::I(*it.next().unwrap_or(&0)),
                T::Tup(v) => T::Tup(v.iter().map(|e| go(e, it)).collect()),
            }
        }
        build(&go(&tree(profile), &mut it))
    }

    /// The element at a hierarchical path (CuTe `get<I...>`); an empty path is the tuple itself.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let t: IntTuple = "(1,2,(3,4),5)".parse()?;
    /// assert_eq!(t.get_at(&[2, 1]).unwrap().to_string(), "4");
    /// assert!(t.get_at(&[4]).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn get_at(&self, path: &[usize]) -> Option<IntTuple> {
        let mut cur = self.clone();
        for &i in path {
            if cur.is_int() && i == 0 {
                continue;
            }
            if cur.is_int() || i >= cur.rank() {
                return None;
            }
            cur = cur.get(i)?;
        }
        Some(cur)
    }

    /// CuTe `slice(c, a)` of a tuple: the elements where `c` has `_`, concatenated at every
    /// level (`slice((_,0),(3,4)) = (3)`); `slice(_, a) = a` and `slice(0, a) = ()`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if a tuple in `c` meets an integer or a tuple of another
    /// rank.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let t: IntTuple = "(3,4)".parse()?;
    /// assert_eq!(t.slice_tuple(&"(_,0)".parse()?)?.to_string(), "(3)");
    /// assert_eq!(t.slice_tuple(&"(0,0)".parse()?)?.to_string(), "()");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn slice_tuple(&self, c: &SliceCoord) -> Result<IntTuple, LayoutError> {
        match c.as_leaf() {
            Some(Slice::All) => return Ok(self.clone()),
            Some(Slice::At(_)) => return IntTuple::tuple([]),
            None => {}
        }
        let mut out = Vec::new();
        keep(self, c, true, "slice", &mut out)?;
        IntTuple::tuple(out)
    }

    /// CuTe `dice(c, a)` of a tuple: the elements where `c` has an integer, concatenated at
    /// every level (`dice((0,_),(3,4)) = (3)`); `dice(0, a) = a` and `dice(_, a) = ()`.
    ///
    /// # Errors
    /// As [`IntTuple::slice_tuple`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let t: IntTuple = "(3,4)".parse()?;
    /// assert_eq!(t.dice_tuple(&"(0,_)".parse()?)?.to_string(), "(3)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn dice_tuple(&self, c: &SliceCoord) -> Result<IntTuple, LayoutError> {
        match c.as_leaf() {
            Some(Slice::All) => return IntTuple::tuple([]),
            Some(Slice::At(_)) => return Ok(self.clone()),
            None => {}
        }
        let mut out = Vec::new();
        keep(self, c, false, "dice", &mut out)?;
        IntTuple::tuple(out)
    }
}

/// Appends the elements of `a` that `c` keeps: where it has `_` (`wild`), or an integer.
fn keep(
    a: &IntTuple,
    c: &SliceCoord,
    wild: bool,
    op: &'static str,
    out: &mut Vec<IntTuple>,
) -> Result<(), LayoutError> {
    match c.as_leaf() {
        Some(Slice::All) => {
            if wild {
                out.push(a.clone());
            }
            Ok(())
        }
        Some(Slice::At(_)) => {
            if !wild {
                out.push(a.clone());
            }
            Ok(())
        }
        None => {
            let cs: Vec<SliceCoord> = c.elements().collect();
            if a.is_int() || cs.len() != a.rank() {
                return Err(invalid(
                    op,
                    alloc::format!("the coordinate's rank {} does not match {a}", cs.len()),
                ));
            }
            for (ai, ci) in a.elements().zip(cs.iter()) {
                keep(&ai, ci, wild, op, out)?;
            }
            Ok(())
        }
    }
}

/// CuTe's orders on coordinates (`lex_less`, `colex_less`, `elem_less`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoordOrder {
    /// Lexicographic: the first elements decide.
    Lex,
    /// Colexicographic: the last elements decide.
    Colex,
    /// Elementwise: every element less.
    Elem,
}

/// CuTe `lex_less(a, b)`, `colex_less(a, b)`, `elem_less(a, b)`: integers compare with `<`;
/// tuples element by element (recursively), a shorter tuple being less when the common part is
/// equal (lex, colex); elementwise needs every element of `a` less than `b`'s (an `a` that runs
/// out first is less, a `b` that runs out first is not). Mixed integer/tuple pairs compare as
/// CuTe does: `a < b` on integers only, so an integer against a tuple is an error.
///
/// # Errors
/// [`LayoutError::InvalidArgument`] when an integer meets a tuple.
///
/// # Examples
/// ```
/// # use cute_layout::{layout::coord_less, CoordOrder, IntTuple};
/// let t = |s: &str| s.parse::<IntTuple>().unwrap();
/// assert!(coord_less(CoordOrder::Lex, &t("(1,5)"), &t("(2,0)"))?);
/// assert!(!coord_less(CoordOrder::Colex, &t("(1,5)"), &t("(2,0)"))?);
/// assert!(coord_less(CoordOrder::Elem, &t("(1,0)"), &t("(2,1)"))?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn coord_less(order: CoordOrder, a: &IntTuple, b: &IntTuple) -> Result<bool, LayoutError> {
    fn go(order: CoordOrder, a: &T, b: &T) -> Result<bool, LayoutError> {
        match (a, b) {
            (T::I(x), T::I(y)) => Ok(x < y),
            (T::Tup(x), T::Tup(y)) => match order {
                CoordOrder::Elem => {
                    for (k, xi) in x.iter().enumerate() {
                        match y.get(k) {
                            None => return Ok(false),
                            Some(yi) => {
                                if !go(order, xi, yi)? {
                                    return Ok(false);
                                }
                            }
                        }
                    }
                    Ok(true)
                }
                CoordOrder::Lex | CoordOrder::Colex => {
                    let n = x.len().min(y.len());
                    for k in 0..n {
                        let (xi, yi) = if order == CoordOrder::Lex {
                            (&x[k], &y[k])
                        } else {
                            (&x[x.len() - 1 - k], &y[y.len() - 1 - k])
                        };
                        if go(order, xi, yi)? {
                            return Ok(true);
                        }
                        if !equal(xi, yi) {
                            return Ok(false);
                        }
                    }
                    Ok(x.len() < y.len())
                }
            },
            _ => Err(invalid(
                "coord_less",
                "an integer compared with a tuple".into(),
            )),
        }
    }
    fn equal(a: &T, b: &T) -> bool {
        match (a, b) {
            (T::I(x), T::I(y)) => x == y,
            (T::Tup(x), T::Tup(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal(p, q))
            }
            _ => false,
        }
    }
    go(order, &tree(a), &tree(b))
}

/// CuTe `safe_div(a, b)`: `a / b` where `b` divides `a` (CuTe's precondition, checked here).
///
/// # Errors
/// [`LayoutError::InvalidArgument`] if `b` is 0 or does not divide `a`.
///
/// # Examples
/// ```
/// assert_eq!(cute_layout::layout::safe_div(12, 4)?, 3);
/// assert!(cute_layout::layout::safe_div(12, 5).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn safe_div(a: i64, b: i64) -> Result<i64, LayoutError> {
    if b == 0 || a.checked_rem(b) != Some(0) {
        return Err(invalid(
            "safe_div",
            alloc::format!("{b} does not divide {a}"),
        ));
    }
    a.checked_div(b).ok_or(ovf("safe_div"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn t(s: &str) -> IntTuple {
        s.parse().unwrap()
    }

    /// Laws over a small domain: for every shape of up to three extents in 1..=8 and every
    /// divisor that divides along it, size(shape_div) * b == size and
    /// size(shape_mod) * size(shape_div) == size; ceil_div agrees with shape_div on integers.
    #[test]
    fn div_mod_laws_small_domain() {
        for a0 in 1..=8i64 {
            for a1 in 1..=8i64 {
                let a = IntTuple::flat([a0, a1]);
                let n = a0 * a1;
                for b in 1..=n {
                    if n % b != 0 {
                        continue;
                    }
                    let bt = IntTuple::int(b);
                    let d = a.shape_div(&bt);
                    let divides_along = (a0 % b == 0 || b % a0 == 0)
                        && (b <= a0 || {
                            let r = b / a0;
                            a1 % r == 0 || r % a1 == 0
                        });
                    if divides_along {
                        let d = d.unwrap();
                        assert_eq!(d.size().unwrap() * b, n, "{a} / {b}");
                        let m = a.shape_mod(&bt).unwrap();
                        assert_eq!(m.size().unwrap() * d.size().unwrap(), n, "{a} % {b}");
                    }
                    if a0 % b == 0 || b % a0 == 0 {
                        assert_eq!(
                            IntTuple::int(a0).ceil_div(&bt).unwrap(),
                            IntTuple::int(a0).shape_div(&bt).unwrap()
                        );
                    } else {
                        assert!(IntTuple::int(a0).shape_div(&bt).is_err());
                    }
                }
            }
        }
    }

    #[test]
    fn toolkit_examples() {
        assert_eq!(t("(6,2)").shape_mod(&t("12")).unwrap().to_string(), "(6,2)");
        assert_eq!(
            t("(3,6,2,8)").shape_mod(&t("6")).unwrap().to_string(),
            "(3,2,1,1)"
        );
        assert!(t("6").shape_mod(&t("4")).is_err());
        assert!(t("(3,4)").shape_div(&t("0")).is_err());
        assert_eq!(t("(3,(2,4))").product_each().unwrap().to_string(), "(3,8)");
        assert_eq!(
            t("(2,3,5,7)")
                .unflatten(&t("((0,0),(0,0))"))
                .unwrap()
                .to_string(),
            "((2,3),(5,7))"
        );
        assert!(t("(1,2)").unflatten(&t("(0,0,0)")).is_err());
        assert_eq!(
            t("4")
                .slice_tuple(&"_".parse().unwrap())
                .unwrap()
                .to_string(),
            "4"
        );
        assert_eq!(
            t("4")
                .slice_tuple(&"0".parse().unwrap())
                .unwrap()
                .to_string(),
            "()"
        );
        assert_eq!(
            t("4")
                .dice_tuple(&"0".parse().unwrap())
                .unwrap()
                .to_string(),
            "4"
        );
        assert_eq!(safe_div(0, 5).unwrap(), 0);
        assert!(safe_div(12, 0).is_err());
        assert_eq!(t("()").tuple_max(), None);
        assert!(coord_less(CoordOrder::Lex, &t("(1,2)"), &t("(1,2,0)")).unwrap());
        assert!(!coord_less(CoordOrder::Lex, &t("(1,2)"), &t("(1,2)")).unwrap());
        assert!(coord_less(CoordOrder::Lex, &t("1"), &t("(1,2)")).is_err());
    }

    /// Law: lex_less and colex_less are strict total orders on the coordinates of a shape, and
    /// colex order is the order of idx2crd (the 1-D index).
    #[test]
    fn colex_is_index_order() {
        let shape = t("(3,(2,2))");
        let n = shape.size().unwrap();
        let crds: Vec<IntTuple> = (0..n)
            .map(|i| shape.idx2crd(&IntTuple::int(i)).unwrap())
            .collect();
        for i in 0..n as usize {
            for j in 0..n as usize {
                let c = coord_less(CoordOrder::Colex, &crds[i], &crds[j]).unwrap();
                assert_eq!(c, i < j, "{} {}", crds[i], crds[j]);
                let l = coord_less(CoordOrder::Lex, &crds[i], &crds[j]).unwrap();
                let l2 = coord_less(CoordOrder::Lex, &crds[j], &crds[i]).unwrap();
                assert_eq!(l || l2, i != j);
            }
        }
    }
}
