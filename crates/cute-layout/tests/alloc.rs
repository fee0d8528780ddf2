//! Layouts are small values: building, copying, querying and evaluating a layout of up to 16
//! leaves must not touch the heap. A counting global allocator (this test file only; the library
//! itself forbids `unsafe`) counts the allocations of the current thread between `start` and
//! `stop`.
#![allow(unsafe_code)] // GlobalAlloc can only be implemented with `unsafe`.

use std::alloc::{GlobalAlloc, Layout as AllocLayout, System};
use std::cell::Cell;
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};

use cute_layout::{IntTuple, Layout, Tiler};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Whether allocations on this thread are counted (tests run on several threads).
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn note_allocation() {
    if COUNTING.with(Cell::get) {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
    }
}

// SAFETY: every call is forwarded unchanged to the system allocator; the counter is a side effect.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: AllocLayout) -> *mut u8 {
        note_allocation();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: AllocLayout) -> *mut u8 {
        note_allocation();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: AllocLayout, new_size: usize) -> *mut u8 {
        note_allocation();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: AllocLayout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs `f` and returns the number of heap allocations it made on this thread. Only one test
/// counts at a time (the counter is global), hence the lock.
fn allocations<R>(f: impl FnOnce() -> R) -> (usize, R) {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    ALLOCATIONS.store(0, Ordering::SeqCst);
    COUNTING.with(|c| c.set(true));
    let r = f();
    COUNTING.with(|c| c.set(false));
    (ALLOCATIONS.load(Ordering::SeqCst), r)
}

/// 16 leaves, two levels of nesting, mixed strides (26 tree tokens, within the inline 32).
const SHAPE: &str = "((2,2,2,2),(2,2,2,2),(2,2,2,2),(2,2,2,2))";
const STRIDE: &str = "((1,2,4,8),(16,32,64,128),(256,512,1024,2048),(4096,8192,16384,-32768))";

fn parts() -> (IntTuple, IntTuple) {
    (SHAPE.parse().unwrap(), STRIDE.parse().unwrap())
}

#[test]
fn the_counter_counts() {
    let (n, v) = allocations(|| black_box(vec![1u8, 2, 3]));
    assert_eq!(n, 1);
    drop(v);
}

#[test]
fn building_does_not_allocate() {
    let (shape, stride) = parts();
    let modes: [Layout; 2] = [
        "((2,2,2,2),(2,2,2,2)):((1,2,4,8),(16,32,64,128))"
            .parse()
            .unwrap(),
        "((2,2,2,2),(2,2,2,2)):((256,512,1024,2048),(4096,8192,16384,-32768))"
            .parse()
            .unwrap(),
    ];
    let (n, built) = allocations(|| {
        let a = Layout::new(black_box(shape.clone()), black_box(stride.clone())).unwrap();
        let b = Layout::col_major(black_box(shape.clone())).unwrap();
        let c = Layout::row_major(black_box(shape.clone())).unwrap();
        let d = Layout::from_modes(black_box(modes.clone())).unwrap();
        (a, b, c, d)
    });
    assert_eq!(n, 0, "building a 16-leaf layout allocated {n} times");
    let (a, b, _, d) = built;
    assert_eq!(a.leaf_count(), 16);
    assert_eq!(a.to_string(), format!("{SHAPE}:{STRIDE}"));
    assert_eq!(b.stride_leaves()[15], 32768);
    // from_modes groups the two halves: same leaves, one more level.
    assert_eq!(d.shape_leaves(), a.shape_leaves());
    assert_eq!(d.stride_leaves(), a.stride_leaves());
}

#[test]
fn cloning_and_querying_do_not_allocate() {
    let (shape, stride) = parts();
    let l = Layout::new(shape, stride).unwrap();
    let (n, out) = allocations(|| {
        let c = black_box(l.clone());
        let q = (c.size(), c.cosize(), c.rank(), c.depth(), c.leaf_count());
        let m0 = c.mode(0).unwrap();
        let m3 = c.mode(3).unwrap();
        let m21 = c.mode_at(&[2, 1]).unwrap();
        let eq = c == l;
        (q, m0.size(), m3.cosize(), m21.stride_leaves()[0], eq)
    });
    assert_eq!(n, 0, "cloning/querying allocated {n} times");
    let (q, m0, _, s21, eq) = out;
    assert_eq!(q.0, 1 << 16);
    assert_eq!((q.2, q.3, q.4), (4, 2, 16));
    assert_eq!((m0, s21, eq), (16, 512, true));
}

#[test]
fn evaluating_does_not_allocate() {
    let (shape, stride) = parts();
    let l = Layout::new(shape, stride).unwrap();
    let natural: IntTuple = "((1,0,1,0),(0,1,0,1),(1,1,0,0),(0,0,1,1))".parse().unwrap();
    let rd: IntTuple = "(5,10,3,12)".parse().unwrap();
    let (n, out) = allocations(|| {
        let mut acc = 0i64;
        for i in (0..l.size()).step_by(97) {
            acc = acc.wrapping_add(l.index_1d(black_box(i)).unwrap());
            acc = acc.wrapping_add(l.index_any(black_box(i + l.size())).unwrap());
        }
        let walked: i64 = l.offsets().fold(0i64, i64::wrapping_add);
        let a = l.index(black_box(&natural)).unwrap();
        let b = l.index(black_box(&rd)).unwrap();
        let c = l.index(black_box(&IntTuple::int(12345))).unwrap();
        (acc, walked, a, b, c)
    });
    assert_eq!(n, 0, "evaluating allocated {n} times");
    let (_, _, a, b, c) = out;
    assert_eq!(a, b, "natural and R-D coordinates of the same point");
    assert_eq!(c, l.index_1d(12345).unwrap());
}

/// The 16 cases of the benchmark (crates/cute-bench/cases.txt, a copy of
/// ../shared/bench/cases.txt): operands are parsed outside the counted region; the operation
/// itself, and reading its result, must not allocate.
const BENCH_CASES: &str = include_str!("../../cute-bench/cases.txt");

/// One benchmark case, parsed. Operands are kept as text until [`BenchCase::parse`].
enum BenchCase {
    Coalesce(Layout),
    Composition(Layout, Tiler),
    Complement(Layout, i64),
    RightInverse(Layout),
    LeftInverse(Layout),
    LogicalDivide(Layout, Tiler),
    ZippedDivide(Layout, Tiler),
    LogicalProduct(Layout, Tiler),
    BlockedProduct(Layout, Layout),
    RakedProduct(Layout, Layout),
    Crd2Idx(IntTuple, Layout),
    Idx2Crd(IntTuple, IntTuple),
    Sweep(Layout),
}

impl BenchCase {
    fn parse(line: &str) -> BenchCase {
        let w: Vec<&str> = line.split_whitespace().collect();
        let l = || w[1].parse::<Layout>().unwrap();
        let t = || w[2].parse::<Tiler>().unwrap();
        let l2 = || w[2].parse::<Layout>().unwrap();
        match w[0] {
            "coalesce" => BenchCase::Coalesce(l()),
            "composition" => BenchCase::Composition(l(), t()),
            "complement" => BenchCase::Complement(l(), w[2].parse().unwrap()),
            "right_inverse" => BenchCase::RightInverse(l()),
            "left_inverse" => BenchCase::LeftInverse(l()),
            "logical_divide" => BenchCase::LogicalDivide(l(), t()),
            "zipped_divide" => BenchCase::ZippedDivide(l(), t()),
            "logical_product" => BenchCase::LogicalProduct(l(), t()),
            "blocked_product" => BenchCase::BlockedProduct(l(), l2()),
            "raked_product" => BenchCase::RakedProduct(l(), l2()),
            "crd2idx" => BenchCase::Crd2Idx(w[1].parse().unwrap(), l2()),
            "idx2crd" => BenchCase::Idx2Crd(w[1].parse().unwrap(), w[2].parse().unwrap()),
            "sweep" => BenchCase::Sweep(l()),
            op => panic!("unknown benchmark operation {op}"),
        }
    }

    /// The operation; the result folded into a checksum (sum of all leaves).
    fn run(&self) -> i64 {
        fn sum(r: Result<Layout, cute_layout::LayoutError>) -> i64 {
            let l = r.expect("every benchmark case has a result");
            l.shape_leaves().iter().chain(l.stride_leaves()).sum()
        }
        match self {
            BenchCase::Coalesce(l) => sum(Ok(l.coalesce())),
            BenchCase::Composition(l, t) => sum(l.compose_tiler(t)),
            BenchCase::Complement(l, m) => sum(l.complement(*m)),
            BenchCase::RightInverse(l) => sum(Ok(l.right_inverse())),
            BenchCase::LeftInverse(l) => sum(l.left_inverse()),
            BenchCase::LogicalDivide(l, t) => sum(l.logical_divide(t)),
            BenchCase::ZippedDivide(l, t) => sum(l.zipped_divide(t)),
            BenchCase::LogicalProduct(l, t) => sum(l.logical_product(t)),
            BenchCase::BlockedProduct(a, b) => sum(a.blocked_product(b)),
            BenchCase::RakedProduct(a, b) => sum(a.raked_product(b)),
            BenchCase::Crd2Idx(c, l) => l.index(c).unwrap(),
            BenchCase::Idx2Crd(i, s) => s.idx2crd(i).unwrap().leaves().iter().sum(),
            BenchCase::Sweep(l) => l.offsets().sum(),
        }
    }
}

#[test]
fn the_benchmark_cases_do_not_allocate() {
    let cases: Vec<(&str, BenchCase)> = BENCH_CASES
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| (l, BenchCase::parse(l)))
        .collect();
    assert_eq!(cases.len(), 16);
    let mut failures = Vec::new();
    for (text, case) in &cases {
        let (n, _) = allocations(|| black_box(black_box(case).run()));
        if n != 0 {
            failures.push(format!("{n} allocations: {text}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
