//! Issue 34: complement's arithmetic overflows only where the result itself cannot be
//! represented (a layout's size and cosize fit in `i64`), never in an intermediate value.

use cute_layout::{IntTuple, Layout};

fn lay(s: &str) -> Layout {
    s.parse().unwrap()
}

fn tup(s: &str) -> IntTuple {
    s.parse().unwrap()
}

/// `complement((5):(8), i64::MAX)` is `(8,230584300921369396):(1,40)`, whose largest offset is
/// `i64::MAX` and whose cosize is `2^63`: past `i64`, so not a layout here (every layout's
/// cosize fits in `i64`). One step of 40 less fits.
#[test]
fn complement_overflows_only_where_the_result_cannot_be_represented() {
    let e = lay("(5):(8)").complement(i64::MAX).unwrap_err();
    assert_eq!(e.to_string(), "complement: integer overflow");
    assert!("(8,230584300921369396):(1,40)".parse::<Layout>().is_err());
    let r = lay("(5):(8)").complement(i64::MAX - 40).unwrap();
    assert_eq!(r.to_string(), "(8,230584300921369395):(1,40)");
    assert_eq!(r.cosize(), i64::MAX - 39);
    // rest * span is 2^63 here, but the result's cosize is i64::MAX
    assert_eq!(
        lay("2:1").complement(i64::MAX).unwrap().to_string(),
        "4611686018427387904:2"
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
    let (amax, rmax) = (a.cosize() as i128 - 1, r.cosize() as i128 - 1);
    assert!(amax + rmax + 1 >= 1i128 << 63);
}
