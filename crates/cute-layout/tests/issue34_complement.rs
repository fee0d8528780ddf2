//! Issue 34: complement's arithmetic overflows only where the result itself cannot be
//! represented (a layout's size fits in `i64` and every offset does: the span is at most
//! `i64::MAX`, the cosize at most `2^63`), never in an intermediate value.

use cute_layout::{IntTuple, Layout};

fn lay(s: &str) -> Layout {
    s.parse().unwrap()
}

fn tup(s: &str) -> IntTuple {
    s.parse().unwrap()
}

/// `complement((5):(8), i64::MAX)` is `(8,230584300921369396):(1,40)`, whose largest offset is
/// `i64::MAX` and whose cosize is `2^63`: a layout, whose text parses and prints back.
#[test]
fn complement_overflows_only_where_the_result_cannot_be_represented() {
    let r = lay("(5):(8)").complement(i64::MAX).unwrap();
    assert_eq!(r.to_string(), "(8,230584300921369396):(1,40)");
    assert_eq!(r.cosize(), 1 << 63);
    assert_eq!(r.image_bounds(), (0, i64::MAX));
    assert_eq!(lay("(8,230584300921369396):(1,40)"), r);
    // the law at the edge: (A, R) is injective and R increasing; its last offset is i64::MAX
    assert_eq!(r.index_1d(r.size() - 1).unwrap(), i64::MAX);
    // one step of 40 less
    let r = lay("(5):(8)").complement(i64::MAX - 40).unwrap();
    assert_eq!(r.to_string(), "(8,230584300921369395):(1,40)");
    assert_eq!(r.cosize(), (i64::MAX - 39) as u64);
    // rest * span is 2^63 here, but the result's cosize is i64::MAX
    assert_eq!(
        lay("2:1").complement(i64::MAX).unwrap().to_string(),
        "4611686018427387904:2"
    );
    // neighbours: one-mode complements whose last offset is exactly i64::MAX
    assert_eq!(
        lay("3:2").complement(i64::MAX).unwrap().to_string(),
        "(2,1537228672809129302):(1,6)"
    );
    assert_eq!(
        lay("1:0").complement(i64::MAX).unwrap().to_string(),
        "9223372036854775807:1"
    );
}

/// Layouts whose span is exactly `i64::MAX` (cosize `2^63`): valid, with negative strides too;
/// a span of `2^63` (an offset past `i64`) is refused, naming the overflow.
#[test]
fn layouts_of_cosize_2_pow_63_are_layouts() {
    for (text, lo, hi) in [
        ("2:9223372036854775807", 0, i64::MAX),
        ("2:-9223372036854775807", -i64::MAX, 0),
        ("(2,2):(-1,9223372036854775806)", -1, i64::MAX - 1),
        ("(3,2):(-4611686018427387902,3)", -i64::MAX + 3, 3),
        ("(2,3):(1,4611686018427387903)", 0, i64::MAX),
    ] {
        let l = lay(text);
        assert_eq!(l.to_string(), text);
        assert_eq!(l.cosize(), 1 << 63, "{text}");
        assert_eq!(l.image_bounds(), (lo, hi), "{text}");
    }
    for text in [
        "2:-9223372036854775808",
        "(2,2):(1,9223372036854775807)",
        "(2,2):(-1,-9223372036854775807)",
        "(3,2):(4611686018427387903,2)",
    ] {
        let e = text.parse::<Layout>().unwrap_err();
        assert_eq!(e.to_string(), "make_layout: integer overflow", "{text}");
    }
}

/// The one-argument complement (up to the cosize) of a layout of cosize `2^63`.
#[test]
fn complement_up_to_a_cosize_of_2_pow_63() {
    assert_eq!(
        lay("2:9223372036854775807")
            .complement_cosize()
            .unwrap()
            .to_string(),
        "9223372036854775807:1"
    );
    assert_eq!(
        lay("(8,230584300921369396):(1,40)")
            .complement_cosize()
            .unwrap()
            .to_string(),
        "5:8"
    );
    assert_eq!(
        lay("(2,2):(1,9223372036854775806)")
            .complement_cosize()
            .unwrap()
            .to_string(),
        "4611686018427387903:2"
    );
    // negative strides: refused by complement, naming the condition
    assert_eq!(
        lay("2:-9223372036854775807")
            .complement_cosize()
            .unwrap_err()
            .to_string(),
        "complement: stride -9223372036854775807 of 2:-9223372036854775807 is negative; complement needs non-negative strides"
    );
}

/// A tuple cotarget whose size is past `i64` only bounds the coverage check: the result
/// `2:2^62` fits (it was refused as an overflow of the cotarget's size).
#[test]
fn a_cotarget_of_size_past_i64_is_no_overflow_by_itself() {
    let a = lay("4611686018427387904:1");
    let r = a.complement_shape(&tup("(4611686018427387904,2)")).unwrap();
    assert_eq!(r.to_string(), "2:4611686018427387904");
    // no modes: the result is the cotarget's size, which must fit
    assert_eq!(
        lay("1:0")
            .complement_shape(&tup("(4611686018427387904,2)"))
            .unwrap_err()
            .to_string(),
        "complement: integer overflow"
    );
    // the law: (A, R) covers the cotarget's size, here 2^63
    let (amax, rmax) = (i128::from(a.cosize()) - 1, i128::from(r.cosize()) - 1);
    assert!(amax + rmax + 1 >= 1i128 << 63);
}
