"""Every operation of the table (`cute ops`) as a `cute_layout` function: generated, fixed
signature, the op's summary as the docstring's first line, and its example answering what
`cute OP EXAMPLE...` prints (the same text as `run_text`, the table the CLI and `cute batch` use).
"""

import ast
import builtins
import importlib.util
import inspect
import keyword
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


def _declared(spec):
    """The declared parameters as (Python name, default): `inspect.Parameter.empty` for a
    required one, None for an optional one, () for a repeating one (one list or tuple)."""
    empty = inspect.Parameter.empty
    out = []
    for ident, _label, arity, _kinds in spec["params"]:
        name = ident + "_" if keyword.iskeyword(ident) else ident
        out.append((name, {"one": empty, "optional": None}.get(arity, ())))
    return out


@pytest.mark.parametrize("spec", SPECS, ids=[s["name"] for s in SPECS])
def test_signature_is_the_declaration(spec):
    # Generated and native functions alike: the declared parameters, in order, by name, with
    # the defaults of their arity, and no *args or **kwargs.
    f = getattr(cl, _gen().py_name(spec["name"]))
    if spec["name"] in OBJECT_FUNCTIONS:
        f = getattr(_ops, spec["name"])
    params = list(inspect.signature(f).parameters.values())
    assert all(p.kind is p.POSITIONAL_OR_KEYWORD for p in params), spec["name"]
    assert [(p.name, p.default) for p in params] == _declared(spec)


def test_stubs_are_typed_and_match():
    # _ops.pyi: one stub per function, every parameter and the result annotated, the names of
    # the annotations defined, and the parameters (names, defaults) those of the function.
    tree = ast.parse((pathlib.Path(_ops.__file__).with_suffix(".pyi")).read_text())
    known = set(dir(builtins)) | {"Sequence"}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            known |= {a.asname or a.name for a in node.names}
    stubs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert sorted(stubs) == sorted(_ops.__all__)
    for spec in SPECS:
        name = _gen().py_name(spec["name"])
        stub = stubs[name]
        args = stub.args
        assert not args.vararg and not args.kwarg and not args.kwonlyargs, name
        assert all(a.annotation is not None for a in args.args) and stub.returns is not None, name
        for ann in [a.annotation for a in args.args] + [stub.returns]:
            used = {n.id for n in ast.walk(ann) if isinstance(n, ast.Name)}
            assert used <= known, (name, used - known)
        defaults = [None] * (len(args.args) - len(args.defaults)) + args.defaults
        got = [(a.arg, d) for a, d in zip(args.args, defaults)]
        want = _declared(spec)
        assert [n for n, _ in got] == [n for n, _ in want], name
        for (_, d), (_, w) in zip(got, want):
            if w is inspect.Parameter.empty:
                assert d is None, name
            else:
                assert isinstance(d, (ast.Constant, ast.Tuple)), name
                assert ast.literal_eval(d) == w, name
        assert ast.get_docstring(stub).split("\n")[0] == spec["summary"]


def _call_example(spec):
    """The op's example through its function: text arguments (a repeating parameter's
    arguments in one list), as Python values where the function is native."""
    f = getattr(_ops, _gen().py_name(spec["name"]))
    args = list(spec["example"])
    if not inspect.isfunction(f):
        args = [a if a.isidentifier() else value(a) for a in args]
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


EXAMPLES = [s for s in SPECS if s["example"] or s["output"]]


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


@pytest.mark.parametrize("spec", EXAMPLES, ids=[s["name"] for s in EXAMPLES])
def test_layout_results_print_as_their_value(spec):
    # A Layout result keeps the operation's text as its str(): that text is the one the value
    # itself prints.
    got = _call_example(spec)
    if isinstance(got, cl.Layout):
        assert str(got) == str(cl.Layout(got.shape, got.stride)) == str(cl.Layout.parse(str(got)))
