//! Allocation-free kernels of composition with a tiler, the divides and the products: they read
//! their operands through [`View`]s and append to the result being built (a [`Sink`]: arrays
//! that become the returned layout by value, or a layout where those fill up), so that
//! composing, dividing or multiplying the modes of a layout by a tuple tiler copies no mode and
//! moves no intermediate layout.
//!
//! Each kernel computes exactly what the generic path (tiler dispatch, `complement`, `compose`,
//! `make_layout`) computes; [`Layout::compose_tiler`], [`Layout::logical_divide`] and
//! [`Layout::logical_product`] use them for the tilers they cover (a layout, an integer, `_`, or
//! a flat tuple of those) and fall back to the generic path otherwise (nested tilers, errors of
//! rank).

use super::build::LayoutBuilder;
use super::complement::{
    compact_complement, complement_modes, filter_leaves, product_complement_modes,
};
use super::composition::{compose_modes_fast, compose_with, linear_stride_x, OP};
use super::flat::{Buf, Sink};
use super::lists::{bounded_first, growable, Bounded, Full, Growable, List, Lists, Stop, BOUNDED};
use super::view::{push_flat, push_view, View, LEAF};
use super::{by_tiler, check_flat, coalesce, mul, Rest, Tiler};
use crate::layout::error::LayoutError;
use crate::layout::tree::{self, Span, Tok};
use crate::layout::Layout;

/// Which operation a kernel runs per mode.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kernel {
    /// `a ⊘ t = a ∘ (t, complement(t, shape(coalesce(a))))`.
    Divide,
    /// `a ⊗ b = (a, complement(a, size(a) * cosize(b)) ∘ b)`.
    Product,
    /// `a ∘ b` (modes past a tuple tiler are dropped, an integer `n` is `n:1`).
    Compose,
}

impl Kernel {
    fn op(self) -> &'static str {
        match self {
            Kernel::Divide => "logical_divide",
            Kernel::Product => "logical_product",
            Kernel::Compose => "composition",
        }
    }

    /// Whether the integer tiler 1 stands for `1:0` (divides and products, CuTe's
    /// `make_layout(1)`) rather than `1:1` (composition).
    fn one_is_zero(self) -> bool {
        self != Kernel::Compose
    }

    /// Whether the modes past a tuple tiler are kept (divides and products) or dropped
    /// (composition).
    fn keeps_rest(self) -> bool {
        self != Kernel::Compose
    }

    /// Apply the kernel to `a` and the layout tiler `t`, appending the result to `out`.
    fn apply<S: Lists, O: Sink>(
        self,
        a: View<'_>,
        t: View<'_>,
        out: &mut O,
    ) -> Result<(), Stop<S::Full>>
    where
        O::Full: Into<S::Full>,
    {
        match self {
            Kernel::Divide => divide_into::<S, O>(a, t, out),
            Kernel::Product => product_into::<S, O>(a, t, out),
            Kernel::Compose => compose_with::<S, O>(a, t, out),
        }
    }
}

/// Whether the kernels cover `tiler` for `a`: a layout, an integer, or a flat tuple of those
/// and `_` no longer than `a`'s rank. Elsewhere (a nested tuple tiler, a tuple longer than the
/// layout's rank, `_` at the top) the generic path must run.
#[inline]
pub(crate) fn covers(a: &Layout, tiler: &Tiler) -> bool {
    match tiler {
        Tiler::Layout(_) | Tiler::Int(_) => true,
        Tiler::Skip => false,
        Tiler::Modes(ts) => {
            ts.iter().all(|t| !matches!(t, Tiler::Modes(_))) && rank_at_least(a, ts.len())
        }
    }
}

/// Whether `a` has at least `n` modes: a flat tuple (`n` leaves in `n + 2` tokens) at a glance,
/// another tree counted only as far as `n`.
#[inline]
fn rank_at_least(a: &Layout, n: usize) -> bool {
    let leaves = a.shape.len();
    if a.toks.len() == leaves + 2 {
        return n <= leaves;
    }
    tree::rank_at_least(&a.toks, n)
}

/// The whole operation (composition with a tiler, logical divide, logical product) written to
/// `out` (an empty layout) and checked: the kernels where they [`covers`] the tiler, the generic
/// tiler dispatch otherwise.
#[inline]
fn run_lists<const N: usize>(
    kernel: Kernel,
    a: &Layout,
    tiler: &Tiler,
    out: &mut Layout,
) -> Result<(), LayoutError> {
    if covers(a, tiler) {
        let reset = truncate_to(out);
        bounded_first(
            out,
            |out| by_kernel::<Bounded<N>, Layout>(kernel, a, tiler, out),
            reset,
            |out| by_kernel::<Growable, Layout>(kernel, a, tiler, out),
        )?;
        return out.check(kernel.op());
    }
    *out = match kernel {
        Kernel::Compose => by_tiler(kernel.op(), a, tiler, false, Rest::Drop, &|a, b| {
            a.compose(b)
        }),
        Kernel::Divide => by_tiler(kernel.op(), a, tiler, true, Rest::Keep, &|a, t| {
            divide_by_layout(a, t)
        }),
        Kernel::Product => by_tiler(kernel.op(), a, tiler, true, Rest::Keep, &|a, b| {
            product_by_layout(a, b)
        }),
    }?;
    Ok(())
}

/// [`run`] returning the layout: where the kernels cover the tiler, first written to arrays
/// ([`Buf`]) that become the returned layout by value (no move of a finished layout; see
/// `algebra::flat`), with bounded lists; where the arrays or a list fill up, or the kernels do
/// not cover the tiler, [`run`] into a layout.
#[inline]
pub(crate) fn run_value(kernel: Kernel, a: &Layout, tiler: &Tiler) -> Result<Layout, LayoutError> {
    if a.shape.len() <= BOUNDED && covers(a, tiler) {
        let mut buf = Buf::new();
        match by_kernel::<Bounded<BOUNDED>, Buf>(kernel, a, tiler, &mut buf) {
            Ok(()) => {
                buf.check(kernel.op())?;
                return Ok(buf.layout());
            }
            Err(Stop::Err(e)) => return Err(e),
            Err(Stop::Full(Full)) => {}
        }
    }
    super::in_place(|out| run(kernel, a, tiler, out))
}

/// [`run_lists`] with bounded lists of [`BOUNDED`] entries (tests use smaller ones).
pub(crate) fn run(
    kernel: Kernel,
    a: &Layout,
    tiler: &Tiler,
    out: &mut Layout,
) -> Result<(), LayoutError> {
    run_lists::<BOUNDED>(kernel, a, tiler, out)
}

/// What undoes a bounded run's writes to `out`: truncation to its current lengths.
#[inline(always)]
fn truncate_to(out: &Layout) -> impl FnOnce(&mut Layout) + use<> {
    let marks = (out.toks.len(), out.shape.len(), out.stride.len());
    move |out| {
        out.toks.truncate(marks.0);
        out.shape.truncate(marks.1);
        out.stride.truncate(marks.2);
    }
}

/// The kernel over a whole tiler that [`covers`] accepts, appended to `out` (the caller checks
/// the result), on the working lists `S`.
#[inline]
fn by_kernel<S: Lists, O: Sink>(
    kernel: Kernel,
    a: &Layout,
    tiler: &Tiler,
    out: &mut O,
) -> Result<(), Stop<S::Full>>
where
    O::Full: Into<S::Full>,
{
    match tiler {
        Tiler::Layout(t) => kernel.apply::<S, O>(a.view(), t.view(), out),
        Tiler::Int(n) => with_int_view(*n, kernel.one_is_zero(), |t| {
            kernel.apply::<S, O>(a.view(), t, out)
        }),
        Tiler::Modes(ts) => by_mode_into::<S, O>(kernel, a, ts, out),
        // `_` keeps the layout (not sent here by `covers`, but well defined).
        Tiler::Skip => out.view(a.view()).map_err(|f| Stop::Full(f.into())),
    }
}

/// `a ⊗ b` for a layout `b` (the whole layout, not mode by mode), written to `out` (an empty
/// layout) and checked.
#[inline]
fn product_layout_into_lists<const N: usize>(
    a: &Layout,
    b: &Layout,
    out: &mut Layout,
) -> Result<(), LayoutError> {
    let reset = truncate_to(out);
    bounded_first(
        out,
        |out| product_into::<Bounded<N>, Layout>(a.view(), b.view(), out),
        reset,
        |out| product_into::<Growable, Layout>(a.view(), b.view(), out),
    )?;
    out.check(Kernel::Product.op())
}

/// [`product_layout_into_lists`] with bounded lists of [`BOUNDED`] entries (tests use smaller
/// ones).
pub(crate) fn product_layout_into(
    a: &Layout,
    b: &Layout,
    out: &mut Layout,
) -> Result<(), LayoutError> {
    product_layout_into_lists::<BOUNDED>(a, b, out)
}

/// `(k(a_0, t_0), ..., k(a_{n-1}, t_{n-1}), a_n, ...)` for a flat tuple tiler (CuTe's
/// `transform_layout`; composition drops the modes past the tiler).
#[inline]
fn by_mode_into<S: Lists, O: Sink>(
    kernel: Kernel,
    a: &Layout,
    ts: &[Tiler],
    out: &mut O,
) -> Result<(), Stop<S::Full>>
where
    O::Full: Into<S::Full>,
{
    let full = |f: O::Full| Stop::Full(f.into());
    let whole = Span::whole(a);
    let view = a.view();
    out.tok(Tok::Open).map_err(full)?;
    let mut modes = tree::modes(&a.toks);
    // The caller checked `ts.len() <= rank`: every tiler element meets a mode.
    for (t, m) in ts.iter().zip(&mut modes) {
        let m = view.span(m.offset(whole));
        match t {
            Tiler::Layout(t) => kernel.apply::<S, O>(m, t.view(), out)?,
            Tiler::Int(n) => with_int_view(*n, kernel.one_is_zero(), |t| {
                kernel.apply::<S, O>(m, t, out)
            })?,
            Tiler::Skip => out.view(m).map_err(full)?,
            // Not sent here by `covers`: a nested tuple tiler takes the generic path.
            Tiler::Modes(_) => return Err(Stop::Err(not_kernel_tiler(kernel.op()))),
        }
    }
    if kernel.keeps_rest() {
        for m in modes {
            out.view(view.span(m.offset(whole))).map_err(full)?;
        }
    }
    out.tok(Tok::Close).map_err(full)?;
    Ok(())
}

/// The error for a tiler the kernels do not take (a nested tuple, or `_` where a layout is
/// needed): [`covers`] and [`zipped_fuses`] send those to the generic path, so no caller sees it.
#[cold]
fn not_kernel_tiler(op: &'static str) -> LayoutError {
    LayoutError::InvalidArgument {
        op,
        what: "the flat kernels take a layout or an integer per mode; this tiler needs the \
               generic path"
            .into(),
    }
}

/// The layout an integer tiler stands for, `n:1` (in divides and products CuTe's
/// `make_layout(n)`, which is `1:0` for `n == 1`), as a view on the stack.
#[inline]
fn with_int_view<R>(n: i64, one_is_zero: bool, f: impl FnOnce(View<'_>) -> R) -> R {
    let d = if one_is_zero && n == 1 { 0 } else { 1 };
    f(View {
        toks: LEAF,
        shape: &[n],
        stride: &[d],
    })
}

/// `a ⊘ t` appended to `out`.
fn divide_into<S: Lists, O: Sink>(
    a: View<'_>,
    t: View<'_>,
    out: &mut O,
) -> Result<(), Stop<S::Full>>
where
    O::Full: Into<S::Full>,
{
    if let Some(d) = linear_stride_x(a.shape, a.stride) {
        // A linear `a` (one mode after coalesce_x, so coalesce(a) is `size(a):d` or `1:0`):
        // the cotarget is size(a), and composing with `a` scales every stride by d.
        let mut comp = S::Modes::empty();
        tile_complement(t, a.size(), &mut comp)?;
        let full = |f: O::Full| Stop::Full(f.into());
        out.tok(Tok::Open).map_err(full)?;
        push_view_scaled(out, t, d).map_err(Stop::lift)?;
        push_flat_scaled(out, &comp, d).map_err(Stop::lift)?;
        out.tok(Tok::Close).map_err(full)?;
        return Ok(());
    }
    // cotarget: shape(coalesce(a)) (`1` for `1:0`)
    let mut coalesced = S::Modes::empty();
    coalesce::coalesce_leaves_into(a.shape, a.stride, None, &mut coalesced).map_err(Stop::Full)?;
    let mut cotarget = S::Ints::empty();
    for &(s, _) in coalesced.iter() {
        cotarget.add(s)?;
    }
    if cotarget.is_empty() {
        cotarget.add(1)?;
    }
    let mut f = S::Modes::empty();
    filter_leaves(t.shape, t.stride, &mut f).map_err(Stop::Full)?;
    let mut comp = S::Modes::empty();
    complement_modes(&f, &cotarget, &mut comp)?;
    check_flat("complement", &comp)?;
    // (t, complement)
    let mut rhs = Layout::building();
    rhs.toks.push(Tok::Open);
    push_view(&mut rhs, t);
    push_flat(&mut rhs, &comp);
    rhs.toks.push(Tok::Close);
    compose_with::<S, O>(a, rhs.view(), out)
}

/// `a ⊗ b` appended to `out`.
fn product_into<S: Lists, O: Sink>(
    a: View<'_>,
    b: View<'_>,
    out: &mut O,
) -> Result<(), Stop<S::Full>>
where
    O::Full: Into<S::Full>,
{
    let full = |f: O::Full| Stop::Full(f.into());
    let mut comp = S::Modes::empty();
    product_complement(a, b, &mut comp)?;
    out.tok(Tok::Open).map_err(full)?;
    out.view(a).map_err(full)?;
    if comp.len() <= 1 {
        // A linear complement (as a layout `s:d`, or `1:0` for none, whose coalesce_x is
        // `2:0`): composing with it scales b's strides by d.
        let d = comp.first().map_or(0, |m| m.1);
        push_view_scaled(out, b, d).map_err(Stop::lift)?;
    } else {
        let mut lhs = Layout::building();
        push_flat(&mut lhs, &comp);
        compose_with::<S, O>(lhs.view(), b, out)?;
    }
    out.tok(Tok::Close).map_err(full)?;
    Ok(())
}

/// [`push_flat`] with every stride multiplied by `d` (checked): the flat modes composed with a
/// linear layout of stride `d`.
#[inline]
fn push_flat_scaled<O: Sink>(
    out: &mut O,
    modes: &[(i64, i64)],
    d: i64,
) -> Result<(), Stop<O::Full>> {
    let op = Kernel::Compose.op();
    match modes {
        [] => {
            out.tok(Tok::Leaf).map_err(Stop::Full)?;
            out.leaf(1, 0).map_err(Stop::Full)?;
        }
        [(s, r)] => {
            out.tok(Tok::Leaf).map_err(Stop::Full)?;
            out.leaf(*s, mul(op, *r, d)?).map_err(Stop::Full)?;
        }
        _ => {
            out.tok(Tok::Open).map_err(Stop::Full)?;
            for _ in modes {
                out.tok(Tok::Leaf).map_err(Stop::Full)?;
            }
            out.tok(Tok::Close).map_err(Stop::Full)?;
            for &(s, r) in modes {
                out.leaf(s, mul(op, r, d)?).map_err(Stop::Full)?;
            }
        }
    }
    Ok(())
}

/// The flat modes of `complement(a, size(a) * cosize(b))` (checked), the left factor of mode 1
/// of `a ⊗ b`.
fn product_complement<L: List<(i64, i64)>>(
    a: View<'_>,
    b: View<'_>,
    comp: &mut L,
) -> Result<(), Stop<L::Full>> {
    // `cosize(b) = 1 + span` is past i64 where the span is i64::MAX.
    let cosize_b = crate::layout::layout_type::span_of(b.shape, b.stride).checked_add(1);
    // Only the result has to fit: an `m` past i64 is saturated (see `product_complement_modes`).
    let (m, m_is_floor) = match cosize_b.and_then(|c| a.size().checked_mul(c)) {
        Some(m) => (m, false),
        None => (i64::MAX, true),
    };
    if !m_is_floor {
        if let Some(c) = compact_complement(a.shape, a.stride, m) {
            // One mode or none: valid (see `compact_complement`).
            if let Some(mode) = c {
                comp.add(mode)?;
            }
            return Ok(());
        }
    }
    let mut f = L::empty();
    filter_leaves(a.shape, a.stride, &mut f).map_err(Stop::Full)?;
    product_complement_modes(&f, m, m_is_floor, comp)?;
    Ok(check_flat("complement", comp)?)
}

/// Append the tree of `v` with every stride multiplied by `d` (checked).
#[inline]
fn push_view_scaled<O: Sink>(out: &mut O, v: View<'_>, d: i64) -> Result<(), Stop<O::Full>> {
    for &t in v.toks {
        out.tok(t).map_err(Stop::Full)?;
    }
    for (&s, &r) in v.shape.iter().zip(v.stride) {
        out.leaf(s, mul(Kernel::Compose.op(), r, d)?)
            .map_err(Stop::Full)?;
    }
    Ok(())
}

/// CuTe's blocked (`raked == false`) or raked product in one pass, written to `out` (an empty
/// layout), where it is the zip of `a ⊗ b = (a, A* ∘ b)` with a linear `A*` (so `A* ∘ b` is `b`
/// with its strides scaled): both operands of the same rank (no padding) and the zip's first
/// operand a tuple. `None`, with `out` untouched, where the general path must run; the errors
/// are those of the general path, in its order.
#[inline]
fn rank_product_fused_lists<const N: usize>(
    a: &Layout,
    b: &Layout,
    raked: bool,
    out: &mut Layout,
) -> Option<Result<(), LayoutError>> {
    let d = match rank_product_scale::<N>(a, b, raked)? {
        Err(e) => return Some(Err(e)),
        Ok(d) => d,
    };
    Some(growable(zip_scaled(a, b, d, raked, out)).and_then(|()| out.check(Kernel::Product.op())))
}

/// Whether the fused blocked/raked product applies (`None` where the general path must run)
/// and, if so, the stride `d` of its linear complement (or the general path's error).
#[inline(always)]
fn rank_product_scale<const N: usize>(
    a: &Layout,
    b: &Layout,
    raked: bool,
) -> Option<Result<i64, LayoutError>> {
    let first = if raked { b } else { a };
    if first.is_leaf() || a.rank() != b.rank() {
        return None;
    }
    match bounded_first(
        &mut (),
        |_| linear_product_complement::<Bounded<N>>(a.view(), b.view()),
        |_| {},
        |_| linear_product_complement::<Growable>(a.view(), b.view()),
    ) {
        Err(e) => Some(Err(e)),
        Ok(None) => None,
        Ok(Some(d)) => Some(Ok(d)),
    }
}

/// [`rank_product_fused`] returning the layout, written to arrays ([`Buf`]) that become it by
/// value (into a layout if they fill up); `None` where the general path must run.
#[inline(always)]
pub(crate) fn rank_product_value(
    a: &Layout,
    b: &Layout,
    raked: bool,
) -> Option<Result<Layout, LayoutError>> {
    let d = match rank_product_scale::<BOUNDED>(a, b, raked)? {
        Err(e) => return Some(Err(e)),
        Ok(d) => d,
    };
    let op = Kernel::Product.op();
    let mut buf = Buf::new();
    Some(match zip_scaled(a, b, d, raked, &mut buf) {
        Ok(()) => buf.check(op).map(|()| buf.layout()),
        Err(Stop::Err(e)) => Err(e),
        Err(Stop::Full(Full)) => super::in_place(|out| {
            growable(zip_scaled(a, b, d, raked, out))?;
            out.check(op)
        }),
    })
}

/// [`rank_product_fused_lists`] with bounded lists of [`BOUNDED`] entries (tests use smaller ones).
pub(crate) fn rank_product_fused(
    a: &Layout,
    b: &Layout,
    raked: bool,
    out: &mut Layout,
) -> Option<Result<(), LayoutError>> {
    rank_product_fused_lists::<BOUNDED>(a, b, raked, out)
}

/// The stride of the product complement of `a` and `b` when it has at most one mode (`0` for
/// none), `None` when it has more.
#[inline(always)]
fn linear_product_complement<S: Lists>(
    a: View<'_>,
    b: View<'_>,
) -> Result<Option<i64>, Stop<S::Full>> {
    let mut comp = S::Modes::empty();
    product_complement(a, b, &mut comp)?;
    Ok((comp.len() <= 1).then(|| comp.first().map_or(0, |m| m.1)))
}

/// `((a_0, b_0 d), (a_1, b_1 d), ...)` (raked: `((b_0 d, a_0), ...)`), for `a` and `b` of the
/// same rank; `b`'s strides multiplied by `d`. (Two flat tuples whose complement is compact are
/// answered before the kernels run, by `linear_product::rank_product`.)
fn zip_scaled<O: Sink>(
    a: &Layout,
    b: &Layout,
    d: i64,
    raked: bool,
    out: &mut O,
) -> Result<(), Stop<O::Full>> {
    out.tok(Tok::Open).map_err(Stop::Full)?;
    let (av, bv) = (a.view(), b.view());
    for (sa, sb) in tree::modes(&a.toks).zip(tree::modes(&b.toks)) {
        out.tok(Tok::Open).map_err(Stop::Full)?;
        if raked {
            push_view_scaled(out, bv.span(sb), d)?;
            out.view(av.span(sa)).map_err(Stop::Full)?;
        } else {
            out.view(av.span(sa)).map_err(Stop::Full)?;
            push_view_scaled(out, bv.span(sb), d)?;
        }
        out.tok(Tok::Close).map_err(Stop::Full)?;
    }
    out.tok(Tok::Close).map_err(Stop::Full)?;
    Ok(())
}

/// CuTe's zipped divide by a flat tuple of layout or integer tilers in one pass, written to
/// `out` (an empty layout), where every divided mode of `a` is linear (one mode after
/// coalesce_x, so that its divide is `(t d, complement(t, size) d)`):
/// `((t_0 d_0, ...), (c_0 d_0, ..., rest...))`. `None`, with `out` untouched, where the general
/// path must run; the errors are those of the general path, in its order.
#[inline]
fn zipped_divide_fused_lists<const N: usize>(
    a: &Layout,
    ts: &[Tiler],
    out: &mut Layout,
) -> Option<Result<(), LayoutError>> {
    if !zipped_fuses(a, ts) {
        return None;
    }
    let reset = truncate_to(out);
    match bounded_first(
        out,
        |out| zipped_with::<Bounded<N>, Layout>(a, ts, out),
        reset,
        |out| zipped_with::<Growable, Layout>(a, ts, out),
    ) {
        Ok(None) => None,
        Ok(Some(())) => Some(Ok(())),
        Err(e) => Some(Err(e)),
    }
}

/// Whether the fused zipped divide may apply: a flat tuple of layout or integer tilers no
/// longer than `a`'s rank.
#[inline]
fn zipped_fuses(a: &Layout, ts: &[Tiler]) -> bool {
    rank_at_least(a, ts.len())
        && ts
            .iter()
            .all(|t| matches!(t, Tiler::Layout(_) | Tiler::Int(_)))
}

/// [`zipped_divide_fused`] returning the layout, written to arrays ([`Buf`]) that become it by
/// value; `None` where the general path must run or the arrays or a list fill up (the general
/// entry then runs the fused kernel into a layout).
#[inline(always)]
pub(crate) fn zipped_divide_value(a: &Layout, ts: &[Tiler]) -> Option<Result<Layout, LayoutError>> {
    if a.shape.len() > BOUNDED || !zipped_fuses(a, ts) {
        return None;
    }
    let mut buf = Buf::new();
    match zipped_with::<Bounded<BOUNDED>, Buf>(a, ts, &mut buf) {
        Ok(None) | Err(Stop::Full(Full)) => None,
        Ok(Some(())) => Some(Ok(buf.layout())),
        Err(Stop::Err(e)) => Some(Err(e)),
    }
}

/// [`zipped_divide_fused_lists`] with bounded lists of [`BOUNDED`] entries (tests use smaller
/// ones).
pub(crate) fn zipped_divide_fused(
    a: &Layout,
    ts: &[Tiler],
    out: &mut Layout,
) -> Option<Result<(), LayoutError>> {
    zipped_divide_fused_lists::<BOUNDED>(a, ts, out)
}

/// [`zipped_divide_fused`] on the working lists `S`: `Ok(None)`, with `out` untouched, where
/// the general path must run.
#[inline(always)]
fn zipped_with<S: Lists, O: Sink>(
    a: &Layout,
    ts: &[Tiler],
    out: &mut O,
) -> Result<Option<()>, Stop<S::Full>>
where
    O::Full: Into<S::Full>,
{
    let full = |f: O::Full| Stop::Full(f.into());
    let whole = Span::whole(a);
    let view = a.view();
    let op = Kernel::Compose.op();
    // Pass 1: per divided mode its scale d and its complement's modes (all in one buffer).
    let mut scale = S::Scale::empty(); // (d, end of its modes in `comps`)
    let mut comps = S::Modes::empty();
    let mut modes = tree::modes(&a.toks);
    for t in ts {
        let Some(m) = modes.next() else {
            return Ok(None);
        };
        let m = view.span(m.offset(whole));
        let Some(d) = linear_stride_x(m.shape, m.stride) else {
            return Ok(None);
        };
        let pass = with_tiler_view(t, |t| -> Result<(), Stop<S::Full>> {
            let mut comp = S::Modes::empty();
            tile_complement(t, m.size(), &mut comp)?;
            for &r in t.stride {
                mul(op, r, d)?;
            }
            for &(_, r) in comp.iter() {
                mul(op, r, d)?;
            }
            for &c in comp.iter() {
                comps.add(c)?;
            }
            Ok(())
        });
        // A tiler other than a layout or an integer takes the general path.
        let Some(pass) = pass else {
            return Ok(None);
        };
        pass?;
        scale.add((d, comps.len()))?;
    }
    // Pass 2: write (products known not to overflow).
    out.tok(Tok::Open).map_err(full)?;
    out.tok(Tok::Open).map_err(full)?;
    for (t, &(d, _)) in ts.iter().zip(scale.iter()) {
        with_tiler_view(t, |t| push_view_scaled(out, t, d))
            .ok_or_else(|| Stop::Err(not_kernel_tiler(op)))?
            .map_err(Stop::lift)?;
    }
    out.tok(Tok::Close).map_err(full)?;
    out.tok(Tok::Open).map_err(full)?;
    let mut start = 0;
    for &(d, end) in scale.iter() {
        push_flat_scaled(out, &comps[start..end], d).map_err(Stop::lift)?;
        start = end;
    }
    for m in modes {
        out.view(view.span(m.offset(whole))).map_err(full)?;
    }
    out.tok(Tok::Close).map_err(full)?;
    out.tok(Tok::Close).map_err(full)?;
    out.check(Kernel::Divide.op())?;
    Ok(Some(()))
}

/// `f` of a layout or integer tiler (divides: `n` is `n:1`, `1:0` for 1) as a view; `None`
/// for `_` or a tuple.
#[inline]
fn with_tiler_view<R>(t: &Tiler, f: impl FnOnce(View<'_>) -> R) -> Option<R> {
    match t {
        Tiler::Layout(l) => Some(f(l.view())),
        Tiler::Int(n) => Some(with_int_view(*n, true, f)),
        Tiler::Skip | Tiler::Modes(_) => None,
    }
}

/// The flat modes of `complement(t, size)` (checked as the complement of a divide is), with the
/// common contiguous tile `n:1` (`n > 1`) done directly: its complement is `ceil(size / n):n`
/// (nothing when that extent is 1), exactly what the general algorithm gives for it.
#[inline]
fn tile_complement<L: List<(i64, i64)>>(
    t: View<'_>,
    size: i64,
    comp: &mut L,
) -> Result<(), Stop<L::Full>> {
    match (t.shape, t.stride) {
        (&[n], &[1]) if n > 1 && size >= 1 => {
            let rest = super::ceil_div(size, n);
            if rest != 1 {
                comp.add((rest, n))?;
            }
        }
        _ => {
            let mut f = L::empty();
            filter_leaves(t.shape, t.stride, &mut f).map_err(Stop::Full)?;
            complement_modes(&f, &[size], comp)?;
        }
    }
    Ok(check_flat("complement", comp)?)
}

/// The kernels on bounded working lists too small for their inputs (capacities 1, 2 and 3:
/// they fill up and start over with growable lists, at every point of the algorithms) against
/// the production capacity, which these inputs never fill: the same layout (text and tree) or
/// the same error, for every entry point, on random layouts and tilers.
/// `a ⊘ t` for a layout tiler: `a ∘ (t, complement(t, shape(coalesce(a))))`, without building
/// the coalesced layout, its shape or a copy of `t`.
pub(crate) fn divide_by_layout(a: &Layout, t: &Layout) -> Result<Layout, LayoutError> {
    let mut coalesced = super::Modes::new();
    let Ok(()) = super::coalesce::coalesce_leaves_into(&a.shape, &a.stride, None, &mut coalesced);
    let mut cotarget: tree::Leaves<i64> = coalesced.iter().map(|m| m.0).collect();
    if cotarget.is_empty() {
        cotarget.push(1); // coalesce gives 1:0
    }
    let comp = super::complement::complement_leaves(t, &cotarget)?;
    let mut rhs = LayoutBuilder::new();
    rhs.open();
    rhs.push(t);
    rhs.push(&comp);
    rhs.close();
    a.compose(&rhs.finish("make_layout")?)
}

/// `a ⊗ b` for a layout tiler: `(a, complement(a, size(a) * cosize(b)) ∘ b)`, gathered in place
/// (no copy of `a`).
pub(crate) fn product_by_layout(a: &Layout, b: &Layout) -> Result<Layout, LayoutError> {
    // The product's chain (no coverage check; an `m` past i64 saturated): see
    // `complement::product_complement_modes`.
    let (m, m_is_floor) = match i64::try_from(b.cosize())
        .ok()
        .and_then(|c| a.size().checked_mul(c))
    {
        Some(m) => (m, false),
        None => (i64::MAX, true),
    };
    let comp = super::complement::product_complement(a, m, m_is_floor)?;
    let mut out = LayoutBuilder::new();
    out.open();
    out.push(a);
    out.push(&comp.compose(b)?);
    out.close();
    out.finish("make_layout")
}

impl Layout {
    /// Composition with a tiler (CuTe `composition(layout, tiler)`): a layout tiler composes the
    /// whole layout; `_` keeps it; a tuple tiler composes mode `i` with element `i` and drops the
    /// modes past the tiler.
    ///
    /// # Laws
    /// * For a tuple tiler, mode `i` of the result is `self.mode(i) ∘ tiler[i]` (with its law).
    ///
    /// # Errors
    /// [`LayoutError::RankMismatch`] if the tiler has more modes than `self`, and the errors of
    /// [`Layout::compose`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{Layout, Tiler};
    /// let a: Layout = "(12,(4,8)):(59,(13,1))".parse()?; // 02_layout_algebra.md, by-mode composition
    /// let t: Tiler = "<3:4,8:2>".parse()?;
    /// assert_eq!(a.compose_tiler(&t)?.to_string(), "(3,(2,4)):(236,(26,1))");
    /// let s: Tiler = "(3,8)".parse()?;
    /// assert_eq!(a.compose_tiler(&s)?.to_string(), "(3,(4,2)):(59,(13,1))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "composition")]
    #[inline]
    pub fn compose_tiler(&self, tiler: &Tiler) -> Result<Layout, LayoutError> {
        let ts = match tiler {
            Tiler::Layout(t) => return self.compose(t),
            Tiler::Modes(ts) => ts,
            _ => return super::kernels::run_value(super::kernels::Kernel::Compose, self, tiler),
        };
        let mut buf = Buf::new();
        if compose_modes_fast(self, ts, &mut buf).is_some() {
            // The full check: each mode's size fits, their product may not.
            Sink::check(&buf, OP)?;
            return Ok(buf.layout());
        }
        super::kernels::run_value(super::kernels::Kernel::Compose, self, tiler)
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::ToString;

    use super::super::composition::compose_modes_fast;
    use super::super::testing::{layout_of, small_modes, Rng};
    use super::*;

    fn tiler(rng: &mut Rng, rank: usize) -> Tiler {
        match rng.next(4) {
            0 => Tiler::Int(1 + rng.next(8) as i64),
            1 => Tiler::Layout(rng.layout(4, 1 << 24)),
            _ => {
                let n = 1 + rng.next(rank as u64) as usize;
                Tiler::Modes(
                    (0..n)
                        .map(|_| match rng.next(5) {
                            0 => Tiler::Skip,
                            1 | 2 => Tiler::Int(1 + rng.next(8) as i64),
                            _ => Tiler::Layout(rng.layout(3, 1 << 24)),
                        })
                        .collect(),
                )
            }
        }
    }

    fn same_layout(
        what: &str,
        want: &Result<(), LayoutError>,
        want_l: &Layout,
        got: Result<(), LayoutError>,
        got_l: &Layout,
    ) {
        match (want, got) {
            (Ok(()), Ok(())) => {
                assert_eq!(got_l.to_string(), want_l.to_string(), "{what}");
                assert!(got_l == want_l, "{what}: same text, different tree");
            }
            (Err(w), Err(g)) => assert_eq!(g, *w, "{what}"),
            (w, g) => panic!("{what}: {w:?} against {g:?}"),
        }
    }

    fn same_option(
        what: &str,
        want: &Option<Result<(), LayoutError>>,
        want_l: &Layout,
        got: Option<Result<(), LayoutError>>,
        got_l: &Layout,
    ) {
        match (want, got) {
            (None, None) => assert!(got_l.toks.is_empty(), "{what}: out written"),
            (Some(w), Some(g)) => same_layout(what, w, want_l, g, got_l),
            (w, g) => panic!("{what}: {w:?} against {g:?}"),
        }
    }

    /// Every entry point at capacity `N` against the production capacity.
    fn check<const N: usize>(a: &Layout, b: &Layout, t: &Tiler, oks: &mut usize) {
        let fresh = Layout::building;
        for kernel in [Kernel::Divide, Kernel::Product, Kernel::Compose] {
            if !covers(a, t) {
                continue;
            }
            let (mut w, mut g) = (fresh(), fresh());
            let want = run(kernel, a, t, &mut w);
            *oks += usize::from(want.is_ok());
            let got = run_lists::<N>(kernel, a, t, &mut g);
            same_layout(
                &alloc::format!("{} {a} {t} ({N})", kernel.op()),
                &want,
                &w,
                got,
                &g,
            );
        }
        let (mut w, mut g) = (fresh(), fresh());
        let want = product_layout_into(a, b, &mut w);
        let got = product_layout_into_lists::<N>(a, b, &mut g);
        same_layout(&alloc::format!("product {a} {b} ({N})"), &want, &w, got, &g);
        for raked in [false, true] {
            let (mut w, mut g) = (fresh(), fresh());
            let want = rank_product_fused(a, b, raked, &mut w);
            let got = rank_product_fused_lists::<N>(a, b, raked, &mut g);
            same_option(
                &alloc::format!("rank product {a} {b} ({N})"),
                &want,
                &w,
                got,
                &g,
            );
        }
        if let Tiler::Modes(ts) = t {
            let (mut w, mut g) = (fresh(), fresh());
            let want = zipped_divide_fused(a, ts, &mut w);
            let got = zipped_divide_fused_lists::<N>(a, ts, &mut g);
            same_option(
                &alloc::format!("zipped divide {a} {t} ({N})"),
                &want,
                &w,
                got,
                &g,
            );
        }
    }

    /// A value form against the entry that writes into a layout.
    fn same_value(
        what: &str,
        want: Result<(), LayoutError>,
        want_l: &Layout,
        got: Result<Layout, LayoutError>,
    ) {
        match got {
            Ok(l) => same_layout(what, &want, want_l, Ok(()), &l),
            Err(e) => same_layout(what, &want, want_l, Err(e), want_l),
        }
    }

    /// The results written to arrays (`Buf`, the value forms the public operations use) against
    /// the same entry points writing into a layout: the same layout (text and tree) or error, on
    /// random layouts and tilers large enough that the arrays often fill up (the value forms
    /// then start over on a layout). Counts the runs on arrays that finished and that filled up.
    #[test]
    fn results_on_arrays_agree_with_results_in_a_layout() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let (mut finished, mut filled) = (0usize, 0usize);
        for _ in 0..6_000 {
            let a = rng.layout(20, 1 << 24);
            let b = rng.layout(8, 1 << 24);
            let t = tiler(&mut rng, a.rank());
            for kernel in [Kernel::Divide, Kernel::Product, Kernel::Compose] {
                let what = alloc::format!("{} {a} {t}", kernel.op());
                let mut w = Layout::building();
                let want = run(kernel, &a, &t, &mut w);
                same_value(&what, want.clone(), &w, run_value(kernel, &a, &t));
                if covers(&a, &t) {
                    let mut buf = Buf::new();
                    match by_kernel::<Bounded<BOUNDED>, Buf>(kernel, &a, &t, &mut buf) {
                        Ok(()) => {
                            finished += 1;
                            let got = buf.check(kernel.op()).map(|()| buf.layout());
                            same_value(&what, want, &w, got);
                        }
                        Err(Stop::Err(e)) => same_layout(&what, &want, &w, Err(e), &w),
                        Err(Stop::Full(Full)) => filled += 1,
                    }
                }
            }
            for raked in [false, true] {
                let what = alloc::format!("rank product ({raked}) {a} {b}");
                let mut w = Layout::building();
                let want = rank_product_fused(&a, &b, raked, &mut w);
                match (want, rank_product_value(&a, &b, raked)) {
                    (None, None) => {}
                    (Some(want), Some(got)) => same_value(&what, want, &w, got),
                    (w, g) => panic!("{what}: {w:?} against {g:?}"),
                }
            }
            if let Tiler::Modes(ts) = &t {
                let what = alloc::format!("zipped divide {a} {t}");
                let mut w = Layout::building();
                let want = zipped_divide_fused(&a, ts, &mut w);
                match (want, zipped_divide_value(&a, ts)) {
                    (_, None) => {} // the entry then runs the fused kernel into a layout
                    (Some(want), Some(got)) => same_value(&what, want, &w, got),
                    (None, Some(g)) => panic!("{what}: general path against {g:?}"),
                }
            }
        }
        assert!(
            finished > 5_000 && filled > 200,
            "runs on arrays finished {finished}, filled up {filled}"
        );
    }

    #[test]
    fn bounded_lists_that_fill_up_agree_with_the_production_capacity() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut oks = 0usize;
        for _ in 0..6_000 {
            let a = rng.layout(10, 1 << 24);
            let b = rng.layout(6, 1 << 24);
            let t = tiler(&mut rng, a.rank());
            check::<1>(&a, &b, &t, &mut oks);
            check::<2>(&a, &b, &t, &mut oks);
            check::<3>(&a, &b, &t, &mut oks);
        }
        assert!(oks > 5_000, "{oks} kernel runs succeeded");
    }

    /// Tilers the kernels do not take, handed to them directly (`covers` and `zipped_fuses`
    /// never do): a typed error from the by-mode kernel, the general path from the fused
    /// zipped divide, and no panic.
    #[test]
    fn tilers_outside_the_kernels_are_an_error_or_the_general_path() {
        let a: Layout = "(4,6):(1,4)".parse().unwrap();
        let nested: Tiler = "(2,(3,2))".parse().unwrap();
        assert!(!covers(&a, &nested));
        for kernel in [Kernel::Divide, Kernel::Product, Kernel::Compose] {
            let mut out = Layout::building();
            let r = by_kernel::<Growable, Layout>(kernel, &a, &nested, &mut out);
            assert!(
                matches!(r, Err(Stop::Err(LayoutError::InvalidArgument { .. }))),
                "{}",
                kernel.op()
            );
        }
        let skip: Tiler = "(2,_)".parse().unwrap();
        let Tiler::Modes(ts) = &skip else {
            panic!("{skip:?} is a tuple tiler")
        };
        let mut out = Layout::building();
        let r = zipped_with::<Growable, Layout>(&a, ts, &mut out);
        assert!(matches!(r, Ok(None)));
        assert!(out.toks.is_empty() && out.shape.is_empty());
    }

    /// The by-mode fast path of `compose_tiler` against the kernels (bounded lists, into a
    /// layout): where it answers, the same layout (text and tree) or the same error from the
    /// check of the result; where it declines, nothing to compare. On every pair of one- and
    /// two-mode layouts of small modes with every integer tiler pair, and on random nested
    /// layouts with random tuple tilers.
    #[test]
    fn modes_fast_path_agrees_with_the_kernels() {
        use super::super::kernels::{run, Kernel};
        let mut answered = 0usize;
        let mut compare = |a: &Layout, t: &Tiler| {
            let Tiler::Modes(ts) = t else { unreachable!() };
            let mut buf = Buf::new();
            if compose_modes_fast(a, ts, &mut buf).is_none() {
                return;
            }
            answered += 1;
            let fast = Sink::check(&buf, OP).map(|()| buf.layout());
            let slow = super::super::in_place(|out| run(Kernel::Compose, a, t, out));
            match (&fast, &slow) {
                (Ok(f), Ok(s)) => {
                    assert_eq!(f.to_string(), s.to_string(), "{a} o {t}");
                    assert!(f == s, "{a} o {t}: same text, different tree");
                }
                (Err(f), Err(s)) => assert_eq!(f, s, "{a} o {t}"),
                _ => panic!("{a} o {t}: fast {fast:?}, kernels {slow:?}"),
            }
        };
        let modes = small_modes();
        for &m0 in &modes {
            for &m1 in modes.iter().step_by(5) {
                let a = layout_of(&[m0, m1], 0);
                for n0 in -1..=5 {
                    for n1 in [1, 2, 3, 4] {
                        compare(
                            &a,
                            &Tiler::Modes(alloc::vec![Tiler::Int(n0), Tiler::Int(n1)]),
                        );
                    }
                    compare(&a, &Tiler::Modes(alloc::vec![Tiler::Skip, Tiler::Int(n0)]));
                }
            }
        }
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..30_000 {
            let a = rng.layout(10, 1 << 30);
            let t = random_tiler(&mut rng, &a);
            compare(&a, &t);
        }
        assert!(answered > 20_000, "fast path answered {answered} times");
    }

    /// A random tuple tiler for `a`: layouts, integers (0 and negatives included) and `_`,
    /// sometimes a nested element or one element more than `a`'s rank.
    fn random_tiler(rng: &mut Rng, a: &Layout) -> Tiler {
        let rank = a.rank();
        let len = 1 + rng.next(rank as u64 + 1) as usize; // up to rank + 1
        let ts = (0..len)
            .map(|_| match rng.next(16) {
                0 => Tiler::Skip,
                1..=3 => Tiler::Int(rng.next(10) as i64 - 2),
                4 => Tiler::Modes(alloc::vec![Tiler::Int(2)]),
                _ => Tiler::Layout(rng.layout(4, 64)),
            })
            .collect();
        Tiler::Modes(ts)
    }
}
