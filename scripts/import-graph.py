#!/usr/bin/env python3
"""File-level import graph of a Rust crate's src/ tree: cycles, levels, back-imports.

Usage: scripts/import-graph.py [SRC_DIR] [--edges] [--cycles] [--back] [--levels] [--folders]
                               [--no-code-paths] [--no-tests] [--facade]
       (default SRC_DIR: crates/cute-layout/src; works on any crate's src/, e.g. crates/cute-ops/src)

Definitions (the same as ARCHITECTURE.md states and crates/cute-layout/tests/layering.rs checks):
* Node: one .rs file under SRC_DIR.
* Edge A -> B: a `use crate::...` / `use super::...` / `use self::...` item of file A (any
  `use`, at any depth, test modules included) or a `crate::path::item` / `super::...` path written
  in A's code, resolved to the file that defines the item (following `use` / `pub use`
  re-exports: `crate::Layout` is layout/mod.rs's or layout.rs's file, not lib.rs), with B != A.
  A `mod b;` line is no edge (a parent names its children; its children may use it). A
  `pub use child::X` re-export is an edge like any other `use` (with --facade it is not).
  --no-code-paths counts `use` items only; --no-tests leaves out `mod tests { .. }` blocks.
  Doc comments and string literals are ignored.
* Cycle: a strongly connected group of two or more files.
* Level: files are ordered bottom-up; level(F) = 1 + the largest level of the files F imports,
  where the imports that close a cycle are left out (below). Levels = the largest level.
* Back-import: an edge from a file to a file of a higher or equal level in that order, i.e. an
  import that closes a cycle. Within each cycle the files are ordered by a greedy feedback-arc
  heuristic (Eades-Lin-Smyth), so the count is a small set of edges whose removal leaves no cycle.
"""

import os
import re
import sys
from collections import defaultdict


def strip_code(text):
    """Removes comments, string and char literals (keeps line structure)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
            continue
        if text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    if text[i] == "\n":
                        out.append("\n")
                    i += 1
            continue
        m = re.match(r'r(#*)"', text[i:i + 10])
        if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = '"' + m.group(1)
            j = text.find(end, i + len(m.group(0)))
            j = n if j < 0 else j + len(end)
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
            continue
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
            continue
        if c == "'":
            m = re.match(r"'(\\.|\\u\{[0-9a-fA-F]+\}|[^\\'])'", text[i:i + 12])
            if m:
                out.append("' '")
                i += len(m.group(0))
                continue
        out.append(c)
        i += 1
    return "".join(out)


def parse_use_tree(s):
    """Expands `a::{b, c::{d as e}, self}` into lists of segments (with `self` resolved)."""
    s = re.sub(r"\s+", "", s)
    res = []

    def rec(prefix, s):
        # s is one tree: path[::{list}] or path or path as x
        if "{" in s:
            i = s.index("{")
            head = s[:i].rstrip(":")
            body = s[i + 1 : s.rindex("}")]
            pre = prefix + ([p for p in head.split("::") if p] if head else [])
            depth, start = 0, 0
            for k, ch in enumerate(body + ","):
                if ch == "{":
                    depth += 1
                elif ch == "}":
                    depth -= 1
                elif ch == "," and depth == 0:
                    part = body[start:k]
                    start = k + 1
                    if part:
                        rec(pre, part)
        else:
            segs = [p for p in s.split("::") if p]
            if segs and segs[-1] == "self":
                segs = segs[:-1]
            res.append(prefix + segs)

    rec([], s)
    return res


def split_as(s):
    # `use a::b as c` after whitespace removal reads `a::bas c`: handle before stripping spaces
    return re.sub(r"\s+as\s+(\w+)", r"", s)


class Crate:
    def __init__(self, src, code_paths=True, tests=True):
        self.src = src
        self.code_paths = code_paths
        self.tests = tests
        self.files = {}  # module path tuple -> file
        self.text = {}  # file -> stripped text
        for root, _, names in os.walk(src):
            for name in names:
                if not name.endswith(".rs"):
                    continue
                path = os.path.join(root, name)
                rel = os.path.relpath(path, src)
                parts = rel[:-3].split(os.sep)
                if parts[-1] in ("mod", "lib", "main"):
                    parts = parts[:-1]
                self.files[tuple(parts)] = rel
                with open(path, encoding="utf-8") as f:
                    self.text[rel] = strip_code(f.read())
        self.module_of = {v: k for k, v in self.files.items()}
        # only modules actually declared by a `mod` line count
        self.declared = set()
        for mod, rel in self.files.items():
            for m in re.finditer(r"(?m)^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", self.text[rel]):
                self.declared.add(mod + (m.group(1),))
        self.uses = {}  # file -> list of (segments, line, is_use, inline-module path)
        self.names = defaultdict(dict)  # module -> name -> absolute segments
        self.globs = defaultdict(list)  # module -> list of absolute module segments
        for rel, text in self.text.items():
            self.uses[rel] = self.collect(rel, text)
        self.facade = "--facade" in sys.argv

    def absolute(self, segs, mod):
        """Makes a path absolute from module `mod` (crate-relative tuple)."""
        if not segs:
            return None
        if segs[0] == "crate":
            return list(segs[1:])
        cur = list(mod)
        if segs[0] in ("super", "self"):
            i = 0
            while i < len(segs) and segs[i] in ("super", "self"):
                if segs[i] == "super":
                    if not cur:
                        return None
                    cur = cur[:-1]
                i += 1
            return cur + list(segs[i:])
        return None  # external crate or local name

    def collect(self, rel, text):
        mod = self.module_of[rel]
        out = []
        # inline modules: track `mod name {` by brace depth
        stack = []  # (name, depth at open)
        depth = 0
        lines = text.split("\n")
        i = 0
        pending = None
        for lineno, line in enumerate(lines, 1):
            m_inline = re.match(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*\{", line)
            cur = mod + tuple(n for n, _ in stack)
            if not self.tests and any(n == "tests" for n, _ in stack):
                cur = None
            if cur is None:
                pass
            elif pending is not None:
                pending[0] += " " + line
                if ";" in line:
                    self.add_use(pending[0], pending[1], cur, out, rel)
                    pending = None
            else:
                m = re.match(r"^\s*(pub(?:\([^)]*\))?\s+)?use\s+(.*)$", line)
                if m:
                    body = m.group(2)
                    if ";" in body:
                        self.add_use(body, lineno, cur, out, rel, public=bool(m.group(1)))
                    else:
                        pending = [body, lineno]
                elif self.code_paths:
                    for pm in re.finditer(r"(?<![\w:$])((?:crate|super)(?:::\w+)+)", line):
                        if line[pm.end() :].lstrip().startswith("!"):
                            continue  # a macro: `#[macro_export]` puts it at the root
                        segs = pm.group(1).split("::")
                        a = self.absolute(segs, cur)
                        if a:
                            out.append((a, lineno, False))
            if m_inline:
                stack.append((m_inline.group(1), depth))
            depth += line.count("{") - line.count("}")
            while stack and depth <= stack[-1][1]:
                stack.pop()
        return out

    def add_use(self, body, lineno, cur, out, rel, public=False):
        body = body[: body.index(";")]
        body = split_as(body)
        for segs in parse_use_tree(body):
            if not segs:
                continue
            glob = segs[-1] == "*"
            if glob:
                segs = segs[:-1]
            a = self.absolute(segs, cur)
            if a is None:
                # `use x::...` where x is a child module or a name of this module (2018 paths)
                if segs[0] not in ("alloc", "core", "std") and tuple(cur) + (segs[0],) in self.files:
                    a = list(cur) + segs
                else:
                    continue
            if glob:
                self.globs[tuple(cur)].append(a)
            else:
                self.names[tuple(cur)][a[-1] if a else ""] = a
            out.append((a + (["*"] if glob else []), lineno, public))

    def resolve(self, segs, seen=None):
        """The file defining the item at absolute path `segs` (or the module's file)."""
        seen = seen or set()
        key = tuple(segs)
        if key in seen:
            return None
        seen.add(key)
        mod = ()
        i = 0
        while i < len(segs) and (mod + (segs[i],)) in self.files and (mod + (segs[i],)) in self.declared:
            mod = mod + (segs[i],)
            i += 1
        rest = segs[i:]
        if not rest or rest == ["*"]:
            return self.files[mod]
        name = rest[0]
        target = self.names.get(mod, {}).get(name)
        if target is not None and tuple(target) != key:
            r = self.resolve(list(target) + rest[1:], seen)
            if r:
                return r
        for g in self.globs.get(mod, []):
            r = self.resolve(list(g) + rest, seen)
            if r and r != self.files.get(tuple(g)):
                return r
        return self.files[mod]

    def edges(self):
        e = defaultdict(list)  # (a, b) -> [lines]
        for rel, uses in self.uses.items():
            mod = self.module_of[rel]
            for segs, lineno, public in uses:
                b = self.resolve(list(segs))
                if self.facade and public and b and self.module_of[b][: len(mod)] == mod:
                    continue  # a module's re-export of its own descendants: its public face
                if b and b != rel:
                    e[(rel, b)].append(lineno)
        return e


def sccs(nodes, adj):
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in adj[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def eades_order(comp, adj):
    """Greedy order (sinks last, sources first) of a strongly connected group (Eades et al.)."""
    left = set(comp)
    succ = {v: set(w for w in adj[v] if w in left) for v in comp}
    pred = {v: set(w for w in comp if v in succ[w]) for v in comp}
    s1, s2 = [], []
    while left:
        changed = True
        while changed:
            changed = False
            for v in sorted(left):
                if not (succ[v] & left):
                    s2.insert(0, v)
                    left.discard(v)
                    changed = True
            for v in sorted(left):
                if not (pred[v] & left):
                    s1.append(v)
                    left.discard(v)
                    changed = True
        if left:
            v = max(sorted(left), key=lambda u: len(succ[u] & left) - len(pred[u] & left))
            s1.append(v)
            left.discard(v)
    return s1 + s2  # importers first, imported last


def analyse(crate):
    e = crate.edges()
    nodes = set(crate.files.values())
    adj = defaultdict(set)
    for a, b in e:
        adj[a].add(b)
    comps = sccs(nodes, adj)
    cycles = [c for c in comps if len(c) > 1]
    back = set()
    for c in cycles:
        order = eades_order(c, adj)
        pos = {v: i for i, v in enumerate(order)}
        for a in c:
            for b in adj[a]:
                if b in pos and pos[b] <= pos[a]:
                    back.add((a, b))
    # levels over the graph without the back edges
    level = {}

    def lv(v, trail=()):
        if v in level:
            return level[v]
        level[v] = 1  # guards (graph is acyclic once back edges are out)
        m = 0
        for w in adj[v]:
            if (v, w) in back:
                continue
            m = max(m, lv(w))
        level[v] = m + 1
        return level[v]

    for v in sorted(nodes):
        lv(v)
    return e, adj, cycles, back, level


# The layers of crates/cute-layout/src, bottom first (as tests/layering.rs and ARCHITECTURE.md).
LAYERS = ["layout", "algebra", "composed", "basis", "analysis", "pycute", "tensor", "atom",
          "render", "gpu", "literal", "lib"]


def folder(rel):
    parts = rel.split(os.sep)
    return parts[0][:-3] if len(parts) == 1 else parts[0]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    flags = {a for a in sys.argv[1:] if a.startswith("--")}
    src = args[0] if args else "crates/cute-layout/src"
    crate = Crate(src, "--no-code-paths" not in flags, "--no-tests" not in flags)
    e, adj, cycles, back, level = analyse(crate)
    if "--edges" in flags:
        for (a, b), lines in sorted(e.items()):
            print(f"{a} -> {b}  (lines {','.join(map(str, lines[:5]))})")
    if "--levels" in flags:
        for v in sorted(level, key=lambda v: (-level[v], v)):
            print(f"{level[v]:3} {v}")
    if "--cycles" in flags:
        for c in cycles:
            print(f"cycle of {len(c)}: {' '.join(c)}")
    if "--back" in flags:
        for a, b in sorted(back):
            print(f"back: {a} -> {b} (lines {','.join(map(str, e[(a, b)][:5]))})")
    if "--folders" in flags and os.path.basename(os.path.dirname(os.path.abspath(src))) == "cute-layout":
        rank = {l: k for k, l in enumerate(LAYERS)}
        for a, b in sorted(e):
            fa, fb = folder(a), folder(b)
            if fa in rank and fb in rank and rank[fb] > rank[fa]:
                print(f"upward: {a} -> {b}")
    if "--folders" in flags:
        fe = defaultdict(int)
        for a, b in e:
            fa, fb = folder(a), folder(b)
            if fa != fb:
                fe[(fa, fb)] += 1
        fadj = defaultdict(set)
        for a, b in fe:
            fadj[a].add(b)
        fn = set(folder(v) for v in crate.files.values())
        fc = [c for c in sccs(fn, fadj) if len(c) > 1]
        for c in fc:
            print(f"folder cycle: {' '.join(c)}")
            for a in c:
                for b in sorted(fadj[a]):
                    if b in c:
                        print(f"   {a} -> {b} ({fe[(a, b)]} file imports)")
        print(f"folders: {len(fn)}, folder cycles: {len(fc)}")
    print(
        f"files: {len(crate.files)}, imports: {len(e)}, cycles: {len(cycles)} "
        f"(largest {max((len(c) for c in cycles), default=0)} files), "
        f"back-imports: {len(back)}, levels: {max(level.values())}"
    )


if __name__ == "__main__":
    main()
