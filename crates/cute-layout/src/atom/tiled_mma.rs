//! `TiledMma`: CuTe's `make_tiled_mma(atom, atom_layout, permutation)`.
//!
//! A tiled MMA repeats an [`MmaAtom`] over a grid of atoms (`atom_layout`, an `(M,N,K)` layout
//! of atom copies, default `(1,1,1)`) and optionally permutes the rows, columns and K-slices of
//! the tile (`permutation`, one tiler per mode, `_` = the identity on `atom size x atoms`).
//! CuTe's definitions, followed step by step:
//!
//! * `thr_layout_vmnk = tiled_product(atom.thr_id, atom_layout)`: thread index of
//!   `(atom thread, atom m, atom n, atom k)`;
//! * `permutation_mnk[i]` = the permutation's mode `i`, or `atom.shape_mnk[i] *
//!   size(thr_layout_vmnk[i+1])` where it is `_`; `tile_size_mnk[i] = size(permutation_mnk[i])`;
//! * `thrfrg_C(L) = zipped_divide(zipped_divide(logical_divide(L, (perm_m, perm_n)),
//!   (atom_m, atom_n)) o (atom.layout_c_tv, _), (_, (thr_m, thr_n)))`:
//!   `((atom thread, (thr m, thr n)), (value, (rest m, rest n)))`, and alike for A (M, K) and
//!   B (N, K);
//! * `layout_c_tv = thrfrg_C(col_major(tile_m, tile_n)) o (thread index -> thread id, _)`; A and
//!   B first broadcast over the threads of the other operand mode;
//! * `partition(op, L, t)` = `thrfrg(L)` sliced at thread `t`'s coordinate, `(_, (_, ...))`: the
//!   layout of the values thread `t` holds, `(value, rest m, rest k)`, and its first offset.
//!
//! Laws (tested, for atom layouts with one atom along K, where CuTe promises them; with several,
//! the K threads hold partial sums of the same C cells and CuTe's `layout_c_tv` runs past the
//! tile for them): for every thread `t` and value `v`, `layout_tv(op)(t, v)` is the tile index
//! that `partition(op, col_major(tile), t)` maps value `v` (of the first tile) to;
//! `layout_c_tv` reaches every cell of the `tile_m x tile_n` tile exactly once, A and B every
//! cell equally often.
//!
//! ```
//! use cute_layout::atom::{mma_atom, Operand, TiledMma};
//! let atom = mma_atom("SM80_16x8x16_F16F16F16F16_TN")?;
//! let mma = TiledMma::new(atom, Some(&"(2,2,1):(1,2,0)".parse()?), None)?;
//! assert_eq!(mma.thr_layout_vmnk().to_string(), "(32,2,2,1):(1,32,64,0)");
//! assert_eq!(mma.tile_size_mnk(), [32, 16, 16]);
//! assert_eq!(mma.size(), 128);
//! let (part, offset) = mma.partition(Operand::C, &"(64,32):(1,64)".parse()?, 65)?;
//! assert_eq!((part.to_string(), offset), ("((2,2),2,2):((64,8),32,1024)".to_string(), 640));
//! # Ok::<(), cute_layout::atom::AtomError>(())
//! ```

use alloc::format;
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

use super::{AtomError, MmaAtom, Operand};
use crate::algebra::Tiler;
use crate::layout::int_tuple::IntTuple;
use crate::layout::slice::{Slice, SliceCoord};
use crate::layout::Layout;
use crate::tensor::data::{Storage, Tensor};

/// A tiled MMA: see the [module docs](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TiledMma {
    atom: MmaAtom,
    thr_layout_vmnk: Layout,
    /// The effective per-mode permutation (`_` already replaced).
    permutation: [Tiler; 3],
}

/// The modes `(M,K)`, `(N,K)`, `(M,N)` of an operand's tile, as indices into `MNK`.
fn modes(op: Operand) -> (usize, usize) {
    match op {
        Operand::A => (0, 2),
        Operand::B => (1, 2),
        Operand::C => (0, 1),
    }
}

impl TiledMma {
    /// CuTe `make_tiled_mma(atom, atom_layout, permutation)`. `atom_layout` (default
    /// `(1,1,1):(0,0,0)`) of rank below 3 gets `1:0` modes appended; `permutation` (default
    /// `(_,_,_)`) of rank below 3 gets `_` modes appended.
    ///
    /// # Errors
    /// [`AtomError::BadArgument`] for an atom layout or permutation of rank above 3, or a
    /// permutation mode that is a tuple of tilers; [`AtomError::Unsupported`] for an atom whose
    /// layouts CuTe's algebra cannot use; the algebra's errors.
    pub fn new(
        atom: MmaAtom,
        atom_layout: Option<&Layout>,
        permutation: Option<&Tiler>,
    ) -> Result<TiledMma, AtomError> {
        for op in [Operand::A, Operand::B, Operand::C] {
            atom.layout_tv(op)?;
        }
        let bad = |what: alloc::string::String| AtomError::BadArgument {
            name: atom.name().into(),
            what,
        };
        let mut al = match atom_layout {
            Some(l) => l.clone(),
            None => Layout::col_major("(1,1,1)".parse()?)?,
        };
        if al.rank() > 3 {
            return Err(bad(format!("atom layout {al} has rank above 3")));
        }
        let unit: Layout = "1:0".parse()?;
        if al.is_leaf() {
            al = Layout::from_modes([al])?;
        }
        while al.rank() < 3 {
            al = al.append(&unit)?;
        }
        let thr_layout_vmnk = atom.thr_id().tiled_product(&Tiler::Layout(al))?;
        let mut perm: Vec<Tiler> = match permutation {
            None | Some(Tiler::Skip) => vec![],
            Some(Tiler::Modes(m)) => m.clone(),
            Some(t) => vec![t.clone()],
        };
        if perm.len() > 3 {
            return Err(bad(format!(
                "permutation has {} modes, at most 3",
                perm.len()
            )));
        }
        while perm.len() < 3 {
            perm.push(Tiler::Skip);
        }
        let mnk = atom.mnk();
        let sizes: Vec<i64> = thr_layout_vmnk.modes().map(|m| m.size()).collect();
        let mut eff: [Tiler; 3] = [Tiler::Skip, Tiler::Skip, Tiler::Skip];
        for i in 0..3 {
            eff[i] = match &perm[i] {
                Tiler::Skip => Tiler::Int(mnk[i] * sizes[i + 1]),
                Tiler::Modes(_) => {
                    return Err(bad(format!(
                        "permutation mode {i} ({}) must be a layout, an integer or _",
                        perm[i]
                    )))
                }
                t => t.clone(),
            };
        }
        Ok(TiledMma {
            atom,
            thr_layout_vmnk,
            permutation: eff,
        })
    }

    /// The atom.
    pub fn atom(&self) -> &MmaAtom {
        &self.atom
    }

    /// `get_thr_layout_vmnk()`: `(atom thread, m, n, k)` -> thread index.
    pub fn thr_layout_vmnk(&self) -> &Layout {
        &self.thr_layout_vmnk
    }

    /// `permutation_mnk<0..3>()`: the effective permutation of each mode.
    pub fn permutation_mnk(&self) -> &[Tiler; 3] {
        &self.permutation
    }

    /// The permutation as CuTe prints the tuple `(p0,p1,p2)`.
    pub fn permutation_text(&self) -> alloc::string::String {
        Tiler::Modes(self.permutation.to_vec()).to_string()
    }

    fn perm_size(&self, i: usize) -> i64 {
        match &self.permutation[i] {
            Tiler::Int(n) => *n,
            Tiler::Layout(l) => l.size(),
            _ => 1,
        }
    }

    /// `tile_size_mnk<0..3>()`: the sizes of the permutations, the tile one step of the tiled
    /// MMA computes.
    pub fn tile_size_mnk(&self) -> [i64; 3] {
        [self.perm_size(0), self.perm_size(1), self.perm_size(2)]
    }

    /// `size(tiled_mma)`: the number of threads.
    pub fn size(&self) -> i64 {
        self.thr_layout_vmnk.size()
    }

    fn vmnk_size(&self, i: usize) -> i64 {
        self.thr_layout_vmnk.mode(i).map_or(1, |m| m.size())
    }

    /// `thrfrg_A/B/C(L)`: `L` (an `M x K`, `N x K` or `M x N` layout, rank at least 2) as
    /// `((atom thread, (thr i, thr j)), (value, (rest i, rest j, ...)))`.
    ///
    /// # Errors
    /// [`crate::LayoutError::RankMismatch`] for a layout of rank below 2; the algebra's errors
    /// (a layout the permutation or atom does not divide).
    pub fn thrfrg(&self, op: Operand, layout: &Layout) -> Result<Layout, AtomError> {
        if layout.rank() < 2 {
            return Err(crate::LayoutError::RankMismatch {
                op: "thrfrg",
                expected: 2,
                found: layout.rank(),
            }
            .into());
        }
        let (i, j) = modes(op);
        let mnk = self.atom.mnk();
        let t_tile = Tiler::Modes(vec![
            self.permutation[i].clone(),
            self.permutation[j].clone(),
        ]);
        let t = layout.logical_divide(&t_tile)?;
        let a_tile = Tiler::Modes(vec![Tiler::Int(mnk[i]), Tiler::Int(mnk[j])]);
        let z = t.zipped_divide(&a_tile)?;
        let tv = z.compose_tiler(&Tiler::Modes(vec![
            Tiler::Layout(self.atom.layout_tv(op)?.clone()),
            Tiler::Skip,
        ]))?;
        let thr_tile = Tiler::Modes(vec![
            Tiler::Skip,
            Tiler::Modes(vec![
                Tiler::Int(self.vmnk_size(i + 1)),
                Tiler::Int(self.vmnk_size(j + 1)),
            ]),
        ]);
        Ok(tv.zipped_divide(&thr_tile)?)
    }

    /// Thread index -> thread id: `(size(vmnk),1):(1,0) o right_inverse((vmnk, complement(vmnk)))`.
    fn thridx_to_thrid(&self) -> Result<Layout, AtomError> {
        let v = &self.thr_layout_vmnk;
        let both = Layout::from_modes([v.clone(), v.complement_cosize()?])?;
        let lhs = Layout::new(IntTuple::flat([v.size(), 1]), IntTuple::flat([1, 0]))?;
        Ok(lhs.compose(&both.right_inverse())?)
    }

    /// `get_layoutA/B/C_TV()`: (thread index, value) -> column-major index in the
    /// `tile_m x tile_k`, `tile_n x tile_k` or `tile_m x tile_n` tile.
    ///
    /// # Errors
    /// The algebra's errors.
    pub fn layout_tv(&self, op: Operand) -> Result<Layout, AtomError> {
        let (i, j) = modes(op);
        let ts = self.tile_size_mnk();
        let reference = Layout::col_major(IntTuple::flat([ts[i], ts[j]]))?;
        let mut l = self.thrfrg(op, &reference)?;
        if op != Operand::C {
            let (sm, sn) = (self.vmnk_size(1), self.vmnk_size(2));
            // A ignores the N threads, B the M threads.
            let stride = if op == Operand::A { [1, 0] } else { [0, 1] };
            let bcast = Layout::new(IntTuple::flat([sm, sn]), IntTuple::flat(stride))?;
            let tile = Tiler::Modes(vec![
                Tiler::Skip,
                Tiler::Modes(vec![Tiler::Layout(bcast), Tiler::Skip]),
            ]);
            l = l.compose_tiler(&Tiler::Modes(vec![tile, Tiler::Skip]))?;
        }
        let t = self.thridx_to_thrid()?;
        Ok(l.compose_tiler(&Tiler::Modes(vec![Tiler::Layout(t), Tiler::Skip]))?)
    }

    /// `thr_layout_vmnk.get_flat_coord(t)`: thread `t`'s `(v, m, n, k)`. As CuTe, each leaf's
    /// coordinate is `(t / stride) % extent` (0 for a stride-0 leaf), then made 1-D within its
    /// mode.
    ///
    /// # Errors
    /// [`AtomError::BadArgument`] for `t` outside `[0, size)`.
    pub fn thr_vmnk(&self, thread: i64) -> Result<[i64; 4], AtomError> {
        if thread < 0 || thread >= self.size() {
            return Err(AtomError::BadArgument {
                name: self.atom.name().into(),
                what: format!("thread {thread} is outside [0, {})", self.size()),
            });
        }
        let mut c = [0i64; 4];
        for (k, slot) in c.iter_mut().enumerate() {
            let Some(m) = self.thr_layout_vmnk.mode(k) else {
                continue;
            };
            let (mut flat, mut scale) = (0i64, 1i64);
            for (&s, &d) in m.shape_leaves().iter().zip(m.stride_leaves()) {
                let leaf = if d == 0 { 0 } else { (thread / d) % s };
                flat += leaf * scale;
                scale *= s;
            }
            *slot = flat;
        }
        Ok(c)
    }

    /// `get_slice(t).partition_A/B/C(L)`: the layout of the values thread `t` holds of a
    /// tensor of layout `L` (`(value, rest i, rest j, ...)`), and the offset of its first
    /// element.
    ///
    /// # Errors
    /// As [`TiledMma::thrfrg`] and [`TiledMma::thr_vmnk`].
    pub fn partition(
        &self,
        op: Operand,
        layout: &Layout,
        thread: i64,
    ) -> Result<(Layout, i64), AtomError> {
        let frg = self.thrfrg(op, layout)?;
        let c = self.thr_vmnk(thread)?;
        let (i, j) = modes(op);
        let rest_rank = frg.mode(1).and_then(|m| m.mode(1)).map_or(1, |m| m.rank());
        let thr = SliceCoord::tuple([
            SliceCoord::from(IntTuple::int(c[0])),
            SliceCoord::flat([Slice::At(c[i + 1]), Slice::At(c[j + 1])]),
        ])?;
        let val = SliceCoord::tuple([
            SliceCoord::all(),
            SliceCoord::flat(core::iter::repeat_n(Slice::All, rest_rank)),
        ])?;
        let coord = SliceCoord::tuple([thr, val])?;
        Ok(frg.slice_and_offset(&coord)?)
    }

    /// `get_slice(t).partition_fragment_A/B/C(L)`: the layout of the register fragment thread
    /// `t` allocates for its partition. C: the compact column-major layout of the partition's
    /// shape; A and B held in registers: CuTe's `make_fragment_like` (mode 0 compact
    /// column-major, the other modes ordered as the partition's strides).
    ///
    /// # Errors
    /// As [`TiledMma::partition`]; [`AtomError::Unsupported`] for an operand CuTe does not hold
    /// in registers: A and B read through a descriptor (GMMA `_SS` A, GMMA B, UMMA; CuTe's
    /// fragment there is a tensor of shared-memory descriptors) and UMMA's C (tensor memory).
    pub fn partition_fragment(
        &self,
        op: Operand,
        layout: &Layout,
        thread: i64,
    ) -> Result<Layout, AtomError> {
        let (p, _) = self.partition(op, layout, thread)?;
        if op == Operand::C && self.atom.name().contains("SM100_MMA_") {
            // UMMA accumulates in tensor memory: CuTe's fragment is a TMEM allocation
            // (`tmem_frg`), whose layout is not modelled here.
            return Err(AtomError::Unsupported {
                name: self.atom.name().into(),
                what: "the C fragment of a UMMA atom lives in tensor memory (tmem_frg)".into(),
            });
        }
        if op == Operand::C {
            return Ok(Layout::col_major(p.shape())?);
        }
        if self.atom.is_descriptor(op) {
            // CuTe makes a tensor of shared-memory descriptors (one per 128-bit chunk of the
            // partition, `MakeTensor<smem_desc>`), which needs a shared-memory tensor.
            return Err(AtomError::Unsupported {
                name: self.atom.name().into(),
                what: format!(
                    "operand {} is read through a shared/tensor-memory descriptor; its fragment is a tensor of descriptors, not modelled",
                    op.name()
                ),
            });
        }
        Ok(p.fragment_like()?)
    }
}

impl TiledMma {
    /// `get_slice(t).partition_A/B/C(tensor)` on a [`Tensor`]: the view of the elements thread
    /// `t` holds, `(value, rest i, rest j, ...)`.
    ///
    /// ```
    /// use cute_layout::atom::{mma_atom, Operand, TiledMma};
    /// use cute_layout::{Layout, Tensor};
    /// let mma = TiledMma::new(mma_atom("SM80_16x8x8_F16F16F16F16_TN")?, None, None)?;
    /// let c = Tensor::new((0..128).collect::<Vec<i32>>(), "(16,8):(1,16)".parse::<Layout>()?)?;
    /// let mine = mma.partition_tensor(Operand::C, &c, 5)?;
    /// assert_eq!(mine.to_vec(), [33, 49, 41, 57]); // thread 5: rows 1 and 9, columns 2 and 3
    /// # Ok::<(), cute_layout::atom::AtomError>(())
    /// ```
    ///
    /// # Errors
    /// As [`TiledMma::partition`]; [`AtomError::Unsupported`] for a swizzled tensor (partition
    /// its plain layout with [`TiledMma::partition`]).
    pub fn partition_tensor<'t, S: Storage>(
        &self,
        op: Operand,
        tensor: &'t Tensor<S>,
        thread: i64,
    ) -> Result<Tensor<&'t [S::Elem]>, AtomError> {
        let Some(l) = tensor.layout().as_layout() else {
            return Err(AtomError::Unsupported {
                name: self.atom.name().into(),
                what: "partitioning a swizzled tensor".into(),
            });
        };
        let (p, off) = self.partition(op, l, thread)?;
        let base = i64::try_from(tensor.base())
            .ok()
            .and_then(|b| b.checked_add(off))
            .and_then(|b| usize::try_from(b).ok())
            .ok_or(crate::LayoutError::Overflow { op: "partition" })?;
        Ok(Tensor::with_base(tensor.data(), p, base)?)
    }

    /// `get_slice(t).partition_fragment_A/B/C(tensor)` as an owned register tensor of
    /// default values, laid out as [`TiledMma::partition_fragment`] says.
    ///
    /// # Errors
    /// As [`TiledMma::partition_fragment`].
    pub fn make_fragment<T: Clone + Default>(
        &self,
        op: Operand,
        layout: &Layout,
        thread: i64,
    ) -> Result<Tensor<Vec<T>>, AtomError> {
        let f = self.partition_fragment(op, layout, thread)?;
        let n = usize::try_from(f.cosize()).unwrap_or(0);
        Ok(Tensor::new(vec![T::default(); n], f)?)
    }
}
