from triton._C.libtriton import ir, gluon_ir
import triton.experimental.gluon.language as gl
ctx = ir.context(); ir.load_dialects(ctx); b = gluon_ir.GluonOpBuilder(ctx, "cuda:90")
def ll(L, shape):
    return b.to_linear_layout(L._to_ir(b), shape)
P = gl.BlockedLayout([2,2],[4,8],[2,2],[1,0])
print("parent 8x?", ll(P, [16, 32]))
print("slice0 32", ll(gl.SliceLayout(0, P), [32]))
print("slice1 16", ll(gl.SliceLayout(1, P), [16]))
print("slice1 4", ll(gl.SliceLayout(1, P), [4]))
print("slice1 64", ll(gl.SliceLayout(1, P), [64]))
M = gl.NVMMADistributedLayout([2,0],[2,2],[16,8])
print("mma slice0 64", ll(gl.SliceLayout(0, M), [64]))
print("mma slice1 64", ll(gl.SliceLayout(1, M), [64]))
