//! `cute find`, `cute explain` and the analysis batch operations.

use crate::common;

use common::{batch_raw, cute, stderr, stdout};

fn batch(input: &str) -> Vec<String> {
    stdout(&batch_raw(input.as_bytes()))
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn find_prints_the_canonical_layout() {
    let o = cute(&["find", "0,2,4,7,9,11"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "(3,2):(2,7)\n");
    let o = cute(&["find", "0", "-1", "-2"]);
    assert_eq!(stdout(&o), "3:-1\n");
    let o = cute(&["find", "--shape", "(3,(1,2))", "0,2,4,7,9,11"]);
    assert_eq!(stdout(&o), "(3,(1,2)):(2,(0,7))\n");
    let o = cute(&["find", "0,1,5,7"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "cute: error[NotALayout]: find_layout: no layout has these values: value 7 at index 3, but the only layout fitting the values before it predicts 6 (modes so far: 2:1, 2:5)\n"
    );
    let o = cute(&["find", "0,x"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn explain_worked_example_1() {
    let o = cute(&["explain", "composition", "(6,2):(8,2)", "(4,3):(3,1)"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    for line in [
        "     = ((6,2):(8,2) o 4:3, (6,2):(8,2) o 3:1)",
        "   - divide out the stride 3: (6,2):(8,2) / 3 = (6/3,2):(8*3,2) = (2,2):(24,2)",
        "   - mod out the shape 4: (2,2):(24,2) % 4 = (2,2):(24,2)",
        "   - divide out the stride 1: (6,2):(8,2) / 1 = (6,2):(8,2)",
        "   - mod out the shape 3: (6,2):(8,2) % 3 = (3,1):(8,2)",
        "   R = ((2,2):(24,2), (3,1):(8,2))",
        "     = ((2,2),3):((24,2),8)",
        "=> ((2,2),3):((24,2),8)",
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "missing {line:?} in\n{text}"
        );
    }
}

#[test]
fn explain_seed_002_refusal() {
    let o = cute(&["explain", "composition", "(10,2):(16,4)", "(4,5):(5,2)"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("condition failed: disjointness fails in mode 0 of A (extent 10): leaf 0 of B reaches coordinate 5, leaf 1 of B reaches coordinate 8; together 13 > 9, so adding them carries into mode 1"), "{text}");
    assert!(text.contains("counter-example: i = 13: B(13) = 11; the per-mode answer gives R(13) = 176, but A(B(13)) = A(11) = 20"), "{text}");
    assert!(text.ends_with("=> refused: composition: modes 0 and 1 of (4,5):(5,2) overlap in the coordinate space of (10,2):(16,4)\n"));
}

#[test]
fn explain_other_operations() {
    let o = cute(&["explain", "complement", "(2,2):(1,6)", "24"]);
    let text = stdout(&o);
    assert!(
        text.contains("sort the modes by stride: 2:1, 2:6"),
        "{text}"
    );
    assert!(text.ends_with("=> (3,2):(2,12)\n"), "{text}");
    let o = cute(&["explain", "logical_divide", "(4,2,3):(2,1,8)", "4:2"]);
    assert!(stdout(&o).ends_with("=> ((2,2),(2,3)):((4,1),(2,8))\n"));
    let o = cute(&[
        "explain",
        "zipped_divide",
        "(9,(4,8)):(59,(13,1))",
        "<3:3,(2,4):(1,8)>",
    ]);
    assert!(
        stdout(&o).ends_with("=> ((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))\n"),
        "{}",
        stdout(&o)
    );
    let o = cute(&["explain", "blocked_product", "(2,5):(5,1)", "(3,4):(1,3)"]);
    assert!(stdout(&o).ends_with("=> ((2,3),(5,4)):((5,10),(1,30))\n"));
    let o = cute(&["explain", "size", "8:1"]);
    assert_eq!(o.status.code(), Some(2));
    let o = cute(&["explain", "composition", "8:1"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn batch_analysis_ops() {
    let out = batch(concat!(
        r#"{"op":"find_layout","args":["0,2,4,7,9,11"]}"#,
        "\n",
        r#"{"op":"find_layout","args":["0,1,5,7"]}"#,
        "\n",
        r#"{"op":"equal","args":["(2,5):(3,6)","10:3"]}"#,
        "\n",
        r#"{"op":"equal","args":["(2,2):(1,2)","(2,2):(2,1)"]}"#,
        "\n",
        r#"{"op":"injective","args":["(3,2):(2,3)"]}"#,
        "\n",
        r#"{"op":"surjective","args":["(3,2):(2,3)"]}"#,
        "\n",
        r#"{"op":"bijective","args":["(4,8):(8,1)"]}"#,
        "\n",
        r#"{"op":"compact","args":["(4,8):(-1,4)"]}"#,
        "\n",
        r#"{"op":"image","args":["(2,2):(1,4)"]}"#,
        "\n",
    ));
    let parse = |l: &str| -> serde_json::Value { serde_json::from_str(l).unwrap() };
    let out: Vec<serde_json::Value> = out.iter().map(|l| parse(l)).collect();
    let want: Vec<serde_json::Value> = [
            r#"{"ok":"(3,2):(2,7)"}"#,
            r#"{"error":"find_layout: no layout has these values: value 7 at index 3, but the only layout fitting the values before it predicts 6 (modes so far: 2:1, 2:5)","kind":"NotALayout"}"#,
            r#"{"ok":"1"}"#,
            r#"{"ok":"0"}"#,
            r#"{"ok":"1"}"#,
            r#"{"ok":"0"}"#,
            r#"{"ok":"1"}"#,
            r#"{"ok":"0"}"#,
            r#"{"ok":"(2,2):(1,4)"}"#,
        ]
        .iter()
        .map(|l| parse(l))
        .collect();
    assert_eq!(out, want);
}
