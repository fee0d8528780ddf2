//! The declaration of an operation ([`OpSpec`]): its name, topic, typed parameters (with
//! overloads), result kinds, one-line summary, law, CuTe example with its exact output, limits,
//! and the function. Everything a front end shows about an operation comes from here: the usage
//! line and the arity check ([`OpSpec::usage`], [`OpSpec::min`], [`OpSpec::max`]), `cute help OP`
//! ([`crate::help::render`]), `cute ops`, docs/OPERATIONS.md ([`crate::help::markdown`]), the
//! web page's list (`cute_wasm::ops`), the Python functions and the fuzz generators.
//!
//! ```
//! use cute_ops::table::{Arity, Kind};
//! let spec = cute_ops::find("crd2idx").unwrap();
//! assert_eq!(spec.usage(), "COORD LAYOUT|COMPOSED|SHAPE [STRIDE]");
//! assert_eq!((spec.min(), spec.max()), (2, 3));
//! assert_eq!(spec.params[1].kinds, &[Kind::Layout, Kind::Composed, Kind::Shape]);
//! assert_eq!(spec.params[2].arity, Arity::Optional);
//! assert_eq!(spec.param_names(), ["coord", "layout", "stride"]);
//! ```

use std::fmt;

use crate::{Args, OpError};

/// The kind of an argument or of a result: what its text form holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// An integer (`16`, `-3`).
    Int,
    /// An integer or a (nested) tuple of integers (`(2,(3,4))`).
    Tuple,
    /// A shape: positive integers, a tuple of them.
    Shape,
    /// A stride: a tuple of integer or basis strides (`(1,(4,12))`, `(1@0,1@1)`).
    Stride,
    /// A coordinate: a tuple whose leaves are integers or `_` (`(_,1,_)`).
    Coord,
    /// A profile: a tuple whose leaves do not matter (`(_,(_,_))`).
    Profile,
    /// A layout `SHAPE:STRIDE` (integer strides, and basis strides `1@0` where the operation
    /// takes them).
    Layout,
    /// A basis element `v@i@j...` (CuTe's `ScaledBasis`).
    Basis,
    /// A layout with F2 (XOR) strides, NVlabs PyCuTe's (`(8,8):(F2(1),F2(9))`).
    F2Layout,
    /// A layout or tuple with symbolic extents or strides (`(4,N):(1,4)`, `(N,4*M)`).
    Symbolic,
    /// A swizzle `Sw<B,M,S>`.
    Swizzle,
    /// A composed layout `OUTER o OFFSET o INNER` (`Sw<3,4,3> o 0 o (8,64):(64,1)`).
    Composed,
    /// A tensor: `counting_iter(B) o L`, `ArithTuple(...) o L`, a pointer tensor, `zip(...)`.
    Tensor,
    /// A pointer (`gmem_ptr[16b](0x1000)`, `smem_ptr[16b](0x0)`).
    Pointer,
    /// A tiler: an integer, `_`, a layout, or a tuple of tilers.
    Tiler,
    /// An element type name (`half_t`, `float`, `uint128_t`).
    Type,
    /// An atom name (`SM80_16x8x16_F16F16F16F16_TN`, `SM75_U32x4_LDSM_N`).
    Atom,
    /// The name of a field of an atom or a tiled atom (`layout_c_tv`, `tiler_mn`).
    Field,
    /// A name: an identifier or an smem atom's name (`Layout_K_SW128_Atom`, `K`).
    Name,
    /// An operation's name (`coalesce`, `product`).
    Op,
    /// A symbol's value `NAME=VALUE` (`N=4`).
    Binding,
    /// The placeholder `_`.
    Underscore,
    /// Integers separated by commas (`0,2,4,7`).
    Values,
    /// A fixed word (`LayoutLeft`).
    Tag(&'static str),
    /// An option of a picture and its value (`--palette red,#00f`).
    Option,
    /// Free text: the arguments of another operation, a picture, a program.
    Text,
    /// `1` or `0`.
    Bool,
}

impl Kind {
    /// The word that stands for the kind in a usage line (`LAYOUT`, `COORD`, a tag itself).
    pub fn word(self) -> &'static str {
        match self {
            Kind::Int => "INT",
            Kind::Tuple => "TUPLE",
            Kind::Shape => "SHAPE",
            Kind::Stride => "STRIDE",
            Kind::Coord => "COORD",
            Kind::Profile => "PROFILE",
            Kind::Layout => "LAYOUT",
            Kind::Basis => "BASIS",
            Kind::F2Layout => "F2LAYOUT",
            Kind::Symbolic => "SYMBOLIC",
            Kind::Swizzle => "SWIZZLE",
            Kind::Composed => "COMPOSED",
            Kind::Tensor => "TENSOR",
            Kind::Pointer => "PTR",
            Kind::Tiler => "TILER",
            Kind::Type => "TYPE",
            Kind::Atom => "ATOM",
            Kind::Field => "FIELD",
            Kind::Name => "NAME",
            Kind::Op => "OP",
            Kind::Binding => "NAME=VALUE",
            Kind::Underscore => "_",
            Kind::Values => "VALUES",
            Kind::Tag(t) => t,
            Kind::Option => "--OPTION VALUE",
            Kind::Text => "TEXT",
            Kind::Bool => "BOOL",
        }
    }

    /// The kind's name in the JSON of `cute_wasm::ops` and for other front ends: the variant's
    /// name (`Layout`, `F2Layout`), `Tag` for a fixed word.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Int => "Int",
            Kind::Tuple => "Tuple",
            Kind::Shape => "Shape",
            Kind::Stride => "Stride",
            Kind::Coord => "Coord",
            Kind::Profile => "Profile",
            Kind::Layout => "Layout",
            Kind::Basis => "Basis",
            Kind::F2Layout => "F2Layout",
            Kind::Symbolic => "Symbolic",
            Kind::Swizzle => "Swizzle",
            Kind::Composed => "Composed",
            Kind::Tensor => "Tensor",
            Kind::Pointer => "Pointer",
            Kind::Tiler => "Tiler",
            Kind::Type => "Type",
            Kind::Atom => "Atom",
            Kind::Field => "Field",
            Kind::Name => "Name",
            Kind::Op => "Op",
            Kind::Binding => "Binding",
            Kind::Underscore => "Underscore",
            Kind::Values => "Values",
            Kind::Tag(_) => "Tag",
            Kind::Option => "Option",
            Kind::Text => "Text",
            Kind::Bool => "Bool",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// How many arguments a parameter takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    /// Exactly one.
    One,
    /// None or one; a run of optional parameters is filled left to right.
    Optional,
    /// Any number, none included (the last parameter).
    Many,
    /// At least one (the last parameter).
    OneOrMore,
}

/// One parameter of an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// The role's word in the usage line (`N`, `BEGIN`, `TYPE|BITS`), or empty where the kinds'
    /// words say it (`LAYOUT|COMPOSED`).
    pub name: &'static str,
    /// The kinds it takes, in the order the usage line names them.
    pub kinds: &'static [Kind],
    /// How many arguments it takes.
    pub arity: Arity,
}

impl Param {
    /// The word of the usage line: the name, or the kinds' words joined by `|`.
    pub fn label(&self) -> String {
        if self.name.is_empty() {
            let words: Vec<&str> = self.kinds.iter().map(|k| k.word()).collect();
            words.join("|")
        } else {
            self.name.to_string()
        }
    }

    /// An identifier for the parameter (a Python argument's name): the first word of its label
    /// in lower case, `_` for characters other than letters and digits.
    pub fn ident(&self) -> String {
        let label = self.label();
        let first = label.split('|').next().unwrap_or("arg");
        let mut s: String = first
            .trim_start_matches('-')
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .collect();
        if s.is_empty() || s == "_" || s.starts_with(|c: char| c.is_ascii_digit()) {
            s = format!("arg{s}");
        }
        s
    }
}

/// A parameter taking exactly one argument (`name` empty: the kinds' words label it).
pub const fn one(name: &'static str, kinds: &'static [Kind]) -> Param {
    Param {
        name,
        kinds,
        arity: Arity::One,
    }
}

/// An optional parameter.
pub const fn opt(name: &'static str, kinds: &'static [Kind]) -> Param {
    Param {
        name,
        kinds,
        arity: Arity::Optional,
    }
}

/// A last parameter taking any number of arguments.
pub const fn many(name: &'static str, kinds: &'static [Kind]) -> Param {
    Param {
        name,
        kinds,
        arity: Arity::Many,
    }
}

/// A last parameter taking at least one argument.
pub const fn more(name: &'static str, kinds: &'static [Kind]) -> Param {
    Param {
        name,
        kinds,
        arity: Arity::OneOrMore,
    }
}

/// The group an operation is listed in (`cute ops`, docs/OPERATIONS.md, the web page).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Topic {
    /// Making layouts.
    Construction,
    /// Reading a layout's parts and evaluating it.
    Queries,
    /// Coalesce, composition, complement, inverses, divides and products.
    Algebra,
    /// The IntTuple toolkit.
    Tuples,
    /// Properties of a layout's function.
    Analysis,
    /// Swizzles.
    Swizzles,
    /// Basis strides.
    Basis,
    /// Tensors and pointers.
    Tensors,
    /// MMA and copy atoms.
    Atoms,
    /// Code generation, shared memory and TMA.
    Gpu,
    /// NVlabs PyCuTe's extensions (F2 and symbolic strides).
    Pycute,
    /// Tables and pictures.
    Rendering,
}

impl Topic {
    /// Every topic, in the order the lists show them.
    pub const ALL: &'static [Topic] = &[
        Topic::Construction,
        Topic::Queries,
        Topic::Algebra,
        Topic::Tuples,
        Topic::Analysis,
        Topic::Swizzles,
        Topic::Basis,
        Topic::Tensors,
        Topic::Atoms,
        Topic::Gpu,
        Topic::Pycute,
        Topic::Rendering,
    ];

    /// The topic's key (`algebra`), as the web page and the JSON name it.
    pub fn key(self) -> &'static str {
        match self {
            Topic::Construction => "construction",
            Topic::Queries => "queries",
            Topic::Algebra => "algebra",
            Topic::Tuples => "tuples",
            Topic::Analysis => "analysis",
            Topic::Swizzles => "swizzles",
            Topic::Basis => "basis",
            Topic::Tensors => "tensors",
            Topic::Atoms => "atoms",
            Topic::Gpu => "gpu",
            Topic::Pycute => "pycute",
            Topic::Rendering => "rendering",
        }
    }

    /// The topic's heading.
    pub fn title(self) -> &'static str {
        match self {
            Topic::Construction => "Construction",
            Topic::Queries => "Queries",
            Topic::Algebra => "Layout algebra",
            Topic::Tuples => "Tuples (IntTuple toolkit)",
            Topic::Analysis => "Analysis",
            Topic::Swizzles => "Swizzles",
            Topic::Basis => "Basis strides",
            Topic::Tensors => "Tensors and pointers",
            Topic::Atoms => "MMA and copy atoms",
            Topic::Gpu => "Code generation, shared memory, TMA",
            Topic::Pycute => "NVlabs PyCuTe extensions (F2 and symbolic strides)",
            Topic::Rendering => "Tables and pictures",
        }
    }
}

/// The errors every operation can give about its arguments, with their conditions.
pub const INPUT_ERRORS: &[(&str, &str)] = &[
    ("Arity", "the number of arguments is none its signatures take"),
    ("KindMismatch", "an argument is of a kind its parameter does not take"),
    ("ParseError", "an argument does not parse as the kind its parameter takes"),
    ("BadRequest", "an argument is of the right kind but not one the operation reads here (named in the message)"),
];

/// When each error kind an operation declares (the `errors` field of [`OpSpec`]) is given.
pub const ERROR_CONDITIONS: &[(&str, &str)] = &[
    ("BadArgument", "an atom does not take the element type or layout given (CuTe's static assertion)"),
    ("CoordMismatch", "a coordinate does not fit the shape's tree"),
    ("CoordOutOfRange", "a coordinate is outside the shape"),
    ("EmptyModeRange", "a mode range [BEGIN, END) is empty or reversed"),
    ("InvalidArgument", "an argument is outside the operation's domain (the message says which and why)"),
    ("InvalidExtent", "a shape extent is below 1"),
    ("InvalidSwizzle", "a swizzle's B, M, S are out of range"),
    ("ModeOutOfRange", "a mode index is not below the rank"),
    ("ModesOverlap", "two modes of the right operand reach overlapping coordinates of the left operand, so A(B(i)) is not the sum of the modes' compositions"),
    ("NoCommonRefinement", "the shapes have no common refinement"),
    ("NotALayout", "the values are not the 1-D function of any layout"),
    ("NotCongruent", "a shape and a stride do not have the same tree"),
    ("NotComplementable", "after sorting by stride, a stride is not a multiple of the span of the mode before it"),
    ("NotImplemented", "the inputs are a combination the operation does not compute (the message names it)"),
    ("NotInjective", "the operation needs an injective layout and two coordinates share an offset"),
    ("NotRepresentable", "no value of the result's kind computes the operation's defining function"),
    ("Overflow", "a result (an extent, a stride or a value) does not fit in i64"),
    ("RankMismatch", "two tuples that must have the same rank do not"),
    ("ShapeNotDivisible", "an extent to be split over the left operand's modes is not a multiple of the extents it covers"),
    ("SizeMismatch", "two sizes that must be equal differ"),
    ("StrideNotDivisible", "an extent of the left operand and a stride of the right operand divide neither way"),
    ("TooLarge", "the work or the output would pass a stated limit"),
    ("Undecidable", "the answer depends on the values of the symbols (a symbol is any positive integer)"),
    ("UnknownAtom", "an atom's name is none the atom families accept"),
    ("UnknownOp", "an operation named as an argument is no operation"),
    ("Usage", "a picture's command line asks for what it does not draw (the message names the option)"),
    ("ZeroStride", "a mode of extent > 1 has stride 0 where the operation divides by strides"),
];

/// The condition of error kind `kind` ([`ERROR_CONDITIONS`]).
pub fn condition(kind: &str) -> Option<&'static str> {
    ERROR_CONDITIONS
        .iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, c)| *c)
}

/// The function of an operation (or of one of its overloads).
pub type OpFn = fn(&Args<'_>) -> Result<String, OpError>;

/// One operation: see the [module docs](self).
#[derive(Clone, Copy)]
pub struct OpSpec {
    /// CuTe's name.
    pub name: &'static str,
    /// The group it is listed in.
    pub topic: Topic,
    /// The parameters of its first signature.
    pub params: &'static [Param],
    /// Its other signatures, if any (`make_tensor PTR LAYOUT` beside `LAYOUT [BASE]`).
    pub overloads: &'static [&'static [Param]],
    /// The kinds its result can have (the first is the example's).
    pub returns: &'static [Kind],
    /// What it computes, in one line.
    pub summary: &'static str,
    /// The law its result obeys, in one line.
    pub law: &'static str,
    /// The example's arguments, as typed on the command line (unquoted).
    pub example: &'static [&'static str],
    /// What `cute NAME EXAMPLE...` prints, without the final newline.
    pub output: &'static str,
    /// Stated limits on its inputs or its work (empty where none beyond the arithmetic's).
    pub limits: &'static str,
    /// The error kinds it can give beyond [`INPUT_ERRORS`]; [`ERROR_CONDITIONS`] says when
    /// each is given.
    pub errors: &'static [&'static str],
    /// The operation; called with between [`OpSpec::min`] and [`OpSpec::max`] arguments.
    pub run: OpFn,
    /// Its overload for layouts with F2 (XOR) strides, NVlabs PyCuTe's: called instead of
    /// `OpSpec::run` when an argument has F2 strides (see [`crate::f2_ops`]).
    pub f2: Option<OpFn>,
    /// Its overload for layouts with F2 basis strides (`F2(1)@0`).
    pub f2_basis: Option<OpFn>,
}

impl fmt::Debug for OpSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpSpec")
            .field("name", &self.name)
            .field("usage", &self.usage())
            .finish_non_exhaustive()
    }
}

fn unset(a: &Args<'_>) -> Result<String, OpError> {
    Err(OpError::new(
        "NotImplemented",
        format!("{}: no function declared", a.op),
    ))
}

/// The start of a declaration: name, topic and summary; the other parts are added by the
/// builder methods of [`OpSpec`].
pub(crate) const fn op(name: &'static str, topic: Topic, summary: &'static str) -> OpSpec {
    OpSpec {
        name,
        topic,
        params: &[],
        overloads: &[],
        returns: &[],
        summary,
        law: "",
        example: &[],
        output: "",
        limits: "",
        errors: &[],
        run: unset,
        f2: None,
        f2_basis: None,
    }
}

impl OpSpec {
    /// The parameters (first signature).
    pub(crate) const fn params(mut self, params: &'static [Param]) -> Self {
        self.params = params;
        self
    }

    /// Further signatures.
    pub(crate) const fn overloads(mut self, overloads: &'static [&'static [Param]]) -> Self {
        self.overloads = overloads;
        self
    }

    /// The result kinds.
    pub(crate) const fn returns(mut self, kinds: &'static [Kind]) -> Self {
        self.returns = kinds;
        self
    }

    /// The law.
    pub(crate) const fn law(mut self, law: &'static str) -> Self {
        self.law = law;
        self
    }

    /// The example: arguments and the exact output.
    pub(crate) const fn example(
        mut self,
        args: &'static [&'static str],
        output: &'static str,
    ) -> Self {
        self.example = args;
        self.output = output;
        self
    }

    /// The stated limits (each checked by a test).
    pub(crate) const fn limits(mut self, limits: &'static str) -> Self {
        self.limits = limits;
        self
    }

    /// The error kinds it can give beyond [`INPUT_ERRORS`] (names of [`ERROR_CONDITIONS`]).
    pub(crate) const fn errors(mut self, errors: &'static [&'static str]) -> Self {
        self.errors = errors;
        self
    }

    /// Whether it declares the error kind `kind` (its own or one of [`INPUT_ERRORS`]).
    pub fn declares_error(&self, kind: &str) -> bool {
        INPUT_ERRORS.iter().any(|(k, _)| *k == kind) || self.errors.contains(&kind)
    }

    /// Its errors with their conditions: [`INPUT_ERRORS`], then its own.
    pub fn error_conditions(&self) -> Vec<(&'static str, &'static str)> {
        let own = self
            .errors
            .iter()
            .map(|k| (*k, condition(k).unwrap_or("see the message")));
        INPUT_ERRORS.iter().copied().chain(own).collect()
    }

    /// The function.
    pub(crate) const fn run(mut self, run: OpFn) -> Self {
        self.run = run;
        self
    }

    /// The F2 overload.
    pub(crate) const fn f2(mut self, f: OpFn) -> Self {
        self.f2 = Some(f);
        self
    }

    /// The F2 basis overload.
    pub(crate) const fn f2_basis(mut self, f: OpFn) -> Self {
        self.f2_basis = Some(f);
        self
    }

    /// Every signature: `OpSpec::params`, then the `OpSpec::overloads`.
    pub fn signatures(&self) -> impl Iterator<Item = &'static [Param]> {
        std::iter::once(self.params).chain(self.overloads.iter().copied())
    }

    /// The usage line's arguments: each signature's labels (a run of optional parameters nested,
    /// `[A [B]]`), signatures separated by ` | `.
    pub fn usage(&self) -> String {
        let sigs: Vec<String> = self.signatures().map(signature_usage).collect();
        sigs.join(" | ")
    }

    /// The fewest arguments any signature takes.
    pub fn min(&self) -> usize {
        self.signatures().map(|s| bounds(s).0).min().unwrap_or(0)
    }

    /// The most arguments any signature takes ([`crate::MANY`] for a repeating parameter).
    pub fn max(&self) -> usize {
        self.signatures().map(|s| bounds(s).1).max().unwrap_or(0)
    }

    /// The identifiers of the first signature's parameters ([`Param::ident`]), made unique with a
    /// number where two would be equal (`a`, `a2`).
    pub fn param_names(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for p in self.params {
            let base = p.ident();
            let mut name = base.clone();
            let mut k = 2;
            while names.contains(&name) {
                name = format!("{base}{k}");
                k += 1;
            }
            names.push(name);
        }
        names
    }
}

/// The parameter each of `n` arguments fills in `sig` (a run of optional parameters filled left
/// to right, a repeating last parameter taking the rest), or `None` when `sig` does not take `n`.
fn assign(sig: &'static [Param], n: usize) -> Option<Vec<&'static Param>> {
    let (min, max) = bounds(sig);
    if n < min || n > max {
        return None;
    }
    let mut extra = n - min;
    let mut out = Vec::with_capacity(n);
    for p in sig {
        match p.arity {
            Arity::One => out.push(p),
            Arity::Optional if extra > 0 => {
                extra -= 1;
                out.push(p);
            }
            Arity::Optional => {}
            Arity::Many | Arity::OneOrMore => {
                while out.len() < n {
                    out.push(p);
                }
            }
        }
    }
    (out.len() == n).then_some(out)
}

impl OpSpec {
    /// The kind check: each argument's form ([`crate::value::Form`], read once from its text)
    /// must be one of the kinds its parameter declares ([`crate::value::Form::fits`]), in some signature that takes this many
    /// arguments. An operation whose parameters hold options (`--OPTION VALUE`, the pictures)
    /// reads its arguments as a command line, word by word, and is not checked here.
    ///
    /// # Errors
    /// `KindMismatch` naming the argument, its parameter, the kinds expected and the kind given
    /// (from the signature whose first mismatch comes latest).
    pub(crate) fn check_kinds(&self, a: &Args<'_>) -> Result<(), OpError> {
        let options = |sig: &[Param]| sig.iter().any(|p| p.kinds.contains(&Kind::Option));
        if self.signatures().any(options) {
            // A command line of words and `--OPTION VALUE` pairs in any order: the operation
            // reads it word by word.
            return Ok(());
        }
        let mut worst: Option<(usize, &'static Param)> = None;
        for sig in self.signatures() {
            let Some(params) = assign(sig, a.len()) else {
                continue;
            };
            let miss = params
                .iter()
                .enumerate()
                .find(|(k, p)| !p.kinds.iter().any(|kind| a.form(*k).fits(*kind)));
            match miss {
                None => return Ok(()),
                Some((k, p)) if worst.is_none_or(|(j, _)| k > j) => worst = Some((k, p)),
                Some(_) => {}
            }
        }
        let Some((k, p)) = worst else {
            return Ok(());
        };
        let expected: Vec<&str> = p.kinds.iter().map(|kind| kind.word()).collect();
        Err(a.arg_error(
            "KindMismatch",
            k,
            format_args!(
                " ({}) is {} {}; expected {}",
                p.label(),
                a.form(k).kind().word(),
                a.args[k],
                expected.join(" or ")
            ),
        ))
    }
}

fn bounds(sig: &[Param]) -> (usize, usize) {
    let min = sig
        .iter()
        .filter(|p| matches!(p.arity, Arity::One | Arity::OneOrMore))
        .count();
    let max = if sig
        .iter()
        .any(|p| matches!(p.arity, Arity::Many | Arity::OneOrMore))
    {
        crate::MANY
    } else {
        sig.len()
    };
    (min, max)
}

fn signature_usage(sig: &[Param]) -> String {
    let mut out = String::new();
    let mut open = 0;
    for p in sig {
        if p.arity != Arity::Optional {
            out.extend(std::iter::repeat_n(']', open));
            open = 0;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        let label = p.label();
        match p.arity {
            Arity::One => out += &label,
            Arity::Optional => {
                out.push('[');
                out += &label;
                open += 1;
            }
            Arity::Many => out += &format!("[{label}...]"),
            Arity::OneOrMore => out += &format!("{label}..."),
        }
    }
    out.extend(std::iter::repeat_n(']', open));
    out
}
