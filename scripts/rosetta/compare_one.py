"""Prints Triton's linear layout of one Gluon layout at a shape beside ours (debugging aid):
    python scripts/rosetta/compare_one.py 'BlockedLayout([1,4],[8,4],[4,1],[1,0])' 32 16"""
import subprocess
import sys

import test_rosetta as t

text, shape = sys.argv[1], [int(x) for x in sys.argv[2:]]
L = eval(text, vars(t.gl()))
b = t.builder()
print("triton:", b.to_linear_layout(L._to_ir(b), shape))
ours = subprocess.run([t.CUTE, "gluon_to_cute", t.shape_text(shape), text], capture_output=True, text=True)
print("ours:  ", ours.stdout.strip() or ours.stderr.strip())
kind = "shared" if L.__class__.__name__.endswith("SharedLayout") else "distributed"
back = subprocess.run([t.CUTE, "cute_to_gluon", ours.stdout.strip(), t.shape_text(shape), kind], capture_output=True, text=True)
print("ours:  ", back.stdout.strip() or back.stderr.strip())
