//! CuTe's `filter(layout, profile)` and the `filter`, `append` and `recast_layout` overloads of
//! `ComposedLayout` (`layout_composed.hpp`: each acts on the inner layout, or on every part for
//! `recast_layout`, and keeps the outer function and offset).
//!
//! ```
//! use cute_layout::{ComposedLayout, Layout};
//! let l: Layout = "((2,1),(3,4)):((0,1),(1,3))".parse()?;
//! assert_eq!(l.filter_by_profile(&"(0,0)".parse()?)?.to_string(), "(1,12):(0,1)");
//! let c: ComposedLayout = "Sw<3,4,3> o 0 o (8,64):(64,1)".parse()?;
//! assert_eq!(c.recast(16, 32)?.to_string(), "Sw<3,3,3> o 0 o (8,32):(32,1)");
//! assert_eq!(c.append(&"4:512".parse()?)?.to_string(), "Sw<3,4,3> o 0 o (8,64,4):(64,1,512)");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::vec::Vec;

use crate::composed::composed_layout::ComposedLayout;
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;

impl Layout {
    /// CuTe `filter(layout, profile)`: [`Layout::filter`] at the terminals of `profile` (a
    /// tuple profile filters mode `i` by element `i`; modes past the profile are kept as they
    /// are; an integer profile filters the whole layout).
    ///
    /// # Laws
    /// * An integer profile gives [`Layout::filter`]; a profile of `rank(L)` integers gives
    ///   the filter of each mode (`R(c) == L(c)` on the coordinates `R` keeps).
    ///
    /// # Errors
    /// [`LayoutError::RankMismatch`] if a tuple of `profile` has more elements than the modes
    /// it applies to (CuTe's static assert).
    pub fn filter_by_profile(&self, profile: &IntTuple) -> Result<Layout, LayoutError> {
        if profile.is_int() {
            return Ok(self.filter());
        }
        if profile.rank() > self.rank() || self.is_leaf() {
            return Err(LayoutError::RankMismatch {
                op: "filter",
                expected: if self.is_leaf() { 0 } else { self.rank() },
                found: profile.rank(),
            });
        }
        let modes: Vec<Layout> = self
            .modes()
            .enumerate()
            .map(|(i, m)| match profile.get(i) {
                Some(p) => m.filter_by_profile(&p),
                None => Ok(m),
            })
            .collect::<Result<_, _>>()?;
        Layout::from_modes(modes)
    }
}

impl ComposedLayout {
    /// `filter` of a composed layout: the inner layout filtered ([`Layout::filter`] or, with a
    /// profile, [`Layout::filter_by_profile`], CuTe's overload), the layers kept.
    ///
    /// # Errors
    /// The errors of [`Layout::filter_by_profile`].
    pub fn filter(&self, profile: Option<&IntTuple>) -> Result<ComposedLayout, LayoutError> {
        let inner = match profile {
            Some(p) => self.layout().filter_by_profile(p)?,
            None => self.layout().filter(),
        };
        ComposedLayout::from_layers(self.layers().iter().copied(), inner)
    }

    /// CuTe `append(composed, x)`: `x` appended as a mode of the inner layout.
    ///
    /// # Errors
    /// The errors of [`Layout::append`].
    pub fn append(&self, x: &Layout) -> Result<ComposedLayout, LayoutError> {
        let inner = self.layout().append(x)?;
        ComposedLayout::from_layers(self.layers().iter().copied(), inner)
    }

    /// CuTe `recast_layout<Old, New>(composed)` for elements of `old` bits becoming `new` bits:
    /// with `new / old = num / den` in lowest terms, `upcast<num>` then `downcast<den>`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] for a width below 1; the errors of
    /// [`ComposedLayout::upcast`] and [`ComposedLayout::downcast`].
    pub fn recast(&self, old: i64, new: i64) -> Result<ComposedLayout, LayoutError> {
        if old < 1 || new < 1 {
            return Err(LayoutError::InvalidArgument {
                op: "recast",
                what: alloc::format!("element widths {old} and {new} must be at least 1"),
            });
        }
        let (mut a, mut b) = (old, new);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        let (num, den) = (new / a, old / a);
        let up = if num == 1 {
            self.clone()
        } else {
            self.upcast(num)?
        };
        if den == 1 {
            Ok(up)
        } else {
            up.downcast(den)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn filter_profile_and_composed() {
        let l: Layout = "((2,1),(3,4),5):((0,1),(1,3),0)".parse().unwrap();
        let p: IntTuple = "(0,0)".parse().unwrap();
        assert_eq!(
            l.filter_by_profile(&p).unwrap().to_string(),
            "(1,12,5):(0,1,0)"
        );
        assert_eq!(l.filter_by_profile(&IntTuple::int(0)).unwrap(), l.filter());
        assert!(l.filter_by_profile(&"(0,0,0,0)".parse().unwrap()).is_err());
        let c: ComposedLayout = "Sw<2,0,2> o 4 o ((2,1),4):((0,1),2)".parse().unwrap();
        assert_eq!(c.filter(None).unwrap().to_string(), "Sw<2,0,2> o 4 o 4:2");
        assert_eq!(c.recast(8, 8).unwrap(), c);
    }

    /// Law over a small domain: filtering keeps the values at the kept coordinates (the image
    /// of a composed layout under filter is the image of the nonzero-stride points).
    #[test]
    fn filter_keeps_values() {
        for s in [
            "Sw<1,0,2> o 0 o (2,(1,4)):(1,(0,2))",
            "Sw<2,0,2> o 2 o ((2,2),2):((0,1),2)",
        ] {
            let c: ComposedLayout = s.parse().unwrap();
            let f = c.filter(None).unwrap();
            let mut a: Vec<i64> = c.offsets().collect();
            let mut b: Vec<i64> = f.offsets().collect();
            a.sort_unstable();
            a.dedup();
            b.sort_unstable();
            b.dedup();
            assert_eq!(a, b, "{s}");
        }
    }
}
