//! CuTe's tuple algorithms of `cute/algorithm/tuple_algorithms.hpp` that take no function:
//! `repeat`, `repeat_like`, `wrap`, `unwrap`, `reverse`, `front`, `back` (the ones that take a
//! function, `transform`, `fold`, `any_of`, `find_if`, `iscan`, ..., are the operations of the
//! same names in `cute-ops`, with one operation of the table as the function).
//!
//! ```
//! use cute_layout::IntTuple;
//! let t: IntTuple = "((1,2),3,(4,(5,6)))".parse()?;
//! assert_eq!(t.front().to_string(), "1");
//! assert_eq!(t.back().to_string(), "6");
//! assert_eq!(t.reverse().to_string(), "((4,(5,6)),3,(1,2))");
//! assert_eq!(IntTuple::repeat_like(&t, 0).to_string(), "((0,0),0,(0,(0,0)))");
//! assert_eq!(IntTuple::int(7).wrap().to_string(), "(7)");
//! assert_eq!("((7))".parse::<IntTuple>()?.unwrap_tuple().to_string(), "7");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::vec::Vec;

use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;

impl IntTuple {
    /// CuTe `repeat<N>(x)`: `x` when `n == 1`, else the tuple of `n` copies of `x`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if `n < 1`; the size limits of [`IntTuple::tuple`].
    pub fn repeat(x: &IntTuple, n: i64) -> Result<IntTuple, LayoutError> {
        if n < 1 {
            return Err(LayoutError::InvalidArgument {
                op: "repeat",
                what: alloc::format!("count {n} is below 1"),
            });
        }
        if n == 1 {
            return Ok(x.clone());
        }
        let n = usize::try_from(n).map_err(|_| LayoutError::overflow("repeat"))?;
        if n > crate::MAX_NODES {
            return Err(LayoutError::overflow("repeat"));
        }
        IntTuple::tuple((0..n).map(|_| x.clone()))
    }

    /// CuTe `repeat_like(t, v)`: `t`'s tree with every leaf `v`.
    pub fn repeat_like(t: &IntTuple, v: i64) -> IntTuple {
        let mut r = t.clone();
        for x in r.leaves.iter_mut() {
            *x = v;
        }
        r
    }

    /// CuTe `wrap(t)`: `t` if it is a tuple, else the rank-1 tuple `(t)`.
    pub fn wrap(&self) -> IntTuple {
        if self.is_int() {
            IntTuple::tuple([self.clone()]).unwrap_or_else(|_| self.clone())
        } else {
            self.clone()
        }
    }

    /// CuTe `unwrap(t)`: the element of a rank-1 tuple, repeatedly (`((7))` is `7`).
    pub fn unwrap_tuple(&self) -> IntTuple {
        let mut t = self.clone();
        while !t.is_int() && t.rank() == 1 {
            match t.get(0) {
                Some(e) => t = e,
                None => break,
            }
        }
        t
    }

    /// CuTe `reverse(t)`: the top-level elements in reverse order (an integer is itself).
    pub fn reverse(&self) -> IntTuple {
        if self.is_int() {
            return self.clone();
        }
        let elems: Vec<IntTuple> = self.elements().collect();
        IntTuple::tuple(elems.into_iter().rev()).unwrap_or_else(|_| self.clone())
    }

    /// CuTe `front(t)`: the first leaf (`front(get<0>(t))`, recursively).
    pub fn front(&self) -> IntTuple {
        self.leaves
            .first()
            .map_or_else(|| self.clone(), |&v| IntTuple::int(v))
    }

    /// CuTe `back(t)`: the last leaf (`back(get<R-1>(t))`, recursively).
    pub fn back(&self) -> IntTuple {
        self.leaves
            .last()
            .map_or_else(|| self.clone(), |&v| IntTuple::int(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> IntTuple {
        s.parse().unwrap()
    }

    /// Laws over a small domain: reverse is an involution keeping the rank, front/back are the
    /// first/last of the flattened leaves, unwrap(wrap(x)) == unwrap(x), repeat_like is
    /// congruent.
    #[test]
    fn laws_small_domain() {
        for s in [
            "1",
            "(1,2)",
            "((1,2),3)",
            "(4,(5,6),7)",
            "((7))",
            "(1,(2,(3,4)))",
            "(())",
        ] {
            let Ok(x) = s.parse::<IntTuple>() else {
                continue;
            };
            assert_eq!(x.reverse().reverse(), x, "{s}");
            assert_eq!(x.reverse().rank(), x.rank());
            if let (Some(&f), Some(&b)) = (x.leaves().first(), x.leaves().last()) {
                assert_eq!(x.front(), IntTuple::int(f));
                assert_eq!(x.back(), IntTuple::int(b));
            }
            assert_eq!(x.wrap().unwrap_tuple(), x.unwrap_tuple());
            assert!(IntTuple::repeat_like(&x, 3).congruent(&x));
            let r = IntTuple::repeat(&x, 3).unwrap();
            assert_eq!(r.rank(), 3);
            assert!(r.elements().all(|e| e == x));
        }
        assert_eq!(IntTuple::repeat(&t("(1,2)"), 1).unwrap(), t("(1,2)"));
        assert!(IntTuple::repeat(&t("1"), 0).is_err());
        assert!(IntTuple::repeat(&t("1"), i64::MAX).is_err());
    }
}
