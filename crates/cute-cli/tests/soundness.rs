//! Issue 23 through `cute batch`: every input of sections 1 and 2 with the exact answer line,
//! and a random differential test of compositions with swizzled operands of negative and zero
//! strides (the answers of the library, or of the CLI's general composed layout where a
//! swizzle does not move through a layout), judged point by point by an evaluator written here
//! from the definitions.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

/// One `cute batch` process for all requests: the answer lines, parsed.
fn batch(reqs: &[(&str, Vec<String>)]) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cute"))
        .arg("batch")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run cute batch");
    let mut input = String::new();
    for (op, args) in reqs {
        input.push_str(&json!({"op": op, "args": args}).to_string());
        input.push('\n');
    }
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("cute batch output");
    writer.join().expect("writer").expect("write requests");
    assert!(out.status.success());
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON answer line"))
        .collect();
    assert_eq!(lines.len(), reqs.len());
    lines
}

fn req(op: &'static str, args: &[&str]) -> (&'static str, Vec<String>) {
    (op, args.iter().map(|s| s.to_string()).collect())
}

/// Every input of the issue's sections 1 and 2, with the exact answer.
#[test]
fn issue_23_inputs_answer_exactly() {
    let cases: &[(&str, &[&str], &str)] = &[
        // Section 1: CuTe prints Sw<1,0,-2> o 0 o 4:-4 (wrong). The swizzle does not move
        // through A for B's negative offsets: the answer is CuTe's general composed layout.
        (
            "composition",
            &["(4,4):(4,1)", "Sw<1,0,2> o 0 o 4:-1"],
            "(4,4):(4,1) o 0 o Sw<1,0,2> o 0 o 4:-1",
        ),
        (
            "composition",
            &[
                "Sw<1,4,2> o 0 o (8,(2,2)):(4,(2,1))",
                "Sw<1,2,2> o 0 o (((1,4),1)):(((-4,-4),-16))",
            ],
            "Sw<1,4,2> o 0 o (8,(2,2)):(4,(2,1)) o 0 o Sw<1,2,2> o 0 o (((1,4),1)):(((-4,-4),-16))",
        ),
        // Sw<1,0,-1> reads bit 0, which no offset of B's layout has: the identity there.
        (
            "composition",
            &["(2,(8,4)):(16,(32,1))", "Sw<1,0,-1> o 0 o (4,8):(-16,-2)"],
            "(4,8):(-1,-32)",
        ),
        // Section 2.
        (
            "tiled_product",
            &["2:4611686018427387904", "2:128"],
            "(2,2):(4611686018427387904,128)",
        ),
        (
            "zipped_product",
            &["2:4611686018427387904", "2:4"],
            "(2,2):(4611686018427387904,4)",
        ),
        (
            "logical_product",
            &["(4):(0)", "(2):(4611686018427387904)"],
            "((4),(2)):((0),(4611686018427387904))",
        ),
        (
            "complement",
            &["(9,7):(2,18)", "9223372036854775807"],
            "(2,73201365371863301):(1,126)",
        ),
        (
            "complement",
            &["((12,7,10)):((3,36,252))", "9223372036854775807"],
            "(3,3660068268593166):(1,2520)",
        ),
        (
            "logical_product",
            &["((4,6)):((1,6))", "(3):(1)"],
            "(((4,6)),(3)):(((1,6)),(36))",
        ),
        (
            "logical_product",
            &["(4,6):(1,6)", "3:1"],
            "((4,6),3):((1,6),36)",
        ),
        (
            "right_inverse",
            &["Sw<2,0,2> o 0 o (4,(4,3)):(1,(4,16))"],
            "Sw<2,0,2> o 0 o 48:1",
        ),
        (
            "right_inverse",
            &["Sw<2,0,2> o 0 o 48:1"],
            "Sw<2,0,2> o 0 o 48:1",
        ),
        (
            "left_inverse",
            &["Sw<2,0,2> o 0 o (4,(4,3)):(1,(4,16))"],
            "Sw<2,0,2> o 0 o 48:1",
        ),
        (
            "left_inverse",
            &["Sw<2,0,2> o 0 o 48:1"],
            "Sw<2,0,2> o 0 o 48:1",
        ),
        (
            "composition",
            &["(6,1):(8,-2)", "(1,3):(-2048,0)"],
            "(1,3):(684,0)",
        ),
        (
            "logical_product",
            &["3:4", "(2,4):(4,-8)"],
            "(3,(2,4)):(4,(12,-24))",
        ),
        (
            "composition",
            &["(2,(1,5)):(12,(6,-1))", "(2,4):(-2,128)"],
            "(2,4):(1,-64)",
        ),
    ];
    let reqs: Vec<_> = cases.iter().map(|(op, args, _)| req(op, args)).collect();
    for ((op, args, want), got) in cases.iter().zip(batch(&reqs)) {
        assert_eq!(got, json!({"ok": want}), "{op} {args:?}");
    }
}

// ------------------------------------------------------------------------------------------
// An evaluator of the text form, from the definitions
// ------------------------------------------------------------------------------------------

/// A function of a chain: a swizzle `Sw<B,M,S>` or a layout (flat leaves).
enum F {
    Sw(i64, i64, i64),
    L(Vec<i64>, Vec<i64>),
}

fn ints(s: &str) -> Vec<i64> {
    s.split(|c: char| !(c.is_ascii_digit() || c == '-'))
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().expect("an integer"))
        .collect()
}

fn func(s: &str) -> F {
    let s = s.trim();
    if let Some(p) = s.strip_prefix("Sw<") {
        let v = ints(p);
        return F::Sw(v[0], v[1], v[2]);
    }
    let (shape, stride) = s.split_once(':').expect("a layout");
    F::L(ints(shape), ints(stride))
}

/// `swizzle ∘ offset ∘ ... ∘ layout` as `(function, offset)` pairs, outermost first, and the
/// innermost layout.
fn chain(s: &str) -> (Vec<(F, i64)>, F) {
    let parts: Vec<&str> = s.split(" o ").collect();
    let mut layers = Vec::new();
    for k in (0..parts.len() - 1).step_by(2) {
        layers.push((func(parts[k]), parts[k + 1].trim().parse().expect("offset")));
    }
    (layers, func(parts[parts.len() - 1]))
}

/// A layout at any integer: truncating division, every leaf but the last reduced by its extent.
fn eval_layout(shape: &[i64], stride: &[i64], x: i64) -> Option<i64> {
    let (mut acc, mut rest) = (0i64, x);
    for (k, (&s, &d)) in shape.iter().zip(stride).enumerate() {
        let c = if k + 1 == shape.len() { rest } else { rest % s };
        acc = acc.checked_add(c.checked_mul(d)?)?;
        rest /= s;
    }
    Some(acc)
}

fn apply(f: &F, x: i64) -> Option<i64> {
    match f {
        F::Sw(b, m, s) => {
            let t = x & (((1i64 << b) - 1) << (m + s.max(&0)));
            Some(x ^ if *s >= 0 { t >> s } else { t << -s })
        }
        F::L(shape, stride) => eval_layout(shape, stride, x),
    }
}

fn eval_chain(c: &(Vec<(F, i64)>, F), x: i64) -> Option<i64> {
    let mut v = apply(&c.1, x)?;
    for (f, off) in c.0.iter().rev() {
        v = apply(f, v.checked_add(*off)?)?;
    }
    Some(v)
}

fn size(c: &(Vec<(F, i64)>, F)) -> i64 {
    match &c.1 {
        F::L(shape, _) => shape.iter().product(),
        F::Sw(..) => 0,
    }
}

/// xorshift64*.
struct Rng(u64);

impl Rng {
    fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) % n
    }

    fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.next(v.len() as u64) as usize]
    }
}

fn random_tree(rng: &mut Rng, depth: u32, leaf: &mut dyn FnMut(&mut Rng) -> String) -> String {
    let n = if depth == 0 {
        1
    } else {
        rng.pick(&[1, 1, 2, 2, 3])
    };
    if n == 1 && (depth == 0 || rng.next(3) > 0) {
        return leaf(rng);
    }
    let parts: Vec<String> = (0..n).map(|_| random_tree(rng, depth - 1, leaf)).collect();
    format!("({})", parts.join(","))
}

/// A random layout, strides of both signs and zero (`signed`) or non-negative.
fn random_layout(rng: &mut Rng, signed: bool) -> String {
    let mut pairs = Vec::new();
    let shape = random_tree(rng, 2, &mut |rng| {
        let s = rng.pick(&[1i64, 2, 2, 3, 4, 4, 5, 8]);
        let d = if signed {
            rng.pick(&[
                0i64, 1, -1, 2, -2, 4, -4, 8, -8, 16, -16, 3, -6, 12, 32, -32, 64,
            ])
        } else {
            rng.pick(&[0i64, 1, 2, 4, 8, 16, 3, 6, 12, 32, 64, 5])
        };
        pairs.push(d);
        s.to_string()
    });
    let mut it = pairs.into_iter();
    let mut stride = String::new();
    let mut in_num = false;
    for ch in shape.chars() {
        if ch.is_ascii_digit() {
            if !in_num {
                stride.push_str(&it.next().expect("a stride per extent").to_string());
            }
            in_num = true;
        } else {
            in_num = false;
            stride.push(ch);
        }
    }
    format!("{shape}:{stride}")
}

fn random_composed(rng: &mut Rng, signed: bool) -> String {
    let mut c = random_layout(rng, signed);
    for _ in 0..rng.pick(&[0, 1, 1, 1, 2]) {
        let b = 1 + rng.next(3) as i64;
        let m = rng.next(5) as i64;
        let s = (b + rng.next(4) as i64) * if rng.next(2) == 0 { 1 } else { -1 };
        c = format!("Sw<{b},{m},{s}> o 0 o {c}");
    }
    c
}

/// Random compositions whose right operand is swizzled with negative and zero strides (the
/// left one plain or swizzled): every answer of `cute batch` obeys `R(i) == A(B(i))` at every
/// point of B's domain, the chain answers included.
#[test]
fn random_swizzled_compositions_through_batch() {
    let mut rng = Rng(0x23_ba7c_5eed);
    let mut reqs = Vec::new();
    for round in 0..6_000 {
        let b = random_composed(&mut rng, true);
        let signed = rng.next(2) == 0;
        let a = if round % 3 == 0 {
            random_composed(&mut rng, signed)
        } else {
            random_layout(&mut rng, signed)
        };
        reqs.push(("composition", vec![a, b]));
    }
    let (mut answered, mut chains) = (0, 0);
    for ((_, args), got) in reqs.iter().zip(batch(&reqs)) {
        let Some(r) = got.get("ok").and_then(Value::as_str) else {
            continue;
        };
        answered += 1;
        let (a, b, rc) = (chain(&args[0]), chain(&args[1]), chain(r));
        chains += usize::from(rc.0.iter().any(|(f, _)| matches!(f, F::L(..))));
        assert_eq!(size(&rc), size(&b), "{args:?} = {r}: size");
        for i in 0..size(&b) {
            let want = eval_chain(&b, i).and_then(|x| eval_chain(&a, x));
            assert_eq!(eval_chain(&rc, i), want, "{args:?} = {r} at {i}");
        }
    }
    assert!(answered > 2_000 && chains > 100, "{answered} {chains}");
}
