//! NVlabs PyCuTe's assertions over sympy symbols (`test_composition_sympy`,
//! `test_coalesce_sympy`, `test_coalesce_z_sympy`, `test_complement_sympy`,
//! `test_right_inverse_sympy`, `TestMakeOrderedLayout.test_sympy`,
//! `TestMakeLayoutLike.test_sympy(_substitution)`). `tests/data/nvlabs_sympy.jsonl` (written by
//! `scripts/gen-nvlabs-sympy.py` from the hand transcription there) holds, per case, the
//! symbolic input and PyCuTe's symbolic answer, and every substitution of integers: its
//! concrete request and what the answer must satisfy (`same`: the substituted symbolic answer,
//! as text or as the same function; `law`: the post-condition the peer's test asserts;
//! `may_refuse`: a refusal is accepted).
//!
//! Each case is asked symbolically and our symbolic answer compared with PyCuTe's
//! ([`nvlabs_sympy_assertions_hold_symbolically`]); the substitutions check the integer
//! operations against the same assertions.

use crate::common;

use std::collections::BTreeMap;

use cute_layout::{Layout, Sym, SymLayout};
use serde_json::Value;

use common::{call, layout, norm, strs};

const DATA: &str = include_str!("data/nvlabs_sympy.jsonl");

/// `L(i)` for `i` in `[0, n)`, the last mode running on past the size.
fn values(l: &Layout, n: i64) -> Vec<i64> {
    (0..n).map(|i| l.index_any(i).unwrap()).collect()
}

/// The post-condition a PyCuTe test asserts of `ours`, the answer to `op(args)`.
fn law(name: &str, args: &[String], ours: &str) -> Result<(), String> {
    let (l, r) = (layout(&args[0]), layout(ours));
    match name {
        // postcondition_composition: R compatible with B, R(i) == A(B(i)) on B's domain
        "composition" => {
            let b = layout(&args[1]);
            if !b.shape().compatible(&r.shape()) || r.size() != b.size() {
                return Err(format!("{ours}: not compatible with {}", args[1]));
            }
            for i in 0..b.size() {
                let want = l.index_any(b.index_any(i).unwrap()).unwrap();
                if r.index_any(i).unwrap() != want {
                    return Err(format!("R({i}) != A(B({i})) = {want}"));
                }
            }
        }
        // postcondition_coalesce(_z): depth <= 1, the same size and values (coalesce_z: on
        // [0, size + 10)), idempotent; coalesce: also composition(L, size(L):1) == R
        "coalesce" | "coalesce_z" => {
            let n = l.size() + if name == "coalesce_z" { 10 } else { 0 };
            if r.depth() > 1 || r.size() != l.size() || values(&r, n) != values(&l, n) {
                return Err(format!("{ours}: not {name} of {}", args[0]));
            }
            let again = call(name, &[ours.to_string()])?;
            if norm(&again) != norm(ours) {
                return Err(format!("not idempotent: {ours} then {again}"));
            }
            if name == "coalesce" {
                let c = call("composition", &[args[0].clone(), format!("{}:1", l.size())])?;
                if norm(&c) != norm(ours) {
                    return Err(format!("composition(L, size:1) = {c}, coalesce {ours}"));
                }
            }
        }
        // postcondition_right_inverse with an integer codomain: L(R(i)) == i (the
        // weak congruence with coprofile(L), an integer, holds of every shape)
        "right_inverse" => {
            for i in 0..r.size() {
                if l.index_any(r.index_any(i).unwrap()).unwrap() != i {
                    return Err(format!("L(R({i})) != {i}"));
                }
            }
        }
        _ => return Err(format!("unknown law {name}")),
    }
    Ok(())
}

/// `exact` where our text is the substituted symbolic answer, `same function` where it is
/// another form of it (for coalesce_z: the same values on `[0, size + 10)`).
fn same(op: &str, args: &[String], ours: &str, want: &str) -> Result<&'static str, String> {
    if norm(ours) == norm(want) {
        return Ok("exact");
    }
    let fits = if op == "coalesce_z" {
        let n = layout(&args[0]).size() + 10;
        values(&layout(ours), n) == values(&layout(want), n)
    } else {
        call("equal", &[ours.to_string(), want.to_string()]).as_deref() == Ok("1")
    };
    if fits {
        Ok("same function")
    } else {
        Err(format!("{ours}, the peer's answer substituted is {want}"))
    }
}

/// The outcome of one substitution: `Ok(kind)` or `Err(why it disagrees)`.
fn judge(op: &str, sub: &Value) -> Result<&'static str, String> {
    let args = strs(&sub["args"]);
    let e = &sub["expect"];
    let ours = match call(op, &args) {
        Ok(r) => r,
        Err(_) if e.get("may_refuse").is_some() => return Ok("refused (divisibility)"),
        Err(err) => return Err(err),
    };
    if let Some(name) = e.get("law").and_then(Value::as_str) {
        law(name, &args, &ours)?;
    }
    match e.get("same").and_then(Value::as_str) {
        Some(want) => same(op, &args, &ours, want),
        None => Ok("post-condition"),
    }
}

#[test]
fn nvlabs_sympy_assertions_hold_at_integer_substitutions() {
    let mut tally: BTreeMap<(String, &'static str), usize> = BTreeMap::new();
    let (mut cases, mut subs, mut failures) = (0, 0, Vec::new());
    for line in DATA.lines().skip(1) {
        let case: Value = serde_json::from_str(line).unwrap();
        let op = case["op"].as_str().unwrap();
        cases += 1;
        for sub in case["subs"].as_array().unwrap() {
            subs += 1;
            match judge(op, sub) {
                Ok(k) => *tally.entry((op.to_string(), k)).or_default() += 1,
                Err(e) => failures.push(format!(
                    "{} {} at {}: {e}",
                    case["ref"], case["peer"], sub["at"]
                )),
            }
        }
    }
    for ((op, k), n) in &tally {
        println!("{op:20} {k:24} {n}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // 34 cases marked sympy in ../shared/peer-tests/cases/nvlabs_cute.jsonl, the 5 of its
    // make_layout_like cases that are sympy, and the 9 sympy cases of coalesce_z in
    // nvlabs_pycute_extras.jsonl
    assert_eq!(cases, 34 + 5 + 9);
    assert_eq!(subs, 6064);
}

/// An integer expression of `+`, `-`, `*` and `//` over literals and the symbols of `env`.
fn evaluate(expr: &str, env: &BTreeMap<String, i64>) -> i64 {
    fn factor(t: &str, env: &BTreeMap<String, i64>) -> i64 {
        t.parse()
            .unwrap_or_else(|_| *env.get(t).unwrap_or_else(|| panic!("unknown symbol {t}")))
    }
    let mut total = 0;
    // a sum of terms, each a product (or floor quotient) of factors, left to right
    for (k, term) in expr.replace('-', "+-").split('+').enumerate() {
        let (neg, term) = match term.strip_prefix('-') {
            Some(t) => (true, t),
            None if k > 0 || !term.is_empty() => (false, term),
            None => continue,
        };
        let mut value = 1;
        let mut op = "*";
        let mut rest = term;
        loop {
            let (cut, next) = match (rest.find("//"), rest.find('*')) {
                (Some(d), Some(m)) if d < m => (d, "//"),
                (Some(d), None) => (d, "//"),
                (_, Some(m)) => (m, "*"),
                (None, None) => (rest.len(), ""),
            };
            let f = factor(rest[..cut].trim(), env);
            value = if op == "*" {
                value * f
            } else {
                value.div_euclid(f)
            };
            if next.is_empty() {
                break;
            }
            op = next;
            rest = &rest[cut + next.len()..];
        }
        total += if neg { -value } else { value };
    }
    total
}

/// The text with every extent, stride or order value evaluated at `env`.
fn substitute(text: &str, env: &BTreeMap<String, i64>) -> String {
    let mut out = String::new();
    let mut atom = String::new();
    for ch in text.chars().chain(std::iter::once(')')) {
        if "(),:".contains(ch) || ch.is_whitespace() {
            if !atom.is_empty() {
                out.push_str(&evaluate(&std::mem::take(&mut atom), env).to_string());
            }
            out.push(ch);
        } else {
            atom.push(ch);
        }
    }
    out.pop();
    out
}

/// Every substitution's request and expected answer are the case's symbolic text with its
/// integers put in (a check of the generator, and of hand edits to the data).
#[test]
fn substitutions_follow_the_symbolic_text() {
    let mut n = 0;
    for line in DATA.lines().skip(1) {
        let case: Value = serde_json::from_str(line).unwrap();
        let args = strs(&case["args"]);
        for sub in case["subs"].as_array().unwrap() {
            let env: BTreeMap<String, i64> = sub["at"]
                .as_str()
                .unwrap()
                .split(',')
                .map(|kv| {
                    let (k, v) = kv.split_once('=').unwrap();
                    (k.to_string(), v.parse().unwrap())
                })
                .collect();
            let want: Vec<String> = args.iter().map(|a| substitute(a, &env)).collect();
            assert_eq!(strs(&sub["args"]), want, "{} at {}", case["ref"], sub["at"]);
            if let Some(same) = sub["expect"]["same"].as_str() {
                let sym = case["expect"]["same"].as_str().unwrap();
                assert_eq!(
                    same,
                    substitute(sym, &env),
                    "{} at {}",
                    case["ref"],
                    sub["at"]
                );
            }
            n += 1;
        }
    }
    assert_eq!(n, 6064);
    let env = BTreeMap::from([("N".to_string(), 3), ("X".to_string(), 5)]);
    assert_eq!(substitute("(X,1):(1,N*X)", &env), "(5,1):(1,15)");
    assert_eq!(evaluate("2*N+X//2-1", &env), 7);
}

/// A polynomial over the symbols: sorted factors -> coefficient.
type Poly = BTreeMap<Vec<(String, u32)>, i64>;

fn poly(s: &Sym) -> Poly {
    let mut key: Vec<(String, u32)> = s.factors().to_vec();
    key.sort();
    let mut p = Poly::new();
    if s.coef() != 0 {
        p.insert(key, s.coef());
    }
    p
}

fn add(a: &mut Poly, b: &Poly, times: i64) {
    for (k, v) in b {
        let e = a.entry(k.clone()).or_default();
        *e += v * times;
        if *e == 0 {
            a.remove(k);
        }
    }
}

/// `L(i)` as a polynomial: every extent but the last must be an integer (as in PyCuTe's
/// idx2crd, the last mode takes the rest).
fn eval_poly(l: &SymLayout, i: i64) -> Poly {
    let shape = l.shape().leaves();
    let stride = l.stride().leaves();
    let (mut rest, mut out) = (i, Poly::new());
    for (k, (s, d)) in shape.iter().zip(&stride).enumerate() {
        let c = if k + 1 == shape.len() {
            rest
        } else {
            let s = s.as_int().expect("a static extent before the last");
            let c = rest % s;
            rest /= s;
            c
        };
        add(&mut out, &poly(d), c);
    }
    out
}

/// PyCuTe's postcondition_composition, over the symbols: R compatible with B (both static
/// here) and R(i) == A(B(i)) as polynomials for every i < size(B).
fn composition_holds(a: &SymLayout, b: &Layout, r: &SymLayout) -> Result<(), String> {
    let shape = r.shape().to_string().parse::<cute_layout::IntTuple>();
    match shape {
        Ok(s) if b.shape().compatible(&s) => {}
        _ => return Err(format!("{r} is not compatible with {b}")),
    }
    for i in 0..b.size() {
        let want = eval_poly(a, b.index_any(i).unwrap());
        if eval_poly(r, i) != want {
            return Err(format!("R({i}) != A(B({i}))"));
        }
    }
    Ok(())
}

/// PyCuTe's symbolic answers that some substitution of positive integers contradicts (its
/// generic assumptions: a symbol is never 1, symbolic values rank after static ones and left to
/// right): refused here (`Undecidable`). 0338: `complement(N:X)` at `N = 1` is `1:0`, not of
/// size `X`; 0469 and 0470: at `X = 1` (`DM = 1`) the right inverse is `N:1` (`M:1`), not
/// `1:0`; 0709 to 0712: at `P = 1` (0709, 0711) or `P > Q` the integer order differs; 0650 and
/// 0651: at `X = 2` (`Y < X`) the integer `make_layout_like` differs.
const CONTRADICTED: &[&str] = &[
    "nvlabs-cute-0338",
    "nvlabs-cute-0469",
    "nvlabs-cute-0470",
    "nvlabs-cute-0709",
    "nvlabs-cute-0710",
    "nvlabs-cute-0711",
    "nvlabs-cute-0712",
    "nvlabs-cute-0650",
    "nvlabs-cute-0651",
];

/// Each case answered symbolically, compared with PyCuTe's symbolic answer: `pass` when our
/// answer equals the peer's as polynomials (the order of factors aside), or, for composition,
/// when it meets the peer's post-condition over the symbols; `refused` where PyCuTe raises
/// too. Every substitution of our symbolic answer must also give the substituted peer answer.
#[test]
fn nvlabs_sympy_assertions_hold_symbolically() {
    let (mut pass, mut refused, mut failures) = (0, 0, Vec::new());
    let mut contradicted = 0;
    for line in DATA.lines().skip(1) {
        let case: Value = serde_json::from_str(line).unwrap();
        let op = case["op"].as_str().unwrap();
        let args = strs(&case["args"]);
        let id = format!("{} {}", case["ref"], case["peer"]);
        let peer_raises = case["test"].as_str().unwrap().ends_with("_fails");
        let ours = match call(op, &args) {
            Ok(r) => r,
            Err(e) if peer_raises && e.starts_with("Undecidable") => {
                refused += 1;
                continue;
            }
            Err(e) if CONTRADICTED.contains(&case["ref"].as_str().unwrap()) => {
                assert!(e.starts_with("Undecidable"), "{id}: {e}");
                contradicted += 1;
                continue;
            }
            Err(e) => {
                failures.push(format!("{id}: {e}"));
                continue;
            }
        };
        let r: SymLayout = ours.parse().unwrap();
        let verdict = if let Some(want) = case["expect"]["same"].as_str() {
            let want: SymLayout = want.parse().unwrap();
            (r == want)
                .then_some(())
                .ok_or(format!("ours {ours}, peer {want}"))
        } else {
            let a: SymLayout = args[0].parse().unwrap();
            composition_holds(&a, &layout(&args[1]), &r)
        };
        if let Err(e) = verdict {
            failures.push(format!("{id}: {e}"));
            continue;
        }
        for sub in case["subs"].as_array().unwrap() {
            let Some(want) = sub["expect"]["same"].as_str() else {
                continue;
            };
            let env = env(sub["at"].as_str().unwrap());
            let got = substitute(&ours, &env);
            if same(op, &strs(&sub["args"]), &got, want).is_err() {
                failures.push(format!("{id} at {}: ours {got}, peer {want}", sub["at"]));
            }
        }
        pass += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    println!("symbolic: pass {pass}, refused {refused}, contradicted {contradicted}");
    assert_eq!((pass, refused, contradicted), (38, 1, 9));
}

fn env(at: &str) -> BTreeMap<String, i64> {
    at.split(',')
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap();
            (k.to_string(), v.parse().unwrap())
        })
        .collect()
}
