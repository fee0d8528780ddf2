//! Canonical shared-memory layout atoms of the sm90 GMMA and sm100 UMMA instructions: CuTe's
//! `GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>` and `UMMA::Layout_MN_SW128_32B_Atom<T>`.
//!
//! CuTe defines each atom in bits (`Layout_K_SW128_Atom_Bits =
//! Sw<3,4,3> o smem_ptr_flag o (8,1024):(1024,1)`) and the atom of a `T` as its
//! `upcast<sizeof_bits<T>>`: the inner layout counts elements (`(8,64):(64,1)` for 16 bits) while
//! the swizzle keeps acting on *byte addresses* (CuTe's swizzled shared-memory pointer applies it
//! to the address). [`SmemAtom::cute_text`] prints the atom as CuTe does
//! (`Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)`); [`SmemAtom::elements`] is the same
//! function on element offsets, a [`ComposedLayout`] every operation takes
//! (`Sw<3,3,3> o 0 o (8,64):(64,1)`: the swizzle's base moved down by `log2(bits / 8)`).
//!
//! | atom | swizzle (bytes) | K-major bits layout | MN-major bits layout |
//! |---|---|---|---|
//! | `INTER` | `Sw<0,4,3>` | `(8,128):(128,1)` | `(128,8):(1,128)` |
//! | `SW32` | `Sw<1,4,3>` | `(8,256):(256,1)` | `(256,8):(1,256)` |
//! | `SW64` | `Sw<2,4,3>` | `(8,512):(512,1)` | `(512,8):(1,512)` |
//! | `SW128` | `Sw<3,4,3>` | `(8,1024):(1024,1)` | `(1024,8):(1,1024)` |
//! | `SW128_32B` (UMMA, MN only) | `Sw<2,5,2>` | - | `(1024,4):(1,1024)` |
//!
//! ```
//! use cute_layout::gpu::smem_atom::SmemAtom;
//! let atom = SmemAtom::from_name("GMMA::Layout_K_SW128_Atom", 16)?;
//! assert_eq!(atom.cute_text()?, "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)");
//! assert_eq!(atom.elements()?.to_string(), "Sw<3,3,3> o 0 o (8,64):(64,1)");
//! // tile_to_shape(Layout_K_SW128_Atom<half_t>{}, Shape<_128,_64>{})
//! let tile = atom.elements()?.tile_to_shape(&"(128,64)".parse()?, None)?;
//! assert_eq!(tile.to_string(), "Sw<3,3,3> o 0 o ((8,16),(64,1)):((64,512),(1,0))");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::format;
use alloc::string::String;

use crate::composed::composed_layout::ComposedLayout;
use crate::composed::swizzle::Swizzle;
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;

/// Which mode of the operand is contiguous in shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Major {
    /// K-major: the reduction mode (mode 1 of the `(8, K)` atom) is contiguous.
    K,
    /// M- or N-major: mode 0 is contiguous.
    MN,
}

/// The swizzle width of an atom: CuTe's `INTER`, `SW32`, `SW64`, `SW128`, and UMMA's
/// `SW128_32B` (128-byte swizzle with 32-byte atomicity, MN-major only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SmemSwizzle {
    /// Interleaved, no swizzle (`Sw<0,4,3>`, 16-byte rows).
    Inter,
    /// 32-byte swizzle (`Sw<1,4,3>`).
    Sw32,
    /// 64-byte swizzle (`Sw<2,4,3>`).
    Sw64,
    /// 128-byte swizzle (`Sw<3,4,3>`).
    Sw128,
    /// 128-byte swizzle of 32-byte units (`Sw<2,5,2>`, sm100 UMMA, MN-major).
    Sw128Atom32B,
}

/// Every (major, swizzle) pair CuTe defines an atom for, in CuTe's order.
pub const ALL_ATOMS: [(Major, SmemSwizzle); 9] = [
    (Major::MN, SmemSwizzle::Inter),
    (Major::MN, SmemSwizzle::Sw32),
    (Major::MN, SmemSwizzle::Sw64),
    (Major::MN, SmemSwizzle::Sw128),
    (Major::K, SmemSwizzle::Inter),
    (Major::K, SmemSwizzle::Sw32),
    (Major::K, SmemSwizzle::Sw64),
    (Major::K, SmemSwizzle::Sw128),
    (Major::MN, SmemSwizzle::Sw128Atom32B),
];

impl Major {
    /// `K` or `MN` (case-insensitive; `M` and `N` stand for `MN`).
    pub fn parse(s: &str) -> Option<Major> {
        match s.trim().to_ascii_uppercase().as_str() {
            "K" | "GMMA::MAJOR::K" | "UMMA::MAJOR::K" | "MAJOR::K" => Some(Major::K),
            "MN" | "M" | "N" | "GMMA::MAJOR::MN" | "UMMA::MAJOR::MN" | "MAJOR::MN" => {
                Some(Major::MN)
            }
            _ => None,
        }
    }

    /// CuTe's spelling: `K` or `MN`.
    pub fn name(self) -> &'static str {
        match self {
            Major::K => "K",
            Major::MN => "MN",
        }
    }
}

impl SmemSwizzle {
    /// `INTER`, `SW32`, `SW64`, `SW128` or `SW128_32B` (case-insensitive).
    pub fn parse(s: &str) -> Option<SmemSwizzle> {
        match s.trim().to_ascii_uppercase().as_str() {
            "INTER" | "INTERLEAVE" => Some(SmemSwizzle::Inter),
            "SW32" | "B32" => Some(SmemSwizzle::Sw32),
            "SW64" | "B64" => Some(SmemSwizzle::Sw64),
            "SW128" | "B128" => Some(SmemSwizzle::Sw128),
            "SW128_32B" | "B128_BASE32B" => Some(SmemSwizzle::Sw128Atom32B),
            _ => None,
        }
    }

    /// CuTe's spelling in the atom's name.
    pub fn name(self) -> &'static str {
        match self {
            SmemSwizzle::Inter => "INTER",
            SmemSwizzle::Sw32 => "SW32",
            SmemSwizzle::Sw64 => "SW64",
            SmemSwizzle::Sw128 => "SW128",
            SmemSwizzle::Sw128Atom32B => "SW128_32B",
        }
    }

    /// CuTe's swizzle on byte addresses, and the atom's rows and bits per row.
    fn params(self) -> (Swizzle, i64, i64) {
        match self {
            SmemSwizzle::Inter => (Swizzle::constant::<0, 4, 3>(), 8, 128),
            SmemSwizzle::Sw32 => (Swizzle::constant::<1, 4, 3>(), 8, 256),
            SmemSwizzle::Sw64 => (Swizzle::constant::<2, 4, 3>(), 8, 512),
            SmemSwizzle::Sw128 => (Swizzle::constant::<3, 4, 3>(), 8, 1024),
            SmemSwizzle::Sw128Atom32B => (Swizzle::constant::<2, 5, 2>(), 4, 1024),
        }
    }
}

/// One canonical shared-memory layout atom for elements of `bits` bits: see the
/// [module docs](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SmemAtom {
    major: Major,
    swizzle: SmemSwizzle,
    bits: u32,
}

impl SmemAtom {
    /// The atom `Layout_{major}_{swizzle}_Atom<T>` for `sizeof_bits<T> == bits`.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] if `bits` is not a power of two from 1 to 128 (CuTe's
    /// `upcast` needs it to divide the atom's 128-bit rows), or for `SW128_32B` with `K` (CuTe
    /// defines only the MN-major one).
    pub fn new(major: Major, swizzle: SmemSwizzle, bits: i64) -> Result<Self, LayoutError> {
        if !(1..=128).contains(&bits) || bits.count_ones() != 1 {
            return Err(LayoutError::InvalidArgument {
                op: "smem_atom",
                what: format!(
                    "element width {bits} bits: a shared-memory atom takes a power of two from 1 to 128 bits"
                ),
            });
        }
        if swizzle == SmemSwizzle::Sw128Atom32B && major == Major::K {
            return Err(LayoutError::InvalidArgument {
                op: "smem_atom",
                what: String::from(
                    "CuTe has no K-major SW128_32B atom (UMMA::Layout_MN_SW128_32B_Atom only)",
                ),
            });
        }
        Ok(SmemAtom {
            major,
            swizzle,
            bits: bits as u32,
        })
    }

    /// The atom called `name` (`Layout_K_SW128_Atom`, optionally prefixed `GMMA::`, `UMMA::`,
    /// `SM90::GMMA::`, `cute::`) for elements of `bits` bits.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] for a name that is not one of CuTe's atoms, and the
    /// errors of [`SmemAtom::new`].
    pub fn from_name(name: &str, bits: i64) -> Result<Self, LayoutError> {
        let bad = || {
            LayoutError::InvalidArgument {
            op: "smem_atom",
            what: format!(
                "{name:?} is not a shared-memory atom: Layout_{{K|MN}}_{{INTER|SW32|SW64|SW128}}_Atom or Layout_MN_SW128_32B_Atom"
            ),
        }
        };
        let mut n = name.trim();
        for p in ["cute::", "SM90::", "SM100::", "GMMA::", "UMMA::"] {
            n = n.strip_prefix(p).unwrap_or(n);
        }
        let n = n.strip_prefix("Layout_").ok_or_else(bad)?;
        let n = n.strip_suffix("_Atom").ok_or_else(bad)?;
        let (major, sw) = n.split_once('_').ok_or_else(bad)?;
        let major = Major::parse(major)
            .filter(|_| matches!(major, "K" | "MN"))
            .ok_or_else(bad)?;
        let swizzle = SmemSwizzle::parse(sw)
            .filter(|s| s.name() == sw)
            .ok_or_else(bad)?;
        SmemAtom::new(major, swizzle, bits)
    }

    /// The major mode.
    pub fn major(&self) -> Major {
        self.major
    }

    /// The swizzle width.
    pub fn swizzle_kind(&self) -> SmemSwizzle {
        self.swizzle
    }

    /// The element width in bits.
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// CuTe's name: `Layout_K_SW128_Atom`.
    pub fn name(&self) -> String {
        format!("Layout_{}_{}_Atom", self.major.name(), self.swizzle.name())
    }

    /// CuTe's `..._Atom_Bits` inner layout, in bits: `(8,1024):(1024,1)` for `K SW128`.
    ///
    /// # Errors
    /// None: the atoms' extents are small constants.
    pub fn bits_layout(&self) -> Result<Layout, LayoutError> {
        let (_, rows, width) = self.swizzle.params();
        match self.major {
            Major::K => Layout::new(IntTuple::flat([rows, width]), IntTuple::flat([width, 1])),
            Major::MN => Layout::new(IntTuple::flat([width, rows]), IntTuple::flat([1, width])),
        }
    }

    /// CuTe's swizzle, acting on byte addresses: `Sw<3,4,3>` for `SW128`.
    pub fn swizzle(&self) -> Swizzle {
        self.swizzle.params().0
    }

    /// The inner layout in elements: CuTe's `upcast<bits>` of [`SmemAtom::bits_layout`].
    ///
    /// # Errors
    /// None for the atoms [`SmemAtom::new`] accepts; the errors of [`Layout::upcast`].
    pub fn layout(&self) -> Result<Layout, LayoutError> {
        self.bits_layout()?.upcast(i64::from(self.bits))
    }

    /// The swizzle on element offsets: `Sw<B, M + 3 - log2(bits), S>` (CuTe's swizzle sees byte
    /// addresses; an element offset `e` is byte `e * bits / 8`).
    ///
    /// # Errors
    /// None for the atoms [`SmemAtom::new`] accepts (`M + 3 >= 7 >= log2(bits)`).
    pub fn element_swizzle(&self) -> Result<Swizzle, LayoutError> {
        let sw = self.swizzle();
        let shift = 3 - i64::from(self.bits.trailing_zeros());
        Swizzle::new(sw.bits(), sw.base() + shift, sw.shift())
    }

    /// The atom as a function on element offsets: `Sw<3,3,3> o 0 o (8,64):(64,1)` for
    /// `K SW128` of 16 bits.
    ///
    /// # Laws
    /// * `elements()(c) == Sw_bits(layout()(c) * bits) / bits` for every coordinate `c`, where
    ///   `Sw_bits` is CuTe's byte-address swizzle moved to bit addresses (`M + 3`).
    ///
    /// # Errors
    /// None for the atoms [`SmemAtom::new`] accepts.
    pub fn elements(&self) -> Result<ComposedLayout, LayoutError> {
        ComposedLayout::new(self.element_swizzle()?, 0, self.layout()?)
    }

    /// The atom as CuTe prints it: `Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)`.
    ///
    /// # Errors
    /// None for the atoms [`SmemAtom::new`] accepts.
    pub fn cute_text(&self) -> Result<String, LayoutError> {
        Ok(self.cute_text_of(&self.layout()?))
    }

    /// CuTe's print of a layout built from this atom (by `tile_to_shape` or a product, which act
    /// on the inner layout): `Sw<3,4,3> o smem_ptr[16b](unset) o INNER`.
    pub fn cute_text_of(&self, inner: &Layout) -> String {
        format!(
            "{} o smem_ptr[{}b](unset) o {inner}",
            self.swizzle(),
            self.bits
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec::Vec;

    /// Law over every atom and every width: the element-offset function is CuTe's byte-address
    /// swizzle applied to the element's bit address, and the atom covers its bits exactly.
    #[test]
    fn elements_law_every_atom_and_width() {
        for (major, sw) in ALL_ATOMS {
            for k in 0..8 {
                let bits = 1i64 << k;
                let atom = SmemAtom::new(major, sw, bits).unwrap();
                let el = atom.elements().unwrap();
                let inner = atom.layout().unwrap();
                let s = atom.swizzle();
                let sw_bits = Swizzle::new(s.bits(), s.base() + 3, s.shift()).unwrap();
                assert_eq!(inner.size() * bits, atom.bits_layout().unwrap().size());
                let mut seen: Vec<i64> = (0..el.size())
                    .map(|i| {
                        let e = el.index_1d(i).unwrap();
                        assert_eq!(e, sw_bits.apply(inner.index_1d(i).unwrap() * bits) / bits);
                        e
                    })
                    .collect();
                seen.sort_unstable();
                assert!(
                    seen.iter().copied().eq(0..el.size()),
                    "{major:?} {sw:?} {bits}"
                );
                let text = atom.cute_text().unwrap();
                assert!(text.contains(&format!("smem_ptr[{bits}b](unset)")));
            }
        }
    }

    #[test]
    fn cute_prints() {
        // Printed by CuTe (host build of cute/atom/mma_traits_sm90_gmma.hpp).
        let cases = [
            (
                "Layout_K_SW128_Atom",
                16,
                "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)",
            ),
            (
                "Layout_MN_SW128_Atom",
                32,
                "Sw<3,4,3> o smem_ptr[32b](unset) o (32,8):(1,32)",
            ),
            (
                "Layout_K_INTER_Atom",
                8,
                "Sw<0,4,3> o smem_ptr[8b](unset) o (8,16):(16,1)",
            ),
            (
                "Layout_K_INTER_Atom",
                128,
                "Sw<0,4,3> o smem_ptr[128b](unset) o (8,1):(1,1)",
            ),
            (
                "Layout_MN_INTER_Atom",
                128,
                "Sw<0,4,3> o smem_ptr[128b](unset) o (1,8):(1,1)",
            ),
            (
                "Layout_MN_SW128_32B_Atom",
                16,
                "Sw<2,5,2> o smem_ptr[16b](unset) o (64,4):(1,64)",
            ),
            (
                "Layout_K_SW32_Atom",
                64,
                "Sw<1,4,3> o smem_ptr[64b](unset) o (8,4):(4,1)",
            ),
        ];
        for (name, bits, want) in cases {
            assert_eq!(
                SmemAtom::from_name(name, bits)
                    .unwrap()
                    .cute_text()
                    .unwrap(),
                want
            );
        }
    }

    #[test]
    fn errors() {
        for bits in [0, 3, 6, 256, -8] {
            let e = SmemAtom::new(Major::K, SmemSwizzle::Sw128, bits).unwrap_err();
            assert_eq!(e.kind(), "InvalidArgument");
        }
        assert!(SmemAtom::new(Major::K, SmemSwizzle::Sw128Atom32B, 16).is_err());
        for name in [
            "Layout_K_SW16_Atom",
            "K_SW128",
            "Layout_k_SW128_Atom",
            "Layout_K_SW128_32B_Atom",
        ] {
            assert!(SmemAtom::from_name(name, 16).is_err(), "{name}");
        }
    }

    #[test]
    fn the_128_byte_atom_of_bf16_tiles_as_cute() {
        let atom = SmemAtom::new(Major::K, SmemSwizzle::Sw128, 16).unwrap();
        let t = atom
            .elements()
            .unwrap()
            .tile_to_shape(&IntTuple::flat([256, 64]), None)
            .unwrap();
        assert_eq!(
            atom.cute_text_of(t.layout()),
            "Sw<3,4,3> o smem_ptr[16b](unset) o ((8,32),(64,1)):((64,512),(1,0))"
        );
        assert_eq!(t.swizzle().to_string(), "Sw<3,3,3>");
    }
}
