//! Every error an operation gives is one its declaration names (`OpSpec::errors`, with the
//! errors of the arguments every operation can give, `table::INPUT_ERRORS`): the examples, and
//! seeded random calls of the laws registry's generators (`laws/`).
//!
//! `CUTE_ERRORS_CALLS` sets the calls per operation (default 300).

use crate::laws;
use cute_ops::{all, run_op, Arg};
use laws::generate::Bytes;

use crate::laws_all::bytes;

#[test]
fn every_error_given_is_declared() {
    let per_op: u64 = std::env::var("CUTE_ERRORS_CALLS")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(300);
    let mut undeclared: Vec<String> = Vec::new();
    for (k, spec) in all().enumerate() {
        let example: Vec<Arg> = spec
            .example
            .iter()
            .map(|s| Arg::Text(s.to_string()))
            .collect();
        let mut calls = vec![example];
        for i in 0..per_op {
            let data = bytes(0xe770_5eed ^ ((k as u64) << 40) ^ i, 512);
            calls.push(laws::call(&mut Bytes::new(&data), spec));
        }
        for args in calls {
            if let Err(e) = run_op(spec.name, &args) {
                if !spec.declares_error(e.kind) {
                    let line = format!("{} {}", spec.name, e.kind);
                    if !undeclared.contains(&line) {
                        eprintln!("UNDECLARED {line}: {args:?} {}", e.message);
                        undeclared.push(line);
                    }
                }
            }
        }
    }
    undeclared.sort();
    assert_eq!(
        undeclared,
        Vec::<String>::new(),
        "errors given but not declared"
    );
}

#[test]
fn every_declared_error_has_its_condition() {
    for spec in all() {
        for kind in spec.errors {
            assert!(
                cute_ops::table::condition(kind).is_some(),
                "{}: {kind} has no condition in ERROR_CONDITIONS",
                spec.name
            );
        }
    }
}

#[test]
fn help_lists_the_errors() {
    let spec = cute_ops::find("complement").unwrap();
    let help = cute_ops::help::render(spec);
    assert!(help.contains("\nErrors:\n"), "{help}");
    for kind in spec.errors {
        assert!(help.contains(&format!("  {kind}: ")), "{kind} in {help}");
    }
    assert!(help.contains("  KindMismatch: "), "{help}");
}
