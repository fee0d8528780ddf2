//! Typed pointers as tensor iterators: CuTe's `T*`, `gmem_ptr`, `smem_ptr`, `subbyte_iterator`,
//! `swizzle_ptr` and `tmem_ptr`, without memory. A [`Pointer`] is an address, an element width
//! in bits, a memory space and, optionally, a swizzle of the address; adding an element offset
//! moves it as CuTe's `ptr + k` does, and [`Pointer::element`] is the address CuTe dereferences
//! (the swizzle applied). The text form is CuTe's `print(ptr)`:
//!
//! | CuTe                                               | text                                   |
//! |----------------------------------------------------|----------------------------------------|
//! | `(half_t*)0x1000`, `make_rmem_ptr(p)`              | `ptr[16b](0x1000)`                     |
//! | `make_gmem_ptr(p)` / `make_smem_ptr(p)`            | `gmem_ptr[16b](0x1000)` / `smem_ptr...`|
//! | `make_gmem_ptr(recast_ptr<int4_t>(p)) + 3`         | `gmem_subptr[4b](0x1001.4)`            |
//! | `make_smem_ptr(p, Swizzle<3,4,3>{})`               | `Sw<3,4,3>_smem_ptr[16b](0x1000)`      |
//! | `make_tmem_ptr<float>(0x10002)`                    | `tmem_[32b](0x0001.0002)`              |
//!
//! CuTe's register pointer is the raw pointer (`make_rmem_ptr` of a `T*` returns it), so it
//! prints `ptr[..]`; the null address prints `(nil)` as glibc's `%p` does.
//!
//! ```
//! use cute_layout::Pointer;
//! let p: Pointer = "gmem_ptr[16b](0x1000)".parse()?;
//! assert_eq!(p.offset(6, "ptr")?.to_string(), "gmem_ptr[16b](0x100c)");
//! let q: Pointer = "gmem_subptr[4b](0x1000.0)".parse()?;
//! assert_eq!(q.offset(3, "ptr")?.to_string(), "gmem_subptr[4b](0x1001.4)");
//! let s: Pointer = "Sw<3,4,3>_smem_ptr[16b](0x1000)".parse()?;
//! // The element at offset 64 (byte 0x1080) lives at the swizzled address 0x1090.
//! assert_eq!(s.offset(64, "ptr")?.element()?.to_string(), "ptr[16b](0x1090)");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::format;
use core::fmt;
use core::str::FromStr;

use crate::composed::swizzle::Swizzle;
use crate::layout::error::{LayoutError, ParseError, ParseErrorKind};

/// The memory space of a [`Pointer`]: CuTe's `gmem_ptr`, `smem_ptr`, `tmem_ptr` wrappers, or
/// none (a raw pointer; CuTe's register pointers are raw pointers).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum MemSpace {
    /// A raw pointer `T*` (`ptr[..]`), also CuTe's `make_rmem_ptr` of one.
    Generic,
    /// Global memory, `make_gmem_ptr` (`gmem_ptr[..]`).
    Gmem,
    /// Shared memory, `make_smem_ptr` (`smem_ptr[..]`).
    Smem,
    /// Tensor memory, `make_tmem_ptr` (`tmem_[..](0xDP.COL)`): a 32-bit (lane, column) address.
    Tmem,
}

/// The widest element a [`Pointer`] takes, in bits.
pub const MAX_ELEMENT_BITS: u32 = 1024;

/// A typed address without memory, CuTe's pointer iterators. Its text is CuTe's `print(ptr)`:
/// `ptr[16b](0x1000)` (a raw pointer, also CuTe's register pointer), `gmem_ptr[16b](0x1000)`,
/// `smem_ptr[32b](0x400)`, `gmem_subptr[4b](0x1001.4)` (sub-byte: byte address and bit),
/// `Sw<3,4,3>_smem_ptr[16b](0x1000)` (swizzled), `tmem_[32b](0x0001.0002)` (tensor memory:
/// lane and column); the null address prints `(nil)`, as glibc's `%p`.
///
/// * Byte types (`bits` a multiple of 8): `ptr + k` is `addr + k * bits / 8`; the address must
///   be a multiple of the element's size in bytes.
/// * Sub-byte types (`bits < 8`, CuTe's `subbyte_iterator` over `uint8_t` storage): the position
///   is a byte address and a bit index `0..8`; `ptr + k` moves `k * bits` bits.
/// * A swizzled pointer (CuTe's `swizzle_ptr`) moves as the pointer it wraps; the swizzle acts
///   on the byte address when an element is reached ([`Pointer::element`]).
/// * Tensor memory: `ptr + k` is `addr + rotr(k, log2(32 / bits))` on 32 bits, as CuTe's
///   `tmem_ptr`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Pointer {
    space: MemSpace,
    bits: u32,
    addr: i64,
    bit: u8,
    swizzle: Option<Swizzle>,
}

fn invalid(op: &'static str, what: alloc::string::String) -> LayoutError {
    LayoutError::InvalidArgument { op, what }
}

impl Pointer {
    /// A pointer to elements of `bits` bits at byte address `addr` in `space` (CuTe's
    /// `make_gmem_ptr((T*)addr)` and the others; for [`MemSpace::Tmem`], `addr` is the 32-bit
    /// tensor-memory address).
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] unless `bits` is in `1..8` or a power-of-two multiple of
    /// 8 up to [`MAX_ELEMENT_BITS`] (tensor memory: `bits` divides 32), the address is not
    /// negative (tensor memory: below `2^32`) and a byte type's address is a multiple of its
    /// size (misaligned otherwise).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{MemSpace, Pointer};
    /// let p = Pointer::new(MemSpace::Gmem, 16, 0x1000)?;
    /// assert_eq!(p.to_string(), "gmem_ptr[16b](0x1000)");
    /// assert!(Pointer::new(MemSpace::Gmem, 32, 0x1002).is_err()); // misaligned
    /// # Ok::<(), cute_layout::LayoutError>(())
    /// ```
    pub fn new(space: MemSpace, bits: u32, addr: i64) -> Result<Pointer, LayoutError> {
        let op = "make_ptr";
        if space == MemSpace::Tmem {
            if bits == 0 || bits > 32 || 32 % bits != 0 {
                return Err(invalid(
                    op,
                    format!("a tensor-memory element of {bits} bits: the width must divide 32"),
                ));
            }
            if !(0..=u32::MAX as i64).contains(&addr) {
                return Err(invalid(
                    op,
                    format!("tensor-memory address {addr:#x} is not a 32-bit address"),
                ));
            }
            return Ok(Pointer {
                space,
                bits,
                addr,
                bit: 0,
                swizzle: None,
            });
        }
        check_bits(op, bits)?;
        if addr < 0 {
            return Err(invalid(op, format!("address {addr} is negative")));
        }
        let p = Pointer {
            space,
            bits,
            addr,
            bit: 0,
            swizzle: None,
        };
        p.check_aligned(op)?;
        Ok(p)
    }

    fn check_aligned(&self, op: &'static str) -> Result<(), LayoutError> {
        if self.bits >= 8 && self.space != MemSpace::Tmem {
            let size = i64::from(self.bits / 8);
            if self.addr % size != 0 {
                return Err(invalid(
                    op,
                    format!(
                        "address {:#x} is misaligned for {}-bit elements (not a multiple of {size} bytes)",
                        self.addr, self.bits
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The memory space.
    pub fn space(&self) -> MemSpace {
        self.space
    }

    /// The element width in bits.
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// The byte address (tensor memory: the 32-bit address), before any swizzle.
    pub fn addr(&self) -> i64 {
        self.addr
    }

    /// The bit index inside the byte of a sub-byte pointer (0 otherwise).
    pub fn bit_index(&self) -> u8 {
        self.bit
    }

    /// The swizzle of a swizzled pointer.
    pub fn swizzle(&self) -> Option<Swizzle> {
        self.swizzle
    }

    /// Whether the elements are narrower than a byte (CuTe's `subbyte_iterator`).
    pub fn is_subbyte(&self) -> bool {
        self.bits < 8 && self.space != MemSpace::Tmem
    }

    /// CuTe's `make_swizzle_ptr(ptr, sw)` (and `make_smem_ptr(p, sw)`): the swizzle acts on the
    /// byte address of every element reached. `Sw<0,M,S>` returns the pointer unchanged, as
    /// CuTe does.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] for a tensor-memory pointer or one already swizzled.
    pub fn with_swizzle(&self, sw: Swizzle) -> Result<Pointer, LayoutError> {
        if sw.bits() == 0 {
            return Ok(*self);
        }
        if self.space == MemSpace::Tmem || self.swizzle.is_some() {
            return Err(invalid(
                "make_swizzle_ptr",
                format!("{self} cannot take a swizzle (tensor memory, or already swizzled)"),
            ));
        }
        Ok(Pointer {
            swizzle: Some(sw),
            ..*self
        })
    }

    /// The pointer without its swizzle.
    pub fn unswizzled(&self) -> Pointer {
        Pointer {
            swizzle: None,
            ..*self
        }
    }

    /// CuTe's `ptr + k`: the pointer `k` elements further (negative `k` goes back). A swizzled
    /// pointer moves as the pointer it wraps.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] if the address leaves `0..=i64::MAX` (tensor memory: 32 bits).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Pointer;
    /// let t: Pointer = "tmem_[16b](0x0000.0000)".parse()?;
    /// assert_eq!(t.offset(3, "ptr")?.to_string(), "tmem_[16b](0x8000.0001)"); // CuTe's rotr
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn offset(&self, k: i64, op: &'static str) -> Result<Pointer, LayoutError> {
        let over = || LayoutError::overflow(op);
        if self.space == MemSpace::Tmem {
            let k = u32::try_from(k).map_err(|_| over())?;
            let shift = (32 / self.bits).trailing_zeros();
            let addr = (self.addr as u32)
                .checked_add(k.rotate_right(shift))
                .ok_or_else(over)?;
            return Ok(Pointer {
                addr: i64::from(addr),
                ..*self
            });
        }
        let (addr, bit) = if self.bits >= 8 {
            let bytes = k.checked_mul(i64::from(self.bits / 8)).ok_or_else(over)?;
            (self.addr.checked_add(bytes).ok_or_else(over)?, 0)
        } else {
            let total = i128::from(self.addr) * 8
                + i128::from(self.bit)
                + i128::from(k) * i128::from(self.bits);
            let addr = i64::try_from(total.div_euclid(8)).map_err(|_| over())?;
            (addr, total.rem_euclid(8) as u8)
        };
        if addr < 0 {
            return Err(over());
        }
        Ok(Pointer { addr, bit, ..*self })
    }

    /// The address CuTe reaches when it dereferences the pointer, as CuTe's `&tensor(c)`: the
    /// raw pointer (no memory space) with the swizzle applied to the byte address. A
    /// tensor-memory pointer is its own element address.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] if the swizzled address is negative.
    pub fn element(&self) -> Result<Pointer, LayoutError> {
        if self.space == MemSpace::Tmem {
            return Ok(*self);
        }
        let addr = match self.swizzle {
            Some(sw) => sw.apply(self.addr),
            None => self.addr,
        };
        if addr < 0 {
            return Err(LayoutError::overflow("tensor"));
        }
        Ok(Pointer {
            space: MemSpace::Generic,
            addr,
            swizzle: None,
            ..*self
        })
    }

    /// CuTe's `recast_ptr<NewT>(ptr)`: the same address seen as elements of `bits` bits, in the
    /// same memory space with the same swizzle. A byte pointer becomes a sub-byte pointer at bit
    /// 0; a sub-byte pointer keeps its bit index when the new type is sub-byte too.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] for a width [`Pointer::new`] rejects, an address
    /// misaligned for the new width, or a sub-byte pointer inside a byte (bit index not 0)
    /// recast to a byte type (CuTe would drop the bit index).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Pointer;
    /// let p: Pointer = "Sw<3,4,3>_smem_ptr[16b](0x1000)".parse()?;
    /// assert_eq!(p.recast(32)?.to_string(), "Sw<3,4,3>_smem_ptr[32b](0x1000)");
    /// assert_eq!(p.recast(4)?.to_string(), "Sw<3,4,3>_smem_subptr[4b](0x1000.0)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn recast(&self, bits: u32) -> Result<Pointer, LayoutError> {
        let op = "recast_ptr";
        if self.space == MemSpace::Tmem {
            let p = Pointer::new(MemSpace::Tmem, bits, self.addr)?;
            return Ok(p);
        }
        check_bits(op, bits)?;
        if bits >= 8 && self.bit != 0 {
            return Err(invalid(
                op,
                format!("{self} points inside a byte; a {bits}-bit pointer cannot"),
            ));
        }
        let p = Pointer {
            bits,
            bit: if bits >= 8 { 0 } else { self.bit },
            ..*self
        };
        p.check_aligned(op)?;
        Ok(p)
    }
}

/// The width in bits of a CuTe element type named `name` (`half_t`, `float`, `int4_t`,
/// `float_e4m3_t`, ...), or of `N` / `Nb` written as a number of bits.
///
/// # Examples
/// ```
/// # use cute_layout::tensor::element_type_bits;
/// assert_eq!(element_type_bits("half_t"), Some(16));
/// assert_eq!(element_type_bits("int4_t"), Some(4));
/// assert_eq!(element_type_bits("64"), Some(64));
/// assert_eq!(element_type_bits("quaternion"), None);
/// ```
pub fn element_type_bits(name: &str) -> Option<u32> {
    let n = name.trim();
    if let Ok(v) = n.strip_suffix('b').unwrap_or(n).parse::<u32>() {
        return Some(v);
    }
    let bits = match n.strip_prefix("cute::").unwrap_or(n) {
        "bool" | "bin1_t" | "uint1_t" | "uint1b_t" => 1,
        "int2_t" | "uint2_t" | "int2b_t" | "uint2b_t" => 2,
        "int4_t" | "uint4_t" | "int4b_t" | "uint4b_t" | "float_e2m1_t" => 4,
        "float_e2m3_t" | "float_e3m2_t" | "uint6_t" | "uint6b_t" => 6,
        "int8_t" | "uint8_t" | "char" | "float_e4m3_t" | "float_e5m2_t" | "float_ue8m0_t"
        | "float_ue4m3_t" => 8,
        "half_t" | "bfloat16_t" | "half" | "int16_t" | "uint16_t" => 16,
        "float" | "tfloat32_t" | "int32_t" | "uint32_t" | "int" => 32,
        "double" | "int64_t" | "uint64_t" | "complex<float>" => 64,
        "uint128_t" | "complex<double>" => 128,
        _ => return None,
    };
    Some(bits)
}

fn check_bits(op: &'static str, bits: u32) -> Result<(), LayoutError> {
    let ok = (1..8).contains(&bits)
        || (bits.is_multiple_of(8) && (bits / 8).is_power_of_two() && bits <= MAX_ELEMENT_BITS);
    if ok {
        Ok(())
    } else {
        Err(invalid(
            op,
            format!(
                "an element of {bits} bits: the width must be 1 to 7 bits or a power-of-two number of bytes up to {MAX_ELEMENT_BITS} bits"
            ),
        ))
    }
}

impl fmt::Display for Pointer {
    /// CuTe's `print(ptr)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(sw) = self.swizzle {
            write!(f, "{sw}_")?;
        }
        let space = match self.space {
            MemSpace::Generic => "",
            MemSpace::Gmem => "gmem_",
            MemSpace::Smem => "smem_",
            MemSpace::Tmem => {
                let a = self.addr as u32;
                return write!(
                    f,
                    "tmem_[{}b](0x{:04x}.{:04x})",
                    self.bits,
                    a >> 16,
                    a & 0xffff
                );
            }
        };
        let sub = if self.is_subbyte() { "sub" } else { "" };
        write!(f, "{space}{sub}ptr[{}b](", self.bits)?;
        if self.addr == 0 {
            f.write_str("(nil)")?;
        } else {
            write!(f, "{:#x}", self.addr)?;
        }
        if self.is_subbyte() {
            write!(f, ".{}", self.bit)?;
        }
        f.write_str(")")
    }
}

impl Pointer {
    /// The address as `print_tensor` shows it: `0x100c`, `0x1001.4` (sub-byte),
    /// `0x0001.0002` (tensor memory).
    pub fn address_text(&self) -> alloc::string::String {
        if self.space == MemSpace::Tmem {
            let a = self.addr as u32;
            return format!("0x{:04x}.{:04x}", a >> 16, a & 0xffff);
        }
        if self.is_subbyte() {
            format!("{:#x}.{}", self.addr, self.bit)
        } else {
            format!("{:#x}", self.addr)
        }
    }
}

fn perr(offset: usize, kind: ParseErrorKind) -> ParseError {
    ParseError { offset, kind }
}

fn expected(s: &str, at: usize, what: &'static str) -> ParseError {
    match s[at..].chars().next() {
        Some(found) => perr(
            at,
            ParseErrorKind::UnexpectedChar {
                found,
                expected: what,
            },
        ),
        None => perr(at, ParseErrorKind::UnexpectedEnd { expected: what }),
    }
}

/// Whether `s` starts like a [`Pointer`]'s text.
pub fn is_pointer_text(s: &str) -> bool {
    let t = s.trim_start();
    let t = match t.strip_prefix("Sw<") {
        Some(r) => match r.find('>') {
            Some(k) => match r[k + 1..].strip_prefix('_') {
                Some(rest) => rest,
                None => return false,
            },
            None => return false,
        },
        None => t,
    };
    [
        "ptr[",
        "subptr[",
        "gmem_ptr[",
        "gmem_subptr[",
        "smem_ptr[",
        "smem_subptr[",
        "tmem_[",
    ]
    .iter()
    .any(|p| t.starts_with(p))
}

/// Parse a pointer at the start of `s`: the pointer and the byte length of its text.
pub(crate) fn parse_pointer_prefix(s: &str) -> Result<(Pointer, usize), ParseError> {
    let mut k = 0;
    let b = s.as_bytes();
    let mut swizzle = None;
    if s.starts_with("Sw<") {
        let close = s.find('>').ok_or(perr(
            s.len(),
            ParseErrorKind::UnexpectedEnd { expected: "'>'" },
        ))?;
        let sw: Swizzle = s[..=close].parse()?;
        if b.get(close + 1) != Some(&b'_') {
            return Err(expected(s, close + 1, "'_' after the swizzle"));
        }
        swizzle = Some(sw);
        k = close + 2;
    }
    let rest = &s[k..];
    let (space, sub, head) = [
        ("gmem_subptr[", MemSpace::Gmem, true),
        ("gmem_ptr[", MemSpace::Gmem, false),
        ("smem_subptr[", MemSpace::Smem, true),
        ("smem_ptr[", MemSpace::Smem, false),
        ("subptr[", MemSpace::Generic, true),
        ("ptr[", MemSpace::Generic, false),
        ("tmem_[", MemSpace::Tmem, false),
    ]
    .iter()
    .find(|(p, _, _)| rest.starts_with(p))
    .map(|&(p, sp, sub)| (sp, sub, p.len()))
    .ok_or_else(|| {
        expected(
            s,
            k,
            "a pointer: ptr[Nb](ADDR), gmem_ptr, smem_ptr, subptr, tmem_",
        )
    })?;
    k += head;
    let digits = |from: usize| {
        let mut e = from;
        while e < b.len() && b[e].is_ascii_digit() {
            e += 1;
        }
        e
    };
    let e = digits(k);
    let bits: u32 = s[k..e]
        .parse()
        .map_err(|_| expected(s, k, "the element width in bits"))?;
    if !s[e..].starts_with("b](") {
        return Err(expected(s, e, "b]( after the element width"));
    }
    k = e + 3;
    let (addr, bit) = if space == MemSpace::Tmem {
        let hi = hex(s, k, "0x followed by 4 hex digits")?;
        if b.get(hi.1) != Some(&b'.') {
            return Err(expected(s, hi.1, "'.'"));
        }
        let lo = hex_digits(s, hi.1 + 1, "4 hex digits")?;
        if hi.0 > 0xffff || lo.0 > 0xffff {
            return Err(perr(k, ParseErrorKind::IntegerOverflow));
        }
        k = lo.1;
        ((hi.0 << 16) | lo.0, 0)
    } else {
        let (addr, e) = if s[k..].starts_with("(nil)") {
            (0, k + 5)
        } else {
            hex(s, k, "an address 0x...")?
        };
        k = e;
        let mut bit = 0;
        if sub {
            if b.get(k) != Some(&b'.') {
                return Err(expected(s, k, "'.' and the bit index"));
            }
            let e = digits(k + 1);
            bit = s[k + 1..e]
                .parse::<u8>()
                .ok()
                .filter(|&v| v < 8)
                .ok_or_else(|| expected(s, k + 1, "a bit index 0 to 7"))?;
            k = e;
        }
        (addr, bit)
    };
    if b.get(k) != Some(&b')') {
        return Err(expected(s, k, "')'"));
    }
    k += 1;
    let mut p = Pointer::new(space, bits, addr).map_err(|e| perr(0, ParseErrorKind::Invalid(e)))?;
    if sub != p.is_subbyte() {
        return Err(perr(
            0,
            ParseErrorKind::Invalid(invalid(
                "pointer",
                format!(
                    "{bits}-bit elements are {}: CuTe prints {}",
                    if p.is_subbyte() {
                        "sub-byte"
                    } else {
                        "bytes or wider"
                    },
                    if p.is_subbyte() { "subptr" } else { "ptr" }
                ),
            )),
        ));
    }
    p.bit = bit;
    if let Some(sw) = swizzle {
        p = p
            .with_swizzle(sw)
            .map_err(|e| perr(0, ParseErrorKind::Invalid(e)))?;
    }
    Ok((p, k))
}

/// `0x...` at `at`: the value and the end.
fn hex(s: &str, at: usize, what: &'static str) -> Result<(i64, usize), ParseError> {
    if !s[at..].starts_with("0x") {
        return Err(expected(s, at, what));
    }
    hex_digits(s, at + 2, what)
}

/// Hex digits at `at`: the value and the end.
fn hex_digits(s: &str, at: usize, what: &'static str) -> Result<(i64, usize), ParseError> {
    let b = s.as_bytes();
    let mut e = at;
    while e < b.len() && b[e].is_ascii_hexdigit() {
        e += 1;
    }
    if e == at {
        return Err(expected(s, e, what));
    }
    let v = i64::from_str_radix(&s[at..e], 16)
        .map_err(|_| perr(at, ParseErrorKind::IntegerOverflow))?;
    Ok((v, e))
}

impl FromStr for Pointer {
    type Err = ParseError;
    /// CuTe's print of a pointer (see [`Pointer`]); spaces around it are accepted.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let lead = s.len() - s.trim_start().len();
        let body = s.trim();
        let (p, n) = parse_pointer_prefix(body).map_err(|e| perr(e.offset + lead, e.kind))?;
        if n != body.len() {
            return Err(expected(s, lead + n, "the end of the pointer"));
        }
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn p(s: &str) -> Pointer {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn text_round_trips() {
        for s in [
            "ptr[16b](0x1000)",
            "gmem_ptr[16b](0x1000)",
            "smem_ptr[32b](0x400)",
            "ptr[8b](0x10)",
            "gmem_subptr[4b](0x1001.4)",
            "subptr[2b](0x7.6)",
            "Sw<3,4,3>_smem_ptr[16b](0x1000)",
            "Sw<2,4,3>_gmem_subptr[4b](0x1000.0)",
            "tmem_[32b](0x0001.0002)",
            "gmem_ptr[16b]((nil))",
            "ptr[1024b](0x80)",
        ] {
            assert_eq!(p(s).to_string(), s);
        }
        for bad in [
            "",
            "ptr",
            "ptr[16b]",
            "ptr[16b](0x1001)",
            "ptr[12b](0x1000)",
            "ptr[0b](0x1000)",
            "ptr[4b](0x1000)",
            "subptr[16b](0x1000.0)",
            "subptr[4b](0x1000.8)",
            "Sw<3,4,3>smem_ptr[16b](0x1000)",
            "Sw<3,4,3>_tmem_[32b](0x0000.0000)",
            "tmem_[64b](0x0000.0000)",
            "tmem_[32b](0x10000.0000)",
            "gmem_ptr[16b](0x1000) x",
            "gmem_ptr[16b](0xffffffffffffffffff)",
        ] {
            assert!(bad.parse::<Pointer>().is_err(), "{bad:?}");
        }
    }

    /// Law: `(p + a) + b == p + (a + b)` and the byte and bit position moves by `k * bits`,
    /// for every width and small offsets.
    #[test]
    fn offsets_add() {
        for bits in [1u32, 2, 4, 6, 8, 16, 32, 64, 128] {
            let base = Pointer::new(MemSpace::Gmem, bits, 0x1000).unwrap();
            for a in -20i64..20 {
                for b in -20i64..20 {
                    let one = base.offset(a, "t").unwrap().offset(b, "t").unwrap();
                    let two = base.offset(a + b, "t").unwrap();
                    assert_eq!(one, two, "{bits} {a} {b}");
                    let pos = one.addr() * 8 + i64::from(one.bit_index());
                    assert_eq!(pos, 0x1000 * 8 + (a + b) * i64::from(bits));
                }
            }
        }
        let end = Pointer::new(MemSpace::Generic, 8, i64::MAX).unwrap();
        assert_eq!(end.offset(1, "t").unwrap_err().kind(), "Overflow");
        let zero = Pointer::new(MemSpace::Generic, 8, 0).unwrap();
        assert_eq!(zero.offset(-1, "t").unwrap_err().kind(), "Overflow");
    }

    /// Law: a swizzled pointer reaches `swizzle(address)` and moves as the plain one.
    #[test]
    fn swizzle_acts_on_the_byte_address() {
        let sw = Swizzle::new(3, 4, 3).unwrap();
        let plain = Pointer::new(MemSpace::Smem, 16, 0x1000).unwrap();
        let s = plain.with_swizzle(sw).unwrap();
        for k in 0..512 {
            let a = s.offset(k, "t").unwrap();
            assert_eq!(a.unswizzled(), plain.offset(k, "t").unwrap());
            assert_eq!(a.element().unwrap().addr(), sw.apply(0x1000 + 2 * k));
        }
        assert_eq!(plain.with_swizzle(Swizzle::IDENTITY).unwrap(), plain);
    }

    #[test]
    fn recasts() {
        let h = p("gmem_ptr[16b](0x1002)");
        assert_eq!(h.recast(8).unwrap().to_string(), "gmem_ptr[8b](0x1002)");
        assert_eq!(h.recast(32).unwrap_err().kind(), "InvalidArgument");
        let s = p("gmem_subptr[4b](0x1001.4)");
        assert_eq!(
            s.recast(2).unwrap().to_string(),
            "gmem_subptr[2b](0x1001.4)"
        );
        assert_eq!(s.recast(8).unwrap_err().kind(), "InvalidArgument");
        assert_eq!(
            p("tmem_[32b](0x0001.0002)").recast(16).unwrap().to_string(),
            "tmem_[16b](0x0001.0002)"
        );
    }
}
