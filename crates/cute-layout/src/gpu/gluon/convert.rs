//! Gluon layouts as CuTe functions and back.
//!
//! * A distributed layout becomes the CuTe TV layout `(thread, value) -> offset`, thread =
//!   lane + 2^lanes * (warp + 2^warps * block), value = Triton's register index, offset
//!   `x0 + d0*(x1 + d1*(...))` of the coordinate in Triton's dimension order. Each input bit's
//!   basis is one offset (a stride of an extent-2 mode); the bases combine by XOR, which is
//!   the integer sum exactly when their bits are disjoint. So the answer is an integer layout
//!   when they are, else a swizzle composed with one (`Sw<B,M,S> o 0 o L`) where one exists,
//!   else the layout with F2 (XOR) strides, PyCuTe's.
//! * A shared layout (offset bits to a coordinate) is inverted over GF(2) to the CuTe layout
//!   from the natural coordinate to the offset, in the same three forms; a padding (after each
//!   `interval` elements `padding` more) is an integer layout of the offset, composed after it.
//! * Back: a CuTe function is a linear layout when every extent is a power of two and its value
//!   at every point is the XOR of its values at the point's bits; a TV one must also be a
//!   permutation of the offset's bits, zero bases aside (what Triton takes as a distributed
//!   linear layout), a shared one a bijection onto `[0, size)` or a padding of one.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use super::linear::{log2, pow2};
use super::parse::{Bases, DistLinear, Gluon, SharedLinear};
use crate::composed::chain::LayoutChain;
use crate::composed::composed_layout::ComposedLayout;
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::pycute::f2::F2;

/// Most points a conversion or a comparison enumerates (`2^22`).
pub const MAX_GLUON_POINTS: i64 = 1 << 22;

/// A CuTe function: an integer layout, a swizzled layout, a chain, or an F2 layout.
#[derive(Clone, Debug, PartialEq)]
pub enum CuteFn {
    /// An integer-strided layout.
    Layout(Layout),
    /// `Sw<B,M,S> o 0 o L`.
    Composed(ComposedLayout),
    /// A chain (`P o 0 o Sw<B,M,S> o 0 o L`: a padding after a swizzle).
    Chain(LayoutChain),
    /// A layout with F2 (XOR) strides.
    F2(Layout<F2>),
}

impl fmt::Display for CuteFn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CuteFn::Layout(l) => write!(f, "{l}"),
            CuteFn::Composed(c) => write!(f, "{c}"),
            CuteFn::Chain(c) => write!(f, "{c}"),
            CuteFn::F2(l) => write!(f, "{l}"),
        }
    }
}

fn not_rep(what: String) -> LayoutError {
    LayoutError::NotRepresentable { op: "gluon", what }
}

fn bad(what: String) -> LayoutError {
    LayoutError::InvalidArgument { op: "gluon", what }
}

fn too_large(what: String) -> LayoutError {
    LayoutError::TooLarge {
        op: "gluon",
        what,
        limit: MAX_GLUON_POINTS,
    }
}

/// The offset of a coordinate: `x0 + d0*(x1 + d1*(...))`.
fn offset_of(b: &[i64], shape: &[i64]) -> i64 {
    let mut o = 0;
    let mut scale = 1;
    for (&x, &d) in b.iter().zip(shape) {
        o += x * scale;
        scale *= d;
    }
    o
}

fn coord_of(mut o: i64, shape: &[i64]) -> Vec<i64> {
    shape
        .iter()
        .map(|&d| {
            let x = o % d;
            o /= d;
            x
        })
        .collect()
}

/// `(2,2,...)` and its strides for a group of bits; `1` and `0` for none.
fn group(strides: &[i64], f2: bool) -> (String, String) {
    if strides.is_empty() {
        return (String::from("1"), String::from("0"));
    }
    let sh: Vec<&str> = strides.iter().map(|_| "2").collect();
    let st: Vec<String> = strides
        .iter()
        .map(|&s| {
            if f2 && s != 0 {
                format!("F2({s})")
            } else {
                s.to_string()
            }
        })
        .collect();
    (format!("({})", sh.join(",")), format!("({})", st.join(",")))
}

/// The CuTe function with modes `groups` (each a group of extent-2 bits) whose strides combine
/// by XOR.
fn build(groups: &[Vec<i64>]) -> Result<CuteFn, LayoutError> {
    build_as(groups, false)
}

/// As [`build`]; with `sum`, the strides combine by integer addition whatever their bits.
fn build_as(groups: &[Vec<i64>], sum: bool) -> Result<CuteFn, LayoutError> {
    let all: Vec<i64> = groups
        .iter()
        .flatten()
        .copied()
        .filter(|&s| s != 0)
        .collect();
    let disjoint = sum || {
        let mut seen = 0i64;
        all.iter().all(|&s| {
            let ok = seen & s == 0;
            seen |= s;
            ok
        })
    };
    let text = |f2: bool| {
        let parts: Vec<(String, String)> = groups.iter().map(|g| group(g, f2)).collect();
        let sh: Vec<&str> = parts.iter().map(|p| p.0.as_str()).collect();
        let st: Vec<&str> = parts.iter().map(|p| p.1.as_str()).collect();
        format!("({}):({})", sh.join(","), st.join(","))
    };
    let profile: IntTuple = format!("({})", vec!["1"; groups.len()].join(","))
        .parse()
        .map_err(|_| bad(String::from("profile")))?;
    let parse_err = |e: crate::layout::error::ParseError| bad(format!("{e}"));
    if disjoint {
        let l: Layout = text(false).parse().map_err(parse_err)?;
        return Ok(CuteFn::Layout(l.coalesce_by_mode(&profile)?));
    }
    let f: Layout<F2> = text(true).parse().map_err(parse_err)?;
    if let Ok(c) = f.to_swizzle() {
        let inner = c.layout().coalesce_by_mode(&profile)?;
        return Ok(CuteFn::Composed(ComposedLayout::new(
            c.swizzle(),
            c.offset(),
            inner,
        )?));
    }
    Ok(CuteFn::F2(f))
}

fn bits_needed(n: usize, what: &str) -> Result<(), LayoutError> {
    if n > 22 {
        return Err(too_large(format!("{what} of 2^{n} points")));
    }
    Ok(())
}

impl DistLinear {
    /// Threads (`2^(lane + warp + block bits)`).
    pub fn threads(&self) -> i64 {
        1i64 << (self.lane.len() + self.warp.len() + self.block.len())
    }

    /// The thread bits' bases: lanes, then warps, then blocks.
    fn thread_bases(&self) -> impl Iterator<Item = &Vec<i64>> {
        self.lane.iter().chain(&self.warp).chain(&self.block)
    }

    /// The CuTe TV layout `(thread, value) -> offset` (see the [module docs](self)).
    ///
    /// # Errors
    /// As [`DistLinear::check`]; [`LayoutError::TooLarge`] past 22 input bits.
    ///
    /// # Examples
    /// ```
    /// use cute_layout::gpu::gluon::Gluon;
    /// let g: Gluon = "BlockedLayout([1,4],[8,4],[4,1],[1,0])".parse()?;
    /// assert_eq!(g.distributed(&[32, 16])?.to_cute()?.to_string(), "((4,32),4):((128,1),32)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_cute(&self) -> Result<CuteFn, LayoutError> {
        self.check()?;
        bits_needed(
            self.reg.len() + self.lane.len() + self.warp.len() + self.block.len(),
            "DistributedLinearLayout",
        )?;
        let t: Vec<i64> = self
            .thread_bases()
            .map(|b| offset_of(b, &self.shape))
            .collect();
        let v: Vec<i64> = self.reg.iter().map(|b| offset_of(b, &self.shape)).collect();
        build(&[t, v])
    }

    /// The TV function's values: at index `t + threads * v` the offset of thread `t`'s value `v`.
    ///
    /// # Errors
    /// As [`DistLinear::to_cute`].
    pub fn values(&self) -> Result<Vec<i64>, LayoutError> {
        self.check()?;
        let cols: Vec<i64> = self
            .thread_bases()
            .chain(&self.reg)
            .map(|b| offset_of(b, &self.shape))
            .collect();
        bits_needed(cols.len(), "DistributedLinearLayout")?;
        Ok(xor_table(&cols))
    }
}

fn xor_table(cols: &[i64]) -> Vec<i64> {
    let mut out = vec![0i64];
    for &c in cols {
        let more: Vec<i64> = out.iter().map(|&x| x ^ c).collect();
        out.extend(more);
    }
    out
}

fn pad(o: i64, pairs: &[(i64, i64)]) -> i64 {
    o + pairs.iter().map(|&(i, p)| (o >> log2(i)) * p).sum::<i64>()
}

/// Offset bits (then block bits) as flat coordinate indices.
fn shared_cols(s: &SharedLinear, shape: &[i64]) -> Vec<i64> {
    s.offset
        .iter()
        .chain(&s.block)
        .map(|b| offset_of(b, shape))
        .collect()
}

/// For each coordinate bit, the offset that reaches it (the inverse over GF(2)).
fn invert(cols: &[i64], bits: usize) -> Result<Vec<i64>, LayoutError> {
    let mut pv = vec![0i64; bits];
    let mut pe = vec![0i64; bits];
    for (j, &c) in cols.iter().enumerate() {
        let (mut v, mut e) = (c, 1i64 << j);
        while v != 0 {
            let p = log2(v) as usize;
            if pv[p] == 0 {
                pv[p] = v;
                pe[p] = e;
                break;
            }
            v ^= pv[p];
            e ^= pe[p];
        }
        if v == 0 {
            return Err(not_rep(format!(
                "offset bit {j} reaches a coordinate other offset bits reach too (the shared layout is not a bijection)"
            )));
        }
    }
    (0..bits)
        .map(|k| {
            let (mut t, mut e) = (1i64 << k, 0);
            while t != 0 {
                let p = log2(t) as usize;
                t ^= pv[p];
                e ^= pe[p];
            }
            Ok(e)
        })
        .collect()
}

impl Gluon {
    /// The layout as a CuTe function at `shape`: a TV layout for a distributed layout, the
    /// layout from the natural coordinate to the element offset for a shared one (see the
    /// [module docs](self)).
    ///
    /// # Errors
    /// As [`Gluon::distributed`] and [`Gluon::shared`]; [`LayoutError::NotRepresentable`] for a
    /// shared layout that is no bijection, or a padding after an XOR no swizzle expresses.
    ///
    /// # Examples
    /// ```
    /// use cute_layout::gpu::gluon::Gluon;
    /// let g: Gluon = "NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2)".parse()?;
    /// assert_eq!(g.to_cute(&[64, 64])?.to_string(), "Sw<3,3,3> o 0 o (64,64):(64,1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_cute(&self, shape: &[i64]) -> Result<CuteFn, LayoutError> {
        if !self.is_shared() {
            return self.distributed(shape)?.to_cute();
        }
        let (s, pairs) = self.shared(shape)?;
        let bits: u32 = shape.iter().map(|&d| log2(d)).sum();
        bits_needed(bits as usize, "shared layout")?;
        let inv = invert(&shared_cols(&s, shape), bits as usize)?;
        let mut groups = Vec::new();
        let mut k = 0usize;
        for &d in shape {
            let n = log2(d) as usize;
            groups.push(inv[k..k + n].to_vec());
            k += n;
        }
        let f = build(&groups)?;
        if pairs.is_empty() {
            return Ok(f);
        }
        match f {
            CuteFn::Layout(l) => {
                let mut padded: Vec<Vec<i64>> = Vec::new();
                let mut k = 0usize;
                for &d in shape {
                    let n = log2(d) as usize;
                    padded.push(inv[k..k + n].iter().map(|&o| pad(o, &pairs)).collect());
                    k += n;
                }
                let _ = l;
                build_as(&padded, true)
            }
            CuteFn::Composed(c) => {
                let n: i64 = shape.iter().product();
                let steps: Vec<i64> = (0..log2(n)).map(|p| pad(1i64 << p, &pairs)).collect();
                let CuteFn::Layout(p) = build_as(&[steps], true)? else {
                    return Err(not_rep(String::from("padding")));
                };
                let text = format!("{} o 0 o {c}", p.coalesce());
                let chain: LayoutChain = text.parse().map_err(|e| bad(format!("{e}")))?;
                Ok(CuteFn::Chain(chain))
            }
            _ => Err(not_rep(String::from(
                "the padded layout's offset map is an XOR that no swizzle composed with a layout expresses",
            ))),
        }
    }

    /// The layout's function as values (the TV function's for a distributed layout, the
    /// offset of each coordinate's 1-D index for a shared one), computed from the bases.
    ///
    /// # Errors
    /// As [`Gluon::to_cute`].
    pub fn values(&self, shape: &[i64]) -> Result<Vec<i64>, LayoutError> {
        if !self.is_shared() {
            return self.distributed(shape)?.values();
        }
        let (s, pairs) = self.shared(shape)?;
        let cols = shared_cols(&s, shape);
        bits_needed(cols.len(), "shared layout")?;
        let fwd = xor_table(&cols);
        let mut out = vec![-1i64; fwd.len()];
        for (o, &c) in fwd.iter().enumerate() {
            let slot = &mut out[c as usize];
            if *slot >= 0 {
                return Err(not_rep(format!(
                    "offsets {slot} and {o} reach the same coordinate (the shared layout is not a bijection)"
                )));
            }
            *slot = pad(o as i64, &pairs);
        }
        Ok(out)
    }
}

fn shape_check(shape: &[i64]) -> Result<i64, LayoutError> {
    let mut n: i64 = 1;
    for &d in shape {
        if !pow2(d) {
            return Err(not_rep(format!(
                "the shape's extent {d} is not a power of two (a linear layout has power-of-two extents)"
            )));
        }
        n = n
            .checked_mul(d)
            .filter(|&n| n <= MAX_GLUON_POINTS)
            .ok_or_else(|| too_large(format!("shape {shape:?}")))?;
    }
    Ok(n)
}

/// Checks that `values` is XOR-linear in the bits of its index; the images of the bits.
fn linear_cols(values: &[i64], what: &str) -> Result<Vec<i64>, LayoutError> {
    let n = values.len();
    let cols: Vec<i64> = (0..log2(n as i64)).map(|j| values[1usize << j]).collect();
    let table = xor_table(&cols);
    if let Some(i) = (0..n).find(|&i| table[i] != values[i]) {
        return Err(not_rep(format!(
            "{what} is not linear over GF(2): at index {i} it gives {}, the XOR of its values at the bits of {i} is {} (a stride that is not a bit permutation, or an XOR no linear layout has)",
            values[i], table[i]
        )));
    }
    Ok(cols)
}

/// The distributed linear layout of a TV function: `values[t + threads * v]` the offset of
/// thread `t`'s value `v` in a tensor of `shape` (thread = lane + 32 * warp: the first five
/// thread bits are lanes).
///
/// # Errors
/// [`LayoutError::NotRepresentable`] naming the condition: an extent (thread count, value count,
/// shape) that is not a power of two, an offset outside the shape, a function not linear over
/// GF(2), an index bit reaching more than one offset bit or one another index bit reaches, an
/// offset bit no index bit reaches (Triton's distributed linear layouts are permutations of
/// bits, zero bases aside); [`LayoutError::TooLarge`] past [`MAX_GLUON_POINTS`].
///
/// # Examples
/// ```
/// use cute_layout::gpu::gluon::tv_to_gluon;
/// let v: Vec<i64> = (0..8).map(|i| (i % 4) * 2 + i / 4).collect(); // (4,2):(2,1)
/// assert_eq!(tv_to_gluon(&v, 4, &[8])?.to_string(), "DistributedLinearLayout(reg_bases=[[1]], lane_bases=[[2], [4]], warp_bases=[], block_bases=[], shape=[8])");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn tv_to_gluon(values: &[i64], threads: i64, shape: &[i64]) -> Result<DistLinear, LayoutError> {
    let size = shape_check(shape)?;
    let n = values.len() as i64;
    if !pow2(threads) {
        return Err(not_rep(format!(
            "the thread mode's size {threads} is not a power of two"
        )));
    }
    if n % threads != 0 || !pow2(n / threads) {
        return Err(not_rep(format!(
            "the value mode's size {} is not a power of two",
            n as f64 / threads as f64
        )));
    }
    if let Some((i, &v)) = values
        .iter()
        .enumerate()
        .find(|&(_, &v)| v < 0 || v >= size)
    {
        return Err(not_rep(format!(
            "the offset {v} at index {i} is outside the shape {shape:?} (offsets 0 to {})",
            size - 1
        )));
    }
    let cols = linear_cols(values, "the TV layout")?;
    let mut reached = 0i64;
    for (j, &c) in cols.iter().enumerate() {
        if c == 0 {
            continue;
        }
        if !pow2(c) {
            return Err(not_rep(format!(
                "index bit {j} reaches offset {c}, not one bit of the offset (a distributed linear layout is a permutation of bits, zero bases aside)"
            )));
        }
        if reached & c != 0 {
            return Err(not_rep(format!(
                "index bit {j} reaches offset {c}, as a lower index bit does (a distributed linear layout is a permutation of bits, zero bases aside)"
            )));
        }
        reached |= c;
    }
    if reached != size - 1 {
        let missing = (size - 1) & !reached;
        return Err(not_rep(format!(
            "no index bit reaches offset {} (a distributed linear layout covers the shape)",
            1i64 << missing.trailing_zeros()
        )));
    }
    let tb = log2(threads) as usize;
    let lanes = tb.min(5);
    let c = |o: &i64| coord_of(*o, shape);
    Ok(DistLinear {
        reg: cols[tb..].iter().map(c).collect(),
        lane: cols[..lanes].iter().map(c).collect(),
        warp: cols[lanes..tb].iter().map(c).collect(),
        block: Vec::new(),
        shape: shape.to_vec(),
    })
}

/// The shared layout of a function from the coordinates of `shape` (by 1-D index) to offsets:
/// a `SharedLinearLayout` when it is a bijection onto `[0, size)` linear over GF(2), a
/// `PaddedSharedLayout` when its offsets are such a bijection padded (after every `interval`
/// elements `padding` unused ones, powers of two).
///
/// # Errors
/// [`LayoutError::NotRepresentable`] naming the condition: an extent that is not a power of two,
/// a shape of one element, two coordinates with one offset, offsets that are no padding of `[0, size)`, a map not linear
/// over GF(2); [`LayoutError::TooLarge`] past [`MAX_GLUON_POINTS`].
///
/// # Examples
/// ```
/// use cute_layout::gpu::gluon::smem_to_gluon;
/// let v: Vec<i64> = (0..8).map(|i| (i % 2) * 5 + i / 2).collect(); // (2,4):(5,1)
/// assert_eq!(smem_to_gluon(&v, &[2, 4])?.to_string(), "PaddedSharedLayout(interval_padding_pairs=[[4, 1]], offset_bases=[[0, 1], [0, 2], [1, 0]], cga_layout=[], shape=[2, 4])");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn smem_to_gluon(values: &[i64], shape: &[i64]) -> Result<Gluon, LayoutError> {
    let n = shape_check(shape)?;
    if values.len() as i64 != n {
        return Err(bad(format!(
            "the layout has {} points, the shape {shape:?} has {n}",
            values.len()
        )));
    }
    if n == 1 {
        return Err(not_rep(String::from(
            "a shape of one element has no offset bits, and a SharedLinearLayout needs at least one basis",
        )));
    }
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
        return Err(not_rep(format!(
            "two coordinates have the offset {} (a shared layout is injective)",
            w[0]
        )));
    }
    if sorted[0] != 0 {
        return Err(not_rep(format!(
            "the smallest offset is {}, not 0",
            sorted[0]
        )));
    }
    let mut pairs: Vec<(i64, i64)> = Vec::new();
    let mut prev = 0i64;
    for p in 0..log2(n) {
        let extra = sorted[1usize << p] - (1i64 << p);
        let add = extra - 2 * prev;
        if add != 0 {
            if !pow2(add) {
                return Err(not_rep(format!(
                    "the offsets are no padding of [0, {n}): after {} elements {add} would be skipped (padding is a power of two)",
                    1i64 << p
                )));
            }
            pairs.push((1i64 << p, add));
        }
        prev = extra;
    }
    if let Some(o) = (0..n).find(|&o| pad(o, &pairs) != sorted[o as usize]) {
        return Err(not_rep(format!(
            "the offsets are no padding of [0, {n}): the {o}th smallest is {}, the padding {pairs:?} gives {}",
            sorted[o as usize],
            pad(o, &pairs)
        )));
    }
    let unpadded: Vec<i64> = values
        .iter()
        .map(|v| sorted.binary_search(v).unwrap_or(0) as i64)
        .collect();
    let cols = linear_cols(&unpadded, "the layout")?;
    let inv = invert(&cols, cols.len())?;
    let offset: Bases = inv.iter().map(|&c| coord_of(c, shape)).collect();
    Ok(if pairs.is_empty() {
        Gluon::SharedLinear(SharedLinear {
            offset,
            block: Vec::new(),
            alignment: 16,
        })
    } else {
        Gluon::PaddedShared {
            interval_padding_pairs: pairs,
            offset_bases: offset,
            cga_layout: Vec::new(),
            shape: shape.to_vec(),
        }
    })
}

fn pow2s(max: i64) -> Vec<i64> {
    let mut v = vec![1];
    while v[v.len() - 1] * 2 <= max {
        let x = v[v.len() - 1] * 2;
        v.push(x);
    }
    v
}

/// The ways of writing `2^bits` as a product of `rank` powers of two.
fn splits(bits: u32, rank: usize) -> Vec<Vec<i64>> {
    if rank == 1 {
        return vec![vec![1i64 << bits]];
    }
    let mut out = Vec::new();
    for b in 0..=bits {
        for mut rest in splits(bits - b, rank - 1) {
            rest.insert(0, 1i64 << b);
            out.push(rest);
        }
    }
    out
}

fn perms(rank: usize) -> Vec<Vec<i64>> {
    if rank == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for p in perms(rank - 1) {
        for k in 0..=p.len() {
            let mut q = p.clone();
            q.insert(k, (rank - 1) as i64);
            out.push(q);
        }
    }
    out.sort();
    out.reverse();
    out
}

/// Most candidates [`name_distributed`] and [`name_shared`] try.
const MAX_CANDIDATES: usize = 20_000;

/// A named Gluon layout (`BlockedLayout`, `NVMMADistributedLayout`, `DotOperandLayout` of an
/// NVMMA parent) whose linear layout at `d.shape` is `d`, if one of the candidates is.
pub fn name_distributed(d: &DistLinear) -> Option<Gluon> {
    let rank = d.shape.len();
    if rank > 3 || !d.block.is_empty() {
        return None;
    }
    let same = |g: &Gluon| {
        g.distributed(&d.shape)
            .is_ok_and(|x| x.reg == d.reg && x.lane == d.lane && x.warp == d.warp)
    };
    let (lb, wb) = (d.lane.len() as u32, d.warp.len() as u32);
    let mut tried = 0usize;
    let spts: Vec<Vec<i64>> = {
        let mut all = vec![Vec::new()];
        for &s in &d.shape {
            let mut next = Vec::new();
            for p in &all {
                for x in pow2s(s) {
                    let mut q: Vec<i64> = p.clone();
                    q.push(x);
                    next.push(q);
                }
            }
            all = next;
        }
        all
    };
    if rank == 2 {
        for w in splits(wb, 2) {
            let v2 = Gluon::NvmmaDistributed {
                version: vec![2, 0],
                warps_per_cta: w.clone(),
                instr_shape: vec![16, 8],
                cga_layout: Vec::new(),
            };
            if same(&v2) {
                return Some(v2);
            }
            for op in 0..2 {
                for kw in [1, 2, 4, 8] {
                    let g = Gluon::DotOperand {
                        operand_index: op,
                        parent: alloc::boxed::Box::new(v2.clone()),
                        k_width: kw,
                    };
                    if same(&g) {
                        return Some(g);
                    }
                }
            }
            for n in pow2s(256).into_iter().filter(|&n| n >= 8) {
                let g = Gluon::NvmmaDistributed {
                    version: vec![3, 0],
                    warps_per_cta: w.clone(),
                    instr_shape: vec![16, n, 16],
                    cga_layout: Vec::new(),
                };
                if same(&g) {
                    return Some(g);
                }
            }
        }
    }
    for order in perms(rank) {
        for tpw in splits(lb, rank) {
            for wpc in splits(wb, rank) {
                for spt in &spts {
                    tried += 1;
                    if tried > MAX_CANDIDATES {
                        return None;
                    }
                    let g = Gluon::Blocked {
                        size_per_thread: spt.clone(),
                        threads_per_warp: tpw.clone(),
                        warps_per_cta: wpc.clone(),
                        order: order.clone(),
                        cga_layout: Vec::new(),
                    };
                    if same(&g) {
                        return Some(g);
                    }
                }
            }
        }
    }
    None
}

/// A named Gluon shared layout (`SwizzledSharedLayout`, `NVMMASharedLayout`) whose linear
/// layout at `shape` is `s`, if one of the candidates is.
pub fn name_shared(s: &SharedLinear, shape: &[i64]) -> Option<Gluon> {
    let rank = shape.len();
    if rank > 3 || !s.block.is_empty() {
        return None;
    }
    let same = |g: &Gluon| {
        g.shared(shape)
            .is_ok_and(|(x, p)| p.is_empty() && x.offset == s.offset)
    };
    let swz = |vec: i64, per_phase: i64, max_phase: i64, order: &Vec<i64>| Gluon::SwizzledShared {
        vec,
        per_phase,
        max_phase,
        order: order.clone(),
        cga_layout: Vec::new(),
    };
    for order in perms(rank) {
        let g = swz(1, 1, 1, &order);
        if same(&g) {
            return Some(g);
        }
    }
    for w in [32, 64, 128] {
        for bits in [8, 16, 32, 64] {
            for transposed in [false, true] {
                let g = Gluon::NvmmaShared {
                    swizzle_byte_width: w,
                    element_bitwidth: bits,
                    rank: rank as i64,
                    transposed,
                    fp4_padded: false,
                    cga_layout: Vec::new(),
                };
                if same(&g) {
                    return Some(g);
                }
            }
        }
    }
    let big = shape.iter().copied().max().unwrap_or(1);
    let mut tried = 0usize;
    for order in perms(rank) {
        for vec in pow2s(big) {
            for per_phase in pow2s(big) {
                for max_phase in pow2s(big).into_iter().skip(1) {
                    tried += 1;
                    if tried > MAX_CANDIDATES {
                        return None;
                    }
                    let g = swz(vec, per_phase, max_phase, &order);
                    if same(&g) {
                        return Some(g);
                    }
                }
            }
        }
    }
    None
}
