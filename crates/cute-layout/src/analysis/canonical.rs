//! Canonical form, equality of functions, and the predicates injective / surjective / bijective /
//! compact, and the image, decided from the modes (no enumeration except where stated).

use alloc::vec::Vec;

use crate::algebra::{bw_coalesce, flat_modes, from_flat, Modes};
use crate::layout::error::LayoutError;
use crate::layout::Layout;

pub use crate::layout::coord::MAX_ENUMERATED;

/// The image of a layout as a union of disjoint strided intervals placed by a layout:
/// `{ offset + s + t * step : s in image(starts), 0 <= t < run }`.
///
/// `starts` is strictly increasing (its sorted modes form a chain), and two of its values differ
/// by more than `(run - 1) * step`, so the `size(starts)` intervals are pairwise disjoint and the
/// image has exactly `run * size(starts)` elements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// The smallest offset (`image_bounds().0`, negative only with negative strides).
    pub offset: i64,
    /// Stride inside each interval (1 for a contiguous run).
    pub step: i64,
    /// Number of elements in each interval.
    pub run: i64,
    /// Where the intervals start, relative to `offset`.
    pub starts: Layout,
}

impl Image {
    /// Number of distinct offsets.
    pub fn count(&self) -> i64 {
        self.run * self.starts.size()
    }

    /// Whether the image is one interval of consecutive integers.
    pub fn is_interval(&self) -> bool {
        self.starts.size() == 1 && (self.step == 1 || self.run == 1)
    }

    /// The image relative to [`Image::offset`] as a layout in CuTe's form: the coalesced
    /// `(run, starts):(step, strides of starts)`, an injective layout whose offsets, plus
    /// `offset`, are exactly the image, each once, in increasing order.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] if the result's cosize leaves `i64` (not for an image
    /// computed by [`Layout::image`], whose span fits).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let img = "(2,2):(1,4)".parse::<Layout>()?.image()?; // {0,1} ∪ {4,5}
    /// assert_eq!(img.layout()?.to_string(), "(2,2):(1,4)");
    /// let img = "(4,3):(2,2)".parse::<Layout>()?.image()?; // 0,2,...,10
    /// assert_eq!(img.layout()?.to_string(), "6:2");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn layout(&self) -> Result<Layout, LayoutError> {
        let run = Layout::new(self.run.into(), self.step.into())?;
        Ok(Layout::from_modes([run, self.starts.clone()])?.coalesce())
    }
}

impl core::fmt::Display for Image {
    /// `offset + {0..run}*step + image(starts)`, e.g. `{0..2}*1 + image(2:4)`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.offset != 0 {
            write!(f, "{} + ", self.offset)?;
        }
        write!(f, "{{0..{}}}*{}", self.run, self.step)?;
        if self.starts.size() > 1 {
            write!(f, " + image({})", self.starts)?;
        }
        Ok(())
    }
}

/// The sorted, sign-free, stride-0-free modes of the canonical form, and the progression phase:
/// `(step, run, index of the first mode not absorbed, sorted modes)`.
struct Progression {
    step: i64,
    run: i64,
    absorbed: usize,
    sorted: Modes,
}

fn progression(canon: &Modes) -> Result<Progression, LayoutError> {
    let mut sorted: Modes = canon
        .iter()
        .filter(|m| m.1 != 0 && m.0 > 1)
        .map(|&(n, d)| (n, d.abs()))
        .collect();
    sorted.sort_by_key(|&(n, d)| (d, n));
    let Some(&(n0, d0)) = sorted.first() else {
        return Ok(Progression {
            step: 1,
            run: 1,
            absorbed: 0,
            sorted,
        });
    };
    let mut run = n0;
    let mut absorbed = 1;
    for &(n, d) in &sorted[1..] {
        // The run {0..run}*step plus {0..n}*(m*step) is the run {0..run+(n-1)m}*step iff m <= run.
        if d % d0 != 0 || d / d0 > run {
            break;
        }
        run = (n - 1)
            .checked_mul(d / d0)
            .and_then(|x| x.checked_add(run))
            .ok_or(LayoutError::overflow("image"))?;
        absorbed += 1;
    }
    Ok(Progression {
        step: d0,
        run,
        absorbed,
        sorted,
    })
}

impl Layout {
    /// The canonical form of the layout's 1-D function: [`Layout::coalesce`], i.e. flat, without
    /// extent-1 modes and without neighbours `(n0,n1):(d0,n0*d0)` (stride-0 modes merge by the same
    /// rule, `0 == n0*0`); an integer layout for one mode and `1:0` for size 1.
    ///
    /// *Why it is canonical.* Two layouts of the same size have the same function on `[0, size)`
    /// **iff** their canonical forms are equal. "If" holds because coalesce keeps the function.
    /// "Only if": the function determines the canonical form. In `C = (n_0..n_k):(d_0..d_k)` every
    /// `n_j >= 2`, so `C(1) = d_0`, `C(i) = i d_0` for `i < n_0`, and `C(n_0) = d_1 != n_0 d_0`
    /// (else the modes would have merged): `n_0` is the first `i` with `C(i) != i C(1)`. The values
    /// `C(q n_0)` are the function of `(n_1..n_k):(d_1..d_k)`, and by induction every mode is read
    /// off the function. This is exactly what [`find_layout`](crate::analysis::find_layout) does, so
    /// `find_layout(offsets of l) == l.canonical()`. Size-1 modes carry no information (their
    /// coordinate is always 0) and are dropped; a stride-0 mode is an ordinary mode with `d = 0`
    /// (`(2,2):(0,0)` is `4:0`, `(2,2):(0,1)` stays).
    ///
    /// O(leaves), no allocation for up to 16 leaves.
    ///
    /// # Laws
    /// * `c.index_1d(i) == self.index_1d(i)` for all `i`; `c.canonical() == c`.
    /// * `a.same_function(&b) == (a.canonical() == b.canonical())` for equal sizes.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let a: Layout = "(10):(3)".parse()?;
    /// let b: Layout = "(2,5):(3,6)".parse()?; // same function as a
    /// assert_eq!(a.canonical(), b.canonical());
    /// assert_eq!(b.canonical().to_string(), "10:3");
    /// assert_eq!("((2,1),(3,2)):((0,9),(0,0))".parse::<Layout>()?.canonical().to_string(), "12:0");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn canonical(&self) -> Layout {
        self.coalesce()
    }

    /// Whether `self` and `other` are the same function on their domain: the same size and
    /// `self.index_1d(i) == other.index_1d(i)` for every `i` (shapes may differ). Decided by
    /// comparing [`Layout::canonical`] forms in O(leaves), without enumerating.
    ///
    /// # Laws
    /// * `a.same_function(&b) == (a.size() == b.size() && (0..a.size()).all(|i| a.index_1d(i) == b.index_1d(i)))`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l = |s: &str| s.parse::<Layout>().unwrap();
    /// assert!(l("(2,5):(3,6)").same_function(&l("10:3")));
    /// assert!(l("(2,(2,2)):(1,(2,4))").same_function(&l("8:1")));
    /// assert!(!l("(2,2):(1,2)").same_function(&l("(2,2):(2,1)")));
    /// assert!(!l("4:1").same_function(&l("8:1"))); // different domains
    /// ```
    #[doc(alias = "equal")]
    pub fn same_function(&self, other: &Layout) -> bool {
        self.size() == other.size()
            && bw_coalesce(&flat_modes(self), None) == bw_coalesce(&flat_modes(other), None)
    }

    /// Whether `self` is surjective onto `[lo, lo + cosize)`, `lo = image_bounds().0` (for
    /// non-negative strides: onto `[0, cosize)`): every integer between the smallest and the
    /// largest offset is reached.
    ///
    /// Decided in O(k log k) for `k` leaves: flipping a stride's sign shifts the image by a
    /// constant, and stride-0 modes do not change it, so take `|d|` of the other modes, sorted,
    /// `(n_0, d_0), (n_1, d_1), ...`. The image is `[0, cosize)` iff `d_0 = 1` and
    /// `d_j <= 1 + Σ_{i<j} (n_i - 1) d_i` for all `j`: by induction the partial sums fill an
    /// interval as long as each next stride is at most one past it, and the first time a stride
    /// jumps further, the integer right after the interval is missed by every later sum (all later
    /// strides are at least as large).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l = |s: &str| s.parse::<Layout>().unwrap();
    /// assert!(l("(2,3):(3,1)").is_surjective());
    /// assert!(l("(2,2):(1,1)").is_surjective()); // 0,1,1,2
    /// assert!(!l("(2,2):(1,3)").is_surjective()); // 2 is missed
    /// assert!(l("(4,2):(0,-1)").is_surjective()); // onto [-1, 1)
    /// ```
    pub fn is_surjective(&self) -> bool {
        match progression(&bw_coalesce(&flat_modes(self), None)) {
            Ok(p) => p.absorbed == p.sorted.len() && (p.step == 1 || p.sorted.is_empty()),
            Err(_) => false,
        }
    }

    /// Whether `self` is a bijection from `[0, size)` onto `[lo, lo + cosize)` (see
    /// [`Layout::is_surjective`]): surjective and `size == cosize` (a surjection between sets of
    /// equal size is a bijection). O(k log k).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l = |s: &str| s.parse::<Layout>().unwrap();
    /// assert!(l("(2,3):(3,1)").is_bijective());
    /// assert!(!l("(2,2):(1,1)").is_bijective());
    /// assert!(l("(4,8):(-1,4)").is_bijective()); // onto [-3, 29)
    /// ```
    pub fn is_bijective(&self) -> bool {
        self.is_surjective() && self.size().unsigned_abs() == self.cosize()
    }

    /// Whether `self` is compact: a bijection from `[0, size)` onto `[0, size)` (bijective with
    /// no negative stride on an extent above 1). Column-major and row-major layouts and every
    /// permutation of their modes are compact. O(k log k).
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l = |s: &str| s.parse::<Layout>().unwrap();
    /// assert!(l("(2,(2,2)):(4,(2,1))").is_compact());
    /// assert!(!l("(4,8):(-1,4)").is_compact());
    /// assert!(!l("4:2").is_compact());
    /// ```
    pub fn is_compact(&self) -> bool {
        self.is_bijective() && self.image_bounds().0 == 0
    }

    /// Whether `self` is injective on `[0, size)`.
    ///
    /// Decided from the modes in O(k log k) in every case but one: via [`Layout::image`], the
    /// number of distinct offsets is known exactly whenever the image has that form, and the
    /// layout is injective iff that number is `size`. (In particular a stride-0 mode of extent at
    /// least 2 is never injective, and a layout whose `|d|`-sorted modes form a chain,
    /// `d_j > Σ_{i<j} (n_i - 1) d_i`, always is.) When the image is not of that form (the sorted
    /// strides neither chain nor merge, e.g. `(3,2):(2,3)`), the question is whether
    /// `Σ d_i y_i = 0` has a solution with `|y_i| < n_i`, not all 0; with all `n_i = 2` that is
    /// the NP-hard equal-subset-sum problem. That case enumerates the image: O(size log size),
    /// up to [`MAX_ENUMERATED`] points.
    ///
    /// # Errors
    /// [`LayoutError::TooLarge`] in the enumerated case past [`MAX_ENUMERATED`] points.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let l = |s: &str| s.parse::<Layout>().unwrap();
    /// assert!(l("(4,8):(8,1)").is_injective()?);
    /// assert!(!l("(4,2):(1,0)").is_injective()?);
    /// assert!(!l("(3,2):(1,2)").is_injective()?); // 2 == 0 + 2
    /// assert!(l("(3,2):(2,3)").is_injective()?);  // 0,2,4,3,5,7
    /// # Ok::<(), cute_layout::LayoutError>(())
    /// ```
    pub fn is_injective(&self) -> Result<bool, LayoutError> {
        match self.image() {
            Ok(img) => Ok(img.count() == self.size()),
            Err(LayoutError::Overflow { .. }) | Err(LayoutError::NotRepresentable { .. }) => {
                if self.size() > MAX_ENUMERATED {
                    return Err(LayoutError::TooLarge {
                        op: "injective",
                        what: alloc::format!(
                            "deciding this for {self} would enumerate {} points",
                            self.size()
                        ),
                        limit: MAX_ENUMERATED,
                    });
                }
                let mut v: Vec<i64> = self.offsets().collect();
                v.sort_unstable();
                Ok(v.windows(2).all(|w| w[0] != w[1]))
            }
            Err(e) => Err(e),
        }
    }

    /// The image (set of offsets) as a union of disjoint strided intervals placed by a layout
    /// (see [`Image`]), computed from the modes in O(k log k).
    ///
    /// Sort the non-zero strides by `|d|` (signs only shift the image). The smallest, `step`,
    /// starts a run `{0..n_0}*step`; a next stride `m*step` with `m <= run` extends it to
    /// `run + (n-1)m` elements (the copies overlap or touch). The remaining modes must each
    /// exceed the span of everything before them (a chain); they place disjoint copies of the
    /// run, and are `starts`.
    ///
    /// # Errors
    /// [`LayoutError::NotRepresentable`] when a remaining stride does not exceed the span before it
    /// (copies of the run would interleave, e.g. `(3,2):(2,3)`); [`LayoutError::Overflow`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::Layout;
    /// let img = "(2,2):(1,4)".parse::<Layout>()?.image()?; // {0,1} ∪ {4,5}
    /// assert_eq!((img.step, img.run, img.starts.to_string()), (1, 2, "2:4".to_string()));
    /// assert_eq!(img.to_string(), "{0..2}*1 + image(2:4)");
    /// let img = "(4,3):(2,2)".parse::<Layout>()?.image()?; // 0,2,...,10: overlapping copies
    /// assert_eq!((img.step, img.run, img.count()), (2, 6, 6));
    /// assert!(img.starts.size() == 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn image(&self) -> Result<Image, LayoutError> {
        const OP: &str = "image";
        let canon = bw_coalesce(&flat_modes(self), None);
        let p = progression(&canon)?;
        let mut span = (p.run - 1)
            .checked_mul(p.step)
            .ok_or(LayoutError::overflow(OP))?;
        let rest = &p.sorted[p.absorbed..];
        for &(n, d) in rest {
            if d <= span {
                return Err(LayoutError::NotRepresentable {
                    op: OP,
                    what: alloc::format!(
                        "the image of {self} is not a union of disjoint equal strided intervals: stride {d} does not exceed {span}, the span of the modes with smaller strides"
                    ),
                });
            }
            span = (n - 1)
                .checked_mul(d)
                .and_then(|x| x.checked_add(span))
                .ok_or(LayoutError::overflow(OP))?;
        }
        Ok(Image {
            offset: self.image_bounds().0,
            step: p.step,
            run: p.run,
            starts: from_flat(OP, rest)?,
        })
    }
}
