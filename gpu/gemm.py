#!/usr/bin/env python3
"""Checks gpu/gemm.cu's kernel (build/libgemm.so) and gpu/wgmma.cu's (build/libwgmma.so, where
built) against torch.matmul and times them against cuBLAS (torch.matmul) at M = N = K = 8192,
bf16 in, f32 accumulate, bf16 out.

    python3 gpu/gemm.py [--profile]     (--profile: one launch of each, for ncu)
"""
import ctypes
import os
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
lib = ctypes.CDLL(os.path.join(here, "build", "libgemm.so"))
lib.gemm_launch.argtypes = [ctypes.c_void_p] * 4 + [ctypes.c_int]
lib.gemm_launch.restype = ctypes.c_int
lib.gemm_size.restype = ctypes.c_longlong
n = lib.gemm_size()
wpath = os.path.join(here, "build", "libwgmma.so")
wlib = ctypes.CDLL(wpath) if os.path.exists(wpath) else None
if wlib is not None:
    wlib.wgmma_launch.argtypes = [ctypes.c_void_p] * 4 + [ctypes.c_int]
    wlib.wgmma_launch.restype = ctypes.c_int
    wlib.wgmma_probe.argtypes = [ctypes.c_void_p] * 4
    wlib.wgmma_probe.restype = ctypes.c_int
    assert wlib.wgmma_size() == n
torch.backends.cuda.matmul.allow_tf32 = False
dev = torch.device("cuda")


def launcher(variant, which=lib, fn="gemm_launch"):
    def ours(a, b, c):
        e = getattr(which, fn)(a.data_ptr(), b.data_ptr(), c.data_ptr(), torch.cuda.current_stream().cuda_stream,
                               variant)
        if e != 0:
            raise RuntimeError(f"{fn}: error {e}")
    return ours


ours1, ours2, ours3 = launcher(1), launcher(2), launcher(3)
KERNELS = [("gemm", ours1), ("gemm2", ours2), ("gemm3", ours3)]
if wlib is not None:
    KERNELS += [(f"wgmma{v if v > 1 else ''}", launcher(v, wlib, "wgmma_launch")) for v in (1, 2, 3)]


def theirs(a, b, c):
    torch.matmul(a, b.t(), out=c)


sets = []
for s in range(2):  # two input sets used in turn
    g = torch.Generator(device=dev).manual_seed(1 + s)
    a = torch.randn(n, n, device=dev, generator=g).to(torch.bfloat16)
    b = torch.randn(n, n, device=dev, generator=g).to(torch.bfloat16)
    sets.append((a, b, torch.empty(n, n, device=dev, dtype=torch.bfloat16)))

if "--profile" in sys.argv:
    a, b, c = sets[0]
    for _, f in KERNELS:
        f(a, b, c)
    torch.cuda.synchronize()
    print("profile run done")
    sys.exit(0)

# Check: poison, run, compare with an f32 product of the same bf16 inputs.
ok = True
if wlib is not None:
    # TMA's 128-byte-swizzled tiles read back through the library's shared-memory layouts.
    a, b, _ = sets[0]
    bad = torch.zeros(4, dtype=torch.int32, device=dev)
    e = wlib.wgmma_probe(a.data_ptr(), b.data_ptr(), bad.data_ptr(), torch.cuda.current_stream().cuda_stream)
    torch.cuda.synchronize()
    bad = bad.tolist() if e == 0 else [-1] * 4
    good = e == 0 and bad[0] == 0 and bad[2] == 0 and bad[1] > 0 and bad[3] > 0
    ok &= good
    print(f"CHECK sw128 {'ok' if good else 'FAIL'} (TMA tiles read through sw128_a/sw128_b: {bad[0]} and {bad[2]} "
          f"mismatches of 8192 and 16384; through row-major tiles: {bad[1]} and {bad[3]}; error {e})")
for name, f in KERNELS:
    for a, b, c in sets:
        c.fill_(float("nan"))
        f(a, b, c)
        torch.cuda.synchronize()
        ref = a.float() @ b.float().t()
        err = ((c.float() - ref).norm() / ref.norm()).item()
        cub = torch.empty_like(c)
        theirs(a, b, cub)
        err_cublas = ((cub.float() - ref).norm() / ref.norm()).item()
        good = bool(torch.isfinite(c).all().item()) and err < 1e-2
        ok &= good
        print(f"CHECK {name} {'ok' if good else 'FAIL'} (relative error {err:.2e}; cuBLAS {err_cublas:.2e})")
        del ref, cub


def median_ms(f, reps=20):
    start = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    stop = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for i in range(3):
        f(*sets[i % 2])
    torch.cuda.synchronize()
    for i in range(reps):
        start[i].record()
        f(*sets[i % 2])
        stop[i].record()
    torch.cuda.synchronize()
    ms = sorted(s.elapsed_time(e) for s, e in zip(start, stop))
    return ms[len(ms) // 2]


flops = 2.0 * n * n * n
for name, f in [("cublas", theirs)] + KERNELS + [("cublas#2", theirs)] + [(k + "#2", f) for k, f in KERNELS]:
    ms = median_ms(f)
    print(f"RESULT {name:<14} flops={flops:.0f} ms={ms:.4f} TFLOPs={flops / ms / 1e9:.1f}")
sys.exit(0 if ok else 1)
