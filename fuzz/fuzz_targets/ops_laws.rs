//! Every operation of the CLI's table on generated arguments: no panic, no hang, and every `Ok`
//! result obeys the operation's law where the domain is small enough to enumerate (the
//! conformance suite's checkers). Also renders the first argument's table when it is a layout.
#![no_main]

use cute_fuzz::gen::{self, Bytes};
use cute_fuzz::laws::{check_refusal, check_result};
use cute_fuzz::ops::run_op;
use cute_fuzz::ops::table::Arity;
use cute_layout::Layout;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let ops: Vec<&cute_fuzz::ops::OpSpec> = cute_fuzz::ops::all().collect();
    let spec = ops[b.below(ops.len())];
    // One of the operation's signatures, as its declaration gives them.
    let sigs: Vec<_> = spec.signatures().collect();
    let sig = sigs[b.below(sigs.len())];
    let min = sig.iter().filter(|p| matches!(p.arity, Arity::One | Arity::OneOrMore)).count();
    let max = if sig.iter().any(|p| matches!(p.arity, Arity::Many | Arity::OneOrMore)) {
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
        None // the generic words, whatever the operation
    } else {
        gen::special_args(&mut b, spec.name)
    };
    let args: Vec<_> = match special {
        Some(args) => args,
        None => gen::signature_args(&mut b, sig, n),
    };
    if std::env::var_os("CUTE_FUZZ_SHOW").is_some() {
        eprintln!("{} {args:?}", spec.name); // for triage: the call an artifact makes
    }
    let result = run_op(spec.name, &args);
    if std::env::var_os("CUTE_FUZZ_SHOW").is_some() {
        match &result {
            Ok(r) => eprintln!("  = {}", r.lines().next().unwrap_or("")),
            Err(e) => eprintln!("  ! {}: {}", e.kind, e.message),
        }
    }
    match &result {
        Ok(ours) => {
            if let Err(e) = check_result(spec.name, &args, ours) {
                panic!("law broken: {e}");
            }
        }
        Err(e) => {
            if let Err(m) = check_refusal(spec.name, &args, e.kind) {
                panic!("false refusal: {m}");
            }
        }
    }
    if let Some(cute_fuzz::ops::Arg::Text(t)) = args.first() {
        if let Ok(l) = t.parse::<Layout>() {
            // The renderers' limits are tested elsewhere; drawing 65536-cell tables here would
            // only slow the search down.
            if l.size() <= 1 << 12 {
                render(&l);
            }
            let _ = (l.size(), l.cosize(), l.rank(), l.depth(), l.image_bounds());
        }
    }
});

fn render(l: &Layout) {
    if let Ok(table) = l.table() {
        let _ = table.with_coords().to_string();
    }
    if let Ok(v) = l.vector_table() {
        let _ = v.to_string();
    }
}
