//! Zero heap allocations per operation for the 16 benchmark cases (issue #7), checked on the
//! benchmark's own code: each case is parsed outside the counted region, then
//! [`Case::run`] (the operation and the checksum of its result, exactly what `cute-bench` times)
//! runs under a counting global allocator.

use std::hint::black_box;

use cute_bench::{parse_cases, Case};

#[path = "../../cute-layout/tests/support/counting.rs"]
mod counting;
use counting::allocations;

const CASES: &str = include_str!("../cases.txt");

#[test]
fn the_benchmark_cases_do_not_allocate() {
    let cases = parse_cases(CASES).expect("cases.txt parses");
    assert_eq!(cases.len(), 16);
    let mut failures = Vec::new();
    for c in &cases {
        let case: &Case = &c.case;
        let (n, sum) = allocations(|| black_box(black_box(case).run()));
        assert_ne!(sum, -1, "case `{}` is refused", c.text);
        if n != 0 {
            failures.push(format!("{n} allocations: {}", c.text));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
