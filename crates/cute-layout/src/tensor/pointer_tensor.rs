//! Pointer tensors, CuTe's `make_tensor(ptr, layout)` over a typed pointer without memory
//! ([`LayoutTensor::Pointer`]): their values are element addresses. Slicing, tiling,
//! partitioning and the divides move the pointer as CuTe does (they are the counting tensor's
//! operations with the offset added to the pointer); [`LayoutTensor::recast`] is CuTe's
//! `recast<T>(tensor)`; [`LayoutTensor::from_pointer_flagged`] is CuTe's `make_tensor` of an
//! `smem_ptr_flag` layout; [`LayoutTensor::as_position_independent_swizzle_tensor`] moves a
//! pointer's swizzle into the layout.
//!
//! ```
//! use cute_layout::{IntTuple, LayoutTensor, SliceCoord};
//! let t: LayoutTensor = "gmem_ptr[16b](0x1000) o (4,4):(4,1)".parse()?;
//! assert_eq!(t.slice(&"(_,1)".parse::<SliceCoord>()?)?.to_string(), "gmem_ptr[16b](0x1002) o (4):(4)");
//! assert_eq!(t.value(&IntTuple::flat([1, 2]))?.to_string(), "ptr[16b](0x100c)"); // &t(1,2)
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::composed::composed_layout::ComposedLayout;
use crate::composed::swizzle::Swizzle;
use crate::layout::error::{LayoutError, ParseError, ParseErrorKind};
use crate::layout::Layout;
use crate::tensor::layout_tensor::{find_o, perr, shifted, LayoutTensor};
use crate::tensor::pointer::{parse_pointer_prefix, MemSpace, Pointer};

fn invalid(op: &'static str, what: String) -> LayoutError {
    LayoutError::InvalidArgument { op, what }
}

/// CuTe's `smem_ptr_flag_bits<B>` layout, `Sw<..> o smem_ptr[Bb](unset) o LAYOUT`: a swizzled
/// layout waiting for a shared-memory pointer of `B`-bit elements
/// ([`LayoutTensor::from_pointer_flagged`] gives it one). Its text is CuTe's print.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SmemPtrFlagLayout {
    /// The swizzle, which acts on the byte address once a pointer is given.
    pub swizzle: Swizzle,
    /// The element width `B` the pointer must have.
    pub bits: u32,
    /// The layout of the elements.
    pub layout: Layout,
}

impl core::fmt::Display for SmemPtrFlagLayout {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{} o smem_ptr[{}b](unset) o {}",
            self.swizzle, self.bits, self.layout
        )
    }
}

impl SmemPtrFlagLayout {
    /// CuTe's `upcast<N>` of the flagged layout: the swizzle kept (it acts on bytes), the
    /// flag's width times `n`, the layout upcast.
    ///
    /// # Errors
    /// As [`Layout::upcast`]; [`LayoutError::Overflow`] for the width.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::tensor::parse_smem_ptr_flag;
    /// let f = parse_smem_ptr_flag("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)").unwrap()?;
    /// assert_eq!(f.upcast(2)?.to_string(), "Sw<3,4,3> o smem_ptr[32b](unset) o (8,32):(32,1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn upcast(&self, n: i64) -> Result<SmemPtrFlagLayout, LayoutError> {
        let layout = self.layout.upcast(n)?;
        let bits = u32::try_from(n)
            .ok()
            .and_then(|n| self.bits.checked_mul(n))
            .ok_or(LayoutError::overflow("upcast"))?;
        Ok(SmemPtrFlagLayout {
            swizzle: self.swizzle,
            bits,
            layout,
        })
    }

    /// CuTe's `downcast<N>` of the flagged layout: the flag's width divided by `n`, the layout
    /// downcast.
    ///
    /// # Errors
    /// As [`Layout::downcast`]; [`LayoutError::InvalidArgument`] unless `n` divides the width.
    pub fn downcast(&self, n: i64) -> Result<SmemPtrFlagLayout, LayoutError> {
        let layout = self.layout.downcast(n)?;
        let bits = u32::try_from(n)
            .ok()
            .filter(|&n| n > 0 && self.bits.is_multiple_of(n))
            .map(|n| self.bits / n)
            .ok_or_else(|| {
                invalid(
                    "downcast",
                    format!("{n} does not divide the flag's width of {} bits", self.bits),
                )
            })?;
        Ok(SmemPtrFlagLayout {
            swizzle: self.swizzle,
            bits,
            layout,
        })
    }
}

/// Parse CuTe's `smem_ptr_flag_bits<B>` layout `Sw<..> o smem_ptr[Bb](unset) o LAYOUT`; `None`
/// if `s` is not one.
///
/// # Errors
/// A [`ParseError`] if `s` has the flag but a malformed swizzle, width or layout.
pub fn parse_smem_ptr_flag(s: &str) -> Option<Result<SmemPtrFlagLayout, ParseError>> {
    let flag = s.find("smem_ptr[")?;
    let close = flag + s[flag..].find("](unset)")?;
    let parse = || -> Result<SmemPtrFlagLayout, ParseError> {
        let head = s[..flag].trim_end();
        let sw_text = head.strip_suffix('o').ok_or(perr(
            flag,
            ParseErrorKind::UnexpectedChar {
                found: 's',
                expected: "Sw<B,M,S> o before smem_ptr[Bb](unset)",
            },
        ))?;
        let sw: Swizzle = sw_text.trim().parse()?;
        let width = &s[flag + "smem_ptr[".len()..close];
        let bits: u32 = width
            .strip_suffix('b')
            .and_then(|w| w.parse().ok())
            .filter(|&b| b > 0)
            .ok_or(perr(flag, ParseErrorKind::IntegerOverflow))?;
        let (_, rest) = find_o(s, close + "](unset)".len())?;
        let layout: Layout = s[rest..].parse().map_err(|e| shifted(e, rest))?;
        Ok(SmemPtrFlagLayout {
            swizzle: sw,
            bits,
            layout,
        })
    };
    Some(parse())
}

/// Parse `PTR o LAYOUT` starting at byte `lead` of `s`.
pub(crate) fn pointer_tensor_from_str(s: &str, lead: usize) -> Result<LayoutTensor, ParseError> {
    let (ptr, n) = parse_pointer_prefix(&s[lead..]).map_err(|e| shifted(e, lead))?;
    let (_, rest) = find_o(s, lead + n)?;
    let layout: ComposedLayout = s[rest..].parse().map_err(|e| shifted(e, rest))?;
    Ok(LayoutTensor::Pointer { ptr, layout })
}

/// The most `zip(` a tensor's text may hold (zips of zips included), so that parsing nested zips
/// stays shallow.
pub const MAX_ZIP_TENSORS: usize = 64;

/// Parse `zip(T1, T2, ...)` starting at byte `lead` of `s`.
pub(crate) fn zip_tensor_from_str(s: &str, lead: usize) -> Result<LayoutTensor, ParseError> {
    if s.matches("zip(").count() > MAX_ZIP_TENSORS {
        return Err(perr(lead, ParseErrorKind::TooDeep));
    }
    let open = lead + "zip(".len();
    let b = s.as_bytes();
    let mut depth = 0i32;
    let mut start = open;
    let mut parts = Vec::new();
    let mut end = None;
    for (k, &c) in b.iter().enumerate().skip(open) {
        match c {
            b'(' | b'[' | b'<' => depth += 1,
            b')' | b']' | b'>' if depth > 0 => depth -= 1,
            b')' => {
                parts.push((start, k));
                end = Some(k);
                break;
            }
            b',' if depth == 0 => {
                parts.push((start, k));
                start = k + 1;
            }
            _ => {}
        }
    }
    let end = end.ok_or(perr(
        s.len(),
        ParseErrorKind::UnexpectedEnd { expected: "')'" },
    ))?;
    if !s[end + 1..].trim().is_empty() {
        return Err(perr(
            end + 1,
            ParseErrorKind::UnexpectedChar {
                found: s[end + 1..].trim_start().chars().next().unwrap_or('?'),
                expected: "the end of the zip tensor",
            },
        ));
    }
    let tensors = parts
        .iter()
        .map(|&(a, e)| s[a..e].parse::<LayoutTensor>().map_err(|x| shifted(x, a)))
        .collect::<Result<Vec<_>, _>>()?;
    LayoutTensor::zip(tensors).map_err(|e| perr(lead, ParseErrorKind::Invalid(e)))
}

/// `old_bits -> new_bits` of a swizzled layout: CuTe's `recast_layout` (upcast, then downcast).
fn recast_composed(
    l: &ComposedLayout,
    old_bits: i64,
    new_bits: i64,
) -> Result<ComposedLayout, LayoutError> {
    if l.layers().is_empty() {
        return Ok(l.layout().recast(old_bits, new_bits)?.into());
    }
    let (mut a, mut b) = (old_bits, new_bits);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    let (num, den) = (new_bits / a, old_bits / a);
    let up = if num > 1 { l.upcast(num)? } else { l.clone() };
    if den > 1 {
        up.downcast(den)
    } else {
        Ok(up)
    }
}

impl LayoutTensor {
    /// CuTe's `make_tensor(ptr, layout)`: the tensor whose value at `c` is the address of
    /// element `layout(c)`, `ptr + layout(c)` as CuTe dereferences it ([`Pointer::element`]:
    /// the pointer's swizzle applied to the byte address).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IntTuple, LayoutTensor, Pointer};
    /// let p: Pointer = "Sw<3,4,3>_smem_ptr[16b](0x1000)".parse()?;
    /// let t = LayoutTensor::from_pointer(p, "(8,64):(64,1)".parse::<cute_layout::Layout>()?);
    /// assert_eq!(t.to_string(), "Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,64):(64,1)");
    /// assert_eq!(t.value(&IntTuple::flat([1, 0]))?.to_string(), "ptr[16b](0x1090)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_pointer(ptr: Pointer, layout: impl Into<ComposedLayout>) -> LayoutTensor {
        LayoutTensor::Pointer {
            ptr,
            layout: layout.into(),
        }
    }

    /// CuTe's `make_tensor(smem_ptr, Sw o smem_ptr_flag_bits<B> o layout)`: the swizzle moves
    /// onto the pointer, `make_smem_ptr(ptr, Sw)` over `layout`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] unless `ptr` is a shared-memory pointer of `bits`-bit
    /// elements (CuTe's static assertions "Expected smem." and "Expected a B-bit pointer type.").
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{LayoutTensor, Pointer, Swizzle};
    /// let p: Pointer = "smem_ptr[16b](0x1000)".parse()?;
    /// let t = LayoutTensor::from_pointer_flagged(p, Swizzle::new(3, 4, 3)?, 16, "(8,64):(64,1)".parse()?)?;
    /// assert_eq!(t.to_string(), "Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,64):(64,1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_pointer_flagged(
        ptr: Pointer,
        sw: Swizzle,
        bits: u32,
        layout: Layout,
    ) -> Result<LayoutTensor, LayoutError> {
        if ptr.space() != MemSpace::Smem || ptr.bits() != bits || ptr.swizzle().is_some() {
            return Err(invalid(
                "make_tensor",
                format!("an smem_ptr_flag layout of {bits}-bit elements needs an unswizzled smem pointer of {bits}-bit elements, got {ptr}"),
            ));
        }
        Ok(LayoutTensor::from_pointer(ptr.with_swizzle(sw)?, layout))
    }

    /// CuTe's `make_zip_tensor(t1, t2, ...)`: the tensor whose value at `c` is the tuple of the
    /// tensors' values at `c`. Slicing, tiling, partitioning and the divides act on every
    /// tensor (CuTe's `ZipLayout`). CuTe has no print of a zip tensor; its text here is
    /// `zip(T1, T2, ...)`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] for fewer than two tensors or tensors whose top-level
    /// modes differ in number or size (CuTe requires compatible shapes of one rank; a slice of
    /// a swizzled tensor may split a mode, `(4)` beside `((2,2))`, which stays compatible).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{IntTuple, LayoutTensor};
    /// let a: LayoutTensor = "counting_iter(0) o (4,4):(4,1)".parse()?;
    /// let b: LayoutTensor = "counting_iter(100) o (4,4):(1,4)".parse()?;
    /// let z = LayoutTensor::zip(vec![a, b])?;
    /// assert_eq!(z.value(&IntTuple::flat([1, 2]))?.to_string(), "(6,109)"); // CuTe's z(1,2)
    /// assert_eq!(z.to_string(), "zip(counting_iter(0) o (4,4):(4,1), counting_iter(100) o (4,4):(1,4))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn zip(tensors: Vec<LayoutTensor>) -> Result<LayoutTensor, LayoutError> {
        if tensors.len() < 2 {
            return Err(invalid(
                "make_zip_tensor",
                format!(
                    "a zip tensor takes two tensors or more, got {}",
                    tensors.len()
                ),
            ));
        }
        let profile = |t: &LayoutTensor| -> Vec<i64> {
            let shape = t.shape();
            if shape.is_int() {
                return alloc::vec![shape.size().unwrap_or(-1)];
            }
            shape.elements().map(|m| m.size().unwrap_or(-1)).collect()
        };
        let first = profile(&tensors[0]);
        if let Some(t) = tensors.iter().find(|t| profile(t) != first) {
            return Err(invalid(
                "make_zip_tensor",
                format!(
                    "{t} does not have the mode sizes of the first tensor's shape {}",
                    tensors[0].shape()
                ),
            ));
        }
        Ok(LayoutTensor::Zip(tensors))
    }

    /// CuTe's `unzip_tensor`: the tensors of a zip tensor (a single other tensor otherwise).
    pub fn unzip(&self) -> Vec<LayoutTensor> {
        match self {
            LayoutTensor::Zip(ts) => ts.clone(),
            other => alloc::vec![other.clone()],
        }
    }

    /// A view (slice, tile, partition) of a pointer tensor or a zip tensor through `f`, the
    /// view of a counting or coordinate tensor: a pointer tensor's view is its offsets' view
    /// with the offset added to the pointer; a zip tensor's is the zip of its tensors' views.
    pub fn map_view(
        &self,
        op: &'static str,
        f: impl Fn(&LayoutTensor) -> Result<LayoutTensor, LayoutError>,
    ) -> Result<LayoutTensor, LayoutError> {
        fn go(
            t: &LayoutTensor,
            op: &'static str,
            f: &dyn Fn(&LayoutTensor) -> Result<LayoutTensor, LayoutError>,
        ) -> Result<LayoutTensor, LayoutError> {
            match t {
                LayoutTensor::Pointer { .. } => t.via_counting(op, f),
                LayoutTensor::Zip(ts) => Ok(LayoutTensor::Zip(
                    ts.iter().map(|x| go(x, op, f)).collect::<Result<_, _>>()?,
                )),
                _ => f(t),
            }
        }
        go(self, op, &f)
    }

    /// The pointer of a pointer tensor.
    pub fn pointer(&self) -> Option<Pointer> {
        match self {
            LayoutTensor::Pointer { ptr, .. } => Some(*ptr),
            _ => None,
        }
    }

    /// A layout operation of a pointer tensor done on the counting tensor of its element
    /// offsets, `counting_iter(0) o layout`; the result's offset moves the pointer.
    pub(crate) fn via_counting(
        &self,
        op: &'static str,
        f: impl FnOnce(&LayoutTensor) -> Result<LayoutTensor, LayoutError>,
    ) -> Result<LayoutTensor, LayoutError> {
        let LayoutTensor::Pointer { ptr, layout } = self else {
            return f(self);
        };
        match f(&LayoutTensor::counting(0, layout.clone()))? {
            LayoutTensor::Counting { base, layout } => Ok(LayoutTensor::Pointer {
                ptr: ptr.offset(base, op)?,
                layout,
            }),
            other => Err(invalid(
                op,
                format!("the offsets of {self} gave {other}, not a counting tensor"),
            )),
        }
    }

    /// CuTe's `recast<NewType>(tensor)` for elements of `bits` bits: the layout recast
    /// (`recast_layout`, an upcast and/or a downcast by the ratio of the widths) and the pointer
    /// recast (`recast_ptr`). An upcast of a plain layout with negative strides first moves the
    /// pointer to the lowest element of each widened run, as CuTe does.
    ///
    /// # Laws
    /// * Every address the new tensor reaches is the address of an element of the old one
    ///   (the same bytes, in wider or narrower pieces).
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] for a counting or coordinate tensor (no element type)
    /// and as [`Layout::recast`], [`ComposedLayout::upcast`], [`ComposedLayout::downcast`] and
    /// [`Pointer::recast`] (a misaligned address).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutTensor;
    /// let t: LayoutTensor = "smem_ptr[16b](0x400) o (8,8):(8,1)".parse()?;
    /// assert_eq!(t.recast(32)?.to_string(), "smem_ptr[32b](0x400) o (8,4):(4,1)");
    /// assert_eq!(t.recast(8)?.to_string(), "smem_ptr[8b](0x400) o (8,16):(16,1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn recast(&self, bits: u32) -> Result<LayoutTensor, LayoutError> {
        let LayoutTensor::Pointer { ptr, layout } = self else {
            return Err(invalid(
                "recast",
                format!("{self} has no element type: recast takes a pointer tensor"),
            ));
        };
        let (old, new) = (i64::from(ptr.bits()), i64::from(bits));
        if old == new {
            return Ok(self.clone());
        }
        let new_layout = recast_composed(layout, old, new)?;
        let bytes = |b: i64| (b / 8).max(1);
        let mut base = *ptr;
        if bytes(old) < bytes(new) && layout.layers().is_empty() {
            let (ol, nl) = (layout.layout(), new_layout.layout());
            let mut offset = 0i64;
            for ((&os, &ns), &d) in ol
                .shape_leaves()
                .iter()
                .zip(nl.shape_leaves())
                .zip(ol.stride_leaves())
            {
                let a = (os - ns)
                    .checked_mul(d)
                    .ok_or(LayoutError::overflow("recast"))?;
                offset = offset
                    .checked_add(a.min(0))
                    .ok_or(LayoutError::overflow("recast"))?;
            }
            base = base.offset(offset, "recast")?;
        }
        Ok(LayoutTensor::Pointer {
            ptr: base.recast(bits)?,
            layout: new_layout,
        })
    }

    /// CuTe's `as_position_independent_swizzle_tensor`: a shared-memory tensor whose pointer is
    /// swizzled (the swizzle acts on byte addresses) as the same tensor with a plain pointer and
    /// the swizzle, recast to elements, in the layout: `smem_ptr o Sw' o 0 o layout`. A tensor
    /// without a pointer swizzle is returned as it is.
    ///
    /// # Laws
    /// * Both tensors reach the same address at every coordinate.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] unless the tensor is a shared-memory pointer tensor
    /// with a plain layout whose address is a multiple of `2^(h+1)`, `h` the swizzle's highest
    /// bit (CuTe asserts only that the base and swizzle bits are 0, which lets a set bit between
    /// them carry into the swizzle and the two tensors differ), of a width the swizzle can be
    /// recast to.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutTensor;
    /// let t: LayoutTensor = "Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,64):(64,1)".parse()?;
    /// let pi = t.as_position_independent_swizzle_tensor()?;
    /// assert_eq!(pi.to_string(), "smem_ptr[16b](0x1000) o Sw<3,3,3> o 0 o (8,64):(64,1)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn as_position_independent_swizzle_tensor(&self) -> Result<LayoutTensor, LayoutError> {
        let op = "as_position_independent_swizzle_tensor";
        let (ptr, layout) = match self {
            LayoutTensor::Pointer { ptr, layout } if ptr.space() == MemSpace::Smem => (ptr, layout),
            _ => return Err(invalid(op, format!("{self} is not a shared-memory tensor"))),
        };
        let Some(sw) = ptr.swizzle() else {
            return Ok(self.clone());
        };
        if !layout.layers().is_empty() {
            return Err(invalid(
                op,
                format!("{self} has a swizzled pointer and a swizzled layout"),
            ));
        }
        // CuTe asserts that the base and swizzle bits of the address are 0; a set bit between
        // them would carry into the swizzle's bits, so every bit up to its highest must be 0.
        let bits_used = ((1i64 << sw.base()) - 1) | sw.yyy_mask() | sw.zzz_mask();
        let mask = (1i64 << (64 - (bits_used as u64).leading_zeros())) - 1;
        if ptr.addr() & mask != 0 || ptr.bit_index() != 0 {
            return Err(invalid(
                op,
                format!(
                    "address {:#x} is not aligned to the swizzle {sw} (mask {mask:#x})",
                    ptr.addr()
                ),
            ));
        }
        let bits = i64::from(ptr.bits());
        // A swizzle that toggles a bit inside an element moves addresses off the elements: no
        // swizzle of element offsets reaches the same addresses.
        if bits >= 8 && !sw.is_identity() && (1i64 << sw.base()) < bits / 8 {
            return Err(invalid(
                op,
                format!(
                    "the swizzle {sw} toggles bits below the {bits}-bit elements (its base {} < log2({}))",
                    sw.base(),
                    bits / 8
                ),
            ));
        }
        let new_sw = if bits >= 8 {
            sw.upcast(bits / 8)?
        } else if 8 % bits == 0 {
            sw.downcast(8 / bits)?
        } else {
            return Err(invalid(
                op,
                format!("a swizzle on bytes cannot be recast to {bits}-bit elements"),
            ));
        };
        Ok(LayoutTensor::Pointer {
            ptr: ptr.unswizzled(),
            layout: ComposedLayout::new(new_sw, 0, layout.layout().clone())?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::int_tuple::IntTuple;
    use crate::layout::slice::{Slice, SliceCoord};
    use crate::Tiler;

    /// A swizzle toggling bits inside the elements has no position-independent form: refused
    /// (the element-level swizzle would drop those bits and the addresses would differ).
    #[test]
    fn position_independent_swizzle_refuses_sub_element_bits() {
        let t: LayoutTensor = "Sw<2,0,3>_smem_ptr[32b](0x400) o (4,4):(4,1)"
            .parse()
            .unwrap();
        assert_eq!(
            t.as_position_independent_swizzle_tensor().unwrap_err().to_string(),
            "as_position_independent_swizzle_tensor: the swizzle Sw<2,0,3> toggles bits below the 32-bit elements (its base 0 < log2(4))"
        );
        let ok: LayoutTensor = "Sw<2,2,3>_smem_ptr[32b](0x400) o (4,4):(4,1)"
            .parse()
            .unwrap();
        assert_eq!(
            ok.as_position_independent_swizzle_tensor()
                .unwrap()
                .to_string(),
            "smem_ptr[32b](0x400) o Sw<2,0,3> o 0 o (4,4):(4,1)"
        );
    }
    use alloc::string::ToString;

    fn t(s: &str) -> LayoutTensor {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn addr(v: crate::TensorValue) -> (i64, u8) {
        match v {
            crate::TensorValue::Ptr(p) => (p.addr(), p.bit_index()),
            other => panic!("{other}"),
        }
    }

    #[test]
    fn text_round_trips() {
        for s in [
            "gmem_ptr[16b](0x1000) o (4,4):(4,1)",
            "Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,64):(64,1)",
            "smem_ptr[16b](0x1000) o Sw<3,3,3> o 0 o (8,64):(64,1)",
            "gmem_subptr[4b](0x1000.4) o (4,4):(1,4)",
            "tmem_[32b](0x0000.0000) o (128,32):(65536,1)",
            "ptr[64b](0x20) o 8:1",
        ] {
            assert_eq!(t(s).to_string(), s);
        }
        assert_eq!(
            t("smem_ptr[32b](0x400) o (_8,_8):(_8,_1)").to_string(),
            "smem_ptr[32b](0x400) o (8,8):(8,1)"
        );
        for bad in [
            "gmem_ptr[16b](0x1000)",
            "gmem_ptr[16b](0x1000) o",
            "gmem_ptr[16b](0x1001) o 4:1",
            "gmem_ptr[16b](0x1000) x 4:1",
        ] {
            assert!(bad.parse::<LayoutTensor>().is_err(), "{bad:?}");
        }
    }

    /// Law: every slice, tile and partition of a pointer tensor reaches, at each coordinate,
    /// the address the tensor reaches at the completed coordinate, for byte, sub-byte and
    /// swizzled pointers.
    #[test]
    fn views_move_the_pointer() {
        for s in [
            "gmem_ptr[16b](0x1000) o (4,6):(6,1)",
            "gmem_subptr[4b](0x1000.0) o (4,6):(1,4)",
            "Sw<2,1,2>_smem_ptr[16b](0x1000) o (4,6):(6,1)",
            "smem_ptr[32b](0x800) o Sw<1,0,2> o 0 o (4,6):(6,1)",
            "ptr[8b](0x40) o (4,6):(-6,1)",
        ] {
            let x = t(s);
            for i in 0..4 {
                let row = x
                    .slice(&SliceCoord::flat([Slice::At(i), Slice::All]))
                    .unwrap();
                for j in 0..6 {
                    assert_eq!(
                        row.value(&IntTuple::int(j)).unwrap(),
                        x.value(&IntTuple::flat([i, j])).unwrap(),
                        "{s} ({i},_) {j}"
                    );
                }
            }
            let tiler: Tiler = "(2,3)".parse().unwrap();
            for bm in 0..2 {
                for bn in 0..2 {
                    let tile = x
                        .local_tile(&tiler, &IntTuple::flat([bm, bn]), None)
                        .unwrap();
                    for m in 0..2 {
                        for n in 0..3 {
                            assert_eq!(
                                tile.value(&IntTuple::flat([m, n])).unwrap(),
                                x.value(&IntTuple::flat([bm * 2 + m, bn * 3 + n])).unwrap()
                            );
                        }
                    }
                }
            }
            let thr: Layout = "(2,3):(3,1)".parse().unwrap();
            for a in 0..2 {
                for b in 0..3 {
                    let p = x.local_partition(&thr, a * 3 + b, None).unwrap();
                    for i in 0..2 {
                        for j in 0..2 {
                            assert_eq!(
                                p.value(&IntTuple::flat([i, j])).unwrap(),
                                x.value(&IntTuple::flat([i * 2 + a, j * 3 + b])).unwrap()
                            );
                        }
                    }
                }
            }
        }
    }

    /// Law: a recast tensor reaches the old tensor's bytes: every new element's first byte is
    /// an old element's (upcast) or lies inside one (downcast).
    #[test]
    fn recast_reaches_the_same_bytes() {
        for (s, bits) in [
            ("gmem_ptr[16b](0x1000) o (8,4):(1,8)", 32),
            ("gmem_ptr[16b](0x1000) o (8,4):(1,8)", 8),
            ("gmem_ptr[16b](0x1000) o (8,4):(1,8)", 4),
            ("gmem_ptr[32b](0x1000) o (4,8):(8,1)", 64),
            ("gmem_ptr[16b](0x1000) o (4,8):(-8,1)", 32),
            ("smem_ptr[16b](0x1000) o Sw<3,3,3> o 0 o (8,64):(64,1)", 32),
            ("Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,64):(64,1)", 32),
            ("gmem_subptr[4b](0x1000.0) o (16,2):(1,16)", 8),
        ] {
            let x = t(s);
            let y = x.recast(bits).unwrap();
            let old_bits = x.pointer().unwrap().bits() as i64;
            let old: alloc::collections::BTreeSet<i64> = (0..x.size())
                .map(|i| {
                    let (a, b) = addr(x.value(&IntTuple::int(i)).unwrap());
                    a * 8 + i64::from(b)
                })
                .collect();
            for i in 0..y.size() {
                let (a, b) = addr(y.value(&IntTuple::int(i)).unwrap());
                let pos = a * 8 + i64::from(b);
                let inside = old
                    .range(..=pos)
                    .next_back()
                    .is_some_and(|&o| pos < o + old_bits);
                assert!(inside, "{s} as {bits}b: {y} element {i} at bit {pos}");
            }
        }
        assert_eq!(
            t("gmem_ptr[16b](0x1000) o (4,8):(-8,1)")
                .recast(32)
                .unwrap()
                .to_string(),
            "gmem_ptr[32b](0x1000) o (4,4):(-4,1)"
        );
        assert_eq!(
            t("counting_iter(0) o 4:1").recast(32).unwrap_err().kind(),
            "InvalidArgument"
        );
        assert_eq!(
            t("gmem_ptr[16b](0x1002) o 4:1")
                .recast(32)
                .unwrap_err()
                .kind(),
            "InvalidArgument"
        );
    }

    #[test]
    fn position_independent_swizzle_reaches_the_same_addresses() {
        for s in [
            "Sw<3,4,3>_smem_ptr[16b](0x1000) o (8,64):(64,1)",
            "Sw<2,4,3>_smem_ptr[32b](0x2000) o (8,32):(32,1)",
            "Sw<3,4,3>_smem_ptr[8b](0x400) o (16,64):(1,16)",
        ] {
            let x = t(s);
            let y = x.as_position_independent_swizzle_tensor().unwrap();
            for i in 0..x.size() {
                let a = addr(x.value(&IntTuple::int(i)).unwrap());
                let TensorValue::Int(off) = LayoutTensor::counting(
                    0,
                    match &y {
                        LayoutTensor::Pointer { layout, .. } => layout.clone(),
                        _ => unreachable!(),
                    },
                )
                .value(&IntTuple::int(i))
                .unwrap() else {
                    unreachable!()
                };
                let b = addr(y.value(&IntTuple::int(i)).unwrap());
                assert_eq!(a, b, "{s} {i} (offset {off})");
            }
        }
        assert_eq!(
            t("Sw<1,4,3>_smem_ptr[64b](0x420) o (2,8):(1,2)")
                .as_position_independent_swizzle_tensor()
                .unwrap_err()
                .kind(),
            "InvalidArgument"
        );
    }

    use crate::TensorValue;

    /// Law: a zip tensor's value is the tuple of its tensors' values, and its views are the zips
    /// of their views, for slices, tiles and partitions of counting, coordinate, pointer and
    /// swizzled tensors.
    #[test]
    fn zip_views_are_the_zips_of_views() {
        let parts = [
            "counting_iter(0) o (4,6):(6,1)",
            "ArithTuple(0,0) o (4,6):(1@0,1@1)",
            "Sw<2,1,2>_smem_ptr[16b](0x1000) o (4,6):(6,1)",
            "gmem_subptr[4b](0x1000.0) o (4,6):(1,4)",
        ];
        let ts: Vec<LayoutTensor> = parts.iter().map(|s| t(s)).collect();
        let z = LayoutTensor::zip(ts.clone()).unwrap();
        assert_eq!(t(&z.to_string()), z);
        for i in 0..24 {
            let want: Vec<TensorValue> = ts
                .iter()
                .map(|x| x.value(&IntTuple::int(i)).unwrap())
                .collect();
            assert_eq!(
                z.value(&IntTuple::int(i)).unwrap(),
                TensorValue::Tuple(want)
            );
        }
        let check = |zv: LayoutTensor, each: &dyn Fn(&LayoutTensor) -> LayoutTensor| {
            let want: Vec<LayoutTensor> = ts.iter().map(each).collect();
            assert_eq!(zv.unzip(), want);
        };
        for i in 0..4 {
            let c = SliceCoord::flat([Slice::At(i), Slice::All]);
            check(z.slice(&c).unwrap(), &|x| x.slice(&c).unwrap());
        }
        let tiler: Tiler = "(2,3)".parse().unwrap();
        for bm in 0..2 {
            let c = IntTuple::flat([bm, 1]);
            check(z.local_tile(&tiler, &c, None).unwrap(), &|x| {
                x.local_tile(&tiler, &c, None).unwrap()
            });
        }
        let thr: Layout = "(2,3):(3,1)".parse().unwrap();
        for idx in 0..6 {
            check(z.local_partition(&thr, idx, None).unwrap(), &|x| {
                x.local_partition(&thr, idx, None).unwrap()
            });
        }
        for bad in [
            "zip(counting_iter(0) o 4:1, counting_iter(0) o 8:1)",
            "zip(counting_iter(0) o 4:1)",
            "zip(counting_iter(0) o 4:1, counting_iter(0) o 4:1",
            "zip(counting_iter(0) o 4:1, counting_iter(0) o 4:1) x",
            "zip(counting_iter(0) o 4:1, (4):(1))",
            &"zip(".repeat(100_000),
        ] {
            assert!(bad.parse::<LayoutTensor>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn smem_ptr_flag_layouts() {
        let text = "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)";
        let f = parse_smem_ptr_flag(text).unwrap().unwrap();
        assert_eq!(f.to_string(), text);
        assert_eq!(f.upcast(2).unwrap().downcast(2).unwrap(), f);
        assert_eq!(f.downcast(32).unwrap_err().kind(), "InvalidArgument");
        let (sw, bits, l) = (f.swizzle, f.bits, f.layout);
        assert_eq!(
            (sw.to_string(), bits, l.to_string()),
            ("Sw<3,4,3>".into(), 16, "(8,64):(64,1)".into())
        );
        assert!(parse_smem_ptr_flag("(8,64):(64,1)").is_none());
        let p: Pointer = "smem_ptr[32b](0x0)"
            .parse()
            .unwrap_or_else(|_| "smem_ptr[32b]((nil))".parse().unwrap());
        assert!(LayoutTensor::from_pointer_flagged(p, sw, 16, l).is_err());
    }
}
