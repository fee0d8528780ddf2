//! The law checkers of the layout and tuple tools (`laws/check_tools.rs`) are not vacuous: on
//! the seeded calls `laws_all` makes, each compares at least [`FLOOR`] of [`CALLS`] answers with
//! its reference. Also the checkers reject wrong answers and false refusals, by name.

use crate::laws;
use crate::laws_all::bytes;
use cute_ops::{run_op, Arg, OpError};
use laws::check;
use laws::check_tools;
use laws::generate::Bytes;

const CALLS: u64 = 2000;
const FLOOR: u64 = 100;

/// How many of `CALLS` seeded calls of `op` its checker compared with the reference.
fn judged_calls(op: &str, seed: u64, breaks: &mut Vec<String>) -> u64 {
    let spec = cute_ops::find(op).unwrap();
    let k = cute_ops::all().position(|s| s.name == op).unwrap() as u64;
    let mut n = 0;
    for i in 0..CALLS {
        let s = seed ^ (k << 40) ^ i.wrapping_mul(0x2545_F491_4F6C_DD1D);
        let data = bytes(s, 512);
        let args = laws::call(&mut Bytes::new(&data), spec);
        let result = run_op(op, &args);
        let before = check_tools::judged();
        if let Err(e) = check::check(op, &args, &result) {
            breaks.push(e);
        }
        n += u64::from(check_tools::judged() > before);
    }
    n
}

/// The operations whose checkers are in `laws/check_tools.rs`.
const TOOLS: &[&str] = &[
    "make_ordered_layout",
    "make_identity_layout",
    "append",
    "prepend",
    "replace",
    "insert",
    "remove",
    "group",
    "take",
    "select",
    "mode",
    "slice",
    "slice_and_offset",
    "crd2idx",
    "get_hier_coord",
    "get_flat_coord",
    "get_1d_coord",
    "crd2crd",
    "congruent",
    "weakly_congruent",
    "compatible",
    "nullspace",
    "max_common_vector",
    "max_common_layout",
    "upcast",
    "downcast",
    "recast",
    "recast_layout",
    "blocked_product",
    "raked_product",
    "tile_to_shape",
    "evenly_divides",
    "image",
    "shape_div",
    "shape_mod",
    "elem_scale",
    "product_each",
    "product_like",
    "unflatten",
    "get",
    "dice",
    "lex_less",
    "colex_less",
    "elem_less",
    "compact_col_major",
    "compact_row_major",
    "make_layout_like",
    "make_fragment_like",
    "hier_unzip",
    "transform_layout",
    "bw_coalesce",
    "compact_order",
    "make_coord_iterator",
    "at_mode",
    "offset_table",
    "permutation",
    "cycles",
    "permutation_order",
    "mode_contiguity",
    "tuple_cat",
    "greatest_common_domain",
    "common_refinement",
    "common_coarsening",
    "repeat_like",
    "wrap",
    "unwrap",
    "transform",
    "fold",
    "iscan",
    "escan",
    "any_of",
    "all_of",
    "none_of",
    "tuple_find",
    "find_if",
    "coshape",
    "coprofile",
    "domain_distribute",
    "domain_offset",
    "max_alignment",
    "zip",
    "tile_unzip",
    "structural_equal",
];

#[test]
fn every_tool_law_is_exercised() {
    let (mut low, mut breaks) = (Vec::new(), Vec::new());
    for op in TOOLS {
        assert!(check::law(op).is_some(), "{op} has no law checker");
        let n = judged_calls(op, 0x5eed_1a75, &mut breaks);
        if std::env::var_os("CUTE_LAWS_SHOW").is_some() {
            eprintln!("laws_tools: {op} {n} of {CALLS}");
        }
        if n < FLOOR {
            low.push(format!("{op}: {n}"));
        }
    }
    breaks.truncate(20);
    assert_eq!(breaks, Vec::<String>::new(), "law breaks");
    assert_eq!(
        low,
        Vec::<String>::new(),
        "checkers judging fewer than {FLOOR} of {CALLS} calls"
    );
}

fn t(s: &str) -> Arg {
    Arg::Text(s.to_string())
}

fn ok(s: &str) -> Result<String, OpError> {
    Ok(s.to_string())
}

fn refused() -> Result<String, OpError> {
    Err(OpError::new("InvalidArgument", "x"))
}

#[test]
fn tool_checkers_reject_wrong_answers() {
    let law = |op: &str| check::law(op).unwrap();
    let a = [t("(2,3,4):(1,2,6)"), t("0"), t("2")];
    assert_eq!(law("group")(&a, &ok("((2,3),4):((1,2),6)")), Ok(()));
    assert_eq!(
        law("group")(&a, &ok("(2,(3,4)):(1,(2,6))")),
        Err("the reference gives the modes of ((2,3),4):((1,2),6)".to_string())
    );
    assert_eq!(
        law("take")(&[t("(2,3,4):(1,2,6)"), t("1"), t("5")], &ok("(3,4):(2,6)")),
        Err("answered where no answer exists".to_string())
    );
    assert_eq!(
        law("slice")(
            &[t("(_,(1,_))"), t("(2,(3,4)):(1,(2,6))")],
            &ok("(2,(4)):(1,(6))")
        ),
        Err("the reference gives (2,4):(1,6)".to_string())
    );
    assert_eq!(
        law("crd2idx")(&[t("(1,5)"), t("(3,(2,3)):(3,(12,1))")], &refused()),
        Err("refused, the reference gives 17".to_string())
    );
    assert_eq!(
        law("crd2crd")(&[t("3"), t("6"), t("(3,2)")], &ok("(1,1)")),
        Err("the reference gives (0,1)".to_string())
    );
    assert_eq!(
        law("crd2crd")(&[t("(1,1)"), t("(2,3)"), t("(3,2)")], &ok("(0,1)")),
        Err("the reference gives (1,1)".to_string())
    );
    assert_eq!(
        law("upcast")(&[t("2"), t("(3,4):(1,3)")], &ok("(3,2):(1,1)")),
        Err("answered where no answer exists: a stride and N divide neither way".to_string())
    );
    assert_eq!(
        law("max_common_vector")(&[t("(4,2):(2,1)"), t("(4,2):(1,4)")], &ok("2")),
        Err("no coordinate c with A(c) = B(c) = 1".to_string())
    );
    assert_eq!(
        law("nullspace")(&[t("(2,4):(0,1)")], &ok("4:1")),
        Err("A(R(2)) = A(2) != 0".to_string())
    );
    assert_eq!(
        law("cycles")(&[t("(2,2):(2,1)")], &ok("((0),(1,2))")),
        Err("the reference gives ((0),(1,2),(3))".to_string())
    );
    assert_eq!(
        law("compact_order")(&[t("(2,(3,4))"), t("(1,0)")], &ok("(12,(1,4))")),
        Err("the reference gives (12,(1,3))".to_string())
    );
    assert_eq!(
        law("blocked_product")(
            &[t("(2,5):(5,1)"), t("(3,4):(1,3)")],
            &ok("((2,3),(5,4)):((5,10),(1,31))")
        ),
        Err("R(30) = Some(31), logical_product at ([0, 0], [0, 1]) = Some(30)".to_string())
    );
    assert_eq!(
        law("max_alignment")(&[t("(4,2):(1,6)")], &ok("4")),
        Err("the reference gives 2".to_string())
    );
    assert_eq!(
        law("common_refinement")(&[t("(6,4)"), t("(4,6)")], &ok("(2,3,2,2)")),
        Err("answered where no answer exists: no shape is compatible with both".to_string())
    );
    assert_eq!(
        law("fold")(&[t("shape_div"), t("(2,4)"), t("64")], &ok("4")),
        Err("the reference gives 8".to_string())
    );
}

/// downcast by 1 is the layout itself, with or without a stride-1 leaf (it was refused); one
/// stride-1 leaf grows, the other strides scale.
#[test]
fn downcast_keeps_the_same_memory() {
    assert_eq!(
        run_op("downcast", &[t("1"), t("(8):(512)")]),
        ok("(8):(512)")
    );
    assert_eq!(run_op("downcast", &[t("1"), t("():()")]), ok("():()"));
    // One stride-1 leaf grows: the narrow elements of offsets 0..4 are 0..39 (CuTe's rule
    // stretched both stride-1 leaves: (8,40):(1,1), offsets 0..46).
    assert_eq!(
        run_op("downcast", &[t("8"), t("(1,5):(1,1)")]),
        ok("(1,40):(8,1)")
    );
    assert_eq!(
        run_op("downcast", &[t("2"), t("(2,2):(1,1)")]),
        ok("(4,2):(1,2)")
    );
    assert_eq!(
        run_op("downcast", &[t("2"), t("(1,4):(1,2)")]),
        ok("(2,4):(1,4)")
    );
    let e = run_op("downcast", &[t("2"), t("(8):(512)")]).unwrap_err();
    assert_eq!(e.kind.to_string(), "InvalidArgument");
}

/// max_common_layout stays inside both domains, as max_common_vector: `1:1` shares one element
/// with `30:1` (it answered `30:1`, whose R(1) = 1 is no coordinate of `1:1`).
#[test]
fn max_common_layout_stays_in_both_domains() {
    let a = [t("1:1"), t("30:1")];
    assert_eq!(run_op("max_common_vector", &a), ok("1"));
    assert_eq!(run_op("max_common_layout", &a), ok("1:0"));
    let b = [t("(4,2):(2,1)"), t("8:1")];
    assert_eq!(run_op("max_common_vector", &b), ok("1"));
    let c = [t("8:1"), t("(4,8):(1,4)")];
    assert_eq!(run_op("max_common_vector", &c), ok("8"));
    assert_eq!(run_op("max_common_layout", &c), ok("8:1"));
    for args in [&a[..], &b[..], &c[..]] {
        for op in ["max_common_vector", "max_common_layout"] {
            assert_eq!(check::check(op, args, &run_op(op, args)), Ok(()));
        }
    }
}
