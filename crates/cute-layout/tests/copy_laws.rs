//! Laws of the copy atoms and tiled copies (`cute_layout::atom::copy`), on every listed atom
//! and every TiledCopy configuration of the vendored CuTe vectors
//! (`crates/cute-cli/tests/conformance/atoms/tiled_copy{,_extra}.jsonl`).

use cute_layout::atom::copy::{copy_atom, copy_names, value_type_names, TiledCopy};
use cute_layout::atom::{mma_atom, Operand, TiledMma};
use cute_layout::{Layout, Tiler};
use serde_json::Value;

/// Every listed atom with every value type: either CuTe's typed layouts (the bit layouts
/// recast, thread extent `size(ThrID)`), or a typed refusal; never a panic.
#[test]
fn typed_atoms_are_recast_bit_layouts() {
    let mut typed = 0;
    for n in copy_names() {
        let a = copy_atom(&n).unwrap();
        let threads = a.thr_id().size();
        for (bits, l) in [
            (a.src_bits(), "src"),
            (a.dst_bits(), "dst"),
            (a.ref_bits(), "ref"),
        ]
        .map(|(b, w)| (b.clone(), w))
        {
            assert_eq!(bits.mode(0).unwrap().size(), threads, "{n} {l}");
        }
        for ty in value_type_names() {
            let Ok(t) = a.typed(ty) else { continue };
            let b = i64::from(t.value_type().bits());
            assert_eq!(*t.src(), a.src_bits().recast(1, b).unwrap(), "{n} {ty}");
            assert_eq!(*t.dst(), a.dst_bits().recast(1, b).unwrap(), "{n} {ty}");
            assert_eq!(*t.ref_(), a.ref_bits().recast(1, b).unwrap(), "{n} {ty}");
            for l in [t.src(), t.dst(), t.ref_()] {
                assert_eq!(l.mode(0).unwrap().size(), threads, "{n} {ty}");
            }
            typed += 1;
        }
    }
    assert!(typed > 2000, "{typed}");
}

/// Names are found with or without spaces after commas; unknown names name the nearest.
#[test]
fn names_and_errors() {
    assert_eq!(
        copy_atom("UniversalCopy<uint32_t, uint64_t>").unwrap(),
        copy_atom("UniversalCopy<uint32_t,uint64_t>").unwrap()
    );
    assert_eq!(
        copy_atom("Copy_Traits<SM80_CP_ASYNC_CACHEALWAYS<cute::uint128_t>>")
            .unwrap()
            .src_bits(),
        copy_atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t, uint128_t>")
            .unwrap()
            .src_bits()
    );
    assert_eq!(
        copy_atom("SM90_TMA_LOAD").unwrap_err().kind(),
        "Unsupported"
    );
    let e = copy_atom("SM90_U32x4_STSM_T").unwrap_err();
    assert_eq!(e.kind(), "UnknownAtom");
    assert!(e.to_string().contains("SM90_U32x4_STSM_N"), "{e}");
    let e = copy_atom("UniversalCopy<halft>").unwrap_err();
    assert!(e.to_string().contains("half_t"), "{e}");
    let e = copy_atom("SM75_U32x4_LDSM_N")
        .unwrap()
        .typed("double")
        .unwrap_err();
    assert!(e.to_string().contains("not valid"), "{e}");
}

fn text(v: &Value) -> String {
    v.as_str()
        .map(String::from)
        .unwrap_or_else(|| v.to_string())
}

fn configs() -> Vec<(Value, TiledCopy)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../cute-cli/tests/conformance/atoms/tiled_copy.jsonl"
    );
    let mut out = Vec::new();
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let op = text(&v["op"]);
        let args: Vec<String> = v["args"].as_array().unwrap().iter().map(text).collect();
        if op == "make_layout_tv" {
            continue;
        }
        let atom = copy_atom(&args[0]).unwrap().typed(&args[1]).unwrap();
        let tc = if op == "make_tiled_copy" {
            let val: Layout = if args[3] == "_" {
                "1:0".parse().unwrap()
            } else {
                args[3].parse().unwrap()
            };
            TiledCopy::make_tiled_copy(atom, &args[2].parse().unwrap(), &val).unwrap()
        } else {
            let al: Option<Layout> = (args[3] != "_").then(|| args[3].parse().unwrap());
            let perm: Option<Tiler> = (args[4] != "_").then(|| args[4].parse().unwrap());
            let mma =
                TiledMma::new(mma_atom(&args[2]).unwrap(), al.as_ref(), perm.as_ref()).unwrap();
            match op.as_str() {
                "make_tiled_copy_A" => TiledCopy::make_tiled_copy_mma(atom, &mma, Operand::A),
                "make_tiled_copy_B" => TiledCopy::make_tiled_copy_mma(atom, &mma, Operand::B),
                "make_tiled_copy_C" => TiledCopy::make_tiled_copy_mma(atom, &mma, Operand::C),
                _ => TiledCopy::make_tiled_copy_c_atom_mma(atom, &mma),
            }
            .unwrap()
        };
        out.push((v, tc));
    }
    out
}

fn tile_size(tc: &TiledCopy) -> i64 {
    match tc.tiler_mn() {
        Tiler::Modes(ms) => ms
            .iter()
            .map(|m| match m {
                Tiler::Int(n) => *n,
                Tiler::Layout(l) => l.size(),
                _ => panic!("tile mode {m}"),
            })
            .product(),
        t => panic!("tiler {t}"),
    }
}

/// Coverage: the TV layouts stay in the tile, source and destination reach the same set of
/// coordinates as the reference, and `make_tiled_copy`'s TV layout covers the tile exactly once.
#[test]
fn tv_layouts_cover_the_tile() {
    for (v, tc) in configs() {
        let size = tile_size(&tc);
        let image = |l: &Layout| {
            let mut s: Vec<i64> = l.offsets().collect();
            assert!(
                s.iter().all(|&x| (0..size).contains(&x)),
                "{}: {l} leaves the tile of {size}",
                v["cpp"]
            );
            s.sort_unstable();
            s.dedup();
            s
        };
        let r = image(tc.tiled_layout_tv());
        let s = image(&tc.layout_s_tv().unwrap());
        let d = image(&tc.layout_d_tv().unwrap());
        assert_eq!(s, r, "{}", v["cpp"]);
        assert_eq!(d, r, "{}", v["cpp"]);
        if v["op"] == "make_tiled_copy" {
            let all: Vec<i64> = tc.tiled_layout_tv().offsets().collect();
            assert_eq!(all.len() as i64, size, "{}", v["cpp"]);
            assert_eq!(
                r.len() as i64,
                size,
                "{}: each element exactly once",
                v["cpp"]
            );
        }
    }
}

/// Partitions agree with the TV layouts: value `v` of rest tile `r` of thread `t`'s
/// `partition_S/D` is the tensor at tile coordinate `layout_S/D_TV(t, v)` of tile `r`.
#[test]
fn partitions_agree_with_tv_layouts() {
    let mut checked = 0;
    for (v, tc) in configs() {
        let tensor_text = text(&v["cute"]["tensor"]);
        let Ok(tensor) = tensor_text.parse::<Layout>() else {
            continue;
        }; // swizzled
        let zd = tensor.zipped_divide(tc.tiler_mn()).unwrap();
        let (tile, rest) = (zd.mode(0).unwrap(), zd.mode(1).unwrap());
        for dst in [false, true] {
            let tv = if dst {
                tc.layout_d_tv()
            } else {
                tc.layout_s_tv()
            }
            .unwrap();
            let vals = tv.mode(1).unwrap().size();
            for t in 0..tc.size() {
                let (p, off) = if dst {
                    tc.partition_d(&tensor, t)
                } else {
                    tc.partition_s(&tensor, t)
                }
                .unwrap();
                assert_eq!(p.size(), vals * rest.size(), "{}", v["cpp"]);
                for r in 0..rest.size() {
                    for val in 0..vals {
                        let want = tile
                            .index_1d(tv.index_1d(t + tc.size() * val).unwrap())
                            .unwrap()
                            + rest.index_1d(r).unwrap();
                        assert_eq!(
                            p.index_1d(val + vals * r).unwrap() + off,
                            want,
                            "{} t={t} v={val} r={r}",
                            v["cpp"]
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

/// `make_cotiled_copy` and `make_tiled_copy_S/D` against CuTe C++ 4.2 (printed host-only by a
/// program like `tests/conformance/latex_copy/print_latex_copy.cpp`; the expected text is CuTe's
/// with the `_` of static integers removed).
#[test]
fn cotiled_and_s_d_copies_agree_with_cute() {
    let l = |s: &str| -> Layout { s.parse().unwrap() };
    let atom = |n: &str, t: &str| copy_atom(n).unwrap().typed(t).unwrap();
    let fields = |tc: &TiledCopy| {
        [
            tc.tiler_mn().to_string(),
            tc.tiled_layout_tv().to_string(),
            tc.layout_s_tv().unwrap().to_string(),
            tc.layout_d_tv().unwrap().to_string(),
        ]
    };
    let cot = |n: &str, t: &str, tv: &str, data: &str| {
        TiledCopy::make_cotiled_copy(atom(n, t), &l(tv), &l(data)).unwrap()
    };
    assert_eq!(
        fields(&cot(
            "UniversalCopy<uint128_t>",
            "half_t",
            "((8,16),8):((8,64),1)",
            "(32,64):(64,1)"
        )),
        [
            "(16:1,(8,8):(8,1))",
            "((8,16),8):((16,1),128)",
            "((8,16),(8,1)):((16,1),(128,0))",
            "((8,16),(8,1)):((16,1),(128,0))"
        ]
    );
    assert_eq!(
        fields(&cot(
            "UniversalCopy<uint128_t>",
            "half_t",
            "((8,32),8):((8,64),1)",
            "(64,32):(1,64)"
        )),
        [
            "((8,8):(8,1),32:1)",
            "((8,32),8):((1,64),8)",
            "((8,32),(8,1)):((1,64),(8,0))",
            "((8,32),(8,1)):((1,64),(8,0))"
        ]
    );
    assert_eq!(
        fields(&cot(
            "UniversalCopy<uint64_t>",
            "float",
            "((4,8),2):((2,8),1)",
            "((2,4),8):((1,16),2)"
        )),
        [
            "((4,2):(2,1),8:1)",
            "((4,(2,4)),2):((8,(32,1)),4)",
            "((8,4),(2,1)):((8,1),(4,0))",
            "((8,4),(2,1)):((8,1),(4,0))"
        ]
    );
    let mma = TiledMma::new(
        mma_atom("SM80_16x8x16_F16F16F16F16_TN").unwrap(),
        Some(&l("(2,2,1):(1,2,0)")),
        Some(&"(32,32,16)".parse().unwrap()),
    )
    .unwrap();
    let ta = TiledCopy::make_tiled_copy_mma(atom("SM75_U32x4_LDSM_N", "half_t"), &mma, Operand::A)
        .unwrap();
    assert_eq!(
        fields(
            &TiledCopy::make_tiled_copy_s(atom("UniversalCopy<uint128_t>", "half_t"), &ta).unwrap()
        ),
        [
            "(32,16)",
            "((16,2,2,2),(8,1)):((1,256,16,0),(32,0))",
            "((16,2,2,2),(8,1)):((1,256,16,0),(32,0))",
            "((16,2,2,2),(8,1)):((1,256,16,0),(32,0))"
        ]
    );
    assert_eq!(
        fields(
            &TiledCopy::make_tiled_copy_d(atom("UniversalCopy<uint32_t>", "half_t"), &ta).unwrap()
        ),
        [
            "(32,16)",
            "((4,8,2,2),((2,2,2),1)):((64,1,16,0),((32,8,256),0))",
            "((4,8,2,2),(2,(2,2))):((64,1,16,0),(32,(8,256)))",
            "((4,8,2,2),(2,(2,2))):((64,1,16,0),(32,(8,256)))"
        ]
    );
    let tcc =
        TiledCopy::make_tiled_copy_mma(atom("UniversalCopy<uint32_t>", "half_t"), &mma, Operand::C)
            .unwrap();
    assert_eq!(
        fields(&TiledCopy::make_tiled_copy_d(atom("SM90_U32x4_STSM_N", "half_t"), &tcc).unwrap()),
        [
            "(32,32)",
            "((4,8,2,2),(2,(2,2))):((64,1,16,256),(32,(8,512)))",
            "((4,8,2,2),((2,2,2),1)):((64,1,16,256),((32,8,512),0))",
            "((16,2,2,2),(8,1)):((1,512,16,256),(32,0))"
        ]
    );
}
