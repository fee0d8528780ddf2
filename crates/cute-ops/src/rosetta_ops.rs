//! One layout in CuTe and Triton's Gluon ([`cute_layout::gpu::gluon`]): `gluon_to_cute`,
//! `cute_to_gluon`, and `equal_function` across the forms (layout, composed layout, F2 layout,
//! TV layout, Gluon constructor text). A Gluon argument is text of no other form (a word to the
//! grammar); it is parsed as a Gluon constructor.

use cute_layout::gpu::gluon::{
    name_distributed, name_shared, smem_to_gluon, tv_to_gluon, Gluon, MAX_GLUON_POINTS,
};
use cute_layout::IntTuple;

use crate::table::{one, opt, Kind as K, Topic};
use crate::value::{Form, Value};
use crate::{op, Args, OpError, OpSpec};

/// The conversions between CuTe and Gluon, one declaration each.
#[rustfmt::skip]
pub static ROSETTA_OPS: &[OpSpec] = &[
    op("gluon_to_cute", Topic::Gpu, "a Triton Gluon layout (its Python constructor text) at SHAPE as the CuTe function with the same values: a TV layout (thread, value) -> offset for a distributed layout, the layout from the natural coordinate to the element offset for a shared one")
        .params(&[one("SHAPE", &[K::Shape]), one("GLUON", &[K::Text])])
        .returns(&[K::Layout, K::Composed, K::F2Layout])
        .errors(&["InvalidArgument"])
        .law("R(t + T*v) = x0 + d0*(x1 + d1*...) for the coordinate x Triton's to_linear_layout gives register v of thread t = lane + 2^lanes*warp (32*warp with Triton's 5 lane bits) (distributed); R(x) = the offset Triton places coordinate x at, padding included (shared); an integer layout where the bases' bits are disjoint, else Sw<B,M,S> o 0 o L, else F2 strides")
        .example(&["(32,16)", "BlockedLayout([1,4],[8,4],[4,1],[1,0])"], "((4,32),4):((128,1),32)")
        .limits("at most 2^22 points (MAX_GLUON_POINTS); rank 2 for NVMMA and dot-operand layouts; no cga_layout (several CTAs) in named layouts; no fp4_padded")
        .run(gluon_to_cute),
    op("cute_to_gluon", Topic::Gpu, "a CuTe TV layout (thread, value) -> offset in SHAPE as Gluon's DistributedLinearLayout, or a layout from the coordinates of SHAPE to offsets as a SharedLinearLayout or PaddedSharedLayout; then the named Gluon layout with the same linear layout, where one of the candidates has it; refused, naming the condition, where no linear layout exists")
        .params(&[one("", &[K::Layout, K::Composed, K::F2Layout]), one("SHAPE", &[K::Shape]), opt("", &[K::Tag("distributed"), K::Tag("shared")])])
        .returns(&[K::Text])
        .errors(&["InvalidArgument", "NotRepresentable", "Overflow", "TooLarge"])
        .law("gluon_to_cute(SHAPE, R) is the same function as LAYOUT; refused exactly when no linear layout has LAYOUT's values (an extent not a power of two, an offset outside SHAPE, values not linear over GF(2), a TV layout that is not a permutation of the offset's bits with zero strides aside, a shared layout of one element, not injective or not a padding of [0, size))")
        .example(&["((4,32),4):((128,1),32)", "(32,16)"], "DistributedLinearLayout(reg_bases=[[0, 1], [0, 2]], lane_bases=[[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], warp_bases=[[8, 0], [16, 0]], block_bases=[], shape=[32, 16])\nBlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0], cga_layout=[])")
        .limits("at most 2^22 points (MAX_GLUON_POINTS); distributed unless the layout's modes have SHAPE's extents (then shared; the third argument chooses); thread = lane + 32*warp (the first five thread bits are lanes)")
        .f2(cute_to_gluon)
        .run(cute_to_gluon),
    op("equal_function", Topic::Analysis, "whether two functions in any of the forms (layout, composed layout, F2 layout, TV layout, Gluon constructor text at SHAPE) have the same values at every point; else the first point where they differ")
        .params(&[one("A", &[K::Layout, K::Composed, K::F2Layout, K::Text]), one("B", &[K::Layout, K::Composed, K::F2Layout, K::Text]), opt("SHAPE", &[K::Shape])])
        .returns(&[K::Bool, K::Text])
        .errors(&["InvalidArgument", "Overflow", "TooLarge"])
        .law("1 exactly when size(A) = size(B) and A(i) = B(i) for every i in [0, size); else 0 and the first such i with both values (a Gluon layout at SHAPE is its TV function or its coordinate-to-offset function)")
        .example(&["((4,32),4):((128,1),32)", "BlockedLayout([1,4],[8,4],[4,1],[1,0])", "(32,16)"], "1")
        .limits("at most 2^22 points (MAX_GLUON_POINTS); SHAPE is needed exactly when an argument is Gluon text")
        .f2(equal_function)
        .run(equal_function),
];

fn shape_of(a: &Args<'_>, k: usize) -> Result<Vec<i64>, OpError> {
    let t: IntTuple = a.tuple(k)?;
    let flat = t.flatten();
    let v: Vec<i64> = if flat.is_int() {
        vec![flat.as_int().unwrap_or(0)]
    } else {
        flat.elements().filter_map(|e| e.as_int()).collect()
    };
    if v.is_empty() || v.iter().any(|&x| x < 1) {
        return Err(a.arg_error(
            "InvalidArgument",
            k,
            format_args!(" ({t}): a shape of positive extents"),
        ));
    }
    Ok(v)
}

fn gluon(a: &Args<'_>, k: usize) -> Result<Gluon, OpError> {
    a.parsed(k, "Gluon layout")
}

fn gluon_to_cute(a: &Args<'_>) -> Result<String, OpError> {
    let shape = shape_of(a, 0)?;
    Ok(gluon(a, 1)?.to_cute(&shape)?.to_string())
}

/// A CuTe argument's values over its 1-D domain and the size of its first mode.
fn cute_values(a: &Args<'_>, k: usize) -> Result<(Vec<i64>, i64), OpError> {
    let too_large = |n: i64| {
        OpError::new(
            "TooLarge",
            format!(
                "{}: argument {} has {n} points; at most {MAX_GLUON_POINTS} are enumerated",
                a.op,
                k + 1
            ),
        )
    };
    match a.value(k) {
        Value::Layout(l) => {
            if l.size() > MAX_GLUON_POINTS {
                return Err(too_large(l.size()));
            }
            let first = l.mode_at(&[0]).map_or(l.size(), |m| m.size());
            Ok((l.offsets().collect(), first))
        }
        Value::F2Layout(l) => {
            if l.size() > MAX_GLUON_POINTS {
                return Err(too_large(l.size()));
            }
            let first = l.mode_at(&[0]).map_or(l.size(), |m| m.size());
            let v = (0..l.size())
                .map(|i| l.index_any(i))
                .collect::<Result<_, _>>()?;
            Ok((v, first))
        }
        Value::Chain(c) => {
            let inner = c.layout();
            if inner.size() > MAX_GLUON_POINTS {
                return Err(too_large(inner.size()));
            }
            let first = inner.mode_at(&[0]).map_or(inner.size(), |m| m.size());
            let v = inner
                .offsets()
                .map(|x| c.post(x))
                .collect::<Result<_, _>>()?;
            Ok((v, first))
        }
        _ => Err(a.arg_error(
            "BadRequest",
            k,
            " must be a layout, a composed layout or an F2 layout",
        )),
    }
}

fn cute_to_gluon(a: &Args<'_>) -> Result<String, OpError> {
    let shape = shape_of(a, 1)?;
    let (values, threads) = cute_values(a, 0)?;
    let shared = if a.len() == 3 {
        match a.text_arg(2)?.as_str() {
            "shared" => true,
            "distributed" => false,
            other => {
                return Err(a.arg_error(
                    "BadRequest",
                    2,
                    format_args!(" ({other}): expected distributed or shared"),
                ))
            }
        }
    } else {
        mode_sizes(a, 0).as_deref() == Some(shape.as_slice())
    };
    if shared {
        let g = smem_to_gluon(&values, &shape)?;
        let named = match &g {
            Gluon::SharedLinear(s) => name_shared(s, &shape),
            _ => None,
        };
        Ok(match named {
            Some(n) => format!("{g}\n{n}"),
            None => g.to_string(),
        })
    } else {
        let d = tv_to_gluon(&values, threads, &shape)?;
        Ok(match name_distributed(&d) {
            Some(n) => format!("{d}\n{n}"),
            None => d.to_string(),
        })
    }
}

/// The sizes of the top-level modes of a layout argument (of the inner layout of a chain).
fn mode_sizes(a: &Args<'_>, k: usize) -> Option<Vec<i64>> {
    let shape = match a.value(k) {
        Value::Layout(l) => l.shape(),
        Value::F2Layout(l) => l.shape(),
        Value::Chain(c) => c.layout().shape(),
        _ => return None,
    };
    if shape.is_int() {
        return shape.as_int().map(|x| vec![x]);
    }
    shape.elements().map(|e| e.size().ok()).collect()
}

fn equal_function(a: &Args<'_>) -> Result<String, OpError> {
    let shape = if a.len() == 3 {
        Some(shape_of(a, 2)?)
    } else {
        None
    };
    let values = |k: usize| -> Result<Vec<i64>, OpError> {
        if a.form(k) == Form::Word {
            let s = shape.as_ref().ok_or_else(|| {
                a.arg_error(
                    "BadRequest",
                    k,
                    " is a Gluon layout: give the tensor's SHAPE as the third argument",
                )
            })?;
            return Ok(gluon(a, k)?.values(s)?);
        }
        Ok(cute_values(a, k)?.0)
    };
    let (x, y) = (values(0)?, values(1)?);
    if x.len() != y.len() {
        return Ok(format!("0: A has {} points, B has {}", x.len(), y.len()));
    }
    Ok(match (0..x.len()).find(|&i| x[i] != y[i]) {
        None => String::from("1"),
        Some(i) => format!("0: at index {i} A gives {} and B gives {}", x[i], y[i]),
    })
}

#[cfg(test)]
mod tests {
    use crate::{run_op, Arg};

    fn run(op: &str, args: &[&str]) -> Result<String, String> {
        let args: Vec<Arg> = args.iter().map(|s| Arg::Text((*s).into())).collect();
        run_op(op, &args).map_err(|e| format!("{}: {}", e.kind, e.message))
    }

    #[test]
    fn gluon_to_cute_of_each_kind() {
        let g = |shape: &str, l: &str| run("gluon_to_cute", &[shape, l]).unwrap();
        assert_eq!(
            g("(32,16)", "BlockedLayout([1,4],[8,4],[4,1],[1,0])"),
            "((4,32),4):((128,1),32)"
        );
        assert_eq!(
            g(
                "(64,64)",
                "NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2)"
            ),
            "Sw<3,3,3> o 0 o (64,64):(64,1)"
        );
        assert_eq!(
            g("(16,32)", "SwizzledSharedLayout(2, 2, 4, [1, 0])"),
            "Sw<2,1,5> o 0 o (16,32):(32,1)"
        );
        assert_eq!(g("(4,32)", "PaddedSharedLayout([[32,4]], [[0,1],[0,2],[0,4],[0,8],[0,16],[1,0],[2,0]], [], [4,32])"), "(4,32):(36,1)");
        assert_eq!(
            g("(16,8)", "NVMMADistributedLayout([2,0],[1,1],[16,8])"),
            "((4,8),(2,2)):((32,1),(16,8))"
        );
        assert_eq!(
            g("(2,4)", "SharedLinearLayout([[0,1],[0,2],[1,0]])"),
            "(2,4):(4,1)"
        );
        assert_eq!(
            g(
                "(4,4)",
                "DistributedLinearLayout([[1,1]],[[1,0],[2,0],[0,1],[0,2]],[],[],[4,4])"
            ),
            "((2,2,2,2),(2)):((F2(1),F2(2),F2(4),F2(8)),(F2(5)))"
        );
    }

    #[test]
    fn refusals_name_the_condition() {
        let e = |op: &str, args: &[&str]| run(op, args).unwrap_err();
        assert_eq!(e("cute_to_gluon", &["(3,2):(1,3)", "(6)"]), "NotRepresentable: gluon: the shape's extent 6 is not a power of two (a linear layout has power-of-two extents)");
        assert_eq!(e("cute_to_gluon", &["(4,2):(1,5)", "(8)", "distributed"]), "NotRepresentable: gluon: the offset 8 at index 7 is outside the shape [8] (offsets 0 to 7)");
        assert_eq!(e("cute_to_gluon", &["(4,2):(3,1)", "(16)", "distributed"]), "NotRepresentable: gluon: the TV layout is not linear over GF(2): at index 3 it gives 9, the XOR of its values at the bits of 3 is 5 (a stride that is not a bit permutation, or an XOR no linear layout has)");
        assert_eq!(e("cute_to_gluon", &["(4,4):(1,2)", "(4,4)"]), "NotRepresentable: gluon: two coordinates have the offset 2 (a shared layout is injective)");
        assert_eq!(
            e(
                "gluon_to_cute",
                &[
                    "(8)",
                    "SliceLayout(2, BlockedLayout([1,1],[8,4],[1,1],[1,0]))"
                ]
            ),
            "InvalidArgument: gluon: SliceLayout: dim 2 is not a dimension of a parent of rank 2"
        );
        assert_eq!(e("equal_function", &["8:1", "BlockedLayout([1],[32],[1],[0])"]), "BadRequest: equal_function: argument 2 is a Gluon layout: give the tensor's SHAPE as the third argument");
    }

    /// The stated limits: 2^22 points (`MAX_GLUON_POINTS`); the NVMMA rank, cga_layout and
    /// fp4_padded refusals.
    #[test]
    fn stated_limits_hold() {
        let e = |op: &str, args: &[&str]| run(op, args).unwrap_err();
        assert_eq!(
            run(
                "gluon_to_cute",
                &["(4194304)", "BlockedLayout([1],[32],[4],[0])"]
            )
            .unwrap(),
            "(128,32768):(1,128)"
        );
        assert_eq!(
            e(
                "gluon_to_cute",
                &["(8388608)", "BlockedLayout([1],[32],[4],[0])"]
            ),
            "TooLarge: gluon: DistributedLinearLayout of 2^23 points (the limit is 4194304)"
        );
        assert_eq!(e("cute_to_gluon", &["4194305:1", "(4194305)"]), "TooLarge: cute_to_gluon: argument 1 has 4194305 points; at most 4194304 are enumerated");
        assert_eq!(e("equal_function", &["4194305:1", "4194305:1"]), "TooLarge: equal_function: argument 1 has 4194305 points; at most 4194304 are enumerated");
        assert_eq!(
            e(
                "gluon_to_cute",
                &["(2,16,8)", "NVMMADistributedLayout([2,0],[1,1],[16,8])"]
            ),
            "NotRepresentable: gluon: NVMMADistributedLayout: only rank 2 is converted"
        );
        assert_eq!(e("gluon_to_cute", &["(16,16)", "BlockedLayout([1,1],[8,4],[1,1],[1,0],[[0,8]])"]), "NotRepresentable: gluon: BlockedLayout with a cga_layout (several CTAs) is not converted; write its DistributedLinearLayout or SharedLinearLayout with block_bases");
        assert_eq!(e("gluon_to_cute", &["(16,128)", "NVMMASharedLayout(128, 8, fp4_padded=True)"]), "NotRepresentable: gluon: NVMMASharedLayout: fp4_padded leaves unused bytes in each 16 (not a bijection); not converted");
    }

    #[test]
    fn cute_to_gluon_names_and_round_trips() {
        let out = run(
            "cute_to_gluon",
            &["Sw<3,3,3> o 0 o (64,64):(64,1)", "(64,64)"],
        )
        .unwrap();
        assert_eq!(out, "SharedLinearLayout(offset_bases=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32], [8, 0], [16, 0], [32, 0]], block_bases=[], alignment=16)\nNVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])");
        let out = run("cute_to_gluon", &["(4,32):(36,1)", "(4,32)"]).unwrap();
        assert_eq!(out, "PaddedSharedLayout(interval_padding_pairs=[[32, 4]], offset_bases=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], cga_layout=[], shape=[4, 32])");
        for (layout, shape) in [
            ("((4,8),(2,2)):((32,1),(16,8))", "(16,8)"),
            ("(8,8):(F2(1),F2(9))", "(8,8)"),
            ("Sw<2,1,5> o 0 o (16,32):(32,1)", "(16,32)"),
        ] {
            let g = run("cute_to_gluon", &[layout, shape]).unwrap();
            let first = g.lines().next().unwrap();
            assert_eq!(
                run("equal_function", &[layout, first, shape]).unwrap(),
                "1",
                "{layout}"
            );
        }
        assert_eq!(
            run("equal_function", &["(4,8):(8,1)", "(4,8):(1,4)"]).unwrap(),
            "0: at index 1 A gives 8 and B gives 1"
        );
        assert_eq!(
            run("equal_function", &["8:1", "4:1"]).unwrap(),
            "0: A has 8 points, B has 4"
        );
    }
}
