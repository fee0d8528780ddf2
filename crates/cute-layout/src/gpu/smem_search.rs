//! Shared-memory layout search: given how the threads of a block write a tile and how they read
//! it back (two thread-value layouts), the element size and the bank model, the layout of the tile
//! in shared memory whose accesses take the fewest wavefronts on both sides, then keep the widest
//! vector accesses.
//!
//! # The model
//!
//! A TV layout maps `(thread, value)` to a 1-D index of the tile (colexicographic over the tile's
//! shape); a shared-memory layout `S` maps that index to an element offset. Each thread accesses
//! its values `vector` at a time: `vector` is the widest power of two, at most
//! `max_vector_bytes` wide, dividing the value count, such that every group of `vector` values of
//! every thread lands on consecutive offsets starting at a multiple of `vector` (one `LDS.128`,
//! say). One instruction of one warp (32 consecutive threads) is one **request**. The hardware
//! serves a request in phases of `min(32, 128 / max(4, access bytes))` threads (all 32 for 4-byte
//! accesses, 16 for 8-byte, 8 for 16-byte), and each phase in wavefronts: a wavefront reads at
//! most one 4-byte word per bank, threads reading the same word share it. A phase needs as many
//! wavefronts as the most distinct words it touches in one bank ([`Banks`]' 32 x 4 bytes), at
//! best `ceil(distinct words / 32)`; the difference, summed over the phases, is the request's
//! **bank conflicts**: per instruction, from its addresses alone, what NVIDIA's profiler counts as
//! the SASS-level wavefronts `smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum`
//! (writes) and `..._op_ld.sum` (reads) less the ideal (the source view's "L1 Wavefronts Shared"
//! and "... Ideal"); with nothing else using the L1's data banks, also what its hardware counters
//! `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum` and `..._ld.sum` count.
//!
//! Some instructions take addresses from only some lanes of the warp: `ldmatrix.x1` from lanes
//! 0-7 (one 8 x 16-byte matrix), `.x2` from lanes 0-15, `.x4` from all 32; the other lanes'
//! entries of the TV layout only receive data. [`Problem::address_lanes`] says so per side: only
//! the phases of the first `lanes` lanes of each warp cost wavefronts (all 32 by default).
//!
//! [`Problem::instructions`] names the instruction of each side ([`Instruction`]): an
//! `ld.shared`/`st.shared` of at most so many bytes a thread, or an `ldmatrix`/`stmatrix` of 1, 2
//! or 4 matrices. The latter takes one 16-byte row address from each of the first 8, 16 or 32
//! lanes, so a layout that does not keep each lane's 16 bytes consecutive and 16-byte aligned
//! cannot serve it: [`Problem::evaluate`] refuses such a layout and [`search`] skips it.
//!
//! # The search
//!
//! Candidates for an `M x N` tile of any extents: row- and column-major; padded rows or columns
//! (`(M,N):(N+p,1)`, `(M,N):(1,M+p)`, `1 <= p <=` [`MAX_PAD`]); every swizzle `Sw<B,M,S> o 0 o L`
//! over the row- and column-major layouts (`1 <= B <= 6`, `0 <= M <= 6`, `B <= |S|`, both signs
//! of `S`) whose bits all lie below the next power of two at or above the footprint (an offset's
//! higher bits are zero); and the combinations `Sw<B,M,S> o 0 o P` of a swizzle (`B <= 3`,
//! `M <= 4`, the same bound on its bits) with a padded layout `P` whose padding is 1, 2, 4, 8 or 16
//! elements. A swizzle is a bijection of the offsets, so every candidate stores each element
//! once; where the extents are not powers of two a swizzle can move offsets past the unswizzled
//! footprint, which the ranking's footprint key sees. They
//! are ranked by total wavefronts per tile (writes + reads: what the accesses cost, conflicts
//! and vector width together), then by vector bytes (wider first), then by footprint (elements
//! of shared memory), then in the order above (simplest first). Ranking by wavefronts rather than
//! by conflicts alone matters: a layout without conflicts but with narrow accesses can take more
//! wavefronts than one with a few conflicts and wide accesses.
//!
//! ```
//! use cute_layout::{gpu::smem_search::{search, Problem}, render::Banks, Layout};
//! // A 32 x 32 float tile: written by rows with 16-byte vectors, read by columns 4 rows at a time.
//! let write: Layout = "((8,32),4):((128,1),32)".parse()?;
//! let read: Layout = "((8,32),4):((4,32),1)".parse()?;
//! let p = Problem::new("(32,32)".parse()?, write, read, Banks::new(32, 4)?)?;
//! let ranked = search(&p)?;
//! let best = &ranked[0];
//! assert_eq!((best.conflicts(), best.write.vector, best.read.vector), (0, 4, 1));
//! assert_eq!(best.layout.to_string(), "Sw<3,2,5> o 0 o (32,32):(32,1)");
//! // The row-major tile keeps the vectors but reads with 8-way conflicts.
//! let rm = p.evaluate(&"(32,32):(32,1)".parse()?)?;
//! assert_eq!((rm.write.conflicts(), rm.read.conflicts(), rm.read.wavefronts / rm.read.requests), (0, 224, 8));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::composed::composed_layout::ComposedLayout;
use crate::composed::swizzle::Swizzle;
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::render::Banks;

/// The most points a tile may have (the search evaluates every point of every candidate).
pub const MAX_TILE_POINTS: i64 = 1 << 16;

/// Threads per warp (one request).
pub const WARP: usize = 32;

fn invalid(what: String) -> LayoutError {
    LayoutError::InvalidArgument {
        op: "smem_search",
        what,
    }
}

/// The shared-memory instruction of one side of a tile's accesses (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Instruction {
    /// `ld.shared` / `st.shared` (SASS `LDS` / `STS`), each thread at most this many bytes at
    /// once (1, 2, 4, 8 or 16); all 32 lanes supply addresses.
    Shared(i64),
    /// `ldmatrix` / `stmatrix` (`LDSM` / `STSM`) of `matrices` 8 x 16-byte matrices (1, 2 or 4:
    /// `.x1`, `.x2`, `.x4`), `.trans` or not: lanes `0 .. 8 matrices` each supply the address of
    /// one 16-byte row (`.trans` moves data between registers, not addresses).
    Matrix {
        /// 1, 2 or 4.
        matrices: usize,
        /// `.trans`.
        trans: bool,
    },
}

impl Instruction {
    /// (lanes that supply addresses, narrowest and widest access in bytes).
    fn params(self) -> Result<(usize, i64, i64), LayoutError> {
        match self {
            Instruction::Shared(b) if (1..=16).contains(&b) && b & (b - 1) == 0 => Ok((WARP, 1, b)),
            Instruction::Matrix { matrices, .. } if [1, 2, 4].contains(&matrices) => {
                Ok((8 * matrices, 16, 16))
            }
            other => Err(invalid(format!(
                "{other} is not an instruction of the model"
            ))),
        }
    }
}

impl fmt::Display for Instruction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Instruction::Shared(b) => write!(f, "ld/st.shared of up to {b} bytes"),
            Instruction::Matrix { matrices, trans } => write!(
                f,
                "ldmatrix/stmatrix.x{matrices}{}",
                if *trans { ".trans" } else { "" }
            ),
        }
    }
}

/// What to search for (see the [module docs](self)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    tile: IntTuple,
    rows: i64,
    cols: i64,
    write: Layout,
    read: Layout,
    banks: Banks,
    /// Widest access in bytes: (writes, reads).
    max_vector_bytes: (i64, i64),
    /// Narrowest access the instruction takes: (writes, reads).
    min_vector_bytes: (i64, i64),
    /// Lanes of each warp that supply addresses: (writes, reads).
    lanes: (usize, usize),
    /// The instructions: (writes, reads).
    instructions: (Instruction, Instruction),
}

/// One side (the writes or the reads) of a tile's accesses, per tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Side {
    /// Elements per access (1 = scalar).
    pub vector: i64,
    /// Bytes per access.
    pub vector_bytes: i64,
    /// Warp instructions (requests) per tile.
    pub requests: usize,
    /// Wavefronts per tile.
    pub wavefronts: usize,
    /// Wavefronts per tile without bank conflicts.
    pub ideal: usize,
}

impl Side {
    /// Extra wavefronts per tile: the bank conflicts the profiler counts.
    pub fn conflicts(&self) -> usize {
        self.wavefronts.saturating_sub(self.ideal)
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}-byte accesses ({} x {} B), {} requests, {} wavefronts ({:.2} per request, ideal {}), {} bank conflicts",
            self.vector_bytes,
            self.vector,
            self.vector_bytes / self.vector.max(1),
            self.requests,
            self.wavefronts,
            self.wavefronts as f64 / self.requests.max(1) as f64,
            self.ideal,
            self.conflicts()
        )
    }
}

/// A shared-memory layout of the tile and what its accesses cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The layout from the tile's 1-D index to the element offset in shared memory.
    pub layout: ComposedLayout,
    /// `row-major`, `column-major`, `padded`, `swizzled`, `swizzled-padded` or `given`.
    pub kind: &'static str,
    /// The writes.
    pub write: Side,
    /// The reads.
    pub read: Side,
    /// Elements of shared memory the tile occupies (largest offset + 1: up to `2^63`, past
    /// `i64`, where the largest offset is `i64::MAX`).
    pub footprint: u64,
}

impl Evaluation {
    /// Bank conflicts per tile, writes and reads together.
    pub fn conflicts(&self) -> usize {
        self.write.conflicts() + self.read.conflicts()
    }

    /// Wavefronts per tile, writes and reads together: what [`search`] ranks by.
    pub fn wavefronts(&self) -> usize {
        self.write.wavefronts + self.read.wavefronts
    }
}

impl fmt::Display for Evaluation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} ({}, {} elements)",
            self.layout, self.kind, self.footprint
        )?;
        writeln!(f, "  write: {}", self.write)?;
        write!(f, "  read:  {}", self.read)
    }
}

impl Problem {
    /// A tile of shape `tile` (two top-level modes: rows and columns), written by `write` and
    /// read by `read` (TV layouts: mode 0 the thread, mode 1 the value, values 1-D tile
    /// indices), with the element size and bank geometry of `banks`, vectors up to 16 bytes.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if the tile does not have two modes, a TV layout does
    /// not have two modes or reaches outside the tile; [`LayoutError::TooLarge`] past
    /// [`MAX_TILE_POINTS`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{gpu::smem_search::Problem, render::Banks, Layout};
    /// let rows: Layout = "((32,8),4):((32,1),8)".parse()?; // a warp writes along a row
    /// let cols: Layout = "((32,8),4):((1,32),256)".parse()?; // a warp reads down a column
    /// let p = Problem::new("(32,32)".parse()?, rows, cols, Banks::new(32, 4)?)?;
    /// let e = p.evaluate(&"(32,32):(33,1)".parse()?)?; // one word of padding per row
    /// assert_eq!((e.conflicts(), e.footprint), (0, 1055));
    /// let outside: Layout = "(32,33):(1,32)".parse()?;
    /// assert!(Problem::new("(32,32)".parse()?, outside, "(32,32):(1,32)".parse()?, Banks::default()).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(
        tile: IntTuple,
        write: Layout,
        read: Layout,
        banks: Banks,
    ) -> Result<Self, LayoutError> {
        if tile.rank() != 2 {
            return Err(invalid(format!(
                "the tile {tile} must have two modes (rows, columns)"
            )));
        }
        let dims: Vec<i64> = tile
            .elements()
            .map(|m| m.size())
            .collect::<Result<_, _>>()?;
        let (rows, cols) = (dims[0], dims[1]);
        let n = rows.checked_mul(cols).unwrap_or(i64::MAX);
        if n > MAX_TILE_POINTS {
            return Err(LayoutError::TooLarge {
                op: "smem_search",
                what: format!("a tile of {n} points"),
                limit: MAX_TILE_POINTS,
            });
        }
        for (side, tv) in [("write", &write), ("read", &read)] {
            if tv.rank() != 2 {
                return Err(invalid(format!(
                    "the {side} layout {tv} must have two modes (thread, value)"
                )));
            }
            if tv.size() > MAX_TILE_POINTS {
                return Err(LayoutError::TooLarge {
                    op: "smem_search",
                    what: format!("a {side} layout of {} points", tv.size()),
                    limit: MAX_TILE_POINTS,
                });
            }
            let (lo, hi) = tv.image_bounds();
            if lo < 0 || hi >= n {
                return Err(invalid(format!(
                    "the {side} layout {tv} reaches [{lo}, {hi}], outside the tile's {n} points"
                )));
            }
        }
        Ok(Problem {
            tile,
            rows,
            cols,
            write,
            read,
            banks,
            max_vector_bytes: (16, 16),
            min_vector_bytes: (1, 1),
            lanes: (WARP, WARP),
            instructions: (Instruction::Shared(16), Instruction::Shared(16)),
        })
    }

    /// The same with only the first `write` lanes of each warp supplying the writes' addresses
    /// and the first `read` lanes the reads' (see the [module docs](self)): 8 for `ldmatrix.x1`
    /// or `stmatrix.x1`, 16 for `.x2`, 32 (the default) for `.x4` and ordinary loads and stores.
    /// Requests are still one per warp instruction; the ignored lanes cost no wavefronts.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] unless both are from 1 to 32.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{gpu::smem_search::Problem, render::Banks, Layout};
    /// // ldmatrix.x2 over a 16 x 8 tile of bf16 (K-major): lanes 0-15 give the 16 row addresses,
    /// // lanes 16-31 repeat them (stride 0), as in CuTe's SM75_U32x2_LDSM_N.
    /// let rows: Layout = "((16,2),8):((1,0),16)".parse()?;
    /// let p = Problem::new("(16,8)".parse()?, rows.clone(), rows, Banks::new(32, 2)?)?;
    /// let all = p.evaluate(&"(16,8):(8,1)".parse()?)?;
    /// assert_eq!((all.read.requests, all.read.wavefronts, all.read.conflicts()), (1, 4, 0));
    /// let x2 = p.address_lanes(32, 16)?.evaluate(&"(16,8):(8,1)".parse()?)?;
    /// assert_eq!((x2.read.requests, x2.read.wavefronts, x2.read.conflicts()), (1, 2, 0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn address_lanes(mut self, write: usize, read: usize) -> Result<Self, LayoutError> {
        for (side, n) in [("write", write), ("read", read)] {
            if !(1..=WARP).contains(&n) {
                return Err(invalid(format!(
                    "{side} address lanes {n} is not from 1 to {WARP}"
                )));
            }
        }
        self.lanes = (write, read);
        Ok(self)
    }

    /// Lanes of each warp that supply addresses: (writes, reads).
    pub fn lanes(&self) -> (usize, usize) {
        self.lanes
    }

    /// The same with accesses at most `bytes` wide (a power of two, 1 to 16).
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] otherwise.
    pub fn max_vector_bytes(mut self, bytes: i64) -> Result<Self, LayoutError> {
        if !(1..=16).contains(&bytes) || bytes & (bytes - 1) != 0 {
            return Err(invalid(format!(
                "vector width {bytes} bytes is not a power of two from 1 to 16"
            )));
        }
        self.max_vector_bytes = (bytes, bytes);
        Ok(self)
    }

    /// The same with the writes made of `write` instructions and the reads of `read` (address
    /// lanes and access widths of [`Instruction`]).
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] for an access width that is not a power of two from 1
    /// to 16 or a matrix count other than 1, 2 or 4.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{gpu::smem_search::{Instruction, Problem}, render::Banks, Layout};
    /// // ldmatrix.x4 over a 32 x 8 bf16 tile: lane t gives row t's 16 bytes.
    /// let rows: Layout = "(32,8):(1,32)".parse()?;
    /// let p = Problem::new("(32,8)".parse()?, rows.clone(), rows, Banks::new(32, 2)?)?
    ///     .instructions(Instruction::Shared(16), Instruction::Matrix { matrices: 4, trans: false })?;
    /// let e = p.evaluate(&"(32,8):(8,1)".parse()?)?;
    /// assert_eq!((e.read.vector_bytes, e.read.wavefronts, e.read.conflicts()), (16, 4, 0));
    /// // Column-major, a lane's row is 64 bytes apart element to element: ldmatrix cannot read it.
    /// let err = p.evaluate(&"(32,8):(1,32)".parse()?).unwrap_err();
    /// assert_eq!(err.to_string(), "smem_search: the reads (ldmatrix/stmatrix.x4) need 16-byte accesses; (32,8):(1,32) gives 2-byte accesses");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn instructions(
        mut self,
        write: Instruction,
        read: Instruction,
    ) -> Result<Self, LayoutError> {
        let (wl, wmin, wmax) = write.params()?;
        let (rl, rmin, rmax) = read.params()?;
        self.lanes = (wl, rl);
        self.min_vector_bytes = (wmin, rmin);
        self.max_vector_bytes = (wmax, rmax);
        self.instructions = (write, read);
        Ok(self)
    }

    /// The tile's shape.
    pub fn tile(&self) -> &IntTuple {
        &self.tile
    }

    /// What the accesses cost with the tile stored as `smem` (from the tile's 1-D index to an
    /// element offset).
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if `smem`'s size is not the tile's or an offset is
    /// negative; [`LayoutError::Overflow`] if a byte address leaves `i64`.
    pub fn evaluate(&self, smem: &ComposedLayout) -> Result<Evaluation, LayoutError> {
        let e = self.evaluate_kind(smem, "given")?;
        self.serves(&e)?;
        Ok(e)
    }

    /// `Ok` when the accesses of `e` are wide enough for both sides' instructions.
    fn serves(&self, e: &Evaluation) -> Result<(), LayoutError> {
        for (side, s, min, instr) in [
            (
                "writes",
                e.write,
                self.min_vector_bytes.0,
                self.instructions.0,
            ),
            (
                "reads",
                e.read,
                self.min_vector_bytes.1,
                self.instructions.1,
            ),
        ] {
            if s.vector_bytes < min {
                return Err(invalid(format!(
                    "the {side} ({instr}) need {min}-byte accesses; {} gives {}-byte accesses",
                    e.layout, s.vector_bytes
                )));
            }
        }
        Ok(())
    }

    fn evaluate_kind(
        &self,
        smem: &ComposedLayout,
        kind: &'static str,
    ) -> Result<Evaluation, LayoutError> {
        let n = self.rows * self.cols;
        if smem.size() != n {
            return Err(invalid(format!(
                "the layout {smem} has {} points, the tile {}",
                smem.size(),
                n
            )));
        }
        let offs: Vec<i64> = smem.offsets().collect();
        let (lo, hi) = offs
            .iter()
            .fold((i64::MAX, i64::MIN), |(a, b), &v| (a.min(v), b.max(v)));
        if lo < 0 {
            return Err(invalid(format!("the layout {smem} has negative offsets")));
        }
        Ok(Evaluation {
            layout: smem.clone(),
            kind,
            write: self.side(&self.write, &offs, self.lanes.0, self.max_vector_bytes.0)?,
            read: self.side(&self.read, &offs, self.lanes.1, self.max_vector_bytes.1)?,
            footprint: hi.unsigned_abs() + 1, // hi >= lo >= 0
        })
    }

    fn side(
        &self,
        tv: &Layout,
        smem: &[i64],
        lanes: usize,
        max_bytes: i64,
    ) -> Result<Side, LayoutError> {
        let threads = tv.mode(0).map_or(1, |m| m.size());
        let values = tv.mode(1).map_or(1, |m| m.size());
        let t_n = usize::try_from(threads).unwrap_or(0);
        let v_n = usize::try_from(values).unwrap_or(0);
        // off[t + T v] = S(TV(t, v)); TV's image lies in the tile (checked in `new`).
        let off: Vec<i64> = tv
            .offsets()
            .map(|x| {
                smem.get(usize::try_from(x).unwrap_or(0))
                    .copied()
                    .unwrap_or(0)
            })
            .collect();
        let at = |t: usize, v: usize| off[t + t_n * v];
        let e = self.banks.elem_bytes();
        let mut w = 1usize;
        loop {
            let w2 = w * 2;
            let fits = i64::try_from(w2)
                .ok()
                .and_then(|x| x.checked_mul(e))
                .is_some_and(|b| b <= max_bytes);
            if !fits || v_n % w2 != 0 {
                break;
            }
            let ok = (0..t_n).all(|t| {
                (0..v_n / w2).all(|g| {
                    let b = at(t, g * w2);
                    b.rem_euclid(w2 as i64) == 0
                        && (1..w2).all(|j| at(t, g * w2 + j) == b + j as i64)
                })
            });
            if !ok {
                break;
            }
            w = w2;
        }
        let bytes = w as i64 * e;
        let wave_bytes = self.banks.count() * self.banks.bank_bytes();
        let phase = usize::try_from(wave_bytes / bytes.max(self.banks.bank_bytes()))
            .unwrap_or(1)
            .clamp(1, WARP);
        let mut side = Side {
            vector: w as i64,
            vector_bytes: bytes,
            requests: 0,
            wavefronts: 0,
            ideal: 0,
        };
        let mut words = Vec::new();
        let mut per_bank = alloc::vec![0usize; usize::try_from(self.banks.count()).unwrap_or(1)];
        for warp0 in (0..t_n).step_by(WARP) {
            // Only the first `lanes` lanes of the warp supply addresses.
            let addr_end = (warp0 + lanes).min(t_n);
            for g in 0..v_n / w {
                side.requests += 1;
                for p0 in (warp0..addr_end).step_by(phase) {
                    words.clear();
                    for t in p0..(p0 + phase).min(addr_end) {
                        let first = self.banks.words(at(t, g * w))?.0;
                        let last = self.banks.words(at(t, g * w + w - 1))?.1;
                        words.extend(first..=last);
                    }
                    words.sort_unstable();
                    words.dedup();
                    per_bank.iter_mut().for_each(|c| *c = 0);
                    let mut wf = 0;
                    for &wd in &words {
                        if let Some(c) =
                            per_bank.get_mut(wd.rem_euclid(self.banks.count()) as usize)
                        {
                            *c += 1;
                            wf = wf.max(*c);
                        }
                    }
                    side.wavefronts += wf;
                    side.ideal += words.len().div_ceil(per_bank.len().max(1));
                }
            }
        }
        Ok(side)
    }

    /// The candidates of the [module docs](self), in their order, with their kinds.
    fn candidates(&self) -> Result<Vec<(ComposedLayout, &'static str)>, LayoutError> {
        let (m, n) = (self.rows, self.cols);
        let shape = IntTuple::flat([m, n]);
        let lay = |a: i64, b: i64| Layout::new(shape.clone(), IntTuple::flat([a, b]));
        let row = lay(n, 1)?;
        let col = lay(1, m)?;
        let mut out: Vec<(ComposedLayout, &'static str)> = alloc::vec![
            (row.clone().into(), "row-major"),
            (col.clone().into(), "column-major"),
        ];
        let mut padded = Vec::new();
        for p in 1..=MAX_PAD {
            padded.push((p, lay(n + p, 1)?));
            padded.push((p, lay(1, m + p)?));
        }
        out.extend(padded.iter().map(|(_, l)| (l.clone().into(), "padded")));
        // Swizzles over the row- and column-major tiles: every `Sw<B,M,S>` whose bits all lie
        // below the footprint's next power of two (higher bits of an offset are zero there).
        for base in [&row, &col] {
            for sw in swizzles(footprint_bits(base), 6, 6) {
                out.push((ComposedLayout::new(sw, 0, base.clone())?, "swizzled"));
            }
        }
        // Swizzles over the padded tiles whose padding is a power of two of at most 16 elements:
        // `Sw o pad o L`.
        for (p, base) in &padded {
            if p & (p - 1) == 0 && *p <= 16 {
                for sw in swizzles(footprint_bits(base), 3, 4) {
                    out.push((ComposedLayout::new(sw, 0, base.clone())?, "swizzled-padded"));
                }
            }
        }
        Ok(out)
    }
}

/// The largest padding (elements per row or column) among the candidates.
pub const MAX_PAD: i64 = 32;

/// Bits of the next power of two at or above `l`'s footprint (its largest offset + 1).
fn footprint_bits(l: &Layout) -> i64 {
    let f = l.image_bounds().1.saturating_add(1).max(1);
    i64::from(64 - (f - 1).leading_zeros())
}

/// Every `Sw<B,M,S>` (`1 <= B <= max_b`, `0 <= M <= max_m`, `B <= |S|`, both signs of `S`)
/// whose bits all lie below bit `bits`.
fn swizzles(bits: i64, max_b: i64, max_m: i64) -> Vec<Swizzle> {
    let mut out = Vec::new();
    for b in 1..=max_b {
        for mb in 0..=max_m {
            for abs_s in b..=bits {
                if b + mb + abs_s > bits {
                    break;
                }
                for s in [abs_s, -abs_s] {
                    if let Ok(sw) = Swizzle::new(b, mb, s) {
                        out.push(sw);
                    }
                }
            }
        }
    }
    out
}

/// Every candidate of the [module docs](self) evaluated and ranked, best first: fewest
/// wavefronts (writes + reads), then widest vectors (write + read bytes), then smallest
/// footprint, then simplest.
///
/// # Laws
/// * The first result takes no more wavefronts than any other candidate (the row-major and
///   column-major tiles among them), and among those with as few, vectors at least as wide.
/// * Every result is a bijection from the tile onto its offsets (no two elements share one).
///
/// Candidates whose accesses are too narrow for the instructions ([`Problem::instructions`])
/// are left out; the result is empty when none serves them.
///
/// # Errors
/// As [`Problem::evaluate`].
///
/// # Examples
/// See the [module docs](self).
pub fn search(p: &Problem) -> Result<Vec<Evaluation>, LayoutError> {
    let mut ranked = Vec::new();
    for (c, kind) in p.candidates()? {
        let e = p.evaluate_kind(&c, kind)?;
        if p.serves(&e).is_ok() {
            ranked.push(e);
        }
    }
    // Stable: ties keep the candidates' order (simplest first).
    ranked.sort_by_key(|e| {
        (
            e.wavefronts(),
            core::cmp::Reverse(e.write.vector_bytes + e.read.vector_bytes),
            e.footprint,
        )
    });
    Ok(ranked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn problem(w: &str, r: &str, e: i64) -> Problem {
        Problem::new(
            "(32,32)".parse().unwrap(),
            w.parse().unwrap(),
            r.parse().unwrap(),
            Banks::new(32, e).unwrap(),
        )
        .unwrap()
    }

    #[test]
    fn classic_transpose() {
        // 32 x 8 threads, 4 values: write rows, read columns.
        let p = problem("((32,8),4):((32,1),8)", "((32,8),4):((1,32),256)", 4);
        let rm = p.evaluate(&"(32,32):(32,1)".parse().unwrap()).unwrap();
        assert_eq!((rm.write.conflicts(), rm.read.conflicts()), (0, 32 * 31));
        let pad = p.evaluate(&"(32,32):(33,1)".parse().unwrap()).unwrap();
        assert_eq!(pad.conflicts(), 0);
        let best = &search(&p).unwrap()[0];
        assert_eq!(best.conflicts(), 0);
        // Bijective onto its offsets.
        let mut offs: Vec<i64> = best.layout.offsets().collect();
        offs.sort_unstable();
        offs.dedup();
        assert_eq!(offs.len(), 1024);
    }

    /// The ranking's law: the first result takes no more wavefronts than any candidate, the
    /// row-major and column-major tiles included, and among those with as few, vectors at least
    /// as wide.
    fn check_best(p: &Problem) -> Evaluation {
        let ranked = search(p).unwrap();
        let best = ranked[0].clone();
        let bytes = |e: &Evaluation| e.write.vector_bytes + e.read.vector_bytes;
        for other in &ranked {
            assert!(best.wavefronts() <= other.wavefronts(), "{best} vs {other}");
            if best.wavefronts() == other.wavefronts() {
                assert!(bytes(&best) >= bytes(other), "{best} vs {other}");
            }
        }
        let (m, n) = (p.rows, p.cols);
        for plain in [format!("({m},{n}):({n},1)"), format!("({m},{n}):(1,{m})")] {
            let e = p.evaluate(&plain.parse().unwrap()).unwrap();
            assert!(best.wavefronts() <= e.wavefronts(), "{best} vs {e}");
        }
        // The winner, evaluated on its own, costs what the search said.
        assert_eq!(
            p.evaluate(&best.layout).unwrap().wavefronts(),
            best.wavefronts()
        );
        best
    }

    #[test]
    fn best_beats_baselines() {
        for (w, r, e) in [
            ("((8,32),4):((128,1),32)", "((8,32),4):((4,32),1)", 4),
            ("((32,8),4):((32,1),8)", "((32,8),4):((1,32),256)", 2),
            ("((4,32),8):((256,1),32)", "((32,4),8):((1,256),32)", 2),
            ("((32,8),4):((32,1),8)", "((32,8),4):((32,1),8)", 8),
        ] {
            check_best(&problem(w, r, e));
        }
    }

    #[test]
    fn ranks_by_wavefronts_not_conflicts() {
        // One-byte elements: the column-major tile reads with 16-byte vectors (16 + 64
        // wavefronts); a conflict-free swizzle with 1-byte reads costs 64 + 64.
        let p = Problem::new(
            "(64,32)".parse().unwrap(),
            "((4,8),(16,4)):((16,64),(1,512))".parse().unwrap(),
            "((2,16),(32,2)):((32,128),(1,64))".parse().unwrap(),
            Banks::new(32, 1).unwrap(),
        )
        .unwrap();
        let cm = p.evaluate(&"(64,32):(1,64)".parse().unwrap()).unwrap();
        assert_eq!((cm.write.wavefronts, cm.read.wavefronts), (16, 64));
        let best = check_best(&p);
        assert!(best.wavefronts() <= 80, "{best}");
    }

    #[test]
    fn random_problems_rank_by_wavefronts() {
        // Tiles of 2^a x 2^b points, TV layouts that send (thread, value) one-to-one onto the
        // tile's indices through a random permutation of the index bits, random element sizes.
        let mut rng = crate::algebra::testing::Rng(0x5eed_cafe_f00d_1234);
        for _ in 0..24 {
            let a = 1 + rng.next(5) as u32;
            let b = 1 + rng.next(5) as u32;
            let k = a + b;
            let tv = |rng: &mut crate::algebra::testing::Rng| -> Layout {
                let mut bits: Vec<u32> = (0..k).collect();
                for i in (1..bits.len()).rev() {
                    bits.swap(i, rng.next(i as u64 + 1) as usize);
                }
                let t = (rng.next(u64::from(k)) as usize + 1).min(k as usize);
                let mode = |bs: &[u32]| {
                    if bs.is_empty() {
                        "1:0".to_string()
                    } else {
                        let sh = alloc::vec!["2"; bs.len()].join(",");
                        let st: Vec<String> = bs.iter().map(|b| (1i64 << b).to_string()).collect();
                        format!("({sh}):({})", st.join(","))
                    }
                };
                let (tm, vm) = (mode(&bits[..t]), mode(&bits[t..]));
                let (ts, td) = tm.split_once(':').unwrap();
                let (vs, vd) = vm.split_once(':').unwrap();
                format!("({ts},{vs}):({td},{vd})").parse().unwrap()
            };
            let (w, r) = (tv(&mut rng), tv(&mut rng));
            let e = 1i64 << rng.next(4);
            let tile: IntTuple = format!("({},{})", 1 << a, 1 << b).parse().unwrap();
            let p = Problem::new(tile, w, r, Banks::new(32, e).unwrap()).unwrap();
            check_best(&p);
        }
    }

    #[test]
    fn ldmatrix_address_lanes() {
        // ldmatrix over a 32 x 8 bf16 tile stored row-major (16 bytes a row): .x4 takes 32 row
        // addresses, .x2 the first 16 (lanes 16-31 repeat them, stride 0, as in CuTe's
        // SM75_U32x2_LDSM_N), .x1 the first 8: one wavefront per 8 rows (128 bytes).
        let tile: IntTuple = "(32,8)".parse().unwrap();
        let smem: ComposedLayout = "(32,8):(8,1)".parse().unwrap();
        for (tv, lanes, wavefronts) in [
            ("(32,8):(1,32)", 32, 4),
            ("((16,2),8):((1,0),32)", 16, 2),
            ("((8,4),8):((1,0),32)", 8, 1),
        ] {
            let tv: Layout = tv.parse().unwrap();
            let p = Problem::new(tile.clone(), tv.clone(), tv, Banks::new(32, 2).unwrap()).unwrap();
            // Every lane counted: four phases of 8 lanes, whatever they repeat.
            let all = p.evaluate(&smem).unwrap();
            assert_eq!(
                (
                    all.read.requests,
                    all.read.wavefronts,
                    all.read.vector_bytes
                ),
                (1, 4, 16)
            );
            let q = p.address_lanes(lanes, lanes).unwrap();
            assert_eq!(q.lanes(), (lanes, lanes));
            let e = q.evaluate(&smem).unwrap();
            assert_eq!(
                (e.read.requests, e.read.wavefronts, e.read.conflicts()),
                (1, wavefronts, 0)
            );
            assert_eq!(e.write, e.read);
        }
        // Lanes that conflict among themselves keep their conflicts: a column-major tile puts
        // the 8 rows of a phase 2 bytes apart (all in 4 banks' words 0-3).
        let tv: Layout = "((16,2),8):((1,0),16)".parse().unwrap();
        let p = Problem::new(
            "(16,8)".parse().unwrap(),
            tv.clone(),
            tv,
            Banks::new(32, 2).unwrap(),
        )
        .unwrap()
        .address_lanes(32, 16)
        .unwrap();
        let cm = p.evaluate(&"(16,8):(1,16)".parse().unwrap()).unwrap();
        assert_eq!((cm.read.vector, cm.read.requests), (1, 8));
        assert!(cm.write.wavefronts >= cm.read.wavefronts);
    }

    #[test]
    fn matrix_instructions_need_16_byte_rows() {
        // A 16 x 8 bf16 tile written by rows with st.shared (at most 4 bytes) and read by
        // ldmatrix.x2.trans: every result keeps the 16-byte rows the reads need.
        let tv: Layout = "((16,2),8):((1,0),16)".parse().unwrap();
        let p = Problem::new(
            "(16,8)".parse().unwrap(),
            tv.clone(),
            tv,
            Banks::new(32, 2).unwrap(),
        )
        .unwrap()
        .instructions(
            Instruction::Shared(4),
            Instruction::Matrix {
                matrices: 2,
                trans: true,
            },
        )
        .unwrap();
        assert_eq!(p.lanes(), (32, 16));
        let ranked = search(&p).unwrap();
        assert!(!ranked.is_empty());
        for e in &ranked {
            assert_eq!((e.write.vector_bytes, e.read.vector_bytes), (4, 16), "{e}");
        }
        let best = &ranked[0];
        assert_eq!((best.read.wavefronts, best.read.conflicts()), (2, 0));
        let cm: ComposedLayout = "(16,8):(1,16)".parse().unwrap();
        assert_eq!(
            p.evaluate(&cm).unwrap_err().to_string(),
            "smem_search: the reads (ldmatrix/stmatrix.x2.trans) need 16-byte accesses; (16,8):(1,16) gives 2-byte accesses"
        );
        assert!(p
            .clone()
            .instructions(Instruction::Shared(3), Instruction::Shared(4))
            .is_err());
        assert!(p
            .instructions(
                Instruction::Shared(4),
                Instruction::Matrix {
                    matrices: 3,
                    trans: false
                }
            )
            .is_err());
    }

    #[test]
    fn errors() {
        let b = Banks::new(32, 4).unwrap();
        let t: IntTuple = "(32,32)".parse().unwrap();
        let ok: Layout = "(32,32):(1,32)".parse().unwrap();
        assert!(Problem::new("32".parse().unwrap(), ok.clone(), ok.clone(), b).is_err());
        let out: Layout = "(32,33):(1,32)".parse().unwrap();
        assert!(Problem::new(t.clone(), out, ok.clone(), b).is_err());
        let p = Problem::new(t, ok.clone(), ok, b).unwrap();
        assert!(p.evaluate(&"(16,16):(16,1)".parse().unwrap()).is_err());
        assert!(p.clone().max_vector_bytes(3).is_err());
        assert!(p.clone().address_lanes(0, 32).is_err());
        assert!(p.clone().address_lanes(32, 33).is_err());
        assert_eq!(p.address_lanes(16, 8).unwrap().lanes(), (16, 8));
    }
}
