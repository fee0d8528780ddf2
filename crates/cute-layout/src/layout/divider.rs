//! Repeated `idx2crd` for one shape, with the divisions precomputed.

use alloc::format;

use smallvec::SmallVec;
use strength_reduce::StrengthReducedU64;

use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::tree::LEAVES_INLINE;

/// CuTe's `idx2crd(i, shape)` for many indices `i` and one shape, with each extent's division
/// precomputed (CUTLASS's `FastDivmod`): a multiply-high and a shift instead of a hardware
/// division per leaf, and no coordinate tuple built when [`Idx2Crd::split`] writes into a buffer.
///
/// Definition: the coordinate of `i` has the shape's tree; leaf `k` of `n` is
/// `(i / P_k) % s_k` for `k < n - 1` and `i / P_{n-1}` for the last leaf (it runs on past the
/// end), where `s_k` are the extents and `P_k = s_0 ... s_{k-1}`; `/` and `%` truncate toward
/// zero as in C (a negative index gives a coordinate of non-positive entries).
///
/// # Laws
/// * `Idx2Crd::new(s)?.coord(i) == s.idx2crd(&IntTuple::int(i))?` for every `i64` `i`.
/// * [`Idx2Crd::split`] writes the leaves of [`Idx2Crd::coord`].
///
/// Measured (BENCHMARKS.md, "Precomputed division"): about 1.4x faster than hardware division
/// on chains of small odd extents, the same elsewhere; writing into a buffer saves building the
/// tuple, which costs more than the divisions.
///
/// # Examples
/// ```
/// use cute_layout::{IntTuple, Idx2Crd};
/// let shape: IntTuple = "(3,(5,7))".parse()?;
/// let f = Idx2Crd::new(&shape)?;
/// assert_eq!(f.coord(52).to_string(), "(1,(2,3))");
/// assert_eq!(f.coord(52), shape.idx2crd(&IntTuple::int(52))?);
/// let mut c = [0i64; 3];
/// for i in 0..shape.size()? {
///     f.split(i, &mut c)?;
///     assert_eq!(c[0] + 3 * c[1] + 15 * c[2], i);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Idx2Crd {
    shape: IntTuple,
    /// One divider per leaf but the last (the last leaf is not reduced).
    div: SmallVec<[StrengthReducedU64; LEAVES_INLINE]>,
}

impl Idx2Crd {
    /// Precompute the divisions for `shape`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidExtent`] if an extent is below 1 (what `idx2crd` reports).
    pub fn new(shape: &IntTuple) -> Result<Idx2Crd, LayoutError> {
        shape.check_extents("idx2crd")?;
        let leaves = shape.leaves();
        let n = leaves.len().saturating_sub(1);
        Ok(Idx2Crd {
            shape: shape.clone(),
            div: leaves[..n]
                .iter()
                .map(|&e| StrengthReducedU64::new(e.unsigned_abs()))
                .collect(),
        })
    }

    /// The shape.
    pub fn shape(&self) -> &IntTuple {
        &self.shape
    }

    /// Write the leaves of the coordinate of `i` to `out`, which has one entry per leaf of the
    /// shape.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if `out` has another length (nothing is written).
    #[inline]
    pub fn split(&self, i: i64, out: &mut [i64]) -> Result<(), LayoutError> {
        if out.len() != self.div.len() + 1 {
            return Err(LayoutError::InvalidArgument {
                op: "idx2crd",
                what: format!(
                    "a buffer of length {} for the {} leaves of shape {}",
                    out.len(),
                    self.div.len() + 1,
                    self.shape
                ),
            });
        }
        self.split_leaves(i, out);
        Ok(())
    }

    /// The coordinate of `i` (the shape's tree).
    pub fn coord(&self, i: i64) -> IntTuple {
        let mut c = self.shape.clone();
        self.split_leaves(i, &mut c.leaves);
        c
    }

    /// [`Idx2Crd::split`] for a buffer of the right length. Truncating division of a negative
    /// index is the negated division of its magnitude, so the magnitude (at most 2^63, which
    /// fits `u64`) is split and every entry negated.
    #[inline]
    fn split_leaves(&self, i: i64, out: &mut [i64]) {
        let negate = i < 0;
        let signed = |x: u64| {
            // x <= 2^63: `x as i64` is x, or i64::MIN for 2^63 (whose negation is itself).
            let v = x as i64;
            if negate {
                v.wrapping_neg()
            } else {
                v
            }
        };
        let mut c = i.unsigned_abs();
        if let Some((last, init)) = out.split_last_mut() {
            for (o, &d) in init.iter_mut().zip(&self.div) {
                let (q, r) = StrengthReducedU64::div_rem(c, d);
                *o = signed(r);
                c = q;
            }
            *last = signed(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    /// The law on every index of a window around 0, the domain's end and the extremes of
    /// `i64`, for shapes with odd, even, power-of-two, extent-1 and single leaves.
    #[test]
    fn agrees_with_idx2crd() {
        let shapes = [
            "1",
            "7",
            "(3,5,7,11)",
            "(2,(3,1),4)",
            "((4,8),(2,4,16))",
            "(1,1,1)",
            "(6,(10,12))",
            "(3,3,3,3,3,3,3,3)",
            "(1000000007,3)",
            "(4611686018427387903,2)",
        ];
        for s in shapes {
            let shape: IntTuple = s.parse().unwrap();
            let f = Idx2Crd::new(&shape).unwrap();
            let size = shape.size().unwrap();
            let extremes = [i64::MIN, i64::MIN + 1, -size, size, i64::MAX - 1, i64::MAX];
            let window = (-300..=300).chain(size.saturating_sub(50)..=size.saturating_add(50));
            let mut buf = alloc::vec![0i64; shape.leaves().len()];
            for i in window.chain(extremes) {
                let want = shape.idx2crd(&IntTuple::int(i)).unwrap();
                assert_eq!(f.coord(i), want, "{s} at {i}");
                f.split(i, &mut buf).unwrap();
                assert_eq!(&buf[..], want.leaves(), "{s} at {i}");
            }
        }
    }

    #[test]
    fn errors() {
        let bad: IntTuple = "(3,0)".parse().unwrap();
        assert!(matches!(
            Idx2Crd::new(&bad),
            Err(LayoutError::InvalidExtent { extent: 0, .. })
        ));
        let f = Idx2Crd::new(&"(3,5)".parse().unwrap()).unwrap();
        let mut short = [7i64; 1];
        let e = f.split(4, &mut short).unwrap_err();
        assert_eq!(
            e.to_string(),
            "idx2crd: a buffer of length 1 for the 2 leaves of shape (3,5)"
        );
        assert_eq!(short, [7], "nothing written on error");
    }
}
