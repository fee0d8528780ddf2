//! Fast paths on plain arrays.
//!
//! The general algorithms work on growable lists (`SmallVec`) and build their results leaf by
//! leaf, which costs more than the arithmetic for the small layouts of everyday use. A fast path
//! redoes the success path of an operation on fixed arrays and hands the result's arrays (of
//! [`LEAVES_INLINE`] modes) to the result whole; anything unusual (more leaves, an error, an
//! overflow, a case the fast path does not cover) makes it return `None`, and the caller runs
//! the general algorithm, which gives the same result or the typed error. The tests compare
//! both paths.
//!
//! What the time goes to here is not the instructions callgrind counts:
//! * A result built through `&mut Layout` is then moved to where the caller keeps it: a 312-byte
//!   `memcpy` call right after the leaves were written, about 6 ns whatever the leaf count (the
//!   compiler cannot build it in place, since `SmallVec`'s growth path takes its address). A
//!   `Layout` assembled from arrays by value is written where it is returned: so coalesce builds
//!   its result here too, and composition and the divide and product kernels write theirs to a
//!   [`Buf`] (through [`Sink`]) before falling back to a `Layout`.
//! * Arrays filled with zeros are cleared by a call to `memset` once they pass about 200 bytes;
//!   that call and the reads right after it cost about 10 ns. So the arrays are filled with ones
//!   (which the compiler writes inline), and the working arrays, which never reach the result,
//!   have [`WORK`] entries.
//! * A 16-byte load cannot take its data from stores still in flight unless one
//!   store covers it: result arrays written entry by entry (8-byte stores, token bytes at
//!   run-time positions) and then moved into the layout by 16-byte loads wait for those stores to
//!   reach the cache, on every call. So results of up to four modes are built in registers
//!   ([`Few`]) and written straight into the layout, the flat tokens come from a table, and
//!   [`Flat`], [`Buf`] and `Layout` keep their leaf arrays 16-byte aligned so that the copy reads
//!   them pair by pair as they were filled.

use core::convert::Infallible;

use super::lists::Full;
use super::view::View;
use crate::layout::error::LayoutError;
use crate::layout::tree::{Leaves, Tok, Toks, LEAVES_INLINE, TOKS_INLINE};
use crate::layout::Layout;

/// Capacity of the fast paths' working arrays (a result is built in a [`Flat`] of the inline
/// capacity, which it takes over). Small on purpose: they are filled on every call, and a
/// layout of more modes takes the general path.
pub(crate) const WORK: usize = 8;

/// Flat modes `(extent, stride)` in two fixed arrays of `N` entries (the `n` first are the
/// modes; the rest is filler, never read).
#[derive(Clone, Copy)]
#[repr(C, align(16))]
pub(crate) struct Flat<const N: usize = LEAVES_INLINE> {
    pub s: [i64; N],
    pub d: [i64; N],
    pub n: usize,
}

impl<const N: usize> Flat<N> {
    #[inline(always)]
    pub fn new() -> Self {
        // Ones, not zeros: see the module's documentation.
        Flat {
            s: [1; N],
            d: [1; N],
            n: 0,
        }
    }

    /// Append a mode; `None` when full.
    #[inline(always)]
    pub fn push(&mut self, s: i64, d: i64) -> Option<()> {
        if self.n >= N {
            return None;
        }
        self.s[self.n] = s;
        self.d[self.n] = d;
        self.n += 1;
        Some(())
    }

    /// Append a mode as coalesce does ([`super::coalesce::push_merged`]); `None` when full.
    #[inline(always)]
    pub fn push_merged(&mut self, s: i64, d: i64) -> Option<()> {
        if s == 1 {
            return Some(());
        }
        if let Some(k) = self.n.checked_sub(1) {
            if let Some(e) = super::coalesce::merged((self.s[k], self.d[k]), s, d) {
                self.s[k] = e;
                return Some(());
            }
        }
        self.push(s, d)
    }

    /// The modes as `(extent, stride)` pairs.
    #[inline(always)]
    pub fn modes(&self) -> impl Iterator<Item = (i64, i64)> + Clone + '_ {
        let n = self.n.min(N);
        self.s[..n].iter().copied().zip(self.d[..n].iter().copied())
    }

    /// Whether the modes form a valid layout: extents >= 1, and size and cosize in `i64`.
    #[inline(always)]
    pub fn valid(&self) -> bool {
        super::flat_fault(self.modes()).is_ok()
    }
}

impl Flat {
    /// The layout of these modes as `from_flat` shapes them (an integer layout for one mode,
    /// a flat tuple for more, `1:0` for none). The caller has checked [`Flat::valid`].
    #[inline(always)]
    pub fn layout(mut self) -> Layout {
        if self.n == 0 {
            self.s[0] = 1;
            self.d[0] = 0;
            self.n = 1;
        }
        let n = self.n.min(LEAVES_INLINE);
        let (toks, nt) = flat_toks(n);
        Layout::from_parts_unchecked(
            Toks::from_buf_and_len(toks, nt),
            Leaves::from_buf_and_len(self.s, n),
            Leaves::from_buf_and_len(self.d, n),
        )
    }
}

/// The tokens of a flat layout of `n` leaves (`1 <= n <= LEAVES_INLINE`): `Leaf` for one, `Open
/// Leaf.. Close` for more, and their number. Taken from a table rather than written into an
/// array at run time: a byte written at a run-time position and then read back with the whole
/// array (when the array moves into the result) waits for that store to reach the cache.
#[inline(always)]
fn flat_toks(n: usize) -> ([Tok; TOKS_INLINE], usize) {
    const TABLE: [[Tok; TOKS_INLINE]; LEAVES_INLINE + 1] = {
        let mut t = [[Tok::Leaf; TOKS_INLINE]; LEAVES_INLINE + 1];
        let mut n = 2;
        while n <= LEAVES_INLINE {
            t[n][0] = Tok::Open;
            t[n][n + 1] = Tok::Close;
            n += 1;
        }
        t
    };
    let n = n.clamp(1, LEAVES_INLINE);
    (TABLE[n], if n == 1 { 1 } else { n + 2 })
}

/// The result modes of a fast path that returns a flat layout: [`Flat`] (up to the inline
/// capacity, in arrays) or [`Few`] (up to four, in scalars). A fast path runs on `Few` first and
/// on `Flat` where that gives up.
pub(crate) trait ResultModes: Sized {
    /// No modes.
    fn empty() -> Self;
    /// Append a mode; `None` when full.
    fn push(&mut self, s: i64, d: i64) -> Option<()>;
    /// Append a mode as coalesce does ([`super::coalesce::push_merged`]); `None` when full.
    fn push_merged(&mut self, s: i64, d: i64) -> Option<()>;
    /// Whether the modes form a valid layout: extents >= 1, and size and cosize in `i64`.
    fn valid(&self) -> bool;
    /// The layout of these modes as `from_flat` shapes them (an integer layout for one mode,
    /// a flat tuple for more, `1:0` for none). The caller has checked [`ResultModes::valid`].
    fn layout(self) -> Layout;
}

impl ResultModes for Flat {
    #[inline(always)]
    fn empty() -> Self {
        Flat::new()
    }
    #[inline(always)]
    fn push(&mut self, s: i64, d: i64) -> Option<()> {
        Flat::push(self, s, d)
    }
    #[inline(always)]
    fn push_merged(&mut self, s: i64, d: i64) -> Option<()> {
        Flat::push_merged(self, s, d)
    }
    #[inline(always)]
    fn valid(&self) -> bool {
        Flat::valid(self)
    }
    #[inline(always)]
    fn layout(self) -> Layout {
        Flat::layout(self)
    }
}

/// Up to four result modes in scalars, which [`Few::layout`] writes straight into the returned
/// layout. Every access is at a constant position, so the modes stay in registers: a result
/// built in arrays at run-time positions ([`Flat`]) and then moved into the layout is read with
/// 16-byte loads right after its 8-byte stores, and waits for them to reach the cache.
#[derive(Clone, Copy)]
pub(crate) struct Few {
    m: [(i64, i64); 4],
    n: usize,
}

impl ResultModes for Few {
    #[inline(always)]
    fn empty() -> Self {
        Few {
            m: [(1, 0); 4],
            n: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, s: i64, d: i64) -> Option<()> {
        match self.n {
            0 => self.m[0] = (s, d),
            1 => self.m[1] = (s, d),
            2 => self.m[2] = (s, d),
            3 => self.m[3] = (s, d),
            _ => return None,
        }
        self.n += 1;
        Some(())
    }

    #[inline(always)]
    fn push_merged(&mut self, s: i64, d: i64) -> Option<()> {
        if s == 1 {
            return Some(());
        }
        // By value at constant positions, never by reference (which would put `m` in memory).
        let last = match self.n {
            0 => return self.push(s, d),
            1 => self.m[0],
            2 => self.m[1],
            3 => self.m[2],
            _ => self.m[3],
        };
        let Some(e) = super::coalesce::merged(last, s, d) else {
            return self.push(s, d);
        };
        match self.n {
            1 => self.m[0].0 = e,
            2 => self.m[1].0 = e,
            3 => self.m[2].0 = e,
            _ => self.m[3].0 = e,
        }
        Some(())
    }

    #[inline(always)]
    fn valid(&self) -> bool {
        // Over all four at constant positions (a slice of run-time length would put them in
        // memory).
        let n = self.n;
        let modes = self.m.iter().enumerate().filter(move |&(k, _)| k < n);
        super::flat_fault(modes.map(|(_, &m)| m)).is_ok()
    }

    #[inline(always)]
    fn layout(self) -> Layout {
        let n = self.n.clamp(1, 4);
        let [a, b, c, e] = self.m;
        let (toks, nt) = flat_toks(n);
        Layout::from_parts_unchecked(
            Toks::from_buf_and_len(toks, nt),
            Leaves::from_buf_and_len([a.0, b.0, c.0, e.0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], n),
            Leaves::from_buf_and_len([a.1, b.1, c.1, e.1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], n),
        )
    }
}

/// Where an algorithm writes its result: a [`Layout`] (grows as needed) or a [`Buf`] (arrays of
/// the inline capacities; [`Full`] past them, and the caller starts over on a `Layout`).
pub(crate) trait Sink {
    /// [`Full`], or `Infallible` for a `Layout`.
    type Full;
    /// Append a token.
    fn tok(&mut self, t: Tok) -> Result<(), Self::Full>;
    /// Append a leaf: extent `s`, stride `d`.
    fn leaf(&mut self, s: i64, d: i64) -> Result<(), Self::Full>;
    /// `Layout::check` of what was written (the caller has written a whole layout).
    fn check(&self, op: &'static str) -> Result<(), LayoutError>;
    /// How much has been written: the numbers of tokens and of leaves.
    fn mark(&self) -> (usize, usize);
    /// Undo what was written after [`Sink::mark`] gave `m`.
    fn reset(&mut self, m: (usize, usize));

    /// Append the tree of `v` (tokens and leaves).
    #[inline(always)]
    fn view(&mut self, v: View<'_>) -> Result<(), Self::Full> {
        for &t in v.toks {
            self.tok(t)?;
        }
        for (&s, &d) in v.shape.iter().zip(v.stride) {
            self.leaf(s, d)?;
        }
        Ok(())
    }
}

impl Sink for Layout {
    type Full = Infallible;
    #[inline(always)]
    fn tok(&mut self, t: Tok) -> Result<(), Infallible> {
        self.toks.push(t);
        Ok(())
    }
    #[inline(always)]
    fn leaf(&mut self, s: i64, d: i64) -> Result<(), Infallible> {
        self.shape.push(s);
        self.stride.push(d);
        Ok(())
    }
    #[inline(always)]
    fn check(&self, op: &'static str) -> Result<(), LayoutError> {
        Layout::check(self, op)
    }
    #[inline(always)]
    fn mark(&self) -> (usize, usize) {
        (self.toks.len(), self.shape.len())
    }
    #[inline(always)]
    fn reset(&mut self, m: (usize, usize)) {
        self.toks.truncate(m.0);
        self.shape.truncate(m.1);
        self.stride.truncate(m.1);
    }
    #[inline(always)]
    fn view(&mut self, v: View<'_>) -> Result<(), Infallible> {
        super::view::push_view(self, v);
        Ok(())
    }
}

/// A result layout written to arrays of the inline capacities, which [`Buf::layout`] hands to the
/// returned layout whole: that layout is assembled by value where it is returned, with no move
/// of a finished `Layout` (see the module's documentation).
///
/// The leaf arrays first and 16-byte aligned (`repr(C)`): in the order the compiler chose
/// (tokens, count, leaves) the arrays sat at an odd multiple of 8 bytes, were filled by 32 8-byte
/// stores and then moved into the result by 16-byte loads, each of which waited for two of those
/// stores to reach the cache.
#[repr(C, align(16))]
pub(crate) struct Buf {
    s: [i64; LEAVES_INLINE],
    d: [i64; LEAVES_INLINE],
    toks: [Tok; TOKS_INLINE],
    nt: usize,
    n: usize,
}

impl Sink for Buf {
    type Full = Full;
    #[inline(always)]
    fn tok(&mut self, t: Tok) -> Result<(), Full> {
        *self.toks.get_mut(self.nt).ok_or(Full)? = t;
        self.nt += 1;
        Ok(())
    }
    #[inline(always)]
    fn leaf(&mut self, s: i64, d: i64) -> Result<(), Full> {
        let k = self.n;
        *self.s.get_mut(k).ok_or(Full)? = s;
        *self.d.get_mut(k).ok_or(Full)? = d;
        self.n = k + 1;
        Ok(())
    }
    #[inline(always)]
    fn check(&self, op: &'static str) -> Result<(), LayoutError> {
        self.check_written(op)
    }
    #[inline(always)]
    fn mark(&self) -> (usize, usize) {
        (self.nt, self.n)
    }
    #[inline(always)]
    fn reset(&mut self, m: (usize, usize)) {
        (self.nt, self.n) = m;
    }
}

impl Buf {
    #[inline(always)]
    pub fn new() -> Self {
        // Ones, not zeros: see the module's documentation.
        Buf {
            toks: [Tok::Open; TOKS_INLINE],
            nt: 0,
            s: [1; LEAVES_INLINE],
            d: [1; LEAVES_INLINE],
            n: 0,
        }
    }

    /// `Layout::check` of the layout written (a well-formed tree, as every writer opens and
    /// closes its tuples): its extents and its size and span in `i64`. A tree of at most
    /// [`TOKS_INLINE`] tokens is never too deep nor too large, so the tree needs no walk.
    #[inline(always)]
    fn check_written(&self, op: &'static str) -> Result<(), LayoutError> {
        const _: () = assert!(TOKS_INLINE <= 2 * crate::layout::tree::MAX_DEPTH);
        const _: () = assert!(TOKS_INLINE <= crate::layout::tree::MAX_NODES);
        let n = self.n.min(LEAVES_INLINE);
        let modes = self.s[..n].iter().copied().zip(self.d[..n].iter().copied());
        super::flat_fault(modes).map_err(|e| match e {
            Some(extent) => LayoutError::InvalidExtent { op, extent },
            None => LayoutError::overflow(op),
        })
    }

    /// [`Buf::check_written`] for a layout known to have extents >= 1 and a size in `i64`
    /// (composition's fast path writes `size(rhs)` in extents >= 1): its span `Σ (s - 1) |d|`
    /// must be in `i64`. The same error as the full check where it fails.
    #[inline(always)]
    pub fn check_span(&self, op: &'static str) -> Result<(), LayoutError> {
        let n = self.n.min(LEAVES_INLINE);
        debug_assert!(self.s[..n].iter().all(|&s| s >= 1));
        debug_assert!(self.s[..n]
            .iter()
            .try_fold(1i64, |p, &s| p.checked_mul(s))
            .is_some());
        let mut span = 0i64;
        for (&s, &d) in self.s[..n].iter().zip(&self.d[..n]) {
            span = d
                .checked_abs()
                .and_then(|a| a.checked_mul(s - 1))
                .and_then(|r| span.checked_add(r))
                .ok_or_else(|| LayoutError::overflow(op))?;
        }
        Ok(())
    }

    /// The layout written.
    #[inline(always)]
    pub fn layout(self) -> Layout {
        Layout::from_parts_unchecked(
            Toks::from_buf_and_len(self.toks, self.nt),
            Leaves::from_buf_and_len(self.s, self.n),
            Leaves::from_buf_and_len(self.d, self.n),
        )
    }
}
