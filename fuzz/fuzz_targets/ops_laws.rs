//! Every operation of the CLI's table on arguments of its declared kinds: no panic, no hang, and
//! every call passes the registry's checker (`crates/cute-ops/tests/laws/check.rs`: the contract
//! for every operation, the law for those with a law checker, the same code as the seeded test
//! `laws_all`), and every `Ok` result the conformance suite's checkers. Also renders the first
//! argument's table when it is a layout.
#![no_main]

use cute_fuzz::gen::Bytes;
use cute_fuzz::laws::{check_refusal, check_result};
use cute_fuzz::ops::run_op;
use cute_layout::Layout;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let ops: Vec<&cute_fuzz::ops::OpSpec> = cute_fuzz::ops::all().collect();
    let spec = ops[b.below(ops.len())];
    // Arguments of the kinds of one of the declaration's signatures (`laws_all` makes the same).
    let args = cute_fuzz::shared::call(&mut b, spec);
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
    // The registry's checker (contract and law), then the conformance suite's.
    if let Err(e) = cute_fuzz::shared::check::check(spec.name, &args, &result) {
        panic!("law broken: {e}");
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
