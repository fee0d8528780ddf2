//! The TMA layouts of CuTe's `make_tma_copy` that a CPU computes ([`cute_layout::gpu::tma`]): the
//! gmem basis (`construct_tma_gbasis`), the box and the tensor map's global dimensions and
//! strides. One table, [`TMA_OPS`], in [`crate::GROUPS`].

use cute_layout::{gpu::tma, IntTuple, Layout};

use crate::composed_ops::Func;
use crate::table::{one, opt, Kind as K, Topic};
use crate::{op, Args, OpError, OpSpec};

/// The TMA operations, one declaration each (hence `rustfmt::skip`).
#[rustfmt::skip]
pub static TMA_OPS: &[OpSpec] = &[
    op("tma_gbasis", Topic::Gpu, "make_tma_copy's TMA modes (construct_tma_gbasis: box extent : gmem mode), their box, or the tensor map's global dims / strides in elements")
        .params(&[one("GMEM", &[K::Layout]), one("SMEM|COMPOSED", &[K::Layout, K::Composed]), opt("CTA_TILE|_", &[K::Tiler, K::Underscore]), opt("", &[K::Tag("gbasis"), K::Tag("box"), K::Tag("gmem_shape"), K::Tag("gmem_stride")])])
        .overloads(&[&[one("GMEM", &[K::Layout]), one("SMEM|COMPOSED", &[K::Layout, K::Composed]), one("", &[K::Tag("gbasis"), K::Tag("box"), K::Tag("gmem_shape"), K::Tag("gmem_stride")])]])
        .returns(&[K::Layout, K::Tuple])
        .errors(&["InvalidArgument"])
        .law("R = coalesce(id(shape(GMEM)) o CTA_TILE o right_inverse(SMEM)) up to its first non-unit step, boxes merged to <= 256, uncovered gmem modes appended as 1, modes past 4 grouped")
        .example(&["(256,512):(512,1)", "((8,16),(64,1)):((64,512),(1,0))"], "(64,128):(1@1,1@0)")
        .run(tma_gbasis),
];

fn tma_gbasis(a: &Args<'_>) -> Result<String, OpError> {
    let gmem = a.layout(0)?;
    let smem: Layout = match a.func(1)? {
        Func::Layout(l) => l,
        Func::Composed(c) if c.offset() == 0 => c.layout().clone(),
        _ => {
            return Err(OpError::new(
                "BadRequest",
                format!(
                    "{}: argument 2 must be a layout or a swizzled layout with offset 0 (its non-swizzle portion is used)",
                    a.op
                ),
            ))
        }
    };
    let mut field = "gbasis".to_string();
    let mut tile: Option<IntTuple> = None;
    for k in 2..a.len() {
        let t = a.text_arg(k)?;
        let t = t.trim();
        if t.starts_with(|c: char| c.is_ascii_alphabetic()) {
            field = t.to_string();
        } else if t != "_" {
            tile = Some(a.tuple(k)?);
        }
    }
    let g = tma::gbasis(&gmem, &smem, tile.as_ref())?;
    let list = |v: Vec<i64>| IntTuple::flat(v).to_string();
    Ok(match field.as_str() {
        "gbasis" => g.to_string(),
        "box" => tma::box_shape(&g).to_string(),
        "gmem_shape" => list(tma::gmem_shape_stride(&gmem, &g)?.0),
        "gmem_stride" => list(tma::gmem_shape_stride(&gmem, &g)?.1),
        other => {
            return Err(OpError::new(
                "BadRequest",
                format!(
                    "{}: unknown field {other:?} (gbasis, box, gmem_shape, gmem_stride)",
                    a.op
                ),
            ))
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::{run_op, Arg};

    fn run(args: &[&str]) -> Result<String, String> {
        let args: Vec<Arg> = args.iter().map(|s| Arg::Text(s.to_string())).collect();
        run_op("tma_gbasis", &args).map_err(|e| e.kind.to_string())
    }

    #[test]
    fn fields_and_swizzled_smem() {
        let g = "(256,512):(512,1)";
        let s = "Sw<3,3,3> o 0 o ((8,16),(64,1)):((64,512),(1,0))";
        assert_eq!(run(&[g, s]).unwrap(), "(64,128):(1@1,1@0)");
        assert_eq!(run(&[g, s, "_", "box"]).unwrap(), "(64,128)");
        assert_eq!(run(&[g, s, "(128,64)", "gmem_shape"]).unwrap(), "(512,256)");
        assert_eq!(run(&[g, s, "gmem_stride"]).unwrap(), "(1,512)");
        // The smem atom op's layout goes straight in.
        let atom = run_op(
            "smem_atom_layout",
            &["K", "SW128", "half_t", "(128,64)"].map(|x| Arg::Text(x.into())),
        )
        .unwrap();
        assert_eq!(run(&[g, &atom]).unwrap(), "(64,128):(1@1,1@0)");
    }

    #[test]
    fn errors_are_typed() {
        assert_eq!(
            run(&["(8,8):(8,1)", "(8,8):(8,1)", "boxes"]).unwrap_err(),
            "BadRequest"
        );
        assert_eq!(
            run(&["(8,8):(8,1)", "(4,4):(4,1)", "(8,8)"]).unwrap_err(),
            "InvalidArgument"
        );
        assert_eq!(
            run(&["(8,8):(8,1)", "Sw<3,3,3> o 8 o (8,8):(8,1)"]).unwrap_err(),
            "BadRequest"
        );
    }
}
