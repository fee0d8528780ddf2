//! `Layout`: a hierarchical `Shape:Stride` pair, a function from coordinates to indices.
//!
//! A layout with shape `(3,(2,3))` and stride `(3,(12,1))` maps the natural coordinate
//! `(i,(j,k))` to `3i + 12j + k`. It also accepts 1-D indices (colexicographic: leftmost mode
//! fastest) and R-D coordinates (one entry per top-level mode); see [`Layout::index`].
//!
//! Storage is inline for up to 16 leaves: building, copying, querying and evaluating such a layout
//! never allocates. Past 16 leaves (or 32 tree tokens) the storage spills to the heap; everything
//! keeps working. Every constructor validates its input once (extents >= 1, shape and stride
//! congruent, nesting at most [`MAX_DEPTH`](crate::MAX_DEPTH), `size` representable in `i64`,
//! and the span `Σ (s - 1) |d|` at most `i64::MAX`, so that every offset fits in `i64`; the
//! cosize, one more than the span, is then at most `2^63` and is a `u64`), so evaluation inside
//! the domain cannot overflow.

use core::fmt;

use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::tree::{self, Leaves, Span, Tok, Toks, TupleBuilder};

/// A CuTe layout: a shape and a congruent stride.
///
/// `D` is the stride element type. Integer strides (`i64`, the default) are what the algebra works
/// on; the parameter exists so that coordinate-valued strides (CuTe's `1@0` basis strides) share
/// the same tree machinery.
///
/// # Examples
/// ```
/// # use cute_layout::Layout;
/// let l: Layout = "(3,(2,3)):(3,(12,1))".parse()?;
/// assert_eq!(l.size(), 18);
/// assert_eq!(l.cosize(), 21);
/// assert_eq!(l.index(&"16".parse()?)?, 17);        // 1-D
/// assert_eq!(l.index(&"(1,5)".parse()?)?, 17);     // R-D
/// assert_eq!(l.index(&"(1,(1,2))".parse()?)?, 17); // natural
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
// The leaf arrays 16-byte aligned (shape first, the tokens between): a result moved in from
// the fast paths' arrays (`algebra::flat`, also 16-byte aligned) is then copied pair by pair as
// the arrays were filled, and no 16-byte load straddles two stores still in flight.
#[derive(PartialEq, Eq, Hash)]
#[repr(C, align(16))]
pub struct Layout<D = i64> {
    pub(crate) shape: Leaves<i64>,
    pub(crate) toks: Toks,
    pub(crate) stride: Leaves<D>,
}

// Not derived: SmallVec's own `clone` copies element by element through an iterator; the
// elements are `Copy`, so a slice copy is several times cheaper (a hot path of the algebra).
impl<D: Copy> Clone for Layout<D> {
    #[inline]
    fn clone(&self) -> Self {
        Layout {
            toks: Toks::from_slice(&self.toks),
            shape: Leaves::from_slice(&self.shape),
            stride: Leaves::from_slice(&self.stride),
        }
    }
}

/// The span `Σ (s - 1) |d|` of the modes `shape:stride` (`cosize - 1`), which fits in `i64` for
/// the leaves of a valid layout (whose construction checks it), so wrapping arithmetic is exact
/// there and costs no overflow branches.
#[inline]
pub(crate) fn span_of(shape: &[i64], stride: &[i64]) -> i64 {
    shape
        .iter()
        .zip(stride)
        .fold(0i64, |acc, (&s, &d)| acc.wrapping_add(span_term(s, d)))
}

/// One leaf's share `(s - 1) |d|` of [`span_of`] (wrapping, see there).
#[inline(always)]
pub(crate) fn span_term(s: i64, d: i64) -> i64 {
    (s - 1).wrapping_mul(d.wrapping_abs())
}

/// Which mode gets stride 1 in [`Layout::col_major`] / [`Layout::row_major`].
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Order {
    /// CuTe's `LayoutLeft`: exclusive prefix product from the left (generalized column-major).
    ColMajor,
    /// CuTe's `LayoutRight`: exclusive prefix product from the right (generalized row-major).
    RowMajor,
}

impl<D: Copy> Layout<D> {
    pub(crate) fn from_parts_unchecked(toks: Toks, shape: Leaves<i64>, stride: Leaves<D>) -> Self {
        debug_assert_eq!(shape.len(), stride.len());
        debug_assert_eq!(tree::count_leaves(&toks), shape.len());
        Layout {
            toks,
            shape,
            stride,
        }
    }

    pub(crate) fn sub(&self, s: tree::Span) -> Self {
        Layout {
            toks: Toks::from_slice(&self.toks[s.tok.0..s.tok.1]),
            shape: Leaves::from_slice(&self.shape[s.leaf.0..s.leaf.1]),
            stride: Leaves::from_slice(&self.stride[s.leaf.0..s.leaf.1]),
        }
    }

    /// The shape.
    pub fn shape(&self) -> IntTuple {
        IntTuple::from_slices(&self.toks, &self.shape)
    }

    /// The shape's leaves, left to right.
    pub fn shape_leaves(&self) -> &[i64] {
        &self.shape
    }

    /// The stride's leaves, left to right.
    pub fn stride_leaves(&self) -> &[D] {
        &self.stride
    }

    /// Number of leaves (modes of the flattened layout).
    pub fn leaf_count(&self) -> usize {
        self.shape.len()
    }

    /// Number of top-level modes; a layout whose shape is an integer has rank 1.
    #[inline]
    pub fn rank(&self) -> usize {
        // A flat tuple (n leaves in n + 2 tokens: one pair of brackets) without a walk.
        let n = self.shape.len();
        if self.toks.len() == n + 2 {
            return n;
        }
        tree::rank(&self.toks)
    }

    /// Nesting depth of the shape: 0 for an integer shape.
    pub fn depth(&self) -> usize {
        tree::depth(&self.toks)
    }

    /// Whether the shape is a single integer (`8:1`, as opposed to the rank-1 tuple `(8):(1)`).
    pub fn is_leaf(&self) -> bool {
        tree::is_leaf(&self.toks)
    }

    /// Size of the domain: the product of the shape's extents. Always fits (checked on construction).
    pub fn size(&self) -> i64 {
        self.shape.iter().product()
    }

    /// The `i`-th top-level mode (CuTe `layout<i>` / `get<i>`); `None` if `i >= rank`. For a layout
    /// with an integer shape, mode 0 is the layout itself.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let a: Layout = "(4,(3,6)):(1,(4,12))".parse()?;
    /// let text = |m: Option<Layout>| m.map(|m| m.to_string());
    /// assert_eq!(text(a.mode(0)).as_deref(), Some("4:1"));
    /// assert_eq!(text(a.mode(1)).as_deref(), Some("(3,6):(4,12)"));
    /// assert!(a.mode(2).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "get")]
    #[doc(alias = "layout")]
    pub fn mode(&self, i: usize) -> Option<Self> {
        tree::mode(&self.toks, i).map(|s| self.sub(s))
    }

    /// The sub-layout at a hierarchical index path (CuTe `layout<I0,I1,...>`); the empty path is
    /// the whole layout.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let a: Layout = "(4,(3,6)):(1,(4,12))".parse()?;
    /// let text = |m: Option<Layout>| m.map(|m| m.to_string());
    /// assert_eq!(text(a.mode_at(&[1, 0])).as_deref(), Some("3:4"));
    /// assert_eq!(text(a.mode_at(&[1, 1])).as_deref(), Some("6:12"));
    /// assert_eq!(a.mode_at(&[2]), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn mode_at(&self, path: &[usize]) -> Option<Self> {
        tree::node_at(&self.toks, path).map(|s| self.sub(s))
    }

    /// The top-level modes, in order.
    pub fn modes(&self) -> impl Iterator<Item = Self> + '_ {
        tree::modes(&self.toks).map(move |s| self.sub(s))
    }

    /// Concatenation (CuTe `make_layout(l0, l1, ...)`): the layout whose modes are the arguments.
    ///
    /// # Errors
    /// [`LayoutError::TooDeep`] past the nesting limit, [`LayoutError::Overflow`] if the size or
    /// span leaves `i64`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let a: Layout = "3:1".parse()?;
    /// let b: Layout = "4:3".parse()?;
    /// let row = Layout::from_modes([a.clone(), b.clone()])?;
    /// assert_eq!(row.to_string(), "(3,4):(1,3)");
    /// assert_eq!(Layout::from_modes([a.clone()])?.to_string(), "(3):(1)");
    /// let d = Layout::from_modes([a.clone(), Layout::from_modes([a.clone()])?, a])?;
    /// assert_eq!(d.to_string(), "(3,(3),3):(1,(1),1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "make_layout")]
    pub fn from_modes<I: IntoIterator<Item = Self>>(modes: I) -> Result<Self, LayoutError>
    where
        D: StrideValue,
    {
        let mut out = Self::building();
        out.toks.push(Tok::Open);
        for m in modes {
            out.toks.extend_from_slice(&m.toks);
            out.shape.extend_from_slice(&m.shape);
            out.stride.extend_from_slice(&m.stride);
        }
        out.toks.push(Tok::Close);
        out.check("make_layout")?;
        Ok(out)
    }

    pub(crate) fn checked(
        op: &'static str,
        toks: Toks,
        shape: Leaves<i64>,
        stride: Leaves<D>,
    ) -> Result<Self, LayoutError>
    where
        D: StrideValue,
    {
        let l = Layout {
            toks,
            shape,
            stride,
        };
        l.check(op)?;
        Ok(l)
    }

    /// An empty layout under construction (no tokens, no leaves): the algebra pushes into it in
    /// place and then calls [`Layout::check`].
    #[inline]
    pub(crate) fn building() -> Self {
        Layout {
            toks: Toks::new(),
            shape: Leaves::new(),
            stride: Leaves::new(),
        }
    }

    /// What every constructor checks: a well-formed tree no deeper than the limit, extents >= 1,
    /// the size in `i64` and the span `Σ (s - 1) |d|` at most `i64::MAX` (every offset, and
    /// every partial sum of offsets, in `i64`; the cosize `1 + span` at most `2^63`).
    pub(crate) fn check(&self, op: &'static str) -> Result<(), LayoutError>
    where
        D: StrideValue,
    {
        // Trees are balanced by construction (every builder opens and closes its tuples), so
        // only the depth can be wrong, and a tree deeper than MAX_DEPTH has more than
        // 2 * MAX_DEPTH tokens: shorter ones skip the walk.
        debug_assert!(
            tree::is_well_formed(&self.toks),
            "malformed token tree {:?}",
            self.toks
        );
        // Likewise a tree of more than MAX_NODES nodes has more than MAX_NODES tokens.
        if self.toks.len() > (2 * tree::MAX_DEPTH).min(tree::MAX_NODES) {
            match tree::validate(&self.toks) {
                Ok(_) => {}
                Err(tree::TreeError::TooDeep) => {
                    return Err(LayoutError::TooDeep {
                        op,
                        limit: tree::MAX_DEPTH,
                    })
                }
                Err(tree::TreeError::TooLarge) => return Err(LayoutError::too_many_nodes(op)),
            }
        }
        let mut size = 1i64;
        let mut span = 0i64;
        for (&s, d) in self.shape.iter().zip(self.stride.iter()) {
            if s < 1 {
                return Err(LayoutError::InvalidExtent { op, extent: s });
            }
            let reach = d.magnitude().and_then(|m| m.checked_mul(s - 1));
            match (size.checked_mul(s), reach.and_then(|r| span.checked_add(r))) {
                (Some(a), Some(b)) => (size, span) = (a, b),
                _ => return Err(LayoutError::overflow(op)),
            }
        }
        Ok(())
    }

    /// CuTe `append(self, other)`: `self`'s modes followed by `other` as one more mode. A layout
    /// with an integer shape counts as the 1-tuple of itself.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let a: Layout = "3:1".parse()?;
    /// let b: Layout = "4:3".parse()?;
    /// let ab = a.append(&b)?;
    /// assert_eq!(ab.to_string(), "(3,4):(1,3)");
    /// assert_eq!(ab.append(&ab)?.to_string(), "(3,4,(3,4)):(1,3,(1,3))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn append(&self, other: &Self) -> Result<Self, LayoutError>
    where
        D: StrideValue,
    {
        Self::from_modes(self.modes().chain(core::iter::once(other.clone())))
    }

    /// CuTe `prepend(self, other)`: `other` as the first mode, then `self`'s modes.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let a: Layout = "3:1".parse()?;
    /// let b: Layout = "4:3".parse()?;
    /// assert_eq!(a.prepend(&b)?.to_string(), "(4,3):(3,1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prepend(&self, other: &Self) -> Result<Self, LayoutError>
    where
        D: StrideValue,
    {
        Self::from_modes(core::iter::once(other.clone()).chain(self.modes()))
    }

    /// CuTe `replace<i>(self, other)`: mode `i` replaced by `other`.
    ///
    /// # Errors
    /// [`LayoutError::ModeOutOfRange`] if `i >= rank`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let c: Layout = "(3,4,(3,4)):(1,3,(1,3))".parse()?;
    /// let b: Layout = "4:3".parse()?;
    /// assert_eq!(c.replace(2, &b)?.to_string(), "(3,4,4):(1,3,3)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn replace(&self, i: usize, other: &Self) -> Result<Self, LayoutError>
    where
        D: StrideValue,
    {
        let rank = self.rank();
        if i >= rank {
            return Err(LayoutError::ModeOutOfRange {
                op: "replace",
                index: i,
                rank,
            });
        }
        Self::from_modes(
            self.modes()
                .enumerate()
                .map(|(k, m)| if k == i { other.clone() } else { m }),
        )
    }

    /// CuTe `group<begin,end>`: modes `[begin, end)` become one mode.
    ///
    /// # Errors
    /// [`LayoutError::EmptyModeRange`] if `begin >= end`, [`LayoutError::ModeOutOfRange`] if
    /// `end > rank`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let a: Layout = "(2,3,5,7):(1,2,6,30)".parse()?;
    /// let b = a.group_modes(0, 2)?;
    /// assert_eq!(b.to_string(), "((2,3),5,7):((1,2),6,30)");
    /// assert_eq!(b.group_modes(1, 3)?.to_string(), "((2,3),(5,7)):((1,2),(6,30))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "group")]
    pub fn group_modes(&self, begin: usize, end: usize) -> Result<Self, LayoutError>
    where
        D: StrideValue,
    {
        self.check_range("group", begin, end)?;
        let inner = Self::from_modes(self.modes().skip(begin).take(end - begin))?;
        let modes = self.modes().take(begin).chain(core::iter::once(inner));
        Self::from_modes(modes.chain(self.modes().skip(end)))
    }

    /// CuTe `take<begin,end>`: the tuple of modes `[begin, end)`.
    ///
    /// # Errors
    /// As [`Layout::group_modes`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let a: Layout = "(2,3,5,7):(1,2,6,30)".parse()?;
    /// assert_eq!(a.take_modes(1, 3)?.to_string(), "(3,5):(2,6)");
    /// assert_eq!(a.take_modes(1, 4)?.to_string(), "(3,5,7):(2,6,30)");
    /// assert!(a.take_modes(1, 1).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "take")]
    pub fn take_modes(&self, begin: usize, end: usize) -> Result<Self, LayoutError>
    where
        D: StrideValue,
    {
        self.check_range("take", begin, end)?;
        Self::from_modes(self.modes().skip(begin).take(end - begin))
    }

    /// CuTe `select<i...>`: the tuple of the listed modes, in the listed order.
    ///
    /// # Errors
    /// [`LayoutError::ModeOutOfRange`] for an index `>= rank`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let a: Layout = "(2,3,5,7):(1,2,6,30)".parse()?;
    /// assert_eq!(a.select_modes(&[1, 3])?.to_string(), "(3,7):(2,30)");
    /// assert_eq!(a.select_modes(&[0, 1, 3])?.to_string(), "(2,3,7):(1,2,30)");
    /// assert_eq!(a.select_modes(&[2])?.to_string(), "(5):(6)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "select")]
    pub fn select_modes(&self, idx: &[usize]) -> Result<Self, LayoutError>
    where
        D: StrideValue,
    {
        let rank = self.rank();
        let mut b = TupleBuilder::open();
        let mut st: Leaves<D> = Leaves::new();
        for &i in idx {
            let s = tree::mode(&self.toks, i).ok_or(LayoutError::ModeOutOfRange {
                op: "select",
                index: i,
                rank,
            })?;
            b.push_tree(
                &self.toks[s.tok.0..s.tok.1],
                &self.shape[s.leaf.0..s.leaf.1],
            );
            st.extend_from_slice(&self.stride[s.leaf.0..s.leaf.1]);
        }
        let (toks, shape) = b.close();
        Self::checked("select", toks, shape, st)
    }

    /// CuTe `flatten`: all leaves as one flat tuple (an integer-shaped layout stays as it is).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let c: Layout = "((2,3),(5,7)):((1,2),(6,30))".parse()?;
    /// assert_eq!(c.flatten().to_string(), "(2,3,5,7):(1,2,6,30)");
    /// assert_eq!("((4)):((1))".parse::<Layout>()?.flatten().to_string(), "(4):(1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn flatten(&self) -> Self {
        Layout {
            toks: tree::flatten(&self.toks),
            shape: self.shape.clone(),
            stride: self.stride.clone(),
        }
    }

    fn check_range(&self, op: &'static str, begin: usize, end: usize) -> Result<(), LayoutError> {
        let rank = self.rank();
        if begin >= end {
            return Err(LayoutError::EmptyModeRange { op, begin, end });
        }
        if end > rank {
            return Err(LayoutError::ModeOutOfRange {
                op,
                index: end - 1,
                rank,
            });
        }
        Ok(())
    }
}

/// Operations a stride element needs for validation and printing.
pub trait StrideValue: Copy + PartialEq + Eq + core::hash::Hash + fmt::Debug {
    /// `|self|` as an integer bound used to check that offsets stay in `i64` (`None` on overflow).
    fn magnitude(&self) -> Option<i64>;
    /// Write the stride element in CuTe's text form.
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

impl StrideValue for i64 {
    #[inline]
    fn magnitude(&self) -> Option<i64> {
        self.checked_abs()
    }
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl Layout {
    /// `make_layout(shape, stride)`.
    ///
    /// # Errors
    /// [`LayoutError::NotCongruent`] if the trees differ, [`LayoutError::InvalidExtent`] for an
    /// extent < 1, [`LayoutError::TooDeep`], [`LayoutError::Overflow`] if the size or the largest
    /// offset magnitude does not fit in `i64`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l = Layout::new("(2,(2,2))".parse()?, "(4,(2,1))".parse()?)?;
    /// assert_eq!(l.to_string(), "(2,(2,2)):(4,(2,1))");
    /// assert!(Layout::new("(2,2)".parse()?, "(1,2,4)".parse()?).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "make_layout")]
    pub fn new(shape: IntTuple, stride: IntTuple) -> Result<Self, LayoutError> {
        if !shape.congruent(&stride) {
            return Err(LayoutError::NotCongruent {
                op: "make_layout",
                shape: shape.into(),
                stride: stride.into(),
            });
        }
        Self::checked("make_layout", shape.toks, shape.leaves, stride.leaves)
    }

    /// `make_layout(shape)` / `make_layout(shape, LayoutLeft{})`: generalized column-major strides
    /// (exclusive prefix product from the left, ignoring the hierarchy).
    ///
    /// # Errors
    /// As [`Layout::new`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// assert_eq!(Layout::col_major("(2,(2,2))".parse()?)?.to_string(), "(2,(2,2)):(1,(2,4))");
    /// assert_eq!(Layout::row_major("(2,(2,2))".parse()?)?.to_string(), "(2,(2,2)):(4,(2,1))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "LayoutLeft")]
    pub fn col_major(shape: IntTuple) -> Result<Self, LayoutError> {
        Self::with_order(shape, Order::ColMajor)
    }

    /// `make_layout(shape, LayoutRight{})`: exclusive prefix product from the right.
    ///
    /// # Errors
    /// As [`Layout::new`].
    #[doc(alias = "LayoutRight")]
    pub fn row_major(shape: IntTuple) -> Result<Self, LayoutError> {
        Self::with_order(shape, Order::RowMajor)
    }

    /// [`Layout::col_major`] or [`Layout::row_major`] by `order`.
    ///
    /// # Errors
    /// As [`Layout::new`].
    pub fn with_order(shape: IntTuple, order: Order) -> Result<Self, LayoutError> {
        shape.check_extents("make_layout")?;
        let stride = shape.prefix_product(order == Order::RowMajor)?;
        Self::checked("make_layout", shape.toks, shape.leaves, stride.leaves)
    }

    /// CuTe `make_ordered_layout(shape, order)`: compact strides assigned in increasing `order`.
    ///
    /// `order` is weakly congruent to `shape`; each of its leaves ranks the sub-shape it covers
    /// (which is laid out column-major inside). Ties keep left-to-right order.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if `order` is not weakly congruent to `shape`, and the
    /// errors of [`Layout::new`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l = Layout::ordered("(2,3,4)".parse()?, "(1,2,0)".parse()?)?;
    /// assert_eq!(l.to_string(), "(2,3,4):(4,8,1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "make_ordered_layout")]
    pub fn ordered(shape: IntTuple, order: IntTuple) -> Result<Self, LayoutError> {
        if !order.weakly_congruent(&shape) {
            return Err(LayoutError::InvalidArgument {
                op: "make_ordered_layout",
                what: alloc::format!("order {order} is not weakly congruent to shape {shape}"),
            });
        }
        // Leaf ranges of `shape` covered by each leaf of `order`.
        let mut ranges: Leaves<(i64, usize, usize)> = Leaves::new();
        walk_weak(&order.toks, &shape.toks, |oi, (b, e)| {
            ranges.push((order.leaves[oi], b, e));
        });
        let mut idx: Leaves<usize> = (0..ranges.len()).collect();
        idx.sort_by_key(|&k| (ranges[k].0, k));
        let mut stride = shape.leaves.clone();
        let mut acc = 1i64;
        for k in idx {
            let (_, b, e) = ranges[k];
            for j in b..e {
                stride[j] = if shape.leaves[j] == 1 { 0 } else { acc };
                acc = acc
                    .checked_mul(shape.leaves[j])
                    .ok_or_else(|| LayoutError::overflow("make_ordered_layout"))?;
            }
        }
        shape.check_extents("make_ordered_layout")?;
        Self::checked("make_ordered_layout", shape.toks, shape.leaves, stride)
    }

    /// The stride.
    pub fn stride(&self) -> IntTuple {
        IntTuple::from_slices(&self.toks, &self.stride)
    }

    /// CuTe `cosize`: `1 + Σ (s - 1) * |d|` over the leaves, the size of the codomain the layout
    /// spans. For layouts with non-negative strides this is `L(size - 1) + 1`, one past the
    /// largest offset. With negative strides it is CuTe 4.x's definition (its `coshape` uses
    /// `|d|`): the length of the range of offsets, which then runs from
    /// [`Layout::image_bounds`]`.0` (negative) to `.1`.
    ///
    /// A `u64`: every offset of a layout fits in `i64`, so the cosize is at most `2^63`, one past
    /// `i64::MAX` (`complement((5):(8), i64::MAX)` has that cosize).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// assert_eq!("(2,3,2,4):(1,2,6,12)".parse::<Layout>()?.cosize(), 48);
    /// assert_eq!("2:9223372036854775807".parse::<Layout>()?.cosize(), 1 << 63);
    /// assert_eq!("(4,8):(-1,4)".parse::<Layout>()?.cosize(), 32);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cosize(&self) -> u64 {
        // The span of a valid layout is in [0, i64::MAX], so the sum is at most 2^63.
        span_of(&self.shape, &self.stride).unsigned_abs() + 1
    }

    /// The smallest and largest offsets the layout produces on its domain.
    pub fn image_bounds(&self) -> (i64, i64) {
        let mut lo = 0i64;
        let mut hi = 0i64;
        for (&s, &d) in self.shape.iter().zip(self.stride.iter()) {
            let r = (s - 1) * d;
            if r < 0 {
                lo += r;
            } else {
                hi += r;
            }
        }
        (lo, hi)
    }
}

/// Walk `a` (coarser) against `b` (finer) as in weakly_congruent, reporting for each leaf of `a`
/// the leaf range of `b` it covers. The caller has checked weak congruence.
pub(crate) fn walk_weak(a: &[Tok], b: &[Tok], mut f: impl FnMut(usize, (usize, usize))) {
    let (mut i, mut j, mut la, mut lb) = (0usize, 0usize, 0usize, 0usize);
    while i < a.len() && j < b.len() {
        match a[i] {
            Tok::Leaf => {
                let end = tree::subtree_end(b, j);
                let n = tree::count_leaves(&b[j..end]);
                f(la, (lb, lb + n));
                la += 1;
                lb += n;
                i += 1;
                j = end;
            }
            Tok::Open | Tok::Close => {
                i += 1;
                j += 1;
            }
        }
    }
}

impl<D: StrideValue> fmt::Display for Layout<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::layout::fmt::write_tree(f, &self.toks, &self.shape)?;
        f.write_str(":")?;
        crate::layout::fmt::write_tree_with(f, &self.toks, &self.stride, |f, d| d.write(f))
    }
}

impl<D: StrideValue> fmt::Debug for Layout<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Layout({self})")
    }
}
/// The result of `fill` run on an empty layout that lives in the returned `Result` itself: with
/// the public operations `#[inline]` wrappers around `fill`, the result is built in the caller's
/// frame instead of being moved out of each function that builds it (a `Layout` is over 300
/// bytes of inline storage, and returning a named local copies all of it). One copy remains
/// where `fill` is out of line: LLVM cannot then merge this `Result` with the caller's
/// destination (the call may keep the pointer), and moves the finished value once.
#[inline(always)]
pub(crate) fn in_place(
    fill: impl FnOnce(&mut Layout) -> Result<(), LayoutError>,
) -> Result<Layout, LayoutError> {
    in_place_with(Layout::building(), fill)
}

/// [`in_place`] for any value: `fill` run on `empty` where it lives in the returned `Result`.
#[inline(always)]
pub(crate) fn in_place_with<T>(
    empty: T,
    fill: impl FnOnce(&mut T) -> Result<(), LayoutError>,
) -> Result<T, LayoutError> {
    let mut r: Result<T, LayoutError> = Ok(empty);
    if let Ok(out) = &mut r {
        if let Err(e) = fill(out) {
            r = Err(e);
        }
    }
    r
}

impl Span {
    /// The span of the whole tree of a layout.
    #[inline]
    pub(crate) fn whole<D: Copy>(l: &Layout<D>) -> Span {
        Span {
            tok: (0, l.toks.len()),
            leaf: (0, l.shape.len()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::int_tuple::IntTuple;
    use crate::layout::tree::{rank, rank_at_least};

    /// `rank_at_least` against `rank`, and `Layout::rank`'s flat-tuple shortcut against the
    /// walk, on integers, flat tuples and nested trees.
    #[test]
    fn rank_at_least_and_the_flat_shortcut_agree_with_rank() {
        for text in [
            "7",
            "(7)",
            "(2,3)",
            "(2,3,4,5)",
            "((2,3))",
            "((2,3),4)",
            "(4,(2,3))",
            "((2,(3,4)),5,(6,7))",
            "(((2)))",
        ] {
            let t: IntTuple = text.parse().unwrap();
            let r = rank(&t.toks);
            for n in 0..6 {
                assert_eq!(rank_at_least(&t.toks, n), r >= n, "{text} {n}");
            }
            let l = Layout::col_major(t).unwrap();
            assert_eq!(l.rank(), r, "{text}");
        }
    }
}
