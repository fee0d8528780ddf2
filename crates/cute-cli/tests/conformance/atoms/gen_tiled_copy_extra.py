import json
# (atom, type, thr C++, thr text, val C++, val text, order)
P = [
 ("UniversalCopy<uint128_t>","bfloat16_t","Layout<Shape<_8,_16>,Stride<_16,_1>>{}","(8,16):(16,1)","Layout<Shape<_1,_8>>{}","(1,8):(0,1)","right"),
 ("UniversalCopy<uint64_t>","float","Layout<Shape<_16,_16>>{}","(16,16):(1,16)","Layout<Shape<_2,_1>>{}","(2,1):(1,0)","left"),
 ("UniversalCopy<uint32_t>","half_t","Layout<Shape<_32,_4>>{}","(32,4):(1,32)","Layout<Shape<_2,_1>>{}","(2,1):(1,0)","left"),
 ("SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint64_t>","half_t","Layout<Shape<_8,_32>,Stride<_32,_1>>{}","(8,32):(32,1)","Layout<Shape<_1,_4>>{}","(1,4):(0,1)","right"),
 ("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>","float","Layout<Shape<_16,_8>,Stride<_8,_1>>{}","(16,8):(8,1)","Layout<Shape<_1,_4>>{}","(1,4):(0,1)","swizzle"),
 ("SM75_U32x2_LDSM_N","half_t","Layout<Shape<_32,_1>>{}","(32,1):(1,0)","Layout<Shape<_1,_4>>{}","(1,4):(0,1)","right"),
 ("SM75_U32x1_LDSM_N","half_t","Layout<Shape<_32,_1>>{}","(32,1):(1,0)","Layout<Shape<_1,_2>>{}","(1,2):(0,1)","left"),
 ("SM75_U16x4_LDSM_T","half_t","Layout<Shape<_32,_1>>{}","(32,1):(1,0)","Layout<Shape<_4,_1>>{}","(4,1):(1,0)","left"),
 ("SM90_U16x2_STSM_T","half_t","Layout<Shape<_32,_1>>{}","(32,1):(1,0)","Layout<Shape<_2,_1>>{}","(2,1):(1,0)","right"),
 ("SM90_U32x2_STSM_N","bfloat16_t","Layout<Shape<_32,_1>>{}","(32,1):(1,0)","Layout<Shape<_1,_4>>{}","(1,4):(0,1)","swizzle"),
 ("SM75_U32x1_MOVM_T","half_t","Layout<Shape<_32,_1>>{}","(32,1):(1,0)","Layout<Shape<_1,_2>>{}","(1,2):(0,1)","right"),
 ("SM50_Shuffle_U32_2x2Trans_XOR4","float","Layout<Shape<_32,_1>>{}","(32,1):(1,0)","Layout<Shape<_1,_2>>{}","(1,2):(0,1)","left"),
 ("SM100_U8x16_LDSM_T","uint8_t","Layout<Shape<_32,_1>>{}","(32,1):(1,0)","Layout<Shape<_1,_16>>{}","(1,16):(0,1)","right"),
 ("SM100_U8x4_STSM_T","int8_t","Layout<Shape<_32,_1>>{}","(32,1):(1,0)","Layout<Shape<_1,_4>>{}","(1,4):(0,1)","right"),
 ("DefaultCopy","half_t","Layout<Shape<_16,_8>,Stride<_8,_1>>{}","(16,8):(8,1)","Layout<_1>{}","_","right"),
 ("UniversalCopy<uint32_t>","float","Layout<Shape<_8,_4>,Stride<_4,_1>>{}","(8,4):(4,1)","Layout<_1>{}","_","swizzle"),
 ("SM75_U32x4_LDSM_N","half_t","Layout<Shape<_32,_2>>{}","(32,2):(1,32)","Layout<Shape<_1,_8>>{}","(1,8):(0,1)","right"),
 ("UniversalCopy<uint128_t>","half_t","Layout<Shape<_4,_8,_2>,Stride<_1,_4,_32>>{}","(4,8,2):(1,4,32)","Layout<Shape<_8,_1,_1>>{}","(8,1,1):(1,0,0)","left"),
 ("AutoVectorizingCopy","float","Layout<Shape<_4,_8>>{}","(4,8):(1,4)","Layout<Shape<_4,_2>>{}","(4,2):(1,4)","left"),
 ("SM100_LOAD_256bit_CACHE_NOALLOCATION","half_t","Layout<Shape<_8,_8>,Stride<_8,_1>>{}","(8,8):(8,1)","Layout<Shape<_1,_16>>{}","(1,16):(0,1)","right"),
]
MMA = {
 "SM80_16x8x16_F16F16F16F16_TN": "SM80_16x8x16_F16F16F16F16_TN",
}
# (op, atom, type, mma, atom layout C++, text, perm C++, text, order)
M = [
 ("make_tiled_copy_A","SM75_U32x4_LDSM_N","bfloat16_t","SM80_16x8x16_F32BF16BF16F32_TN","Layout<Shape<_2,_2,_1>>{}","(2,2,1):(1,2,0)","Tile<_32,_32,_16>{}","(32,32,16)","right"),
 ("make_tiled_copy_B","SM75_U32x4_LDSM_N","half_t","SM80_16x8x16_F16F16F16F16_TN","Layout<Shape<_2,_2,_1>>{}","(2,2,1):(1,2,0)","Tile<_32,_32,_16>{}","(32,32,16)","right"),
 ("make_tiled_copy_B","SM75_U16x8_LDSM_T","half_t","SM80_16x8x16_F16F16F16F16_TN","Layout<Shape<_2,_2,_1>>{}","(2,2,1):(1,2,0)","Tile<_32,_32,_16>{}","(32,32,16)","left"),
 ("make_tiled_copy_A","UniversalCopy<uint32_t>","tfloat32_t","SM80_16x8x8_F32TF32TF32F32_TN","Layout<Shape<_2,_2,_1>>{}","(2,2,1):(1,2,0)",None,"_","right"),
 ("make_tiled_copy_C","UniversalCopy<uint64_t>","double","SM80_8x8x4_F64F64F64F64_TN","Layout<Shape<_2,_2,_1>>{}","(2,2,1):(1,2,0)",None,"_","left"),
 ("make_tiled_copy_C","SM90_U32x4_STSM_N","half_t","SM90_64x64x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>","Layout<Shape<_2,_1,_1>>{}","(2,1,1):(1,0,0)",None,"_","right"),
 ("make_tiled_copy_C_atom","SM90_U32x2_STSM_N","half_t","SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>",None,"_",None,"_","right"),
 ("make_tiled_copy_C_atom","UniversalCopy<uint32_t>","half_t","SM80_16x8x16_F16F16F16F16_TN","Layout<Shape<_2,_2,_1>>{}","(2,2,1):(1,2,0)","Tile<_32,_32,_16>{}","(32,32,16)","left"),
 ("make_tiled_copy_C_atom","SM90_U16x8_STSM_T","half_t","SM80_16x8x16_F32F16F16F32_TN","Layout<Shape<_2,_2,_1>>{}","(2,2,1):(1,2,0)","Tile<_32,_32,_16>{}","(32,32,16)","right"),
 ("make_tiled_copy_A","SM75_U32x4_LDSM_N","half_t","SM90_64x64x16_F16F16F16_RS<GMMA::Major::K,GMMA::Major::K>",None,"_",None,"_","right"),
 ("make_tiled_copy_A","SM75_U32x4_LDSM_N","half_t","SM80_16x8x16_F16F16F16F16_TN","Layout<Shape<_2,_2,_1>>{}","(2,2,1):(1,2,0)","make_tile(Int<32>{}, Layout<Shape<_8,_2,_2>,Stride<_1,_16,_8>>{}, Int<16>{})","(32,(8,2,2):(1,16,8),16)","right"),
 ("make_tiled_copy_C","UniversalCopy<uint64_t>","int32_t","SM80_16x8x32_S32S8S8S32_TN","Layout<Shape<_2,_2,_1>>{}","(2,2,1):(1,2,0)",None,"_","left"),
 ("make_tiled_copy_B","SM75_U32x4_LDSM_N","int8_t","SM80_16x8x32_S32S8S8S32_TN","Layout<Shape<_2,_2,_1>>{}","(2,2,1):(1,2,0)","Tile<_32,_32,_32>{}","(32,32,32)","swizzle"),
 ("make_tiled_copy_C","SM90_U16x4_STSM_T","half_t","SM80_16x8x16_F16F16F16F16_TN","Layout<Shape<_4,_1,_1>>{}","(4,1,1):(1,0,0)","Tile<_64,_16,_16>{}","(64,16,16)","right"),
]
def tensor_expr(order, shape):
    if order=='left': return f"make_layout({shape})"
    if order=='right': return f"make_layout({shape}, LayoutRight{{}})"
    return f"composition(Swizzle<3,3,3>{{}}, make_layout({shape}, LayoutRight{{}}))"
out=['#include "head.hpp"','int main() {']
for (a,t,tc,tt,vc,vt,o) in P:
    args=json.dumps(json.dumps([a,t,tt,vt]))
    out.append('{ auto tc = make_tiled_copy(Copy_Atom<%s,%s>{}, %s, %s);'%(a,t,tc,vc))
    out.append('  auto sh = transform(product_each(shape(typename decltype(tc)::Tiler_MN{})), [](auto x){ return x * Int<2>{}; });')
    out.append('  plain("make_tiled_copy", %s, "%s", tc, %s, %s); }'%(args,o,tensor_expr(o,'sh'),'true' if o=='swizzle' else 'false'))
for (op,a,t,m,lc,lt,pc,pt,o) in M:
    args=json.dumps(json.dumps([a,t,m,lt,pt]))
    mm = f"make_tiled_mma(MMA_Atom<{m}>{{}}" + (f", {lc}" if lc else "") + (f", {pc}" if pc else "") + ")"
    which = {'make_tiled_copy_A':0,'make_tiled_copy_B':1}.get(op,2)
    out.append('{ auto mma = %s; auto tc = %s(Copy_Atom<%s,%s>{}, mma);'%(mm,op,a,t))
    out.append('  auto sh = transform(product_each(shape(typename decltype(tc)::Tiler_MN{})), [](auto x){ return x * Int<2>{}; });')
    if 'SM90_' in m and which != 2: which = 3
    out.append('  mmacopy<%d>("%s", %s, "%s", tc, mma, %s, %s); }'%(which,op,args,o,tensor_expr(o,'sh'),'true' if o=='swizzle' else 'false'))
out.append('}')
open('tc.cpp','w').write('\n'.join(out)+'\n')
