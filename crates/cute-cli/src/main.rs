//! `cute`: show, compute and batch-evaluate CuTe layouts from the command line.
//!
//! ```text
//! cute show '(2,(2,2)):(4,(2,1))'        the layout, size, cosize, rank, depth and its table
//! cute size '(2,(2,2)):(4,(2,1))'        any operation by its CuTe name (`cute ops` lists them)
//! cute batch < requests.jsonl            one JSON request per line, one JSON answer per line
//! ```
//!
//! `cute OP --help` and `cute help OP` print an operation's usage, law and example.
//!
//! Exit status: 0 on success; 2 for a usage error (unknown command or operation, wrong number of
//! arguments, text that does not parse, a malformed option); 1 when the operation refuses its
//! (well-formed) input, e.g. a coordinate outside the shape. Errors are one line on stderr,
//! `cute: error[Kind]: message`. A closed output pipe ends the program quietly.
#![forbid(unsafe_code)]

mod batch;
mod draw;

use cute_ops as ops;
use cute_ops::analysis;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use crate::ops::{run_op, Arg, OpError};

#[derive(Parser)]
#[command(
    name = "cute",
    version,
    about = "CuTe layouts on the command line: show, compute, batch-evaluate",
    disable_help_subcommand = true,
    after_help = "Any operation of `cute ops` is also a command: `cute OP ARGS...`, e.g.\n  \
                  cute crd2idx '(1,5)' '(3,(2,3)):(3,(12,1))'\n\
                  `cute OP --help` or `cute help OP` prints its usage, law and an example.\n\n\
                  Exit status:\n  \
                  0  success; also `cute batch` at the end of its input, whatever the answers, and\n     \
                  any command whose output pipe was closed (e.g. by `| head`)\n  \
                  1  the operation refused its input (the error names the condition), or\n     \
                  `cute batch` could not read its input or write its answers\n  \
                  2  usage error: unknown command or operation, wrong number of arguments, text\n     \
                  that does not parse, a malformed option\n\
                  Errors are one line on stderr: cute: error[Kind]: message"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print a layout, its size, cosize, rank and depth, and CuTe's print_layout table.
    Show {
        /// The layout, e.g. '(2,(2,2)):(4,(2,1))', a swizzled layout 'Sw<3,4,3> o 0 o (8,64):(64,1)',
        /// or a shape '(2,4)' (its compact column-major layout).
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
    Svg(draw::SvgArgs),
    /// The same pictures as `svg`, rendered to PNG (-o FILE required).
    Png(draw::PngArgs),
    /// CuTe's print_latex / print_latex_tv (--tv): a TikZ picture of a layout.
    Latex(draw::LatexArgs),
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
        /// Build the layout in another language instead: cute-dsl (a Python function NAME() for
        /// the CuTe DSL) or cpp (the CuTe C++ type NAME_t and NAME()).
        #[arg(long)]
        lang: Option<String>,
    },
    /// Shared-memory layout of a tile whose writes and reads take the fewest wavefronts.
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
        /// Lanes of each warp that supply the writes' addresses (16 for ldmatrix/stmatrix .x2, 8 for .x1).
        #[arg(long, default_value_t = 32)]
        write_lanes: usize,
        /// Lanes of each warp that supply the reads' addresses.
        #[arg(long, default_value_t = 32)]
        read_lanes: usize,
        /// How many of the ranked layouts to print.
        #[arg(long, default_value_t = 3)]
        top: usize,
        /// Print only results of this kind: row-major, column-major, padded, swizzled, swizzled-padded.
        #[arg(long)]
        kind: Option<String>,
        /// Evaluate these layouts of the tile instead of searching (repeatable).
        #[arg(long = "layout")]
        layouts: Vec<String>,
    },
    /// Answer JSON requests read from stdin, one per line: {"op": NAME, "args": [...]}.
    Batch,
    /// List the operations that `cute OP` and `cute batch` run.
    Ops {
        /// Print the reference docs/OPERATIONS.md instead (by topic: usage, summary, law, example).
        #[arg(long)]
        markdown: bool,
    },
    /// The canonical layout whose 1-D function takes the given values: `cute find 0,2,4,7,9,11`.
    Find {
        /// The values v0,v1,... (comma-separated, one or several words).
        #[arg(required = true, allow_negative_numbers = true)]
        values: Vec<String>,
        /// Find a layout of this shape instead.
        #[arg(long)]
        shape: Option<String>,
    },
    /// Explain an algebra operation step by step: `cute explain composition A B` (every
    /// operation of `cute explain --help`).
    #[command(after_help = analysis::EXPLAINED_HELP)]
    Explain {
        /// The operation.
        op: String,
        /// Its arguments.
        #[arg(allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// List the MMA and copy atom families of CuTe C++ (SM50-SM120); FILTER keeps those whose
    /// pattern contains it, or of that architecture or kind (`sm90`, `mma`, `copy`).
    Atoms {
        /// e.g. `sm80`, `GMMA`, `mma`.
        filter: Option<String>,
        /// List every MMA atom name instead of the families (UMMA, SM120 and UniversalFMA: one
        /// example each).
        #[arg(long)]
        names: bool,
    },
    /// Print an MMA atom's layouts (CuTe's MMA_Traits), or a tiled MMA's with --layout or
    /// --permutation: `cute mma SM80_16x8x16_F16F16F16F16_TN --layout '(2,2,1)'`.
    Mma {
        /// The atom, as CuTe C++ spells the type (quote template arguments).
        atom: String,
        /// The atom layout of make_tiled_mma, a layout or a shape (default (1,1,1)).
        #[arg(long, value_name = "LAYOUT")]
        layout: Option<String>,
        /// The permutation of make_tiled_mma, a tiler such as '(32,32,16)'.
        #[arg(long, value_name = "TILER")]
        permutation: Option<String>,
    },
    /// Print a copy atom's layouts for a value type (CuTe's Copy_Atom<ATOM,TYPE>), or a tiled
    /// copy's with --thr/--val (make_tiled_copy) or --mma (make_tiled_copy_A/B/C):
    /// `cute copy SM75_U32x4_LDSM_N half_t --thr '(32,1):(1,0)' --val '(1,8):(0,1)'`.
    Copy {
        /// The copy atom, as CuTe C++ spells the type (quote template arguments).
        atom: String,
        /// The value type: half_t, bfloat16_t, float, double, uint8_t, ...
        #[arg(value_name = "TYPE")]
        ty: String,
        #[command(flatten)]
        tiled: draw::CopyArgs,
        /// With --mma: the atom layout of make_tiled_mma (a layout or a shape).
        #[arg(long, value_name = "LAYOUT")]
        layout: Option<String>,
        /// With --mma: the permutation of make_tiled_mma, a tiler such as '(32,32,16)'.
        #[arg(long, value_name = "TILER")]
        permutation: Option<String>,
    },
    /// Help on a command or an operation: `cute help OP`.
    Help {
        /// The command or operation.
        topic: Option<String>,
    },
    /// Run an operation: `cute OP ARGS...` (see `cute ops`).
    #[command(external_subcommand)]
    Op(Vec<String>),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_error(&e),
    };
    match cli.command {
        Command::Show {
            layout,
            coords,
            vector,
            color,
        } => match draw::want_color(&color).and_then(|color| {
            ops::show::show(
                &layout,
                ops::show::ShowOptions {
                    coords,
                    vector,
                    color,
                },
            )
        }) {
            Ok(text) => emit(&text),
            Err(e) => fail(&e),
        },
        Command::Svg(a) => draw::run_svg(&a),
        Command::Png(a) => draw::run_png(&a),
        Command::Latex(a) => draw::run_latex(&a),
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
            lang,
        } => match ops::show::parse_showable("codegen", &layout)
            .map_err(|e| {
                // A text the table reads as another kind (a chain with a layout as its outer
                // function) gets the table's error, which names the condition.
                match run_op("codegen", &[Arg::Text(layout.clone())]) {
                    Err(t) if t.kind != "ParseError" => t,
                    _ => e,
                }
            })
            .and_then(|c| match &lang {
                Some(l) if !check && namespace.is_none() => {
                    ops::codegen::codegen_lang(&c, &name, l)
                }
                Some(l) => Err(ops::OpError::new(
                    "BadRequest",
                    format!("codegen: --lang {l} goes with neither --check nor --namespace"),
                )),
                None => {
                    ops::codegen::codegen(&c, &name, namespace.as_deref(), check, header.as_deref())
                }
            }) {
            Ok(text) => emit(&text),
            Err(e) => fail(&e),
        },
        Command::SmemSearch {
            tile,
            write,
            read,
            elem,
            write_lanes,
            read_lanes,
            top,
            kind,
            layouts,
        } => match ops::codegen::smem_search_report(
            &tile,
            &write,
            &read,
            ops::codegen::SmemAccess {
                elem_bytes: elem,
                lanes: (write_lanes, read_lanes),
            },
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
        Command::Ops { markdown } => emit(&if markdown {
            ops::help::markdown()
        } else {
            ops::help::list()
        }),
        Command::Find { values, shape } => match analysis::find(&values, shape.as_deref()) {
            Ok(text) => emit(&(text + "\n")),
            Err(e) => fail(&e),
        },
        Command::Explain { op, args } => match analysis::explain(&op, &args) {
            Ok(text) => emit(&text),
            Err(e) => fail(&e),
        },
        Command::Atoms { filter, names } => match atoms(filter.as_deref(), names) {
            Ok(text) => emit(&text),
            Err(e) => fail(&e),
        },
        Command::Mma {
            atom,
            layout,
            permutation,
        } => match mma(&atom, layout.as_deref(), permutation.as_deref()) {
            Ok(text) => emit(&text),
            Err(e) => fail(&e),
        },
        Command::Copy {
            atom,
            ty,
            mut tiled,
            layout,
            permutation,
        } => {
            tiled.layout = layout;
            tiled.permutation = permutation;
            match ops::copy_atoms::describe_copy(&tiled.spec(&atom, &ty)) {
                Ok(text) => emit(&text),
                Err(e) => fail(&e),
            }
        }
        Command::Help { topic } => help(topic.as_deref()),
        Command::Op(words) => {
            let Some((op, rest)) = words.split_first() else {
                return fail(&OpError::new("UnknownOp", "no operation given"));
            };
            if rest.iter().any(|w| w == "--help" || w == "-h") {
                return help(Some(op));
            }
            if ops::find(op).is_none() {
                return fail(&unknown(op));
            }
            let args: Vec<Arg> = rest.iter().cloned().map(Arg::Text).collect();
            match run_op(op, &args) {
                Ok(text) => emit(&(text + "\n")),
                Err(e) => fail(&e),
            }
        }
    }
}

/// The commands of `cute` other than the operations (`show`, `svg`, ...).
fn commands() -> Vec<String> {
    Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect()
}

/// The error for a word that is neither a command nor an operation, naming the nearest one.
fn unknown(word: &str) -> OpError {
    let commands = commands();
    let names = commands
        .iter()
        .map(String::as_str)
        .chain(ops::all().map(|s| s.name));
    match ops::help::suggest(word, names) {
        Some(near) => OpError::new(
            "UnknownOp",
            format!("unknown command or operation {word:?}; did you mean {near}?"),
        ),
        None => OpError::new(
            "UnknownOp",
            format!("unknown command or operation {word:?} (`cute --help` lists the commands, `cute ops` the operations)"),
        ),
    }
}

/// `cute help [TOPIC]`, `cute OP --help`: a command's help, or an operation's usage, law and
/// example.
fn help(topic: Option<&str>) -> ExitCode {
    let Some(topic) = topic else {
        return emit(&Cli::command().render_long_help().to_string());
    };
    if commands().iter().any(|c| c == topic) {
        return match Cli::try_parse_from(["cute", topic, "--help"]) {
            Err(e) => emit(&command_help(topic, &e)),
            Ok(_) => ExitCode::SUCCESS,
        };
    }
    if let Some(spec) = ops::find(topic) {
        return emit(&ops::help::render(spec));
    }
    fail(&unknown(topic))
}

/// clap's help of a command, followed by the law and example of the operation of the same
/// name (`show`, `explain`) if there is one.
fn command_help(command: &str, e: &clap::Error) -> String {
    let mut text = e.render().to_string();
    if let Some(spec) = ops::find(command) {
        text += "\n";
        text += &ops::help::render_law_and_example(spec);
    }
    text
}

/// A command-line error found by clap, as one line (`cute --help` and `--version` print as
/// usual).
fn clap_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp => {
            let words: Vec<String> = std::env::args_os()
                .skip(1)
                .map(|w| w.to_string_lossy().into_owned())
                .collect();
            let command = words.iter().find(|w| !w.starts_with('-'));
            return emit(&command_help(command.map_or("", String::as_str), e));
        }
        ErrorKind::DisplayVersion => return emit(&e.render().to_string()),
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = write!(io::stderr().lock(), "{}", e.render());
            return ExitCode::from(2);
        }
        _ => {}
    }
    let text = e.render().to_string();
    let mut message = String::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        let line = line.strip_prefix("error: ").unwrap_or(line);
        if line.is_empty() {
            continue;
        }
        if !message.is_empty() {
            message += if line.starts_with("tip:") { "; " } else { " " };
        }
        message += line;
    }
    let words: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    let command = words
        .iter()
        .find(|w| !w.starts_with('-'))
        .filter(|w| commands().contains(w));
    match command {
        Some(c) => message += &format!(" (`cute {c} --help` for usage)"),
        None => message += " (`cute --help` for usage)",
    }
    fail(&OpError::new("Usage", message))
}

/// `cute atoms [FILTER] [--names]`.
fn atoms(filter: Option<&str>, names: bool) -> Result<String, OpError> {
    if names {
        let f = filter.unwrap_or("").to_lowercase();
        let text: String = cute_layout::atom::mma_names()
            .into_iter()
            .chain(cute_layout::atom::copy::copy_names())
            .filter(|n| n.to_lowercase().contains(&f))
            .map(|n| n + "\n")
            .collect();
        return Ok(text);
    }
    let args: Vec<Arg> = filter.map(|f| Arg::Text(f.into())).into_iter().collect();
    let text = run_op("list_atoms", &args)?;
    Ok(if text.is_empty() { text } else { text + "\n" })
}

/// `cute mma ATOM [--layout L] [--permutation P]`.
fn mma(atom: &str, layout: Option<&str>, permutation: Option<&str>) -> Result<String, OpError> {
    let a = cute_layout::atom::mma_atom(atom).map_err(OpError::from)?;
    let mut out = format!("atom:        {}\n", a.name());
    for f in [
        "thr_id",
        "shape_mnk",
        "layout_a_tv",
        "layout_b_tv",
        "layout_c_tv",
    ] {
        out += &format!(
            "{:<12} {}\n",
            format!("{f}:"),
            a.field(f).map_err(OpError::from)?
        );
    }
    if let Some((sfa, sfb)) = a.scale_factor_layouts() {
        out += &format!("layout_sfa_tv: {sfa}\nlayout_sfb_tv: {sfb}\n");
    }
    let [va, vb, vc, vd] = a.val_bits();
    out += &format!("val_bits:    a {va}, b {vb}, c {vc}, d {vd}\n");
    if layout.is_some() || permutation.is_some() {
        let t = ops::atoms::make_tiled_mma(atom, layout, permutation)?;
        let [m, n, k] = t.tile_size_mnk();
        out += &format!(
            "\ntiled mma:\nthr_layout_vmnk: {}\npermutation_mnk: {}\ntile_size_mnk:   ({m},{n},{k})\nsize:            {}\n",
            t.thr_layout_vmnk(),
            t.permutation_text(),
            t.size()
        );
        for op in [
            cute_layout::atom::Operand::A,
            cute_layout::atom::Operand::B,
            cute_layout::atom::Operand::C,
        ] {
            out += &format!(
                "layout_{}_tv:     {}\n",
                op.name().to_lowercase(),
                t.layout_tv(op).map_err(OpError::from)?
            );
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
        "UnknownOp" | "Arity" | "ParseError" | "BadRequest" | "KindMismatch" | "Usage" => {
            ExitCode::from(2)
        }
        _ => ExitCode::from(1),
    }
}

/// Writes one line to stderr; unlike `eprintln!`, a closed stderr is not a panic.
fn note(line: &str) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}
