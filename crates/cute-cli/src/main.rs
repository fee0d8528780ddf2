//! `cute`: show, compute and batch-evaluate CuTe layouts from the command line.
//!
//! ```text
//! cute show '(2,(2,2)):(4,(2,1))'        the layout, size, cosize, rank, depth and its table
//! cute size '(2,(2,2)):(4,(2,1))'        any operation by its CuTe name (`cute ops` lists them)
//! cute batch < requests.jsonl            one JSON request per line, one JSON answer per line
//! ```
//!
//! Exit status: 0 on success; 2 for a usage error (unknown operation, wrong number of arguments,
//! text that does not parse, a malformed argument); 1 when the operation refuses its (well-formed)
//! input, e.g. a coordinate outside the shape. Errors are one line on stderr. A closed output pipe
//! ends the program quietly.
#![forbid(unsafe_code)]

mod batch;
mod draw;

use cute_ops as ops;
use cute_ops::analysis;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use cute_layout::ComposedLayout;

use crate::ops::{run_op, Arg, OpError};

#[derive(Parser)]
#[command(
    name = "cute",
    version,
    about = "CuTe layouts on the command line: show, compute, batch-evaluate",
    after_help = "Any operation of `cute ops` is also a command: `cute OP ARGS...`, e.g.\n  \
                  cute crd2idx '(1,5)' '(3,(2,3)):(3,(12,1))'\n\n\
                  Exit status:\n  \
                  0  success; also `cute batch` at the end of its input, whatever the answers, and\n     \
                  any command whose output pipe was closed (e.g. by `| head`)\n  \
                  1  the operation refused its input (the error names the condition), or\n     \
                  `cute batch` could not read its input or write its answers\n  \
                  2  usage error: unknown operation, wrong number of arguments, text that does\n     \
                  not parse, a malformed argument"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print a layout, its size, cosize, rank and depth, and CuTe's print_layout table.
    Show {
        /// The layout, e.g. '(2,(2,2)):(4,(2,1))'.
        layout: String,
        /// Add the column coordinates to the table (01_layout.md's "Index Mapping" figure).
        #[arg(long)]
        coords: bool,
        /// Also print the vector view (Layout / Coord / Index lines).
        #[arg(long)]
        vector: bool,
        /// Colour the table: auto (when stdout is a terminal and NO_COLOR is unset), always, never.
        #[arg(long, default_value = "auto", value_name = "WHEN")]
        color: String,
    },
    /// Draw a layout, a thread-value layout (--tv), its banks (--banks) or an operation as SVG.
    Svg(draw::DrawArgs),
    /// The same pictures as `svg`, rendered to PNG (-o FILE required).
    Png(draw::DrawArgs),
    /// CuTe's print_latex / print_latex_tv (--tv): a TikZ picture of a layout.
    Latex(draw::DrawArgs),
    /// Shared-memory bank conflicts of an access pattern (e.g. a warp reading each row).
    Banks(draw::BanksArgs),
    /// C++ for a layout: `int64_t NAME(i)` and `NAME(c0, c1, ...)`, host and device (nvcc).
    Codegen {
        /// The layout, swizzled layout (`Sw<3,2,5> o 0 o (32,32):(32,1)`) or TV layout.
        layout: String,
        /// The function's name.
        #[arg(long, default_value = "f")]
        name: String,
        /// Put it in this namespace (`a::b` nests).
        #[arg(long)]
        namespace: Option<String>,
        /// Print instead a host test program that checks NAME at every point against the library.
        #[arg(long)]
        check: bool,
        /// The header the test program includes (default NAME.hpp).
        #[arg(long)]
        header: Option<String>,
    },
    /// Shared-memory layout of a tile with the fewest bank conflicts for its writes and reads.
    SmemSearch {
        /// The tile's shape, e.g. '(32,32)'.
        #[arg(long)]
        tile: String,
        /// How the threads write the tile: a TV layout (thread, value) -> tile index.
        #[arg(long)]
        write: String,
        /// How the threads read it.
        #[arg(long)]
        read: String,
        /// Bytes per element.
        #[arg(long, default_value_t = 4)]
        elem: i64,
        /// How many of the ranked layouts to print.
        #[arg(long, default_value_t = 3)]
        top: usize,
        /// Print only results of this kind: row-major, column-major, padded, swizzled.
        #[arg(long)]
        kind: Option<String>,
        /// Evaluate these layouts of the tile instead of searching (repeatable).
        #[arg(long = "layout")]
        layouts: Vec<String>,
    },
    /// Answer JSON requests read from stdin, one per line: {"op": NAME, "args": [...]}.
    Batch,
    /// List the operations that `cute OP` and `cute batch` run.
    Ops,
    /// The canonical layout whose 1-D function takes the given values: `cute find 0,2,4,7,9,11`.
    Find {
        /// The values v0,v1,... (comma-separated, one or several words).
        #[arg(required = true, allow_negative_numbers = true)]
        values: Vec<String>,
        /// Find a layout of this shape instead.
        #[arg(long)]
        shape: Option<String>,
    },
    /// Explain an operation step by step: `cute explain composition A B` (also complement,
    /// divides, products).
    Explain {
        /// The operation.
        op: String,
        /// Its arguments.
        #[arg(allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Run an operation: `cute OP ARGS...` (see `cute ops`).
    #[command(external_subcommand)]
    Op(Vec<String>),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Show {
            layout,
            coords,
            vector,
            color,
        } => match draw::want_color(&color).and_then(|c| show(&layout, coords, vector, c)) {
            Ok(text) => emit(&text),
            Err(e) => fail(&e),
        },
        Command::Svg(a) => draw::run(&a, draw::Format::Svg),
        Command::Png(a) => draw::run(&a, draw::Format::Png),
        Command::Latex(a) => draw::run(&a, draw::Format::Latex),
        Command::Banks(a) => match draw::banks_report(&a) {
            Ok(text) => emit(&text),
            Err(e) => fail(&e),
        },
        Command::Codegen {
            layout,
            name,
            namespace,
            check,
            header,
        } => match layout
            .parse::<ComposedLayout>()
            .map_err(|e| OpError::new("ParseError", format!("codegen: {e}")))
            .and_then(|c| {
                ops::codegen::codegen(&c, &name, namespace.as_deref(), check, header.as_deref())
            }) {
            Ok(text) => emit(&text),
            Err(e) => fail(&e),
        },
        Command::SmemSearch {
            tile,
            write,
            read,
            elem,
            top,
            kind,
            layouts,
        } => match ops::codegen::smem_search_report(
            &tile,
            &write,
            &read,
            elem,
            &layouts,
            top,
            kind.as_deref(),
        ) {
            Ok(text) => emit(&text),
            Err(e) => fail(&e),
        },
        Command::Batch => {
            let stdin = io::stdin();
            let stdout = io::stdout();
            match batch::run(stdin.lock(), stdout.lock()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    note(&format!("cute batch: {e}"));
                    ExitCode::FAILURE
                }
            }
        }
        Command::Ops => {
            let width = ops::all().map(|s| s.name.len() + s.usage.len()).max();
            let width = width.unwrap_or(0) + 1;
            let text: String = ops::all()
                .map(|s| {
                    let call = format!("{} {}", s.name, s.usage);
                    format!("{call:<width$}  {}\n", s.about)
                })
                .collect();
            emit(&text)
        }
        Command::Find { values, shape } => match analysis::find(&values, shape.as_deref()) {
            Ok(text) => emit(&(text + "\n")),
            Err(e) => fail(&e),
        },
        Command::Explain { op, args } => match analysis::explain(&op, &args) {
            Ok(text) => emit(&text),
            Err(e) => fail(&e),
        },
        Command::Op(words) => {
            let Some((op, rest)) = words.split_first() else {
                return fail(&OpError::new("UnknownOp", "no operation given"));
            };
            let args: Vec<Arg> = rest.iter().cloned().map(Arg::Text).collect();
            match run_op(op, &args) {
                Ok(text) => emit(&(text + "\n")),
                Err(e) => fail(&e),
            }
        }
    }
}

/// `cute show`: the layout's text form and properties, then its table.
fn show(text: &str, coords: bool, vector: bool, color: bool) -> Result<String, OpError> {
    // A layout, or a swizzled layout `Sw<B,M,S> o OFF o L` (its table is L's through the
    // swizzle layers).
    let c: ComposedLayout = text
        .parse()
        .map_err(|e| OpError::new("ParseError", format!("show: {e}")))?;
    let l = c.layout();
    let mut out = format!(
        "layout: {c}\nsize:   {}\ncosize: {}\nrank:   {}\ndepth:  {}\n",
        c.size(),
        c.cosize(),
        c.rank(),
        c.depth()
    );
    let post = |x: i64| c.post(x).unwrap_or(x);
    let name = c.to_string();
    let table = l.table().map(|t| match c.as_layout() {
        Some(_) => t,
        None => t.with_post_map(&post, &name),
    });
    match table.map(|t| if color { t.with_ansi() } else { t }) {
        Ok(t) if coords => out += &t.with_coords().to_string(),
        Ok(t) => out += &t.to_string(),
        Err(e) => out += &format!("table omitted: {e}\n"),
    }
    if vector {
        let vector = l.vector_table().map(|t| match c.as_layout() {
            Some(_) => t,
            None => t.with_post_map(&post, &name),
        });
        match vector {
            Ok(v) => out += &v.to_string(),
            Err(e) => out += &format!("vector view omitted: {e}\n"),
        }
    }
    Ok(out)
}

/// Writes `text` to stdout; a closed pipe is not an error.
fn emit(text: &str) -> ExitCode {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            note(&format!("cute: cannot write output: {e}"));
            ExitCode::FAILURE
        }
    }
}

/// Reports `e` as one line on stderr and picks the exit status.
fn fail(e: &OpError) -> ExitCode {
    let message = e.message.replace(['\n', '\r'], " ");
    note(&format!("cute: error[{}]: {message}", e.kind));
    match e.kind {
        "UnknownOp" | "Arity" | "ParseError" | "BadRequest" => ExitCode::from(2),
        _ => ExitCode::from(1),
    }
}

/// Writes one line to stderr; unlike `eprintln!`, a closed stderr is not a panic.
fn note(line: &str) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}
