//! Runs every example (each checks its own results with assertions), so CI executes them.

#[path = "../examples/bank_conflicts.rs"]
mod bank_conflicts;
#[path = "../examples/partition.rs"]
mod partition;
#[path = "../examples/transpose.rs"]
mod transpose;

#[test]
fn example_transpose_runs() {
    transpose::main().unwrap();
}

#[test]
fn example_partition_runs() {
    partition::main().unwrap();
}

#[test]
fn example_bank_conflicts_runs() {
    bank_conflicts::main().unwrap();
}
