//! NVlabs PyCuTe's tiler promotion to a basis-strided layout (`tiler_to_layout`) and its
//! divides of `None`, the identity of unknown extent; CuTe's `ArithmeticTuple` helpers
//! `basis_get` and `basis_value`, and the stride tuple of a layout (`make_basis_like` is the
//! stride of [`Layout::identity`]).

use alloc::vec::Vec;
use core::fmt;

use crate::algebra::Tiler;
use crate::basis::ScaledBasis;
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::{Layout, StrideValue};

/// `l`'s integer strides as basis strides along the coordinate mode at `path` (`d` becomes
/// `d@path`; a stride 0 stays a plain 0).
fn along(l: &Layout, path: &[usize]) -> Result<Layout<ScaledBasis>, LayoutError> {
    let stride = l
        .stride_leaves()
        .iter()
        .map(|&d| {
            if d == 0 {
                Ok(ScaledBasis::ZERO)
            } else {
                ScaledBasis::new(d, path)
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Layout::from_parts_unchecked(
        l.toks.clone(),
        l.shape.clone(),
        stride.into_iter().collect(),
    ))
}

/// `l`'s basis strides moved into coordinate mode `i` (`v@p` becomes `v@p@i`, a plain `v`
/// becomes `v@i`; a stride 0 stays a plain 0).
fn nest(l: &Layout<ScaledBasis>, i: usize) -> Result<Layout<ScaledBasis>, LayoutError> {
    let stride = l
        .stride_leaves()
        .iter()
        .map(|d| {
            if d.value() == 0 {
                return Ok(ScaledBasis::ZERO);
            }
            let mut path = alloc::vec![i];
            path.extend(d.path());
            ScaledBasis::new(d.value(), &path)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Layout::from_parts_unchecked(
        l.toks.clone(),
        l.shape.clone(),
        stride.into_iter().collect(),
    ))
}

fn unknown_extent(op: &'static str) -> LayoutError {
    LayoutError::InvalidArgument {
        op,
        what: "`_` in a tiler has no extent to promote to a layout".into(),
    }
}

/// A tiler with an extent: one integer layout, or a tuple of mode tilers.
// A transient return value, moved once (as `Option<Layout>` would be): no boxing needed.
#[allow(clippy::large_enum_variant)]
enum ModeTiler<'a> {
    /// `n` as `n:1`, or the layout itself.
    Layout(Layout),
    /// One tiler per coordinate mode.
    Modes(&'a [Tiler]),
}

/// The tiler `t` as an integer layout (`n` is `n:1`, a layout itself) or its mode tilers.
fn mode_layout<'a>(op: &'static str, t: &'a Tiler) -> Result<ModeTiler<'a>, LayoutError> {
    Ok(match t {
        Tiler::Int(n) => ModeTiler::Layout(Layout::new(IntTuple::int(*n), IntTuple::int(1))?),
        Tiler::Layout(l) => ModeTiler::Layout(l.clone()),
        Tiler::Skip => return Err(unknown_extent(op)),
        Tiler::Modes(ts) => ModeTiler::Modes(ts),
    })
}

/// PyCuTe's complement of `b` in a codomain of unknown extent: CuTe's complement up to
/// `b`'s extent (its holes), then an extent-1 mode whose stride is where `b`'s stride chain
/// ends (`max s*|d|`), so that the next tile would start there.
fn open_complement(b: &Layout) -> Result<Layout, LayoutError> {
    let op = "logical_divide";
    let mut end = 1i64;
    for (&s, &d) in b.shape_leaves().iter().zip(b.stride_leaves()) {
        if d != 0 {
            let e = s
                .checked_mul(d.checked_abs().ok_or(LayoutError::overflow(op))?)
                .ok_or(LayoutError::overflow(op))?;
            end = end.max(e);
        }
    }
    let tail = Layout::new(IntTuple::int(1), IntTuple::int(end))?;
    let holes = b.complement_cosize()?;
    if holes.size() == 1 {
        return Ok(tail);
    }
    if holes.is_leaf() {
        return Layout::from_modes([holes, tail]);
    }
    Layout::from_modes(holes.flatten().modes().chain([tail]))
}

impl Layout<ScaledBasis> {
    /// NVlabs PyCuTe's `tiler_to_layout(tiler)`: the tiler as one layout. An integer `n` is
    /// `n:1`, a layout is itself, and a tuple of tilers puts mode `i`'s layout along coordinate
    /// mode `i`: its strides `d` become `d@i` (nested tuples nest the mode path). A shape is
    /// thus its identity layout (`(4,5)` is `(4,5):(1@0,1@1)`).
    ///
    /// # Laws
    /// * `shape(R)` is the tiler's shape; for a tuple tiler, mode `i` of `R` evaluated at `c`
    ///   is the value of mode `i` of the tiler at `c`, placed at coordinate mode `i`.
    /// * For a shape `S`, `R == Layout::identity(S)`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] for `_` in the tiler (no extent) or a mode path deeper
    /// than [`MAX_BASIS_DEPTH`](crate::MAX_BASIS_DEPTH); [`LayoutError::InvalidExtent`] for a
    /// non-positive integer.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, ScaledBasis, Tiler};
    /// let t: Tiler = "(4:2,5:3)".parse()?;
    /// assert_eq!(Layout::<ScaledBasis>::from_tiler(&t)?.to_string(), "(4,5):(2@0,3@1)");
    /// let t: Tiler = "(3,(2,4))".parse()?;
    /// assert_eq!(Layout::<ScaledBasis>::from_tiler(&t)?.to_string(), "(3,(2,4)):(1@0,(1@0@1,1@1@1))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "tiler_to_layout")]
    pub fn from_tiler(tiler: &Tiler) -> Result<Layout<ScaledBasis>, LayoutError> {
        let op = "tiler_to_layout";
        let ts = match mode_layout(op, tiler)? {
            ModeTiler::Layout(l) => return along(&l, &[]),
            ModeTiler::Modes(ts) => ts,
        };
        let modes = ts
            .iter()
            .enumerate()
            .map(|(i, t)| nest(&Layout::<ScaledBasis>::from_tiler(t)?, i))
            .collect::<Result<Vec<_>, _>>()?;
        Layout::from_modes(modes)
    }

    /// NVlabs PyCuTe's `logical_divide(None, tiler)` (`zipped == false`) and
    /// `zipped_divide(None, tiler)` (`zipped == true`): the divide of the identity of unknown
    /// extent (CuTe C++ has no such layout). A layout tiler `B` (or an integer `n`, `n:1`) gives
    /// `(B, C)`, where `C` is `B`'s complement in an unbounded codomain: CuTe's complement up to
    /// `B`'s extent, then an extent-1 mode whose stride is where `B`'s stride chain ends. A tuple
    /// of tilers divides coordinate mode `i` by tiler `i` the same way, along basis `@i`;
    /// `zipped` gathers the tiles and the rests: `((B0,B1,..),(C0,C1,..))`.
    ///
    /// # Laws
    /// * Mode 0 of each divided mode is its tiler (promoted as [`Layout::from_tiler`]); the rest has
    ///   size 1 when `B` has no holes, and its values are disjoint from `B`'s.
    /// * For a tuple tiler, `zipped` holds the same leaves as the logical divide, regrouped.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] for `_` or a nested tuple in the tiler (no extent to
    /// divide); those of [`Layout::complement_cosize`] for a tiler that is not injective.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, ScaledBasis, Tiler};
    /// let d = |t: &str, z| Layout::<ScaledBasis>::identity_divide(&t.parse::<Tiler>().unwrap(), z);
    /// assert_eq!(d("2:1", false)?.to_string(), "(2,1):(1,2)");
    /// assert_eq!(d("(3,5)", false)?.to_string(), "((3,1),(5,1)):((1@0,3@0),(1@1,5@1))");
    /// assert_eq!(d("(3,5)", true)?.to_string(), "((3,5),(1,1)):((1@0,1@1),(3@0,5@1))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn identity_divide(
        tiler: &Tiler,
        zipped: bool,
    ) -> Result<Layout<ScaledBasis>, LayoutError> {
        let op = "logical_divide";
        let pair = |b: &Layout, path: &[usize]| -> Result<(Self, Self), LayoutError> {
            Ok((along(b, path)?, along(&open_complement(b)?, path)?))
        };
        let parts = match mode_layout(op, tiler)? {
            ModeTiler::Layout(b) => {
                let (t, c) = pair(&b, &[])?;
                return Layout::from_modes([t, c]);
            }
            ModeTiler::Modes(ts) => ts
                .iter()
                .enumerate()
                .map(|(i, t)| match mode_layout(op, t)? {
                    ModeTiler::Layout(b) => pair(&b, &[i]),
                    ModeTiler::Modes(_) => Err(LayoutError::InvalidArgument {
                        op,
                        what: alloc::format!(
                            "the tiler's mode {i} is a tuple; dividing the identity of \
                             unknown extent takes a layout or an integer per mode"
                        ),
                    }),
                })
                .collect::<Result<Vec<_>, _>>()?,
        };
        if zipped {
            let (tiles, rests): (Vec<_>, Vec<_>) = parts.into_iter().unzip();
            Layout::from_modes([Layout::from_modes(tiles)?, Layout::from_modes(rests)?])
        } else {
            Layout::from_modes(
                parts
                    .into_iter()
                    .map(|(t, c)| Layout::from_modes([t, c]))
                    .collect::<Result<Vec<_>, _>>()?,
            )
        }
    }
}

/// The stride of a layout printed on its own (see [`Layout::stride_text`]).
#[derive(Clone, Copy)]
pub struct StrideText<'a, D>(&'a Layout<D>);

impl<D: StrideValue> fmt::Display for StrideText<'_, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::layout::fmt::write_tree_with(f, &self.0.toks, &self.0.stride, |f, d| d.write(f))
    }
}

impl<D: StrideValue> Layout<D> {
    /// The stride tree on its own, in the layout's text form: for the identity layout of a
    /// shape it is CuTe's `make_basis_like(shape)`, the unit basis at each leaf's mode path.
    ///
    /// # Laws
    /// * `format!("{}:{}", l.shape(), l.stride_text()) == l.to_string()`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let id = Layout::identity("(4,(2,3))".parse()?)?;
    /// assert_eq!(id.stride_text().to_string(), "(1@0,(1@0@1,1@1@1))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "make_basis_like")]
    pub fn stride_text(&self) -> StrideText<'_, D> {
        StrideText(self)
    }
}

impl ScaledBasis {
    /// CuTe's `basis_get(e, t)`: the element of the tuple `t` at `e`'s mode path (`t` itself
    /// for a plain number): `get<i0, i1, ...>(t)`.
    ///
    /// # Laws
    /// * `basis_get(1@p, L(c)) == c_p` for the identity layout `L` of a shape and each leaf
    ///   mode path `p` of it; the path `()` gives `t`.
    ///
    /// # Errors
    /// [`LayoutError::ModeOutOfRange`] if the path leaves `t` (an index past a tuple's rank, or
    /// below an integer).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IntTuple, ScaledBasis};
    /// let t: IntTuple = "(7,(8,9))".parse()?;
    /// assert_eq!("1@0@1".parse::<ScaledBasis>()?.get(&t)?.to_string(), "8");
    /// assert_eq!("3@1".parse::<ScaledBasis>()?.get(&t)?.to_string(), "(8,9)");
    /// assert_eq!("5".parse::<ScaledBasis>()?.get(&t)?.to_string(), "(7,(8,9))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "basis_get")]
    pub fn get(&self, t: &IntTuple) -> Result<IntTuple, LayoutError> {
        let mut cur = t.clone();
        for i in self.path() {
            let rank = if cur.is_int() { 0 } else { cur.rank() };
            let next = if cur.is_int() { None } else { cur.get(i) };
            cur = next.ok_or(LayoutError::ModeOutOfRange {
                op: "basis_get",
                index: i,
                rank,
            })?;
        }
        Ok(cur)
    }
}

impl Layout {
    /// NVlabs PyCuTe's `logical_divide(A, B)` by a basis-strided tiler `B` (as
    /// [`Layout::<ScaledBasis>::from_tiler`] makes of a tuple of layouts): `A o (B, C)`, where
    /// the complement `C` has, along each top-level coordinate mode `i` of `A`, CuTe's
    /// complement of `B`'s leaves along `@i` up to the size of `A`'s mode `i`. CuTe C++'s divides
    /// complement the tiler, which does not compile with `ScaledBasis` strides; for a tuple of
    /// layouts this is the same layout as CuTe's `zipped_divide(A, tuple)`.
    ///
    /// # Laws
    /// * `R` has rank 2; mode 0 is `A.compose_basis(B)` (the tile) and `R(i) == A(T(i))` for
    ///   the basis layout `T = (B, C)`.
    /// * For `B = from_tiler(t)` of a tuple `t` of layouts, `R == zipped_divide(A, t)`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] for a stride of `B` that is not along a top-level mode
    /// of `A` (a plain non-zero number, or a deeper mode path); those of
    /// [`Layout::complement`] (a tiler that is not injective along a mode) and of
    /// [`Layout::compose_basis`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, ScaledBasis};
    /// let a: Layout = "(9,32):(1,9)".parse()?;
    /// let b: Layout<ScaledBasis> = "(3,(2,4)):(3@0,(1@1,8@1))".parse()?;
    /// assert_eq!(a.divide_basis(&b)?.to_string(), "((3,(2,4)),(3,4)):((3,(9,72)),(1,18))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "logical_divide")]
    pub fn divide_basis(&self, b: &Layout<ScaledBasis>) -> Result<Layout, LayoutError> {
        let op = "logical_divide";
        let shape = self.shape();
        let rank = if shape.is_int() { 1 } else { shape.rank() };
        let mut slots: Vec<(Vec<i64>, Vec<i64>)> = alloc::vec![(Vec::new(), Vec::new()); rank];
        for (&s, d) in b.shape_leaves().iter().zip(b.stride_leaves()) {
            if d.value() == 0 {
                continue;
            }
            let path: Vec<usize> = d.path().collect();
            match path.as_slice() {
                [i] if *i < rank => {
                    slots[*i].0.push(s);
                    slots[*i].1.push(d.value());
                }
                _ => {
                    return Err(LayoutError::InvalidArgument {
                        op,
                        what: alloc::format!(
                            "the tiler's stride {d} is not along a top-level mode of {self}"
                        ),
                    })
                }
            }
        }
        let mut rest = Vec::with_capacity(rank);
        for (i, (sh, st)) in slots.into_iter().enumerate() {
            let extent = if shape.is_int() {
                self.size()
            } else {
                self.mode(i).map_or(1, |m| m.size())
            };
            let c = if sh.is_empty() {
                Layout::new(IntTuple::int(extent), IntTuple::int(1))?
            } else {
                Layout::new(IntTuple::flat(sh), IntTuple::flat(st))?.complement(extent)?
            };
            rest.push(along(&c, &[i])?);
        }
        // A rank-1 `A` takes its one rest mode as is; otherwise the rests are `A`'s modes.
        let rest = match <[Layout<ScaledBasis>; 1]>::try_from(rest) {
            Ok([one]) => one,
            Err(modes) => Layout::from_modes(modes)?,
        };
        self.compose_basis(&Layout::from_modes([b.clone(), rest])?)
    }
}
