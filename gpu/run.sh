#!/usr/bin/env bash
# The GPU suite in one command, on any machine with CUDA (nvcc) and an NVIDIA GPU:
#   bash gpu/run.sh [OUTDIR]
# Regenerates gpu/gen/ when a `cute` binary is at hand (CUTE=path, or cute on the PATH; else the
# committed headers are used), builds gpu/layouts.cu for the local GPU, checks and times every
# kernel, counts shared-memory bank conflicts with Nsight Compute (ncu) and writes OUTDIR/table.md
# (default gpu/out, or $OUT when set): measured rates and conflicts beside the library's prediction.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${OUT:-$here/out}}
mkdir -p "$out"
cd "$here"
CUTE=${CUTE:-$(command -v cute || true)}
if [[ -n $CUTE ]]; then
  CUTE=$CUTE bash gen.sh || { echo "run.sh: gen.sh failed" >&2; exit 1; }
else
  echo "run.sh: no cute binary; using the committed gpu/gen/" >&2
fi
{
  nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm,clocks.max.mem --format=csv
  nvcc --version | tail -2
} 2>&1 | tee "$out/device.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
arch=${arch:-90}
set -o pipefail
mkdir -p build
nvcc -O3 -std=c++17 -lineinfo -gencode=arch=compute_${arch},code=sm_${arch} -Xptxas -v \
  -o build/layouts layouts.cu 2>&1 | tee "$out/build.log" || { echo "run.sh: build failed" >&2; exit 1; }
cuobjdump -sass build/layouts >"$out/sass.txt" 2>&1 || true
echo "run.sh: ${SECONDS}s: built; checking and timing" >&2
build/layouts 2>&1 | tee "$out/run.log"
status=$?
echo "run.sh: ${SECONDS}s: profiling with ncu" >&2
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
# Two kinds of shared-memory counters, collected together:
#  - l1tex__*: the L1's data-bank hardware counters. They count every wavefront the banks serve
#    while the kernel runs, so where other traffic shares the L1 (global loads, other blocks'
#    accesses) they include the stalls it causes.
#  - smsp__sass_*: counted per SASS instruction from its lanes' addresses (the source view's
#    "L1 Wavefronts Shared"; the ideal is the bytes over 128): what each instruction needs, the
#    quantity the library's bank model predicts (gpu/report.py compares them).
m=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
s=smsp__sass_
m=$m,${s}inst_executed_op_shared_st.sum,${s}inst_executed_op_shared_ld.sum
m=$m,${s}data_bytes_mem_shared_op_st.sum,${s}data_bytes_mem_shared_op_ld.sum
m=$m,${s}l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,${s}l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
m=$m,${s}inst_executed_op_ldsm.sum,${s}l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum
m=$m,${s}l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum
m=$m,${s}inst_executed_op_ldgsts.sum,${s}l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum
m=$m,${s}l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum
m=$m,${s}inst_executed_op_shared_gmma.sum,${s}l1tex_pipe_lsu_wavefronts_mem_shared.sum
NCUFLAGS=(--clock-control none --csv --metrics "$m")
if [[ -n $NCU ]]; then
  "$NCU" "${NCUFLAGS[@]}" build/layouts --profile >"$out/ncu.csv" 2>"$out/ncu.err" || cat "$out/ncu.err" >&2
else
  echo "run.sh: ncu not found; no measured bank conflicts" >&2
fi
# The GEMMs (gemm.cu, wgmma.cu through gemm.py: torch.matmul checks them, cuBLAS is the rate to
# compare with).
nvcc -O3 -std=c++17 -lineinfo -gencode=arch=compute_${arch},code=sm_${arch} -Xptxas -v -Xcompiler -fPIC \
  -shared -o build/libgemm.so gemm.cu 2>&1 | tee -a "$out/build.log" || echo "run.sh: gemm build failed" >&2
# The wgmma GEMM (gpu/wgmma.cu) needs Hopper's sm_90a; gemm.py runs it where it was built.
rm -f build/libwgmma.so
if [[ $arch == 90 ]]; then
  nvcc -O3 -std=c++17 -lineinfo -gencode=arch=compute_90a,code=sm_90a -Xptxas -v -Xcompiler -fPIC \
    -shared -o build/libwgmma.so wgmma.cu 2>&1 | tee -a "$out/build.log" || echo "run.sh: wgmma build failed" >&2
  [[ -f build/libwgmma.so ]] && { cuobjdump -sass build/libwgmma.so >>"$out/sass.txt" 2>&1 || true; }
else
  echo "run.sh: not a Hopper GPU (sm_$arch): no wgmma GEMM" >&2
fi
echo "run.sh: ${SECONDS}s: GEMMs built" >&2
if [[ -f build/libgemm.so ]]; then
  cuobjdump -sass build/libgemm.so >>"$out/sass.txt" 2>&1 || true
  python3 gemm.py 2>&1 | tee -a "$out/run.log" || status=1
  echo "run.sh: ${SECONDS}s: profiling the GEMMs with ncu" >&2
  if [[ -n $NCU ]]; then
    "$NCU" "${NCUFLAGS[@]}" -k 'regex:gemm_kernel|wgmma_kernel' python3 gemm.py --profile 2>>"$out/ncu.err" |
      grep '^"' >>"$out/ncu.csv" || true
  fi
fi
echo "run.sh: ${SECONDS}s: done" >&2
python3 report.py "$out" | tee "$out/table.md"
exit $status
