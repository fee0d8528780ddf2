//! `TiledCopy`: a copy atom tiled over threads and values (CuTe's `make_tiled_copy` and
//! relatives), its TV layouts, and the partitions of a tensor for one thread.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::super::{AtomError, Operand, TiledMma};
use super::typed::{bad, TypedCopyAtom};
use crate::algebra::Tiler;
use crate::composed::composed_layout::ComposedLayout;
use crate::composed::swizzle_slice::Sliced;
use crate::layout::int_tuple::IntTuple;
use crate::layout::slice::SliceCoord;
use crate::layout::Layout;

/// CuTe's `TiledCopy<Copy_Atom, TiledLayout_TV, Tiler_MN>`: a typed copy atom, the TV layout
/// `(thread, value) -> coordinate in the tile` it was built from, and the tile (`Tiler_MN`).
///
/// The partitions follow CuTe's `tidfrg_S/D`: the tensor is divided by the tile
/// (`zipped_divide`), and each tile's coordinates are mapped through the TV layout, with the
/// atom's reference layout turned into its source (or destination) layout:
/// `right_inverse(AtomLayoutRef) o AtomLayoutSrc`.
///
/// # Laws (tested against CuTe C++ 4.2's vectors)
/// * `layout_s_tv()` / `layout_d_tv()` map every (thread, value) into the tile, and, where the
///   TV layout covers the tile exactly once (`make_tiled_copy` with injective thread and value
///   layouts), every coordinate of the tile is hit by exactly one (thread, value).
/// * `partition_s(tensor, t)` holds, for each value `v` of thread `t`, the offset
///   `tensor(layout_s_tv(t, v) + tile origin)`.
///
/// # Examples
/// ```
/// use cute_layout::atom::copy::{copy_atom, TiledCopy};
/// use cute_layout::Layout;
/// let atom = copy_atom("UniversalCopy<uint128_t>")?.typed("half_t")?;
/// let thr: Layout = "(32,8):(8,1)".parse()?;
/// let val: Layout = "(1,8):(0,1)".parse()?;
/// let tc = TiledCopy::make_tiled_copy(atom, &thr, &val)?;
/// assert_eq!(tc.tiler_mn().to_string(), "(32,64)");
/// assert_eq!(tc.tiled_layout_tv().to_string(), "((8,32),8):((256,1),32)");
/// assert_eq!(tc.layout_s_tv()?.to_string(), "((8,32),(8,1)):((256,1),(32,0))");
/// let tensor: Layout = "(64,128):(128,1)".parse()?;
/// let (part, offset) = tc.partition_s(&tensor, 129)?;
/// assert_eq!((part.to_string(), offset), ("((8,1),2,2):((1,0),4096,64)".into(), 2056));
/// # Ok::<(), cute_layout::atom::AtomError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TiledCopy {
    atom: TypedCopyAtom,
    layout_tv: Layout,
    tiler: Tiler,
}

/// The three steps of `make_tiled_copy` (the CuTe DSL's `make_layout_tv`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TvTiling {
    /// `raked_product(thr, val)`: (m, n) -> (thread, value) index.
    pub layout_mn: Layout,
    /// `right_inverse(layout_mn).with_shape((size(thr), size(val)))`: (thread, value) -> (m, n).
    pub layout_tv: Layout,
    /// `product_each(shape(layout_mn))`: the tile.
    pub tiler_mn: IntTuple,
}

/// The CuTe DSL's `make_layout_tv(thr_layout, val_layout)`: the layouts `make_tiled_copy`
/// computes (CuTe C++ 4.2 runs the same three steps inside `make_tiled_copy`).
///
/// # Laws
/// * `layout_tv` is a left inverse of `layout_mn` on its image: `layout_mn(layout_tv(i)) == i`
///   for every `i < size(thr) * size(val)`.
///
/// # Errors
/// The layout algebra's errors ([`AtomError::Layout`]).
///
/// # Examples
/// ```
/// use cute_layout::atom::copy::make_layout_tv;
/// let t = make_layout_tv(&"(32,8):(8,1)".parse()?, &"(1,8):(0,1)".parse()?)?;
/// assert_eq!(t.layout_mn.to_string(), "((1,32),(8,8)):((0,8),(256,1))");
/// assert_eq!(t.layout_tv.to_string(), "((8,32),8):((256,1),32)");
/// assert_eq!(t.tiler_mn.to_string(), "(32,64)");
/// # Ok::<(), cute_layout::atom::AtomError>(())
/// ```
pub fn make_layout_tv(thr: &Layout, val: &Layout) -> Result<TvTiling, AtomError> {
    let layout_mn = thr.raked_product(val)?;
    let shape = IntTuple::tuple([IntTuple::int(thr.size()), IntTuple::int(val.size())])?;
    let layout_tv = layout_mn.right_inverse().with_shape(&shape)?;
    let tiler_mn = product_each(&layout_mn)?;
    Ok(TvTiling {
        layout_mn,
        layout_tv,
        tiler_mn,
    })
}

/// `product_each(shape(l))`: the size of each top-level mode.
fn product_each(l: &Layout) -> Result<IntTuple, AtomError> {
    if l.is_leaf() {
        return Ok(IntTuple::int(l.size()));
    }
    Ok(IntTuple::tuple(l.modes().map(|m| IntTuple::int(m.size())))?)
}

/// `shape(tiler)`: integers stay, a layout gives its shape, a tuple its elements' shapes.
fn tiler_shape(t: &Tiler) -> Result<IntTuple, AtomError> {
    Ok(match t {
        Tiler::Int(n) => IntTuple::int(*n),
        Tiler::Layout(l) => l.shape(),
        Tiler::Skip => return Err(bad("TiledCopy", "a tile mode is `_`")),
        Tiler::Modes(ms) => {
            IntTuple::tuple(ms.iter().map(tiler_shape).collect::<Result<Vec<_>, _>>()?)?
        }
    })
}

fn sc(text: &str) -> Result<SliceCoord, AtomError> {
    Ok(text.parse::<SliceCoord>()?)
}

/// `((a,b),(c,d)) -> ((a,c),(b,d))`.
fn zip2(l: &Layout) -> Result<Layout, AtomError> {
    let part = |i: usize, j: usize| -> Result<Layout, AtomError> {
        l.mode(i).and_then(|m| m.mode(j)).ok_or_else(|| {
            bad(
                "TiledCopy",
                &format!("{l} is not of the form ((a,b),(c,d))"),
            )
        })
    };
    Ok(Layout::from_modes([
        Layout::from_modes([part(0, 0)?, part(1, 0)?])?,
        Layout::from_modes([part(0, 1)?, part(1, 1)?])?,
    ])?)
}

impl TiledCopy {
    /// CuTe's `make_tiled_copy_impl(atom, layout_tv, tiler)`: a TiledCopy from its parts.
    ///
    /// # Errors
    /// [`AtomError::BadArgument`] if the TV layout's thread or value count is not a multiple of
    /// the atom's (CuTe: "TiledCopy uses too few thrs/vals for selected CopyAtom").
    pub fn new(atom: TypedCopyAtom, layout_tv: Layout, tiler: Tiler) -> Result<Self, AtomError> {
        let (at, av) = atom_thr_val(&atom);
        let (tt, tv) = thr_val(&layout_tv);
        if tt % at != 0 {
            return Err(bad(
                atom.atom().name(),
                &format!("TiledCopy uses too few threads ({tt}) for the CopyAtom ({at})"),
            ));
        }
        if tv % av != 0 {
            return Err(bad(
                atom.atom().name(),
                &format!("TiledCopy uses too few values ({tv}) for the CopyAtom ({av})"),
            ));
        }
        Ok(TiledCopy {
            atom,
            layout_tv,
            tiler,
        })
    }

    /// CuTe's `make_tiled_copy(copy_atom, thr_layout, val_layout)`: threads laid out by
    /// `thr_layout` ((m, n) -> thread), each holding the block `val_layout` ((m, n) -> value);
    /// see [`make_layout_tv`]. CuTe's default `val_layout` is `1:0`.
    ///
    /// # Errors
    /// The algebra's errors and those of [`TiledCopy::new`].
    pub fn make_tiled_copy(
        atom: TypedCopyAtom,
        thr: &Layout,
        val: &Layout,
    ) -> Result<Self, AtomError> {
        let t = make_layout_tv(thr, val)?;
        let tiler =
            Tiler::from_shape(&t.tiler_mn).ok_or_else(|| bad("make_tiled_copy", "empty tile"))?;
        TiledCopy::new(atom, t.layout_tv, tiler)
    }

    /// CuTe's `make_tiled_copy_S(copy_atom, tiled_copy)`: `atom` tiled as `other`'s source.
    ///
    /// # Errors
    /// As [`TiledCopy::new`].
    pub fn make_tiled_copy_s(atom: TypedCopyAtom, other: &TiledCopy) -> Result<Self, AtomError> {
        TiledCopy::new(atom, other.layout_s_tv()?, other.tiler.clone())
    }

    /// CuTe's `make_tiled_copy_D(copy_atom, tiled_copy)`: `atom` tiled as `other`'s destination.
    ///
    /// # Errors
    /// As [`TiledCopy::new`].
    pub fn make_tiled_copy_d(atom: TypedCopyAtom, other: &TiledCopy) -> Result<Self, AtomError> {
        TiledCopy::new(atom, other.layout_d_tv()?, other.tiler.clone())
    }

    /// The by-mode tiler of the coordinates a `(thread, value) -> coordinate` layout reaches in
    /// a tile of shape `tile`, and that layout re-expressed in the tiler's coordinates (the
    /// shared step of CuTe's `make_cotiled_copy` and `make_tiled_copy_C_atom`).
    fn tile_of(layout_tv_coord: &Layout, tile: &IntTuple) -> Result<(Layout, Tiler), AtomError> {
        let flat: Vec<i64> = tile
            .elements()
            .map(|e| e.size())
            .collect::<Result<_, _>>()?;
        let mut modes = Vec::with_capacity(flat.len());
        for i in 0..flat.len() {
            // make_layout(flat_shape, e_i): mode i's coordinate, the others dropped.
            let stride = IntTuple::flat((0..flat.len()).map(|j| i64::from(j == i)));
            let proj = Layout::new(IntTuple::flat(flat.iter().copied()), stride)?;
            modes.push(Tiler::Layout(proj.compose(layout_tv_coord)?.filter()));
        }
        let tiler = Tiler::Modes(modes);
        let tile2data =
            Layout::col_major(IntTuple::flat(flat.iter().copied()))?.compose_tiler(&tiler)?;
        let layout_tv = tile2data.left_inverse()?.compose(layout_tv_coord)?;
        Ok((layout_tv, tiler))
    }

    /// CuTe's `make_cotiled_copy(copy_atom, atom_tv_layout, data_layout)`: a TiledCopy whose
    /// (thread, value) reach the addresses `atom_tv_layout` gives in the tensor `data_layout`.
    ///
    /// # Errors
    /// [`AtomError::BadArgument`] if an address of `atom_tv_layout` is not in `data_layout`
    /// (CuTe's static assertion); the algebra's errors.
    pub fn make_cotiled_copy(
        atom: TypedCopyAtom,
        atom_tv: &Layout,
        data: &Layout,
    ) -> Result<Self, AtomError> {
        let one: Layout = "1:0".parse()?;
        let inv = Layout::from_modes([data.left_inverse()?, one.clone()])?;
        let tv_data = inv.compose(atom_tv)?;
        let vals = |l: &Layout| l.mode(1).unwrap_or_else(|| l.clone());
        let check = Layout::from_modes([data.clone(), one])?
            .compose(&vals(&tv_data))?
            .coalesce();
        if check != vals(atom_tv).coalesce() {
            return Err(bad(
                atom.atom().name(),
                "the memory atom_tv_layout points to does not exist in the data layout",
            ));
        }
        let (layout_tv, tiler) = Self::tile_of(&tv_data, &product_each(data)?)?;
        TiledCopy::new(atom, layout_tv, tiler)
    }

    /// CuTe's `make_tiled_copy_C_atom`: the smallest TiledCopy that retiles an MMA's C TV
    /// layout `layout_c_tv` (tile `(M, N)` = `mma_tile`), keeping only the atom's values.
    ///
    /// # Errors
    /// [`AtomError::BadArgument`] if the atom has more values than `layout_c_tv`; the algebra's.
    pub fn make_tiled_copy_c_atom(
        atom: TypedCopyAtom,
        layout_c_tv: &Layout,
        mma_tile: &IntTuple,
    ) -> Result<Self, AtomError> {
        let copy_v = atom.num_val_src();
        let (thr, val) = thr_val(layout_c_tv);
        if copy_v > val {
            return Err(bad(
                atom.atom().name(),
                &format!("the atom's {copy_v} values exceed the MMA's {val}"),
            ));
        }
        let sub = Layout::col_major(IntTuple::tuple([
            IntTuple::int(thr),
            IntTuple::int(copy_v),
        ])?)?;
        let layout_tv = layout_c_tv.compose(&sub)?;
        let (tv, tiler) = Self::tile_of(&layout_tv, mma_tile)?;
        TiledCopy::new(atom, tv, tiler)
    }

    /// CuTe's `make_tiled_copy_A/B/C(copy_atom, tiled_mma)`: `atom` tiled as the MMA's operand
    /// `op` (its TV layout `get_layoutA/B/C_TV()` over the tile `(M,K)`, `(N,K)` or `(M,N)` of
    /// `tile_size`).
    ///
    /// # Errors
    /// The TiledMma's errors and those of [`TiledCopy::new`].
    ///
    /// # Examples
    /// ```
    /// use cute_layout::atom::{copy::{copy_atom, TiledCopy}, mma_atom, Operand, TiledMma};
    /// let mma = TiledMma::new(mma_atom("SM80_16x8x16_F16F16F16F16_TN")?, Some(&"(2,2,1):(1,2,0)".parse()?), Some(&"(32,32,16)".parse()?))?;
    /// let ldsm = copy_atom("SM75_U32x4_LDSM_N")?.typed("half_t")?;
    /// let tc = TiledCopy::make_tiled_copy_mma(ldsm, &mma, Operand::A)?;
    /// assert_eq!(tc.tiler_mn().to_string(), "(32,16)");
    /// assert_eq!(tc.layout_s_tv()?.to_string(), "((16,2,2,2),(8,1)):((1,256,16,0),(32,0))");
    /// # Ok::<(), cute_layout::atom::AtomError>(())
    /// ```
    pub fn make_tiled_copy_mma(
        atom: TypedCopyAtom,
        mma: &TiledMma,
        op: Operand,
    ) -> Result<Self, AtomError> {
        let [m, n, k] = mma.tile_size_mnk();
        let (a, b) = match op {
            Operand::A => (m, k),
            Operand::B => (n, k),
            Operand::C => (m, n),
        };
        TiledCopy::new(
            atom,
            mma.layout_tv(op)?,
            Tiler::Modes(vec![Tiler::Int(a), Tiler::Int(b)]),
        )
    }

    /// CuTe's `make_tiled_copy_C_atom(copy_atom, tiled_mma)`: see
    /// [`TiledCopy::make_tiled_copy_c_atom`].
    ///
    /// # Errors
    /// As [`TiledCopy::make_tiled_copy_c_atom`].
    pub fn make_tiled_copy_c_atom_mma(
        atom: TypedCopyAtom,
        mma: &TiledMma,
    ) -> Result<Self, AtomError> {
        let [m, n, _] = mma.tile_size_mnk();
        let tile = IntTuple::tuple([IntTuple::int(m), IntTuple::int(n)])?;
        TiledCopy::make_tiled_copy_c_atom(atom, &mma.layout_tv(Operand::C)?, &tile)
    }

    /// The typed atom.
    pub fn atom(&self) -> &TypedCopyAtom {
        &self.atom
    }

    /// `Tiler_MN`: the tile one application of the TiledCopy covers.
    pub fn tiler_mn(&self) -> &Tiler {
        &self.tiler
    }

    /// `product_each(shape(Tiler_MN))`: the tile's extent in each mode (`(M, N)`).
    ///
    /// # Errors
    /// [`AtomError::BadArgument`] for a tiler with a `_` mode.
    pub fn tile_mn(&self) -> Result<IntTuple, AtomError> {
        let s = tiler_shape(&self.tiler)?;
        if s.is_int() {
            return Ok(s);
        }
        let sizes: Vec<i64> = s.elements().map(|e| e.size()).collect::<Result<_, _>>()?;
        Ok(IntTuple::flat(sizes))
    }

    /// `TiledLayout_TV`: (thread, value) -> coordinate in the tile (in the reference's terms).
    pub fn tiled_layout_tv(&self) -> &Layout {
        &self.layout_tv
    }

    /// `size(tiled_copy)`: the number of threads (`TiledNumThr`).
    pub fn size(&self) -> i64 {
        thr_val(&self.layout_tv).0
    }

    /// `(src thread, src value) -> (ref thread, ref value)` (or dst): `right_inverse(ref) o src`.
    fn ref2(&self, dst: bool) -> Result<Layout, AtomError> {
        let trg = if dst {
            self.atom.dst()
        } else {
            self.atom.src()
        };
        Ok(self.atom.ref_().right_inverse().compose(trg)?)
    }

    /// CuTe's `tile2thrfrg`: a tensor of shape `((TileM,TileN,...),(RestM,RestN,...))` to
    /// `(Thr, (FrgV,FrgX), (RestM,RestN,...))`.
    fn tile2thrfrg_layout(&self, tensor: &Layout, ref2trg: &Layout) -> Result<Layout, AtomError> {
        let thrval2mn = self.thrval2mn(ref2trg)?;
        let tv =
            tensor.compose_tiler(&Tiler::Modes(vec![Tiler::Layout(thrval2mn), Tiler::Skip]))?;
        Ok(tv.slice(&sc("((_,_),_)")?)?)
    }

    fn thrval2mn(&self, ref2trg: &Layout) -> Result<Layout, AtomError> {
        let (at, av) = atom_thr_val(&self.atom);
        let atom_tv = self
            .layout_tv
            .zipped_divide(&Tiler::Modes(vec![Tiler::Int(at), Tiler::Int(av)]))?;
        let trg = atom_tv.compose_tiler(&Tiler::Modes(vec![
            Tiler::Layout(ref2trg.clone()),
            Tiler::Skip,
        ]))?;
        Ok(zip2(&trg)?.coalesce_by_mode(&"(1,(1,1))".parse()?)?)
    }

    fn layout_x_tv(&self, dst: bool) -> Result<Layout, AtomError> {
        let shape = IntTuple::tuple([tiler_shape(&self.tiler)?, IntTuple::int(1)])?;
        let reference = Layout::col_major(shape)?;
        let l = self.tile2thrfrg_layout(&reference, &self.ref2(dst)?)?;
        Ok(l.slice(&sc("(_,_,0)")?)?)
    }

    /// `get_layoutS_TV()`: (thread, value) -> coordinate in the tile (column-major index), for
    /// the source.
    ///
    /// # Errors
    /// The algebra's errors.
    pub fn layout_s_tv(&self) -> Result<Layout, AtomError> {
        self.layout_x_tv(false)
    }

    /// `get_layoutD_TV()`: as [`TiledCopy::layout_s_tv`] for the destination.
    ///
    /// # Errors
    /// The algebra's errors.
    pub fn layout_d_tv(&self) -> Result<Layout, AtomError> {
        self.layout_x_tv(true)
    }

    fn partition_coord(&self, rank: usize, thr: i64) -> Result<SliceCoord, AtomError> {
        if thr < 0 || thr >= self.size() {
            return Err(bad(
                self.atom.atom().name(),
                &format!("thread {thr} is not in 0..{}", self.size()),
            ));
        }
        let rest = vec!["_"; rank.max(1)].join(",");
        sc(&format!("({thr},_,({rest}))"))
    }

    fn partition(&self, tensor: &Layout, thr: i64, dst: bool) -> Result<(Layout, i64), AtomError> {
        let zd = tensor.zipped_divide(&self.tiler)?;
        let frg = self.tile2thrfrg_layout(&zd, &self.ref2(dst)?)?;
        let c = self.partition_coord(tensor.rank(), thr)?;
        Ok(frg.slice_and_offset(&c)?)
    }

    /// `get_slice(thr).partition_S(tensor)` of a tensor over the layout `tensor` (indices from
    /// 0): the thread's layout `(CopyV, RestM, RestN, ...)` and its first element's offset.
    ///
    /// # Errors
    /// [`AtomError::BadArgument`] if `thr` is not below [`TiledCopy::size`]; the algebra's.
    pub fn partition_s(&self, tensor: &Layout, thr: i64) -> Result<(Layout, i64), AtomError> {
        self.partition(tensor, thr, false)
    }

    /// `get_slice(thr).partition_D(tensor)`; as [`TiledCopy::partition_s`].
    ///
    /// # Errors
    /// As [`TiledCopy::partition_s`].
    pub fn partition_d(&self, tensor: &Layout, thr: i64) -> Result<(Layout, i64), AtomError> {
        self.partition(tensor, thr, true)
    }

    /// `partition_S/D` of a swizzled tensor (`Sw<B,M,S> o offset o layout`). As in CuTe, the
    /// swizzle is folded into the result's strides for the thread's offset where it can be
    /// (the result is then a plain layout); otherwise the result stays swizzled.
    ///
    /// # Errors
    /// As [`TiledCopy::partition_s`].
    pub fn partition_composed(
        &self,
        tensor: &ComposedLayout,
        thr: i64,
        dst: bool,
    ) -> Result<(ComposedLayout, i64), AtomError> {
        let s = self.partition_sliced(tensor, thr, dst)?;
        Ok((s.layout, s.offset))
    }

    /// [`TiledCopy::partition_composed`] as CuTe prints it: the layout's text (a swizzled result
    /// shows its inner offset as CuTe's `MixedBits`, `M_S|(d&F)=v`) and the offset.
    ///
    /// # Errors
    /// As [`TiledCopy::partition_s`].
    pub fn partition_text(
        &self,
        tensor: &ComposedLayout,
        thr: i64,
        dst: bool,
    ) -> Result<(String, i64), AtomError> {
        let s = self.partition_sliced(tensor, thr, dst)?;
        Ok((s.cute_text(), s.offset))
    }

    fn partition_sliced(
        &self,
        tensor: &ComposedLayout,
        thr: i64,
        dst: bool,
    ) -> Result<Sliced, AtomError> {
        if let Some(l) = tensor.as_layout() {
            let (p, o) = self.partition(l, thr, dst)?;
            return Ok(Sliced {
                layout: ComposedLayout::from(p),
                offset: o,
                mixed: None,
            });
        }
        let inner = tensor.layout();
        let zd = inner.zipped_divide(&self.tiler)?;
        let frg = self.tile2thrfrg_layout(&zd, &self.ref2(dst)?)?;
        let c = self.partition_coord(inner.rank(), thr)?;
        let diced = frg.mode(0).unwrap_or_else(|| frg.clone());
        let whole = ComposedLayout::from_layers(tensor.layers().iter().copied(), frg)?;
        Ok(crate::composed::swizzle_slice::slice_and_offset(
            &whole, &c, &diced, false,
        )?)
    }

    /// `get_slice(0).retile_S(fragment)` (= `retile_D`): a register fragment of the thread's
    /// values re-expressed in the atom's value order, `(AtomVals, RestVals)`.
    ///
    /// # Errors
    /// The algebra's errors (e.g. a fragment that does not tile the TiledCopy's values).
    pub fn retile(&self, frag: &Layout) -> Result<Layout, AtomError> {
        let r = frag.rank().max(1);
        let v = frag.mode(0).map_or(frag.size(), |m| m.size());
        let (_, av) = atom_thr_val(&self.atom);
        let tshape = tiler_shape(&self.tiler)?;
        let frg_mn = self
            .layout_tv
            .right_inverse()
            .with_shape(&tshape)?
            .upcast(self.size() * v)?;
        let vl = make_layout_n(v)?;
        let frg_v = vl
            .logical_product(&Tiler::Layout(frg_mn.right_inverse()))?
            .zipped_divide(&Tiler::Int(av))?;
        let mut tile = vec![Tiler::Int(v)];
        for m in frg_mn.modes() {
            tile.push(Tiler::Int(m.size()));
        }
        if frg_mn.is_leaf() {
            tile.truncate(1);
            tile.push(Tiler::Int(frg_mn.size()));
        }
        let t = frag.zipped_divide(&Tiler::Modes(tile))?;
        let vt = t.compose_tiler(&Tiler::Modes(vec![Tiler::Layout(frg_v), Tiler::Skip]))?;
        let rest = core::iter::once("0")
            .chain(core::iter::repeat_n("_", r - 1))
            .collect::<Vec<_>>()
            .join(",");
        Ok(vt.slice(&sc(&format!("(_,({rest}))"))?)?)
    }
}

/// `make_layout(n)`: `n:1`, or `1:0` for `n == 1`.
fn make_layout_n(n: i64) -> Result<Layout, AtomError> {
    Ok(Layout::col_major(IntTuple::int(n))?)
}

fn thr_val(l: &Layout) -> (i64, i64) {
    match (l.mode(0), l.mode(1)) {
        (Some(t), Some(v)) => (t.size(), v.size()),
        _ => (l.size(), 1),
    }
}

fn atom_thr_val(a: &TypedCopyAtom) -> (i64, i64) {
    thr_val(a.ref_())
}
