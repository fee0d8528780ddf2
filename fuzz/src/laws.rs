//! The law checkers of `crates/cute-cli/tests/conformance.rs`, compiled verbatim (see build.rs),
//! and [`check_result`], which maps one `run_op` call onto a conformance case and judges it.

#[allow(dead_code, clippy::all, unused_imports)]
mod conformance {
    use std::collections::HashSet;

    use cute_layout::{ComposedLayout, IntTuple, Layout, ScaledBasis};
    use serde_json::{json, Value};

    include!(concat!(env!("OUT_DIR"), "/laws.rs"));

    pub fn judge(case: &Value, ours: &str) -> Result<(), String> {
        check(case, ours)
    }
}

use cute_layout::{
    pycute::f2::is_f2_text, IntTuple, Layout, LayoutTensor, Sym, SymLayout, SymTuple, F2,
};
use serde_json::{json, Value};

use crate::ops::Arg;

/// Largest absolute integer in the arguments for which the law is checked (the checkers use
/// plain `i64` arithmetic, sized for the conformance vectors).
const CHECK_INT: i64 = 1 << 12;
/// Largest argument size for which the law is checked.
const CHECK_ARG_SIZE: i64 = 1 << 10;
/// Largest result size for which the law is checked.
const CHECK_RESULT_SIZE: i64 = 1 << 14;

fn ints_small(s: &str, limit: i64) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            let j = b[i..]
                .iter()
                .position(|c| !c.is_ascii_digit())
                .map_or(b.len(), |p| i + p);
            match s[i..j].parse::<i64>() {
                Ok(v) if v <= limit => {}
                _ => return false,
            }
            i = j;
        } else {
            i += 1;
        }
    }
    true
}

fn text(a: &Arg) -> Option<String> {
    match a {
        Arg::Text(s) => Some(s.clone()),
        Arg::Int(i) => Some(i.to_string()),
        Arg::List(_) => None,
    }
}

fn is_tensor(s: &str) -> bool {
    s.starts_with("counting_iter(") || s.starts_with("ArithTuple(")
}

/// A pointer or zip tensor, or a bare pointer (`gmem_ptr[16b](0x1000) o L`, `zip(...)`).
fn is_pointer_or_zip(s: &str) -> bool {
    cute_layout::tensor::is_tensor_text(s) && !is_tensor(s)
}

/// Text that may hold a symbol of a symbolic layout (the generator's `N`, `M`, `K`, `Q`; also
/// true of some names, which are then not judged by the integer checkers either).
fn has_symbol(s: &str) -> bool {
    s.contains(['N', 'M', 'K', 'Q'])
}

/// Substitutions for the symbolic checks: positive integers, 1 included (a symbolic answer
/// must hold at every substitution of positive integers).
const ENVS: [[(&str, i64); 3]; 5] = [
    [("N", 2), ("M", 3), ("K", 4)],
    [("N", 4), ("M", 2), ("K", 3)],
    [("N", 3), ("M", 5), ("K", 2)],
    [("N", 1), ("M", 2), ("K", 3)],
    [("N", 2), ("M", 1), ("K", 1)],
];

/// The integer operation `op` on the arguments `texts` with the substitution `env` put in;
/// `None` where an argument does not substitute (or the operation is not judged here).
fn integer_op(op: &str, texts: &[String], env: &[(&str, i64)]) -> Option<Result<Layout, String>> {
    let lay = |k: usize| texts.get(k)?.parse::<SymLayout>().ok()?.subs(env).ok();
    let tup = |k: usize| texts.get(k)?.parse::<SymTuple>().ok()?.subs(env).ok();
    let r = match (op, texts.len()) {
        ("right_inverse", 1) => Ok(lay(0)?.right_inverse()),
        ("make_layout_like", 1) => lay(0)?.layout_like(),
        ("complement", 1) => lay(0)?.complement_cosize(),
        ("complement", 2) => lay(0)?.complement_shape(&tup(1)?),
        ("composition", 2) => lay(0)?.compose(&lay(1)?),
        ("make_ordered_layout", 2) => Layout::ordered(tup(0)?, tup(1)?),
        _ => return None,
    };
    Some(r.map_err(|e| e.to_string()))
}

/// `R(i) == A(i)` for `0 <= i < n` through `index_any` (the last mode runs on past the end).
fn same_values(
    n: i64,
    a: impl Fn(i64) -> Option<i64>,
    r: impl Fn(i64) -> Option<i64>,
) -> Result<(), String> {
    for i in 0..n {
        let (x, y) = (a(i), r(i));
        if x.is_some() && x != y {
            return Err(format!("R({i}) = {y:?} != L({i}) = {x:?}"));
        }
    }
    Ok(())
}

/// Symbolic layouts: `subs(OP(L)) == OP(subs(L))` as functions for `coalesce` and
/// `coalesce_z` (the same values at every index of the domain), `subs(size(L)) ==
/// size(subs(L))`, and for `right_inverse`, `complement`, `make_layout_like`, `composition`
/// and `make_ordered_layout` the integer operation's answer (the same size and values; an
/// answer where the integer operation refuses breaks the law), at several substitutions of
/// positive integers (1 included).
fn check_symbolic(op: &str, texts: &[String], ours: &str) -> Result<(), String> {
    if matches!(
        op,
        "right_inverse" | "complement" | "make_layout_like" | "composition" | "make_ordered_layout"
    ) {
        return check_symbolic_against_integers(op, texts, ours);
    }
    let (Some(t), 1) = (texts.first(), texts.len()) else {
        return Ok(());
    };
    let Ok(l) = t.parse::<SymLayout>() else {
        return Ok(());
    };
    if let Ok(r) = ours.parse::<SymLayout>() {
        if r.to_string() != ours {
            return Err(format!("result {ours:?} prints back as {r}"));
        }
    }
    for env in &ENVS {
        let Ok(a) = l.subs(env) else { continue };
        if a.size() > CHECK_RESULT_SIZE {
            continue;
        }
        match op {
            "coalesce" | "coalesce_z" => {
                let r: SymLayout = ours
                    .parse()
                    .map_err(|e| format!("{op} {t} = {ours:?} does not parse: {e}"))?;
                let Ok(r) = r.subs(env) else {
                    return Err(format!(
                        "{op} {t} = {ours}: the result does not substitute at {env:?} where L does"
                    ));
                };
                if op == "coalesce" && r.size() != a.size() {
                    return Err(format!(
                        "{op} {t} = {ours}: size {} != {} at {env:?}",
                        r.size(),
                        a.size()
                    ));
                }
                same_values(a.size(), |i| a.index_any(i).ok(), |i| r.index_any(i).ok())
                    .map_err(|e| format!("{op} {t} = {ours} at {env:?}: {e}"))?;
            }
            "size" => {
                let r: Sym = ours
                    .parse()
                    .map_err(|e| format!("size {t} = {ours:?} does not parse: {e}"))?;
                if r.eval(env).ok() != Some(a.size()) {
                    return Err(format!(
                        "size {t} = {ours}: {:?} != {} at {env:?}",
                        r.eval(env),
                        a.size()
                    ));
                }
            }
            _ => return Ok(()),
        }
    }
    Ok(())
}

/// A symbolic answer `ours` of `op` against the integer operation at every substitution of
/// [`ENVS`].
fn check_symbolic_against_integers(op: &str, texts: &[String], ours: &str) -> Result<(), String> {
    let Ok(r) = ours.parse::<SymLayout>() else {
        return Ok(()); // a refusal, or an integer answer of an integer request
    };
    if r.to_string() != ours {
        return Err(format!("result {ours:?} prints back as {r}"));
    }
    for env in &ENVS {
        let Some(want) = integer_op(op, texts, env) else {
            continue;
        };
        let Ok(got) = r.subs(env) else {
            return Err(format!(
                "{op} {texts:?} = {ours}: the result does not substitute at {env:?} where the arguments do"
            ));
        };
        match want {
            Ok(w) if w.size() <= CHECK_RESULT_SIZE => {
                if got.size() != w.size() {
                    return Err(format!(
                        "{op} {texts:?} = {ours}: size {} at {env:?}, the integer answer {w} has {}",
                        got.size(),
                        w.size()
                    ));
                }
                same_values(w.size(), |i| w.index_any(i).ok(), |i| got.index_any(i).ok()).map_err(
                    |e| format!("{op} {texts:?} = {ours} at {env:?} (integer {w}): {e}"),
                )?;
            }
            Ok(_) => {}
            Err(e) => {
                return Err(format!(
                    "{op} {texts:?} = {ours}, but at {env:?} the integer operation refuses: {e}"
                ))
            }
        }
    }
    Ok(())
}

/// The largest `n` with every `i < n` a value of `l` (no right inverse is larger).
fn prefix_bound(l: &Layout<F2>) -> Option<i64> {
    let mut seen = (0..l.size())
        .map(|i| l.index_any(i).ok())
        .collect::<Option<Vec<i64>>>()?;
    seen.sort_unstable();
    seen.dedup();
    Some(seen.iter().zip(0..).take_while(|(v, k)| **v == *k).count() as i64)
}

/// F2 layouts: the result prints back; `coalesce` and `coalesce_z` keep the function (and
/// `coalesce` the size); `right_inverse`: `L(R(i)) == i` for `i < size(R)`.
fn check_f2(op: &str, texts: &[String], ours: &str) -> Result<(), String> {
    let parsed = ours.parse::<Layout<F2>>();
    if let Ok(r) = &parsed {
        if r.to_string() != ours {
            return Err(format!("result {ours:?} prints back as {r}"));
        }
    }
    let (Some(t), 1) = (texts.first(), texts.len()) else {
        return Ok(());
    };
    let Ok(l) = t.parse::<Layout<F2>>() else {
        return Ok(()); // F2 basis strides: not judged here
    };
    if !matches!(op, "coalesce" | "coalesce_z" | "right_inverse") || l.size() > CHECK_RESULT_SIZE {
        return Ok(());
    }
    let r = parsed.map_err(|e| format!("{op} {t} = {ours:?} does not parse: {e}"))?;
    match op {
        "right_inverse" => {
            for i in 0..r.size() {
                let back = r.index_any(i).ok().and_then(|x| l.index_any(x).ok());
                if back != Some(i) {
                    return Err(format!("right_inverse {t} = {ours}: L(R({i})) = {back:?}"));
                }
            }
            // with power-of-two extents, the largest: every value below the bound has a
            // preimage, and R reaches the bound
            if l.is_f2_linear() {
                if let Some(bound) = prefix_bound(&l) {
                    if r.size() != bound {
                        return Err(format!(
                            "right_inverse {t} = {ours}: size {}, but every i < {bound} is a value of L",
                            r.size()
                        ));
                    }
                }
            }
            Ok(())
        }
        _ => {
            if op == "coalesce" && r.size() != l.size() {
                return Err(format!(
                    "{op} {t} = {ours}: size {} != {}",
                    r.size(),
                    l.size()
                ));
            }
            same_values(l.size(), |i| l.index_any(i).ok(), |i| r.index_any(i).ok())
                .map_err(|e| format!("{op} {t} = {ours}: {e}"))
        }
    }
}

/// Pointer and zip tensors: a tensor result prints back; `slice` at a coordinate without `_`
/// holds the value `tensor_value` gives at that coordinate; `unzip_tensor(make_zip_tensor(T...),
/// k) == T_k`.
fn check_pointer_tensor(op: &str, texts: &[String], ours: &str) -> Result<(), String> {
    // A tensor (not a bare pointer) prints back as itself; `unzip_tensor` without an index
    // answers one tensor a line.
    let lines: Vec<&str> = if op == "unzip_tensor" {
        ours.lines().collect()
    } else if ours.contains('\n') || op.starts_with("print") {
        Vec::new() // print_tensor (a header line and the values) and other listings
    } else {
        vec![ours]
    };
    for line in lines {
        if is_pointer_or_zip(line) && line.contains(" o ") {
            let r = line
                .parse::<LayoutTensor>()
                .map_err(|e| format!("{op}{texts:?} = {ours:?} does not parse: {e}"))?;
            if r.to_string() != line {
                return Err(format!("result {line:?} prints back as {r}"));
            }
        }
    }
    let result = (is_pointer_or_zip(ours)
        && ours.contains(" o ")
        && !ours.contains('\n')
        && !op.starts_with("print"))
    .then(|| ours.parse::<LayoutTensor>());
    match op {
        "slice" if texts.len() == 2 && !texts[0].contains('_') && is_pointer_or_zip(&texts[1]) => {
            let (Ok(t), Ok(c)) = (
                texts[1].parse::<LayoutTensor>(),
                texts[0].parse::<IntTuple>(),
            ) else {
                return Ok(());
            };
            let Some(Ok(r)) = result else {
                return Ok(()); // a slice that answers something other than a pointer tensor
            };
            let Ok(want) = t.value(&c) else {
                return Ok(());
            };
            let got = r
                .values(1)
                .map_err(|e| format!("slice {texts:?} = {ours}: {e}"))?;
            if got.first().map(ToString::to_string) != Some(want.to_string()) {
                return Err(format!(
                    "slice {texts:?} = {ours}: value {got:?} != tensor({}) = {want}",
                    texts[0]
                ));
            }
            Ok(())
        }
        "make_zip_tensor" => {
            for (k, t) in texts.iter().enumerate() {
                let Ok(tk) = t.parse::<LayoutTensor>() else {
                    return Ok(());
                };
                let back = crate::ops::run_op(
                    "unzip_tensor",
                    &[Arg::Text(ours.to_string()), Arg::Int(k as i64)],
                )
                .map_err(|e| format!("unzip_tensor({ours}, {k}): {}", e.message))?;
                if back != tk.to_string() {
                    return Err(format!("unzip_tensor({ours}, {k}) = {back}, expected {tk}"));
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// A counting tensor `counting_iter(B) o L` as the first argument of an operation that answers
/// `counting_iter(B) o R` (the divides): the operation's law on the layouts `L` and `R`. Other
/// tensor calls (coordinate tensors, slices that move the base, tiles) are not judged here; the
/// library's own law tests cover them.
fn check_tensor_result(op: &str, texts: &[String], ours: &str) -> Result<(), String> {
    let counting = |t: &str| {
        t.starts_with("counting_iter(")
            .then(|| t.split_once(" o "))
            .flatten()
            .map(|(p, l)| (p.to_string(), l.to_string()))
    };
    match (texts.first().and_then(|t| counting(t)), counting(ours)) {
        (Some((p0, l0)), Some((pr, lr)))
            if op.ends_with("_divide") && p0 == pr && !texts[1..].iter().any(|t| is_tensor(t)) =>
        {
            let mut args: Vec<Arg> = texts.iter().cloned().map(Arg::Text).collect();
            args[0] = Arg::Text(l0);
            check_result(op, &args, &lr)
        }
        _ => Ok(()),
    }
}

fn is_layout(s: &str) -> bool {
    s.contains(':')
}

/// The size of `s` read as a layout or tuple, if it parses; `i64::MAX` for a tuple whose size
/// leaves `i64` (too large to judge: the checkers multiply in plain `i64`).
fn size_of(s: &str) -> Option<i64> {
    if let Ok(l) = s.parse::<Layout>() {
        return Some(l.size());
    }
    s.parse::<IntTuple>()
        .ok()
        .map(|t| t.size().unwrap_or(i64::MAX))
}

/// The tuple algorithms apply an operation to each element: their results may be tuples that
/// hold layouts (`(11,(2,6):(1,2))`), which are not layouts.
const TUPLE_ALGORITHMS: &[&str] = &[
    "transform",
    "fold",
    "iscan",
    "escan",
    "repeat",
    "repeat_like",
    "wrap",
    "unwrap",
    "reverse",
    "front",
    "back",
    "tuple_find",
    "any_of",
    "all_of",
    "none_of",
    "find_if",
];

/// Judges the successful result `ours` of `run_op(op, args)`:
///
/// * every layout result prints back to itself (`parse(print(x)) == x`);
/// * where the conformance suite has a law for the operation and the domain is small enough to
///   enumerate, the result obeys it.
///
/// `Err` is a finding.
pub fn check_result(op: &str, args: &[Arg], ours: &str) -> Result<(), String> {
    // Results that are layouts print back as themselves (`image` may put an offset before its layout).
    // (`image` prints strided intervals, `slice_and_offset` and `domain_offset` a pair
    // `(layout,offset)`, and the listings of atoms prose that may hold a ':'.)
    if op != "image"
        && !TUPLE_ALGORITHMS.contains(&op)
        && op != "slice_and_offset"
        && op != "domain_offset"
        && ours.starts_with(|c: char| c == '(' || c == '-' || c.is_ascii_digit())
        && ours.contains(':')
        && !ours.contains(" o ")
        && !ours.contains('@')
        && !ours.contains('\n')
        && !is_f2_text(ours)
        && !has_symbol(ours)
    {
        let l: Layout = ours
            .parse()
            .map_err(|e| format!("result {ours:?} does not parse: {e}"))?;
        if l.to_string() != ours {
            return Err(format!("result {ours:?} prints back as {l}"));
        }
    }
    let Some(texts) = args.iter().map(text).collect::<Option<Vec<String>>>() else {
        return Ok(());
    };
    // The stride kinds and tensors the conformance checkers do not read: their own checks.
    if texts.iter().any(|t| is_pointer_or_zip(t)) || is_pointer_or_zip(ours) {
        return check_pointer_tensor(op, &texts, ours);
    }
    if texts.iter().any(|t| is_f2_text(t)) || is_f2_text(ours) {
        return check_f2(op, &texts, ours);
    }
    if texts.iter().any(|t| has_symbol(t)) || has_symbol(ours) {
        return check_symbolic(op, &texts, ours);
    }
    if texts
        .iter()
        .any(|t| (t.contains('+') || t.contains('@')) && !is_tensor(t))
    {
        return Ok(()); // basis and basis-sum strides: the library's own law tests judge them
    }
    if texts.iter().any(|t| is_tensor(t)) {
        return check_tensor_result(op, &texts, ours);
    }
    if op == "composition" && texts.len() == 2 && texts.iter().any(|t| t.contains(" o ")) {
        return check_composed_composition(&texts, ours);
    }
    if matches!(op, "right_inverse" | "left_inverse")
        && texts.len() == 1
        && texts[0].contains(" o ")
    {
        return check_chain_inverse(op == "right_inverse", &texts[0], ours);
    }
    if texts.iter().any(|t| t.contains(" o ")) {
        // Other operations on composed layouts: the conformance checkers read plain layouts.
        return Ok(());
    }
    if texts
        .iter()
        .any(|t| !ints_small(t, CHECK_INT) || t.contains('<'))
    {
        return Ok(());
    }
    if texts
        .iter()
        .any(|t| size_of(t).is_some_and(|s| s > CHECK_ARG_SIZE))
    {
        return Ok(());
    }
    if !ints_small(ours, 1 << 20) || size_of(ours).is_some_and(|s| s > CHECK_RESULT_SIZE) {
        return Ok(());
    }
    let n = texts.len();
    let lay0 = n >= 1 && is_layout(&texts[0]);
    let lay1 = n >= 2 && is_layout(&texts[1]);
    let mut variant = Value::Null;
    let case_op = match op {
        "make_layout" if n == 2 && matches!(texts[1].trim(), "LayoutLeft" | "LayoutRight") => {
            "make_layout"
        }
        // With negative strides `cosize` is CuTe 4.x's `1 + sum (s-1)|d|`, not the checker's
        // "one past the largest offset".
        "cosize" if lay0 && texts[0].contains('-') => return Ok(()),
        "size" | "cosize" | "rank" | "depth" | "flatten" if lay0 => op,
        "crd2idx" if n == 2 && lay1 => op,
        "idx2crd" if n == 2 && texts[0].trim().parse::<i64>().is_ok() => {
            if lay1 {
                variant = json!("layout");
            }
            op
        }
        "coalesce" if lay0 => {
            if n == 2 {
                "coalesce_by_mode"
            } else {
                op
            }
        }
        "complement" if lay0 => {
            if n == 2 {
                op
            } else {
                "complement_nocotarget"
            }
        }
        "composition" if lay0 && n == 2 => {
            if texts[1].parse::<Layout>().is_ok() {
                "composition"
            } else {
                "composition_tiler"
            }
        }
        // `filter L PROFILE` filters at the terminals of PROFILE; the checker knows `filter L`.
        "filter" if lay0 && n == 1 => op,
        "right_inverse" | "left_inverse" | "nullspace" if lay0 => op,
        "max_common_vector" | "max_common_layout" if lay0 && lay1 => op,
        "upcast" | "downcast" if lay1 => op,
        "logical_divide" | "zipped_divide" | "tiled_divide" | "flat_divide" | "logical_product"
        | "zipped_product" | "tiled_product" | "blocked_product" | "raked_product"
            if lay0 =>
        {
            op
        }
        "weakly_congruent" | "compatible" | "evenly_divides" if !lay0 && !lay1 => op,
        "table" if lay0 => return check_table(&texts, ours),
        "with_shape" if lay0 && !lay1 && n == 2 => return check_with_shape(&texts, ours),
        _ => return Ok(()),
    };
    let case = json!({"op": case_op, "args": texts, "variant": variant});
    match conformance::judge(&case, ours) {
        Ok(()) => Ok(()),
        // The checker cannot judge this case (a domain too large to enumerate, a tiler shape it
        // has no reference for): not a finding.
        Err(e) if e.contains("too many to check") || e.contains("`_` tiler") => Ok(()),
        Err(e) if e.contains("is not a layout or integer") || e.contains("no mode") => Ok(()),
        Err(e) if e.contains("is not a tiler") || e.contains("is not an int tuple") => Ok(()),
        Err(e) => Err(format!("{op}{texts:?} = {ours}: {e}")),
    }
}

/// `table L [N]`: the values of the 1-D function, `N` of them (past the end the last mode runs
/// on) or the whole domain.
fn check_table(texts: &[String], ours: &str) -> Result<(), String> {
    let l: Layout = texts[0].parse().map_err(|e| format!("{e}"))?;
    let n = match texts.get(1) {
        Some(t) => t.trim().parse::<i64>().map_err(|e| format!("{e}"))?,
        None => l.size(),
    };
    let want: Vec<String> = (0..n)
        .map(|i| {
            l.index_any(i)
                .map(|v| v.to_string())
                .map_err(|e| e.to_string())
        })
        .collect::<Result<_, _>>()?;
    if want.join(",") != ours {
        return Err(format!(
            "table {texts:?} = {ours:?}, expected {:?}",
            want.join(",")
        ));
    }
    Ok(())
}

/// `with_shape A S`: `R(i) = A(i)` for `i < size(S)`, and R has shape S.
fn check_with_shape(texts: &[String], ours: &str) -> Result<(), String> {
    let a: Layout = texts[0].parse().map_err(|e| format!("{e}"))?;
    let s: IntTuple = texts[1].parse().map_err(|e| format!("{e}"))?;
    let r: Layout = ours.parse().map_err(|e| format!("{e}"))?;
    if r.size() != s.size().map_err(|e| e.to_string())? || !s.compatible(&r.shape()) {
        return Err(format!(
            "with_shape {texts:?} = {ours}: shape does not refine {s}"
        ));
    }
    for i in 0..r.size() {
        let want = a.index_any(i).map_err(|e| e.to_string())?;
        if r.index_1d(i) != Some(want) {
            return Err(format!(
                "with_shape {texts:?} = {ours}: R({i}) != A({i}) = {want}"
            ));
        }
    }
    Ok(())
}

/// `composition A B` with a composed layout among the operands: `R(i) == A(B(i))` at every
/// point of B's domain, evaluated with the operands' own `crd2idx` (the last mode running on
/// past the end, truncating division for negative offsets), and R's shape refines B's. R may
/// be a general composed layout (a chain with layouts as outer functions).
fn check_composed_composition(texts: &[String], ours: &str) -> Result<(), String> {
    use cute_layout::LayoutChain;
    let eval = |c: &LayoutChain, x: i64| c.post(c.layout().index_any(x).ok()?).ok();
    let (Ok(a), Ok(b)) = (
        texts[0].parse::<LayoutChain>(),
        texts[1].parse::<LayoutChain>(),
    ) else {
        return Ok(()); // a bare swizzle or a tiler: not judged here
    };
    if b.size() > CHECK_RESULT_SIZE {
        return Ok(());
    }
    let r: LayoutChain = ours
        .parse()
        .map_err(|e| format!("composition {texts:?} = {ours:?} does not parse: {e}"))?;
    if r.to_string() != ours {
        return Err(format!("result {ours:?} prints back as {r}"));
    }
    if r.size() != b.size() || !b.shape().compatible(&r.shape()) {
        return Err(format!(
            "composition {texts:?} = {ours}: shape does not refine {}",
            b.shape()
        ));
    }
    for i in 0..b.size() {
        let Some(want) = eval(&b, i).and_then(|x| eval(&a, x)) else {
            return Ok(()); // past i64 at an intermediate step: not judged
        };
        if eval(&r, i) != Some(want) {
            return Err(format!(
                "composition {texts:?} = {ours}: R({i}) = {:?} != A(B({i})) = {want}",
                eval(&r, i)
            ));
        }
    }
    Ok(())
}

/// A composed layout's value at `x` (its inner layout's last mode running on); `None` past i64.
fn chain_at(c: &cute_layout::LayoutChain, x: i64) -> Option<i64> {
    c.post(c.layout().index_any(x).ok()?).ok()
}

/// Whether `r` is a right inverse (`C(R(i)) == i` for `i < size(R)`) or a left inverse
/// (`C(R(C(i))) == C(i)`, and `R(C(i)) == i` if `C` is injective) of `c`; `None` where the
/// domain is too large to enumerate or a value leaves i64.
fn chain_inverse_law(
    right: bool,
    c: &cute_layout::LayoutChain,
    r: &cute_layout::LayoutChain,
) -> Option<Result<(), String>> {
    if c.size() > CHECK_RESULT_SIZE || r.size() > CHECK_RESULT_SIZE {
        return None;
    }
    if right {
        for i in 0..r.size() {
            let v = chain_at(c, chain_at(r, i)?)?;
            if v != i {
                return Some(Err(format!("C(R({i})) = {v}")));
            }
        }
        return Some(Ok(()));
    }
    let vals: Vec<i64> = (0..c.size())
        .map(|i| chain_at(c, i))
        .collect::<Option<_>>()?;
    let mut sorted = vals.clone();
    sorted.sort_unstable();
    sorted.dedup();
    let injective = sorted.len() == vals.len();
    for (i, &y) in (0i64..).zip(&vals) {
        let x = chain_at(r, y)?;
        if injective && x != i {
            return Some(Err(format!("R(C({i})) = {x}")));
        }
        let back = chain_at(c, x)?;
        if back != y {
            return Some(Err(format!("C(R(C({i}))) = {back}, not {y}")));
        }
    }
    Some(Ok(()))
}

/// `right_inverse C` / `left_inverse C` of a composed layout: the answer obeys the inverse's law.
fn check_chain_inverse(right: bool, c: &str, ours: &str) -> Result<(), String> {
    use cute_layout::LayoutChain;
    let op = if right {
        "right_inverse"
    } else {
        "left_inverse"
    };
    let Ok(ch) = c.parse::<LayoutChain>() else {
        return Ok(());
    };
    let r: LayoutChain = ours
        .parse()
        .map_err(|e| format!("{op} {c} = {ours:?} does not parse: {e}"))?;
    match chain_inverse_law(right, &ch, &r) {
        Some(Err(e)) => Err(format!("{op} {c} = {ours}: {e}")),
        _ => Ok(()),
    }
}

/// CuTe's construction of an inverse of a composed layout, every swizzle kept as a layer:
/// `inv(L) o -ok o inv(Ak) o ... o -o0 o inv(A0)`; `None` where its innermost function is a
/// swizzle (no domain) or a layout's inverse refuses.
fn cute_chain_inverse(
    right: bool,
    c: &cute_layout::LayoutChain,
) -> Option<cute_layout::LayoutChain> {
    use cute_layout::{LayoutChain, OuterFn};
    let inv = |l: &Layout| {
        if right {
            Some(l.right_inverse())
        } else {
            l.left_inverse().ok()
        }
    };
    let mut layers = Vec::new();
    let mut inner = OuterFn::Layout(inv(c.layout())?);
    for (f, off) in c.layers().iter().rev() {
        let next = match f {
            OuterFn::Layout(a) => OuterFn::Layout(inv(a)?),
            OuterFn::Swizzle(sw) => OuterFn::Swizzle(*sw),
        };
        layers.push((std::mem::replace(&mut inner, next), off.checked_neg()?));
    }
    match inner {
        OuterFn::Layout(l) => Some(LayoutChain::from_layers(layers, l)),
        OuterFn::Swizzle(_) => None,
    }
}

/// Judges a refusal (`kind`) of `run_op(op, args)`: `Err` where a lawful answer is known.
///
/// * `composition A B` with `B` a composed layout (layers) and `A` a layout or composed
///   layout: the chain `A o 0 o B` is always the function, so only an overflow or a domain too
///   large may refuse.
/// * `right_inverse C` / `left_inverse C` of a composed layout: where CuTe's construction
///   ([`cute_chain_inverse`]) obeys the law, no refusal.
pub fn check_refusal(op: &str, args: &[Arg], kind: &str) -> Result<(), String> {
    use cute_layout::LayoutChain;
    if matches!(kind, "Overflow" | "TooLarge") {
        return Ok(());
    }
    let Some(texts) = args.iter().map(text).collect::<Option<Vec<String>>>() else {
        return Ok(());
    };
    let plain = |t: &str| {
        !is_tensor(t)
            && !is_pointer_or_zip(t)
            && !is_f2_text(t)
            && !has_symbol(t)
            && !t.contains('@')
            && !t.contains('+')
    };
    if !texts.iter().all(|t| plain(t)) {
        return Ok(());
    }
    match op {
        "composition" if texts.len() == 2 && texts[1].contains(" o ") => {
            let (Ok(_), Ok(b)) = (
                texts[0].parse::<LayoutChain>(),
                texts[1].parse::<LayoutChain>(),
            ) else {
                return Ok(());
            };
            if b.layers().is_empty() {
                return Ok(());
            }
            Err(format!(
                "composition {texts:?} refused ({kind}); the chain {} o 0 o {} is the function",
                texts[0], texts[1]
            ))
        }
        "right_inverse" | "left_inverse" if texts.len() == 1 && texts[0].contains(" o ") => {
            let right = op == "right_inverse";
            let Ok(c) = texts[0].parse::<LayoutChain>() else {
                return Ok(());
            };
            match cute_chain_inverse(right, &c) {
                Some(r) if chain_inverse_law(right, &c, &r) == Some(Ok(())) => Err(format!(
                    "{op} {} refused ({kind}); CuTe's {r} obeys the law",
                    texts[0]
                )),
                _ => Ok(()),
            }
        }
        _ => Ok(()),
    }
}
