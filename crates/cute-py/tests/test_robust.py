"""No input reaches a Rust panic: every native function and method, on odd values of every kind,
returns or raises an ordinary exception (a panic would surface as pyo3's PanicException, a
BaseException that `except Exception` does not catch)."""

import itertools
import subprocess
import sys

import cute_layout as cl
import cute_layout._native as native
from cute_layout import Layout

L = Layout((4, 8), (8, 1))
POOL = [
    0, -1, 3, 2**62, -(2**63), 2**64, (), (0,), (2, (3, 4)), [2, [3]], None, (None, 1),
    "", "(", "(4,8):(8,1)", "Sw<3,4,3>", "Sw<3,4,3> o 0 o (8,8):(8,1)", "(4,8):(1@0,1@1)",
    L, Layout((2, 2), (0, 1)), native.Swizzle(2, 1, 2),
    native.ComposedLayout.parse("Sw<1,1,1> o 0 o (4,4):(4,1)"),
    native.make_identity_layout((2, 3)), 1.5, True, b"x", ((((((1,),),),),),),
]
# Pictures as PNG are drawn (slow) and covered by test_png.py; batch takes an iterable of
# requests (test_api.py); set_jupyter_format changes global state.
SKIP = {"png", "svg_to_png", "set_jupyter_format", "batch"}


def calls(f, arities):
    n = 0
    for k in arities:
        for args in itertools.product(POOL, repeat=k):
            try:
                f(*args)
            except Exception:
                pass
            n += 1
    return n


def test_module_functions_never_panic():
    n = 0
    for name in sorted(dir(native)):
        f = getattr(native, name)
        if callable(f) and not isinstance(f, type) and name not in SKIP:
            n += calls(f, (0, 1, 2))
    assert n > 40_000


def test_methods_never_panic():
    objs = [L, Layout(4, 2), POOL[20], POOL[21], POOL[22], native.TVLayout(L, (8, 4))]
    for o in objs:
        for name in dir(type(o)):
            if name.startswith("__") and name not in ("__call__", "__getitem__", "__eq__"):
                continue
            if name in ("png", "_repr_png_"):
                continue
            a = getattr(o, name)
            if callable(a):
                calls(a, (0, 1, 2))


def test_every_operation_of_the_table_never_panics():
    pool = [0, -1, 2**62, (2, (3, 4)), None, "", "(4,8):(8,1)", "Sw<3,4,3>", [1, 2]]
    for name, _usage, _about in cl.ops():
        if name == "png":
            continue
        for k in (0, 1, 2):
            for args in itertools.product(pool, repeat=k):
                try:
                    cl.run(name, *args)
                except Exception:
                    pass


EVICTION = """
import gc, weakref
import cute_layout as cl
from cute_layout import Layout

seen = []

def callback(_ref):
    seen.append(str(cl.logical_divide(Layout(16, 1), (Layout(2, 1),))))

refs = []
for _ in range(3):
    tile = Layout(4, 1)
    refs.append(weakref.ref(tile, callback))
    cl.logical_divide(Layout(16, 1), (tile,))
    del tile
for k in range(20):
    cl.logical_divide(Layout(16, 1), (k % 4 + 1,))
gc.collect()
print(seen)
"""


def test_cache_eviction_may_run_python_code():
    # A tiler tuple held only by the conversion cache holds a Layout with a weakref callback
    # that calls back into the package: evicting the tuple runs the callback, which must find
    # the cache unlocked (a lock still held would hang, hence the subprocess and its timeout).
    out = subprocess.run(
        [sys.executable, "-c", EVICTION], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    assert out.strip() == str(["((2,8)):((1,2))"] * 3)
