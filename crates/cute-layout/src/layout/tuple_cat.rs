//! CuTe `tuple_cat`: the top-level elements of several tuples (or the top-level modes of
//! several layouts) as one tuple (layout); CuTe's restructuring of a tuple's top-level
//! elements: `append`, `prepend`, `insert`, `remove`, `replace`, `take`, `select`, `group`.

use alloc::vec::Vec;

use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;

impl IntTuple {
    /// CuTe `tuple_cat(a, b, ...)`: the elements of each argument in turn, as one tuple; an
    /// integer counts as a tuple of one element.
    ///
    /// # Laws
    /// * `rank(R) = sum of rank(a_k)` (1 for an integer); element `j` of `R` is the `j`-th
    ///   element met going through the arguments in order.
    ///
    /// # Errors
    /// [`LayoutError::TooDeep`] past the nesting limit.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let a: IntTuple = "(3,128)".parse()?;
    /// let b: IntTuple = "(1,(3,4),(6))".parse()?;
    /// assert_eq!(IntTuple::tuple_cat(&[a, b, IntTuple::int(5)])?.to_string(), "(3,128,1,(3,4),(6),5)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tuple_cat(parts: &[IntTuple]) -> Result<IntTuple, LayoutError> {
        let mut elems: Vec<IntTuple> = Vec::new();
        for p in parts {
            if p.is_int() {
                elems.push(p.clone());
            } else {
                elems.extend(p.elements());
            }
        }
        IntTuple::tuple(elems)
    }
}

impl Layout {
    /// `tuple_cat` of layouts: the top-level modes of each argument in turn, as one layout
    /// (CuTe `make_layout(tuple_cat(shape(a), shape(b)...), tuple_cat(stride(a), stride(b)...))`);
    /// a layout of integer shape is one mode.
    ///
    /// # Laws
    /// * `rank(R) = sum of rank(a_k)` (1 for an integer shape), and `R(c_0, ..., c_n) = sum of
    ///   a_k(its coordinates)`: mode `j` of `R` is the `j`-th mode met.
    ///
    /// # Errors
    /// [`LayoutError::TooDeep`] past the nesting limit; [`LayoutError::Overflow`] if the size or
    /// span leaves `i64`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let a: Layout = "(7,2):(2,1)".parse()?;
    /// let b: Layout = "(3,3):(0,10)".parse()?;
    /// assert_eq!(Layout::tuple_cat(&[a, b])?.to_string(), "(7,2,3,3):(2,1,0,10)");
    /// assert_eq!(Layout::tuple_cat(&["3:1".parse()?, "4:3".parse()?])?.to_string(), "(3,4):(1,3)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tuple_cat(parts: &[Layout]) -> Result<Layout, LayoutError> {
        let mut modes: Vec<Layout> = Vec::new();
        for p in parts {
            if p.shape().is_int() {
                modes.push(p.clone());
            } else {
                modes.extend(p.modes());
            }
        }
        Layout::from_modes(modes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    #[test]
    fn tuple_cat_law() {
        let ls: Vec<Layout> = [
            "3:1",
            "(2,3):(1,2)",
            "((2,2),3):((1,4),8)",
            "():()",
            "(5):(7)",
        ]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
        for a in &ls {
            for b in &ls {
                let r = Layout::tuple_cat(&[a.clone(), b.clone()]).unwrap();
                let rank = |l: &Layout| if l.shape().is_int() { 1 } else { l.rank() };
                assert_eq!(r.rank(), rank(a) + rank(b), "{a} {b}");
                // R's value is the sum of a's and b's at the split coordinate
                for i in 0..a.size() {
                    for j in 0..b.size() {
                        let k = i + a.size() * j;
                        assert_eq!(
                            r.index_any(k).unwrap(),
                            a.index_any(i).unwrap() + b.index_any(j).unwrap(),
                            "{a} ++ {b} at {k}"
                        );
                    }
                }
                let t = IntTuple::tuple_cat(&[a.shape(), b.shape()]).unwrap();
                assert_eq!(format!("{t}"), format!("{}", r.shape()));
            }
        }
    }
}

/// The top-level elements of `t` (an integer is the 1-tuple of itself, as in CuTe's `get<0>`).
fn elems(t: &IntTuple) -> Vec<IntTuple> {
    if t.is_int() {
        alloc::vec![t.clone()]
    } else {
        t.elements().collect()
    }
}

fn out_of_range(op: &'static str, index: usize, rank: usize) -> LayoutError {
    LayoutError::ModeOutOfRange { op, index, rank }
}

/// CuTe's restructuring of the top-level elements of a tuple. An integer counts as the tuple of
/// one element (CuTe's `get<0>(x)` of an integer is `x`).
impl IntTuple {
    /// CuTe `append(t, x)`: the elements of `t`, then `x` as one more element.
    ///
    /// # Laws
    /// * `rank(R) == rank(t) + 1`, `get<rank(t)>(R) == x`, the first elements are `t`'s.
    ///
    /// # Errors
    /// [`LayoutError::TooDeep`] past the nesting limit.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let t: IntTuple = "(2,(3,4))".parse()?;
    /// assert_eq!(t.append(&"5".parse()?)?.to_string(), "(2,(3,4),5)");
    /// assert_eq!(t.prepend(&"(5,6)".parse()?)?.to_string(), "((5,6),2,(3,4))");
    /// assert_eq!(IntTuple::int(2).append(&IntTuple::int(3))?.to_string(), "(2,3)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn append(&self, x: &IntTuple) -> Result<IntTuple, LayoutError> {
        let mut e = elems(self);
        e.push(x.clone());
        IntTuple::tuple(e)
    }

    /// CuTe `prepend(t, x)`: `x`, then the elements of `t`.
    ///
    /// # Errors
    /// As [`IntTuple::append`].
    pub fn prepend(&self, x: &IntTuple) -> Result<IntTuple, LayoutError> {
        let mut e = elems(self);
        e.insert(0, x.clone());
        IntTuple::tuple(e)
    }

    /// CuTe `insert<i>(t, x)`: `x` placed before element `i` (`i == rank` appends).
    ///
    /// # Errors
    /// [`LayoutError::ModeOutOfRange`] if `i > rank`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let t: IntTuple = "(2,3,4)".parse()?;
    /// assert_eq!(t.insert(1, &"7".parse()?)?.to_string(), "(2,7,3,4)");
    /// assert_eq!(t.remove(1)?.to_string(), "(2,4)");
    /// assert_eq!(t.replace(2, &"(5,6)".parse()?)?.to_string(), "(2,3,(5,6))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn insert(&self, i: usize, x: &IntTuple) -> Result<IntTuple, LayoutError> {
        let mut e = elems(self);
        if i > e.len() {
            return Err(out_of_range("insert", i, e.len()));
        }
        e.insert(i, x.clone());
        IntTuple::tuple(e)
    }

    /// CuTe `remove<i>(t)`: `t` without element `i`.
    ///
    /// # Errors
    /// [`LayoutError::ModeOutOfRange`] if `i >= rank`.
    pub fn remove(&self, i: usize) -> Result<IntTuple, LayoutError> {
        let mut e = elems(self);
        if i >= e.len() {
            return Err(out_of_range("remove", i, e.len()));
        }
        e.remove(i);
        IntTuple::tuple(e)
    }

    /// CuTe `replace<i>(t, x)`: element `i` replaced by `x`.
    ///
    /// # Errors
    /// [`LayoutError::ModeOutOfRange`] if `i >= rank`.
    pub fn replace(&self, i: usize, x: &IntTuple) -> Result<IntTuple, LayoutError> {
        let mut e = elems(self);
        let rank = e.len();
        let slot = e.get_mut(i).ok_or(out_of_range("replace", i, rank))?;
        *slot = x.clone();
        IntTuple::tuple(e)
    }

    /// CuTe `take<begin,end>(t)`: the tuple of elements `[begin, end)`.
    ///
    /// # Errors
    /// [`LayoutError::EmptyModeRange`] if `begin >= end`, [`LayoutError::ModeOutOfRange`] if
    /// `end > rank`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::IntTuple;
    /// let t: IntTuple = "(2,3,5,7)".parse()?;
    /// assert_eq!(t.take(1, 3)?.to_string(), "(3,5)");
    /// assert_eq!(t.select(&[3, 0])?.to_string(), "(7,2)");
    /// assert_eq!(t.group(1, 3)?.to_string(), "(2,(3,5),7)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn take(&self, begin: usize, end: usize) -> Result<IntTuple, LayoutError> {
        let e = elems(self);
        check_range("take", begin, end, e.len())?;
        IntTuple::tuple(e[begin..end].iter().cloned())
    }

    /// CuTe `select<i...>(t)`: the tuple of the listed elements, in the listed order.
    ///
    /// # Errors
    /// [`LayoutError::ModeOutOfRange`] for an index `>= rank`.
    pub fn select(&self, idx: &[usize]) -> Result<IntTuple, LayoutError> {
        let e = elems(self);
        let picked: Result<Vec<IntTuple>, LayoutError> = idx
            .iter()
            .map(|&i| e.get(i).cloned().ok_or(out_of_range("select", i, e.len())))
            .collect();
        IntTuple::tuple(picked?)
    }

    /// CuTe `group<begin,end>(t)`: elements `[begin, end)` become one element.
    ///
    /// # Errors
    /// As [`IntTuple::take`].
    pub fn group(&self, begin: usize, end: usize) -> Result<IntTuple, LayoutError> {
        let e = elems(self);
        check_range("group", begin, end, e.len())?;
        let inner = IntTuple::tuple(e[begin..end].iter().cloned())?;
        let out = e[..begin]
            .iter()
            .cloned()
            .chain(core::iter::once(inner))
            .chain(e[end..].iter().cloned());
        IntTuple::tuple(out)
    }
}

fn check_range(op: &'static str, begin: usize, end: usize, rank: usize) -> Result<(), LayoutError> {
    if begin >= end {
        return Err(LayoutError::EmptyModeRange { op, begin, end });
    }
    if end > rank {
        return Err(out_of_range(op, end - 1, rank));
    }
    Ok(())
}

#[cfg(test)]
mod restructure_tests {
    use alloc::vec::Vec;

    use crate::layout::int_tuple::IntTuple;

    /// Over small tuples, every restructuring agrees with its definition element by element.
    #[test]
    fn restructuring_laws_over_small_tuples() {
        let ts: Vec<IntTuple> = ["5", "(2)", "(2,3)", "(2,(3,4),5)", "((1,2),(3,(4,5)),6,7)"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let x: IntTuple = "(8,9)".parse().unwrap();
        for t in &ts {
            let e = super::elems(t);
            let r = e.len();
            let a = t.append(&x).unwrap();
            assert_eq!(a.rank(), r + 1);
            assert_eq!(a.get(r).unwrap(), x);
            assert_eq!(t.prepend(&x).unwrap().get(0).unwrap(), x);
            for i in 0..=r {
                let ins = t.insert(i, &x).unwrap();
                assert_eq!(ins.get(i).unwrap(), x);
                assert_eq!(ins.rank(), r + 1);
            }
            assert!(t.insert(r + 1, &x).is_err());
            for i in 0..r {
                let rem = t.remove(i).unwrap();
                assert_eq!(rem.rank(), r - 1, "{t} remove {i}");
                let back = t.insert(i, &x).unwrap().remove(i).unwrap();
                assert_eq!(back, IntTuple::tuple(e.iter().cloned()).unwrap());
                assert_eq!(t.replace(i, &x).unwrap().get(i).unwrap(), x);
                assert_eq!(t.select(&[i]).unwrap().get(0).unwrap(), e[i]);
            }
            assert!(t.remove(r).is_err() && t.replace(r, &x).is_err() && t.select(&[r]).is_err());
            for b in 0..r {
                for en in b + 1..=r {
                    let tk = t.take(b, en).unwrap();
                    assert_eq!(tk.rank(), en - b);
                    let g = t.group(b, en).unwrap();
                    assert_eq!(g.rank(), r - (en - b) + 1);
                    assert_eq!(g.get(b).unwrap(), tk);
                    assert_eq!(g.flatten(), t.flatten().clone_as_tuple());
                }
                assert!(t.take(b, b).is_err() && t.group(b, r + 1).is_err());
            }
        }
    }

    impl IntTuple {
        /// The flat tuple of the leaves, as a tuple even for an integer.
        fn clone_as_tuple(&self) -> IntTuple {
            IntTuple::tuple(self.leaves().iter().map(|&v| IntTuple::int(v))).unwrap()
        }
    }
}
