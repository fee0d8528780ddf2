#!/usr/bin/env python3
"""Checks gpu/gemm.cu's kernel (build/libgemm.so) against torch.matmul and times it against
cuBLAS (torch.matmul) at M = N = K = 8192, bf16 in, f32 accumulate, bf16 out.

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
torch.backends.cuda.matmul.allow_tf32 = False
dev = torch.device("cuda")


def launcher(variant):
    def ours(a, b, c):
        e = lib.gemm_launch(a.data_ptr(), b.data_ptr(), c.data_ptr(), torch.cuda.current_stream().cuda_stream,
                            variant)
        if e != 0:
            raise RuntimeError(f"gemm_launch: CUDA error {e}")
    return ours


ours1, ours2, ours3 = launcher(1), launcher(2), launcher(3)


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
    ours1(a, b, c)
    ours2(a, b, c)
    ours3(a, b, c)
    torch.cuda.synchronize()
    print("profile run done")
    sys.exit(0)

# Check: poison, run, compare with an f32 product of the same bf16 inputs.
ok = True
for name, f in (("gemm", ours1), ("gemm2", ours2), ("gemm3", ours3)):
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
for name, f in (("cublas", theirs), ("gemm", ours1), ("gemm2", ours2), ("gemm3", ours3), ("cublas#2", theirs),
                ("gemm#2", ours1), ("gemm2#2", ours2), ("gemm3#2", ours3)):
    ms = median_ms(f)
    print(f"RESULT {name:<14} flops={flops:.0f} ms={ms:.4f} TFLOPs={flops / ms / 1e9:.1f}")
sys.exit(0 if ok else 1)
