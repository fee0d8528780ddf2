//! Issue 23: the holes that outside tests found, and a random differential test of what found
//! them.
//!
//! * Section 1 (a silently wrong answer): compositions whose right operand is a swizzled
//!   composed layout with negative strides. Each is answered lawfully or refused with the named
//!   condition, pinned verbatim.
//! * Section 2 (false refusals): each input CuTe answers lawfully, with CuTe's text.
//! * A random differential test: compositions with swizzled operands, negative and zero
//!   strides (both operands composed or not), products with strides of both signs, complements
//!   near `i64::MAX`, and the inverses of composed layouts, each judged point by point by an
//!   evaluator written here from the definitions (not the library's `index`).

use cute_layout::{ComposedLayout, Layout, LayoutError, Tiler};

fn lay(s: &str) -> Layout {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn comp(s: &str) -> ComposedLayout {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn tiler(s: &str) -> Tiler {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// `composition A B` as `cute batch` runs it for a plain or composed `A` and a composed `B`.
fn compose(a: &str, b: &str) -> Result<ComposedLayout, LayoutError> {
    let b = comp(b);
    match a.parse::<Layout>() {
        Ok(a) => a.compose_composed(&b),
        Err(_) => comp(a).compose_composed(&b),
    }
}

fn text<T: ToString>(r: Result<T, LayoutError>) -> String {
    match r {
        Ok(v) => v.to_string(),
        Err(e) => format!("error {}: {e}", e.kind()),
    }
}

// ------------------------------------------------------------------------------------------
// Section 1: a silently wrong answer
// ------------------------------------------------------------------------------------------

/// CuTe (and this library before) printed `Sw<1,0,-2> o 0 o 4:-4` (values 0,-4,-8,-12), while
/// `A(B(i))` is 0,-8,-4,-1: moving a swizzle through a layout acts on the bits of non-negative
/// offsets; B's are negative, and A is not `x -> 2^k x`.
#[test]
fn swizzle_of_negative_offsets_is_not_moved_through_a_layout() {
    assert_eq!(
        text(compose("(4,4):(4,1)", "Sw<1,0,2> o 0 o 4:-1")),
        "error NotRepresentable: composition: (4,4):(4,1) does not commute Sw<1,0,2> into a swizzle: \
         the swizzle is applied to negative offsets (down to -3), and only a layout x -> 2^k x moves a swizzle there"
    );
    assert_eq!(
        text(compose(
            "Sw<1,4,2> o 0 o (8,(2,2)):(4,(2,1))",
            "Sw<1,2,2> o 0 o (((1,4),1)):(((-4,-4),-16))"
        )),
        "error NotRepresentable: composition: (8,(2,2)):(4,(2,1)) does not commute Sw<1,2,2> into a swizzle: \
         the swizzle is applied to negative offsets (down to -12), and only a layout x -> 2^k x moves a swizzle there"
    );
}

/// `Sw<1,0,-1>` reads bit 0, which no offset of `(4,8):(-16,-2)` has: it is the identity there,
/// and the composition is the plain `A ∘ (4,8):(-16,-2)` (CuTe: `Sw<1,4,-1> o 0 o
/// (4,8):(-1,-32)`, -33 instead of -1 at i = 1).
#[test]
fn swizzle_that_reads_no_bit_of_the_offsets_is_dropped() {
    assert_eq!(
        text(compose(
            "(2,(8,4)):(16,(32,1))",
            "Sw<1,0,-1> o 0 o (4,8):(-16,-2)"
        )),
        "(4,8):(-1,-32)"
    );
    // Two layers: the inner one toggles bit 0, so the outer one (reading bit 0) is not dropped.
    assert_eq!(
        text(compose(
            "(1,2):(64,2)",
            "Sw<1,0,-2> o 0 o Sw<1,0,3> o 0 o (1,(4,2)):(-16,(-8,16))"
        )),
        "Sw<1,1,-2> o 0 o Sw<1,1,3> o 0 o (1,(4,2)):(-32,(-16,32))"
    );
    // Through x -> 2^k x a swizzle moves for offsets of any sign.
    assert_eq!(
        text(compose("(4,4):(4,16)", "Sw<1,0,2> o 0 o 4:-1")),
        "Sw<1,2,2> o 0 o 4:-4"
    );
}

// ------------------------------------------------------------------------------------------
// Section 2: false refusals
// ------------------------------------------------------------------------------------------

/// Overflow is an error only when the result cannot be represented.
#[test]
fn intermediates_past_i64_with_a_result_that_fits() {
    let big = "2:4611686018427387904";
    assert_eq!(
        text(lay(big).tiled_product(&tiler("2:128"))),
        "(2,2):(4611686018427387904,128)"
    );
    assert_eq!(
        text(lay(big).zipped_product(&tiler("2:4"))),
        "(2,2):(4611686018427387904,4)"
    );
    assert_eq!(
        text(lay("(4):(0)").logical_product(&tiler("(2):(4611686018427387904)"))),
        "((4),(2)):((0),(4611686018427387904))"
    );
    assert_eq!(
        text(lay("(9,7):(2,18)").complement(i64::MAX)),
        "(2,73201365371863301):(1,126)"
    );
    assert_eq!(
        text(lay("((12,7,10)):((3,36,252))").complement(i64::MAX)),
        "(3,3660068268593166):(1,2520)"
    );
    // Where the result itself does not fit, still an overflow.
    assert!(matches!(
        lay("2:1").logical_product(&tiler("2:4611686018427387904")),
        Err(LayoutError::Overflow { .. })
    ));
}

/// CuTe's logical_product.cpp: `(4,6):(1,6)` has holes (4, 5) that no layout fills, but the
/// product only needs CuTe's chain to miss A's image and increase.
#[test]
fn product_of_a_layout_with_holes() {
    assert_eq!(
        text(lay("((4,6)):((1,6))").logical_product(&tiler("(3):(1)"))),
        "(((4,6)),(3)):(((1,6)),(36))"
    );
    assert_eq!(
        text(lay("(4,6):(1,6)").logical_product(&tiler("3:1"))),
        "((4,6),3):((1,6),36)"
    );
    // The complement itself still refuses: it would not cover the cotarget.
    assert!(matches!(
        lay("(4,6):(1,6)").complement(72),
        Err(LayoutError::NotComplementable { .. })
    ));
}

/// `Sw<2,0,2>` toggles bits 0 and 1 only, so it maps `[0, 48)` into itself.
#[test]
fn inverses_of_swizzles_that_keep_the_domain() {
    for c in [
        "Sw<2,0,2> o 0 o (4,(4,3)):(1,(4,16))",
        "Sw<2,0,2> o 0 o 48:1",
    ] {
        assert_eq!(text(comp(c).right_inverse()), "Sw<2,0,2> o 0 o 48:1", "{c}");
        assert_eq!(text(comp(c).left_inverse()), "Sw<2,0,2> o 0 o 48:1", "{c}");
    }
    // One that does leave the domain is still refused: Sw<1,4,-4> reads bit 0 and toggles bit 4.
    assert!(comp("Sw<1,0,-4> o 0 o 24:1").right_inverse().is_err());
}

/// B is constant 0: any stride is lawful on its size-1 mode; CuTe's is `ceil(2048 / 6)` times
/// `-2` with B's sign.
#[test]
fn extent_one_mode_with_any_stride() {
    assert_eq!(
        text(lay("(6,1):(8,-2)").compose(&lay("(1,3):(-2048,0)"))),
        "(1,3):(684,0)"
    );
}

/// Leaves of opposite signs that only reach A's last mode: every offset of B is a multiple of
/// the bounded extents, where `A(x) = (x / P) d` for either sign.
#[test]
fn strides_of_opposite_signs_in_the_last_mode() {
    assert_eq!(
        text(lay("3:4").logical_product(&tiler("(2,4):(4,-8)"))),
        "(3,(2,4)):(4,(12,-24))"
    );
    assert_eq!(
        text(lay("(2,(1,5)):(12,(6,-1))").compose(&lay("(2,4):(-2,128)"))),
        "(2,4):(1,-64)"
    );
    // Where one of them uses a bounded mode's digit, A(y - z) borrows: refused.
    // A is linear here ((4,8):(1,4) = 32:1): no bounded mode.
    assert!(lay("(4,8):(1,4)").compose(&lay("(2,2):(1,-8)")).is_ok());
    assert!(matches!(
        lay("(4,8):(1,16)").compose(&lay("(2,2):(1,-8)")),
        Err(LayoutError::NotRepresentable { .. })
    ));
}

// ------------------------------------------------------------------------------------------
// Random differential test
// ------------------------------------------------------------------------------------------

/// xorshift64*: deterministic, no dependency.
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

/// The 1-D function of `shape:stride` (flat leaves) at any integer, from the definition: the
/// colexicographic coordinate by truncating division, every leaf but the last reduced by its
/// extent, the last one running on. `None` past `i64`.
fn eval(shape: &[i64], stride: &[i64], x: i64) -> Option<i64> {
    let mut acc = 0i64;
    let mut rest = x;
    for (k, (&s, &d)) in shape.iter().zip(stride).enumerate() {
        let c = if k + 1 == shape.len() { rest } else { rest % s };
        acc = acc.checked_add(c.checked_mul(d)?)?;
        rest /= s;
    }
    Some(acc)
}

/// `Sw<B,M,S>(x) = x ^ shiftr(x & yyy, S)`, from its parameters.
fn swz(b: i64, m: i64, s: i64, x: i64) -> i64 {
    let yyy = ((1i64 << b) - 1) << (m + s.max(0));
    let t = x & yyy;
    x ^ if s >= 0 { t >> s } else { t << -s }
}

/// A composed layout's value at any integer: the inner layout, then the layers innermost first.
fn eval_composed(c: &ComposedLayout, x: i64) -> Option<i64> {
    let l = c.layout();
    let mut v = eval(l.shape().leaves(), l.stride().leaves(), x)?;
    for (sw, off) in c.layers().iter().rev() {
        v = swz(sw.bits(), sw.base(), sw.shift(), v.checked_add(*off)?);
    }
    Some(v)
}

fn tree(rng: &mut Rng, leaves: &mut Vec<i64>, depth: u32) -> String {
    let n = if depth == 0 {
        1
    } else {
        rng.pick(&[1, 1, 2, 2, 3])
    };
    if n == 1 && (depth == 0 || rng.next(3) > 0) {
        let s = rng.pick(&[1, 2, 2, 3, 4, 4, 5, 8]);
        leaves.push(s);
        return s.to_string();
    }
    let parts: Vec<String> = (0..n).map(|_| tree(rng, leaves, depth - 1)).collect();
    format!("({})", parts.join(","))
}

/// A random layout; `signed`: strides of both signs, often zero or powers of two.
fn random_layout(rng: &mut Rng, signed: bool) -> String {
    let mut leaves = Vec::new();
    let shape = tree(rng, &mut leaves, 2);
    let mut k = 0;
    let mut stride = String::new();
    for ch in shape.chars() {
        if ch.is_ascii_digit() {
            if stride.ends_with(|c: char| c.is_ascii_digit()) {
                continue; // one stride per (possibly multi-digit) extent
            }
            let d: i64 = if signed {
                rng.pick(&[
                    0, 1, -1, 2, -2, 4, -4, 8, -8, 16, -16, 3, -6, 12, 32, -32, 64,
                ])
            } else {
                rng.pick(&[0, 1, 2, 4, 8, 16, 3, 6, 12, 32, 64, 5])
            };
            stride.push_str(&d.to_string());
            k += 1;
        } else {
            stride.push(ch);
        }
    }
    assert_eq!(k, leaves.len());
    format!("{shape}:{stride}")
}

fn random_swizzle(rng: &mut Rng) -> String {
    let b = 1 + rng.next(3) as i64;
    let m = rng.next(5) as i64;
    let s = (b + rng.next(4) as i64) * if rng.next(2) == 0 { 1 } else { -1 };
    format!("Sw<{b},{m},{s}>")
}

fn random_composed(rng: &mut Rng, signed: bool) -> String {
    let mut c = random_layout(rng, signed);
    for _ in 0..rng.pick(&[0, 1, 1, 1, 2]) {
        c = format!("{} o 0 o {c}", random_swizzle(rng));
    }
    c
}

/// `R(i) == A(B(i))` at every point of B's domain, and R's shape refines B's.
fn check_composition(a: &ComposedLayout, b: &ComposedLayout, r: &ComposedLayout) {
    assert_eq!(r.size(), b.size(), "{a} o {b} = {r}: size");
    assert!(b.shape().compatible(&r.shape()), "{a} o {b} = {r}: shape");
    for i in 0..b.size() {
        let x = eval_composed(b, i).unwrap();
        let want = eval_composed(a, x);
        assert_eq!(eval_composed(r, i), want, "{a} o {b} = {r} at {i}");
    }
}

/// Compositions with a swizzled right operand of negative and zero strides (the left one
/// plain or swizzled), and both plain: every answer obeys the law point by point. Also checks
/// that enough of them are answered for the test to mean something.
#[test]
fn random_compositions_with_swizzles_and_negative_strides() {
    let mut rng = Rng(0x0023_5eed_0fc0_ffee);
    let (mut answered, mut swizzled) = (0, 0);
    for round in 0..20_000 {
        let b = comp(&random_composed(&mut rng, true));
        let signed = rng.next(2) == 0;
        let a = if round % 3 == 0 {
            comp(&random_composed(&mut rng, signed))
        } else {
            comp(&random_layout(&mut rng, signed))
        };
        let r = match a.as_layout() {
            Some(al) => al.compose_composed(&b),
            None => a.compose_composed(&b),
        };
        if let Ok(r) = r {
            check_composition(&a, &b, &r);
            answered += 1;
            swizzled += usize::from(!b.layers().is_empty());
        }
    }
    assert!(
        answered > 4_000 && swizzled > 2_000,
        "{answered} {swizzled}"
    );
}

/// Products with right operands of both signs and zero strides: mode 0 is A, and the whole is
/// injective where A and B are (the copies of A do not overlap); mode 1's values are those of
/// `C ∘ B` for a C that increases and misses A's image, so for B injective, `R(i)` for
/// `i` in different copies differ.
#[test]
fn random_products_with_negative_strides() {
    let mut rng = Rng(0x0002_30dd_5eed);
    let mut answered = 0;
    for _ in 0..10_000 {
        let a = lay(&random_layout(&mut rng, false));
        let b = lay(&random_layout(&mut rng, true));
        let Ok(r) = a.logical_product(&Tiler::Layout(b.clone())) else {
            continue;
        };
        answered += 1;
        assert_eq!(r.mode(0).unwrap(), a, "{a} x {b} = {r}");
        let r1 = r.mode(1).unwrap();
        assert_eq!(r1.size(), b.size(), "{a} x {b} = {r}");
        assert!(b.shape().compatible(&r1.shape()), "{a} x {b} = {r}");
        let injective = |l: &Layout| {
            let mut v: Vec<i64> = l.offsets().collect();
            v.sort_unstable();
            v.windows(2).all(|w| w[0] != w[1])
        };
        if injective(&a) && injective(&b) {
            assert!(injective(&r), "{a} x {b} = {r} is not injective");
        }
        // R(i) = A(i mod size A) + R1(i / size A) at every point.
        let (sa, n) = (a.size(), r.size());
        for i in 0..n {
            let want = a.index_1d(i % sa).unwrap() + r1.index_1d(i / sa).unwrap();
            assert_eq!(r.index_1d(i), Some(want), "{a} x {b} = {r} at {i}");
        }
    }
    assert!(answered > 2_000, "{answered}");
}

/// Complements with cotargets up to `i64::MAX`: strictly increasing, missing A's image, and
/// `(A, R)` injective over a sample, with `cosize((A, R)) >= M` computed in `i128`.
#[test]
fn random_complements_near_i64_max() {
    let mut rng = Rng(0x23c0_5eed);
    let mut answered = 0;
    for _ in 0..5_000 {
        let a = lay(&random_layout(&mut rng, false));
        let m = match rng.next(4) {
            0 => i64::MAX - rng.next(1000) as i64,
            1 => 1 + rng.next(1 << 40) as i64,
            _ => 1 + rng.next(512) as i64,
        };
        let Ok(r) = a.complement(m) else { continue };
        answered += 1;
        let image: std::collections::HashSet<i64> = a.offsets().collect();
        let rl = r.shape();
        let (rs, rd) = (rl.leaves().to_vec(), r.stride().leaves().to_vec());
        let mut prev = None;
        for i in 0..r.size().min(64) {
            let v = eval(&rs, &rd, i).unwrap();
            assert!(
                prev.is_none_or(|p| p < v),
                "complement({a}, {m}) = {r} not increasing"
            );
            assert!(
                i == 0 || !image.contains(&v),
                "complement({a}, {m}) = {r} meets A"
            );
            prev = Some(v);
        }
        // cosize((A, R)) = max A + max R + 1 (non-negative strides).
        let cosize = i128::from(a.image_bounds().1) + i128::from(r.image_bounds().1) + 1;
        assert!(
            cosize >= i128::from(m),
            "complement({a}, {m}) = {r} falls short"
        );
    }
    assert!(answered > 1_000, "{answered}");
}

/// The inverses of swizzled composed layouts with strides of both signs: `A(R(i)) == i` for a
/// right inverse, `R(A(i)) == i` for a left inverse of an injective A.
#[test]
fn random_inverses_of_composed_layouts() {
    let mut rng = Rng(0x0231_5eed);
    let (mut right, mut left) = (0, 0);
    for _ in 0..20_000 {
        let signed = rng.next(2) == 0;
        let a = comp(&random_composed(&mut rng, signed));
        if let Ok(r) = a.right_inverse() {
            right += 1;
            for i in 0..r.size() {
                let x = eval_composed(&r, i).unwrap();
                assert_eq!(
                    eval_composed(&a, x),
                    Some(i),
                    "right_inverse({a}) = {r} at {i}"
                );
            }
        }
        let vals: Vec<i64> = (0..a.size())
            .map(|i| eval_composed(&a, i).unwrap())
            .collect();
        let mut sorted = vals.clone();
        sorted.sort_unstable();
        let injective = sorted.windows(2).all(|w| w[0] != w[1]);
        if let (true, Ok(r)) = (injective, a.left_inverse()) {
            left += 1;
            for (i, &v) in vals.iter().enumerate() {
                assert_eq!(
                    eval_composed(&r, v),
                    Some(i as i64),
                    "left_inverse({a}) = {r} at {i}"
                );
            }
        }
    }
    assert!(right > 2_000 && left > 2_000, "{right} {left}");
}
