# Generates copy_atoms_extra.cpp: every (copy atom, value type) pair that 'cute' accepts, for the
# value types given, printed by CuTe C++ 4.2 (compile host-only as the shared vectors were, run,
# and the output is copy_atoms_extra.jsonl). Usage: gen_copy_atoms_extra.py TYPE,TYPE,...
import json,subprocess,sys
types=sys.argv[1].split(',')
names=[l for l in subprocess.run(['cute','atoms','--names'],capture_output=True,text=True).stdout.split('\n') if l]
# names of copy atoms only: filter by the lib (mma names excluded by trying copy_atom)
reqs=[json.dumps({"op":"copy_atom","args":[n,t,"src"]}) for n in names for t in types]
out=subprocess.run(['cute','batch'],input='\n'.join(reqs)+'\n',capture_output=True,text=True).stdout.splitlines()
pairs=[]
k=0
for n in names:
    for t in types:
        if 'ok' in json.loads(out[k]): pairs.append((n,t))
        k+=1
print(len(pairs),file=sys.stderr)
src=['#include <cute/tensor.hpp>','#include <cute/atom/copy_atom.hpp>','#include <cstdio>','using namespace cute;',
'template <class Op, class T> void one(const char* n, const char* t) { using A = Copy_Atom<Op,T>;',
' printf("{\\"args\\":[\\"%s\\",\\"%s\\"],\\"thr_id\\":\\"",n,t); print(typename A::ThrID{});',
' printf("\\",\\"src\\":\\""); print(typename A::ValLayoutSrc{}); printf("\\",\\"dst\\":\\""); print(typename A::ValLayoutDst{});',
' printf("\\",\\"ref\\":\\""); print(typename A::ValLayoutRef{}); printf("\\",\\"num_val_src\\":%d,\\"num_val_dst\\":%d}\\n", int(A::NumValSrc), int(A::NumValDst)); }',
'int main() {']
for n,t in pairs:
    src.append(f' one<{n},{t}>("{n}","{t}");')
src.append('}')
open('copy_atoms_extra.cpp','w').write('\n'.join(src))
