//! CuTe's value types (`half_t`, `float`, `uint128_t`, ...) and their widths in bits
//! (`sizeof_bits<T>`), for typing copy atoms and reading the type arguments of their names.

use alloc::format;
use alloc::string::{String, ToString};

use super::super::{nearest, normalize_name, AtomError};

/// A CuTe value type: its name and `sizeof_bits`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueType {
    name: String,
    bits: u32,
}

impl ValueType {
    /// The name as given (normalised, namespace prefix kept).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// `sizeof_bits<T>`.
    pub fn bits(&self) -> u32 {
        self.bits
    }
}

/// The value types CuTe C++ 4.2 knows, with `sizeof_bits` (namespace prefixes `cute::`,
/// `cutlass::`, `std::` are accepted and ignored).
pub(crate) static VALUE_TYPES: &[(&str, u32)] = &[
    ("uint1_t", 1),
    ("uint1b_t", 1),
    ("bin1_t", 1),
    ("int2_t", 2),
    ("int2b_t", 2),
    ("uint2_t", 2),
    ("uint2b_t", 2),
    ("int4_t", 4),
    ("int4b_t", 4),
    ("uint4_t", 4),
    ("uint4b_t", 4),
    ("int6_t", 6),
    ("int6b_t", 6),
    ("uint6_t", 6),
    ("uint6b_t", 6),
    ("bool", 8),
    ("char", 8),
    ("signed char", 8),
    ("unsigned char", 8),
    ("int8_t", 8),
    ("uint8_t", 8),
    ("short", 16),
    ("unsigned short", 16),
    ("int16_t", 16),
    ("uint16_t", 16),
    ("int", 32),
    ("unsigned", 32),
    ("unsigned int", 32),
    ("int32_t", 32),
    ("uint32_t", 32),
    ("long", 64),
    ("unsigned long", 64),
    ("long long", 64),
    ("unsigned long long", 64),
    ("int64_t", 64),
    ("uint64_t", 64),
    ("uint128_t", 128),
    ("uint256_t", 256),
    ("half_t", 16),
    ("half", 16),
    ("__half", 16),
    ("bfloat16_t", 16),
    ("__nv_bfloat16", 16),
    ("tfloat32_t", 32),
    ("float", 32),
    ("double", 64),
    ("float_e4m3_t", 8),
    ("float_e5m2_t", 8),
    ("float_ue4m3_t", 8),
    ("float_ue8m0_t", 8),
    ("type_erased_dynamic_float8_t", 8),
    ("float_e2m1_t", 4),
    ("type_erased_dynamic_float4_t", 4),
    ("float_e2m3_t", 6),
    ("float_e3m2_t", 6),
    ("type_erased_dynamic_float6_t", 6),
    ("float_e2m1_unpacksmem_t", 8),
    ("float_e2m3_unpacksmem_t", 8),
    ("float_e3m2_unpacksmem_t", 8),
    ("float_e2m3_unpack8bits_t", 8),
    ("float_e3m2_unpack8bits_t", 8),
    ("type_erased_dynamic_float4_unpacksmem_t", 8),
    ("type_erased_dynamic_float6_unpacksmem_t", 8),
];

fn strip_namespace(mut n: &str) -> &str {
    loop {
        // Each pass only strips prefixes: an unchanged length is an unchanged name.
        let len = n.len();
        for p in ["cute::", "cutlass::", "std::", "detail::"] {
            n = n.strip_prefix(p).unwrap_or(n);
        }
        if n.len() == len {
            return n;
        }
    }
}

/// `sizeof_bits` of a value type's name: `complex<T>` is two `T`s, at any depth (unwrapped in a
/// loop: a name may be long); `None` for an unknown name or more bits than a `u32` holds.
fn bits_of(n: &str) -> Option<u32> {
    let mut n = strip_namespace(n);
    let mut factor = 1u32;
    while let Some(inner) = n.strip_prefix("complex<").and_then(|r| r.strip_suffix('>')) {
        factor = factor.checked_mul(2)?;
        n = strip_namespace(inner);
    }
    let bits = VALUE_TYPES.iter().find(|(k, _)| *k == n).map(|&(_, b)| b)?;
    bits.checked_mul(factor)
}

/// The value type of that name (`half_t`, `float`, `uint128_t`, `complex<float>`, `float_e4m3_t`,
/// `cutlass::bfloat16_t`, ...; spaces as in [`normalize_name`](super::super::normalize_name)).
///
/// # Errors
/// [`AtomError::BadArgument`] naming the nearest known type if the name is unknown.
///
/// # Examples
/// ```
/// use cute_layout::atom::copy::value_type;
/// assert_eq!(value_type("half_t")?.bits(), 16);
/// assert_eq!(value_type("complex<double>")?.bits(), 128);
/// assert!(value_type("halft").unwrap_err().to_string().contains("half_t"));
/// # Ok::<(), cute_layout::atom::AtomError>(())
/// ```
pub fn value_type(name: &str) -> Result<ValueType, AtomError> {
    let n = normalize_name(name);
    match bits_of(&n) {
        Some(bits) => Ok(ValueType { name: n, bits }),
        None => {
            let near = nearest(strip_namespace(&n), VALUE_TYPES.iter().map(|(k, _)| *k));
            Err(AtomError::BadArgument {
                name: n.to_string(),
                what: match near {
                    Some(k) => format!("unknown value type (nearest known: {k})"),
                    None => "unknown value type".to_string(),
                },
            })
        }
    }
}

/// The names of the value types [`value_type`] knows (complex types as `complex<T>` of them).
pub fn value_type_names() -> impl Iterator<Item = &'static str> {
    VALUE_TYPES.iter().map(|(k, _)| *k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;

    fn nested(k: usize, t: &str) -> String {
        let mut s = String::new();
        for _ in 0..k {
            s += "complex<";
        }
        s += t;
        for _ in 0..k {
            s.push('>');
        }
        s
    }

    #[test]
    fn complex_bits() {
        assert_eq!(bits_of("cute::complex<cutlass::half_t>"), Some(32));
        assert_eq!(bits_of(&nested(2, "float")), Some(128));
        assert_eq!(bits_of(&nested(26, "float")), Some(1 << 31));
        assert_eq!(bits_of(&nested(27, "float")), None);
        assert_eq!(bits_of(&nested(100_000, "float")), None);
        assert!(value_type(&nested(100_000, "X")).is_err());
    }
}
