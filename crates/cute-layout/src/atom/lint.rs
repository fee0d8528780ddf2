//! The atom lint: the laws every MMA and copy atom's layouts obey, checked point by point.
//!
//! A table transcribed from CuTe is an input to check, not a truth: [`lint_mma`] and
//! [`lint_copy`] evaluate an atom's layouts at every point and report each law they break as a
//! [`Finding`]; [`lint_all`] runs them over every name the atom families accept
//! ([`for_each_mma_name`], [`for_each_copy_name`]).
//!
//! MMA atom (`ThrID`, `Shape_MNK = (M,N,K)`, TV layouts of A, B, C onto the `M x K`, `N x K`,
//! `M x N` tiles):
//! * `ThrID` is one-to-one (no two logical threads are one thread);
//! * `Shape_MNK` is three positive extents;
//! * each TV layout is `(thread, value)` (rank 2) with `size(ThrID)` threads;
//! * a **register fragment** (a thread mode with a non-zero stride) is one-to-one onto its tile:
//!   every (thread, value) pair lands inside the tile, no two on the same cell, every cell
//!   reached (so `threads x values` is the tile's size);
//! * an operand every thread sees whole (all thread strides 0: a shared- or tensor-memory
//!   descriptor, or a single thread) has a value mode one-to-one onto its tile;
//! * a register fragment of a warp-level atom (32 threads or more) is whole 32-bit registers:
//!   `values x sizeof_bits` of its type is a multiple of 32 (C: of both C's and D's type);
//! * a block-scaled atom's scale-factor layouts (SFA onto `M x K`, SFB onto `N x K`) have
//!   `size(ThrID)` threads, stay inside the tile and give every cell a scale factor.
//!
//! Copy atom (`ThrID`; `SrcLayout`, `DstLayout`, `RefLayout`: `(thread, value) -> bit`; SM100
//! tensor-memory atoms also `ValID`). A thread sub-mode of stride 0 replicates: those threads
//! stand for the same bits (ldmatrix's address rows, a tensor-memory chunk every thread names);
//! "without replication" drops those sub-modes.
//! * `ThrID` is one-to-one; src, dst and ref are `(thread, value)` with `size(ThrID)` threads;
//! * ref is src or dst;
//! * each layout's values per thread are the atom's declared width ([`declared_bits`]: the
//!   instruction's source and destination registers or memory, read from the name);
//! * src and dst move the same number of bits (sizes without replication), except
//!   `UniversalCopy<S,D>` of different widths, which converts one value of `S` into one of `D`;
//! * no bit is written twice (dst without replication is one-to-one), and a register fragment
//!   of src (thread mode of more than one thread, no stride-0 sub-mode) is one-to-one;
//! * unless src reads a bit twice (a multicast), src and dst without replication reach the
//!   same bit positions;
//! * `ValID` is one-to-one and src and dst stay inside its domain.
//!
//! ```
//! use cute_layout::atom::lint::lint_mma;
//! use cute_layout::atom::mma_atom;
//! assert!(lint_mma(&mma_atom("SM80_16x8x16_F16F16F16F16_TN")?)?.is_empty());
//! // The corrected SM80 16x8x32 4-bit B fragment is one-to-one onto the 8 x 32 tile.
//! assert!(lint_mma(&mma_atom("SM80_16x8x32_S32S4U4S32_TN")?)?.is_empty());
//! # Ok::<(), cute_layout::atom::AtomError>(())
//! ```

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use super::copy::{copy_atom, for_each_copy_name, value_type, CopyAtom};
use super::mma::{for_each_mma_name, mma_atom, MmaAtom, Operand};
use super::{AtomError, TemplateName};
use crate::layout::Layout;
use crate::IntTuple;

/// A law of [the lint](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Law {
    /// `ThrID` is one-to-one.
    ThrIdOneToOne,
    /// `Shape_MNK` is three positive extents.
    TileShape,
    /// A TV layout is `(thread, value)`.
    TvRank,
    /// A TV layout has `size(ThrID)` threads.
    ThreadCount,
    /// Every value lands inside the operand's tile.
    InsideTile,
    /// No two (thread, value) pairs land on the same cell (bit).
    OneToOne,
    /// Every cell of the tile is reached.
    Onto,
    /// A warp-level register fragment is whole 32-bit registers.
    WholeRegisters,
    /// RefLayout is SrcLayout or DstLayout.
    Reference,
    /// Values per thread are the atom's declared width.
    DeclaredWidth,
    /// Source and destination move the same number of bits.
    SameBits,
    /// Source and destination reach the same bit positions.
    SameBitPositions,
    /// `ValID` is one-to-one and src and dst stay inside its domain.
    ValId,
}

impl Law {
    /// The law's name (`OneToOne`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Law::ThrIdOneToOne => "ThrIdOneToOne",
            Law::TileShape => "TileShape",
            Law::TvRank => "TvRank",
            Law::ThreadCount => "ThreadCount",
            Law::InsideTile => "InsideTile",
            Law::OneToOne => "OneToOne",
            Law::Onto => "Onto",
            Law::WholeRegisters => "WholeRegisters",
            Law::Reference => "Reference",
            Law::DeclaredWidth => "DeclaredWidth",
            Law::SameBits => "SameBits",
            Law::SameBitPositions => "SameBitPositions",
            Law::ValId => "ValId",
        }
    }
}

/// One law an atom breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The atom's name.
    pub atom: String,
    /// The part of the atom: `thr_id`, `shape_mnk`, `A`, `B`, `C`, `src`, `dst`, `ref`, `val_id`.
    pub part: &'static str,
    /// The law broken.
    pub law: Law,
    /// Where: the points that break it.
    pub detail: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}: {}: {}",
            self.atom,
            self.part,
            self.law.name(),
            self.detail
        )
    }
}

/// A finding before it is given the atom's name (cached per distinct layout).
type Raw = (&'static str, Law, String);

/// The most points (cells of a tile, pairs of a layout) the lint evaluates for one layout; a
/// larger atom is not linted ([`crate::atom::AtomError::Unsupported`]).
pub const MAX_LINT_POINTS: i64 = 1 << 22;

/// `Err` when a layout or tile is beyond [`MAX_LINT_POINTS`].
fn within(what: &str, n: i64) -> Result<(), String> {
    if n > MAX_LINT_POINTS {
        return Err(format!(
            "{what} of {n} points, more than the lint's limit of {MAX_LINT_POINTS}"
        ));
    }
    Ok(())
}

/// What one pass over a flat `shape:stride` found against `[0, cells)`.
struct Cover {
    /// `(i, offset)`: the first point outside `[0, cells)`.
    outside: Option<(i64, i64)>,
    /// `(i, j, offset)`: the first point `j` landing where point `i < j` landed.
    repeat: Option<(i64, i64, i64)>,
    /// The first cell no point reached.
    missing: Option<i64>,
    /// The cells reached, by the first point reaching them (`u32::MAX`: none).
    first: Vec<u32>,
}

/// Evaluates the flat layout `shape:stride` (colexicographic order) against `[0, cells)`.
fn cover(shape: &[i64], stride: &[i64], cells: i64) -> Result<Cover, String> {
    let l = flat(shape, stride)?;
    within("a tile", cells)?;
    within("a layout", l.size())?;
    let len = usize::try_from(cells).map_err(|_| format!("a tile of {cells} cells"))?;
    let mut first = vec![u32::MAX; len];
    let mut c = Cover {
        outside: None,
        repeat: None,
        missing: None,
        first: Vec::new(),
    };
    for (i, o) in l.offsets().enumerate() {
        let i = i as i64;
        if !(0..cells).contains(&o) {
            c.outside.get_or_insert((i, o));
            continue;
        }
        let slot = &mut first[o as usize];
        if *slot == u32::MAX {
            *slot = u32::try_from(i).map_err(|_| format!("{i} points"))?;
        } else if c.repeat.is_none() {
            c.repeat = Some((i64::from(*slot), i, o));
        }
    }
    c.missing = first.iter().position(|&s| s == u32::MAX).map(|p| p as i64);
    c.first = first;
    Ok(c)
}

/// The flat layout of the leaves `shape:stride`.
fn flat(shape: &[i64], stride: &[i64]) -> Result<Layout, String> {
    Layout::new(
        IntTuple::flat(shape.iter().copied()),
        IntTuple::flat(stride.iter().copied()),
    )
    .map_err(|e| e.to_string())
}

/// Whether every leaf of `l` of extent above 1 has stride 0 (every thread sees the same).
fn all_replicated(l: &Layout) -> bool {
    l.shape_leaves()
        .iter()
        .zip(l.stride_leaves())
        .all(|(&s, &d)| s == 1 || d == 0)
}

/// Whether some leaf of `l` of extent above 1 has stride 0.
fn some_replicated(l: &Layout) -> bool {
    l.shape_leaves()
        .iter()
        .zip(l.stride_leaves())
        .any(|(&s, &d)| s > 1 && d == 0)
}

/// The leaves of a `(thread, value)` layout without its replicated thread sub-modes: the thread
/// leaves kept, their count of threads, and all the leaves (threads first).
fn without_replication(t: &Layout, v: &Layout) -> (i64, Vec<i64>, Vec<i64>) {
    let mut shape = Vec::new();
    let mut stride = Vec::new();
    let mut threads = 1;
    for (&s, &d) in t.shape_leaves().iter().zip(t.stride_leaves()) {
        if s > 1 && d != 0 {
            shape.push(s);
            stride.push(d);
            threads *= s;
        }
    }
    shape.extend_from_slice(v.shape_leaves());
    stride.extend_from_slice(v.stride_leaves());
    (threads, shape, stride)
}

/// The column-major tile of an operand: `(rows, cols)`.
fn tile(op: Operand, [m, n, k]: [i64; 3]) -> (i64, i64) {
    match op {
        Operand::A => (m, k),
        Operand::B => (n, k),
        Operand::C => (m, n),
    }
}

/// The laws of an MMA atom's `ThrID`, tile and A, B, C layouts (see [the module](self)): every
/// law broken, at the first points that break it; empty if the atom obeys them all. An operand
/// CuTe declares incongruently ([`MmaAtom::layout_tv`] refuses it) is not checked.
///
/// # Errors
/// [`AtomError::Unsupported`] for an atom with a tile or layout of more than
/// [`MAX_LINT_POINTS`] points.
pub fn lint_mma(atom: &MmaAtom) -> Result<Vec<Finding>, AtomError> {
    lint_mma_raw(atom, &mut BTreeMap::new())
        .map(|raw| name_all(atom.name(), raw))
        .map_err(|e| not_linted(atom.name(), e))
}

fn not_linted(name: &str, why: String) -> AtomError {
    AtomError::Unsupported {
        name: name.to_string(),
        what: format!("not linted: {why}"),
    }
}

fn name_all(name: &str, raw: Vec<Raw>) -> Vec<Finding> {
    raw.into_iter()
        .map(|(part, law, detail)| Finding {
            atom: name.to_string(),
            part,
            law,
            detail,
        })
        .collect()
}

/// Answers already computed, by a key naming everything they depend on.
type Cache = BTreeMap<String, Result<Vec<Raw>, String>>;

/// The cached answer of `key`, computed by `f` the first time.
fn cached(
    cache: &mut Cache,
    key: String,
    f: impl FnOnce() -> Result<Vec<Raw>, String>,
) -> Result<Vec<Raw>, String> {
    cache.entry(key).or_insert_with(f).clone()
}

fn lint_mma_raw(atom: &MmaAtom, cache: &mut Cache) -> Result<Vec<Raw>, String> {
    let mut out: Vec<Raw> = Vec::new();
    let threads = atom.thr_id().size();
    out.extend(cached(cache, format!("thr_id|{}", atom.thr_id()), || {
        Ok(thr_id_repeat(atom.thr_id())?
            .map(|d| ("thr_id", Law::ThrIdOneToOne, d))
            .into_iter()
            .collect())
    })?);
    let s = atom.shape_mnk();
    let l = s.leaves();
    if s.rank() != 3 || l.len() != 3 || l.iter().any(|&x| x < 1) {
        out.push(("shape_mnk", Law::TileShape, format!("{s}")));
        return Ok(out);
    }
    let mnk = [l[0], l[1], l[2]];
    let bits = atom.val_bits();
    for op in [Operand::A, Operand::B, Operand::C] {
        let Ok(tv) = atom.layout_tv(op) else {
            continue;
        };
        let (rows, cols) = tile(op, mnk);
        // The register widths matter only to a warp-level register fragment.
        let widths: &[u32] = match op {
            Operand::A => &bits[0..1],
            Operand::B => &bits[1..2],
            Operand::C => &bits[2..4],
        };
        let widths = if threads >= 32 { widths } else { &[] };
        let key = format!("{}|{tv}|{threads}|{rows}x{cols}|{widths:?}", op.name());
        out.extend(cached(cache, key, || {
            lint_operand(op.name(), tv, threads, rows, cols, widths)
        })?);
    }
    if let Some((sfa, sfb)) = atom.scale_factor_layouts() {
        for (part, l, rows) in [("SFA", sfa, mnk[0]), ("SFB", sfb, mnk[1])] {
            let key = format!("{part}|{l}|{threads}|{rows}x{}", mnk[2]);
            out.extend(cached(cache, key, || {
                lint_scale_factors(part, l, threads, rows, mnk[2])
            })?);
        }
    }
    Ok(out)
}

/// The laws of a block-scaled atom's scale-factor layout onto its `rows x K` tile: `(thread,
/// value)` with `size(ThrID)` threads, every value inside the tile and every cell reached (a
/// scale factor is shared by threads and by a vector of values, so not one-to-one).
fn lint_scale_factors(
    part: &'static str,
    l: &Layout,
    threads: i64,
    rows: i64,
    cols: i64,
) -> Result<Vec<Raw>, String> {
    let mut out: Vec<Raw> = Vec::new();
    let (Some(t), 2) = (l.mode(0), l.rank()) else {
        out.push((part, Law::TvRank, format!("{l} is not (thread, value)")));
        return Ok(out);
    };
    if t.size() != threads {
        out.push((
            part,
            Law::ThreadCount,
            format!("{} threads, ThrID has {threads}", t.size()),
        ));
    }
    let Some(cells) = rows.checked_mul(cols) else {
        return Err(format!("a {rows} x {cols} tile"));
    };
    {
        let c = cover(l.shape_leaves(), l.stride_leaves(), cells)?;
        {
            if let Some((i, o)) = c.outside {
                out.push((
                    part,
                    Law::InsideTile,
                    format!("point {i} lands on {o}, outside the {rows} x {cols} tile"),
                ));
            }
            if let Some(o) = c.missing {
                out.push((
                    part,
                    Law::Onto,
                    format!(
                        "cell {o} (row {}, column {}) has no scale factor",
                        o % rows,
                        o / rows
                    ),
                ));
            }
        }
    }
    Ok(out)
}

/// The laws of one TV layout onto a `rows x cols` tile.
fn lint_operand(
    part: &'static str,
    tv: &Layout,
    threads: i64,
    rows: i64,
    cols: i64,
    widths: &[u32],
) -> Result<Vec<Raw>, String> {
    let mut out: Vec<Raw> = Vec::new();
    let Some(cells) = rows.checked_mul(cols) else {
        return Err(format!("a {rows} x {cols} tile"));
    };
    let (Some(t), Some(v), 2) = (tv.mode(0), tv.mode(1), tv.rank()) else {
        out.push((part, Law::TvRank, format!("{tv} is not (thread, value)")));
        return Ok(out);
    };
    if t.size() != threads {
        out.push((
            part,
            Law::ThreadCount,
            format!("{} threads, ThrID has {threads}", t.size()),
        ));
    }
    let whole = all_replicated(&t);
    // A descriptor (or one thread): the value mode alone covers the tile; a register
    // fragment: the (thread, value) pairs do.
    let (shape, stride) = if whole {
        (v.shape_leaves(), v.stride_leaves())
    } else {
        (tv.shape_leaves(), tv.stride_leaves())
    };
    let tsize = if whole { 1 } else { t.size() };
    let at = |i: i64| {
        let (r, c) = (i % tsize, i / tsize);
        if whole {
            format!("value {c}")
        } else {
            format!("(thread {r}, value {c})")
        }
    };
    let cell = |o: i64| format!("cell {o} (row {}, column {})", o % rows, o / rows);
    {
        let c = cover(shape, stride, cells)?;
        {
            if let Some((i, o)) = c.outside {
                out.push((
                    part,
                    Law::InsideTile,
                    format!("{} lands on {o}, outside the {rows} x {cols} tile", at(i)),
                ));
            }
            if let Some((i, j, o)) = c.repeat {
                let reached = c.first.iter().filter(|&&s| s != u32::MAX).count();
                out.push((
                    part,
                    Law::OneToOne,
                    format!(
                        "{} and {} both land on {}; {} pairs reach {reached} of the {cells} cells",
                        at(i),
                        at(j),
                        cell(o),
                        tsize * v.size()
                    ),
                ));
            }
            if let Some(o) = c.missing {
                out.push((
                    part,
                    Law::Onto,
                    format!("{} is reached by no pair", cell(o)),
                ));
            }
        }
    }
    if !whole {
        for &w in widths {
            let total = v.size().saturating_mul(i64::from(w));
            if total % 32 != 0 {
                out.push((
                    part,
                    Law::WholeRegisters,
                    format!(
                        "{} x {w} bits per thread = {total} bits, not whole 32-bit registers",
                        v.size()
                    ),
                ));
            }
        }
    }
    Ok(out)
}

/// Two logical threads `ThrID` sends to one thread index, described; `None` if one-to-one.
fn thr_id_repeat(thr: &Layout) -> Result<Option<String>, String> {
    within("a layout", thr.size())?;
    let mut v: Vec<(i64, usize)> = thr.offsets().enumerate().map(|(i, o)| (o, i)).collect();
    v.sort_unstable();
    Ok(v.windows(2).find(|w| w[0].0 == w[1].0).map(|w| {
        format!(
            "logical threads {} and {} are both thread {} ({thr})",
            w[0].1, w[1].1, w[0].0
        )
    }))
}

/// The declared widths of a copy atom, `(source bits, destination bits)` per thread, from its
/// name: the instruction's source and destination registers (CuTe's `SRegisters` and
/// `DRegisters`) or, for a tensor-memory side, the whole chunk every thread names.
///
/// * `UniversalCopy<S,D>`, `SM80_CP_ASYNC_*<TS,TD>`: `sizeof_bits` of `S`/`TS` and `D`/`TD`;
///   `AutoVectorizingCopy*`, `DefaultCopy`: CuTe's width-1 placeholder, `(1, 1)`;
///   `SM100_{LOAD|STORE}_256bit_*`: 256;
/// * `SM50_Shuffle_U32_2x2Trans_*`: two 32-bit registers in and out;
/// * ldmatrix (`SM75_U32xN_LDSM_N`, `SM75_U16xN_LDSM_T`, `SM100_U8xN_LDSM_T`,
///   `SM100_SU{4|6}_DU8x16_xN_LDSM_N`): a 128-bit shared-memory row per thread in, `N` values of
///   32, 16, 8 and 32 bits out; stmatrix (`SM90_*_STSM_*`, `SM100_U8xN_STSM_T`) the reverse;
///   `SM75_U32x1_MOVM_T`: 32 and 32;
/// * `SM100_TMEM_{LOAD|STORE}_{dp}dp{b}b{N}x`: `r = dp * b * N / 32` register bits per thread
///   (twice that for `16dp32b`, PTX's `16x32bx2`), the tensor-memory side `32 * r`;
/// * `SM100_UTCCP_*`: the datapaths times the bits (`4x32dp128bit`: 4 x 32 x 128) both sides.
///
/// `None` for a name of none of these families.
pub fn declared_bits(name: &str) -> Option<(i64, i64)> {
    let t = TemplateName::parse(name)?;
    let base = t.base.as_str();
    let ty = |i: usize| value_type(t.args.get(i)?).ok().map(|v| i64::from(v.bits()));
    let num = |s: &str| s.parse::<i64>().ok().filter(|&x| x > 0);
    if base == "UniversalCopy" || base.starts_with("SM80_CP_ASYNC_") {
        let s = ty(0)?;
        return Some((s, if t.args.len() > 1 { ty(1)? } else { s }));
    }
    match base {
        "AutoVectorizingCopyWithAssumedAlignment" | "AutoVectorizingCopy" | "DefaultCopy" => {
            return Some((1, 1))
        }
        "SM100_LOAD_256bit_CACHE_NOALLOCATION" | "SM100_STORE_256bit_CACHE_NOALLOCATION" => {
            return Some((256, 256))
        }
        "SM50_Shuffle_U32_2x2Trans_XOR1" | "SM50_Shuffle_U32_2x2Trans_XOR4" => {
            return Some((64, 64))
        }
        "SM75_U32x1_MOVM_T" => return Some((32, 32)),
        _ => {}
    }
    let ldsm = |prefix: &str, suffix: &str, w: i64| -> Option<i64> {
        num(base.strip_prefix(prefix)?.strip_suffix(suffix)?).map(|n| n * w)
    };
    if let Some(d) = ldsm("SM75_U32x", "_LDSM_N", 32)
        .or_else(|| ldsm("SM75_U16x", "_LDSM_T", 16))
        .or_else(|| ldsm("SM100_U8x", "_LDSM_T", 8))
        .or_else(|| ldsm("SM100_SU4_DU8x16_x", "_LDSM_N", 32))
        .or_else(|| ldsm("SM100_SU6_DU8x16_x", "_LDSM_N", 32))
    {
        return Some((128, d));
    }
    if let Some(s) = ldsm("SM90_U32x", "_STSM_N", 32)
        .or_else(|| ldsm("SM90_U16x", "_STSM_T", 16))
        .or_else(|| ldsm("SM100_U8x", "_STSM_T", 8))
    {
        return Some((s, 128));
    }
    if let Some(rest) = base.strip_prefix("SM100_TMEM_") {
        let (load, rest) = match rest.strip_prefix("LOAD_") {
            Some(r) => (true, r),
            None => (false, rest.strip_prefix("STORE_")?),
        };
        let rest = rest.strip_suffix("_16b").unwrap_or(rest);
        let (dp, rest) = rest.split_once("dp")?;
        let (b, rest) = rest.split_once('b')?;
        let n = rest.strip_suffix('x')?;
        let (dp, b, n) = (num(dp)?, num(b)?, num(n)?);
        let mut r = dp * b * n / 32;
        if dp == 16 && b == 32 {
            r *= 2;
        }
        return Some(if load { (32 * r, r) } else { (r, 32 * r) });
    }
    if let Some(rest) = base.strip_prefix("SM100_UTCCP_") {
        let (spec, _cta) = rest.rsplit_once('_')?;
        let (reps, spec) = match spec.split_once('x') {
            Some((r, s)) => (num(r)?, s),
            None => (1, spec),
        };
        let (dp, rest) = spec.split_once("dp")?;
        let (b, _) = rest.split_once("bit")?;
        let w = reps * num(dp)? * num(b)?;
        return Some((w, w));
    }
    None
}

/// The laws of a copy atom's `ThrID` and bit layouts (see [the module](self)): every law
/// broken, at the first points that break it; empty if the atom obeys them all.
///
/// # Errors
/// [`AtomError::Unsupported`] for an atom with a layout of more than [`MAX_LINT_POINTS`]
/// points.
pub fn lint_copy(atom: &CopyAtom) -> Result<Vec<Finding>, AtomError> {
    lint_copy_raw(atom)
        .map(|raw| name_all(atom.name(), raw))
        .map_err(|e| not_linted(atom.name(), e))
}

fn lint_copy_raw(atom: &CopyAtom) -> Result<Vec<Raw>, String> {
    let mut out: Vec<Raw> = Vec::new();
    let threads = atom.thr_id().size();
    if let Some(d) = thr_id_repeat(atom.thr_id())? {
        out.push(("thr_id", Law::ThrIdOneToOne, d));
    }
    let layouts = [
        ("src", atom.src_bits()),
        ("dst", atom.dst_bits()),
        ("ref", atom.ref_bits()),
    ];
    let mut tv: Vec<(Layout, Layout)> = Vec::new();
    for (part, l) in layouts {
        let (Some(t), Some(v), 2) = (l.mode(0), l.mode(1), l.rank()) else {
            out.push((part, Law::TvRank, format!("{l} is not (thread, value)")));
            return Ok(out);
        };
        if t.size() != threads {
            out.push((
                part,
                Law::ThreadCount,
                format!("{} threads, ThrID has {threads}", t.size()),
            ));
        }
        tv.push((t, v));
    }
    if atom.ref_bits() != atom.src_bits() && atom.ref_bits() != atom.dst_bits() {
        out.push((
            "ref",
            Law::Reference,
            format!(
                "{} is neither src {} nor dst {}",
                atom.ref_bits(),
                atom.src_bits(),
                atom.dst_bits()
            ),
        ));
    }
    let declared = declared_bits(atom.name());
    match declared {
        None => out.push((
            "src",
            Law::DeclaredWidth,
            "no declared width for this name".to_string(),
        )),
        Some((ds, dd)) => {
            for (k, (part, w)) in [("src", ds), ("dst", dd)].into_iter().enumerate() {
                let got = tv[k].1.size();
                if got != w {
                    out.push((
                        part,
                        Law::DeclaredWidth,
                        format!("{got} bits per thread, the instruction's width is {w}"),
                    ));
                }
            }
        }
    }
    let converts = TemplateName::parse(atom.name()).is_some_and(|t| t.base == "UniversalCopy")
        && declared.is_some_and(|(s, d)| s != d);
    let (s_thr, s_shape, s_stride) = without_replication(&tv[0].0, &tv[0].1);
    let (d_thr, d_shape, d_stride) = without_replication(&tv[1].0, &tv[1].1);
    let s_size: i64 = s_shape.iter().product();
    let d_size: i64 = d_shape.iter().product();
    if !converts && s_size != d_size {
        out.push((
            "dst",
            Law::SameBits,
            format!("src moves {s_size} bits, dst {d_size}"),
        ));
    }
    // The image of each side, without replication; one-to-one for dst and a src register
    // fragment.
    let image = |shape: &[i64], stride: &[i64]| -> Result<Vec<i64>, String> {
        let l = flat(shape, stride)?;
        within("a layout", l.size())?;
        let mut v: Vec<i64> = l.offsets().collect();
        v.sort_unstable();
        Ok(v)
    };
    let repeat = |img: &[i64]| img.windows(2).find(|w| w[0] == w[1]).map(|w| w[0]);
    let (s_img, d_img) = (image(&s_shape, &s_stride)?, image(&d_shape, &d_stride)?);
    if let Some(b) = repeat(&d_img) {
        out.push((
            "dst",
            Law::OneToOne,
            format!("bit {b} is written twice ({d_thr} distinct threads)"),
        ));
    }
    let s_register = tv[0].0.size() > 1 && !some_replicated(&tv[0].0);
    let s_repeat = repeat(&s_img);
    if let (true, Some(b)) = (s_register, s_repeat) {
        out.push((
            "src",
            Law::OneToOne,
            format!("bit {b} is held twice by the register fragment ({s_thr} threads)"),
        ));
    }
    if !converts && s_repeat.is_none() && repeat(&d_img).is_none() && s_img != d_img {
        let only_s = s_img.iter().find(|b| d_img.binary_search(b).is_err());
        let only_d = d_img.iter().find(|b| s_img.binary_search(b).is_err());
        out.push((
            "dst",
            Law::SameBitPositions,
            match (only_s, only_d) {
                (Some(b), _) => format!("bit {b} is read by src, written by no dst pair"),
                (_, Some(b)) => format!("bit {b} is written by dst, read by no src pair"),
                _ => "the images differ".to_string(),
            },
        ));
    }
    if let Some(vid) = atom.val_id() {
        if let Some(d) = thr_id_repeat(vid)? {
            out.push(("val_id", Law::ValId, d.replace("logical threads", "values")));
        }
        let n = vid.size();
        for (part, img) in [("src", &s_img), ("dst", &d_img)] {
            if let Some(b) = img.iter().find(|&&b| !(0..n).contains(&b)) {
                out.push((
                    part,
                    Law::ValId,
                    format!("bit {b} is outside ValID's domain [0, {n})"),
                ));
            }
        }
    }
    Ok(out)
}

/// What [`lint_all`] found.
#[derive(Clone, Debug, Default)]
pub struct LintReport {
    /// MMA atom names linted.
    pub mma_atoms: usize,
    /// Copy atom names linted.
    pub copy_atoms: usize,
    /// Distinct layouts evaluated (names sharing a layout share its evaluation).
    pub distinct: usize,
    /// Every law broken, by every name.
    pub findings: Vec<Finding>,
    /// Enumerated names the library refused or the lint could not evaluate, with the error (none
    /// for a sound enumeration).
    pub refused: Vec<(String, String)>,
    /// `name: operand: reason` for each operand the library refuses to build a layout of
    /// (CuTe declares it incongruently), so not linted.
    pub unsupported: Vec<String>,
}

/// Runs [`lint_mma`] over every name of [`for_each_mma_name`] and [`lint_copy`] over every name
/// of [`for_each_copy_name`]; names sharing a layout (an MMA operand's, with its tile and
/// widths; a copy atom's layouts and widths) share its evaluation.
pub fn lint_all() -> LintReport {
    let mut r = LintReport::default();
    let mut cache = Cache::new();
    for_each_mma_name(&mut |name| {
        let atom = match mma_atom(name) {
            Ok(a) => a,
            Err(e) => {
                r.refused.push((name.to_string(), e.to_string()));
                return;
            }
        };
        r.mma_atoms += 1;
        for op in [Operand::A, Operand::B, Operand::C] {
            if let Err(e) = atom.layout_tv(op) {
                r.unsupported.push(format!("{name}: {}: {e}", op.name()));
            }
        }
        match lint_mma_raw(&atom, &mut cache) {
            Ok(raw) => r.findings.extend(name_all(name, raw)),
            Err(e) => r
                .refused
                .push((name.to_string(), not_linted(name, e).to_string())),
        }
    });
    for_each_copy_name(&mut |name| {
        let atom = match copy_atom(name) {
            Ok(a) => a,
            Err(e) => {
                r.refused.push((name.to_string(), e.to_string()));
                return;
            }
        };
        r.copy_atoms += 1;
        let declared = declared_bits(name);
        let converts = TemplateName::parse(name).is_some_and(|t| t.base == "UniversalCopy");
        let key = format!(
            "copy|{}|{}|{}|{}|{:?}|{declared:?}|{converts}",
            atom.thr_id(),
            atom.src_bits(),
            atom.dst_bits(),
            atom.ref_bits(),
            atom.val_id().map(|v| v.to_string())
        );
        match cached(&mut cache, key, || lint_copy_raw(&atom)) {
            Ok(raw) => r.findings.extend(name_all(name, raw)),
            Err(e) => r
                .refused
                .push((name.to_string(), not_linted(name, e).to_string())),
        }
    });
    r.distinct = cache.len();
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atom::copy::Fixed;

    fn mma(name: &str, thr: &str, mnk: &str, abc: [&str; 3], bits: [u32; 4]) -> MmaAtom {
        MmaAtom::from_text(name.to_string(), thr, mnk, abc, bits).unwrap()
    }

    fn texts(f: &[Finding]) -> Vec<String> {
        f.iter().map(|f| f.to_string()).collect()
    }

    #[test]
    fn cute_42_s4_b_layout_is_caught() {
        // CuTe 4.2's SM80_16x8x32_S32S4S4S32_TN, BLayout with stride 32.
        let a = mma(
            "S4",
            "32:1",
            "(16,8,32)",
            [
                "((4,8),(8,2)):((128,1),(16,8))",
                "((4,8),(8)):((32,1),(8))",
                "((4,8),(2,2)):((32,1),(16,8))",
            ],
            [4, 4, 32, 32],
        );
        assert_eq!(
            texts(&lint_mma(&a).unwrap()),
            [
                "S4: B: OneToOne: (thread 1, value 0) and (thread 0, value 4) both land on cell 32 (row 0, column 4); 256 pairs reach 160 of the 256 cells",
                "S4: B: Onto: cell 160 (row 0, column 20) is reached by no pair",
            ]
        );
        // The corrected table entry.
        assert_eq!(
            lint_mma(&mma_atom("SM80_16x8x32_S32S4S4S32_TN_SATURATE").unwrap()).unwrap(),
            []
        );
    }

    #[test]
    fn b1_16x8x128_congruent_reading_is_one_to_one() {
        // CuTe 4.2's A of SM80_16x8x128_S32U1U1S32_TN_* is incongruent (refused); the table's
        // comment gives the congruent reading, which obeys every law.
        let cute = mma_atom("SM80_16x8x128_S32U1U1S32_TN_XORPOPC").unwrap();
        assert_eq!(
            cute.layout_tv(Operand::A).unwrap_err().kind(),
            "Unsupported"
        );
        assert_eq!(lint_mma(&cute).unwrap(), []);
        let a = mma(
            "B1",
            "32:1",
            "(16,8,128)",
            [
                "((4,8),(32,2)):((512,1),(16,8))",
                cute.layout_text(Operand::B),
                cute.layout_text(Operand::C),
            ],
            cute.val_bits(),
        );
        assert_eq!(lint_mma(&a).unwrap(), []);
    }

    #[test]
    fn odd_m_of_a_cta_pair_is_caught() {
        // CuTe's 2-SM rule at M = 3, N = 4, K = 16: one row of A and C unreached.
        let a = mma(
            "M3",
            "2:1",
            "(3,4,16)",
            [
                "(2,(1,16)):(1,(1,3))",
                "(2,(2,16)):(2,(1,4))",
                "(2,(1,4)):(1,(1,3))",
            ],
            [16, 16, 32, 32],
        );
        assert_eq!(
            texts(&lint_mma(&a).unwrap()),
            [
                "M3: A: Onto: cell 2 (row 2, column 0) is reached by no pair",
                "M3: C: Onto: cell 2 (row 2, column 0) is reached by no pair",
            ]
        );
    }

    #[test]
    fn descriptors_partial_replication_and_registers() {
        // A GMMA-style descriptor operand: every thread sees the whole tile.
        let ok = mma(
            "D",
            "128:1",
            "(64,8,16)",
            [
                "(128,(64,16)):(0,(1,64))",
                "(128,(8,16)):(0,(1,8))",
                "((4,8,4),(2,2,1)):((128,1,16),(64,8,512))",
            ],
            [16, 16, 16, 16],
        );
        assert_eq!(lint_mma(&ok).unwrap(), []);
        // Half the threads repeat the other half's B values.
        let bad = mma(
            "P",
            "32:1",
            "(8,8,4)",
            [
                "((4,8),1):((8,1),0)",
                "((2,2,8),1):((8,0,1),0)",
                "((4,8),(2,1)):((16,1),(8,0))",
            ],
            [64, 64, 32, 32],
        );
        assert_eq!(
            texts(&lint_mma(&bad).unwrap()),
            [
                "P: B: OneToOne: (thread 0, value 0) and (thread 2, value 0) both land on cell 0 (row 0, column 0); 32 pairs reach 16 of the 32 cells",
                "P: B: Onto: cell 16 (row 0, column 2) is reached by no pair",
            ]
        );
        // One 16-bit C value per thread of a warp: half a register.
        let half = mma(
            "W",
            "32:1",
            "(8,4,4)",
            [
                "((4,8),1):((8,1),0)",
                "(32,(4,4)):(0,(1,4))",
                "((4,8),1):((8,1),0)",
            ],
            [32, 32, 16, 32],
        );
        assert_eq!(
            texts(&lint_mma(&half).unwrap()),
            ["W: C: WholeRegisters: 1 x 16 bits per thread = 16 bits, not whole 32-bit registers"]
        );
    }

    fn copy(src: &'static str, dst: &'static str, ref_: &'static str) -> CopyAtom {
        crate::atom::copy::from_fixed(&Fixed {
            name: "SM75_U32x1_LDSM_N",
            thr_id: "32:1",
            val_id: None,
            src,
            dst,
            ref_,
        })
        .unwrap()
    }

    #[test]
    fn copy_laws() {
        // The table's ldmatrix x1: 8 address rows of 128 bits, 32 bits into each thread.
        let ok = copy(
            "((8,4),128):((128,0),1)",
            "(32,32):(32,1)",
            "(32,32):(32,1)",
        );
        assert_eq!(lint_copy(&ok).unwrap(), []);
        // A dst stride of 16: bits written twice, half the rows never written; a ref of neither.
        let bad = copy(
            "((8,4),128):((128,0),1)",
            "(32,32):(16,1)",
            "(32,32):(32,2)",
        );
        assert_eq!(
            texts(&lint_copy(&bad).unwrap()),
            [
                "SM75_U32x1_LDSM_N: ref: Reference: (32,32):(32,2) is neither src ((8,4),128):((128,0),1) nor dst (32,32):(16,1)",
                "SM75_U32x1_LDSM_N: dst: OneToOne: bit 16 is written twice (32 distinct threads)",
            ]
        );
        // 64 bits per thread into registers ldmatrix x1 fills with 32.
        let wide = copy(
            "((8,4),128):((128,0),1)",
            "(16,64):(64,1)",
            "(16,64):(64,1)",
        );
        assert_eq!(
            texts(&lint_copy(&wide).unwrap()),
            [
                "SM75_U32x1_LDSM_N: dst: ThreadCount: 16 threads, ThrID has 32",
                "SM75_U32x1_LDSM_N: ref: ThreadCount: 16 threads, ThrID has 32",
                "SM75_U32x1_LDSM_N: dst: DeclaredWidth: 64 bits per thread, the instruction's width is 32",
            ]
        );
        // src rows 1 apart: the two sides reach different bits.
        let shifted = copy(
            "((8,4),128):((129,0),1)",
            "(32,32):(32,1)",
            "(32,32):(32,1)",
        );
        assert_eq!(
            texts(&lint_copy(&shifted).unwrap()),
            ["SM75_U32x1_LDSM_N: dst: SameBitPositions: bit 1024 is read by src, written by no dst pair"]
        );
    }

    #[test]
    fn declared_widths() {
        for (name, want) in [
            ("SM75_U16x8_LDSM_T", (128, 128)),
            ("SM75_U32x2_LDSM_N", (128, 64)),
            ("SM90_U16x2_STSM_T", (32, 128)),
            ("SM100_U8x8_LDSM_T", (128, 64)),
            ("SM100_SU6_DU8x16_x4_LDSM_N", (128, 128)),
            ("SM100_TMEM_LOAD_16dp32b4x_16b", (4096, 128)),
            ("SM100_TMEM_STORE_32dp32b128x", (4096, 131072)),
            ("SM100_UTCCP_4x32dp128bit_2cta", (16384, 16384)),
            ("SM100_UTCCP_2x64dp128bitlw0213_1cta", (16384, 16384)),
            ("SM100_UTCCP_4dp256bit_1cta", (1024, 1024)),
            ("UniversalCopy<uint32_t,uint64_t>", (32, 64)),
            ("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", (128, 128)),
            ("DefaultCopy", (1, 1)),
        ] {
            assert_eq!(declared_bits(name), Some(want), "{name}");
        }
        assert_eq!(declared_bits("SM90_TMA_LOAD"), None);
    }
}
