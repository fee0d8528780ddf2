//! Law checkers and argument generators for every operation of the table, shared by the
//! seeded test `laws_all.rs` and the fuzz target `ops_laws` (which includes this module by path).
#![allow(dead_code)]

pub mod check;
pub mod check_apps;
pub mod check_tools;
pub mod generate;

use cute_ops::table::Arity;
use cute_ops::Arg;
use generate::Bytes;

/// One generated call: an operation (by its index in `cute_ops::all()`) and its arguments, from
/// the bytes alone: a signature of the declaration, a count of arguments around its bounds,
/// arguments of the parameters' kinds (or the operation's dependent-argument generator).
pub fn call(b: &mut Bytes, spec: &cute_ops::OpSpec) -> Vec<Arg> {
    let sigs: Vec<_> = spec.signatures().collect();
    let sig = sigs[b.below(sigs.len())];
    let min = sig
        .iter()
        .filter(|p| matches!(p.arity, Arity::One | Arity::OneOrMore))
        .count();
    let max = if sig
        .iter()
        .any(|p| matches!(p.arity, Arity::Many | Arity::OneOrMore))
    {
        min + 3
    } else {
        sig.len()
    };
    let hi = max.min(min + 3).min(6).max(min);
    // Rarely a wrong number of arguments.
    let n = if b.below(32) == 0 {
        b.below(5)
    } else {
        min + b.below(hi - min + 1)
    };
    let special = if b.below(4) == 0 {
        None
    } else {
        generate::special_args(b, spec.name)
    };
    special.unwrap_or_else(|| generate::signature_args(b, sig, n))
}
