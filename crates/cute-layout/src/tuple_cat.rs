//! CuTe `tuple_cat`: the top-level elements of several tuples (or the top-level modes of
//! several layouts) as one tuple (layout).

use alloc::vec::Vec;

use crate::error::LayoutError;
use crate::int_tuple::IntTuple;
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
