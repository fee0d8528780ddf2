//! What the atom tables share: the atom error, the families and their names (normalised
//! spelling, template arguments, nearest known name), and value-type widths.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use crate::layout::error::{LayoutError, ParseError};

/// Why an atom could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AtomError {
    /// No atom of that name (after [`normalize_name`]); `nearest` is the closest known name
    /// (none for a name over twice as long as every known one).
    UnknownAtom {
        /// The name asked for, normalised.
        name: String,
        /// The closest known name, if any is close.
        nearest: Option<String>,
    },
    /// The name is of a known family but a template argument is not one CuTe accepts.
    BadArgument {
        /// The name asked for, normalised.
        name: String,
        /// What is wrong.
        what: String,
    },
    /// The atom exists but the requested field is not a layout CuTe's algebra can use (e.g. a
    /// layout CuTe declares with a stride incongruent with its shape).
    Unsupported {
        /// The atom.
        name: String,
        /// What is not supported.
        what: String,
    },
    /// A layout argument did not parse.
    Parse(ParseError),
    /// The layout algebra failed on the arguments.
    Layout(LayoutError),
}

impl AtomError {
    /// The variant's name (the `kind` of `cute batch`'s errors); for [`AtomError::Layout`], the
    /// layout error's kind.
    pub fn kind(&self) -> &'static str {
        match self {
            AtomError::UnknownAtom { .. } => "UnknownAtom",
            AtomError::BadArgument { .. } => "BadArgument",
            AtomError::Unsupported { .. } => "Unsupported",
            AtomError::Parse(_) => "ParseError",
            AtomError::Layout(e) => e.kind(),
        }
    }
}

/// How many characters of an unknown atom's name its message shows (more than the longest
/// known name).
const NAME_SHOWN: usize = 160;

impl fmt::Display for AtomError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AtomError::UnknownAtom { name, nearest } => {
                // A name longer than any atom's is cut (it may be megabytes long).
                match name.char_indices().nth(NAME_SHOWN) {
                    Some((cut, _)) => write!(
                        f,
                        "atom: unknown atom {}... ({} bytes)",
                        &name[..cut],
                        name.len()
                    )?,
                    None => write!(f, "atom: unknown atom {name}")?,
                }
                if let Some(n) = nearest {
                    write!(f, " (nearest known: {n})")?;
                }
                Ok(())
            }
            AtomError::BadArgument { name, what } => write!(f, "atom: {name}: {what}"),
            AtomError::Unsupported { name, what } => write!(f, "atom: {name}: {what}"),
            AtomError::Parse(e) => write!(f, "atom: {e}"),
            AtomError::Layout(e) => write!(f, "{e}"),
        }
    }
}

impl From<LayoutError> for AtomError {
    fn from(e: LayoutError) -> Self {
        AtomError::Layout(e)
    }
}

impl From<ParseError> for AtomError {
    fn from(e: ParseError) -> Self {
        AtomError::Parse(e)
    }
}

/// Which kind of instruction an atom family is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomKind {
    /// A matrix multiply-accumulate ([`MmaAtom`](super::MmaAtom)).
    Mma,
    /// A copy.
    Copy,
}

impl AtomKind {
    /// `mma` or `copy`.
    pub fn name(self) -> &'static str {
        match self {
            AtomKind::Mma => "mma",
            AtomKind::Copy => "copy",
        }
    }
}

/// One family of atoms as [`families`](super::families) lists it.
#[derive(Clone, Copy, Debug)]
pub struct AtomFamily {
    /// MMA or copy.
    pub kind: AtomKind,
    /// The architecture (`SM80`, `SM90`, ..., `Universal`).
    pub arch: &'static str,
    /// The names, as a pattern: `{a|b}` alternatives, `N` etc. for the parameters.
    pub pattern: &'static str,
    /// What the family is.
    pub about: &'static str,
}

/// The canonical spelling of an atom name: whitespace next to punctuation removed, other runs
/// of whitespace (between two identifier characters, `unsigned int`) collapsed to one space.
/// CuTe's type names are compared in this form.
pub fn normalize_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut pending_space = false;
    for c in name.trim().chars() {
        if c.is_whitespace() {
            pending_space = true;
            continue;
        }
        if pending_space {
            let prev_ident = out
                .chars()
                .last()
                .is_some_and(|p| p.is_alphanumeric() || p == '_');
            if prev_ident && (c.is_alphanumeric() || c == '_') {
                out.push(' ');
            }
            pending_space = false;
        }
        out.push(c);
    }
    out
}

/// The deepest nesting of brackets an atom or type name may have, the outermost pair counted.
pub const MAX_TEMPLATE_DEPTH: i32 = 16;

/// A normalised name split at its outermost template brackets: `Base<a,b,...>` gives `Base` and
/// the top-level arguments (`MMA_Traits<X, ...>` is unwrapped to `X` and the rest). A name
/// without brackets has no arguments; `Base<>` has none either but `empty_brackets` is set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateName {
    /// The type before `<`.
    pub base: String,
    /// The template arguments, normalised.
    pub args: Vec<String>,
    /// Whether the name was written with brackets (`Base<>` or `Base<...>`).
    pub brackets: bool,
}

impl TemplateName {
    /// Splits a name; `None` if the brackets do not balance, text follows the closing one, or
    /// they nest deeper than [`MAX_TEMPLATE_DEPTH`] (no CuTe name does; the bound keeps the
    /// unwrapping of `MMA_Traits<MMA_Traits<...>>` and `Copy_Traits<...>` shallow).
    pub fn parse(name: &str) -> Option<TemplateName> {
        let n = normalize_name(name);
        let Some(open) = n.find('<') else {
            if n.contains('>') || n.is_empty() {
                return None;
            }
            return Some(TemplateName {
                base: n.strip_prefix("cute::").map(String::from).unwrap_or(n),
                args: Vec::new(),
                brackets: false,
            });
        };
        if !n.ends_with('>') {
            return None;
        }
        let base = n[..open].to_string();
        let inner = &n[open + 1..n.len() - 1];
        let mut args = Vec::new();
        let mut depth = 0i32;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '<' | '(' => {
                    depth += 1;
                    if depth >= MAX_TEMPLATE_DEPTH {
                        return None;
                    }
                }
                '>' | ')' => {
                    depth -= 1;
                    if depth < 0 {
                        return None;
                    }
                }
                ',' if depth == 0 => {
                    args.push(inner[start..i].to_string());
                    start = i + 1;
                }
                _ => {}
            }
        }
        if depth != 0 {
            return None;
        }
        if !inner.is_empty() {
            args.push(inner[start..].to_string());
        }
        if args.iter().any(|a| a.is_empty()) {
            return None;
        }
        let base = base
            .strip_prefix("cute::")
            .map(String::from)
            .unwrap_or(base);
        if base == "MMA_Traits" && !args.is_empty() {
            // `MMA_Traits<Op>` is `Op`; `MMA_Traits<Op, args...>` (CuTe's variadic traits) is
            // `Op` with those arguments.
            let first = args.remove(0);
            let mut t = TemplateName::parse(&first)?;
            t.brackets |= !args.is_empty();
            t.args.extend(args);
            return Some(t);
        }
        Some(TemplateName {
            base,
            args,
            brackets: true,
        })
    }
}

/// `sizeof_bits` of a CuTe / CUTLASS value type by name (`half_t`, `cutlass::bfloat16_t`,
/// `float_e4m3_t`, `uint128_t`, `complex<double>`, ...); `None` for a name CuTe does not have.
///
/// ```
/// use cute_layout::atom::type_bits;
/// assert_eq!(type_bits("cutlass::half_t"), Some(16));
/// assert_eq!(type_bits("float_e2m1_t"), Some(4));
/// assert_eq!(type_bits("halff"), None);
/// ```
pub fn type_bits(name: &str) -> Option<u32> {
    let n = normalize_name(name);
    let mut n = n.as_str();
    for p in ["cute::", "cutlass::", "std::"] {
        n = n.strip_prefix(p).unwrap_or(n);
    }
    Some(match n {
        "bool" | "int8_t" | "uint8_t" | "char" | "signed char" | "unsigned char" => 8,
        "uint1b_t" | "uint1_t" | "bin1_t" => 1,
        "int2b_t" | "uint2b_t" | "uint2_t" => 2,
        "int4b_t" | "uint4b_t" | "uint4_t" | "int4_t" | "float_e2m1_t" => 4,
        "int6b_t" | "uint6b_t" | "uint6_t" | "float_e2m3_t" | "float_e3m2_t" => 6,
        "float_e4m3_t" | "float_e5m2_t" | "float_ue8m0_t" | "float_ue4m3_t" => 8,
        "half_t" | "bfloat16_t" | "int16_t" | "uint16_t" | "short" | "unsigned short" => 16,
        "float" | "tfloat32_t" | "int32_t" | "uint32_t" | "int" | "unsigned" | "unsigned int" => 32,
        "double" | "int64_t" | "uint64_t" | "long long" | "unsigned long long" => 64,
        "uint128_t" => 128,
        "type_erased_dynamic_float8_t" => 8,
        "type_erased_dynamic_float6_t" => 6,
        "type_erased_dynamic_float4_t" => 4,
        "complex<half_t>" | "complex<cutlass::half_t>" => 32,
        "complex<float>" => 64,
        "complex<double>" => 128,
        _ => return None,
    })
}

/// The Levenshtein distance between two names (bytes).
#[cfg(test)]
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    distances(a, b, usize::MAX).map_or(usize::MAX, |(_, e)| e)
}

/// The smallest [`edit_distance`] between `a` and a prefix of `b` (the rest of `b` is free):
/// how far `a` is from being the start of `b`.
#[cfg(test)]
pub(crate) fn prefix_distance(a: &str, b: &str) -> usize {
    distances(a, b, usize::MAX).map_or(usize::MAX, |(p, _)| p)
}

/// `(prefix distance, edit distance)` of `a` to `b` in one pass: the edit distance is the
/// Levenshtein distance of the two names (bytes), the prefix distance the smallest edit distance
/// between `a` and a prefix of `b` (how far `a` is from being the start of `b`); `None` as soon
/// as the prefix distance must exceed `cutoff` (every later row of the table is at least its
/// row's smallest entry), for "nearest known name" messages.
fn distances(a: &str, b: &str, cutoff: usize) -> Option<(usize, usize)> {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = alloc::vec![0; b.len() + 1];
    for (i, &ca) in a.iter().enumerate() {
        let mut left = i + 1;
        cur[0] = left;
        let mut low = left;
        for ((&cb, w), (&diag, &up)) in b
            .iter()
            .zip(cur[1..].iter_mut())
            .zip(prev.iter().zip(&prev[1..]))
        {
            left = (diag + usize::from(ca != cb)).min(up + 1).min(left + 1);
            *w = left;
            low = low.min(left);
        }
        if low > cutoff {
            return None;
        }
        core::mem::swap(&mut prev, &mut cur);
    }
    Some((prev.iter().copied().min().unwrap_or(a.len()), prev[b.len()]))
}

/// The candidate closest to `name`: first by how far `name` is from the start of the candidate
/// (the edit distance to its nearest prefix, so that a name typed in part, `SM80_16x8x16_F16`,
/// finds the names it begins), then by the edit distance (ties: the first); none for a name
/// more than twice as long as the longest candidate (it is not a misspelling of any).
///
/// The cost is bounded whatever `name`'s length: past that length nothing is measured; a
/// candidate shorter than `name` by more than the best prefix distance so far (a lower bound of
/// its own) is skipped, and a comparison stops once its prefix distance must exceed the best.
pub(crate) fn nearest<'a>(
    name: &str,
    candidates: impl Iterator<Item = &'a str> + Clone,
) -> Option<String> {
    let longest = candidates.clone().map(str::len).max()?;
    if name.len() > 2 * longest {
        return None;
    }
    let mut best: Option<((usize, usize), &str)> = None;
    for c in candidates {
        let cutoff = best.map_or(usize::MAX, |((p, _), _)| p);
        if name.len().saturating_sub(c.len()) > cutoff {
            continue;
        }
        let Some(key) = distances(name, c, cutoff) else {
            continue;
        };
        if best.is_none_or(|(b, _)| key < b) {
            best = Some((key, c));
        }
    }
    best.map(|(_, c)| c.to_string())
}
