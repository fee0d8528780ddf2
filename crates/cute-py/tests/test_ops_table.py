"""Every operation of the table (`cute ops`) as a `cute_layout` function: generated, fixed
signature, the op's summary as the docstring's first line, and its example answering what
`cute OP EXAMPLE...` prints (the same text as `run_text`, the table the CLI and `cute batch` use).
"""

import importlib.util
import inspect
import pathlib

import pytest

import cute_layout as cl
from cute_layout import _native, _ops
from cute_text import value

HERE = pathlib.Path(__file__).resolve().parent
GEN = HERE.parent / "gen_ops.py"
SPECS = _native._specs()
# Functions of atoms.py that return objects (a TiledCopy, a TV layout's pair) in place of the
# generated ones, which stay reachable as `cute_layout._ops.NAME`.
OBJECT_FUNCTIONS = {"make_layout_tv", "make_tiled_copy"}


def _gen():
    spec = importlib.util.spec_from_file_location("gen_ops", GEN)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_generated_files_are_current():
    assert _gen().main(["--check"]) == 0, "run: python crates/cute-py/gen_ops.py"


def test_every_op_is_a_function():
    gen = _gen()
    names = [gen.py_name(s["name"]) for s in SPECS]
    assert len(names) == len(set(names)) == len(_ops.__all__)
    assert len(names) >= 200
    for n in names:
        assert getattr(cl, n) is getattr(_ops, n) or n in OBJECT_FUNCTIONS, n
        assert n in cl.__all__, n


def test_python_names_of_builtins():
    gen = _gen()
    assert gen.py_name("slice") == "slice_"
    assert gen.py_name("filter") == "filter"
    assert gen.py_name("coalesce") == "coalesce"


@pytest.mark.parametrize("spec", SPECS, ids=[s["name"] for s in SPECS])
def test_docstring_starts_with_summary(spec):
    f = getattr(cl, _gen().py_name(spec["name"]))
    assert f.__doc__.split("\n")[0] == spec["summary"]


@pytest.mark.parametrize("spec", SPECS, ids=[s["name"] for s in SPECS])
def test_signature_is_fixed(spec):
    f = getattr(_ops, _gen().py_name(spec["name"]))
    if not inspect.isfunction(f):
        return  # a native function: its own text signature
    params = list(inspect.signature(f).parameters.values())
    assert all(p.kind is p.POSITIONAL_OR_KEYWORD for p in params)
    assert len(params) == len(spec["params"])
    for p, (_ident, _label, arity, _kinds) in zip(params, spec["params"]):
        if arity == "one":
            assert p.default is p.empty
        elif arity == "optional":
            assert p.default is None
        else:
            assert p.default == ()


# Native functions whose parameters follow pycute's order or form rather than the table's:
# how the table's example arguments (as Python values) are passed to them.
NATIVE_ORDER = {
    "crd2crd": lambda f, c, src, dst: f(c, dst, src),  # pycute: (crd, dst_shape, src_shape)
    "recast": lambda f, old, new, layout: f(layout, old, new),  # (layout, old_bits, new_bits)
    "mode": lambda f, layout, *path: f(layout, *path),  # (layout, *path)
    "make_layout": lambda f, shape, tag: f(shape, tag),
}


def _call_example(spec):
    """The op's example through its function: text arguments to a generated function (a
    repeating parameter's arguments in one list), Python values to a native one."""
    f = getattr(_ops, _gen().py_name(spec["name"]))
    args = list(spec["example"])
    if not inspect.isfunction(f):
        args = [a if a.isidentifier() else value(a) for a in args]
        return NATIVE_ORDER.get(spec["name"], lambda f, *a: f(*a))(f, *args)
    fixed = [p for p in spec["params"] if p[2] in ("one", "optional")]
    if len(fixed) < len(spec["params"]):
        head, rest = args[: len(fixed)], args[len(fixed) :]
        head += [None] * (len(fixed) - len(head))
        return f(*head, rest)
    return f(*args)


def _text(x):
    """A Python result in the table's text: bools as 1/0, tuples in CuTe's tuple form."""
    if isinstance(x, bool):
        return "1" if x else "0"
    if isinstance(x, tuple):
        return "(" + ",".join(_text(e) for e in x) + ")"
    return str(x).rstrip("\n")


# `svg`: the native function draws a layout (`svg(layout, tile)`); the table's options
# (`--palette`, operations) are reached with `run("svg", ...)`.
EXAMPLES = [s for s in SPECS if (s["example"] or s["output"]) and s["name"] != "svg"]


@pytest.mark.parametrize("spec", EXAMPLES, ids=[s["name"] for s in EXAMPLES])
def test_example_agrees_with_the_table(spec):
    want = cl.run_text(spec["name"], *spec["example"])
    assert want == spec["output"]
    try:
        got = _call_example(spec)
    except cl.LayoutError as e:
        pytest.fail(f"{spec['name']}: {e.kind}: {e}")
    assert _text(got) == want


def test_results_have_the_declared_kind():
    assert isinstance(cl.coalesce("(2,(3,4)):(1,(2,6))"), cl.Layout)
    assert cl.congruent((1, 2), (3, 4)) is True
    assert cl.shape_div((12, 8), 4) == (3, 8)
    c = cl.composition(cl.Swizzle(3, 4, 3), "(8,64):(64,1)")
    assert isinstance(c, cl.ComposedLayout)


def test_repeating_parameter_is_one_sequence():
    with pytest.raises(TypeError):
        _ops._call("tuple_cat", 0, (), "ab")


def test_drift_fixed():
    # filter with a profile: at the terminals of the profile
    assert str(cl.filter(cl.Layout((2, (3, 4)), (0, (1, 3))), (None, None))) == cl.run_text(
        "filter", "(2,(3,4)):(0,(1,3))", "(_,_)"
    )
    # nullspace of a composed layout, as the table (and CuTe)
    c = cl.ComposedLayout.parse("Sw<3,4,3> o 0 o (8,64):(64,1)")
    assert str(cl.nullspace(c)) == cl.run_text("nullspace", str(c))
    # each operand of an MMA atom draws its own picture
    atom = cl.MMAAtom("SM80_16x8x16_F16F16F16F16_TN")
    pics = {o: str(atom.tv_picture(o)) for o in "abc"}
    assert len(set(pics.values())) == 3
    assert all(p.startswith("<svg") for p in pics.values())
