//! The text form of a tensor without data: CuTe's printed `counting_iter(base) o layout`,
//! `ArithTuple(...) o layout`, pointer and zip tensors, parsed into a [`LayoutTensor`].

use crate::basis::ScaledBasis;
use crate::composed::chain::LayoutChain;
use crate::composed::composed_layout::ComposedLayout;
use crate::layout::error::{ParseError, ParseErrorKind};
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::tensor::chain_tensor;
use crate::tensor::data::IdentityTensor;
use crate::tensor::layout_tensor::{end_of_value, find_o, perr, shifted, LayoutTensor};
use crate::tensor::pointer::is_pointer_text;
use crate::tensor::pointer_tensor::{pointer_tensor_from_str, zip_tensor_from_str};
use alloc::boxed::Box;
use core::str::FromStr;

impl FromStr for LayoutTensor {
    type Err = ParseError;
    /// Parse CuTe's print of a tensor: `counting_iter(BASE) o LAYOUT` (a layout or a swizzled
    /// layout `Sw<B,M,S> o OFFSET o LAYOUT`) or `ArithTuple(BASE) o LAYOUT` (basis strides;
    /// `BASE` a tuple, or an integer as CuTe prints `ArithTuple_0`). Spaces and CuTe's `_`
    /// before integers are accepted.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let lead = s.len() - s.trim_start().len();
        let counting = "counting_iter(";
        let arith = "ArithTuple";
        if s[lead..].starts_with(counting) {
            let start = lead + counting.len();
            let close = s[start..].find(')').map(|k| start + k).ok_or(perr(
                s.len(),
                ParseErrorKind::UnexpectedEnd { expected: "')'" },
            ))?;
            let base: IntTuple = s[start..close].parse().map_err(|e| shifted(e, start))?;
            let base = base.as_int().ok_or(perr(
                start,
                ParseErrorKind::UnexpectedChar {
                    found: '(',
                    expected: "an integer",
                },
            ))?;
            let (_, rest) = find_o(s, close + 1)?;
            let layout: ComposedLayout = match s[rest..].parse() {
                Ok(l) => l,
                // A layout as an outer function: a general composed layout.
                Err(e) => match s[rest..].parse::<LayoutChain>() {
                    Ok(chain) => {
                        return chain_tensor::chained(base, 0, chain, "make_tensor")
                            .map_err(|_| shifted(e, rest))
                    }
                    Err(_) => return Err(shifted(e, rest)),
                },
            };
            return Ok(LayoutTensor::Counting { base, layout });
        }
        if s[lead..].starts_with(arith) {
            let mut start = lead + arith.len();
            while s
                .as_bytes()
                .get(start)
                .is_some_and(|c| c.is_ascii_whitespace())
            {
                start += 1;
            }
            let end = end_of_value(s, start)?;
            let base: IntTuple = s[start..end].parse().map_err(|e| shifted(e, start))?;
            let (_, rest) = find_o(s, end)?;
            let layout: Layout<ScaledBasis> = s[rest..].parse().map_err(|e| shifted(e, rest))?;
            let t = IdentityTensor::from_parts(base, layout)
                .map_err(|e| perr(start, ParseErrorKind::Invalid(e)))?;
            return Ok(LayoutTensor::Coords(Box::new(t)));
        }
        if is_pointer_text(&s[lead..]) {
            return pointer_tensor_from_str(s, lead);
        }
        if s[lead..].starts_with("zip(") {
            return zip_tensor_from_str(s, lead);
        }
        Err(match s[lead..].chars().next() {
            Some(c) => perr(
                lead,
                ParseErrorKind::UnexpectedChar {
                    found: c,
                    expected: "counting_iter(BASE) o LAYOUT or ArithTuple(BASE) o LAYOUT",
                },
            ),
            None => perr(
                lead,
                ParseErrorKind::UnexpectedEnd {
                    expected: "counting_iter(BASE) o LAYOUT or ArithTuple(BASE) o LAYOUT",
                },
            ),
        })
    }
}
