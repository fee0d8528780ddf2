//! `IntTuple`: an integer, or a tuple of zero or more `IntTuple`s.
//!
//! Shapes, coordinates, profiles and tilers-as-shapes are all `IntTuple`s. Values with up to 16
//! leaves and 32 tree tokens are stored inline (no heap allocation); larger ones spill to the heap
//! transparently.

use core::fmt;

use crate::layout::error::LayoutError;
use crate::layout::tree::{self, Leaves, Tok, Toks, TupleBuilder};

/// An integer or a (possibly nested, possibly empty) tuple of integers.
///
/// # Examples
/// ```
/// # use cute_layout::IntTuple;
/// let t: IntTuple = "(3,(6,2),8)".parse()?;
/// assert_eq!(t.rank(), 3);
/// assert_eq!(t.depth(), 2);
/// assert_eq!(t.size()?, 288);
/// assert_eq!(t.flatten().to_string(), "(3,6,2,8)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(PartialEq, Eq, Hash)]
pub struct IntTuple {
    pub(crate) toks: Toks,
    pub(crate) leaves: Leaves<i64>,
}

// Not derived: a slice copy of the `Copy` elements is much cheaper than SmallVec's
// element-by-element `clone`.
impl Clone for IntTuple {
    #[inline]
    fn clone(&self) -> Self {
        IntTuple {
            toks: Toks::from_slice(&self.toks),
            leaves: Leaves::from_slice(&self.leaves),
        }
    }
}

impl IntTuple {
    /// An empty tuple to build into (no tokens: not a valid tuple until filled).
    #[inline]
    pub(crate) fn building() -> Self {
        IntTuple {
            toks: Toks::new(),
            leaves: Leaves::new(),
        }
    }

    /// `Ok` if every extent (leaf) is at least 1, else [`LayoutError::InvalidExtent`] with the
    /// first one that is not, for `op`: the check of every function that takes a shape.
    #[inline]
    pub(crate) fn check_extents(&self, op: &'static str) -> Result<(), LayoutError> {
        match self.leaves.iter().find(|&&e| e < 1) {
            Some(&extent) => Err(LayoutError::InvalidExtent { op, extent }),
            None => Ok(()),
        }
    }

    /// The integer `v`.
    pub fn int(v: i64) -> Self {
        let mut toks = Toks::new();
        toks.push(Tok::Leaf);
        let mut leaves = Leaves::new();
        leaves.push(v);
        IntTuple { toks, leaves }
    }

    /// The tuple of the given elements (`()` when empty). Fails past [`MAX_DEPTH`](crate::MAX_DEPTH).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let t = IntTuple::tuple([IntTuple::int(2), IntTuple::tuple([IntTuple::int(3)])?])?;
    /// assert_eq!(t.to_string(), "(2,(3))");
    /// # Ok::<(), cute_layout::LayoutError>(())
    /// ```
    pub fn tuple<I: IntoIterator<Item = IntTuple>>(elems: I) -> Result<Self, LayoutError> {
        let mut b = TupleBuilder::open();
        for e in elems {
            b.push_tree(&e.toks, &e.leaves);
        }
        let (toks, leaves) = b.close();
        Self::from_parts(toks, leaves)
    }

    /// The flat tuple of the given integers.
    pub fn flat<I: IntoIterator<Item = i64>>(vals: I) -> Self {
        let mut b = TupleBuilder::open();
        for v in vals {
            b.push_leaf(v);
        }
        let (toks, leaves) = b.close();
        IntTuple { toks, leaves }
    }

    pub(crate) fn from_parts(toks: Toks, leaves: Leaves<i64>) -> Result<Self, LayoutError> {
        match tree::validate(&toks) {
            Ok(_) => {}
            Err(tree::TreeError::TooDeep) => {
                return Err(LayoutError::TooDeep {
                    op: "int_tuple",
                    limit: tree::MAX_DEPTH,
                })
            }
            Err(tree::TreeError::TooLarge) => return Err(LayoutError::too_many_nodes("int_tuple")),
        }
        debug_assert_eq!(tree::count_leaves(&toks), leaves.len());
        Ok(IntTuple { toks, leaves })
    }

    pub(crate) fn from_slices(toks: &[Tok], leaves: &[i64]) -> Self {
        IntTuple {
            toks: Toks::from_slice(toks),
            leaves: Leaves::from_slice(leaves),
        }
    }

    /// Whether this is a single integer (not a tuple).
    #[inline]
    pub fn is_int(&self) -> bool {
        tree::is_leaf(&self.toks)
    }

    /// The integer, if this is one.
    #[inline]
    pub fn as_int(&self) -> Option<i64> {
        if self.is_int() {
            Some(self.leaves[0])
        } else {
            None
        }
    }

    /// Number of top-level elements; an integer has rank 1.
    pub fn rank(&self) -> usize {
        tree::rank(&self.toks)
    }

    /// Nesting depth: 0 for an integer, 1 + the largest element depth for a tuple.
    pub fn depth(&self) -> usize {
        tree::depth(&self.toks)
    }

    /// Product of all leaves (1 for an empty tuple).
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] if the product does not fit in `i64`.
    pub fn size(&self) -> Result<i64, LayoutError> {
        self.leaves.iter().try_fold(1i64, |acc, &v| {
            acc.checked_mul(v)
                .ok_or_else(|| LayoutError::overflow("size"))
        })
    }

    /// The leaves, left to right.
    #[inline]
    pub fn leaves(&self) -> &[i64] {
        &self.leaves
    }

    /// The `i`-th top-level element (`get<i>`); for an integer, `get(0)` is the integer itself.
    pub fn get(&self, i: usize) -> Option<IntTuple> {
        let s = tree::mode(&self.toks, i)?;
        Some(Self::from_slices(
            &self.toks[s.tok.0..s.tok.1],
            &self.leaves[s.leaf.0..s.leaf.1],
        ))
    }

    /// The top-level elements.
    pub fn elements(&self) -> impl Iterator<Item = IntTuple> + '_ {
        tree::modes(&self.toks).map(move |s| {
            Self::from_slices(
                &self.toks[s.tok.0..s.tok.1],
                &self.leaves[s.leaf.0..s.leaf.1],
            )
        })
    }

    /// CuTe's `flatten`: an integer stays itself, a tuple becomes the flat tuple of its leaves.
    pub fn flatten(&self) -> IntTuple {
        IntTuple {
            toks: tree::flatten(&self.toks),
            leaves: self.leaves.clone(),
        }
    }

    /// Same tree (`congruent`): both integers, or tuples of equal rank whose elements are congruent.
    pub fn congruent(&self, other: &IntTuple) -> bool {
        self.toks == other.toks
    }

    /// CuTe's `weakly_congruent(a, b)`: an integer in `a` matches anything in `b`; a tuple in
    /// `a` must be matched by a tuple of the same rank in `b`, element by element.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let a: IntTuple = "(2,3)".parse()?;
    /// assert!(a.weakly_congruent(&"((2,2),(3,1))".parse()?));
    /// assert!(!a.weakly_congruent(&"6".parse()?));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn weakly_congruent(&self, other: &IntTuple) -> bool {
        walk_pair(&self.toks, &other.toks, |_, _| true)
    }

    /// CuTe's `compatible(a, b)`: sizes agree and every coordinate of `a` is a valid coordinate of
    /// `b` (an integer in `a` matches any sub-tree of `b` with the same size; a tuple in `a` needs
    /// a tuple of the same rank in `b`).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let t = |s: &str| s.parse::<IntTuple>().unwrap();
    /// assert!(t("24").compatible(&t("((2,2),(3,2))")));
    /// assert!(t("((2,2),6)").compatible(&t("((2,2),(3,2))")));
    /// assert!(!t("((2,3),4)").compatible(&t("((2,2),(3,2))")));
    /// assert!(!t("(24)").compatible(&t("24")));
    /// ```
    pub fn compatible(&self, other: &IntTuple) -> bool {
        walk_pair(&self.toks, &other.toks, |a, b| {
            // a is a leaf of self, b the matching sub-tree of other
            let av = self.leaves[a.0];
            let bsz = other.leaves[b.0..b.1]
                .iter()
                .try_fold(1i64, |acc, &v| acc.checked_mul(v));
            bsz == Some(av)
        })
    }

    /// Exclusive prefix products of the leaves, in the same tree (LayoutLeft strides).
    pub(crate) fn prefix_product(&self, reverse: bool) -> Result<IntTuple, LayoutError> {
        let mut out = self.leaves.clone();
        let mut acc = 1i64;
        let n = out.len();
        for k in 0..n {
            let i = if reverse { n - 1 - k } else { k };
            // CuTe's compact strides give extent-1 modes stride 0.
            out[i] = if self.leaves[i] == 1 { 0 } else { acc };
            acc = acc
                .checked_mul(self.leaves[i])
                .ok_or_else(|| LayoutError::overflow("make_layout"))?;
        }
        Ok(IntTuple {
            toks: self.toks.clone(),
            leaves: out,
        })
    }
}

/// Walk `a` and `b` together in the pattern of weakly_congruent: every tuple of `a` must meet a
/// tuple of the same rank in `b`; each leaf of `a` meets a sub-tree of `b` and `leaf` decides.
/// Arguments to `leaf` are the leaf index in `a` and the leaf range in `b`.
fn walk_pair(a: &[Tok], b: &[Tok], mut leaf: impl FnMut((usize,), (usize, usize)) -> bool) -> bool {
    let mut i = 0usize; // position in a
    let mut j = 0usize; // position in b
    let mut la = 0usize; // leaves seen in a
    let mut lb = 0usize; // leaves seen in b
    while i < a.len() {
        match a[i] {
            Tok::Leaf => {
                if j >= b.len() || b[j] == Tok::Close {
                    return false;
                }
                let end = tree::subtree_end(b, j);
                let n = tree::count_leaves(&b[j..end]);
                if !leaf((la,), (lb, lb + n)) {
                    return false;
                }
                la += 1;
                lb += n;
                i += 1;
                j = end;
            }
            Tok::Open => {
                if j >= b.len() || b[j] != Tok::Open {
                    return false;
                }
                i += 1;
                j += 1;
            }
            Tok::Close => {
                if j >= b.len() || b[j] != Tok::Close {
                    return false;
                }
                i += 1;
                j += 1;
            }
        }
    }
    j == b.len()
}

impl From<i64> for IntTuple {
    fn from(v: i64) -> Self {
        IntTuple::int(v)
    }
}

impl fmt::Display for IntTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::layout::fmt::write_tree(f, &self.toks, &self.leaves)
    }
}

impl fmt::Debug for IntTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "IntTuple({self})")
    }
}
