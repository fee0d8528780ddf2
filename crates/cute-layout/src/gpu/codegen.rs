//! Code generation: a layout as the C++ index arithmetic a person would write for it.
//!
//! [`emit_cpp`] turns a layout, a composed (swizzled) layout or a thread-value layout into a
//! self-contained C++ header: a 1-D function `int64_t NAME(int64_t i)` and, for a layout of two or
//! more top-level modes, a coordinate form `int64_t NAME(int64_t c0, int64_t c1, ...)` (one
//! argument per top-level mode, each a 1-D index into its mode), both
//! `__host__ __device__ constexpr` under nvcc and `constexpr inline` otherwise, plus the constants
//! `NAME_size`, `NAME_cosize`, `NAME_vector` ([`vector_width`] along mode 1) and, for two or more
//! modes, `NAME_size0`, `NAME_size1`, ... (the size of each top-level mode).
//!
//! The body is what one would write by hand: the layout is coalesced first (the 1-D form as a
//! whole, the coordinate form mode by mode), extent-1 leaves vanish, stride-0 leaves only advance
//! the index, a power-of-two extent is a mask and a shift (`i & 7`, `i >>= 3`), any other extent
//! one `%` and one `/` by a constant, the last leaf takes no modulus, unit strides no multiply,
//! and every swizzle layer is an addition of its offset then one XOR with a shifted mask,
//! innermost layer first (CuTe's `Sw(offset + L(c))`).
//!
//! Domain and overflow: the functions are defined for `0 <= i < NAME_size` (and each `c_k` in
//! `[0, size(mode k))`); there every intermediate value lies between the layout's smallest and
//! largest offset, which the library checked to fit in `i64`, so the emitted `int64_t` arithmetic
//! cannot overflow. Outside the domain the last leaf runs on as in [`Layout::index_any`]; the
//! functions do not check their arguments (they are meant for inner loops); [`emit_check`]'s test
//! program compares every point of the domain with the library.
//!
//! ```
//! use cute_layout::{gpu::codegen, ComposedLayout};
//! let l: ComposedLayout = "Sw<3,4,3> o 0 o (8,64):(64,1)".parse()?;
//! let code = codegen::emit_cpp(&l, &codegen::Options::new("smem")?)?;
//! assert!(code.contains("int64_t smem(int64_t i)"));
//! assert!(code.contains("o += (i & 7) * 64;\n  i >>= 3;\n  o += i;"));
//! assert!(code.contains("o ^= (o & 0x380) >> 3;"));
//! assert!(code.contains("int64_t smem(int64_t c0, int64_t c1)"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use crate::composed::composed_layout::ComposedLayout;
use crate::composed::swizzle::Swizzle;
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;

/// The most points [`emit_check`] writes into its table of expected values.
pub const MAX_CHECK_POINTS: i64 = 1 << 20;

/// Names for [`emit_cpp`]: the function name and an optional namespace (`a::b` nests).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    name: String,
    namespace: Option<String>,
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
        && !s.starts_with("__")
}

fn bad(what: String) -> LayoutError {
    LayoutError::InvalidArgument {
        op: "codegen",
        what,
    }
}

impl Options {
    /// A function called `name` in the global namespace.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] unless `name` is a C identifier (letters, digits and
    /// `_`, not starting with a digit or `__`).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::gpu::codegen::Options;
    /// assert_eq!(Options::new("tile_offset")?.name(), "tile_offset");
    /// assert!(Options::new("2d").is_err());
    /// assert!(Options::new("f")?.namespace("gen::smem").is_ok());
    /// # Ok::<(), cute_layout::LayoutError>(())
    /// ```
    pub fn new(name: &str) -> Result<Self, LayoutError> {
        if !is_identifier(name) {
            return Err(bad(format!("{name:?} is not a C++ identifier")));
        }
        Ok(Options {
            name: String::from(name),
            namespace: None,
        })
    }

    /// The same inside namespace `ns` (`a::b` for nested namespaces).
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] unless every `::`-separated part is an identifier.
    pub fn namespace(mut self, ns: &str) -> Result<Self, LayoutError> {
        if !ns.split("::").all(is_identifier) {
            return Err(bad(format!("{ns:?} is not a C++ namespace name")));
        }
        self.namespace = Some(String::from(ns));
        Ok(self)
    }

    /// The function name.
    pub fn name(&self) -> &str {
        &self.name
    }

    fn qualified(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("{ns}::{}", self.name),
            None => self.name.clone(),
        }
    }
}

/// An `int64_t` literal (`INT64_MIN` has no literal of its own).
fn lit(v: i64) -> String {
    if v == i64::MIN {
        String::from("INT64_MIN")
    } else {
        format!("{v}")
    }
}

/// `o += term * d`, folded: no multiply for `d = ±1`, a subtraction for negative `d`.
fn add_term(out: &mut String, term: &str, d: i64) {
    let _ = match d {
        1 => writeln!(out, "  o += {term};"),
        -1 => writeln!(out, "  o -= {term};"),
        i64::MIN => writeln!(out, "  o += {term} * INT64_MIN;"),
        d if d < 0 => writeln!(out, "  o -= {term} * {};", -d),
        d => writeln!(out, "  o += {term} * {d};"),
    };
}

/// The statements adding the offset of `var` (a 1-D index into the leaves `(extent, stride)`,
/// colexicographic) to `o`; `var` is consumed.
fn emit_leaves(out: &mut String, var: &str, leaves: &[(i64, i64)]) {
    let live: Vec<(i64, i64)> = leaves.iter().copied().filter(|&(s, _)| s > 1).collect();
    // Leaves past the last non-zero stride contribute nothing.
    let Some(last) = live.iter().rposition(|&(_, d)| d != 0) else {
        let _ = writeln!(out, "  (void){var};  // every stride is 0");
        return;
    };
    for (k, &(s, d)) in live.iter().enumerate().take(last + 1) {
        let pow2 = s & (s - 1) == 0;
        let log = s.trailing_zeros();
        if k + 1 == live.len() {
            // The last leaf: no modulus (in the domain, var < s).
            add_term(out, var, d);
            break;
        }
        if d != 0 {
            let term = if pow2 {
                format!("({var} & {})", s - 1)
            } else {
                format!("({var} % {s})")
            };
            add_term(out, &term, d);
        }
        if k < last {
            let _ = if pow2 {
                writeln!(out, "  {var} >>= {log};")
            } else {
                writeln!(out, "  {var} /= {s};")
            };
        } else {
            // The last leaf with a non-zero stride, with stride-0 leaves above it.
            break;
        }
    }
}

/// The swizzle layers, innermost first: `o += offset; o ^= (o & yyy) >> s;`.
fn emit_layers(out: &mut String, c: &ComposedLayout) {
    for (sw, off) in c.layers().iter().rev() {
        if *off != 0 {
            let _ = writeln!(out, "  o += {};", lit(*off));
        }
        if sw.is_identity() {
            continue;
        }
        let (y, s) = (sw.yyy_mask(), sw.shift());
        let _ = if s >= 0 {
            writeln!(out, "  o ^= (o & {y:#x}) >> {s};  // {sw}")
        } else {
            writeln!(out, "  o ^= (o & {y:#x}) << {};  // {sw}", -s)
        };
    }
}

fn leaves_of(l: &Layout) -> Vec<(i64, i64)> {
    l.shape_leaves()
        .iter()
        .copied()
        .zip(l.stride_leaves().iter().copied())
        .collect()
}

/// Largest power of two `w` such that, for every coordinate, the values of `w` consecutive
/// points of mode `mode` starting at a multiple of `w` are `w` consecutive offsets starting at a
/// multiple of `w` (the run one `w`-element vector access covers). A sufficient condition read off
/// the layout: the mode's first coalesced leaf has stride 1 and an extent divisible by `w`, every
/// other stride (all modes) and every layer offset is a multiple of `w`, and no swizzle reads or
/// toggles a bit below `log2(w)`. For a layout of one mode, `mode` must be 0 (the 1-D function).
///
/// Returns 1 when no larger `w` qualifies or `mode` is not a mode.
///
/// # Laws
/// * For `w = vector_width(c, k)`, `c(.., g*w + j, ..) == c(.., g*w, ..) + j` and
///   `c(.., g*w, ..) % w == 0` for all `j < w` (tested against brute force).
///
/// # Examples
/// ```
/// # use cute_layout::{gpu::codegen::vector_width, ComposedLayout};
/// let tv: ComposedLayout = "(256,(4,4)):(4,(1,1024))".parse()?; // 4 floats per thread, 4 times
/// assert_eq!(vector_width(&tv, 1), 4);
/// let sw: ComposedLayout = "Sw<3,2,5> o 0 o ((8,32),4):((4,32),1)".parse()?;
/// assert_eq!(vector_width(&sw, 1), 4); // the swizzle moves groups of 4
/// let sw: ComposedLayout = "Sw<3,0,5> o 0 o ((8,32),4):((4,32),1)".parse()?;
/// assert_eq!(vector_width(&sw, 1), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn vector_width(c: &ComposedLayout, mode: usize) -> i64 {
    let l = c.layout();
    let rank = l.rank().max(1);
    if mode >= rank {
        return 1;
    }
    let modes: Vec<Layout> = if l.rank() <= 1 {
        alloc::vec![l.coalesce()]
    } else {
        l.modes().map(|m| m.coalesce()).collect()
    };
    let Some(m) = modes.get(mode) else { return 1 };
    let ml = leaves_of(m);
    let Some(&(e0, d0)) = ml.first() else {
        return 1;
    };
    if d0 != 1 || e0 < 2 {
        return 1;
    }
    let mut w = 1i64 << e0.trailing_zeros();
    let mut narrow = |v: i64| {
        while w > 1 && v % w != 0 {
            w /= 2;
        }
    };
    for (k, mm) in modes.iter().enumerate() {
        for (j, &(s, d)) in leaves_of(mm).iter().enumerate() {
            if (k, j) != (mode, 0) && s > 1 {
                narrow(d);
            }
        }
    }
    for (sw, off) in c.layers() {
        narrow(*off);
        if !sw.is_identity() {
            // Neither the bits read nor the bits toggled may lie inside a group.
            narrow(1i64 << sw.zzz_mask().trailing_zeros());
            narrow(1i64 << sw.yyy_mask().trailing_zeros());
        }
    }
    w
}

/// The C++ header for `c` (see the [module docs](self)): `NAME(i)`, the coordinate form
/// `NAME(c0, c1, ...)` when `c` has two or more top-level modes, and `NAME_size`,
/// `NAME_cosize`, `NAME_vector` (and `NAME_size0`, `NAME_size1`, ... for two or more modes).
///
/// # Laws
/// * Compiled, `NAME(i) == c.index_1d(i)` for every `0 <= i < size`, and
///   `NAME(c0, ..) == c.index((c0, ..))` for every coordinate (CI compiles a random corpus with
///   g++ and checks every point).
/// * The same input gives the same text.
///
/// # Errors
/// None for a valid layout today; the `Result` is kept for inputs the emitter may refuse later.
///
/// # Examples
/// ```
/// # use cute_layout::{gpu::codegen::{emit_cpp, Options}, ComposedLayout};
/// let tv: ComposedLayout = "((4,8),3):((24,1),-8)".parse()?;
/// let code = emit_cpp(&tv, &Options::new("part")?.namespace("gen")?)?;
/// assert!(code.contains("namespace gen {"));
/// assert!(code.contains("  o += (i & 3) * 24;\n  i >>= 2;\n  o += (i & 7);\n  i >>= 3;\n  o -= i * 8;"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn emit_cpp(c: &ComposedLayout, opts: &Options) -> Result<String, LayoutError> {
    let name = &opts.name;
    let l = c.layout();
    let mut out = String::new();
    let _ = writeln!(out, "// Generated by cute-layout codegen from: {c}");
    let _ = writeln!(
        out,
        "// Defined for 0 <= i < {name}_size (each c_k in [0, size of mode k)); no overflow there."
    );
    out.push_str(
        "#pragma once\n#include <cstdint>\n#ifndef CUTE_GEN_FN\n#if defined(__CUDACC__)\n\
         #define CUTE_GEN_FN __host__ __device__ __forceinline__ constexpr\n#else\n\
         #define CUTE_GEN_FN inline constexpr\n#endif\n#endif\n",
    );
    if let Some(ns) = &opts.namespace {
        let _ = writeln!(out, "namespace {ns} {{");
    }
    let _ = writeln!(out, "constexpr int64_t {name}_size = {};", l.size());
    let _ = writeln!(out, "constexpr int64_t {name}_cosize = {};", l.cosize());
    if l.rank() >= 2 {
        for (k, m) in l.modes().enumerate() {
            let _ = writeln!(
                out,
                "constexpr int64_t {name}_size{k} = {};  // mode {k}",
                m.size()
            );
        }
    }
    let _ = writeln!(
        out,
        "constexpr int64_t {name}_vector = {};  // consecutive offsets along mode 1",
        vector_width(c, if l.rank() >= 2 { 1 } else { 0 })
    );
    // 1-D form.
    let flat = l.coalesce();
    let _ = writeln!(out, "// 1-D: {l} coalesced to {flat}");
    let _ = writeln!(
        out,
        "CUTE_GEN_FN int64_t {name}(int64_t i) {{\n  int64_t o = 0;"
    );
    emit_leaves(&mut out, "i", &leaves_of(&flat));
    emit_layers(&mut out, c);
    out.push_str("  return o;\n}\n");
    // Coordinate form.
    if l.rank() >= 2 {
        let args: Vec<String> = (0..l.rank()).map(|k| format!("int64_t c{k}")).collect();
        let _ = writeln!(out, "// by top-level mode: c_k is a 1-D index into mode k");
        let _ = writeln!(
            out,
            "CUTE_GEN_FN int64_t {name}({}) {{\n  int64_t o = 0;",
            args.join(", ")
        );
        for (k, m) in l.modes().enumerate() {
            let mc = m.coalesce();
            let _ = writeln!(out, "  // mode {k}: {m} coalesced to {mc}");
            emit_leaves(&mut out, &format!("c{k}"), &leaves_of(&mc));
        }
        emit_layers(&mut out, c);
        out.push_str("  return o;\n}\n");
    }
    if let Some(ns) = &opts.namespace {
        let _ = writeln!(out, "}}  // namespace {ns}");
    }
    Ok(out)
}

/// A host test program for the header [`emit_cpp`] wrote to `header` (an `#include` path): it
/// compares `NAME(i)` and the coordinate form with the library's value at every point of the
/// domain, prints `ok NAME N points` and returns 0, or prints the first mismatch and returns 1.
///
/// # Errors
/// [`LayoutError::TooLarge`] for more than [`MAX_CHECK_POINTS`] points (the table of expected
/// values is part of the program).
///
/// # Examples
/// ```
/// # use cute_layout::{gpu::codegen::{emit_check, Options}, ComposedLayout};
/// let l: ComposedLayout = "(4,2):(2,1)".parse()?;
/// let test = emit_check(&l, &Options::new("f")?, "f.hpp")?;
/// assert!(test.contains("  0, 2, 4, 6, 1, 3, 5, 7\n};"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn emit_check(c: &ComposedLayout, opts: &Options, header: &str) -> Result<String, LayoutError> {
    let l = c.layout();
    let n = l.size();
    if n > MAX_CHECK_POINTS {
        return Err(LayoutError::TooLarge {
            op: "codegen check",
            what: format!("a table of {n} points"),
            limit: MAX_CHECK_POINTS,
        });
    }
    let f = opts.qualified();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Checks {f} (from {c}) at every point against the library's table.\n\
         #include <cstdio>\n#include \"{}\"\nstatic const int64_t expected[] = {{",
        header.replace('\\', "\\\\").replace('"', "\\\"")
    );
    let vals: Vec<String> = c.offsets().map(lit).collect();
    let lines: Vec<String> = vals
        .chunks(16)
        .map(|ch| format!("  {}", ch.join(", ")))
        .collect();
    let _ = writeln!(out, "{}", lines.join(",\n"));
    let _ = writeln!(out, "}};\nint main() {{\n  const int64_t n = {n};");
    out.push_str("  for (int64_t i = 0; i < n; ++i) {\n");
    let _ = writeln!(
        out,
        "    if ({f}(i) != expected[i]) {{ std::printf(\"MISMATCH {f}(%lld) = %lld, expected %lld\\n\", (long long)i, (long long){f}(i), (long long)expected[i]); return 1; }}"
    );
    if l.rank() >= 2 {
        out.push_str("    int64_t r = i;\n");
        let mut args = Vec::new();
        for (k, m) in l.modes().enumerate() {
            let _ = writeln!(
                out,
                "    const int64_t c{k} = r % {s}; r /= {s};",
                s = m.size()
            );
            args.push(format!("c{k}"));
        }
        let _ = writeln!(
            out,
            "    if ({f}({a}) != expected[i]) {{ std::printf(\"MISMATCH {f}(coordinate of %lld)\\n\", (long long)i); return 1; }}",
            a = args.join(", ")
        );
    }
    let _ = writeln!(
        out,
        "  }}\n  std::printf(\"ok {f} %lld points\\n\", (long long)n);\n  return 0;\n}}"
    );
    Ok(out)
}

/// A tuple in Python's syntax (`(4, (2, 3))`, `(4,)` for one element).
fn py_tuple(t: &IntTuple) -> String {
    match t.as_int() {
        Some(v) => format!("{v}"),
        None => {
            let parts: Vec<String> = t.elements().map(|e| py_tuple(&e)).collect();
            if parts.len() == 1 {
                format!("({},)", parts[0])
            } else {
                format!("({})", parts.join(", "))
            }
        }
    }
}

/// A tuple as CuTe C++'s static type (`cute::Shape<cute::Int<4>, cute::Int<8>>`, with `kind`
/// `Shape` or `Stride`; an integer as `cute::Int<4>`).
fn cpp_tuple(t: &IntTuple, kind: &str) -> String {
    match t.as_int() {
        Some(v) => format!("cute::Int<{v}>"),
        None => {
            let parts: Vec<String> = t.elements().map(|e| cpp_tuple(&e, kind)).collect();
            format!("cute::{kind}<{}>", parts.join(", "))
        }
    }
}

/// The layers of `c` that do something (a `Sw<0,0,0>` at offset 0 does not).
fn active_layers(c: &ComposedLayout) -> Vec<(Swizzle, i64)> {
    c.layers()
        .iter()
        .copied()
        .filter(|(s, o)| !(s.is_identity() && *o == 0))
        .collect()
}

/// A Python function `NAME()` that builds the layout or swizzled layout in NVIDIA's CuTe DSL
/// (`cutlass.cute`), to be called inside a `@cute.jit` function: `cute.make_layout(shape,
/// stride=...)`, each swizzle layer `cute.make_composed_layout(cute.make_swizzle(B, M, S),
/// OFFSET, ...)`, outermost first. Printed in the DSL, the result is the layout's text (`S<B,M,S>`
/// for our `Sw<B,M,S>`).
///
/// # Errors
/// [`LayoutError::InvalidArgument`] if `name` is not an identifier.
///
/// # Examples
/// ```
/// use cute_layout::{gpu::codegen, ComposedLayout};
/// let l: ComposedLayout = "Sw<3,4,3> o 0 o (8,64):(64,1)".parse()?;
/// let code = codegen::emit_cute_dsl(&l, "smem")?;
/// assert!(code.contains("def smem():\n"));
/// assert!(code.contains("return cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 0, cute.make_layout((8, 64), stride=(64, 1)))"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn emit_cute_dsl(c: &ComposedLayout, name: &str) -> Result<String, LayoutError> {
    let opts = Options::new(name)?;
    let l = c.layout();
    let mut expr = format!(
        "cute.make_layout({}, stride={})",
        py_tuple(&l.shape()),
        py_tuple(&l.stride())
    );
    for (s, o) in active_layers(c).iter().rev() {
        expr = format!(
            "cute.make_composed_layout(cute.make_swizzle({}, {}, {}), {o}, {expr})",
            s.bits(),
            s.base(),
            s.shift()
        );
    }
    let mut out = String::new();
    let _ = writeln!(out, "# Generated by cute-layout codegen from: {c}");
    let _ = writeln!(out, "import cutlass.cute as cute");
    let _ = writeln!(out);
    let _ = writeln!(out);
    let _ = writeln!(out, "def {}():", opts.name);
    let _ = writeln!(
        out,
        "    \"\"\"{c}; call inside a @cute.jit function.\"\"\""
    );
    let _ = writeln!(out, "    return {expr}");
    Ok(out)
}

/// The layout or swizzled layout as the CuTe C++ a kernel pastes: a static type
/// `using NAME_t = cute::Layout<cute::Shape<...>, cute::Stride<...>>;` (each swizzle layer a
/// `cute::ComposedLayout<cute::Swizzle<B,M,S>, cute::Int<OFFSET>, ...>`) and a function
/// `NAME()` returning it.
///
/// # Errors
/// [`LayoutError::InvalidArgument`] if `name` is not an identifier.
///
/// # Examples
/// ```
/// use cute_layout::{gpu::codegen, ComposedLayout};
/// let l: ComposedLayout = "(4,8):(8,1)".parse()?;
/// let code = codegen::emit_cute_cpp(&l, "f")?;
/// assert!(code.contains("using f_t = cute::Layout<cute::Shape<cute::Int<4>, cute::Int<8>>, cute::Stride<cute::Int<8>, cute::Int<1>>>;"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn emit_cute_cpp(c: &ComposedLayout, name: &str) -> Result<String, LayoutError> {
    let opts = Options::new(name)?;
    let l = c.layout();
    let mut ty = format!(
        "cute::Layout<{}, {}>",
        cpp_tuple(&l.shape(), "Shape"),
        cpp_tuple(&l.stride(), "Stride")
    );
    for (s, o) in active_layers(c).iter().rev() {
        ty = format!(
            "cute::ComposedLayout<cute::Swizzle<{},{},{}>, cute::Int<{o}>, {ty}>",
            s.bits(),
            s.base(),
            s.shift()
        );
    }
    let n = &opts.name;
    let mut out = String::new();
    let _ = writeln!(out, "// Generated by cute-layout codegen from: {c}");
    let _ = writeln!(out, "#pragma once");
    let _ = writeln!(out, "#include <cute/tensor.hpp>");
    let _ = writeln!(out, "using {n}_t = {ty};");
    let _ = writeln!(
        out,
        "CUTE_HOST_DEVICE constexpr {n}_t {n}() {{ return {{}}; }}"
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute_vector_ok(c: &ComposedLayout, mode: usize, w: i64) -> bool {
        let l = c.layout();
        let sizes: Vec<i64> = if l.rank() <= 1 {
            alloc::vec![l.size()]
        } else {
            l.modes().map(|m| m.size()).collect()
        };
        let before: i64 = sizes[..mode].iter().product();
        let sm = sizes[mode];
        (0..l.size()).all(|i| {
            let cm = (i / before) % sm;
            let base = i - (cm % w) * before;
            let (Some(v), Some(b)) = (c.index_1d(i), c.index_1d(base)) else {
                return false;
            };
            v == b + cm % w && b.rem_euclid(w) == 0
        })
    }

    #[test]
    fn vector_width_is_sound() {
        for s in [
            "(256,(4,4)):(4,(1,1024))",
            "Sw<3,2,5> o 0 o ((8,32),4):((4,32),1)",
            "Sw<2,1,3> o 0 o ((8,32),4):((4,32),1)",
            "Sw<3,2,5> o 4 o ((8,32),4):((4,32),1)",
            "(8,(2,4)):(8,(1,2))",
            "(4,(2,4)):(1,(4,8))",
            "16:1",
            "(4,8):(0,1)",
            "(4,8):(-8,1)",
            "Sw<2,1,-3> o 16 o (8,16):(16,1)",
        ] {
            let c: ComposedLayout = s.parse().unwrap();
            let mode = if c.rank() >= 2 { 1 } else { 0 };
            let w = vector_width(&c, mode);
            assert!(brute_vector_ok(&c, mode, w), "{s}: {w}");
        }
    }

    #[test]
    fn names_are_checked() {
        assert!(Options::new("1a").is_err());
        assert!(Options::new("a-b").is_err());
        assert!(Options::new("__x").is_err());
        assert!(Options::new("ok_1").unwrap().namespace("a::b").is_ok());
        assert!(Options::new("ok").unwrap().namespace("a::").is_err());
    }

    #[test]
    fn folding() {
        let c: ComposedLayout = "(3,1,(2,5)):(0,7,(1,6))".parse().unwrap();
        let code = emit_cpp(&c, &Options::new("f").unwrap()).unwrap();
        assert!(code.contains("i /= 3;\n  o += (i & 1);\n  i >>= 1;\n  o += i * 6;"));
        let z: ComposedLayout = "(4,4):(0,0)".parse().unwrap();
        let code = emit_cpp(&z, &Options::new("z").unwrap()).unwrap();
        assert!(code.contains("int64_t o = 0;\n  (void)i;  // every stride is 0\n  return o;"));
    }
}
