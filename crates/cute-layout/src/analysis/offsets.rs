//! Questions about the offsets a layout function produces: its image as an explicit list, which
//! coordinates land on each offset, its fixed points, the permutation a dense injective layout
//! induces (cycles and order), the contiguous vector width from the start (overall and per mode),
//! the bank conflicts of a warp's access, and the matrix over GF(2) of a layout whose shapes and
//! strides are powers of two.
//!
//! Every function takes a [`LayoutChain`] (a plain layout, a swizzled layout
//! `Sw<B,M,S> o OFFSET o L`, or any composed layout) and enumerates its domain, up to
//! [`MAX_ENUMERATED`] points. These are analyses, not CuTe operations (CuTe has the predicates
//! and `max_common_vector` they build on); the permutation view, the offset table and the GF(2)
//! matrix follow the definitions of tensor-layouts' `analysis` module.
//!
//! ```
//! use cute_layout::LayoutChain;
//! let swap: LayoutChain = "(2,2):(2,1)".parse()?;
//! assert_eq!(swap.cycles()?, vec![vec![0], vec![1, 2], vec![3]]);
//! assert_eq!(swap.fixed_points()?, vec![0, 3]);
//! assert_eq!(swap.permutation_order()?, 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::format;
use alloc::vec::Vec;

use crate::composed::chain::{LayoutChain, OuterFn};
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;

/// The most points whose offsets a list-valued analysis (`image_offsets`, `fixed_points`,
/// `permutation`, `cycles`) enumerates.
pub const MAX_LISTED: i64 = 1 << 20;

/// The most points [`LayoutChain::offset_table`] lists with their coordinates.
pub const MAX_TABLED: i64 = 1 << 16;

fn invalid(op: &'static str, what: alloc::string::String) -> LayoutError {
    LayoutError::InvalidArgument { op, what }
}

impl LayoutChain {
    /// The values of the whole domain, in index order, after checking the size limit.
    pub(crate) fn enumerate(&self, op: &'static str, limit: i64) -> Result<Vec<i64>, LayoutError> {
        self.check_limit(op, limit)?;
        self.values()
    }

    /// The image as an explicit list: the distinct offsets, in increasing order.
    ///
    /// # Laws
    /// * `v` is in the list iff `self(i) == v` for some `0 <= i < size`; the list is strictly
    ///   increasing; its length is `size` iff the layout is injective.
    ///
    /// # Errors
    /// [`LayoutError::TooLarge`] past [`MAX_LISTED`] points; [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// let l: LayoutChain = "(4,2):(0,1)".parse()?;
    /// assert_eq!(l.image_offsets()?, vec![0, 1]);
    /// assert_eq!("4:-1".parse::<LayoutChain>()?.image_offsets()?, vec![-3, -2, -1, 0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn image_offsets(&self) -> Result<Vec<i64>, LayoutError> {
        let mut v = self.enumerate("image", MAX_LISTED)?;
        v.sort_unstable();
        v.dedup();
        Ok(v)
    }

    /// Whether the layout is onto `[0, n)`: its offsets are exactly `0, 1, ..., n-1` (every one
    /// reached, none outside).
    ///
    /// # Errors
    /// As [`LayoutChain::image_offsets`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// assert!("(2,2):(2,1)".parse::<LayoutChain>()?.is_surjective_onto(4)?);
    /// assert!(!"4:2".parse::<LayoutChain>()?.is_surjective_onto(4)?); // 1 and 3 are missed
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_surjective_onto(&self, n: i64) -> Result<bool, LayoutError> {
        let img = self.image_offsets()?;
        Ok(i64::try_from(img.len()).is_ok_and(|k| k == n)
            && img.first().is_none_or(|&v| v == 0)
            && img.last().is_none_or(|&v| v == n - 1))
    }

    /// Each offset of the image with the natural coordinates (of the domain's shape) that land
    /// on it, offsets increasing, coordinates in index order: the inverse of the layout
    /// function, which shows aliasing at a glance.
    ///
    /// # Laws
    /// * For each entry `(v, cs)` and each `c` in `cs`: `self(c) == v`; every coordinate of the
    ///   domain appears exactly once over all entries.
    ///
    /// # Errors
    /// [`LayoutError::TooLarge`] past [`MAX_TABLED`] points; [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// let l: LayoutChain = "(2,2):(0,1)".parse()?;
    /// let t = l.offset_table()?;
    /// assert_eq!(t.len(), 2);
    /// assert_eq!((t[1].0, t[1].1[0].to_string(), t[1].1[1].to_string()), (1, "(0,1)".into(), "(1,1)".into()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn offset_table(&self) -> Result<Vec<(i64, Vec<IntTuple>)>, LayoutError> {
        let values = self.enumerate("offset_table", MAX_TABLED)?;
        let mut order: Vec<usize> = (0..values.len()).collect();
        order.sort_by_key(|&i| (values[i], i));
        let shape = self.shape();
        let mut out: Vec<(i64, Vec<IntTuple>)> = Vec::new();
        for i in order {
            let idx = i64::try_from(i).map_err(|_| LayoutError::overflow("offset_table"))?;
            let c = shape.idx2crd(&IntTuple::int(idx))?;
            match out.last_mut() {
                Some((v, cs)) if *v == values[i] => cs.push(c),
                _ => out.push((values[i], alloc::vec![c])),
            }
        }
        Ok(out)
    }

    /// The indices `i` with `self(i) == i` (raw offsets, no rebasing), increasing.
    ///
    /// # Errors
    /// As [`LayoutChain::image_offsets`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// assert_eq!("Sw<2,0,2> o 0 o 16:1".parse::<LayoutChain>()?.fixed_points()?, vec![0, 1, 2, 3]);
    /// assert_eq!("4:-1".parse::<LayoutChain>()?.fixed_points()?, vec![0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fixed_points(&self) -> Result<Vec<i64>, LayoutError> {
        Ok(self
            .enumerate("fixed_points", MAX_LISTED)?
            .into_iter()
            .zip(0i64..)
            .filter(|&(v, i)| v == i)
            .map(|(_, i)| i)
            .collect())
    }

    /// The permutation of `[0, size)` a layout induces when its image is a dense interval hit
    /// once per point: `p[i] = self(i) - min(image)`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if two points share an offset or the image has gaps;
    /// otherwise as [`LayoutChain::image_offsets`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// assert_eq!("4:-1".parse::<LayoutChain>()?.permutation()?, vec![3, 2, 1, 0]);
    /// assert!("4:2".parse::<LayoutChain>()?.permutation().is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn permutation(&self) -> Result<Vec<i64>, LayoutError> {
        self.permutation_for("permutation")
    }

    fn permutation_for(&self, op: &'static str) -> Result<Vec<i64>, LayoutError> {
        let values = self.enumerate(op, MAX_LISTED)?;
        let mut sorted = values.clone();
        sorted.sort_unstable();
        sorted.dedup();
        let n = values.len();
        if sorted.len() != n {
            return Err(invalid(
                op,
                format!(
                    "{self} is not a permutation: {} points share {} offsets",
                    n,
                    sorted.len()
                ),
            ));
        }
        let (lo, hi) = match (sorted.first(), sorted.last()) {
            (Some(&lo), Some(&hi)) => (lo, hi),
            _ => return Ok(Vec::new()),
        };
        let dense = hi
            .checked_sub(lo)
            .is_some_and(|d| usize::try_from(d).is_ok_and(|d| d + 1 == n));
        if !dense {
            return Err(invalid(
                op,
                format!(
                    "{self} is not a permutation: its image [{lo}, {hi}] has gaps ({n} points)"
                ),
            ));
        }
        Ok(values.into_iter().map(|v| v - lo).collect())
    }

    /// The cycles of [`LayoutChain::permutation`]: each starts at its smallest element `i` and
    /// lists `i, p(i), p(p(i)), ...`; cycles in increasing order of their start, fixed points
    /// included.
    ///
    /// # Laws
    /// * The cycles partition `[0, size)`; within a cycle, each element maps to the next and the
    ///   last to the first.
    ///
    /// # Errors
    /// As [`LayoutChain::permutation`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// let c = "Sw<2,0,2> o 0 o 16:1".parse::<LayoutChain>()?.cycles()?;
    /// assert_eq!(c[4], vec![4, 5]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cycles(&self) -> Result<Vec<Vec<i64>>, LayoutError> {
        cycles_of(&self.permutation_for("cycles")?)
    }

    /// The order of [`LayoutChain::permutation`]: the least `k >= 1` with `p^k` the identity
    /// (the lcm of the cycle lengths).
    ///
    /// # Errors
    /// As [`LayoutChain::permutation`]; [`LayoutError::Overflow`] if the order leaves `i64`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// assert_eq!("Sw<3,0,3> o 0 o (8,8):(8,1)".parse::<LayoutChain>()?.permutation_order()?, 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn permutation_order(&self) -> Result<i64, LayoutError> {
        let mut order: i64 = 1;
        for c in cycles_of(&self.permutation_for("permutation_order")?)? {
            let len =
                i64::try_from(c.len()).map_err(|_| LayoutError::overflow("permutation_order"))?;
            order = (order / gcd(order, len))
                .checked_mul(len)
                .ok_or(LayoutError::overflow("permutation_order"))?;
        }
        Ok(order)
    }

    /// The contiguous vector width from the start: CuTe `max_common_vector(self, size:1)`, the
    /// number of leading indices `i` with `self(i) == self(0) + i` that CuTe can prove from the
    /// layout (a swizzle caps it at `2^M`). `None` where CuTe does not define
    /// `max_common_vector` (see [`LayoutChain::max_common_vector`]), and for a swizzled layout
    /// with a nonzero offset (CuTe assumes the offset leaves the swizzle's bits alone, which it
    /// need not).
    ///
    /// # Laws
    /// * `self(i) == self(0) + i` for every `i < contiguity`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// assert_eq!("(4,8):(1,8)".parse::<LayoutChain>()?.contiguity(), Some(4));
    /// assert_eq!("Sw<3,4,3> o 0 o (8,64):(64,1)".parse::<LayoutChain>()?.contiguity(), Some(1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn contiguity(&self) -> Option<i64> {
        if self.layers().iter().any(|(_, off)| *off != 0) {
            return None;
        }
        let id = Layout::col_major(IntTuple::int(self.size())).ok()?;
        self.max_common_vector(&LayoutChain::from(id))
    }

    /// [`LayoutChain::contiguity`] of each top-level mode (the other modes fixed at 0).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// assert_eq!("(4,8):(8,1)".parse::<LayoutChain>()?.mode_contiguity(), Some(vec![1, 8]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn mode_contiguity(&self) -> Option<Vec<i64>> {
        (0..self.rank())
            .map(|k| self.mode_at(&[k]).and_then(|m| m.contiguity()))
            .collect()
    }

    /// The matrix over GF(2) of a layout that is linear there: `offset bits = M * coordinate
    /// bits (mod 2)`. Columns are the coordinate bits, colexicographic (leaf 0's low bit first);
    /// rows the offset bits, bit 0 first, as many as the largest offset needs (at least one).
    /// Column `j` is the offset of the coordinate with only bit `j` set: `stride * 2^b` for bit
    /// `b` of a leaf, passed through the swizzles of a swizzled layout.
    ///
    /// Defined when every leaf extent is a power of two, every stride is `>= 0`, no two columns
    /// share a set bit (then the sum of strides is their XOR), and the outer functions are
    /// swizzles with offset 0 (each XOR-linear).
    ///
    /// # Laws
    /// * For every index `i` with bits `c`: the bits of `self(i)` are `M c (mod 2)`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] where the layout is not linear over GF(2) as said;
    /// [`LayoutError::TooLarge`] past 62 coordinate bits.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutChain;
    /// let m = "Sw<1,0,-1> o 0 o 4:1".parse::<LayoutChain>()?.f2_matrix()?;
    /// assert_eq!(m, vec![vec![1, 0], vec![1, 1]]);
    /// assert!("6:1".parse::<LayoutChain>()?.f2_matrix().is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn f2_matrix(&self) -> Result<Vec<Vec<u8>>, LayoutError> {
        const OP: &str = "f2_matrix";
        let l = self.layout();
        let mut cols: Vec<i64> = Vec::new();
        for (&s, &d) in l.shape_leaves().iter().zip(l.stride_leaves()) {
            if s < 1 || s.count_ones() != 1 {
                return Err(invalid(
                    OP,
                    format!("{self}: extent {s} is not a power of two"),
                ));
            }
            if d < 0 {
                return Err(invalid(
                    OP,
                    format!("{self}: stride {d} is negative, so the layout is affine, not linear"),
                ));
            }
            for b in 0..s.trailing_zeros() {
                if cols.len() >= 62 {
                    return Err(LayoutError::TooLarge {
                        op: OP,
                        what: format!("{self}: more than 62 coordinate bits"),
                        limit: 62,
                    });
                }
                let v = d.checked_mul(1i64 << b).ok_or(LayoutError::overflow(OP))?;
                cols.push(v);
            }
        }
        let mut seen = 0i64;
        for &v in &cols {
            if seen & v != 0 {
                return Err(invalid(
                    OP,
                    format!(
                        "{self}: the strides overlap in bit {} (their sum is not their XOR)",
                        (seen & v).trailing_zeros()
                    ),
                ));
            }
            seen |= v;
        }
        for (f, off) in self.layers() {
            if !matches!(f, OuterFn::Swizzle(_)) || *off != 0 {
                return Err(invalid(
                    OP,
                    format!("{self}: only swizzles with offset 0 are linear outer functions"),
                ));
            }
        }
        let cols = cols
            .into_iter()
            .map(|v| self.post(v))
            .collect::<Result<Vec<_>, _>>()?;
        let all = cols.iter().fold(0i64, |a, &v| a | v);
        let rows = (64 - all.leading_zeros()).max(1) as usize;
        Ok((0..rows)
            .map(|r| cols.iter().map(|&v| ((v >> r) & 1) as u8).collect())
            .collect())
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

fn cycles_of(p: &[i64]) -> Result<Vec<Vec<i64>>, LayoutError> {
    let mut seen = alloc::vec![false; p.len()];
    let mut out = Vec::new();
    for start in 0..p.len() {
        if seen[start] {
            continue;
        }
        let mut c = Vec::new();
        let mut k = start;
        while !seen[k] {
            seen[k] = true;
            c.push(i64::try_from(k).map_err(|_| LayoutError::overflow("cycles"))?);
            k = usize::try_from(p[k]).map_err(|_| LayoutError::overflow("cycles"))?;
        }
        out.push(c);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn chains() -> Vec<LayoutChain> {
        // Every layout of rank <= 2 with extents 1..4 and strides -2..4, and swizzled ones.
        let mut out = Vec::new();
        for s0 in 1..=4 {
            for d0 in -2..=4 {
                out.push(format!("{s0}:{d0}"));
                for s1 in 1..=4 {
                    for d1 in -2..=4 {
                        out.push(format!("({s0},{s1}):({d0},{d1})"));
                    }
                }
            }
        }
        for sw in ["Sw<1,0,1>", "Sw<2,0,2>", "Sw<1,1,-1>", "Sw<1,0,2>"] {
            for l in ["16:1", "(4,4):(4,1)", "8:2", "(2,4):(4,1)"] {
                out.push(format!("{sw} o 0 o {l}"));
                out.push(format!("{sw} o 1 o {l}"));
                out.push(format!("8:2 o 0 o {sw} o 0 o {l}"));
            }
        }
        out.iter().map(|s| s.parse().unwrap()).collect()
    }

    #[test]
    fn laws_over_small_domain() {
        for c in chains() {
            let v = c.values().unwrap();
            // image
            let img = c.image_offsets().unwrap();
            assert!(img.windows(2).all(|w| w[0] < w[1]), "{c}");
            assert!(v.iter().all(|x| img.binary_search(x).is_ok()), "{c}");
            assert_eq!(img.len() == v.len(), c.is_injective().unwrap(), "{c}");
            // offset table: every coordinate once, mapped to its offset
            let t = c.offset_table().unwrap();
            let total: usize = t.iter().map(|(_, cs)| cs.len()).sum();
            assert_eq!(total, v.len(), "{c}");
            for (off, cs) in &t {
                for crd in cs {
                    assert_eq!(c.index(crd).unwrap(), *off, "{c} at {crd}");
                }
            }
            // onto [0, n) exactly when the sorted image is 0..n
            for n in 0..=20 {
                assert_eq!(
                    c.is_surjective_onto(n).unwrap(),
                    img == (0..n).collect::<Vec<_>>(),
                    "{c} onto {n}"
                );
            }
            // fixed points
            let fp = c.fixed_points().unwrap();
            for (i, &x) in v.iter().enumerate() {
                assert_eq!(fp.contains(&(i as i64)), x == i as i64, "{c}");
            }
            // permutation exactly when bijective onto its range
            match c.permutation() {
                Ok(p) => {
                    assert!(c.is_bijective().unwrap(), "{c}");
                    let cy = c.cycles().unwrap();
                    let mut all: Vec<i64> = cy.iter().flatten().copied().collect();
                    all.sort_unstable();
                    assert_eq!(all, (0..v.len() as i64).collect::<Vec<_>>(), "{c}");
                    for cyc in &cy {
                        for k in 0..cyc.len() {
                            let next = cyc[(k + 1) % cyc.len()];
                            assert_eq!(p[cyc[k] as usize], next, "{c}");
                        }
                    }
                    // p^order is the identity, and no smaller positive power is
                    let ord = c.permutation_order().unwrap();
                    let mut q: Vec<i64> = (0..p.len() as i64).collect();
                    for k in 1..=ord {
                        q = q.iter().map(|&x| p[x as usize]).collect();
                        let id = q.iter().enumerate().all(|(i, &x)| x == i as i64);
                        assert_eq!(id, k == ord, "{c} power {k} of order {ord}");
                    }
                }
                Err(_) => assert!(!c.is_bijective().unwrap(), "{c}"),
            }
            // contiguity: the first `k` values are consecutive
            if let Some(k) = c.contiguity() {
                assert!(k >= 1 && k <= v.len() as i64, "{c}");
                for i in 0..k as usize {
                    assert_eq!(v[i], v[0] + i as i64, "{c} contiguity {k}");
                }
            }
            // f2 matrix: where defined, it computes every offset
            if let Ok(m) = c.f2_matrix() {
                for (i, &x) in v.iter().enumerate() {
                    let mut y = 0i64;
                    for (r, row) in m.iter().enumerate() {
                        let bit = row
                            .iter()
                            .enumerate()
                            .fold(0u8, |a, (j, &e)| a ^ (e & ((i >> j) & 1) as u8));
                        y |= i64::from(bit) << r;
                    }
                    assert_eq!(y, x, "{c} at {i}");
                }
            }
        }
    }

    #[test]
    fn f2_refusals_and_examples() {
        let m = |s: &str| s.parse::<LayoutChain>().unwrap().f2_matrix();
        assert!(m("(4,2):(1,2)").is_err()); // overlapping strides
        assert!(m("4:-1").is_err());
        assert!(m("8:2 o 0 o 8:1").is_err()); // an outer layout
        assert!(m("Sw<1,0,2> o 1 o 8:1").is_err()); // affine
        assert_eq!(m("4:2").unwrap(), vec![vec![0, 0], vec![1, 0], vec![0, 1]]);
        assert_eq!(m("1:0").unwrap(), vec![Vec::<u8>::new()]);
        let sw = m("Sw<3,0,3> o 0 o (8,8):(8,1)").unwrap();
        assert_eq!(sw[0], vec![1, 0, 0, 1, 0, 0]);
    }

    #[test]
    fn limits_are_typed_refusals() {
        let big: LayoutChain = "(512,512):(1,512)".parse().unwrap();
        assert_eq!(big.offset_table().unwrap_err().kind(), "TooLarge");
        assert_eq!(big.image_offsets().unwrap().len(), 1 << 18);
        let huge: LayoutChain = "(2048,1024):(1,2048)".parse().unwrap();
        assert_eq!(huge.cycles().unwrap_err().kind(), "TooLarge");
        assert!(huge.f2_matrix().is_ok()); // no enumeration
    }
}
