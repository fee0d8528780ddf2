//! Layout construction and restructuring from CuTe's `layout.hpp`, `stride.hpp` and
//! `tuple_algorithms.hpp`: `domain_offset`, `max_alignment`, `zip`, `tile_unzip`, CuTe's
//! backward coalesce (`bw_coalesce`), `transform_layout`, an operation applied at one mode
//! ([`Layout::map_mode`]), `compact_order` and the coordinates of a shape in the order of
//! `make_coord_iterator`.

use alloc::vec::Vec;

use crate::algebra::{self, Tiler};
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;

/// Most coordinates [`IntTuple::coordinates`] lists.
pub const MAX_COORDINATES: i64 = 1 << 16;

/// Most integers in all the coordinates [`IntTuple::coordinates`] lists (coordinates times the
/// shape's leaves).
pub const MAX_COORDINATE_INTEGERS: i64 = 1 << 18;

pub(crate) fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    // `a` is at most the larger magnitude of two `i64`s; only `gcd(i64::MIN, 0)` leaves `i64`.
    i64::try_from(a).unwrap_or(i64::MAX)
}

fn invalid(op: &'static str, what: alloc::string::String) -> LayoutError {
    LayoutError::InvalidArgument { op, what }
}

impl Layout {
    /// CuTe `domain_offset(coord, layout)`: the pair `(layout, layout(coord))`, the layout unchanged
    /// and the offset of the coordinate (CuTe keeps the function so that a `ComposedLayout` can
    /// move the offset inside; for a layout the offset is simply `L(c)`).
    ///
    /// # Laws
    /// * `R.1 == self.index(coord)` and `R.0 == self`: `L(c + x) = R.1 + R.0(x)` for a coordinate
    ///   `x` added leaf by leaf, by linearity.
    ///
    /// # Errors
    /// The errors of [`Layout::index`] (a coordinate that does not fit the shape).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(4,4):(4,1)".parse()?;
    /// let (same, off) = l.domain_offset(&"(1,2)".parse()?)?;
    /// assert_eq!((same.to_string(), off), ("(4,4):(4,1)".to_string(), 6));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn domain_offset(&self, coord: &IntTuple) -> Result<(Layout, i64), LayoutError> {
        Ok((self.clone(), self.index(coord)?))
    }

    /// CuTe `max_alignment(layout)`: the largest `N` for which `upcast<N>(layout)` compiles, i.e.
    /// how many consecutive offsets starting at a multiple of `N` the layout always visits
    /// together. CuTe's algorithm, all values static: `F = coalesce(L)`,
    /// `P = logical_divide(F, right_inverse(F))`, `R = gcd(size(P<0>), stride(P<1>)...)` (the gcd
    /// over every leaf of the stride of mode 1; `gcd(n, 0) = n`).
    ///
    /// # Laws
    /// * `R >= 1` divides `size(right_inverse(coalesce(L)))`: the first `R` offsets
    ///   `0, 1, ..., R - 1` are reached, and every further mode steps by a multiple of `R`.
    ///
    /// # Errors
    /// The errors of [`Layout::logical_divide`] (where CuTe's `complement` has no answer).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// assert_eq!("(4,2):(1,8)".parse::<Layout>()?.max_alignment()?, 4);
    /// assert_eq!("(2,4):(4,1)".parse::<Layout>()?.max_alignment()?, 8);
    /// assert_eq!("(4,3):(3,1)".parse::<Layout>()?.max_alignment()?, 12);
    /// assert_eq!("(8,4):(2,16)".parse::<Layout>()?.max_alignment()?, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_alignment(&self) -> Result<i64, LayoutError> {
        let flat = self.coalesce();
        let inv = flat.right_inverse();
        let permuted = flat.logical_divide(&Tiler::Layout(inv))?;
        let (Some(tile), Some(rest)) = (permuted.mode(0), permuted.mode(1)) else {
            return Err(LayoutError::RankMismatch {
                op: "max_alignment",
                expected: 2,
                found: permuted.rank(),
            });
        };
        Ok(rest
            .stride_leaves()
            .iter()
            .fold(tile.size(), |g, &d| gcd(g, d)))
    }

    /// CuTe `zip(layout)`: the shape and the stride each transposed by [`IntTuple::zip`]
    /// (`((a,b),(x,y))` becomes `((a,x),(b,y))`; a tuple whose first element is an integer is
    /// wrapped into a 1-tuple).
    ///
    /// # Laws
    /// * The same function of the natural coordinate with its indices transposed:
    ///   `R((c_0j)_j, (c_1j)_j, ...) == L((c_i0)_i, (c_i1)_i, ...)`; `size(R) == size(L)`.
    ///
    /// # Errors
    /// [`LayoutError::RankMismatch`] if the modes of a tuple to transpose differ in rank (CuTe
    /// does not compile it).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "((2,3),(4,5)):((1,2),(6,24))".parse()?;
    /// assert_eq!(l.zip()?.to_string(), "((2,4),(3,5)):((1,6),(2,24))");
    /// assert_eq!("(2,4):(4,1)".parse::<Layout>()?.zip()?.to_string(), "((2,4)):((4,1))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn zip(&self) -> Result<Layout, LayoutError> {
        Layout::new(self.shape().zip()?, self.stride().zip()?)
    }

    /// CuTe `zip(layoutA, layoutB)`: `make_layout(zip(shape(A), shape(B)), zip(stride(A),
    /// stride(B)))`, the modes of the two layouts interleaved pairwise.
    ///
    /// # Laws
    /// * `size(R) == size(A) * size(B)`, and `R` is `zip` of the rank-2 layout `(A, B)`.
    ///
    /// # Errors
    /// As [`Layout::zip`]: the two shapes must be both integers or tuples of the same rank.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let a: Layout = "(2,3):(1,2)".parse()?;
    /// let b: Layout = "(4,5):(6,24)".parse()?;
    /// assert_eq!(a.zip_with(&b)?.to_string(), "((2,4),(3,5)):((1,6),(2,24))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn zip_with(&self, other: &Layout) -> Result<Layout, LayoutError> {
        Layout::from_modes([self.clone(), other.clone()])?.zip()
    }

    /// CuTe `tile_unzip(layout, tiler)` (`zip2_by` on the shape and the stride): the rank-2
    /// results found at the leaves of the tiler gathered as `((firsts...), (seconds..., modes
    /// past the tiler...))`. `zipped_divide(L, T) == tile_unzip(logical_divide(L, T), T)` and
    /// the same for the products.
    ///
    /// # Laws
    /// * The same function of the 1-D index within each gathered group; `size(R) == size(L)`;
    ///   a layout, integer or `_` tiler needs `L` of rank 2 and returns it unchanged.
    ///
    /// # Errors
    /// [`LayoutError::RankMismatch`] where a mode met by a leaf of the tiler is not of rank 2 or
    /// the tiler has more modes than the layout (CuTe's `static_assert`s).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tiler};
    /// let l: Layout = "((2,4),(3,5)):((1,2),(8,24))".parse()?;
    /// let t: Tiler = "(2,3)".parse()?;
    /// assert_eq!(l.tile_unzip(&t)?.to_string(), "((2,3),(4,5)):((1,8),(2,24))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tile_unzip(&self, tiler: &Tiler) -> Result<Layout, LayoutError> {
        algebra::tile_unzip_public(self, tiler)
    }

    /// CuTe's backward coalesce `detail::bw_coalesce<R-1>(flat_shape, flat_stride, new_shape,
    /// new_stride)`: the flat modes of `self` folded, last to first, onto the front of `init`
    /// (a flat layout). An extent-1 mode is skipped; an `init` whose shape is the integer 1 is
    /// replaced by the first mode met; a mode `s:d` with `s * d` equal to the front stride of the
    /// result merges into it; any other mode is prepended. A result of extent 1 is `1:0`.
    /// Without `init` it is CuTe's `coalesce` (the last flat mode is the start).
    ///
    /// # Laws
    /// * `R(i) == L'(i)` for `0 <= i < size(L) * size(init)`, where `L'` is `(flatten(L)...,
    ///   init...)`: the same function of the 1-D index; `size(R) == size(L) * size(init)`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if `init` is not flat; [`LayoutError::Overflow`] if the
    /// result's size or span leaves `i64`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(2,4):(1,2)".parse()?;
    /// assert_eq!(l.bw_coalesce(Some(&"3:8".parse()?))?.to_string(), "24:1");
    /// assert_eq!(l.bw_coalesce(Some(&"3:7".parse()?))?.to_string(), "(8,3):(1,7)");
    /// assert_eq!(l.bw_coalesce(Some(&"1:5".parse()?))?.to_string(), "8:1");
    /// assert_eq!(l.bw_coalesce(None)?.to_string(), "8:1");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn bw_coalesce(&self, init: Option<&Layout>) -> Result<Layout, LayoutError> {
        const OP: &str = "bw_coalesce";
        let old: Vec<(i64, i64)> = self
            .shape_leaves()
            .iter()
            .copied()
            .zip(self.stride_leaves().iter().copied())
            .collect();
        let (mut new, mut is_int, old) = match init {
            Some(n) => {
                if n.depth() > 1 {
                    return Err(invalid(
                        OP,
                        alloc::format!("the layout to fold onto, {n}, is not flat"),
                    ));
                }
                let modes: Vec<(i64, i64)> = n
                    .shape_leaves()
                    .iter()
                    .copied()
                    .zip(n.stride_leaves().iter().copied())
                    .collect();
                (modes, n.is_leaf(), &old[..])
            }
            None => match old.split_last() {
                Some((&last, rest)) => (alloc::vec![last], true, rest),
                None => return Ok(self.coalesce()),
            },
        };
        for &(s, d) in old.iter().rev() {
            if s == 1 {
                continue;
            }
            if is_int && new[0].0 == 1 {
                new[0] = (s, d);
            } else if new.first().is_some_and(|f| s.checked_mul(d) == Some(f.1)) {
                new[0].0 = s
                    .checked_mul(new[0].0)
                    .ok_or_else(|| LayoutError::overflow(OP))?;
                new[0].1 = d;
            } else {
                new.insert(0, (s, d));
                is_int = false;
            }
        }
        if is_int && new[0].0 == 1 {
            return Layout::new(IntTuple::int(1), IntTuple::int(0));
        }
        let (shape, stride): (Vec<i64>, Vec<i64>) = new.into_iter().unzip();
        if is_int {
            Layout::new(IntTuple::int(shape[0]), IntTuple::int(stride[0]))
        } else {
            Layout::new(IntTuple::flat(shape), IntTuple::flat(stride))
        }
    }

    /// CuTe `transform_layout(layout, f)`: `make_layout(f(layout<0>), f(layout<1>), ...)`, each
    /// top-level mode replaced by `f` of it (a layout with an integer shape is its own mode 0).
    ///
    /// # Laws
    /// * `rank(R) == rank(L)` and mode `i` of `R` is `f(mode i of L)`.
    ///
    /// # Errors
    /// What `f` returns; [`LayoutError::Overflow`] / `TooDeep` from the concatenation.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, LayoutError};
    /// let l: Layout = "((2,4),(3,1)):((1,2),(8,0))".parse()?;
    /// let r = l.transform_layout(|m| Ok::<_, LayoutError>(m.coalesce()))?;
    /// assert_eq!(r.to_string(), "(8,3):(1,8)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn transform_layout<E: From<LayoutError>>(
        &self,
        mut f: impl FnMut(&Layout) -> Result<Layout, E>,
    ) -> Result<Layout, E> {
        let modes = self.modes().map(|m| f(&m)).collect::<Result<Vec<_>, E>>()?;
        Ok(Layout::from_modes(modes)?)
    }

    /// CuTe `transform_layout(t0, t1, f)` with `t0 = self`: `f` applied to the first
    /// `R = min(rank(L), items.len())` modes paired with `items`, then the remaining modes of
    /// `L` unchanged, then `extra` of each remaining item (CuTe appends the remaining elements of
    /// `t1` as modes).
    ///
    /// # Laws
    /// * Mode `i < R` of the result is `f(mode i of L, items[i])`; `rank(R) == max(rank(L),
    ///   items.len())`.
    ///
    /// # Errors
    /// What `f` and `extra` return; [`LayoutError::Overflow`] / `TooDeep` from the
    /// concatenation.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, LayoutError, Tiler};
    /// let l: Layout = "(8,6):(1,8)".parse()?;
    /// let tilers: Vec<Tiler> = vec!["2:1".parse()?];
    /// let r = l.transform_layout_with(&tilers, |m, t| m.logical_divide(t), |_| {
    ///     Err(LayoutError::InvalidArgument { op: "example", what: "no extra".into() })
    /// })?;
    /// assert_eq!(r.to_string(), "((2,4),6):((1,2),8)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn transform_layout_with<T, E: From<LayoutError>>(
        &self,
        items: &[T],
        mut f: impl FnMut(&Layout, &T) -> Result<Layout, E>,
        mut extra: impl FnMut(&T) -> Result<Layout, E>,
    ) -> Result<Layout, E> {
        let mut modes = Vec::new();
        let mut own = self.modes();
        let mut its = items.iter();
        loop {
            match (own.next(), its.next()) {
                (Some(m), Some(t)) => modes.push(f(&m, t)?),
                (Some(m), None) => modes.push(m),
                (None, Some(t)) => modes.push(extra(t)?),
                (None, None) => break,
            }
        }
        // CuTe's order: the paired modes, then the rest of `t0`, then the rest of `t1`; only
        // one of the two rests is non-empty, so the loop above already has that order.
        Ok(Layout::from_modes(modes)?)
    }

    /// The layout with the sub-layout at the hierarchical index `path` replaced by `f` of it
    /// (the empty path is the whole layout; index 0 of an integer-shaped mode is the mode
    /// itself, as CuTe's `get<0>` of an integer). This is NVlabs PyCuTe's `op[mode](A, ...)`
    /// (`logical_divide[1](A, B)`, `composition(A, B, mode=(0, 1))`); in CuTe C++ the same
    /// results come from a tiler or profile with `_` in the other modes, e.g.
    /// `logical_divide(A, make_tile(_, B))`.
    ///
    /// # Laws
    /// * `R.mode_at(path) == f(L.mode_at(path))`; every mode off the path is unchanged.
    ///
    /// # Errors
    /// [`LayoutError::ModeOutOfRange`] if `path` leaves the layout's tree; what `f` returns.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tiler};
    /// let a: Layout = "((3,8),5):((1,3),24)".parse()?;
    /// let b: Tiler = "4:2".parse()?;
    /// let r = a.map_mode(&[0, 1], |m| m.logical_divide(&b))?;
    /// assert_eq!(r.to_string(), "((3,(4,2)),5):((1,(6,3)),24)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn map_mode<E: From<LayoutError>>(
        &self,
        path: &[usize],
        f: impl FnOnce(&Layout) -> Result<Layout, E>,
    ) -> Result<Layout, E> {
        let Some((&i, rest)) = path.split_first() else {
            return f(self);
        };
        let rank = self.rank();
        let Some(m) = self.mode(i) else {
            return Err(LayoutError::ModeOutOfRange {
                op: "map_mode",
                index: i,
                rank,
            }
            .into());
        };
        if self.is_leaf() {
            return m.map_mode(rest, f);
        }
        let r = m.map_mode(rest, f)?;
        Ok(self.replace(i, &r)?)
    }
}

impl IntTuple {
    /// CuTe `zip(t)` (transpose): a tuple of tuples `((a,b,c),(x,y,z))` becomes
    /// `((a,x),(b,y),(c,z))`; a tuple whose first element is an integer becomes the 1-tuple
    /// `(t)`; an integer is unchanged.
    ///
    /// # Laws
    /// * Element `j` of element `i` of `R` is element `i` of element `j` of `t`; `zip(zip(t)) ==
    ///   t` for a tuple of tuples of equal rank.
    ///
    /// # Errors
    /// [`LayoutError::RankMismatch`] if an element is an integer or a tuple of another rank than
    /// the first (CuTe's "Mismatched Ranks"); [`LayoutError::InvalidArgument`] for `()`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let t: IntTuple = "((1,2,3),(4,5,6))".parse()?;
    /// assert_eq!(t.zip()?.to_string(), "((1,4),(2,5),(3,6))");
    /// assert_eq!("(1,2)".parse::<IntTuple>()?.zip()?.to_string(), "((1,2))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn zip(&self) -> Result<IntTuple, LayoutError> {
        if self.is_int() {
            return Ok(self.clone());
        }
        let elems: Vec<IntTuple> = self.elements().collect();
        let Some(first) = elems.first() else {
            return Err(invalid("zip", alloc::format!("{self} has no elements")));
        };
        if first.is_int() {
            return IntTuple::tuple([self.clone()]);
        }
        let r = first.rank();
        for e in &elems {
            if e.is_int() || e.rank() != r {
                return Err(LayoutError::RankMismatch {
                    op: "zip",
                    expected: r,
                    found: if e.is_int() { 0 } else { e.rank() },
                });
            }
        }
        let cols = (0..r)
            .map(|j| IntTuple::tuple(elems.iter().filter_map(|e| e.get(j))))
            .collect::<Result<Vec<_>, _>>()?;
        IntTuple::tuple(cols)
    }

    /// CuTe `compact_order(shape, order)`: the compact stride that lays the modes of `shape` out
    /// in the order `order` ranks them. `order` is weakly congruent to `shape`; each of its
    /// leaves `o` covers a sub-shape, laid out column-major from the product of the extents of
    /// every leaf ranked below `o` (strictly: two leaves of the same rank start at the same
    /// stride, as in CuTe, and the layout then overlaps).
    ///
    /// # Laws
    /// * For distinct ranks, `Layout::new(shape, R)` is [`Layout::ordered`]`(shape, order)`, a
    ///   bijection onto `[0, size(shape))`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if `order` is not weakly congruent to `shape`;
    /// [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let s: IntTuple = "(2,(3,4))".parse()?;
    /// assert_eq!(IntTuple::compact_order(&s, &"(1,0)".parse()?)?.to_string(), "(12,(1,3))");
    /// assert_eq!(IntTuple::compact_order(&"(4,8)".parse()?, &"(5,5)".parse()?)?.to_string(), "(1,1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn compact_order(shape: &IntTuple, order: &IntTuple) -> Result<IntTuple, LayoutError> {
        const OP: &str = "compact_order";
        if !order.weakly_congruent(shape) {
            return Err(invalid(
                OP,
                alloc::format!("order {order} is not weakly congruent to shape {shape}"),
            ));
        }
        let ref_shape = shape.product_like(order)?;
        let refs: Vec<(i64, i64)> = ref_shape
            .leaves()
            .iter()
            .copied()
            .zip(order.leaves().iter().copied())
            .collect();
        fn go(
            shape: &IntTuple,
            order: &IntTuple,
            refs: &[(i64, i64)],
        ) -> Result<IntTuple, LayoutError> {
            if let Some(o) = order.as_int() {
                let start = refs
                    .iter()
                    .filter(|&&(_, ro)| ro < o)
                    .try_fold(1i64, |acc, &(s, _)| acc.checked_mul(s))
                    .ok_or_else(|| LayoutError::overflow(OP))?;
                return IntTuple::compact_major(shape, start, false);
            }
            let parts = shape
                .elements()
                .zip(order.elements())
                .map(|(s, o)| go(&s, &o, refs))
                .collect::<Result<Vec<_>, _>>()?;
            IntTuple::tuple(parts)
        }
        go(shape, order, &refs)
    }

    /// The coordinates of `shape` in the order of CuTe's `make_coord_iterator`: from `start`
    /// (default all zeros) the leaf that `order` ranks 0 moves fastest, carrying into the leaf
    /// ranked 1, and so on, until the leaf ranked last reaches its extent. Without `order` the
    /// leaves move left to right (colexicographic: the order of the 1-D index). `order` is
    /// congruent to `shape` and its leaves are a permutation of `0..n`.
    ///
    /// # Laws
    /// * From the zero start without `order`, coordinate `i` is `idx2crd(i, shape)`, for
    ///   `0 <= i < size(shape)`; every coordinate is congruent to `shape` and inside it.
    ///
    /// # Errors
    /// [`LayoutError::CoordMismatch`] / [`LayoutError::CoordOutOfRange`] for a start that is not
    /// a coordinate inside `shape`; [`LayoutError::InvalidArgument`] for an `order` that is not
    /// a congruent permutation, or a shape without leaves; [`LayoutError::TooLarge`] past
    /// [`MAX_COORDINATES`] coordinates or [`MAX_COORDINATE_INTEGERS`] integers in all.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let s: IntTuple = "(2,3)".parse()?;
    /// let text = |v: Vec<IntTuple>| v.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ");
    /// assert_eq!(text(s.coordinates(None, None)?), "(0,0) (1,0) (0,1) (1,1) (0,2) (1,2)");
    /// assert_eq!(text(s.coordinates(Some(&"(1,1)".parse()?), Some(&"(1,0)".parse()?))?),
    ///            "(1,1) (1,2)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn coordinates(
        &self,
        start: Option<&IntTuple>,
        order: Option<&IntTuple>,
    ) -> Result<Vec<IntTuple>, LayoutError> {
        const OP: &str = "make_coord_iterator";
        let ext = self.leaves();
        let n = ext.len();
        if n == 0 {
            return Err(invalid(OP, alloc::format!("shape {self} has no leaves")));
        }
        self.check_extents(OP)?;
        let mut c: Vec<i64> = match start {
            None => alloc::vec![0; n],
            Some(s) => {
                if !s.congruent(self) {
                    return Err(LayoutError::CoordMismatch {
                        op: OP,
                        coord: alloc::boxed::Box::new(s.clone()),
                        shape: alloc::boxed::Box::new(self.clone()),
                    });
                }
                if s.leaves().iter().zip(ext).any(|(&x, &e)| x < 0 || x >= e) {
                    return Err(LayoutError::CoordOutOfRange {
                        op: OP,
                        coord: alloc::boxed::Box::new(s.clone()),
                        shape: alloc::boxed::Box::new(self.clone()),
                    });
                }
                s.leaves().to_vec()
            }
        };
        // seq[k] is the leaf ranked k.
        let seq: Vec<usize> = match order {
            None => (0..n).collect(),
            Some(o) => {
                let bad = || {
                    invalid(
                        OP,
                        alloc::format!(
                            "order {o} is not congruent to shape {self} with leaves 0..{n} once each"
                        ),
                    )
                };
                if !o.congruent(self) {
                    return Err(bad());
                }
                let mut seq = alloc::vec![usize::MAX; n];
                for (leaf, &r) in o.leaves().iter().enumerate() {
                    let r = usize::try_from(r).map_err(|_| bad())?;
                    if r >= n || seq[r] != usize::MAX {
                        return Err(bad());
                    }
                    seq[r] = leaf;
                }
                seq
            }
        };
        // The count from `start`: its mixed-radix rank in `seq`'s order, from the size.
        let mut done = 0i64;
        let mut weight = 1i64;
        for &leaf in &seq {
            done = weight
                .checked_mul(c[leaf])
                .and_then(|x| x.checked_add(done))
                .ok_or_else(|| LayoutError::overflow(OP))?;
            weight = weight
                .checked_mul(ext[leaf])
                .ok_or_else(|| LayoutError::overflow(OP))?;
        }
        let count = weight - done;
        if count > MAX_COORDINATES {
            return Err(LayoutError::TooLarge {
                op: OP,
                what: alloc::format!("{count} coordinates"),
                limit: MAX_COORDINATES,
            });
        }
        // n <= MAX_NODES and count <= MAX_COORDINATES: the product fits.
        let integers = count * n as i64;
        if integers > MAX_COORDINATE_INTEGERS {
            return Err(LayoutError::TooLarge {
                op: OP,
                what: alloc::format!("{count} coordinates of {n} integers each"),
                limit: MAX_COORDINATE_INTEGERS,
            });
        }
        let mut out = Vec::with_capacity(count as usize);
        let last = seq[n - 1];
        while c[last] != ext[last] {
            out.push(IntTuple::flat(c.iter().copied()).unflatten(self)?);
            c[seq[0]] += 1;
            for k in 1..n {
                if c[seq[k - 1]] == ext[seq[k - 1]] {
                    c[seq[k - 1]] = 0;
                    c[seq[k]] += 1;
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn l(s: &str) -> Layout {
        s.parse().unwrap()
    }

    fn t(s: &str) -> IntTuple {
        s.parse().unwrap()
    }

    /// Every layout of rank <= 2 with extents in 1..=4 and strides in 0..=8 (depth 1).
    fn small_layouts() -> Vec<Layout> {
        let mut v = Vec::new();
        for s0 in 1..=4 {
            for d0 in 0..=8 {
                v.push(l(&alloc::format!("{s0}:{d0}")));
                for s1 in 1..=4 {
                    for d1 in (0..=8).step_by(2) {
                        v.push(l(&alloc::format!("({s0},{s1}):({d0},{d1})")));
                    }
                }
            }
        }
        v
    }

    #[test]
    fn domain_offset_is_the_offset_of_the_coordinate() {
        for a in small_layouts() {
            for i in 0..a.size() {
                let c = IntTuple::int(i);
                let (same, off) = a.domain_offset(&c).unwrap();
                assert_eq!(same, a);
                assert_eq!(off, a.index(&c).unwrap());
            }
        }
    }

    /// max_alignment: the first R offsets of the right inverse's order are 0..R, and R divides
    /// every stride of the rest (the law), over the whole small domain, whenever CuTe answers.
    #[test]
    fn max_alignment_law() {
        for a in small_layouts() {
            let Ok(r) = a.max_alignment() else { continue };
            assert!(r >= 1, "{a}");
            let inv = a.coalesce().right_inverse();
            assert_eq!(inv.size() % r, 0, "{a}: {r}");
            for i in 0..r {
                assert_eq!(
                    a.coalesce()
                        .index(&IntTuple::int(inv.index(&IntTuple::int(i)).unwrap()))
                        .unwrap(),
                    i,
                    "{a}"
                );
            }
        }
    }

    #[test]
    fn zip_transposes_and_keeps_the_function() {
        for a in small_layouts() {
            let pair = Layout::from_modes([a.clone(), a.clone()]).unwrap();
            if a.is_leaf() {
                continue;
            }
            let z = pair.zip().unwrap();
            assert_eq!(z.size(), pair.size());
            assert_eq!(z.zip().unwrap(), pair, "{pair}");
            // R((c00,c10),(c01,c11)) == L((c00,c01),(c10,c11))
            let (r0, r1) = (a.mode(0).unwrap().size(), a.mode(1).unwrap().size());
            for c00 in 0..r0 {
                for c01 in 0..r1 {
                    for c10 in 0..r0 {
                        for c11 in 0..r1 {
                            let lhs = z
                                .index(&t(&alloc::format!("(({c00},{c10}),({c01},{c11}))")))
                                .unwrap();
                            let rhs = pair
                                .index(&t(&alloc::format!("(({c00},{c01}),({c10},{c11}))")))
                                .unwrap();
                            assert_eq!(lhs, rhs);
                        }
                    }
                }
            }
        }
        assert_eq!(t("7").zip().unwrap(), t("7"));
        assert!(t("((1,2),3)").zip().is_err());
        assert!(t("((1,2),(3,4,5))").zip().is_err());
        assert!(t("()").zip().is_err());
    }

    /// bw_coalesce keeps the function of `(flatten(L)..., init...)` on the whole domain.
    #[test]
    fn bw_coalesce_law() {
        let inits = [
            "1:0",
            "1:5",
            "3:8",
            "3:7",
            "(2,2):(4,16)",
            "(1,3):(0,2)",
            "(3):(4)",
        ];
        for a in small_layouts() {
            assert_eq!(a.bw_coalesce(None).unwrap(), a.coalesce(), "{a}");
            for init in inits {
                let init = l(init);
                let r = a.bw_coalesce(Some(&init)).unwrap();
                let full = Layout::from_modes(a.flatten().modes().chain(init.modes())).unwrap();
                assert_eq!(r.size(), full.size(), "{a} {init}");
                for i in 0..full.size() {
                    let c = IntTuple::int(i);
                    assert_eq!(
                        r.index(&c).unwrap(),
                        full.index(&c).unwrap(),
                        "{a} {init}: {r} at {i}"
                    );
                }
            }
        }
        assert!(l("(2,4):(1,2)")
            .bw_coalesce(Some(&l("(2,(2,2)):(1,(2,4))")))
            .is_err());
    }

    #[test]
    fn transform_layout_by_mode() {
        let a = l("((2,4),(3,1)):((1,2),(8,0))");
        let r = a
            .transform_layout(|m| Ok::<_, LayoutError>(m.coalesce()))
            .unwrap();
        assert_eq!(r.to_string(), "(8,3):(1,8)");
        let extra = [l("5:100"), l("6:200")];
        let r = l("4:1")
            .transform_layout_with(
                &extra,
                |m, e| Layout::from_modes([m.clone(), e.clone()]),
                |e| Ok::<_, LayoutError>(e.clone()),
            )
            .unwrap();
        assert_eq!(r.to_string(), "((4,5),6):((1,100),200)");
    }

    #[test]
    fn map_mode_replaces_one_node() {
        let a = l("((3,8),5):((1,3),24)");
        let id = |m: &Layout| Ok::<_, LayoutError>(m.clone());
        assert_eq!(a.map_mode(&[], id).unwrap(), a);
        assert_eq!(a.map_mode(&[0, 1], id).unwrap(), a);
        assert_eq!(a.map_mode(&[1, 0], id).unwrap(), a);
        assert!(a.map_mode(&[2], id).is_err());
        assert!(a.map_mode(&[0, 2], id).is_err());
        let r = a
            .map_mode(&[1], |m| m.logical_divide(&"5:1".parse().unwrap()))
            .unwrap();
        assert_eq!(r.to_string(), "((3,8),(5,1)):((1,3),(24,0))");
    }

    #[test]
    fn compact_order_matches_ordered_for_distinct_ranks() {
        for (s, o) in [
            ("(2,3,4)", "(1,2,0)"),
            ("(2,(3,4))", "(1,0)"),
            ("((2,2),(2,2))", "((0,1),(2,3))"),
            ("(4,1,2)", "(2,0,1)"),
        ] {
            let (s, o) = (t(s), t(o));
            let r = IntTuple::compact_order(&s, &o).unwrap();
            assert_eq!(
                Layout::new(s.clone(), r).unwrap(),
                Layout::ordered(s, o).unwrap()
            );
        }
        assert!(IntTuple::compact_order(&t("(2,3)"), &t("(0,1,2)")).is_err());
    }

    #[test]
    fn coordinates_in_order() {
        let s = t("(2,(3,2))");
        let cs = s.coordinates(None, None).unwrap();
        assert_eq!(cs.len(), 12);
        for (i, c) in cs.iter().enumerate() {
            assert_eq!(*c, s.idx2crd(&IntTuple::int(i as i64)).unwrap());
        }
        let row = t("(2,3)").coordinates(None, Some(&t("(1,0)"))).unwrap();
        let text: Vec<_> = row.iter().map(|c| c.to_string()).collect();
        assert_eq!(text, ["(0,0)", "(0,1)", "(0,2)", "(1,0)", "(1,1)", "(1,2)"]);
        assert!(t("(2,3)").coordinates(Some(&t("(2,0)")), None).is_err());
        assert!(t("(2,3)").coordinates(None, Some(&t("(0,0)"))).is_err());
        assert!(t("(256,257)").coordinates(None, None).is_err());
        assert_eq!(t("5").coordinates(Some(&t("3")), None).unwrap().len(), 2);
        // The limits: 65,536 coordinates, 262,144 integers in all.
        assert_eq!(t("65536").coordinates(None, None).unwrap().len(), 65536);
        assert!(t("65537").coordinates(None, None).is_err());
        let eight = t("(2,2,2,2,2,2,2,256)");
        assert_eq!(eight.coordinates(None, None).unwrap().len(), 32768);
        let nine = t("(2,2,2,2,2,2,2,2,128)");
        assert!(matches!(
            nine.coordinates(None, None),
            Err(LayoutError::TooLarge { limit, .. }) if limit == MAX_COORDINATE_INTEGERS
        ));
    }
}
