"""The Pythonic API: construction, evaluation, equality, errors, pictures, offsets, batch."""

import doctest
import pickle
import random
import xml.etree.ElementTree as ET

import pytest

import cute_layout as cl
from cute_layout import Layout, LayoutError, ParseError


def test_construct_and_print():
    L = Layout((4, 8), (8, 1))
    assert str(L) == "(4,8):(8,1)"
    assert L.shape == (4, 8) and L.stride == (8, 1)
    assert Layout((4, 8)) == Layout((4, 8), (1, 4))  # LayoutLeft by default
    assert Layout(8) == Layout.parse("8:1")
    assert Layout.parse("((2,2),_4):((_1,2),4)").shape == ((2, 2), 4)
    assert Layout([2, [3, 4]], [1, [2, 6]]).shape == (2, (3, 4))  # lists as tuples
    assert Layout("(4,8):(8,1)") == L
    assert cl.make_layout((4, 8), "LayoutRight") == L
    assert cl.make_layout((Layout(4, 8), Layout(8, 1))) == L  # CuTe's make_layout(L0, L1)
    assert cl.make_layout([Layout(4, 8), 8]) == Layout((4, 8), (8, 1))  # an int is n:1
    assert str(cl.make_layout(Layout(4, 8))) == "(4):(8)"
    with pytest.raises(TypeError):
        cl.make_layout(Layout(4, 8), Layout(8, 1))  # a layout is no stride
    from cute_layout import pycute

    assert pycute.make_layout(Layout(4, 8), Layout(8, 1)) == L  # pycute's make_layout(*layouts)
    assert cl.make_layout(m for m in (Layout(4, 8), Layout(8, 1))) == L


def test_repr_evaluates_back():
    for text in ["(4,8):(8,1)", "(3):(1)", "((2,2),(2,3)):((1,4),(2,8))", "1:0", "():()"]:
        L = Layout.parse(text)
        assert eval(repr(L), {"Layout": Layout}) == L, text


def test_eq_hash_pickle():
    a, b = Layout((4, 8), (8, 1)), Layout.parse("(4,8):(8,1)")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Layout((4, 8)) and a != "(4,8):(8,1)"
    assert pickle.loads(pickle.dumps(a)) == a


def test_evaluate():
    L = Layout((4, 8), (8, 1))
    assert L(5) == 9 and L(1, 2) == 10 and L((1, 2)) == 10
    assert L(40) == 10  # past the end the last mode runs on, as CuTe
    L2 = Layout((3, (2, 3)), (3, (12, 1)))
    assert L2(16) == L2((1, 5)) == L2((1, (1, 2))) == 17
    assert L[0] == Layout(4, 8) and L[-1] == Layout(8, 1) and len(L) == 2
    with pytest.raises(IndexError):
        L[2]
    with pytest.raises(IndexError):
        L[-3]
    assert cl.mode(L2, (1, 0)) == cl.mode(L2, [1, 0]) == Layout(2, 12)
    assert cl.mode(L2, 1) == Layout((2, 3), (12, 1)) and cl.mode(L2) == L2
    assert cl.mode("(3,(2,3)):(3,(12,1))", (1, 1)) == Layout(3, 1)  # text, through the table
    assert cl.mode((2, (3, 4)), (1, 0)) == 3  # an int tuple's element
    for path in [(-1,), (2,), (1, 5)]:
        with pytest.raises(LayoutError) as e:
            cl.mode(L2, path)
        assert e.value.kind == "ModeOutOfRange"
    with pytest.raises(TypeError):
        cl.mode(L2, 1, 0)  # the path is one argument
    C = cl.ComposedLayout.parse("Sw<1,0,1> o 0 o (2,4):(4,1)")
    assert C[-1] == C[1] and str(C[0]) == "Sw<1,0,1> o 0 o 2:4"
    with pytest.raises(IndexError):
        C[2]
    with pytest.raises(IndexError):
        C[-3]
    assert L(None, 2) == Layout.parse("(4):(8)")
    assert L.size() == 32 and L.cosize() == 32


def test_functions():
    A = Layout((6, 2), (8, 2))
    assert str(cl.composition(A, Layout((4, 3), (3, 1)))) == "((2,2),3):((24,2),8)"
    assert str(cl.composition(Layout((128, 64), (64, 1)), (32, 16))) == "(32,16):(64,1)"
    assert cl.composition(A, None) is A
    assert str(cl.complement(Layout(4, 2), 24)) == "(2,3):(1,8)"
    assert str(cl.logical_divide(Layout(16, 1), 4)) == "(4,4):(1,4)"
    assert str(cl.logical_divide(Layout((8, 8)), (2, None))) == "((2,4),8):((1,2),8)"
    assert str(cl.blocked_product(Layout((2, 2)), Layout((2, 3)))) == "((2,2),(2,3)):((1,4),(2,8))"
    assert cl.size((2, (3, 4))) == 24 and cl.rank((2, (3, 4))) == 2 and cl.depth((2, (3, 4))) == 2
    assert cl.flatten((2, (3, 4))) == (2, 3, 4)
    assert cl.crd2idx((1, 2), (4, 8), (8, 1)) == 10
    assert cl.idx2crd(2741, ((4, 8), (2, 4, 16))) == ((1, 5), (1, 2, 10))
    assert cl.upcast(Layout((4, 8), (8, 1)), 2) == cl.upcast(2, Layout((4, 8), (8, 1)))
    assert cl.shape_div((6, (3, 4)), 36) == (1, (1, 2))
    assert cl.slice_((None, 1), (4, 8)) == (4,)


def test_errors_are_typed():
    with pytest.raises(LayoutError) as e:
        cl.composition(Layout((4, 3), (3, 1)), Layout(5, 2))
    assert e.value.kind == "ShapeNotDivisible" and isinstance(e.value, ValueError)
    assert "composition" in str(e.value)
    with pytest.raises(ParseError) as e:
        Layout.parse("(4,8:(8,1)")
    assert e.value.kind == "ParseError" and isinstance(e.value, LayoutError)
    with pytest.raises(LayoutError) as e:
        Layout((4, 8), (1,))
    assert e.value.kind == "NotCongruent"
    with pytest.raises(LayoutError) as e:
        cl.run("no_such_op")
    assert e.value.kind == "UnknownOp"
    with pytest.raises(TypeError):
        Layout(4.0)
    with pytest.raises(TypeError):
        Layout(True)


def test_hostile_inputs_do_not_crash():
    deep = 1
    for _ in range(5000):
        deep = (deep,)
    with pytest.raises(LayoutError):
        Layout(deep)
    with pytest.raises(OverflowError):
        Layout(2**70)
    with pytest.raises(LayoutError):
        cl.size((2**40, 2**40))
    with pytest.raises(LayoutError):
        Layout((0, 4))
    with pytest.raises(LayoutError):
        Layout.parse("(" * 10000)
    with pytest.raises(LayoutError):
        cl.logical_divide(Layout(8), 0)


VALUES = [0, 1, 2, 3, 4, 8, -1, -4, 2**62, None, (), (2,), (2, 4), (0, 1), ((2, 2), 3), (None, 1),
          "x", "(4,8):(8,1)", "Sw<3,4,3>", 1.5, [], [2, 3], {}, Layout((4, 8), (8, 1)),
          Layout(1, 0), Layout((2, 3), (0, 2)), Layout((4, 4), (-1, 4)), cl.Swizzle(2, 0, 3),
          cl.ComposedLayout(cl.Swizzle(1, 0, 1), 0, Layout(8))]
EXPECTED = (LayoutError, TypeError, ValueError, OverflowError, IndexError)


def test_every_function_on_odd_values():
    rng = random.Random(25)
    fns = [getattr(cl, n) for n in cl.__all__ if callable(getattr(cl, n)) and n not in ("batch",)]
    for f in fns:
        for _ in range(60):
            args = [rng.choice(VALUES) for _ in range(rng.randint(0, 3))]
            try:
                f(*args)
            except EXPECTED:
                pass


def test_pictures():
    L = Layout((4, 8), (8, 1))
    root = ET.fromstring(L._repr_svg_())
    assert root.tag.endswith("svg")
    assert ET.fromstring(L.svg()).tag.endswith("svg")
    assert not hasattr(L, "_repr_html_") and "+----+" in L.table()
    assert "tikz" in L.latex()
    tv = cl.TVLayout(Layout(((4, 8), 4), ((32, 1), 8)), (32, 4))
    assert ET.fromstring(tv._repr_svg_()).tag.endswith("svg")
    sw = cl.composition(cl.Swizzle(2, 0, 3), Layout((8, 8), (8, 1)))
    assert ET.fromstring(sw._repr_svg_()).tag.endswith("svg")
    assert cl.svg(L) == cl.run("svg", L)  # the table's svg, options as its words
    assert ".o1{fill:#0000ff}" in cl.svg(L, option_value=["--palette", "red,#00f"])
    assert cl.picture("tv", tv.layout, tv.tile) == tv.svg(fit=False)


def test_offsets():
    L = Layout((2, (2, 2)), (4, (2, 1)))
    off = L.offsets()
    assert list(off) == [0, 4, 2, 6, 1, 5, 3, 7]
    try:
        import numpy as np
    except ImportError:
        assert isinstance(off, list)
    else:
        assert isinstance(off, np.ndarray) and off.dtype == np.int64


def test_run_batch_ops():
    names = {o[0] for o in cl.ops()}
    assert {"composition", "logical_divide", "find_layout", "table"} <= names
    assert str(cl.run("composition", "(6,2):(8,2)", Layout((4, 3), (3, 1)))) == "((2,2),3):((24,2),8)"
    assert cl.run("size", Layout((4, 8))) == 32
    assert cl.run_text("coalesce", "(2,4):(1,2)") == "8:1"
    assert cl.run_text("cycles", "(2,2):(2,1)") == "((0),(1,2),(3))"
    assert cl.run_text("bank_conflicts", "32:32", 2) == "16"
    out = cl.batch([("size", "(2,3):(1,2)"), '{"op":"rank","args":["(2,3):(1,2)"]}',
                    {"op": "coalesce", "args": [Layout((2, 4))]}, ("composition", "(4,3):(3,1)", "5:2")])
    assert out[:3] == ["6", "2", "8:1"]
    assert isinstance(out[3], LayoutError) and out[3].kind == "ShapeNotDivisible"
    raw = cl.batch([("size", "(2,3):(1,2)"), ("nope",)], raw=True)
    assert raw[0] == '{"ok": "6"}' and '"kind": "UnknownOp"' in raw[1]


def test_symbolic_layouts_through_run():
    # NVlabs PyCuTe's sympy layouts: symbolic answers come back as text, substituted ones as layouts
    assert cl.run("coalesce", "(N,M):(1,N)") == "N*M:1"
    assert cl.run("size", "(N,4):(1,N)") == "4*N"
    assert cl.run_text("complement", "256:1", "(32,4,2,2,N)") == "(2,N):(256,512)"
    assert str(cl.run("subs", "(N,M):(1,N)", "N=3", "M=5")) == "(3,5):(1,3)"
    with pytest.raises(LayoutError) as e:
        cl.run("composition", "(N,8):(X,Y)", "4:1")
    assert e.value.kind == "Undecidable"


def test_composed_and_basis():
    c = cl.composition(cl.Swizzle(3, 4, 3), Layout((8, 64), (64, 1)))
    assert isinstance(c, cl.ComposedLayout) and str(c) == "Sw<3,4,3> o 0 o (8,64):(64,1)"
    assert c.size() == 512 and c(0) == 0
    assert cl.ComposedLayout.parse(str(c)) == c
    I = cl.make_identity_layout((4, 8))
    assert str(I) == "(4,8):(1@0,1@1)" and I(13) == (1, 3)
    assert cl.Swizzle(3, 4, 3)(0x80) == 144


def test_composed_algebra_and_basis_through_run():
    # CuTe's inverses of a general composed layout, complement and nullspace of one
    assert cl.run_text("right_inverse", "32:2 o 3 o (2,4):(1,2)") == "8:1 o -3 o 1:0"
    assert cl.run_text("left_inverse", "(4,4):(4,1) o 0 o (2,8):(8,1)") == "(8,2):(2,1) o 0 o (4,4):(4,1)"
    assert cl.run_text("complement", "32:2 o 3 o (2,4):(2,4)", "64") == "(2,4):(1,16)"
    assert cl.run_text("nullspace", "32:2 o 3 o (2,4):(0,4)") == "1:0"
    # basis strides: CuTe's coshape / nullspace, the slot-by-slot left inverse
    assert cl.run_text("coshape", "(2,5,3):(4@1,5@0,16@1)") == "(21,37)"
    assert cl.run_text("nullspace", "(4,5):(0,1@0)") == "4:1"
    assert cl.run_text("left_inverse", "(4,5):(1@1,1@0)") == "(5,4):(4,1)"
    with pytest.raises(LayoutError) as e:
        cl.run_text("right_inverse", "(4,5):(1@1,1@0)")
    assert e.value.kind == "NotImplemented"


def test_docstring_examples():
    import cute_layout._native as native

    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    n = 0
    for name in dir(native):
        obj = getattr(native, name)
        for t in finder.find(obj, name, globs=dict(vars(cl))):
            n += len(t.examples)
            runner.run(t)
    assert n >= 20
    assert runner.failures == 0


def test_tensor():
    import doctest as dt

    import cute_layout.tensor as tmod

    assert dt.testmod(tmod).failed == 0
    np = pytest.importorskip("numpy")
    data = np.arange(64)
    T = cl.Tensor(data, Layout((4, 8), (8, 1)))
    assert T[1, 2] == 10 and T[(1, 2)] == 10 and T[5] == 9
    col = T[None, 3]
    assert [int(col[i]) for i in range(4)] == [3, 11, 19, 27]
    T[0, 1] = 100
    assert data[1] == 100
    assert T.numpy().shape == (4, 8) and T.numpy()[2, 3] == 19
    with pytest.raises(LayoutError) as e:
        cl.Tensor(np.arange(10), Layout((4, 8), (8, 1)))
    assert e.value.kind == "OutOfBounds"
    buf = bytearray(range(16))
    B = cl.Tensor(buf, Layout((4, 4), (4, 1)))
    assert B[1, 2] == 6
    assert cl.Tensor(list(range(8)), Layout(8, 1))[7] == 7


def test_tensor_tiles_and_partitions():
    data = list(range(24))
    T = cl.Tensor(data, Layout((4, 6), (6, 1)))
    tile = T.local_tile((2, 3), (1, 1))
    assert str(tile.layout) == "(2,3):(6,1)" and tile.offset == 15 and tile.data is data
    # Law: the tile's (m, n) is T's (2 + m, 3 + n).
    assert all(tile[m, n] == T[2 + m, 3 + n] for m in range(2) for n in range(3))
    # A Step projection drops the middle mode of an (M, N, K) tiler and coordinate.
    assert T.local_tile((2, 5, 3), (1, 0, 1), (1, None, 1)).offset == 15
    assert T.local_tile((2, 5, 3), (1, 0, 1), "Step<_1,X,_1>").offset == 15
    thr = Layout((2, 2), (2, 1))
    seen = []
    for t in range(4):
        p = T.local_partition(thr, t)
        seen += [p[i] for i in range(p.size())]
    assert sorted(seen) == data  # every element once
    tv = Layout((4, 6), (1, 4))  # thread t takes 1-D indices t, t + 4, ...: row t of T
    p = T.partition_tv(tv, 2)
    assert [p[v] for v in range(6)] == [T[tv(2, v)] for v in range(6)]
    with pytest.raises(LayoutError) as e:
        T.local_tile((2, 3), (2, 0))
    assert e.value.kind == "CoordOutOfRange"
    # The generic entry point reaches the tensor operations without data.
    assert cl.run_text("print_tensor", "counting_iter(0) o (2,3):(3,1)") == (
        "counting_iter(0) o (2,3):(3,1):\n    0    1    2\n    3    4    5")
    assert cl.run_text("slice", "(2,_)", "counting_iter(0) o Sw<3,0,3> o 0 o (8,8):(8,1)") == (
        "counting_iter(18) o ((2,2,2)):((1,-2,4))")


def test_tensor_restructuring_through_run():
    # CuTe's tensor overloads reach Python through the generic entry point: the layout ops
    # take a tensor text and answer with a tensor (values are CuTe C++'s).
    t = "counting_iter(0) o ((2,2),3):((1,2),4)"
    assert cl.run_text("flatten", t) == "counting_iter(0) o (2,2,3):(1,2,4)"
    assert cl.run_text("coalesce", t) == "counting_iter(0) o 12:1"
    assert cl.run_text("coalesce", t, "(1,1)") == "counting_iter(0) o (4,3):(1,4)"
    assert cl.run_text("group", "counting_iter(1) o (2,3,4):(1,2,6)", "1", "3") == (
        "counting_iter(1) o (2,(3,4)):(1,(2,6))")
    assert cl.run_text("take", "counting_iter(5) o (2,3,4):(1,2,6)", "1", "3") == (
        "counting_iter(5) o (3,4):(2,6)")
    assert cl.run_text("filter", "counting_iter(2) o (4,(2,3)):(0,(1,2))") == "counting_iter(2) o 6:1"
    assert cl.run_text("composition", "counting_iter(0) o (4,6):(6,1)", "(2,3)") == (
        "counting_iter(0) o (2,3):(6,1)")
    assert cl.run_text("domain_offset", "(1,2)", "ArithTuple(0,0) o (4,6):(1@0,1@1)") == (
        "ArithTuple(1,2) o (4,6):(1@0,1@1)")
    assert cl.run_text("make_tensor_like", "counting_iter(7) o (4,8):(40,2)") == (
        "counting_iter(0) o (4,8):(8,1)")
    assert cl.run_text("make_fragment_like", "counting_iter(7) o (4,8):(8,1)") == (
        "counting_iter(0) o (4,(8)):(1,(4))")
    assert cl.run_text("outer_partition", "counting_iter(0) o (4,6):(6,1)", "(2,3)", "(1,2)") == (
        "counting_iter(8) o (2,2):(12,3)")
    assert cl.run_text("tiled_mma", "SM80_16x8x8_F16F16F16F16_TN", "(2,2)", "_", "partition_c",
                       "ArithTuple(0,0) o (32,16):(1@0,1@1)", "5") == (
        "ArithTuple(1,2) o ((2,2),1,1):((1@1,8@0),0,0)")
    with pytest.raises(LayoutError) as e:
        cl.run_text("filter", "counting_iter(0) o Sw<3,0,3> o 0 o (8,8):(8,1)")
    assert e.value.kind == "InvalidArgument"


def test_pointer_and_zip_tensors():
    # Typed pointers without memory: a pointer tensor's value is the element's address (CuTe's
    # &tensor(c)); views move the pointer; recast and zip tensors, all through the generic entry.
    p = cl.run_text("make_gmem_ptr", "half_t", "0x1000")
    assert p == "gmem_ptr[16b](0x1000)"
    t = cl.run_text("make_tensor", p, "(4,4):(4,1)")
    assert t == "gmem_ptr[16b](0x1000) o (4,4):(4,1)"
    assert cl.run_text("slice", "(_,1)", t) == "gmem_ptr[16b](0x1002) o (4):(4)"
    assert cl.run_text("tensor_value", t, "(1,2)") == "ptr[16b](0x100c)"
    sw = cl.run_text("make_tensor", cl.run_text("make_smem_ptr", "half_t", "0x1000", "Sw<3,4,3>"), "(8,64):(64,1)")
    assert cl.run_text("tensor_value", sw, "(1,0)") == "ptr[16b](0x1090)"  # swizzle(0x1080)
    assert cl.run_text("recast_tensor", "float", sw) == "Sw<3,4,3>_smem_ptr[32b](0x1000) o (8,32):(32,1)"
    assert cl.run_text("as_position_independent_swizzle_tensor", sw) == (
        "smem_ptr[16b](0x1000) o Sw<3,3,3> o 0 o (8,64):(64,1)")
    z = cl.run_text("make_zip_tensor", "counting_iter(0) o (4,4):(4,1)", "counting_iter(100) o (4,4):(1,4)")
    assert cl.run_text("tensor_value", z, "(1,2)") == "(6,109)"
    assert cl.run_text("unzip_tensor", cl.run_text("slice", "(_,1)", z), "1") == "counting_iter(104) o (4):(1)"
    with pytest.raises(LayoutError) as e:
        cl.run_text("make_gmem_ptr", "float", "0x1002")
    assert e.value.kind == "InvalidArgument"  # misaligned


def test_pycute_extras_not_cute_cpp():
    # NVlabs PyCuTe's extras (not CuTe C++): layout_add, coalesce_z, greatest_common_domain,
    # common_refinement / common_coarsening.
    from cute_layout import (
        coalesce_z,
        common_coarsening,
        common_refinement,
        greatest_common_domain,
        layout_add,
    )

    a, b = Layout((4, 3), (1, 4)), Layout((4, 3), (3, 1))
    r = layout_add(a, b)
    assert r == Layout((4, 3), (4, 5))
    assert all(r(i) == a(i) + b(i) for i in range(12))
    assert str(layout_add("8:2@0", "8:3@0")) == "8:5@0"
    with pytest.raises(LayoutError) as e:
        layout_add(Layout(6, 1), Layout(8, 1))
    assert e.value.kind == "SizeMismatch"
    with pytest.raises(LayoutError) as e:
        layout_add(Layout((5, 3), (3, 1)), Layout((3, 5), (5, 1)))
    assert e.value.kind == "NotALayout"

    z = coalesce_z(Layout((2, 1, 6, 1), (1, 7, 8, 57)))
    assert str(z) == "(2,6,1):(1,8,57)"
    assert str(coalesce_z(Layout((2, 1, 6, 1), (1, 7, 8, 57)), (1, 1, 1, 1))) == "(2,1,6,1):(1,7,8,57)"

    assert str(greatest_common_domain((6, 35), (15, 14))) == "(3,7):(1,30)"
    assert str(greatest_common_domain(Layout((5, 3, 4), (12, 4, 1)), (10, 6))) == "(5,2):(1,30)"
    assert common_refinement((2, 15), (2, (3, 5))) == (2, (3, 5))
    assert common_refinement(10, (10,)) == (10,)
    assert common_coarsening(((2, 3), 4), ((3, 2), 4)) == (6, 4)
    assert common_coarsening(Layout((2, 15)), (2, (3, 5))) == (2, 15)
    with pytest.raises(LayoutError) as e:
        common_refinement((2, (3, 5)), ((3, 2), 5))
    assert e.value.kind == "NoCommonRefinement"


def test_pictures_through_run():
    # The picture operations `latex` and `svg` through the generic entry points: the same text
    # as the Pythonic methods, options as the command line's words.
    L = Layout((2, 3), (3, 1))
    tex = cl.run("latex", L)
    assert tex.startswith("% Layout: (2,3):(3,1)\n\\documentclass[convert]{standalone}\n")
    assert tex + "\n" == L.latex()
    tv = cl.run_text("latex", "--tv", "((4,8),(2,2)):((16,1),(8,64))", "--tile", (16, 8))
    assert tv.count("\\shortstack") == 128
    assert tv + "\n" == cl.TVLayout(Layout.parse("((4,8),(2,2)):((16,1),(8,64))"), (16, 8)).latex()
    assert tex == cl.latex(L)  # the table's latex
    mma = cl.run("latex", "mma", "SM80_16x8x8_F16F16F16F16_TN")
    assert mma + "\n" == cl.mma_latex("SM80_16x8x8_F16F16F16F16_TN")
    svg = cl.run("svg", "(4,4):(1,4)", "--palette", "red,#00f")
    assert ET.fromstring(svg).tag.endswith("svg") and ".o1{fill:#0000ff}" in svg
    assert "{rgb,255:red,255;green,0;blue,0}" in cl.run("latex", L, "--palette", "red")
    out = cl.batch([("svg", "copy", "SM75_U32x4_LDSM_N", "half_t", "--thr", "(32,1):(1,0)", "--val", "(1,8):(0,1)"),
                    ("latex", "4:1", "--palette", "nocolour")])
    assert ET.fromstring(out[0]).tag.endswith("svg")
    assert isinstance(out[1], LayoutError) and out[1].kind == "ParseError"
    with pytest.raises(LayoutError) as e:
        cl.run("latex", "4:1", "--banks", "32")
    assert e.value.kind == "BadRequest"
