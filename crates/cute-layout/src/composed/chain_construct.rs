//! The construction helpers of `algebra::construct` on general composed layouts (`LayoutChain`).

use crate::algebra::construct::gcd;
use crate::composed::chain::{LayoutChain, OuterFn};
use crate::layout::error::LayoutError;

impl LayoutChain {
    /// CuTe `max_alignment` of a composed layout. For `Sw<B,M,S> o O o L` it is
    /// `gcd(2^M, O, max_alignment(L))` (an offset `O` counts as itself, `gcd(x, 0) = x`), applied
    /// layer by layer; a chain with a layout as an outer function gives 1 (CuTe: "Do not attempt
    /// for general ComposedLayouts"); no layers: [`Layout::max_alignment`](crate::Layout::max_alignment).
    ///
    /// # Laws
    /// * `R` divides `max_alignment(L)`, every offset and every `2^M`.
    ///
    /// # Errors
    /// The errors of [`Layout::max_alignment`](crate::Layout::max_alignment) of the inner layout.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// let c: LayoutChain = "Sw<3,3,3> o 0 o (8,64):(64,1)".parse()?;
    /// assert_eq!(c.max_alignment()?, 8);
    /// let c: LayoutChain = "Sw<3,3,3> o 6 o (8,64):(64,1)".parse()?;
    /// assert_eq!(c.max_alignment()?, 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_alignment(&self) -> Result<i64, LayoutError> {
        if self
            .layers()
            .iter()
            .any(|(f, _)| matches!(f, OuterFn::Layout(_)))
        {
            return Ok(1);
        }
        let mut g = self.layout().max_alignment()?;
        for (f, off) in self.layers() {
            if let OuterFn::Swizzle(s) = f {
                let unit = 1i64.checked_shl(s.base() as u32).unwrap_or(i64::MAX);
                g = gcd(gcd(unit, *off), g);
            }
        }
        Ok(g)
    }
}
