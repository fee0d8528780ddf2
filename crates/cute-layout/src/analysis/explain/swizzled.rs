//! Explaining compositions with a swizzle: `Sw ∘ L`, `L ∘ Sw`, and a swizzled layout composed
//! with a layout.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::composition::explain_composition;
use super::trace::Explanation;
use crate::composed::composed_layout::ComposedLayout;
use crate::composed::swizzle::Swizzle;
use crate::layout::error::LayoutError;
use crate::layout::Layout;

/// The derivation of a composition whose result is a swizzled layout: operands, steps in words,
/// the derivation of the inner layout's composition where there is one, and the library's
/// result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwizzleExplanation {
    /// The operands, in CuTe's text form.
    pub operands: Vec<String>,
    /// The steps, in order.
    pub steps: Vec<String>,
    /// The composition of the inner layout, when the swizzle layers stay outside.
    pub inner: Option<Explanation>,
    /// The library's answer.
    pub outcome: Result<ComposedLayout, LayoutError>,
}

impl fmt::Display for SwizzleExplanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "composition({})", self.operands.join(", "))?;
        for (k, s) in self.steps.iter().enumerate() {
            writeln!(f, "{}. {s}", k + 1)?;
        }
        if let Some(e) = &self.inner {
            writeln!(f, "{}. derive:", self.steps.len() + 1)?;
            for line in alloc::string::ToString::to_string(e).lines() {
                writeln!(f, "    {line}")?;
            }
        }
        match &self.outcome {
            Ok(c) => writeln!(f, "=> {c}"),
            Err(e) => writeln!(f, "=> refused: {e}"),
        }
    }
}

/// `Sw<B,M,S>`'s bit fields in words.
fn fields(sw: &Swizzle) -> String {
    let shift = if sw.shift() < 0 {
        format!("<< {}", -sw.shift())
    } else {
        format!(">> {}", sw.shift())
    };
    format!(
        "{sw}(x) = x xor ((x & {:#b}) {shift}): the bits of mask {:#b} are read and those of mask {:#b} toggled",
        sw.yyy_mask(),
        sw.yyy_mask(),
        sw.zzz_mask()
    )
}

/// Explain `composition(sw, l)`: the swizzle applied after the layout, `Sw ∘ 0 ∘ L`.
///
/// ```
/// # use cute_layout::{Layout, Swizzle, analysis::explain::explain_swizzle_layout};
/// let e = explain_swizzle_layout(&Swizzle::new(3, 4, 3)?, &"(8,64):(64,1)".parse::<Layout>()?);
/// assert!(e.to_string().ends_with("=> Sw<3,4,3> o 0 o (8,64):(64,1)\n"));
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub fn explain_swizzle_layout(sw: &Swizzle, l: &Layout) -> SwizzleExplanation {
    let outcome = Ok(sw.compose_layout(l));
    SwizzleExplanation {
        operands: alloc::vec![format!("{sw}"), format!("{l}")],
        steps: alloc::vec![
            fields(sw),
            format!(
                "a swizzle after a layout is kept as a layer: R(c) = {sw}(0 + L(c)), written {sw} o 0 o {l}"
            ),
        ],
        inner: None,
        outcome,
    }
}

/// Explain `composition(l, sw)`: the swizzle moved through the layout, where the layout acts
/// on bits.
///
/// ```
/// # use cute_layout::{Layout, Swizzle, analysis::explain::explain_layout_swizzle};
/// let e = explain_layout_swizzle(&"(8,8):(8,1)".parse::<Layout>()?, &Swizzle::new(2, 0, -3)?);
/// assert!(e.to_string().contains("L(2^k)"));
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub fn explain_layout_swizzle(l: &Layout, sw: &Swizzle) -> SwizzleExplanation {
    let outcome = l.compose_swizzle(sw);
    let mut steps = alloc::vec![
        fields(sw),
        String::from(
            "R(x) = L(Sw(x)) is a swizzle after L when L acts on bits: the image of a sum of distinct bits is the sum of their images, without carries",
        ),
    ];
    let mut images = Vec::new();
    let mut k = 0u32;
    while k < 62 && (1i64 << k) < l.size() {
        if let Some(v) = l.index_1d(1i64 << k) {
            images.push(format!("L({})={v}", 1i64 << k));
        }
        k += 1;
    }
    steps.push(format!(
        "L(2^k) for the bits of the domain: {}",
        images.join(", ")
    ));
    match (l.index_1d(sw.yyy_mask()), l.index_1d(sw.zzz_mask())) {
        (Some(y), Some(z)) => steps.push(format!(
            "the read bits map to L({:#b}) = {y:#b}, the toggled bits to L({:#b}) = {z:#b}: the swizzle with those masks, after L",
            sw.yyy_mask(),
            sw.zzz_mask()
        )),
        _ => steps.push(String::from(
            "the swizzle's bits lie outside L's domain",
        )),
    }
    SwizzleExplanation {
        operands: alloc::vec![format!("{l}"), format!("{sw}")],
        steps,
        inner: None,
        outcome,
    }
}

/// Explain `composition(c, b)` for a swizzled layout `c`: the swizzle layers stay outside and
/// the inner layout composes with `b`.
///
/// ```
/// # use cute_layout::{ComposedLayout, Layout, analysis::explain::explain_composed_layout};
/// let c: ComposedLayout = "Sw<3,4,3> o 0 o (8,64):(64,1)".parse()?;
/// let e = explain_composed_layout(&c, &"(8,8):(1,8)".parse::<Layout>()?);
/// assert!(e.to_string().contains("derive:"));
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub fn explain_composed_layout(c: &ComposedLayout, b: &Layout) -> SwizzleExplanation {
    SwizzleExplanation {
        operands: alloc::vec![format!("{c}"), format!("{b}")],
        steps: alloc::vec![format!(
            "(Sw o OFF o L) o B = Sw o OFF o (L o B): the swizzle layers stay outside, L = {} composes with B",
            c.layout()
        )],
        inner: Some(explain_composition(c.layout(), b)),
        outcome: c.compose(b),
    }
}
