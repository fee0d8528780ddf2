//! The unit tests' calls of [`crate::run_op`] with text arguments.

use crate::{run_op, Arg, OpError};

/// Text arguments.
pub(crate) fn texts(args: &[&str]) -> Vec<Arg> {
    args.iter().map(|s| Arg::Text((*s).into())).collect()
}

/// The answer of a call that must succeed.
pub(crate) fn ok(op: &str, args: &[&str]) -> String {
    run_op(op, &texts(args)).unwrap_or_else(|e| panic!("{op} {args:?}: {e}"))
}

/// The error of a call that must fail.
pub(crate) fn err(op: &str, args: &[&str]) -> OpError {
    match run_op(op, &texts(args)) {
        Ok(r) => panic!("{op} {args:?}: answered {r:?}, expected an error"),
        Err(e) => e,
    }
}

/// The error kind of a call that must fail.
pub(crate) fn kind(op: &str, args: &[&str]) -> &'static str {
    err(op, args).kind
}

/// The answer, or the error kind.
pub(crate) fn run(op: &str, args: &[&str]) -> Result<String, String> {
    run_op(op, &texts(args)).map_err(|e| e.kind.to_string())
}

/// Checks that each call `(op, args, kind)` fails with that error kind.
pub(crate) fn assert_kinds(cases: &[(&str, &[&str], &str)]) {
    for (op, args, want) in cases {
        assert_eq!(kind(op, args), *want, "{op} {args:?}");
    }
}
