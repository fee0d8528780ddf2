//! A measurement, not part of the library: what composition case 1 of the benchmark
//! (`(4,(2,8)):(2,(1,8)) ∘ (8,4):(4,1)`) costs when its tuple *structure* is fixed in the source
//! and only the values are run-time, as in the CuTe C++ baseline's `dyn` build. Two variants:
//!
//! * `ours`: the result cute-layout returns (A coalesced, the per-leaf walk with CuTe's
//!   divisibility conditions, size-1 modes dropped, the disjointness check of the leaves, every
//!   product checked, the result's size and cosize checked); weakly divisible steps are refused
//!   instead of judged, and errors carry no detail, so this is a lower bound for our semantics;
//! * `cute`: what CuTe computes with run-time values (A flattened, not coalesced; every mode of
//!   A visited, size-1 modes kept: `((1,2,4),(4,1,1)):((8,1,8),(2,1,8))`; no checks).
//!
//! And the same two variants of logical_divide case 8 (`(128,64):(64,1) ⊘ (32,16)`, a shape
//! tiler): `divide-ours` (each mode's stride read off, the complement of the tile `n:1` in the
//! mode's size, strides scaled with checked products, the complement's and the result's size and
//! cosize checked, a size-1 complement dropped) and `divide-cute` (the same arithmetic unchecked,
//! the complement's mode always kept, as CuTe's fixed structure has it).
//!
//! Inputs pass through `black_box` on every iteration and every leaf of the result is summed
//! into a checksum, as in the baseline's harness.
//!
//! ```text
//! cargo run --release -p cute-bench --example specialised                # ns/op, both variants
//! cargo run --release -p cute-bench --example specialised -- ours 1000   # N iterations (callgrind)
//! cargo run --release -p cute-bench --example specialised -- divide-ours 1000
//! ```
//!
//! Instructions/op: run `ours N` (or `cute N`) under `valgrind --tool=callgrind` for N = 1000 and
//! 3000 and divide the difference of the totals by 2000 (BENCHMARKS.md, "Session 6").

// Index loops over the modes, as code written for one fixed structure has them.
#![allow(clippy::needless_range_loop)]

use std::hint::black_box;
use std::time::Instant;

use cute_layout::Layout;

/// Why the specialised composition refused (no detail: a prototype).
#[derive(Debug)]
enum Refused {
    Divisibility,
    Overlap,
    Overflow,
}

/// Up to `N` flat modes in fixed arrays.
#[derive(Clone, Copy)]
struct Modes<const N: usize> {
    s: [i64; N],
    d: [i64; N],
    n: usize,
}

impl<const N: usize> Modes<N> {
    fn new() -> Self {
        Modes {
            s: [0; N],
            d: [0; N],
            n: 0,
        }
    }

    fn push(&mut self, s: i64, d: i64) {
        self.s[self.n] = s;
        self.d[self.n] = d;
        self.n += 1;
    }

    /// Coalesce's rule: size-1 modes vanish, `s:d` joins the previous mode when contiguous.
    fn push_merged(&mut self, s: i64, d: i64) -> Result<(), Refused> {
        if s == 1 {
            return Ok(());
        }
        if let Some(k) = self.n.checked_sub(1) {
            if self.s[k].checked_mul(self.d[k]) == Some(d) {
                self.s[k] = self.s[k].checked_mul(s).ok_or(Refused::Overflow)?;
                return Ok(());
            }
        }
        self.push(s, d);
        Ok(())
    }
}

/// The result's checks: its size and its cosize fit in `i64`.
#[inline(always)]
fn valid<const N: usize>(out: &[Modes<N>]) -> Result<(), Refused> {
    let (mut size, mut span) = (1i64, 0i64);
    for m in out {
        for i in 0..m.n {
            size = size.checked_mul(m.s[i]).ok_or(Refused::Overflow)?;
            let reach = m.d[i].checked_abs().and_then(|x| x.checked_mul(m.s[i] - 1));
            span = reach
                .and_then(|x| span.checked_add(x))
                .ok_or(Refused::Overflow)?;
        }
    }
    Ok(())
}

fn ceil_div(a: i64, b: i64) -> i64 {
    a / b + i64::from(a % b != 0)
}

/// One leaf `n:r` of B against the coalesced `a`: its modes appended to `out`, its largest digit
/// per non-last mode of `a` in `top`.
fn leaf<const N: usize>(
    a: &Modes<N>,
    n: i64,
    r: i64,
    out: &mut Modes<N>,
    top: &mut [i64; N],
) -> Result<(), Refused> {
    if r == 0 {
        out.push(n, 0);
        return Ok(());
    }
    if a.n == 1 {
        out.push(n, r.checked_mul(a.d[0]).ok_or(Refused::Overflow)?);
        return Ok(());
    }
    let (mut rest_shape, mut rest_stride) = (n, r);
    for j in 0..a.n - 1 {
        let (s, d) = (a.s[j], a.d[j]);
        let abs = rest_stride.abs();
        if abs % s != 0 && abs >= s {
            return Err(Refused::Divisibility);
        }
        let next_shape = ceil_div(s, abs);
        let next_stride = ceil_div(abs, s) * rest_stride.signum();
        if next_shape == 1 || rest_shape == 1 {
            rest_stride = next_stride;
            continue;
        }
        let new_shape = next_shape.min(rest_shape);
        if rest_shape % new_shape != 0 || (s % abs != 0 && new_shape < rest_shape) {
            return Err(Refused::Divisibility);
        }
        top[j] = (new_shape - 1).checked_mul(abs).ok_or(Refused::Overflow)?;
        out.push(
            new_shape,
            rest_stride.checked_mul(d).ok_or(Refused::Overflow)?,
        );
        rest_shape /= new_shape;
        rest_stride = next_stride;
    }
    if out.n == 0 || rest_shape != 1 {
        let d = rest_stride
            .checked_mul(a.d[a.n - 1])
            .ok_or(Refused::Overflow)?;
        out.push(rest_shape, d);
    }
    Ok(())
}

/// `(a0,(a1,a2)):(d0,(d1,d2)) ∘ (b0,b1):(r0,r1)` with cute-layout's semantics: the result's two
/// top-level modes as flat mode lists (one mode: an integer mode; more: a tuple).
#[inline(never)]
fn ours(a: [(i64, i64); 3], b: [(i64, i64); 2]) -> Result<[Modes<3>; 2], Refused> {
    let mut am = Modes::<3>::new();
    for (s, d) in a {
        am.push_merged(s, d)?;
    }
    if am.n == 0 {
        am.push(1, 0);
    }
    let mut out = [Modes::<3>::new(); 2];
    let mut top = [[0i64; 3]; 2];
    for k in 0..2 {
        leaf(&am, b[k].0, b[k].1, &mut out[k], &mut top[k])?;
    }
    if am.n > 1 {
        for j in 0..am.n - 1 {
            if top[0][j] + top[1][j] > am.s[j] - 1 {
                return Err(Refused::Overlap);
            }
        }
        let moving = |(n, r): (i64, i64)| if n == 1 { 0 } else { r.signum() };
        if moving(b[0]) * moving(b[1]) < 0 {
            return Err(Refused::Overlap);
        }
    }
    valid(&out)?;
    Ok(out)
}

/// The same composition as CuTe computes it with run-time values: every mode of the flattened
/// A visited with `shape_div`, size-1 modes kept, no checks.
#[inline(never)]
fn cute(a: [(i64, i64); 3], b: [(i64, i64); 2]) -> [[(i64, i64); 3]; 2] {
    let mut out = [[(0i64, 0i64); 3]; 2];
    for k in 0..2 {
        let (mut rest_shape, mut rest_stride) = b[k];
        for j in 0..2 {
            let (s, d) = a[j];
            let next_shape = if s % rest_stride == 0 {
                s / rest_stride
            } else {
                1
            };
            let next_stride = if rest_stride % s == 0 {
                rest_stride / s
            } else {
                1
            };
            let new_shape = next_shape.min(rest_shape);
            out[k][j] = (new_shape, rest_stride * d);
            rest_shape /= new_shape;
            rest_stride = next_stride;
        }
        out[k][2] = (rest_shape, rest_stride * a[2].1);
    }
    out
}

/// `(a0,a1):(d0,d1) ⊘ (t0,t1)` with the library's semantics: per mode its modes (one or two).
#[inline(never)]
fn divide_ours(a: [(i64, i64); 2], t: [i64; 2]) -> Result<[Modes<2>; 2], Refused> {
    let mut out = [Modes::<2>::new(); 2];
    for i in 0..2 {
        let ((s, d), n) = (a[i], t[i]);
        if s < 2 || n < 2 {
            return Err(Refused::Divisibility); // not the case measured (the library handles it)
        }
        let rest = ceil_div(s, n);
        out[i].push(n, d);
        if rest != 1 {
            // the complement rest:n must be a valid layout, then scaled by d
            n.checked_mul(rest - 1).ok_or(Refused::Overflow)?;
            out[i].push(rest, n.checked_mul(d).ok_or(Refused::Overflow)?);
        }
    }
    valid(&out)?;
    Ok(out)
}

/// The same divide as CuTe computes it with run-time values (complement kept, no checks).
#[inline(never)]
fn divide_cute(a: [(i64, i64); 2], t: [i64; 2]) -> [[(i64, i64); 2]; 2] {
    let mut out = [[(0i64, 0i64); 2]; 2];
    for i in 0..2 {
        let ((s, d), n) = (a[i], t[i]);
        out[i] = [(n, d), (ceil_div(s, n), n * d)];
    }
    out
}

const DA: [(i64, i64); 2] = [(128, 64), (64, 1)];
const DT: [i64; 2] = [32, 16];

const A: [(i64, i64); 3] = [(4, 2), (2, 1), (8, 8)];
const B: [(i64, i64); 2] = [(8, 4), (4, 1)];

/// `iters` runs of `op` on `input` passed through `black_box` each time, the leaves of every
/// result summed into the checksum (`-1` for a refusal).
#[inline(always)]
fn repeat<I: Copy, R>(iters: u64, input: I, op: impl Fn(I) -> R, sum: impl Fn(&R) -> i64) -> i64 {
    let mut acc = 0i64;
    for _ in 0..iters {
        acc = acc.wrapping_add(sum(&op(black_box(input))));
    }
    acc
}

/// The sum of the leaves of a result given as mode lists, `-1` for a refusal.
fn sum_modes<const N: usize, const M: usize>(r: &Result<[Modes<N>; M], Refused>) -> i64 {
    match r {
        Ok(modes) => modes
            .iter()
            .flat_map(|m| m.s[..m.n].iter().zip(&m.d[..m.n]))
            .fold(0i64, |acc, (&s, &d)| acc.wrapping_add(s).wrapping_add(d)),
        Err(_) => -1,
    }
}

/// The sum of the leaves of a result given as fixed mode arrays.
fn sum_pairs<const N: usize, const M: usize>(r: &[[(i64, i64); N]; M]) -> i64 {
    r.iter()
        .flatten()
        .fold(0i64, |acc, &(s, d)| acc.wrapping_add(s).wrapping_add(d))
}

fn run_ours(iters: u64) -> i64 {
    repeat(iters, (A, B), |(a, b)| ours(a, b), sum_modes)
}

fn run_cute(iters: u64) -> i64 {
    repeat(iters, (A, B), |(a, b)| cute(a, b), sum_pairs)
}

fn run_divide_ours(iters: u64) -> i64 {
    repeat(iters, (DA, DT), |(a, t)| divide_ours(a, t), sum_modes)
}

fn run_divide_cute(iters: u64) -> i64 {
    repeat(iters, (DA, DT), |(a, t)| divide_cute(a, t), sum_pairs)
}

/// The layout text of a result given as top-level modes (one mode each: an integer mode).
fn text<const N: usize>(r: Result<[Modes<N>; 2], Refused>) -> String {
    let modes = match r {
        Ok(m) => m,
        Err(e) => return format!("refused: {e:?}"),
    };
    let mode = |m: &Modes<N>, v: &[i64; N]| match m.n {
        1 => v[0].to_string(),
        n => format!(
            "({})",
            v[..n]
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(",")
        ),
    };
    let shape: Vec<String> = modes.iter().map(|m| mode(m, &m.s)).collect();
    let stride: Vec<String> = modes.iter().map(|m| mode(m, &m.d)).collect();
    format!("({}):({})", shape.join(","), stride.join(","))
}

/// A timing loop: `iters` operations, their checksum.
type Runner = fn(u64) -> i64;

/// Best of 9 repeats of about 20 ms, in ns per op.
fn time(f: Runner) -> f64 {
    let mut iters = 1u64;
    while {
        let t = Instant::now();
        black_box(f(iters));
        t.elapsed().as_millis() < 20
    } {
        iters *= 2;
    }
    (0..9)
        .map(|_| {
            let t = Instant::now();
            black_box(f(iters));
            t.elapsed().as_secs_f64() * 1e9 / iters as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [variant, n] = &args[..] {
        let Ok(n) = n.parse::<u64>() else {
            eprintln!("specialised: `{n}` is not an iteration count");
            std::process::exit(2);
        };
        let sum = match variant.as_str() {
            "ours" => run_ours(n),
            "cute" => run_cute(n),
            "divide-ours" => run_divide_ours(n),
            "divide-cute" => run_divide_cute(n),
            _ => {
                eprintln!(
                    "specialised: the variants are `ours`, `cute`, `divide-ours` and `divide-cute`"
                );
                std::process::exit(2);
            }
        };
        println!("{sum}");
        return;
    }
    let lhs: Layout = "(4,(2,8)):(2,(1,8))".parse().expect("valid layout");
    let rhs: Layout = "(8,4):(4,1)".parse().expect("valid layout");
    let library = lhs
        .compose(&rhs)
        .map_or_else(|e| e.to_string(), |l| l.to_string());
    let ours_text = text(ours(A, B));
    println!("composition, library:          {library}");
    println!("composition, specialised ours: {ours_text}");
    println!("composition, specialised cute: {:?}", cute(A, B));
    let lhs: Layout = "(128,64):(64,1)".parse().expect("valid layout");
    let tiler: cute_layout::Tiler = "(32,16)".parse().expect("valid tiler");
    let div_library = lhs
        .logical_divide(&tiler)
        .map_or_else(|e| e.to_string(), |l| l.to_string());
    let div_text = text(divide_ours(DA, DT));
    println!("divide, library:               {div_library}");
    println!("divide, specialised ours:      {div_text}");
    println!("divide, specialised cute:      {:?}", divide_cute(DA, DT));
    if ours_text != library || div_text != div_library {
        eprintln!("specialised: a specialised result differs from the library's");
        std::process::exit(1);
    }
    // Two rounds, the best of each: the first op timed after start-up sometimes runs slow.
    let runs: [(&str, Runner); 4] = [
        ("composition ours", run_ours),
        ("composition cute", run_cute),
        ("divide ours     ", run_divide_ours),
        ("divide cute     ", run_divide_cute),
    ];
    let mut best = [f64::INFINITY; 4];
    for _ in 0..2 {
        for (b, (_, f)) in best.iter_mut().zip(runs) {
            *b = b.min(time(f));
        }
    }
    for (b, (name, _)) in best.iter().zip(runs) {
        println!("{name}: {b:.2} ns/op");
    }
}
