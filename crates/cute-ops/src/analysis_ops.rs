//! Offset analysis of a layout function (the image as a list, the offset table, fixed points,
//! the permutation a dense injective layout induces, contiguity, a warp's bank conflicts, the
//! GF(2) matrix), CuTe's `tuple_cat` and `make_swizzle<Y,Z>`: one table, [`ANALYSIS_OPS`],
//! listed in [`crate::GROUPS`]. The algebra is in `cute_layout` ([`LayoutChain`]'s analyses,
//! [`IntTuple::tuple_cat`], [`Layout::tuple_cat`], [`Swizzle::from_masks`]).
//!
//! Lists print as tuples: `(0,2,4)`; the offset table as `((OFFSET,(COORD,...)),...)`; a matrix
//! as the tuple of its rows.

use cute_layout::render::Banks;
use cute_layout::{ComposedLayout, IntTuple, Layout, LayoutChain, Swizzle};

use crate::table::{more, one, opt, Kind as K, Topic};
use crate::{op, Args, Either, OpError, OpSpec};

/// The analysis operations, one declaration each (hence `rustfmt::skip`).
#[rustfmt::skip]
pub static ANALYSIS_OPS: &[OpSpec] = &[
    op("image_offsets", Topic::Analysis, "the image as an explicit list: the distinct offsets, increasing")
        .params(&[one("", &[K::Layout, K::Composed])])
        .returns(&[K::Tuple])
        .errors(&["Overflow", "TooLarge"])
        .law("v is listed iff L(i) = v for some i < size(L); increasing, no repeats")
        .example(&["(4,2):(0,2)"], "(0,2)")
        .run(|a| Ok(list(&a.any_layout(0)?.image_offsets()?))),
    op("offset_table", Topic::Analysis, "each offset with the natural coordinates landing on it: ((OFFSET,(COORD,...)),...)")
        .params(&[one("", &[K::Layout, K::Composed])])
        .returns(&[K::Tuple])
        .errors(&["Overflow", "TooLarge"])
        .law("for each entry (v,(c...)): L(c) = v; every coordinate appears once")
        .example(&["(2,2):(0,1)"], "((0,((0,0),(1,0))),(1,((0,1),(1,1))))")
        .run(offset_table),
    op("fixed_points", Topic::Analysis, "the indices i with L(i) = i")
        .params(&[one("", &[K::Layout, K::Composed])])
        .returns(&[K::Tuple])
        .errors(&["Overflow", "TooLarge"])
        .law("i is listed iff L(i) = i")
        .example(&["(2,2):(2,1)"], "(0,3)")
        .run(|a| Ok(list(&a.any_layout(0)?.fixed_points()?))),
    op("permutation", Topic::Analysis, "L(i) - min(image) for a layout hitting a dense interval once per point")
        .params(&[one("", &[K::Layout, K::Composed])])
        .returns(&[K::Tuple])
        .errors(&["InvalidArgument", "Overflow", "TooLarge"])
        .law("p(i) = L(i) - min(image); refused unless the image is a dense interval hit once per point")
        .example(&["4:-1"], "(3,2,1,0)")
        .run(|a| Ok(list(&a.any_layout(0)?.permutation()?))),
    op("cycles", Topic::Analysis, "the cycles of that permutation, each from its smallest element")
        .params(&[one("", &[K::Layout, K::Composed])])
        .returns(&[K::Tuple])
        .errors(&["InvalidArgument", "Overflow", "TooLarge"])
        .law("the cycles partition [0,size); each element maps to the next, the last to the first")
        .example(&["(2,2):(2,1)"], "((0),(1,2),(3))")
        .run(|a| Ok(tuple_of(a.any_layout(0)?.cycles()?.iter().map(|c| list(c))))),
    op("permutation_order", Topic::Analysis, "the order of that permutation (lcm of its cycle lengths)")
        .params(&[one("", &[K::Layout, K::Composed])])
        .returns(&[K::Int])
        .errors(&["InvalidArgument", "Overflow", "TooLarge"])
        .law("p^k is the identity for k = the result and for no smaller k >= 1")
        .example(&["Sw<3,0,3> o 0 o (8,8):(8,1)"], "3")
        .run(|a| Ok(a.any_layout(0)?.permutation_order()?.to_string())),
    op("contiguity", Topic::Analysis, "the contiguous vector width from the start: max_common_vector(L, size(L):1)")
        .params(&[one("", &[K::Layout, K::Composed])])
        .returns(&[K::Int])
        .errors(&["InvalidArgument"])
        .law("L(i) = L(0) + i for every i < the result (what CuTe can prove)")
        .example(&["(4,8):(1,8)"], "4")
        .run(contiguity),
    op("mode_contiguity", Topic::Analysis, "contiguity of each top-level mode")
        .params(&[one("", &[K::Layout, K::Composed])])
        .returns(&[K::Tuple])
        .errors(&["InvalidArgument"])
        .law("entry k is the contiguity of mode k")
        .example(&["(4,8):(8,1)"], "(1,8)")
        .run(mode_contiguity),
    op("bank_conflicts", Topic::Analysis, "n of the n-way bank conflict of the first THREADS (32) threads of a TV layout reading together (32 banks of 4 bytes)")
        .params(&[one("", &[K::Layout, K::Composed]), one("ELEM_BYTES", &[K::Int]), opt("THREADS", &[K::Int]), opt("BANKS", &[K::Int]), opt("BANK_BYTES", &[K::Int])])
        .returns(&[K::Int])
        .errors(&["InvalidArgument", "Overflow", "TooLarge"])
        .law("the most distinct bank words any one bank serves to the first THREADS threads (all their values)")
        .example(&["64:32", "2"], "16")
        .run(bank_conflicts),
    op("f2_matrix", Topic::Analysis, "the GF(2) matrix (rows: offset bits) of a layout of power-of-two shapes and disjoint strides, swizzles folded in, or of a layout with F2 (XOR) strides")
        .params(&[one("", &[K::Layout, K::Composed, K::F2Layout])])
        .returns(&[K::Tuple])
        .errors(&["InvalidArgument", "NotRepresentable"])
        .law("bits(L(i)) = M * bits(i) (mod 2) for every index i")
        .example(&["Sw<1,0,-1> o 0 o 4:1"], "((1,0),(1,1))")
        .f2(crate::f2_ops::f2_matrix)
        .run(f2_matrix),
    op("tuple_cat", Topic::Tuples, "CuTe tuple_cat: the top-level elements (modes) of each argument in turn")
        .params(&[more("", &[K::Tuple, K::Layout])])
        .returns(&[K::Layout, K::Tuple])
        .errors(&["Overflow"])
        .law("rank(R) = the sum of the ranks (1 for an integer); R's elements are the arguments' in order")
        .example(&["(7,2):(2,1)", "(3,3):(0,10)"], "(7,2,3,3):(2,1,0,10)")
        .run(tuple_cat),
    op("make_swizzle", Topic::Swizzles, "CuTe make_swizzle<Y,Z>: the swizzle reading bit mask Y and toggling bit mask Z")
        .params(&[one("Y", &[K::Int]), one("Z", &[K::Int])])
        .returns(&[K::Swizzle])
        .errors(&["InvalidArgument"])
        .law("R reads the bits of Y and toggles those of Z: R(x) = x ^ ((x & Y) >> S)")
        .example(&["24", "3"], "Sw<2,0,3>")
        .run(|a| Ok(Swizzle::from_masks(a.int(0)?, a.int(1)?)?.to_string())),
    op("get_swizzle_portion", Topic::Swizzles, "CuTe get_swizzle_portion: the outermost swizzle of a swizzled layout Sw<B,M,S> o OFFSET o LAYOUT (Sw<0,4,3> for a plain layout)")
        .params(&[one("", &[K::Layout, K::Composed])])
        .returns(&[K::Swizzle])
        .errors(&["NotImplemented"])
        .law("for Sw o O o L, R = Sw; for a plain layout R = Sw<0,4,3>, the identity")
        .example(&["Sw<3,4,3> o 0 o (8,64):(64,1)"], "Sw<3,4,3>")
        .run(|a| Ok(swizzled(a)?.swizzle_portion().to_string())),
    op("get_nonswizzle_portion", Topic::Swizzles, "CuTe get_nonswizzle_portion: what the outermost swizzle of Sw<B,M,S> o OFFSET o LAYOUT applies to, without its offset (layout_b); a plain layout itself")
        .params(&[one("", &[K::Layout, K::Composed])])
        .returns(&[K::Layout, K::Composed])
        .errors(&["NotImplemented"])
        .law("for Sw o O o L, R = L and Sw(O + R(c)) is the layout's value at c")
        .example(&["Sw<3,4,3> o 0 o (8,64):(64,1)"], "(8,64):(64,1)")
        .run(|a| Ok(swizzled(a)?.nonswizzle_portion().to_string())),
];

/// A list of integers as a tuple: `(1,2)`, `(1)`, `()`.
/// Argument 0 as a layout or a swizzled layout `Sw<B,M,S> o O o L` (CuTe's overloads of the
/// swizzle-portion helpers).
fn swizzled(a: &Args<'_>) -> Result<ComposedLayout, OpError> {
    if let crate::value::Value::Chain(c) = a.value(0) {
        return c.to_composed().ok_or_else(|| {
            a.arg_error(
                "NotImplemented",
                0,
                format_args!(
                    " ({c}): the outer function is a layout; CuTe's portions split a swizzled layout Sw<B,M,S> o OFFSET o LAYOUT"
                ),
            )
        });
    }
    a.parsed(0, "layout or swizzled layout")
}

fn list(v: &[i64]) -> String {
    tuple_of(v.iter().map(|x| x.to_string()))
}

fn tuple_of(items: impl Iterator<Item = String>) -> String {
    let mut out = String::from("(");
    for (k, s) in items.enumerate() {
        if k > 0 {
            out.push(',');
        }
        out.push_str(&s);
    }
    out.push(')');
    out
}

fn offset_table(a: &Args<'_>) -> Result<String, OpError> {
    let t = a.any_layout(0)?.offset_table()?;
    Ok(tuple_of(t.iter().map(|(v, cs)| {
        format!("({v},{})", tuple_of(cs.iter().map(IntTuple::to_string)))
    })))
}

fn undefined(a: &Args<'_>, c: &LayoutChain) -> OpError {
    OpError::new(
        "InvalidArgument",
        format!(
            "{}: defined for layouts and swizzled layouts with offset 0 (CuTe's max_common_vector), not {c}",
            a.op
        ),
    )
}

fn contiguity(a: &Args<'_>) -> Result<String, OpError> {
    let c = a.any_layout(0)?;
    c.contiguity()
        .map(|k| k.to_string())
        .ok_or_else(|| undefined(a, &c))
}

fn mode_contiguity(a: &Args<'_>) -> Result<String, OpError> {
    let c = a.any_layout(0)?;
    c.mode_contiguity()
        .map(|v| list(&v))
        .ok_or_else(|| undefined(a, &c))
}

fn bank_conflicts(a: &Args<'_>) -> Result<String, OpError> {
    let c = a.any_layout(0)?;
    let opt = |k: usize, d: i64| if a.len() > k { a.int(k) } else { Ok(d) };
    let banks = Banks::new(opt(3, 32)?, a.int(1)?)?.with_bank_bytes(opt(4, 4)?)?;
    Ok(c.warp_bank_conflicts(banks, opt(2, 32)?)?
        .wavefronts
        .to_string())
}

fn f2_matrix(a: &Args<'_>) -> Result<String, OpError> {
    let m = a.any_layout(0)?.f2_matrix()?;
    Ok(tuple_of(
        m.iter()
            .map(|row| tuple_of(row.iter().map(|b| b.to_string()))),
    ))
}

/// `surjective L N`: whether the offsets of `L` are exactly `0, 1, ..., N-1`.
pub(crate) fn surjective_onto(a: &Args<'_>) -> Result<String, OpError> {
    Ok(crate::bit(a.any_layout(0)?.is_surjective_onto(a.int(1)?)?))
}

fn tuple_cat(a: &Args<'_>) -> Result<String, OpError> {
    if let Either::Layout(_) = a.layout_or_tuple(0)? {
        let ls = a.layouts()?;
        return Ok(Layout::tuple_cat(&ls)?.to_string());
    }
    let ts = (0..a.len())
        .map(|k| a.tuple(k))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(IntTuple::tuple_cat(&ts)?.to_string())
}

#[cfg(test)]
mod tests {
    use crate::test_util::{kind, ok};

    #[test]
    fn swizzle_portions() {
        let c = "Sw<3,4,3> o 2 o (8,64):(64,1)";
        assert_eq!(ok("get_swizzle_portion", &[c]), "Sw<3,4,3>");
        assert_eq!(ok("get_nonswizzle_portion", &[c]), "(8,64):(64,1)");
        // CuTe: Swizzle<0,4,3> and the layout itself for a plain layout.
        assert_eq!(ok("get_swizzle_portion", &["(8,64):(64,1)"]), "Sw<0,4,3>");
        assert_eq!(
            ok("get_nonswizzle_portion", &["(8,64):(64,1)"]),
            "(8,64):(64,1)"
        );
        let two = "Sw<2,0,3> o 0 o Sw<1,0,1> o 4 o (8,8):(1,8)";
        assert_eq!(
            ok("get_nonswizzle_portion", &[two]),
            "Sw<1,0,1> o 4 o (8,8):(1,8)"
        );
        // Sw(O + L(c)) is the value of the swizzled layout at every c.
        let sw = ok("get_swizzle_portion", &[c]);
        let inner = ok("get_nonswizzle_portion", &[c]);
        for i in 0..512 {
            let l = ok("crd2idx", &[&i.to_string(), &inner]);
            let v: i64 = l.parse::<i64>().unwrap() + 2;
            let want = ok("crd2idx", &[&i.to_string(), c]);
            assert_eq!(
                ok("table", &[&format!("{sw} o 0 o {}:1", v + 1)])
                    .rsplit(',')
                    .next()
                    .unwrap(),
                want
            );
        }
        assert_eq!(
            kind("get_swizzle_portion", &["Sw<3,4> o 0 o 8:1"]),
            "ParseError"
        );
    }

    #[test]
    fn answers() {
        assert_eq!(ok("image_offsets", &["4:-1"]), "(-3,-2,-1,0)");
        assert_eq!(
            ok("image_offsets", &["Sw<2,0,2> o 0 o (4,4):(4,1)"]),
            "(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15)"
        );
        assert_eq!(
            ok("offset_table", &["4:2"]),
            "((0,(0)),(2,(1)),(4,(2)),(6,(3)))"
        );
        assert_eq!(
            ok("offset_table", &["(4,2):(0,1)"]),
            "((0,((0,0),(1,0),(2,0),(3,0))),(1,((0,1),(1,1),(2,1),(3,1))))"
        );
        assert_eq!(ok("cycles", &["4:1"]), "((0),(1),(2),(3))");
        assert_eq!(
            ok("cycles", &["Sw<2,0,2> o 0 o 16:1"]),
            "((0),(1),(2),(3),(4,5),(6,7),(8,10),(9,11),(12,15),(13,14))"
        );
        assert_eq!(kind("cycles", &["4:2"]), "InvalidArgument");
        assert_eq!(ok("permutation_order", &["4:-1"]), "2");
        assert_eq!(ok("fixed_points", &["4:0"]), "(0)");
        assert_eq!(ok("contiguity", &["(4,8):(1,4)"]), "32");
        assert_eq!(ok("contiguity", &["8:0"]), "1");
        assert_eq!(
            kind("contiguity", &["16:2 o 0 o Sw<2,0,2> o 0 o 16:1"]),
            "InvalidArgument"
        );
        assert_eq!(ok("mode_contiguity", &["(4,8):(1,8)"]), "(4,1)");
        assert_eq!(ok("bank_conflicts", &["32:32", "2"]), "16");
        assert_eq!(ok("bank_conflicts", &["64:32", "2", "64"]), "32");
        assert_eq!(
            ok(
                "bank_conflicts",
                &["Sw<2,0,2> o 0 o (4,2):(1,4)", "4", "4", "4", "4"]
            ),
            "2"
        );
        assert_eq!(
            kind("bank_conflicts", &["32:1", "2", "0"]),
            "InvalidArgument"
        );
        assert_eq!(
            ok("f2_matrix", &["(4,8):(8,1)"]),
            "((0,0,1,0,0),(0,0,0,1,0),(0,0,0,0,1),(1,0,0,0,0),(0,1,0,0,0))"
        );
        assert_eq!(kind("f2_matrix", &["6:1"]), "InvalidArgument");
        assert_eq!(
            ok("tuple_cat", &["(3,128,128)", "(1,2,(3,4),5,(6))"]),
            "(3,128,128,1,2,(3,4),5,(6))"
        );
        assert_eq!(ok("tuple_cat", &["3:1", "4:3"]), "(3,4):(1,3)");
        assert_eq!(ok("make_swizzle", &["0", "0"]), "Sw<0,0,0>");
        assert_eq!(ok("surjective", &["(2,2):(2,1)", "4"]), "1");
        assert_eq!(ok("surjective", &["4:2", "4"]), "0");
        assert_eq!(ok("surjective", &["4:1", "3"]), "0");
        assert_eq!(kind("make_swizzle", &["12", "9"]), "InvalidArgument");
        assert_eq!(kind("make_swizzle", &["6", "3"]), "InvalidArgument");
    }
}
