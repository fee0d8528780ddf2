//! The emitted C++ compiled with g++ and compared with the library at every point: a fixed corpus
//! (plain, hierarchical, swizzled, negative and zero strides, offsets, composed results, TV
//! layouts) and 300 random layouts (a third of them swizzled), all in one translation unit, plus
//! `emit_check`'s own test programs for a few layouts. Skipped, with a message, when `g++` is not
//! on the PATH (set `CUTE_REQUIRE_GPP=1` to make that a failure, as CI does).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use cute_layout::gpu::codegen::{emit_check, emit_cpp, Options};
use cute_layout::{ComposedLayout, Layout, Swizzle};

fn gpp() -> Option<&'static str> {
    let ok = Command::new("g++").arg("--version").output().is_ok();
    if !ok {
        assert!(
            std::env::var_os("CUTE_REQUIRE_GPP").is_none(),
            "CUTE_REQUIRE_GPP is set but g++ is not on the PATH"
        );
        eprintln!("codegen_gpp: g++ not found, skipping the compiled checks");
        return None;
    }
    Some("g++")
}

fn tmpdir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cute-codegen-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn compile_run(dir: &Path, main: &str) -> String {
    let exe = dir.join("check");
    let out = Command::new("g++")
        .args(["-std=c++17", "-O1", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(&exe)
        .arg(dir.join(main))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "g++ failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().unwrap();
    let text = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(run.status.success(), "check failed: {text}");
    text
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> i64 {
        (self.next() % n) as i64
    }
}

fn random_mode(r: &mut Rng, depth: u32, budget: &mut i64) -> (String, String) {
    if depth < 2 && r.below(4) == 0 {
        let k = 2 + r.below(2);
        let (mut s, mut d) = (Vec::new(), Vec::new());
        for _ in 0..k {
            let (a, b) = random_mode(r, depth + 1, budget);
            s.push(a);
            d.push(b);
        }
        return (format!("({})", s.join(",")), format!("({})", d.join(",")));
    }
    let extents = [1, 2, 3, 4, 5, 6, 7, 8, 16, 12];
    let mut e = extents[r.below(extents.len() as u64) as usize];
    while e > 1 && *budget / e < 1 {
        e /= 2;
    }
    *budget /= e.max(1);
    let stride = match r.below(6) {
        0 => 0,
        1 => -(1 + r.below(40)),
        2 => 1,
        _ => 1 + r.below(300),
    };
    (e.to_string(), stride.to_string())
}

fn random_layout(r: &mut Rng) -> ComposedLayout {
    let mut budget = 2048;
    let rank = 1 + r.below(3);
    let (mut s, mut d) = (Vec::new(), Vec::new());
    for _ in 0..rank {
        let (a, b) = random_mode(r, 1, &mut budget);
        s.push(a);
        d.push(b);
    }
    let text = if rank == 1 {
        format!("{}:{}", s[0], d[0])
    } else {
        format!("({}):({})", s.join(","), d.join(","))
    };
    let l: Layout = text.parse().unwrap();
    if r.below(3) != 0 {
        return l.into();
    }
    let b = r.below(4);
    let m = r.below(4);
    let sh = (b + r.below(3)) * if r.below(4) == 0 { -1 } else { 1 };
    let sh = if sh.abs() < b { b } else { sh };
    let sw = Swizzle::new(b, m, sh).unwrap();
    let off = r.below(3) * r.below(64);
    ComposedLayout::new(sw, off, l).unwrap()
}

fn corpus() -> Vec<ComposedLayout> {
    let fixed = [
        "8:1",
        "1:0",
        "(4,8):(8,1)",
        "(4,8):(1,4)",
        "(2,(2,2)):(4,(2,1))",
        "((2,4),(3,5)):((1,2),(8,24))",
        "(3,(2,5)):(-1,(7,-20))",
        "(4,4):(0,1)",
        "(4,(3,2)):(0,(0,5))",
        "((8,32),4):((128,1),32)",
        "((8,32),4,(4,4)):((4,16384),1,(524288,32))",
        "(6,7,5):(35,5,1)",
        "Sw<3,4,3> o 0 o (8,64):(64,1)",
        "Sw<5,0,5> o 0 o (32,32):(32,1)",
        "Sw<3,2,5> o 0 o ((8,32),4):((4,32),1)",
        "Sw<2,1,-3> o 16 o (8,16):(16,1)",
        "Sw<1,0,2> o 4 o Sw<2,0,3> o 0 o (8,8):(1,8)",
        "Sw<3,3,3> o 0 o ((8,2),(8,4)):((64,512),(1,8))",
    ];
    let mut v: Vec<ComposedLayout> = fixed.iter().map(|s| s.parse().unwrap()).collect();
    // Composed results of the algebra.
    let a: Layout = "(12,(4,8)):(59,(13,1))".parse().unwrap();
    let b: Layout = "(3,4):(4,1)".parse().unwrap();
    let sw: ComposedLayout = "Sw<3,4,3> o 0 o (8,64):(64,1)".parse().unwrap();
    let tv: Layout = "((8,8),8):((64,1),8)".parse().unwrap();
    v.push(
        a.compose(&"((2,2),4):((1,24),2)".parse().unwrap())
            .unwrap()
            .into(),
    );
    v.push(b.logical_product(&"(2,3)".parse().unwrap()).unwrap().into());
    v.push(sw.compose(&tv).unwrap());
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..300 {
        v.push(random_layout(&mut r));
    }
    v
}

#[test]
fn emitted_code_matches_the_library_at_every_point() {
    if gpp().is_none() {
        return;
    }
    let dir = tmpdir("corpus");
    let layouts = corpus();
    let mut main = String::from("#include <cstdio>\n#include <cstdint>\n");
    let mut body = String::new();
    for (k, c) in layouts.iter().enumerate() {
        let name = format!("l{k}");
        let opts = Options::new(&name).unwrap().namespace("gen").unwrap();
        let code = emit_cpp(c, &opts).unwrap();
        std::fs::write(dir.join(format!("{name}.hpp")), code).unwrap();
        writeln!(main, "#include \"{name}.hpp\"").unwrap();
        let vals: Vec<String> = c.offsets().map(|v| v.to_string()).collect();
        writeln!(
            main,
            "static const int64_t e{k}[] = {{{}}};",
            vals.join(",")
        )
        .unwrap();
        let l = c.layout();
        writeln!(
            body,
            "  for (int64_t i = 0; i < {n}; ++i) {{ if (gen::{name}(i) != e{k}[i]) {{ std::printf(\"{k} {c} at %lld\\n\", (long long)i); return 1; }}",
            n = l.size()
        )
        .unwrap();
        if l.rank() >= 2 {
            body.push_str("    int64_t r = i;");
            let mut args = Vec::new();
            for (j, m) in l.modes().enumerate() {
                write!(body, " int64_t c{j} = r % {s}; r /= {s};", s = m.size()).unwrap();
                args.push(format!("c{j}"));
            }
            writeln!(
                body,
                " if (gen::{name}({}) != e{k}[i]) {{ std::printf(\"{k} {c} by mode at %lld\\n\", (long long)i); return 1; }}",
                args.join(",")
            )
            .unwrap();
        }
        body.push_str("  }\n");
        // The constants: size and the vector width (vectors checked by the library's tests).
        writeln!(
            body,
            "  static_assert(gen::{name}_size == {}, \"size\");",
            l.size()
        )
        .unwrap();
    }
    writeln!(
        main,
        "int main() {{\n{body}  std::printf(\"ok %d layouts\\n\", {});\n  return 0;\n}}",
        layouts.len()
    )
    .unwrap();
    std::fs::write(dir.join("main.cpp"), main).unwrap();
    let out = compile_run(&dir, "main.cpp");
    assert!(
        out.contains(&format!("ok {} layouts", layouts.len())),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_programs_pass() {
    if gpp().is_none() {
        return;
    }
    for (k, s) in [
        "Sw<3,2,5> o 0 o ((8,32),4):((4,32),1)",
        "(3,(2,5)):(-1,(7,-20))",
        "16:0",
    ]
    .iter()
    .enumerate()
    {
        let dir = tmpdir(&format!("check{k}"));
        let c: ComposedLayout = s.parse().unwrap();
        let opts = Options::new("f").unwrap().namespace("a::b").unwrap();
        std::fs::write(dir.join("f.hpp"), emit_cpp(&c, &opts).unwrap()).unwrap();
        std::fs::write(
            dir.join("test.cpp"),
            emit_check(&c, &opts, "f.hpp").unwrap(),
        )
        .unwrap();
        let out = compile_run(&dir, "test.cpp");
        assert!(out.starts_with("ok a::b::f"), "{out}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// `vector_width`'s law, by brute force, on the whole corpus (no compiler needed): every group
/// of `w` values of mode 1 (mode 0 for one mode) starting at a multiple of `w` is `w` consecutive
/// offsets starting at a multiple of `w`.
#[test]
fn vector_width_is_sound_on_the_corpus() {
    use cute_layout::gpu::codegen::vector_width;
    let mut widened = 0;
    for c in corpus() {
        let l = c.layout();
        let mode = usize::from(l.rank() >= 2);
        let sizes: Vec<i64> = if l.rank() <= 1 {
            vec![l.size()]
        } else {
            l.modes().map(|m| m.size()).collect()
        };
        let before: i64 = sizes[..mode].iter().product();
        let w = vector_width(&c, mode);
        assert!(w >= 1 && w & (w - 1) == 0);
        widened += usize::from(w > 1);
        for i in 0..l.size() {
            let cm = (i / before) % sizes[mode];
            let base = i - (cm % w) * before;
            let (v, b) = (c.index_1d(i).unwrap(), c.index_1d(base).unwrap());
            assert_eq!(v, b + cm % w, "{c}: w = {w} at {i}");
            assert_eq!(
                b.rem_euclid(w),
                0,
                "{c}: w = {w}, group at {base} unaligned"
            );
        }
    }
    assert!(widened >= 10, "the corpus exercises vectors ({widened})");
}
