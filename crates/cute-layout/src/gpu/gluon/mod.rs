//! Triton's Gluon layouts (`triton.experimental.gluon.language`) and CuTe, both ways.
//!
//! A Gluon layout is written as its Python constructor ([`Gluon`], parsed by [`parse`]); at a
//! tensor shape it is one of Triton's linear layouts ([`linear`]): bits of (register, lane,
//! warp, block) or of the shared-memory offset, each mapped to a coordinate, combined by XOR.
//! [`convert`] turns it into the CuTe function with the same values (a TV layout for a
//! distributed layout, the layout from coordinate to offset for a shared one) and a CuTe
//! function back into a linear layout, or names the condition that prevents one.
//!
//! ```
//! use cute_layout::gpu::gluon::Gluon;
//! let g: Gluon = "BlockedLayout(size_per_thread=[1,4], threads_per_warp=[8,4], warps_per_cta=[4,1], order=[1,0])".parse()?;
//! assert_eq!(g.to_cute(&[32, 16])?.to_string(), "((4,32),4):((128,1),32)");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod convert;
pub mod linear;
pub mod parse;

pub use convert::{
    name_distributed, name_shared, smem_to_gluon, tv_to_gluon, CuteFn, MAX_GLUON_POINTS,
};
pub use parse::{Bases, DistLinear, Gluon, SharedLinear};
