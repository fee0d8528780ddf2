//! The text parsers on arbitrary bytes: no panic, and `parse(print(x)) == x` with `print` a fixed
//! point, for `IntTuple`, `Layout` and `Tiler`.
#![no_main]

use std::fmt::Display;
use std::str::FromStr;

use cute_layout::{IntTuple, Layout, Tiler};
use libfuzzer_sys::fuzz_target;

fn roundtrip<T>(s: &str)
where
    T: FromStr + Display + PartialEq + std::fmt::Debug,
    T::Err: Display,
{
    if let Ok(v) = s.parse::<T>() {
        let printed = v.to_string();
        let back: T = match printed.parse() {
            Ok(x) => x,
            Err(e) => panic!("{s:?} parsed, printed as {printed:?}, which does not parse: {e}"),
        };
        assert_eq!(back, v, "{s:?} -> {printed:?} -> {back:?}");
        assert_eq!(
            back.to_string(),
            printed,
            "print is not a fixed point for {s:?}"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    roundtrip::<IntTuple>(&s);
    roundtrip::<Layout>(&s);
    roundtrip::<Tiler>(&s);
});
