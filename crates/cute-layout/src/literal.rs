//! Convenient literals: `TryFrom<&str>` for the parsed types, the [`layout!`](crate::layout!)
//! and [`tuple!`](crate::tuple) macros, and (feature `serde`) serialization as the text form.

use crate::algebra::Tiler;
use crate::composed::composed_layout::ComposedLayout;
use crate::composed::swizzle::Swizzle;
use crate::layout::error::ParseError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;

macro_rules! try_from_str {
    ($($t:ty),*) => {$(
        impl TryFrom<&str> for $t {
            type Error = ParseError;
            /// Parses CuTe's text form, as [`str::parse`] does.
            fn try_from(s: &str) -> Result<Self, ParseError> {
                s.parse()
            }
        }
    )*};
}

try_from_str!(Layout, IntTuple, Swizzle, ComposedLayout, Tiler);

/// A [`Layout`] literal: `layout!("(2,4):(4,1)")`, or the same without quotes,
/// `layout!((2,4):(4,1))`.
///
/// For layouts written in the source. It panics, naming the text and the parse error, if the
/// text is not a layout (a mistake in the program, like an invalid regular expression literal);
/// parse input with [`str::parse`] or [`Layout::try_from`], which return the error.
///
/// ```
/// use cute_layout::layout;
/// let a = layout!("(2,(2,2)):(4,(2,1))");
/// let b = layout!((2,(2,2)):(4,(2,1)));
/// assert_eq!(a, b);
/// assert_eq!(a.to_string(), "(2,(2,2)):(4,(2,1))");
/// ```
#[macro_export]
macro_rules! layout {
    ($text:literal) => {
        $crate::literal_or_panic::<$crate::Layout>($text)
    };
    ($($tokens:tt)+) => {
        $crate::literal_or_panic::<$crate::Layout>(stringify!($($tokens)+))
    };
}

/// An [`IntTuple`] literal: `tuple!("(2,(3,4))")` or `tuple!((2,(3,4)))`; panics as
/// [`layout!`](crate::layout!) does.
///
/// ```
/// use cute_layout::tuple;
/// assert_eq!(tuple!((2,(3,4))).size(), Ok(24));
/// ```
#[macro_export]
macro_rules! tuple {
    ($text:literal) => {
        $crate::literal_or_panic::<$crate::IntTuple>($text)
    };
    ($($tokens:tt)+) => {
        $crate::literal_or_panic::<$crate::IntTuple>(stringify!($($tokens)+))
    };
}

/// The value of a literal written in the program (see [`layout!`](crate::layout!)).
///
/// # Panics
/// If `text` does not parse: the literal is a mistake in the program, not input.
#[doc(hidden)]
#[track_caller]
pub fn literal_or_panic<T: core::str::FromStr<Err = ParseError>>(text: &str) -> T {
    match text.parse() {
        Ok(v) => v,
        Err(e) => panic!("invalid literal {text:?}: {e}"),
    }
}

#[cfg(feature = "serde")]
mod serde_impls {
    use core::fmt;
    use core::marker::PhantomData;
    use core::str::FromStr;

    use serde::de::{self, Visitor};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::*;

    struct TextVisitor<T>(PhantomData<T>);

    impl<T: FromStr<Err = ParseError>> Visitor<'_> for TextVisitor<T> {
        type Value = T;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("CuTe's text form, e.g. \"(2,4):(4,1)\"")
        }

        fn visit_str<E: de::Error>(self, s: &str) -> Result<T, E> {
            s.parse().map_err(E::custom)
        }
    }

    macro_rules! serde_text {
        ($($t:ty),*) => {$(
            impl Serialize for $t {
                /// The text form, e.g. `"(2,4):(4,1)"`.
                fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    s.collect_str(self)
                }
            }

            impl<'de> Deserialize<'de> for $t {
                /// From the text form, with the parser's checks.
                fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    d.deserialize_str(TextVisitor(PhantomData))
                }
            }
        )*};
    }

    serde_text!(Layout, IntTuple, Swizzle, ComposedLayout);
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn literals() {
        assert_eq!(crate::layout!(8:1), Layout::try_from("8:1").unwrap());
        assert_eq!(crate::layout!((_4,_2):(_1,_4)).to_string(), "(4,2):(1,4)");
        assert!(Layout::try_from("(2,3):(1)").is_err());
        assert!(Swizzle::try_from("Sw<3,4,3>").is_ok());
        assert!(ComposedLayout::try_from("Sw<3,4,3> o 0 o 8:1").is_ok());
        assert!(Tiler::try_from("(2,_)").is_ok());
        assert_eq!(crate::tuple!(()).rank(), 0);
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_uses_the_text_form() {
        let l = crate::layout!((2,(2,2)):(4,(2,1)));
        let json = serde_json::to_string(&l).unwrap();
        assert_eq!(json, "\"(2,(2,2)):(4,(2,1))\"");
        assert_eq!(serde_json::from_str::<Layout>(&json).unwrap(), l);
        let c: ComposedLayout = serde_json::from_str("\"Sw<3,4,3> o 0 o (8,64):(64,1)\"").unwrap();
        assert_eq!(
            serde_json::to_string(&c).unwrap(),
            "\"Sw<3,4,3> o 0 o (8,64):(64,1)\""
        );
        let e = serde_json::from_str::<Layout>("\"(2,3):(1)\"").unwrap_err();
        assert!(e.to_string().contains("(2,3):(1)") || !e.to_string().is_empty());
        assert!(serde_json::from_str::<IntTuple>("4").is_err());
    }

    #[test]
    #[should_panic(expected = "invalid literal")]
    fn bad_literal_panics() {
        let _ = literal_or_panic::<Layout>("(2,3");
    }
}
