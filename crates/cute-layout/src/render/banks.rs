//! Shared-memory banks: which bank each element of a layout lands in, and how many bank
//! conflicts an access pattern has.
//!
//! # The model
//!
//! Shared memory is split into [`Banks::count`] banks (32 on NVIDIA GPUs), each
//! [`Banks::bank_bytes`] wide (4 bytes); consecutive 4-byte words go to consecutive banks. A
//! layout's offset `x` (after the [`Style`] post-map `f`, e.g. a swizzle) is an element index;
//! the element covers the bytes `[f(x) * e, (f(x) + 1) * e)` for an element of `e` bytes, i.e.
//! the words `floor(f(x) * e / 4)` to `floor(((f(x) + 1) * e - 1) / 4)`, and word `w` lives in
//! bank `w mod 32`.
//!
//! An access pattern ([`Access`]) splits the layout's points into requests (e.g. a warp reading a
//! row: one request per row). One request is served in **wavefronts**: each wavefront reads at
//! most one word per bank, and threads reading the same word share it (broadcast). So a request
//! needs as many wavefronts as the largest number of *distinct* words it touches in any one bank;
//! at best `ceil(distinct words / banks)`. A request with `w` wavefronts where `i` would do has
//! a `w`-way conflict and `w - i` extra wavefronts ("conflicts"). This is the count NVIDIA's
//! profilers report as shared-memory wavefronts for 32-bit accesses; wider per-thread accesses
//! (64, 128 bit) are served in phases of 16 or 8 threads on the hardware, which this model matches
//! whenever the phases are themselves conflict-free.
//!
//! # Example: choosing a swizzle
//!
//! A warp reading a column of a `32 x 32` row-major tile of floats hits one bank 32 times; the
//! XOR swizzle `x ^ ((x >> 5) & 31)` (CuTe's `Sw<5,0,5>`) spreads it over all banks:
//!
//! ```
//! # use cute_layout::{Layout, render::{self, Access, Banks, Style}};
//! let tile: Layout = "(32,32):(32,1)".parse()?;
//! let banks = Banks::new(32, 4)?;
//! let plain = render::bank_conflicts(&tile, banks, Access::Columns, &Style::new())?;
//! assert_eq!(plain.max_wavefronts(), 32); // 32-way conflict
//! let sw = |x: i64| x ^ ((x >> 5) & 31);
//! let swizzled = render::bank_conflicts(&tile, banks, Access::Columns, &Style::new().post_map(&sw))?;
//! assert!(swizzled.is_conflict_free());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::grid::Grid;
use super::panel::{Cell, Label, Paint, Panel};
use super::style::Style;
use super::svg::write_svg;
use crate::composed::chain::LayoutChain;
use crate::layout::coord::MAX_ENUMERATED;
use crate::layout::error::LayoutError;
use crate::layout::Layout;

/// The largest bank count, element size and bank width accepted (bytes or banks).
pub const MAX_BANK_PARAM: i64 = 1024;

/// A shared-memory bank geometry and the element size (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Banks {
    count: i64,
    elem_bytes: i64,
    bank_bytes: i64,
}

impl Default for Banks {
    /// 32 banks of 4 bytes, 4-byte elements.
    fn default() -> Self {
        Banks {
            count: 32,
            elem_bytes: 4,
            bank_bytes: 4,
        }
    }
}

impl Banks {
    /// `count` banks of 4 bytes and elements of `elem_bytes` bytes.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] unless `1 <= count, elem_bytes <= 1024`. (Any element
    /// size is modelled, elements straddling bank words included; the CLI takes the powers of
    /// two that CUDA types have.)
    pub fn new(count: i64, elem_bytes: i64) -> Result<Self, LayoutError> {
        Banks::default().with(count, elem_bytes, 4)
    }

    /// The same with banks `bank_bytes` wide.
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] unless `1 <= bank_bytes <= 1024`.
    pub fn with_bank_bytes(self, bank_bytes: i64) -> Result<Self, LayoutError> {
        self.with(self.count, self.elem_bytes, bank_bytes)
    }

    fn with(self, count: i64, elem_bytes: i64, bank_bytes: i64) -> Result<Self, LayoutError> {
        for (name, v) in [
            ("bank count", count),
            ("element size", elem_bytes),
            ("bank width", bank_bytes),
        ] {
            if !(1..=MAX_BANK_PARAM).contains(&v) {
                return Err(LayoutError::InvalidArgument {
                    op: "banks",
                    what: format!("{name} {v} is not between 1 and {MAX_BANK_PARAM}"),
                });
            }
        }
        Ok(Banks {
            count,
            elem_bytes,
            bank_bytes,
        })
    }

    /// Number of banks.
    pub fn count(&self) -> i64 {
        self.count
    }

    /// Bytes per element.
    pub fn elem_bytes(&self) -> i64 {
        self.elem_bytes
    }

    /// Bytes per bank word.
    pub fn bank_bytes(&self) -> i64 {
        self.bank_bytes
    }

    /// The words `[first, last]` the element at `offset` covers.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] if the byte address leaves `i64`.
    pub fn words(&self, offset: i64) -> Result<(i64, i64), LayoutError> {
        let ovf = || LayoutError::overflow("banks");
        let start = offset.checked_mul(self.elem_bytes).ok_or_else(ovf)?;
        let end = start.checked_add(self.elem_bytes - 1).ok_or_else(ovf)?;
        Ok((
            start.div_euclid(self.bank_bytes),
            end.div_euclid(self.bank_bytes),
        ))
    }

    /// The bank of the first word of the element at `offset`.
    ///
    /// # Errors
    /// [`LayoutError::Overflow`] if the byte address leaves `i64`.
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::render::Banks;
    /// let b = Banks::new(32, 2)?; // half-precision elements: two per bank word
    /// assert_eq!((b.bank(0)?, b.bank(1)?, b.bank(2)?, b.bank(64)?), (0, 0, 1, 0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn bank(&self, offset: i64) -> Result<i64, LayoutError> {
        Ok(self.words(offset)?.0.rem_euclid(self.count))
    }
}

/// How the points of a layout are grouped into requests (one request = what one warp reads at
/// once).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    /// Each row of the layout's grid (mode 0 fixed) is one request: a warp reads a row.
    Rows,
    /// Each column of the grid is one request.
    Columns,
    /// Consecutive 1-D coordinates in chunks of `n`: thread `t` of request `j` reads `L(j n + t)`.
    Chunks(i64),
}

impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Access::Rows => f.write_str("each row is one request"),
            Access::Columns => f.write_str("each column is one request"),
            Access::Chunks(n) => write!(f, "each {n} consecutive coordinates are one request"),
        }
    }
}

/// One request of a [`BankReport`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Request {
    /// Elements read.
    pub elements: usize,
    /// Distinct bank words touched.
    pub words: usize,
    /// Wavefronts needed: the most distinct words in one bank.
    pub wavefronts: usize,
    /// Wavefronts needed at best: `ceil(words / banks)`.
    pub ideal: usize,
}

impl Request {
    /// Extra wavefronts caused by bank conflicts: `wavefronts - ideal`.
    pub fn conflicts(&self) -> usize {
        self.wavefronts.saturating_sub(self.ideal)
    }
}

/// Bank conflicts of an access pattern, request by request (see the [module docs](self)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankReport {
    /// The geometry.
    pub banks: Banks,
    /// The access pattern.
    pub access: Access,
    /// One entry per request, in order (rows, columns or chunks).
    pub requests: Vec<Request>,
}

impl BankReport {
    /// Total wavefronts.
    pub fn wavefronts(&self) -> usize {
        self.requests.iter().map(|r| r.wavefronts).sum()
    }

    /// Total wavefronts without conflicts.
    pub fn ideal(&self) -> usize {
        self.requests.iter().map(|r| r.ideal).sum()
    }

    /// Total extra wavefronts caused by conflicts.
    pub fn conflicts(&self) -> usize {
        self.requests.iter().map(Request::conflicts).sum()
    }

    /// The worst request's wavefronts (the `n` of an `n`-way conflict for 4-byte elements).
    pub fn max_wavefronts(&self) -> usize {
        self.requests
            .iter()
            .map(|r| r.wavefronts)
            .max()
            .unwrap_or(0)
    }

    /// No request needs more wavefronts than its ideal.
    pub fn is_conflict_free(&self) -> bool {
        self.conflicts() == 0
    }
}

impl fmt::Display for BankReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = &self.banks;
        let s = |n: usize| if n == 1 { "" } else { "s" };
        let (r, w, m) = (
            self.requests.len(),
            self.wavefronts(),
            self.max_wavefronts(),
        );
        write!(
            f,
            "{} banks x {} B, {}-byte elements, {}: {r} request{}, {w} wavefront{} (ideal {}), {} extra from bank conflicts, worst request {m} wavefront{}",
            b.count,
            b.bank_bytes,
            b.elem_bytes,
            self.access,
            s(r),
            s(w),
            self.ideal(),
            self.conflicts(),
            s(m)
        )
    }
}

/// Wavefronts of one request reading the elements at `offsets`.
fn request(
    banks: &Banks,
    offsets: &[i64],
    scratch: &mut Vec<i64>,
    per_bank: &mut [usize],
) -> Result<Request, LayoutError> {
    scratch.clear();
    for &x in offsets {
        let (a, b) = banks.words(x)?;
        // An element covers at most elem_bytes words (<= 1024).
        for w in a..=b {
            scratch.push(w);
        }
    }
    scratch.sort_unstable();
    scratch.dedup();
    per_bank.iter_mut().for_each(|c| *c = 0);
    let mut wavefronts = 0;
    for &w in scratch.iter() {
        // rem_euclid(count) < count = per_bank.len().
        if let Some(c) = per_bank.get_mut(w.rem_euclid(banks.count) as usize) {
            *c += 1;
            wavefronts = wavefronts.max(*c);
        }
    }
    let count = per_bank.len().max(1);
    Ok(Request {
        elements: offsets.len(),
        words: scratch.len(),
        wavefronts,
        ideal: scratch.len().div_ceil(count),
    })
}

/// The request reading the elements at `offsets` under the bank model of the
/// [module docs](self).
///
/// # Errors
/// [`LayoutError::Overflow`] if a byte address leaves `i64`.
pub(crate) fn request_of(banks: &Banks, offsets: &[i64]) -> Result<Request, LayoutError> {
    let mut per_bank = alloc::vec![0usize; usize::try_from(banks.count).unwrap_or(1)];
    request(banks, offsets, &mut Vec::new(), &mut per_bank)
}

/// The requests of `access` over `grid`, as lists of offsets.
fn requests(grid: &Grid, access: Access, op: &'static str) -> Result<Vec<Vec<i64>>, LayoutError> {
    Ok(match access {
        Access::Rows => (0..grid.rows)
            .map(|m| (0..grid.cols).map(|n| grid.at(m, n)).collect())
            .collect(),
        Access::Columns => (0..grid.cols)
            .map(|n| (0..grid.rows).map(|m| grid.at(m, n)).collect())
            .collect(),
        Access::Chunks(k) => {
            let k = usize::try_from(k).ok().filter(|&k| k >= 1).ok_or_else(|| {
                LayoutError::InvalidArgument {
                    op,
                    what: format!("chunk size {k} is not positive"),
                }
            })?;
            // 1-D order: index i is cell (i mod rows, i / rows).
            let all: Vec<i64> = (0..grid.rows * grid.cols)
                .map(|i| grid.at(i % grid.rows.max(1), i / grid.rows.max(1)))
                .collect();
            all.chunks(k).map(<[i64]>::to_vec).collect()
        }
    })
}

fn report(
    op: &'static str,
    grid: &Grid,
    banks: Banks,
    access: Access,
) -> Result<BankReport, LayoutError> {
    let mut scratch = Vec::new();
    let mut per_bank = alloc::vec![0usize; usize::try_from(banks.count).unwrap_or(1)];
    let requests = requests(grid, access, op)?
        .iter()
        .map(|r| request(&banks, r, &mut scratch, &mut per_bank))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(BankReport {
        banks,
        access,
        requests,
    })
}

/// Bank conflicts of reading `layout` with the access pattern `access` (see the
/// [module docs](self) for the model). The style's post-map (a swizzle) is applied to every
/// offset first.
///
/// # Errors
/// [`LayoutError::TooLarge`] past [`MAX_PICTURE_CELLS`](super::MAX_PICTURE_CELLS) points;
/// [`LayoutError::InvalidArgument`] for a chunk size below 1; [`LayoutError::Overflow`] if a
/// byte address leaves `i64`.
///
/// # Examples
/// ```
/// # use cute_layout::{Layout, render::{self, Access, Banks, Style}};
/// // A warp reads a row of an 8 x 32 column-major tile of floats: stride 8 words, 4 threads per bank.
/// let l: Layout = "(8,32):(1,8)".parse()?;
/// let r = render::bank_conflicts(&l, Banks::new(32, 4)?, Access::Rows, &Style::new())?;
/// assert_eq!((r.requests.len(), r.max_wavefronts(), r.wavefronts(), r.ideal()), (8, 8, 64, 8));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn bank_conflicts(
    layout: &Layout,
    banks: Banks,
    access: Access,
    style: &Style<'_>,
) -> Result<BankReport, LayoutError> {
    let grid = Grid::of_layout("bank_conflicts", layout, style)?;
    report("bank_conflicts", &grid, banks, access)
}

/// The bank picture of `layout`: each cell shows its offset and its bank (`b<k>`) and is coloured
/// by bank; with [`Access::Rows`] each row is annotated with its wavefronts, and the caption
/// gives the [`BankReport`] of `access`. The style's post-map (a swizzle) is applied first.
///
/// # Errors
/// As [`bank_conflicts`].
///
/// # Examples
/// ```
/// # use cute_layout::{Layout, render::{self, Access, Banks, Style}};
/// let l: Layout = "(8,8):(8,1)".parse()?;
/// let svg = render::svg_banks(&l, Banks::new(32, 4)?, Access::Rows, &Style::new())?;
/// assert!(svg.contains("class=\"b31\"") && svg.contains(">b31</tspan>"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn svg_banks(
    layout: &Layout,
    banks: Banks,
    access: Access,
    style: &Style<'_>,
) -> Result<String, LayoutError> {
    let grid = Grid::of_layout("svg_banks", layout, style)?;
    let rep = report("svg_banks", &grid, banks, access)?;
    let row_notes = if access == Access::Rows {
        rep.requests
            .iter()
            .map(|r| match r.conflicts() {
                0 => format!("{} wf", r.wavefronts),
                _ => format!(
                    "{} wf ({}-way)",
                    r.wavefronts,
                    r.wavefronts / r.ideal.max(1)
                ),
            })
            .collect()
    } else {
        Vec::new()
    };
    let cells = grid
        .values
        .iter()
        .map(|&x| {
            let bank = banks.bank(x)?;
            Ok(Cell {
                paint: Paint::Bank(bank),
                label: Label::Bank { offset: x, bank },
            })
        })
        .collect::<Result<Vec<_>, LayoutError>>()?;
    let title = match style.title {
        Some(t) => String::from(t),
        None => format!("{layout}"),
    };
    let mut notes: Vec<String> = grid.note.clone().into_iter().collect();
    notes.push(format!(
        "banks: {} x {} B, {}-byte elements; cell = offset over bank",
        banks.count, banks.bank_bytes, banks.elem_bytes
    ));
    let panel = Panel {
        title,
        notes,
        rows: grid.rows,
        cols: grid.cols,
        row_shape: grid.row_shape,
        col_shape: grid.col_shape,
        cells,
        highlight: Vec::new(),
        row_notes,
        banks: banks.count,
    };
    Ok(write_svg(&[panel], &[format!("{rep}")], style))
}

impl LayoutChain {
    /// Bank conflicts of one warp's access through a thread-value layout: mode 0 is the thread,
    /// the other modes the values each thread reads; threads `0..min(threads, size(mode 0))`
    /// read all their values in one request (`L(t + T v)` for thread `t`, value `v`, `T = size(mode
    /// 0)`). A rank-1 layout is one value per thread. The result is the request under the bank
    /// model of [`crate::render::bank_conflicts`]: its wavefronts are the `n` of an `n`-way
    /// conflict (1: conflict-free; threads reading the same word share it).
    ///
    /// # Errors
    /// [`LayoutError::InvalidArgument`] for `threads < 1`; as [`LayoutChain::image_offsets`].
    ///
    /// # Examples
    /// ```
    /// # use cute_layout::{LayoutChain, render::Banks};
    /// let l: LayoutChain = "32:32".parse()?; // a warp reads a column of a 32 x 32 half tile
    /// assert_eq!(l.warp_bank_conflicts(Banks::new(32, 2)?, 32)?.wavefronts, 16);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn warp_bank_conflicts(&self, banks: Banks, threads: i64) -> Result<Request, LayoutError> {
        if threads < 1 {
            return Err(LayoutError::InvalidArgument {
                op: "bank_conflicts",
                what: format!("the thread count {threads} is not positive"),
            });
        }
        let values = self.enumerate("bank_conflicts", MAX_ENUMERATED)?;
        let t_all = match self.rank() {
            0 => 1,
            _ => self.mode_at(&[0]).map_or(1, |m| m.size()),
        };
        let n = usize::try_from(threads.min(t_all)).unwrap_or(0);
        let t_all = usize::try_from(t_all).unwrap_or(1).max(1);
        let per_thread = values.len() / t_all;
        let mut offsets = Vec::with_capacity(n * per_thread);
        for t in 0..n {
            for v in 0..per_thread {
                offsets.push(values[t + t_all * v]);
            }
        }
        request_of(&banks, &offsets)
    }
}

#[cfg(test)]
mod chain_tests {
    use super::*;

    #[test]
    fn bank_examples() {
        let w = |s: &str, eb: i64, t: i64| {
            s.parse::<LayoutChain>()
                .unwrap()
                .warp_bank_conflicts(Banks::new(32, eb).unwrap(), t)
                .map(|r| r.wavefronts)
        };
        assert_eq!(w("32:1", 2, 32).unwrap(), 1);
        assert_eq!(w("32:0", 2, 32).unwrap(), 1);
        assert_eq!(w("64:32", 2, 32).unwrap(), 16);
        assert_eq!(w("64:32", 2, 64).unwrap(), 32);
        assert_eq!(w("(32,2):(1,32)", 2, 32).unwrap(), 1);
        assert!(w("32:1", 2, 0).is_err());
        let r = "Sw<2,0,2> o 0 o (4,2):(1,4)"
            .parse::<LayoutChain>()
            .unwrap()
            .warp_bank_conflicts(Banks::new(4, 4).unwrap(), 4)
            .unwrap();
        assert_eq!(r.wavefronts, 2);
    }
}
