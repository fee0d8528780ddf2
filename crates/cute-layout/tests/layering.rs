//! The import layering of `src/`: reads the sources and checks the folder order of
//! ARCHITECTURE.md (no file imports from a folder above its own), at most one import cycle
//! between files, and at most ten back-imports. `scripts/import-graph.py` computes the same
//! graph with the same definitions and prints its edges, cycles and levels.
//!
//! An edge `A -> B`: a `use crate::..` / `use super::..` / `use self::..` item of file `A` (test
//! modules included), or a `crate::..` / `super::..` path in `A`'s code, resolved to the file
//! that defines the item (through `use` and `pub use` re-exports). `mod` lines are no edges.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The folders (and root files) of `src/`, bottom layer first. A file may import from its own
/// folder and from the folders before it.
const LAYERS: &[&str] = &[
    "layout", "algebra", "composed", "basis", "analysis", "pycute", "tensor", "atom", "render",
    "gpu", "literal", "lib",
];

/// The bar: at most one cycle (today the error type and the two types whose methods return it,
/// `layout/error.rs`, `layout/int_tuple.rs`, `layout/layout_type.rs`) and ten back-imports.
const MAX_CYCLES: usize = 1;
const MAX_BACK_IMPORTS: usize = 10;

type Module = Vec<String>;

/// Comments, string and char literals blanked (line structure kept).
fn strip_code(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if b[i] == b'\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
        } else if c == b'r'
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
            && matches!(b.get(i + 1), Some(b'"') | Some(b'#'))
        {
            let mut j = i + 1;
            let mut hashes = 0;
            while j < b.len() && b[j] == b'#' {
                hashes += 1;
                j += 1;
            }
            if j < b.len() && b[j] == b'"' {
                let mut end = vec![b'"'];
                end.extend(vec![b'#'; hashes]);
                let mut k = j + 1;
                while k < b.len() && !b[k..].starts_with(&end) {
                    if b[k] == b'\n' {
                        out.push('\n');
                    }
                    k += 1;
                }
                out.push_str("\"\"");
                i = k + end.len();
            } else {
                out.push('r');
                i += 1;
            }
        } else if c == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                if b[j] == b'\n' {
                    out.push('\n');
                }
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            i = j + 1;
        } else if c == b'\'' {
            // A char literal ('x', '\n', '\u{..}'), else a lifetime.
            let rest = &text[i..];
            let len = if rest.starts_with("'\\u{") {
                rest.find("}'").map(|k| k + 2)
            } else if rest.starts_with("'\\") {
                Some(4)
            } else {
                rest[1..].chars().next().and_then(|ch| {
                    let n = 1 + ch.len_utf8();
                    (rest.as_bytes().get(n) == Some(&b'\'')).then_some(n + 1)
                })
            };
            match len {
                Some(n) => {
                    out.push_str("' '");
                    i += n;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            let ch = text[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// Expands a use tree (`a::{b, c::{d as e}, self}`, whitespace removed) into paths.
fn use_paths(tree: &str, prefix: &[String], out: &mut Vec<Vec<String>>) {
    if let Some(open) = tree.find('{') {
        let head = tree[..open].trim_end_matches(':');
        let mut pre = prefix.to_vec();
        pre.extend(head.split("::").filter(|s| !s.is_empty()).map(String::from));
        let Some(close) = tree.rfind('}') else {
            panic!("unbalanced use tree: {tree}");
        };
        let body = &tree[open + 1..close];
        let (mut depth, mut start) = (0, 0);
        for (k, ch) in body
            .char_indices()
            .chain(std::iter::once((body.len(), ',')))
        {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    if k > start {
                        use_paths(&body[start..k], &pre, out);
                    }
                    start = k + 1;
                }
                _ => {}
            }
        }
    } else {
        let mut p = prefix.to_vec();
        p.extend(tree.split("::").filter(|s| !s.is_empty()).map(String::from));
        if p.last().is_some_and(|s| s == "self") {
            p.pop();
        }
        out.push(p);
    }
}

struct Crate {
    files: BTreeMap<Module, String>,
    declared: BTreeSet<Module>,
    /// Per file: the absolute paths it names (use items and code paths).
    uses: BTreeMap<String, Vec<Vec<String>>>,
    /// Per module: the names its `use` items bring in, and its glob imports.
    names: BTreeMap<Module, BTreeMap<String, Vec<String>>>,
    globs: BTreeMap<Module, Vec<Vec<String>>>,
}

fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

impl Crate {
    fn read(src: &Path) -> Crate {
        let mut texts = BTreeMap::new();
        let mut stack = vec![src.to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let rel = path
                        .strip_prefix(src)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/");
                    let text = strip_code(&fs::read_to_string(&path).unwrap());
                    texts.insert(rel, text);
                }
            }
        }
        let mut c = Crate {
            files: BTreeMap::new(),
            declared: BTreeSet::new(),
            uses: BTreeMap::new(),
            names: BTreeMap::new(),
            globs: BTreeMap::new(),
        };
        for rel in texts.keys() {
            let mut parts: Module = rel
                .trim_end_matches(".rs")
                .split('/')
                .map(String::from)
                .collect();
            if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
                parts.pop();
            }
            c.files.insert(parts, rel.clone());
        }
        let modules: BTreeMap<String, Module> = c
            .files
            .iter()
            .map(|(m, f)| (f.clone(), m.clone()))
            .collect();
        for (rel, text) in &texts {
            for line in text.lines() {
                let t = line.trim_start();
                let t = t
                    .strip_prefix("pub(crate) ")
                    .or_else(|| t.strip_prefix("pub "))
                    .unwrap_or(t);
                if let Some(name) = t.strip_prefix("mod ").and_then(|r| r.strip_suffix(';')) {
                    let mut m = modules[rel].clone();
                    m.push(name.trim().to_string());
                    c.declared.insert(m);
                }
            }
        }
        for (rel, text) in &texts {
            let uses = c.collect(&modules[rel], text);
            c.uses.insert(rel.clone(), uses);
        }
        c
    }

    fn absolute(segs: &[String], cur: &[String]) -> Option<Vec<String>> {
        match segs.first()?.as_str() {
            "crate" => Some(segs[1..].to_vec()),
            "super" | "self" => {
                let mut m = cur.to_vec();
                let mut i = 0;
                while i < segs.len() && (segs[i] == "super" || segs[i] == "self") {
                    if segs[i] == "super" {
                        m.pop()?;
                    }
                    i += 1;
                }
                m.extend_from_slice(&segs[i..]);
                Some(m)
            }
            _ => None,
        }
    }

    fn collect(&mut self, module: &Module, text: &str) -> Vec<Vec<String>> {
        let mut out = Vec::new();
        let mut inline: Vec<(String, i64)> = Vec::new();
        let mut depth: i64 = 0;
        let mut pending: Option<String> = None;
        for line in text.lines() {
            let mut cur = module.clone();
            cur.extend(inline.iter().map(|(n, _)| n.clone()));
            let t = line.trim_start();
            let t_vis = t
                .strip_prefix("pub(crate) ")
                .or_else(|| t.strip_prefix("pub(super) "))
                .or_else(|| t.strip_prefix("pub "))
                .unwrap_or(t);
            if let Some(p) = pending.as_mut() {
                p.push_str(line);
                if line.contains(';') {
                    let body = pending.take().unwrap();
                    self.add_use(&body, &cur, &mut out);
                }
            } else if let Some(body) = t_vis.strip_prefix("use ") {
                if body.contains(';') {
                    self.add_use(body, &cur, &mut out);
                } else {
                    pending = Some(body.to_string());
                }
            } else {
                let b = line.as_bytes();
                let mut k = 0;
                loop {
                    let next = [line[k..].find("crate::"), line[k..].find("super::")];
                    let Some(off) = next.into_iter().flatten().min() else {
                        break;
                    };
                    let start = k + off;
                    let mut end = start;
                    while end < b.len() && (is_ident_byte(b[end]) || b[end] == b':') {
                        end += 1;
                    }
                    let before_ok = start == 0
                        || !(is_ident_byte(b[start - 1])
                            || b[start - 1] == b':'
                            || b[start - 1] == b'$');
                    let path = line[start..end].trim_end_matches(':');
                    let is_macro = line[end..].trim_start().starts_with('!');
                    if before_ok && !is_macro {
                        let segs: Vec<String> = path.split("::").map(String::from).collect();
                        if let Some(a) = Self::absolute(&segs, &cur) {
                            out.push(a);
                        }
                    }
                    k = end.max(start + 1);
                }
            }
            if let Some(rest) = t_vis.strip_prefix("mod ") {
                if let Some(name) = rest.strip_suffix('{').or_else(|| rest.strip_suffix(" {")) {
                    inline.push((name.trim().to_string(), depth));
                }
            }
            depth += line.matches('{').count() as i64 - line.matches('}').count() as i64;
            while inline.last().is_some_and(|&(_, d)| depth <= d) {
                inline.pop();
            }
        }
        out
    }

    fn add_use(&mut self, body: &str, cur: &[String], out: &mut Vec<Vec<String>>) {
        let body = &body[..body.find(';').unwrap()];
        // `a as b`: the path is `a`.
        let mut cleaned = String::new();
        let words: Vec<&str> = body.split_whitespace().collect();
        let mut i = 0;
        while i < words.len() {
            if words[i] == "as" {
                // keep what follows the alias (`,` or `}`)
                if let Some(alias) = words.get(i + 1) {
                    cleaned.push_str(
                        alias.trim_start_matches(|c: char| c.is_alphanumeric() || c == '_'),
                    );
                }
                i += 2;
                continue;
            }
            cleaned.push_str(words[i]);
            i += 1;
        }
        let mut paths = Vec::new();
        use_paths(&cleaned, &[], &mut paths);
        for mut segs in paths {
            if segs.is_empty() {
                continue;
            }
            let glob = segs.last().is_some_and(|s| s == "*");
            if glob {
                segs.pop();
            }
            let abs = match Self::absolute(&segs, cur) {
                Some(a) => a,
                None => {
                    let mut child = cur.to_vec();
                    child.push(segs[0].clone());
                    if !["alloc", "core", "std"].contains(&segs[0].as_str())
                        && self.files.contains_key(&child)
                    {
                        let mut a = cur.to_vec();
                        a.extend(segs.iter().cloned());
                        a
                    } else {
                        continue;
                    }
                }
            };
            if glob {
                self.globs
                    .entry(cur.to_vec())
                    .or_default()
                    .push(abs.clone());
            } else if let Some(last) = abs.last() {
                self.names
                    .entry(cur.to_vec())
                    .or_default()
                    .insert(last.clone(), abs.clone());
            }
            out.push(abs);
        }
    }

    /// The file that defines the item at `segs`.
    fn resolve(&self, segs: &[String], seen: &mut BTreeSet<Vec<String>>) -> Option<String> {
        if !seen.insert(segs.to_vec()) {
            return None;
        }
        let mut module: Module = Vec::new();
        let mut i = 0;
        while i < segs.len() {
            let mut next = module.clone();
            next.push(segs[i].clone());
            if self.files.contains_key(&next) && self.declared.contains(&next) {
                module = next;
                i += 1;
            } else {
                break;
            }
        }
        let rest = &segs[i..];
        let here = self.files.get(&module)?.clone();
        if rest.is_empty() {
            return Some(here);
        }
        if let Some(target) = self.names.get(&module).and_then(|n| n.get(&rest[0])) {
            if target.as_slice() != segs {
                let mut p = target.clone();
                p.extend_from_slice(&rest[1..]);
                if let Some(r) = self.resolve(&p, seen) {
                    return Some(r);
                }
            }
        }
        for g in self.globs.get(&module).into_iter().flatten() {
            let mut p = g.clone();
            p.extend_from_slice(rest);
            if let Some(r) = self.resolve(&p, seen) {
                if Some(&r) != self.files.get(g) {
                    return Some(r);
                }
            }
        }
        Some(here)
    }

    fn edges(&self) -> BTreeSet<(String, String)> {
        let mut e = BTreeSet::new();
        for (file, uses) in &self.uses {
            for segs in uses {
                if let Some(b) = self.resolve(segs, &mut BTreeSet::new()) {
                    if &b != file {
                        e.insert((file.clone(), b));
                    }
                }
            }
        }
        e
    }
}

/// Strongly connected groups of two or more files (Tarjan).
fn cycles(nodes: &BTreeSet<String>, adj: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct T<'a> {
        adj: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<String, usize>,
        low: BTreeMap<String, usize>,
        on: BTreeSet<String>,
        stack: Vec<String>,
        out: Vec<Vec<String>>,
    }
    fn visit(t: &mut T, v: &str) {
        let n = t.index.len();
        t.index.insert(v.to_string(), n);
        t.low.insert(v.to_string(), n);
        t.stack.push(v.to_string());
        t.on.insert(v.to_string());
        for w in t.adj.get(v).into_iter().flatten() {
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if t.on.contains(w) {
                let iw = t.index[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = t.stack.pop().unwrap();
                t.on.remove(&w);
                let done = w == v;
                comp.push(w);
                if done {
                    break;
                }
            }
            comp.sort();
            t.out.push(comp);
        }
    }
    let mut t = T {
        adj,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        on: BTreeSet::new(),
        stack: Vec::new(),
        out: Vec::new(),
    };
    for v in nodes {
        if !t.index.contains_key(v) {
            visit(&mut t, v);
        }
    }
    t.out.into_iter().filter(|c| c.len() > 1).collect()
}

/// The imports that close a cycle: within each cycle, files in a greedy order (Eades, Lin and
/// Smyth: sinks last, sources first, else the file with most out- over in-edges) and the
/// edges that point backwards in it.
fn back_imports(
    cycle: &[String],
    adj: &BTreeMap<String, BTreeSet<String>>,
) -> Vec<(String, String)> {
    let mut left: BTreeSet<String> = cycle.iter().cloned().collect();
    let succ = |v: &String, left: &BTreeSet<String>| {
        adj.get(v)
            .into_iter()
            .flatten()
            .filter(|w| left.contains(*w))
            .count()
    };
    let pred = |v: &String, left: &BTreeSet<String>| {
        left.iter()
            .filter(|w| adj.get(*w).is_some_and(|s| s.contains(v)))
            .count()
    };
    let (mut s1, mut s2) = (Vec::new(), Vec::new());
    while !left.is_empty() {
        loop {
            let mut changed = false;
            for v in left.clone() {
                if succ(&v, &left) == 0 {
                    s2.insert(0, v.clone());
                    left.remove(&v);
                    changed = true;
                }
            }
            for v in left.clone() {
                if pred(&v, &left) == 0 {
                    s1.push(v.clone());
                    left.remove(&v);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        if let Some(v) = left
            .iter()
            .max_by_key(|v| {
                (
                    succ(v, &left) as i64 - pred(v, &left) as i64,
                    std::cmp::Reverse((*v).clone()),
                )
            })
            .cloned()
        {
            s1.push(v.clone());
            left.remove(&v);
        }
    }
    let order: Vec<String> = s1.into_iter().chain(s2).collect();
    let pos = |v: &String| order.iter().position(|w| w == v);
    let mut back = Vec::new();
    for a in cycle {
        for b in adj.get(a).into_iter().flatten() {
            if let (Some(pa), Some(pb)) = (pos(a), pos(b)) {
                if pb <= pa {
                    back.push((a.clone(), b.clone()));
                }
            }
        }
    }
    back
}

fn layer_of(file: &str) -> &str {
    match file.split_once('/') {
        Some((folder, _)) => folder,
        None => file.trim_end_matches(".rs"),
    }
}

#[test]
fn folders_are_layered_and_files_have_at_most_one_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let krate = Crate::read(&src);
    let edges = krate.edges();
    let nodes: BTreeSet<String> = krate.files.values().cloned().collect();

    // Every folder and root file has its place in LAYERS.
    let layers: BTreeSet<&str> = nodes.iter().map(|f| layer_of(f)).collect();
    for l in &layers {
        assert!(
            LAYERS.contains(l),
            "src/{l} is in no layer of LAYERS (tests/layering.rs) and ARCHITECTURE.md"
        );
    }

    // No import from a folder above the file's own.
    let rank = |f: &str| LAYERS.iter().position(|l| *l == layer_of(f)).unwrap();
    let upward: Vec<String> = edges
        .iter()
        .filter(|(a, b)| rank(b) > rank(a))
        .map(|(a, b)| format!("{a} -> {b}"))
        .collect();
    assert!(
        upward.is_empty(),
        "imports from a lower folder up to a higher one:\n{}",
        upward.join("\n")
    );

    // At most one cycle between files, at most ten back-imports.
    let mut adj: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (a, b) in &edges {
        adj.entry(a.clone()).or_default().insert(b.clone());
    }
    let cycles = cycles(&nodes, &adj);
    let back: Vec<(String, String)> = cycles.iter().flat_map(|c| back_imports(c, &adj)).collect();
    let shown: Vec<String> = cycles.iter().map(|c| c.join(" ")).collect();
    println!(
        "{} files, {} imports, {} cycles, {} back-imports",
        nodes.len(),
        edges.len(),
        cycles.len(),
        back.len()
    );
    assert!(
        cycles.len() <= MAX_CYCLES,
        "{} import cycles (at most {MAX_CYCLES}):\n{}",
        cycles.len(),
        shown.join("\n")
    );
    assert!(
        back.len() <= MAX_BACK_IMPORTS,
        "{} back-imports (at most {MAX_BACK_IMPORTS}): {back:?}",
        back.len()
    );
    // The one cycle allowed is the error type's with the two types whose methods return it.
    for c in &cycles {
        assert_eq!(
            c,
            &[
                "layout/error.rs",
                "layout/int_tuple.rs",
                "layout/layout_type.rs"
            ],
            "a new import cycle"
        );
    }
    // The graph is the one the script draws: a sanity check of the reader on known edges.
    for (a, b) in [
        ("algebra/kernels.rs", "algebra/composition.rs"),
        ("tensor/chain_tensor.rs", "tensor/kinds.rs"),
        ("atom/copy/tiled.rs", "atom/copy/typed.rs"),
        ("layout/int_tuple.rs", "layout/error.rs"),
    ] {
        assert!(
            edges.contains(&(a.to_string(), b.to_string())),
            "the reader misses {a} -> {b}"
        );
    }
}
