"""Rosetta against the real peers: Triton 3.9.0's Gluon layouts and the CuTe DSL 4.8.1.

Run with the oracle venv's python (scripts/ci/oracles.sh does):
    python scripts/rosetta/test_rosetta.py [--seed N] [--cases N] [--cute PATH]
Each check is also a `test_*` function, so pytest can collect the file.

1. Held-out Gluon layouts of every kind (random parameters): our `gluon_to_cute` answer, evaluated
   at every point by our `table`, equals the values of Triton's own `to_linear_layout`
   (PaddedSharedLayout has no linear layout in Triton: its documented definition is evaluated
   here instead, and the docstring's own example is checked).
2. Held-out CuTe layouts (power-of-two and not): `cute_to_gluon` answers a layout that Triton
   accepts and whose linear layout has the CuTe layout's values at every point (pycute evaluates
   the CuTe layout), or refuses exactly when no linear layout has those values.
3. Held-out layouts through `codegen --lang cute-dsl`, run in the CuTe DSL: the printed layout is
   the same function (our `equal`).
"""
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SEED = int(os.environ.get("ROSETTA_SEED", "0")) or random.randrange(1, 1 << 30)
CASES = int(os.environ.get("ROSETTA_CASES", "20"))
CUTE = os.environ.get("CUTE", os.path.join(ROOT, "target", "debug", "cute"))

_builder = None


def builder():
    global _builder
    if _builder is None:
        from triton._C.libtriton import ir, gluon_ir
        ctx = ir.context()
        ir.load_dialects(ctx)
        _builder = (ctx, gluon_ir.GluonOpBuilder(ctx, "cuda:90"))
    return _builder[1]


def gl():
    import triton.experimental.gluon.language as m
    return m


def batch(requests):
    """Answers of `cute batch` for (op, args) pairs: ("ok", text) or ("error", kind, message)."""
    lines = "".join(json.dumps({"op": op, "args": list(args)}) + "\n" for op, args in requests)
    out = subprocess.run([CUTE, "batch"], input=lines, capture_output=True, text=True, check=True).stdout
    res = []
    for line in out.splitlines():
        r = json.loads(line)
        if "ok" in r:
            res.append(("ok", r["ok"]))
        else:
            res.append(("error", r.get("kind", ""), r.get("error", r.get("message", ""))))
    assert len(res) == len(requests), out
    return res


def flat(shape, coord):
    o, scale = 0, 1
    for x, d in zip(coord, shape):
        o += x * scale
        scale *= d
    return o


def xor_all(bases, bits, rank):
    c = [0] * rank
    j = 0
    while bits:
        if bits & 1:
            c = [a ^ b for a, b in zip(c, bases[j])]
        bits >>= 1
        j += 1
    return c


def dist_values(ll, shape):
    """TV values of Triton's DistributedLinearLayout: index t + T*v -> offset."""
    thread = list(ll.lane_bases) + list(ll.warp_bases) + list(ll.block_bases)
    reg = list(ll.reg_bases)
    T, V = 1 << len(thread), 1 << len(reg)
    rank = len(shape)
    return [flat(shape, [a ^ b for a, b in zip(xor_all(thread, i % T, rank), xor_all(reg, i // T, rank))])
            for i in range(T * V)]


def shared_values(offset_bases, shape, pairs=()):
    """Offset of each coordinate (by 1-D index) of a shared layout, with padding pairs."""
    n = 1
    for d in shape:
        n *= d
    out = [None] * n
    for o in range(n):
        c = flat(shape, xor_all(offset_bases, o, len(shape)))
        assert out[c] is None, "not a bijection"
        out[c] = o + sum((o >> (i.bit_length() - 1)) * p for i, p in pairs)
    return out


def pow2s(lo, hi):
    return [1 << k for k in range(lo.bit_length() - 1, hi.bit_length())]


def split(rng, bits, rank):
    parts = [0] * rank
    for _ in range(bits):
        parts[rng.randrange(rank)] += 1
    return [1 << p for p in parts]


def perm(rng, rank):
    p = list(range(rank))
    rng.shuffle(p)
    return p


def rand_shape(rng, rank, max_bits=12, lo=None):
    lo = lo or [1] * rank
    while True:
        s = [rng.choice(pow2s(l, 128)) for l in lo]
        if sum(x.bit_length() - 1 for x in s) <= max_bits:
            return s


def gen_gluon(rng, kind):
    """(constructor text, shape) of a random valid layout of `kind`."""
    if kind == "blocked":
        rank = rng.choice([1, 2, 2, 3])
        spt = [rng.choice([1, 1, 2, 4]) for _ in range(rank)]
        return (f"BlockedLayout(size_per_thread={spt}, threads_per_warp={split(rng, 5, rank)}, "
                f"warps_per_cta={split(rng, rng.randrange(3), rank)}, order={perm(rng, rank)})",
                rand_shape(rng, rank))
    if kind == "linear":
        # Triton takes a permutation of the shape's bits, zero bases (broadcast) aside.
        rank = rng.choice([1, 2, 3])
        shape = rand_shape(rng, rank, 10)
        units = [[(1 << k) if i == d else 0 for i in range(rank)] for d in range(rank) for k in range(shape[d].bit_length() - 1)]
        rng.shuffle(units)
        slots = {"reg": [], "lane": [], "warp": []}
        for u in units:
            slots[rng.choice(["reg", "lane", "lane", "warp"])].append(u)
        for key in slots:
            for _ in range(rng.randrange(2)):
                slots[key].insert(rng.randrange(len(slots[key]) + 1), [0] * rank)
        return (f"DistributedLinearLayout(reg_bases={slots['reg']}, lane_bases={slots['lane']}, "
                f"warp_bases={slots['warp']}, block_bases=[], shape={shape})", shape)
    if kind == "mma":
        if rng.random() < 0.5:
            w = split(rng, rng.randrange(4), 2)
            return f"NVMMADistributedLayout(version=[2, 0], warps_per_cta={w}, instr_shape=[16, 8])", rand_shape(rng, 2)
        w = [rng.choice([4, 8]), rng.choice([1, 2])]
        n = rng.choice([8, 16, 32, 64, 128, 256])
        return (f"NVMMADistributedLayout(version=[3, 0], warps_per_cta={w}, instr_shape=[16, {n}, 16])",
                rand_shape(rng, 2, 14))
    if kind == "dot":
        r = rng.random()
        if r < 0.5:
            w = split(rng, rng.randrange(3), 2)
            parent = f"NVMMADistributedLayout(version=[2, 0], warps_per_cta={w}, instr_shape=[16, 8])"
            return (f"DotOperandLayout(operand_index={rng.randrange(2)}, parent={parent}, k_width={rng.choice([1, 2, 4, 8])})",
                    rand_shape(rng, 2))
        if r < 0.75:
            parent = f"NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, {rng.choice([1, 2])}], instr_shape=[16, 64, 16])"
            return (f"DotOperandLayout(operand_index=0, parent={parent}, k_width={rng.choice([1, 2, 4])})",
                    rand_shape(rng, 2, 13))
        parent = (f"BlockedLayout(size_per_thread={[rng.choice([1, 2]) for _ in range(2)]}, threads_per_warp={split(rng, 5, 2)}, "
                  f"warps_per_cta={split(rng, rng.randrange(3), 2)}, order={perm(rng, 2)})")
        return f"DotOperandLayout(operand_index={rng.randrange(2)}, parent={parent}, k_width=0)", rand_shape(rng, 2, 10)
    if kind == "slice":
        parent, pshape = gen_gluon(rng, rng.choice(["blocked", "mma"]))
        if len(pshape) < 2:
            return None
        dim = rng.randrange(len(pshape))
        return f"SliceLayout(dim={dim}, parent={parent})", pshape[:dim] + pshape[dim + 1:]
    if kind == "nvmma":
        rank = rng.choice([2, 2, 3])
        sw = rng.choice([0, 32, 64, 128])
        bits = rng.choice([8, 16, 32, 64])
        tr = rank == 2 and rng.random() < 0.3
        cols = max(1, sw * 8 // bits)
        lo = [1] * rank
        col, row = (rank - 2, rank - 1) if tr else (rank - 1, rank - 2)
        if sw:
            lo[col], lo[row] = cols, 8
        shape = rand_shape(rng, rank, 14, lo)
        return (f"NVMMASharedLayout(swizzle_byte_width={sw}, element_bitwidth={bits}, rank={rank}, transposed={tr})", shape)
    if kind == "swizzled":
        rank = rng.choice([1, 2, 2, 3])
        return (f"SwizzledSharedLayout(vec={rng.choice([1, 2, 4, 8])}, per_phase={rng.choice([1, 2, 4])}, "
                f"max_phase={rng.choice([1, 2, 4, 8])}, order={perm(rng, rank)})", rand_shape(rng, rank))
    if kind == "shared_linear":
        rank = rng.choice([1, 2, 3])
        shape = rand_shape(rng, rank, 10)
        units = [[(1 << k) if i == d else 0 for i in range(rank)] for d in range(rank) for k in range(shape[d].bit_length() - 1)]
        rng.shuffle(units)
        bases = []
        for u in units:
            for b in bases:
                if rng.random() < 0.3:
                    u = [x ^ y for x, y in zip(u, b)]
            bases.append(u)
        if not bases:
            return None
        return f"SharedLinearLayout(offset_bases={bases})", shape
    raise ValueError(kind)


DIST = ["blocked", "linear", "mma", "dot", "slice"]
SHARED = ["nvmma", "swizzled", "shared_linear"]


def oracle_values(text, shape):
    L = eval(text, vars(gl()))
    b = builder()
    ll = b.to_linear_layout(L._to_ir(b), list(shape))
    if hasattr(ll, "reg_bases"):
        return dist_values(ll, shape)
    return shared_values(ll.offset_bases, shape)


def shape_text(shape):
    return "(" + ",".join(map(str, shape)) + ")"


# Fixed cases: layouts of the Gluon tutorials and Triton's NVIDIA MMA and shared encodings.
FIXED = [
    ("blocked", "BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])", [32, 16]),
    ("blocked", "BlockedLayout([1, 1], [1, 32], [4, 1], [1, 0])", [128, 128]),
    ("blocked", "BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])", [64, 64]),
    ("mma", "NVMMADistributedLayout(version=[2, 0], warps_per_cta=[4, 1], instr_shape=[16, 8])", [128, 64]),
    ("mma", "NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16])", [128, 128]),
    ("dot", "DotOperandLayout(0, NVMMADistributedLayout([2, 0], [4, 1], [16, 8]), 2)", [128, 64]),
    ("dot", "DotOperandLayout(1, NVMMADistributedLayout([2, 0], [4, 1], [16, 8]), 2)", [64, 128]),
    ("dot", "DotOperandLayout(0, NVMMADistributedLayout([3, 0], [4, 1], [16, 64, 16]), 2)", [64, 64]),
    ("nvmma", "NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2)", [128, 64]),
    ("nvmma", "NVMMASharedLayout(128, 16, transposed=True)", [64, 128]),
    ("nvmma", "NVMMASharedLayout(64, 8)", [64, 64]),
    ("nvmma", "NVMMASharedLayout(32, 32)", [64, 64]),
    ("swizzled", "SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0])", [64, 64]),
    ("swizzled", "SwizzledSharedLayout(vec=4, per_phase=2, max_phase=4, order=[0, 1])", [64, 32]),
]


def test_gluon_to_cute(rng=None, cases=CASES):
    rng = rng or random.Random(SEED)
    todo = list(FIXED)
    for kind in DIST + SHARED:
        n = 0
        while n < cases:
            g = gen_gluon(rng, kind)
            if g is None or (kind in SHARED and max(g[1]) == 1):
                continue  # Triton has no shared linear layout of one element
            todo.append((kind,) + g)
            n += 1
    ours = batch([("gluon_to_cute", [shape_text(s), t]) for _, t, s in todo])
    tables = batch([("table", [r[1]]) if r[0] == "ok" else ("size", ["1"]) for r in ours])
    checked = 0
    failures = []
    for (kind, text, shape), r, tab in zip(todo, ours, tables):
        if r[0] != "ok":
            failures.append(f"{kind}: gluon_to_cute {shape} {text} refused: {r}")
            continue
        want = oracle_values(text, shape)
        got = [int(x) for x in tab[1].split(",")]
        if got != want:
            failures.append(f"{kind}: {text} at {shape}: ours {r[1]} differs from Triton's to_linear_layout")
        checked += 1
    assert not failures, f"{len(failures)} of {len(todo)} differ:\n" + "\n".join(failures[:8])
    # Round trip: our CuTe answer back through cute_to_gluon is, in Triton, the same function.
    back = batch([("cute_to_gluon", [r[1], shape_text(sh), "shared" if k in SHARED else "distributed"])
                  for (k, _, sh), r in zip(todo, ours)])
    for (kind, text, shape), r, b in zip(todo, ours, back):
        assert b[0] == "ok", f"{kind}: {text} at {shape}: {r[1]} did not come back: {b}"
        first = b[1].splitlines()[0]
        assert oracle_values(first, shape) == oracle_values(text, shape), f"{text}: back as {first}"
    # Padded: Triton defines it by its docstring (no linear layout); its own example first.
    doc = "PaddedSharedLayout([[8, 1]], [[0, 1], [0, 2], [2, 0], [4, 0], [1, 0]], [], [8, 4])"
    r = batch([("gluon_to_cute", ["(8,4)", doc])])[0]
    tab = batch([("table", [r[1]])])[0][1].split(",")
    # x{r}y{c} sits at the docstring's position: rows 0,2,4,6,1,3,5,7 with one pad per 8.
    order = [0, 2, 4, 6, 1, 3, 5, 7]
    for row in range(8):
        for col in range(4):
            pos = order.index(row) * 4 + col
            assert int(tab[row + 8 * col]) == pos + pos // 8, (row, col, tab)
    todo = []
    for _ in range(cases):
        rank = rng.choice([1, 2])
        shape = rand_shape(rng, rank, 10)
        bits = [[(1 << k) if i == d else 0 for i in range(rank)] for d in range(rank) for k in range(shape[d].bit_length() - 1)]
        rng.shuffle(bits)
        if not bits:
            continue
        if rng.random() < 0.3:
            mixed = []
            for u in bits:
                for b in mixed:
                    if rng.random() < 0.3:
                        u = [x ^ y for x, y in zip(u, b)]
                mixed.append(u)
            bits = mixed
        n = 1 << len(bits)
        pairs = []
        for i in rng.sample(pow2s(2, n), min(2, len(pow2s(2, n)))):
            pairs.append([i, rng.choice([1, 2, 4])])
        todo.append((f"PaddedSharedLayout({pairs}, {bits}, [], {shape})", shape, bits, pairs))
    ours = batch([("gluon_to_cute", [shape_text(s), t]) for t, s, _, _ in todo])
    tables = batch([("table", [r[1]]) if r[0] == "ok" else ("size", ["1"]) for r in ours])
    for (text, shape, bits, pairs), r, tab in zip(todo, ours, tables):
        if r[0] != "ok" and "no swizzle" in r[2]:
            continue  # a padding after an XOR that no swizzle expresses: named, not converted
        assert r[0] == "ok", (text, r)
        want = shared_values(bits, shape, [tuple(p) for p in pairs])
        assert [int(x) for x in tab[1].split(",")] == want, (text, r)
        checked += 1
    return checked


def rand_cute(rng, pow2):
    """A random integer layout (modes of extent 1..8) and a target shape for it."""
    modes = []
    for _ in range(rng.randrange(1, 5)):
        e = rng.choice([2, 4, 8]) if pow2 else rng.choice([1, 2, 3, 4, 6])
        s = rng.choice([0, 1, 2, 4, 8, 16, 32]) if pow2 else rng.choice([0, 1, 2, 3, 5, 8])
        modes.append((e, s))
    return modes


def pycute_values(shape, stride):
    import pycute
    L = pycute.Layout(shape, stride)
    return [L(i) for i in range(pycute.size(L))]


def linear_exists(vals, threads, shape_size):
    n = len(vals)
    if n % threads or n & (n - 1) or threads & (threads - 1) or shape_size & (shape_size - 1):
        return False
    if any(v < 0 or v >= shape_size for v in vals):
        return False
    cols = [vals[1 << j] for j in range(n.bit_length() - 1)]
    # Triton's distributed linear layouts: a permutation of the offset's bits, zeros aside.
    nonzero = [c for c in cols if c]
    if any(c & (c - 1) for c in nonzero) or len(set(nonzero)) != len(nonzero):
        return False
    if sum(nonzero) != shape_size - 1:
        return False
    for i, v in enumerate(vals):
        x, j = 0, 0
        b = i
        while b:
            if b & 1:
                x ^= cols[j]
            b >>= 1
            j += 1
        if x != v:
            return False
    return True


def test_cute_to_gluon(rng=None, cases=CASES):
    rng = rng or random.Random(SEED + 1)
    todo = []
    for k in range(3 * cases):
        pow2 = k % 3 != 2
        t = rand_cute(rng, pow2)
        v = rand_cute(rng, pow2)
        shape = ((rng.choice([2, 4, 8, 16, 32, 64]),) if pow2 else (rng.choice([6, 8, 12, 16, 24, 48]),))
        if rng.random() < 0.5:
            shape = (shape[0], rng.choice([1, 2, 4]))
        if k % 3 == 0:
            # A permutation of the shape's offset bits over thread and value bits, with
            # broadcast (stride-0) bits: these have linear layouts (unless a bit is dropped).
            size = shape[0] * (shape[1] if len(shape) > 1 else 1)
            bits = [(2, 1 << j) for j in range(size.bit_length() - 1)] + [(2, 0)] * rng.randrange(3)
            if rng.random() < 0.2 and bits:
                bits.pop(rng.randrange(len(bits)))
            rng.shuffle(bits)
            cut = rng.randrange(len(bits) + 1)
            t, v = bits[:cut] or [(1, 0)], bits[cut:] or [(1, 0)]
        tshape = tuple(e for e, _ in t)
        vshape = tuple(e for e, _ in v)
        L = (tshape, vshape), (tuple(s for _, s in t), tuple(s for _, s in v))
        text = "(" + str(L[0]).replace(" ", "") + "):(" + str(L[1]).replace(" ", "") + ")"
        text = text.replace(",)", ")")
        todo.append((text, L, shape))
    ours = batch([("cute_to_gluon", [t, shape_text(s), "distributed"]) for t, _, s in todo])
    accepted = refused = 0
    for (text, (shp, strd), shape), r in zip(todo, ours):
        vals = pycute_values(shp, strd)
        import pycute
        threads = pycute.size(shp[0])
        size = 1
        for d in shape:
            size *= d
        exists = linear_exists(vals, threads, size)
        if r[0] != "ok":
            assert not exists, f"{text} at {shape}: refused ({r}) but a linear layout exists"
            assert r[1] == "NotRepresentable", (text, r)
            refused += 1
            continue
        assert exists, f"{text} at {shape}: answered {r[1]} but no linear layout has its values"
        first = r[1].splitlines()[0]
        L = eval(first, vars(gl()))
        b = builder()
        ll = b.to_linear_layout(L._to_ir(b), list(shape))
        assert dist_values(ll, list(shape)) == vals, f"{text} at {shape}: {first} differs in Triton"
        for named in r[1].splitlines()[1:]:
            N = eval(named, vars(gl()))
            assert dist_values(b.to_linear_layout(N._to_ir(b), list(shape)), list(shape)) == vals, named
        accepted += 1
    # Shared: bit permutations (with padding), swizzles of them, and non-injective layouts.
    todo = []
    for k in range(cases):
        rank = rng.choice([1, 2])
        shape = rand_shape(rng, rank, 8)
        bits = [(d, 1 << j) for d in range(rank) for j in range(shape[d].bit_length() - 1)]
        offs = [1 << j for j in range(len(bits))]
        rng.shuffle(offs)
        if k % 4 == 3 and offs:
            offs[0] = offs[-1]
        pad = rng.choice([0, 0, 1, 2]) if len(offs) > 2 else 0
        big = 1 << max(len(offs) - 1, 0)
        stride = [[] for _ in range(rank)]
        extent = [[] for _ in range(rank)]
        for (d, _), o in zip(bits, offs):
            extent[d].append(2)
            stride[d].append(o + (o // big) * pad if big else o)
        modes_s = ",".join("(" + ",".join(map(str, e)) + ")" if e else "1" for e in extent)
        modes_d = ",".join("(" + ",".join(map(str, s)) + ")" if s else "0" for s in stride)
        text = f"({modes_s}):({modes_d})"
        todo.append((text, shape))
    ours = batch([("cute_to_gluon", [t, shape_text(s), "shared"]) for t, s in todo])
    vals_all = batch([("table", [t]) for t, _ in todo])
    for (text, shape), r, tv in zip(todo, ours, vals_all):
        vals = [int(x) for x in tv[1].split(",")]
        exists = len(set(vals)) == len(vals) > 1
        if r[0] != "ok":
            assert not exists, (text, shape, r)
            refused += 1
            continue
        first = r[1].splitlines()[0]
        if first.startswith("SharedLinearLayout"):
            L = eval(first, vars(gl()))
            b = builder()
            ll = b.to_linear_layout(L._to_ir(b), list(shape))
            assert shared_values(ll.offset_bases, shape) == vals, (text, first)
        else:
            L = eval(first, vars(gl()))
            got = shared_values(L.offset_bases, shape, [tuple(p) for p in L.interval_padding_pairs])
            assert got == vals, (text, first)
        accepted += 1
    return accepted, refused


def test_cute_dsl(rng=None, cases=CASES):
    rng = rng or random.Random(SEED + 2)
    layouts = []
    for k in range(cases):
        r = rng.randrange(1, 4)
        shape = [rng.choice([1, 2, 3, 4, 8]) for _ in range(r)]
        stride = [rng.choice([0, 1, 2, 3, 8, 16, -1]) for _ in range(r)]
        if rng.random() < 0.3 and r > 1:
            text = f"(({shape[0]},{shape[1]}),{','.join(map(str, shape[2:])) or 1}):(({stride[0]},{stride[1]}),{','.join(map(str, stride[2:])) or 0})"
        else:
            text = f"({','.join(map(str, shape))}):({','.join(map(str, stride))})"
        if k % 3 == 0:
            text = f"Sw<{rng.randrange(1, 4)},{rng.randrange(0, 4)},{rng.randrange(3, 6)}> o {rng.choice([0, 0, 8])} o (8,64):(64,1)"
        layouts.append(text)
    codes = batch([("codegen", [t, f"layout_{k}", "--lang", "cute-dsl"]) for k, t in enumerate(layouts)])
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "dsl_run.py")
        with open(path, "w") as f:
            f.write("import cutlass\nimport cutlass.cute as cute\n\n")
            for c in codes:
                assert c[0] == "ok", c
                f.write("\n".join(l for l in c[1].splitlines() if not l.startswith("import")) + "\n\n")
            f.write("@cute.jit\ndef run_all():\n")
            for k in range(len(layouts)):
                f.write(f"    print('L{k}', layout_{k}())\n")
            f.write("\nrun_all()\n")
        out = subprocess.run([sys.executable, path], capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr[-3000:]
    printed = {}
    for line in out.stdout.splitlines():
        if line.startswith("L"):
            k, _, text = line.partition(" ")
            printed[int(k[1:])] = text.replace("S<", "Sw<")
    assert len(printed) == len(layouts), out.stdout
    eq = batch([("equal", [layouts[k], printed[k]]) for k in range(len(layouts))])
    for k, r in enumerate(eq):
        assert r == ("ok", "1"), f"{layouts[k]}: the DSL printed {printed[k]} ({r})"
    return len(layouts)


def cpp_includes():
    """CuTe's headers (nvidia-cutlass), libcu++ (nvidia-cuda-cccl-cu12) and the CUDA runtime's
    declarations (Triton's copy) in the venv, or None where one is missing."""
    import sysconfig
    sp = sysconfig.get_paths()["purelib"]
    dirs = [os.path.join(sp, "cutlass_library", "source", "include"),
            os.path.join(sp, "nvidia", "cuda_cccl", "include"),
            os.path.join(sp, "triton", "backends", "nvidia", "include")]
    return dirs if all(os.path.isdir(d) for d in dirs) else None


def test_cute_cpp(rng=None, cases=CASES):
    """Held-out layouts through `codegen --lang cpp`, compiled host-only with CuTe's headers and
    printed by cute::print: the same function. Returns None where g++ or the headers are absent."""
    import shutil
    incs = cpp_includes()
    cxx = shutil.which("g++")
    if incs is None or cxx is None:
        return None
    rng = rng or random.Random(SEED + 3)
    layouts = []
    for k in range(cases):
        r = rng.randrange(1, 4)
        shape = [rng.choice([1, 2, 3, 4, 8]) for _ in range(r)]
        stride = [rng.choice([0, 1, 2, 3, 8, 16, -1]) for _ in range(r)]
        text = f"({','.join(map(str, shape))}):({','.join(map(str, stride))})"
        if k % 3 == 0:
            text = f"Sw<{rng.randrange(1, 4)},{rng.randrange(0, 4)},{rng.randrange(3, 6)}> o {rng.choice([0, 0, 8])} o ((4,2),64):((128,64),1)"
        layouts.append(text)
    codes = batch([("codegen", [t, f"layout_{k}", "--lang", "cpp"]) for k, t in enumerate(layouts)])
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "cpp_run.cpp")
        with open(src, "w") as f:
            for c in codes:
                assert c[0] == "ok", c
                f.write(c[1] + "\n")
            f.write("#include <cstdio>\nint main() {\n")
            for k in range(len(layouts)):
                f.write(f'  std::printf("L{k} "); cute::print(layout_{k}()); std::printf("\\n");\n')
            f.write("}\n")
        exe = os.path.join(tmp, "cpp_run")
        cc = subprocess.run([cxx, "-std=c++17", "-w", *[f"-I{d}" for d in incs], src, "-o", exe],
                            capture_output=True, text=True)
        assert cc.returncode == 0, cc.stderr[-3000:]
        out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
    printed = {}
    for line in out.splitlines():
        k, _, text = line.partition(" ")
        printed[int(k[1:])] = text.replace(" o _", " o ")
    assert len(printed) == len(layouts), out
    eq = batch([("equal", [layouts[k], printed[k]]) for k in range(len(layouts))])
    for k, r in enumerate(eq):
        assert r == ("ok", "1"), f"{layouts[k]}: CuTe printed {printed[k]} ({r})"
    return len(layouts)


def main():
    print(f"rosetta oracle tests: ROSETTA_SEED={SEED} ROSETTA_CASES={CASES} cute={CUTE}")
    n = 0 if os.environ.get("ROSETTA_SKIP_GLUON") else test_gluon_to_cute()
    print(f"gluon_to_cute: {n} Gluon layouts equal Triton's to_linear_layout at every point, and come back through cute_to_gluon")
    a, r = test_cute_to_gluon()
    print(f"cute_to_gluon: {a} answered and equal in Triton, {r} refused (exactly those with no linear layout)")
    n = test_cute_dsl()
    print(f"codegen --lang cute-dsl: {n} layouts built in the CuTe DSL print the same function")
    n = test_cute_cpp()
    if n is None:
        print("codegen --lang cpp: SKIPPED (g++ or the headers of nvidia-cutlass / nvidia-cuda-cccl-cu12 missing)")
    else:
        print(f"codegen --lang cpp: {n} layouts compiled with CuTe's headers print the same function")


if __name__ == "__main__":
    main()
