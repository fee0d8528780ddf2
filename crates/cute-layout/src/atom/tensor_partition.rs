//! Partitioning a tensor without data (a [`LayoutTensor`]) by a tiled MMA or a tiled copy:
//! CuTe's `get_slice(thread).partition_*(tensor)` on counting, coordinate, pointer and composed
//! tensors.

use crate::atom::copy::TiledCopy;
use crate::atom::{AtomError, Operand, TiledMma};
use crate::composed::composed_layout::ComposedLayout;
use crate::layout::coord::MAX_ENUMERATED;
use crate::layout::error::LayoutError;
use crate::layout::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::tensor::data::IdentityTensor;
use crate::tensor::layout_tensor::LayoutTensor;
use crate::tensor::tensor_restructure::zero_strides;
use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;

impl LayoutTensor {
    /// CuTe's `mma.get_slice(thread).partition_A/B/C(tensor)`: the values thread `thread` of
    /// the tiled MMA holds, `(value, rest m|n, rest k|n)`, as a tensor of the same kind (the
    /// first value's offset moves into the iterator).
    ///
    /// A coordinate tensor is partitioned through its 1-D indices: the partition `(P, o)` of
    /// the compact layout of its shape gives the tensor `T(o) + T o P`, checked at every value
    /// against `T(o + P(v))`.
    ///
    /// # Laws
    /// * `R(v) == self(P(v) + o)` for every value `v`, where `(P, o)` is
    ///   [`TiledMma::partition`] of the compact layout of `self`'s shape.
    ///
    /// # Errors
    /// As [`TiledMma::partition`]; [`AtomError::Unsupported`] for a swizzled tensor (as
    /// [`TiledMma::partition_tensor`]); [`LayoutError::NotRepresentable`] (in
    /// [`AtomError::Layout`]) where a coordinate tensor's partition is not a layout of basis
    /// strides.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::LayoutTensor;
    /// # use cute_layout::atom::{mma_atom, Operand, TiledMma};
    /// let mma = TiledMma::new(mma_atom("SM80_16x8x8_F16F16F16F16_TN")?, None, None)?;
    /// let c: LayoutTensor = "counting_iter(0) o (16,8):(1,16)".parse()?;
    /// let p = c.partition_mma(&mma, Operand::C, 5)?;
    /// assert_eq!(p.to_string(), "counting_iter(33) o ((2,2),1,1):((16,8),0,0)");
    /// # Ok::<(), cute_layout::atom::AtomError>(())
    /// ```
    pub fn partition_mma(
        &self,
        mma: &TiledMma,
        op: Operand,
        thread: i64,
    ) -> Result<LayoutTensor, AtomError> {
        self.partition_by(
            |l| mma.partition(op, l, thread),
            |_| {
                Err(AtomError::Unsupported {
                    name: mma.atom().name().into(),
                    what: "partitioning a swizzled tensor".into(),
                })
            },
        )
    }

    /// CuTe's `copy.get_slice(thread).partition_S(tensor)` (`dst` false) or `partition_D`
    /// (`dst` true): the values thread `thread` of the tiled copy moves, `(CopyV, rest m,
    /// rest n, ...)`, as a tensor of the same kind (the first value's offset moves into the
    /// iterator; a swizzled tensor is partitioned as [`TiledCopy::partition_composed`] does).
    /// A coordinate tensor is partitioned through its 1-D indices as in
    /// [`LayoutTensor::partition_mma`].
    ///
    /// # Laws
    /// * `R(v) == self(P(v) + o)` for every value `v`, where `(P, o)` is the partition of the
    ///   compact layout of `self`'s shape.
    ///
    /// # Errors
    /// As [`TiledCopy::partition_s`] and [`TiledCopy::partition_composed`];
    /// [`LayoutError::NotRepresentable`] as in [`LayoutTensor::partition_mma`].
    pub fn partition_copy(
        &self,
        copy: &TiledCopy,
        thread: i64,
        dst: bool,
    ) -> Result<LayoutTensor, AtomError> {
        self.partition_by(
            |l| {
                if dst {
                    copy.partition_d(l, thread)
                } else {
                    copy.partition_s(l, thread)
                }
            },
            |c| copy.partition_composed(c, thread, dst),
        )
    }

    /// A thread's partition: `plain` of a plain layout, `swizzled` of a swizzled one, each
    /// giving the partition's layout and the offset of its first value; a coordinate tensor
    /// through its 1-D indices.
    fn partition_by(
        &self,
        plain: impl Fn(&Layout) -> Result<(Layout, i64), AtomError>,
        swizzled: impl Fn(&ComposedLayout) -> Result<(ComposedLayout, i64), AtomError>,
    ) -> Result<LayoutTensor, AtomError> {
        match self {
            LayoutTensor::Counting { base, layout } => {
                let (l, off) = match layout.as_layout() {
                    Some(l) => {
                        let (p, off) = plain(l)?;
                        (ComposedLayout::from(p), off)
                    }
                    None => swizzled(layout)?,
                };
                let base = base
                    .checked_add(off)
                    .ok_or(LayoutError::overflow("partition"))?;
                Ok(LayoutTensor::Counting { base, layout: l })
            }
            LayoutTensor::Coords(t) => {
                let (p, off) = plain(&Layout::col_major(t.shape())?)?;
                Ok(LayoutTensor::Coords(Box::new(coords_partition(
                    t, &p, off,
                )?)))
            }
            LayoutTensor::Chain { chain, .. } => Err(AtomError::Unsupported {
                name: String::from("tiled partition"),
                what: format!("partitioning a tensor over the composed layout {chain}"),
            }),
            #[allow(unreachable_patterns)]
            _ => Err(self.not_here("partition").into()),
        }
    }
}

/// The coordinate tensor `t(off) + t o p`, checked against `t(off + p(v))` at every value `v`
/// of `p` (a partition of `t`'s 1-D indices).
fn coords_partition(
    t: &IdentityTensor,
    p: &Layout,
    off: i64,
) -> Result<IdentityTensor, LayoutError> {
    let op = "partition";
    if p.size() > MAX_ENUMERATED {
        return Err(LayoutError::TooLarge {
            op,
            what: format!("{} values", p.size()),
            limit: MAX_ENUMERATED,
        });
    }
    let r = t.with(
        zero_strides(t.layout().compose(p)?),
        Some(IntTuple::int(off)),
    )?;
    for v in 0..p.size() {
        let i = p
            .index(&IntTuple::int(v))?
            .checked_add(off)
            .ok_or(LayoutError::overflow(op))?;
        let (got, want) = (r.get(&IntTuple::int(v))?, t.get(&IntTuple::int(i))?);
        if got != want {
            return Err(LayoutError::NotRepresentable {
                op,
                what: format!(
                    "the partition of {} at value {v} is {want}, which no basis-strided layout from {got} gives",
                    t.layout()
                ),
            });
        }
    }
    Ok(r)
}
