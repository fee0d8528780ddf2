//! upcast, downcast, recast: re-index a layout for elements `N` times wider or narrower, or for
//! elements of another bit width.

use super::{ceil_div, mul};
use crate::layout::error::LayoutError;
use crate::layout::Layout;

impl Layout {
    /// CuTe `upcast<N>`: the layout of the same memory seen as elements `N` times wider. A leaf
    /// with stride `d != 0` becomes `ceil(s / ceil(N/|d|)) : sign(d) * ceil(|d| / N)`; stride-0
    /// leaves stay.
    ///
    /// # Laws
    /// * Congruent to `self`; `N * R(u) == self(u')` where `u'` scales the coordinates of leaves
    ///   with `0 < |d| < N` by `N / |d|`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if `n < 1` or a nonzero stride and `n` divide neither way
    /// (CuTe: "Divisibility condition").
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(4,8):(1,4)".parse()?;
    /// assert_eq!(l.upcast(2)?.to_string(), "(2,8):(1,2)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn upcast(&self, n: i64) -> Result<Layout, LayoutError> {
        check_factor("upcast", n)?;
        let mut out = self.clone();
        for (s, d) in out.shape.iter_mut().zip(out.stride.iter_mut()) {
            if *d == 0 {
                continue;
            }
            let a = d.abs();
            if a % n != 0 && n % a != 0 {
                return Err(LayoutError::InvalidArgument {
                    op: "upcast",
                    what: alloc::format!(
                        "stride {d} of {self} and {n} divide neither way (divisibility condition)"
                    ),
                });
            }
            *s = ceil_div(*s, ceil_div(n, a));
            *d = d.signum() * ceil_div(a, n);
        }
        Ok(out)
    }

    /// CuTe `downcast<N>`: the layout of the same memory seen as elements `N` times narrower.
    /// One leaf with stride `±1` (the first of extent above 1, else the first) gets extent
    /// `s * N`; every other stride is multiplied by `N` (CuTe stretches every stride-`±1` leaf,
    /// which covers more than the same memory when there are two).
    ///
    /// # Laws
    /// * Congruent to `self`; every offset of `self` times `N` is an offset of the result.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if `n < 1`, or `n > 1` and no leaf has stride `±1` (CuTe:
    /// "Downcast requires adjacent elements"); [`LayoutError::Overflow`]. `downcast(1)` is `self`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(4,8):(1,4)".parse()?;
    /// assert_eq!(l.downcast(2)?.to_string(), "(8,8):(1,8)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn downcast(&self, n: i64) -> Result<Layout, LayoutError> {
        check_factor("downcast", n)?;
        if n == 1 {
            return Ok(self.clone());
        }
        if !self.stride.iter().any(|&d| d == 1 || d == -1) {
            return Err(LayoutError::InvalidArgument {
                op: "downcast",
                what: alloc::format!(
                    "{self} has no stride-1 leaf (downcast requires adjacent elements)"
                ),
            });
        }
        // One leaf of stride +-1 grows N times longer (the first of extent above 1, else the
        // first); every other stride is multiplied by N, so a second stride-1 leaf does not
        // stretch the narrow elements of one wide element over several.
        let unit = |k: &usize| self.stride[*k].abs() == 1;
        let mut ks = 0..self.stride.len();
        let grow = ks
            .clone()
            .find(|k| unit(k) && self.shape[*k] > 1)
            .or_else(|| ks.find(unit));
        let mut shape = self.shape.clone();
        let mut stride = self.stride.clone();
        for (k, (s, d)) in shape.iter_mut().zip(stride.iter_mut()).enumerate() {
            if Some(k) == grow {
                *s = mul("downcast", *s, n)?;
            } else {
                *d = mul("downcast", *d, n)?;
            }
        }
        Layout::checked("downcast", self.toks.clone(), shape, stride)
    }
}

impl Layout {
    /// CuTe `recast_layout<Old, New>`: the layout of the same memory seen as elements of
    /// `new_bits` bits instead of `old_bits` bits. With `new_bits / old_bits = num / den` in
    /// lowest terms: `1/1` is `self`, `num/1` is [`upcast(num)`](Layout::upcast), `1/den` is
    /// [`downcast(den)`](Layout::downcast), and otherwise `downcast(den)` of `upcast(num)`.
    ///
    /// # Laws
    /// * `recast(b, b) == self`; `recast(b, k b) == upcast(k)`; `recast(k b, b) == downcast(k)`.
    /// * In general the laws of the upcast and downcast it is made of.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if a bit width is not positive, and every error of
    /// [`upcast`](Layout::upcast) and [`downcast`](Layout::downcast).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(8,4):(1,8)".parse()?; // 16-bit elements
    /// assert_eq!(l.recast(16, 32)?.to_string(), "(4,4):(1,4)"); // seen as 32-bit
    /// assert_eq!(l.recast(32, 16)?.to_string(), "(16,4):(1,16)"); // the other way
    /// assert_eq!(l.recast(8, 8)?, l);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn recast(&self, old_bits: i64, new_bits: i64) -> Result<Layout, LayoutError> {
        if old_bits < 1 || new_bits < 1 {
            return Err(LayoutError::InvalidArgument {
                op: "recast",
                what: alloc::format!("bit widths {old_bits} and {new_bits} must be positive"),
            });
        }
        let g = gcd(old_bits, new_bits);
        let (num, den) = (new_bits / g, old_bits / g);
        match (num, den) {
            (1, 1) => Ok(self.clone()),
            (1, den) => self.downcast(den),
            (num, 1) => self.upcast(num),
            (num, den) => self.upcast(num)?.downcast(den),
        }
    }
}

fn gcd(mut a: i64, mut b: i64) -> i64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn check_factor(op: &'static str, n: i64) -> Result<(), LayoutError> {
    if n < 1 {
        return Err(LayoutError::InvalidArgument {
            op,
            what: alloc::format!("factor {n} is not positive"),
        });
    }
    Ok(())
}
