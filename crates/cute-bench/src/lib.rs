//! Benchmark cases for the layout algebra, in the text format of `../shared/bench/cases.txt`.
//!
//! One case per line, `op arg1 [arg2]`, arguments in CuTe notation with no spaces inside an
//! argument; `#` starts a comment line. A case is parsed once ([`Case::parse`]) into the
//! library's values; [`Case::run`] then performs only the operation and folds its result into an
//! `i64` checksum (the sum of every integer leaf of the result, as the CuTe C++ baseline harness
//! does), so that a timing loop measures the operation and nothing else.
//!
//! ```
//! use cute_bench::Case;
//! let c = Case::parse("composition (4,(2,8)):(2,(1,8)) (8,4):(4,1)")?;
//! assert_eq!(c.result_text()?, "((2,4),4):((1,8),2)");
//! assert_eq!(c.run(), 2 + 4 + 4 + 1 + 8 + 2);
//! # Ok::<(), cute_bench::CaseError>(())
//! ```

use std::fmt;
use std::hint::black_box;
use std::time::Instant;

use cute_layout::{IntTuple, Layout, LayoutError, ParseError, Tiler};

/// One benchmark case: the operation with its operands already parsed.
#[derive(Clone, Debug)]
pub enum Case {
    /// `coalesce L`
    Coalesce(Layout),
    /// `composition L (L|<tiler>)`
    Composition(Layout, Tiler),
    /// `complement L M`
    Complement(Layout, i64),
    /// `right_inverse L`
    RightInverse(Layout),
    /// `left_inverse L`
    LeftInverse(Layout),
    /// `logical_divide L tiler`
    LogicalDivide(Layout, Tiler),
    /// `zipped_divide L tiler`
    ZippedDivide(Layout, Tiler),
    /// `logical_product L tiler`
    LogicalProduct(Layout, Tiler),
    /// `blocked_product L L`
    BlockedProduct(Layout, Layout),
    /// `raked_product L L`
    RakedProduct(Layout, Layout),
    /// `crd2idx COORD L`: `L(COORD)`
    Crd2Idx(IntTuple, Layout),
    /// `idx2crd IDX SHAPE`: the colexicographic natural coordinate of `IDX`
    Idx2Crd(IntTuple, IntTuple),
    /// `sweep L`: `L(i)` for every `i` in `[0, size(L))`, by the odometer walk
    Sweep(Layout),
}

/// Why a line is not a case.
#[derive(Debug)]
pub enum CaseError {
    /// The operation name is not one of the benchmark's.
    UnknownOp(String),
    /// The operation takes another number of arguments.
    Arity {
        /// The operation.
        op: String,
        /// What it takes.
        expected: usize,
        /// What the line has.
        found: usize,
    },
    /// An argument is not valid CuTe text.
    Parse {
        /// The argument's text.
        arg: String,
        /// Why.
        error: ParseError,
    },
    /// An argument that must be an integer is a tuple.
    NotAnInteger(String),
    /// The operation refused its operands (only [`Case::result_text`] reports this).
    Layout(LayoutError),
}

impl fmt::Display for CaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CaseError::UnknownOp(op) => write!(f, "unknown operation `{op}`"),
            CaseError::Arity {
                op,
                expected,
                found,
            } => write!(f, "{op} takes {expected} arguments, found {found}"),
            CaseError::Parse { arg, error } => write!(f, "argument `{arg}`: {error}"),
            CaseError::NotAnInteger(arg) => write!(f, "argument `{arg}` is not an integer"),
            CaseError::Layout(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for CaseError {}

impl From<LayoutError> for CaseError {
    fn from(e: LayoutError) -> Self {
        CaseError::Layout(e)
    }
}

fn parse_arg<T: std::str::FromStr<Err = ParseError>>(arg: &str) -> Result<T, CaseError> {
    arg.parse().map_err(|error| CaseError::Parse {
        arg: arg.to_string(),
        error,
    })
}

/// Sum of every leaf of a layout: the result checksum of the C++ baseline harness, which adds
/// the result's integers one by one.
///
/// Scalar on purpose: the compiler vectorises a plain (wrapping) sum into 16-byte loads, and a
/// result whose leaves were just written by 8-byte stores then waits for those stores to reach
/// the cache (a 16-byte load cannot take its data from two 8-byte stores in flight): complement
/// measured 26 ns with that checksum and 21 ns with this one, for the same library code. The
/// checked additions (a loop with an exit is not vectorised) never fail on real results; on
/// overflow the sum is redone wrapping.
#[inline]
fn leaf_sum(l: &Layout) -> i64 {
    let mut acc = 0i64;
    for (&s, &d) in l.shape_leaves().iter().zip(l.stride_leaves()) {
        match acc.checked_add(s).and_then(|a| a.checked_add(d)) {
            Some(a) => acc = a,
            None => return wrapping_leaf_sum(l),
        }
    }
    acc
}

/// [`leaf_sum`] when the checked sum overflows.
#[cold]
#[inline(never)]
fn wrapping_leaf_sum(l: &Layout) -> i64 {
    let leaves = l.shape_leaves().iter().chain(l.stride_leaves());
    leaves.fold(0i64, |acc, &v| acc.wrapping_add(v))
}

/// Checksum of a layout result; an error counts as `-1` (the error is reported before timing).
#[inline]
fn layout_sum(r: &Result<Layout, LayoutError>) -> i64 {
    match r {
        Ok(l) => leaf_sum(l),
        Err(_) => -1,
    }
}

impl Case {
    /// Parse one case line (`op arg1 [arg2]`). Comment and blank lines are not cases: use
    /// [`parse_cases`] for a whole file.
    ///
    /// # Errors
    /// [`CaseError::UnknownOp`], [`CaseError::Arity`], [`CaseError::Parse`].
    pub fn parse(line: &str) -> Result<Case, CaseError> {
        let mut words = line.split_whitespace();
        let op = words.next().unwrap_or("");
        let args: Vec<&str> = words.collect();
        let want = match op {
            "coalesce" | "right_inverse" | "left_inverse" | "sweep" => 1,
            "composition" | "complement" | "logical_divide" | "zipped_divide"
            | "logical_product" | "blocked_product" | "raked_product" | "crd2idx" | "idx2crd" => 2,
            _ => return Err(CaseError::UnknownOp(op.to_string())),
        };
        if args.len() != want {
            return Err(CaseError::Arity {
                op: op.to_string(),
                expected: want,
                found: args.len(),
            });
        }
        let l = || parse_arg::<Layout>(args[0]);
        let t = || parse_arg::<Tiler>(args[1]);
        Ok(match op {
            "coalesce" => Case::Coalesce(l()?),
            "right_inverse" => Case::RightInverse(l()?),
            "left_inverse" => Case::LeftInverse(l()?),
            "sweep" => Case::Sweep(l()?),
            "composition" => Case::Composition(l()?, t()?),
            "complement" => {
                let m: IntTuple = parse_arg(args[1])?;
                let m = m
                    .as_int()
                    .ok_or_else(|| CaseError::NotAnInteger(args[1].to_string()))?;
                Case::Complement(l()?, m)
            }
            "logical_divide" => Case::LogicalDivide(l()?, t()?),
            "zipped_divide" => Case::ZippedDivide(l()?, t()?),
            "logical_product" => Case::LogicalProduct(l()?, t()?),
            "blocked_product" => Case::BlockedProduct(l()?, parse_arg(args[1])?),
            "raked_product" => Case::RakedProduct(l()?, parse_arg(args[1])?),
            "crd2idx" => Case::Crd2Idx(parse_arg(args[0])?, parse_arg(args[1])?),
            "idx2crd" => Case::Idx2Crd(parse_arg(args[0])?, parse_arg(args[1])?),
            _ => unreachable!("checked above"),
        })
    }

    /// The operation's name (the first word of the case line).
    pub fn op(&self) -> &'static str {
        match self {
            Case::Coalesce(_) => "coalesce",
            Case::Composition(..) => "composition",
            Case::Complement(..) => "complement",
            Case::RightInverse(_) => "right_inverse",
            Case::LeftInverse(_) => "left_inverse",
            Case::LogicalDivide(..) => "logical_divide",
            Case::ZippedDivide(..) => "zipped_divide",
            Case::LogicalProduct(..) => "logical_product",
            Case::BlockedProduct(..) => "blocked_product",
            Case::RakedProduct(..) => "raked_product",
            Case::Crd2Idx(..) => "crd2idx",
            Case::Idx2Crd(..) => "idx2crd",
            Case::Sweep(_) => "sweep",
        }
    }

    /// How many elements one [`Case::run`] processes: `size(L)` for a sweep, 1 otherwise.
    pub fn elements(&self) -> u64 {
        match self {
            Case::Sweep(l) => l.size().max(1).unsigned_abs(),
            _ => 1,
        }
    }

    /// Perform the operation once and return the checksum of its result: the sum of all integer
    /// leaves (shape and stride) of a layout result, the index for `crd2idx`, the coordinate's
    /// leaves for `idx2crd`, the sum of all offsets for a sweep; `-1` for an error. One
    /// iteration of the timing loop itself ([`run_iters`]).
    pub fn run(&self) -> i64 {
        run_iters(self, 1)
    }

    /// The result in CuTe's text form (for checking against other implementations): a layout,
    /// an integer, a coordinate; for a sweep the comma-separated offsets.
    ///
    /// # Errors
    /// [`CaseError::Layout`] if the operation refuses its operands.
    pub fn result_text(&self) -> Result<String, CaseError> {
        Ok(match self {
            Case::Coalesce(l) => l.coalesce().to_string(),
            Case::Composition(l, t) => l.compose_tiler(t)?.to_string(),
            Case::Complement(l, m) => l.complement(*m)?.to_string(),
            Case::RightInverse(l) => l.right_inverse().to_string(),
            Case::LeftInverse(l) => l.left_inverse()?.to_string(),
            Case::LogicalDivide(l, t) => l.logical_divide(t)?.to_string(),
            Case::ZippedDivide(l, t) => l.zipped_divide(t)?.to_string(),
            Case::LogicalProduct(l, t) => l.logical_product(t)?.to_string(),
            Case::BlockedProduct(a, b) => a.blocked_product(b)?.to_string(),
            Case::RakedProduct(a, b) => a.raked_product(b)?.to_string(),
            Case::Crd2Idx(c, l) => l.index(c)?.to_string(),
            Case::Idx2Crd(i, s) => s.idx2crd(i)?.to_string(),
            Case::Sweep(l) => {
                let v: Vec<String> = l.offsets().map(|o| o.to_string()).collect();
                v.join(",")
            }
        })
    }
}

/// One case of a cases file.
#[derive(Clone, Debug)]
pub struct CaseLine {
    /// 1-based line number in the file.
    pub line: usize,
    /// The line's text.
    pub text: String,
    /// The parsed case.
    pub case: Case,
}

/// Parse a whole cases file: one [`Case`] per non-blank line that does not start with `#`.
///
/// # Errors
/// The first line that is not a case, with its 1-based line number.
pub fn parse_cases(text: &str) -> Result<Vec<CaseLine>, (usize, CaseError)> {
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let case = Case::parse(line).map_err(|e| (k + 1, e))?;
        out.push(CaseLine {
            line: k + 1,
            text: line.to_string(),
            case,
        });
    }
    Ok(out)
}

/// The operation of each case on its operands, with the result folded into the checksum of
/// [`Case::run`].
mod op {
    use super::{layout_sum, leaf_sum};
    use cute_layout::{IntTuple, Layout, Tiler};

    #[inline(always)]
    pub fn coalesce(l: &Layout) -> i64 {
        leaf_sum(&l.coalesce())
    }
    #[inline(always)]
    pub fn composition(l: &Layout, t: &Tiler) -> i64 {
        layout_sum(&l.compose_tiler(t))
    }
    #[inline(always)]
    pub fn complement(l: &Layout, m: &i64) -> i64 {
        layout_sum(&l.complement(*m))
    }
    #[inline(always)]
    pub fn right_inverse(l: &Layout) -> i64 {
        leaf_sum(&l.right_inverse())
    }
    #[inline(always)]
    pub fn left_inverse(l: &Layout) -> i64 {
        layout_sum(&l.left_inverse())
    }
    #[inline(always)]
    pub fn logical_divide(l: &Layout, t: &Tiler) -> i64 {
        layout_sum(&l.logical_divide(t))
    }
    #[inline(always)]
    pub fn zipped_divide(l: &Layout, t: &Tiler) -> i64 {
        layout_sum(&l.zipped_divide(t))
    }
    #[inline(always)]
    pub fn logical_product(l: &Layout, t: &Tiler) -> i64 {
        layout_sum(&l.logical_product(t))
    }
    #[inline(always)]
    pub fn blocked_product(a: &Layout, b: &Layout) -> i64 {
        layout_sum(&a.blocked_product(b))
    }
    #[inline(always)]
    pub fn raked_product(a: &Layout, b: &Layout) -> i64 {
        layout_sum(&a.raked_product(b))
    }
    #[inline(always)]
    pub fn crd2idx(c: &IntTuple, l: &Layout) -> i64 {
        l.index(c).unwrap_or(-1)
    }
    #[inline(always)]
    pub fn idx2crd(i: &IntTuple, s: &IntTuple) -> i64 {
        match &s.idx2crd(i) {
            Ok(c) => c.leaves().iter().fold(0i64, |a, &v| a.wrapping_add(v)),
            Err(_) => -1,
        }
    }
    #[inline(always)]
    pub fn sweep(l: &Layout) -> i64 {
        l.offsets().fold(0i64, i64::wrapping_add)
    }
}

/// Run `case` `iters` times with its operands and its result passed through
/// [`black_box`] every iteration, so that the compiler can neither hoist the operation out of
/// the loop nor drop it; returns the folded checksums.
///
/// Each operation has a timing loop of its own (a function compiled for that operation alone,
/// as the CuTe C++ baseline builds one program per case), so that changing one operation's code
/// does not move or re-register-allocate another's.
pub fn run_iters(case: &Case, iters: u64) -> i64 {
    match case {
        Case::Coalesce(l) => repeat(iters, l, op::coalesce),
        Case::Composition(l, t) => repeat(iters, &(l, t), |&(l, t)| op::composition(l, t)),
        Case::Complement(l, m) => repeat(iters, &(l, m), |&(l, m)| op::complement(l, m)),
        Case::RightInverse(l) => repeat(iters, l, op::right_inverse),
        Case::LeftInverse(l) => repeat(iters, l, op::left_inverse),
        Case::LogicalDivide(l, t) => repeat(iters, &(l, t), |&(l, t)| op::logical_divide(l, t)),
        Case::ZippedDivide(l, t) => repeat(iters, &(l, t), |&(l, t)| op::zipped_divide(l, t)),
        Case::LogicalProduct(l, t) => repeat(iters, &(l, t), |&(l, t)| op::logical_product(l, t)),
        Case::BlockedProduct(a, b) => repeat(iters, &(a, b), |&(a, b)| op::blocked_product(a, b)),
        Case::RakedProduct(a, b) => repeat(iters, &(a, b), |&(a, b)| op::raked_product(a, b)),
        Case::Crd2Idx(c, l) => repeat(iters, &(c, l), |&(c, l)| op::crd2idx(c, l)),
        Case::Idx2Crd(i, s) => repeat(iters, &(i, s), |&(i, s)| op::idx2crd(i, s)),
        Case::Sweep(l) => repeat(iters, l, op::sweep),
    }
}

/// The timing loop of one operation: `op` on the operands `x` (through [`black_box`]) `iters`
/// times, each result through [`black_box`].
#[inline(never)]
fn repeat<T: ?Sized>(iters: u64, x: &T, op: impl Fn(&T) -> i64) -> i64 {
    let mut acc = 0i64;
    for _ in 0..iters {
        acc = acc.wrapping_add(black_box(op(black_box(x))));
    }
    acc
}

/// Timings of one case, in nanoseconds per element (per operation, or per offset for a sweep).
#[derive(Clone, Debug)]
pub struct Timing {
    /// Operations per repeat (chosen so that one repeat lasts about the target time).
    pub iters: u64,
    /// For each placement of the operands relative to the results (see [`time_case`]), the
    /// fastest of its repeats; sorted ascending.
    pub ns: Vec<f64>,
}

impl Timing {
    /// The timings of two runs of the same case taken together: every placement's time of both
    /// (sorted), the iteration count of the first.
    pub fn merged(mut self, other: Timing) -> Timing {
        self.ns.extend(other.ns);
        self.ns.sort_by(f64::total_cmp);
        self
    }

    /// The fastest repeat at the most favourable placement.
    pub fn min(&self) -> f64 {
        self.ns.first().copied().unwrap_or(f64::NAN)
    }

    /// The median over the placements of their fastest repeats: the time at a typical
    /// placement.
    pub fn median(&self) -> f64 {
        let n = self.ns.len();
        match n {
            0 => f64::NAN,
            _ if n % 2 == 1 => self.ns[n / 2],
            _ => (self.ns[n / 2 - 1] + self.ns[n / 2]) / 2.0,
        }
    }
}

/// Time `case` at `placements` placements of its operands relative to the results, `repeats`
/// repeats each: the iteration count is doubled until one repeat takes at least `target_ns`
/// nanoseconds, then every repeat of every placement runs that many iterations, timed with
/// [`Instant`].
///
/// Why placements: where the operands lie relative to the result and the scratch space of an
/// operation moves its time by up to 80 % (4 KiB aliasing: a load whose address matches a
/// pending store's in its low 12 bits waits for it). Left to chance (the heap address of the
/// parsed case depends on everything allocated before it, down to the size of the environment)
/// this made two runs of the same binary differ by that much. So the timing runs on a thread of
/// its own (a page-aligned stack, its own heap arena), on a copy of the case made there, and
/// calls the operation from `placements` stack depths 512 bytes apart (spanning 4 KiB for 8):
/// [`Timing::min`] is the best placement, [`Timing::median`] a typical one.
pub fn time_case(case: &Case, target_ns: u64, repeats: usize, placements: usize) -> Timing {
    std::thread::scope(|s| {
        s.spawn(|| {
            let local = case.clone();
            let case = &local;
            black_box(run_iters(case, 1)); // warm up caches and branch predictors
            let iters = calibrate(case, target_ns);
            let mut ns: Vec<f64> = (0..placements.max(1))
                .map(|depth| below(depth, &|| fastest(case, iters, repeats)))
                .collect();
            ns.sort_by(f64::total_cmp);
            Timing { iters, ns }
        })
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e))
    })
}

/// Run `f` `depth` stack frames of about 512 bytes below this one.
#[inline(never)]
fn below(depth: usize, f: &dyn Fn() -> f64) -> f64 {
    let pad = [0u8; 448];
    black_box(&pad);
    let r = if depth == 0 { f() } else { below(depth - 1, f) };
    black_box(&pad);
    r
}

/// The iteration count for one repeat of about `target_ns` nanoseconds.
fn calibrate(case: &Case, target_ns: u64) -> u64 {
    let mut iters = 1u64;
    loop {
        let t = Instant::now();
        black_box(run_iters(case, iters));
        let ns = t.elapsed().as_nanos();
        if ns >= u128::from(target_ns) || iters >= 1 << 40 {
            // Scale to the target from the last measurement.
            if ns > 0 {
                let scaled = (iters as f64) * (target_ns as f64) / (ns as f64);
                iters = (scaled.ceil() as u64).max(1);
            }
            return iters;
        }
        iters *= 2;
    }
}

/// The fastest of `repeats` repeats of `iters` operations, in ns per element.
#[inline(never)]
fn fastest(case: &Case, iters: u64, repeats: usize) -> f64 {
    let elements = case.elements() as f64;
    (0..repeats.max(1))
        .map(|_| {
            let t = Instant::now();
            black_box(run_iters(case, iters));
            t.elapsed().as_nanos() as f64 / (iters as f64 * elements)
        })
        .fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CASES: &str = include_str!("../cases.txt");

    #[test]
    fn the_vendored_cases_parse_and_run() {
        let cases = parse_cases(CASES).expect("cases.txt parses");
        assert_eq!(cases.len(), 16);
        for CaseLine { line, text, case } in &cases {
            let r = case.result_text();
            assert!(r.is_ok(), "line {line} `{text}`: {r:?}");
            assert_ne!(case.run(), -1, "line {line} `{text}`");
        }
    }

    #[test]
    fn the_vendored_cases_match_the_shared_ones() {
        // CI has ../shared beside the repository; skip quietly where it does not.
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/bench/cases.txt"
        );
        if let Ok(shared) = std::fs::read_to_string(path) {
            assert_eq!(
                shared, CASES,
                "refresh crates/cute-bench/cases.txt from {path}"
            );
        }
    }

    #[test]
    fn bad_lines_are_typed_errors() {
        assert!(matches!(
            Case::parse("frobnicate 1:1"),
            Err(CaseError::UnknownOp(_))
        ));
        assert!(matches!(
            Case::parse("coalesce 1:1 2:2"),
            Err(CaseError::Arity { .. })
        ));
        assert!(matches!(
            Case::parse("coalesce (1,2):(1)"),
            Err(CaseError::Parse { .. })
        ));
        assert!(matches!(
            Case::parse("complement 4:1 (2,2)"),
            Err(CaseError::NotAnInteger(_))
        ));
        let e = parse_cases("# c\n\ncoalesce 4:1\nnope\n").unwrap_err();
        assert_eq!(e.0, 4);
    }

    #[test]
    fn sweep_and_coordinate_checksums() {
        let s = Case::parse("sweep (2,4):(12,1)").unwrap();
        assert_eq!(s.elements(), 8);
        assert_eq!(s.run(), 12 * 4 + (1 + 2 + 3) * 2);
        let c = Case::parse("crd2idx (1,5) (3,(2,3)):(3,(12,1))").unwrap();
        assert_eq!(c.run(), 17);
        let i = Case::parse("idx2crd 16 (3,(2,3))").unwrap();
        assert_eq!(i.result_text().unwrap(), "(1,(1,2))");
        assert_eq!(i.run(), 4);
        let t = time_case(&c, 10_000, 3, 4);
        assert_eq!(t.ns.len(), 4, "one time per placement");
        assert!(t.min() <= t.median());
    }

    #[test]
    fn merged_timings_keep_every_placement_sorted() {
        let a = Timing {
            iters: 10,
            ns: vec![2.0, 5.0],
        };
        let b = Timing {
            iters: 20,
            ns: vec![1.0, 3.0, 9.0],
        };
        let m = a.merged(b);
        assert_eq!(m.iters, 10);
        assert_eq!(m.ns, vec![1.0, 2.0, 3.0, 5.0, 9.0]);
        assert_eq!(m.min(), 1.0);
        assert_eq!(m.median(), 3.0);
    }

    #[test]
    fn leaf_sum_wraps_where_the_checked_sum_overflows() -> Result<(), ParseError> {
        // A valid layout (extent-1 modes add nothing to the cosize) whose leaves sum past i64.
        let big = 1i64 << 62;
        let l: Layout = format!("(1,1,1):({big},{big},{big})").parse()?;
        let want = 3i64.wrapping_add(big.wrapping_mul(3));
        assert_eq!(leaf_sum(&l), want);
        assert_eq!(wrapping_leaf_sum(&l), want);
        let small: Layout = "(4,(2,8)):(2,(1,8))".parse()?;
        assert_eq!(leaf_sum(&small), 4 + 2 + 8 + 2 + 1 + 8);
        Ok(())
    }
}
