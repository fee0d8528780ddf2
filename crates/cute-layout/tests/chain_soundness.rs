//! Composition and inverses of general composed layouts ([`LayoutChain`], layouts as outer
//! functions, offsets of either sign, swizzles), judged by an evaluator written here from the
//! text form alone (CuTe's 1-D `crd2idx`: every mode but the last taken modulo its extent with
//! truncating division, the last running on; `Sw<B,M,S>(x) = x ^ shiftr(x & yyy, S)`).
//!
//! * The reproducers of issue 34 with their exact answers.
//! * A seeded random differential test: `layout ∘ chain`, `chain ∘ layout`, `chain ∘ chain`
//!   equal `A(B(i))` at every point of the domain; CuTe's fold is the answer wherever it is
//!   that function; the inverses obey their laws; and no refusal where CuTe's construction
//!   (`inv(L) o -ok o inv(Ak) o ... o -o0 o inv(A0)`) obeys the law. `CHAIN_CASES` (default
//!   1500) sets the number of cases, `CHAIN_SEED` the seed.

use cute_layout::{Layout, LayoutChain, LayoutError, OuterFn, Swizzle, Tiler};

fn chain(s: &str) -> LayoutChain {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn lay(s: &str) -> Layout {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

// ------------------------------------------------------------------------------------------
// The evaluator: text in, values out, sharing no code with the library.
// ------------------------------------------------------------------------------------------

/// One function of a chain's text: a flat layout `[(extent, stride)]` or a swizzle `(B, M, S)`.
#[derive(Clone, Debug)]
enum Part {
    Layout(Vec<(i64, i64)>),
    Swizzle(i64, i64, i64),
}

/// The integers of `s` in order (signs kept).
fn ints(s: &str) -> Vec<i64> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for ch in s.chars().chain(core::iter::once(' ')) {
        if ch.is_ascii_digit() || (ch == '-' && cur.is_empty()) {
            cur.push(ch);
        } else if !cur.is_empty() {
            out.push(cur.parse().unwrap());
            cur.clear();
        }
    }
    out
}

fn parse_part(s: &str) -> Part {
    let s = s.trim();
    if let Some(rest) = s.strip_prefix("Sw<") {
        let v = ints(rest);
        return Part::Swizzle(v[0], v[1], v[2]);
    }
    let (shape, stride) = s
        .split_once(':')
        .unwrap_or_else(|| panic!("not a layout: {s}"));
    let (shape, stride) = (ints(shape), ints(stride));
    assert_eq!(shape.len(), stride.len(), "{s}");
    Part::Layout(shape.into_iter().zip(stride).collect())
}

/// A chain's text as its layers (outermost first) and inner layout.
fn parse_chain(s: &str) -> Func {
    let items: Vec<&str> = s.split(" o ").collect();
    let mut layers = Vec::new();
    for k in (0..items.len() - 1).step_by(2) {
        layers.push((parse_part(items[k]), items[k + 1].trim().parse().unwrap()));
    }
    let Part::Layout(l) = parse_part(items[items.len() - 1]) else {
        panic!("{s}: the innermost function is not a layout");
    };
    Func { layers, layout: l }
}

fn eval_layout(l: &[(i64, i64)], x: i64) -> Option<i64> {
    let mut x = x;
    let mut acc = 0i64;
    for (k, &(s, d)) in l.iter().enumerate() {
        let c = if k + 1 == l.len() {
            x
        } else {
            let c = x % s;
            x /= s;
            c
        };
        acc = acc.checked_add(c.checked_mul(d)?)?;
    }
    Some(acc)
}

fn eval_swizzle((b, m, s): (i64, i64, i64), x: i64) -> i64 {
    let yyy = ((1i64 << b) - 1) << (m + s.max(0));
    let y = x & yyy;
    if s >= 0 {
        x ^ (y >> s)
    } else {
        x ^ (y << -s)
    }
}

/// A chain as a function of the integers (its inner layout's last mode runs on).
#[derive(Clone, Debug)]
struct Func {
    layers: Vec<(Part, i64)>,
    layout: Vec<(i64, i64)>,
}

impl Func {
    fn of(text: &str) -> Func {
        parse_chain(text)
    }

    fn size(&self) -> i64 {
        self.layout.iter().map(|m| m.0).product()
    }

    fn at(&self, i: i64) -> Option<i64> {
        let mut v = eval_layout(&self.layout, i)?;
        for (f, off) in self.layers.iter().rev() {
            let x = v.checked_add(*off)?;
            v = match f {
                Part::Layout(l) => eval_layout(l, x)?,
                Part::Swizzle(b, m, s) => eval_swizzle((*b, *m, *s), x),
            };
        }
        Some(v)
    }

    fn values(&self) -> Option<Vec<i64>> {
        (0..self.size()).map(|i| self.at(i)).collect()
    }
}

// ------------------------------------------------------------------------------------------
// The reproducers
// ------------------------------------------------------------------------------------------

/// Issue 34: CuTe's `L ∘ (F o 0 o B) = (L ∘ F) ∘ B` is wrong once B's image leaves F's
/// domain (`4:1` runs on, `(4,4):(1,16) ∘ 4:1 = 4:1` does not); the answer is `L(F(B(i)))`.
#[test]
fn layout_of_chain_past_the_outer_domain() {
    let cases = [
        ("(4,4):(1,16)", "4:1 o 0 o 8:1", "(4,2):(1,16)"),
        ("(2,2):(1,4)", "2:1 o 0 o 4:1", "(2,2):(1,4)"),
    ];
    for (a, b, want) in cases {
        let r = lay(a).compose_chain(&chain(b)).unwrap();
        assert_eq!(r.to_string(), want, "{a} o {b}");
        let truth = Func::of(&format!("{a} o 0 o {b}")).values().unwrap();
        assert_eq!(Func::of(want).values().unwrap(), truth);
    }
    assert_eq!(
        Func::of("(4,4):(1,16) o 0 o 4:1 o 0 o 8:1")
            .values()
            .unwrap(),
        [0, 1, 2, 3, 16, 17, 18, 19]
    );
    // CuTe's fold where the image stays inside: 4:2 reaches 0..6 of 8:1.
    assert_eq!(
        lay("(4,4):(1,16)")
            .compose_chain(&chain("8:1 o 0 o 4:2"))
            .unwrap()
            .to_string(),
        "(2,2):(2,16)"
    );
    // A chain on the left recurses into its inner layout (CuTe), with the same care.
    assert_eq!(
        chain("32:2 o 3 o (4,4):(1,16)")
            .compose_chain(&chain("4:1 o 0 o 8:1"))
            .unwrap()
            .to_string(),
        "32:2 o 3 o (4,2):(1,16)"
    );
    // An offset: CuTe has no fold ("Require offset == 0"); the chain is the answer.
    assert_eq!(
        lay("(4,4):(1,16)")
            .compose_chain(&chain("4:1 o 2 o 8:1"))
            .unwrap()
            .to_string(),
        "(4,4):(1,16) o 0 o 4:1 o 2 o 8:1"
    );
    // A swizzle that does not move through the folded layout: the chain.
    assert_eq!(
        lay("(4,4):(4,1)")
            .compose_chain(&chain("(4,4):(4,1) o 0 o Sw<3,0,3> o 0 o (8,8):(8,1)"))
            .unwrap()
            .to_string(),
        "(4,4):(4,1) o 0 o (4,4):(4,1) o 0 o Sw<3,0,3> o 0 o (8,8):(8,1)"
    );
}

/// Issue 34: the inverses of `L o OFF o Sw o OFF2 o B` with `OFF2 != 0` are CuTe's (the outer
/// layout's inverse gives the answer a domain), not refused.
#[test]
fn inverses_over_a_swizzle_with_an_offset() {
    let c = chain("10:1 o 0 o Sw<2,0,2> o 2 o (12,4):(4,1)");
    let r = c.right_inverse().unwrap();
    assert_eq!(r.to_string(), "(4,12):(12,1) o -2 o Sw<2,0,2> o 0 o 10:1");
    let (cf, rf) = (Func::of(&c.to_string()), Func::of(&r.to_string()));
    assert!((0..10).all(|i| cf.at(rf.at(i).unwrap()) == Some(i)));

    let c = chain("12:1 o -4 o Sw<2,2,-2> o 8 o (4):(1)");
    let r = c.left_inverse().unwrap();
    assert_eq!(r.to_string(), "4:1 o -8 o Sw<2,2,-2> o 4 o 12:1");
    let (cf, rf) = (Func::of(&c.to_string()), Func::of(&r.to_string()));
    assert!((0..4).all(|i| rf.at(cf.at(i).unwrap()) == Some(i)));

    // Sw(2 + Sw(i) - 2) = i: lawful, so answered.
    let c = chain("8:1 o 0 o Sw<1,0,1> o 2 o 8:1");
    assert_eq!(
        c.right_inverse().unwrap().to_string(),
        "8:1 o -2 o Sw<1,0,1> o 0 o 8:1"
    );
    // A swizzle outermost with an offset: the answer would end in a swizzle (no domain).
    let e = chain("Sw<1,0,1> o 2 o 8:1 o 0 o 8:1")
        .right_inverse()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "right_inverse: CuTe's right_inverse of Sw<1,0,1> o 2 o 8:1 o 0 o 8:1 is a composed \
         layout over the swizzle Sw<1,0,1> (its outermost function, inverted), which has no \
         domain"
    );
    // CuTe's construction breaks the law: refused, naming the point.
    let e = chain("8:1 o 0 o (2,2):(1,4)").right_inverse().unwrap_err();
    assert_eq!(
        e.to_string(),
        "right_inverse: CuTe's right_inverse of 8:1 o 0 o (2,2):(1,4) is 2:1 o 0 o 8:1, \
         which breaks the law at i = 2: C(R(i)) = 4, not 2"
    );
}

// ------------------------------------------------------------------------------------------
// The random differential test
// ------------------------------------------------------------------------------------------

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
}

fn layout_text(modes: &[(i64, i64)]) -> String {
    let s: Vec<String> = modes.iter().map(|m| m.0.to_string()).collect();
    let d: Vec<String> = modes.iter().map(|m| m.1.to_string()).collect();
    if modes.len() == 1 {
        format!("{}:{}", s[0], d[0])
    } else {
        format!("({}):({})", s.join(","), d.join(","))
    }
}

/// A flat layout: a compact one in a random mode order (often injective), or random extents
/// and strides (zero and negative ones among them).
fn gen_layout(g: &mut Rng, max_rank: u64, max_size: i64) -> String {
    let rank = 1 + g.below(max_rank) as usize;
    let mut modes: Vec<(i64, i64)> = Vec::new();
    let mut size = 1i64;
    for _ in 0..rank {
        let e = g.pick(&[1, 2, 2, 2, 3, 4, 4, 5, 6, 8]);
        if size * e > max_size {
            break;
        }
        size *= e;
        modes.push((e, 0));
    }
    if modes.is_empty() {
        modes.push((g.range(1, 4), 0));
    }
    if g.below(2) == 0 {
        // Compact, strides in a random order, sometimes negated or scaled.
        let mut order: Vec<usize> = (0..modes.len()).collect();
        for k in (1..order.len()).rev() {
            order.swap(k, g.below(k as u64 + 1) as usize);
        }
        let scale = g.pick(&[1, 1, 1, 2, -1]);
        let mut acc = 1i64;
        for &k in &order {
            modes[k].1 = acc * scale;
            acc *= modes[k].0;
        }
    } else {
        for m in &mut modes {
            m.1 = g.pick(&[0, 1, 1, 2, 3, 4, 8, 16, -1, -2, -4, 5, 12]);
        }
    }
    layout_text(&modes)
}

fn gen_swizzle(g: &mut Rng) -> String {
    let b = g.range(1, 2);
    let m = g.range(0, 2);
    let s = g.range(b, 3) * if g.below(3) == 0 { -1 } else { 1 };
    format!("Sw<{b},{m},{s}>")
}

fn gen_offset(g: &mut Rng) -> i64 {
    match g.below(4) {
        0 | 1 => 0,
        2 => g.range(1, 8),
        _ => g.range(-8, -1),
    }
}

/// A chain of 1 to 3 layers (at least one a layout) over a layout.
fn gen_chain(g: &mut Rng) -> String {
    let n = 1 + g.below(3);
    let mut s = String::new();
    let mut has_layout = false;
    for k in 0..n {
        let roll = g.below(3) == 0;
        let f = if roll && (has_layout || k + 1 != n) {
            gen_swizzle(g)
        } else {
            has_layout = true;
            gen_layout(g, 2, 32)
        };
        s += &format!("{f} o {} o ", gen_offset(g));
    }
    s + &gen_layout(g, 3, 64)
}

/// A chain like [`gen_chain`] whose offsets are all 0 and layers mostly layouts (CuTe's fold
/// applies).
fn gen_zero_chain(g: &mut Rng) -> String {
    let n = 1 + g.below(3);
    let mut s = String::new();
    for _ in 0..n {
        let f = if g.below(6) == 0 {
            gen_swizzle(g)
        } else {
            gen_layout(g, 2, 32)
        };
        s += &format!("{f} o 0 o ");
    }
    s + &gen_layout(g, 3, 64)
}

#[derive(Default, Debug)]
struct Tally {
    cases: usize,
    answered: usize,
    law_breaks: Vec<String>,
    false_refusals: Vec<String>,
    not_cutes: Vec<String>,
    refused_lawfully: usize,
    cute_folds: usize,
    /// `(answered, refused)` by kind of case.
    by_kind: std::collections::BTreeMap<&'static str, (usize, usize)>,
}

impl Tally {
    fn count(&mut self, kind: &'static str, answered: bool) {
        let e = self.by_kind.entry(kind).or_default();
        if answered {
            e.0 += 1;
        } else {
            e.1 += 1;
        }
    }
}

/// `r(i) == a(b(i))` on b's domain, and r's size is b's; `None` if an evaluation overflows.
fn composition_law(a: &Func, b: &Func, r: &Func) -> Option<bool> {
    if r.size() != b.size() {
        return Some(false);
    }
    for i in 0..b.size() {
        if r.at(i)? != a.at(b.at(i)?)? {
            return Some(false);
        }
    }
    Some(true)
}

/// CuTe's fold of `a ∘ b` for a layout `a` and a chain `b` with offsets 0 and layout layers:
/// `((a ∘ A0) ∘ A1) ∘ ... ∘ L`; `None` if there is a swizzle or an offset, or a step refuses.
fn cute_fold(a: &str, b: &LayoutChain) -> Option<Layout> {
    let mut cur = lay(a);
    for (f, off) in b.layers() {
        match (f, off) {
            (OuterFn::Layout(x), 0) => cur = cur.compose(x).ok()?,
            _ => return None,
        }
    }
    cur.compose(b.layout()).ok()
}

/// Judges `got = a ∘ b`. `cute_refuses`: CuTe's rule has no answer here (for `chain ∘
/// layout`, the inner layout's composition with `b` refuses), so a refusal is lawful.
fn check_composition(
    t: &mut Tally,
    kind: &'static str,
    a: &str,
    b: &str,
    got: Result<String, LayoutError>,
    cute_refuses: bool,
) {
    t.cases += 1;
    t.count(kind, got.is_ok());
    let (fa, fb) = (Func::of(a), Func::of(b));
    match got {
        Ok(r) => {
            t.answered += 1;
            match composition_law(&fa, &fb, &Func::of(&r)) {
                Some(true) | None => {}
                Some(false) => t.law_breaks.push(format!("{a} ∘ {b} = {r}")),
            }
            // Where CuTe's fold is the function, it is the answer.
            if !a.contains(" o ") {
                if let Some(c) = cute_fold(a, &chain(b)) {
                    let cf = Func::of(&c.to_string());
                    if composition_law(&fa, &fb, &cf) == Some(true) {
                        t.cute_folds += 1;
                        if c.to_string() != r {
                            t.not_cutes.push(format!("{a} ∘ {b} = {r}, CuTe {c}"));
                        }
                    }
                }
            }
        }
        Err(LayoutError::Overflow { .. }) => t.refused_lawfully += 1,
        Err(_) if cute_refuses => t.refused_lawfully += 1,
        // A chain is always an answer: any other refusal is false.
        Err(e) => t.false_refusals.push(format!("{a} ∘ {b}: {e}")),
    }
}

/// CuTe's construction of an inverse with every swizzle kept as a layer, as text; `None`
/// where its innermost function is a swizzle or an inverse of a layout refuses.
fn cute_inverse(c: &LayoutChain, right: bool) -> Option<String> {
    let inv = |l: &Layout| {
        if right {
            Some(l.right_inverse())
        } else {
            l.left_inverse().ok()
        }
    };
    let mut parts: Vec<String> = Vec::new();
    let mut inner = inv(c.layout())?.to_string();
    let mut inner_is_layout = true;
    for (f, off) in c.layers().iter().rev() {
        parts.push(format!("{inner} o {}", -off));
        (inner, inner_is_layout) = match f {
            OuterFn::Layout(a) => (inv(a)?.to_string(), true),
            OuterFn::Swizzle(sw) => (sw.to_string(), false),
        };
    }
    inner_is_layout.then(|| {
        parts.push(inner);
        parts.join(" o ")
    })
}

fn right_law(c: &Func, r: &Func) -> Option<bool> {
    for i in 0..r.size() {
        if c.at(r.at(i)?)? != i {
            return Some(false);
        }
    }
    Some(true)
}

fn left_law(c: &Func, r: &Func) -> Option<bool> {
    let vals = c.values()?;
    let mut sorted = vals.clone();
    sorted.sort_unstable();
    sorted.dedup();
    let injective = sorted.len() == vals.len();
    for (i, &y) in vals.iter().enumerate() {
        let x = r.at(y)?;
        if (injective && x != i as i64) || c.at(x)? != y {
            return Some(false);
        }
    }
    Some(true)
}

fn check_inverse(t: &mut Tally, c: &str, right: bool) {
    t.cases += 1;
    let ch = chain(c);
    let got = if right {
        ch.right_inverse()
    } else {
        ch.left_inverse()
    };
    let law = |r: &str| {
        let (cf, rf) = (Func::of(c), Func::of(r));
        if right {
            right_law(&cf, &rf)
        } else {
            left_law(&cf, &rf)
        }
    };
    let op = if right {
        "right_inverse"
    } else {
        "left_inverse"
    };
    t.count(op, got.is_ok());
    match got {
        Ok(r) => {
            t.answered += 1;
            if law(&r.to_string()) == Some(false) {
                t.law_breaks.push(format!("{op} {c} = {r}"));
            }
        }
        Err(e) => match cute_inverse(&ch, right) {
            Some(cute) if law(&cute) == Some(true) => t
                .false_refusals
                .push(format!("{op} {c}: {e}; CuTe's {cute} is lawful")),
            _ => t.refused_lawfully += 1,
        },
    }
}

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn random_chains_compose_and_invert_lawfully() {
    let cases = env_or("CHAIN_CASES", 1500);
    let seed = env_or("CHAIN_SEED", 34);
    let mut g = Rng(seed);
    let mut t = Tally::default();
    for _ in 0..cases {
        // layout ∘ chain, mostly with offsets 0 (CuTe's fold), sometimes any chain.
        let a = gen_layout(&mut g, 3, 64);
        let b = if g.below(4) == 0 {
            gen_chain(&mut g)
        } else {
            gen_zero_chain(&mut g)
        };
        let got = lay(&a).compose_chain(&chain(&b)).map(|r| r.to_string());
        check_composition(&mut t, "layout o chain", &a, &b, got, false);
        // chain ∘ layout (CuTe: the tiler composes the inner layout).
        let c = gen_chain(&mut g);
        let l = gen_layout(&mut g, 2, 32);
        let tiler = Tiler::Layout(lay(&l));
        let got = chain(&c).compose_tiler(&tiler).map(|r| r.to_string());
        let cute_refuses = chain(&c).layout().compose(&lay(&l)).is_err();
        check_composition(&mut t, "chain o layout", &c, &l, got, cute_refuses);
        // chain ∘ chain.
        let c1 = gen_chain(&mut g);
        let c2 = gen_zero_chain(&mut g);
        let got = chain(&c1).compose_chain(&chain(&c2)).map(|r| r.to_string());
        check_composition(&mut t, "chain o chain", &c1, &c2, got, false);
        // chain ∘ swizzle.
        let c = gen_chain(&mut g);
        let sw: Swizzle = gen_swizzle(&mut g).parse().unwrap();
        if let Ok(r) = chain(&c).compose_swizzle(&sw) {
            let (cf, rf) = (Func::of(&c), Func::of(&r.to_string()));
            let Some(Part::Swizzle(b, m, s)) = Some(parse_part(&sw.to_string())) else {
                unreachable!()
            };
            let ok = (0..rf.size()).all(|i| match cf.at(eval_swizzle((b, m, s), i)) {
                Some(want) => rf.at(i) == Some(want),
                None => true,
            });
            if !ok {
                t.law_breaks.push(format!("{c} ∘ {sw} = {r}"));
            }
        }
        // Inverses.
        let c = gen_chain(&mut g);
        check_inverse(&mut t, &c, true);
        check_inverse(&mut t, &c, false);
    }
    eprintln!(
        "seed {seed}: {} cases, {} answered, {} refused lawfully, {} CuTe folds; {} law breaks, \
         {} false refusals, {} not CuTe's",
        t.cases,
        t.answered,
        t.refused_lawfully,
        t.cute_folds,
        t.law_breaks.len(),
        t.false_refusals.len(),
        t.not_cutes.len()
    );
    eprintln!("(answered, refused) by kind: {:?}", t.by_kind);
    let show = |v: &[String]| v.iter().take(5).cloned().collect::<Vec<_>>().join("\n  ");
    assert!(
        t.law_breaks.is_empty(),
        "law breaks:\n  {}",
        show(&t.law_breaks)
    );
    assert!(
        t.false_refusals.is_empty(),
        "false refusals:\n  {}",
        show(&t.false_refusals)
    );
    assert!(
        t.not_cutes.is_empty(),
        "not CuTe's:\n  {}",
        show(&t.not_cutes)
    );
    // The generators reach every kind of answer.
    assert!(t.answered > t.cases / 2, "{t:?}");
    assert!(t.cute_folds > 0 && t.refused_lawfully > 0, "{t:?}");
}
