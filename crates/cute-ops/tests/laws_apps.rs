//! The law checkers of the atoms, tensors, pointers, pictures and GPU operations
//! (`laws/check_apps.rs`): none is vacuous (each judges a floor of the generated calls with an
//! answer), and each rejects wrong answers, naming the failed condition.

use crate::laws;
use cute_ops::{all, run_op, Arg, OpError};
use laws::check::{self, LAWS};
use laws::check_apps::judged_count;
use laws::generate::Bytes;

/// The operations whose checkers live in `check_apps.rs`: those registered after `round_up`.
fn app_ops() -> Vec<&'static str> {
    let from = LAWS.iter().position(|(n, _)| *n == "mma_atom").unwrap();
    let to = LAWS.iter().position(|(n, _)| *n == "tma_gbasis").unwrap();
    LAWS[from..=to].iter().map(|(n, _)| *n).collect()
}

use crate::laws_all::bytes;

/// Of 2,000 generated calls per operation, at least 20 have an answer that the law judged.
#[test]
fn every_app_law_judges_a_floor_of_answers() {
    const CALLS: u64 = 2000;
    const FLOOR: u64 = 20;
    let ops = app_ops();
    assert_eq!(ops.len(), 57);
    let (mut low, mut breaks) = (Vec::new(), Vec::new());
    for (k, spec) in all().enumerate().filter(|(_, s)| ops.contains(&s.name)) {
        let mut n = 0;
        for i in 0..CALLS {
            let data = bytes(0xf100_u64 ^ ((k as u64) << 32) ^ i, 512);
            let args = laws::call(&mut Bytes::new(&data), spec);
            let result = run_op(spec.name, &args);
            let before = judged_count();
            let verdict = check::check(spec.name, &args, &result);
            if let Err(e) = verdict {
                breaks.push(e);
            }
            n += u64::from(result.is_ok() && judged_count() > before);
        }
        eprintln!("laws_apps: {} judged {n} of {CALLS}", spec.name);
        if n < FLOOR {
            low.push((spec.name, n));
        }
    }
    let mut shown: Vec<(&str, usize)> = Vec::new();
    for e in &breaks {
        let op = e.split(' ').next().unwrap_or("");
        match shown.iter_mut().find(|(o, _)| *o == op) {
            Some((_, n)) => *n += 1,
            None => shown.push((op, 1)),
        }
        if shown.iter().find(|(o, _)| *o == op).map_or(0, |x| x.1) <= 3 {
            eprintln!("BREAK {e}");
        }
    }
    eprintln!("laws_apps: breaks per operation {shown:?}");
    assert_eq!(breaks.len(), 0, "law breaks");
    assert_eq!(
        low,
        Vec::<(&str, u64)>::new(),
        "laws judging fewer than {FLOOR} answers"
    );
}

fn t(s: &str) -> Arg {
    Arg::Text(s.to_string())
}

fn law(op: &str, args: &[Arg], answer: &str) -> Result<(), String> {
    check::law(op).unwrap()(args, &Ok(answer.to_string()))
}

#[test]
fn app_checkers_reject_wrong_answers() {
    // The library's own answers pass.
    let calls: Vec<(&str, Vec<Arg>)> = vec![
        (
            "mma_atom",
            vec![t("SM80_16x8x16_F16F16F16F16_TN"), t("layout_c_tv")],
        ),
        (
            "make_layout_tv",
            vec![t("(4,8):(8,1)"), t("(2,2):(2,1)"), t("layout_tv")],
        ),
        ("codegen", vec![t("Sw<1,1,1> o 0 o (4,2):(2,1)")]),
        ("bank_conflicts", vec![t("64:32"), Arg::Int(2)]),
        (
            "local_tile",
            vec![t("counting_iter(0) o (4,6):(6,1)"), t("(2,3)"), t("(1,1)")],
        ),
        ("print_layout", vec![t("(2,2):(2,1)")]),
        (
            "smem_evaluate",
            vec![
                t("(8,8)"),
                t("(8,8):(8,1)"),
                t("(8,8):(1,8)"),
                Arg::Int(4),
                t("(8,8):(8,1)"),
            ],
        ),
    ];
    for (op, args) in &calls {
        let r = run_op(op, args);
        assert!(r.is_ok(), "{op}");
        assert_eq!(check::check(op, args, &r), Ok(()), "{op}");
    }
    assert_eq!(
        law("mma_atom", &calls[0].1, "((4,8),(2,2)):((32,1),(16,16))"),
        Err("value 128 is outside the tile [0, 128)".to_string())
    );
    assert_eq!(
        law(
            "make_layout_tv",
            &calls[1].1,
            "((8,4),(2,2)):((16,2),(1,8))"
        ),
        Err("TV(0,1) = 1, where the raked product is Some(64)".to_string())
    );
    let wrong = run_op("codegen", &calls[2].1)
        .unwrap()
        .replace("o ^= (o & 0x4) >> 1;", "o ^= (o & 0x4) >> 2;");
    assert_eq!(
        law("codegen", &calls[2].1, &wrong),
        Err("f(2) = 5, the layout gives 6".to_string())
    );
    assert_eq!(
        law("bank_conflicts", &calls[3].1, "8"),
        Err("answer 8, the reference gives 16".to_string())
    );
    assert_eq!(
        law("local_tile", &calls[4].1, "counting_iter(14) o (2,3):(6,1)"),
        Err("R(0) = Some(I(14)), the reference I(15)".to_string())
    );
    assert_eq!(
        law("print_layout", &calls[5].1, "(2,2):(2,1)\n      0   1\n    +---+---+\n 0  | 0 | 1 |\n    +---+---+\n 1  | 3 | 2 |\n    +---+---+"),
        Err("cell (1,0) shows 3, the layout has 2".to_string())
    );
    let report = run_op("smem_evaluate", &calls[6].1)
        .unwrap()
        .replace("read_wavefronts=4", "read_wavefronts=2");
    assert_eq!(
        law("smem_evaluate", &calls[6].1, &report),
        Err("read: reported Side { vector_bytes: 16, requests: 2, wavefronts: 2, conflicts: 2 }, the bank model gives Side { vector_bytes: 16, requests: 2, wavefronts: 4, conflicts: 2 }".to_string())
    );
    // A refusal where the law has an answer.
    let refused: Result<String, OpError> = Err(OpError::new("InvalidSwizzle", "x"));
    assert_eq!(
        check::law("swizzle").unwrap()(&[Arg::Int(2), Arg::Int(0), Arg::Int(3)], &refused),
        Err("refused the valid Sw<2,0,3>".to_string())
    );
    assert_eq!(
        law("make_gmem_ptr", &[t("half_t"), t("0x1000")], "gmem_ptr[16b](0x1002)"),
        Err("pointer Ptr { space: \"gmem_\", sw: None, bits: 16, addr: 4098, bit: None }, the reference Ptr { space: \"gmem_\", sw: None, bits: 16, addr: 4096, bit: None }".to_string())
    );
}

/// A rank-1 tensor of integer shape tiled by a rank-1 tuple or an integer: the zipped divide's
/// modes are plain integers, sliced with plain coordinates (they were refused: "slice:
/// coordinate (_) does not fit shape").
#[test]
fn rank_one_tiles_of_integer_shapes() {
    let r = |op: &str, a: &[&str]| run_op(op, &a.iter().map(|s| t(s)).collect::<Vec<_>>());
    let x = "counting_iter(0) o 8:1";
    assert_eq!(
        r("local_tile", &[x, "(2)", "(1)"]),
        Ok("counting_iter(2) o (2):(1)".into())
    );
    assert_eq!(
        r("inner_partition", &[x, "(2)", "(1)"]),
        Ok("counting_iter(2) o (2):(1)".into())
    );
    assert_eq!(
        r("local_tile", &[x, "1", "2"]),
        Ok("counting_iter(2) o (1):(0)".into())
    );
    assert_eq!(
        r("outer_partition", &["counting_iter(-1) o 6:6", "2", "1"]),
        Ok("counting_iter(5) o (3):(12)".into())
    );
    assert_eq!(
        r(
            "outer_partition",
            &["smem_ptr[64b](0x1000) o 4:-2", "4", "0"]
        ),
        Ok("smem_ptr[64b](0x1000) o (1):(0)".into())
    );
}

/// The algebra's checkers judge chains, symbolic and F2 layouts (`check_apps::general_*`):
/// of 2,000 generated calls of each operation at least 20 such answers are judged, none broken.
#[test]
fn chains_symbolic_and_f2_layouts_are_judged() {
    for op in [
        "composition",
        "logical_divide",
        "coalesce",
        "left_inverse",
        "complement",
    ] {
        let spec = cute_ops::find(op).unwrap();
        let (mut n, mut breaks) = (0, Vec::new());
        for i in 0..2000u64 {
            let data = bytes(0xc4a1_u64 ^ (i << 8), 512);
            let args = laws::call(&mut Bytes::new(&data), spec);
            let result = run_op(op, &args);
            let before = judged_count();
            if let Err(e) = check::check(op, &args, &result) {
                breaks.push(e);
            }
            n += u64::from(result.is_ok() && judged_count() > before);
        }
        eprintln!("laws_apps: {op} judged {n} chain, symbolic or F2 answers of 2000");
        assert_eq!(
            breaks.iter().take(5).collect::<Vec<_>>(),
            Vec::<&String>::new(),
            "{op}"
        );
        assert!(n >= 20, "{op}: {n} judged");
    }
}
