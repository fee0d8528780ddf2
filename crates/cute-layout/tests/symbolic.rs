//! Laws of the symbolic layouts (NVlabs PyCuTe's sympy layouts, `SymLayout`): every symbolic
//! answer is, at every substitution of positive integers for its symbols (1 included), the
//! integer operation's answer as a function (the same size and values), and a symbolic refusal
//! other than `Undecidable` is a refusal of the integer operation at every substitution.
//! Checked over a whole small domain (every flat rank-1 and rank-2 layout over small pools of
//! extents and strides, at every substitution of the symbols in 1..=4), on random nested
//! layouts, and by a seeded random differential test; every reproducer of issue 34 has its
//! exact text.

use cute_layout::{IntTuple, Layout, LayoutError, SymLayout, SymTuple};
use proptest::prelude::*;

const SHAPES: &[&str] = &["1", "2", "3", "4", "N", "M", "2*N"];
const STRIDES: &[&str] = &["0", "1", "2", "4", "N", "X", "2*X", "N*X", "4*N"];
const TILERS: &[&str] = &[
    "3:4",
    "2:1",
    "(2,3):(1,2)",
    "6:4",
    "4:1",
    "(2,2):(2,1)",
    "1:3",
    "4:0",
    "(2,2):(1,1)",
    "(N,2):(1,N)",
    "N:2",
];
const EXTENDS: &[&str] = &["8", "(2,N)", "(4,4)", "(N,M)"];

type Env = Vec<(String, i64)>;

fn envs(names: &[String], lo: i64, hi: i64) -> Vec<Env> {
    let mut out: Vec<Env> = vec![Vec::new()];
    for n in names {
        out = out
            .into_iter()
            .flat_map(|e| {
                (lo..=hi).map(move |v| {
                    let mut e = e.clone();
                    e.push((n.clone(), v));
                    e
                })
            })
            .collect();
    }
    out
}

fn at(e: &Env) -> Vec<(&str, i64)> {
    e.iter().map(|(n, v)| (n.as_str(), *v)).collect()
}

fn values(l: &Layout, n: i64) -> Vec<i64> {
    (0..n).map(|i| l.index_any(i).unwrap()).collect()
}

/// What the differential checks found.
#[derive(Default)]
struct Tally {
    answers: usize,
    undecidable: usize,
    refused: usize,
    breaks: Vec<String>,
    false_refusals: Vec<String>,
}

impl Tally {
    fn assert_clean(&self) {
        assert!(
            self.breaks.is_empty() && self.false_refusals.is_empty(),
            "{} law breaks, {} false refusals; first: {:#?} {:#?}",
            self.breaks.len(),
            self.false_refusals.len(),
            &self.breaks[..self.breaks.len().min(8)],
            &self.false_refusals[..self.false_refusals.len().min(8)]
        );
    }

    /// Judges the symbolic answer `sym` of `what` against the integer operation `int` at every
    /// substitution in `envs` (`None` where the substitution itself is not a layout).
    fn judge(
        &mut self,
        what: &str,
        sym: &Result<SymLayout, LayoutError>,
        envs: &[Env],
        int: impl Fn(&[(&str, i64)]) -> Option<Result<Layout, LayoutError>>,
    ) {
        match sym {
            Ok(r) => {
                self.answers += 1;
                for e in envs {
                    let v = at(e);
                    let Some(want) = int(&v) else { continue };
                    let got = r.subs(&v);
                    match (got, want) {
                        (Ok(g), Ok(w)) => {
                            if g.size() != w.size() || values(&g, g.size()) != values(&w, w.size())
                            {
                                self.breaks
                                    .push(format!("{what} = {r}: at {v:?} {g}, integer {w}"));
                                return;
                            }
                        }
                        (g, w) => {
                            self.breaks
                                .push(format!("{what} = {r}: at {v:?} {g:?} vs integer {w:?}"));
                            return;
                        }
                    }
                }
            }
            Err(e) if e.kind() == "Undecidable" => self.undecidable += 1,
            Err(e) => {
                self.refused += 1;
                for env in envs {
                    let v = at(env);
                    if let Some(Ok(w)) = int(&v) {
                        self.false_refusals.push(format!(
                            "{what}: {e}, but at {v:?} the integer answer is {w}"
                        ));
                        return;
                    }
                }
            }
        }
    }
}

/// Every law of every operation on `l`, at every substitution in `envs`.
fn check(l: &SymLayout, envs: &[Env], t: &mut Tally) {
    let coalesce = l.coalesce().unwrap();
    let coalesce_z = l.coalesce_z().unwrap();
    for e in envs {
        let v = at(e);
        let Ok(x) = l.subs(&v) else { continue };
        let n = x.size();
        let here = format!("{l} at {v:?}");
        // coalesce: the same function on [0, size), depth <= 1
        let c = coalesce.subs(&v).unwrap();
        assert!(c.depth() <= 1, "coalesce {here}");
        assert_eq!(c.size(), n, "coalesce {here}");
        assert_eq!(values(&c, n), values(&x, n), "coalesce {here}: {coalesce}");
        // coalesce_z: the same values past the end too
        let z = coalesce_z.subs(&v).unwrap();
        assert_eq!(z.size(), n);
        assert_eq!(
            values(&z, n + 10),
            values(&x, n + 10),
            "coalesce_z {here}: {coalesce_z}"
        );
        assert_eq!(values(&z, n + 10), values(&x.coalesce_z(), n + 10));
        assert_eq!(l.size().unwrap().eval(&v).unwrap(), n, "size {here}");
    }
    let sub = |v: &[(&str, i64)]| l.subs(v).ok();
    t.judge(
        &format!("right_inverse {l}"),
        &l.right_inverse(),
        envs,
        |v| sub(v).map(|x| Ok(x.right_inverse())),
    );
    t.judge(&format!("complement {l}"), &l.complement(None), envs, |v| {
        sub(v).map(|x| x.complement_cosize())
    });
    for ext in EXTENDS {
        let et: SymTuple = ext.parse().unwrap();
        let names: Vec<String> = l
            .symbols()
            .into_iter()
            .chain(et.symbols())
            .collect::<Vec<_>>();
        let mut uniq: Vec<String> = Vec::new();
        for n in names {
            if !uniq.contains(&n) {
                uniq.push(n);
            }
        }
        let envs = envs_for(&uniq, envs);
        t.judge(
            &format!("complement {l} {ext}"),
            &l.complement(Some(&et)),
            &envs,
            |v| {
                let (x, c) = (l.subs(v).ok()?, et.subs(v).ok()?);
                Some(x.complement_shape(&c))
            },
        );
    }
    t.judge(
        &format!("make_layout_like {l}"),
        &l.layout_like(),
        envs,
        |v| sub(v).map(|x| x.layout_like()),
    );
    t.judge(
        &format!("make_ordered_layout {} {}", l.shape(), l.stride()),
        &SymLayout::ordered(l.shape(), l.stride()),
        envs,
        |v| {
            let x = sub(v)?;
            Some(Layout::ordered(x.shape(), x.stride()))
        },
    );
    for b in TILERS {
        let bs: SymLayout = b.parse().unwrap();
        let mut names = l.symbols();
        for n in bs.symbols() {
            if !names.contains(&n) {
                names.push(n);
            }
        }
        let envs = envs_for(&names, envs);
        t.judge(
            &format!("composition {l} {b}"),
            &l.compose(&bs),
            &envs,
            |v| {
                let (x, y) = (l.subs(v).ok()?, bs.subs(v).ok()?);
                Some(x.compose(&y))
            },
        );
        // the law itself: R(i) == A(B(i)), A's last mode running on
        if let Ok(r) = l.compose(&bs) {
            for e in &envs {
                let v = at(e);
                let (Ok(x), Ok(y), Ok(r)) = (l.subs(&v), bs.subs(&v), r.subs(&v)) else {
                    continue;
                };
                assert!(y.shape().compatible(&r.shape()), "{l} o {b} = {r}");
                for i in 0..y.size() {
                    let want = x.index_any(y.index_any(i).unwrap()).unwrap();
                    assert_eq!(r.index_any(i).unwrap(), want, "{l} o {b} at {v:?}: R({i})");
                }
            }
        }
    }
}

/// `envs` over `names`: the given substitutions where they cover every name, else every
/// substitution of `names` in 1..=3.
fn envs_for(names: &[String], envs: &[Env]) -> Vec<Env> {
    let covered = envs
        .first()
        .is_some_and(|e| names.iter().all(|n| e.iter().any(|(m, _)| m == n)));
    if covered {
        envs.to_vec()
    } else {
        self::envs(names, 1, 3)
    }
}

#[test]
fn laws_over_every_small_flat_layout() {
    let mut layouts = 0;
    let mut t = Tally::default();
    for (s0, d0) in SHAPES
        .iter()
        .flat_map(|s| STRIDES.iter().map(move |d| (s, d)))
    {
        let one: SymLayout = format!("{s0}:{d0}").parse().unwrap();
        let names = one.symbols();
        check(&one, &envs(&names, 1, 4), &mut t);
        layouts += 1;
        for (s1, d1) in SHAPES
            .iter()
            .flat_map(|s| STRIDES.iter().map(move |d| (s, d)))
        {
            let two: SymLayout = format!("({s0},{s1}):({d0},{d1})").parse().unwrap();
            check(&two, &envs(&two.symbols(), 1, 4), &mut t);
            layouts += 1;
        }
    }
    assert_eq!(layouts, 63 + 63 * 63);
    eprintln!(
        "small domain: {} answers, {} Undecidable, {} other refusals",
        t.answers, t.undecidable, t.refused
    );
    t.assert_clean();
    // the symbolic answers are not all refusals
    assert!(t.answers > 20_000, "{} answers", t.answers);
}

/// A small seeded generator (SplitMix64), so that a failing seed reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn pick<'a>(&mut self, v: &[&'a str]) -> &'a str {
        v[(self.next() % v.len() as u64) as usize]
    }
}

/// A random symbolic layout of 1 to 4 leaves over the symbols N, M, P, flat or nested.
fn random_layout(rng: &mut Rng) -> SymLayout {
    const EXT: &[&str] = &["1", "2", "3", "4", "N", "M", "P", "2*N", "N*M", "P*P"];
    const STR: &[&str] = &[
        "0", "1", "2", "3", "4", "8", "N", "M", "P", "2*N", "4*N", "N*M", "P*P", "N*N", "2*P",
    ];
    let n = 1 + (rng.next() % 4) as usize;
    let s: Vec<&str> = (0..n).map(|_| rng.pick(EXT)).collect();
    let d: Vec<&str> = (0..n).map(|_| rng.pick(STR)).collect();
    let nest = n > 2 && rng.next().is_multiple_of(2);
    let text = |v: &[&str]| {
        if nest {
            format!("({},({}))", v[0], v[1..].join(","))
        } else if v.len() == 1 {
            v[0].to_string()
        } else {
            format!("({})", v.join(","))
        }
    };
    format!("{}:{}", text(&s), text(&d)).parse().unwrap()
}

/// Seeded random differential test: random symbolic layouts (and tilers made the same way)
/// against the integer operations at every substitution of their symbols in 1..=3.
#[test]
fn random_layouts_agree_with_the_integer_operations_under_substitution() {
    let seed = std::env::var("CUTE_SYM_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(34u64);
    let count: usize = std::env::var("CUTE_SYM_COUNT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let mut rng = Rng(seed);
    let mut t = Tally::default();
    for _ in 0..count {
        let l = random_layout(&mut rng);
        let b = random_layout(&mut rng);
        let mut names = l.symbols();
        for n in b.symbols() {
            if !names.contains(&n) {
                names.push(n);
            }
        }
        let envs = envs(&names, 1, 3);
        check(&l, &envs, &mut t);
        t.judge(
            &format!("composition {l} {b}"),
            &l.compose(&b),
            &envs,
            |v| {
                let (x, y) = (l.subs(v).ok()?, b.subs(v).ok()?);
                Some(x.compose(&y))
            },
        );
    }
    eprintln!(
        "seed {seed}: {} answers, {} Undecidable, {} other refusals",
        t.answers, t.undecidable, t.refused
    );
    t.assert_clean();
}

/// NVlabs PyCuTe's own symbolic answers (its tests) where they hold at every substitution,
/// and refusals where they do not.
#[test]
fn pycute_examples() {
    let l = |s: &str| s.parse::<SymLayout>().unwrap();
    let t = |s: &str| s.parse::<SymTuple>().unwrap();
    assert_eq!(l("(2,4):(X,2*X)").coalesce().unwrap(), l("8:X"));
    assert_eq!(l("(2,4):(X,3*X)").coalesce().unwrap(), l("(2,4):(X,3*X)"));
    assert_eq!(l("(N,M):(1,N)").coalesce().unwrap(), l("N*M:1"));
    assert_eq!(l("(1,N):(X,Y)").coalesce_z().unwrap(), l("N:Y"));
    assert_eq!(l("N:1").complement(None).unwrap(), l("1:N"));
    // PyCuTe: (X,1):(1,N*X); at N = 1 the integer complement of 1:X is 1:0
    assert_eq!(
        l("N:X").complement(None).unwrap_err().to_string(),
        "complement: one answer for every N: 1:1 at N = 1, (X,1):(1,X*N) elsewhere cannot be decided for symbolic values (a symbol is any positive integer)"
    );
    assert_eq!(l("2*N:X").complement(None).unwrap(), l("(X,1):(1,2*X*N)"));
    assert_eq!(l("(N,4):(1,N)").complement(None).unwrap(), l("1:4*N"));
    assert_eq!(
        l("256:1").complement(Some(&t("(32,4,2,2,N)"))).unwrap(),
        l("(2,N):(256,512)")
    );
    assert_eq!(l("(N,M):(1,N)").right_inverse().unwrap(), l("N*M:1"));
    // PyCuTe: 1:0; at DM = 1 the integer right inverse is M:1
    assert_eq!(
        l("(M,N):(DM,DN)").right_inverse().unwrap_err().to_string(),
        "right_inverse: the answer at DM = 1 (there, whether the stride DN of (M,N):(1,DN) equals the running extent M) cannot be decided for symbolic values (a symbol is any positive integer)"
    );
    assert_eq!(l("(M,N):(2*DM,2*DN)").right_inverse().unwrap(), l("1:0"));
    // PyCuTe ranks P and Q after 2 and before 50; at P = 60 the integer answer differs
    assert_eq!(
        SymLayout::ordered(&t("(2,3,4,5)"), &t("(2,P,Q,50)"))
            .unwrap_err()
            .kind(),
        "Undecidable"
    );
    assert_eq!(
        SymLayout::ordered(&t("(2,3,4,5)"), &t("(1,P,P*P,0)")).unwrap(),
        l("(2,3,4,5):(5,10,30,1)")
    );
    // PyCuTe: (N,M):(1,N); at Y < X the integer answer is (N,M):(M,1)
    assert_eq!(
        l("(N,M):(X,Y)").layout_like().unwrap_err().kind(),
        "Undecidable"
    );
    assert_eq!(
        l("(4,N):(X,Y)").compose(&l("(2,2):(2,1)")).unwrap(),
        l("(2,2):(2*X,X)")
    );
    let e = l("(N,8):(X,Y)").compose(&l("4:1")).unwrap_err();
    assert_eq!(e.kind(), "Undecidable");
    assert_eq!(
        e.to_string(),
        "composition: the shape divisibility condition (4 divided by N) of (N,8):(X,Y) o 4:1 cannot be decided for symbolic values (a symbol is any positive integer)"
    );
    let e = l("N:X").complement(Some(&t("(2,M)"))).unwrap_err();
    assert_eq!(e.kind(), "Undecidable");
    assert!(l("(X,N):(2,3)").subs(&[("X", 0), ("N", 2)]).is_err());
    assert!(l("(X,N):(2,3)").subs(&[("X", 2)]).is_err());
    assert!(l("N:M").subs(&[("N", i64::MAX), ("M", 1)]).is_ok());
    assert!(l("N*N:M").subs(&[("N", i64::MAX), ("M", 1)]).is_err());
    assert_eq!(
        l("(N,4):(1,N)").subs(&[("N", 3)]).unwrap(),
        "(3,4):(1,3)".parse::<Layout>().unwrap()
    );
    let _: IntTuple = t("(N,(2,M))").subs(&[("N", 3), ("M", 5)]).unwrap();
    // empty layouts and stride-0 / extent-1 tilers
    assert_eq!(l("():()").compose(&l("N:1")).unwrap(), l("N:0"));
    assert_eq!(l("N:X").compose(&l("():()")).unwrap(), l("():()"));
    assert_eq!(l("N:X").compose(&l("4:0")).unwrap(), l("4:0"));
    assert_eq!(l("(4,N):(X,Y)").compose(&l("1:3")).unwrap(), l("1:3*X"));
    // 2*X+Y is not a monomial
    assert_eq!(
        l("(4,N):(X,Y)").compose(&l("1:6")).unwrap_err().kind(),
        "Undecidable"
    );
}

/// Issue 34's reproducers, with their exact answers.
#[test]
fn issue_34_reproducers() {
    let l = |s: &str| s.parse::<SymLayout>().unwrap();
    // A(B(3,3)) = A(6) = 9 for every N, where (4,4):(4,4) gave 24
    assert_eq!(
        l("(4,N):(4,1)").compose(&l("(4,4):(1,1)")).unwrap_err().to_string(),
        "composition: leaves 0 and 1 of (4,4):(1,1) overlap in mode 0 of (4,N):(4,1): their largest digits add up to 6, past the extent 4 (a carry at every substitution), so A(B(i)) is not the sum of the leaves' compositions"
    );
    assert_eq!(
        l("(6,N):(0,1)")
            .compose(&l("(4,4):(1,1)"))
            .unwrap_err()
            .kind(),
        "NotRepresentable"
    );
    assert_eq!(
        l("(2,2):(2*N,N)").layout_like().unwrap().to_string(),
        "(2,2):(2,1)"
    );
    assert_eq!(
        l("(N,N):(4*N,N)").layout_like().unwrap().to_string(),
        "(N,N):(N,1)"
    );
    let r = l("(P,P,P):(P*P,P,1)").right_inverse().unwrap();
    assert_eq!(r.to_string(), "(P,P,P):(P*P,P,1)");
    assert_eq!(r.size().unwrap().to_string(), "P*P*P");
    assert_eq!(
        r.subs(&[("P", 3)]).unwrap().size(),
        l("(P,P,P):(P*P,P,1)")
            .subs(&[("P", 3)])
            .unwrap()
            .right_inverse()
            .size()
    );
}

fn leaf() -> impl Strategy<Value = (String, String)> {
    (
        prop::sample::select(SHAPES),
        prop::sample::select(
            &[
                "0", "1", "2", "3", "N", "X", "Y", "2*X", "N*X", "X*Y", "4*N", "-1",
            ][..],
        ),
    )
        .prop_map(|(s, d)| (s.to_string(), d.to_string()))
}

/// Random layouts of up to four leaves, flat or with one nested mode.
fn sym_layout() -> impl Strategy<Value = SymLayout> {
    (prop::collection::vec(leaf(), 1..=4), any::<bool>()).prop_map(|(leaves, nest)| {
        let (s, d): (Vec<String>, Vec<String>) = leaves.into_iter().unzip();
        let text = |v: &[String]| {
            if nest && v.len() > 2 {
                format!("({},({}))", v[0], v[1..].join(","))
            } else if v.len() == 1 {
                v[0].clone()
            } else {
                format!("({})", v.join(","))
            }
        };
        format!("{}:{}", text(&s), text(&d)).parse().unwrap()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn laws_on_random_nested_layouts(l in sym_layout()) {
        let names = l.symbols();
        let hi = if names.len() > 2 { 3 } else { 4 };
        let mut t = Tally::default();
        check(&l, &envs(&names, 1, hi), &mut t);
        t.assert_clean();
    }

    /// Any text: a parse error or a layout on which every operation answers or refuses.
    #[test]
    fn no_panics_on_any_text(text in "[()NX12*,:\\- 0]{0,16}", tiler in "[()N12,:0]{0,10}") {
        if let Ok(l) = text.parse::<SymLayout>() {
            let _ = (l.coalesce(), l.coalesce_z(), l.complement(None), l.right_inverse());
            let _ = (l.layout_like(), l.size(), l.subs(&[("N", 3), ("X", 2)]));
            let _ = SymLayout::ordered(l.shape(), l.stride());
            if let Ok(b) = tiler.parse::<SymLayout>() {
                let _ = (l.compose(&b), b.compose(&l));
            }
            if let Ok(t) = tiler.parse::<SymTuple>() {
                let _ = l.complement(Some(&t));
            }
        }
    }

    #[test]
    fn text_round_trips(l in sym_layout()) {
        let again: SymLayout = l.to_string().parse().unwrap();
        prop_assert_eq!(again, l);
    }
}
