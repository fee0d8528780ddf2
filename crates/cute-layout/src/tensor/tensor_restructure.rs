//! Restructuring a [`LayoutTensor`]: CuTe's tensor overloads of `flatten`, `coalesce`,
//! `group_modes`, `take`, `filter_zeros`, `filter`, `composition`, `domain_offset`,
//! `make_tensor_like`, `make_fragment_like` and `outer_partition`.
//!
//! CuTe defines each as `make_tensor(tensor.data() [+ offset], f(tensor.layout()))`: the layout
//! changes, the iterator stays (or moves by the offset `domain_offset` and `outer_partition`
//! give). A counting tensor's layout may be swizzled (`Sw<B,M,S> o OFFSET o L`): CuTe's
//! `ComposedLayout` overloads act on the inner layout `L`. A coordinate tensor's layout has
//! basis strides; the same operations act on it and keep its origin. A pointer tensor's
//! operations are those of the counting tensor of its element offsets, the result's offset
//! added to the pointer (a swizzled pointer keeps its swizzle); a zip tensor takes
//! `outer_partition`, acting on every tensor, as CuTe's does (its `ZipLayout` has no modes for
//! the other operations: they are [`LayoutError::InvalidArgument`]).
//!
//! ```
//! use cute_layout::{IntTuple, LayoutTensor};
//! let p: LayoutTensor = "gmem_ptr[16b](0x1000) o (4,6):(6,1)".parse()?;
//! let r = p.domain_offset(&IntTuple::flat([1, 2]))?; // 8 elements of 2 bytes further
//! assert_eq!(r.to_string(), "gmem_ptr[16b](0x1010) o (4,6):(6,1)");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ```
//! use cute_layout::LayoutTensor;
//! let t: LayoutTensor = "counting_iter(0) o ((2,2),3):((1,2),4)".parse()?;
//! assert_eq!(t.flatten()?.to_string(), "counting_iter(0) o (2,2,3):(1,2,4)");
//! assert_eq!(t.coalesce(None)?.to_string(), "counting_iter(0) o 12:1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::boxed::Box;
use alloc::format;
use alloc::vec::Vec;

use crate::algebra::Tiler;
use crate::basis::ScaledBasis;
use crate::composed::chain::LayoutChain;
use crate::composed::composed_layout::ComposedLayout;
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::slice::{Slice, SliceCoord};
use crate::layout::Layout;
use crate::tensor::chain_tensor::chained;
use crate::tensor::layout_tensor::{cute_slice, LayoutTensor};

/// The restructuring operations CuTe C++ has for a zip tensor. The other overloads call layout
/// functions that `ZipLayout` does not have, except `flatten` and `filter_zeros`, which take a
/// `ZipLayout` for a leaf and return the zip tensor unchanged: no zip of the tensors' results.
const ZIP_OPS: &[&str] = &["outer_partition"];

/// `f` of the inner layout of `Sw<..> o O o L` (the whole layout when it is not swizzled), the
/// outer layers kept: CuTe's `composition(layout_a, offset, f(layout_b))`.
fn inner(
    c: &ComposedLayout,
    f: impl FnOnce(&Layout) -> Result<Layout, LayoutError>,
) -> Result<ComposedLayout, LayoutError> {
    ComposedLayout::from_layers(c.layers().iter().copied(), f(c.layout())?)
}

/// The plain layout of a counting tensor, or [`LayoutError::InvalidArgument`] naming what CuTe
/// does not define for a swizzled layout.
fn plain<'a>(c: &'a ComposedLayout, op: &'static str) -> Result<&'a Layout, LayoutError> {
    c.as_layout().ok_or_else(|| LayoutError::InvalidArgument {
        op,
        what: format!("CuTe defines no {op} of a swizzled layout ({c})"),
    })
}

/// [`LayoutError::InvalidArgument`]: CuTe defines no `op` of a general composed layout.
fn no_composed(c: &LayoutChain, op: &'static str) -> LayoutError {
    LayoutError::InvalidArgument {
        op,
        what: format!("CuTe defines no {op} of a composed layout ({c})"),
    }
}

/// CuTe's `coalesce(layout, profile)` of a basis-strided layout: by mode where the profile is a
/// tuple (modes past the profile kept), the whole mode where it is an integer.
fn basis_coalesce_by(
    l: &Layout<ScaledBasis>,
    profile: &IntTuple,
) -> Result<Layout<ScaledBasis>, LayoutError> {
    if profile.is_int() {
        return l.coalesce();
    }
    let modes: Vec<Layout<ScaledBasis>> = l.modes().collect();
    if profile.rank() > modes.len() {
        return Err(LayoutError::RankMismatch {
            op: "coalesce",
            expected: modes.len(),
            found: profile.rank(),
        });
    }
    let mut out = Vec::with_capacity(modes.len());
    for (i, m) in modes.into_iter().enumerate() {
        out.push(match profile.get(i) {
            Some(p) => basis_coalesce_by(&m, &p)?,
            None => m,
        });
    }
    Layout::from_modes(out)
}

/// CuTe's `filter_zeros` of a basis-strided layout: every stride-0 leaf gets extent 1.
fn basis_filter_zeros(l: &Layout<ScaledBasis>) -> Result<Layout<ScaledBasis>, LayoutError> {
    let shape = l
        .shape
        .iter()
        .zip(l.stride.iter())
        .map(|(&s, d)| if d.value() == 0 { 1 } else { s })
        .collect();
    Layout::checked("filter_zeros", l.toks.clone(), shape, l.stride.clone())
}

/// CuTe's `composition(layout, tiler)` of a basis-strided layout: a layout tiler composes the
/// whole (1-D) function, a tuple of tilers composes mode by mode (modes past it kept), an
/// integer `n` is `n:1`, `_` keeps the mode.
fn basis_compose_tiler(
    l: &Layout<ScaledBasis>,
    tiler: &Tiler,
) -> Result<Layout<ScaledBasis>, LayoutError> {
    match tiler {
        Tiler::Layout(t) => l.compose(t),
        Tiler::Int(n) => l.compose(&Layout::col_major(IntTuple::int(*n))?),
        Tiler::Skip => Ok(l.clone()),
        Tiler::Modes(ts) => {
            let modes: Vec<Layout<ScaledBasis>> = l.modes().collect();
            if ts.len() > modes.len() {
                return Err(LayoutError::RankMismatch {
                    op: "composition",
                    expected: modes.len(),
                    found: ts.len(),
                });
            }
            let mut out = Vec::with_capacity(modes.len());
            for (i, m) in modes.into_iter().enumerate() {
                out.push(match ts.get(i) {
                    Some(t) => basis_compose_tiler(&m, t)?,
                    None => m,
                });
            }
            Layout::from_modes(out)
        }
    }
}

/// `(append<R0>(coord, _), repeat<R1>(_))` for a zipped layout `((tile),(rest))` whose modes
/// have ranks `r0` and `r1` (an integer `coord` indexes the tile mode 1-D).
///
/// `plain` says which of the two modes has an integer shape: such a mode takes a plain
/// coordinate, not a tuple of one.
fn outer_slice(
    r0: usize,
    r1: usize,
    plain: (bool, bool),
    coord: &IntTuple,
) -> Result<SliceCoord, LayoutError> {
    let tile = if coord.is_int() {
        SliceCoord::from(coord.clone())
    } else if plain.0 && coord.rank() == 1 {
        SliceCoord::from(coord.elements().next().unwrap_or_else(|| coord.clone()))
    } else {
        let n = coord.rank();
        if n > r0 {
            return Err(LayoutError::RankMismatch {
                op: "outer_partition",
                expected: r0,
                found: n,
            });
        }
        SliceCoord::tuple(
            coord
                .elements()
                .map(SliceCoord::from)
                .chain(core::iter::repeat_n(SliceCoord::all(), r0 - n)),
        )?
    };
    let rest = if plain.1 {
        SliceCoord::all()
    } else {
        SliceCoord::flat(core::iter::repeat_n(Slice::All, r1))
    };
    SliceCoord::tuple([tile, rest])
}

impl LayoutTensor {
    /// The tensor with its layout replaced: `f` of a counting or pointer tensor's (possibly
    /// swizzled) layout, `g` of a coordinate tensor's basis-strided one, `h` of a general
    /// composed layout; the iterator is kept (a zip tensor's tensors each, where CuTe has the
    /// operation: [`LayoutTensor::through_pointer`]).
    fn relayout(
        &self,
        op: &'static str,
        f: impl Fn(&ComposedLayout) -> Result<ComposedLayout, LayoutError>,
        g: impl Fn(&Layout<ScaledBasis>) -> Result<Layout<ScaledBasis>, LayoutError>,
        h: impl Fn(&LayoutChain) -> Result<LayoutChain, LayoutError>,
    ) -> Result<LayoutTensor, LayoutError> {
        if let Some(r) = self.through_pointer(op, |t| t.relayout_here(op, &f, &g, &h)) {
            return r;
        }
        self.relayout_here(op, &f, &g, &h)
    }

    /// [`LayoutTensor::relayout`] of a counting, coordinate or chain tensor.
    fn relayout_here(
        &self,
        op: &'static str,
        f: impl FnOnce(&ComposedLayout) -> Result<ComposedLayout, LayoutError>,
        g: impl FnOnce(&Layout<ScaledBasis>) -> Result<Layout<ScaledBasis>, LayoutError>,
        h: impl FnOnce(&LayoutChain) -> Result<LayoutChain, LayoutError>,
    ) -> Result<LayoutTensor, LayoutError> {
        Ok(match self {
            LayoutTensor::Chain { base, chain } => chained(*base, 0, h(chain)?, op)?,
            LayoutTensor::Counting { base, layout } => LayoutTensor::Counting {
                base: *base,
                layout: f(layout)?,
            },
            LayoutTensor::Coords(t) => {
                LayoutTensor::Coords(Box::new(t.with(zero_strides(g(t.layout())?), None)?))
            }
            #[allow(unreachable_patterns)]
            _ => return Err(self.not_here(op)),
        })
    }

    /// The error for a kind of tensor an operation does not take (the operations here answer
    /// counting, coordinate and chain tensors, and pointer and zip tensors where CuTe has them).
    pub(crate) fn not_here(&self, op: &'static str) -> LayoutError {
        LayoutError::InvalidArgument {
            op,
            what: format!("{op} does not take this kind of tensor: {self}"),
        }
    }

    /// `op` of a pointer tensor or a zip tensor, `None` for the other kinds: a pointer
    /// tensor's is `f` of the counting tensor of its element offsets with the result's offset
    /// added to the pointer (CuTe's `make_tensor(ptr + offset, f(layout))`, a swizzled pointer
    /// keeping its swizzle); a zip tensor's is the zip of its tensors' results where CuTe's
    /// zip tensor has the operation ([`ZIP_OPS`]), else [`LayoutError::InvalidArgument`].
    fn through_pointer(
        &self,
        op: &'static str,
        f: impl Fn(&LayoutTensor) -> Result<LayoutTensor, LayoutError>,
    ) -> Option<Result<LayoutTensor, LayoutError>> {
        match self {
            LayoutTensor::Pointer { .. } => Some(self.map_view(op, &f)),
            LayoutTensor::Zip(_) if ZIP_OPS.contains(&op) => Some(self.map_view(op, &f)),
            LayoutTensor::Zip(_) => Some(Err(LayoutError::InvalidArgument {
                op,
                what: format!(
                    "CuTe's zip tensor has no {op} (its ZipLayout has no modes to {op}; a zip tensor takes {}): {self}",
                    ZIP_OPS.join(", ")
                ),
            })),
            _ => None,
        }
    }

    /// CuTe's `flatten(tensor)`: the same values with every leaf of the layout a top-level
    /// mode.
    ///
    /// # Laws
    /// * `R(i) == self(i)` for every 1-D index `i`; `R` has depth at most 1.
    ///
    /// # Errors
    /// None in practice (the result is re-checked as every layout is).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutTensor;
    /// let t: LayoutTensor = "counting_iter(3) o ((2,2),3):((1,2),4)".parse()?;
    /// assert_eq!(t.flatten()?.to_string(), "counting_iter(3) o (2,2,3):(1,2,4)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn flatten(&self) -> Result<LayoutTensor, LayoutError> {
        self.relayout(
            "flatten",
            |c| inner(c, |l| Ok(l.flatten())),
            |l| Ok(l.flatten()),
            |c| c.map(|l| Ok(l.flatten())),
        )
    }

    /// CuTe's `coalesce(tensor)` and `coalesce(tensor, profile)`: the same values over the
    /// fewest modes (by mode where `profile` is a tuple; a swizzled layout coalesces its inner
    /// layout).
    ///
    /// # Laws
    /// * `R(i) == self(i)` for every 1-D index `i`; with a profile, `R` keeps the profile's
    ///   top-level modes.
    ///
    /// # Errors
    /// As [`Layout::coalesce_by_mode`] (a profile that does not fit the shape).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IntTuple, LayoutTensor};
    /// let t: LayoutTensor = "counting_iter(0) o (2,(1,6)):(1,(6,2))".parse()?;
    /// assert_eq!(t.coalesce(None)?.to_string(), "counting_iter(0) o 12:1");
    /// let by_mode = t.coalesce(Some(&"(1,1)".parse::<IntTuple>()?))?;
    /// assert_eq!(by_mode.to_string(), "counting_iter(0) o (2,6):(1,2)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn coalesce(&self, profile: Option<&IntTuple>) -> Result<LayoutTensor, LayoutError> {
        match profile {
            None => self.relayout(
                "coalesce",
                |c| inner(c, |l| Ok(l.coalesce())),
                |l| l.coalesce(),
                |c| c.map(|l| Ok(l.coalesce())),
            ),
            Some(p) => self.relayout(
                "coalesce",
                |c| inner(c, |l| l.coalesce_by_mode(p)),
                |l| basis_coalesce_by(l, p),
                |c| c.map(|l| l.coalesce_by_mode(p)),
            ),
        }
    }

    /// CuTe's `group_modes<begin,end>(tensor)`: modes `[begin, end)` grouped into one.
    ///
    /// # Laws
    /// * `R(i) == self(i)` for every 1-D index `i`; `rank(R) == rank(self) - (end - begin) + 1`.
    ///
    /// # Errors
    /// As [`Layout::group_modes`] (an empty or out-of-range range).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutTensor;
    /// let t: LayoutTensor = "counting_iter(0) o (2,3,4):(1,2,6)".parse()?;
    /// assert_eq!(t.group_modes(1, 3)?.to_string(), "counting_iter(0) o (2,(3,4)):(1,(2,6))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn group_modes(&self, begin: usize, end: usize) -> Result<LayoutTensor, LayoutError> {
        self.relayout(
            "group_modes",
            |c| inner(c, |l| l.group_modes(begin, end)),
            |l| l.group_modes(begin, end),
            |c| c.map(|l| l.group_modes(begin, end)),
        )
    }

    /// CuTe's `take<begin,end>(tensor)`: the sub-tensor of modes `[begin, end)`, the iterator
    /// kept (the other modes at coordinate 0).
    ///
    /// # Laws
    /// * `R(c) == self(0,..,0, c, 0,..,0)` with `c` in modes `[begin, end)`.
    ///
    /// # Errors
    /// As [`Layout::take_modes`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutTensor;
    /// let t: LayoutTensor = "counting_iter(5) o (2,3,4):(1,2,6)".parse()?;
    /// assert_eq!(t.take_modes(1, 3)?.to_string(), "counting_iter(5) o (3,4):(2,6)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn take_modes(&self, begin: usize, end: usize) -> Result<LayoutTensor, LayoutError> {
        self.relayout(
            "take",
            |c| inner(c, |l| l.take_modes(begin, end)),
            |l| l.take_modes(begin, end),
            |c| c.map(|l| l.take_modes(begin, end)),
        )
    }

    /// CuTe's `filter_zeros(tensor)`: every stride-0 mode gets extent 1 (the values are those
    /// at coordinate 0 of the removed modes).
    ///
    /// # Laws
    /// * Same tree; `R(c) == self(c)` for every coordinate `c` of `R`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] for a swizzled layout (CuTe defines no `filter_zeros`
    /// of a `ComposedLayout`).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutTensor;
    /// let t: LayoutTensor = "counting_iter(0) o (4,(2,3)):(0,(1,0))".parse()?;
    /// assert_eq!(t.filter_zeros()?.to_string(), "counting_iter(0) o (1,(2,1)):(0,(1,0))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn filter_zeros(&self) -> Result<LayoutTensor, LayoutError> {
        self.relayout(
            "filter_zeros",
            |c| Ok(plain(c, "filter_zeros")?.filter_zeros().into()),
            basis_filter_zeros,
            |c| Err(no_composed(c, "filter_zeros")),
        )
    }

    /// CuTe's `filter(tensor)`: `coalesce(filter_zeros(layout))`, every distinct value once in
    /// the layout's order, as one coalesced layout.
    ///
    /// # Laws
    /// * The values of `R` are those of `self` at the coordinates whose stride-0 components are
    ///   0, in the same order.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] for a swizzled layout (CuTe defines no `filter` of a
    /// `ComposedLayout` without a profile).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutTensor;
    /// let t: LayoutTensor = "counting_iter(2) o (4,(2,3)):(0,(1,2))".parse()?;
    /// assert_eq!(t.filter()?.to_string(), "counting_iter(2) o 6:1");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn filter(&self) -> Result<LayoutTensor, LayoutError> {
        self.relayout(
            "filter",
            |c| Ok(plain(c, "filter")?.filter().into()),
            |l| basis_filter_zeros(l)?.coalesce(),
            |c| Err(no_composed(c, "filter")),
        )
    }

    /// CuTe's `composition(tensor, tiler)`: `R(c) == self(tiler(c))`; a layout composes the
    /// 1-D function, a tuple of tilers (or a shape) composes mode by mode.
    ///
    /// # Laws
    /// * For a layout tiler `B`, `R(c) == self(B(c))` (a 1-D index of `self`) for every
    ///   coordinate `c` of `B`.
    ///
    /// # Errors
    /// As [`Layout::compose_tiler`] (and [`Layout::<ScaledBasis>::compose`] for a coordinate
    /// tensor).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{LayoutTensor, Tiler};
    /// let t: LayoutTensor = "counting_iter(0) o (4,6):(6,1)".parse()?;
    /// let c = t.compose_tiler(&"(2,3):(2,8)".parse::<Tiler>()?)?; // rows 0,2 of columns 0,2,4
    /// assert_eq!(c.to_string(), "counting_iter(0) o (2,3):(12,2)");
    /// let by_mode = t.compose_tiler(&"(2,3)".parse::<Tiler>()?)?;
    /// assert_eq!(by_mode.to_string(), "counting_iter(0) o (2,3):(6,1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "composition")]
    pub fn compose_tiler(&self, tiler: &Tiler) -> Result<LayoutTensor, LayoutError> {
        self.relayout(
            "composition",
            |c| c.compose_tiler(tiler),
            |l| basis_compose_tiler(l, tiler),
            |c| c.compose_tiler(tiler),
        )
    }

    /// CuTe's `domain_offset(coord, tensor)`: the iterator moves to the value at `coord`, the
    /// layout stays (a swizzled layout `Sw o O o L` takes the offset into `O`, as CuTe's
    /// `domain_offset` of a `ComposedLayout` does, and the iterator stays).
    ///
    /// # Laws
    /// * `R(x) == self(coord + x)` (coordinates added leaf by leaf) wherever `coord + x` lies
    ///   in the shape.
    ///
    /// # Errors
    /// As [`Layout::index`] (a coordinate that does not fit the shape);
    /// [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IntTuple, LayoutTensor};
    /// let t: LayoutTensor = "counting_iter(1) o (4,6):(6,1)".parse()?;
    /// let r = t.domain_offset(&IntTuple::flat([1, 2]))?;
    /// assert_eq!(r.to_string(), "counting_iter(9) o (4,6):(6,1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn domain_offset(&self, coord: &IntTuple) -> Result<LayoutTensor, LayoutError> {
        if let Some(r) = self.through_pointer("domain_offset", |t| t.domain_offset(coord)) {
            return r;
        }
        match self {
            LayoutTensor::Counting { base, layout } => {
                let (chain, off) = LayoutChain::from(layout.clone()).domain_offset(coord)?;
                let layout = chain.to_composed().ok_or(LayoutError::InvalidArgument {
                    op: "domain_offset",
                    what: format!("the result {chain} is not a swizzled layout"),
                })?;
                let base = base
                    .checked_add(off)
                    .ok_or(LayoutError::overflow("domain_offset"))?;
                Ok(LayoutTensor::Counting { base, layout })
            }
            LayoutTensor::Coords(t) => Ok(LayoutTensor::Coords(Box::new(
                t.with(t.layout().clone(), Some(coord.clone()))?,
            ))),
            LayoutTensor::Chain { base, chain } => {
                let (ch, off) = chain.domain_offset(coord)?;
                chained(*base, off, ch, "domain_offset")
            }
            #[allow(unreachable_patterns)]
            _ => Err(self.not_here("domain_offset")),
        }
    }

    /// CuTe's `make_tensor_like(tensor)`: a fresh register tensor of the same shape, its
    /// layout `make_layout_like(layout)` (compact, strides in the order of the layout's). The
    /// fresh tensor's iterator is its own storage, written `counting_iter(0)`: its values are
    /// the offsets into that storage. A pointer tensor's fresh tensor is written the same way:
    /// CuTe allocates a register array of the pointer's element type and prints its address
    /// (`ptr[16b](0x7ff…)`), which depends on where the array lands, not on the input.
    ///
    /// # Laws
    /// * `R` is `counting_iter(0) o make_layout_like(L)`: same shape, a bijection onto
    ///   `0..size` where `L` is injective.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] for a swizzled layout (CuTe defines no
    /// `make_layout_like` of a `ComposedLayout`), for a coordinate tensor (its values are
    /// not stored; CuTe C++ does not compile `make_tensor_like` of an identity tensor) and for
    /// a zip tensor (CuTe's `ZipLayout` has no `make_layout_like`); as [`Layout::layout_like`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutTensor;
    /// let t: LayoutTensor = "counting_iter(7) o (4,8):(8,1)".parse()?;
    /// assert_eq!(t.tensor_like()?.to_string(), "counting_iter(0) o (4,8):(8,1)");
    /// let s: LayoutTensor = "counting_iter(0) o (4,8):(40,2)".parse()?;
    /// assert_eq!(s.tensor_like()?.to_string(), "counting_iter(0) o (4,8):(8,1)");
    /// let p: LayoutTensor = "smem_ptr[16b](0x400) o (4,8):(40,2)".parse()?;
    /// assert_eq!(p.tensor_like()?.to_string(), "counting_iter(0) o (4,8):(8,1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "make_tensor_like")]
    pub fn tensor_like(&self) -> Result<LayoutTensor, LayoutError> {
        let l = self.counting_layout("make_tensor_like")?;
        Ok(LayoutTensor::counting(
            0,
            plain(l, "make_tensor_like")?.layout_like()?,
        ))
    }

    /// CuTe's `make_fragment_like(tensor)`: a fresh register tensor of the same shape, its
    /// layout `make_fragment_like(layout)` (mode 0 column-major, the other modes ordered like
    /// the layout's; a swizzled layout's inner layout). Its iterator is its own storage,
    /// written `counting_iter(0)`, for a pointer tensor too (see [`LayoutTensor::tensor_like`]).
    ///
    /// # Laws
    /// * `R` is `counting_iter(0) o make_fragment_like(L)` (`L` the inner layout if swizzled).
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] for a coordinate tensor and a zip tensor (see
    /// [`LayoutTensor::tensor_like`]); as [`Layout::fragment_like`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutTensor;
    /// let t: LayoutTensor = "counting_iter(7) o (4,8):(8,1)".parse()?;
    /// assert_eq!(t.fragment_like()?.to_string(), "counting_iter(0) o (4,(8)):(1,(4))"); // as CuTe's
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "make_fragment_like")]
    pub fn fragment_like(&self) -> Result<LayoutTensor, LayoutError> {
        let l = self.counting_layout("make_fragment_like")?;
        Ok(LayoutTensor::counting(0, l.layout().fragment_like()?))
    }

    fn counting_layout(&self, op: &'static str) -> Result<&ComposedLayout, LayoutError> {
        match self {
            LayoutTensor::Counting { layout, .. } | LayoutTensor::Pointer { layout, .. } => {
                Ok(layout)
            }
            LayoutTensor::Zip(_) => Err(LayoutError::InvalidArgument {
                op,
                what: format!(
                    "CuTe defines no {op} of a zip tensor (its ZipLayout has no {}): {self}",
                    if op == "make_tensor_like" { "make_layout_like" } else { "make_fragment_like" }
                ),
            }),
            LayoutTensor::Coords(_) => Err(LayoutError::InvalidArgument {
                op,
                what: format!(
                    "{self} is a coordinate tensor: its values are computed, not stored (CuTe C++ does not compile {op} of an identity tensor)"
                ),
            }),
            LayoutTensor::Chain { chain, .. } => Err(no_composed(chain, op)),
            #[allow(unreachable_patterns)]
            _ => Err(self.not_here(op)),
        }
    }

    /// CuTe's `outer_partition(tensor, tiler, coord)`: tile the tensor by `tiler`
    /// (`zipped_divide`) and take element `coord` of every tile,
    /// `zipped_divide(T, tiler)((coord, _...), (_...))` (an integer `coord` indexes the tile
    /// 1-D). `local_partition` is `outer_partition` by the thread layout's shape at the
    /// thread's coordinate.
    ///
    /// # Laws
    /// * `R(c) == self(c * tile_shape + coord)` per mode, for every coordinate `c` of the grid
    ///   of tiles (a tiler of integers dividing the shape).
    ///
    /// # Errors
    /// As [`Layout::zipped_divide`] and [`LayoutTensor::slice`] (a coordinate outside the tile
    /// is [`LayoutError::CoordOutOfRange`]); [`LayoutError::RankMismatch`] for a coordinate of
    /// more modes than the tiler.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IntTuple, LayoutTensor, Tiler};
    /// let t: LayoutTensor = "counting_iter(0) o (4,6):(6,1)".parse()?;
    /// let p = t.outer_partition(&"(2,3)".parse::<Tiler>()?, &IntTuple::flat([1, 2]))?;
    /// assert_eq!(p.to_string(), "counting_iter(8) o (2,2):(12,3)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn outer_partition(
        &self,
        tiler: &Tiler,
        coord: &IntTuple,
    ) -> Result<LayoutTensor, LayoutError> {
        if let Some(r) =
            self.through_pointer("outer_partition", |t| t.outer_partition(tiler, coord))
        {
            return r;
        }
        match self {
            LayoutTensor::Counting { base, layout } => {
                let z = layout.zipped_divide(tiler)?;
                let rank_of = |i: usize| z.mode(i).map_or(1, |m| m.rank());
                let plain = |i: usize| z.mode(i).is_some_and(|m| m.layout().shape().is_int());
                let c = outer_slice(rank_of(0), rank_of(1), (plain(0), plain(1)), coord)?;
                let (l, off) = cute_slice(&z, &c)?;
                let base = base
                    .checked_add(off)
                    .ok_or(LayoutError::overflow("outer_partition"))?;
                Ok(LayoutTensor::Counting { base, layout: l })
            }
            LayoutTensor::Coords(t) => {
                let z = t.zipped_divide(tiler)?;
                let rank_of = |i: usize| z.layout().mode(i).map_or(1, |m| m.rank());
                let plain = |i: usize| z.layout().mode(i).is_some_and(|m| m.shape().is_int());
                let c = outer_slice(rank_of(0), rank_of(1), (plain(0), plain(1)), coord)?;
                Ok(LayoutTensor::Coords(Box::new(z.slice(&c)?)))
            }
            LayoutTensor::Chain { base, chain } => {
                let z = chain.map(|l| l.zipped_divide(tiler))?;
                let rank_of = |i: usize| z.layout().mode(i).map_or(1, |m| m.rank());
                let plain = |i: usize| z.layout().mode(i).is_some_and(|m| m.shape().is_int());
                let c = outer_slice(rank_of(0), rank_of(1), (plain(0), plain(1)), coord)?;
                let (s, off) = z.slice_and_offset(&c)?;
                chained(*base, off, s, "outer_partition")
            }
            #[allow(unreachable_patterns)]
            _ => Err(self.not_here("outer_partition")),
        }
    }
}

/// Every zero basis stride (`0@k`) as CuTe writes what its algebra makes of it: the plain `0`.
pub(crate) fn zero_strides(mut l: Layout<ScaledBasis>) -> Layout<ScaledBasis> {
    for d in l.stride.iter_mut() {
        if d.value() == 0 {
            *d = ScaledBasis::scalar(0);
        }
    }
    l
}
