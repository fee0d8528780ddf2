"""Layouts with F2 (XOR) strides (NVlabs PyCuTe's, not CuTe C++'s) through the generic entry
points `run`, `run_text` and `batch`: their results are CuTe-style text."""

import pytest

import cute_layout as cl
from cute_layout import LayoutError


def test_f2_layouts_through_run():
    assert cl.run_text("table", "(4,8):(F2(1),F2(8))").split(",")[:6] == ["0", "1", "2", "3", "8", "9"]
    assert cl.run("size", "(4,8):(F2(1),F2(8))") == 32
    assert cl.run("crd2idx", "(1,1)", "(2,2):(F2(10),F2(12))") == 6  # F2(10) + F2(12)
    assert cl.run_text("coalesce", "(4,4):(F2(3),F2(12))") == "16:F2(3)"
    assert cl.run_text("right_inverse", "(8,8):(F2(9),F2(1))") == "(8,8):(F2(8),F2(9))"
    assert cl.run_text("layout_add", "16:F2(1)", "(4,4):(F2(2),F2(8))") == "16:F2(3)"
    sw = cl.run("f2_swizzle", "(8,8):(F2(1),F2(9))")
    assert isinstance(sw, cl.ComposedLayout) and str(sw) == "Sw<3,0,3> o 0 o (8,8):(1,8)"
    assert cl.run("equal", "(8,8):(F2(1),F2(9))", sw) == 1


def test_f2_refusals_are_typed():
    with pytest.raises(LayoutError) as e:
        cl.run("layout_add", "8:F2(1)", "8:1")  # XOR and integer addition do not mix
    assert e.value.kind == "BadRequest"
    with pytest.raises(LayoutError) as e:
        cl.run("left_inverse", "(4,2):(F2(1),0)")  # L(0) = L(4): no left inverse
    assert e.value.kind == "NotInjective"
    assert cl.run_text("left_inverse", "(8,8):(F2(1),F2(9))") == "(8,8):(F2(1),F2(9))"
    with pytest.raises(LayoutError) as e:
        cl.run("size", "F2(5)")
    assert e.value.kind == "ParseError"


def test_f2_in_batch():
    out = cl.batch([("coalesce_z", "(3,4):(F2(1),F2(3))"), ("bijective", "(4,(4,3)):(F2(1),(F2(5),F2(16)))")])
    assert out == ["(3,4):(F2(1),F2(3))", "1"]
