//! `cute-bench`: time the layout algebra on a cases file (the format of
//! `../shared/bench/cases.txt`).
//!
//! * `cute-bench FILE`: one line `ID ns_per_op` per case on stdout (ID = 0-based index of the
//!   case in the file; for `sweep`, ns per element; the fastest repeat at the best of several
//!   placements of the operands, see `cute_bench::time_case`), nothing else.
//!   This is the machine-readable form other harnesses run side by side with their own.
//! * `cute-bench --stats FILE`: one line `ID min median iters` per case (median: over the
//!   placements, of each placement's fastest repeat).
//! * `--rounds N` (any timing mode): N passes over the file, each case's numbers taken over
//!   all of them (spreads the repeats over the run; `scripts/bench.sh` uses 3).
//! * `cute-bench --table FILE`: a human-readable table (min and median, the case text).
//! * `cute-bench --results FILE`: one line `ID result` per case (the result in CuTe's text form).
//! * `cute-bench --callgrind-case ID --iters N FILE`: run case ID exactly N times and nothing
//!   else, for `valgrind --tool=callgrind`: instructions/op = (Ir(N2) - Ir(N1)) / (N2 - N1).

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use cute_bench::{parse_cases, run_iters, time_case, CaseLine, Timing};

#[derive(Parser, Debug)]
#[command(
    name = "cute-bench",
    about = "Time the layout algebra on a cases file (one `ID ns_per_op` line per case)"
)]
struct Cli {
    /// The cases file (`op arg1 [arg2]` per line, `#` comments).
    file: std::path::PathBuf,
    /// Print `ID min_ns median_ns iters` per case instead of `ID ns_per_op`.
    #[arg(long, conflicts_with_all = ["table", "results", "callgrind_case"])]
    stats: bool,
    /// Print a human-readable table.
    #[arg(long, conflicts_with_all = ["results", "callgrind_case"])]
    table: bool,
    /// Print each case's result in CuTe's text form instead of timing.
    #[arg(long, conflicts_with = "callgrind_case")]
    results: bool,
    /// Run only case ID (0-based), `--iters` times, without timing (for callgrind).
    #[arg(long, value_name = "ID", requires = "iters")]
    callgrind_case: Option<usize>,
    /// Iterations for `--callgrind-case`.
    #[arg(long, value_name = "N")]
    iters: Option<u64>,
    /// Target duration of one timed repeat, in milliseconds.
    #[arg(long, default_value_t = 20, value_name = "MS")]
    repeat_ms: u64,
    /// Number of timed repeats per placement.
    #[arg(long, default_value_t = 5, value_name = "N")]
    repeats: usize,
    /// Number of placements of the operands relative to the results (stack depths 512 bytes
    /// apart): min is the best placement, median the median over placements.
    #[arg(long, default_value_t = 8, value_name = "N")]
    placements: usize,
    /// Number of passes over the whole file: each case is timed once per pass, and its numbers
    /// are taken over all passes (min: the best; median: over every placement of every pass).
    /// Passes spread a case's repeats over the run, so that a burst of load on a shared machine
    /// cannot take all of them.
    #[arg(long, default_value_t = 1, value_name = "N")]
    rounds: usize,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let text = match std::fs::read_to_string(&cli.file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cute-bench: cannot read {}: {e}", cli.file.display());
            return ExitCode::from(2);
        }
    };
    let cases = match parse_cases(&text) {
        Ok(c) => c,
        Err((line, e)) => {
            eprintln!("cute-bench: {}:{line}: {e}", cli.file.display());
            return ExitCode::from(2);
        }
    };
    // Every case is run once before timing: a refused operation is reported (its error path is
    // still timed, so that a side-by-side run keeps one line per case).
    for (id, CaseLine { line, text, case }) in cases.iter().enumerate() {
        if let Err(e) = case.result_text() {
            eprintln!(
                "cute-bench: case {id} ({}:{line}) `{text}` is refused: {e}",
                cli.file.display()
            );
        }
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let r = if let Some(id) = cli.callgrind_case {
        let Some(CaseLine { case, .. }) = cases.get(id) else {
            eprintln!("cute-bench: no case {id} (the file has {})", cases.len());
            return ExitCode::from(2);
        };
        let sum = run_iters(case, cli.iters.unwrap_or(1));
        // The checksum goes to stderr so that stdout stays empty in this mode.
        eprintln!("checksum {sum}");
        Ok(())
    } else if cli.results {
        cases
            .iter()
            .enumerate()
            .try_for_each(|(id, CaseLine { case, .. })| {
                let r = case.result_text().unwrap_or_else(|e| format!("error: {e}"));
                writeln!(out, "{id} {r}")
            })
    } else {
        let target = cli.repeat_ms.max(1) * 1_000_000;
        if cli.table {
            let _ = writeln!(
                out,
                "{:>3}  {:>10}  {:>10}  {:>12}  case (sweep: ns per element)",
                "id", "min ns", "median ns", "iters"
            );
        }
        // One more pass of a case, taken together with its earlier passes.
        let pass = |case, earlier: Option<Timing>| {
            let new = time_case(case, target, cli.repeats, cli.placements);
            match earlier {
                Some(old) => old.merged(new),
                None => new,
            }
        };
        // Every pass but the last only collects; the last prints as it goes.
        let mut timings: Vec<Option<Timing>> = vec![None; cases.len()];
        for _ in 1..cli.rounds.max(1) {
            for (t, CaseLine { case, .. }) in timings.iter_mut().zip(&cases) {
                *t = Some(pass(case, t.take()));
            }
        }
        cases
            .iter()
            .enumerate()
            .try_for_each(|(id, CaseLine { text, case, .. })| {
                let t = pass(case, timings[id].take());
                let r = if cli.table {
                    writeln!(
                        out,
                        "{id:>3}  {:>10.3}  {:>10.3}  {:>12}  {text}",
                        t.min(),
                        t.median(),
                        t.iters
                    )
                } else if cli.stats {
                    writeln!(out, "{id} {:.4} {:.4} {}", t.min(), t.median(), t.iters)
                } else {
                    writeln!(out, "{id} {:.4}", t.min())
                };
                r.and_then(|()| out.flush())
            })
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cute-bench: {e}");
            ExitCode::FAILURE
        }
    }
}
