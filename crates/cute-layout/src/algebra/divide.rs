//! logical, zipped, tiled and flat divide.

use super::kernels;
use super::shape_divide;
use super::view::push_view;
use super::Tiler;
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::tree;
use crate::layout::Layout;

/// CuTe `zip2_by(layout, guide)`: gather the rank-2 results found at the terminals of `guide`
/// into `((firsts...), (seconds..., remaining modes...))`. Built in place, without allocating.
pub(crate) fn tile_unzip(
    op: &'static str,
    l: &Layout,
    guide: &Tiler,
) -> Result<Layout, LayoutError> {
    // Two walks over the same tree, the firsts then the seconds, straight into the result.
    let mut out = Layout::building();
    out.toks.push(tree::Tok::Open);
    zip2_half(op, l, tree::Span::whole(l), guide, false, &mut out)?;
    zip2_half(op, l, tree::Span::whole(l), guide, true, &mut out)?;
    out.toks.push(tree::Tok::Close);
    out.check(op)?;
    Ok(out)
}

/// Append to `out` one element: the first (or, if `second`, the second) half of the sub-tree
/// `node` of `l` split along `guide` (the seconds followed by the modes past the guide).
fn zip2_half(
    op: &'static str,
    l: &Layout,
    node: tree::Span,
    guide: &Tiler,
    second: bool,
    out: &mut Layout,
) -> Result<(), LayoutError> {
    let toks = &l.toks[node.tok.0..node.tok.1];
    let view = l.view();
    let at = |s: tree::Span| s.offset(node);
    let rank = tree::rank(toks);
    match guide {
        Tiler::Modes(gs) => {
            if gs.len() > rank {
                return Err(LayoutError::RankMismatch {
                    op,
                    expected: rank,
                    found: gs.len(),
                });
            }
            out.toks.push(tree::Tok::Open);
            let mut modes = tree::modes(toks);
            // `gs.len() <= rank`: every tiler element meets a mode.
            for (g, m) in gs.iter().zip(&mut modes) {
                zip2_half(op, l, at(m), g, second, out)?;
            }
            if second {
                for m in modes {
                    push_view(out, view.span(at(m)));
                }
            }
            out.toks.push(tree::Tok::Close);
            Ok(())
        }
        _ => {
            let mut modes = tree::modes(toks);
            let (Some(m0), Some(m1), false) =
                (modes.next(), modes.next(), rank != 2 || tree::is_leaf(toks))
            else {
                return Err(LayoutError::RankMismatch {
                    op,
                    expected: 2,
                    found: rank,
                });
            };
            push_view(out, view.span(at(if second { m1 } else { m0 })));
            Ok(())
        }
    }
}

/// CuTe's `zipped_divide` / `zipped_product` written to `out` (an empty layout): the logical
/// divide or product, gathered by [`tile_unzip`]. For a layout or integer tiler the logical
/// result is already `(tile, rest)`; for a flat tuple tiler it is gathered here in one pass over
/// its top-level modes (same leaves, same depth: no second check).
pub(crate) fn zipped_into(
    op: &'static str,
    kernel: kernels::Kernel,
    a: &Layout,
    tiler: &Tiler,
    out: &mut Layout,
) -> Result<(), LayoutError> {
    match tiler {
        Tiler::Layout(_) | Tiler::Int(_) => kernels::run(kernel, a, tiler, out),
        Tiler::Modes(ts) if kernels::covers(a, tiler) => {
            if kernel == kernels::Kernel::Divide {
                if let Some(r) = kernels::zipped_divide_fused(a, ts, out) {
                    return r;
                }
            }
            let mut l = Layout::building();
            kernels::run(kernel, a, tiler, &mut l)?;
            unzip_flat(op, &l, ts.len(), out)
        }
        _ => {
            let mut l = Layout::building();
            kernels::run(kernel, a, tiler, &mut l)?;
            *out = tile_unzip(op, &l, tiler)?;
            Ok(())
        }
    }
}

/// `zip2_by(l, guide)` for a flat guide of `n` elements (`n <= rank(l)`): modes `0..n` of `l`
/// must be of rank 2; `((m0_0, ..., m0_{n-1}), (m1_0, ..., m1_{n-1}, l_n, ...))`, appended to
/// `out`.
fn unzip_flat(op: &'static str, l: &Layout, n: usize, out: &mut Layout) -> Result<(), LayoutError> {
    let whole = tree::Span::whole(l);
    let view = l.view();
    // The two halves of each of the first n modes: (token start, split, end) and leaf split.
    let mut halves: tree::Leaves<(tree::Span, tree::Span)> = tree::Leaves::new();
    let mut modes = tree::modes(&l.toks);
    for m in (&mut modes).take(n) {
        let m = m.offset(whole);
        let toks = &l.toks[m.tok.0..m.tok.1];
        let mut sub = tree::modes(toks);
        match (tree::is_leaf(toks), sub.next(), sub.next(), sub.next()) {
            (false, Some(m0), Some(m1), None) => halves.push((m0.offset(m), m1.offset(m))),
            _ => {
                return Err(LayoutError::RankMismatch {
                    op,
                    expected: 2,
                    found: tree::rank(toks),
                })
            }
        }
    }
    out.toks.push(tree::Tok::Open);
    out.toks.push(tree::Tok::Open);
    for &(m0, _) in &halves {
        push_view(out, view.span(m0));
    }
    out.toks.push(tree::Tok::Close);
    out.toks.push(tree::Tok::Open);
    for &(_, m1) in &halves {
        push_view(out, view.span(m1));
    }
    for m in modes {
        push_view(out, view.span(m.offset(whole)));
    }
    out.toks.push(tree::Tok::Close);
    out.toks.push(tree::Tok::Close);
    Ok(())
}

/// `(m0, m1...)` / `(m0..., m1...)`: unpack a mode of rank > 1 into its elements (CuTe's slice
/// with `repeat<R>(_)`, which keeps rank-1 modes whole).
pub(crate) fn unpack(l: &Layout, first: bool) -> Result<Layout, LayoutError> {
    let (Some(m0), Some(m1)) = (l.mode(0), l.mode(1)) else {
        return Err(LayoutError::RankMismatch {
            op: "unpack",
            expected: 2,
            found: l.rank(),
        });
    };
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
    #[inline]
    pub fn logical_divide(&self, tiler: &Tiler) -> Result<Layout, LayoutError> {
        if let Tiler::Modes(ts) = tiler {
            if let Some(l) = shape_divide::divide_by_shape(self, ts, false) {
                return Ok(l);
            }
        }
        kernels::run_value(kernels::Kernel::Divide, self, tiler)
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
    #[inline]
    pub fn zipped_divide(&self, tiler: &Tiler) -> Result<Layout, LayoutError> {
        if let Tiler::Modes(ts) = tiler {
            if let Some(l) = shape_divide::divide_by_shape(self, ts, true) {
                return Ok(l);
            }
        }
        self.zipped_divide_general(tiler)
    }

    /// [`Layout::zipped_divide`] past the fast path of shape tilers (kept out of line, so that
    /// the fast path is inlined into callers).
    #[inline(never)]
    fn zipped_divide_general(&self, tiler: &Tiler) -> Result<Layout, LayoutError> {
        match tiler {
            Tiler::Layout(_) | Tiler::Int(_) => {
                return kernels::run_value(kernels::Kernel::Divide, self, tiler)
            }
            Tiler::Modes(ts) if kernels::covers(self, tiler) => {
                if let Some(r) = kernels::zipped_divide_value(self, ts) {
                    return r;
                }
            }
            _ => {}
        }
        super::in_place(|out| {
            zipped_into("zipped_divide", kernels::Kernel::Divide, self, tiler, out)
        })
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

/// CuTe `tile_unzip(layout, tiler)`, for [`Layout::tile_unzip`].
pub(crate) fn tile_unzip_public(l: &Layout, tiler: &Tiler) -> Result<Layout, LayoutError> {
    tile_unzip("tile_unzip", l, tiler)
}
