//! logical, zipped, tiled and flat divide.

use super::{by_tiler, Rest, Tiler};
use crate::error::LayoutError;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;

/// CuTe `zip2_by(layout, guide)`: gather the rank-2 results found at the terminals of `guide`
/// into `((firsts...), (seconds..., remaining modes...))`.
pub(crate) fn tile_unzip(
    op: &'static str,
    l: &Layout,
    guide: &Tiler,
) -> Result<Layout, LayoutError> {
    let (a, b) = zip2_by(op, l, guide)?;
    Layout::from_modes([a, b])
}

fn zip2_by(op: &'static str, l: &Layout, guide: &Tiler) -> Result<(Layout, Layout), LayoutError> {
    match guide {
        Tiler::Modes(gs) => {
            let rank = l.rank();
            if gs.len() > rank {
                return Err(LayoutError::RankMismatch {
                    op,
                    expected: rank,
                    found: gs.len(),
                });
            }
            let mut firsts = alloc::vec::Vec::with_capacity(gs.len());
            let mut seconds = alloc::vec::Vec::with_capacity(rank);
            for (m, g) in l.modes().zip(gs.iter()) {
                let (a, b) = zip2_by(op, &m, g)?;
                firsts.push(a);
                seconds.push(b);
            }
            seconds.extend(l.modes().skip(gs.len()));
            Ok((Layout::from_modes(firsts)?, Layout::from_modes(seconds)?))
        }
        _ => {
            if l.rank() != 2 || l.is_leaf() {
                return Err(LayoutError::RankMismatch {
                    op,
                    expected: 2,
                    found: l.rank(),
                });
            }
            Ok((l.mode(0).expect("rank 2"), l.mode(1).expect("rank 2")))
        }
    }
}

/// `(m0, m1...)` / `(m0..., m1...)`: unpack a mode of rank > 1 into its elements (CuTe's slice
/// with `repeat<R>(_)`, which keeps rank-1 modes whole).
pub(crate) fn unpack(l: &Layout, first: bool) -> Result<Layout, LayoutError> {
    let m0 = l.mode(0).expect("rank 2 result");
    let m1 = l.mode(1).expect("rank 2 result");
    let parts = |m: Layout| -> alloc::vec::Vec<Layout> {
        if m.rank() > 1 {
            m.modes().collect()
        } else {
            alloc::vec![m]
        }
    };
    let mut all = if first { parts(m0) } else { alloc::vec![m0] };
    all.extend(parts(m1));
    Layout::from_modes(all)
}

impl Layout {
    /// Logical divide `self ⊘ tiler` (CuTe `logical_divide`): for a layout tiler `T`,
    /// `self ∘ (T, T*)` where `T* = complement(T, shape(coalesce(self)))`: mode 0 enumerates one
    /// tile, mode 1 the tiles. A tuple tiler divides mode by mode (modes past it are kept); `_`
    /// keeps a mode.
    ///
    /// # Laws
    /// * `R == self ∘ (T, complement(T, shape(coalesce(self))))`, with the law of
    ///   [`Layout::compose`] and [`Layout::complement`].
    ///
    /// # Errors
    /// The errors of [`Layout::complement`] (the tiler must be injective, its strides must
    /// chain) and of [`Layout::compose`]; [`LayoutError::RankMismatch`] if a tuple tiler has more
    /// modes than `self`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tiler};
    /// // 02_layout_algebra.md, Logical Divide 1-D example
    /// let a: Layout = "(4,2,3):(2,1,8)".parse()?;
    /// let t: Tiler = "4:2".parse()?;
    /// assert_eq!(a.logical_divide(&t)?.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn logical_divide(&self, tiler: &Tiler) -> Result<Layout, LayoutError> {
        by_tiler("logical_divide", self, tiler, true, Rest::Keep, &|a, t| {
            let comp = t.complement_shape(&a.coalesce().shape())?;
            a.compose(&Layout::from_modes([t.clone(), comp])?)
        })
    }

    /// CuTe `zipped_divide`: [`Layout::logical_divide`] with the tile modes gathered into mode 0
    /// and the rest modes into mode 1: `((tile...), (rest...))`.
    ///
    /// # Laws
    /// * Same function as `logical_divide(self, tiler)` up to the order of modes: the point with
    ///   tile coordinate `t` and rest coordinate `r` has the same offset in both.
    ///
    /// # Errors
    /// As [`Layout::logical_divide`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tiler};
    /// let a: Layout = "(9,(4,8)):(59,(13,1))".parse()?; // 02_layout_algebra.md, 2-D divide
    /// let t: Tiler = "<3:3,(2,4):(1,8)>".parse()?;
    /// assert_eq!(a.zipped_divide(&t)?.to_string(), "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn zipped_divide(&self, tiler: &Tiler) -> Result<Layout, LayoutError> {
        tile_unzip("zipped_divide", &self.logical_divide(tiler)?, tiler)
    }

    /// CuTe `tiled_divide`: [`Layout::zipped_divide`] with the rest mode unpacked:
    /// `((tile...), rest0, rest1, ...)`.
    ///
    /// # Laws
    /// * Mode 0 is mode 0 of `zipped_divide(self, tiler)`; mode `1 + k` is mode `k` of its mode 1.
    ///
    /// # Errors
    /// As [`Layout::logical_divide`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tiler};
    /// let a: Layout = "(9,(4,8)):(59,(13,1))".parse()?;
    /// let t: Tiler = "<3:3,(2,4):(1,8)>".parse()?;
    /// assert_eq!(a.tiled_divide(&t)?.to_string(), "((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tiled_divide(&self, tiler: &Tiler) -> Result<Layout, LayoutError> {
        unpack(&self.zipped_divide(tiler)?, false)
    }

    /// CuTe `flat_divide`: [`Layout::zipped_divide`] with both modes unpacked:
    /// `(tile0, tile1, ..., rest0, rest1, ...)`.
    ///
    /// # Laws
    /// * The modes are those of `zipped_divide(self, tiler)`'s mode 0, then those of its mode 1.
    ///
    /// # Errors
    /// As [`Layout::logical_divide`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tiler};
    /// let a: Layout = "(9,(4,8)):(59,(13,1))".parse()?;
    /// let t: Tiler = "<3:3,(2,4):(1,8)>".parse()?;
    /// assert_eq!(a.flat_divide(&t)?.to_string(), "(3,(2,4),3,(2,2)):(177,(13,2),59,(26,1))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn flat_divide(&self, tiler: &Tiler) -> Result<Layout, LayoutError> {
        unpack(&self.zipped_divide(tiler)?, true)
    }
}

impl IntTuple {
    /// CuTe `evenly_divides(self, tiler)`: whether dividing the shape `self` by `tiler` leaves no
    /// partial tile. A tuple tiler is checked mode by mode (false if it has more modes than
    /// `self`); `_` always divides; an integer or layout `t` divides `self` evenly when
    /// `size(self) == size(t) * size(ceil_div(self, t))`, with CuTe's left-to-right `ceil_div`
    /// for an integer and `shape(complement(t, self))` for a layout.
    ///
    /// # Laws
    /// * `true` implies that `logical_divide(col_major(self), tiler)` has size `size(self)`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IntTuple, Tiler};
    /// let s = |x: &str| x.parse::<IntTuple>().unwrap();
    /// let t = |x: &str| x.parse::<Tiler>().unwrap();
    /// assert!(s("(8,6)").evenly_divides(&t("(4,3)")));
    /// assert!(!s("(6,4)").evenly_divides(&t("4")));
    /// assert!(s("24").evenly_divides(&t("4")));
    /// ```
    pub fn evenly_divides(&self, tiler: &Tiler) -> bool {
        let Ok(size) = self.size() else { return false };
        match tiler {
            Tiler::Skip => true,
            Tiler::Modes(ts) => {
                ts.len() <= self.rank()
                    && ts
                        .iter()
                        .zip(self.elements())
                        .all(|(t, s)| s.evenly_divides(t))
            }
            Tiler::Int(t) => {
                // CuTe ceil_div(shape, t): left fold with carry.
                let t = *t;
                let mut rest = t;
                let mut quot = 1i64;
                for &a in self.leaves() {
                    if a < 1 || rest < 1 {
                        return false;
                    }
                    let Some(q) = quot.checked_mul(super::ceil_div(a, rest)) else {
                        return false;
                    };
                    quot = q;
                    rest = super::ceil_div(rest, a);
                }
                quot.checked_mul(t) == Some(size)
            }
            Tiler::Layout(l) => match l.complement_shape(self) {
                Ok(c) => l.size().checked_mul(c.size()) == Some(size),
                Err(_) => false,
            },
        }
    }
}
