//! CuTe's int-tuple arithmetic that pycute also exposes (`shape_div`, the plain exclusive
//! `prefix_product`, `inner_product`), and a token-level builder and walk of int tuples for
//! front ends that convert nested values of another language (the Python package) without
//! intermediate tuples or text.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::LayoutError;
use crate::int_tuple::IntTuple;
use crate::tree::{Leaves, Tok, Toks};

/// One step of an int tuple written out in order: `(` , an integer, or `)`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TupleToken {
    /// Start of a tuple.
    Open,
    /// An integer.
    Int(i64),
    /// End of a tuple.
    Close,
}

/// Builds an [`IntTuple`] from its tokens in order (`(`, integers, `)`), checking the structure
/// at [`finish`](Self::finish).
///
/// ```
/// # use cute_layout::IntTupleBuilder;
/// let mut b = IntTupleBuilder::new();
/// b.open();
/// b.int(2);
/// b.open();
/// b.int(3);
/// b.int(4);
/// b.close();
/// b.close();
/// assert_eq!(b.finish()?.to_string(), "(2,(3,4))");
/// # Ok::<(), cute_layout::LayoutError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct IntTupleBuilder {
    toks: Toks,
    leaves: Leaves<i64>,
    depth: usize,
    roots: usize,
}

impl IntTupleBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a tuple.
    #[inline]
    pub fn open(&mut self) {
        if self.depth == 0 {
            self.roots += 1;
        }
        self.depth += 1;
        self.toks.push(Tok::Open);
    }

    /// Ends the innermost open tuple (an unmatched close is reported by `finish`).
    #[inline]
    pub fn close(&mut self) {
        if self.depth == 0 {
            self.roots += 2; // unbalanced: finish fails
        } else {
            self.depth -= 1;
        }
        self.toks.push(Tok::Close);
    }

    /// Adds an integer.
    #[inline]
    pub fn int(&mut self, v: i64) {
        if self.depth == 0 {
            self.roots += 1;
        }
        self.toks.push(Tok::Leaf);
        self.leaves.push(v);
    }

    /// The tuple.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] unless the tokens form exactly one integer or balanced
    /// tuple; [`LayoutError::TooDeep`] / [`LayoutError::TooLarge`] past the library's limits.
    pub fn finish(self) -> Result<IntTuple, LayoutError> {
        if self.depth != 0 || self.roots != 1 {
            return Err(LayoutError::InvalidArgument {
                op: "int_tuple",
                what: String::from("tokens do not form one integer or balanced tuple"),
            });
        }
        IntTuple::from_parts(self.toks, self.leaves)
    }
}

fn invalid(op: &'static str, what: String) -> LayoutError {
    LayoutError::InvalidArgument { op, what }
}

impl IntTuple {
    /// The tuple written out as tokens, in order: `(`, integers, `)`.
    ///
    /// ```
    /// # use cute_layout::{IntTuple, TupleToken::*};
    /// let t: IntTuple = "(2,(3))".parse()?;
    /// assert_eq!(t.tokens().collect::<Vec<_>>(), [Open, Int(2), Open, Int(3), Close, Close]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tokens(&self) -> impl Iterator<Item = TupleToken> + '_ {
        let mut k = 0usize;
        self.toks.iter().map(move |t| match t {
            Tok::Open => TupleToken::Open,
            Tok::Close => TupleToken::Close,
            Tok::Leaf => {
                k += 1;
                TupleToken::Int(self.leaves[k - 1])
            }
        })
    }

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
    use alloc::string::ToString;

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
    fn builder_and_tokens_round_trip() {
        for text in ["7", "()", "(2,(3,4),())", "((1),(2,(3)))"] {
            let v = t(text);
            let mut b = IntTupleBuilder::new();
            for tok in v.tokens() {
                match tok {
                    TupleToken::Open => b.open(),
                    TupleToken::Close => b.close(),
                    TupleToken::Int(x) => b.int(x),
                }
            }
            assert_eq!(b.finish().unwrap(), v, "{text}");
        }
        let mut b = IntTupleBuilder::new();
        b.int(1);
        b.int(2);
        assert!(b.finish().is_err());
        let mut b = IntTupleBuilder::new();
        b.close();
        assert!(b.finish().is_err());
        let mut b = IntTupleBuilder::new();
        b.open();
        assert!(b.finish().is_err());
        assert!(IntTupleBuilder::new().finish().is_err());
        let mut b = IntTupleBuilder::new();
        for _ in 0..crate::MAX_DEPTH + 1 {
            b.open();
        }
        for _ in 0..crate::MAX_DEPTH + 1 {
            b.close();
        }
        assert!(b.finish().is_err());
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
