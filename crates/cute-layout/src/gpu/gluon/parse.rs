//! The Python constructor text of a Gluon layout (`BlockedLayout(size_per_thread=[1, 4], ...)`),
//! read by a small parser of Python call expressions: a (dotted) name, then arguments in
//! parentheses, positional then keyword, whose values are integers, `True` / `False`, lists or
//! tuples of values, or another call (a `DotOperandLayout`'s `parent`). Parameters are bound as
//! Python binds them (by position, then by keyword; defaults where the class has one), and the
//! value is printed back as the class's `repr` (keyword form, Triton's field order).

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use crate::layout::error::{LayoutError, ParseError, ParseErrorKind};

/// Bases of a linear layout: one vector (a coordinate, one entry per dimension) per input bit.
pub type Bases = Vec<Vec<i64>>;

/// A Gluon layout, as its constructor names it (`triton.experimental.gluon.language`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Gluon {
    /// `BlockedLayout(size_per_thread, threads_per_warp, warps_per_cta, order, cga_layout=[])`.
    Blocked {
        /// Elements per thread along each dimension.
        size_per_thread: Vec<i64>,
        /// Threads per warp along each dimension.
        threads_per_warp: Vec<i64>,
        /// Warps per CTA along each dimension.
        warps_per_cta: Vec<i64>,
        /// Dimensions from the fastest-varying.
        order: Vec<i64>,
        /// Bases of the CTAs (empty: one CTA).
        cga_layout: Bases,
    },
    /// `DistributedLinearLayout(reg_bases, lane_bases, warp_bases, block_bases, shape)`.
    DistributedLinear(DistLinear),
    /// `SliceLayout(dim, parent)`.
    Slice {
        /// The dimension removed.
        dim: i64,
        /// The layout it is removed from.
        parent: Box<Gluon>,
    },
    /// `NVMMADistributedLayout(version, warps_per_cta, instr_shape, cga_layout=[])`.
    NvmmaDistributed {
        /// `[major, minor]`: 2 for mma.sync (sm80), 3 for wgmma (sm90).
        version: Vec<i64>,
        /// Warps per CTA along each dimension.
        warps_per_cta: Vec<i64>,
        /// The instruction's shape (`[16, 8]`, `[16, N, 16]`).
        instr_shape: Vec<i64>,
        /// Bases of the CTAs (empty: one CTA).
        cga_layout: Bases,
    },
    /// `DotOperandLayout(operand_index, parent, k_width)`.
    DotOperand {
        /// 0 for the left operand (M x K), 1 for the right one (K x N).
        operand_index: i64,
        /// The accumulator's layout.
        parent: Box<Gluon>,
        /// Consecutive elements along K per thread (per 32 bits).
        k_width: i64,
    },
    /// `NVMMASharedLayout(swizzle_byte_width, element_bitwidth, rank=2, transposed=False,
    /// fp4_padded=False, cga_layout=[])`.
    NvmmaShared {
        /// 0, 32, 64 or 128.
        swizzle_byte_width: i64,
        /// 8, 16, 32 or 64.
        element_bitwidth: i64,
        /// The tensor's rank.
        rank: i64,
        /// Whether the contiguous dimension is dimension 0 instead of the last.
        transposed: bool,
        /// Whether 4-bit elements are padded to bytes.
        fp4_padded: bool,
        /// Bases of the CTAs (empty: one CTA).
        cga_layout: Bases,
    },
    /// `SwizzledSharedLayout(vec, per_phase, max_phase, order, cga_layout=[])`.
    SwizzledShared {
        /// Elements that move together.
        vec: i64,
        /// Rows that share a phase.
        per_phase: i64,
        /// Number of phases.
        max_phase: i64,
        /// Dimensions from the fastest-varying.
        order: Vec<i64>,
        /// Bases of the CTAs (empty: one CTA).
        cga_layout: Bases,
    },
    /// `PaddedSharedLayout(interval_padding_pairs, offset_bases, cga_layout, shape)`.
    PaddedShared {
        /// `[interval, padding]`: after every `interval` elements, `padding` unused ones.
        interval_padding_pairs: Vec<(i64, i64)>,
        /// Offset bit `j` to the coordinate it reaches.
        offset_bases: Bases,
        /// Bases of the CTAs (empty: one CTA).
        cga_layout: Bases,
        /// The tensor's shape.
        shape: Vec<i64>,
    },
    /// `SharedLinearLayout(offset_bases, block_bases=[], alignment=16)`.
    SharedLinear(SharedLinear),
}

/// Triton's distributed linear layout: (register, lane, warp, block) bits to a coordinate, the
/// coordinate of a set of bits the XOR of their bases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DistLinear {
    /// Register (value) bits.
    pub reg: Bases,
    /// Lane bits.
    pub lane: Bases,
    /// Warp bits.
    pub warp: Bases,
    /// Block (CTA) bits.
    pub block: Bases,
    /// The tensor's shape.
    pub shape: Vec<i64>,
}

/// Triton's shared linear layout: offset bits (then block bits) to a coordinate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedLinear {
    /// Offset bit `j` to the coordinate it reaches.
    pub offset: Bases,
    /// Block (CTA) bits.
    pub block: Bases,
    /// The alignment in bytes Triton records (no part of the function).
    pub alignment: i64,
}

/// A Python value of the constructor text.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Py {
    Int(i64),
    Bool(bool),
    List(Vec<Py>),
    Call(Call),
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Call {
    name: String,
    at: usize,
    args: Vec<(Option<String>, Py, usize)>,
}

/// Most nested brackets and calls.
const MAX_NEST: usize = 16;

struct P<'a> {
    s: &'a [u8],
    i: usize,
    depth: usize,
}

fn err(offset: usize, kind: ParseErrorKind) -> ParseError {
    ParseError { offset, kind }
}

fn invalid(offset: usize, what: String) -> ParseError {
    err(
        offset,
        ParseErrorKind::Invalid(LayoutError::InvalidArgument { op: "gluon", what }),
    )
}

impl P<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.i).copied()
    }

    fn expect(&mut self, c: u8, what: &'static str) -> Result<(), ParseError> {
        match self.peek() {
            Some(x) if x == c => {
                self.i += 1;
                Ok(())
            }
            Some(x) => Err(err(
                self.i,
                ParseErrorKind::UnexpectedChar {
                    found: char::from(x),
                    expected: what,
                },
            )),
            None => Err(err(
                self.i,
                ParseErrorKind::UnexpectedEnd { expected: what },
            )),
        }
    }

    fn ident(&mut self) -> Option<String> {
        self.ws();
        let start = self.i;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric() || matches!(self.s[self.i], b'_' | b'.'))
        {
            self.i += 1;
        }
        if start == self.i || self.s[start].is_ascii_digit() {
            self.i = start;
            return None;
        }
        core::str::from_utf8(&self.s[start..self.i])
            .ok()
            .map(ToString::to_string)
    }

    fn value(&mut self) -> Result<Py, ParseError> {
        let at = self.i;
        match self.peek() {
            None => Err(err(
                self.i,
                ParseErrorKind::UnexpectedEnd {
                    expected: "a value",
                },
            )),
            Some(b'[') | Some(b'(') => {
                let close = if self.peek() == Some(b'[') {
                    b']'
                } else {
                    b')'
                };
                self.nest()?;
                self.i += 1;
                let mut items = Vec::new();
                loop {
                    if self.peek() == Some(close) {
                        self.i += 1;
                        break;
                    }
                    items.push(self.value()?);
                    if self.peek() == Some(b',') {
                        self.i += 1;
                    } else {
                        self.expect(close, "',' or a closing bracket")?;
                        break;
                    }
                }
                self.depth -= 1;
                Ok(Py::List(items))
            }
            Some(c) if c == b'-' || c.is_ascii_digit() => {
                let start = self.i;
                self.i += 1;
                while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
                    self.i += 1;
                }
                let t = core::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
                t.parse()
                    .map(Py::Int)
                    .map_err(|_| err(start, ParseErrorKind::IntegerOverflow))
            }
            Some(c) => {
                let Some(name) = self.ident() else {
                    return Err(err(
                        at,
                        ParseErrorKind::UnexpectedChar {
                            found: char::from(c),
                            expected: "a value (integer, True, False, list or layout)",
                        },
                    ));
                };
                match name.as_str() {
                    "True" => Ok(Py::Bool(true)),
                    "False" => Ok(Py::Bool(false)),
                    _ => self.call(name, at).map(Py::Call),
                }
            }
        }
    }

    fn nest(&mut self) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > MAX_NEST {
            return Err(err(self.i, ParseErrorKind::TooDeep));
        }
        Ok(())
    }

    fn call(&mut self, name: String, at: usize) -> Result<Call, ParseError> {
        self.expect(b'(', "'(' after the layout's name")?;
        self.nest()?;
        let mut args = Vec::new();
        loop {
            if self.peek() == Some(b')') {
                self.i += 1;
                break;
            }
            let start = self.i;
            let kw = match self.ident() {
                Some(k) if self.peek() == Some(b'=') => {
                    self.i += 1;
                    Some(k)
                }
                _ => {
                    self.i = start;
                    None
                }
            };
            self.ws();
            let vat = self.i;
            args.push((kw, self.value()?, vat));
            if self.peek() == Some(b',') {
                self.i += 1;
            } else {
                self.expect(b')', "',' or ')'")?;
                break;
            }
        }
        self.depth -= 1;
        let name = name.rsplit('.').next().unwrap_or("").to_string();
        Ok(Call { name, at, args })
    }
}

/// The parameters of each class: name and whether it has a default.
fn params(class: &str) -> Option<&'static [(&'static str, bool)]> {
    Some(match class {
        "BlockedLayout" => &[
            ("size_per_thread", false),
            ("threads_per_warp", false),
            ("warps_per_cta", false),
            ("order", false),
            ("cga_layout", true),
        ],
        "DistributedLinearLayout" => &[
            ("reg_bases", false),
            ("lane_bases", false),
            ("warp_bases", false),
            ("block_bases", false),
            ("shape", false),
        ],
        "SliceLayout" => &[("dim", false), ("parent", false)],
        "NVMMADistributedLayout" => &[
            ("version", false),
            ("warps_per_cta", false),
            ("instr_shape", false),
            ("cga_layout", true),
        ],
        "DotOperandLayout" => &[
            ("operand_index", false),
            ("parent", false),
            ("k_width", false),
        ],
        "NVMMASharedLayout" => &[
            ("swizzle_byte_width", false),
            ("element_bitwidth", false),
            ("rank", true),
            ("transposed", true),
            ("fp4_padded", true),
            ("cga_layout", true),
        ],
        "SwizzledSharedLayout" => &[
            ("vec", false),
            ("per_phase", false),
            ("max_phase", false),
            ("order", false),
            ("cga_layout", true),
        ],
        "PaddedSharedLayout" => &[
            ("interval_padding_pairs", false),
            ("offset_bases", false),
            ("cga_layout", false),
            ("shape", false),
        ],
        "SharedLinearLayout" => &[
            ("offset_bases", false),
            ("block_bases", true),
            ("alignment", true),
        ],
        _ => return None,
    })
}

/// The bound arguments of one call.
struct Bound {
    class: &'static str,
    vals: Vec<Option<(Py, usize)>>,
    names: &'static [(&'static str, bool)],
    at: usize,
}

impl Bound {
    fn new(c: Call) -> Result<Bound, ParseError> {
        let names = params(&c.name).ok_or_else(|| {
            invalid(
                c.at,
                format!(
                    "{} is not a Gluon layout this parser knows (BlockedLayout, DistributedLinearLayout, SliceLayout, NVMMADistributedLayout, DotOperandLayout, NVMMASharedLayout, SwizzledSharedLayout, PaddedSharedLayout, SharedLinearLayout)",
                    c.name
                ),
            )
        })?;
        let class = CLASSES
            .iter()
            .find(|n| **n == c.name)
            .copied()
            .unwrap_or("");
        let mut vals: Vec<Option<(Py, usize)>> = (0..names.len()).map(|_| None).collect();
        let mut seen_kw = false;
        for (pos, (kw, v, at)) in c.args.into_iter().enumerate() {
            let k = match kw {
                None if seen_kw => {
                    return Err(invalid(
                        at,
                        format!("{class}: a positional argument follows a keyword argument"),
                    ))
                }
                None => pos,
                Some(k) => {
                    seen_kw = true;
                    names
                        .iter()
                        .position(|(n, _)| *n == k)
                        .ok_or_else(|| invalid(at, format!("{class}: no parameter named {k}")))?
                }
            };
            if k >= names.len() {
                return Err(invalid(
                    at,
                    format!("{class}: takes at most {} arguments", names.len()),
                ));
            }
            if vals[k].is_some() {
                return Err(invalid(at, format!("{class}: {} given twice", names[k].0)));
            }
            vals[k] = Some((v, at));
        }
        for (k, (n, has_default)) in names.iter().enumerate() {
            if vals[k].is_none() && !has_default {
                return Err(invalid(c.at, format!("{class}: missing argument {n}")));
            }
        }
        Ok(Bound {
            class,
            vals,
            names,
            at: c.at,
        })
    }

    fn get(&self, name: &str) -> Option<&(Py, usize)> {
        let k = self.names.iter().position(|(n, _)| *n == name)?;
        self.vals[k].as_ref()
    }

    fn bad(&self, name: &str, want: &str) -> ParseError {
        let at = self.get(name).map_or(self.at, |(_, a)| *a);
        invalid(at, format!("{}: {name} must be {want}", self.class))
    }

    fn int(&self, name: &str, default: i64) -> Result<i64, ParseError> {
        match self.get(name) {
            None => Ok(default),
            Some((Py::Int(i), _)) => Ok(*i),
            Some(_) => Err(self.bad(name, "an integer")),
        }
    }

    fn bool(&self, name: &str) -> Result<bool, ParseError> {
        match self.get(name) {
            None => Ok(false),
            Some((Py::Bool(b), _)) => Ok(*b),
            Some((Py::Int(i), _)) if *i == 0 || *i == 1 => Ok(*i == 1),
            Some(_) => Err(self.bad(name, "True or False")),
        }
    }

    fn ints(&self, name: &str) -> Result<Vec<i64>, ParseError> {
        match self.get(name) {
            None => Ok(Vec::new()),
            Some((Py::List(items), _)) => items
                .iter()
                .map(|x| match x {
                    Py::Int(i) => Ok(*i),
                    _ => Err(self.bad(name, "a list of integers")),
                })
                .collect(),
            Some(_) => Err(self.bad(name, "a list of integers")),
        }
    }

    fn bases(&self, name: &str) -> Result<Bases, ParseError> {
        match self.get(name) {
            None => Ok(Vec::new()),
            Some((Py::List(items), _)) => items
                .iter()
                .map(|x| match x {
                    Py::List(v) => v
                        .iter()
                        .map(|y| match y {
                            Py::Int(i) => Ok(*i),
                            _ => Err(self.bad(name, "a list of lists of integers")),
                        })
                        .collect(),
                    _ => Err(self.bad(name, "a list of lists of integers")),
                })
                .collect(),
            Some(_) => Err(self.bad(name, "a list of lists of integers")),
        }
    }

    fn parent(&self) -> Result<Box<Gluon>, ParseError> {
        match self.get("parent") {
            Some((Py::Call(c), _)) => Ok(Box::new(Gluon::from_call(c.clone())?)),
            _ => Err(self.bad("parent", "a layout")),
        }
    }
}

const CLASSES: &[&str] = &[
    "BlockedLayout",
    "DistributedLinearLayout",
    "SliceLayout",
    "NVMMADistributedLayout",
    "DotOperandLayout",
    "NVMMASharedLayout",
    "SwizzledSharedLayout",
    "PaddedSharedLayout",
    "SharedLinearLayout",
];

impl Gluon {
    fn from_call(c: Call) -> Result<Gluon, ParseError> {
        let b = Bound::new(c)?;
        Ok(match b.class {
            "BlockedLayout" => Gluon::Blocked {
                size_per_thread: b.ints("size_per_thread")?,
                threads_per_warp: b.ints("threads_per_warp")?,
                warps_per_cta: b.ints("warps_per_cta")?,
                order: b.ints("order")?,
                cga_layout: b.bases("cga_layout")?,
            },
            "DistributedLinearLayout" => Gluon::DistributedLinear(DistLinear {
                reg: b.bases("reg_bases")?,
                lane: b.bases("lane_bases")?,
                warp: b.bases("warp_bases")?,
                block: b.bases("block_bases")?,
                shape: b.ints("shape")?,
            }),
            "SliceLayout" => Gluon::Slice {
                dim: b.int("dim", 0)?,
                parent: b.parent()?,
            },
            "NVMMADistributedLayout" => Gluon::NvmmaDistributed {
                version: b.ints("version")?,
                warps_per_cta: b.ints("warps_per_cta")?,
                instr_shape: b.ints("instr_shape")?,
                cga_layout: b.bases("cga_layout")?,
            },
            "DotOperandLayout" => Gluon::DotOperand {
                operand_index: b.int("operand_index", 0)?,
                parent: b.parent()?,
                k_width: b.int("k_width", 0)?,
            },
            "NVMMASharedLayout" => Gluon::NvmmaShared {
                swizzle_byte_width: b.int("swizzle_byte_width", 0)?,
                element_bitwidth: b.int("element_bitwidth", 0)?,
                rank: b.int("rank", 2)?,
                transposed: b.bool("transposed")?,
                fp4_padded: b.bool("fp4_padded")?,
                cga_layout: b.bases("cga_layout")?,
            },
            "SwizzledSharedLayout" => Gluon::SwizzledShared {
                vec: b.int("vec", 0)?,
                per_phase: b.int("per_phase", 0)?,
                max_phase: b.int("max_phase", 0)?,
                order: b.ints("order")?,
                cga_layout: b.bases("cga_layout")?,
            },
            "PaddedSharedLayout" => {
                let pairs = b.bases("interval_padding_pairs")?;
                if pairs.iter().any(|p| p.len() != 2) {
                    return Err(b.bad("interval_padding_pairs", "a list of [interval, padding]"));
                }
                Gluon::PaddedShared {
                    interval_padding_pairs: pairs.iter().map(|p| (p[0], p[1])).collect(),
                    offset_bases: b.bases("offset_bases")?,
                    cga_layout: b.bases("cga_layout")?,
                    shape: b.ints("shape")?,
                }
            }
            _ => Gluon::SharedLinear(SharedLinear {
                offset: b.bases("offset_bases")?,
                block: b.bases("block_bases")?,
                alignment: b.int("alignment", 16)?,
            }),
        })
    }

    /// Whether it is a shared-memory layout (offsets to coordinates) rather than a distributed
    /// one (registers, lanes, warps to coordinates).
    pub fn is_shared(&self) -> bool {
        matches!(
            self,
            Gluon::NvmmaShared { .. }
                | Gluon::SwizzledShared { .. }
                | Gluon::PaddedShared { .. }
                | Gluon::SharedLinear(_)
        )
    }
}

impl FromStr for Gluon {
    type Err = ParseError;

    /// Parses the constructor text; a module prefix (`gl.`, `ttgl.`) is allowed.
    ///
    /// # Errors
    /// A [`ParseError`] at the byte where the text leaves the grammar, or
    /// [`ParseErrorKind::Invalid`] with [`LayoutError::InvalidArgument`] for an unknown class,
    /// parameter or a value of the wrong type.
    fn from_str(s: &str) -> Result<Gluon, ParseError> {
        let mut p = P {
            s: s.as_bytes(),
            i: 0,
            depth: 0,
        };
        p.ws();
        let at = p.i;
        let v = p.value()?;
        if let Some(c) = p.peek() {
            return Err(err(
                p.i,
                ParseErrorKind::UnexpectedChar {
                    found: char::from(c),
                    expected: "the end of the layout",
                },
            ));
        }
        match v {
            Py::Call(c) => Gluon::from_call(c),
            _ => Err(invalid(
                at,
                String::from("gluon: expected a layout constructor such as BlockedLayout(...)"),
            )),
        }
    }
}

struct L<'a>(&'a [i64]);

impl fmt::Display for L<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (k, x) in self.0.iter().enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{x}")?;
        }
        f.write_str("]")
    }
}

struct B<'a>(&'a [Vec<i64>]);

impl fmt::Display for B<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (k, x) in self.0.iter().enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}", L(x))?;
        }
        f.write_str("]")
    }
}

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

impl fmt::Display for DistLinear {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "DistributedLinearLayout(reg_bases={}, lane_bases={}, warp_bases={}, block_bases={}, shape={})",
            B(&self.reg),
            B(&self.lane),
            B(&self.warp),
            B(&self.block),
            L(&self.shape)
        )
    }
}

impl fmt::Display for SharedLinear {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SharedLinearLayout(offset_bases={}, block_bases={}, alignment={})",
            B(&self.offset),
            B(&self.block),
            self.alignment
        )
    }
}

/// The class's `repr`: keyword arguments in Triton's field order.
impl fmt::Display for Gluon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Gluon::Blocked {
                size_per_thread,
                threads_per_warp,
                warps_per_cta,
                order,
                cga_layout,
            } => write!(
                f,
                "BlockedLayout(size_per_thread={}, threads_per_warp={}, warps_per_cta={}, order={}, cga_layout={})",
                L(size_per_thread),
                L(threads_per_warp),
                L(warps_per_cta),
                L(order),
                B(cga_layout)
            ),
            Gluon::DistributedLinear(d) => write!(f, "{d}"),
            Gluon::Slice { dim, parent } => write!(f, "SliceLayout(dim={dim}, parent={parent})"),
            Gluon::NvmmaDistributed {
                version,
                warps_per_cta,
                instr_shape,
                cga_layout,
            } => write!(
                f,
                "NVMMADistributedLayout(version={}, warps_per_cta={}, instr_shape={}, cga_layout={})",
                L(version),
                L(warps_per_cta),
                L(instr_shape),
                B(cga_layout)
            ),
            Gluon::DotOperand {
                operand_index,
                parent,
                k_width,
            } => write!(
                f,
                "DotOperandLayout(operand_index={operand_index}, parent={parent}, k_width={k_width})"
            ),
            Gluon::NvmmaShared {
                swizzle_byte_width,
                element_bitwidth,
                rank,
                transposed,
                fp4_padded,
                cga_layout,
            } => write!(
                f,
                "NVMMASharedLayout(swizzle_byte_width={swizzle_byte_width}, element_bitwidth={element_bitwidth}, rank={rank}, transposed={}, fp4_padded={}, cga_layout={})",
                py_bool(*transposed),
                py_bool(*fp4_padded),
                B(cga_layout)
            ),
            Gluon::SwizzledShared {
                vec,
                per_phase,
                max_phase,
                order,
                cga_layout,
            } => write!(
                f,
                "SwizzledSharedLayout(vec={vec}, per_phase={per_phase}, max_phase={max_phase}, order={}, cga_layout={})",
                L(order),
                B(cga_layout)
            ),
            Gluon::PaddedShared {
                interval_padding_pairs,
                offset_bases,
                cga_layout,
                shape,
            } => {
                let pairs: Vec<Vec<i64>> = interval_padding_pairs
                    .iter()
                    .map(|&(i, p)| alloc::vec![i, p])
                    .collect();
                write!(
                    f,
                    "PaddedSharedLayout(interval_padding_pairs={}, offset_bases={}, cga_layout={}, shape={})",
                    B(&pairs),
                    B(offset_bases),
                    B(cga_layout),
                    L(shape)
                )
            }
            Gluon::SharedLinear(s) => write!(f, "{s}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_the_repr() {
        let g: Gluon =
            "gl.BlockedLayout([1,4], threads_per_warp=[8,4], warps_per_cta=(4,1), order=[1,0])"
                .parse()
                .unwrap();
        assert_eq!(
            g.to_string(),
            "BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0], cga_layout=[])"
        );
        let g: Gluon = "DotOperandLayout(0, NVMMADistributedLayout([2,0],[4,1],[16,8]), k_width=2)"
            .parse()
            .unwrap();
        assert_eq!(
            g.to_string(),
            "DotOperandLayout(operand_index=0, parent=NVMMADistributedLayout(version=[2, 0], warps_per_cta=[4, 1], instr_shape=[16, 8], cga_layout=[]), k_width=2)"
        );
        let g: Gluon = "NVMMASharedLayout(128, 16, transposed=True)"
            .parse()
            .unwrap();
        assert_eq!(
            g.to_string(),
            "NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True, fp4_padded=False, cga_layout=[])"
        );
        assert!(g.is_shared());
    }

    #[test]
    fn refusals_name_the_problem() {
        let e = |s: &str| s.parse::<Gluon>().unwrap_err().to_string();
        assert_eq!(
            e("BlockedLayout([1,4], [8,4], [4,1])"),
            "gluon: BlockedLayout: missing argument order"
        );
        assert_eq!(
            e("BlockedLayout([1,4], [8,4], [4,1], [1,0], colour=[])"),
            "gluon: BlockedLayout: no parameter named colour"
        );
        assert_eq!(
            e("BlockedLayout([1,4], [8,4], [4,1], [1,0]) x"),
            "parse: expected the end of the layout at byte 42, found 'x'"
        );
        assert_eq!(
            e("SwizzledSharedLayout(vec=True, per_phase=1, max_phase=1, order=[1,0])"),
            "gluon: SwizzledSharedLayout: vec must be an integer"
        );
        assert!(e("Foo(1)").starts_with("gluon: Foo is not a Gluon layout"));
        assert_eq!(
            e("BlockedLayout([1,4]"),
            "parse: expected ',' or ')' at byte 19, found end of input"
        );
    }
}
