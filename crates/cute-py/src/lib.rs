//! Python bindings of `cute-layout`: the native module `cute_layout._native`.
//!
//! This crate holds no algebra. It converts Python values (ints, nested tuples, `None`, layout
//! objects, CuTe's text) into `cute_layout` values, calls the library, and converts the results
//! back; everything else goes through the operation table of `cute_ops` (`cute_ops::run`), so every
//! operation any front end has is reachable from Python.
#![deny(unsafe_code)]

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use cute_layout::atom::TiledMma;
use cute_layout::render::{self, Style};
use cute_layout::{
    ComposedLayout, IntTuple, IntTupleBuilder, Layout, LayoutError as RsLayoutError,
    ParseError as RsParseError, ScaledBasis, SliceCoord, Swizzle, Tiler, TupleToken,
};
use cute_ops::table::{Arity, Kind};
use cute_ops::value::Value;
use cute_ops::{Arg, OpError};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyInt, PyList, PyString, PyTuple};
use pyo3::{create_exception, IntoPyObjectExt};

create_exception!(
    cute_layout,
    LayoutError,
    PyValueError,
    "An input outside an operation's domain. `.kind` names the variant (as `cute batch` does)."
);
create_exception!(
    cute_layout,
    ParseError,
    LayoutError,
    "Text that is not CuTe's layout notation. `.kind` is \"ParseError\"."
);

/// Deepest nesting of Python tuples converted (the library's own limit is lower).
const MAX_PY_DEPTH: usize = 64;

// ---- errors ------------------------------------------------------------------------------------

fn raise(kind: &str, message: String) -> PyErr {
    let err = if kind == "ParseError" {
        ParseError::new_err(message)
    } else {
        LayoutError::new_err(message)
    };
    Python::attach(|py| {
        // Setting an attribute on a fresh exception object cannot fail.
        let _ = err.value(py).setattr("kind", kind);
    });
    err
}

fn lerr(e: RsLayoutError) -> PyErr {
    raise(e.kind(), e.to_string())
}

fn perr(e: RsParseError) -> PyErr {
    raise("ParseError", e.to_string())
}

fn operr(e: OpError) -> PyErr {
    raise(e.kind, e.message)
}

trait OrRaise<T> {
    fn py(self) -> PyResult<T>;
}

impl<T> OrRaise<T> for Result<T, RsLayoutError> {
    #[inline]
    fn py(self) -> PyResult<T> {
        self.map_err(lerr)
    }
}

impl<T> OrRaise<T> for Result<T, RsParseError> {
    #[inline]
    fn py(self) -> PyResult<T> {
        self.map_err(perr)
    }
}

/// A value nested past [`MAX_PY_DEPTH`] levels.
fn too_deep(what: &str) -> PyErr {
    raise(
        "TooDeep",
        format!("{what} nests deeper than {MAX_PY_DEPTH} levels"),
    )
}

fn type_error(what: &str, x: &Bound<'_, PyAny>) -> PyErr {
    let ty = x
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    PyTypeError::new_err(format!("{what}: unsupported argument of type {ty}"))
}

// ---- Python values -> library values -----------------------------------------------------------

/// A Python integer (bools refused) as an i64, if `x` is one.
#[inline]
fn as_int(x: &Bound<'_, PyAny>) -> PyResult<Option<i64>> {
    if let Ok(i) = x.cast::<PyInt>() {
        if x.is_instance_of::<PyBool>() {
            return Err(PyTypeError::new_err("a bool is not an integer here"));
        }
        return Ok(Some(i.extract::<i64>()?));
    }
    if x.is_instance_of::<PyTuple>()
        || x.is_instance_of::<PyList>()
        || x.is_instance_of::<PyString>()
        || x.is_none()
    {
        return Ok(None);
    }
    // numpy integers and other objects with __index__.
    if x.hasattr("__index__")? {
        return Ok(Some(x.extract::<i64>()?));
    }
    Ok(None)
}

/// An int, a (nested) tuple or list of ints, or CuTe's text, as an `IntTuple`. With `ones`, every
/// leaf becomes 1 (the all-ones shape congruent to `x`).
fn to_tuple_ext(x: &Bound<'_, PyAny>, depth: usize, ones: bool) -> PyResult<IntTuple> {
    if x.is_exact_instance_of::<PyInt>() {
        return Ok(IntTuple::int(if ones { 1 } else { x.extract::<i64>()? }));
    }
    if let Ok(s) = x.cast::<PyString>() {
        let t = s.to_cow()?.parse::<IntTuple>().py()?;
        if !ones {
            return Ok(t);
        }
        let mut b = IntTupleBuilder::new();
        for tok in t.tokens() {
            match tok {
                TupleToken::Open => b.open(),
                TupleToken::Close => b.close(),
                TupleToken::Int(_) => b.int(1),
            }
        }
        return b.finish().py();
    }
    let mut b = IntTupleBuilder::new();
    build(x, &mut b, depth, ones, &mut true)?;
    b.finish().py()
}

/// Writes the tokens of a Python int or nested tuple/list of ints into `b`.
fn build(
    x: &Bound<'_, PyAny>,
    b: &mut IntTupleBuilder,
    depth: usize,
    ones: bool,
    pure: &mut bool,
) -> PyResult<()> {
    if x.is_exact_instance_of::<PyInt>() {
        b.int(if ones { 1 } else { x.extract::<i64>()? });
        return Ok(());
    }
    if depth > MAX_PY_DEPTH {
        return Err(too_deep("tuple"));
    }
    if let Ok(t) = x.cast::<PyTuple>() {
        b.open();
        for e in t.iter_borrowed() {
            build(&e, b, depth + 1, ones, pure)?;
        }
        b.close();
        return Ok(());
    }
    if let Ok(l) = x.cast::<PyList>() {
        *pure = false;
        b.open();
        for e in l.iter() {
            build(&e, b, depth + 1, ones, pure)?;
        }
        b.close();
        return Ok(());
    }
    *pure = false;
    match as_int(x)? {
        Some(v) => {
            b.int(if ones { 1 } else { v });
            Ok(())
        }
        None => Err(type_error(
            "expected an int, a tuple of ints or CuTe text",
            x,
        )),
    }
}

/// An int or a tuple of ints and tuples (nothing mutable inside) as an `IntTuple`, and whether
/// it is such an immutable value (so that the object's identity determines the value).
fn to_tuple_frozen(x: &Bound<'_, PyAny>) -> PyResult<(IntTuple, bool)> {
    if x.is_exact_instance_of::<PyInt>() {
        return Ok((IntTuple::int(x.extract::<i64>()?), true));
    }
    if !x.is_exact_instance_of::<PyTuple>() {
        return Ok((to_tuple(x)?, false));
    }
    let mut b = IntTupleBuilder::new();
    let mut pure = true;
    build(x, &mut b, 0, false, &mut pure)?;
    Ok((b.finish().py()?, pure))
}

/// Layouts built from `(shape, stride)` Python values, keyed by the identity of the two
/// (immutable) objects, which the cache holds so that their identities stay theirs: a call
/// repeated on the same tuples (pycute's `crd2idx(c, L.shape, L.stride)`) converts them once.
/// The objects live as long as the entry (8 at most, oldest out first).
struct IdCache<T> {
    entries: Vec<IdEntry<T>>,
    next: usize,
}

/// The two keys (held) and the value.
type IdEntry<T> = (Py<PyAny>, Option<Py<PyAny>>, T);

const ID_CACHE_LEN: usize = 8;

impl<T: Clone> IdCache<T> {
    const fn new() -> Self {
        IdCache {
            entries: Vec::new(),
            next: 0,
        }
    }

    fn find(&self, a: &Bound<'_, PyAny>, b: Option<&Bound<'_, PyAny>>) -> Option<&T> {
        self.entries
            .iter()
            .find(|(x, y, _)| {
                x.is(a)
                    && match (y, b) {
                        (None, None) => true,
                        (Some(y), Some(b)) => y.is(b),
                        _ => false,
                    }
            })
            .map(|(_, _, v)| v)
    }

    fn get(&self, a: &Bound<'_, PyAny>, b: Option<&Bound<'_, PyAny>>) -> Option<T> {
        self.find(a, b).cloned()
    }

    /// Adds an entry; returns the one it evicts, for the caller to drop once the cache's lock
    /// is released (dropping Python objects may run Python code, which may call back in here).
    #[must_use]
    fn put(
        &mut self,
        a: &Bound<'_, PyAny>,
        b: Option<&Bound<'_, PyAny>>,
        v: T,
    ) -> Option<IdEntry<T>> {
        let e = (a.clone().unbind(), b.map(|b| b.clone().unbind()), v);
        if self.entries.len() < ID_CACHE_LEN {
            self.entries.push(e);
            return None;
        }
        // `next < ID_CACHE_LEN == entries.len()`: the slot exists.
        let slot = self.entries.get_mut(self.next)?;
        self.next = (self.next + 1) % ID_CACHE_LEN;
        Some(std::mem::replace(slot, e))
    }
}

static LAYOUT_CACHE: Mutex<IdCache<Layout>> = Mutex::new(IdCache::new());
static TILER_CACHE: Mutex<IdCache<Tiler>> = Mutex::new(IdCache::new());

/// Whether a tiler value is immutable all the way down (exact tuples of `Layout`s, ints, `None`
/// and such tuples), so that its identity determines it.
fn frozen_tiler(x: &Bound<'_, PyAny>, depth: usize) -> bool {
    if x.is_exact_instance_of::<PyLayout>() || x.is_exact_instance_of::<PyInt>() || x.is_none() {
        return true;
    }
    depth < MAX_PY_DEPTH
        && x.cast_exact::<PyTuple>()
            .is_ok_and(|t| t.iter_borrowed().all(|e| frozen_tiler(&e, depth + 1)))
}

/// Runs `f` on the tiler that `x` denotes: for a tuple seen before (the same immutable object),
/// on the cached conversion in place, else on a fresh one (cached if `x` is immutable).
fn with_tiler<R>(x: &Bound<'_, PyAny>, f: impl Fn(&Tiler) -> R) -> PyResult<R> {
    if !x.is_exact_instance_of::<PyTuple>() {
        return Ok(f(&to_tiler(x, 0)?));
    }
    if let Ok(cache) = TILER_CACHE.lock() {
        if let Some(t) = cache.find(x, None) {
            return Ok(f(t));
        }
    }
    let t = to_tiler(x, 0)?;
    let r = f(&t);
    if frozen_tiler(x, 0) {
        let _evicted = TILER_CACHE.lock().ok().and_then(|mut c| c.put(x, None, t));
    }
    Ok(r)
}
static TUPLE_CACHE: Mutex<IdCache<IntTuple>> = Mutex::new(IdCache::new());

/// `Layout::new(shape, stride)` (or the column-major layout of `shape`) from Python values,
/// through the identity cache.
fn layout_from_values(
    shape: &Bound<'_, PyAny>,
    stride: Option<&Bound<'_, PyAny>>,
) -> PyResult<Layout> {
    if let Ok(c) = LAYOUT_CACHE.lock() {
        if let Some(l) = c.get(shape, stride) {
            return Ok(l);
        }
    }
    let (s, s_pure) = to_tuple_frozen(shape)?;
    let (l, pure) = match stride {
        None => (Layout::col_major(s).py()?, s_pure),
        Some(d) => {
            let (d, d_pure) = to_tuple_frozen(d)?;
            (Layout::new(s, d).py()?, s_pure && d_pure)
        }
    };
    if pure {
        let _evicted = LAYOUT_CACHE
            .lock()
            .ok()
            .and_then(|mut c| c.put(shape, stride, l.clone()));
    }
    Ok(l)
}

/// An int tuple from a Python value, through the identity cache.
fn tuple_cached(x: &Bound<'_, PyAny>) -> PyResult<IntTuple> {
    if x.is_exact_instance_of::<PyInt>() {
        return Ok(IntTuple::int(x.extract::<i64>()?));
    }
    if let Ok(c) = TUPLE_CACHE.lock() {
        if let Some(t) = c.get(x, None) {
            return Ok(t);
        }
    }
    let (t, pure) = to_tuple_frozen(x)?;
    if pure {
        let _evicted = TUPLE_CACHE
            .lock()
            .ok()
            .and_then(|mut c| c.put(x, None, t.clone()));
    }
    Ok(t)
}

/// CuTe's text of a layout, or of a shape (its column-major layout), as the table's grammar
/// reads it (`cute_ops::value::Value`).
fn layout_from_text(text: &str) -> PyResult<Layout> {
    match Value::parse(&Arg::Text(text.to_owned())) {
        Value::Layout(l) => Ok(l),
        Value::Int(n) => Layout::col_major(IntTuple::int(n)).py(),
        Value::Tuple(t) => Layout::col_major(t).py(),
        // Not a layout: the layout parser's error names what is wrong.
        _ => text.parse::<Layout>().py(),
    }
}

/// An optional argument that is given: present and not `None`.
#[inline]
fn given<'a, 'py>(x: Option<&'a Bound<'py, PyAny>>) -> Option<&'a Bound<'py, PyAny>> {
    x.filter(|v| !v.is_none())
}

fn to_tuple(x: &Bound<'_, PyAny>) -> PyResult<IntTuple> {
    to_tuple_ext(x, 0, false)
}

/// A layout argument: a `Layout`, an int `n` (the layout `n:1`, as pycute's `Layout(n)`), a
/// shape tuple (its column-major layout, as CuTe's `make_layout(shape)`), or CuTe's text.
fn to_layout(x: &Bound<'_, PyAny>) -> PyResult<Layout> {
    if let Ok(l) = x.cast::<PyLayout>() {
        return Ok(l.get().inner.clone());
    }
    if let Ok(s) = x.cast::<PyString>() {
        return s.to_cow()?.parse::<Layout>().py();
    }
    let t = to_tuple(x)?;
    Layout::col_major(t).py()
}

/// A layout argument borrowed from a `Layout` object, or converted (see [`to_layout`]). Lives
/// on the stack for one call; boxing the owned case would cost an allocation.
#[allow(clippy::large_enum_variant)]
enum LRef<'a> {
    Borrowed(&'a Layout),
    Owned(Layout),
}

impl std::ops::Deref for LRef<'_> {
    type Target = Layout;
    #[inline]
    fn deref(&self) -> &Layout {
        match self {
            LRef::Borrowed(l) => l,
            LRef::Owned(l) => l,
        }
    }
}

/// As [`to_layout`], without copying a `Layout` object's value.
#[inline]
fn lref<'a>(x: &'a Bound<'_, PyAny>) -> PyResult<LRef<'a>> {
    match x.cast::<PyLayout>() {
        Ok(l) => Ok(LRef::Borrowed(&l.get().inner)),
        Err(_) => Ok(LRef::Owned(to_layout(x)?)),
    }
}

/// A tiler: a `Layout`, an int, `None` (keep the mode), a tuple or list of tilers, or CuTe text.
fn to_tiler(x: &Bound<'_, PyAny>, depth: usize) -> PyResult<Tiler> {
    if let Ok(l) = x.cast::<PyLayout>() {
        return Ok(Tiler::Layout(l.get().inner.clone()));
    }
    if x.is_none() {
        return Ok(Tiler::Skip);
    }
    if let Some(n) = as_int(x)? {
        if n < 1 {
            return Err(raise(
                "InvalidExtent",
                format!("tiler extent {n} is below 1"),
            ));
        }
        return Ok(Tiler::Int(n));
    }
    if depth > MAX_PY_DEPTH {
        return Err(too_deep("tiler"));
    }
    if x.is_instance_of::<PyTuple>() || x.is_instance_of::<PyList>() {
        let modes = x
            .try_iter()?
            .map(|e| to_tiler(&e?, depth + 1))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(Tiler::Modes(modes));
    }
    if let Ok(s) = x.cast::<PyString>() {
        return s.to_cow()?.parse::<Tiler>().py();
    }
    if x.is_instance_of::<PyComposed>() || x.is_instance_of::<PySwizzle>() {
        return Err(raise(
            "BadRequest",
            "a swizzle or composed layout is not a tiler".into(),
        ));
    }
    Err(type_error(
        "expected a tiler (Layout, int, None or a tuple of them)",
        x,
    ))
}

/// A coordinate with `None` for `_`, as a slice coordinate.
fn to_slice(x: &Bound<'_, PyAny>, depth: usize) -> PyResult<SliceCoord> {
    if x.is_none() {
        return Ok(SliceCoord::all());
    }
    if let Some(v) = as_int(x)? {
        // A leaf coordinate: the library builds leaves from text only.
        return v.to_string().parse::<SliceCoord>().py();
    }
    if depth > MAX_PY_DEPTH {
        return Err(too_deep("coordinate"));
    }
    if x.is_instance_of::<PyTuple>() || x.is_instance_of::<PyList>() {
        let elems = x
            .try_iter()?
            .map(|e| to_slice(&e?, depth + 1))
            .collect::<PyResult<Vec<_>>>()?;
        return SliceCoord::tuple(elems).py();
    }
    if let Ok(s) = x.cast::<PyString>() {
        return s.to_cow()?.parse::<SliceCoord>().py();
    }
    Err(type_error("expected a coordinate (ints, None, tuples)", x))
}

fn has_none(x: &Bound<'_, PyAny>, depth: usize) -> bool {
    if x.is_none() {
        return true;
    }
    if depth > MAX_PY_DEPTH {
        return false;
    }
    if let Ok(t) = x.cast::<PyTuple>() {
        return t.iter().any(|e| has_none(&e, depth + 1));
    }
    if let Ok(l) = x.cast::<PyList>() {
        return l.iter().any(|e| has_none(&e, depth + 1));
    }
    false
}

// ---- library values -> Python values -----------------------------------------------------------

fn tuple_to_py<'py>(py: Python<'py>, t: &IntTuple) -> PyResult<Bound<'py, PyAny>> {
    if let Some(v) = t.as_int() {
        return v.into_bound_py_any(py);
    }
    if t.depth() == 1 {
        return Ok(PyTuple::new(py, t.leaves().iter().copied())?.into_any());
    }
    let mut stack: Vec<Vec<Bound<'py, PyAny>>> = Vec::new();
    for tok in t.tokens() {
        match tok {
            TupleToken::Open => stack.push(Vec::new()),
            TupleToken::Int(v) => {
                let o = v.into_bound_py_any(py)?;
                if let Some(top) = stack.last_mut() {
                    top.push(o);
                }
            }
            TupleToken::Close => {
                let items = stack.pop().unwrap_or_default();
                let tup = PyTuple::new(py, items)?.into_any();
                match stack.last_mut() {
                    Some(top) => top.push(tup),
                    None => return Ok(tup),
                }
            }
        }
    }
    Err(raise("BadRequest", format!("malformed tuple {t}")))
}

/// An int tuple result as a Python int or nested tuple.
#[inline]
fn ret_tuple(py: Python<'_>, t: &IntTuple) -> PyResult<Py<PyAny>> {
    Ok(tuple_to_py(py, t)?.unbind())
}

#[inline]
fn new_layout(py: Python<'_>, l: Layout) -> PyResult<Py<PyLayout>> {
    Py::new(py, PyLayout::wrap(l))
}

/// A `Layout` result as a Python object (inlined into every caller, as the conversion it
/// replaces was: out of line it costs a call per result).
#[inline(always)]
fn layout_object(py: Python<'_>, l: Layout) -> PyResult<Py<PyAny>> {
    Ok(new_layout(py, l)?.into_any())
}

/// A `ComposedLayout` result as a Python object.
fn composed_object(py: Python<'_>, c: ComposedLayout) -> PyResult<Py<PyAny>> {
    Ok(Py::new(py, PyComposed { inner: c })?.into_any())
}

/// An operation's text result as a Python value: the text is parsed once by the table's grammar
/// (`cute_ops::value::Value`), and the parsed value becomes a Python object of the first of the
/// op's declared result kinds (`OpSpec::returns`) that it is: a `Layout` (or `BasisLayout` for
/// basis strides), `ComposedLayout`, `Swizzle`, int, bool or (nested) tuple. The other kinds
/// (tables, pictures, tensors, pointers, symbolic and F2 layouts) stay text.
fn from_kinds<'py>(py: Python<'py>, kinds: &[Kind], text: String) -> PyResult<Bound<'py, PyAny>> {
    // One declared kind: the text read as that kind; else (or where it is not that kind, e.g.
    // basis strides for LAYOUT) by the table's grammar.
    let direct = match kinds {
        [Kind::Int | Kind::Bool] => text.trim().parse::<i64>().ok().map(Value::Int),
        [Kind::Layout] => text.parse::<Layout>().ok().map(Value::Layout),
        _ => None,
    };
    let arg = Arg::Text(text);
    let value = direct.unwrap_or_else(|| Value::parse(&arg));
    let mut text = match arg {
        Arg::Text(text) => Some(text),
        _ => None,
    };
    if let Some(o) = from_value(py, kinds, value, &mut text)? {
        return Ok(o);
    }
    text.unwrap_or_default().into_bound_py_any(py)
}

/// The Python object of a parsed result whose kind is among `kinds` (see [`from_kinds`]), or
/// `None` where it is none of them; a `Layout` takes the result's `text` as its own.
fn from_value<'py>(
    py: Python<'py>,
    kinds: &[Kind],
    value: Value,
    text: &mut Option<String>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    for kind in kinds {
        let accepted = match (kind, &value) {
            (Kind::Layout | Kind::Tiler, Value::Layout(_) | Value::BasisLayout(_)) => true,
            (Kind::Composed, Value::Chain(c)) => c.to_composed().is_some(),
            (Kind::Swizzle, Value::Swizzle(_)) => true,
            (
                Kind::Int
                | Kind::Tuple
                | Kind::Shape
                | Kind::Stride
                | Kind::Coord
                | Kind::Profile
                | Kind::Tiler,
                Value::Int(_),
            ) => true,
            (Kind::Bool, Value::Int(0 | 1)) => true,
            (
                Kind::Tuple
                | Kind::Shape
                | Kind::Stride
                | Kind::Coord
                | Kind::Profile
                | Kind::Tiler,
                Value::Tuple(_),
            ) => true,
            // Free text (an op applied to each element, a fixed word): the value it writes,
            // of the kinds a value of the table's grammar has.
            (Kind::Text, _) => {
                return from_value(
                    py,
                    &[
                        Kind::Swizzle,
                        Kind::Composed,
                        Kind::Layout,
                        Kind::Int,
                        Kind::Tuple,
                    ],
                    value,
                    text,
                );
            }
            _ => false,
        };
        if !accepted {
            continue;
        }
        return Ok(Some(match value {
            Value::Layout(l) => match text.take() {
                Some(t) => Py::new(py, PyLayout::with_text(l, t))?
                    .into_bound(py)
                    .into_any(),
                None => new_layout(py, l)?.into_bound(py).into_any(),
            },
            Value::BasisLayout(l) => Py::new(py, PyBasis { inner: *l })?
                .into_bound(py)
                .into_any(),
            Value::Chain(c) => match c.to_composed() {
                Some(c) => Py::new(py, PyComposed { inner: c })?
                    .into_bound(py)
                    .into_any(),
                None => return Ok(None),
            },
            Value::Swizzle(s) => Py::new(py, PySwizzle { inner: s })?
                .into_bound(py)
                .into_any(),
            Value::Int(v) if *kind == Kind::Bool => (v == 1).into_bound_py_any(py)?,
            Value::Int(v) => v.into_bound_py_any(py)?,
            Value::Tuple(t) => tuple_to_py(py, &t)?,
            _ => return Ok(None),
        }));
    }
    Ok(None)
}

/// A Python value as an operation argument of the table: objects print in CuTe's text, ints stay
/// ints, `None` is `_`, tuples are written in CuTe's tuple form, lists stay lists.
fn to_arg(x: &Bound<'_, PyAny>, depth: usize) -> PyResult<Arg> {
    if x.is_exact_instance_of::<PyInt>() {
        return Ok(Arg::Int(x.extract::<i64>()?));
    }
    if let Ok(l) = x.cast_exact::<PyLayout>() {
        return Ok(Arg::Text(l.get().text().to_owned()));
    }
    if x.is_exact_instance_of::<PyTuple>() {
        return Ok(Arg::Text(to_text(x, depth)?));
    }
    if depth > MAX_PY_DEPTH {
        return Err(too_deep("argument"));
    }
    if let Some(v) = as_int(x)? {
        return Ok(Arg::Int(v));
    }
    if let Ok(s) = x.cast::<PyString>() {
        return Ok(Arg::Text(s.to_cow()?.into_owned()));
    }
    if let Ok(l) = x.cast::<PyList>() {
        return l
            .iter()
            .map(|e| to_arg(&e, depth + 1))
            .collect::<PyResult<Vec<_>>>()
            .map(Arg::List);
    }
    Ok(Arg::Text(to_text(x, depth)?))
}

fn to_text(x: &Bound<'_, PyAny>, depth: usize) -> PyResult<String> {
    let mut out = String::new();
    write_text(x, depth, &mut out)?;
    Ok(out)
}

/// Appends the decimal digits of `v` (what `write!(out, "{v}")` writes, without the formatting
/// machinery: most arguments are small tuples of ints).
fn push_int(out: &mut String, v: i64) {
    let mut digits = [0u8; 20];
    let mut k = digits.len();
    let mut u = v.unsigned_abs();
    loop {
        k -= 1;
        digits[k] = b'0' + (u % 10) as u8;
        u /= 10;
        if u == 0 {
            break;
        }
    }
    if v < 0 {
        out.push('-');
    }
    for &d in &digits[k..] {
        out.push(char::from(d));
    }
}

/// Writes `x` in CuTe's notation (see [`to_arg`]) into `out`: one buffer for a whole nested
/// tuple, ints first (the common leaf).
fn write_text(x: &Bound<'_, PyAny>, depth: usize, out: &mut String) -> PyResult<()> {
    use std::fmt::Write as _;
    if x.is_exact_instance_of::<PyInt>() {
        push_int(out, x.extract::<i64>()?);
        return Ok(());
    }
    if depth > MAX_PY_DEPTH {
        return Err(too_deep("argument"));
    }
    if let Ok(t) = x.cast_exact::<PyTuple>() {
        out.push('(');
        for (k, e) in t.iter_borrowed().enumerate() {
            if k > 0 {
                out.push(',');
            }
            write_text(&e, depth + 1, out)?;
        }
        out.push(')');
        return Ok(());
    }
    if let Ok(l) = x.cast::<PyLayout>() {
        out.push_str(l.get().text());
        return Ok(());
    }
    if let Ok(c) = x.cast::<PyComposed>() {
        let _ = write!(out, "{}", c.get().inner);
        return Ok(());
    }
    if let Ok(s) = x.cast::<PySwizzle>() {
        let _ = write!(out, "{}", s.get().inner);
        return Ok(());
    }
    if let Ok(b) = x.cast::<PyBasis>() {
        let _ = write!(out, "{}", b.get().inner);
        return Ok(());
    }
    if x.is_none() {
        out.push('_');
        return Ok(());
    }
    if let Some(v) = as_int(x)? {
        let _ = write!(out, "{v}");
        return Ok(());
    }
    if let Ok(s) = x.cast::<PyString>() {
        out.push_str(&s.to_cow()?);
        return Ok(());
    }
    if x.is_instance_of::<PyTuple>() || x.is_instance_of::<PyList>() {
        out.push('(');
        for (k, e) in x.try_iter()?.enumerate() {
            if k > 0 {
                out.push(',');
            }
            write_text(&e?, depth + 1, out)?;
        }
        out.push(')');
        return Ok(());
    }
    Err(type_error(
        "cannot write this argument in CuTe's notation",
        x,
    ))
}

/// Arguments the fast paths do not take: swizzles, composed and basis layouts, and text (which
/// may be any of CuTe's forms); these go through the operation table.
fn is_other_kind(x: &Bound<'_, PyAny>) -> bool {
    if x.is_exact_instance_of::<PyLayout>() || x.is_exact_instance_of::<PyInt>() {
        return false;
    }
    x.is_instance_of::<PyComposed>()
        || x.is_instance_of::<PySwizzle>()
        || x.is_instance_of::<PyBasis>()
        || x.is_instance_of::<PyString>()
}

/// The declaration of `op`.
fn spec_of(op: &str) -> PyResult<&'static cute_ops::OpSpec> {
    cute_ops::find(op).ok_or_else(|| operr(cute_ops::unknown_op(op)))
}

/// Runs `op` of the operation table on Python arguments, converting the result by the op's
/// declared result kinds.
fn table_call<'py>(py: Python<'py>, op: &str, args: &[&Bound<'py, PyAny>]) -> PyResult<Py<PyAny>> {
    let args = args
        .iter()
        .map(|a| to_arg(a, 0))
        .collect::<PyResult<Vec<_>>>()?;
    run_table(py, op, &args)
}

/// Runs `op` of the operation table on `args`, converting the result by the op's declared
/// result kinds.
fn run_table(py: Python<'_>, op: &str, args: &[Arg]) -> PyResult<Py<PyAny>> {
    let spec = spec_of(op)?;
    let text = cute_ops::run_op(op, args).map_err(operr)?;
    Ok(from_kinds(py, spec.returns, text)?.unbind())
}

/// `table_call` on `first` and, if given, `more`.
fn table_call_opt<'py>(
    py: Python<'py>,
    op: &str,
    first: &Bound<'py, PyAny>,
    more: Option<&Bound<'py, PyAny>>,
) -> PyResult<Py<PyAny>> {
    match more {
        None => table_call(py, op, &[first]),
        Some(m) => table_call(py, op, &[first, m]),
    }
}

// ---- what the classes share -------------------------------------------------------------------

/// The `#[pymethods]` block of a class: the methods written in `impl CLASS { ... }`, then the
/// shared groups named after it, each ended by `;` (pyo3 takes one such block per class):
/// - `png;` (after the doc comment of `png`): `png(scale=None)` draws `self.svg()`, and the
///   Jupyter hooks `_repr_svg_` / `_repr_png_` show it in the format `set_jupyter_format` chose;
/// - `text_value("Name");`: `str()` is CuTe's text of `self.inner`, `repr()` is
///   `Name.parse("...")`, and equality and the hash are those of the text;
/// - `__call__(WRAP);` (after its doc comment): `L(i)`, `L((i, j))`, `L(i, j)` evaluate
///   `self.inner`, and a coordinate with a `None` slices it, `WRAP(py, sub_layout)` making the
///   Python object of the slice.
macro_rules! py_methods {
    (impl $ty:ident { $($own:tt)* } $($shared:tt)*) => {
        py_methods!(@with $ty [$($own)*] $($shared)*);
    };
    (@with $ty:ident [$($acc:tt)*]) => {
        #[pymethods]
        impl $ty {
            $($acc)*
        }
    };
    (@with $ty:ident [$($acc:tt)*] $(#[$doc:meta])* png; $($rest:tt)*) => {
        py_methods!(@with $ty [
            $($acc)*

            /// The picture as SVG text, fitted into `width` x `height` pixels (both `None`:
            /// 800 x 600, a notebook cell; one given: that side alone): its `viewBox` keeps the
            /// drawing's units, its `width` and `height` are scaled down to fit, and the cells'
            /// labels are left out where cells would show smaller than 10 pixels. `fit=False`:
            /// the natural size (1 unit = 1 pixel) with every label.
            #[pyo3(signature = (width = None, height = None, fit = true))]
            fn svg(&self, width: Option<f64>, height: Option<f64>, fit: bool) -> PyResult<String> {
                self.picture(fit_box(width, height, fit))
            }

            $(#[$doc])*
            #[pyo3(signature = (scale = None))]
            fn png<'py>(
                &self,
                py: Python<'py>,
                scale: Option<f32>,
            ) -> PyResult<Bound<'py, PyBytes>> {
                to_png(py, self.picture(None)?, scale)
            }

            fn _repr_svg_(&self) -> Option<String> {
                repr_svg(|| self.picture(fit_box(None, None, true)))
            }

            fn _repr_png_<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
                repr_png(py, || self.picture(None))
            }

            /// Jupyter's display: the picture (SVG fitted to the cell, or PNG after
            /// `set_jupyter_format("png")`) and `repr()` as text; no HTML, so that the picture
            /// is what a notebook shows (`table()` is CuTe's `print_layout` text).
            #[pyo3(signature = (include = None, exclude = None))]
            fn _repr_mimebundle_<'py>(
                slf: &Bound<'py, Self>,
                include: Option<&Bound<'py, PyAny>>,
                exclude: Option<&Bound<'py, PyAny>>,
            ) -> PyResult<Bound<'py, PyDict>> {
                let _ = (include, exclude); // IPython filters the formats itself.
                let me = slf.get();
                mimebundle(
                    slf.py(),
                    slf.repr()?.to_cow()?.as_ref(),
                    || me.picture(fit_box(None, None, true)),
                    || me.picture(None),
                )
            }
        ] $($rest)*);
    };
    (@with $ty:ident [$($acc:tt)*] $(#[$doc:meta])* __call__($wrap:path); $($rest:tt)*) => {
        py_methods!(@with $ty [
            $($acc)*

            $(#[$doc])*
            #[pyo3(signature = (*args))]
            fn __call__(&self, py: Python<'_>, args: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
                let c = match call_arg(args)? {
                    CallArg::Index(i) => return self.inner.index_any(i).py()?.into_py_any(py),
                    CallArg::Coord(c) => c,
                };
                if has_none(&c, 0) {
                    return $wrap(py, self.inner.slice(&to_slice(&c, 0)?).py()?);
                }
                self.inner.index(&to_tuple(&c)?).py()?.into_py_any(py)
            }
        ] $($rest)*);
    };
    (@with $ty:ident [$($acc:tt)*] text_value($name:literal); $($rest:tt)*) => {
        py_methods!(@with $ty [
            $($acc)*

            fn __str__(&self) -> String {
                self.inner.to_string()
            }

            fn __repr__(&self) -> String {
                format!(concat!($name, ".parse({:?})"), self.inner.to_string())
            }

            fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
                match other.cast::<$ty>() {
                    Ok(o) => o.get().inner.to_string() == self.inner.to_string(),
                    Err(_) => false,
                }
            }

            fn __hash__(&self) -> u64 {
                let mut h = DefaultHasher::new();
                self.inner.to_string().hash(&mut h);
                h.finish()
            }
        ] $($rest)*);
    };
}

/// What a layout is called with: `L(i)` a 1-D index, else the coordinate, `c` of `L(c)` or
/// the tuple `(i, j)` of `L(i, j)`.
enum CallArg<'py> {
    Index(i64),
    Coord(Bound<'py, PyAny>),
}

// Inlined into each `__call__` (out of line it costs a tenth of `L(i)`).
#[inline(always)]
fn call_arg<'py>(args: &Bound<'py, PyTuple>) -> PyResult<CallArg<'py>> {
    if args.len() == 1 {
        let a = args.get_item(0)?;
        return Ok(match as_int(&a)? {
            Some(i) => CallArg::Index(i),
            None => CallArg::Coord(a),
        });
    }
    Ok(CallArg::Coord(args.as_any().clone()))
}

/// `offsets()`: the `n` offsets as a numpy int64 array if numpy is importable, else a list.
fn offsets_to_py(
    py: Python<'_>,
    n: i64,
    offsets: impl Iterator<Item = i64>,
) -> PyResult<Py<PyAny>> {
    if n > 1 << 28 {
        return Err(raise(
            "TooLarge",
            format!("offsets: {n} points is too many to list"),
        ));
    }
    let list = PyList::new(py, offsets.collect::<Vec<i64>>())?;
    match py.import("numpy") {
        Ok(np) => Ok(np
            .getattr("array")?
            .call1((list, np.getattr("int64")?))?
            .unbind()),
        Err(_) => Ok(list.into_any().unbind()),
    }
}

// ---- Layout ------------------------------------------------------------------------------------

/// A CuTe layout `Shape:Stride`: a function from coordinates to offsets.
///
/// `Layout(shape, stride=None)` takes Python ints and nested tuples as pycute does (no stride:
/// column-major, CuTe's `LayoutLeft`); `Layout.parse("(4,8):(8,1)")` reads CuTe's text.
/// `str()` is CuTe's text, `repr()` evaluates back, `L(i)`, `L((i, j))` and `L(i, j)` evaluate
/// (a `None` in the coordinate slices, as CuTe's `_`).
///
/// >>> L = Layout((4, 8), (8, 1))
/// >>> str(L), L(1, 2), L(5)
/// ('(4,8):(8,1)', 10, 9)
#[pyclass(frozen, module = "cute_layout", name = "Layout", weakref)]
pub struct PyLayout {
    inner: Layout,
    shape: OnceLock<Py<PyAny>>,
    stride: OnceLock<Py<PyAny>>,
    /// CuTe's text of `inner`, written once: `str()` and every call through the operation table
    /// (whose arguments are text) read it.
    text: OnceLock<String>,
}

impl PyLayout {
    #[inline]
    fn wrap(inner: Layout) -> Self {
        PyLayout {
            inner,
            shape: OnceLock::new(),
            stride: OnceLock::new(),
            text: OnceLock::new(),
        }
    }

    /// `inner` with its text already written (a result of the operation table).
    fn with_text(inner: Layout, text: String) -> Self {
        PyLayout {
            text: OnceLock::from(text),
            ..PyLayout::wrap(inner)
        }
    }

    /// CuTe's text of the layout.
    fn text(&self) -> &str {
        self.text.get_or_init(|| self.inner.to_string())
    }
}

py_methods! {
impl PyLayout {
    #[new]
    #[pyo3(signature = (shape, stride = None))]
    fn py_new(shape: &Bound<'_, PyAny>, stride: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        if let Ok(s) = shape.cast::<PyString>() {
            if stride.is_none() {
                return Ok(Self::wrap(layout_from_text(&s.to_cow()?)?));
            }
        }
        if let Ok(l) = shape.cast::<PyLayout>() {
            if stride.is_none() {
                return Ok(Self::wrap(l.get().inner.clone()));
            }
        }
        Ok(Self::wrap(layout_from_values(shape, stride)?))
    }

    /// Reads CuTe's text form, e.g. `"(4,(2,8)):(2,(1,8))"` (`_4` and `Int<4>{}` accepted).
    ///
    /// >>> Layout.parse("(4,8):(8,1)").stride
    /// (8, 1)
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        Ok(Self::wrap(text.parse::<Layout>().py()?))
    }

    /// The shape: an int or a nested tuple of ints.
    #[getter]
    fn shape(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        if let Some(s) = self.shape.get() {
            return Ok(s.clone_ref(py));
        }
        let s = tuple_to_py(py, &self.inner.shape())?.unbind();
        Ok(self.shape.get_or_init(|| s).clone_ref(py))
    }

    /// The stride, congruent to the shape.
    #[getter]
    fn stride(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        if let Some(s) = self.stride.get() {
            return Ok(s.clone_ref(py));
        }
        let s = tuple_to_py(py, &self.inner.stride())?.unbind();
        Ok(self.stride.get_or_init(|| s).clone_ref(py))
    }

    /// Number of points: the product of the shape.
    fn size(&self) -> i64 {
        self.inner.size()
    }

    /// CuTe's cosize: one past the largest offset (`L(size - 1) + 1` for non-negative strides).
    fn cosize(&self) -> i64 {
        self.inner.cosize()
    }

    /// Mode `i` (negative counts from the end), as pycute's `L[i]`.
    fn __getitem__(&self, py: Python<'_>, i: isize) -> PyResult<Py<PyLayout>> {
        let r = self.inner.rank() as isize;
        let k = if i < 0 { i + r } else { i };
        if k < 0 || k >= r {
            return Err(PyIndexError::new_err(format!(
                "mode {i} out of range for a layout of rank {r}"
            )));
        }
        let m = self
            .inner
            .mode(k as usize)
            .ok_or_else(|| PyIndexError::new_err(format!("no mode {i}")))?;
        new_layout(py, m)
    }

    /// The rank (number of top-level modes; 1 for an integer shape).
    fn __len__(&self) -> usize {
        self.inner.rank()
    }

    fn __str__(&self) -> String {
        self.text().to_owned()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let s = self.shape(py)?;
        let d = self.stride(py)?;
        Ok(format!(
            "Layout({}, {})",
            s.bind(py).repr()?,
            d.bind(py).repr()?
        ))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyLayout>() {
            Ok(o) => o.get().inner == self.inner,
            Err(_) => false,
        }
    }

    fn __ne__(&self, other: &Bound<'_, PyAny>) -> bool {
        !self.__eq__(other)
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.inner.hash(&mut h);
        h.finish()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let cls = slf.get_type().getattr("parse")?;
        Ok((cls, (slf.get().inner.to_string(),)))
    }

    /// All offsets `L(0), L(1), ..., L(size-1)`: a numpy int64 array if numpy is importable,
    /// else a list.
    fn offsets(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        offsets_to_py(py, self.inner.size(), self.inner.offsets())
    }

    /// CuTe's `print_layout` table (text).
    fn table(&self) -> PyResult<String> {
        Ok(self.inner.table().py()?.to_string())
    }


    /// The layout as a LaTeX/TikZ picture.
    fn latex(&self) -> PyResult<String> {
        render::latex(&self.inner, &Style::new()).py()
    }

}
/// Evaluates: `L(i)` (1-D index, CuTe's colexicographic order; past the end the last mode
/// runs on), `L((i, j))` or `L(i, j)` (R-D or natural coordinates). A `None` anywhere slices
/// (CuTe's `_`) and returns the sub-layout.
__call__(layout_object);
/// The same picture as PNG bytes, `scale` pixels per SVG unit (default: about 1600 pixels
/// on the longer side). A picture past 16,384 pixels on a side or 16.8 million pixels raises
/// `LayoutError` (kind `TooLarge`) before anything is drawn.
png;
}

impl PyLayout {
    /// The layout's picture (each cell: coordinate and offset; coloured by value mod 8, or past
    /// 256 points by where the value lies in its range), fitted into `fit` if given.
    fn picture(&self, fit: Option<(f64, f64)>) -> PyResult<String> {
        layout_svg(&ComposedLayout::from(self.inner.clone()), fit)
    }
}

// ---- Swizzle and ComposedLayout ----------------------------------------------------------------

/// CuTe's `Swizzle<B, M, S>`: `x ^ ((x & yyy) >> S)`, printed `Sw<B,M,S>`.
///
/// >>> Swizzle(3, 4, 3)(0x80)
/// 144
#[pyclass(frozen, module = "cute_layout", name = "Swizzle")]
pub struct PySwizzle {
    inner: Swizzle,
}

py_methods! {
impl PySwizzle {
    #[new]
    fn py_new(bits: i64, base: i64, shift: i64) -> PyResult<Self> {
        Ok(PySwizzle {
            inner: Swizzle::new(bits, base, shift).py()?,
        })
    }

    /// Reads `Sw<B,M,S>`.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        Ok(PySwizzle {
            inner: text.parse::<Swizzle>().py()?,
        })
    }

    fn __call__(&self, py: Python<'_>, offset: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let o = as_int(offset)?.ok_or_else(|| type_error("Swizzle()", offset))?;
        self.inner.apply(o).into_py_any(py)
    }

    /// B: the number of bits in the mask.
    #[getter]
    fn bits(&self) -> i64 {
        self.inner.bits()
    }

    /// M: the number of least-significant bits kept.
    #[getter]
    fn base(&self) -> i64 {
        self.inner.base()
    }

    /// S: the shift distance (negative: shift left).
    #[getter]
    fn shift(&self) -> i64 {
        self.inner.shift()
    }

    /// Size of the domain: `2^(B + M + |S|)`.
    fn size(&self) -> PyResult<i64> {
        self.inner_size()
    }

    /// Size of the codomain (the same as the domain).
    fn cosize(&self) -> PyResult<i64> {
        self.inner_size()
    }

}
/// The same picture as PNG bytes (see `Layout.png`).
png;
text_value("Swizzle");
}

impl PySwizzle {
    /// The swizzle's picture: `Sw<B,M,S> o 0 o (2^B, 2^(T-B)):(2^(T-B), 1)` with `T` its top bit
    /// (one row per value of the bits it reads), coloured by `offset / 2^M mod 8`.
    fn picture(&self, fit: Option<(f64, f64)>) -> PyResult<String> {
        let c = cute_ops::show::parse_showable("svg", &self.inner.to_string()).map_err(operr)?;
        layout_svg(&c, fit)
    }

    fn inner_size(&self) -> PyResult<i64> {
        let (b, m, s) = (self.inner.bits(), self.inner.base(), self.inner.shift());
        let e = s
            .checked_abs()
            .and_then(|s| s.checked_add(b)?.checked_add(m));
        match e {
            Some(e) if (0..63).contains(&e) => Ok(1i64 << e),
            _ => Err(raise("Overflow", format!("{}: size overflows", self.inner))),
        }
    }
}

/// CuTe's `ComposedLayout`: `Sw<B,M,S> o OFFSET o LAYOUT`, i.e. `L(c) = Sw(OFFSET + LAYOUT(c))`.
/// `ComposedLayout(swizzle, offset, layout)` takes pycute's argument order.
#[pyclass(frozen, module = "cute_layout", name = "ComposedLayout")]
pub struct PyComposed {
    inner: ComposedLayout,
}

py_methods! {
impl PyComposed {
    #[new]
    fn py_new(
        swizzle: &Bound<'_, PyAny>,
        offset: i64,
        layout: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let sw = match swizzle.cast::<PySwizzle>() {
            Ok(s) => s.get().inner,
            Err(_) => match swizzle.cast::<PyString>() {
                Ok(s) => s.to_cow()?.parse::<Swizzle>().py()?,
                Err(_) => return Err(type_error("ComposedLayout: swizzle", swizzle)),
            },
        };
        Ok(PyComposed {
            inner: ComposedLayout::new(sw, offset, to_layout(layout)?).py()?,
        })
    }

    /// Reads `Sw<B,M,S> o OFFSET o LAYOUT`.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        Ok(PyComposed {
            inner: text.parse::<ComposedLayout>().py()?,
        })
    }

    /// The inner layout (pycute's `layoutA`).
    #[getter]
    fn layout(&self, py: Python<'_>) -> PyResult<Py<PyLayout>> {
        new_layout(py, self.inner.layout().clone())
    }

    /// The inner layout (pycute's name).
    #[getter(layoutA)]
    fn layout_a(&self, py: Python<'_>) -> PyResult<Py<PyLayout>> {
        self.layout(py)
    }

    /// The swizzle (pycute's `layoutB`).
    #[getter(layoutB)]
    fn layout_b(&self) -> PySwizzle {
        PySwizzle {
            inner: self.inner.swizzle(),
        }
    }

    /// The swizzle.
    #[getter]
    fn swizzle(&self) -> PySwizzle {
        self.layout_b()
    }

    /// The offset between the layout and the swizzle.
    #[getter]
    fn offset(&self) -> i64 {
        self.inner.offset()
    }

    #[getter]
    fn shape(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        ret_tuple(py, &self.inner.shape())
    }

    fn size(&self) -> i64 {
        self.inner.size()
    }

    fn cosize(&self) -> i64 {
        self.inner.cosize()
    }

    fn __len__(&self) -> usize {
        self.inner.rank()
    }

    /// Mode `i` (negative counts from the end), as `Layout[i]`.
    fn __getitem__(&self, i: isize) -> PyResult<Self> {
        let r = self.inner.rank() as isize;
        let k = if i < 0 { i + r } else { i };
        let m = usize::try_from(k).ok().and_then(|k| self.inner.mode(k));
        m.map(|m| PyComposed { inner: m }).ok_or_else(|| {
            PyIndexError::new_err(format!(
                "mode {i} out of range for a composed layout of rank {r}"
            ))
        })
    }

    /// All offsets, as `Layout.offsets`.
    fn offsets(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        offsets_to_py(py, self.inner.size(), self.inner.offsets())
    }

}
/// The same picture as PNG bytes (see `Layout.png`).
png;
text_value("ComposedLayout");
__call__(composed_object);
}

impl PyComposed {
    /// The picture, each cell showing the swizzled offset, coloured by `offset / 2^M mod 8` for
    /// `Sw<B,M,S>` so that the swizzle shows.
    fn picture(&self, fit: Option<(f64, f64)>) -> PyResult<String> {
        layout_svg(&self.inner, fit)
    }
}

/// A layout with basis strides (CuTe's `ScaledBasis`, e.g. `make_identity_layout`'s
/// `(4,8):(1@0,1@1)`): maps coordinates to coordinates.
///
/// >>> I = BasisLayout.parse("(4,8):(1@0,1@1)")
/// >>> I(13)
/// (1, 3)
#[pyclass(frozen, module = "cute_layout", name = "BasisLayout")]
pub struct PyBasis {
    inner: Layout<ScaledBasis>,
}

py_methods! {
impl PyBasis {
    /// Reads `shape:stride` with basis strides `v@i@...`.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        Ok(PyBasis {
            inner: text.parse::<Layout<ScaledBasis>>().py()?,
        })
    }

    /// The shape.
    #[getter]
    fn shape(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        ret_tuple(py, &self.inner.shape())
    }

    fn size(&self) -> i64 {
        self.inner.size()
    }

    fn __len__(&self) -> usize {
        self.inner.rank()
    }

    /// The coordinate (an int tuple) at a 1-D index or a coordinate.
    #[pyo3(signature = (*args))]
    fn __call__(&self, py: Python<'_>, args: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
        let v = match call_arg(args)? {
            CallArg::Index(i) => self.inner.value_1d(i).ok_or_else(|| {
                raise(
                    "CoordOutOfRange",
                    format!("index {i} is outside the domain of {}", self.inner),
                )
            })?,
            CallArg::Coord(c) => self.inner.value(&to_tuple(&c)?).py()?,
        };
        ret_tuple(py, &v)
    }
}
text_value("BasisLayout");
}

/// the shape with unit basis strides: maps each coordinate to itself
///
/// CuTe's `make_identity_layout(shape)`: the shape with unit basis strides.
///
/// >>> str(make_identity_layout((4, 8)))
/// '(4,8):(1@0,1@1)'
#[pyfunction]
fn make_identity_layout(shape: &Bound<'_, PyAny>) -> PyResult<PyBasis> {
    Ok(PyBasis {
        inner: Layout::identity(to_tuple(shape)?).py()?,
    })
}

/// A thread-value layout over a tile: `(thread, value) -> offset in the tile`, drawn as CuTe's
/// `print_latex` TV pictures do (`TVLayout(tv, tile_shape)`).
#[pyclass(frozen, module = "cute_layout", name = "TVLayout")]
pub struct PyTV {
    tv: Layout,
    tile: IntTuple,
}

py_methods! {
impl PyTV {
    #[new]
    fn py_new(tv: &Bound<'_, PyAny>, tile: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyTV {
            tv: to_layout(tv)?,
            tile: to_tuple(tile)?,
        })
    }

    /// The thread-value layout.
    #[getter]
    fn layout(&self, py: Python<'_>) -> PyResult<Py<PyLayout>> {
        new_layout(py, self.tv.clone())
    }

    /// The tile shape.
    #[getter]
    fn tile(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        ret_tuple(py, &self.tile)
    }

    /// The picture in LaTeX/TikZ.
    fn latex(&self) -> PyResult<String> {
        render::latex_tv(&self.tv, &self.tile, &Style::new()).py()
    }

    fn __str__(&self) -> String {
        format!("TV {} over {}", self.tv, self.tile)
    }

    fn __repr__(&self) -> String {
        format!(
            "TVLayout({:?}, {:?})",
            self.tv.to_string(),
            self.tile.to_string()
        )
    }
}
/// The picture as PNG bytes (see `Layout.png`).
png;
}

impl PyTV {
    /// The picture: each cell of the tile shows the thread and value that own it.
    fn picture(&self, fit: Option<(f64, f64)>) -> PyResult<String> {
        render::svg_tv(&self.tv, &self.tile, &fitted(Style::new(), fit)).py()
    }
}

// ---- module functions --------------------------------------------------------------------------

/// number of points (product of the shape)
///
/// Number of points: the product of the shape of a layout or of an int tuple.
///
/// >>> size(Layout((4, 8), (8, 1))), size((2, (3, 4)))
/// (32, 24)
#[pyfunction]
fn size(layout: &Bound<'_, PyAny>) -> PyResult<i64> {
    if let Ok(l) = layout.cast::<PyLayout>() {
        return Ok(l.get().inner.size());
    }
    if let Ok(c) = layout.cast::<PyComposed>() {
        return Ok(c.get().inner.size());
    }
    if let Some(v) = as_int(layout)? {
        return Ok(v);
    }
    to_tuple(layout)?.size().py()
}

/// CuTe's cosize: one past the last offset (of the inner layout if composed)
///
/// CuTe's cosize: `L(size(L) - 1) + 1` for a layout with non-negative strides.
#[pyfunction]
fn cosize(layout: &Bound<'_, PyAny>) -> PyResult<i64> {
    if let Ok(c) = layout.cast::<PyComposed>() {
        return Ok(c.get().inner.cosize());
    }
    Ok(to_layout(layout)?.cosize())
}

/// number of top-level modes
///
/// Number of top-level modes (1 for an integer).
#[pyfunction]
fn rank(layout: &Bound<'_, PyAny>) -> PyResult<usize> {
    if let Ok(l) = layout.cast::<PyLayout>() {
        return Ok(l.get().inner.rank());
    }
    if let Ok(c) = layout.cast::<PyComposed>() {
        return Ok(c.get().inner.rank());
    }
    Ok(to_tuple(layout)?.rank())
}

/// nesting depth (0 for an integer)
///
/// Nesting depth (0 for an integer).
#[pyfunction]
fn depth(layout: &Bound<'_, PyAny>) -> PyResult<usize> {
    if let Ok(l) = layout.cast::<PyLayout>() {
        return Ok(l.get().inner.depth());
    }
    if let Ok(c) = layout.cast::<PyComposed>() {
        return Ok(c.get().inner.depth());
    }
    Ok(to_tuple(layout)?.depth())
}

/// all leaves as one flat tuple; of a tensor (counting, coordinate or pointer), the tensor over the flattened layout
///
/// All leaves as one flat tuple (of a layout: its flat layout).
#[pyfunction]
fn flatten(py: Python<'_>, layout: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    if let Ok(l) = layout.cast::<PyLayout>() {
        return layout_object(py, l.get().inner.flatten());
    }
    if let Ok(c) = layout.cast::<PyComposed>() {
        return composed_object(py, c.get().inner.flatten());
    }
    ret_tuple(py, &to_tuple(layout)?.flatten())
}

/// fewest modes with the same function (by profile if given); of a tensor (counting, coordinate or pointer), the tensor over the coalesced layout
///
/// Fewest modes with the same function: `coalesce(L)(i) == L(i)` for every `i < size(L)`; with
/// a profile, mode by mode.
///
/// >>> str(coalesce(Layout((2, 4), (1, 2))))
/// '8:1'
#[pyfunction]
#[pyo3(signature = (layout, profile = None))]
fn coalesce(
    py: Python<'_>,
    layout: &Bound<'_, PyAny>,
    profile: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    if is_other_kind(layout) {
        return table_call_opt(py, "coalesce", layout, profile);
    }
    let l = lref(layout)?;
    match given(profile) {
        None => layout_object(py, l.coalesce()),
        Some(p) => layout_object(py, l.coalesce_by_mode(&to_tuple(p)?).py()?),
    }
}

/// coalesce without stride-0 and extent-1 modes (at the terminals of PROFILE; of the inner layout if composed); of a tensor (counting, coordinate or pointer), the tensor over the filtered layout
///
/// Coalesce without stride-0 and extent-1 modes (the layout of the distinct offsets).
#[pyfunction]
#[pyo3(signature = (layout, profile = None))]
fn filter(
    py: Python<'_>,
    layout: &Bound<'_, PyAny>,
    profile: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    if let Some(p) = given(profile) {
        return table_call(py, "filter", &[layout, p]);
    }
    if is_other_kind(layout) {
        return table_call(py, "filter", &[layout]);
    }
    layout_object(py, lref(layout)?.filter())
}

/// stride-0 modes get extent 1; of a tensor (counting, coordinate or pointer), the tensor over that layout
///
/// Stride-0 modes get extent 1.
#[pyfunction]
fn filter_zeros(py: Python<'_>, layout: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    layout_object(py, lref(layout)?.filter_zeros())
}

/// A o B: R(c) = A(B(c)); of a tensor (counting, coordinate or pointer) and a layout or tiler, the tensor over A o B
///
/// `A o B`: `R(c) == A(B(c))` for every coordinate `c` of `B`. `B` may be a layout, an int, a
/// tiler tuple (mode by mode, `None` keeps a mode), a swizzle or a composed layout.
///
/// >>> str(composition(Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1))))
/// '((2,2),3):((24,2),8)'
#[pyfunction]
fn composition(
    py: Python<'_>,
    layout: &Bound<'_, PyAny>,
    layout2: &Bound<'_, PyAny>,
) -> PyResult<Py<PyAny>> {
    if let (Ok(la), Ok(lb)) = (layout.cast::<PyLayout>(), layout2.cast::<PyLayout>()) {
        return layout_object(py, la.get().inner.compose(&lb.get().inner).py()?);
    }
    if layout2.is_none() {
        return Ok(layout.clone().unbind());
    }
    if is_other_kind(layout) || is_other_kind(layout2) {
        return table_call(py, "composition", &[layout, layout2]);
    }
    let la = lref(layout)?;
    let r = with_tiler(layout2, |t| la.compose_tiler(t))?.py()?;
    layout_object(py, r)
}

/// the layout filling the gaps of the image up to COTARGET (default cosize); of the inner layout if composed
///
/// The layout filling the gaps of `L`'s image up to `cotarget` (default: `cosize(L)`):
/// `(L, complement(L))` is injective and its image covers `[0, cotarget)` in order.
///
/// >>> str(complement(Layout(4, 2), 24))
/// '(2,3):(1,8)'
#[pyfunction]
#[pyo3(signature = (layout, cotarget = None))]
fn complement(
    py: Python<'_>,
    layout: &Bound<'_, PyAny>,
    cotarget: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    if is_other_kind(layout) {
        return table_call_opt(py, "complement", layout, cotarget);
    }
    let l = lref(layout)?;
    match given(cotarget) {
        None => layout_object(py, l.complement_cosize().py()?),
        Some(m) => match as_int(m)? {
            Some(n) => layout_object(py, l.complement(n).py()?),
            None => layout_object(py, l.complement_shape(&to_tuple(m)?).py()?),
        },
    }
}

/// pycute's `complement(layout, max_idx=1)`: CuTe's `complement(layout)` (cotarget `cosize`) for
/// the default `max_idx=1`, else `complement(layout, max_idx)` (the drop-in's `complement`).
#[pyfunction]
#[pyo3(signature = (layout, max_idx = None))]
fn pycute_complement(
    py: Python<'_>,
    layout: &Bound<'_, PyAny>,
    max_idx: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let m = match max_idx {
        Some(m) if as_int(m)? == Some(1) => None,
        other => other,
    };
    complement(py, layout, m)
}

/// CuTe's right inverse: R with A(R(i)) = i on R's domain
///
/// The largest `R` with `L(R(i)) == i` for every `i < size(R)`.
///
/// >>> str(right_inverse(Layout((4, 8), (8, 1))))
/// '(8,4):(4,1)'
#[pyfunction]
fn right_inverse(py: Python<'_>, layout: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    if layout.is_none() {
        return Ok(py.None());
    }
    if is_other_kind(layout) {
        return table_call(py, "right_inverse", &[layout]);
    }
    layout_object(py, lref(layout)?.right_inverse())
}

/// R with R(A(i)) = i (quasi-inverse if not injective)
///
/// `R` with `R(L(i)) == i` for every `i < size(L)` (L injective).
///
/// >>> str(left_inverse(Layout((4, 8), (8, 1))))
/// '(8,4):(4,1)'
#[pyfunction]
fn left_inverse(py: Python<'_>, layout: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    if layout.is_none() {
        return Ok(py.None());
    }
    if is_other_kind(layout) {
        return table_call(py, "left_inverse", &[layout]);
    }
    layout_object(py, lref(layout)?.left_inverse().py()?)
}

/// the coordinates A maps to 0 (1:0 for a composed layout, as CuTe)
///
/// The coordinates `L` maps to 0, as a layout into `L`'s domain.
#[pyfunction]
fn nullspace(py: Python<'_>, layout: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    if is_other_kind(layout) {
        return table_call(py, "nullspace", &[layout]);
    }
    layout_object(py, lref(layout)?.nullspace())
}

macro_rules! tiler_op {
    ($name:ident, $doc:literal) => {
        #[doc = $doc]
        #[pyfunction]
        fn $name(
            py: Python<'_>,
            layout: &Bound<'_, PyAny>,
            tiler: &Bound<'_, PyAny>,
        ) -> PyResult<Py<PyAny>> {
            if tiler.is_none() {
                // `_`: the layout itself (pycute returns the same object).
                return Ok(layout.clone().unbind());
            }
            if is_other_kind(layout) || is_other_kind(tiler) {
                return table_call(py, stringify!($name), &[layout, tiler]);
            }
            let l = lref(layout)?;
            let r = with_tiler(tiler, |t| l.$name(t))?.py()?;
            layout_object(py, r)
        }
    };
}

tiler_op!(
    logical_divide,
    "A o (T, complement(T))\n\n`A o (T, complement(T, size(A)))`: mode 0 is the tile, mode 1 the tiles.\n\n>>> str(logical_divide(Layout(16, 1), 4))\n'(4,4):(1,4)'"
);
tiler_op!(
    zipped_divide,
    "logical_divide as ((tile),(rest))\n\n`logical_divide` as `((tile), (rest))` for a tiler tuple.\n\n>>> str(zipped_divide(Layout((8, 8)), (2, 4)))\n'((2,4),(4,2)):((1,8),(2,32))'"
);
tiler_op!(
    tiled_divide,
    "logical_divide as ((tile),rest...)\n\n`logical_divide` as `((tile), rest...)`.\n\n>>> str(tiled_divide(Layout((8, 8)), (2, 4)))\n'((2,4),4,2):((1,8),2,32)'"
);
tiler_op!(
    flat_divide,
    "logical_divide as (tile...,rest...)\n\n`logical_divide` as `(tile..., rest...)`.\n\n>>> str(flat_divide(Layout((8, 8)), (2, 4)))\n'(2,4,4,2):(1,8,2,32)'"
);
tiler_op!(
    logical_product,
    "(A, complement(A) o B)\n\n`(A, complement(A, size(A) * cosize(B)) o B)`: copies of A laid out by B.\n\n>>> str(logical_product(Layout(2, 1), Layout(3, 1)))\n'(2,3):(1,2)'"
);
tiler_op!(
    zipped_product,
    "logical_product as ((block),(rest))\n\n`logical_product` as `((block), (rest))`."
);
tiler_op!(
    tiled_product,
    "logical_product as ((block),rest...)\n\n`logical_product` as `((block), rest...)`."
);
tiler_op!(
    flat_product,
    "logical_product as (block...,rest...)\n\n`logical_product` as `(block..., rest...)`."
);

/// A module function `NAME(a, b)` of two layout arguments: `Layout::NAME`, or `NAME` of the
/// operation table where `via_table(a, b)` (arguments the fast path does not take).
macro_rules! layout_pair_fn {
    ($(#[$doc:meta])* fn $name:ident, via_table $via:expr) => {
        $(#[$doc])*
        #[pyfunction]
        fn $name(
            py: Python<'_>,
            layout: &Bound<'_, PyAny>,
            layout2: &Bound<'_, PyAny>,
        ) -> PyResult<Py<PyAny>> {
            let via_table: fn(&Bound<'_, PyAny>, &Bound<'_, PyAny>) -> bool = $via;
            if via_table(layout, layout2) {
                return table_call(py, stringify!($name), &[layout, layout2]);
            }
            layout_object(py, lref(layout)?.$name(&*lref(layout2)?).py()?)
        }
    };
}

layout_pair_fn! {
    /// copies of A placed block by block as B says (of the inner layout if composed)
    ///
    /// Copies of `A` placed block by block as `B` says (mode i is `(A_i, B_i)`).
    ///
    /// >>> str(blocked_product(Layout((2, 2)), Layout((2, 3))))
    /// '((2,2),(2,3)):((1,4),(2,8))'
    fn blocked_product, via_table |a, _| is_other_kind(a)
}

layout_pair_fn! {
    /// copies of A interleaved as B says (of the inner layout if composed)
    ///
    /// Copies of `A` interleaved as `B` says (mode i is `(B_i, A_i)`).
    fn raked_product, via_table |a, _| is_other_kind(a)
}

/// A repeated to fill SHAPE (the inner layout if composed: a swizzled smem layout from its atom)
///
/// `A` repeated to fill `shape` (in `order` of the modes, if given).
#[pyfunction]
#[pyo3(signature = (layout, shape, order = None))]
fn tile_to_shape(
    py: Python<'_>,
    layout: &Bound<'_, PyAny>,
    shape: &Bound<'_, PyAny>,
    order: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let ord = given(order).map(to_tuple).transpose()?;
    layout_object(
        py,
        to_layout(layout)?
            .tile_to_shape(&to_tuple(shape)?, ord.as_ref())
            .py()?,
    )
}

/// `(layout, n)` or CuTe's `(n, layout)` order.
fn layout_and_n(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<(Layout, i64)> {
    if let Some(n) = as_int(a)? {
        if b.is_instance_of::<PyLayout>() || b.is_instance_of::<PyString>() {
            return Ok((to_layout(b)?, n));
        }
    }
    let n = as_int(b)?.ok_or_else(|| type_error("expected an integer factor", b))?;
    Ok((to_layout(a)?, n))
}

/// the layout for elements N times wider
///
/// The layout for elements `n` times wider: `upcast(layout, n)` (CuTe's `upcast<n>(layout)`;
/// `upcast(n, layout)` is accepted too).
#[pyfunction]
fn upcast(py: Python<'_>, n: &Bound<'_, PyAny>, layout: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let (l, n) = layout_and_n(n, layout)?;
    layout_object(py, l.upcast(n).py()?)
}

/// the layout for elements N times narrower
///
/// The layout for elements `n` times narrower: `downcast(layout, n)`.
#[pyfunction]
fn downcast(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    layout: &Bound<'_, PyAny>,
) -> PyResult<Py<PyAny>> {
    let (l, n) = layout_and_n(n, layout)?;
    layout_object(py, l.downcast(n).py()?)
}

/// the layout for elements of NEW_BITS bits instead of OLD_BITS
///
/// The layout for elements of `new_bits` bits instead of `old_bits`: `recast(old_bits,
/// new_bits, layout)`, CuTe's `recast_layout<Old, New>(layout)` (a composed layout through the
/// operation table).
#[pyfunction]
fn recast(
    py: Python<'_>,
    old_bits: &Bound<'_, PyAny>,
    new_bits: &Bound<'_, PyAny>,
    layout: &Bound<'_, PyAny>,
) -> PyResult<Py<PyAny>> {
    if is_other_kind(layout) {
        return table_call(py, "recast", &[old_bits, new_bits, layout]);
    }
    let (old, new) = (int_arg("recast", old_bits)?, int_arg("recast", new_bits)?);
    layout_object(py, lref(layout)?.recast(old, new).py()?)
}

/// An integer argument of `op`.
fn int_arg(op: &str, x: &Bound<'_, PyAny>) -> PyResult<i64> {
    as_int(x)?.ok_or_else(|| type_error(&format!("{op}: expected an integer"), x))
}

/// number of leading elements both layouts map alike
///
/// Number of leading elements both layouts map alike.
#[pyfunction]
fn max_common_vector(layout: &Bound<'_, PyAny>, layout2: &Bound<'_, PyAny>) -> PyResult<i64> {
    Ok(lref(layout)?.max_common_vector(&*lref(layout2)?))
}

/// layout of the leading elements both layouts map alike
///
/// The layout of the leading elements both layouts map alike: `A(R(i)) == B(R(i)) == i`.
#[pyfunction]
fn max_common_layout(
    py: Python<'_>,
    layout: &Bound<'_, PyAny>,
    layout2: &Bound<'_, PyAny>,
) -> PyResult<Py<PyAny>> {
    layout_object(py, lref(layout)?.max_common_layout(&*lref(layout2)?))
}

/// The layout that `shape[, stride]` describe: a layout, or a shape with an optional stride
/// (column-major by default).
fn layout_of(shape: &Bound<'_, PyAny>, stride: Option<&Bound<'_, PyAny>>) -> PyResult<Layout> {
    match given(stride) {
        Some(d) => layout_from_values(shape, Some(d)),
        None => {
            if let Ok(l) = shape.cast::<PyLayout>() {
                return Ok(l.get().inner.clone());
            }
            if let Ok(s) = shape.cast::<PyString>() {
                return layout_from_text(&s.to_cow()?);
            }
            layout_from_values(shape, None)
        }
    }
}

/// index of a 1-D, R-D or natural coordinate (colexicographic for a shape; a coordinate for basis strides)
///
/// The index of a coordinate (1-D, R-D or natural): `crd2idx(crd, shape, stride=None)` as
/// pycute (no stride: column-major), or `crd2idx(crd, layout)`. A `None` coordinate is 0.
///
/// >>> crd2idx((1, 2), (4, 8), (8, 1)), crd2idx(5, Layout((4, 8)))
/// (10, 5)
#[pyfunction]
#[pyo3(signature = (coord, layout, stride = None))]
fn crd2idx(
    coord: &Bound<'_, PyAny>,
    layout: &Bound<'_, PyAny>,
    stride: Option<&Bound<'_, PyAny>>,
) -> PyResult<i64> {
    if coord.is_none() {
        return Ok(0);
    }
    let eval = |l: &Layout| -> PyResult<i64> {
        if let Some(i) = as_int(coord)? {
            return l.index_any(i).py();
        }
        l.index(&to_tuple(coord)?).py()
    };
    let stride = given(stride);
    if stride.is_none() {
        if let Ok(l) = layout.cast::<PyLayout>() {
            return eval(&l.get().inner);
        }
    }
    // A repeated call on the same layout and stride objects: evaluate on the cached layout in
    // place (the coordinate is converted first, so no Python code runs under the lock).
    let c = match as_int(coord)? {
        Some(i) => Err(i),
        None => Ok(to_tuple(coord)?),
    };
    if let Ok(cache) = LAYOUT_CACHE.lock() {
        if let Some(l) = cache.find(layout, stride) {
            return match &c {
                Err(i) => l.index_any(*i).py(),
                Ok(t) => l.index(t).py(),
            };
        }
    }
    let l = layout_of(layout, stride)?;
    match &c {
        Err(i) => l.index_any(*i).py(),
        Ok(t) => l.index(t).py(),
    }
}

/// natural coordinate: idx2crd(i, shape), or (i / d) % s per leaf of a layout
///
/// The natural coordinate of an index: `idx2crd(idx, shape)` (colexicographic), or with a
/// stride `(idx // d) % s` per leaf, as pycute.
///
/// >>> idx2crd(5, (4, 8)), idx2crd(2741, ((4, 8), (2, 4, 16)))
/// ((1, 1), ((1, 5), (1, 2, 10)))
#[pyfunction]
#[pyo3(signature = (index, shape, stride = None))]
fn idx2crd(
    py: Python<'_>,
    index: &Bound<'_, PyAny>,
    shape: &Bound<'_, PyAny>,
    stride: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let stride = given(stride);
    if let (None, false) = (stride, shape.is_instance_of::<PyLayout>()) {
        let i = to_tuple(index)?;
        let hit = TUPLE_CACHE
            .lock()
            .ok()
            .and_then(|cache| cache.find(shape, None).map(|s| s.idx2crd(&i)));
        let c = match hit {
            Some(r) => r.py()?,
            None => tuple_cached(shape)?.idx2crd(&i).py()?,
        };
        return ret_tuple(py, &c);
    }
    let l = layout_of(shape, stride)?;
    let i =
        as_int(index)?.ok_or_else(|| type_error("idx2crd with a stride: an int index", index))?;
    ret_tuple(py, &l.coord(i).py()?)
}

/// pycute's `crd2crd(crd, dst_shape, src_shape=None)` (the drop-in's `crd2crd`): a coordinate
/// of `src_shape` as a coordinate of `dst_shape`; without `src_shape`, an index or a coordinate
/// of the same tree.
#[pyfunction]
#[pyo3(signature = (crd, dst_shape, src_shape = None))]
fn pycute_crd2crd(
    py: Python<'_>,
    crd: &Bound<'_, PyAny>,
    dst_shape: &Bound<'_, PyAny>,
    src_shape: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let c = to_tuple(crd)?;
    let dst = to_tuple(dst_shape)?;
    let src = match given(src_shape) {
        Some(s) => to_tuple(s)?,
        None => {
            // Without a source shape only the unambiguous forms: the same tree, or an index.
            if c.is_int() {
                let r = dst.idx2crd(&c).py()?;
                return ret_tuple(py, &r);
            }
            if c.rank() == dst.rank() && !dst.is_int() {
                return Ok(crd.clone().unbind());
            }
            return Err(raise(
                "BadRequest",
                "crd2crd: a tuple coordinate for an integer shape needs src_shape".into(),
            ));
        }
    };
    let r = src.crd2crd(&c, &dst).py()?;
    ret_tuple(py, &r)
}

/// the sub-layout of the modes where COORD has _ (slice(coord, layout)); of a tensor, CuTe's tensor(coord)
///
/// The sub-layout a coordinate with `None` (CuTe's `_`) keeps: `slice_(crd, layout)`; on an int
/// tuple, the entries kept (as pycute's `slice_(crd, tuple)`).
#[pyfunction]
fn slice_(
    py: Python<'_>,
    coord: &Bound<'_, PyAny>,
    layout: &Bound<'_, PyAny>,
) -> PyResult<Py<PyAny>> {
    let c = to_slice(coord, 0)?;
    if let Ok(l) = layout.cast::<PyLayout>() {
        return layout_object(py, l.get().inner.slice(&c).py()?);
    }
    if let Ok(cl) = layout.cast::<PyComposed>() {
        return composed_object(py, cl.get().inner.slice(&c).py()?);
    }
    // An int tuple: slice the layout S:t, with S a shape that holds the coordinate (each fixed
    // entry's extent one past it, the rest 1), and keep its stride, so that entries of any value
    // (zeros, negatives) pass through.
    let shape = slice_shape(coord, layout, 0)?;
    let l = Layout::new(shape, to_tuple(layout)?).py()?;
    let r = l.slice(&c).py()?;
    ret_tuple(py, &r.stride())
}

/// A shape congruent to `target` in which coordinate `crd` lies (see `slice_`).
fn slice_shape(
    crd: &Bound<'_, PyAny>,
    target: &Bound<'_, PyAny>,
    depth: usize,
) -> PyResult<IntTuple> {
    if depth > MAX_PY_DEPTH {
        return Err(too_deep("coordinate"));
    }
    let fixed = as_int(crd)?;
    if target.is_instance_of::<PyTuple>() || target.is_instance_of::<PyList>() {
        let is_seq = crd.is_instance_of::<PyTuple>() || crd.is_instance_of::<PyList>();
        let elems: Vec<Bound<'_, PyAny>> = target.try_iter()?.collect::<PyResult<_>>()?;
        let crds: Vec<Bound<'_, PyAny>> = if is_seq {
            crd.try_iter()?.collect::<PyResult<_>>()?
        } else {
            Vec::new()
        };
        let mut out = Vec::with_capacity(elems.len());
        for (k, e) in elems.iter().enumerate() {
            out.push(match (is_seq, crds.get(k), fixed) {
                (true, Some(ck), _) => slice_shape(ck, e, depth + 1)?,
                (false, _, Some(_)) if k == 0 => slice_shape(crd, e, depth + 1)?,
                _ => to_tuple_ext(e, depth + 1, true)?,
            });
        }
        return IntTuple::tuple(out).py();
    }
    Ok(IntTuple::int(match fixed {
        Some(c) if c >= 1 => c.saturating_add(1),
        _ => 1,
    }))
}

/// (slice, offset of the fixed entries); composed: the offset moves inside, 0
///
/// `slice_and_offset(crd, layout)`: the sub-layout and the offset of its origin.
#[pyfunction]
fn slice_and_offset(
    py: Python<'_>,
    coord: &Bound<'_, PyAny>,
    layout: &Bound<'_, PyAny>,
) -> PyResult<(Py<PyAny>, i64)> {
    let c = to_slice(coord, 0)?;
    let (l, off) = lref(layout)?.slice_and_offset(&c).py()?;
    Ok((new_layout(py, l)?.into_any(), off))
}

/// layout from a shape and a stride or a stride order (default LayoutLeft)
///
/// CuTe's `make_layout(shape, stride=None)`: `stride` a stride (congruent to the shape),
/// `"LayoutLeft"` (the default: column-major) or `"LayoutRight"` (row-major); `shape` may be
/// CuTe's text of a shape or of a layout. Where `shape` is a `Layout`, or a tuple, list or other
/// iterable holding `Layout`s, the result is CuTe's `make_layout(L0, L1, ...)`: the layout whose
/// modes they are (an int or a shape among them stands for its column-major layout), as the
/// `concat` operation.
///
/// >>> str(make_layout((4, 8))), str(make_layout((Layout(4, 1), Layout(8, 4))))
/// ('(4,8):(1,4)', '(4,8):(1,4)')
#[pyfunction]
#[pyo3(signature = (shape, stride = None))]
fn make_layout(
    py: Python<'_>,
    shape: &Bound<'_, PyAny>,
    stride: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let stride = given(stride);
    if let Some(modes) = layout_modes(shape)? {
        if let Some(d) = stride {
            return Err(type_error(
                "make_layout: layouts as modes take no stride",
                d,
            ));
        }
        return layout_object(py, Layout::from_modes(modes).py()?);
    }
    if let Some(d) = stride {
        if let Ok(tag) = d.cast::<PyString>() {
            match tag.to_cow()?.trim() {
                "LayoutLeft" => {
                    return layout_object(py, Layout::col_major(to_tuple(shape)?).py()?)
                }
                "LayoutRight" => {
                    return layout_object(py, Layout::row_major(to_tuple(shape)?).py()?)
                }
                _ => {}
            }
        }
    }
    layout_object(py, layout_of(shape, stride)?)
}

/// The modes of `make_layout(L0, L1, ...)` where `x` holds layouts: a `Layout` (one mode), a
/// tuple or list with a `Layout` among its elements, or an iterable that is not a shape (a
/// generator of layouts); `None` where `x` is a shape (an int, a tuple or list of ints, text).
fn layout_modes(x: &Bound<'_, PyAny>) -> PyResult<Option<Vec<Layout>>> {
    if let Ok(l) = x.cast::<PyLayout>() {
        return Ok(Some(vec![l.get().inner.clone()]));
    }
    if x.is_instance_of::<PyString>() || as_int(x)?.is_some() {
        return Ok(None);
    }
    let seq = x.is_instance_of::<PyTuple>() || x.is_instance_of::<PyList>();
    if seq {
        let has_layout = x
            .try_iter()?
            .map(|e| e.map(|e| e.is_instance_of::<PyLayout>()))
            .collect::<PyResult<Vec<bool>>>()?;
        if !has_layout.contains(&true) {
            return Ok(None);
        }
    }
    let modes = x
        .try_iter()?
        .map(|e| to_layout(&e?))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(Some(modes))
}

/// CuTe shape_div: elementwise, or the integer divided out of the elements left to right (ceil)
///
/// CuTe's `shape_div(a, b)`: int tuple `a` with `b` elements divided out, mode by mode.
///
/// >>> shape_div((3, 4), 6), shape_div(((3, 4), 6), 36)
/// ((1, 2), ((1, 1), 2))
#[pyfunction]
fn shape_div(
    py: Python<'_>,
    tuple: &Bound<'_, PyAny>,
    tuple2: &Bound<'_, PyAny>,
) -> PyResult<Py<PyAny>> {
    let r = to_tuple(tuple)?.shape_div(&to_tuple(tuple2)?).py()?;
    ret_tuple(py, &r)
}

/// exclusive prefix product (the column-major stride)
///
/// The exclusive prefix products of the leaves of `tuple`, times `start` (default 1; pycute's
/// `prefix_product(a, init=1)`).
///
/// >>> prefix_product(((2, 3), 4))
/// ((1, 2), 6)
#[pyfunction]
#[pyo3(signature = (tuple, start = None))]
fn prefix_product(
    py: Python<'_>,
    tuple: &Bound<'_, PyAny>,
    start: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let init = match given(start) {
        Some(s) => int_arg("prefix_product", s)?,
        None => 1,
    };
    let r = to_tuple(tuple)?.prefix_products(init).py()?;
    ret_tuple(py, &r)
}

/// sum of the products of congruent leaves
///
/// The sum of the products of corresponding leaves of two congruent int tuples.
///
/// >>> inner_product(((2, 3), 4), ((2, 1), 2))
/// 15
#[pyfunction]
fn inner_product(tuple: &Bound<'_, PyAny>, tuple2: &Bound<'_, PyAny>) -> PyResult<i64> {
    to_tuple(tuple)?.inner_product(&to_tuple(tuple2)?).py()
}

/// The shape of a `Layout`, or an int tuple itself.
fn shape_of(x: &Bound<'_, PyAny>) -> PyResult<IntTuple> {
    match x.cast::<PyLayout>() {
        Ok(l) => Ok(l.get().inner.shape()),
        Err(_) => to_tuple(x),
    }
}

layout_pair_fn! {
    /// R(i) = A(i) + B(i) for i < size (NVlabs PyCuTe; not CuTe C++)
    ///
    /// NVlabs PyCuTe's `layout_add` (not CuTe C++): the layout `R` with `R(i) == A(i) + B(i)` for
    /// every `i < size`, coalesced. Raises `LayoutError` (`.kind` `SizeMismatch`, `NotALayout`,
    /// `NotRepresentable`) where no such layout exists.
    ///
    /// >>> str(layout_add(Layout((4, 3), (1, 4)), Layout((4, 3), (3, 1))))
    /// '(4,3):(4,5)'
    fn layout_add, via_table |a, b| is_other_kind(a) || is_other_kind(b)
}

/// coalesce keeping the function past the end: an extent-1 last mode stays (NVlabs PyCuTe; not CuTe C++)
///
/// NVlabs PyCuTe's `coalesce_z` (not CuTe C++): coalesce that keeps `L(i)` for every integer
/// `i`, past the end too, so an extent-1 last mode may stay.
///
/// >>> str(coalesce_z(Layout((2, 1, 6, 1), (1, 7, 8, 0))))
/// '(2,6,1):(1,8,0)'
#[pyfunction]
#[pyo3(signature = (layout, profile = None))]
fn coalesce_z(
    py: Python<'_>,
    layout: &Bound<'_, PyAny>,
    profile: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    if is_other_kind(layout) {
        return table_call_opt(py, "coalesce_z", layout, given(profile));
    }
    let l = lref(layout)?;
    match given(profile) {
        Some(p) => layout_object(py, l.coalesce_z_by_mode(&to_tuple(p)?).py()?),
        None => layout_object(py, l.coalesce_z()),
    }
}

/// the sub-modes two shapes share in order, as index positions (NVlabs PyCuTe; not CuTe C++)
///
/// NVlabs PyCuTe's `greatest_common_domain` (not CuTe C++) of two shapes (or layouts' shapes):
/// the sub-modes they share in order, as a flat layout of index positions.
///
/// >>> str(greatest_common_domain((5, 3, 4), (10, 6)))
/// '(5,2):(1,30)'
#[pyfunction]
fn greatest_common_domain(
    py: Python<'_>,
    shape: &Bound<'_, PyAny>,
    shape2: &Bound<'_, PyAny>,
) -> PyResult<Py<PyAny>> {
    layout_object(
        py,
        shape_of(shape)?
            .greatest_common_domain(&shape_of(shape2)?)
            .py()?,
    )
}

/// the least shape both are compatible with (NVlabs PyCuTe; not CuTe C++)
///
/// NVlabs PyCuTe's `common_refinement` (not CuTe C++): the least shape both shapes (or
/// layouts' shapes) are compatible with.
///
/// >>> common_refinement((4, (3, 5)), ((2, 2), 15))
/// ((2, 2), (3, 5))
#[pyfunction]
fn common_refinement(
    py: Python<'_>,
    shape: &Bound<'_, PyAny>,
    shape2: &Bound<'_, PyAny>,
) -> PyResult<Py<PyAny>> {
    let r = shape_of(shape)?
        .common_refinement(&shape_of(shape2)?)
        .py()?;
    ret_tuple(py, &r)
}

/// the greatest shape compatible with both (NVlabs PyCuTe; not CuTe C++)
///
/// NVlabs PyCuTe's `common_coarsening` (not CuTe C++): the greatest shape compatible with both
/// shapes (or layouts' shapes); it exists exactly when their sizes agree.
///
/// >>> common_coarsening((4, (3, 5)), ((2, 2), 15))
/// (4, 15)
#[pyfunction]
fn common_coarsening(
    py: Python<'_>,
    shape: &Bound<'_, PyAny>,
    shape2: &Bound<'_, PyAny>,
) -> PyResult<Py<PyAny>> {
    let r = shape_of(shape)?
        .common_coarsening(&shape_of(shape2)?)
        .py()?;
    ret_tuple(py, &r)
}

/// `(shape, stride)`'s row-major layout (CuTe's `LayoutRight`).
#[pyfunction]
fn make_layout_right(py: Python<'_>, shape: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    layout_object(py, Layout::row_major(to_tuple(shape)?).py()?)
}

/// the shape
///
/// The shape of a layout (a tuple or int).
#[pyfunction]
fn shape(py: Python<'_>, layout: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    if let Ok(c) = layout.cast::<PyComposed>() {
        return ret_tuple(py, &c.get().inner.shape());
    }
    match layout.cast::<PyLayout>() {
        Ok(l) => l.get().shape(py),
        Err(_) => Ok(layout.clone().unbind()),
    }
}

/// the stride
///
/// The stride of a layout.
#[pyfunction]
fn stride(py: Python<'_>, layout: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let l = layout
        .cast::<PyLayout>()
        .map_err(|_| type_error("stride", layout))?;
    l.get().stride(py)
}

/// sub-layout at a hierarchical index (layout<I...>), or the element of a tuple
///
/// `mode(layout, i)`: the sub-layout at the hierarchical index `i` (an int or a sequence of
/// ints; CuTe's `layout<I...>`, the DSL's `get(layout, mode=i)`); of a composed layout or an int
/// tuple through the operation table.
///
/// >>> str(mode(Layout((4, (3, 6)), (1, (4, 12))), (1, 0)))
/// '3:4'
#[pyfunction]
#[pyo3(signature = (layout, i = None), text_signature = "(layout, i=())")]
fn mode(
    py: Python<'_>,
    layout: &Bound<'_, PyAny>,
    i: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let path = index_path("mode", i)?;
    let Ok(l) = layout.cast::<PyLayout>() else {
        let mut args = vec![to_arg(layout, 0)?];
        args.extend(path.iter().map(|&k| Arg::Int(k)));
        return run_table(py, "mode", &args);
    };
    let l = &l.get().inner;
    let found = path
        .iter()
        .map(|&k| usize::try_from(k).ok())
        .collect::<Option<Vec<usize>>>()
        .and_then(|p| l.mode_at(&p));
    match found {
        Some(m) => layout_object(py, m),
        None => Err(raise(
            "ModeOutOfRange",
            format!("mode: no mode {path:?} in layout {l}"),
        )),
    }
}

/// A hierarchical index: an int, or a sequence of ints (`None`: the empty path).
fn index_path(op: &str, i: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<i64>> {
    let Some(i) = i else {
        return Ok(Vec::new());
    };
    if let Some(k) = as_int(i)? {
        return Ok(vec![k]);
    }
    if i.is_instance_of::<PyString>() {
        return Err(type_error(
            &format!("{op}: an index is an int or a sequence of ints"),
            i,
        ));
    }
    i.try_iter()?.map(|k| int_arg(op, &k?)).collect()
}

/// Runs any operation of the operation table (`ops()` lists them) on Python arguments and
/// returns its result as a Python value (`Layout`, `ComposedLayout`, `Swizzle`, int, tuple, or
/// text for tables and pictures). Layout objects, ints, tuples (`None` for `_`), lists and
/// CuTe's text are accepted as arguments.
///
/// >>> str(run("composition", "(6,2):(8,2)", Layout((4, 3), (3, 1))))
/// '((2,2),3):((24,2),8)'
#[pyfunction]
#[pyo3(signature = (op, *args))]
fn run(py: Python<'_>, op: &str, args: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
    let items: Vec<Bound<'_, PyAny>> = args.iter().collect();
    let refs: Vec<&Bound<'_, PyAny>> = items.iter().collect();
    table_call(py, op, &refs)
}

/// As `run`, but returns the operation's text exactly as `cute OP` prints it.
#[pyfunction]
#[pyo3(signature = (op, *args))]
fn run_text(op: &str, args: &Bound<'_, PyTuple>) -> PyResult<String> {
    let a = args
        .iter()
        .map(|x| to_arg(&x, 0))
        .collect::<PyResult<Vec<_>>>()?;
    cute_ops::run_op(op, &a).map_err(operr)
}

/// The call behind each generated function of `cute_layout._ops`: runs `op` on `args` (the
/// values of its parameters in order; trailing `None`s after the first `required` are parameters
/// not given) followed by the items of `rest` (a repeating last parameter), and converts the
/// result by the op's declared result kinds.
#[pyfunction]
#[pyo3(signature = (op, required, args, rest = None))]
fn _call(
    py: Python<'_>,
    op: &str,
    required: usize,
    args: &Bound<'_, PyTuple>,
    rest: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let spec = spec_of(op)?;
    let mut n = args.len();
    while n > required && args.get_item(n - 1)?.is_none() {
        n -= 1;
    }
    let mut a = Vec::with_capacity(n);
    for k in 0..n {
        a.push(to_arg(&args.get_item(k)?, 0)?);
    }
    if let Some(r) = rest {
        if r.is_instance_of::<PyString>() {
            return Err(type_error(
                &format!("{op}: the repeating parameter takes a list or tuple"),
                r,
            ));
        }
        for x in r.try_iter()? {
            a.push(to_arg(&x?, 0)?);
        }
    }
    let text = cute_ops::run_op(op, &a).map_err(operr)?;
    Ok(from_kinds(py, spec.returns, text)?.unbind())
}

/// The declarations of the operation table, for the generator of `cute_layout._ops`: one dict
/// per operation with `name`, `topic`, `usage`, `summary`, `law`, `example`, `output`, `limits`,
/// `returns` (kind names) and `params` (a list of `(ident, label, arity, kinds)`; `arity` is
/// `one`, `optional`, `many` or `more`).
#[pyfunction]
fn _specs(py: Python<'_>) -> PyResult<Py<PyList>> {
    let out = PyList::empty(py);
    for s in cute_ops::all() {
        let d = PyDict::new(py);
        d.set_item("name", s.name)?;
        d.set_item("topic", s.topic.key())?;
        d.set_item("usage", s.usage())?;
        d.set_item("summary", s.summary)?;
        d.set_item("law", s.law)?;
        d.set_item("example", s.example.to_vec())?;
        d.set_item("output", s.output)?;
        d.set_item("limits", s.limits)?;
        let returns: Vec<&str> = s.returns.iter().map(|k| k.name()).collect();
        d.set_item("returns", returns)?;
        let names = s.param_names();
        let params = PyList::empty(py);
        for (p, ident) in s.params.iter().zip(names) {
            let arity = match p.arity {
                Arity::One => "one",
                Arity::Optional => "optional",
                Arity::Many => "many",
                Arity::OneOrMore => "more",
            };
            let kinds: Vec<&str> = p.kinds.iter().map(|k| k.name()).collect();
            params.append((ident, p.label(), arity, kinds))?;
        }
        d.set_item("params", params)?;
        out.append(d)?;
    }
    Ok(out.unbind())
}

fn err_object(py: Python<'_>, kind: &str, message: String) -> PyResult<Py<PyAny>> {
    let e = raise(kind, message);
    Ok(e.value(py).clone().into_any().unbind())
}

/// Many operations in one call. Each request is a batch-protocol JSON line (`str` or `bytes`,
/// `{"op": ..., "args": [...]}`), a dict `{"op": ..., "args": [...]}`, or a tuple
/// `(op, arg, ...)` of Python values. Returns one item per request: the result's text, or (for
/// a request that fails) the `LayoutError` it would raise, not raised. With `raw=True` each item
/// is the protocol's answer line instead (`{"ok": ...}` / `{"error": ..., "kind": ...}`).
///
/// >>> batch([("size", "(2,3):(1,2)"), '{"op":"rank","args":["(2,3):(1,2)"]}'])
/// ['6', '2']
#[pyfunction]
#[pyo3(signature = (requests, raw = false))]
fn batch(py: Python<'_>, requests: &Bound<'_, PyAny>, raw: bool) -> PyResult<Py<PyList>> {
    let out = PyList::empty(py);
    for req in requests.try_iter()? {
        let req = req?;
        let result: Result<String, OpError> = if let Ok(s) = req.cast::<PyString>() {
            cute_ops::request::handle_line(s.to_cow()?.as_bytes())
        } else if let Ok(b) = req.cast::<PyBytes>() {
            cute_ops::request::handle_line(b.as_bytes())
        } else if let Ok(d) = req.cast::<PyDict>() {
            let op: String = match d.get_item("op")? {
                Some(o) => o.extract()?,
                None => return Err(PyValueError::new_err("batch: a request dict needs \"op\"")),
            };
            let args = match d.get_item("args")? {
                Some(a) => a
                    .try_iter()?
                    .map(|x| to_arg(&x?, 0))
                    .collect::<PyResult<Vec<_>>>()?,
                None => Vec::new(),
            };
            cute_ops::run_op(&op, &args)
        } else if let Ok(t) = req.cast::<PyTuple>() {
            if t.is_empty() {
                return Err(PyValueError::new_err("batch: an empty request tuple"));
            }
            let op: String = t.get_item(0)?.extract()?;
            let args = t
                .iter()
                .skip(1)
                .map(|x| to_arg(&x, 0))
                .collect::<PyResult<Vec<_>>>()?;
            cute_ops::run_op(&op, &args)
        } else {
            return Err(type_error(
                "batch: a request is a JSON line, a dict or a tuple",
                &req,
            ));
        };
        if raw {
            out.append(cute_ops::request::answer_json(&result))?;
        } else {
            match result {
                Ok(text) => out.append(text)?,
                Err(e) => out.append(err_object(py, e.kind, e.message)?)?,
            }
        }
    }
    Ok(out.unbind())
}

/// The operation table: a list of `(name, usage, about)`.
#[pyfunction]
fn ops() -> Vec<(&'static str, String, &'static str)> {
    cute_ops::all()
        .map(|s| (s.name, s.usage(), s.summary))
        .collect()
}

/// The picture of `png(layout, tile)`: a layout, swizzled layout or swizzle, or a thread-value
/// layout over a tile.
fn layout_or_tv_svg(
    layout: &Bound<'_, PyAny>,
    tile: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    if let Ok(c) = layout.cast::<PyComposed>() {
        return c.get().picture(None);
    }
    if let Ok(c) = layout.cast::<PySwizzle>() {
        return c.get().picture(None);
    }
    let l = to_layout(layout)?;
    match given(tile) {
        Some(t) => render::svg_tv(&l, &to_tuple(t)?, &Style::new()).py(),
        None => layout_svg(&ComposedLayout::from(l), None),
    }
}

/// The picture of `svg(layout, tile)` as PNG bytes, `scale` pixels per SVG unit (default:
/// about 1600 pixels on the longer side). Past 16,384 pixels on a side or 16.8 million pixels
/// it raises `LayoutError` (kind `TooLarge`) at once, before drawing.
///
/// >>> png("(4,8):(8,1)")[:8]
/// b'\x89PNG\r\n\x1a\n'
#[pyfunction]
#[pyo3(signature = (layout, tile = None, scale = None))]
fn png<'py>(
    py: Python<'py>,
    layout: &Bound<'py, PyAny>,
    tile: Option<&Bound<'py, PyAny>>,
    scale: Option<f32>,
) -> PyResult<Bound<'py, PyBytes>> {
    to_png(py, layout_or_tv_svg(layout, tile)?, scale)
}

/// Any of this package's SVG pictures (`svg`, `picture`, `mma_svg`, `.svg()`) as PNG bytes,
/// as `png` draws them (the embedded font; the same limits).
#[pyfunction]
#[pyo3(signature = (svg, scale = None))]
fn svg_to_png<'py>(
    py: Python<'py>,
    svg: String,
    scale: Option<f32>,
) -> PyResult<Bound<'py, PyBytes>> {
    to_png(py, svg, scale)
}

/// Which picture Jupyter shows for layouts, swizzles, TV layouts, atoms and pictures: `"svg"`
/// (the default; sharp at any zoom) or `"png"` (for viewers that do not show SVG). Only the
/// chosen format is computed when an object is displayed. Returns the previous format.
#[pyfunction]
fn set_jupyter_format(format: &str) -> PyResult<&'static str> {
    let png = match format {
        "svg" => false,
        "png" => true,
        other => {
            return Err(raise(
                "BadRequest",
                format!("set_jupyter_format: {other:?}: expected \"svg\" or \"png\""),
            ))
        }
    };
    Ok(if DISPLAY_PNG.swap(png, Ordering::Relaxed) {
        "png"
    } else {
        "svg"
    })
}

/// The format `set_jupyter_format` chose: `"svg"` or `"png"`.
#[pyfunction]
fn jupyter_format() -> &'static str {
    if DISPLAY_PNG.load(Ordering::Relaxed) {
        "png"
    } else {
        "svg"
    }
}

/// Whether Jupyter is shown PNG (`set_jupyter_format("png")`) rather than SVG.
static DISPLAY_PNG: AtomicBool = AtomicBool::new(false);

/// A layout's or swizzled layout's picture with the front ends' default colours, fitted into
/// `fit` if given.
fn layout_svg(c: &ComposedLayout, fit: Option<(f64, f64)>) -> PyResult<String> {
    match fit {
        Some((w, h)) => cute_ops::view::layout_svg_fit(c, w, h),
        None => cute_ops::view::layout_svg(c),
    }
    .map_err(operr)
}

/// The box a picture fits in by default: about a notebook cell (pixels).
const FIT_BOX: (f64, f64) = (800.0, 600.0);

/// The box of `svg(width, height, fit)`: `None` without `fit`; a side not given is free when the
/// other is given, and both default to [`FIT_BOX`].
fn fit_box(width: Option<f64>, height: Option<f64>, fit: bool) -> Option<(f64, f64)> {
    fit.then(|| match (width, height) {
        (None, None) => FIT_BOX,
        (w, h) => (w.unwrap_or(f64::MAX), h.unwrap_or(f64::MAX)),
    })
}

/// `style` fitted into `fit` if given.
fn fitted(style: Style<'_>, fit: Option<(f64, f64)>) -> Style<'_> {
    match fit {
        Some((w, h)) => style.fit(w, h),
        None => style,
    }
}

/// `_repr_mimebundle_`: `text/plain` and the picture, SVG (`fitted`) or, after
/// `set_jupyter_format("png")`, PNG (of the `natural` SVG); a refused picture is left out.
fn mimebundle<'py>(
    py: Python<'py>,
    text: &str,
    fitted: impl FnOnce() -> PyResult<String>,
    natural: impl FnOnce() -> PyResult<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    if DISPLAY_PNG.load(Ordering::Relaxed) {
        if let Some(png) = natural().ok().and_then(|svg| to_png(py, svg, None).ok()) {
            d.set_item("image/png", png)?;
        }
    } else if let Ok(svg) = fitted() {
        d.set_item("image/svg+xml", svg)?;
    }
    d.set_item("text/plain", text)?;
    Ok(d)
}

/// `svg` as PNG bytes; the drawing runs without the GIL.
fn to_png<'py>(py: Python<'py>, svg: String, scale: Option<f32>) -> PyResult<Bound<'py, PyBytes>> {
    let bytes = py
        .detach(move || cute_ops::png::svg_to_png(&svg, scale))
        .map_err(operr)?;
    Ok(PyBytes::new(py, &bytes))
}

/// `_repr_svg_`: the picture, unless Jupyter is shown PNG or the picture is refused.
fn repr_svg(svg: impl FnOnce() -> PyResult<String>) -> Option<String> {
    if DISPLAY_PNG.load(Ordering::Relaxed) {
        return None;
    }
    svg().ok()
}

/// `_repr_png_`: the picture as PNG when Jupyter is shown PNG (`set_jupyter_format`).
fn repr_png<'py>(
    py: Python<'py>,
    svg: impl FnOnce() -> PyResult<String>,
) -> Option<Bound<'py, PyBytes>> {
    if !DISPLAY_PNG.load(Ordering::Relaxed) {
        return None;
    }
    to_png(py, svg().ok()?, None).ok()
}

/// The picture (SVG) of any operation of the table, as the web page and `cute svg` draw it:
/// `picture("show", L)`, `picture("tv", TV, TILE)`, `picture("banks", L, ...)`, or any
/// operation's result (thread-value fields of atoms on their tile, divides and products beside
/// their operands).
///
/// >>> picture("logical_divide", "(8,8):(1,8)", "(2,4)").startswith("<svg")
/// True
#[pyfunction]
#[pyo3(signature = (op, *args))]
fn picture(op: &str, args: &Bound<'_, PyTuple>) -> PyResult<String> {
    let a = args
        .iter()
        .map(|x| to_arg(&x, 0))
        .collect::<PyResult<Vec<_>>>()?;
    cute_ops::view::picture(op, &a).map_err(operr)
}

fn opt_text(x: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    given(x).map(|v| to_text(v, 0)).transpose()
}

/// The tiled MMA of `atom` with an optional atom layout and permutation (CuTe text or values).
fn tiled_mma(
    atom: &str,
    atom_layout: Option<&Bound<'_, PyAny>>,
    permutation: Option<&Bound<'_, PyAny>>,
) -> PyResult<TiledMma> {
    let (l, p) = (opt_text(atom_layout)?, opt_text(permutation)?);
    cute_ops::atoms::make_tiled_mma(atom, l.as_deref(), p.as_deref()).map_err(operr)
}

/// A tiled MMA's picture as CuTe's `print_latex` draws it (C, A and B panels), in SVG:
/// `mma_svg(atom, atom_layout=None, permutation=None, width=None, height=None, fit=False)`;
/// with `fit=True` fitted into `width` x `height` pixels as `Layout.svg` is.
#[pyfunction]
#[pyo3(signature = (atom, atom_layout = None, permutation = None, width = None, height = None, fit = false))]
fn mma_svg(
    atom: &str,
    atom_layout: Option<&Bound<'_, PyAny>>,
    permutation: Option<&Bound<'_, PyAny>>,
    width: Option<f64>,
    height: Option<f64>,
    fit: bool,
) -> PyResult<String> {
    let mma = tiled_mma(atom, atom_layout, permutation)?;
    render::svg_mma(&mma, &fitted(Style::new(), fit_box(width, height, fit)))
        .map_err(OpError::from)
        .map_err(operr)
}

/// The same picture as LaTeX/TikZ (CuTe's `print_latex` of a TiledMMA).
#[pyfunction]
#[pyo3(signature = (atom, atom_layout = None, permutation = None))]
fn mma_latex(
    atom: &str,
    atom_layout: Option<&Bound<'_, PyAny>>,
    permutation: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let mma = tiled_mma(atom, atom_layout, permutation)?;
    render::latex_mma(&mma)
        .map_err(OpError::from)
        .map_err(operr)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("LayoutError", py.get_type::<LayoutError>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    // Default kinds on the classes, so a user-raised error also has one.
    py.get_type::<LayoutError>()
        .setattr("kind", "LayoutError")?;
    py.get_type::<ParseError>().setattr("kind", "ParseError")?;
    m.add_class::<PyLayout>()?;
    m.add_class::<PySwizzle>()?;
    m.add_class::<PyComposed>()?;
    m.add_class::<PyTV>()?;
    m.add_class::<PyBasis>()?;
    m.add_function(wrap_pyfunction!(_call, m)?)?;
    m.add_function(wrap_pyfunction!(_specs, m)?)?;
    m.add_function(wrap_pyfunction!(make_identity_layout, m)?)?;
    m.add_function(wrap_pyfunction!(size, m)?)?;
    m.add_function(wrap_pyfunction!(cosize, m)?)?;
    m.add_function(wrap_pyfunction!(rank, m)?)?;
    m.add_function(wrap_pyfunction!(depth, m)?)?;
    m.add_function(wrap_pyfunction!(shape, m)?)?;
    m.add_function(wrap_pyfunction!(stride, m)?)?;
    m.add_function(wrap_pyfunction!(mode, m)?)?;
    m.add_function(wrap_pyfunction!(flatten, m)?)?;
    m.add_function(wrap_pyfunction!(coalesce, m)?)?;
    m.add_function(wrap_pyfunction!(filter, m)?)?;
    m.add_function(wrap_pyfunction!(filter_zeros, m)?)?;
    m.add_function(wrap_pyfunction!(composition, m)?)?;
    m.add_function(wrap_pyfunction!(complement, m)?)?;
    m.add_function(wrap_pyfunction!(pycute_complement, m)?)?;
    m.add_function(wrap_pyfunction!(right_inverse, m)?)?;
    m.add_function(wrap_pyfunction!(left_inverse, m)?)?;
    m.add_function(wrap_pyfunction!(nullspace, m)?)?;
    m.add_function(wrap_pyfunction!(logical_divide, m)?)?;
    m.add_function(wrap_pyfunction!(zipped_divide, m)?)?;
    m.add_function(wrap_pyfunction!(tiled_divide, m)?)?;
    m.add_function(wrap_pyfunction!(flat_divide, m)?)?;
    m.add_function(wrap_pyfunction!(logical_product, m)?)?;
    m.add_function(wrap_pyfunction!(zipped_product, m)?)?;
    m.add_function(wrap_pyfunction!(tiled_product, m)?)?;
    m.add_function(wrap_pyfunction!(flat_product, m)?)?;
    m.add_function(wrap_pyfunction!(blocked_product, m)?)?;
    m.add_function(wrap_pyfunction!(raked_product, m)?)?;
    m.add_function(wrap_pyfunction!(tile_to_shape, m)?)?;
    m.add_function(wrap_pyfunction!(upcast, m)?)?;
    m.add_function(wrap_pyfunction!(downcast, m)?)?;
    m.add_function(wrap_pyfunction!(recast, m)?)?;
    m.add_function(wrap_pyfunction!(max_common_vector, m)?)?;
    m.add_function(wrap_pyfunction!(max_common_layout, m)?)?;
    m.add_function(wrap_pyfunction!(crd2idx, m)?)?;
    m.add_function(wrap_pyfunction!(idx2crd, m)?)?;
    m.add_function(wrap_pyfunction!(pycute_crd2crd, m)?)?;
    m.add_function(wrap_pyfunction!(slice_, m)?)?;
    m.add_function(wrap_pyfunction!(slice_and_offset, m)?)?;
    m.add_function(wrap_pyfunction!(make_layout, m)?)?;
    m.add_function(wrap_pyfunction!(make_layout_right, m)?)?;
    m.add_function(wrap_pyfunction!(shape_div, m)?)?;
    m.add_function(wrap_pyfunction!(prefix_product, m)?)?;
    m.add_function(wrap_pyfunction!(inner_product, m)?)?;
    m.add_function(wrap_pyfunction!(layout_add, m)?)?;
    m.add_function(wrap_pyfunction!(coalesce_z, m)?)?;
    m.add_function(wrap_pyfunction!(greatest_common_domain, m)?)?;
    m.add_function(wrap_pyfunction!(common_refinement, m)?)?;
    m.add_function(wrap_pyfunction!(common_coarsening, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(run_text, m)?)?;
    m.add_function(wrap_pyfunction!(batch, m)?)?;
    m.add_function(wrap_pyfunction!(ops, m)?)?;
    m.add_function(wrap_pyfunction!(png, m)?)?;
    m.add_function(wrap_pyfunction!(svg_to_png, m)?)?;
    m.add_function(wrap_pyfunction!(set_jupyter_format, m)?)?;
    m.add_function(wrap_pyfunction!(jupyter_format, m)?)?;
    m.add_function(wrap_pyfunction!(picture, m)?)?;
    m.add_function(wrap_pyfunction!(mma_svg, m)?)?;
    m.add_function(wrap_pyfunction!(mma_latex, m)?)?;
    Ok(())
}
