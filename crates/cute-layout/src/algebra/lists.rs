//! The working lists of an algorithm, in two kinds: growable ([`Growable`], `SmallVec`s that
//! spill to the heap, never full) and bounded ([`Bounded`], `ArrayVec`s of fixed capacity whose
//! storage is not initialised and whose pushes check no spill: several times cheaper per push
//! and per read).
//!
//! An algorithm written once, generic over [`Lists`], runs first with bounded lists; a push past
//! a bounded list's capacity stops it with [`Stop::Full`] at once (nothing computed from a
//! truncated list is ever returned), and the caller starts again with growable lists. Up to the
//! push that stops it, the bounded run computes exactly what the growable run computes, so both
//! give the same result and the same error.

use core::convert::Infallible;
use core::ops::DerefMut;

use arrayvec::ArrayVec;

use crate::layout::error::LayoutError;
use crate::layout::tree::Leaves;

/// A flat list of modes `(extent, stride)` (the working form of most algorithms).
pub(crate) type Modes = Leaves<(i64, i64)>;

/// Why an algorithm on [`Lists`] stopped: a typed error, or (bounded lists only) a full list.
#[derive(Debug)]
pub(crate) enum Stop<F> {
    /// The operation's own error.
    Err(LayoutError),
    /// A bounded list is full: start again with growable lists. `Infallible` for those.
    Full(F),
}

impl<F> Stop<F> {
    /// The same stop, with a `Full` that converts (a sink's into its lists').
    #[inline(always)]
    pub(crate) fn lift<G>(self) -> Stop<G>
    where
        F: Into<G>,
    {
        match self {
            Stop::Err(e) => Stop::Err(e),
            Stop::Full(f) => Stop::Full(f.into()),
        }
    }
}

impl<F> From<LayoutError> for Stop<F> {
    #[inline(always)]
    fn from(e: LayoutError) -> Self {
        Stop::Err(e)
    }
}

/// A bounded list was full.
#[derive(Debug)]
pub(crate) struct Full;

/// A growable run never fills up; this lets its `Infallible` stand where a [`Full`] may.
impl From<Infallible> for Full {
    fn from(never: Infallible) -> Full {
        match never {}
    }
}

/// A list an algorithm appends to.
pub(crate) trait List<T>: DerefMut<Target = [T]> {
    /// What a push past the capacity gives: [`Full`], or `Infallible` for a growable list.
    type Full;
    /// An empty list.
    fn empty() -> Self;
    /// Append `v`, or give [`List::Full`].
    fn put(&mut self, v: T) -> Result<(), Self::Full>;
    /// [`List::put`] for an algorithm that stops with [`Stop`].
    #[inline(always)]
    fn add(&mut self, v: T) -> Result<(), Stop<Self::Full>> {
        self.put(v).map_err(Stop::Full)
    }
}

impl<T: Copy> List<T> for Leaves<T> {
    type Full = Infallible;

    #[inline(always)]
    fn empty() -> Self {
        Leaves::new()
    }

    #[inline(always)]
    fn put(&mut self, v: T) -> Result<(), Infallible> {
        self.push(v);
        Ok(())
    }
}

impl<T: Copy, const N: usize> List<T> for ArrayVec<T, N> {
    type Full = Full;

    #[inline(always)]
    fn empty() -> Self {
        ArrayVec::new()
    }

    #[inline(always)]
    fn put(&mut self, v: T) -> Result<(), Full> {
        self.try_push(v).map_err(|_| Full)
    }
}

/// A family of working lists with one stopping type, so that `?` carries any of them.
pub(crate) trait Lists {
    /// [`Full`] or `Infallible`.
    type Full;
    /// Flat modes `(extent, stride)`.
    type Modes: List<(i64, i64), Full = Self::Full>;
    /// Composition's per-leaf record: end of its modes, integer or tuple, sign of its stride.
    type Info: List<(usize, bool, i64), Full = Self::Full>;
    /// Composition's footprints: `(leaf, mode of A, largest digit)`.
    type Footprint: List<(usize, usize, i64), Full = Self::Full>;
    /// Integers (extents).
    type Ints: List<i64, Full = Self::Full>;
    /// Zipped divide's per-mode scale and end of its complement's modes.
    type Scale: List<(i64, usize), Full = Self::Full>;
}

/// Growable lists (`SmallVec`, inline up to 16 entries, then on the heap): never full.
pub(crate) struct Growable;

impl Lists for Growable {
    type Full = Infallible;
    type Modes = Leaves<(i64, i64)>;
    type Info = Leaves<(usize, bool, i64)>;
    type Footprint = Leaves<(usize, usize, i64)>;
    type Ints = Leaves<i64>;
    type Scale = Leaves<(i64, usize)>;
}

/// Bounded lists of `N` entries each (`ArrayVec`, never on the heap).
pub(crate) struct Bounded<const N: usize>;

impl<const N: usize> Lists for Bounded<N> {
    type Full = Full;
    type Modes = ArrayVec<(i64, i64), N>;
    type Info = ArrayVec<(usize, bool, i64), N>;
    type Footprint = ArrayVec<(usize, usize, i64), N>;
    type Ints = ArrayVec<i64, N>;
    type Scale = ArrayVec<(i64, usize), N>;
}

/// The capacity of the bounded lists the operations try first: twice the inline leaves of a
/// layout, so that a composition of two inline layouts whose result is inline too never starts
/// over.
pub(crate) const BOUNDED: usize = 2 * crate::layout::tree::LEAVES_INLINE;

/// The result of a run on growable lists, which are never full.
#[inline(always)]
pub(crate) fn growable<R>(r: Result<R, Stop<Infallible>>) -> Result<R, LayoutError> {
    match r {
        Ok(r) => Ok(r),
        Err(Stop::Err(e)) => Err(e),
        Err(Stop::Full(never)) => match never {},
    }
}

/// Run `bounded` on `target`, and if a bounded list was full, `reset` it and run
/// `growable_run`.
#[inline(always)]
pub(crate) fn bounded_first<T: ?Sized, R>(
    target: &mut T,
    bounded: impl FnOnce(&mut T) -> Result<R, Stop<Full>>,
    reset: impl FnOnce(&mut T),
    growable_run: impl FnOnce(&mut T) -> Result<R, Stop<Infallible>>,
) -> Result<R, LayoutError> {
    match bounded(target) {
        Ok(r) => return Ok(r),
        Err(Stop::Err(e)) => return Err(e),
        Err(Stop::Full(Full)) => reset(target),
    }
    growable(growable_run(target))
}
