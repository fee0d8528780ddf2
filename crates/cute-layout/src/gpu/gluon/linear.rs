//! Each Gluon layout as Triton's linear layout at a shape: the bases of its register, lane,
//! warp and block bits (distributed layouts) or of its offset bits (shared layouts), built the
//! way Triton's `toLinearLayout` defines them (`LinearLayoutConversions.cpp`):
//!
//! * a CTA tile is a product of 1-D identities (each input bit doubles one dimension) and
//!   broadcasts (zero bases);
//! * fitted to a shape, the tile is repeated where it is smaller (register bits, one dimension
//!   after the other in the layout's order) and cut where it is larger (a basis's component past
//!   the shape becomes 0; a register bit that then reaches nothing is dropped from a blocked
//!   layout, kept as a broadcast register by the others).

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::parse::{Bases, DistLinear, Gluon, SharedLinear};
use crate::layout::error::LayoutError;

/// The input dimensions of a distributed layout, in Triton's order.
#[derive(Clone, Copy, PartialEq, Eq)]
enum In {
    Reg = 0,
    Lane = 1,
    Warp = 2,
}

fn bad(what: String) -> LayoutError {
    LayoutError::InvalidArgument { op: "gluon", what }
}

fn unsupported(what: String) -> LayoutError {
    LayoutError::NotRepresentable { op: "gluon", what }
}

pub(crate) fn pow2(x: i64) -> bool {
    x > 0 && x & (x - 1) == 0
}

pub(crate) fn log2(x: i64) -> u32 {
    63 - x.leading_zeros()
}

/// Most bits of one input or output dimension.
const MAX_BITS: u32 = 30;

fn check_pow2(what: &str, v: &[i64]) -> Result<(), LayoutError> {
    match v.iter().find(|&&x| !pow2(x) || log2(x) > MAX_BITS) {
        Some(x) => Err(bad(format!(
            "{what} {x} is not a power of two from 1 to 2^{MAX_BITS}"
        ))),
        None => Ok(()),
    }
}

/// A CTA tile under construction: bases per input dimension and the size reached in each
/// output dimension.
struct Tile {
    ins: [Bases; 3],
    size: Vec<i64>,
    /// Register bases present before fitting (a zero among them is a broadcast to keep).
    rank: usize,
}

impl Tile {
    fn new(rank: usize) -> Tile {
        Tile {
            ins: [Vec::new(), Vec::new(), Vec::new()],
            size: vec![1; rank],
            rank,
        }
    }

    /// `*= identity1D(n, in, dim)`.
    fn identity(&mut self, i: In, n: i64, dim: usize) {
        for k in 0..log2(n) {
            let mut b = vec![0; self.rank];
            b[dim] = self.size[dim] << k;
            self.ins[i as usize].push(b);
        }
        self.size[dim] *= n;
    }

    fn push(&mut self, i: In, b: Vec<i64>) {
        self.ins[i as usize].push(b);
    }

    /// Repeats along `order` where smaller than `shape`, then cuts where larger: a component
    /// past the shape becomes 0; a register basis that then reaches nothing is dropped where
    /// `drop` (Triton's blocked layouts), kept as a broadcast register elsewhere.
    fn fit(mut self, shape: &[i64], order: &[usize], drop: bool) -> DistLinear {
        for &d in order {
            if self.size[d] < shape[d] {
                let n = shape[d] / self.size[d];
                self.identity(In::Reg, n, d);
            }
        }
        let cut = |b: &mut Vec<i64>| {
            let before = b.iter().any(|&x| x != 0);
            for (x, &s) in b.iter_mut().zip(shape) {
                if *x >= s {
                    *x = 0;
                }
            }
            before && b.iter().all(|&x| x == 0)
        };
        let [mut reg, mut lane, mut warp] = self.ins;
        reg.retain_mut(|b| !cut(b) || !drop);
        for b in lane.iter_mut().chain(warp.iter_mut()) {
            cut(b);
        }
        DistLinear {
            reg,
            lane,
            warp,
            block: Vec::new(),
            shape: shape.to_vec(),
        }
    }
}

fn order_of(order: &[i64], rank: usize, what: &str) -> Result<Vec<usize>, LayoutError> {
    let mut seen = vec![false; rank];
    let mut out = Vec::new();
    for &o in order {
        let d = usize::try_from(o).ok().filter(|&d| d < rank);
        match d {
            Some(d) if !seen[d] => {
                seen[d] = true;
                out.push(d);
            }
            _ => {
                return Err(bad(format!(
                    "{what}: order {order:?} is not a permutation of 0..{rank}"
                )))
            }
        }
    }
    if out.len() != rank {
        return Err(bad(format!(
            "{what}: order {order:?} is not a permutation of 0..{rank}"
        )));
    }
    Ok(out)
}

fn no_cga(cga: &Bases, what: &str) -> Result<(), LayoutError> {
    if cga.is_empty() {
        Ok(())
    } else {
        Err(unsupported(format!(
            "{what} with a cga_layout (several CTAs) is not converted; write its DistributedLinearLayout or SharedLinearLayout with block_bases"
        )))
    }
}

fn rank_is(what: &str, v: &[i64], rank: usize, name: &str) -> Result<(), LayoutError> {
    if v.len() == rank {
        Ok(())
    } else {
        Err(bad(format!(
            "{what}: {name} has {} entries for a shape of rank {rank}",
            v.len()
        )))
    }
}

/// Warp bases of an NVMMA accumulator layout, and the tile it covers.
fn mma_tile(g: &Gluon, rank: usize) -> Result<(Tile, Vec<usize>), LayoutError> {
    let Gluon::NvmmaDistributed {
        version,
        warps_per_cta,
        instr_shape,
        cga_layout,
    } = g
    else {
        return Err(unsupported(format!(
            "a DotOperandLayout's parent must be an NVMMADistributedLayout or a BlockedLayout, not {g}"
        )));
    };
    no_cga(cga_layout, "NVMMADistributedLayout")?;
    if rank != 2 || warps_per_cta.len() != 2 {
        return Err(unsupported(String::from(
            "NVMMADistributedLayout: only rank 2 is converted",
        )));
    }
    check_pow2("NVMMADistributedLayout: warps_per_cta", warps_per_cta)?;
    let mut t = Tile::new(2);
    let major = version.first().copied().unwrap_or(0);
    t.push(In::Reg, vec![0, 1]);
    t.push(In::Reg, vec![8, 0]);
    let n = match (major, instr_shape.as_slice()) {
        (2, [16, 8]) => 8,
        (3, [16, n, _]) if pow2(*n) && (8..=256).contains(n) => *n,
        _ => {
            return Err(unsupported(format!(
                "NVMMADistributedLayout: version {version:?} with instr_shape {instr_shape:?} is not converted (version [2, x] with [16, 8], version [3, x] with [16, N, K] are)"
            )))
        }
    };
    for k in 0..log2(n / 8) {
        t.push(In::Reg, vec![0, 8 << k]);
    }
    for b in [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]] {
        t.push(In::Lane, b.to_vec());
    }
    t.size = vec![16, n];
    if major == 2 {
        t.identity(In::Warp, warps_per_cta[1], 1);
        t.identity(In::Warp, warps_per_cta[0], 0);
    } else {
        if warps_per_cta[0] % 4 != 0 {
            return Err(bad(format!(
                "NVMMADistributedLayout: version 3 needs warps_per_cta[0] a multiple of 4, not {}",
                warps_per_cta[0]
            )));
        }
        t.identity(In::Warp, 4, 0);
        t.identity(In::Warp, warps_per_cta[0] / 4, 0);
        t.identity(In::Warp, warps_per_cta[1], 1);
    }
    Ok((t, vec![1, 0]))
}

fn blocked_tile(g: &Gluon, rank: usize) -> Result<(Tile, Vec<usize>), LayoutError> {
    let Gluon::Blocked {
        size_per_thread,
        threads_per_warp,
        warps_per_cta,
        order,
        cga_layout,
    } = g
    else {
        return Err(unsupported(format!("{g} is not a BlockedLayout")));
    };
    no_cga(cga_layout, "BlockedLayout")?;
    let what = "BlockedLayout";
    rank_is(what, size_per_thread, rank, "size_per_thread")?;
    rank_is(what, threads_per_warp, rank, "threads_per_warp")?;
    rank_is(what, warps_per_cta, rank, "warps_per_cta")?;
    check_pow2("BlockedLayout: size_per_thread", size_per_thread)?;
    check_pow2("BlockedLayout: threads_per_warp", threads_per_warp)?;
    check_pow2("BlockedLayout: warps_per_cta", warps_per_cta)?;
    let order = order_of(order, rank, what)?;
    let mut t = Tile::new(rank);
    for (i, counts) in [
        (In::Reg, size_per_thread),
        (In::Lane, threads_per_warp),
        (In::Warp, warps_per_cta),
    ] {
        for &d in &order {
            t.identity(i, counts[d], d);
        }
    }
    Ok((t, order))
}

impl Gluon {
    /// The distributed linear layout of this layout at `shape` (Triton's
    /// `to_linear_layout(layout, shape)`).
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] for parameters Triton rejects (a count that is not a
    /// power of two, an order that is not a permutation, ranks that differ);
    /// [`LayoutError::NotRepresentable`] for what is not converted (a shared layout, several
    /// CTAs, an NVMMA layout of rank 3).
    ///
    /// # Examples
    /// ```
    /// use cute_layout::gpu::gluon::Gluon;
    /// let g: Gluon = "BlockedLayout([1,4],[8,4],[4,1],[1,0])".parse()?;
    /// assert_eq!(g.distributed(&[32, 16])?.to_string(), "DistributedLinearLayout(reg_bases=[[0, 1], [0, 2]], lane_bases=[[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], warp_bases=[[8, 0], [16, 0]], block_bases=[], shape=[32, 16])");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn distributed(&self, shape: &[i64]) -> Result<DistLinear, LayoutError> {
        check_pow2("shape: extent", shape)?;
        let rank = shape.len();
        if rank == 0 {
            return Err(bad(String::from("shape: empty")));
        }
        match self {
            Gluon::Blocked { .. } => {
                let (t, order) = blocked_tile(self, rank)?;
                Ok(t.fit(shape, &order, true))
            }
            Gluon::NvmmaDistributed { .. } => {
                let (t, order) = mma_tile(self, rank)?;
                Ok(t.fit(shape, &order, false))
            }
            Gluon::DotOperand {
                operand_index,
                parent,
                k_width,
            } => dot_operand(*operand_index, parent, *k_width, shape),
            Gluon::DistributedLinear(d) => {
                d.check()?;
                if d.shape.len() != rank {
                    return Err(bad(format!(
                        "DistributedLinearLayout of rank {} at a shape of rank {rank}",
                        d.shape.len()
                    )));
                }
                let mut t = Tile::new(rank);
                t.ins = [d.reg.clone(), d.lane.clone(), d.warp.clone()];
                t.size = d.shape.clone();
                let order: Vec<usize> = (0..rank).collect();
                let mut r = t.fit(shape, &order, false);
                r.block = d.block.clone();
                for b in &mut r.block {
                    for (x, &s) in b.iter_mut().zip(shape) {
                        if *x >= s {
                            *x = 0;
                        }
                    }
                }
                Ok(r)
            }
            Gluon::Slice { dim, parent } => {
                // The parent at the shape with an extent-1 dimension inserted at `dim`, that
                // dimension then removed from every basis, and the registers that reach nothing
                // dropped.
                let d = usize::try_from(*dim)
                    .ok()
                    .filter(|&d| d <= rank)
                    .ok_or_else(|| {
                        bad(format!(
                            "SliceLayout: dim {dim} is not a dimension of a parent of rank {}",
                            rank + 1
                        ))
                    })?;
                let mut pshape = shape.to_vec();
                pshape.insert(d, 1);
                let p = parent.distributed(&pshape)?;
                let cut = |bs: &Bases| -> Bases {
                    bs.iter()
                        .map(|b| {
                            let mut b = b.clone();
                            b.remove(d);
                            b
                        })
                        .collect()
                };
                let mut reg = cut(&p.reg);
                reg.retain(|b| b.iter().any(|&x| x != 0));
                Ok(DistLinear {
                    reg,
                    lane: cut(&p.lane),
                    warp: cut(&p.warp),
                    block: cut(&p.block),
                    shape: shape.to_vec(),
                })
            }
            _ => Err(bad(format!(
                "{self} is a shared layout, not a distributed one"
            ))),
        }
    }

    /// The shared linear layout of this layout at `shape`, and its padding (`[interval,
    /// padding]` pairs, empty unless a `PaddedSharedLayout`).
    ///
    /// # Errors
    /// As [`Gluon::distributed`]; also a shape an `NVMMASharedLayout` cannot tile (fewer than 8
    /// rows or than one swizzle atom's columns), `fp4_padded`, and a `SharedLinearLayout` whose
    /// own shape is not `shape`.
    ///
    /// # Examples
    /// ```
    /// use cute_layout::gpu::gluon::Gluon;
    /// let g: Gluon = "SwizzledSharedLayout(2, 2, 4, [1, 0])".parse()?;
    /// let (l, pad) = g.shared(&[16, 32])?;
    /// assert_eq!(l.to_string(), "SharedLinearLayout(offset_bases=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 2], [4, 4], [8, 0]], block_bases=[], alignment=16)");
    /// assert!(pad.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn shared(&self, shape: &[i64]) -> Result<(SharedLinear, Vec<(i64, i64)>), LayoutError> {
        check_pow2("shape: extent", shape)?;
        let rank = shape.len();
        if rank == 0 {
            return Err(bad(String::from("shape: empty")));
        }
        let unit = |d: usize, v: i64| {
            let mut b = vec![0; rank];
            b[d] = v;
            b
        };
        let identity = |out: &mut Bases, d: usize, from: i64, to: i64| {
            let mut v = from;
            while v < to {
                out.push(unit(d, v));
                v <<= 1;
            }
        };
        let lin = |offset: Bases, alignment: i64| SharedLinear {
            offset,
            block: Vec::new(),
            alignment,
        };
        match self {
            Gluon::SwizzledShared {
                vec,
                per_phase,
                max_phase,
                order,
                cga_layout,
            } => {
                no_cga(cga_layout, "SwizzledSharedLayout")?;
                check_pow2(
                    "SwizzledSharedLayout: vec, per_phase, max_phase",
                    &[*vec, *per_phase, *max_phase],
                )?;
                let order = order_of(order, rank, "SwizzledSharedLayout")?;
                let mut out = Vec::new();
                if rank == 1 {
                    identity(&mut out, 0, 1, shape[0]);
                    return Ok((lin(out, 16), Vec::new()));
                }
                let (col, row) = (order[0], order[1]);
                identity(&mut out, col, 1, shape[col]);
                let mut r = 1;
                while r < shape[row] {
                    let mut b = unit(row, r);
                    b[col] = (vec * ((r / per_phase) % max_phase)) % shape[col];
                    out.push(b);
                    r <<= 1;
                }
                for &d in &order[2..] {
                    identity(&mut out, d, 1, shape[d]);
                }
                Ok((lin(out, 16), Vec::new()))
            }
            Gluon::NvmmaShared {
                swizzle_byte_width,
                element_bitwidth,
                rank: r,
                transposed,
                fp4_padded,
                cga_layout,
            } => {
                no_cga(cga_layout, "NVMMASharedLayout")?;
                let what = "NVMMASharedLayout";
                if !matches!(element_bitwidth, 8 | 16 | 32 | 64) {
                    return Err(bad(format!(
                        "{what}: element_bitwidth {element_bitwidth} is not 8, 16, 32 or 64"
                    )));
                }
                let (per_phase, max_phase) = match swizzle_byte_width {
                    0 => (1, 1),
                    32 => (4, 2),
                    64 => (2, 4),
                    128 => (1, 8),
                    w => {
                        return Err(bad(format!(
                            "{what}: swizzle_byte_width {w} is not 0, 32, 64 or 128"
                        )))
                    }
                };
                if *fp4_padded {
                    return Err(unsupported(format!("{what}: fp4_padded leaves unused bytes in each 16 (not a bijection); not converted")));
                }
                if usize::try_from(*r).ok() != Some(rank) {
                    return Err(bad(format!("{what}: rank {r} for a shape of rank {rank}")));
                }
                let mut out = Vec::new();
                if rank == 1 {
                    identity(&mut out, 0, 1, shape[0]);
                    return Ok((lin(out, 16), Vec::new()));
                }
                let (col, row) = if *transposed {
                    (rank - 2, rank - 1)
                } else {
                    (rank - 1, rank - 2)
                };
                let vec = 128 / element_bitwidth;
                let tile_cols = if *swizzle_byte_width == 0 {
                    shape[col]
                } else {
                    swizzle_byte_width * 8 / element_bitwidth
                };
                if *swizzle_byte_width > 0 && (shape[row] < 8 || shape[col] < tile_cols) {
                    return Err(bad(format!(
                        "{what}: a {swizzle_byte_width}-byte swizzle of {element_bitwidth}-bit elements needs at least 8 rows and {tile_cols} columns, the shape has {} and {}",
                        shape[row], shape[col]
                    )));
                }
                identity(&mut out, col, 1, tile_cols);
                let mut rr = 1;
                while rr < shape[row] {
                    let mut b = unit(row, rr);
                    b[col] = vec * ((rr / per_phase) % max_phase);
                    out.push(b);
                    rr <<= 1;
                }
                for d in (0..rank).rev().filter(|&d| d != row && d != col) {
                    identity(&mut out, d, 1, shape[d]);
                }
                identity(&mut out, col, tile_cols, shape[col]);
                let alignment = if *swizzle_byte_width == 0 {
                    128
                } else {
                    swizzle_byte_width * 8
                };
                Ok((lin(out, alignment), Vec::new()))
            }
            Gluon::PaddedShared {
                interval_padding_pairs,
                offset_bases,
                cga_layout,
                shape: own,
            } => {
                no_cga(cga_layout, "PaddedSharedLayout")?;
                let what = "PaddedSharedLayout";
                if own.as_slice() != shape {
                    return Err(bad(format!(
                        "{what}: its shape {own:?} is not the shape {shape:?}"
                    )));
                }
                if interval_padding_pairs.is_empty() {
                    return Err(bad(format!("{what}: no [interval, padding] pair")));
                }
                for (k, &(i, p)) in interval_padding_pairs.iter().enumerate() {
                    check_pow2("PaddedSharedLayout: interval or padding", &[i, p])?;
                    if interval_padding_pairs[..k].iter().any(|&(j, _)| j == i) {
                        return Err(bad(format!("{what}: interval {i} given twice")));
                    }
                }
                let l = lin(offset_bases.clone(), 16);
                l.check(shape)?;
                Ok((l, interval_padding_pairs.clone()))
            }
            Gluon::SharedLinear(s) => {
                s.check(shape)?;
                Ok((s.clone(), Vec::new()))
            }
            _ => Err(bad(format!(
                "{self} is a distributed layout, not a shared one"
            ))),
        }
    }
}

fn dot_operand(
    op: i64,
    parent: &Gluon,
    k_width: i64,
    shape: &[i64],
) -> Result<DistLinear, LayoutError> {
    let what = "DotOperandLayout";
    if shape.len() != 2 {
        return Err(unsupported(format!("{what}: only rank 2 is converted")));
    }
    if op != 0 && op != 1 {
        return Err(bad(format!("{what}: operand_index {op} is not 0 or 1")));
    }
    let k = if op == 0 { 1 } else { 0 };
    let nk = 1 - k;
    if let Gluon::Blocked {
        size_per_thread, ..
    } = parent
    {
        // The parent with the whole of K in each thread's registers (in the parent's order)
        // and its lanes and warps along K broadcast.
        let (p, order) = blocked_tile(parent, 2)?;
        let mut t = Tile::new(2);
        for &d in &order {
            t.identity(
                In::Reg,
                if d == k { shape[k] } else { size_per_thread[d] },
                d,
            );
        }
        let [_, lane, warp] = p.ins;
        for (i, bs) in [(In::Lane, lane), (In::Warp, warp)] {
            for mut b in bs {
                b[k] = 0;
                t.push(i, b);
            }
        }
        t.size[nk] = p.size[nk];
        return Ok(t.fit(shape, &[k, nk], false));
    }
    let (p, _) = mma_tile(parent, 2)?;
    if let Gluon::NvmmaDistributed { version, .. } = parent {
        if version.first() == Some(&3) && op == 1 {
            return Err(bad(format!(
                "{what}: operand_index must be 0 for a version 3 (wgmma) parent: only the first operand is in registers"
            )));
        }
    }
    if !pow2(k_width) || k_width > 32 {
        return Err(bad(format!(
            "{what}: k_width {k_width} is not a power of two up to 32"
        )));
    }
    let mut t = Tile::new(2);
    let kv = |v: i64| {
        let mut b = vec![0, 0];
        b[k] = v;
        b
    };
    let nv = |v: i64| {
        let mut b = vec![0, 0];
        b[nk] = v;
        b
    };
    for j in 0..log2(k_width) {
        t.push(In::Reg, kv(1 << j));
    }
    if op == 0 {
        t.push(In::Reg, nv(8));
    }
    t.push(In::Reg, kv(4 * k_width));
    t.push(In::Lane, kv(k_width));
    t.push(In::Lane, kv(2 * k_width));
    for v in [1, 2, 4] {
        t.push(In::Lane, nv(v));
    }
    t.size[k] = 8 * k_width;
    t.size[nk] = if op == 0 { 16 } else { 8 };
    let [_, _, warp] = p.ins;
    let mut covered = t.size[nk];
    for mut b in warp {
        b[k] = 0;
        if b[nk] != 0 {
            covered *= 2;
        }
        t.push(In::Warp, b);
    }
    t.size[nk] = covered;
    Ok(t.fit(shape, &[k, nk], false))
}

fn check_bases(what: &str, bases: &Bases, shape: &[i64]) -> Result<(), LayoutError> {
    for b in bases {
        if b.len() != shape.len() {
            return Err(bad(format!(
                "{what}: basis {b:?} has {} entries for a shape of rank {}",
                b.len(),
                shape.len()
            )));
        }
        for (&x, &s) in b.iter().zip(shape) {
            if x < 0 || x >= s {
                return Err(bad(format!(
                    "{what}: basis {b:?} is outside the shape {shape:?}"
                )));
            }
        }
    }
    Ok(())
}

impl DistLinear {
    /// Checks the shape (powers of two) and that every basis lies in it.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] naming the basis or extent.
    pub fn check(&self) -> Result<(), LayoutError> {
        check_pow2("DistributedLinearLayout: shape extent", &self.shape)?;
        for (name, b) in [
            ("reg_bases", &self.reg),
            ("lane_bases", &self.lane),
            ("warp_bases", &self.warp),
            ("block_bases", &self.block),
        ] {
            check_bases(&format!("DistributedLinearLayout: {name}"), b, &self.shape)?;
        }
        let bits = self.reg.len() + self.lane.len() + self.warp.len() + self.block.len();
        if bits > 40 {
            return Err(LayoutError::TooLarge {
                op: "gluon",
                what: format!("DistributedLinearLayout with {bits} input bits"),
                limit: 40,
            });
        }
        Ok(())
    }
}

impl SharedLinear {
    /// The shape the bases span: per dimension the power of two just above the largest
    /// component (Triton's `SharedLinearLayout.shape`).
    pub fn spanned_shape(&self) -> Vec<i64> {
        let rank = self.offset.first().map_or(0, Vec::len);
        (0..rank)
            .map(|d| {
                let m = self
                    .offset
                    .iter()
                    .chain(&self.block)
                    .filter_map(|b| b.get(d).copied())
                    .max()
                    .unwrap_or(0)
                    .max(0);
                1i64 << (64 - m.leading_zeros())
            })
            .collect()
    }

    /// Checks that the bases lie in `shape` and there are log2(size) of them.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] naming the problem.
    pub fn check(&self, shape: &[i64]) -> Result<(), LayoutError> {
        let what = "SharedLinearLayout";
        if self.offset.is_empty() {
            return Err(bad(format!("{what}: offset_bases is empty")));
        }
        check_bases(&format!("{what}: offset_bases"), &self.offset, shape)?;
        check_bases(&format!("{what}: block_bases"), &self.block, shape)?;
        let bits: u32 = shape.iter().map(|&s| log2(s)).sum();
        let n = self.offset.len() + self.block.len();
        if n != bits as usize {
            return Err(bad(format!(
                "{what}: {n} bases for a shape {shape:?} of {bits} bits (one basis per bit of the offset)"
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    /// Triton 3.9.0's own `to_linear_layout` answers (printed by scripts/rosetta/probe_rules.py).
    #[test]
    fn distributed_layouts_match_triton() {
        let cases: &[(&str, &[i64], &str)] = &[
            ("BlockedLayout([1,1],[8,4],[1,1],[1,0])", &[16, 8], "reg_bases=[[0, 4], [8, 0]], lane_bases=[[0, 1], [0, 2], [1, 0], [2, 0], [4, 0]], warp_bases=[]"),
            ("BlockedLayout([1,1],[8,4],[1,1],[0,1])", &[16, 8], "reg_bases=[[8, 0], [0, 4]], lane_bases=[[1, 0], [2, 0], [4, 0], [0, 1], [0, 2]], warp_bases=[]"),
            ("BlockedLayout([2,2],[8,4],[2,2],[1,0])", &[4, 4], "reg_bases=[[0, 1], [1, 0]], lane_bases=[[0, 2], [0, 0], [2, 0], [0, 0], [0, 0]], warp_bases=[[0, 0], [0, 0]]"),
            ("BlockedLayout([8,2],[4,8],[2,1],[1,0])", &[4, 8], "reg_bases=[[0, 1], [1, 0], [2, 0]], lane_bases=[[0, 2], [0, 4], [0, 0], [0, 0], [0, 0]], warp_bases=[[0, 0]]"),
            ("NVMMADistributedLayout([2,0],[2,2],[16,8])", &[64, 64], "reg_bases=[[0, 1], [8, 0], [0, 16], [0, 32], [32, 0]], lane_bases=[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp_bases=[[0, 8], [16, 0]]"),
            ("NVMMADistributedLayout([3,0],[8,2],[16,32,16])", &[128, 64], "reg_bases=[[0, 1], [8, 0], [0, 8], [0, 16]], lane_bases=[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp_bases=[[16, 0], [32, 0], [64, 0], [0, 32]]"),
            ("NVMMADistributedLayout([3,0],[8,2],[16,256,16])", &[64, 2], "reg_bases=[[0, 1], [8, 0], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0]], lane_bases=[[0, 0], [0, 0], [1, 0], [2, 0], [4, 0]], warp_bases=[[16, 0], [32, 0], [0, 0], [0, 0]]"),
            ("DotOperandLayout(0, NVMMADistributedLayout([2,0],[2,2],[16,8]), 1)", &[64, 64], "reg_bases=[[8, 0], [0, 4], [0, 8], [0, 16], [0, 32], [32, 0]], lane_bases=[[0, 1], [0, 2], [1, 0], [2, 0], [4, 0]], warp_bases=[[0, 0], [16, 0]]"),
            ("DotOperandLayout(1, NVMMADistributedLayout([2,0],[2,2],[16,8]), 4)", &[64, 64], "reg_bases=[[1, 0], [2, 0], [16, 0], [32, 0], [0, 16], [0, 32]], lane_bases=[[4, 0], [8, 0], [0, 1], [0, 2], [0, 4]], warp_bases=[[0, 8], [0, 0]]"),
            ("DotOperandLayout(0, BlockedLayout([2,1],[4,8],[2,2],[1,0]), 0)", &[32, 16], "reg_bases=[[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [16, 0]], lane_bases=[[0, 0], [0, 0], [0, 0], [2, 0], [4, 0]], warp_bases=[[0, 0], [8, 0]]"),
            ("DotOperandLayout(1, BlockedLayout([1,2],[2,16],[1,2],[1,0]), 0)", &[8, 16], "reg_bases=[[0, 1], [1, 0], [2, 0], [4, 0]], lane_bases=[[0, 2], [0, 4], [0, 8], [0, 0], [0, 0]], warp_bases=[[0, 0]]"),
            ("SliceLayout(0, BlockedLayout([2,2],[4,8],[2,2],[1,0]))", &[32], "reg_bases=[[1]], lane_bases=[[2], [4], [8], [0], [0]], warp_bases=[[16], [0]]"),
            ("SliceLayout(1, BlockedLayout([2,2],[4,8],[2,2],[1,0]))", &[4], "reg_bases=[[1]], lane_bases=[[0], [0], [0], [2], [0]], warp_bases=[[0], [0]]"),
            ("SliceLayout(0, NVMMADistributedLayout([2,0],[2,2],[16,8]))", &[64], "reg_bases=[[1], [16], [32]], lane_bases=[[2], [4], [0], [0], [0]], warp_bases=[[8], [0]]"),
            ("SliceLayout(1, NVMMADistributedLayout([2,0],[2,2],[16,8]))", &[64], "reg_bases=[[8], [32]], lane_bases=[[0], [0], [1], [2], [4]], warp_bases=[[0], [16]]"),
        ];
        for (text, shape, want) in cases {
            let g: Gluon = text.parse().unwrap();
            let d = g.distributed(shape).unwrap();
            let got = d.to_string();
            assert!(got.contains(want), "{text} at {shape:?}: {got}");
        }
    }

    #[test]
    fn shared_layouts_match_triton() {
        let cases: &[(&str, &[i64], &str)] = &[
            ("NVMMASharedLayout(32,16,2)", &[16, 128], "[[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0], [4, 8], [8, 0], [0, 16], [0, 32], [0, 64]]"),
            ("NVMMASharedLayout(0,16,2)", &[16, 128], "[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64], [1, 0], [2, 0], [4, 0], [8, 0]]"),
            ("NVMMASharedLayout(128,16,2,True)", &[64, 64], "[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0], [8, 1], [16, 2], [32, 4], [0, 8], [0, 16], [0, 32]]"),
            ("NVMMASharedLayout(64,32,3)", &[2, 16, 32], "[[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 1, 0], [0, 2, 4], [0, 4, 8], [0, 8, 0], [1, 0, 0], [0, 0, 16]]"),
            ("SwizzledSharedLayout(2,1,4,[2,0,1])", &[4, 8, 16], "[[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [1, 0, 2], [2, 0, 4], [0, 1, 0], [0, 2, 0], [0, 4, 0]]"),
            ("SwizzledSharedLayout(8,1,8,[1,0])", &[16, 16], "[[0, 1], [0, 2], [0, 4], [0, 8], [1, 8], [2, 0], [4, 0], [8, 0]]"),
        ];
        for (text, shape, want) in cases {
            let g: Gluon = text.parse().unwrap();
            let (s, pad) = g.shared(shape).unwrap();
            assert!(pad.is_empty());
            assert_eq!(alloc::format!("{:?}", s.offset), *want, "{text}");
        }
        let e = |t: &str, shape: &[i64]| {
            t.parse::<Gluon>()
                .unwrap()
                .shared(shape)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(e("NVMMASharedLayout(128,16,2)", &[4, 16]), "gluon: NVMMASharedLayout: a 128-byte swizzle of 16-bit elements needs at least 8 rows and 64 columns, the shape has 4 and 16");
        assert_eq!(e("NVMMASharedLayout(128,8,2,fp4_padded=True)", &[16, 128]), "gluon: NVMMASharedLayout: fp4_padded leaves unused bytes in each 16 (not a bijection); not converted");
        assert_eq!(e("BlockedLayout([1],[32],[1],[0])", &[32]), "gluon: BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[1], order=[0], cga_layout=[]) is a distributed layout, not a shared one");
    }
}
