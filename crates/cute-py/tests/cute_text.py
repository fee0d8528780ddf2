"""CuTe's text form <-> Python values, for the tests: layouts become `Layout`s, int tuples
nested Python tuples, `_` becomes `None` (a reader of the notation, not of the algebra)."""

from cute_layout import BasisLayout, ComposedLayout, Layout, Swizzle


def split_top(s, sep):
    """Split `s` at the occurrences of `sep` outside parentheses."""
    out, depth, cur = [], 0, []
    for ch in s:
        if ch in "(<":
            depth += 1
        elif ch in ")>":
            depth -= 1
        if ch == sep and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return out


def value(s):
    """A tiler, layout, int tuple, int or `_` written in CuTe's notation, as a Python value."""
    s = s.strip()
    if s.startswith("Sw"):
        return ComposedLayout.parse(s) if " o " in s else Swizzle.parse(s)
    if len(split_top(s, ":")) == 2:
        return BasisLayout.parse(s) if "@" in s else Layout.parse(s)
    if s == "_":
        return None
    if s.startswith("("):
        inner = s[1:-1]
        if inner.strip() == "":
            return ()
        return tuple(value(x) for x in split_top(inner, ","))
    return int(s)


def text(v):
    """A Python result in CuTe's text form."""
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, tuple):
        return "(" + ",".join(text(x) for x in v) + ")"
    return str(v)
