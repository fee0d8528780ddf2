//! The plain exclusive `prefix_product` that pycute exposes, and a token-level builder and walk of int tuples for
//! front ends that convert nested values of another language (the Python package) without
//! intermediate tuples or text.

use alloc::string::String;

use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::tree::{Leaves, Tok, Toks};

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
        let n = self.leaves.len();
        for (k, (o, &v)) in out.leaves.iter_mut().zip(self.leaves.iter()).enumerate() {
            *o = acc;
            // The product past the last leaf is not part of the result: it may overflow.
            if k + 1 < n {
                acc = acc
                    .checked_mul(v)
                    .ok_or_else(|| LayoutError::overflow("prefix_product"))?;
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn t(s: &str) -> IntTuple {
        s.parse().unwrap()
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
    fn prefix_products_as_pycute() {
        assert_eq!(t("2").prefix_products(1).unwrap().to_string(), "1");
        assert_eq!(
            t("((2,3),(2,1,2),(5,2,1))")
                .prefix_products(1)
                .unwrap()
                .to_string(),
            "((1,2),(6,12,12),(24,120,240))"
        );
        assert_eq!(t("(3,2)").prefix_products(2).unwrap().to_string(), "(2,6)");
        assert!(t("(4611686018427387904,4)").prefix_products(1).is_ok());
        assert!(t("(4611686018427387904,4,2)").prefix_products(1).is_err());
    }
}
