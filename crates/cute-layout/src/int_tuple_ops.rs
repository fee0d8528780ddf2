//! CuTe's int-tuple arithmetic that pycute also exposes: `shape_div`, the plain exclusive
//! `prefix_product` and `inner_product`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::LayoutError;
use crate::int_tuple::IntTuple;

fn invalid(op: &'static str, what: String) -> LayoutError {
    LayoutError::InvalidArgument { op, what }
}

impl IntTuple {
    /// CuTe's `shape_div(a, b)`: `a` with `b` elements divided out, mode by mode. Integer by
    /// integer: `a / b`, or `signum(a * b)` when `b` is a multiple of `a` larger than it (one of
    /// the two must divide the other); a tuple by an integer: each mode divided by what is left of
    /// `b` after the modes before it; a tuple by a tuple: element by element (same rank); an
    /// integer by a tuple: by the tuple's size.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] when two integers divide neither way, a divisor is 0, or
    /// two tuples differ in rank; [`LayoutError::Overflow`] on overflow.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let a: IntTuple = "((3,4),6)".parse()?;
    /// assert_eq!(a.shape_div(&IntTuple::int(36))?.to_string(), "((1,1),2)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn shape_div(&self, b: &IntTuple) -> Result<IntTuple, LayoutError> {
        match (self.as_int(), b.as_int()) {
            (Some(x), Some(y)) => Ok(IntTuple::int(int_div(x, y)?)),
            (Some(_), None) => self.shape_div(&IntTuple::int(b.size()?)),
            (None, None) => {
                if self.rank() != b.rank() {
                    return Err(invalid(
                        "shape_div",
                        format!("{self} and {b} differ in rank"),
                    ));
                }
                IntTuple::tuple(
                    self.elements()
                        .zip(b.elements())
                        .map(|(x, y)| x.shape_div(&y))
                        .collect::<Result<Vec<_>, _>>()?,
                )
            }
            (None, Some(mut rest)) => {
                let mut out = Vec::with_capacity(self.rank());
                for e in self.elements() {
                    out.push(e.shape_div(&IntTuple::int(rest))?);
                    rest = int_div(rest, e.size()?)?;
                }
                IntTuple::tuple(out)
            }
        }
    }

    /// The exclusive prefix products of the leaves, times `init`, in the same tree (pycute's and
    /// CuTe's `prefix_product`; unlike [`Layout::col_major`](crate::Layout::col_major), an
    /// extent-1 leaf keeps its product rather than stride 0).
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] on overflow.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let a: IntTuple = "((2,3),(2,1,2))".parse()?;
    /// assert_eq!(a.prefix_products(1)?.to_string(), "((1,2),(6,12,12))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prefix_products(&self, init: i64) -> Result<IntTuple, LayoutError> {
        let mut out = self.clone();
        let mut acc = init;
        for (o, &v) in out.leaves.iter_mut().zip(self.leaves.iter()) {
            *o = acc;
            acc = acc
                .checked_mul(v)
                .ok_or_else(|| LayoutError::overflow("prefix_product"))?;
        }
        Ok(out)
    }

    /// The sum of the products of corresponding leaves of two congruent tuples (CuTe's
    /// `inner_product`).
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if the two are not congruent; [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let (a, b): (IntTuple, IntTuple) = ("((2,3),4)".parse()?, "((2,1),2)".parse()?);
    /// assert_eq!(a.inner_product(&b)?, 15);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn inner_product(&self, other: &IntTuple) -> Result<i64, LayoutError> {
        if !self.congruent(other) {
            return Err(invalid(
                "inner_product",
                format!("{self} and {other} are not congruent"),
            ));
        }
        self.leaves
            .iter()
            .zip(other.leaves.iter())
            .try_fold(0i64, |acc, (&x, &y)| {
                x.checked_mul(y).and_then(|p| acc.checked_add(p))
            })
            .ok_or_else(|| LayoutError::overflow("inner_product"))
    }
}

/// `shape_div` of two integers (CuTe: one must divide the other).
fn int_div(a: i64, b: i64) -> Result<i64, LayoutError> {
    if a == 0 || b == 0 {
        return Err(invalid("shape_div", format!("cannot divide {a} by {b}")));
    }
    if a % b != 0 && b % a != 0 {
        return Err(invalid(
            "shape_div",
            format!("{a} and {b} divide neither way"),
        ));
    }
    let q = a / b;
    Ok(if q != 0 { q } else { a.signum() * b.signum() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> IntTuple {
        s.parse().unwrap()
    }

    #[test]
    fn shape_div_as_cute() {
        for (a, b, r) in [
            ("(3,4)", "6", "(1,2)"),
            ("(3,4)", "12", "(1,1)"),
            ("(3,4)", "36", "(1,1)"),
            ("((3,4),6)", "36", "((1,1),2)"),
            ("(6,(3,4))", "36", "(1,(1,2))"),
            ("8", "2", "4"),
            ("2", "8", "1"),
            ("(8,4)", "(2,4)", "(4,1)"),
            ("12", "(2,3)", "2"),
        ] {
            assert_eq!(t(a).shape_div(&t(b)).unwrap().to_string(), r, "{a} / {b}");
        }
        assert!(t("3").shape_div(&t("2")).is_err());
        assert!(t("3").shape_div(&t("0")).is_err());
        assert!(t("(2,2)").shape_div(&t("(2,2,2)")).is_err());
    }

    #[test]
    fn prefix_and_inner_products() {
        assert_eq!(t("2").prefix_products(1).unwrap().to_string(), "1");
        assert_eq!(
            t("((2,3),(2,1,2),(5,2,1))")
                .prefix_products(1)
                .unwrap()
                .to_string(),
            "((1,2),(6,12,12),(24,120,240))"
        );
        assert_eq!(t("(3,2)").prefix_products(2).unwrap().to_string(), "(2,6)");
        assert_eq!(t("2").inner_product(&t("3")).unwrap(), 6);
        assert_eq!(t("(1,2)").inner_product(&t("(3,2)")).unwrap(), 7);
        assert!(t("(1,2)").inner_product(&t("3")).is_err());
        assert!(t("(4611686018427387904,2)")
            .inner_product(&t("(2,1)"))
            .is_err());
    }
}
