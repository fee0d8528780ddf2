#!/usr/bin/env python3
"""The GPU table: gpu/run.sh's timings and checks (run.log), Nsight Compute's shared-memory
counters (ncu.csv) and the library's predictions (gen/predict.txt, gen/gemm_predict.txt), side by
side, as Markdown. The measurement compared with the prediction is ncu's SASS-level count (per
instruction, from its lanes' addresses: smsp__sass_*); the L1's hardware counters (l1tex__*), which
also count the stalls other traffic causes in the data banks, are shown beside it.

    python3 gpu/report.py OUTDIR
"""
import csv
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "out")


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


log = read(os.path.join(out, "run.log"))
results = {}
for m in re.finditer(r"^RESULT (\S+)\s+bytes=(\S+) ms=(\S+) GBps=(\S+)", log, re.M):
    results[m.group(1)] = (float(m.group(2)), float(m.group(3)), float(m.group(4)))
checks = dict(re.findall(r"^CHECK (\S+)\s+(\S+)", log, re.M))
device = re.search(r"^DEVICE (.*)$", log, re.M)

# Predictions per tile, times the tiles.
pred = {}
for line in read(os.path.join(here, "gen", "predict.txt")).splitlines():
    name, rest = line.split(" ", 1)
    kv = dict(re.findall(r"(\w+)=(\S+)", rest.split(" layout=")[0]))
    tiles = int(kv["tiles"])
    pred[name] = {
        "layout": rest.split(" layout=", 1)[1],
        "st": int(kv["write_conflicts"]) * tiles,
        "ld": int(kv["read_conflicts"]) * tiles,
        "st_wf": int(kv["write_wavefronts"]) * tiles,
        "ld_wf": int(kv["read_wavefronts"]) * tiles,
        "st_req": int(kv["write_requests"]) * tiles,
        "ld_req": int(kv["read_requests"]) * tiles,
        "vec": (int(kv["write_vector_bytes"]), int(kv["read_vector_bytes"])),
    }
pred["copy"] = {"layout": "(none)", "st": 0, "ld": 0, "st_wf": 0, "ld_wf": 0, "st_req": 0,
                "ld_req": 0, "vec": (0, 0)}

# ncu: one row per (kernel, metric).
METRICS = {
    # L1 hardware counters.
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": "hw_st",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": "hw_ld",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum": "hw_st_wf",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "hw_ld_wf",
    # SASS-level, per instruction from its addresses.
    "smsp__sass_inst_executed_op_shared_st.sum": "s_st_req",
    "smsp__sass_inst_executed_op_shared_ld.sum": "s_ld_req",
    "smsp__sass_data_bytes_mem_shared_op_st.sum": "s_st_bytes",
    "smsp__sass_data_bytes_mem_shared_op_ld.sum": "s_ld_bytes",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum": "s_st_wf",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "s_ld_wf",
    "smsp__sass_inst_executed_op_ldsm.sum": "s_ldsm_req",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum": "s_ldsm_wf",
    "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum": "s_ldsm",
    "smsp__sass_inst_executed_op_ldgsts.sum": "s_ldgsts_req",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum": "s_ldgsts_wf",
    "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum": "s_ldgsts",
    "smsp__sass_inst_executed_op_shared_gmma.sum": "s_gmma_req",
    "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum": "s_all_wf",
}
meas = {}
rows = [l for l in read(os.path.join(out, "ncu.csv")).splitlines() if l.startswith('"')]
for r in csv.DictReader(rows):
    k = r.get("Kernel Name", "")
    km = re.search(r"(transpose|probe)_kernel<(\w+), (true|false|0|1)>", k)
    if "copy_kernel" in k:
        key = "copy"
    elif "wgmma_kernel" in k:
        key = "wgmma2" if "wgmma_kernel<16>" in k else ("wgmma3" if "wgmma_kernel<4>" in k else "wgmma")
    elif "gemm_kernel" in k:
        key = "gemm3" if "gemm_kernel<2, 8>" in k else ("gemm2" if "gemm_kernel<2, 1>" in k else "gemm")
    elif km:
        one = km.group(3) in ("true", "1")
        if km.group(1) == "probe":
            key = ("probe1_" if one else "probe_") + km.group(2)
        else:
            key = km.group(2) + ("_cg" if one else "")
    else:
        continue
    v = r.get("Metric Value", "").replace(",", "")
    try:
        val = int(float(v))
    except ValueError:
        continue
    name = r.get("Metric Name", "")
    short = METRICS.get(name)
    if short:
        meas.setdefault(key, {})[short] = val

# The SASS-level conflicts of LDS/STS: wavefronts less the ideal, one wavefront per 128 bytes
# (every instruction here moves whole 128-byte wavefronts: 32 lanes x 4 or 16 bytes).
for mm in meas.values():
    for side in ("st", "ld"):
        if f"s_{side}_wf" in mm and f"s_{side}_bytes" in mm:
            mm[f"s_{side}"] = mm[f"s_{side}_wf"] - mm[f"s_{side}_bytes"] // 128

# SASS: the shared and global access widths of each kernel.
sass = {}
cur = None
for line in read(os.path.join(out, "sass.txt")).splitlines():
    f = re.search(r"Function : (\S+)", line)
    if f:
        fn = f.group(1)
        vm = re.search(r"kernelI(\d+)", fn)
        if "wgmma_kernel" in fn:
            cur = "wgmma2" if "Li16E" in fn else ("wgmma3" if "Li4E" in fn else "wgmma")
        elif "copy_kernel" in fn or "gemm_kernel" in fn or not vm:
            cur = "copy" if "copy_kernel" in fn else (("gemm3" if "Li8E" in fn else "gemm2" if "Li2E" in fn else "gemm") if "gemm_kernel" in fn else fn)
        else:
            var = fn[vm.end():vm.end() + int(vm.group(1))]
            one = "Lb1E" in fn or "Li1E" in fn
            if "probe_kernel" in fn:
                cur = ("probe1_" if one else "probe_") + var
            else:
                cur = var + ("_cg" if one else "")
        sass[cur] = {}
        continue
    if cur is None or "@!PT" in line:  # predicated never-true padding, never executed
        continue
    for op in re.findall(r"\b((?:LDS|STS|LDG|STG|HMMA|HGMMA|UTMALDG|LDGSTS)[\w.]*)", line):
        sass[cur][op] = sass[cur].get(op, 0) + 1


def fmt_sass(k):
    d = sass.get(k, {})
    return ", ".join(f"{n} {o}" for o, n in sorted(d.items())) or "?"


def num(v):
    return format(v, ",") if isinstance(v, int) else "?"


def pair(a, b):
    return f"{num(a)} / {num(b)}"


memcpy = results.get("memcpy", (0, 0, 0))[2]
copy = results.get("copy", (0, 0, 0))[2]
print(f"GPU: {device.group(1) if device else '?'}\n")
print(read(os.path.join(out, "device.txt")).strip().replace("\n", "  \n") + "\n")
print("| kernel | shared-memory tile | check | bytes moved | median ms | GB/s | of memcpy | of copy kernel "
      "| st conflicts pred / SASS | ld conflicts pred / SASS | st wavefronts pred / SASS | ld wavefronts pred / SASS "
      "| st / ld instr. pred / SASS | match | L1 hw st / ld conflicts | L1 hw st / ld wavefronts |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
ok_all = True
ROWS = [("memcpy", "cudaMemcpy D2D"), ("copy", "copy (TV partition)")]
for suffix, what in (("", "transpose"), ("_cg", "transpose, L2-only loads"),
                     ("probe_", "shared memory alone, 8 blocks/SM"), ("probe1_", "shared memory alone, 1 block/SM")):
    for v, tile in (("rm", "64x64 row-major"), ("pad", "64x64 padded"), ("srch", "64x64 searched"),
                    ("rm32", "32x32 row-major"), ("pad32", "32x32 padded"), ("srch32", "32x32 searched")):
        ROWS.append(((suffix + v) if suffix.startswith("probe") else (v + suffix), f"{what}, {tile} tile"))
for key, label in ROWS:
    rk = key if key in ("memcpy", "copy") else f"transpose_{key}"
    b, ms, gbs = results.get(rk, (0, 0, 0))
    p = pred.get(re.sub(r"^probe1?_|_cg$", "", key))
    mm = meas.get(key, {})
    cells = []
    match = ""
    if p is not None:
        for a in ("st", "ld", "st_wf", "ld_wf"):
            cells.append(pair(p[a], mm.get(f"s_{a}")))
        cells.append(f"{pair(p['st_req'], mm.get('s_st_req'))}; {pair(p['ld_req'], mm.get('s_ld_req'))}")
        same = all(mm.get(f"s_{a}") == p[a] for a in ("st", "ld", "st_wf", "ld_wf", "st_req", "ld_req"))
        ok_all &= same
        match = "yes" if same else "NO"
        hw = [f"{pair(mm.get('hw_st'), mm.get('hw_ld'))}", f"{pair(mm.get('hw_st_wf'), mm.get('hw_ld_wf'))}"]
    else:
        cells = ["", "", "", "", ""]
        hw = ["", ""]
    chk = checks.get(key, "")
    tile = "" if key in ("memcpy", "copy") else f"`{p['layout']}`"
    rate = (f"{b:,.0f} | {ms:.3f} | {gbs:,.0f} | {gbs / memcpy:.1%} | {gbs / copy:.1%}" if gbs
            else "(not timed) | | | |")
    print(f"| {label} | {tile} | {chk or ''} | {rate} | " + " | ".join(cells) + f" | {match} | " + " | ".join(hw) + " |")
print()
for key, _ in ROWS[1:]:
    print(f"- SASS of {key}: {fmt_sass(key)}")
spread = [(k, results[k][2], results.get(k + "#2", (0, 0, 0))[2]) for k in ("memcpy", "copy", "transpose_srch")
          if k in results]
print("- repeat timings (GB/s): " + "; ".join(f"{k} {a:,.0f} then {b:,.0f}" for k, a, b in spread))
srch, srch32 = (results.get(k, (0, 0, 0))[2] for k in ("transpose_srch", "transpose_srch32"))
zero = all(meas.get(k, {}).get(f"s_{a}") == 0 for k in ("srch", "srch32", "srch_cg", "srch32_cg") for a in ("st", "ld"))
print(f"- bar: copy {copy / memcpy:.1%} of memcpy (>= 95%); searched transposes "
      f"{srch / memcpy:.1%} (64x64) and {srch32 / memcpy:.1%} (32x32) of memcpy, "
      f"{srch / copy:.1%} and {srch32 / copy:.1%} of the copy kernel (>= 90%); searched tiles' measured "
      f"conflicts 0: {'yes' if zero else 'NO'}; every kernel's measured conflicts, wavefronts and "
      f"instructions = the library's prediction: {'yes' if ok_all and meas else 'NO'}")
print("- measured (SASS): ncu's per-instruction counters, from each instruction's lane addresses: "
      "`smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{st,ld}` (wavefronts), "
      "`smsp__sass_inst_executed_op_shared_{st,ld}` (instructions); conflicts = wavefronts - ideal, "
      "ideal = `smsp__sass_data_bytes_mem_shared_op_{st,ld}` / 128 (every instruction here moves whole "
      "128-byte wavefronts). This is what the library's bank model computes.")
print("- L1 hw: the L1's data-bank hardware counters `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{st,ld}` "
      "and `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{st,ld}`; they count every wavefront the banks serve "
      "while the kernel runs, so where other accesses run beside the tile's (global loads and stores in the "
      "transposes, other blocks' shared stores at 8 blocks/SM) they add the stalls that traffic causes "
      "(+2-5% here, varying run to run); with one block per SM and no global traffic (the last six rows) they "
      "equal the prediction too")

# The GEMM.
gres = {m.group(1): (float(m.group(2)), float(m.group(3)), float(m.group(4)))
        for m in re.finditer(r"^RESULT (\S+)\s+flops=(\S+) ms=(\S+) TFLOPs=(\S+)", log, re.M)}
gchecks = dict(re.findall(r"^CHECK ((?:gemm|wgmma)[23]?|sw128) (.*)$", log, re.M))
gcheck = bool(gchecks)
if gres or gcheck:
    gp = {"ld": 0, "ld_wf": 0, "ld_req": 0, "st": 0, "st_wf": 0, "st_req": 0}
    for line in read(os.path.join(here, "gen", "gemm_predict.txt")).splitlines():
        name, rest = line.split(" ", 1)
        kv = dict(re.findall(r"(\w+)=(\S+)", rest.split(" layout=")[0]))
        tiles = int(kv["tiles"])
        gp["ld"] += int(kv["read_conflicts"]) * tiles
        gp["ld_wf"] += int(kv["read_wavefronts"]) * tiles
        gp["ld_req"] += int(kv["read_requests"]) * tiles
        gp["st"] += int(kv["write_conflicts"]) * tiles
        gp["st_wf"] += int(kv["write_wavefronts"]) * tiles
        gp["st_req"] += int(kv["write_requests"]) * tiles
    cub = gres.get("cublas", (0, 0, 0))[2]
    mine_sync = max(gres.get(k, (0, 0, 0))[2] for k in ("gemm", "gemm2", "gemm3"))
    mine = max(gres.get(k, (0, 0, 0))[2] for k in ("gemm", "gemm2", "gemm3", "wgmma", "wgmma2", "wgmma3"))
    print()
    print("| GEMM 8192^3 bf16 -> f32 acc -> bf16 | check | median ms | TFLOP/s | of cuBLAS "
          "| ldmatrix conflicts pred / SASS | ldmatrix wavefronts pred / SASS | ldmatrix instr. pred / SASS "
          "| cp.async conflicts pred / SASS | cp.async instr. pred / SASS | match | cp.async wavefronts pred / SASS "
          "| L1 hw ld conflicts / wavefronts |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    gemm_ok = True
    for key, label in (("cublas", "cuBLAS (torch.matmul)"),
                       ("gemm", "ours: ldmatrix + mma.sync m16n8k16, emitted indices, 1 block/SM"),
                       ("gemm2", "same, 2 blocks/SM (<= 128 registers)"),
                       ("gemm3", "same, 2 blocks/SM, blocks in groups of 8 row-blocks"),
                       ("wgmma", "ours: TMA + wgmma m64n256k16, 128x256 tiles, library layouts, groups of 8 row-blocks"),
                       ("wgmma2", "same, groups of 16 row-blocks"),
                       ("wgmma3", "same, groups of 4 row-blocks")):
        f, ms, tf = gres.get(key, (0, 0, 0))
        gm = meas.get(key, {})
        cells = [""] * 8
        if key.startswith("wgmma"):
            lsu = [gm.get(k) for k in ("s_ld_req", "s_st_req", "s_ldsm_req", "s_ldgsts_req")]
            cells = [f"none: TMA + wgmma (SASS LDS+LDSM / STS+LDGSTS instr.: "
                     f"{num((lsu[0] or 0) + (lsu[2] or 0)) if None not in lsu else '?'} / "
                     f"{num((lsu[1] or 0) + (lsu[3] or 0)) if None not in lsu else '?'})", "", "", "", "", "", "",
                     f"HGMMA's own shared reads: {num(gm.get('s_gmma_req'))} instr., {num(gm.get('s_all_wf'))} wavefronts"]
        elif key != "cublas":
            same = (gm.get("s_ldsm") == gp["ld"] and gm.get("s_ldsm_wf") == gp["ld_wf"]
                    and gm.get("s_ldsm_req") == gp["ld_req"] and gm.get("s_ldgsts") == gp["st"]
                    and gm.get("s_ldgsts_req") == gp["st_req"] and not gm.get("s_ld_req") and not gm.get("s_st_req"))
            gemm_ok &= same
            cells = [pair(gp["ld"], gm.get("s_ldsm")), pair(gp["ld_wf"], gm.get("s_ldsm_wf")),
                     pair(gp["ld_req"], gm.get("s_ldsm_req")), pair(gp["st"], gm.get("s_ldgsts")),
                     pair(gp["st_req"], gm.get("s_ldgsts_req")), "yes" if same else "NO",
                     pair(gp["st_wf"], gm.get("s_ldgsts_wf")), pair(gm.get("hw_ld"), gm.get("hw_ld_wf"))]
        chk = gchecks.get(key, "")
        print(f"| {label} | {chk} | {ms:.3f} | {tf:,.1f} | {tf / cub if cub else 0:.1%} | " + " | ".join(cells) + " |")
    print(f"\n- SASS of gemm: {fmt_sass('gemm')}; gemm2: {fmt_sass('gemm2')}; gemm3: {fmt_sass('gemm3')}")
    print(f"- SASS of wgmma: {fmt_sass('wgmma')}; wgmma2: {fmt_sass('wgmma2')}; wgmma3: {fmt_sass('wgmma3')}")
    if "sw128" in gchecks:
        print(f"- TMA's 128-byte swizzle against the library's shared-memory tiles: {gchecks['sw128']}")
    print("- prediction: `cute smem-search` per 128 x 128 x 32 step (1,048,576 steps) for A and B: the reads are "
          "ldmatrix.x4 (A, addresses from all 32 lanes: 256 wavefronts a step) and ldmatrix.x2 (B, addresses from "
          "lanes 0-15, `--read-lanes 16`: 128), the writes cp.async 16-byte copies (LDGSTS.128); measured (SASS): "
          "`smsp__sass_inst_executed_op_{ldsm,ldgsts}`, `smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_"
          "{ldsm,ldgsts}` and `smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_{ldsm,ldgsts}`; match: "
          "conflicts, ldmatrix wavefronts and instructions, and no LDS/STS")
    print("- cp.async wavefronts: ncu counts 8 per LDGSTS.128 instruction (a 512-byte warp copy) with 0 conflicts, "
          "where the model prices it as STS.128's 4 (phases of 8 lanes x 16 bytes); the model does not describe "
          "LDGSTS's wavefronts, only its conflicts (0 = 0)")
    print(f"- GEMM bar: predicted = measured (SASS) for every mma.sync GEMM: {'yes' if gemm_ok else 'NO'}")
    print(f"- repeat timings (TFLOP/s): cuBLAS {cub:,.1f} then {gres.get('cublas#2', (0, 0, 0))[2]:,.1f}; "
          f"ours {gres.get('gemm', (0, 0, 0))[2]:,.1f} then {gres.get('gemm#2', (0, 0, 0))[2]:,.1f} (1 block/SM), "
          f"{gres.get('gemm2', (0, 0, 0))[2]:,.1f} then {gres.get('gemm2#2', (0, 0, 0))[2]:,.1f} (2 blocks/SM), "
          f"{gres.get('gemm3', (0, 0, 0))[2]:,.1f} then {gres.get('gemm3#2', (0, 0, 0))[2]:,.1f} (grouped); "
          f"wgmma {gres.get('wgmma', (0, 0, 0))[2]:,.1f} then {gres.get('wgmma#2', (0, 0, 0))[2]:,.1f} (groups of 8), "
          f"{gres.get('wgmma2', (0, 0, 0))[2]:,.1f} then {gres.get('wgmma2#2', (0, 0, 0))[2]:,.1f} (16), "
          f"{gres.get('wgmma3', (0, 0, 0))[2]:,.1f} then {gres.get('wgmma3#2', (0, 0, 0))[2]:,.1f} (4)")
    print(f"- bar >= 50% of cuBLAS: {'met' if cub and mine / cub >= 0.5 else 'not met'} "
          f"(best {mine:,.1f} TFLOP/s = {mine / cub if cub else 0:.1%}; mma.sync alone {mine_sync / cub if cub else 0:.1%})")
