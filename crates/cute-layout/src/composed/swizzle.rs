//! Swizzles: CuTe's `Swizzle<B,M,S>`, an XOR of one bit field of an offset into another.
//!
//! Why: a tile of a row-major matrix stored in shared memory puts every element of a column in the
//! same memory bank, so a warp reading a column serializes. Permuting the offsets inside each
//! row by the row number spreads a column over all banks without changing the set of offsets. A
//! swizzle does this with one XOR: `Sw<B,M,S>` takes the `B` bits starting at bit `M + S` (the
//! "row" bits, mask `yyy`) and XORs them into the `B` bits starting at bit `M` (the "column"
//! bits, mask `zzz`).
//!
//! ```text
//! Sw<3,4,3>:  bit  ... 9 8 7 | 6 5 4 | 3 2 1 0
//!                    yyy (row) → zzz  → unchanged
//! f(x) = x ^ ((x & yyy) >> S)        (a negative S shifts left instead)
//! ```
//!
//! ```
//! use cute_layout::Swizzle;
//! let sw: Swizzle = "Sw<3,4,3>".parse()?;
//! assert_eq!(sw.apply(0b101_0000000), 0b101_1010000);
//! assert_eq!(sw.apply(sw.apply(1000)), 1000); // an involution
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Because `|S| >= B` (checked by [`Swizzle::new`], as CuTe's static asserts do), the two bit
//! fields never overlap, so the toggling bits are never toggled: applying a swizzle twice is the
//! identity, and its inverse is itself.

use core::fmt;
use core::str::FromStr;

use crate::layout::error::{LayoutError, ParseError, ParseErrorKind};
use crate::layout::parse::Parser;

/// Largest `B + M + |S|`: every bit a swizzle reads or writes lies in bits 0..63 of an `i64`.
pub const MAX_SWIZZLE_BITS: i64 = 62;

/// CuTe's `Swizzle<B,M,S>`: `f(x) = x ^ shiftr(x & yyy, S)` with `yyy = ((1<<B)-1) << (M + max(0,S))`
/// and `shiftr(v, s) = v >> s` for `s >= 0`, `v << -s` otherwise. Text form `Sw<B,M,S>`.
///
/// Why: a row-major tile in shared memory puts a column in one memory bank, so a warp reading
/// a column serializes. XOR-ing the `B` row bits starting at bit `M + S` into the `B` column bits
/// starting at bit `M` permutes each row by its row number: a column spreads over all banks and
/// the set of offsets does not change. `f` is an involution (its own inverse).
///
/// # Examples
/// ```
/// # use cute_layout::Swizzle;
/// let sw = Swizzle::new(2, 0, 3)?;
/// assert_eq!(sw.to_string(), "Sw<2,0,3>");
/// assert_eq!((sw.yyy_mask(), sw.zzz_mask()), (0b11000, 0b11));
/// let t: Vec<i64> = (0..32).step_by(8).map(|x| sw.apply(x)).collect();
/// assert_eq!(t, [0, 9, 18, 27]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Swizzle {
    bits: i64,
    base: i64,
    shift: i64,
}

/// Why `Sw<bits,base,shift>` is not a valid swizzle, or `None` when it is (the checks of
/// [`Swizzle::new`]).
const fn invalid_reason(bits: i64, base: i64, shift: i64) -> Option<&'static str> {
    if bits < 0 {
        return Some("the bit count B is negative");
    }
    if base < 0 {
        return Some("the base M is negative");
    }
    let Some(abs_s) = shift.checked_abs() else {
        return Some("the shift S is out of range");
    };
    if abs_s < bits {
        return Some("|S| is smaller than B, so the bit fields overlap");
    }
    match bits.checked_add(base) {
        Some(t) => match t.checked_add(abs_s) {
            Some(total) if total <= MAX_SWIZZLE_BITS => None,
            _ => Some("B + M + |S| exceeds 62 bits"),
        },
        None => Some("B + M + |S| exceeds 62 bits"),
    }
}

/// `Sw<B,M,S>` validated at compile time (see [`Swizzle::constant`]).
struct ConstSwizzle<const B: i64, const M: i64, const S: i64>;

impl<const B: i64, const M: i64, const S: i64> ConstSwizzle<B, M, S> {
    const VALUE: Swizzle = {
        assert!(
            invalid_reason(B, M, S).is_none(),
            "Swizzle::constant: parameters Swizzle::new refuses"
        );
        Swizzle {
            bits: B,
            base: M,
            shift: S,
        }
    };
}

impl Swizzle {
    /// `Swizzle<B,M,S>` with `B = bits`, `M = base`, `S = shift`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidSwizzle`] unless `B >= 0` ("BBits must be positive"), `M >= 0`
    /// ("MBase must be positive"), `|S| >= B` ("abs(SShift) must be more than BBits": the bit
    /// fields would overlap and the function would not be an involution) and
    /// `B + M + |S| <=` [`MAX_SWIZZLE_BITS`] (every bit involved fits in an `i64`).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Swizzle;
    /// assert!(Swizzle::new(3, 4, 3).is_ok());
    /// assert!(Swizzle::new(0, 0, -5).is_ok());
    /// let e = Swizzle::new(3, 4, 2).unwrap_err();
    /// assert_eq!(e.to_string(), "swizzle: Sw<3,4,2>: |S| is smaller than B, so the bit fields overlap");
    /// # Ok::<(), cute_layout::LayoutError>(())
    /// ```
    pub fn new(bits: i64, base: i64, shift: i64) -> Result<Self, LayoutError> {
        match invalid_reason(bits, base, shift) {
            Some(reason) => Err(LayoutError::InvalidSwizzle {
                op: "swizzle",
                bits,
                base,
                shift,
                reason,
            }),
            None => Ok(Swizzle { bits, base, shift }),
        }
    }

    /// `Sw<B,M,S>` for parameters known when the program is built: the check of
    /// [`Swizzle::new`] runs at compile time, so parameters it refuses fail the build and the
    /// value needs no error path.
    pub(crate) const fn constant<const B: i64, const M: i64, const S: i64>() -> Swizzle {
        ConstSwizzle::<B, M, S>::VALUE
    }

    /// `Sw<0,4,3>`: the identity CuTe's `get_swizzle_portion` gives for a plain layout.
    pub(crate) const CUTE_NO_SWIZZLE: Swizzle = Swizzle {
        bits: 0,
        base: 4,
        shift: 3,
    };

    /// The identity swizzle `Sw<0,0,0>`.
    pub const IDENTITY: Swizzle = Swizzle {
        bits: 0,
        base: 0,
        shift: 0,
    };

    /// `B`: how many bits are toggled.
    pub fn bits(&self) -> i64 {
        self.bits
    }

    /// `M`: the lowest bit of the lower bit field.
    pub fn base(&self) -> i64 {
        self.base
    }

    /// `S`: how far the toggling field (`yyy`) lies above the toggled one (`zzz`); negative when
    /// it lies below.
    pub fn shift(&self) -> i64 {
        self.shift
    }

    /// Whether this is the identity function (`B == 0`).
    pub fn is_identity(&self) -> bool {
        self.bits == 0
    }

    /// CuTe's `yyy_msk`: the bits that are read, `((1<<B)-1) << (M + max(0,S))`.
    pub fn yyy_mask(&self) -> i64 {
        ((1i64 << self.bits) - 1) << (self.base + self.shift.max(0))
    }

    /// CuTe's `zzz_msk`: the bits that are toggled, `((1<<B)-1) << (M - min(0,S))`.
    pub fn zzz_mask(&self) -> i64 {
        ((1i64 << self.bits) - 1) << (self.base - self.shift.min(0))
    }

    /// One past the highest bit the swizzle reads or writes: `x` and `apply(x)` agree on all
    /// bits from here up.
    pub fn top_bit(&self) -> i64 {
        self.bits + self.base + self.shift.abs()
    }

    /// The function: `x ^ shiftr(x & yyy, S)`.
    ///
    /// # Laws
    /// * `apply(apply(x)) == x` for every `x` (an involution).
    /// * `apply(x)` differs from `x` only in the bits of [`Swizzle::zzz_mask`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Swizzle};
    /// let sw = Swizzle::new(3, 4, 3)?;
    /// assert_eq!(sw.apply(0b10_1000_0000), 0b10_1101_0000); // bits 7, 9 toggle bits 4, 6
    /// assert_eq!(sw.apply(0b111_0000), 0b111_0000); // no read bit set
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn apply(&self, x: i64) -> i64 {
        let y = x & self.yyy_mask();
        if self.shift >= 0 {
            x ^ (y >> self.shift)
        } else {
            x ^ (y << -self.shift)
        }
    }

    /// The inverse function: the swizzle itself. [`Swizzle::new`] requires `|S| >= B`, so the
    /// read bits (`yyy`) and the toggled bits (`zzz`) never overlap and applying it twice
    /// toggles the same bits back.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Swizzle;
    /// let sw = Swizzle::new(3, 3, -3)?;
    /// assert!((0..1 << 10).all(|x| sw.inverse().apply(sw.apply(x)) == x));
    /// # Ok::<(), cute_layout::LayoutError>(())
    /// ```
    #[doc(alias = "right_inverse")]
    #[doc(alias = "left_inverse")]
    pub fn inverse(&self) -> Swizzle {
        *self
    }

    /// CuTe `make_swizzle<Y,Z>()`: the swizzle whose read mask is `yyy` and toggled mask is
    /// `zzz`, bit `k` of one field toggling bit `k` of the other.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if the masks are negative, have different numbers of
    /// bits ("Number of bits in Y and Z don't match"), or are not two runs of consecutive bits
    /// that a swizzle reads and writes ("Something went wrong" in CuTe).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Swizzle;
    /// assert_eq!(Swizzle::from_masks(0b11000, 0b11)?.to_string(), "Sw<2,0,3>");
    /// assert_eq!(Swizzle::from_masks(24, 3)?, Swizzle::new(2, 0, 3)?);
    /// assert_eq!(Swizzle::from_masks(0, 0)?.to_string(), "Sw<0,0,0>");
    /// assert!(Swizzle::from_masks(0b101, 0b11000).is_err());
    /// # Ok::<(), cute_layout::LayoutError>(())
    /// ```
    #[doc(alias = "make_swizzle")]
    pub fn from_masks(yyy: i64, zzz: i64) -> Result<Swizzle, LayoutError> {
        let bad = |why: &str| LayoutError::InvalidArgument {
            op: "make_swizzle",
            what: alloc::format!("masks {yyy:#b} and {zzz:#b}: {why}"),
        };
        if yyy < 0 || zzz < 0 {
            return Err(bad("a mask is negative"));
        }
        if yyy.count_ones() != zzz.count_ones() {
            return Err(bad("the masks have different numbers of bits"));
        }
        if yyy == 0 {
            return Ok(Swizzle::IDENTITY);
        }
        let b = i64::from(yyy.count_ones());
        let (ty, tz) = (
            i64::from(yyy.trailing_zeros()),
            i64::from(zzz.trailing_zeros()),
        );
        let m = ty.min(tz);
        let s = ty - tz;
        let sw = Swizzle::new(b, m, s).map_err(|_| bad("the bit fields overlap"))?;
        if sw.yyy_mask() != yyy || sw.zzz_mask() != zzz {
            return Err(bad("the masks are not runs of consecutive bits"));
        }
        Ok(sw)
    }

    /// CuTe `composition(Sw0, Sw1)` for two swizzles of the same shift: the swizzle equal to
    /// `self(other(x))` for every `x`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if the shifts differ ("Can only merge swizzles of the
    /// same shift"), if `other`'s toggled bits are read by `self` (then the composition is no
    /// swizzle), or if the merged masks are not a swizzle's.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Swizzle;
    /// let a = Swizzle::new(1, 0, 3)?;
    /// let b = Swizzle::new(1, 1, 3)?;
    /// let ab = a.compose(&b)?;
    /// assert_eq!(ab.to_string(), "Sw<2,0,3>");
    /// assert!((0..256).all(|x| ab.apply(x) == a.apply(b.apply(x))));
    /// # Ok::<(), cute_layout::LayoutError>(())
    /// ```
    #[doc(alias = "composition")]
    pub fn compose(&self, other: &Swizzle) -> Result<Swizzle, LayoutError> {
        if self.is_identity() {
            return Ok(*other);
        }
        if other.is_identity() {
            return Ok(*self);
        }
        if self.shift != other.shift {
            return Err(LayoutError::InvalidArgument {
                op: "composition",
                what: alloc::format!("{self} and {other} have different shifts"),
            });
        }
        if other.zzz_mask() & self.yyy_mask() != 0 {
            return Err(LayoutError::InvalidArgument {
                op: "composition",
                what: alloc::format!("{self} reads bits that {other} toggles"),
            });
        }
        Swizzle::from_masks(
            self.yyy_mask() ^ other.yyy_mask(),
            self.zzz_mask() ^ other.zzz_mask(),
        )
    }

    /// CuTe `upcast<N>(Sw<B,M,S>)`: the swizzle on offsets of elements `n` times wider
    /// (`n` a power of two): `Sw<B, M - log2 n, S>`, bits below the new element dropped.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if `n` is not a positive power of two.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Swizzle;
    /// assert_eq!(Swizzle::new(3, 4, 3)?.upcast(32)?.to_string(), "Sw<2,0,3>");
    /// assert_eq!(Swizzle::new(3, 4, 3)?.upcast(4)?.to_string(), "Sw<3,2,3>");
    /// # Ok::<(), cute_layout::LayoutError>(())
    /// ```
    pub fn upcast(&self, n: i64) -> Result<Swizzle, LayoutError> {
        let k = log2_exact("upcast", n)?;
        let m = self.base - k;
        if m >= 0 {
            Swizzle::new(self.bits, m, self.shift)
        } else {
            Swizzle::new((self.bits + m).max(0), 0, self.shift)
        }
    }

    /// CuTe `downcast<N>(Sw<B,M,S>)`: `Sw<B, M + log2 n, S>` (elements `n` times narrower).
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if `n` is not a positive power of two;
    /// [`LayoutError::InvalidSwizzle`] past 62 bits.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Swizzle};
    /// assert_eq!(Swizzle::new(3, 4, 3)?.downcast(2)?.to_string(), "Sw<3,5,3>");
    /// assert!(Swizzle::new(3, 4, 3)?.downcast(3).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn downcast(&self, n: i64) -> Result<Swizzle, LayoutError> {
        let k = log2_exact("downcast", n)?;
        Swizzle::new(self.bits, self.base + k, self.shift)
    }
}

fn log2_exact(op: &'static str, n: i64) -> Result<i64, LayoutError> {
    if n <= 0 || n & (n - 1) != 0 {
        return Err(LayoutError::InvalidArgument {
            op,
            what: alloc::format!("{n} is not a power of two"),
        });
    }
    Ok(i64::from(n.trailing_zeros()))
}

impl fmt::Display for Swizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sw<{},{},{}>", self.bits, self.base, self.shift)
    }
}

impl fmt::Debug for Swizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Swizzle({self})")
    }
}

impl Parser<'_> {
    /// Whether the next token is the start of a swizzle (`Sw`).
    pub(crate) fn at_swizzle(&mut self) -> bool {
        self.skip_ws();
        self.s[self.pos..].starts_with(b"Sw")
    }

    /// `Sw<B,M,S>` (spaces allowed between tokens, not inside `Sw`).
    pub(crate) fn swizzle(&mut self) -> Result<Swizzle, ParseError> {
        self.skip_ws();
        let start = self.pos;
        if !self.s[self.pos..].starts_with(b"Sw") {
            return Err(self.error("'Sw<'"));
        }
        self.pos += 2;
        self.eat(b'<', "'<'")?;
        let b = self.int()?;
        self.eat(b',', "','")?;
        let m = self.int()?;
        self.eat(b',', "','")?;
        let s = self.int()?;
        self.eat(b'>', "'>'")?;
        Swizzle::new(b, m, s).map_err(|e| ParseError {
            offset: start,
            kind: ParseErrorKind::Invalid(e),
        })
    }
}

impl FromStr for Swizzle {
    type Err = ParseError;
    /// Parse `Sw<B,M,S>`, e.g. `Sw<3,4,3>` or `Sw<2, 1, -3>`.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let mut p = Parser::new(s);
        let sw = p.swizzle()?;
        p.finish()?;
        Ok(sw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn reference(b: i64, m: i64, s: i64, x: i64) -> i64 {
        let mask = ((1i64 << b) - 1) << (m + s.max(0));
        if s >= 0 {
            x ^ ((x & mask) >> s)
        } else {
            x ^ ((x & mask) << -s)
        }
    }

    #[test]
    fn swizzle_apply_matches_formula_and_is_involution() {
        for b in 0..4 {
            for m in 0..5 {
                for s in -6i64..=6 {
                    let Ok(sw) = Swizzle::new(b, m, s) else {
                        assert!(s.abs() < b);
                        continue;
                    };
                    assert_eq!(sw.yyy_mask() & sw.zzz_mask(), 0);
                    for x in 0..1 << 12 {
                        let y = sw.apply(x);
                        assert_eq!(y, reference(b, m, s, x), "{sw} at {x}");
                        assert_eq!(sw.apply(y), x, "{sw} twice at {x}");
                        assert_eq!((x ^ y) & !sw.zzz_mask(), 0);
                    }
                    assert_eq!(
                        Swizzle::from_masks(sw.yyy_mask(), sw.zzz_mask()).map(|w| w.apply(77)),
                        Ok(sw.apply(77))
                    );
                    assert_eq!(sw.to_string().parse::<Swizzle>(), Ok(sw));
                }
            }
        }
    }

    #[test]
    fn swizzle_new_errors() {
        assert_eq!(Swizzle::new(-1, 0, 3).unwrap_err().kind(), "InvalidSwizzle");
        assert_eq!(Swizzle::new(1, -1, 3).unwrap_err().kind(), "InvalidSwizzle");
        assert_eq!(Swizzle::new(3, 0, -2).unwrap_err().kind(), "InvalidSwizzle");
        assert_eq!(
            Swizzle::new(20, 20, 30).unwrap_err().kind(),
            "InvalidSwizzle"
        );
        assert_eq!(
            Swizzle::new(0, 0, i64::MIN).unwrap_err().kind(),
            "InvalidSwizzle"
        );
        assert!("Sw<3,4>".parse::<Swizzle>().is_err());
        assert!("Sw<3,4,2>".parse::<Swizzle>().is_err());
        assert_eq!(
            " Sw< 3 , 4 , -3 > ".parse::<Swizzle>().unwrap().to_string(),
            "Sw<3,4,-3>"
        );
    }
}
