from triton._C.libtriton import ir, gluon_ir
import triton.experimental.gluon.language as gl
ctx = ir.context(); ir.load_dialects(ctx); b = gluon_ir.GluonOpBuilder(ctx, "cuda:90")
def ll(L, shape):
    try: return b.to_linear_layout(L._to_ir(b), shape)
    except Exception as e: return "ERR %s" % e
print("blocked repeat", ll(gl.BlockedLayout([1,1],[8,4],[1,1],[1,0]), [16,8]))
print("blocked repeat o01", ll(gl.BlockedLayout([1,1],[8,4],[1,1],[0,1]), [16,8]))
print("blocked small", ll(gl.BlockedLayout([2,2],[8,4],[2,2],[1,0]), [4,4]))
print("mma2 w22", ll(gl.NVMMADistributedLayout([2,0],[2,2],[16,8]), [64,64]))
print("mma2 small", ll(gl.NVMMADistributedLayout([2,0],[2,2],[16,8]), [16,8]))
print("mma3 w81", ll(gl.NVMMADistributedLayout([3,0],[8,1],[16,32,16]), [128,64]))
print("mma3 w42", ll(gl.NVMMADistributedLayout([3,0],[4,2],[16,32,16]), [128,128]))
for kw in [1,2,4,8]:
  print("dotA kw",kw, ll(gl.DotOperandLayout(0, gl.NVMMADistributedLayout([2,0],[2,2],[16,8]), kw), [64,64]))
  print("dotB kw",kw, ll(gl.DotOperandLayout(1, gl.NVMMADistributedLayout([2,0],[2,2],[16,8]), kw), [64,64]))
print("dotA v3", ll(gl.DotOperandLayout(0, gl.NVMMADistributedLayout([3,0],[4,1],[16,64,16]), 2), [64,64]))
print("dotB v3", ll(gl.DotOperandLayout(1, gl.NVMMADistributedLayout([3,0],[4,1],[16,64,16]), 2), [64,64]))
print("dotA blocked", ll(gl.DotOperandLayout(0, gl.BlockedLayout([1,1],[8,4],[1,1],[1,0]), 0), [16,16]))
for sw in [0,32,64,128]:
  print("nvmma", sw, ll(gl.NVMMASharedLayout(sw,16,2), [16,128]))
print("nvmma T", ll(gl.NVMMASharedLayout(128,16,2,True), [64,64]))
print("nvmma 3", ll(gl.NVMMASharedLayout(64,32,3), [2,16,16]))

print("nvmma fp4", ll(gl.NVMMASharedLayout(128,8,2,False,True), [16,128]))
print("swz 3", ll(gl.SwizzledSharedLayout(2,1,4,[2,0,1]), [4,8,16]))
print("swz wide", ll(gl.SwizzledSharedLayout(8,1,8,[1,0]), [16,16]))

print("slice", ll(gl.SliceLayout(0, gl.BlockedLayout([1,1],[8,4],[1,1],[1,0])), [16]))
print("dll", ll(gl.DistributedLinearLayout([[0,1]],[[1,0],[2,0],[4,0],[8,0],[0,2]],[],[],[16,4]), [16,4]))
print("dll other shape", ll(gl.DistributedLinearLayout([[0,1]],[[1,0],[2,0],[4,0],[8,0],[0,2]],[],[],[16,4]), [16,8]))
print("sll", ll(gl.SharedLinearLayout([[0,1],[0,2],[1,0]]), [2,4]))

print("blocked reg exceed", ll(gl.BlockedLayout([8,2],[4,8],[2,1],[1,0]), [4,8]))
print("mma3 w82", ll(gl.NVMMADistributedLayout([3,0],[8,2],[16,32,16]), [128,64]))
print("nvmma 3 wide", ll(gl.NVMMASharedLayout(64,32,3), [2,16,32]))
print("nvmma wide 32bit", ll(gl.NVMMASharedLayout(128,32,2), [8,64]))
print("dotA blocked w", ll(gl.DotOperandLayout(0, gl.BlockedLayout([2,1],[4,8],[2,2],[1,0]), 0), [32,16]))
print("dotB blocked w", ll(gl.DotOperandLayout(1, gl.BlockedLayout([2,1],[4,8],[2,2],[1,0]), 0), [16,32]))
print("dotB blocked o", ll(gl.DotOperandLayout(1, gl.BlockedLayout([1,2],[4,8],[2,2],[0,1]), 0), [16,32]))
