//! The operations of the `cute` command, `cute batch`, the Python package and the web page, in
//! one table ([`OPS`]), and the batch protocol's request form ([`request`]).
//!
//! This crate holds no algebra: every entry converts its text arguments, calls
//! [`cute_layout`], and writes the result in CuTe's text form. Each entry names the operation
//! (CuTe's name), its argument usage, how many arguments it takes and the function. Adding an
//! operation is one line in [`OPS`]; [`run_op`] does the lookup, the arity check and the error
//! mapping for every front end.
//!
//! Results: layouts and tuples in the text form (`(2,(2,2)):(4,(2,1))`, `(1,(1,2))`), integers in
//! decimal, booleans as `1` / `0` (as CuTe prints its static `true` / `false`).
//!
//! The cargo feature `png` adds the module `png`: pictures as PNG bytes (resvg with an embedded
//! font), off by default so that the table alone stays light.
//!
//! ```
//! use cute_ops::{run_op, Arg};
//! let r = run_op("composition", &[Arg::Text("(6,2):(8,2)".into()), Arg::Text("(4,3):(3,1)".into())]);
//! assert_eq!(r.unwrap(), "((2,2),3):((24,2),8)");
//! assert_eq!(cute_ops::request::answer_line(br#"{"op":"size","args":["(2,3):(1,2)"]}"#), r#"{"ok": "6"}"#);
//! ```
#![forbid(unsafe_code)]

use std::fmt;
use std::str::FromStr;

use cute_layout::{ComposedLayout, IntTuple, Layout, LayoutError, Order, ParseError, Tiler};

pub mod analysis;
mod analysis_ops;
pub mod atoms;
mod basis_ops;
mod chain_ops;
pub mod codegen;
mod composed_ops;
mod construct_ops;
pub mod copy_atoms;
mod equality_ops;
pub mod f2_ops;
pub mod help;
pub mod picture_ops;
#[cfg(feature = "png")]
pub mod png;
mod pointer_ops;
mod pycute_ops;
pub mod request;
pub mod show;
mod smem_atom_ops;
mod symbolic_ops;
mod tensor_ops;
mod tensor_restructure_ops;
#[cfg(test)]
mod test_util;
mod tma_ops;
mod tuple_fn_ops;
mod tuple_ops;
#[cfg(test)]
mod usage_audit;
pub mod view;

/// One argument of an operation: text in CuTe's form (the command line gives only these), an
/// integer, or a list (a swizzle's `[B, M, S]` in `cute batch`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// Text form: a layout, a tuple, an integer, a tag such as `LayoutLeft`.
    Text(String),
    /// A JSON integer.
    Int(i64),
    /// A JSON list.
    List(Vec<Arg>),
}

impl fmt::Display for Arg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arg::Text(s) => f.write_str(s),
            Arg::Int(i) => write!(f, "{i}"),
            Arg::List(items) => {
                f.write_str("[")?;
                for (k, a) in items.iter().enumerate() {
                    if k > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{a}")?;
                }
                f.write_str("]")
            }
        }
    }
}

/// Why an operation gave no result: the error variant's name (`kind`, as in `cute batch`'s
/// `"kind"` field) and a one-line message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpError {
    /// The variant: a [`LayoutError::kind`] name, or one of `ParseError`, `BadRequest`,
    /// `UnknownOp`, `Arity`, `NotImplemented`.
    pub kind: &'static str,
    /// What went wrong, with the values involved.
    pub message: String,
}

impl OpError {
    /// An error of the given kind.
    pub fn new(kind: &'static str, message: impl Into<String>) -> Self {
        OpError {
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for OpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for OpError {}

impl From<LayoutError> for OpError {
    fn from(e: LayoutError) -> Self {
        OpError::new(e.kind(), e.to_string())
    }
}

/// One operation: see the [module docs](self).
pub struct OpSpec {
    /// CuTe's name.
    pub name: &'static str,
    /// Argument usage, e.g. `LAYOUT [PROFILE]`.
    pub usage: &'static str,
    /// Fewest arguments.
    pub min: usize,
    /// Most arguments.
    pub max: usize,
    /// One-line description.
    pub about: &'static str,
    /// The operation; called with between `min` and `max` arguments.
    pub run: fn(&Args<'_>) -> Result<String, OpError>,
}

const MANY: usize = 64;

pub(crate) const fn op(
    name: &'static str,
    usage: &'static str,
    (min, max): (usize, usize),
    about: &'static str,
    run: fn(&Args<'_>) -> Result<String, OpError>,
) -> OpSpec {
    OpSpec {
        name,
        usage,
        min,
        max,
        about,
        run,
    }
}

/// The groups of operations, in the order `cute ops` lists them. A family of operations with a
/// file of its own (atoms, code generation, ...) adds its table here; [`all`] and [`find`] see
/// every group.
pub static GROUPS: &[&[OpSpec]] = &[
    OPS,
    tuple_ops::TUPLE_OPS,
    construct_ops::CONSTRUCT_OPS,
    atoms::ATOM_OPS,
    copy_atoms::COPY_OPS,
    codegen::CODEGEN_OPS,
    analysis_ops::ANALYSIS_OPS,
    pycute_ops::PYCUTE_OPS,
    basis_ops::BASIS_OPS,
    tensor_ops::TENSOR_OPS,
    tensor_restructure_ops::TENSOR_RESTRUCTURE_OPS,
    picture_ops::PICTURE_OPS,
    smem_atom_ops::SMEM_ATOM_OPS,
    equality_ops::EQUALITY_OPS,
    tma_ops::TMA_OPS,
    tuple_fn_ops::TUPLE_FN_OPS,
    f2_ops::F2_OPS,
    symbolic_ops::SYMBOLIC_OPS,
    pointer_ops::POINTER_OPS,
];

/// Every operation of every group, in the order `cute ops` lists them.
pub fn all() -> impl Iterator<Item = &'static OpSpec> {
    GROUPS.iter().flat_map(|g| g.iter())
}

/// The layout algebra's operations: name, usage, (min, max) arguments, what it computes, and
/// the function. One line per operation (hence `rustfmt::skip`).
#[rustfmt::skip]
pub static OPS: &[OpSpec] = &[
    // construction
    op("make_layout", "SHAPE [STRIDE|LayoutLeft|LayoutRight]", (1, 2), "layout from a shape and a stride or a stride order (default LayoutLeft)", make_layout),
    op("make_ordered_layout", "SHAPE ORDER", (2, 2), "compact layout whose strides increase in ORDER", |a| first(symbolic_ops::symbolic(a, "make_ordered_layout"), || Ok(Layout::ordered(a.tuple(0)?, a.tuple(1)?)?.to_string()))),
    op("make_identity_layout", "SHAPE", (1, 1), "the shape with unit basis strides: maps each coordinate to itself", composed_ops::make_identity_layout),
    op("concat", "LAYOUT...", (1, MANY), "the layout whose modes are the arguments (make_layout(l0, l1, ...))", |a| Ok(Layout::from_modes(a.layouts()?)?.to_string())),
    op("append", "LAYOUT|COMPOSED|TUPLE LAYOUT|TUPLE", (2, 2), "modes of the first, then the second as one more mode (elements of a tuple; of the inner layout if composed)", |a| first(if a.is_swizzled(0) { let x = a.layout(1)?; chain_ops::inner(a, 0, |l| l.append(&x)) } else { Ok(None) }, || Ok(match a.layout_or_tuple(0)? { Either::Layout(l) => l.append(&a.layout(1)?)?.to_string(), Either::Tuple(t) => t.append(&a.tuple(1)?)?.to_string() }))),
    op("prepend", "LAYOUT|TUPLE LAYOUT|TUPLE", (2, 2), "the second as the first mode, then the modes of the first (elements of a tuple)", |a| Ok(match a.layout_or_tuple(0)? { Either::Layout(l) => l.prepend(&a.layout(1)?)?.to_string(), Either::Tuple(t) => t.prepend(&a.tuple(1)?)?.to_string() })),
    op("replace", "LAYOUT|TUPLE I LAYOUT|TUPLE", (3, 3), "mode I replaced by the second layout (element I of a tuple)", |a| Ok(match a.layout_or_tuple(0)? { Either::Layout(l) => l.replace(a.index(1)?, &a.layout(2)?)?.to_string(), Either::Tuple(t) => t.replace(a.index(1)?, &a.tuple(2)?)?.to_string() })),
    op("insert", "TUPLE I TUPLE", (3, 3), "CuTe insert<I>: the second tuple placed before element I of the first", |a| Ok(a.tuple(0)?.insert(a.index(1)?, &a.tuple(2)?)?.to_string())),
    op("remove", "TUPLE I", (2, 2), "CuTe remove<I>: the tuple without element I", |a| Ok(a.tuple(0)?.remove(a.index(1)?)?.to_string())),
    op("group", "LAYOUT|COMPOSED|TUPLE|TENSOR BEGIN END", (3, 3), "modes [BEGIN, END) grouped into one mode (of the inner layout if composed; elements of a tuple); of a tensor (counting, coordinate or pointer), CuTe's group_modes<B,E>(tensor)", |a| tensor_restructure_ops::on_tensor(a, 0, tensor_restructure_ops::group, || { let (b, e) = (a.index(1)?, a.index(2)?); first(chain_ops::inner(a, 0, |l| l.group_modes(b, e)), || Ok(match a.layout_or_tuple(0)? { Either::Layout(l) => l.group_modes(b, e)?.to_string(), Either::Tuple(t) => t.group(b, e)?.to_string() })) })),
    op("take", "LAYOUT|COMPOSED|TUPLE|TENSOR BEGIN END", (3, 3), "the tuple of modes [BEGIN, END) (of the inner layout if composed; elements of a tuple); of a tensor (counting, coordinate or pointer), CuTe's take<B,E>(tensor)", |a| tensor_restructure_ops::on_tensor(a, 0, tensor_restructure_ops::take, || { let (b, e) = (a.index(1)?, a.index(2)?); first(chain_ops::inner(a, 0, |l| l.take_modes(b, e)), || Ok(match a.layout_or_tuple(0)? { Either::Layout(l) => l.take_modes(b, e)?.to_string(), Either::Tuple(t) => t.take(b, e)?.to_string() })) })),
    op("select", "LAYOUT|TUPLE I...", (2, MANY), "the tuple of the listed modes (elements of a tuple)", |a| Ok(match a.layout_or_tuple(0)? { Either::Layout(l) => l.select_modes(&a.indices(1)?)?.to_string(), Either::Tuple(t) => t.select(&a.indices(1)?)?.to_string() })),
    op("mode", "LAYOUT|COMPOSED|TUPLE I...", (1, MANY), "sub-layout at a hierarchical index (layout<I...>), or the element of a tuple", mode_any),
    op("flatten", "LAYOUT|COMPOSED|TUPLE|TENSOR", (1, 1), "all leaves as one flat tuple; of a tensor (counting, coordinate or pointer), the tensor over the flattened layout", |a| tensor_restructure_ops::on_tensor(a, 0, tensor_restructure_ops::flatten, || first(chain_ops::query(a, |c| c.map(|l| Ok(l.flatten())).map_or_else(|e| e.to_string(), |c| c.to_string())), || flatten(a)))),
    op("slice", "COORD LAYOUT|COMPOSED|TENSOR", (2, 2), "the sub-layout of the modes where COORD has _ (slice(coord, layout)); of a tensor, CuTe's tensor(coord)", |a| first(tensor_ops::slice(a), || chain_ops::slice(a))),
    op("slice_and_offset", "COORD LAYOUT|COMPOSED", (2, 2), "(slice, offset of the fixed entries); composed: the offset moves inside, 0", chain_ops::slice_and_offset),
    // queries
    op("size", "LAYOUT|COMPOSED|TUPLE", (1, 1), "number of points (product of the shape)", |a| first(symbolic_ops::symbolic(a, "size"), || first(chain_ops::query(a, |c| c.size().to_string()), || Ok(a.shape(0)?.size()?.to_string())))),
    op("cosize", "LAYOUT|COMPOSED", (1, 1), "CuTe's cosize: one past the last offset (of the inner layout if composed)", |a| first(chain_ops::query(a, |c| c.cosize().to_string()), || Ok(if a.is_basis(0) { a.basis_layout(0)?.cosize()? } else { a.layout(0)?.cosize() }.to_string()))),
    op("rank", "LAYOUT|COMPOSED|TUPLE", (1, 1), "number of top-level modes", |a| first(chain_ops::query(a, |c| c.rank().to_string()), || Ok(a.shape(0)?.rank().to_string()))),
    op("depth", "LAYOUT|COMPOSED|TUPLE", (1, 1), "nesting depth (0 for an integer)", |a| first(chain_ops::query(a, |c| c.depth().to_string()), || Ok(a.shape(0)?.depth().to_string()))),
    op("shape", "LAYOUT|COMPOSED", (1, 1), "the shape", |a| first(chain_ops::query(a, |c| c.shape().to_string()), || Ok(a.layout(0)?.shape().to_string()))),
    op("stride", "LAYOUT", (1, 1), "the stride", |a| Ok(a.layout(0)?.stride().to_string())),
    op("crd2idx", "COORD LAYOUT|COMPOSED|SHAPE [STRIDE]", (2, 3), "index of a 1-D, R-D or natural coordinate (colexicographic for a shape; a coordinate for basis strides)", |a| first(chain_ops::crd2idx(a), || crd2idx(a))),
    op("idx2crd", "INDEX SHAPE|LAYOUT [STRIDE]", (2, 3), "natural coordinate: idx2crd(i, shape), or (i / d) % s per leaf of a layout", idx2crd),
    op("get_hier_coord", "LAYOUT INDEX", (2, 2), "CuTe Layout::get_hier_coord: the natural coordinate of the index, idx2crd(i, shape, stride)", |a| Ok(a.layout(0)?.coord(a.int(1)?)?.to_string())),
    op("get_flat_coord", "LAYOUT INDEX", (2, 2), "CuTe Layout::get_flat_coord: get_hier_coord with each top-level mode as its 1-D index (one integer for rank 1)", |a| Ok(a.layout(0)?.flat_coord(a.int(1)?)?.to_string())),
    op("get_1d_coord", "LAYOUT INDEX", (2, 2), "CuTe Layout::get_1d_coord: the colexicographic 1-D index of get_hier_coord", |a| Ok(a.layout(0)?.coord_1d(a.int(1)?)?.to_string())),
    op("crd2crd", "COORD SHAPE SHAPE", (3, 3), "a coordinate of one shape as a coordinate of another", |a| Ok(a.tuple(1)?.crd2crd(&a.tuple(0)?, &a.tuple(2)?)?.to_string())),
    op("congruent", "TUPLE TUPLE", (2, 2), "same tree", |a| Ok(bit(a.shape(0)?.congruent(&a.shape(1)?)))),
    op("weakly_congruent", "TUPLE TUPLE", (2, 2), "every tuple of the first matched by one of the second", |a| Ok(bit(a.shape(0)?.weakly_congruent(&a.shape(1)?)))),
    op("compatible", "TUPLE TUPLE", (2, 2), "sizes agree and coordinates of the first fit the second", |a| Ok(bit(a.shape(0)?.compatible(&a.shape(1)?)))),
    // algebra
    op("coalesce", "LAYOUT|COMPOSED|SYMBOLIC|TENSOR [PROFILE]", (1, 2), "fewest modes with the same function (by profile if given); of a tensor (counting, coordinate or pointer), the tensor over the coalesced layout", |a| tensor_restructure_ops::on_tensor(a, 0, tensor_restructure_ops::coalesce, || first(symbolic_ops::symbolic(a, "coalesce"), || first(chain_ops::coalesce(a), || if a.is_basis(0) && a.len() == 1 { Ok(a.basis_layout(0)?.coalesce()?.to_string()) } else { Ok(if a.len() == 2 { a.layout(0)?.coalesce_by_mode(&a.profile(1)?)? } else { a.layout(0)?.coalesce() }.to_string()) })))),
    op("filter", "LAYOUT|COMPOSED|TENSOR [PROFILE]", (1, 2), "coalesce without stride-0 and extent-1 modes (at the terminals of PROFILE; of the inner layout if composed); of a tensor (counting, coordinate or pointer), the tensor over the filtered layout", |a| if a.len() == 2 && a.is_tensor(0) { Err(OpError::new("BadRequest", "filter: a tensor takes no PROFILE (filter its layout with one, then make the tensor)".to_string())) } else { tensor_restructure_ops::on_tensor(a, 0, tensor_restructure_ops::filter, || filter(a)) }),
    op("filter_zeros", "LAYOUT|TENSOR", (1, 1), "stride-0 modes get extent 1; of a tensor (counting, coordinate or pointer), the tensor over that layout", |a| tensor_restructure_ops::on_tensor(a, 0, tensor_restructure_ops::filter_zeros, || Ok(a.layout(0)?.filter_zeros().to_string()))),
    op("complement", "LAYOUT|COMPOSED|SYMBOLIC [COTARGET]", (1, 2), "the layout filling the gaps of the image up to COTARGET (default cosize); of the inner layout if composed", |a| first(symbolic_ops::symbolic(a, "complement"), || first(chain_ops::complement(a), || if a.is_basis(0) { Err(composed_ops::basis_not_cutes(a, "the complement of a basis-strided layout")) } else { Ok(if a.len() == 2 { a.layout(0)?.complement_shape(&a.tuple(1)?)? } else { a.layout(0)?.complement_cosize()? }.to_string()) }))),
    op("composition", "LAYOUT|SWIZZLE|COMPOSED|SYMBOLIC|TENSOR LAYOUT|TILER|SWIZZLE|COMPOSED|SYMBOLIC", (2, 2), "A o B: R(c) = A(B(c)); of a tensor (counting, coordinate or pointer) and a layout or tiler, the tensor over A o B", |a| tensor_restructure_ops::on_tensor(a, 0, tensor_restructure_ops::composition, || first(symbolic_ops::symbolic(a, "composition"), || composed_ops::composition(a)))),
    op("with_shape", "LAYOUT SHAPE", (2, 2), "the layout re-indexed by a shape (A o col_major(shape))", |a| Ok(a.layout(0)?.with_shape(&a.tuple(1)?)?.to_string())),
    op("right_inverse", "LAYOUT|COMPOSED|SYMBOLIC", (1, 1), "largest R with A(R(i)) = i", |a| first(symbolic_ops::symbolic(a, "right_inverse"), || composed_ops::inverse(a, true))),
    op("left_inverse", "LAYOUT|COMPOSED", (1, 1), "R with R(A(i)) = i (quasi-inverse if not injective)", |a| composed_ops::inverse(a, false)),
    op("nullspace", "LAYOUT|COMPOSED", (1, 1), "the coordinates A maps to 0 (1:0 for a composed layout, as CuTe)", |a| first(chain_ops::nullspace(a), || Ok(if a.is_basis(0) { a.basis_layout(0)?.nullspace() } else { a.layout(0)?.nullspace() }.to_string()))),
    op("max_common_vector", "LAYOUT|COMPOSED LAYOUT|COMPOSED", (2, 2), "number of leading elements both layouts map alike", |a| first(chain_ops::max_common_vector(a), || Ok(a.layout(0)?.max_common_vector(&a.layout(1)?).to_string()))),
    op("max_common_layout", "LAYOUT|COMPOSED LAYOUT|COMPOSED", (2, 2), "layout of the leading elements both layouts map alike", |a| first(chain_ops::max_common_layout(a), || Ok(a.layout(0)?.max_common_layout(&a.layout(1)?).to_string()))),
    op("upcast", "N LAYOUT|SWIZZLE|COMPOSED", (2, 2), "the layout for elements N times wider", |a| first(chain_ops::recast(a, true), || Ok(a.layout(1)?.upcast(a.int(0)?)?.to_string()))),
    op("downcast", "N LAYOUT|SWIZZLE|COMPOSED", (2, 2), "the layout for elements N times narrower", |a| first(chain_ops::recast(a, false), || Ok(a.layout(1)?.downcast(a.int(0)?)?.to_string()))),
    op("recast", "OLD_BITS NEW_BITS LAYOUT|COMPOSED", (3, 3), "the layout for elements of NEW_BITS bits instead of OLD_BITS", recast),
    op("recast_layout", "OLD_BITS NEW_BITS LAYOUT|COMPOSED", (3, 3), "CuTe's name for recast (recast_layout<Old,New>): the layout for elements of NEW_BITS bits instead of OLD_BITS", recast),
    op("logical_divide", "LAYOUT|TENSOR TILER", (2, 2), "A o (T, complement(T))", |a| first(tensor_ops::divide(a, Layout::logical_divide, ComposedLayout::logical_divide), || composed_ops::by_tiler(a, Layout::logical_divide, ComposedLayout::logical_divide))),
    op("zipped_divide", "LAYOUT|TENSOR TILER", (2, 2), "logical_divide as ((tile),(rest))", |a| first(tensor_ops::divide(a, Layout::zipped_divide, ComposedLayout::zipped_divide), || composed_ops::by_tiler(a, Layout::zipped_divide, ComposedLayout::zipped_divide))),
    op("tiled_divide", "LAYOUT|TENSOR TILER", (2, 2), "logical_divide as ((tile),rest...)", |a| first(tensor_ops::divide(a, Layout::tiled_divide, ComposedLayout::tiled_divide), || composed_ops::by_tiler(a, Layout::tiled_divide, ComposedLayout::tiled_divide))),
    op("flat_divide", "LAYOUT|TENSOR TILER", (2, 2), "logical_divide as (tile...,rest...)", |a| first(tensor_ops::divide(a, Layout::flat_divide, ComposedLayout::flat_divide), || composed_ops::by_tiler(a, Layout::flat_divide, ComposedLayout::flat_divide))),
    op("logical_product", "LAYOUT TILER", (2, 2), "(A, complement(A) o B)", |a| composed_ops::by_tiler(a, Layout::logical_product, ComposedLayout::logical_product)),
    op("zipped_product", "LAYOUT TILER", (2, 2), "logical_product as ((block),(rest))", |a| composed_ops::by_tiler(a, Layout::zipped_product, ComposedLayout::zipped_product)),
    op("tiled_product", "LAYOUT TILER", (2, 2), "logical_product as ((block),rest...)", |a| composed_ops::by_tiler(a, Layout::tiled_product, ComposedLayout::tiled_product)),
    op("flat_product", "LAYOUT TILER", (2, 2), "logical_product as (block...,rest...)", |a| composed_ops::by_tiler(a, Layout::flat_product, ComposedLayout::flat_product)),
    op("blocked_product", "LAYOUT|COMPOSED LAYOUT", (2, 2), "copies of A placed block by block as B says (of the inner layout if composed)", |a| { let b = a.layout(1)?; first(chain_ops::inner(a, 0, |l| l.blocked_product(&b)), || Ok(a.layout(0)?.blocked_product(&b)?.to_string())) }),
    op("raked_product", "LAYOUT|COMPOSED LAYOUT", (2, 2), "copies of A interleaved as B says (of the inner layout if composed)", |a| { let b = a.layout(1)?; first(chain_ops::inner(a, 0, |l| l.raked_product(&b)), || Ok(a.layout(0)?.raked_product(&b)?.to_string())) }),
    op("tile_to_shape", "LAYOUT|COMPOSED SHAPE [ORDER]", (2, 3), "A repeated to fill SHAPE (the inner layout if composed: a swizzled smem layout from its atom)", |a| { let (shape, order) = (a.tuple(1)?, if a.len() == 3 { Some(a.tuple(2)?) } else { None }); first(chain_ops::inner(a, 0, |l| l.tile_to_shape(&shape, order.as_ref())), || Ok(a.layout(0)?.tile_to_shape(&shape, order.as_ref())?.to_string())) }),
    op("evenly_divides", "SHAPE TILER", (2, 2), "whether TILER divides SHAPE without a partial tile", |a| Ok(bit(a.tuple(0)?.evenly_divides(&a.tiler(1)?)))),
    // analysis (crate::analysis)
    op("show", "LAYOUT|SHAPE", (1, 1), "the layout, its size, cosize, rank and depth, and CuTe's print_layout table", show::show_op),
    op("explain", "OP ARGS...", (2, MANY), "an algebra operation's derivation step by step, or why it refuses", crate::analysis::explain_op),
    op("find_layout", "VALUES [SHAPE]", (1, 2), "the canonical layout whose values are v0,v1,... (of SHAPE if given)", crate::analysis::find_op),
    op("equal", "LAYOUT|COMPOSED LAYOUT|COMPOSED", (2, 2), "whether both are the same function on the same domain", |a| first(chain_ops::equal(a), || crate::analysis::equal(a))),
    op("injective", "LAYOUT|COMPOSED", (1, 1), "whether no two points share an offset", |a| first(chain_ops::injectivity(a, 0), || crate::analysis::injective(a))),
    op("surjective", "LAYOUT|COMPOSED [N]", (1, 2), "whether every integer between the smallest and largest offset is reached (with N: whether the offsets are exactly 0..N-1)", |a| if a.len() == 2 { analysis_ops::surjective_onto(a) } else { first(chain_ops::injectivity(a, 1), || Ok(bit(a.layout(0)?.is_surjective()))) }),
    op("bijective", "LAYOUT|COMPOSED", (1, 1), "whether it is a bijection onto its range of cosize offsets (onto its range, if composed)", |a| first(chain_ops::injectivity(a, 2), || Ok(bit(a.layout(0)?.is_bijective())))),
    op("compact", "LAYOUT", (1, 1), "whether it is a bijection onto [0, size)", |a| Ok(bit(a.layout(0)?.is_compact()))),
    op("image", "LAYOUT", (1, 1), "the set of offsets as an injective layout in increasing order (OFFSET + LAYOUT if it starts below 0)", image),
    op("swizzle", "B M S", (3, 3), "CuTe's Swizzle<B,M,S>: x ^ ((x & yyy) >> S), printed Sw<B,M,S>", composed_ops::swizzle),
    // rendering
    op("table", "LAYOUT|COMPOSED|SWIZZLE [N]", (1, 2), "values v0,v1,... of the 1-D function (N of them if given)", composed_ops::table),
    op("print_layout", "LAYOUT|SWIZZLED", (1, 1), "CuTe's print_layout table (of a swizzled layout: its values)", show::print_layout_op),
];

/// `mode` / `get`: of a composed layout, a layout, or a tuple.
fn mode_any(a: &Args<'_>) -> Result<String, OpError> {
    first(chain_ops::mode(a), || match a.layout_or_tuple(0)? {
        Either::Layout(_) => mode(a),
        Either::Tuple(t) => {
            let path = a.indices(1)?;
            t.get_at(&path).map(|m| m.to_string()).ok_or_else(|| {
                OpError::new(
                    "ModeOutOfRange",
                    format!("{}: no element {path:?} in {t}", a.op),
                )
            })
        }
    })
}

fn mode(a: &Args<'_>) -> Result<String, OpError> {
    let l = a.layout(0)?;
    let path = a.indices(1)?;
    l.mode_at(&path).map(|m| m.to_string()).ok_or_else(|| {
        OpError::new(
            "ModeOutOfRange",
            format!("mode: no mode {path:?} in layout {l}"),
        )
    })
}

/// The answer of `f` on argument `k` when it is a swizzled composed layout (`Sw o O o L`).
fn composed(
    a: &Args<'_>,
    k: usize,
    f: impl FnOnce(&ComposedLayout) -> Result<ComposedLayout, OpError>,
) -> Result<Option<String>, OpError> {
    if !a.is_swizzled(k) {
        return Ok(None);
    }
    match a.func(k)? {
        composed_ops::Func::Composed(c) => Ok(Some(f(&c)?.to_string())),
        composed_ops::Func::Layout(_) => Ok(None),
        _ => Err(a.arg_error(
            "NotImplemented",
            k,
            " must be a layout or a swizzled layout Sw<B,M,S> o O o L",
        )),
    }
}

/// `filter L [PROFILE]`, of a layout or a composed layout.
fn filter(a: &Args<'_>) -> Result<String, OpError> {
    let profile = if a.len() == 2 {
        Some(a.profile(1)?)
    } else {
        None
    };
    let inner = |l: &Layout| match &profile {
        Some(p) => l.filter_by_profile(p),
        None => Ok(l.filter()),
    };
    let composed = if a.is_swizzled(0) {
        chain_ops::inner(a, 0, inner)?
    } else {
        None
    };
    first(Ok(composed), || {
        let l = a.layout(0)?;
        Ok(match &profile {
            Some(p) => l.filter_by_profile(p)?,
            None => l.filter(),
        }
        .to_string())
    })
}

/// `recast OLD NEW L`, of a layout or a composed layout.
fn recast(a: &Args<'_>) -> Result<String, OpError> {
    let (old, new) = (a.int(0)?, a.int(1)?);
    first(composed(a, 2, |c| Ok(c.recast(old, new)?)), || {
        Ok(a.layout(2)?.recast(old, new)?.to_string())
    })
}

fn image(a: &Args<'_>) -> Result<String, OpError> {
    let img = a.layout(0)?.image()?;
    let l = img.layout()?;
    Ok(if img.offset == 0 {
        l.to_string()
    } else {
        format!("{} + {l}", img.offset)
    })
}

fn flatten(a: &Args<'_>) -> Result<String, OpError> {
    Ok(match a.layout_or_tuple(0)? {
        Either::Layout(l) => l.flatten().to_string(),
        Either::Tuple(t) => t.flatten().to_string(),
    })
}

/// Runs operation `op` on `args`: the shared entry point of `cute OP` and `cute batch`.
///
/// # Errors
/// `UnknownOp` for a name not in [`OPS`], `Arity` for a wrong number of arguments, `ParseError`
/// or `BadRequest` for arguments that are not what the operation takes, and the library's
/// [`LayoutError`] kinds for inputs outside an operation's domain.
pub fn run_op(op: &str, args: &[Arg]) -> Result<String, OpError> {
    let spec = find(op).ok_or_else(|| unknown_op(op))?;
    if args.len() < spec.min || args.len() > spec.max {
        let want = if spec.min == spec.max {
            format!("{}", spec.min)
        } else if spec.max == MANY {
            format!("at least {}", spec.min)
        } else {
            format!("{} to {}", spec.min, spec.max)
        };
        return Err(OpError::new(
            "Arity",
            format!(
                "{op}: expected {want} argument{} ({}), got {}",
                if want == "1" { "" } else { "s" },
                spec.usage,
                args.len()
            ),
        ));
    }
    if args.iter().any(f2_ops::is_f2_arg) {
        return f2_ops::run(spec.name, args);
    }
    (spec.run)(&Args {
        op: spec.name,
        args,
    })
}

/// The `UnknownOp` error for `name`, naming the nearest operation when one is close.
pub fn unknown_op(name: &str) -> OpError {
    let hint = match help::suggest(name, all().map(|s| s.name)) {
        Some(near) => format!("; did you mean {near}?"),
        None => String::from(" (`cute ops` lists them)"),
    };
    OpError::new("UnknownOp", format!("unknown operation {name:?}{hint}"))
}

/// The entry of [`OPS`] called `name`.
pub fn find(name: &str) -> Option<&'static OpSpec> {
    all().find(|s| s.name == name)
}

/// The arguments of one call, with typed accessors whose errors name the operation and the
/// argument's position.
pub struct Args<'a> {
    op: &'static str,
    args: &'a [Arg],
}

/// A layout or an integer tuple, told apart by the `:` of the layout form.
pub enum Either {
    /// `shape:stride`.
    Layout(Layout),
    /// An integer or tuple.
    Tuple(IntTuple),
}

/// A JSON list of integers and lists as a tuple's text: `[1,[2,3]]` is `(1,(2,3))`.
fn list_tuple(items: &[Arg]) -> Option<String> {
    let mut out = String::from("(");
    for (k, a) in items.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        match a {
            Arg::Int(i) => out += &i.to_string(),
            Arg::List(inner) => out += &list_tuple(inner)?,
            Arg::Text(_) => return None,
        }
    }
    out.push(')');
    Some(out)
}

/// The answer of a composed-layout overload if it applies (`Some`), else of `plain`.
fn first(
    composed: Result<Option<String>, OpError>,
    plain: impl FnOnce() -> Result<String, OpError>,
) -> Result<String, OpError> {
    match composed? {
        Some(s) => Ok(s),
        None => plain(),
    }
}

fn bit(b: bool) -> String {
    String::from(if b { "1" } else { "0" })
}

impl<'a> Args<'a> {
    /// Number of arguments.
    pub fn len(&self) -> usize {
        self.args.len()
    }

    /// Whether there are no arguments.
    pub fn is_empty(&self) -> bool {
        self.args.is_empty()
    }

    /// The error of `kind` about argument `k`: `OP: argument K` followed by `rest`.
    pub(crate) fn arg_error(
        &self,
        kind: &'static str,
        k: usize,
        rest: impl fmt::Display,
    ) -> OpError {
        OpError::new(kind, format!("{}: argument {}{rest}", self.op, k + 1))
    }

    fn parse_error(&self, k: usize, what: &str, e: ParseError) -> OpError {
        if what != "tensor" && self.is_tensor(k) {
            return self.arg_error(
                "BadRequest",
                k,
                format_args!(" is a tensor; this operation takes a {what}"),
            );
        }
        self.arg_error("ParseError", k, format_args!(" ({what}): {e}"))
    }

    /// Argument `k` in its text form parsed as a `what` (a layout, a swizzle, a tensor, ...);
    /// the parse error names `what`.
    pub(crate) fn parsed<T: FromStr<Err = ParseError>>(
        &self,
        k: usize,
        what: &str,
    ) -> Result<T, OpError> {
        self.parse_text(k, &self.text(k, what)?, what)
    }

    /// `text` (argument `k`'s, or a part of it) parsed as a `what`.
    pub(crate) fn parse_text<T: FromStr<Err = ParseError>>(
        &self,
        k: usize,
        text: &str,
        what: &str,
    ) -> Result<T, OpError> {
        text.parse().map_err(|e| self.parse_error(k, what, e))
    }

    /// Argument `k` as text (an integer is written out).
    fn text(&self, k: usize, what: &str) -> Result<String, OpError> {
        match &self.args[k] {
            Arg::Text(s) => Ok(s.clone()),
            Arg::Int(i) => Ok(i.to_string()),
            Arg::List(items) => list_tuple(items).ok_or_else(|| {
                self.arg_error(
                    "BadRequest",
                    k,
                    format_args!(
                        " ({what}) is a list holding text; a list stands for a tuple of integers and lists"
                    ),
                )
            }),
        }
    }

    /// Argument `k` as text.
    pub fn text_arg(&self, k: usize) -> Result<String, OpError> {
        self.text(k, "text")
    }

    /// Argument `k` as a layout.
    pub fn layout(&self, k: usize) -> Result<Layout, OpError> {
        self.parsed(k, "layout")
    }

    /// Arguments `0..len` as layouts.
    pub fn layouts(&self) -> Result<Vec<Layout>, OpError> {
        (0..self.len()).map(|k| self.layout(k)).collect()
    }

    /// Argument `k` as a tiler (a layout, an integer, `_`, or a tuple of tilers).
    pub fn tiler(&self, k: usize) -> Result<Tiler, OpError> {
        if let Arg::Int(i) = self.args[k] {
            return Tiler::from_shape(&IntTuple::int(i)).ok_or_else(|| {
                OpError::new(
                    "InvalidExtent",
                    format!("{}: tiler extent {i} is below 1", self.op),
                )
            });
        }
        let s = self.text(k, "tiler")?;
        if s.trim_start().starts_with("Sw") {
            return Err(self.arg_error(
                "BadRequest",
                k,
                " is a swizzle or composed layout, not a tiler",
            ));
        }
        s.parse().map_err(|e| self.parse_error(k, "tiler", e))
    }

    /// Argument `k` as an integer tuple.
    pub fn tuple(&self, k: usize) -> Result<IntTuple, OpError> {
        if let Arg::Int(i) = self.args[k] {
            return Ok(IntTuple::int(i));
        }
        self.parsed(k, "tuple")
    }

    /// Argument `k` as a profile: a tuple whose leaves do not matter, so `_` may stand for one
    /// (CuTe's `coalesce(layout, Step<_,_>{})`).
    pub fn profile(&self, k: usize) -> Result<IntTuple, OpError> {
        if let Arg::Text(s) = &self.args[k] {
            if s.contains('_') {
                let t: String = s.chars().map(|c| if c == '_' { '1' } else { c }).collect();
                return t.parse().map_err(|e| self.parse_error(k, "profile", e));
            }
        }
        self.tuple(k)
    }

    /// Argument `k` as an integer.
    pub fn int(&self, k: usize) -> Result<i64, OpError> {
        let t = self.tuple(k)?;
        t.as_int().ok_or_else(|| {
            self.arg_error(
                "BadRequest",
                k,
                format_args!(" must be an integer, got {t}"),
            )
        })
    }

    /// Argument `k` as a mode index (a non-negative integer).
    pub fn index(&self, k: usize) -> Result<usize, OpError> {
        let i = self.int(k)?;
        usize::try_from(i).map_err(|_| {
            self.arg_error(
                "BadRequest",
                k,
                format_args!(" must be a mode index >= 0, got {i}"),
            )
        })
    }

    /// Arguments `k..` as mode indices.
    pub fn indices(&self, k: usize) -> Result<Vec<usize>, OpError> {
        (k..self.len()).map(|j| self.index(j)).collect()
    }

    /// Argument `k` as a layout if it has the `shape:stride` form, else as a tuple.
    pub fn layout_or_tuple(&self, k: usize) -> Result<Either, OpError> {
        let is_layout = matches!(&self.args[k], Arg::Text(s) if s.contains(':'));
        Ok(if is_layout {
            Either::Layout(self.layout(k)?)
        } else {
            Either::Tuple(self.tuple(k)?)
        })
    }

    /// Argument `k` as a shape: a tuple, or the shape of a layout.
    pub fn shape(&self, k: usize) -> Result<IntTuple, OpError> {
        Ok(match self.layout_or_tuple(k)? {
            Either::Layout(l) => l.shape(),
            Either::Tuple(t) => t,
        })
    }
}

fn make_layout(a: &Args<'_>) -> Result<String, OpError> {
    let shape = a.tuple(0)?;
    let l = if a.len() == 1 {
        Layout::col_major(shape)?
    } else {
        match &a.args[1] {
            Arg::Text(t) if t.trim() == "LayoutLeft" => Layout::with_order(shape, Order::ColMajor)?,
            Arg::Text(t) if t.trim() == "LayoutRight" => {
                Layout::with_order(shape, Order::RowMajor)?
            }
            Arg::Text(t) if t.trim().starts_with(|c: char| c.is_ascii_alphabetic()) => {
                let near = help::suggest(t.trim(), ["LayoutLeft", "LayoutRight"]);
                return Err(OpError::new(
                    "ParseError",
                    format!(
                        "make_layout: argument 2 {t:?} is not a stride, LayoutLeft or LayoutRight{}",
                        near.map(|n| format!("; did you mean {n}?")).unwrap_or_default()
                    ),
                ));
            }
            _ => Layout::new(shape, a.tuple(1)?)?,
        }
    };
    Ok(l.to_string())
}

/// The layout that arguments `k..` describe: a layout, or a shape with an optional stride
/// (default: column-major, i.e. CuTe's `crd2idx(c, shape)`).
fn layout_from(a: &Args<'_>, k: usize) -> Result<Layout, OpError> {
    if a.len() > k + 1 {
        return Ok(Layout::new(a.tuple(k)?, a.tuple(k + 1)?)?);
    }
    Ok(match a.layout_or_tuple(k)? {
        Either::Layout(l) => l,
        Either::Tuple(t) => Layout::col_major(t)?,
    })
}

fn crd2idx(a: &Args<'_>) -> Result<String, OpError> {
    let coord = a.tuple(0)?;
    if a.len() == 2 && a.is_sum(1) {
        return Ok(a.sum_layout(1)?.value(&coord)?.to_string());
    }
    if a.len() == 2 && a.is_basis(1) {
        // CuTe's layout(c) with ScaledBasis strides: a coordinate (ArithmeticTuple).
        return Ok(a.basis_layout(1)?.value(&coord)?.to_string());
    }
    Ok(layout_from(a, 1)?.index(&coord)?.to_string())
}

fn idx2crd(a: &Args<'_>) -> Result<String, OpError> {
    if a.len() == 2 {
        if let Either::Tuple(shape) = a.layout_or_tuple(1)? {
            return Ok(shape.idx2crd(&a.tuple(0)?)?.to_string());
        }
    }
    let l = layout_from(a, 1)?;
    Ok(l.coord(a.int(0)?)?.to_string())
}

/// Most values `table` writes.
pub const MAX_TABLE_VALUES: i64 = 1 << 20;

fn push_value(out: &mut String, v: i64) {
    use std::fmt::Write as _;
    if !out.is_empty() {
        out.push(',');
    }
    let _ = write!(out, "{v}");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Arg {
        Arg::Text(s.into())
    }

    /// The result of a call that must succeed.
    fn ok(op: &str, args: &[Arg]) -> String {
        run_op(op, args).unwrap_or_else(|e| panic!("{op}{args:?}: {e}"))
    }

    #[test]
    fn names_are_unique() {
        let ops: Vec<&OpSpec> = all().collect();
        for (k, a) in ops.iter().enumerate() {
            assert!(
                ops[..k].iter().all(|b| b.name != a.name),
                "{} twice",
                a.name
            );
            assert!(a.min <= a.max, "{}", a.name);
        }
    }

    #[test]
    fn print_layout_of_a_swizzled_layout() {
        // docs/cute-reference.md 7.2: CuTe's print_layout(Sw<1,0,1> o _0 o (_2,_2):(_2,_1)),
        // widths from the inner layout's cosize.
        assert_eq!(
            ok("print_layout", &[t("Sw<1,0,1> o 0 o (2,2):(2,1)")]),
            "Sw<1,0,1> o 0 o (2,2):(2,1)\n      0   1 \n    +---+---+\n 0  | 0 | 1 |\n    +---+---+\n 1  | 3 | 2 |\n    +---+---+"
        );
        assert!(run_op("print_layout", &[t("Sw<1,0 o 0 o (2,2):(2,1)")]).is_err());
    }

    #[test]
    fn restructuring_of_tuples() {
        // CuTe: append((2,3), 4) = (2,3,4); prepend; replace<1>; insert<1>; remove<1>;
        // take<1,3>; select<2,0>; group<0,2> on the top-level elements of a tuple.
        assert_eq!(ok("append", &[t("(2,3)"), t("4")]), "(2,3,4)");
        assert_eq!(ok("prepend", &[t("(2,3)"), t("(4,5)")]), "((4,5),2,3)");
        assert_eq!(ok("replace", &[t("(2,3,4)"), t("1"), t("7")]), "(2,7,4)");
        assert_eq!(ok("insert", &[t("(2,3,4)"), t("1"), t("7")]), "(2,7,3,4)");
        assert_eq!(ok("remove", &[t("(2,3,4)"), t("1")]), "(2,4)");
        assert_eq!(ok("take", &[t("(2,3,4,5)"), t("1"), t("3")]), "(3,4)");
        assert_eq!(ok("select", &[t("(2,3,4)"), t("2"), t("0")]), "(4,2)");
        assert_eq!(ok("group", &[t("(2,3,4)"), t("0"), t("2")]), "((2,3),4)");
        // layouts keep their meaning
        assert_eq!(
            ok("append", &[t("(2,3):(1,2)"), t("4:6")]),
            "(2,3,4):(1,2,6)"
        );
        assert!(run_op("append", &[t("(2,3)"), t("4:6")]).is_err());
        assert!(run_op("remove", &[t("(2,3,4)"), t("3")]).is_err());
        assert!(run_op("insert", &[t("(2,3,4)"), t("4"), t("1")]).is_err());
        assert!(run_op("take", &[t("(2,3,4)"), t("2"), t("2")]).is_err());
    }

    #[test]
    fn crd2idx_of_a_basis_layout() {
        // docs/cute-reference.md 8.4: the identity layout gives back the coordinate.
        assert_eq!(ok("crd2idx", &[t("(3,5)"), t("(4,8):(1@0,1@1)")]), "(3,5)");
        assert_eq!(ok("crd2idx", &[t("13"), t("(4,8):(1@0,1@1)")]), "(1,3)");
        assert_eq!(ok("crd2idx", &[t("(1,2)"), t("(2,3):(2@1,1@0)")]), "(2,2)");
        assert!(run_op("crd2idx", &[t("(1,2,3)"), t("(2,3):(2@1,1@0)")]).is_err());
    }

    #[test]
    fn member_coordinates() {
        // CuTe idx2crd(143, (8,12,2), (1,8,96)) = (7,5,1) (conformance idx2crd-00000)
        assert_eq!(
            ok("get_hier_coord", &[t("(8,12,2):(1,8,96)"), t("143")]),
            "(7,5,1)"
        );
        assert_eq!(
            ok("get_flat_coord", &[t("(8,12,2):(1,8,96)"), t("143")]),
            "(7,5,1)"
        );
        assert_eq!(
            ok("get_1d_coord", &[t("(8,12,2):(1,8,96)"), t("143")]),
            "143"
        );
        assert_eq!(
            ok("get_hier_coord", &[t("((2,2),3):((1,6),2)"), t("9")]),
            "((1,1),1)"
        );
        assert_eq!(
            ok("get_flat_coord", &[t("((2,2),3):((1,6),2)"), t("9")]),
            "(3,1)"
        );
        assert_eq!(ok("get_flat_coord", &[t("(2,4):(4,1)"), t("5")]), "(1,1)");
        assert_eq!(ok("get_flat_coord", &[t("((2,4)):((4,1))"), t("5")]), "3");
        assert_eq!(ok("get_1d_coord", &[t("(4,8):(8,1)"), t("13")]), "21");
        assert!(run_op("get_hier_coord", &[t("(2,4):(0,1)"), t("1")]).is_err());
        assert!(run_op("get_1d_coord", &[t("(2,4):(4,1)"), t("x")]).is_err());
    }

    #[test]
    fn recast_layout_is_recast() {
        for (old, new, l) in [
            ("16", "32", "(4,8):(8,1)"),
            ("32", "8", "(4,8):(1,4)"),
            ("8", "8", "6:2"),
        ] {
            let args = [t(old), t(new), t(l)];
            assert_eq!(ok("recast_layout", &args), ok("recast", &args));
        }
        // CuTe recast_layout<uint16_t, uint32_t>((4,8):(8,1)) = (4,4):(4,1)
        assert_eq!(
            ok("recast_layout", &[t("16"), t("32"), t("(4,8):(8,1)")]),
            "(4,4):(4,1)"
        );
        assert!(run_op("recast_layout", &[t("16"), t("32"), t("(4,7):(7,1)")]).is_err());
    }

    #[test]
    fn run_op_basics() {
        assert_eq!(ok("size", &[t("(2,(2,2)):(4,(2,1))")]), "8");
        assert_eq!(ok("size", &[t("(2,3)")]), "6");
        assert_eq!(
            ok("make_layout", &[t("(2,4)"), t("LayoutRight")]),
            "(2,4):(4,1)"
        );
        assert_eq!(
            ok("make_layout", &[t("(2,4)"), t("(12,1)")]),
            "(2,4):(12,1)"
        );
        assert_eq!(
            ok("crd2idx", &[Arg::Int(16), t("(3,(2,3)):(3,(12,1))")]),
            "17"
        );
        assert_eq!(ok("idx2crd", &[t("16"), t("(3,(2,3))")]), "(1,(1,2))");
        assert_eq!(
            ok("idx2crd", &[t("143"), t("(8,12,2):(1,8,96)")]),
            "(7,5,1)"
        );
        assert_eq!(ok("compatible", &[t("24"), t("(4,6)")]), "1");
        assert_eq!(ok("table", &[t("(2,2):(2,1)")]), "0,2,1,3");
        assert_eq!(ok("table", &[t("(2,2):(2,1)"), Arg::Int(6)]), "0,2,1,3,2,4");
        assert_eq!(
            ok("mode", &[t("(4,(3,6)):(1,(4,12))"), t("1"), t("0")]),
            "3:4"
        );
    }

    #[test]
    fn run_op_errors() {
        assert_eq!(run_op("nope", &[]).unwrap_err().kind, "UnknownOp");
        assert_eq!(run_op("size", &[]).unwrap_err().kind, "Arity");
        assert_eq!(
            run_op("size", &[t("(2,3"),]).unwrap_err().kind,
            "ParseError"
        );
        let e = run_op("size", &[t("8:1"), t("8:1")]).unwrap_err();
        assert_eq!(
            e.message,
            "size: expected 1 argument (LAYOUT|COMPOSED|TUPLE), got 2"
        );
        assert_eq!(
            run_op("idx2crd", &[t("1"), t("(2,2):(0,1)")])
                .unwrap_err()
                .kind,
            "ZeroStride"
        );
        assert_eq!(
            run_op("take", &[t("(2,3):(1,2)"), t("-1"), t("1")])
                .unwrap_err()
                .kind,
            "BadRequest"
        );
    }
}
