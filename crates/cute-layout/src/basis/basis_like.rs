//! CuTe's `make_layout_like`-family orderings on basis-strided layouts (`Layout<ScaledBasis>`).

use crate::algebra::layout_like::compact_in_order;
use crate::algebra::Tiler;
use crate::basis::ScaledBasis;
use crate::layout::error::LayoutError;
use crate::layout::Layout;
use alloc::vec::Vec;

impl Layout<ScaledBasis> {
    /// NVlabs PyCuTe's `make_layout_like` of a layout with basis strides: the same shape with
    /// compact integer strides that increase in the order of `self`'s strides, a basis stride
    /// ordered by its mode path first (lexicographically, `1@0@0 < 1@1@0 < 1@1`), then by its
    /// scale; a stride 0 (`0` or `0@i`) keeps stride 0. CuTe C++'s `make_layout_like` does not
    /// compile with `ScaledBasis` strides (they have no `<`); this order is PyCuTe's convention.
    ///
    /// # Laws
    /// * Same shape; stride 0 exactly at the stride-0 leaves of extent above 1; the other
    ///   strides are the prefix products of the extents in the order above, so the result is
    ///   compact when no two strides are equal; `R.layout_like() == R`.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, ScaledBasis};
    /// let l: Layout<ScaledBasis> = "(2,3,4):(1@2,1@1,1@0)".parse()?;
    /// assert_eq!(l.layout_like()?.to_string(), "(2,3,4):(12,4,1)");
    /// let l: Layout<ScaledBasis> = "(4,3):(3@0,1@0)".parse()?;
    /// assert_eq!(l.layout_like()?.to_string(), "(4,3):(3,1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "make_layout_like")]
    pub fn layout_like(&self) -> Result<Layout, LayoutError> {
        let keys: Vec<Option<(Vec<usize>, i64)>> = self
            .stride_leaves()
            .iter()
            .map(|d| (d.value() != 0).then(|| (d.path().collect(), d.value())))
            .collect();
        compact_in_order(&self.shape(), self.shape_leaves(), &keys)
    }

    /// CuTe `coalesce` of a layout with basis strides: the same function of the 1-D index with
    /// fewer modes: extent-1 modes dropped, and a mode merged into the one before it when both
    /// step along the same coordinate mode and it continues it (`d1 == s0 * d0`).
    ///
    /// # Laws
    /// * `R.value_1d(i) == self.value_1d(i)` for every `i` in `[0, size)`; `coalesce(R) == R`.
    ///
    /// # Errors
    /// As [`Layout::<ScaledBasis>::compose`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, ScaledBasis};
    /// let l: Layout<ScaledBasis> = "(2,4,3):(1@0,2@0,1@1)".parse()?;
    /// assert_eq!(l.coalesce()?.to_string(), "(8,3):(1@0,1@1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn coalesce(&self) -> Result<Layout<ScaledBasis>, LayoutError> {
        let mut modes: Vec<(i64, ScaledBasis)> = Vec::new();
        for (&s, &d) in self.shape_leaves().iter().zip(self.stride_leaves()) {
            if s == 1 {
                continue;
            }
            if let Some(last) = modes.last_mut() {
                let same_path = last.1.path().eq(d.path());
                if same_path && last.1.value().checked_mul(last.0) == Some(d.value()) {
                    last.0 = last
                        .0
                        .checked_mul(s)
                        .ok_or(LayoutError::overflow("coalesce"))?;
                    continue;
                }
            }
            modes.push((s, d));
        }
        let text = match modes.as_slice() {
            [] => alloc::string::String::from("1:0"),
            [(s, d)] => alloc::format!("{s}:{d}"),
            _ => {
                let sh: Vec<alloc::string::String> =
                    modes.iter().map(|m| alloc::format!("{}", m.0)).collect();
                let st: Vec<alloc::string::String> =
                    modes.iter().map(|m| alloc::format!("{}", m.1)).collect();
                alloc::format!("({}):({})", sh.join(","), st.join(","))
            }
        };
        text.parse().map_err(|_| LayoutError::overflow("coalesce"))
    }

    /// A divide of a layout with basis strides (CuTe's `logical_divide` and its zipped, tiled
    /// and flat forms, `f`): `self ∘ f(make_layout(shape(self)), tiler)`, the divide of the
    /// column-major layout of `self`'s shape (whose values are `self`'s 1-D indices) composed
    /// into `self`.
    ///
    /// # Laws
    /// * `R(c) == self(f(col_major(shape), tiler)(c))` for every coordinate `c` of the result.
    ///
    /// # Errors
    /// Those of `f` and of [`Layout::<ScaledBasis>::compose`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let id = Layout::identity("(4,6)".parse()?)?;
    /// let d = id.divide_with(&"(2,3)".parse()?, Layout::zipped_divide)?;
    /// assert_eq!(d.to_string(), "((2,3),(2,2)):((1@0,1@1),(2@0,3@1))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn divide_with(
        &self,
        tiler: &Tiler,
        f: fn(&Layout, &Tiler) -> Result<Layout, LayoutError>,
    ) -> Result<Layout<ScaledBasis>, LayoutError> {
        let col = Layout::col_major(self.shape())?;
        self.compose(&f(&col, tiler)?)
    }
}
