//! The shape of a hierarchical tuple, stored flat.
//!
//! A tuple tree is kept as its preorder token sequence: `Open` and `Close` bracket a tuple, `Leaf`
//! stands for one integer. The integers themselves live in a separate flat array, in the same
//! (left-to-right) order as the `Leaf` tokens. `((4,8),2)` is `Open Open Leaf Leaf Close Leaf Close`
//! with leaves `[4, 8, 2]`, and the integer `8` is the single token `Leaf`.
//!
//! This layout of the data makes every sub-tree a contiguous range of tokens *and* of leaves, so a
//! mode is a pair of sub-slices, flattening is a no-op on the leaves, and nothing here recurses:
//! the depth of a tree cannot overflow the stack.

use smallvec::SmallVec;

/// Inline capacity for the token sequence of a tree (16 leaves with up to 8 tuples).
pub(crate) const TOKS_INLINE: usize = 32;
/// Inline capacity for leaves: layouts of up to this many leaves never touch the heap.
pub(crate) const LEAVES_INLINE: usize = 16;
/// The deepest nesting accepted anywhere (parsing, construction).
pub const MAX_DEPTH: usize = 64;
/// The most nodes (integers plus tuples) one shape, stride, coordinate or tiler may have,
/// anywhere (parsing, construction, results). Real layouts have a few dozen; the limit keeps
/// the algorithms that are quadratic in the number of leaves fast on any input.
pub const MAX_NODES: usize = 4096;

/// One token of a tree's preorder sequence.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[repr(u8)]
pub(crate) enum Tok {
    /// One integer.
    #[default]
    Leaf,
    /// Start of a tuple.
    Open,
    /// End of a tuple.
    Close,
}

pub(crate) type Toks = SmallVec<[Tok; TOKS_INLINE]>;
pub(crate) type Leaves<T> = SmallVec<[T; LEAVES_INLINE]>;

/// One node of a tree: its token range and its leaf range.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Span {
    pub tok: (usize, usize),
    pub leaf: (usize, usize),
}

impl Span {
    /// This span (relative to the sub-tree `base`) relative to the whole tree.
    #[inline]
    pub(crate) fn offset(self, base: Span) -> Span {
        Span {
            tok: (base.tok.0 + self.tok.0, base.tok.0 + self.tok.1),
            leaf: (base.leaf.0 + self.leaf.0, base.leaf.0 + self.leaf.1),
        }
    }
}

/// The end (exclusive) of the sub-tree that starts at token `start`.
#[inline]
pub(crate) fn subtree_end(toks: &[Tok], start: usize) -> usize {
    match toks[start] {
        Tok::Leaf => start + 1,
        Tok::Close => start + 1, // not a sub-tree start; callers never pass this
        Tok::Open => {
            let mut depth = 0usize;
            let mut i = start;
            loop {
                match toks[i] {
                    Tok::Open => depth += 1,
                    Tok::Close => {
                        depth -= 1;
                        if depth == 0 {
                            return i + 1;
                        }
                    }
                    Tok::Leaf => {}
                }
                i += 1;
            }
        }
    }
}

/// The end (exclusive) of the sub-tree that starts at token `start`, and its number of leaves,
/// in one pass.
#[inline]
pub(crate) fn subtree_end_and_leaves(toks: &[Tok], start: usize) -> (usize, usize) {
    let mut depth = 0usize;
    let mut leaves = 0usize;
    for (i, t) in toks.iter().enumerate().skip(start) {
        match t {
            Tok::Leaf => leaves += 1,
            Tok::Open => depth += 1,
            Tok::Close => depth -= 1,
        }
        if depth == 0 {
            return (i + 1, leaves);
        }
    }
    (toks.len(), leaves)
}

/// Number of `Leaf` tokens.
#[inline]
pub(crate) fn count_leaves(toks: &[Tok]) -> usize {
    toks.iter().filter(|t| **t == Tok::Leaf).count()
}

/// Whether the whole token sequence is one integer.
#[inline]
pub(crate) fn is_leaf(toks: &[Tok]) -> bool {
    toks.len() == 1
}

/// The children of the root. An integer root has itself as its only "mode" (CuTe: rank 1).
pub(crate) fn modes(toks: &[Tok]) -> Modes<'_> {
    if is_leaf(toks) {
        Modes {
            toks,
            pos: 0,
            end: 1,
            leaf: 0,
        }
    } else {
        Modes {
            toks,
            pos: 1,
            end: toks.len() - 1,
            leaf: 0,
        }
    }
}

/// Iterator over the top-level modes of a tree, see [`modes`].
#[derive(Clone)]
pub(crate) struct Modes<'a> {
    toks: &'a [Tok],
    pos: usize,
    end: usize,
    leaf: usize,
}

impl Iterator for Modes<'_> {
    type Item = Span;
    #[inline]
    fn next(&mut self) -> Option<Span> {
        if self.pos >= self.end {
            return None;
        }
        let start = self.pos;
        let (stop, n) = if self.toks[start] == Tok::Leaf {
            (start + 1, 1)
        } else {
            subtree_end_and_leaves(self.toks, start)
        };
        let span = Span {
            tok: (start, stop),
            leaf: (self.leaf, self.leaf + n),
        };
        self.pos = stop;
        self.leaf += n;
        Some(span)
    }
}

/// `rank`: number of top-level elements; an integer has rank 1.
pub(crate) fn rank(toks: &[Tok]) -> usize {
    count_modes(toks, usize::MAX)
}

/// Whether `rank(toks) >= n`, counting top-level elements only until there are `n`.
#[inline]
pub(crate) fn rank_at_least(toks: &[Tok], n: usize) -> bool {
    n <= 1 || count_modes(toks, n) >= n
}

/// The number of top-level elements, or `limit` once that many are counted.
#[inline]
fn count_modes(toks: &[Tok], limit: usize) -> usize {
    if is_leaf(toks) {
        return 1;
    }
    let mut depth = 0usize;
    let mut r = 0usize;
    for t in &toks[1..toks.len() - 1] {
        match t {
            Tok::Open => {
                if depth == 0 {
                    r += 1;
                }
                depth += 1;
            }
            Tok::Close => depth -= 1,
            Tok::Leaf => {
                if depth == 0 {
                    r += 1;
                }
            }
        }
        if r >= limit {
            return r;
        }
    }
    r
}

/// A copy of `toks` in inline storage, eight tokens per fixed-size copy (a `memcpy` call of a
/// variable length costs more than the copy for the short sequences of real layouts); `None`
/// past the inline capacity.
#[inline(always)]
pub(crate) fn copy_toks(toks: &[Tok]) -> Option<Toks> {
    let n = toks.len();
    if n > TOKS_INLINE {
        return None;
    }
    let mut buf = [Tok::Leaf; TOKS_INLINE];
    let mut dst = buf.chunks_exact_mut(8);
    let mut src = toks.chunks_exact(8);
    for (d, s) in (&mut dst).zip(&mut src) {
        d.copy_from_slice(s);
    }
    let done = n - src.remainder().len();
    for (d, &s) in buf[done..].iter_mut().zip(src.remainder()) {
        *d = s;
    }
    Some(Toks::from_buf_and_len(buf, n))
}

/// `depth`: an integer has depth 0, a tuple 1 + the largest depth of its elements.
pub(crate) fn depth(toks: &[Tok]) -> usize {
    let mut d = 0usize;
    let mut m = 0usize;
    for t in toks {
        match t {
            Tok::Open => {
                d += 1;
                m = m.max(d);
            }
            Tok::Close => d -= 1,
            Tok::Leaf => {}
        }
    }
    m
}

/// The span of the `i`-th top-level mode, if any.
pub(crate) fn mode(toks: &[Tok], i: usize) -> Option<Span> {
    modes(toks).nth(i)
}

/// The span of the node at a hierarchical index path (`[1, 0]` is mode 0 of mode 1).
pub(crate) fn node_at(toks: &[Tok], path: &[usize]) -> Option<Span> {
    let mut span = Span {
        tok: (0, toks.len()),
        leaf: (0, count_leaves(toks)),
    };
    for &i in path {
        let sub = &toks[span.tok.0..span.tok.1];
        let m = mode(sub, i)?;
        span = Span {
            tok: (span.tok.0 + m.tok.0, span.tok.0 + m.tok.1),
            leaf: (span.leaf.0 + m.leaf.0, span.leaf.0 + m.leaf.1),
        };
    }
    Some(span)
}

/// Token sequence of a flat tuple of `n` leaves (`n == 1` gives `(x)`, not `x`).
pub(crate) fn flat_tuple(n: usize) -> Toks {
    let mut t = Toks::new();
    t.push(Tok::Open);
    t.extend(core::iter::repeat_n(Tok::Leaf, n));
    t.push(Tok::Close);
    t
}

/// Token sequence of the CuTe `flatten` of a tree: an integer stays an integer, a tuple becomes the
/// flat tuple of its leaves.
pub(crate) fn flatten(toks: &[Tok]) -> Toks {
    if is_leaf(toks) {
        let mut t = Toks::new();
        t.push(Tok::Leaf);
        t
    } else {
        flat_tuple(count_leaves(toks))
    }
}

/// Whether `toks` is one well-formed tree: a leaf, or a balanced tuple that closes at the last
/// token. Every builder opens and closes its tuples and the parser checks its input, so trees
/// are well formed by construction; debug builds assert it.
pub(crate) fn is_well_formed(toks: &[Tok]) -> bool {
    match toks.first() {
        Some(Tok::Leaf) => toks.len() == 1,
        Some(Tok::Open) => {
            let mut d = 0usize;
            for (i, t) in toks.iter().enumerate() {
                match t {
                    Tok::Open => d += 1,
                    Tok::Close => {
                        d -= 1;
                        if d == 0 {
                            return i + 1 == toks.len();
                        }
                    }
                    Tok::Leaf => {}
                }
            }
            false
        }
        Some(Tok::Close) | None => false,
    }
}

/// The depth of a well-formed tree ([`is_well_formed`]), checked against [`MAX_DEPTH`] and
/// [`MAX_NODES`] (the depth first).
pub(crate) fn validate(toks: &[Tok]) -> Result<usize, TreeError> {
    debug_assert!(is_well_formed(toks), "malformed token tree {toks:?}");
    let mut max_depth = 0usize;
    let mut d = 0usize;
    let mut nodes = 0usize;
    for t in toks {
        match t {
            Tok::Open => {
                d += 1;
                if d > MAX_DEPTH {
                    return Err(TreeError::TooDeep);
                }
                max_depth = max_depth.max(d);
                nodes += 1;
            }
            Tok::Close => d = d.saturating_sub(1),
            Tok::Leaf => nodes += 1,
        }
    }
    if nodes > MAX_NODES {
        return Err(TreeError::TooLarge);
    }
    Ok(max_depth)
}

/// A limit a well-formed tree breaks.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum TreeError {
    /// Deeper than [`MAX_DEPTH`].
    TooDeep,
    /// More than [`MAX_NODES`] nodes.
    TooLarge,
}

/// Builder for token sequences made of sub-trees.
#[derive(Clone)]
pub(crate) struct TupleBuilder<T: Copy> {
    pub toks: Toks,
    pub leaves: Leaves<T>,
}

impl<T: Copy> TupleBuilder<T> {
    pub fn open() -> Self {
        let mut b = TupleBuilder {
            toks: Toks::new(),
            leaves: Leaves::new(),
        };
        b.toks.push(Tok::Open);
        b
    }
    #[inline]
    pub fn push_leaf(&mut self, v: T) {
        self.toks.push(Tok::Leaf);
        self.leaves.push(v);
    }
    #[inline]
    pub fn push_tree(&mut self, toks: &[Tok], leaves: &[T]) {
        self.toks.extend_from_slice(toks);
        self.leaves.extend_from_slice(leaves);
    }
    pub fn close(mut self) -> (Toks, Leaves<T>) {
        self.toks.push(Tok::Close);
        (self.toks, self.leaves)
    }
}

#[cfg(test)]
mod tests {
    use super::{
        copy_toks, is_well_formed, validate, Tok, TreeError, MAX_DEPTH, MAX_NODES, TOKS_INLINE,
    };

    /// The chunked copy gives the same sequence at every length up to the inline capacity
    /// (whole chunks, a remainder, both, none) and declines past it.
    #[test]
    fn copy_toks_copies_every_length() {
        let pattern = [Tok::Open, Tok::Leaf, Tok::Close, Tok::Leaf, Tok::Open];
        for n in 0..=TOKS_INLINE + 1 {
            let toks: alloc::vec::Vec<Tok> = (0..n).map(|k| pattern[k % pattern.len()]).collect();
            match copy_toks(&toks) {
                Some(c) => assert_eq!(&c[..], &toks[..], "length {n}"),
                None => assert!(n > TOKS_INLINE, "length {n} declined"),
            }
        }
    }

    /// `is_well_formed` on trees and on token lists that are not one tree; `validate` on the
    /// limits, the depth first.
    #[test]
    fn well_formed_trees_and_their_limits() {
        use Tok::{Close as C, Leaf as L, Open as O};
        for good in [&[L][..], &[O, C], &[O, L, O, L, L, C, C]] {
            assert!(is_well_formed(good), "{good:?}");
        }
        for bad in [
            &[][..],
            &[C],
            &[L, L],
            &[O, L],
            &[O, C, C],
            &[O, C, L],
            &[O, C, O, C],
        ] {
            assert!(!is_well_formed(bad), "{bad:?}");
        }
        assert_eq!(validate(&[L]), Ok(0));
        assert_eq!(validate(&[O, L, O, L, L, C, C]), Ok(2));
        let deep: alloc::vec::Vec<Tok> = core::iter::repeat_n(O, MAX_DEPTH + 1)
            .chain([L])
            .chain(core::iter::repeat_n(C, MAX_DEPTH + 1))
            .collect();
        assert_eq!(validate(&deep), Err(TreeError::TooDeep));
        let wide: alloc::vec::Vec<Tok> = [O]
            .into_iter()
            .chain(core::iter::repeat_n(L, MAX_NODES))
            .chain([C])
            .collect();
        assert_eq!(validate(&wide), Err(TreeError::TooLarge));
    }
}
