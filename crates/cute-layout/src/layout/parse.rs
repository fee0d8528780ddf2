//! Parsing CuTe's text form.
//!
//! Grammar (whitespace is allowed between any two tokens):
//! ```text
//! int       := '_'? '-'? digits            (CuTe marks static integers with '_': `_8`, `_-1`)
//! inttuple  := int | '(' [ inttuple (',' inttuple)* ] ')'
//! layout    := inttuple ':' inttuple        (shape and stride must be congruent)
//! ```
//! Parsing never recurses, so deep nesting cannot overflow the stack; it stops at
//! [`MAX_DEPTH`](crate::MAX_DEPTH) with [`ParseErrorKind::TooDeep`], and past
//! [`MAX_NODES`](crate::MAX_NODES) integers and tuples with [`ParseErrorKind::TooLarge`].

use core::str::FromStr;

use crate::layout::error::{LayoutError, ParseError, ParseErrorKind};
use crate::layout::int_tuple::IntTuple;
use crate::layout::tree::{Leaves, Tok, Toks, MAX_DEPTH, MAX_NODES};
use crate::layout::Layout;

/// A cursor over the input text.
pub(crate) struct Parser<'a> {
    pub s: &'a [u8],
    pub src: &'a str,
    pub pos: usize,
    /// Nodes (integers and tuples) of the tiler being parsed, see [`MAX_NODES`].
    pub nodes: usize,
}

impl<'a> Parser<'a> {
    pub fn new(src: &'a str) -> Self {
        Parser {
            s: src.as_bytes(),
            src,
            pos: 0,
            nodes: 0,
        }
    }

    pub fn skip_ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    pub fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.pos).copied()
    }

    pub fn error(&self, expected: &'static str) -> ParseError {
        match self.src[self.pos..].chars().next() {
            Some(found) => ParseError {
                offset: self.pos,
                kind: ParseErrorKind::UnexpectedChar { found, expected },
            },
            None => ParseError {
                offset: self.pos,
                kind: ParseErrorKind::UnexpectedEnd { expected },
            },
        }
    }

    pub fn eat(&mut self, c: u8, expected: &'static str) -> Result<(), ParseError> {
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(expected))
        }
    }

    /// Counts one more node of the value being parsed; fails past [`MAX_NODES`].
    pub fn count_node(&mut self, nodes: &mut usize) -> Result<(), ParseError> {
        *nodes += 1;
        if *nodes > MAX_NODES {
            return Err(ParseError {
                offset: self.pos,
                kind: ParseErrorKind::TooLarge,
            });
        }
        Ok(())
    }

    pub fn at_end(&mut self) -> bool {
        self.peek().is_none()
    }

    pub fn finish(&mut self) -> Result<(), ParseError> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self.error("end of input"))
        }
    }

    /// An integer, with CuTe's optional leading `_`.
    pub fn int(&mut self) -> Result<i64, ParseError> {
        self.skip_ws();
        let start = self.pos;
        if self.s.get(self.pos) == Some(&b'_') {
            self.pos += 1;
        }
        let neg = if self.s.get(self.pos) == Some(&b'-') {
            self.pos += 1;
            true
        } else {
            false
        };
        let digits = self.pos;
        let mut v: i64 = 0;
        while let Some(&c) = self.s.get(self.pos) {
            if !c.is_ascii_digit() {
                break;
            }
            let d = i64::from(c - b'0');
            v = v
                .checked_mul(10)
                .and_then(|v| {
                    if neg {
                        v.checked_sub(d)
                    } else {
                        v.checked_add(d)
                    }
                })
                .ok_or(ParseError {
                    offset: start,
                    kind: ParseErrorKind::IntegerOverflow,
                })?;
            self.pos += 1;
        }
        if self.pos == digits {
            self.pos = digits;
            return Err(self.error(if self.pos == start {
                "an integer or '('"
            } else {
                "a digit"
            }));
        }
        Ok(v)
    }

    /// A tree whose leaves are read by `leaf`; never recurses.
    pub fn tree<T>(
        &mut self,
        mut leaf: impl FnMut(&mut Self) -> Result<T, ParseError>,
    ) -> Result<(Toks, Leaves<T>), ParseError>
    where
        [T; 16]: smallvec::Array<Item = T>,
    {
        let mut toks = Toks::new();
        let mut leaves: Leaves<T> = Leaves::new();
        let mut depth = 0usize;
        let mut nodes = 0usize;
        loop {
            // Expect a value.
            self.skip_ws();
            self.count_node(&mut nodes)?;
            if self.peek() == Some(b'(') {
                self.pos += 1;
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(ParseError {
                        offset: self.pos - 1,
                        kind: ParseErrorKind::TooDeep,
                    });
                }
                toks.push(Tok::Open);
                if self.peek() == Some(b')') {
                    // Empty tuple.
                    self.pos += 1;
                    depth -= 1;
                    toks.push(Tok::Close);
                } else {
                    continue;
                }
            } else {
                leaves.push(leaf(self)?);
                toks.push(Tok::Leaf);
            }
            // After a value: close tuples or continue with a comma.
            loop {
                if depth == 0 {
                    return Ok((toks, leaves));
                }
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        break;
                    }
                    Some(b')') => {
                        self.pos += 1;
                        depth -= 1;
                        toks.push(Tok::Close);
                    }
                    _ => return Err(self.error("',' or ')'")),
                }
            }
        }
    }

    pub fn int_tuple(&mut self) -> Result<IntTuple, ParseError> {
        let (toks, leaves) = self.tree(|p| p.int())?;
        Ok(IntTuple { toks, leaves })
    }

    /// `shape:stride` with integer strides.
    pub fn layout(&mut self) -> Result<Layout, ParseError> {
        let shape_at = {
            self.skip_ws();
            self.pos
        };
        let shape = self.int_tuple()?;
        self.eat(b':', "':'")?;
        self.stride_for(shape_at, shape)
    }

    /// The stride after `shape:` (already consumed), checked congruent to `shape`; `shape_at` is
    /// where the shape started (the offset reported for invalid layouts).
    pub fn stride_for(&mut self, shape_at: usize, shape: IntTuple) -> Result<Layout, ParseError> {
        let stride_at = {
            self.skip_ws();
            self.pos
        };
        let stride = self.int_tuple()?;
        if !shape.congruent(&stride) {
            return Err(ParseError {
                offset: stride_at,
                kind: ParseErrorKind::Invalid(LayoutError::NotCongruent {
                    op: "parse",
                    shape: shape.into(),
                    stride: stride.into(),
                }),
            });
        }
        Layout::new(shape, stride).map_err(|e| ParseError {
            offset: shape_at,
            kind: ParseErrorKind::Invalid(e),
        })
    }
}

impl FromStr for IntTuple {
    type Err = ParseError;
    /// Parse `8`, `(4,8)`, `(3,(6,2),8)`, `()`; spaces and CuTe's `_` are accepted.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let mut p = Parser::new(s);
        let t = p.int_tuple()?;
        p.finish()?;
        Ok(t)
    }
}

impl FromStr for Layout {
    type Err = ParseError;
    /// Parse `shape:stride`, e.g. `(2,(2,2)):(4,(2,1))` or CuTe's `(_2,_4):(_1,_2)`.
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let mut p = Parser::new(s);
        let l = p.layout()?;
        p.finish()?;
        Ok(l)
    }
}
