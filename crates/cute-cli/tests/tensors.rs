//! CuTe C++ conformance of the tensor operations (counting, identity, pointer and zip tensors, slicing
//! swizzled tensors, `local_tile`/`local_partition` with and without a `Step` projection, the
//! thread slice of a TV layout, the divides of a tensor, `print_tensor`, `batch_reduce`,
//! `logical_reduce`, the tensor overloads of `flatten`, `coalesce`, `group`, `take`, `filter`,
//! `filter_zeros`, `composition`, `domain_offset`, `make_tensor_like`, `make_fragment_like`,
//! `outer_partition`, and thread partitions by a tiled MMA or copy): every vector of `tests/conformance/surface/tensors_cpp.jsonl` (made by
//! `scripts/gen-conformance-tensors.py` from CuTe's own answers, static integers) goes through
//! one `cute batch` run. Single-line answers are compared without spaces (CuTe's static `_N`
//! printed as `N`); `print_tensor` tables exactly. A refusal is a failure.

use crate::common;

use serde_json::{json, Value};

#[test]
fn tensor_vectors_match_cute() {
    let n = common::assert_cute_vectors(include_str!("conformance/surface/tensors_cpp.jsonl"));
    assert!(n >= 100, "{n} vectors");
}

#[test]
fn print_tensor_on_the_command_line() {
    let o = common::cute(&["print_tensor", "counting_iter(0) o (2,3):(3,1)"]);
    assert!(o.status.success(), "{}", common::stderr(&o));
    assert_eq!(
        common::stdout(&o),
        "counting_iter(0) o (2,3):(3,1):\n    0    1    2\n    3    4    5\n"
    );
    let o = common::cute(&["print_tensor", "(2,3):(3,1)"]);
    assert_eq!(o.status.code(), Some(2), "{}", common::stderr(&o));
    assert!(common::stderr(&o).contains("error[KindMismatch]: print_tensor: argument 1 (TENSOR) is LAYOUT (2,3):(3,1); expected TENSOR"));
}

/// The peer cases that ../shared/peer-tests marks "slicing a swizzled (composed) layout"
/// (cute-cpp-0419..0421), "tensor algorithms" (cute-cpp-0435, 0436; 0434, `transform` with
/// complex conjugation, is not a layout operation) and NVlabs PyCuTe's "tensors (make_tensor)"
/// (nvlabs-cute-0526, 0527, 0562), as `cute batch` requests with the peer's checks.
#[test]
fn peer_tensor_cases_are_expressible() {
    let mut reqs: Vec<Value> = Vec::new();
    let mut checks: Vec<(usize, usize, String)> = Vec::new(); // (ours, theirs, what)
    let push = |reqs: &mut Vec<Value>, op: &str, args: Vec<String>| {
        reqs.push(json!({"op": op, "args": args}));
        reqs.len() - 1
    };
    // swizzle_layout.cpp: sw_tensor(i,_)(j) == sw_tensor(i,j) == sw_tensor(_,j)(i).
    for sw in [
        "Sw<3,0,3> o 0 o (8,8):(8,1)",
        "Sw<3,0,-3> o 0 o (8,8):(8,1)",
        "Sw<2,1,3> o 0 o ((2,2,2),(2,2,2)):((32,2,8),(4,1,16))",
    ] {
        let t = format!("counting_iter(0) o {sw}");
        for i in 0..8 {
            let row = push(&mut reqs, "slice", vec![format!("({i},_)"), t.clone()]);
            let col = push(&mut reqs, "slice", vec![format!("(_,{i})"), t.clone()]);
            checks.push((row, usize::MAX, format!("{sw} row {i}")));
            checks.push((col, usize::MAX, format!("{sw} col {i}")));
        }
    }
    let (_, answers) = common::batch(
        reqs.iter()
            .map(|r| format!("{r}\n"))
            .collect::<String>()
            .as_bytes(),
    );
    let mut follow = Vec::new();
    let mut pairs = Vec::new();
    for (k, (idx, _, what)) in checks.iter().enumerate() {
        let sliced = answers[*idx]["ok"]
            .as_str()
            .unwrap_or_else(|| panic!("{what}: {}", answers[*idx]));
        let sw_t = reqs[*idx]["args"][1].as_str().unwrap().to_string();
        let fixed = k % 2 == 0; // rows then columns alternate
        let i = (k / 2) % 8;
        for j in 0..8 {
            let full = if fixed {
                format!("({i},{j})")
            } else {
                format!("({j},{i})")
            };
            follow.push(json!({"op": "tensor_value", "args": [sliced, j.to_string()]}));
            follow.push(json!({"op": "tensor_value", "args": [sw_t, full]}));
            pairs.push(format!("{what} at {j}"));
        }
    }
    let (_, vals) = common::batch(
        follow
            .iter()
            .map(|r| format!("{r}\n"))
            .collect::<String>()
            .as_bytes(),
    );
    for (k, what) in pairs.iter().enumerate() {
        let (a, b) = (&vals[2 * k]["ok"], &vals[2 * k + 1]["ok"]);
        assert!(a.is_string() && a == b, "{what}: {a} vs {b}");
    }
    // tensor_algs.cpp and NVlabs PyCuTe's test_logical_divide/product_types.
    let src = "counting_iter(0) o (32,(12,6)):(1,(64,1))";
    for (op, args, want) in [
        (
            "batch_reduce",
            vec!["counting_iter(0) o ((2,2),(2,2)):((2,8),(1,4))"],
            Ok("(20,24,36,40)"),
        ),
        (
            "logical_reduce",
            vec!["counting_iter(0) o (2,2,2,2):(1,2,4,8)", "(_,1,_,1)"],
            Ok("(20,24,36,40)"),
        ),
        (
            "logical_reduce",
            vec!["counting_iter(0) o (2,(2,2),2):(1,(2,4),8)", "(_,(1,_),1)"],
            Ok("(20,24,36,40)"),
        ),
        (
            "logical_reduce",
            vec!["counting_iter(0) o 32:1", "1"],
            Ok("(496)"),
        ),
        ("logical_reduce", vec![src, "(0,_)"], Ok("")),
        (
            "logical_divide",
            vec!["counting_iter(0) o (6,4):(4,1)", "2:1"],
            Ok("counting_iter(0) o (2,(3,4)):(4,(8,1))"),
        ),
        (
            "logical_divide",
            vec!["(6,4):(4,1)", "counting_iter(0) o 2:1"],
            Err("KindMismatch"),
        ),
        (
            "logical_product",
            vec!["counting_iter(0) o 6:1", "2:1"],
            Err("KindMismatch"),
        ),
    ] {
        let line = json!({"op": op, "args": args}).to_string() + "\n";
        let (_, a) = common::batch(line.as_bytes());
        match want {
            Ok("") => {
                // Each column's sum is the sum of that column's slice (reduce(src(_,i))).
                let sums: Vec<i64> = a[0]["ok"]
                    .as_str()
                    .unwrap()
                    .trim_matches(|c| c == '(' || c == ')')
                    .split(',')
                    .map(|v| v.parse().unwrap())
                    .collect();
                assert_eq!(sums.len(), 72);
                for (i, s) in sums.iter().enumerate().step_by(7) {
                    let col = json!({"op": "slice", "args": [format!("(_,{i})"), src]}).to_string()
                        + "\n";
                    let (_, c) = common::batch(col.as_bytes());
                    let whole =
                        json!({"op": "logical_reduce", "args": [c[0]["ok"].as_str().unwrap(), "1"]})
                            .to_string() + "\n";
                    let (_, r) = common::batch(whole.as_bytes());
                    assert_eq!(r[0]["ok"].as_str().unwrap(), format!("({s})"), "column {i}");
                }
            }
            Ok(text) => assert_eq!(a[0]["ok"].as_str(), Some(text), "{op} {args:?}: {}", a[0]),
            Err(kind) => assert_eq!(a[0]["kind"].as_str(), Some(kind), "{op} {args:?}: {}", a[0]),
        }
    }
}
