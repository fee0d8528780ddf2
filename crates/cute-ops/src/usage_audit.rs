//! Tests that hold the operation table to its declarations and its stated limits: every
//! argument kind a parameter declares (COMPOSED, SWIZZLE, TENSOR, SYMBOLIC) parses where it is
//! declared, and every limit a summary, law or `limits` states is where it says (at the limit an
//! answer, past it the typed error naming the limit).

use crate::request::answer_line;
use crate::table::{Arity, OpSpec};
use crate::{all, run_op, Arg};

fn text(args: &[&str]) -> Vec<Arg> {
    args.iter().map(|a| Arg::Text((*a).into())).collect()
}

/// Representative values of an argument kind (its usage word), built from the example's
/// argument at that position when it is a plain layout `L` (so that sizes fit the other
/// arguments), else fixed.
fn representatives(word: &str, example: Option<&str>) -> Vec<String> {
    let plain = example
        .filter(|e| !e.contains(" o ") && !e.contains('N'))
        .and_then(|e| e.trim().parse::<cute_layout::Layout>().ok());
    match (word, plain) {
        ("COMPOSED", Some(l)) => {
            let co = l.cosize().max(1);
            vec![
                format!("Sw<1,0,1> o 0 o {l}"),
                format!("{co}:1 o 0 o {l}"),
                format!("{co}:1 o 0 o Sw<0,0,1> o 0 o {l}"),
            ]
        }
        ("COMPOSED", None) => vec![
            "Sw<2,0,2> o 0 o 16:1".into(),
            "16:1 o 0 o 8:1".into(),
            "32:1 o 0 o Sw<2,0,2> o 0 o 16:1".into(),
        ],
        ("TENSOR", Some(l)) => vec![format!("counting_iter(0) o {l}")],
        ("TENSOR", None) => vec!["counting_iter(0) o (4,8):(8,1)".into()],
        ("SWIZZLE", _) => vec!["Sw<2,0,2>".into()],
        ("SYMBOLIC", _) => vec!["(4,N):(1,4)".into()],
        _ => Vec::new(),
    }
}

/// For every parameter that takes a composed layout, a swizzle, a tensor or a symbolic layout,
/// the operation's example with that argument replaced by a value of that kind: the calls that
/// answer `ParseError` (the declaration promises a kind the operation does not read).
fn broken_promises(spec: &OpSpec) -> Vec<String> {
    let mut out = Vec::new();
    for (k, param) in spec.params.iter().enumerate() {
        if !matches!(param.arity, Arity::One | Arity::Optional) || k > spec.example.len() {
            break;
        }
        for kind in param.kinds {
            let word = kind.word();
            for value in representatives(word, spec.example.get(k).copied()) {
                let mut args: Vec<&str> = spec.example.to_vec();
                if k == args.len() {
                    args.push(&value);
                } else {
                    args[k] = &value;
                }
                if let Err(e) = run_op(spec.name, &text(&args)) {
                    if e.kind == "ParseError" {
                        out.push(format!(
                            "{} {} ({word} at argument {}): {}",
                            spec.name,
                            args.join(" "),
                            k + 1,
                            e.message
                        ));
                    }
                }
            }
        }
    }
    out
}

#[test]
fn every_promised_argument_kind_parses() {
    let broken: Vec<String> = all().flat_map(broken_promises).collect();
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// `make_coord_iterator`: at most 65536 coordinates and 262144 integers in all.
#[test]
fn make_coord_iterator_limits() {
    let run = |a: &[&str]| run_op("make_coord_iterator", &text(a));
    let n = |s: String| s.matches(',').count() + 1;
    assert_eq!(n(run(&["4096"]).unwrap()), 4096);
    assert_eq!(n(run(&["(40,40)"]).unwrap()), 2 * 1600);
    assert_eq!(n(run(&["65536"]).unwrap()), 65536);
    assert_eq!(n(run(&["(256,256)"]).unwrap()), 2 * 65536);
    assert_eq!(n(run(&["100000", "34464"]).unwrap()), 65536);
    let e = run(&["65537"]).unwrap_err();
    assert_eq!(
        (e.kind, e.message.as_str()),
        (
            "TooLarge",
            "make_coord_iterator: 65537 coordinates (the limit is 65536)"
        )
    );
    assert_eq!(run(&["(256,257)"]).unwrap_err().kind, "TooLarge");
    // 32768 coordinates of 8 integers: 262144 in all; of 9: past it.
    assert_eq!(n(run(&["(2,2,2,2,2,2,2,256)"]).unwrap()), 262144);
    let e = run(&["(2,2,2,2,2,2,2,2,128)"]).unwrap_err();
    assert_eq!(
        (e.kind, e.message.as_str()),
        (
            "TooLarge",
            "make_coord_iterator: 32768 coordinates of 9 integers each (the limit is 262144)"
        )
    );
    // The text is the tuple the parser reads back, for lists small enough to be one value.
    assert_eq!(
        run(&["(2,2)"]).unwrap(),
        "((0,0),(1,0),(0,1),(1,1))"
            .parse::<cute_layout::IntTuple>()
            .unwrap()
            .to_string()
    );
}

/// A request line of about 1 MiB naming an unknown operation, atom or type answers at once.
#[test]
fn huge_unknown_names_answer_fast() {
    let big = "A".repeat((1 << 20) - 200);
    let nested = |wrap: &str| {
        let k = ((1 << 20) - 200) / (wrap.len() + 1);
        format!("{}X{}", wrap.repeat(k), ">".repeat(k))
    };
    let (mma, copy, complex) = (
        nested("MMA_Traits<"),
        nested("Copy_Traits<"),
        nested("complex<"),
    );
    let lines = [
        format!(r#"{{"op":"mma_atom","args":["{mma}","layout_c_tv"]}}"#),
        format!(r#"{{"op":"copy_atom","args":["{copy}","half_t","src_bits"]}}"#),
        format!(r#"{{"op":"copy_atom","args":["SM75_U32x4_LDSM_N","{mma}","src_bits"]}}"#),
        format!(r#"{{"op":"copy_atom","args":["SM75_U32x4_LDSM_N","{complex}","src_bits"]}}"#),
        format!(r#"{{"op":"{big}","args":[]}}"#),
        format!(r#"{{"op":"tiled_mma","args":["{big}","_","_","thr_layout_vmnk"]}}"#),
        format!(r#"{{"op":"tiled_mma","args":["SM80_16x8x16_F16F16F16F16_TN","_","_","{big}"]}}"#),
        format!(r#"{{"op":"mma_atom","args":["{big}","layout_c_tv"]}}"#),
        format!(r#"{{"op":"mma_atom","args":["SM80_16x8x16_F16F16F16F16_TN","{big}"]}}"#),
        format!(r#"{{"op":"copy_atom","args":["{big}","half_t","src_bits"]}}"#),
        format!(r#"{{"op":"copy_atom","args":["SM75_U32x4_LDSM_N","{big}","src_bits"]}}"#),
        format!(r#"{{"op":"copy_atom","args":["SM75_U32x4_LDSM_N","half_t","{big}"]}}"#),
        format!(r#"{{"op":"list_atoms","args":["{big}"]}}"#),
        format!(r#"{{"op":"compact_order","args":["(2,3,4)","{big}"]}}"#),
        format!(r#"{{"op":"at_mode","args":["0","{big}","8:1"]}}"#),
        format!(r#"{{"op":"svg","args":["8:1","--{big}","x"]}}"#),
        format!(r#"{{"op":"coalesce","args":["{big}"]}}"#),
        format!(r#"{{"op":"transform","args":["{big}","(1,2)"]}}"#),
        format!(r#"{{"op":"fold","args":["{big}","(1,2)","0"]}}"#),
        format!(r#"{{"op":"svg","args":["{big}"]}}"#),
        format!(r#"{{"op":"codegen","args":["8:1","{big}"]}}"#),
    ];
    for line in &lines {
        let t = std::time::Instant::now();
        let a = answer_line(line.as_bytes());
        let took = t.elapsed();
        assert!(
            took < std::time::Duration::from_secs(2),
            "{took:?}: {}",
            &a[..a.len().min(200)]
        );
    }
}

/// `tma_gbasis`: "boxes merged to <= 256, modes past 4 grouped".
#[test]
fn tma_gbasis_limits() {
    let run = |g: &str, s: &str, field: &str| run_op("tma_gbasis", &text(&[g, s, "_", field]));
    // Contiguous modes merge while the box stays within 256: 128 x 2 does, 256 x 2 does not.
    let (g, s) = ("(128,2,4):(1,128,256)", "(128,2,4):(1,128,256)");
    assert_eq!(run(g, s, "gbasis").unwrap(), "((128,2),4):((1@0,1@1),1@2)");
    assert_eq!(run(g, s, "box").unwrap(), "(256,4)");
    let (g, s) = ("(256,2,4):(1,256,512)", "(256,2,4):(1,256,512)");
    assert_eq!(run(g, s, "gbasis").unwrap(), "(256,(2,4)):(1@0,(1@1,1@2))");
    assert_eq!(run(g, s, "box").unwrap(), "(256,8)");
    // Four modes stay four; the fifth and later are grouped into one.
    assert_eq!(
        run("(2,2,2,2):(1,4,16,64)", "(2,2,2,2):(1,2,4,8)", "gbasis").unwrap(),
        "(2,2,2,2):(1@0,1@1,1@2,1@3)"
    );
    assert_eq!(
        run(
            "(2,2,2,2,2,2):(1,4,16,64,256,1024)",
            "(2,2,2,2,2,2):(1,2,4,8,16,32)",
            "gbasis"
        )
        .unwrap(),
        "(2,2,2,2,(2,2)):(1@0,1@1,1@2,1@3,(1@4,1@5))"
    );
}

/// `smem_search` / `smem_evaluate`: LANES of a warp, 32 by default (the most there are).
#[test]
fn smem_lanes_limits() {
    let run = |lanes: &str| {
        run_op(
            "smem_search",
            &text(&["(8,8)", "(8,8):(8,1)", "(8,8):(1,8)", "4", "32", lanes]),
        )
    };
    assert!(run("32")
        .unwrap()
        .starts_with("Sw<1,2,3> o 0 o (8,8):(8,1) (swizzled"));
    assert!(run("1").is_ok());
    for past in ["33", "0"] {
        let e = run(past).unwrap_err();
        assert_eq!(
            (e.kind, e.message),
            (
                "InvalidArgument",
                format!("smem_search: read address lanes {past} is not from 1 to 32")
            )
        );
    }
}

/// `svg --banks N`: 1 to 1024 banks; `--elem-bytes`: a power of two up to 1024 (`cute svg
/// --help`).
#[test]
fn svg_bank_option_limits() {
    let run = |opt: &str, v: &str| {
        let mut args = vec!["(4,8):(8,1)", "--banks", "32", opt, v];
        if opt == "--banks" {
            args.drain(1..3);
        }
        run_op("svg", &text(&args))
    };
    assert!(run("--banks", "1024").unwrap().starts_with("<svg"));
    let e = run("--banks", "1025").unwrap_err();
    assert_eq!(
        (e.kind, e.message.as_str()),
        (
            "BadRequest",
            "--banks 1025: expected a number of banks from 1 to 1024"
        )
    );
    assert!(run("--elem-bytes", "1024").unwrap().starts_with("<svg"));
    let e = run("--elem-bytes", "2048").unwrap_err();
    assert_eq!(
        (e.kind, e.message.as_str()),
        (
            "BadRequest",
            "svg: --elem-bytes \"2048\": expected a power of two from 1 to 1024 (the size of an element in bytes)"
        )
    );
}
