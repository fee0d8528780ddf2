//! Layout construction and restructuring from CuTe's `layout.hpp` / `stride.hpp`:
//! `compact_col_major` / `compact_row_major` with a start, `product_like`,
//! `make_layout_like`, `make_fragment_like`, `coshape`, `dice` of a layout and
//! `domain_distribute`.

use alloc::vec::Vec;

use crate::algebra::Tiler;
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::slice::SliceCoord;
use crate::layout::Layout;

fn ovf(op: &'static str) -> LayoutError {
    LayoutError::overflow(op)
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The compact layout of `shape` whose leaves' strides increase in the order of `keys` (one per
/// leaf; `None` for a stride-0 leaf, which keeps stride 0). Leaves with equal keys start at the
/// same stride, as in CuTe's `compact_order`; an extent-1 leaf gets stride 0.
pub(crate) fn compact_in_order<K: Ord>(
    shape: &IntTuple,
    extents: &[i64],
    keys: &[Option<K>],
) -> Result<Layout, LayoutError> {
    let eff: Vec<i64> = extents
        .iter()
        .zip(keys)
        .map(|(&s, k)| if k.is_none() { 1 } else { s })
        .collect();
    let mut out = Vec::with_capacity(extents.len());
    for (k, key) in keys.iter().enumerate() {
        let Some(key) = key.as_ref().filter(|_| eff[k] != 1) else {
            out.push(0);
            continue;
        };
        let mut start = 1i64;
        for (j, other) in keys.iter().enumerate() {
            if other.as_ref().is_some_and(|o| o < key) {
                start = start.checked_mul(eff[j]).ok_or(ovf("make_layout_like"))?;
            }
        }
        out.push(start);
    }
    let st = if shape.is_int() {
        IntTuple::int(out[0])
    } else {
        IntTuple::flat(out).unflatten(shape)?
    };
    Layout::new(shape.clone(), st)
}

impl IntTuple {
    /// CuTe `compact_col_major(shape, start)` (`row == false`) or `compact_row_major(shape,
    /// start)`: the compact stride of `shape` whose smallest stride is `start`; extent-1 leaves
    /// get stride 0, as CuTe's static shapes do.
    ///
    /// # Laws
    /// * `Layout::new(shape, compact_major(shape, 1, row))` is [`Layout::col_major`] /
    ///   [`Layout::row_major`]; a start `k` scales every stride by `k`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidExtent`] for a non-positive extent; [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let s: IntTuple = "(2,(3,4))".parse()?;
    /// assert_eq!(IntTuple::compact_major(&s, 2, false)?.to_string(), "(2,(4,12))");
    /// assert_eq!(IntTuple::compact_major(&s, 1, true)?.to_string(), "(12,(4,1))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn compact_major(shape: &IntTuple, start: i64, row: bool) -> Result<IntTuple, LayoutError> {
        let l = if row {
            Layout::row_major(shape.clone())?
        } else {
            Layout::col_major(shape.clone())?
        };
        let v = l
            .stride_leaves()
            .iter()
            .map(|&d| d.checked_mul(start).ok_or(ovf("compact_major")))
            .collect::<Result<Vec<_>, _>>()?;
        if shape.is_int() {
            return Ok(IntTuple::int(v[0]));
        }
        IntTuple::flat(v).unflatten(shape)
    }

    /// CuTe `product_like(tuple, guide)`: at each leaf of `guide`, the product of the element of
    /// `self` there.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if a tuple of `guide` meets an integer or a tuple of
    /// another rank; [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let t: IntTuple = "((2,3),(4,(5,6)))".parse()?;
    /// assert_eq!(t.product_like(&"(0,(0,0))".parse()?)?.to_string(), "(6,(4,30))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn product_like(&self, guide: &IntTuple) -> Result<IntTuple, LayoutError> {
        if guide.is_int() {
            return Ok(IntTuple::int(self.size()?));
        }
        if self.is_int() || self.rank() != guide.rank() {
            return Err(LayoutError::InvalidArgument {
                op: "product_like",
                what: alloc::format!("{self} does not have the profile of {guide}"),
            });
        }
        IntTuple::tuple(
            self.elements()
                .zip(guide.elements())
                .map(|(t, g)| t.product_like(&g))
                .collect::<Result<Vec<_>, _>>()?,
        )
    }
}

impl Layout {
    /// CuTe `make_layout_like(layout)`: the same shape with compact strides that increase in the
    /// order of `self`'s strides; stride-0 modes keep stride 0 (they take no room). Leaves with
    /// equal strides start at the same stride, as in CuTe's `compact_order`.
    ///
    /// # Laws
    /// * Same shape; for an injective `self`, the result is compact (a bijection onto
    ///   `[0, size)`) and orders its leaves like `self`.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(4,(2,3)):(6,(0,1))".parse()?;
    /// assert_eq!(l.layout_like()?.to_string(), "(4,(2,3)):(3,(0,1))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "make_layout_like")]
    pub fn layout_like(&self) -> Result<Layout, LayoutError> {
        let keys: Vec<Option<i64>> = self
            .stride_leaves()
            .iter()
            .map(|&d| (d != 0).then_some(d))
            .collect();
        compact_in_order(&self.shape(), self.shape_leaves(), &keys)
    }

    /// CuTe `make_fragment_like(layout)`: a register fragment for `self`. Mode 0 gets compact
    /// column-major strides (its stride-0 leaves kept), the other modes are ordered like
    /// `self`'s strides (CuTe's `make_ordered_layout`, `make_layout(shape, compact_order(shape,
    /// stride))`: modes of equal stride share a stride, `(2,3,4):(1,2,2)` gives
    /// `(2,3,4):(1,2,2)`, as CuTe C++) and placed after it (`tiled_product`). A layout of
    /// rank 1 (or an integer shape) gets the column-major layout of its shape.
    ///
    /// # Laws
    /// * Same size as `self`; mode 0 has `self`'s mode-0 shape.
    ///
    /// # Errors
    /// As [`Layout::ordered`] and [`Layout::tiled_product`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "((2,2),4,2):((1,0),16,64)".parse()?;
    /// assert_eq!(l.fragment_like()?.to_string(), "((2,2),4,2):((1,0),2,8)");
    /// let tied: Layout = "(2,3,4):(1,2,2)".parse()?; // modes 1 and 2 share a stride, as in CuTe
    /// assert_eq!(tied.fragment_like()?.to_string(), "(2,3,4):(1,2,2)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "make_fragment_like")]
    pub fn fragment_like(&self) -> Result<Layout, LayoutError> {
        let r = self.rank();
        let m0 = match self.mode(0) {
            Some(m0) if r > 1 && !self.shape().is_int() => m0,
            _ => return Layout::col_major(self.shape()),
        };
        let s0 = m0.shape();
        let eff = IntTuple::flat(
            m0.shape_leaves()
                .iter()
                .zip(m0.stride_leaves())
                .map(|(&s, &d)| if d == 0 { 1 } else { s }),
        );
        let eff = if s0.is_int() {
            eff.get(0).unwrap_or(IntTuple::int(1))
        } else {
            eff.unflatten(&s0)?
        };
        let d0 = IntTuple::compact_major(&eff, 1, false)?;
        let first = Layout::new(s0, d0)?;
        let rest = self.take_modes(1, r)?;
        let ordered = ordered_as_cute(rest.shape(), rest.stride())?;
        let t = Tiler::Layout(ordered);
        first.tiled_product(&t)
    }

    /// CuTe `coshape(layout)`: `1 + inner_product(shape - 1, |stride|)` per mode, as a tuple
    /// congruent to the shape's top level (an integer for a rank-1 leaf layout).
    ///
    /// # Laws
    /// * `size(coshape(L)) == cosize(L)` for a layout of one mode; in general each element is
    ///   one past the largest offset of that mode.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(4,(2,3)):(2,(1,-8))".parse()?;
    /// assert_eq!(l.coshape()?.to_string(), "24"); // 1 + 3*2 + 1*1 + 2*8
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn coshape(&self) -> Result<IntTuple, LayoutError> {
        let mut acc = 0i64;
        for (&s, &d) in self.shape_leaves().iter().zip(self.stride_leaves()) {
            let t = (s - 1)
                .checked_mul(d.checked_abs().ok_or(ovf("coshape"))?)
                .ok_or(ovf("coshape"))?;
            acc = acc.checked_add(t).ok_or(ovf("coshape"))?;
        }
        Ok(IntTuple::int(acc.checked_add(1).ok_or(ovf("coshape"))?))
    }

    /// CuTe `dice(c, layout)`: the modes where `c` has an integer (the complement of
    /// [`Layout::slice`]), shape and stride diced alike.
    ///
    /// # Errors
    /// As [`IntTuple::dice_tuple`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l: Layout = "(3,4):(1,4)".parse()?;
    /// assert_eq!(l.dice(&"(0,_)".parse()?)?.to_string(), "(3):(1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn dice(&self, c: &SliceCoord) -> Result<Layout, LayoutError> {
        Layout::new(self.shape().dice_tuple(c)?, self.stride().dice_tuple(c)?)
    }

    /// CuTe `domain_distribute(shape, n)`: `n` spread over the flat modes of `shape` left to
    /// right, `gcd(extent, rest)` from each, with the column-major strides of `shape`;
    /// coalesced.
    ///
    /// # Laws
    /// * The result's size divides `n` and `size(shape)`; its offsets are offsets of
    ///   `make_layout(shape)`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidExtent`] for `n < 1`; as [`Layout::col_major`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// assert_eq!(Layout::domain_distribute(&"(4,8)".parse()?, 16)?.to_string(), "16:1");
    /// assert_eq!(Layout::domain_distribute(&"(2,3,4)".parse()?, 8)?.to_string(), "(2,4):(1,6)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn domain_distribute(shape: &IntTuple, n: i64) -> Result<Layout, LayoutError> {
        if n < 1 {
            return Err(LayoutError::InvalidArgument {
                op: "domain_distribute",
                what: alloc::format!("n = {n} is below 1"),
            });
        }
        let flat = shape.flatten();
        let stride = Layout::col_major(flat.clone())?;
        let mut rest = n;
        let mut ext = Vec::with_capacity(flat.leaves().len());
        for &a in flat.leaves() {
            let g = gcd(a, rest);
            ext.push(g);
            rest /= g;
        }
        let d: Vec<i64> = stride.stride_leaves().to_vec();
        let l = if flat.is_int() {
            Layout::new(IntTuple::int(ext[0]), IntTuple::int(d[0]))?
        } else {
            Layout::new(IntTuple::flat(ext), IntTuple::flat(d))?
        };
        Ok(l.coalesce())
    }
}

/// CuTe C++'s `make_ordered_layout(shape, order)` as `make_fragment_like` uses it:
/// `make_layout(shape, compact_order(shape, order))`, leaves of equal rank sharing a start
/// ([`Layout::ordered`] breaks such ties by position instead, so that it is always compact).
pub(crate) fn ordered_as_cute(shape: IntTuple, order: IntTuple) -> Result<Layout, LayoutError> {
    let stride = IntTuple::compact_order(&shape, &order)?;
    Layout::new(shape, stride)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    /// Laws over a small domain: make_layout_like of every injective layout of two or three
    /// modes with extents 1..=3 and strides from a small set is compact with the same shape and
    /// the same order of offsets as the input's leaves; compact_major agrees with col_major and
    /// row_major.
    #[test]
    fn layout_like_law_small_domain() {
        let strides = [0i64, 1, 2, 3, 6, 12];
        for s0 in 1..=3 {
            for s1 in 1..=3 {
                for &d0 in &strides {
                    for &d1 in &strides {
                        let l = Layout::new(IntTuple::flat([s0, s1]), IntTuple::flat([d0, d1]))
                            .unwrap();
                        let r = l.layout_like().unwrap();
                        assert_eq!(r.shape(), l.shape());
                        if l.is_injective().unwrap_or(false) && d0 != d1 {
                            assert!(r.filter().is_compact(), "{l} -> {r}");
                            let rs = r.stride_leaves();
                            if s0 > 1 && s1 > 1 {
                                assert_eq!(d0 < d1, rs[0] < rs[1], "{l} -> {r}");
                            }
                        }
                        let sh = IntTuple::flat([s0, s1]);
                        assert_eq!(
                            IntTuple::compact_major(&sh, 1, false).unwrap(),
                            Layout::col_major(sh.clone()).unwrap().stride()
                        );
                    }
                }
            }
        }
    }

    /// Law over a small domain: basis coalesce and divides keep the function of every point.
    #[test]
    fn basis_coalesce_and_divide_keep_values() {
        for shape in ["(2,4)", "(4,(2,3))", "((2,2),3,2)"] {
            let id = Layout::identity(shape.parse().unwrap()).unwrap();
            let c = id.coalesce().unwrap();
            for i in 0..id.size() {
                assert_eq!(c.value_1d(i), id.value_1d(i), "{id} -> {c} at {i}");
            }
            let t: Tiler = "2".parse().unwrap();
            let Ok(d) = id.divide_with(&t, Layout::logical_divide) else {
                continue;
            };
            let col = Layout::col_major(id.shape()).unwrap();
            let dc = col.logical_divide(&t).unwrap();
            for i in 0..d.size() {
                let k = dc.index_1d(i).unwrap();
                assert_eq!(d.value_1d(i), id.value_1d(k), "{d} at {i}");
            }
        }
    }

    #[test]
    fn examples() {
        let l: Layout = "((2,2),4,2):((1,0),16,64)".parse().unwrap();
        let f = l.fragment_like().unwrap();
        assert_eq!(f.size(), l.size());
        assert_eq!(
            Layout::domain_distribute(&"(2,3,4)".parse().unwrap(), 8)
                .unwrap()
                .to_string(),
            "(2,1,4):(1,0,6)"
                .parse::<Layout>()
                .unwrap()
                .coalesce()
                .to_string()
        );
    }
}
