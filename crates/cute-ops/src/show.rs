//! `show`: a layout's text form, size, cosize, rank and depth, and CuTe's `print_layout` table;
//! the `cute show` command and the batch operation `show`.

use cute_layout::{ComposedLayout, IntTuple, Layout, Swizzle};

use crate::value::{Form, Value};
use crate::{Args, OpError};

/// How [`show`] prints the table.
#[derive(Clone, Copy, Debug, Default)]
pub struct ShowOptions {
    /// Add the column coordinates (01_layout.md's "Index Mapping" figure).
    pub coords: bool,
    /// Also print the vector view (Layout / Coord / Index lines).
    pub vector: bool,
    /// Colour the table with ANSI escapes.
    pub color: bool,
}

/// Parses a layout, a swizzled layout `Sw<B,M,S> o OFFSET o LAYOUT`, a swizzle alone, or a shape (its compact
/// column-major layout, as CuTe's `make_layout(shape)`); errors say what was expected.
pub fn parse_showable(op: &str, text: &str) -> Result<ComposedLayout, OpError> {
    let t = text.trim();
    let form = Form::of_text(t);
    if matches!(form, Form::Int | Form::Tuple) {
        if let Ok(shape) = t.parse::<IntTuple>() {
            return Ok(ComposedLayout::from(Layout::col_major(shape)?));
        }
    }
    let err = match t.parse::<ComposedLayout>() {
        Ok(c) => return Ok(c),
        Err(e) => e,
    };
    // A swizzle alone, drawn on the span of bits it reads and writes:
    // `Sw<B,M,S> o 0 o (2^B, 2^(T-B)):(2^(T-B), 1)` with `T` its top bit, one row per value of
    // the bits it reads.
    if let Ok(sw) = t.parse::<Swizzle>() {
        let rows = 1i64 << sw.bits();
        let cols = 1i64 << (sw.top_bit() - sw.bits());
        if let Some(c) = format!("({rows},{cols}):({cols},1)")
            .parse::<Layout>()
            .ok()
            .and_then(|l| ComposedLayout::new(sw, 0, l).ok())
        {
            return Ok(c);
        }
    }
    Err(err).map_err(|e| {
        let hint = if matches!(form, Form::Composed | Form::Swizzle) {
            String::from(
                "; a swizzled layout is Sw<B,M,S> o OFFSET o LAYOUT, e.g. Sw<3,4,3> o 0 o (8,64):(64,1)",
            )
        } else {
            String::new()
        };
        OpError::new("ParseError", format!("{op}: {e}{hint}"))
    })
}

/// The text of `cute show`: properties, then the table (or why it is omitted).
///
/// # Errors
/// `ParseError` for text that is not a layout, swizzled layout or shape.
pub fn show(text: &str, opt: ShowOptions) -> Result<String, OpError> {
    let c = parse_showable("show", text)?;
    let l = c.layout();
    let mut out = format!(
        "layout: {c}\nsize:   {}\ncosize: {}\nrank:   {}\ndepth:  {}\n",
        c.size(),
        c.cosize(),
        c.rank(),
        c.depth()
    );
    // A swizzled layout's table is its layout's, sent through the swizzle layers.
    let post = |x: i64| c.post(x).unwrap_or(x);
    let name = c.to_string();
    let table = l.table().map(|t| match c.as_layout() {
        Some(_) => t,
        None => t.with_post_map(&post, &name),
    });
    match table.map(|t| if opt.color { t.with_ansi() } else { t }) {
        Ok(t) if opt.coords => out += &t.with_coords().to_string(),
        Ok(t) => out += &t.to_string(),
        Err(e) => out += &format!("table omitted: {e}\n"),
    }
    if opt.vector {
        let vector = l.vector_table().map(|t| match c.as_layout() {
            Some(_) => t,
            None => t.with_post_map(&post, &name),
        });
        match vector {
            Ok(v) => out += &v.to_string(),
            Err(e) => out += &format!("vector view omitted: {e}\n"),
        }
    }
    Ok(out)
}

/// `print_layout LAYOUT|COMPOSED`: CuTe's `print_layout` table; a swizzled layout's cells are
/// its values (the inner layout's table sent through the swizzle layers, widths from the inner
/// layout's cosize, as CuTe).
pub(crate) fn print_layout_op(a: &Args<'_>) -> Result<String, OpError> {
    let table = match a.value(0) {
        Value::Chain(c) => {
            let post = |x: i64| c.post(x).unwrap_or(x);
            c.layout()
                .table()?
                .with_post_map(&post, &c.to_string())
                .to_string()
        }
        Value::Swizzle(_) | Value::Unparsed(Form::Composed | Form::Swizzle) => {
            let c: ComposedLayout = a.parsed(0, "composed layout")?;
            let post = |x: i64| c.post(x).unwrap_or(x);
            c.layout()
                .table()?
                .with_post_map(&post, &c.to_string())
                .to_string()
        }
        _ => a.layout(0)?.table()?.to_string(),
    };
    Ok(table.trim_end().to_string())
}

/// Batch `show LAYOUT`.
pub(crate) fn show_op(a: &Args<'_>) -> Result<String, OpError> {
    let text = show(&a.text_arg(0)?, ShowOptions::default())?;
    Ok(text.trim_end().to_string())
}
