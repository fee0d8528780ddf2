//! Laws of the symbolic layouts (NVlabs PyCuTe's sympy layouts, `SymLayout`): for every
//! symbolic answer, substituting integers for the symbols agrees with the integer algebra at
//! every substitution where PyCuTe's generic assumptions hold (a symbol is never 1; a symbolic
//! stride or order value ranks after every static one, symbolic ones left to right). Checked
//! over a whole small domain (every flat rank-1 and rank-2 layout over small pools of extents and
//! strides, at every substitution of the symbols in 2..=4) and on random nested layouts.

use cute_layout::{IntTuple, Layout, LayoutError, Sym, SymLayout, SymTuple};
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
];

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

/// The values of `keys` at `v` are sorted the way PyCuTe ranks them (static by value, then
/// symbolic left to right) and, where `distinct`, differ.
fn ranked(keys: &[&Sym], env: &[(&str, i64)], distinct: bool) -> bool {
    let mut idx: Vec<usize> = (0..keys.len()).collect();
    idx.sort_by_key(|&i| match keys[i].as_int() {
        Some(v) => (0, v),
        None => (1, 0),
    });
    let vals: Vec<i64> = idx.iter().map(|&i| keys[i].eval(env).unwrap()).collect();
    vals.windows(2)
        .all(|w| if distinct { w[0] < w[1] } else { w[0] <= w[1] })
}

/// Every law of every operation on `l`, at every substitution in `envs`.
fn check(l: &SymLayout, envs: &[Env]) {
    let coalesce = l.coalesce().unwrap();
    let coalesce_z = l.coalesce_z().unwrap();
    let complement = l.complement(None);
    let inverse = l.right_inverse().unwrap();
    let like = l.layout_like().unwrap();
    let tilers: Vec<(Layout, Result<SymLayout, LayoutError>)> = TILERS
        .iter()
        .map(|t| {
            let b: SymLayout = t.parse().unwrap();
            (t.parse().unwrap(), l.compose(&b))
        })
        .collect();
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
        // right_inverse: L(R(i)) == i; without symbols, the integer right inverse's function
        let r = inverse.subs(&v).unwrap();
        for i in 0..r.size() {
            assert_eq!(
                x.index_any(r.index_any(i).unwrap()).unwrap(),
                i,
                "right_inverse {here}: {inverse}"
            );
        }
        if v.is_empty() {
            let ir = x.right_inverse();
            assert_eq!(
                (r.size(), values(&r, r.size())),
                (ir.size(), values(&ir, ir.size())),
                "right_inverse {here}"
            );
        }
        // complement: where the stride order at v is PyCuTe's and the integer complement exists,
        // the same function as it
        let (shape, stride) = (l.shape().leaves(), l.stride().leaves());
        let moving: Vec<&Sym> = stride
            .iter()
            .zip(&shape)
            .filter(|(d, s)| d.coef() != 0 && **s != &Sym::int(1))
            .map(|(d, _)| *d)
            .collect();
        match (&complement, x.complement_cosize()) {
            (Ok(sc), Ok(ic)) if ranked(&moving, &v, false) => {
                let sc = sc.subs(&v).unwrap();
                assert_eq!(sc.size(), ic.size(), "complement {here}: {sc} vs {ic}");
                assert_eq!(
                    values(&sc, ic.size()),
                    values(&ic, ic.size()),
                    "complement {here}"
                );
            }
            _ => {}
        }
        // make_layout_like: where the non-zero strides at v differ and rank as PyCuTe ranks them,
        // the integer make_layout_like's function
        let nonzero: Vec<&Sym> = stride.iter().copied().filter(|d| d.coef() != 0).collect();
        if ranked(&nonzero, &v, true) && stride.iter().all(|d| d.eval(&v).unwrap() >= 0) {
            // PyCuTe gives an extent-1 mode the running product, CuTe 0: the same function
            let (ours, cute) = (like.subs(&v).unwrap(), x.layout_like().unwrap());
            assert_eq!(ours.shape(), cute.shape());
            assert_eq!(
                values(&ours, n),
                values(&cute, n),
                "make_layout_like {here}: {like}"
            );
        }
        // make_ordered_layout of the shape by the stride as the order
        let shape_t: &SymTuple = l.shape();
        if ranked(&stride, &v, true) && stride.iter().all(|d| d.eval(&v).unwrap() >= 0) {
            let o = SymLayout::ordered(shape_t, l.stride()).unwrap();
            let want = Layout::ordered(x.shape(), x.stride()).unwrap();
            // PyCuTe gives an extent-1 mode a compact stride, CuTe 0: the same function
            let o = o.subs(&v).unwrap();
            assert_eq!(o.shape(), want.shape());
            assert_eq!(
                values(&o, n),
                values(&want, n),
                "make_ordered_layout {here}"
            );
        }
        // composition: R compatible with B and R(i) == A(B(i)) (A's last mode running on)
        for (b, r) in &tilers {
            let Ok(r) = r else { continue };
            let r = r.subs(&v).unwrap();
            assert!(b.shape().compatible(&r.shape()), "{l} o {b} = {r}");
            for i in 0..b.size() {
                let want = x.index_any(b.index_any(i).unwrap()).unwrap();
                assert_eq!(r.index_any(i).unwrap(), want, "{here} o {b}: R({i})");
            }
        }
    }
}

#[test]
fn laws_over_every_small_flat_layout() {
    let mut layouts = 0;
    for (s0, d0) in SHAPES
        .iter()
        .flat_map(|s| STRIDES.iter().map(move |d| (s, d)))
    {
        let one: SymLayout = format!("{s0}:{d0}").parse().unwrap();
        let names = one.symbols();
        check(&one, &envs(&names, 2, 4));
        layouts += 1;
        for (s1, d1) in SHAPES
            .iter()
            .flat_map(|s| STRIDES.iter().map(move |d| (s, d)))
        {
            let two: SymLayout = format!("({s0},{s1}):({d0},{d1})").parse().unwrap();
            check(&two, &envs(&two.symbols(), 2, 4));
            layouts += 1;
        }
    }
    assert_eq!(layouts, 63 + 63 * 63);
}

/// PyCuTe's own symbolic answers (NVlabs' tests), and a refusal where PyCuTe raises.
#[test]
fn pycute_examples() {
    let l = |s: &str| s.parse::<SymLayout>().unwrap();
    let t = |s: &str| s.parse::<SymTuple>().unwrap();
    assert_eq!(l("(2,4):(X,2*X)").coalesce().unwrap(), l("8:X"));
    assert_eq!(l("(2,4):(X,3*X)").coalesce().unwrap(), l("(2,4):(X,3*X)"));
    assert_eq!(l("(N,M):(1,N)").coalesce().unwrap(), l("N*M:1"));
    assert_eq!(l("(1,N):(X,Y)").coalesce_z().unwrap(), l("N:Y"));
    assert_eq!(l("N:1").complement(None).unwrap(), l("1:N"));
    assert_eq!(l("N:X").complement(None).unwrap(), l("(X,1):(1,N*X)"));
    assert_eq!(l("(N,4):(1,N)").complement(None).unwrap(), l("1:4*N"));
    assert_eq!(
        l("256:1").complement(Some(&t("(32,4,2,2,N)"))).unwrap(),
        l("(2,N):(256,512)")
    );
    assert_eq!(l("(N,M):(1,N)").right_inverse().unwrap(), l("N*M:1"));
    assert_eq!(l("(M,N):(DM,DN)").right_inverse().unwrap(), l("1:0"));
    assert_eq!(
        SymLayout::ordered(&t("(2,3,4,5)"), &t("(2,P,Q,50)")).unwrap(),
        l("(2,3,4,5):(1,10,30,2)")
    );
    assert_eq!(l("(N,M):(X,Y)").layout_like().unwrap(), l("(N,M):(1,N)"));
    assert_eq!(
        l("(4,N):(X,Y)").compose(&l("(2,2):(2,1)")).unwrap(),
        l("(2,2):(2*X,X)")
    );
    let e = l("(N,8):(X,Y)").compose(&l("4:1")).unwrap_err();
    assert_eq!(e.kind(), "Undecidable");
    assert_eq!(
        e.to_string(),
        "composition: the shape divisibility condition (4 divided by N) of (N,8):(X,Y) o 4:1 cannot be decided for symbolic values (a symbol is any integer >= 2)"
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
        let hi = if names.len() > 2 { 3 } else { 5 };
        check(&l, &envs(&names, 2, hi));
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
