//! The operations of the `cute` command, `cute batch`, the Python package and the web page, in
//! one table ([`all`], the groups of [`GROUPS`]), and the batch protocol's request form
//! ([`request`]).
//!
//! This crate holds no algebra: every entry converts its text arguments, calls
//! [`cute_layout`], and writes the result in CuTe's text form. Each operation is declared once
//! ([`OpSpec`], see [`table`]): name, topic, typed parameters, result kinds, summary, law, CuTe
//! example with its exact output, and the function; the usage line, the arity check, `cute help`,
//! `cute ops`, docs/OPERATIONS.md, the web page's list and the fuzz generators come from it.
//! Adding an operation is one declaration in a group's table; [`run_op`] does the lookup, the
//! arity check and the error mapping for every front end. An argument's kind is read once from
//! its text by the grammar ([`value::Form`]); the operations choose their overload by it.
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

use crate::table::{many, more, one, opt, Kind as K, Topic};
pub(crate) use table::op;
pub use table::OpSpec;

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
mod rosetta_ops;
pub mod show;
mod smem_atom_ops;
mod symbolic_ops;
pub mod table;
mod tensor_ops;
mod tensor_restructure_ops;
#[cfg(test)]
mod test_util;
mod tma_ops;
mod tuple_fn_ops;
mod tuple_ops;
#[cfg(test)]
mod usage_audit;
pub mod value;
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
    /// `UnknownOp`, `Arity`, `KindMismatch` (an argument of a kind its parameter does not
    /// take), `NotImplemented`.
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

/// The most arguments of an operation with a repeating parameter.
pub const MANY: usize = 64;

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
    rosetta_ops::ROSETTA_OPS,
];

/// Every operation of every group, in the order `cute ops` lists them.
pub fn all() -> impl Iterator<Item = &'static OpSpec> {
    GROUPS.iter().flat_map(|g| g.iter())
}

/// The layout algebra's operations, one declaration each ([`table`]; laid out by hand, hence
/// `rustfmt::skip`).
#[rustfmt::skip]
pub static OPS: &[OpSpec] = &[
    // construction
    op("make_layout", Topic::Construction, "layout from a shape and a stride or a stride order (default LayoutLeft)")
        .params(&[one("", &[K::Shape]), opt("", &[K::Stride, K::Tag("LayoutLeft"), K::Tag("LayoutRight")])])
        .returns(&[K::Layout])
        .errors(&["InvalidExtent", "NotCongruent", "Overflow"])
        .law("L(c) = sum of c_i * d_i over the leaves; LayoutLeft strides are the shape's prefix products (column-major), LayoutRight its suffix products")
        .example(&["(2,4)", "LayoutRight"], "(2,4):(4,1)")
        .run(make_layout),
    op("make_ordered_layout", Topic::Construction, "compact layout whose strides increase in ORDER")
        .params(&[one("", &[K::Shape]), one("ORDER", &[K::Tuple])])
        .returns(&[K::Layout])
        .errors(&["InvalidArgument", "InvalidExtent", "Overflow", "Undecidable"])
        .law("compact (a bijection onto [0, size)) with the stride of mode i ranked ORDER[i] from the smallest")
        .example(&["(2,3,4)", "(1,0,2)"], "(2,3,4):(3,1,6)")
        .run(|a| first(symbolic_ops::make_ordered_layout(a), || Ok(Layout::ordered(a.tuple(0)?, a.tuple(1)?)?.to_string()))),
    op("make_identity_layout", Topic::Construction, "the shape with unit basis strides: maps each coordinate to itself")
        .params(&[one("", &[K::Shape])])
        .returns(&[K::Layout])
        .errors(&["InvalidExtent", "Overflow"])
        .law("L(c) = c for every coordinate c of SHAPE (strides are unit basis vectors)")
        .example(&["(4,8)"], "(4,8):(1@0,1@1)")
        .run(composed_ops::make_identity_layout),
    op("concat", Topic::Construction, "the layout whose modes are the arguments (make_layout(l0, l1, ...))")
        .params(&[more("", &[K::Layout])])
        .returns(&[K::Layout])
        .errors(&["Overflow"])
        .law("mode i of the result is argument i, so R(c_0, c_1, ...) = A_0(c_0) + A_1(c_1) + ...")
        .example(&["4:1", "8:4"], "(4,8):(1,4)")
        .run(|a| Ok(Layout::from_modes(a.layouts()?)?.to_string())),
    op("append", Topic::Construction, "modes of the first, then the second as one more mode (elements of a tuple; of the inner layout if composed)")
        .params(&[one("", &[K::Layout, K::Composed, K::Tuple]), one("", &[K::Layout, K::Tuple])])
        .returns(&[K::Layout, K::Composed, K::Tuple])
        .errors(&["Overflow"])
        .law("rank(R) = rank(A) + 1, mode i of R is mode i of A, and its last mode is B")
        .example(&["(2,3):(1,2)", "4:6"], "(2,3,4):(1,2,6)")
        .run(|a| first(if a.is_swizzled(0) { let x = a.layout(1)?; chain_ops::inner(a, 0, |l| l.append(&x)) } else { Ok(None) }, || Ok(match a.layout_or_tuple(0)? { Either::Layout(l) => l.append(&a.layout(1)?)?.to_string(), Either::Tuple(t) => t.append(&a.tuple(1)?)?.to_string() }))),
    op("prepend", Topic::Construction, "the second as the first mode, then the modes of the first (elements of a tuple)")
        .params(&[one("", &[K::Layout, K::Tuple]), one("", &[K::Layout, K::Tuple])])
        .returns(&[K::Layout, K::Tuple])
        .errors(&["Overflow"])
        .law("rank(R) = rank(A) + 1, mode 0 of R is B, and mode i + 1 of R is mode i of A")
        .example(&["(2,3):(1,2)", "4:6"], "(4,2,3):(6,1,2)")
        .run(|a| Ok(match a.layout_or_tuple(0)? { Either::Layout(l) => l.prepend(&a.layout(1)?)?.to_string(), Either::Tuple(t) => t.prepend(&a.tuple(1)?)?.to_string() })),
    op("replace", Topic::Construction, "mode I replaced by the second layout (element I of a tuple)")
        .params(&[one("", &[K::Layout, K::Tuple]), one("I", &[K::Int]), one("", &[K::Layout, K::Tuple])])
        .returns(&[K::Layout, K::Tuple])
        .errors(&["ModeOutOfRange"])
        .law("R is A with mode I replaced by B; every other mode is unchanged")
        .example(&["(2,3,4):(1,2,6)", "1", "5:10"], "(2,5,4):(1,10,6)")
        .run(|a| Ok(match a.layout_or_tuple(0)? { Either::Layout(l) => l.replace(a.index(1)?, &a.layout(2)?)?.to_string(), Either::Tuple(t) => t.replace(a.index(1)?, &a.tuple(2)?)?.to_string() })),
    op("insert", Topic::Construction, "CuTe insert<I>: the second tuple placed before element I of the first")
        .params(&[one("", &[K::Tuple]), one("I", &[K::Int]), one("", &[K::Tuple])])
        .returns(&[K::Tuple])
        .errors(&["ModeOutOfRange"])
        .law("rank(R) = rank(T) + 1, get<I>(R) = X, the other elements T's in order")
        .example(&["(2,3,4)", "1", "7"], "(2,7,3,4)")
        .run(|a| Ok(a.tuple(0)?.insert(a.index(1)?, &a.tuple(2)?)?.to_string())),
    op("remove", Topic::Construction, "CuTe remove<I>: the tuple without element I")
        .params(&[one("", &[K::Tuple]), one("I", &[K::Int])])
        .returns(&[K::Tuple])
        .errors(&["ModeOutOfRange"])
        .law("rank(R) = rank(T) - 1: T's elements in order, element I left out")
        .example(&["(2,3,4)", "1"], "(2,4)")
        .run(|a| Ok(a.tuple(0)?.remove(a.index(1)?)?.to_string())),
    op("group", Topic::Construction, "modes [BEGIN, END) grouped into one mode (of the inner layout if composed; elements of a tuple); of a tensor (counting, coordinate or pointer), CuTe's group_modes<B,E>(tensor)")
        .params(&[one("", &[K::Layout, K::Composed, K::Tuple, K::Tensor]), one("BEGIN", &[K::Int]), one("END", &[K::Int])])
        .returns(&[K::Layout, K::Composed, K::Tuple, K::Tensor])
        .errors(&["EmptyModeRange", "InvalidArgument", "ModeOutOfRange"])
        .law("R(c) = A(c) for the same 1-D index, with modes [BEGIN, END) of A as one mode of R")
        .example(&["(2,3,4):(1,2,6)", "0", "2"], "((2,3),4):((1,2),6)")
        .run(|a| tensor_restructure_ops::on_tensor(a, 0, tensor_restructure_ops::group, || { let (b, e) = (a.index(1)?, a.index(2)?); first(chain_ops::inner(a, 0, |l| l.group_modes(b, e)), || Ok(match a.layout_or_tuple(0)? { Either::Layout(l) => l.group_modes(b, e)?.to_string(), Either::Tuple(t) => t.group(b, e)?.to_string() })) })),
    op("take", Topic::Construction, "the tuple of modes [BEGIN, END) (of the inner layout if composed; elements of a tuple); of a tensor (counting, coordinate or pointer), CuTe's take<B,E>(tensor)")
        .params(&[one("", &[K::Layout, K::Composed, K::Tuple, K::Tensor]), one("BEGIN", &[K::Int]), one("END", &[K::Int])])
        .returns(&[K::Layout, K::Composed, K::Tuple, K::Tensor])
        .errors(&["EmptyModeRange", "InvalidArgument", "ModeOutOfRange"])
        .law("mode i of R is mode BEGIN + i of A, for BEGIN <= BEGIN + i < END")
        .example(&["(2,3,4):(1,2,6)", "1", "3"], "(3,4):(2,6)")
        .run(|a| tensor_restructure_ops::on_tensor(a, 0, tensor_restructure_ops::take, || { let (b, e) = (a.index(1)?, a.index(2)?); first(chain_ops::inner(a, 0, |l| l.take_modes(b, e)), || Ok(match a.layout_or_tuple(0)? { Either::Layout(l) => l.take_modes(b, e)?.to_string(), Either::Tuple(t) => t.take(b, e)?.to_string() })) })),
    op("select", Topic::Construction, "the tuple of the listed modes (elements of a tuple)")
        .params(&[one("", &[K::Layout, K::Tuple]), more("I", &[K::Int])])
        .returns(&[K::Layout, K::Tuple])
        .errors(&["ModeOutOfRange"])
        .law("mode k of R is mode I_k of A")
        .example(&["(2,3,4):(1,2,6)", "2", "0"], "(4,2):(6,1)")
        .run(|a| Ok(match a.layout_or_tuple(0)? { Either::Layout(l) => l.select_modes(&a.indices(1)?)?.to_string(), Either::Tuple(t) => t.select(&a.indices(1)?)?.to_string() })),
    op("mode", Topic::Construction, "sub-layout at a hierarchical index (layout<I...>), or the element of a tuple")
        .params(&[one("", &[K::Layout, K::Composed, K::Tuple]), many("I", &[K::Int])])
        .returns(&[K::Layout, K::Composed, K::Tuple])
        .errors(&["ModeOutOfRange"])
        .law("R is the sub-layout of A at the hierarchical index I...: shape and stride of that node")
        .example(&["(4,(3,6)):(1,(4,12))", "1", "0"], "3:4")
        .run(mode_any),
    op("flatten", Topic::Construction, "all leaves as one flat tuple; of a tensor (counting, coordinate or pointer), the tensor over the flattened layout")
        .params(&[one("", &[K::Layout, K::Composed, K::Tuple, K::Tensor])])
        .returns(&[K::Layout, K::Composed, K::Tuple, K::Tensor])
        .errors(&["InvalidArgument"])
        .law("the same function of the 1-D index, with one mode per leaf")
        .example(&["((2,3),(4,5)):((1,2),(6,24))"], "(2,3,4,5):(1,2,6,24)")
        .run(|a| tensor_restructure_ops::on_tensor(a, 0, tensor_restructure_ops::flatten, || first(chain_ops::query(a, |c| c.map(|l| Ok(l.flatten())).map_or_else(|e| e.to_string(), |c| c.to_string())), || flatten(a)))),
    op("slice", Topic::Construction, "the sub-layout of the modes where COORD has _ (slice(coord, layout)); of a tensor, CuTe's tensor(coord)")
        .params(&[one("", &[K::Coord]), one("", &[K::Layout, K::Composed, K::Tensor, K::Tuple])])
        .returns(&[K::Layout, K::Composed, K::Tensor, K::Tuple])
        .errors(&["CoordOutOfRange", "InvalidArgument"])
        .law("R is the sub-layout of the modes where COORD has _: L(c with _ replaced by d) = offset + R(d)")
        .example(&["(_,1,_)", "(2,3,4):(1,2,6)"], "(2,4):(1,6)")
        .run(|a| first(tensor_ops::slice(a), || chain_ops::slice(a))),
    op("slice_and_offset", Topic::Construction, "(slice, offset of the fixed entries); composed: the offset moves inside, 0")
        .params(&[one("", &[K::Coord]), one("", &[K::Layout, K::Composed])])
        .returns(&[K::Text])
        .errors(&["CoordOutOfRange", "InvalidArgument", "Overflow"])
        .law("L(c with _ replaced by d) = OFFSET + R(d); for a composed layout the offset moves into its innermost offset and 0 is returned")
        .example(&["(_,1,_)", "(2,3,4):(1,2,6)"], "((2,4):(1,6),2)")
        .run(chain_ops::slice_and_offset),
    // queries
    op("size", Topic::Queries, "number of points (product of the shape)")
        .params(&[one("", &[K::Layout, K::Composed, K::Tuple, K::Symbolic])])
        .returns(&[K::Int])
        .errors(&["Overflow"])
        .law("size = product of the extents; the domain is [0, size)")
        .example(&["(2,(2,2)):(4,(2,1))"], "8")
        .f2(f2_ops::size)
        .f2_basis(f2_ops::basis_size)
        .run(|a| first(symbolic_ops::size(a), || first(chain_ops::query(a, |c| c.size().to_string()), || Ok(a.shape(0)?.size()?.to_string())))),
    op("cosize", Topic::Queries, "CuTe's cosize: one past the last offset (of the inner layout if composed)")
        .params(&[one("", &[K::Layout, K::Composed])])
        .returns(&[K::Int])
        .law("cosize = 1 + sum of (s_i - 1) * |d_i| over the leaves; for non-negative strides, L(size - 1) + 1")
        .example(&["(2,(2,2)):(4,(2,1))"], "8")
        .f2(f2_ops::cosize)
        .run(|a| first(chain_ops::query(a, |c| c.cosize().to_string()), || Ok(if a.is_basis(0) { a.basis_layout(0)?.cosize()? } else { a.layout(0)?.cosize() }.to_string()))),
    op("rank", Topic::Queries, "number of top-level modes")
        .params(&[one("", &[K::Layout, K::Composed, K::Tuple])])
        .returns(&[K::Int])
        .law("number of top-level modes (1 for an integer)")
        .example(&["(2,(2,2)):(4,(2,1))"], "2")
        .f2(f2_ops::rank)
        .f2_basis(f2_ops::basis_rank)
        .run(|a| first(chain_ops::query(a, |c| c.rank().to_string()), || Ok(a.shape(0)?.rank().to_string()))),
    op("depth", Topic::Queries, "nesting depth (0 for an integer)")
        .params(&[one("", &[K::Layout, K::Composed, K::Tuple])])
        .returns(&[K::Int])
        .law("0 for an integer, else 1 + the largest depth of a mode")
        .example(&["(2,(2,2)):(4,(2,1))"], "2")
        .f2(f2_ops::depth)
        .f2_basis(f2_ops::basis_depth)
        .run(|a| first(chain_ops::query(a, |c| c.depth().to_string()), || Ok(a.shape(0)?.depth().to_string()))),
    op("shape", Topic::Queries, "the shape")
        .params(&[one("", &[K::Layout, K::Composed])])
        .returns(&[K::Tuple])
        .law("the shape of SHAPE:STRIDE")
        .example(&["(2,(2,2)):(4,(2,1))"], "(2,(2,2))")
        .f2(f2_ops::shape)
        .f2_basis(f2_ops::basis_shape)
        .run(|a| first(chain_ops::query(a, |c| c.shape().to_string()), || Ok(a.layout(0)?.shape().to_string()))),
    op("stride", Topic::Queries, "the stride")
        .params(&[one("", &[K::Layout])])
        .returns(&[K::Tuple, K::Stride])
        .law("the stride of SHAPE:STRIDE")
        .example(&["(2,(2,2)):(4,(2,1))"], "(4,(2,1))")
        .f2(f2_ops::stride)
        .run(|a| Ok(a.layout(0)?.stride().to_string())),
    op("crd2idx", Topic::Queries, "index of a 1-D, R-D or natural coordinate (colexicographic for a shape; a coordinate for basis strides)")
        .params(&[one("", &[K::Coord]), one("", &[K::Layout, K::Composed, K::Shape]), opt("", &[K::Stride])])
        .returns(&[K::Int, K::Tuple])
        .errors(&["CoordMismatch", "InvalidArgument", "InvalidExtent", "NotCongruent", "Overflow"])
        .law("crd2idx(c, L) = L(c) = sum of c_i * d_i, with a 1-D or R-D c first unfolded to the natural coordinate of L's shape")
        .example(&["(1,5)", "(3,(2,3)):(3,(12,1))"], "17")
        .f2(f2_ops::crd2idx)
        .f2_basis(f2_ops::basis_crd2idx)
        .run(|a| first(chain_ops::crd2idx(a), || crd2idx(a))),
    op("idx2crd", Topic::Queries, "natural coordinate: idx2crd(i, shape), or (i / d) % s per leaf of a layout")
        .params(&[one("INDEX", &[K::Int]), one("", &[K::Shape, K::Layout]), opt("", &[K::Stride])])
        .returns(&[K::Tuple])
        .errors(&["InvalidExtent", "NotCongruent", "Overflow", "ZeroStride"])
        .law("crd2idx(idx2crd(i, S), S) = i for 0 <= i < size(S): the colexicographic coordinate of i")
        .example(&["16", "(3,(2,3))"], "(1,(1,2))")
        .run(idx2crd),
    op("get_hier_coord", Topic::Queries, "CuTe Layout::get_hier_coord: the natural coordinate of the index, idx2crd(i, shape, stride)")
        .params(&[one("", &[K::Layout]), one("INDEX", &[K::Int])])
        .returns(&[K::Tuple])
        .errors(&["ZeroStride"])
        .law("R = idx2crd(INDEX, shape, stride): each leaf (INDEX / d) % s; for a compact injective layout L(R) = INDEX")
        .example(&["(8,12,2):(1,8,96)", "143"], "(7,5,1)")
        .run(|a| Ok(a.layout(0)?.coord(a.int(1)?)?.to_string())),
    op("get_flat_coord", Topic::Queries, "CuTe Layout::get_flat_coord: get_hier_coord with each top-level mode as its 1-D index (one integer for rank 1)")
        .params(&[one("", &[K::Layout]), one("INDEX", &[K::Int])])
        .returns(&[K::Tuple])
        .errors(&["ZeroStride"])
        .law("R_m = crd2idx(get<m>(get_hier_coord(INDEX)), shape<m>) for each top-level mode m")
        .example(&["((2,2),3):((1,6),2)", "9"], "(3,1)")
        .run(|a| Ok(a.layout(0)?.flat_coord(a.int(1)?)?.to_string())),
    op("get_1d_coord", Topic::Queries, "CuTe Layout::get_1d_coord: the colexicographic 1-D index of get_hier_coord")
        .params(&[one("", &[K::Layout]), one("INDEX", &[K::Int])])
        .returns(&[K::Int])
        .errors(&["Overflow", "ZeroStride"])
        .law("R = crd2idx(get_hier_coord(INDEX), shape); for a compact injective layout L(R) = INDEX")
        .example(&["(4,8):(8,1)", "13"], "21")
        .run(|a| Ok(a.layout(0)?.coord_1d(a.int(1)?)?.to_string())),
    op("crd2crd", Topic::Queries, "a coordinate of one shape as a coordinate of another")
        .params(&[one("", &[K::Coord]), one("", &[K::Shape]), one("", &[K::Shape])])
        .returns(&[K::Tuple])
        .errors(&["CoordMismatch", "InvalidExtent", "Overflow", "RankMismatch"])
        .law("three tuples of one rank: element by element (CuTe); else R = idx2crd(crd2idx(c, S1), S2), so crd2idx(R, S2) = crd2idx(c, S1) (both colexicographic)")
        .example(&["(1,5)", "(3,6)", "(3,(2,3))"], "(1,(1,2))")
        .run(|a| Ok(a.tuple(1)?.crd2crd(&a.tuple(0)?, &a.tuple(2)?)?.to_string())),
    op("congruent", Topic::Queries, "same tree")
        .params(&[one("", &[K::Tuple]), one("", &[K::Tuple])])
        .returns(&[K::Bool])
        .law("1 exactly when both have the same tree: the same nesting and the same number of leaves")
        .example(&["(2,(3,4))", "(5,(6,7))"], "1")
        .run(|a| Ok(bit(a.shape(0)?.congruent(&a.shape(1)?)))),
    op("weakly_congruent", Topic::Queries, "every tuple of the first matched by one of the second")
        .params(&[one("", &[K::Tuple]), one("", &[K::Tuple])])
        .returns(&[K::Bool])
        .law("1 exactly when every integer of the first is matched by an integer or a tuple of the second, position for position")
        .example(&["(2,3)", "((2,2),(3,1))"], "1")
        .run(|a| Ok(bit(a.shape(0)?.weakly_congruent(&a.shape(1)?)))),
    op("compatible", Topic::Queries, "sizes agree and coordinates of the first fit the second")
        .params(&[one("", &[K::Tuple]), one("", &[K::Tuple])])
        .returns(&[K::Bool])
        .law("1 exactly when size(A) = size(B) and every coordinate of A's shape is a coordinate of B's")
        .example(&["24", "(4,6)"], "1")
        .run(|a| Ok(bit(a.shape(0)?.compatible(&a.shape(1)?)))),
    // algebra
    op("coalesce", Topic::Algebra, "fewest modes with the same function (by profile if given); of a tensor (counting, coordinate or pointer), the tensor over the coalesced layout")
        .params(&[one("", &[K::Layout, K::Composed, K::Symbolic, K::Tensor]), opt("", &[K::Profile])])
        .returns(&[K::Layout, K::Composed, K::Symbolic, K::Tensor, K::F2Layout])
        .errors(&["InvalidArgument", "NotImplemented", "RankMismatch"])
        .law("R(i) = A(i) for every i in [0, size(A)), with the fewest modes (by profile: mode by mode)")
        .example(&["(2,(1,6)):(1,(6,2))"], "12:1")
        .f2(f2_ops::coalesce)
        .run(|a| tensor_restructure_ops::on_tensor(a, 0, tensor_restructure_ops::coalesce, || first(symbolic_ops::coalesce(a), || first(chain_ops::coalesce(a), || if a.is_basis(0) && a.len() == 1 { Ok(a.basis_layout(0)?.coalesce()?.to_string()) } else { Ok(if a.len() == 2 { a.layout(0)?.coalesce_by_mode(&a.profile(1)?)? } else { a.layout(0)?.coalesce() }.to_string()) })))),
    op("filter", Topic::Algebra, "coalesce without stride-0 and extent-1 modes (at the terminals of PROFILE; of the inner layout if composed); of a tensor (counting, coordinate or pointer), the tensor over the filtered layout")
        .params(&[one("", &[K::Layout, K::Composed, K::Tensor]), opt("", &[K::Profile])])
        .returns(&[K::Layout, K::Composed, K::Tensor])
        .errors(&["InvalidArgument", "RankMismatch"])
        .law("R is coalesce(filter_zeros(A)): the distinct offsets of A in A's order")
        .example(&["(2,(3,4)):(0,(1,3))"], "12:1")
        .run(|a| if a.len() == 2 && a.is_tensor(0) { Err(OpError::new("BadRequest", "filter: a tensor takes no PROFILE (filter its layout with one, then make the tensor)".to_string())) } else { tensor_restructure_ops::on_tensor(a, 0, tensor_restructure_ops::filter, || filter(a)) }),
    op("filter_zeros", Topic::Algebra, "stride-0 modes get extent 1; of a tensor (counting, coordinate or pointer), the tensor over that layout")
        .params(&[one("", &[K::Layout, K::Tensor])])
        .returns(&[K::Layout, K::Tensor])
        .errors(&["InvalidArgument"])
        .law("every stride-0 mode gets extent 1; the image is unchanged")
        .example(&["(4,2):(0,1)"], "(1,2):(0,1)")
        .run(|a| tensor_restructure_ops::on_tensor(a, 0, tensor_restructure_ops::filter_zeros, || Ok(a.layout(0)?.filter_zeros().to_string()))),
    op("complement", Topic::Algebra, "the layout filling the gaps of the image up to COTARGET (default cosize); of the inner layout if composed")
        .params(&[one("", &[K::Layout, K::Composed, K::Symbolic]), opt("COTARGET", &[K::Shape])])
        .returns(&[K::Layout, K::Composed, K::Symbolic])
        .errors(&["InvalidArgument", "NotComplementable", "NotImplemented", "NotInjective", "Overflow", "Undecidable"])
        .law("(A, R) is injective, R's strides increase, and cosize((A, R)) >= size(COTARGET); of a composed layout, the inner layout's (CuTe)")
        .example(&["4:2", "24"], "(2,3):(1,8)")
        .run(|a| first(symbolic_ops::complement(a), || first(chain_ops::complement(a), || if a.is_basis(0) { Err(composed_ops::basis_not_cutes(a, "the complement of a basis-strided layout")) } else { Ok(if a.len() == 2 { a.layout(0)?.complement_shape(&a.tuple(1)?)? } else { a.layout(0)?.complement_cosize()? }.to_string()) }))),
    op("composition", Topic::Algebra, "A o B: R(c) = A(B(c)); of a tensor (counting, coordinate or pointer) and a layout or tiler, the tensor over A o B")
        .params(&[one("", &[K::Layout, K::Swizzle, K::Composed, K::Symbolic, K::Tensor, K::Shape]), one("", &[K::Layout, K::Tiler, K::Swizzle, K::Composed, K::Symbolic])])
        .returns(&[K::Layout, K::Composed, K::Symbolic, K::Tensor, K::Swizzle])
        .errors(&["InvalidArgument", "InvalidExtent", "InvalidSwizzle", "ModeOutOfRange", "ModesOverlap", "NotImplemented", "NotRepresentable", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible", "Undecidable"])
        .law("R(c) = A(B(c)) for every coordinate c of B, and shape(R) is compatible with shape(B)")
        .example(&["(6,2):(8,2)", "(4,3):(3,1)"], "((2,2),3):((24,2),8)")
        .run(|a| tensor_restructure_ops::on_tensor(a, 0, tensor_restructure_ops::composition, || first(symbolic_ops::composition(a), || composed_ops::composition(a)))),
    op("with_shape", Topic::Algebra, "the layout re-indexed by a shape (A o col_major(shape))")
        .params(&[one("", &[K::Layout]), one("", &[K::Shape])])
        .returns(&[K::Layout])
        .errors(&["InvalidExtent", "ModesOverlap", "Overflow", "ShapeNotDivisible", "StrideNotDivisible"])
        .law("R = A o make_layout(SHAPE): R(c) = A(crd2idx(c, SHAPE))")
        .example(&["12:1", "(3,4)"], "(3,4):(1,3)")
        .run(|a| Ok(a.layout(0)?.with_shape(&a.tuple(1)?)?.to_string())),
    op("right_inverse", Topic::Algebra, "CuTe's right inverse: R with A(R(i)) = i on R's domain")
        .params(&[one("", &[K::Layout, K::Composed, K::Symbolic])])
        .returns(&[K::Layout, K::Composed, K::Symbolic, K::F2Layout, K::Swizzle])
        .errors(&["InvalidSwizzle", "NotImplemented", "NotRepresentable", "Overflow", "Undecidable"])
        .law("A(R(i)) = i for 0 <= i < size(R); R is CuTe's construction (A's modes in stride order, each taken while its stride is the size so far), not always the largest such layout ((4,2,3):(1,2,4) gives 4:1, and (4,3):(1,8) obeys the law too); an F2 layout whose extents are powers of two gets the largest; composed A o O o B: CuTe's right_inverse(B) o -O o right_inverse(A), refused where it breaks the law")
        .example(&["(4,8):(8,1)"], "(8,4):(4,1)")
        .f2(f2_ops::right_inverse)
        .f2_basis(f2_ops::basis_right_inverse)
        .run(|a| first(symbolic_ops::right_inverse(a), || composed_ops::inverse(a, true))),
    op("left_inverse", Topic::Algebra, "R with R(A(i)) = i (quasi-inverse if not injective)")
        .params(&[one("", &[K::Layout, K::Composed])])
        .returns(&[K::Layout, K::Composed, K::Swizzle])
        .errors(&["InvalidSwizzle", "NotRepresentable", "Overflow", "TooLarge"])
        .law("R(A(i)) = i for 0 <= i < size(A) when A is injective (A(R(A(i))) = A(i) always); composed: CuTe's left_inverse(B) o -O o left_inverse(A); basis strides: slot by slot, R takes a coordinate")
        .example(&["(4,8):(8,1)"], "(8,4):(4,1)")
        .f2(f2_ops::left_inverse)
        .run(|a| composed_ops::inverse(a, false)),
    op("nullspace", Topic::Algebra, "the coordinates A maps to 0 (1:0 for a composed layout, as CuTe)")
        .params(&[one("", &[K::Layout, K::Composed])])
        .returns(&[K::Layout, K::Composed])
        .law("A(R(i)) = 0 for every i, and R covers every coordinate A maps to 0 (the plain-0 strides; 1:0 for a composed layout, as CuTe)")
        .example(&["(2,4):(0,1)"], "2:1")
        .run(|a| first(chain_ops::nullspace(a), || Ok(if a.is_basis(0) { a.basis_layout(0)?.nullspace() } else { a.layout(0)?.nullspace() }.to_string()))),
    op("max_common_vector", Topic::Algebra, "number of leading elements both layouts map alike")
        .params(&[one("", &[K::Layout, K::Composed]), one("", &[K::Layout, K::Composed])])
        .returns(&[K::Int])
        .errors(&["NotImplemented"])
        .law("for every j < R some coordinate c has A(c) = B(c) = j: the run of right_inverse(B) that A shares, inside both domains (at least 1)")
        .example(&["(4,8):(1,4)", "32:1"], "32")
        .run(|a| first(chain_ops::max_common_vector(a), || Ok(a.layout(0)?.max_common_vector(&a.layout(1)?).to_string()))),
    op("max_common_layout", Topic::Algebra, "layout of the leading elements both layouts map alike")
        .params(&[one("", &[K::Layout, K::Composed]), one("", &[K::Layout, K::Composed])])
        .returns(&[K::Layout, K::Composed])
        .errors(&["NotImplemented"])
        .law("R(i) is a coordinate both map to i: A(R(i)) = B(R(i)) = i for i < size(R), size(R) = max_common_vector(A, B) (1:0 when that is 1)")
        .example(&["(4,8):(1,4)", "32:1"], "32:1")
        .run(|a| first(chain_ops::max_common_layout(a), || Ok(a.layout(0)?.max_common_layout(&a.layout(1)?).to_string()))),
    op("upcast", Topic::Algebra, "the layout for elements N times wider")
        .params(&[one("N", &[K::Int]), one("", &[K::Layout, K::Swizzle, K::Composed])])
        .returns(&[K::Layout, K::Composed, K::Swizzle])
        .errors(&["InvalidArgument", "NotImplemented", "NotRepresentable"])
        .law("strides divided by N, a leaf of stride |d| < N shrunk by N/|d| (rounded up): the same memory viewed as elements N times wider where at most one leaf has a stride below N (else leaf by leaf, as CuTe)")
        .example(&["2", "(4,8):(8,1)"], "(4,4):(4,1)")
        .run(|a| first(chain_ops::recast(a, true), || Ok(a.layout(1)?.upcast(a.int(0)?)?.to_string()))),
    op("downcast", Topic::Algebra, "the layout for elements N times narrower")
        .params(&[one("N", &[K::Int]), one("", &[K::Layout, K::Swizzle, K::Composed])])
        .returns(&[K::Layout, K::Composed, K::Swizzle])
        .errors(&["InvalidArgument", "InvalidSwizzle", "NotImplemented", "Overflow"])
        .law("the layout of the same memory viewed as elements N times narrower: strides times N, a stride-1 mode N times longer")
        .example(&["2", "(4,8):(8,1)"], "(4,16):(16,1)")
        .run(|a| first(chain_ops::recast(a, false), || Ok(a.layout(1)?.downcast(a.int(0)?)?.to_string()))),
    op("recast", Topic::Algebra, "the layout for elements of NEW_BITS bits instead of OLD_BITS")
        .params(&[one("OLD_BITS", &[K::Int]), one("NEW_BITS", &[K::Int]), one("", &[K::Layout, K::Composed])])
        .returns(&[K::Layout, K::Composed])
        .errors(&["InvalidArgument", "NotImplemented", "NotRepresentable", "Overflow"])
        .law("upcast or downcast by the ratio NEW_BITS / OLD_BITS")
        .example(&["16", "32", "(4,8):(8,1)"], "(4,4):(4,1)")
        .run(recast),
    op("recast_layout", Topic::Algebra, "CuTe's name for recast (recast_layout<Old,New>): the layout for elements of NEW_BITS bits instead of OLD_BITS")
        .params(&[one("OLD_BITS", &[K::Int]), one("NEW_BITS", &[K::Int]), one("", &[K::Layout, K::Composed])])
        .returns(&[K::Layout, K::Composed])
        .errors(&["InvalidArgument", "NotImplemented", "NotRepresentable", "Overflow"])
        .law("the same as recast: upcast or downcast by the ratio NEW_BITS / OLD_BITS")
        .example(&["16", "32", "(4,8):(8,1)"], "(4,4):(4,1)")
        .run(recast),
    op("logical_divide", Topic::Algebra, "A o (T, complement(T))")
        .params(&[one("", &[K::Layout, K::Composed, K::Shape, K::Underscore, K::Tensor]), one("", &[K::Tiler])])
        .returns(&[K::Layout, K::Composed, K::Tensor])
        .errors(&["InvalidArgument", "InvalidExtent", "ModesOverlap", "NotComplementable", "NotImplemented", "NotInjective", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible"])
        .law("R = A o (T, complement(T, size(A))): mode i holds tile i of T and its repetitions")
        .example(&["(4,2,3):(2,1,8)", "4:2"], "((2,2),(2,3)):((4,1),(2,8))")
        .run(|a| first(tensor_ops::divide(a, Layout::logical_divide, ComposedLayout::logical_divide), || composed_ops::by_tiler(a, true, Layout::logical_divide, ComposedLayout::logical_divide))),
    op("zipped_divide", Topic::Algebra, "logical_divide as ((tile),(rest))")
        .params(&[one("", &[K::Layout, K::Composed, K::Shape, K::Underscore, K::Tensor]), one("", &[K::Tiler])])
        .returns(&[K::Layout, K::Composed, K::Tensor])
        .errors(&["InvalidArgument", "InvalidExtent", "ModesOverlap", "NotComplementable", "NotImplemented", "NotInjective", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible"])
        .law("the modes of logical_divide regrouped as ((tile), (rest)); the same function")
        .example(&["(8,8):(8,1)", "(2,4)"], "((2,4),(4,2)):((8,1),(16,4))")
        .run(|a| first(tensor_ops::divide(a, Layout::zipped_divide, ComposedLayout::zipped_divide), || composed_ops::by_tiler(a, true, Layout::zipped_divide, ComposedLayout::zipped_divide))),
    op("tiled_divide", Topic::Algebra, "logical_divide as ((tile),rest...)")
        .params(&[one("", &[K::Layout, K::Composed, K::Shape, K::Underscore, K::Tensor]), one("", &[K::Tiler])])
        .returns(&[K::Layout, K::Composed, K::Tensor])
        .errors(&["InvalidArgument", "InvalidExtent", "InvalidSwizzle", "ModesOverlap", "NotComplementable", "NotImplemented", "NotInjective", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible"])
        .law("the modes of logical_divide regrouped as ((tile), rest_0, rest_1, ...); the same function")
        .example(&["(8,8):(8,1)", "(2,4)"], "((2,4),4,2):((8,1),16,4)")
        .run(|a| first(tensor_ops::divide(a, Layout::tiled_divide, ComposedLayout::tiled_divide), || composed_ops::by_tiler(a, true, Layout::tiled_divide, ComposedLayout::tiled_divide))),
    op("flat_divide", Topic::Algebra, "logical_divide as (tile...,rest...)")
        .params(&[one("", &[K::Layout, K::Composed, K::Shape, K::Underscore, K::Tensor]), one("", &[K::Tiler])])
        .returns(&[K::Layout, K::Composed, K::Tensor])
        .errors(&["InvalidArgument", "InvalidExtent", "ModesOverlap", "NotComplementable", "NotImplemented", "NotInjective", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible"])
        .law("the modes of logical_divide regrouped as (tile_0, ..., rest_0, ...); the same function")
        .example(&["(8,8):(8,1)", "(2,4)"], "(2,4,4,2):(8,1,16,4)")
        .run(|a| first(tensor_ops::divide(a, Layout::flat_divide, ComposedLayout::flat_divide), || composed_ops::by_tiler(a, true, Layout::flat_divide, ComposedLayout::flat_divide))),
    op("logical_product", Topic::Algebra, "(A, complement(A) o B)")
        .params(&[one("", &[K::Layout, K::Composed, K::Shape]), one("", &[K::Tiler])])
        .returns(&[K::Layout, K::Composed])
        .errors(&["InvalidArgument", "InvalidExtent", "NotComplementable", "NotImplemented", "NotInjective", "NotRepresentable", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible"])
        .law("R = (A, complement(A, size(A) * cosize(B)) o B): A repeated as B says")
        .example(&["(2,2):(4,1)", "6:1"], "((2,2),(2,3)):((4,1),(2,8))")
        .run(|a| composed_ops::by_tiler(a, false, Layout::logical_product, ComposedLayout::logical_product)),
    op("zipped_product", Topic::Algebra, "logical_product as ((block),(rest))")
        .params(&[one("", &[K::Layout, K::Composed, K::Shape]), one("", &[K::Tiler])])
        .returns(&[K::Layout, K::Composed])
        .errors(&["InvalidArgument", "InvalidExtent", "ModesOverlap", "NotComplementable", "NotImplemented", "NotInjective", "NotRepresentable", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible"])
        .law("the modes of logical_product regrouped as ((block), (rest)); the same function")
        .example(&["(2,2):(4,1)", "(2,3)"], "((2,2),(2,3)):((4,1),(1,2))")
        .run(|a| composed_ops::by_tiler(a, false, Layout::zipped_product, ComposedLayout::zipped_product)),
    op("tiled_product", Topic::Algebra, "logical_product as ((block),rest...)")
        .params(&[one("", &[K::Layout, K::Composed, K::Shape]), one("", &[K::Tiler])])
        .returns(&[K::Layout, K::Composed])
        .errors(&["InvalidArgument", "InvalidExtent", "ModesOverlap", "NotComplementable", "NotImplemented", "NotInjective", "NotRepresentable", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible"])
        .law("the modes of logical_product regrouped as ((block), rest_0, rest_1, ...); the same function")
        .example(&["(2,2):(4,1)", "(2,3)"], "((2,2),2,3):((4,1),1,2)")
        .run(|a| composed_ops::by_tiler(a, false, Layout::tiled_product, ComposedLayout::tiled_product)),
    op("flat_product", Topic::Algebra, "logical_product as (block...,rest...)")
        .params(&[one("", &[K::Layout, K::Composed, K::Shape]), one("", &[K::Tiler])])
        .returns(&[K::Layout, K::Composed])
        .errors(&["InvalidArgument", "InvalidExtent", "ModesOverlap", "NotComplementable", "NotImplemented", "NotInjective", "NotRepresentable", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible"])
        .law("the modes of logical_product regrouped as (block_0, ..., rest_0, ...); the same function")
        .example(&["(2,2):(4,1)", "(2,3)"], "(2,2,2,3):(4,1,1,2)")
        .run(|a| composed_ops::by_tiler(a, false, Layout::flat_product, ComposedLayout::flat_product)),
    op("blocked_product", Topic::Algebra, "copies of A placed block by block as B says (of the inner layout if composed)")
        .params(&[one("", &[K::Layout, K::Composed]), one("", &[K::Layout])])
        .returns(&[K::Layout, K::Composed])
        .errors(&["InvalidArgument", "ModesOverlap", "NotComplementable", "NotInjective", "NotRepresentable", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible"])
        .law("mode i of R is (mode i of A, mode i of the repetition): copies of A placed block by block as B orders them")
        .example(&["(2,5):(5,1)", "(3,4):(1,3)"], "((2,3),(5,4)):((5,10),(1,30))")
        .run(|a| { let b = a.layout(1)?; first(chain_ops::inner(a, 0, |l| l.blocked_product(&b)), || Ok(a.layout(0)?.blocked_product(&b)?.to_string())) }),
    op("raked_product", Topic::Algebra, "copies of A interleaved as B says (of the inner layout if composed)")
        .params(&[one("", &[K::Layout, K::Composed]), one("", &[K::Layout])])
        .returns(&[K::Layout, K::Composed])
        .errors(&["InvalidArgument", "ModesOverlap", "NotComplementable", "NotInjective", "NotRepresentable", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible"])
        .law("mode i of R is (mode i of the repetition, mode i of A): copies of A interleaved element by element as B orders them")
        .example(&["(2,5):(5,1)", "(3,4):(1,3)"], "((3,2),(4,5)):((10,5),(30,1))")
        .run(|a| { let b = a.layout(1)?; first(chain_ops::inner(a, 0, |l| l.raked_product(&b)), || Ok(a.layout(0)?.raked_product(&b)?.to_string())) }),
    op("tile_to_shape", Topic::Algebra, "A repeated to fill SHAPE (the inner layout if composed: a swizzled smem layout from its atom)")
        .params(&[one("", &[K::Layout, K::Composed]), one("", &[K::Shape]), opt("ORDER", &[K::Tuple])])
        .returns(&[K::Layout, K::Composed])
        .errors(&["InvalidArgument", "InvalidExtent", "Overflow", "RankMismatch", "ShapeNotDivisible", "StrideNotDivisible"])
        .law("R repeats A (blocked_product) until shape(R) = SHAPE; mode i of SHAPE must be a multiple of mode i of A")
        .example(&["(2,2):(1,2)", "(4,6)"], "((2,2),(2,3)):((1,4),(2,8))")
        .run(|a| { let (shape, order) = (a.tuple(1)?, if a.len() == 3 { Some(a.tuple(2)?) } else { None }); first(chain_ops::inner(a, 0, |l| l.tile_to_shape(&shape, order.as_ref())), || Ok(a.layout(0)?.tile_to_shape(&shape, order.as_ref())?.to_string())) }),
    op("evenly_divides", Topic::Algebra, "whether TILER divides SHAPE without a partial tile")
        .params(&[one("", &[K::Shape]), one("", &[K::Tiler])])
        .returns(&[K::Bool])
        .law("a tuple TILER mode by mode (at most rank(SHAPE) modes); an integer T: size(SHAPE) = T * size(ceil_div(SHAPE, T)), T divided out of SHAPE's leaves left to right rounding up (CuTe); a layout T: size(T) * size(complement(T, SHAPE)) = size(SHAPE)")
        .example(&["(8,12)", "(4,3)"], "1")
        .run(|a| Ok(bit(a.tuple(0)?.evenly_divides(&a.tiler(1)?)))),
    // analysis (crate::analysis)
    op("show", Topic::Analysis, "the layout, its size, cosize, rank and depth, and CuTe's print_layout table")
        .params(&[one("", &[K::Layout, K::Shape])])
        .returns(&[K::Text])
        .errors(&["InvalidExtent", "Overflow"])
        .law("the table's cell (r, c) is L(r, c) (a rank-1 layout is one row); a shape is shown as its compact column-major layout")
        .example(&["(2,2)"], "layout: (2,2):(1,2)\nsize:   4\ncosize: 4\nrank:   2\ndepth:  1\n(2,2):(1,2)\n      0   1 \n    +---+---+\n 0  | 0 | 2 |\n    +---+---+\n 1  | 1 | 3 |\n    +---+---+")
        .run(show::show_op),
    op("explain", Topic::Analysis, "an algebra operation's derivation step by step, or why it refuses")
        .params(&[one("", &[K::Op]), more("ARGS", &[K::Text])])
        .returns(&[K::Text])
        .errors(&["UnknownOp"])
        .law("each step is one rule of the operation's definition; the last line is the operation's result (or the condition that failed)")
        .example(&["complement", "4:2", "24"], "complement(4:2, 24)\n1. filter A (drop stride-0 and extent-1 modes, coalesce): filter(4:2) = 4:2\n2. sort the modes by stride: 4:2\n   - gap below 4:2: the modes below span 1, and 2/1 = 2, so the gap is 2:1\n   - repeat the whole span 8 to cover the cotarget 24: ceil(24/8) = 3 copies: 3:8\n3. collect the gaps and the repeat, and coalesce: (2,3):(1,8) = (2,3):(1,8)\n=> (2,3):(1,8)")
        .run(crate::analysis::explain_op),
    op("find_layout", Topic::Analysis, "the canonical layout whose values are v0,v1,... (of SHAPE if given)")
        .params(&[one("", &[K::Values]), opt("", &[K::Shape])])
        .returns(&[K::Layout])
        .errors(&["InvalidArgument", "InvalidExtent", "NotALayout", "Overflow"])
        .law("R(i) = v_i for every i: the canonical layout of the values (coalesced, strides by first appearance)")
        .example(&["0,2,4,7,9,11"], "(3,2):(2,7)")
        .run(crate::analysis::find_op),
    op("equal", Topic::Analysis, "whether both are the same function on the same domain")
        .params(&[one("", &[K::Layout, K::Composed]), one("", &[K::Layout, K::Composed])])
        .returns(&[K::Bool])
        .law("1 exactly when size(A) = size(B) and A(i) = B(i) for every i in [0, size)")
        .example(&["(4,2):(1,4)", "8:1"], "1")
        .f2(f2_ops::equal)
        .run(|a| first(chain_ops::equal(a), || crate::analysis::equal(a))),
    op("injective", Topic::Analysis, "whether no two points share an offset")
        .params(&[one("", &[K::Layout, K::Composed])])
        .returns(&[K::Bool])
        .errors(&["Overflow", "TooLarge"])
        .law("1 exactly when A(i) != A(j) for all i != j in [0, size)")
        .example(&["(4,2):(2,8)"], "1")
        .f2(f2_ops::injective)
        .run(|a| first(chain_ops::injectivity(a, 0), || crate::analysis::injective(a))),
    op("surjective", Topic::Analysis, "whether every integer between the smallest and largest offset is reached (with N: whether the offsets are exactly 0..N-1)")
        .params(&[one("", &[K::Layout, K::Composed]), opt("N", &[K::Int])])
        .returns(&[K::Bool])
        .errors(&["Overflow", "TooLarge"])
        .law("1 exactly when every integer from the smallest to the largest offset is some A(i) (with N: the offsets are exactly 0..N-1)")
        .example(&["(4,2):(2,1)"], "1")
        .run(|a| if a.len() == 2 { analysis_ops::surjective_onto(a) } else { first(chain_ops::injectivity(a, 1), || Ok(bit(a.layout(0)?.is_surjective()))) }),
    op("bijective", Topic::Analysis, "whether it is a bijection onto its range of cosize offsets (onto its range, if composed)")
        .params(&[one("", &[K::Layout, K::Composed])])
        .returns(&[K::Bool])
        .errors(&["Overflow", "TooLarge"])
        .law("1 exactly when A is injective and surjective")
        .example(&["(4,2):(2,1)"], "1")
        .f2(f2_ops::bijective)
        .run(|a| first(chain_ops::injectivity(a, 2), || Ok(bit(a.layout(0)?.is_bijective())))),
    op("compact", Topic::Analysis, "whether it is a bijection onto [0, size)")
        .params(&[one("", &[K::Layout])])
        .returns(&[K::Bool])
        .law("1 exactly when A is a bijection onto [0, size(A))")
        .example(&["(4,2):(2,1)"], "1")
        .run(|a| Ok(bit(a.layout(0)?.is_compact()))),
    op("image", Topic::Analysis, "the set of offsets as an injective layout in increasing order (OFFSET + LAYOUT if it starts below 0)")
        .params(&[one("", &[K::Layout])])
        .returns(&[K::Layout, K::Text])
        .errors(&["NotRepresentable"])
        .law("the offsets of R, plus OFFSET, are the set {A(i)}: each once, in increasing order")
        .example(&["(4,2):(2,16)"], "(4,2):(2,16)")
        .run(image),
    op("swizzle", Topic::Swizzles, "CuTe's Swizzle<B,M,S>: x ^ ((x & yyy) >> S), printed Sw<B,M,S>")
        .params(&[one("B", &[K::Int]), one("M", &[K::Int]), one("S", &[K::Int])])
        .returns(&[K::Swizzle])
        .errors(&["InvalidSwizzle"])
        .law("Sw<B,M,S>(x) = x ^ ((x & yyy) >> S), yyy the B bits starting at bit M + S; an involution")
        .example(&["3", "4", "3"], "Sw<3,4,3>")
        .run(composed_ops::swizzle),
    // rendering
    op("table", Topic::Rendering, "values v0,v1,... of the 1-D function (N of them if given)")
        .params(&[one("", &[K::Layout, K::Composed, K::Swizzle]), opt("N", &[K::Int])])
        .returns(&[K::Values])
        .errors(&["InvalidArgument", "InvalidSwizzle", "Overflow"])
        .law("value i of the output is A(i), for i in [0, N) (N = size(A) by default)")
        .example(&["(2,2):(2,1)"], "0,2,1,3")
        .limits("at most 1048576 values (MAX_TABLE_VALUES), given as N or as the size")
        .f2(f2_ops::table)
        .run(composed_ops::table),
    op("print_layout", Topic::Rendering, "CuTe's print_layout table (of a swizzled layout Sw<B,M,S> o OFFSET o LAYOUT: its values)")
        .params(&[one("", &[K::Layout, K::Composed])])
        .returns(&[K::Text])
        .errors(&["InvalidArgument"])
        .law("cell (r, c) of the table is A(r, c), with modes 1.. grouped as the columns (a rank-1 layout is one row)")
        .example(&["(2,2):(2,1)"], "(2,2):(2,1)\n      0   1 \n    +---+---+\n 0  | 0 | 1 |\n    +---+---+\n 1  | 2 | 3 |\n    +---+---+")
        .run(show::print_layout_op),
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
    let (min, max) = (spec.min(), spec.max());
    if args.len() < min || args.len() > max {
        let want = if min == max {
            format!("{min}")
        } else if max == MANY {
            format!("at least {min}")
        } else {
            format!("{min} to {max}")
        };
        return Err(OpError::new(
            "Arity",
            format!(
                "{op}: expected {want} argument{} ({}), got {}",
                if want == "1" { "" } else { "s" },
                spec.usage(),
                args.len()
            ),
        ));
    }
    let a = Args::new(spec.name, args);
    if (0..a.len()).any(|k| a.is_f2(k)) {
        return f2_ops::dispatch(spec, &a);
    }
    match spec.check_kinds(&a) {
        Ok(()) => (spec.run)(&a),
        // An argument of a kind no signature declares: the typed refusal, unless the operation
        // answers anyway (a declaration narrower than what the operation reads).
        Err(mismatch) => (spec.run)(&a).map_err(|_| mismatch),
    }
}

/// The `UnknownOp` error for `name`, naming the nearest operation when one is close.
pub fn unknown_op(name: &str) -> OpError {
    let hint = match help::suggest(name, all().map(|s| s.name)) {
        Some(near) => format!("; did you mean {near}?"),
        None => String::from(" (`cute ops` lists them)"),
    };
    OpError::new("UnknownOp", format!("unknown operation {name:?}{hint}"))
}

/// The entry of [`OPS`] called `name` (by a map of the names, built on the first call: every
/// call of an operation looks its name up).
pub fn find(name: &str) -> Option<&'static OpSpec> {
    static BY_NAME: std::sync::OnceLock<std::collections::HashMap<&'static str, &'static OpSpec>> =
        std::sync::OnceLock::new();
    BY_NAME
        .get_or_init(|| {
            let mut map = std::collections::HashMap::new();
            for s in all() {
                // The first entry of a name, as a scan of `all()` finds.
                map.entry(s.name).or_insert(s);
            }
            map
        })
        .get(name)
        .copied()
}

/// The arguments of one call, with typed accessors whose errors name the operation and the
/// argument's position.
pub struct Args<'a> {
    op: &'static str,
    args: &'a [Arg],
    values: Vec<std::cell::OnceCell<value::Value>>,
    forms: Vec<std::cell::OnceCell<value::Form>>,
}

/// A layout or an integer tuple, told apart by the `:` of the layout form.
pub enum Either {
    /// `shape:stride`.
    Layout(Layout),
    /// An integer or tuple.
    Tuple(IntTuple),
}

/// A JSON list of integers and lists as a tuple's text: `[1,[2,3]]` is `(1,(2,3))`.
pub(crate) fn list_tuple(items: &[Arg]) -> Option<String> {
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
    /// The arguments `args` of operation `op`.
    pub fn new(op: &'static str, args: &'a [Arg]) -> Self {
        Args {
            op,
            args,
            values: (0..args.len())
                .map(|_| std::cell::OnceCell::new())
                .collect(),
            forms: (0..args.len())
                .map(|_| std::cell::OnceCell::new())
                .collect(),
        }
    }

    /// Argument `k` parsed by its form, once per call ([`value::Value::parse`]).
    pub fn value(&self, k: usize) -> &value::Value {
        self.values[k].get_or_init(|| value::Value::parse(&self.args[k]))
    }

    /// The form of argument `k` ([`value::Form::of`]).
    pub fn form(&self, k: usize) -> value::Form {
        *self.forms[k].get_or_init(|| value::Form::of(&self.args[k]))
    }

    /// Whether argument `k` has F2 strides ([`value::Form::has_f2`]).
    pub fn is_f2(&self, k: usize) -> bool {
        self.form(k).has_f2(&self.args[k])
    }

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
        if let value::Value::Layout(l) = self.value(k) {
            return Ok(l.clone());
        }
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
        if self.form(k) == value::Form::Swizzle
            || (self.form(k) == value::Form::Composed && self.value(k).is_swizzle_outer())
        {
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
        if let value::Value::Tuple(t) = self.value(k) {
            return Ok(t.clone());
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
        Ok(if self.form(k).is_layout_form(&self.args[k]) {
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
            assert!(a.min() <= a.max(), "{}", a.name);
        }
    }

    #[test]
    fn stated_limits_hold() {
        let declared: Vec<&str> = all()
            .filter(|s| !s.limits.is_empty())
            .map(|s| s.name)
            .collect();
        // make_coord_iterator's: usage_audit::make_coord_iterator_limits; gluon_to_cute's,
        // cute_to_gluon's and equal_function's: rosetta_ops::tests::stated_limits_hold.
        assert_eq!(
            declared,
            [
                "table",
                "make_coord_iterator",
                "gluon_to_cute",
                "cute_to_gluon",
                "equal_function"
            ],
            "a declared limit needs its check here"
        );
        // table: 1048576 values are written, one more is refused, by N or by the size.
        assert_eq!(
            ok("table", &[t("8:1"), Arg::Int(MAX_TABLE_VALUES)])
                .split(',')
                .count(),
            1 << 20
        );
        for args in [
            vec![t("8:1"), Arg::Int(MAX_TABLE_VALUES + 1)],
            vec![t("2097152:1")],
            vec![t("(8,8):(F2(1),F2(9))"), Arg::Int(MAX_TABLE_VALUES + 1)],
        ] {
            assert_eq!(
                run_op("table", &args).unwrap_err().kind,
                "InvalidArgument",
                "{args:?}"
            );
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
            "size: expected 1 argument (LAYOUT|COMPOSED|TUPLE|SYMBOLIC), got 2"
        );
        // The kind check names the parameter, the kinds it takes and the kind given.
        assert_eq!(
            run_op("size", &[t("LayoutLeft")]).unwrap_err(),
            OpError::new(
                "KindMismatch",
                "size: argument 1 (LAYOUT|COMPOSED|TUPLE|SYMBOLIC) is NAME LayoutLeft; expected LAYOUT or COMPOSED or TUPLE or SYMBOLIC"
            )
        );
        assert_eq!(
            run_op("complement", &[t("4:2"), t("Sw<1,0,1>")]).unwrap_err(),
            OpError::new(
                "KindMismatch",
                "complement: argument 2 (COTARGET) is SWIZZLE Sw<1,0,1>; expected SHAPE"
            )
        );
        // An overload is chosen by the kinds: make_tensor PTR LAYOUT beside LAYOUT [BASE].
        assert_eq!(
            ok("make_tensor", &[t("gmem_ptr[16b](0x1000)"), t("4:1")]),
            "gmem_ptr[16b](0x1000) o 4:1"
        );
        assert_eq!(
            ok("make_tensor", &[t("4:1"), t("3")]),
            "counting_iter(3) o 4:1"
        );
        // A JSON list of three integers is a swizzle or a tuple, as the parameter says.
        let list = Arg::List(vec![Arg::Int(2), Arg::Int(3), Arg::Int(4)]);
        assert_eq!(ok("size", std::slice::from_ref(&list)), "24");
        // Sw<2,3,4>(128) = 128 ^ (128 >> 4)
        assert!(ok("table", &[list, Arg::Int(129)]).ends_with(",127,136"));
        // Symbolic tuples are tuples; a bare word is not.
        assert_eq!(ok("size", &[t("(N,4*M)")]), "4*N*M");
        assert_eq!(run_op("size", &[t("N")]).unwrap_err().kind, "KindMismatch");
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
