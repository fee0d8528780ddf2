//! Coordinate ↔ index maps (CuTe `stride.hpp`): `crd2idx`, `idx2crd`, `crd2crd`, and the
//! odometer walk over a whole layout.
//!
//! Every layout accepts three kinds of coordinates that name the same point: a 1-D index
//! (colexicographic, leftmost mode fastest), an R-D coordinate (one entry per top-level mode, each
//! entry itself any kind of coordinate for that mode) and the natural coordinate (congruent to the
//! shape). An integer coordinate into a tuple is split over the modes with `%` and `/`; the last
//! mode's coordinate is not reduced, so a 1-D index past the end runs on along the last mode.

use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::tree::{self, Leaves, Tok, LEAVES_INLINE};
use crate::layout::Layout;

/// Most points [`Layout::is_injective`](crate::Layout::is_injective) enumerates in the one case it cannot decide from the
/// modes alone.
pub const MAX_ENUMERATED: i64 = 1 << 22;

/// `(c / s, c % s)` with C's truncating division, by a shift and a mask where `s` is a power of
/// two and `c >= 0` (the common case: a division takes tens of cycles, a shift one).
#[inline(always)]
pub(crate) fn div_rem(c: i64, s: i64) -> (i64, i64) {
    if c >= 0 && s > 0 && s & (s - 1) == 0 {
        (c >> s.trailing_zeros(), c & (s - 1))
    } else {
        (c / s, c % s)
    }
}

/// Split an integer coordinate over the flat leaves `shape`: every leaf but the last gets
/// `(c / P) % s`, the last gets what is left (C-style truncating division, as CuTe).
#[inline]
fn split_int(mut c: i64, shape: &[i64], mut f: impl FnMut(usize, i64)) {
    let n = shape.len();
    for (k, &s) in shape.iter().enumerate() {
        if k + 1 == n {
            f(k, c);
        } else {
            let (q, r) = div_rem(c, s);
            f(k, r);
            c = q;
        }
    }
}

/// Walk a coordinate against a shape tree: calls `f(leaf, value)` for every shape leaf, with the
/// leaf's coordinate. An integer coordinate meeting a sub-tree is split over its leaves with
/// [`split_int`]: the last leaf of the sub-tree runs on. CuTe's `crd2idx` and `idx2crd` both do
/// this (CuTe 4.x: `idx2crd(14, (3,4))` is `(2,4)`, conformance `idx2crd-00012`).
fn walk_coord(
    op: &'static str,
    coord: &IntTuple,
    toks: &[Tok],
    shape: &[i64],
    mut f: impl FnMut(usize, i64),
) -> Result<(), LayoutError> {
    let mismatch = || LayoutError::CoordMismatch {
        op,
        coord: coord.clone().into(),
        shape: IntTuple::from_slices(toks, shape).into(),
    };
    let ct = &coord.toks;
    // i: coordinate token, j: shape token, ci: coordinate leaf, l0: shape leaf at token j
    let (mut i, mut j, mut ci, mut l0) = (0usize, 0usize, 0usize, 0usize);
    while i < ct.len() {
        match ct[i] {
            Tok::Leaf => {
                if j >= toks.len() || toks[j] == Tok::Close {
                    return Err(mismatch());
                }
                let (end, n) = tree::subtree_end_and_leaves(toks, j);
                let c = coord.leaves[ci];
                split_int(c, &shape[l0..l0 + n], |k, v| f(l0 + k, v));
                ci += 1;
                i += 1;
                j = end;
                l0 += n;
            }
            t => {
                if j >= toks.len() || toks[j] != t {
                    return Err(mismatch());
                }
                i += 1;
                j += 1;
            }
        }
    }
    if j != toks.len() {
        return Err(mismatch());
    }
    Ok(())
}

/// The index of the R-D coordinate `cs` (one integer per top-level mode of the tuple-shaped
/// layout `toks`/`shape`/`stride`) when every entry lies in its mode's domain (`0 <= c <
/// size(mode)`); `None` for any other input (another number of modes, an entry outside its mode),
/// which the checked walk then handles. One pass over the tokens, the modes' boundaries found on
/// the way; unsigned division; no overflow checks: the index of a point of the domain is an
/// offset of the layout, which construction checked to fit in `i64`.
#[inline]
fn index_rd_in_domain(toks: &[Tok], shape: &[i64], stride: &[i64], cs: &[i64]) -> Option<i64> {
    // Inside the outer tuple: `toks[1..end]`; `toks[end]` is its `Close`, so every token inside
    // has a next one (`toks[k + 1]`).
    let end = toks.len().checked_sub(1)?;
    let mut leaves = shape.iter().zip(stride);
    let (mut depth, mut mi) = (0usize, 0usize);
    let mut c = u64::try_from(*cs.first()?).ok()?;
    let mut acc = 0i64;
    for k in 1..end {
        let next = toks[k + 1];
        match toks[k] {
            Tok::Open => depth += 1,
            Tok::Close => {
                depth -= 1;
                if depth == 0 {
                    // End of a tuple mode: its last leaf consumed the entry (checked there) or
                    // a division left the quotient that must be 0.
                    if c != 0 {
                        return None;
                    }
                    mi += 1;
                    if let Some(&e) = cs.get(mi) {
                        c = u64::try_from(e).ok()?;
                    }
                }
            }
            Tok::Leaf => {
                let (&s, &d) = leaves.next()?;
                // Extents are >= 1 (construction), so the cast is exact.
                let su = s as u64;
                if depth == 0 {
                    // A mode of one leaf takes the whole entry: in the domain if below it.
                    if c >= su {
                        return None;
                    }
                    acc = acc.wrapping_add((c as i64).wrapping_mul(d));
                    mi += 1;
                    if let Some(&e) = cs.get(mi) {
                        c = u64::try_from(e).ok()?;
                    }
                } else if depth == 1 && next == Tok::Close {
                    // The last leaf of a tuple mode takes what is left of the entry.
                    if c >= su {
                        return None;
                    }
                    acc = acc.wrapping_add((c as i64).wrapping_mul(d));
                    c = 0;
                } else {
                    acc = acc.wrapping_add(((c % su) as i64).wrapping_mul(d));
                    c /= su;
                }
            }
        }
    }
    // As many modes as entries.
    (mi == cs.len()).then_some(acc)
}

/// Whether the four tokens `t` are a mode of two leaves, `Open Leaf Leaf Close`, as one
/// comparison of four bytes.
#[inline(always)]
fn two_leaf_mode(t: &[Tok]) -> bool {
    const MODE: [Tok; 4] = [Tok::Open, Tok::Leaf, Tok::Leaf, Tok::Close];
    let bytes = |t: &[Tok]| match t {
        [a, b, c, d] => u32::from_le_bytes([*a as u8, *b as u8, *c as u8, *d as u8]),
        _ => u32::MAX,
    };
    bytes(t) == bytes(&MODE)
}

/// [`index_rd_in_domain`] for the common structure: every top-level mode an integer or a flat
/// tuple of integers (depth at most 2). The walk goes mode by mode, by indices into the tokens
/// and the leaves: a mode of two leaves (the commonest tuple mode) is recognised by one
/// comparison of its four tokens and done in straight-line code (one division); another tuple
/// mode takes one comparison of a token per leaf, its last leaf known by the `Close` after it.
/// `None` for a deeper mode (left to [`index_rd_in_domain`]) and for every input that function
/// declines. (Index form: an iterator form keeps fewer values in registers and takes more
/// instructions.)
#[inline(always)]
fn index_rd_shallow(toks: &[Tok], shape: &[i64], stride: &[i64], cs: &[i64]) -> Option<i64> {
    let n = shape.len().min(stride.len());
    let (shape, stride) = (&shape[..n], &stride[..n]);
    // Token `ti` (after the outer `Open`) and leaf `li` start the next mode.
    let (mut ti, mut li) = (1usize, 0usize);
    let mut acc = 0i64;
    for &e in cs {
        let mut c = u64::try_from(e).ok()?;
        if toks.get(ti..ti + 4).is_some_and(two_leaf_mode) {
            // A mode of two leaves (the most common tuple mode), without the loop.
            let (s, d) = (shape.get(li..li + 2)?, &stride[li..li + 2]);
            let (s0, s1) = ((s[0] as u64).max(1), s[1] as u64);
            let (q, r) = (c / s0, c % s0);
            if q >= s1 {
                return None;
            }
            acc = acc
                .wrapping_add((r as i64).wrapping_mul(d[0]))
                .wrapping_add((q as i64).wrapping_mul(d[1]));
            (ti, li) = (ti + 4, li + 2);
            continue;
        }
        match *toks.get(ti)? {
            Tok::Leaf => {
                // A mode of one leaf takes the whole entry. Extents are >= 1 (construction),
                // so the cast is exact.
                let (s, d) = (*shape.get(li)? as u64, stride[li]);
                if c >= s {
                    return None;
                }
                acc = acc.wrapping_add((c as i64).wrapping_mul(d));
                (ti, li) = (ti + 1, li + 1);
            }
            Tok::Open => {
                ti += 1;
                loop {
                    if *toks.get(ti)? != Tok::Leaf {
                        return None; // nested (or an empty tuple)
                    }
                    let (s, d) = (*shape.get(li)? as u64, stride[li]);
                    (ti, li) = (ti + 1, li + 1);
                    if toks.get(ti) == Some(&Tok::Close) {
                        // The mode's last leaf takes what is left of the entry.
                        ti += 1;
                        if c >= s {
                            return None;
                        }
                        acc = acc.wrapping_add((c as i64).wrapping_mul(d));
                        break;
                    }
                    acc = acc.wrapping_add(((c % s) as i64).wrapping_mul(d));
                    c /= s;
                }
            }
            Tok::Close => return None,
        }
    }
    // As many modes as entries: only the outer `Close` is left.
    (ti + 1 == toks.len()).then_some(acc)
}

impl Layout {
    /// CuTe `crd2idx(c, shape, stride)` (the call operator `layout(c)`): the index of any kind of
    /// coordinate: 1-D, R-D, natural or a mix (each entry of a tuple coordinate is again any
    /// coordinate of its mode).
    ///
    /// # Laws
    /// * For `0 <= i < size`: `index(i) == index(coord_of(i))` where `coord_of` is the shape's
    ///   [`IntTuple::idx2crd`], and equals the inner product of that natural coordinate with the
    ///   stride.
    ///
    /// # Errors
    /// [`LayoutError::CoordMismatch`] if a tuple in the coordinate meets an integer or a tuple of
    /// another rank in the shape; [`LayoutError::Overflow`] if the index leaves `i64` (only
    /// possible for coordinates outside the domain).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(3,(2,3)):(3,(12,1))".parse()?;
    /// for c in ["16", "(1,5)", "(1,(1,2))"] {
    ///     assert_eq!(l.index(&c.parse()?)?, 17); // 01_layout.md
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "crd2idx")]
    #[inline(always)]
    pub fn index(&self, coord: &IntTuple) -> Result<i64, LayoutError> {
        // An R-D coordinate inside the domain of modes of depth at most 2 (the common case),
        // inlined into the caller; all else, deeper modes included, out of line.
        if coord.toks.len() == coord.leaves.len() + 2 {
            if let Some(v) = index_rd_shallow(&self.toks, &self.shape, &self.stride, &coord.leaves)
            {
                return Ok(v);
            }
        }
        self.index_general(coord)
    }

    /// [`Layout::index`] of any coordinate.
    #[inline(never)]
    fn index_general(&self, coord: &IntTuple) -> Result<i64, LayoutError> {
        if coord.toks.len() == coord.leaves.len() + 2 {
            if let Some(v) =
                index_rd_in_domain(&self.toks, &self.shape, &self.stride, &coord.leaves)
            {
                return Ok(v);
            }
        }
        if let Some(i) = coord.as_int() {
            return self.index_any(i);
        }
        if let Some(r) = self.index_rd(coord) {
            return r;
        }
        self.index_by_walk(coord)
    }

    /// [`Layout::index`] of any coordinate by the general walk over the coordinate's tree.
    fn index_by_walk(&self, coord: &IntTuple) -> Result<i64, LayoutError> {
        let mut acc = 0i64;
        let mut ovf = false;
        walk_coord("crd2idx", coord, &self.toks, &self.shape, |k, c| {
            match c
                .checked_mul(self.stride[k])
                .and_then(|v| acc.checked_add(v))
            {
                Some(v) => acc = v,
                None => ovf = true,
            }
        })?;
        if ovf {
            return Err(LayoutError::overflow("crd2idx"));
        }
        Ok(acc)
    }

    /// [`Layout::index`] of an R-D coordinate (a flat tuple with one integer per top-level mode of
    /// a tuple-shaped layout), which is what `walk_coord` computes for it, in one pass over the
    /// modes; `None` for any other coordinate.
    #[inline]
    fn index_rd(&self, coord: &IntTuple) -> Option<Result<i64, LayoutError>> {
        let n = coord.leaves.len();
        if coord.toks.len() != n + 2 || self.toks.len() < 2 || self.toks[0] != Tok::Open {
            return None;
        }
        let (toks, shape, stride) = (&self.toks[..], &self.shape[..], &self.stride[..]);
        let mut acc = 0i64;
        let mut ovf = false;
        let (mut j, mut l0) = (1usize, 0usize);
        for &c in coord.leaves.iter() {
            if j >= toks.len() - 1 {
                return None; // fewer modes than coordinates
            }
            let (end, m) = if toks[j] == Tok::Leaf {
                (j + 1, 1)
            } else {
                tree::subtree_end_and_leaves(toks, j)
            };
            split_int(c, &shape[l0..l0 + m], |k, v| {
                match v
                    .checked_mul(stride[l0 + k])
                    .and_then(|x| acc.checked_add(x))
                {
                    Some(x) => acc = x,
                    None => ovf = true,
                }
            });
            j = end;
            l0 += m;
        }
        if j != toks.len() - 1 {
            return None; // more modes than coordinates
        }
        Some(if ovf {
            Err(LayoutError::overflow("crd2idx"))
        } else {
            Ok(acc)
        })
    }

    /// The layout's 1-D function at any integer (CuTe semantics: past the end the last mode runs
    /// on; negative indices use truncating division, so `L(-i) == -L(i)`). Checked. This is the
    /// library's one convention for indices outside the domain (see the crate docs).
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] if the index leaves `i64`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(2,(8,4)):(16,(32,1))".parse()?;
    /// assert_eq!(l.index_any(64)?, 4); // (0,(0,4)): the last mode runs on
    /// assert_eq!(l.index_any(-16)?, -1); // (0,(0,-1))
    /// assert!((0..200).all(|i| l.index_any(-i).ok() == l.index_any(i).ok().map(|v| -v)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn index_any(&self, i: i64) -> Result<i64, LayoutError> {
        let mut acc = 0i64;
        let mut ovf = false;
        split_int(i, &self.shape, |k, c| {
            match c
                .checked_mul(self.stride[k])
                .and_then(|v| acc.checked_add(v))
            {
                Some(v) => acc = v,
                None => ovf = true,
            }
        });
        if ovf {
            Err(LayoutError::overflow("crd2idx"))
        } else {
            Ok(acc)
        }
    }

    /// The layout's 1-D function on its domain: `Some(L(i))` for `0 <= i < size`, else `None`.
    /// Cannot overflow (construction checked the largest offset).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(2,(2,2)):(4,(2,1))".parse()?;
    /// let v: Option<Vec<i64>> = (0..8).map(|i| l.index_1d(i)).collect();
    /// assert_eq!(v, Some(vec![0, 4, 2, 6, 1, 5, 3, 7])); // 01_layout.md print1D
    /// assert_eq!(l.index_1d(8), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn index_1d(&self, i: i64) -> Option<i64> {
        if i < 0 || i >= self.size() {
            return None;
        }
        let mut c = i;
        let mut acc = 0i64;
        for (&s, &d) in self.shape.iter().zip(self.stride.iter()) {
            acc += (c % s) * d;
            c /= s;
        }
        Some(acc)
    }

    /// CuTe `idx2crd(i, shape, stride)`: the natural coordinate whose leaves are `(i / d) % s`
    /// (size-1 leaves give 0). For a compact injective layout this inverts the layout:
    /// `index(coord(L(c))) == L(c)`.
    ///
    /// # Errors
    /// [`LayoutError::ZeroStride`] if a leaf of extent > 1 has stride 0 (CuTe divides by zero);
    /// [`LayoutError::Overflow`] for `i64::MIN` over a stride of -1.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(8,12,2):(1,8,96)".parse()?;
    /// assert_eq!(l.coord(143)?.to_string(), "(7,5,1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "idx2crd")]
    pub fn coord(&self, i: i64) -> Result<IntTuple, LayoutError> {
        let mut out: Leaves<i64> = Leaves::with_capacity(self.shape.len());
        for (&s, &d) in self.shape.iter().zip(self.stride.iter()) {
            if s == 1 {
                out.push(0);
            } else if d == 0 {
                return Err(LayoutError::ZeroStride {
                    op: "idx2crd",
                    layout: self.clone().into(),
                });
            } else {
                // `i64::MIN / -1` is the one quotient that overflows.
                let q = i.checked_div(d).ok_or(LayoutError::overflow("idx2crd"))?;
                out.push(q % s);
            }
        }
        Ok(IntTuple {
            toks: self.toks.clone(),
            leaves: out,
        })
    }

    /// CuTe's `Layout::get_flat_coord(i)`: the coordinate [`Layout::coord`] (`get_hier_coord`)
    /// gives for the index `i`, with each top-level mode's part as its 1-D (colexicographic)
    /// index in that mode: `crd2crd(coord(i), shape, (1,...,1))`. A layout of rank 1 gives one
    /// integer, the 1-D coordinate.
    ///
    /// # Laws
    /// * Element `m` of the result is `crd2idx(get<m>(coord(i)), shape<m>)`.
    /// * For a compact injective layout, `self.index(&flat_coord(L(c)))` is `L(c)`.
    ///
    /// # Errors
    /// As [`Layout::coord`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "((2,2),3):((1,6),2)".parse()?;
    /// assert_eq!(l.coord(9)?.to_string(), "((1,1),1)");
    /// assert_eq!(l.flat_coord(9)?.to_string(), "(3,1)");
    /// assert_eq!(l.coord_1d(9)?, 7);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "get_flat_coord")]
    pub fn flat_coord(&self, i: i64) -> Result<IntTuple, LayoutError> {
        let shape = self.shape();
        let ones = if self.rank() == 1 {
            IntTuple::int(1)
        } else {
            IntTuple::flat(core::iter::repeat_n(1, self.rank()))
        };
        shape.crd2crd(&self.coord(i)?, &ones)
    }

    /// CuTe's `Layout::get_1d_coord(i)`: the colexicographic 1-D index of the coordinate
    /// [`Layout::coord`] gives for the index `i`, `crd2idx(coord(i), shape)`.
    ///
    /// # Laws
    /// * For a compact injective layout, `index_1d(coord_1d(L(j))) == L(j)`, so `coord_1d` is the
    ///   inverse of the layout there (`coord_1d(L(j)) == j`).
    ///
    /// # Errors
    /// As [`Layout::coord`]; [`LayoutError::Overflow`] if the index leaves `i64`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(4,8):(8,1)".parse()?;
    /// assert_eq!(l.coord_1d(13)?, 21); // L(21) = L((1,5)) = 13
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "get_1d_coord")]
    pub fn coord_1d(&self, i: i64) -> Result<i64, LayoutError> {
        self.shape().crd2idx(&self.coord(i)?)
    }

    /// Offsets of the whole domain in colexicographic order, walking the coordinates like an
    /// odometer (one add per step, no division).
    ///
    /// # Laws
    /// * The `i`-th item equals `index_1d(i)`; there are `size()` items.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(2,4):(12,1)".parse()?;
    /// assert_eq!(l.offsets().collect::<Vec<_>>(), [0, 12, 1, 13, 2, 14, 3, 15]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn offsets(&self) -> Offsets {
        let mut modes: Leaves<(i64, i64, i64)> = Leaves::new();
        for (&s, &d) in self.shape.iter().zip(self.stride.iter()) {
            if s > 1 {
                modes.push((s, d, (s - 1) * d));
            }
        }
        let mut coord: Leaves<i64> = Leaves::new();
        coord.resize(modes.len(), 0);
        Offsets {
            modes,
            coord,
            offset: 0,
            // A layout's size is at least 1 (every extent is), so the cast is exact.
            remaining: self.size().unsigned_abs(),
        }
    }
}

/// Iterator over a layout's offsets, see [`Layout::offsets`].
#[derive(Clone, Debug)]
pub struct Offsets {
    /// (extent, stride, (extent - 1) * stride) of every leaf with extent > 1
    modes: Leaves<(i64, i64, i64)>,
    coord: Leaves<i64>,
    offset: i64,
    remaining: u64,
}

impl Offsets {
    /// Step the odometer to the next coordinate (the caller knows there is one).
    #[inline]
    fn advance(&mut self) {
        for (k, &(s, d, back)) in self.modes.iter().enumerate() {
            let c = &mut self.coord[k];
            *c += 1;
            if *c < s {
                self.offset += d;
                return;
            }
            *c = 0;
            self.offset -= back;
        }
    }
}

impl Iterator for Offsets {
    type Item = i64;
    #[inline]
    fn next(&mut self) -> Option<i64> {
        if self.remaining == 0 {
            return None;
        }
        let out = self.offset;
        self.remaining -= 1;
        if self.remaining > 0 {
            self.advance();
        }
        Some(out)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::try_from(self.remaining).unwrap_or(usize::MAX);
        (n, usize::try_from(self.remaining).ok())
    }

    /// Internal iteration: the two fastest modes run as plain nested loops (one add per offset);
    /// the odometer only steps when both wrap.
    fn fold<B, F: FnMut(B, i64) -> B>(mut self, init: B, mut f: F) -> B {
        let mut acc = init;
        let (s0, d0, s1, d1) = match self.modes.as_slice() {
            [(s0, d0, _), (s1, d1, _), ..] => (*s0, *d0, *s1, *d1),
            [(s0, d0, _)] => (*s0, *d0, 1, 0),
            [] => (1, 0, 1, 0),
        };
        let block = (s0 * s1).unsigned_abs(); // cannot overflow: at most size()
        while self.remaining > 0 {
            let aligned = self.coord.first().is_none_or(|&c| c == 0)
                && self.coord.get(1).is_none_or(|&c| c == 0);
            if !aligned || self.remaining < block {
                // Partial block: one step at a time.
                let out = self.offset;
                self.remaining -= 1;
                if self.remaining > 0 {
                    self.advance();
                }
                acc = f(acc, out);
                continue;
            }
            // Every offset handed to `f` is one of the layout's, so it fits; the step past the
            // last one of a row (or of the block) may not, and is never used: wrapping steps.
            let mut base = self.offset;
            for _ in 0..s1 {
                let mut off = base;
                for _ in 0..s0 {
                    acc = f(acc, off);
                    off = off.wrapping_add(d0);
                }
                base = base.wrapping_add(d1);
            }
            self.remaining -= block;
            if self.remaining == 0 {
                break;
            }
            // Both fast modes are at their last coordinate: let the odometer carry. (The last
            // offset of the block is one of the layout's: the wrapped steps cancel exactly.)
            self.offset = base
                .wrapping_sub(d1)
                .wrapping_add((s0 - 1).wrapping_mul(d0));
            if let Some(c) = self.coord.get_mut(0) {
                *c = s0 - 1;
            }
            if let Some(c) = self.coord.get_mut(1) {
                *c = s1 - 1;
            }
            self.advance();
        }
        acc
    }
}

impl IntTuple {
    /// CuTe `idx2crd(c, shape)` with `self` as the shape: the natural (fully hierarchical)
    /// coordinate of any coordinate `c`. An integer into a tuple shape is split colexicographically,
    /// every leaf but the last reduced modulo its extent (the last runs on, as in CuTe 4.x and as
    /// in [`Layout::index`]); an integer into an integer shape is returned as it is.
    ///
    /// # Errors
    /// [`LayoutError::CoordMismatch`] if a tuple in `c` meets an integer or a tuple of another
    /// rank in the shape; [`LayoutError::InvalidExtent`] if a shape extent is below 1.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let shape: IntTuple = "(3,(2,3))".parse()?;
    /// assert_eq!(shape.idx2crd(&"16".parse()?)?.to_string(), "(1,(1,2))");
    /// assert_eq!(shape.idx2crd(&"(1,5)".parse()?)?.to_string(), "(1,(1,2))");
    /// // Past the end, the last mode runs on (CuTe 4.x).
    /// assert_eq!(shape.idx2crd(&"19".parse()?)?.to_string(), "(1,(0,3))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn idx2crd(&self, coord: &IntTuple) -> Result<IntTuple, LayoutError> {
        match self.idx2crd_small(coord) {
            Some(r) => Ok(r),
            None => self.idx2crd_general(coord),
        }
    }

    /// [`IntTuple::idx2crd`] of any coordinate, by the walk (kept out of line so that the array
    /// fast path inlines into its callers).
    #[inline(never)]
    fn idx2crd_general(&self, coord: &IntTuple) -> Result<IntTuple, LayoutError> {
        crate::algebra::in_place_with(IntTuple::building(), |out| self.idx2crd_into(coord, out))
    }

    /// [`IntTuple::idx2crd`] of an integer into a shape of at most [`LEAVES_INLINE`] leaves with
    /// valid extents, written to an array that becomes the result (which is then built where
    /// it is returned, not moved there; see `algebra::flat`); `None` for anything else.
    #[inline(always)]
    fn idx2crd_small(&self, coord: &IntTuple) -> Option<IntTuple> {
        let mut c = coord.as_int()?;
        let n = self.leaves.len();
        if n > LEAVES_INLINE || self.leaves.iter().any(|&e| e < 1) {
            return None;
        }
        // Ones, not zeros, as in `algebra::flat`.
        let mut out = [1i64; LEAVES_INLINE];
        let init = self.leaves.get(..n.checked_sub(1)?)?;
        for (o, &e) in out.iter_mut().zip(init) {
            let (q, r) = div_rem(c, e);
            *o = r;
            c = q;
        }
        *out.get_mut(n - 1)? = c;
        Some(IntTuple {
            toks: tree::copy_toks(&self.toks)?,
            leaves: Leaves::from_buf_and_len(out, n),
        })
    }

    /// [`IntTuple::idx2crd`] written to `out` (an empty tuple, which lives in the caller's
    /// `Result`: the coordinate is built where it is returned, never moved).
    fn idx2crd_into(&self, coord: &IntTuple, out: &mut IntTuple) -> Result<(), LayoutError> {
        // A shape extent divides the coordinate.
        self.check_extents("idx2crd")?;
        // The coordinate has the shape's tree: copy the shape, then overwrite each leaf with
        // its coordinate in place.
        out.toks.extend_from_slice(&self.toks);
        out.leaves.extend_from_slice(&self.leaves);
        if let Some(c) = coord.as_int() {
            // An integer meets the root: split it over all leaves (what walk_coord does for it),
            // without walking the tree.
            if let Some((last, init)) = out.leaves.split_last_mut() {
                let mut c = c;
                for e in init {
                    let (q, r) = div_rem(c, *e);
                    *e = r;
                    c = q;
                }
                *last = c;
            }
            return Ok(());
        }
        let leaves = &mut out.leaves;
        walk_coord("idx2crd", coord, &self.toks, &self.leaves, |k, v| {
            leaves[k] = v
        })
    }

    /// CuTe `crd2idx(c, shape)` with `self` as the shape: the colexicographic 1-D index of any
    /// coordinate.
    ///
    /// # Errors
    /// As [`IntTuple::idx2crd`]; [`LayoutError::Overflow`] if the index leaves `i64`.
    pub fn crd2idx(&self, coord: &IntTuple) -> Result<i64, LayoutError> {
        let l = Layout::col_major(self.clone())?;
        l.index(coord)
    }

    /// CuTe `crd2crd(c, self, dst)`: re-express coordinate `c` of shape `self` as a coordinate of
    /// shape `dst`. Tuples of equal rank are converted element by element; otherwise through the
    /// 1-D index.
    ///
    /// # Errors
    /// As [`IntTuple::idx2crd`] and [`IntTuple::crd2idx`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let src: IntTuple = "(3,6)".parse()?;
    /// let dst: IntTuple = "(3,(2,3))".parse()?;
    /// assert_eq!(src.crd2crd(&"(1,5)".parse()?, &dst)?.to_string(), "(1,(1,2))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn crd2crd(&self, coord: &IntTuple, dst: &IntTuple) -> Result<IntTuple, LayoutError> {
        if !coord.is_int() && !self.is_int() && !dst.is_int() && coord.rank() == self.rank() {
            if self.rank() != dst.rank() {
                return Err(LayoutError::RankMismatch {
                    op: "crd2crd",
                    expected: self.rank(),
                    found: dst.rank(),
                });
            }
            let parts: Result<alloc::vec::Vec<_>, _> = coord
                .elements()
                .zip(self.elements())
                .zip(dst.elements())
                .map(|((c, s), d)| s.crd2crd(&c, &d))
                .collect();
            return IntTuple::tuple(parts?);
        }
        let i = self.crd2idx(coord)?;
        dst.idx2crd(&IntTuple::int(i))
    }
}

#[cfg(test)]
mod member_coord_tests {
    use crate::layout::Layout;

    /// `coord_1d` inverts every compact injective layout of a small domain, and `flat_coord`
    /// holds each mode's 1-D part of the hierarchical coordinate.
    #[test]
    fn member_coordinates_over_whole_domains() {
        for text in [
            "8:1",
            "(4,8):(8,1)",
            "(4,8):(1,4)",
            "((2,2),3):((1,6),2)",
            "(2,(3,2)):(6,(2,1))",
            "((2,3),(2,2)):((12,1),(3,6))",
        ] {
            let l: Layout = text.parse().unwrap();
            let shape = l.shape();
            for j in 0..l.size() {
                let v = l.index_1d(j).unwrap();
                assert_eq!(l.coord_1d(v).unwrap(), j, "{text} at {j}");
                let hier = l.coord(v).unwrap();
                let flat = l.flat_coord(v).unwrap();
                if l.rank() == 1 {
                    assert_eq!(flat.as_int(), Some(j), "{text} at {j}");
                } else {
                    for m in 0..l.rank() {
                        let want = shape
                            .get(m)
                            .unwrap()
                            .crd2idx(&hier.get(m).unwrap())
                            .unwrap();
                        assert_eq!(flat.get(m).unwrap().as_int(), Some(want), "{text} at {j}");
                    }
                    assert_eq!(l.index(&flat).unwrap(), v, "{text} at {j}");
                }
            }
        }
    }
}

#[cfg(test)]
mod div_rem_tests {
    use super::div_rem;

    /// The shift path gives exactly C's truncating division, and the other cases fall through.
    #[test]
    fn div_rem_is_truncating_division() {
        for s in (1..=70).chain([1 << 20, 1 << 40, (1 << 40) + 1, i64::MAX]) {
            for c in (-300..=300).chain([i64::MAX, i64::MAX - 1, i64::MIN + 1, 1 << 41]) {
                assert_eq!(div_rem(c, s), (c / s, c % s), "{c} / {s}");
            }
        }
    }
}

#[cfg(test)]
mod idx2crd_tests {
    use alloc::string::ToString;

    use crate::layout::int_tuple::IntTuple;
    use crate::layout::testing::Rng;

    /// The array fast path of `idx2crd` against the general walk: the same coordinate (text and
    /// tree) for random shapes, flat and nested, of up to seventeen leaves (one past the array),
    /// at indices inside, past the end, negative and extreme.
    #[test]
    fn fast_path_agrees_with_the_walk() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut used = 0usize;
        for _ in 0..20_000 {
            let l = rng.layout(17, 1 << 40);
            let shape = IntTuple::from_slices(&l.toks, &l.shape);
            let size = l.size();
            let r = rng.next(1 << 20) as i64;
            for i in [
                0,
                1,
                size - 1,
                size,
                size + r,
                r % size.max(1),
                -1,
                -r,
                i64::MAX,
                i64::MIN,
            ] {
                let c = IntTuple::int(i);
                let mut slow = IntTuple::building();
                let want = shape.idx2crd_into(&c, &mut slow).map(|()| slow);
                if let Some(fast) = shape.idx2crd_small(&c) {
                    used += 1;
                    let want = want.unwrap_or_else(|e| panic!("{shape} {i}: general path {e}"));
                    assert_eq!(fast.to_string(), want.to_string(), "idx2crd {i} {shape}");
                    assert!(
                        fast == want,
                        "idx2crd {i} {shape}: same text, different tree"
                    );
                }
            }
        }
        assert!(used > 100_000, "fast path taken {used} times");
    }
}

#[cfg(test)]
mod crd2idx_tests {
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;

    use super::{index_rd_in_domain, index_rd_shallow};
    use crate::layout::int_tuple::IntTuple;
    use crate::layout::testing::Rng;
    use crate::layout::Layout;

    /// A random mode of up to `depth` levels of nesting: its shape and stride texts.
    fn mode(rng: &mut Rng, depth: u32, leaves: &mut usize) -> (String, String) {
        if depth == 0 || *leaves >= 14 || rng.next(3) == 0 {
            *leaves += 1;
            let s = 1 + rng.next(5) as i64;
            let d = rng.next(40) as i64 - 8;
            return (format!("{s}"), format!("{d}"));
        }
        let n = 1 + rng.next(3);
        let (mut ss, mut ds) = (Vec::new(), Vec::new());
        for _ in 0..n {
            let (s, d) = mode(rng, depth - 1, leaves);
            ss.push(s);
            ds.push(d);
        }
        (format!("({})", ss.join(",")), format!("({})", ds.join(",")))
    }

    /// The in-domain fast path of R-D coordinates against the general walk, for random layouts
    /// nested up to four levels deep and coordinates inside their modes, at the edge, past it,
    /// negative and extreme; the walk must agree wherever the fast path answers, and the fast
    /// path must answer for every coordinate inside the domain.
    #[test]
    fn in_domain_fast_path_agrees_with_the_walk() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut used = 0usize;
        for _ in 0..20_000 {
            let rank = 1 + rng.next(4);
            // Modes nested one to three levels below the top (layouts of depth 2 to 4, and
            // flat ones where every mode comes out an integer).
            let depth = 1 + rng.next(3) as u32;
            let mut leaves = 0;
            let modes: Vec<(String, String)> = (0..rank)
                .map(|_| mode(&mut rng, depth, &mut leaves))
                .collect();
            let (ss, ds): (Vec<String>, Vec<String>) = modes.into_iter().unzip();
            let text = format!("({}):({})", ss.join(","), ds.join(","));
            let l: Layout = text.parse().expect("generated layout parses");
            let sizes: Vec<i64> = (0..l.rank()).map(|m| l.mode(m).unwrap().size()).collect();
            for _ in 0..8 {
                // Sometimes one entry too few or too many.
                let n = match rng.next(8) {
                    0 => sizes.len().saturating_sub(1),
                    1 => sizes.len() + 1,
                    _ => sizes.len(),
                };
                let mut inside = n == sizes.len();
                let cs: Vec<i64> = (0..n)
                    .map(|m| {
                        let size = sizes.get(m).copied().unwrap_or(4);
                        let c = match rng.next(10) {
                            0 => size,
                            1 => -1 - rng.next(3) as i64,
                            2 => size + rng.next(100) as i64,
                            3 => i64::MAX - rng.next(2) as i64,
                            4 => i64::MIN,
                            5 => size - 1,
                            _ => rng.next(size as u64) as i64,
                        };
                        inside &= (0..size).contains(&c);
                        c
                    })
                    .collect();
                let entries: Vec<String> = cs.iter().map(|c| format!("{c}")).collect();
                let coord: IntTuple = format!("({})", entries.join(","))
                    .parse()
                    .expect("coordinate parses");
                let walk = l.index_by_walk(&coord);
                let fast = index_rd_in_domain(&l.toks, &l.shape, &l.stride, &cs);
                let shallow = index_rd_shallow(&l.toks, &l.shape, &l.stride, &cs);
                if inside && cs.len() > 1 {
                    assert!(fast.is_some(), "{coord} in {l}: fast path declined");
                    if l.depth() <= 2 {
                        assert!(shallow.is_some(), "{coord} in {l}: shallow path declined");
                    }
                }
                for v in [fast, shallow].into_iter().flatten() {
                    used += 1;
                    assert!(inside, "{coord} in {l}: answered outside the domain");
                    assert_eq!(Ok(v), walk, "{coord} in {l}");
                }
                assert_eq!(l.index(&coord), walk, "{coord} in {l}");
            }
        }
        assert!(used > 30_000, "fast paths taken {used} times");
    }
}
