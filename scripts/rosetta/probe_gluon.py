from triton._C.libtriton import ir, gluon_ir
import triton.experimental.gluon.language as gl
ctx = ir.context(); ir.load_dialects(ctx); b = gluon_ir.GluonOpBuilder(ctx, "cuda:90")
def ll(L, shape):
    return b.to_linear_layout(L._to_ir(b), shape)
r = ll(gl.BlockedLayout([1,4],[8,4],[4,1],[1,0]), [32,16])
print(type(r), r)
print(ll(gl.BlockedLayout([1,4],[8,4],[4,1],[1,0]), [8,64]))
print(ll(gl.BlockedLayout([2,2],[4,8],[2,2],[0,1]), [128,128]))
print(ll(gl.NVMMASharedLayout(128,16,2), [64,64]))
print(ll(gl.SwizzledSharedLayout(2,2,4,[1,0]), [16,32]))
print(ll(gl.NVMMADistributedLayout([2,0],[4,1],[16,8]), [64,64]))
print(ll(gl.NVMMADistributedLayout([3,0],[4,1],[16,64,16]), [64,64]))
print(ll(gl.DotOperandLayout(0, gl.NVMMADistributedLayout([2,0],[4,1],[16,8]), 2), [64,32]))
print(ll(gl.PaddedSharedLayout([[32,4]], [[0,1],[0,2],[0,4],[0,8],[0,16],[1,0],[2,0]], [], [4,32]), [4,32]))
print(dir(r))
