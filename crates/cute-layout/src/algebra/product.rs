//! logical, zipped, tiled, flat, blocked and raked product; tile_to_shape.

use super::divide::{unpack, zipped_into};
use super::kernels;
use super::linear_product;
use super::view::push_view;
use super::{from_flat, Tiler};
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::tree;
use crate::layout::Layout;
use alloc::borrow::Cow;

/// `append<R>(l)`: pad with `1:0` modes up to rank `r` (a layout already of rank `r` is kept).
fn pad(l: &Layout, r: usize) -> Result<Cow<'_, Layout>, LayoutError> {
    if l.rank() >= r {
        return Ok(Cow::Borrowed(l));
    }
    let one = from_flat("product", &[])?;
    let extra = r - l.rank();
    Layout::from_modes(l.modes().chain(core::iter::repeat_n(one, extra))).map(Cow::Owned)
}

impl Layout {
    /// Logical product `self ⊗ tiler` (CuTe `logical_product`): for a layout tiler `B`,
    /// `(self, complement(self, size(self) * cosize(B)) ∘ B)`: mode 0 is `self`, mode 1 lays
    /// copies of `self` out as `B` says. A tuple tiler multiplies mode by mode.
    ///
    /// # Laws
    /// * Mode 0 equals `self`; mode 1 equals `C ∘ B`, `C = complement(self, size(self)*cosize(B))`
    ///   where that is defined. Where `self` has holes that no layout fills (`(4,6):(1,6)` skips
    ///   4 and 5), `C` is CuTe's chain of the complement without its coverage condition, which
    ///   is all the product needs: `C` increases, misses `self`'s image and `(self, C)` is
    ///   injective, its last mode kept so that it runs on above `self` (CuTe's
    ///   logical_product.cpp: `(4,6):(1,6) ⊗ 3:1 = ((4,6),3):((1,6),36)`).
    /// * So for injective `self` and `B` the product is injective: the copies do not overlap.
    /// * Only the result must fit in `i64`: `size(self) * cosize(B)` may not
    ///   (`(4):(0) ⊗ (2):(2^62)` is `((4),(2)):((0),(2^62))`).
    ///
    /// # Errors
    /// The errors of [`Layout::complement`] (but its coverage condition) and [`Layout::compose`];
    /// [`LayoutError::RankMismatch`] for a tuple tiler with more modes than `self`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tiler};
    /// let a: Layout = "(2,2):(4,1)".parse()?; // 02_layout_algebra.md, Logical Product 1-D
    /// let b: Tiler = "6:1".parse()?;
    /// assert_eq!(a.logical_product(&b)?.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn logical_product(&self, tiler: &Tiler) -> Result<Layout, LayoutError> {
        if let Tiler::Layout(b) = tiler {
            if let Some(l) = linear_product::logical_product(self, b) {
                return Ok(l);
            }
        }
        product_general(self, tiler)
    }

    /// CuTe `zipped_product`: [`Layout::logical_product`] gathered as `((block...), (rest...))`.
    ///
    /// # Laws
    /// * For a tuple tiler, mode `k` of mode 0 is mode 0 of `logical_product`'s mode `k`, and
    ///   mode `k` of mode 1 is its mode 1.
    ///
    /// # Errors
    /// As [`Layout::logical_product`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tiler};
    /// let a: Layout = "(2,5):(5,1)".parse()?;
    /// let t: Tiler = "<3:5,4:6>".parse()?;
    /// assert_eq!(a.zipped_product(&t)?.to_string(), "((2,5),(3,4)):((5,1),(10,30))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn zipped_product(&self, tiler: &Tiler) -> Result<Layout, LayoutError> {
        super::in_place(|out| {
            zipped_into("zipped_product", kernels::Kernel::Product, self, tiler, out)
        })
    }

    /// CuTe `tiled_product`: [`Layout::zipped_product`] with the rest mode unpacked.
    ///
    /// # Laws
    /// * Mode 0 is mode 0 of `zipped_product(self, tiler)`; mode `1 + k` is mode `k` of its mode 1.
    ///
    /// # Errors
    /// As [`Layout::logical_product`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tiler};
    /// let a: Layout = "(2,5):(5,1)".parse()?;
    /// let t: Tiler = "<3:5,4:6>".parse()?;
    /// assert_eq!(a.tiled_product(&t)?.to_string(), "((2,5),3,4):((5,1),10,30)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tiled_product(&self, tiler: &Tiler) -> Result<Layout, LayoutError> {
        unpack(&self.zipped_product(tiler)?, false)
    }

    /// CuTe `flat_product`: [`Layout::zipped_product`] with both modes unpacked.
    ///
    /// # Laws
    /// * The modes are those of `zipped_product(self, tiler)`'s mode 0, then those of its mode 1.
    ///
    /// # Errors
    /// As [`Layout::logical_product`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tiler};
    /// let a: Layout = "(2,5):(5,1)".parse()?;
    /// let t: Tiler = "<3:5,4:6>".parse()?;
    /// assert_eq!(a.flat_product(&t)?.to_string(), "(2,5,3,4):(5,1,10,30)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn flat_product(&self, tiler: &Tiler) -> Result<Layout, LayoutError> {
        unpack(&self.zipped_product(tiler)?, true)
    }

    /// CuTe `blocked_product`: both operands padded with `1:0` to the same rank `R`, then mode
    /// `i` of the result is `(self_i, (A* ∘ B)_i)`: copies of `self` placed block by block.
    ///
    /// # Laws
    /// * `rank(R) == max(rank(self), rank(tiler))`; the value at `((a_i, b_i))_i` is
    ///   `Σ self_i(a_i) + A*(Σ B_i(b_i))` with `A* = complement(self, size(self)*cosize(tiler))`.
    ///
    /// # Errors
    /// As [`Layout::logical_product`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let a: Layout = "(2,5):(5,1)".parse()?; // 02_layout_algebra.md, Blocked and Raked Products
    /// let b: Layout = "(3,4):(1,3)".parse()?;
    /// assert_eq!(a.blocked_product(&b)?.to_string(), "((2,3),(5,4)):((5,10),(1,30))");
    /// assert_eq!(a.raked_product(&b)?.to_string(), "((3,2),(4,5)):((10,5),(30,1))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn blocked_product(&self, tiler: &Layout) -> Result<Layout, LayoutError> {
        if let Some(l) = linear_product::rank_product(self, tiler, false) {
            return Ok(l);
        }
        rank_product_general(self, tiler, false)
    }

    /// CuTe `raked_product`: as [`Layout::blocked_product`] with each mode `((A* ∘ B)_i, self_i)`,
    /// interleaving the copies of `self`.
    ///
    /// # Laws
    /// * The value at `((b_i, a_i))_i` is `Σ self_i(a_i) + A*(Σ B_i(b_i))`, with `A*` as in
    ///   [`Layout::blocked_product`].
    ///
    /// # Errors
    /// As [`Layout::logical_product`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let a: Layout = "(2,5):(5,1)".parse()?;
    /// let b: Layout = "(3,4):(1,3)".parse()?;
    /// assert_eq!(a.raked_product(&b)?.to_string(), "((3,2),(4,5)):((10,5),(30,1))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn raked_product(&self, tiler: &Layout) -> Result<Layout, LayoutError> {
        if let Some(l) = linear_product::rank_product(self, tiler, true) {
            return Ok(l);
        }
        rank_product_general(self, tiler, true)
    }

    /// CuTe `tile_to_shape(block, shape, order)`: repeat `self` (padded to the rank of `shape`)
    /// so that the result has shape `shape`, the copies laid out in `order` (column-major when
    /// `None`).
    ///
    /// # Laws
    /// * The result's modes have the sizes of `shape`'s modes; it is a blocked product of `self`.
    ///
    /// # Errors
    /// [`LayoutError::RankMismatch`] if `self` has more modes than `shape`;
    /// [`LayoutError::InvalidArgument`] if a block mode does not divide the target mode; the
    /// errors of [`Layout::blocked_product`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let block: Layout = "(2,2):(1,2)".parse()?;
    /// let t = block.tile_to_shape(&"(4,6)".parse()?, None)?;
    /// assert_eq!(t.to_string(), "((2,2),(2,3)):((1,4),(2,8))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tile_to_shape(
        &self,
        shape: &IntTuple,
        order: Option<&IntTuple>,
    ) -> Result<Layout, LayoutError> {
        let r = shape.rank();
        if self.rank() > r {
            return Err(LayoutError::RankMismatch {
                op: "tile_to_shape",
                expected: r,
                found: self.rank(),
            });
        }
        let block = pad(self, r)?;
        let mut counts = alloc::vec::Vec::with_capacity(r);
        for (bm, tm) in block.modes().zip(shape.elements()) {
            let (bs, ts) = (bm.size(), tm.size()?);
            if ts % bs != 0 {
                return Err(LayoutError::InvalidArgument {
                    op: "tile_to_shape",
                    what: alloc::format!(
                        "block mode of size {bs} does not divide target mode {tm}"
                    ),
                });
            }
            counts.push(ts / bs);
        }
        let counts = IntTuple::flat(counts);
        let tiler = match order {
            None => Layout::col_major(counts)?,
            Some(o) => Layout::ordered(counts, o.clone())?,
        };
        block.blocked_product(&tiler)
    }
}

/// [`Layout::logical_product`] past the fast path of `linear_product` (out of line, as
/// [`rank_product_general`]).
#[inline(never)]
fn product_general(a: &Layout, tiler: &Tiler) -> Result<Layout, LayoutError> {
    kernels::run_value(kernels::Kernel::Product, a, tiler)
}

/// The blocked or raked product past the fast path of `linear_product` (kept out of line, so
/// that the fast path is inlined into callers): the fused kernel, else the general path.
#[inline(never)]
fn rank_product_general(a: &Layout, b: &Layout, raked: bool) -> Result<Layout, LayoutError> {
    if let Some(r) = kernels::rank_product_value(a, b, raked) {
        return r;
    }
    super::in_place(|out| rank_product_into(a, b, raked, out))
}

/// [`Layout::blocked_product`] (`raked == false`) or [`Layout::raked_product`] written to `out`
/// (an empty layout): the logical product of the padded operands is built on the stack and its
/// modes zipped straight into `out`.
pub(super) fn rank_product_into(
    a: &Layout,
    b: &Layout,
    raked: bool,
    out: &mut Layout,
) -> Result<(), LayoutError> {
    if let Some(r) = kernels::rank_product_fused(a, b, raked, out) {
        return r;
    }
    let (ra, rb) = (a.rank(), b.rank());
    let r = ra.max(rb);
    let (pa, pb);
    let a = if ra >= r {
        a
    } else {
        pa = pad(a, r)?.into_owned();
        &pa
    };
    let b = if rb >= r {
        b
    } else {
        pb = pad(b, r)?.into_owned();
        &pb
    };
    let mut p = Layout::building();
    kernels::product_layout_into(a, b, &mut p)?;
    let op = if raked {
        "raked_product"
    } else {
        "blocked_product"
    };
    // Work on the two modes of p in place (spans), building the result without copies.
    let whole = tree::Span::whole(&p);
    let view = p.view();
    let mut pm = tree::modes(&p.toks);
    let (Some(x), Some(y)) = (pm.next(), pm.next()) else {
        return Err(LayoutError::RankMismatch {
            op,
            expected: 2,
            found: p.rank(),
        });
    };
    let (x, y) = (x.offset(whole), y.offset(whole));
    let sub = |s: tree::Span| &p.toks[s.tok.0..s.tok.1];
    let (x_leaf, y_leaf) = (tree::is_leaf(sub(x)), tree::is_leaf(sub(y)));
    // CuTe `zip(first, second)`: a non-tuple `first` gives the single mode `(first, second)`;
    // otherwise mode i is `(first_i, second_i)` (a non-tuple `second` counts as a 1-tuple,
    // where CuTe fails to compile).
    if !x_leaf && b.is_leaf() && !y_leaf && tree::rank(sub(y)) != tree::rank(sub(x)) {
        // CuTe: "Mismatched Ranks" (the tiler's one mode expanded into several).
        return Err(LayoutError::RankMismatch {
            op,
            expected: tree::rank(sub(x)),
            found: tree::rank(sub(y)),
        });
    }
    let (first, second) = if raked { (y, x) } else { (x, y) };
    let first_leaf = if raked { y_leaf } else { x_leaf };
    out.toks.push(tree::Tok::Open);
    if first_leaf {
        out.toks.push(tree::Tok::Open);
        push_view(out, view.span(first));
        push_view(out, view.span(second));
        out.toks.push(tree::Tok::Close);
    } else {
        // A non-tuple `second` is its own (only) mode, as tree::modes gives it.
        let mut seconds = tree::modes(sub(second));
        for fi in tree::modes(sub(first)) {
            let si = seconds.next().ok_or_else(|| LayoutError::RankMismatch {
                op,
                expected: tree::rank(sub(first)),
                found: tree::rank(sub(second)),
            })?;
            out.toks.push(tree::Tok::Open);
            push_view(out, view.span(fi.offset(first)));
            push_view(out, view.span(si.offset(second)));
            out.toks.push(tree::Tok::Close);
        }
    }
    out.toks.push(tree::Tok::Close);
    out.check(op)
}
