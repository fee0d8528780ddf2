//! Arguments for the operations, generated from the fuzzer's bytes.
//!
//! Values are mostly small (so that results are often `Ok` and their laws can be checked by
//! enumeration), with a steady share of extreme ones (0, negatives, powers of two near 2^31,
//! 2^32, 2^62, `i64::MAX`, `i64::MIN`) to reach every overflow check. The argument kinds come
//! from each operation's declaration (`cute_ops::table::Param`: the kinds of each parameter and
//! its arity, [`kind_arg`]), so operations added to the table are fuzzed without changes here.

use std::fmt::Write as _;

use cute_ops::table::{Kind, Param};
use cute_ops::Arg;

/// A cursor over the fuzzer's bytes; past the end it reads zeros.
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, pos: 0 }
    }

    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    /// A number in `0..n` (`n >= 1`).
    pub fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n
    }
}

const SPECIAL: [i64; 16] = [
    0,
    -1,
    i64::MAX,
    i64::MIN,
    1 << 31,
    1 << 32,
    3_037_000_500, // just above sqrt(i64::MAX)
    1 << 62,
    (1 << 62) + 1,
    1 << 40,
    i64::MAX / 2,
    -(1 << 40),
    65_536,
    1 << 20,
    i64::MIN + 1,
    4_294_967_295,
];

/// A shape extent: mostly 1..=8.
pub fn extent(b: &mut Bytes) -> i64 {
    match b.byte() {
        x @ 0..=199 => 1 + i64::from(x % 8),
        x @ 200..=231 => 1 + i64::from(x % 32),
        x @ 232..=239 => -i64::from(x % 3),
        x => SPECIAL[usize::from(x - 240)],
    }
}

/// A stride: mostly 0..=7, powers of two, small negatives.
pub fn stride(b: &mut Bytes) -> i64 {
    match b.byte() {
        x @ 0..=159 => i64::from(x % 8),
        x @ 160..=199 => 1 << (x % 12),
        x @ 200..=229 => -1 - i64::from(x % 4),
        x @ 230..=239 => 3 * i64::from(x % 10),
        x => SPECIAL[usize::from(x - 240)],
    }
}

/// A small integer (an index, a mode number, a cast factor).
pub fn small(b: &mut Bytes) -> i64 {
    match b.byte() {
        x @ 0..=223 => i64::from(x % 18) - 1,
        x => SPECIAL[usize::from(x - 224) % 16],
    }
}

/// The tree of a tuple: leaves and (possibly empty) tuples.
#[derive(Clone, Debug)]
pub enum Tree {
    Leaf,
    Tuple(Vec<Tree>),
}

/// A tree of depth at most `depth` and at most `*budget` leaves.
pub fn tree(b: &mut Bytes, depth: u32, budget: &mut u32) -> Tree {
    let x = b.byte();
    if depth == 0 || *budget <= 1 || x < 140 {
        *budget = budget.saturating_sub(1);
        return Tree::Leaf;
    }
    let n = usize::from(x % 5); // 0..=4 elements; () included
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        if *budget == 0 {
            break;
        }
        v.push(tree(b, depth - 1, budget));
    }
    Tree::Tuple(v)
}

/// Writes `t` with leaves from `leaf`.
pub fn write_tree(out: &mut String, t: &Tree, leaf: &mut impl FnMut() -> i64) {
    match t {
        Tree::Leaf => {
            let _ = write!(out, "{}", leaf());
        }
        Tree::Tuple(v) => {
            out.push('(');
            for (k, e) in v.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                write_tree(out, e, leaf);
            }
            out.push(')');
        }
    }
}

fn some_tree(b: &mut Bytes) -> Tree {
    let mut budget = 1 + b.below(8) as u32;
    tree(b, 3, &mut budget)
}

/// A layout in the text form; rarely with a stride that does not fit the shape.
pub fn layout(b: &mut Bytes) -> String {
    let t = some_tree(b);
    let mut s = String::new();
    write_tree(&mut s, &t, &mut || extent(b));
    s.push(':');
    let st = if b.below(32) == 0 { some_tree(b) } else { t };
    write_tree(&mut s, &st, &mut || stride(b));
    s
}

/// An integer tuple (a shape, profile, order, cotarget); rarely a coordinate-like one.
pub fn tuple(b: &mut Bytes) -> String {
    let t = some_tree(b);
    let mut s = String::new();
    if b.below(4) == 0 {
        write_tree(&mut s, &t, &mut || small(b));
    } else {
        write_tree(&mut s, &t, &mut || extent(b));
    }
    s
}

/// A coordinate: small, sometimes negative or huge.
pub fn coord(b: &mut Bytes) -> String {
    let t = some_tree(b);
    let mut s = String::new();
    write_tree(&mut s, &t, &mut || small(b));
    s
}

/// A tiler: a layout, a shape, `_`, or a tuple of those (in `(...)` or `<...>` notation).
pub fn tiler(b: &mut Bytes, depth: u32) -> String {
    match b.below(8) {
        0..=2 => layout(b),
        3 => extent(b).to_string(),
        4 => tuple(b),
        5 if depth > 0 => "_".to_string(),
        _ if depth > 0 => {
            let n = 1 + b.below(3);
            let angle = b.below(8) == 0;
            let parts: Vec<String> = (0..n).map(|_| tiler(b, depth - 1)).collect();
            if angle {
                format!("<{}>", parts.join(","))
            } else {
                format!("({})", parts.join(","))
            }
        }
        _ => layout(b),
    }
}

/// A swizzle argument: `Sw<B,M,S>` text or a `[B, M, S]` list.
fn swizzle(b: &mut Bytes) -> Arg {
    let (x, y, z) = (small(b), small(b), small(b).wrapping_sub(4));
    if b.below(2) == 0 {
        Arg::List(vec![Arg::Int(x), Arg::Int(y), Arg::Int(z)])
    } else {
        Arg::Text(format!("Sw<{x},{y},{z}>"))
    }
}

/// A stride for the operands of composed layouts: small, of either sign, often zero or a power
/// of two (so that swizzles can move through the layouts), rarely extreme.
pub fn signed_stride(b: &mut Bytes) -> i64 {
    match b.byte() {
        0..=39 => 0,
        x @ 40..=119 => {
            let p = 1i64 << (x % 7);
            if x % 2 == 0 {
                p
            } else {
                -p
            }
        }
        x @ 120..=247 => i64::from(x % 17) - 8,
        x => SPECIAL[usize::from(x - 248) * 2 % 16],
    }
}

/// A layout whose strides are [`signed_stride`]s: negative, zero and positive ones mixed.
pub fn signed_layout(b: &mut Bytes) -> String {
    let t = some_tree(b);
    let mut s = String::new();
    write_tree(&mut s, &t, &mut || match b.below(8) {
        0 => 1 + b.below(16) as i64,
        _ => 1 << b.below(4),
    });
    s.push(':');
    write_tree(&mut s, &t, &mut || signed_stride(b));
    s
}

/// A valid swizzle `Sw<B,M,S>` of at most 12 bits, either sign of `S`.
pub fn valid_swizzle(b: &mut Bytes) -> String {
    let bits = b.below(4) as i64;
    let base = b.below(5) as i64;
    let mut shift = bits + b.below(4) as i64;
    if b.below(2) == 0 {
        shift = -shift;
    }
    format!("Sw<{bits},{base},{shift}>")
}

/// A composed layout `Sw o 0 o L` (one or two layers, offset 0) over a layout with strides of
/// both signs and zero ([`signed_layout`]), or a plain such layout; rarely a nonzero offset.
/// One in four is a general composed layout ([`chain`]).
pub fn composed(b: &mut Bytes) -> String {
    if b.below(4) == 0 {
        return chain(b);
    }
    let inner = if b.below(4) == 0 {
        layout(b)
    } else {
        signed_layout(b)
    };
    let layers = match b.below(8) {
        0 => 0,
        1 => 2,
        _ => 1,
    };
    let mut s = String::new();
    for _ in 0..layers {
        let off = if b.below(16) == 0 { small(b) } else { 0 };
        let _ = write!(s, "{} o {off} o ", valid_swizzle(b));
    }
    s + &inner
}

/// A compact layout of rank 1 to 3 (extents 1, 2, 3, 4 or 8) with its strides in a random mode
/// order, sometimes negated or doubled: often a bijection, so that inverses have answers.
pub fn compact_layout(b: &mut Bytes) -> String {
    let rank = 1 + b.below(3);
    let extents: Vec<i64> = (0..rank).map(|_| [1, 2, 3, 4, 8][b.below(5)]).collect();
    let mut order: Vec<usize> = (0..rank).collect();
    for k in (1..rank).rev() {
        order.swap(k, b.below(k + 1));
    }
    let scale = [1, 1, 1, 2, -1][b.below(5)];
    let mut strides = vec![0i64; rank];
    let mut acc = 1i64;
    for &k in &order {
        strides[k] = acc * scale;
        acc *= extents[k];
    }
    let join = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    if rank == 1 {
        format!("{}:{}", extents[0], strides[0])
    } else {
        format!("({}):({})", join(&extents), join(&strides))
    }
}

/// A general composed layout (CuTe's `ComposedLayout` with layouts as outer functions): 1 to 3
/// outer functions, at least one a layout ([`compact_layout`] or [`signed_layout`]), the others
/// swizzles, each with an offset that is often 0 and else small of either sign, over a layout.
pub fn chain(b: &mut Bytes) -> String {
    let n = 1 + b.below(3);
    let must = b.below(n);
    let mut s = String::new();
    for k in 0..n {
        let f = if k != must && b.below(3) == 0 {
            valid_swizzle(b)
        } else if b.below(2) == 0 {
            compact_layout(b)
        } else {
            signed_layout(b)
        };
        let off = match b.below(4) {
            0 | 1 => 0,
            2 => 1 + b.below(8) as i64,
            _ => -1 - b.below(8) as i64,
        };
        let _ = write!(s, "{f} o {off} o ");
    }
    let inner = if b.below(2) == 0 {
        compact_layout(b)
    } else {
        signed_layout(b)
    };
    s + &inner
}

/// An F2 (XOR) stride value: mostly small, powers of two, rarely extreme.
fn f2_value(b: &mut Bytes) -> i64 {
    match b.byte() {
        x @ 0..=159 => i64::from(x % 16),
        x @ 160..=239 => 1 << (x % 14),
        x => SPECIAL[usize::from(x - 240)],
    }
}

/// A layout with F2 strides `(8,8):(F2(1),F2(9))` (power-of-two extents mostly, some `0`
/// strides), or with F2 basis strides `F2(v)@i` (PyCuTe's `ScaledBasis(F2(v), (i,))`); rarely
/// a plain integer stride among them.
pub fn f2_layout(b: &mut Bytes) -> String {
    let t = some_tree(b);
    let basis = b.below(4) == 0;
    let mut s = String::new();
    write_tree(&mut s, &t, &mut || match b.below(8) {
        0 => extent(b),
        _ => 1 << b.below(4),
    });
    s.push(':');
    let mut strides = Vec::new();
    let mut leaf = || match b.below(16) {
        0 => "0".to_string(),
        1 => stride(b).to_string(),
        _ if basis => format!("F2({})@{}", f2_value(b), b.below(3)),
        _ => format!("F2({})", f2_value(b)),
    };
    write_tree_text(&mut strides, &t, &mut leaf);
    s + &strides.concat()
}

/// Writes `t` with text leaves from `leaf` into `out`, one piece per token.
fn write_tree_text(out: &mut Vec<String>, t: &Tree, leaf: &mut impl FnMut() -> String) {
    match t {
        Tree::Leaf => out.push(leaf()),
        Tree::Tuple(v) => {
            out.push("(".to_string());
            for (k, e) in v.iter().enumerate() {
                if k > 0 {
                    out.push(",".to_string());
                }
                write_tree_text(out, e, leaf);
            }
            out.push(")".to_string());
        }
    }
}

/// The symbols of the symbolic layouts.
pub const SYMBOLS: [&str; 3] = ["N", "M", "K"];

/// A monomial over [`SYMBOLS`] (`N`, `4*N`, `N*M`) or a small integer.
pub fn sym(b: &mut Bytes, stride: bool) -> String {
    match b.below(8) {
        0..=2 => SYMBOLS[b.below(3)].to_string(),
        3 => format!("{}*{}", 1 << b.below(4), SYMBOLS[b.below(3)]),
        4 => format!("{}*{}", SYMBOLS[b.below(3)], SYMBOLS[b.below(3)]),
        5 if b.below(16) == 0 => format!("-{}", SYMBOLS[b.below(3)]),
        _ if stride => self::stride(b).to_string(),
        _ => extent(b).to_string(),
    }
}

/// A symbolic layout `(N,M):(1,N)`: extents and strides monomials or integers.
pub fn symbolic_layout(b: &mut Bytes) -> String {
    let t = some_tree(b);
    let mut parts = Vec::new();
    write_tree_text(&mut parts, &t, &mut || sym(b, false));
    parts.push(":".to_string());
    // Mostly a compact column-major stride, so that the ops find something to merge.
    if b.below(3) == 0 {
        let mut acc = String::from("1");
        write_tree_text(&mut parts, &t, &mut || {
            let here = acc.clone();
            let e = sym(b, false);
            acc = if acc == "1" { e } else { format!("{acc}*{e}") };
            here
        });
    } else {
        write_tree_text(&mut parts, &t, &mut || sym(b, true));
    }
    parts.concat()
}

/// A substitution `NAME=VALUE` of `subs`: mostly 2..=8, rarely 1, 0, negative or huge.
pub fn binding(b: &mut Bytes) -> String {
    let name = if b.below(16) == 0 {
        "Q"
    } else {
        SYMBOLS[b.below(3)]
    };
    let v = if b.below(8) == 0 {
        small(b)
    } else {
        2 + b.below(7) as i64
    };
    format!("{name}={v}")
}

/// A layout whose strides are basis sums `1@0+1@1` (CuTe's `ArithmeticTuple` strides), basis
/// elements `2@1` or `0`.
pub fn basis_sum_layout(b: &mut Bytes) -> String {
    let t = some_tree(b);
    let mut parts = Vec::new();
    let mut shape = String::new();
    write_tree(&mut shape, &t, &mut || extent(b));
    write_tree_text(&mut parts, &t, &mut || {
        let n = b.below(4);
        if n == 0 {
            return "0".to_string();
        }
        let terms: Vec<String> = (0..n)
            .map(|_| format!("{}@{}", 1 + b.below(4), b.below(3)))
            .collect();
        terms.join("+")
    });
    format!("{shape}:{}", parts.concat())
}

/// Element type names for pointers (`half_t`, sub-byte ones, an unknown one).
const TYPES: &[&str] = &[
    "half_t",
    "float",
    "bfloat16_t",
    "int4_t",
    "uint2_t",
    "int8_t",
    "double",
    "bool",
    "float_e2m3_t",
    "nope_t",
];

/// A type argument: a name or (rarely) a bit count.
pub fn type_arg(b: &mut Bytes) -> Arg {
    if b.below(8) == 0 {
        Arg::Int(small(b))
    } else {
        Arg::Text(TYPES[b.below(TYPES.len())].to_string())
    }
}

/// An address: mostly aligned hex, rarely odd, zero or huge.
pub fn address(b: &mut Bytes) -> String {
    match b.below(8) {
        0 => format!("{}", small(b)),
        1 => format!("{:#x}", SPECIAL[b.below(16)] as u64),
        _ => format!("{:#x}", 0x400 * (1 + b.below(8)) + 2 * b.below(4)),
    }
}

/// A typed pointer as CuTe prints it: `gmem_ptr[16b](0x1000)`, `Sw<3,4,3>_smem_ptr[16b](...)`,
/// `ptr[32b](0x40)`, `gmem_subptr[4b](0x1001.4)`, `tmem_[32b](0x0001.0002)`, `(nil)`.
pub fn pointer(b: &mut Bytes) -> String {
    let bits = [16, 32, 8, 64, 4, 2, 1, 6][b.below(8)];
    let mut addr = address(b);
    if !addr.starts_with("0x") && b.below(4) != 0 {
        addr = format!("{:#x}", addr.parse::<i64>().unwrap_or(0).unsigned_abs());
    }
    if bits < 8 && b.below(4) != 0 {
        // Sub-byte elements: CuTe's subbyte_iterator, a byte address and a bit.
        let space = ["gmem_", "smem_", ""][b.below(3)];
        let sw = if b.below(4) == 0 {
            valid_swizzle(b) + "_"
        } else {
            String::new()
        };
        return format!("{sw}{space}subptr[{bits}b]({addr}.{})", b.below(8));
    }
    match b.below(10) {
        0..=2 => format!("gmem_ptr[{bits}b]({addr})"),
        3..=4 => format!("smem_ptr[{bits}b]({addr})"),
        5..=6 => format!("{}_smem_ptr[{bits}b]({addr})", valid_swizzle(b)),
        7 => format!("ptr[{bits}b]({addr})"),
        8 => format!("gmem_subptr[{bits}b]({addr}.{})", b.below(8)),
        _ => match b.below(3) {
            0 => format!("tmem_[32b](0x{:04x}.{:04x})", b.below(4), b.below(64)),
            1 => format!("ptr[{bits}b](nil)"),
            _ => format!("smem_ptr[{bits}b](unset)"),
        },
    }
}

/// A pointer tensor `PTR o LAYOUT` (the layout rarely composed).
pub fn pointer_tensor(b: &mut Bytes) -> String {
    let l = if b.below(4) == 0 {
        composed(b)
    } else {
        layout(b)
    };
    format!("{} o {l}", pointer(b))
}

/// A zip tensor of two or three tensors, mostly of one shape.
pub fn zip_tensor(b: &mut Bytes) -> String {
    let n = 2 + b.below(2);
    let l = layout(b);
    let parts: Vec<String> = (0..n)
        .map(|_| match b.below(4) {
            0 => format!("counting_iter({}) o {l}", small(b)),
            1 => tensor(b),
            _ => format!("{} o {l}", pointer(b)),
        })
        .collect();
    format!("zip({})", parts.join(", "))
}

/// A `latex`/`svg` option word and its value.
fn picture_option(b: &mut Bytes) -> Vec<Arg> {
    let word = [
        "--palette",
        "--tv",
        "--tile",
        "--highlight",
        "--banks",
        "--layout",
        "--nope",
    ][b.below(7)];
    let value = match word {
        "--palette" => ["lightblue,wheat", "red,#00f", "#12", ""][b.below(4)].to_string(),
        "--banks" => small(b).to_string(),
        "--tile" | "--layout" => tuple(b),
        _ => layout(b),
    };
    vec![Arg::Text(word.to_string()), Arg::Text(value)]
}

/// The arguments of a `latex`/`svg` call: a layout (or an operation, `mma`, `copy`) and options.
pub fn picture_args(b: &mut Bytes, op: &str) -> Vec<Arg> {
    let mut v = match b.below(8) {
        0 => vec![
            Arg::Text("mma".into()),
            Arg::Text("SM80_16x8x16_F32F16F16F32_TN".into()),
        ],
        1 => vec![
            Arg::Text("copy".into()),
            Arg::Text("SM75_U32x4_LDSM_N".into()),
        ],
        2 if op == "svg" => vec![
            Arg::Text(OP_NAMES[b.below(OP_NAMES.len())].into()),
            Arg::Text(layout(b)),
            Arg::Text(tiler(b, 1)),
        ],
        3 => vec![Arg::Text(composed(b))],
        _ => vec![Arg::Text(layout(b))],
    };
    if b.below(4) == 0 {
        // A TV layout with its tile: `--tv ((4,8),(2,2)):((16,1),(8,64)) --tile (16,8)`.
        v = vec![
            Arg::Text("--tv".into()),
            Arg::Text(layout(b)),
            Arg::Text("--tile".into()),
            Arg::Text(format!("({},{})", 1 << b.below(5), 1 << b.below(5))),
        ];
    }
    for _ in 0..b.below(3) {
        v.extend(picture_option(b));
    }
    v
}

/// Whole argument lists for the operations whose parameters depend on each other (`smem_atom
/// NAME TYPE` or `MAJOR SWIZZLE TYPE`, `subs` with a value for each symbol, `tma_gbasis` with
/// tiles that fit the global layout, the pictures' options), or `None` for the generic words.
pub fn special_args(b: &mut Bytes, op: &str) -> Option<Vec<Arg>> {
    let t = |s: String| Arg::Text(s);
    let pow2 = |b: &mut Bytes, max: usize| 1i64 << b.below(max + 1);
    if let Some(v) = app_args(b, op) {
        return Some(v);
    }
    Some(match op {
        "latex" | "svg" => picture_args(b, op),
        "smem_atom" | "smem_atom_layout" => {
            let mut v = if b.below(3) == 0 {
                let major = ["K", "MN"][b.below(2)];
                let sw = ["SW128", "SW64", "SW32", "INTER", "SW128_32B"][b.below(5)];
                vec![t(format!("Layout_{major}_{sw}_Atom")), type_arg(b)]
            } else {
                vec![
                    t(["K", "MN"][b.below(2)].to_string()),
                    t(["SW128", "SW64", "SW32", "INTER", "SW128_32B"][b.below(5)].to_string()),
                    type_arg(b),
                ]
            };
            if b.below(2) == 0 {
                v.push(t(format!("({},{})", pow2(b, 8), pow2(b, 8))));
                if b.below(4) == 0 {
                    v.push(t(["(0,1)", "(1,0)", "(0,1,2)"][b.below(3)].to_string()));
                }
            }
            v
        }
        "subs" => {
            let mut v = vec![t(symbolic_layout(b))];
            if b.below(4) == 0 {
                let all: Vec<String> = (0..3).map(|_| binding(b)).collect();
                v.push(t(all.join(",")));
            } else {
                for name in SYMBOLS {
                    if b.below(16) != 0 {
                        v.push(t(format!("{name}={}", 2 + b.below(7))));
                    }
                }
                if b.below(8) == 0 {
                    v.push(t(binding(b)));
                }
            }
            v
        }
        // symbolic shapes and orders (and cotargets) now and then, checked under
        // substitution against the integer operation
        "make_ordered_layout" if b.below(4) == 0 => {
            let n = 1 + b.below(3);
            let shape: Vec<String> = (0..n).map(|_| sym(b, false)).collect();
            let order: Vec<String> = (0..n).map(|_| sym(b, true)).collect();
            vec![
                t(format!("({})", shape.join(","))),
                t(format!("({})", order.join(","))),
            ]
        }
        "complement" if b.below(4) == 0 => {
            let mut v = vec![t(symbolic_layout(b))];
            if b.below(2) == 0 {
                let n = 1 + b.below(3);
                let c: Vec<String> = (0..n).map(|_| sym(b, false)).collect();
                v.push(t(format!("({})", c.join(","))));
            }
            v
        }
        "tma_gbasis" => {
            // A row- or column-major global layout and an smem tile of at most its extents.
            let (m, n) = (pow2(b, 9), pow2(b, 9));
            let gmem = if b.below(2) == 0 {
                format!("({m},{n}):({n},1)")
            } else {
                format!("({m},{n}):(1,{m})")
            };
            let (tm, tn) = (m >> b.below(4), n >> b.below(4));
            let (tm, tn) = (tm.max(1), tn.max(1));
            let smem = match b.below(4) {
                0 => format!("({tm},{tn}):(1,{tm})"),
                1 => format!("{} o 0 o ({tm},{tn}):({tn},1)", valid_swizzle(b)),
                2 => layout(b),
                _ => format!("({tm},{tn}):({tn},1)"),
            };
            let mut v = vec![t(gmem), t(smem)];
            if b.below(2) == 0 {
                v.push(t(if b.below(3) == 0 {
                    "_".to_string()
                } else {
                    format!("({tm},{tn})")
                }));
                if b.below(2) == 0 {
                    v.push(t(["gbasis", "box", "gmem_shape", "gmem_stride"]
                        [b.below(4)]
                    .into()));
                }
            }
            v
        }
        _ => return tool_args(b, op),
    })
}

// ---------------------------------------------------------------------------------------------
// Arguments for the layout and tuple tools (laws/check_tools.rs): mode numbers inside the rank,
// coordinates inside the shape, operands whose structure the law needs.

/// A flat or nested integer layout of positive extents and its shape and stride leaves.
fn tool_layout(b: &mut Bytes) -> (String, Tree) {
    let t = some_tree(b);
    let mut s = String::new();
    write_tree(&mut s, &t, &mut || 1 + b.below(6) as i64);
    s.push(':');
    write_tree(&mut s, &t, &mut || match b.below(8) {
        0 => 0,
        1 => -1 - b.below(3) as i64,
        _ => 1 << b.below(6),
    });
    (s, t)
}

/// The number of top-level modes of a tree.
fn tree_rank(t: &Tree) -> usize {
    match t {
        Tree::Leaf => 1,
        Tree::Tuple(v) => v.len(),
    }
}

/// A coordinate of the shape `shape` (its text): natural, 1-D or a mix, inside the shape.
fn coord_in(b: &mut Bytes, shape: &str, underscores: bool) -> String {
    let Some(t) = parse_shape(shape) else {
        return "0".into();
    };
    fn go(b: &mut Bytes, t: &Shape, under: bool, out: &mut String) {
        match t {
            _ if under && b.below(3) == 0 => out.push('_'),
            Shape::Leaf(n) => {
                let _ = write!(out, "{}", b.below((*n).clamp(1, 255) as usize));
            }
            Shape::Tuple(v) if b.below(4) == 0 => {
                let n = v.iter().fold(1i64, |a, e| a.saturating_mul(e.size()));
                let _ = write!(out, "{}", b.below(n.clamp(1, 255) as usize));
            }
            Shape::Tuple(v) => {
                out.push('(');
                for (k, e) in v.iter().enumerate() {
                    if k > 0 {
                        out.push(',');
                    }
                    go(b, e, under, out);
                }
                out.push(')');
            }
        }
    }
    let mut out = String::new();
    go(b, &t, underscores, &mut out);
    out
}

/// A shape read back from its text (positive extents).
enum Shape {
    Leaf(i64),
    Tuple(Vec<Shape>),
}

impl Shape {
    fn size(&self) -> i64 {
        match self {
            Shape::Leaf(n) => *n,
            Shape::Tuple(v) => v.iter().fold(1i64, |a, e| a.saturating_mul(e.size())),
        }
    }
}

fn parse_shape(s: &str) -> Option<Shape> {
    fn go(s: &[u8], pos: &mut usize) -> Option<Shape> {
        if s.get(*pos) == Some(&b'(') {
            *pos += 1;
            let mut v = Vec::new();
            if s.get(*pos) == Some(&b')') {
                *pos += 1;
                return Some(Shape::Tuple(v));
            }
            loop {
                v.push(go(s, pos)?);
                match s.get(*pos)? {
                    b',' => *pos += 1,
                    b')' => {
                        *pos += 1;
                        return Some(Shape::Tuple(v));
                    }
                    _ => return None,
                }
            }
        }
        let start = *pos;
        while s.get(*pos).is_some_and(u8::is_ascii_digit) {
            *pos += 1;
        }
        let n: i64 = std::str::from_utf8(&s[start..*pos]).ok()?.parse().ok()?;
        (n >= 1).then_some(Shape::Leaf(n))
    }
    let mut pos = 0;
    let t = go(s.as_bytes(), &mut pos)?;
    (pos == s.len()).then_some(t)
}

/// The shape part of a layout text.
fn shape_of(l: &str) -> &str {
    l.split(':').next().unwrap_or(l)
}

/// Modes `k` of rank `m` each: `((s,s),(s,s)):((d,d),(d,d))`, for zip and tile_unzip.
fn paired_modes(b: &mut Bytes, k: usize, m: usize) -> (Vec<String>, Vec<String>) {
    let (mut sh, mut st) = (Vec::new(), Vec::new());
    for _ in 0..k {
        let s: Vec<String> = (0..m).map(|_| (1 + b.below(4)).to_string()).collect();
        let d: Vec<String> = (0..m).map(|_| (1 << b.below(5)).to_string()).collect();
        sh.push(format!("({})", s.join(",")));
        st.push(format!("({})", d.join(",")));
    }
    (sh, st)
}

/// Arguments for the tools whose laws need related arguments, or `None` for the generic words.
pub fn tool_args(b: &mut Bytes, op: &str) -> Option<Vec<Arg>> {
    let t = |s: String| Arg::Text(s);
    let int = |x: usize| Arg::Int(x as i64);
    Some(match op {
        "group" | "take" | "select" | "replace" => {
            let (l, tr) = tool_layout(b);
            let a = if b.below(3) == 0 {
                shape_of(&l).to_string()
            } else {
                l.clone()
            };
            let r = tree_rank(&tr);
            let lo = b.below(r + 1);
            let hi = lo + b.below(r - lo + 1);
            match op {
                "select" => {
                    let mut v = vec![t(a)];
                    v.extend((0..1 + b.below(3)).map(|_| int(b.below(r + 1))));
                    v
                }
                "replace" => {
                    let x = tool_layout(b).0;
                    let x = if l == a { x } else { shape_of(&x).to_string() };
                    vec![t(a), int(b.below(r + 1)), t(x)]
                }
                _ => vec![t(a), int(lo), int(hi)],
            }
        }
        "at_mode" => {
            let (l, tr) = tool_layout(b);
            let r = tree_rank(&tr);
            let ops = [
                "coalesce",
                "filter",
                "flatten",
                "logical_divide",
                "composition",
                "right_inverse",
            ];
            let o = ops[b.below(ops.len())];
            let mode = if b.below(4) == 0 {
                format!("({},0)", b.below(r.max(1)))
            } else {
                b.below(r.max(1)).to_string()
            };
            let mut v = vec![t(mode), t(o.to_string()), t(l)];
            if matches!(o, "logical_divide" | "composition") {
                v.push(t(format!("{}:{}", 1 + b.below(4), 1 << b.below(2))));
            }
            v
        }
        "zip" => {
            let (k, m) = (1 + b.below(3), 1 + b.below(3));
            let (sh, st) = paired_modes(b, k, m);
            match b.below(3) {
                0 => vec![t(format!("({})", sh.join(",")))],
                1 => (0..k).map(|i| t(format!("{}:{}", sh[i], st[i]))).collect(),
                _ => vec![t(format!("({}):({})", sh.join(","), st.join(",")))],
            }
        }
        "tile_unzip" => {
            let r = 1 + b.below(3);
            let (mut sh, mut st) = paired_modes(b, r, 2);
            for _ in 0..b.below(2) {
                sh.push((1 + b.below(4)).to_string());
                st.push((1 << b.below(4)).to_string());
            }
            let tiler: Vec<String> = (0..r).map(|_| (1 + b.below(4)).to_string()).collect();
            vec![
                t(format!("({}):({})", sh.join(","), st.join(","))),
                t(format!("({})", tiler.join(","))),
            ]
        }
        "crd2idx" | "domain_offset" | "slice" | "dice" | "slice_and_offset" => {
            let (l, _) = tool_layout(b);
            let under = matches!(op, "slice" | "dice" | "slice_and_offset");
            let c = coord_in(b, shape_of(&l), under);
            if op == "crd2idx" && b.below(3) == 0 {
                vec![t(c), t(shape_of(&l).to_string())]
            } else {
                vec![t(c), t(l)]
            }
        }
        "crd2crd" => {
            let s1 = tuple(b);
            let c = coord_in(b, &s1, false);
            let s2 = if b.below(2) == 0 {
                tuple(b)
            } else {
                s1.clone()
            };
            vec![t(c), t(s1), t(s2)]
        }
        "downcast" | "upcast" => {
            let (l, _) = tool_layout(b);
            vec![int(1 << b.below(4)), t(l)]
        }
        "common_refinement" | "common_coarsening" => {
            // Two groupings of one list of extents.
            let n = 1 + b.below(5);
            let ext: Vec<i64> = (0..n).map(|_| 1 + b.below(6) as i64).collect();
            let group = |b: &mut Bytes| {
                let mut parts = Vec::new();
                let mut k = 0;
                while k < n {
                    let len = 1 + b.below(n - k);
                    let e = &ext[k..k + len];
                    parts.push(if len == 1 || b.below(2) == 0 {
                        e.iter().product::<i64>().to_string()
                    } else {
                        format!(
                            "({})",
                            e.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
                        )
                    });
                    k += len;
                }
                format!("({})", parts.join(","))
            };
            vec![t(group(b)), t(group(b))]
        }
        "tile_to_shape" => {
            let a = compact_layout(b);
            let shape: Vec<String> = shape_of(&a)
                .trim_matches(|c| c == '(' || c == ')')
                .split(',')
                .map(|x| (x.parse::<i64>().unwrap_or(1) * (1 + b.below(3) as i64)).to_string())
                .collect();
            let mut v = vec![t(a), t(format!("({})", shape.join(",")))];
            if b.below(2) == 0 {
                let mut order: Vec<usize> = (0..shape.len()).collect();
                for k in (1..order.len()).rev() {
                    order.swap(k, b.below(k + 1));
                }
                let o: Vec<String> = order.iter().map(usize::to_string).collect();
                v.push(t(format!("({})", o.join(","))));
            }
            v
        }
        _ => return None,
    })
}

/// A layout of any of the stride kinds the text form has: mostly integer strides, some F2,
/// symbolic and basis-sum ones.
pub fn any_layout(b: &mut Bytes) -> String {
    match b.below(32) {
        0 | 1 => f2_layout(b),
        2 | 3 => symbolic_layout(b),
        4 => basis_sum_layout(b),
        _ => layout(b),
    }
}

/// One argument of the kind named by a parameter's word (`LAYOUT`, `TILER`, `SHAPE`, `N`, ...).
pub fn arg(b: &mut Bytes, word: &str) -> Arg {
    let alts: Vec<&str> = word.split('|').collect();
    let w = alts[b.below(alts.len())];
    if b.below(24) == 0 {
        // Anything at all where the word asks for something specific.
        return match b.below(6) {
            0 => Arg::Text(layout(b)),
            1 => Arg::Text(tuple(b)),
            2 => Arg::Int(small(b)),
            3 => swizzle(b),
            4 => Arg::Text(tiler(b, 2)),
            _ => Arg::Text(String::new()),
        };
    }
    match w {
        "LAYOUT" => Arg::Text(any_layout(b)),
        "F2LAYOUT" => Arg::Text(f2_layout(b)),
        "SYMBOLIC" => Arg::Text(symbolic_layout(b)),
        "NAME=VALUE" => Arg::Text(binding(b)),
        "TYPE" => type_arg(b),
        "BITS" => Arg::Int([4, 8, 16, 32, 64, 3, 0][b.below(7)]),
        "ADDR" => Arg::Text(address(b)),
        "PTR" => Arg::Text(pointer(b)),
        "ZIP" => Arg::Text(zip_tensor(b)),
        "NAME" => Arg::Text(
            [
                "Layout_K_SW128_Atom",
                "Layout_MN_SW64_Atom",
                "Layout_K_INTER_Atom",
                "Layout_K_SW32_Atom",
                "Layout_X_Atom",
            ][b.below(5)]
            .to_string(),
        ),
        "MAJOR" => Arg::Text(["K", "MN", "X"][b.below(3)].to_string()),
        "GMEM" | "SMEM" => Arg::Text(layout(b)),
        "CTA_TILE" => Arg::Text(tiler(b, 1)),
        "BASIS" => Arg::Text(format!("{}@{}", small(b), b.below(3))),
        "PRED" => Arg::Text(OP_NAMES[b.below(OP_NAMES.len())].to_string()),
        "X" | "V" => Arg::Text(if b.below(2) == 0 {
            tuple(b)
        } else {
            small(b).to_string()
        }),
        "TILER" => Arg::Text(tiler(b, 2)),
        "COORD" => Arg::Text(coord(b)),
        "SHAPE" | "TUPLE" | "PROFILE" | "COTARGET" | "ORDER" | "STRIDE" => Arg::Text(tuple(b)),
        "N" | "I" | "BEGIN" | "END" | "INDEX" | "ELEM_BYTES" | "THREADS" | "BANKS"
        | "BANK_BYTES" | "Y" | "Z" | "BASE" | "START" | "INIT" | "OFFSET" | "THREAD" | "INT"
        | "WRITE_LANES" | "READ_LANES" | "LANES" => {
            let v = small(b);
            if b.below(2) == 0 {
                Arg::Int(v)
            } else {
                Arg::Text(v.to_string())
            }
        }
        "LayoutLeft" | "LayoutRight" | "gbasis" | "box" | "gmem_shape" | "gmem_stride" | "mma"
        | "copy" => Arg::Text(w.to_string()),
        "SWIZZLE" => match b.below(8) {
            0 => Arg::Text(["SW128", "SW64", "SW32", "INTER", "SW128_32B"][b.below(5)].into()),
            _ => swizzle(b),
        },
        "COMPOSED" => Arg::Text(composed(b)),
        "TENSOR" => Arg::Text(tensor(b)),
        "MODE" => Arg::Text(if b.below(2) == 0 {
            coord(b)
        } else {
            small(b).to_string()
        }),
        "PROJ" => Arg::Text(projection(b)),
        "OP" => Arg::Text(OP_NAMES[b.below(OP_NAMES.len())].to_string()),
        "TV" | "TV_LAYOUT" | "THR_LAYOUT" => Arg::Text(layout(b)),
        _ => Arg::Text(layout(b)),
    }
}

/// Operation names for the arguments that name one (`transform_layout OP`, `at_mode MODE OP`,
/// `explain OP`): the layout-valued ones, and a few that are not.
const OP_NAMES: &[&str] = &[
    "coalesce",
    "filter",
    "flatten",
    "composition",
    "logical_divide",
    "zipped_divide",
    "logical_product",
    "complement",
    "right_inverse",
    "left_inverse",
    "size",
    "product",
    "shape_div",
    "elem_scale",
    "congruent",
    "ceil_div",
    "max",
    "coalesce_z",
    "nope",
];

/// A tensor in the text form: a counting tensor over a (possibly swizzled) layout, or a
/// coordinate tensor (`ArithTuple(...) o` a basis-strided layout).
pub fn tensor(b: &mut Bytes) -> String {
    match b.below(8) {
        4 | 5 => pointer_tensor(b),
        6 if b.below(4) == 0 => zip_tensor(b),
        0 => format!("counting_iter({}) o {}", small(b), composed(b)),
        1 => {
            let shape = tuple(b);
            let rank = shape.matches(',').count() + 1;
            let strides: Vec<String> = (0..rank).map(|i| format!("1@{i}")).collect();
            let origin: Vec<String> = (0..rank).map(|_| small(b).to_string()).collect();
            format!(
                "ArithTuple({}) o {shape}:({})",
                origin.join(","),
                strides.join(",")
            )
        }
        _ => format!("counting_iter({}) o {}", small(b), layout(b)),
    }
}

/// A projection of `local_tile`/`local_partition`: `Step<_1,X,...>` or `(1,X,...)`.
pub fn projection(b: &mut Bytes) -> String {
    let n = 1 + b.below(3);
    let parts: Vec<&str> = (0..n)
        .map(|_| if b.below(2) == 0 { "_1" } else { "X" })
        .collect();
    if b.below(2) == 0 {
        format!("Step<{}>", parts.join(","))
    } else {
        format!("({})", parts.join(",").replace("_1", "1"))
    }
}

/// Atom names sampled from the atom families (MMA atoms of several architectures, copy atoms,
/// and one unknown name).
pub const ATOMS: &[&str] = &[
    "SM80_16x8x16_F32F16F16F32_TN",
    "SM80_16x8x8_F16F16F16F16_TN",
    "SM70_8x8x4_F32F16F16F32_NT",
    "SM90_64x64x16_F16F16F16_SS",
    "UniversalFMA",
    "SM75_U32x4_LDSM_N",
    "SM75_U16x8_LDSM_T",
    "SM80_CP_ASYNC_CACHEALWAYS",
    "UniversalCopy",
    "SM90_U32x4_STSM_N",
    "SM00_NOPE",
];

/// Field names of atoms and tiled atoms.
pub const FIELDS: &[&str] = &[
    "layout_a_tv",
    "layout_b_tv",
    "layout_c_tv",
    "shape_mnk",
    "tiler_mn",
    "layout_tv",
    "src",
    "dst",
    "ref",
    "thr_layout_vmnk",
    "nope",
];

/// A chain `OUTER o OFFSET o INNER` whose outer function is a layout (CuTe's composed layout
/// with a layout as its outer function), with an offset of either sign; rarely a swizzle on top.
pub fn layout_chain(b: &mut Bytes) -> String {
    let outer = if b.below(2) == 0 {
        signed_layout(b)
    } else {
        layout(b)
    };
    let off = match b.below(4) {
        0 => 0,
        1 => -(1 + b.below(8) as i64),
        _ => b.below(16) as i64,
    };
    let inner = layout(b);
    let chain = format!("{outer} o {off} o {inner}");
    if b.below(8) == 0 {
        format!("{} o 0 o {chain}", valid_swizzle(b))
    } else {
        chain
    }
}

/// A layout with basis strides `(4,8):(1@0,1@1)` (CuTe's identity-like layouts), scaled and
/// permuted.
pub fn basis_layout(b: &mut Bytes) -> String {
    let t = some_tree(b);
    let mut shape = String::new();
    write_tree(&mut shape, &t, &mut || extent(b));
    let mut parts = Vec::new();
    write_tree_text(&mut parts, &t, &mut || match b.below(8) {
        0 => "0".to_string(),
        _ => format!("{}@{}", 1 + b.below(3), b.below(3)),
    });
    format!("{shape}:{}", parts.concat())
}

/// One argument of `kind`. Every kind of [`Kind`] has a generator here (the match is
/// exhaustive), so an operation declared with any kind gets arguments of that kind.
pub fn kind_arg(b: &mut Bytes, kind: Kind) -> Arg {
    let t = Arg::Text;
    match kind {
        Kind::Int => {
            let v = small(b);
            if b.below(2) == 0 {
                Arg::Int(v)
            } else {
                t(v.to_string())
            }
        }
        Kind::Tuple | Kind::Shape => t(tuple(b)),
        Kind::Stride => t(match b.below(4) {
            0 => {
                let l = basis_layout(b);
                l[l.find(':').map_or(0, |k| k + 1)..].to_string()
            }
            _ => tuple(b),
        }),
        Kind::Coord => t(match b.below(4) {
            0 => coord(b).replacen(|c: char| c.is_ascii_digit(), "_", 1),
            _ => coord(b),
        }),
        Kind::Profile => t(match b.below(2) {
            0 => tuple(b).replace(|c: char| c.is_ascii_digit() || c == '-', "_"),
            _ => tuple(b),
        }),
        // The text form of a layout also holds F2 and symbolic strides, which some operations
        // declared with LAYOUT take (right_inverse, complement, coalesce).
        Kind::Layout => t(match b.below(16) {
            0..=1 => signed_layout(b),
            2 => basis_layout(b),
            3 => basis_sum_layout(b),
            4 => f2_layout(b),
            5 => symbolic_layout(b),
            _ => layout(b),
        }),
        Kind::Basis => t(match b.below(4) {
            0 => format!("{}@{}@{}", small(b), b.below(3), b.below(3)),
            _ => format!("{}@{}", small(b), b.below(3)),
        }),
        Kind::F2Layout => t(f2_layout(b)),
        Kind::Symbolic => t(symbolic_layout(b)),
        Kind::Swizzle => match b.below(4) {
            0 => swizzle(b),
            _ => t(valid_swizzle(b)),
        },
        Kind::Composed => t(match b.below(3) {
            0 => layout_chain(b),
            _ => composed(b),
        }),
        Kind::Tensor => t(tensor(b)),
        Kind::Pointer => t(pointer(b)),
        Kind::Tiler => t(tiler(b, 2)),
        Kind::Type => type_arg(b),
        Kind::Atom => t(ATOMS[b.below(ATOMS.len())].to_string()),
        Kind::Field => t(FIELDS[b.below(FIELDS.len())].to_string()),
        Kind::Name => t([
            "Layout_K_SW128_Atom",
            "Layout_MN_SW64_Atom",
            "Layout_K_INTER_Atom",
            "K",
            "MN",
            "f",
            "cute_gen",
            "Layout_X_Atom",
        ][b.below(8)]
        .to_string()),
        Kind::Op => t(OP_NAMES[b.below(OP_NAMES.len())].to_string()),
        Kind::Binding => t(binding(b)),
        Kind::Underscore => t("_".to_string()),
        Kind::Values => {
            let n = 1 + b.below(8);
            let v: Vec<String> = (0..n)
                .map(|_| (b.below(24) as i64 - 2).to_string())
                .collect();
            t(v.join(","))
        }
        Kind::Tag(w) => t(w.to_string()),
        Kind::Option => {
            let mut v = picture_option(b);
            v.truncate(1);
            v.pop().unwrap_or_else(|| t("--tile".into()))
        }
        Kind::Text => match b.below(3) {
            0 => t(layout(b)),
            1 => t(tuple(b)),
            _ => Arg::Int(small(b)),
        },
        Kind::Bool => Arg::Int(b.below(2) as i64),
    }
}

/// Arguments for one signature of an operation, `n` of them (the fuzzer picks `n` around the
/// signature's bounds): each from a kind its parameter's declaration lists, a repeating last
/// parameter for the rest, a layout past the end; rarely anything at all.
pub fn signature_args(b: &mut Bytes, sig: &[Param], n: usize) -> Vec<Arg> {
    (0..n)
        .map(|k| {
            if b.below(24) == 0 {
                return arg(b, "ANY");
            }
            let kinds = sig.get(k).or(sig.last()).map_or(&[][..], |p| p.kinds);
            if kinds.is_empty() {
                return kind_arg(b, Kind::Layout);
            }
            let kind = kinds[b.below(kinds.len())];
            kind_arg(b, kind)
        })
        .collect()
}

/// One text form for `parse_roundtrip`: a value of one of the stride kinds, pointers, tensors
/// and composed layouts as the generators above write them, or the words of a pointer
/// constructor (`TYPE ADDR`) or of `subs` (`L NAME=VALUE...`), which `cute-ops` alone reads.
pub fn text_form(b: &mut Bytes) -> String {
    match b.below(16) {
        0 | 1 => f2_layout(b),
        2 | 3 => symbolic_layout(b),
        4 => {
            let stride = b.below(2) == 0;
            sym(b, stride)
        }
        5 | 6 => basis_sum_layout(b),
        7 => format!("{}@{}", small(b), b.below(4)),
        8 => pointer(b),
        9 | 10 => pointer_tensor(b),
        11 => zip_tensor(b),
        12 => tensor(b),
        13 => composed(b),
        14 => {
            let ty = type_arg(b);
            format!("{ty} {}", address(b))
        }
        _ => {
            let l = if b.below(4) == 0 {
                tuple(b)
            } else {
                symbolic_layout(b)
            };
            let n = 1 + b.below(3);
            let bindings: Vec<String> = (0..n).map(|_| binding(b)).collect();
            format!("{l} {}", bindings.join(" "))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Arguments for the atoms, tensors, pointers, pictures and GPU operations, whose laws
// (`check_apps.rs`) need arguments that fit each other: a thread layout and a value layout that
// tile, a tiler that divides the tensor, a thread index in range, values of a layout.

/// MMA atoms that take no template arguments (their `MxNxK` is in the name).
pub const MMA_ATOMS: &[&str] = &[
    "SM80_16x8x16_F32F16F16F32_TN",
    "SM80_16x8x8_F16F16F16F16_TN",
    "SM80_16x8x16_F16F16F16F16_TN",
    "SM70_8x8x4_F32F16F16F32_NT",
    "SM80_8x8x4_F64F64F64F64_TN",
    "SM75_16x8x8_F32F16F16F32_TN",
    "SM80_16x8x32_S32S8S8S32_TN",
];

/// Copy atoms with their value types, for 16-bit elements.
pub const COPY_ATOMS: &[&str] = &[
    "SM75_U32x4_LDSM_N",
    "SM75_U32x2_LDSM_N",
    "SM75_U32x1_LDSM_N",
    "SM75_U16x8_LDSM_T",
    "UniversalCopy<uint32_t>",
    "UniversalCopy<uint128_t>",
    "UniversalCopy<uint64_t>",
    "UniversalCopy<uint16_t>",
    "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>",
    "SM90_U32x4_STSM_N",
];

/// A compact 2-D layout `(m,n)` of power-of-two extents (each at most `2^max_log`), row- or
/// column-major, and its extents.
pub fn compact2(b: &mut Bytes, max_log: usize) -> (String, i64, i64) {
    let (m, n) = (1i64 << b.below(max_log + 1), 1i64 << b.below(max_log + 1));
    let l = if b.below(2) == 0 {
        format!("({m},{n}):(1,{m})")
    } else {
        format!("({m},{n}):({n},1)")
    };
    (l, m, n)
}

/// A bijection `(T,V) -> [0, n)` for a power of two `n`: `T` threads (a power of two at most
/// `max_t`), each mode split in up to two leaves, the compact strides in a random leaf order.
pub fn tv_layout(b: &mut Bytes, n: i64, max_t: i64) -> (String, i64) {
    let log = n.max(1).trailing_zeros() as usize;
    let mut tl = b.below(log + 1);
    while (1i64 << tl) > max_t.max(1) {
        tl -= 1;
    }
    let vl = log - tl;
    let split = |b: &mut Bytes, k: usize| -> Vec<i64> {
        if k >= 2 && b.below(2) == 0 {
            let a = 1 + b.below(k - 1);
            vec![1 << a, 1 << (k - a)]
        } else {
            vec![1 << k]
        }
    };
    let (ts, vs) = (split(b, tl), split(b, vl));
    let extents: Vec<i64> = ts.iter().chain(vs.iter()).copied().collect();
    let mut order: Vec<usize> = (0..extents.len()).collect();
    for k in (1..order.len()).rev() {
        order.swap(k, b.below(k + 1));
    }
    let mut strides = vec![0i64; extents.len()];
    let mut acc = 1i64;
    for &k in &order {
        strides[k] = acc;
        acc *= extents[k];
    }
    let mode = |e: &[i64], d: &[i64]| -> (String, String) {
        let j = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
        if e.len() == 1 {
            (j(e), j(d))
        } else {
            (format!("({})", j(e)), format!("({})", j(d)))
        }
    };
    let (te, td) = mode(&extents[..ts.len()], &strides[..ts.len()]);
    let (ve, vd) = mode(&extents[ts.len()..], &strides[ts.len()..]);
    (format!("({te},{ve}):({td},{vd})"), 1 << tl)
}

/// A small 2-D layout of power-of-two extents (at most 8) and strides 0..=8 or compact, and its
/// extents.
fn small2(b: &mut Bytes) -> (String, i64, i64) {
    if b.below(2) == 0 {
        return compact2(b, 3);
    }
    let (m, n) = (1i64 << b.below(4), 1i64 << b.below(4));
    let (x, y) = (b.below(9), b.below(9));
    (format!("({m},{n}):({x},{y})"), m, n)
}

/// A tensor over a small 2-D layout: a counting tensor (sometimes swizzled), a pointer tensor
/// (global, shared, swizzled shared) or a coordinate tensor; and its extents.
pub fn small_tensor(b: &mut Bytes) -> (String, i64, i64) {
    let (l, m, n) = small2(b);
    let t = match b.below(8) {
        0..=2 => format!("counting_iter({}) o {l}", b.below(16)),
        3 => format!(
            "counting_iter({}) o {} o 0 o {l}",
            b.below(4),
            valid_swizzle(b)
        ),
        4 => format!(
            "gmem_ptr[{}b]({:#x}) o {l}",
            [8, 16, 32, 64][b.below(4)],
            0x1000
        ),
        5 => format!("smem_ptr[16b]({:#x}) o {l}", 0x400 * (1 + b.below(4))),
        6 => format!("Sw<{},4,3>_smem_ptr[16b](0x1000) o {l}", b.below(4)),
        _ => format!(
            "ArithTuple({},{}) o ({m},{n}):(1@0,1@1)",
            b.below(4),
            b.below(4)
        ),
    };
    (t, m, n)
}

/// A divisor of the power of two `m`, and a tile coordinate below `m / divisor`.
fn tile_of(b: &mut Bytes, m: i64) -> (i64, i64) {
    let t = 1i64 << b.below(m.trailing_zeros() as usize + 1);
    (t, b.below((m / t) as usize) as i64)
}

/// Values of a small layout (extents 1..=4, strides -1..=6, rank 1 to 3) and its shape.
fn layout_values(b: &mut Bytes) -> (String, String) {
    let rank = 1 + b.below(3);
    let s: Vec<i64> = (0..rank).map(|_| 1 + b.below(4) as i64).collect();
    let d: Vec<i64> = (0..rank).map(|_| b.below(8) as i64 - 1).collect();
    let size: i64 = s.iter().product();
    let vals: Vec<String> = (0..size)
        .map(|i| {
            let (mut r, mut acc) = (i, 0);
            for k in 0..rank {
                acc += (r % s[k]) * d[k];
                r /= s[k];
            }
            acc.to_string()
        })
        .collect();
    let shape = s.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    (vals.join(","), format!("({shape})"))
}

/// A layout whose leaves have power-of-two extents and disjoint power-of-two strides (a
/// permutation of bits), sometimes under a swizzle: the layouts `f2_matrix` takes.
fn bit_layout(b: &mut Bytes) -> String {
    let n = 1 << b.below(7);
    let (l, _) = tv_layout(b, n, 64);
    match b.below(3) {
        0 => format!("{} o 0 o {l}", valid_swizzle(b)),
        _ => l,
    }
}

/// Whole argument lists for the atoms, tensors, pointers, pictures and GPU operations (see
/// above), or `None` for the generic ones.
pub fn app_args(b: &mut Bytes, op: &str) -> Option<Vec<Arg>> {
    let t = |s: String| Arg::Text(s);
    let pick = |b: &mut Bytes, v: &[&str]| v[b.below(v.len())].to_string();
    let half = |b: &mut Bytes| pick(b, &["half_t", "half_t", "float", "int8_t", "bfloat16_t"]);
    Some(match op {
        "mma_atom" => vec![
            t(pick(b, MMA_ATOMS)),
            t(pick(
                b,
                &[
                    "thr_id",
                    "shape_mnk",
                    "layout_a_tv",
                    "layout_b_tv",
                    "layout_c_tv",
                ],
            )),
        ],
        "tiled_mma" => {
            let atom = pick(b, MMA_ATOMS);
            let (am, an) = (1i64 << b.below(3), 1i64 << b.below(3));
            let mut v = vec![t(atom.clone()), t(format!("({am},{an},1)")), t("_".into())];
            let op = ["a", "b", "c"][b.below(3)];
            if b.below(3) == 0 {
                let mnk = name_mnk(&atom).unwrap_or([1, 1, 1]);
                let (m, n, k) = (mnk[0] * am, mnk[1] * an, mnk[2]);
                let (r, c) = match op {
                    "a" => (m, k),
                    "b" => (n, k),
                    _ => (m, n),
                };
                let g = if b.below(2) == 0 {
                    format!("({r},{c}):({c},1)")
                } else {
                    format!("({r},{c}):(1,{r})")
                };
                let field = pick(b, &["partition", "offset"]);
                v.push(t(format!("{field}_{op}")));
                v.push(t(g));
                v.push(Arg::Int(b.below((32 * am * an) as usize) as i64));
            } else {
                v.push(t(pick(
                    b,
                    &[
                        "thr_layout_vmnk",
                        "tile_size_mnk",
                        "size",
                        "layout_a_tv",
                        "layout_b_tv",
                        "layout_c_tv",
                    ],
                )));
            }
            v
        }
        "copy_atom" => vec![
            t(pick(b, COPY_ATOMS)),
            t(half(b)),
            t(pick(
                b,
                &[
                    "src",
                    "dst",
                    "ref",
                    "src_bits",
                    "dst_bits",
                    "ref_bits",
                    "thr_id",
                    "num_val_src",
                    "num_val_dst",
                ],
            )),
        ],
        "make_tiled_copy" => {
            let (thr, _, _) = compact2(b, 3);
            let val = if b.below(4) == 0 {
                "_".to_string()
            } else {
                compact2(b, 3).0
            };
            vec![
                t(pick(b, COPY_ATOMS)),
                t(half(b)),
                t(thr),
                t(val),
                t(pick(
                    b,
                    &[
                        "tiler_mn",
                        "tiled_layout_tv",
                        "layout_s_tv",
                        "layout_d_tv",
                        "size",
                    ],
                )),
            ]
        }
        "make_tiled_copy_A"
        | "make_tiled_copy_B"
        | "make_tiled_copy_C"
        | "make_tiled_copy_C_atom" => vec![
            t(pick(b, COPY_ATOMS)),
            t("half_t".into()),
            t(pick(b, MMA_ATOMS)),
            t(format!("({},{},1)", 1 << b.below(3), 1 << b.below(3))),
            t("_".into()),
            t(pick(b, &["tiler_mn", "tiled_layout_tv", "size"])),
        ],
        "make_cotiled_copy" => {
            let (data, m, n) = compact2(b, 4);
            let (tv, _) = tv_layout(b, m * n, 128);
            vec![
                t(pick(
                    b,
                    &[
                        "UniversalCopy<uint32_t>",
                        "UniversalCopy<uint64_t>",
                        "UniversalCopy<uint128_t>",
                    ],
                )),
                t(pick(b, &["half_t", "float", "int8_t"])),
                t(tv),
                t(data),
                t(pick(b, &["tiler_mn", "tiled_layout_tv"])),
            ]
        }
        "make_layout_tv" => {
            let thr = compact2(b, 3).0;
            let val = if b.below(3) == 0 {
                format!("{}:1", 1 << b.below(3))
            } else {
                compact2(b, 2).0
            };
            vec![
                t(thr),
                t(val),
                t(pick(b, &["layout_mn", "layout_tv", "tiler_mn"])),
            ]
        }
        "smem_search" | "smem_evaluate" => {
            let (m, n) = (1i64 << (1 + b.below(4)), 1i64 << (1 + b.below(4)));
            let (w, _) = tv_layout(b, m * n, 128);
            let (r, _) = tv_layout(b, m * n, 128);
            let e = [1, 2, 4, 8, 16][b.below(5)];
            let mut v = vec![t(format!("({m},{n})")), t(w), t(r), Arg::Int(e)];
            if op == "smem_evaluate" {
                v.push(t(match b.below(4) {
                    0 => format!("({m},{n}):(1,{m})"),
                    1 => format!("({m},{n}):({},1)", n + b.below(5) as i64),
                    2 => format!("{} o 0 o ({m},{n}):({n},1)", valid_swizzle(b)),
                    _ => format!("({m},{n}):({n},1)"),
                }));
            }
            if b.below(4) == 0 {
                v.push(Arg::Int([32, 16, 8][b.below(3)]));
            }
            v
        }
        "bank_conflicts" => {
            let n = 1 << b.below(9);
            let (l, _) = tv_layout(b, n, 64);
            let l = match b.below(4) {
                0 => format!("{} o 0 o {l}", valid_swizzle(b)),
                1 => layout(b),
                _ => l,
            };
            let mut v = vec![t(l), Arg::Int([1, 2, 4, 8, 16][b.below(5)])];
            if b.below(2) == 0 {
                v.push(Arg::Int([32, 16, 8, 4][b.below(4)]));
                if b.below(2) == 0 {
                    v.push(Arg::Int([32, 16, 8][b.below(3)]));
                    if b.below(2) == 0 {
                        v.push(Arg::Int([4, 8][b.below(2)]));
                    }
                }
            }
            v
        }
        "f2_matrix" if b.below(2) == 0 => vec![t(bit_layout(b))],
        "codegen" | "codegen_check" => {
            let l = match b.below(4) {
                0 => composed(b),
                1 => signed_layout(b),
                _ => layout(b),
            };
            let mut v = vec![t(l)];
            if b.below(4) == 0 {
                v.push(t(pick(b, &["g", "cute_gen", "f"])));
            }
            v
        }
        "find_layout" => {
            let (vals, shape) = layout_values(b);
            let mut v = vec![t(vals)];
            if b.below(3) == 0 {
                v.push(t(shape));
            }
            v
        }
        "explain" => {
            let op = pick(
                b,
                &[
                    "coalesce",
                    "composition",
                    "right_inverse",
                    "left_inverse",
                    "complement",
                    "logical_divide",
                    "zipped_divide",
                    "logical_product",
                ],
            );
            let mut v = vec![t(op.clone())];
            v.push(t(compact_layout(b)));
            if matches!(
                op.as_str(),
                "composition" | "logical_divide" | "zipped_divide" | "logical_product"
            ) {
                v.push(t(compact_layout(b)));
            }
            v
        }
        "print_layout" | "show" | "svg" | "latex" if b.below(2) == 0 => {
            vec![t(match b.below(3) {
                0 => composed(b),
                _ => layout(b),
            })]
        }
        "make_swizzle" => {
            let (bits, base, s) = (b.below(4) as i64, b.below(5) as i64, b.below(5) as i64);
            let mask = (1i64 << bits) - 1;
            vec![Arg::Int(mask << (base + s)), Arg::Int(mask << base)]
        }
        "swizzle" => vec![
            Arg::Int(b.below(5) as i64),
            Arg::Int(b.below(5) as i64),
            Arg::Int(b.below(9) as i64 - 4),
        ],
        "basis_get" => {
            let tup = tuple(b);
            let path: Vec<String> = (0..1 + b.below(2))
                .map(|_| b.below(3).to_string())
                .collect();
            vec![t(format!("{}@{}", 1 + b.below(3), path.join("@"))), t(tup)]
        }
        "make_tensor" => {
            let (l, _, _) = small2(b);
            match b.below(3) {
                0 => vec![t("gmem_ptr[16b](0x1000)".to_string()), t(l)],
                1 => vec![t(l), Arg::Int(b.below(16) as i64)],
                _ => vec![t(l)],
            }
        }
        "tensor_value" => {
            let (x, m, n) = small_tensor(b);
            let c = if b.below(2) == 0 {
                (b.below((m * n) as usize)).to_string()
            } else {
                format!("({},{})", b.below(m as usize), b.below(n as usize))
            };
            vec![t(x), t(c)]
        }
        "local_tile" | "inner_partition" | "outer_partition" => {
            let (x, m, n) = small_tensor(b);
            let ((tm, cm), (tn, cn)) = (tile_of(b, m), tile_of(b, n));
            let mut v = vec![t(x), t(format!("({tm},{tn})"))];
            if op == "outer_partition" {
                let (i, j) = (b.below(tm as usize), b.below(tn as usize));
                v.push(if b.below(3) == 0 {
                    Arg::Int((i as i64) + tm * j as i64)
                } else {
                    t(format!("({i},{j})"))
                });
            } else {
                v.push(t(format!("({cm},{cn})")));
                if op == "local_tile" && b.below(3) == 0 {
                    v.push(t(pick(
                        b,
                        &["Step<_1,X>", "Step<X,_1>", "(1,X)", "Step<_1,_1>"],
                    )));
                }
            }
            v
        }
        "local_partition" => {
            let (x, m, n) = small_tensor(b);
            let (tm, tn) = (tile_of(b, m).0, tile_of(b, n).0);
            let thr = if b.below(2) == 0 {
                format!("({tm},{tn}):(1,{tm})")
            } else {
                format!("({tm},{tn}):({tn},1)")
            };
            vec![t(x), t(thr), Arg::Int(b.below((tm * tn) as usize) as i64)]
        }
        "partition_tv" => {
            let (x, m, n) = small_tensor(b);
            let (tv, threads) = tv_layout(b, m * n, 64);
            vec![t(x), t(tv), Arg::Int(b.below(threads as usize) as i64)]
        }
        "print_tensor" | "make_tensor_like" => {
            let (x, m, _) = small_tensor(b);
            if b.below(4) == 0 {
                vec![t(format!("counting_iter(3) o {m}:{}", b.below(4)))]
            } else {
                vec![t(x)]
            }
        }
        "batch_reduce" | "logical_reduce" => {
            let (l, _, _) = small2(b);
            let x = format!("counting_iter({}) o {l}", b.below(8));
            if op == "batch_reduce" {
                vec![t(x)]
            } else {
                vec![t(x), t(pick(b, &["(_,1)", "(1,_)", "(_,_)", "(1,1)"]))]
            }
        }
        "recast_tensor" => {
            let (l, _, _) = compact2(b, 3);
            let bits = [8, 16, 32, 64][b.below(4)];
            vec![
                t(pick(b, &["half_t", "float", "int8_t", "double"])),
                t(format!("gmem_ptr[{bits}b](0x1000) o {l}")),
            ]
        }
        "make_zip_tensor" => {
            let (l, _, _) = small2(b);
            let k = 2 + b.below(2);
            (0..k)
                .map(|j| {
                    t(if j % 2 == 0 {
                        format!("counting_iter({}) o {l}", b.below(64))
                    } else {
                        format!("gmem_ptr[32b](0x{:x}) o {l}", 0x1000 * (1 + b.below(4)))
                    })
                })
                .collect()
        }
        "unzip_tensor" => {
            let (l, m, n) = small2(b);
            let parts = [
                format!("counting_iter({}) o {l}", b.below(64)),
                format!("gmem_ptr[16b](0x{:x}) o {l}", 0x1000 * (1 + b.below(4))),
                format!("ArithTuple(0,0) o ({m},{n}):(1@0,1@1)"),
            ];
            let k = 2 + b.below(2);
            let mut v = vec![t(format!("zip({})", parts[..k].join(", ")))];
            if b.below(2) == 0 {
                v.push(Arg::Int(b.below(k) as i64));
            }
            v
        }
        // Chains, symbolic and F2 layouts for the algebra's laws on them.
        "composition" | "logical_divide" if b.below(3) == 0 => {
            let a = if b.below(2) == 0 {
                chain(b)
            } else {
                layout_chain(b)
            };
            vec![t(a), t(compact_layout(b))]
        }
        "composition" if b.below(3) == 0 => {
            let a = symbolic_layout(b);
            let c = if b.below(2) == 0 {
                symbolic_layout(b)
            } else {
                compact_layout(b)
            };
            vec![t(a), t(c)]
        }
        "coalesce" if b.below(3) == 0 => vec![t(if b.below(2) == 0 {
            chain(b)
        } else {
            f2_layout(b)
        })],
        "left_inverse" if b.below(3) == 0 => vec![t(if b.below(2) == 0 {
            f2_bijection(b)
        } else {
            f2_layout(b)
        })],
        "as_position_independent_swizzle_tensor" => {
            let (l, _, _) = small2(b);
            vec![t(format!(
                "{}_smem_ptr[{}b](0x{:x}) o {l}",
                valid_swizzle(b),
                [8, 16, 32][b.below(3)],
                0x400 * (1 + b.below(4))
            ))]
        }
        _ => return None,
    })
}

/// An F2 layout that is a bijection onto `[0, size)`: power-of-two extents, F2 strides the
/// compact ones in a random leaf order.
fn f2_bijection(b: &mut Bytes) -> String {
    let rank = 1 + b.below(3);
    let ext: Vec<i64> = (0..rank).map(|_| [2, 4, 8][b.below(3)]).collect();
    let mut order: Vec<usize> = (0..rank).collect();
    for k in (1..rank).rev() {
        order.swap(k, b.below(k + 1));
    }
    let mut st = vec![0i64; rank];
    let mut acc = 1;
    for &k in &order {
        st[k] = acc;
        acc *= ext[k];
    }
    let e: Vec<String> = ext.iter().map(i64::to_string).collect();
    let d: Vec<String> = st.iter().map(|x| format!("F2({x})")).collect();
    format!("({}):({})", e.join(","), d.join(","))
}

/// `(M, N, K)` from an MMA atom's name (`SM80_16x8x16_...`).
pub fn name_mnk(name: &str) -> Option<[i64; 3]> {
    let part = name.split('_').nth(1)?;
    let v: Vec<i64> = part.split('x').filter_map(|x| x.parse().ok()).collect();
    (v.len() == 3).then(|| [v[0], v[1], v[2]])
}
