//! Code generation and the shared-memory layout search ([`cute_layout::gpu::codegen`],
//! [`cute_layout::gpu::smem_search`]): `codegen`, `codegen_check`, `smem_search`, `smem_evaluate`.
//! The functions below are also what `cute codegen` and `cute smem-search` call.

use cute_layout::gpu::codegen::{emit_check, emit_cpp, Options};
use cute_layout::gpu::smem_search::{search, Evaluation, Problem};
use cute_layout::render::Banks;
use cute_layout::{ComposedLayout, IntTuple, Layout};

use crate::composed_ops::Func;
use crate::{op, Args, OpError, OpSpec};

/// Code generation and shared-memory layout search. One line per operation.
#[rustfmt::skip]
pub static CODEGEN_OPS: &[OpSpec] = &[
    op("codegen", "LAYOUT|COMPOSED [NAME] [NAMESPACE]", (1, 3), "C++ header: int64_t NAME(i) and NAME(c0, c1, ...) computing the layout (default name f)", |a| codegen_op(a, false)),
    op("codegen_check", "LAYOUT|COMPOSED [NAME] [NAMESPACE]", (1, 3), "C++ test program comparing codegen's NAME (from NAME.hpp) with the library at every point", |a| codegen_op(a, true)),
    op("smem_search", "TILE WRITE_TV READ_TV [ELEM_BYTES [WRITE_LANES [READ_LANES]]]", (3, 6), "shared-memory layout of TILE with fewest bank conflicts for both TV layouts, widest vectors (default 4-byte elements; LANES: lanes per warp that supply addresses, default 32, 16 for ldmatrix.x2)", |a| Ok(smem_search_report(&a.text_arg(0)?, &a.text_arg(1)?, &a.text_arg(2)?, SmemAccess { elem_bytes: elem(a, 3)?, lanes: (lanes(a, 4)?, lanes(a, 5)?) }, &[], 1, None)?.trim_end().to_string())),
    op("smem_evaluate", "TILE WRITE_TV READ_TV ELEM_BYTES SMEM [WRITE_LANES [READ_LANES]]", (5, 7), "wavefronts and bank conflicts per tile of both TV layouts with the tile stored as SMEM (LANES as smem_search)", |a| Ok(smem_search_report(&a.text_arg(0)?, &a.text_arg(1)?, &a.text_arg(2)?, SmemAccess { elem_bytes: elem(a, 3)?, lanes: (lanes(a, 5)?, lanes(a, 6)?) }, &[a.text_arg(4)?], 0, None)?.trim_end().to_string())),
];

fn elem(a: &Args<'_>, k: usize) -> Result<i64, OpError> {
    if a.len() > k {
        a.int(k)
    } else {
        Ok(4)
    }
}

/// Argument `k` as a lane count (default 32); the library checks its range.
fn lanes(a: &Args<'_>, k: usize) -> Result<usize, OpError> {
    if a.len() <= k {
        return Ok(32);
    }
    let n = a.int(k)?;
    usize::try_from(n).map_err(|_| {
        OpError::new(
            "BadRequest",
            format!("smem_search: address lanes {n} is not from 1 to 32"),
        )
    })
}

fn composed(a: &Args<'_>, k: usize) -> Result<ComposedLayout, OpError> {
    match a.func(k)? {
        Func::Layout(l) => Ok(l.into()),
        Func::Composed(c) => Ok(c),
        Func::Swizzle(s) => Err(OpError::new(
            "BadRequest",
            format!(
                "codegen: argument {}: {s} is a swizzle, not a layout (write {s} o 0 o LAYOUT)",
                k + 1
            ),
        )),
        Func::Chain(c) => Err(OpError::new(
            "NotImplemented",
            format!(
                "codegen: argument {}: {c} has a layout as its outer function; code is emitted for layouts and Sw<B,M,S> o OFFSET o LAYOUT",
                k + 1
            ),
        )),
    }
}

fn codegen_op(a: &Args<'_>, check: bool) -> Result<String, OpError> {
    let c = composed(a, 0)?;
    let name = if a.len() > 1 {
        a.text_arg(1)?
    } else {
        String::from("f")
    };
    let ns = if a.len() > 2 {
        Some(a.text_arg(2)?)
    } else {
        None
    };
    codegen(&c, &name, ns.as_deref(), check, None).map(|s| s.trim_end().to_string())
}

/// `cute codegen`: the header for `c` (or, with `check`, the test program including `header`,
/// by default `NAME.hpp`).
///
/// # Errors
/// `InvalidArgument` for a name or namespace that is not a C++ identifier; `TooLarge` for a
/// check of more than [`cute_layout::gpu::codegen::MAX_CHECK_POINTS`] points.
pub fn codegen(
    c: &ComposedLayout,
    name: &str,
    namespace: Option<&str>,
    check: bool,
    header: Option<&str>,
) -> Result<String, OpError> {
    let mut opts = Options::new(name)?;
    if let Some(ns) = namespace {
        opts = opts.namespace(ns)?;
    }
    Ok(if check {
        let default = format!("{name}.hpp");
        emit_check(c, &opts, header.unwrap_or(&default))?
    } else {
        emit_cpp(c, &opts)?
    })
}

fn parse<T: core::str::FromStr<Err = cute_layout::ParseError>>(
    what: &str,
    text: &str,
) -> Result<T, OpError> {
    text.trim()
        .parse()
        .map_err(|e| OpError::new("ParseError", format!("smem_search: {what}: {e}")))
}

fn side_line(label: &str, e: &Evaluation) -> String {
    let s = if label == "write" { e.write } else { e.read };
    format!(
        "{label}_vector_bytes={} {label}_requests={} {label}_wavefronts={} {label}_conflicts={}",
        s.vector_bytes,
        s.requests,
        s.wavefronts,
        s.conflicts()
    )
}

/// How a tile's elements are accessed, for [`smem_search_report`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmemAccess {
    /// Bytes per element.
    pub elem_bytes: i64,
    /// Lanes of each warp that supply addresses, (writes, reads): [`Problem::address_lanes`].
    pub lanes: (usize, usize),
}

impl Default for SmemAccess {
    /// 4-byte elements, addresses from all 32 lanes.
    fn default() -> Self {
        SmemAccess {
            elem_bytes: 4,
            lanes: (32, 32),
        }
    }
}

/// `cute smem-search`: the best `top` layouts of the search (with `given` empty) or the
/// evaluation of each layout in `given`, for the element size and address lanes of `access`
/// (`kind`, if given, keeps only search results of that kind:
/// `row-major`, `column-major`, `padded`, `swizzled`), each as the [`Evaluation`] text and one `key=value`
/// line (`kind=... write_conflicts=... layout=LAYOUT`, per tile, the layout last) for scripts.
///
/// # Errors
/// `ParseError` for arguments that do not parse; the library's errors for a tile, TV layouts or
/// element size outside the search's domain.
pub fn smem_search_report(
    tile: &str,
    write: &str,
    read: &str,
    access: SmemAccess,
    given: &[String],
    top: usize,
    kind: Option<&str>,
) -> Result<String, OpError> {
    let tile: IntTuple = parse("tile", tile)?;
    let write: Layout = parse("write layout", write)?;
    let read: Layout = parse("read layout", read)?;
    let p = Problem::new(tile, write, read, Banks::new(32, access.elem_bytes)?)?
        .address_lanes(access.lanes.0, access.lanes.1)?;
    let results: Vec<Evaluation> = if given.is_empty() {
        search(&p)?
            .into_iter()
            .filter(|e| kind.is_none_or(|k| e.kind == k))
            .take(top.max(1))
            .collect()
    } else {
        given
            .iter()
            .map(|g| {
                p.evaluate(&parse::<ComposedLayout>("layout", g)?)
                    .map_err(OpError::from)
            })
            .collect::<Result<_, _>>()?
    };
    let mut out = String::new();
    for e in &results {
        out += &format!(
            "{e}\nkind={} footprint={} {} {} layout={}\n",
            e.kind,
            e.footprint,
            side_line("write", e),
            side_line("read", e),
            e.layout
        );
    }
    Ok(out)
}
