//! `cute batch`: one JSON request per input line, exactly one JSON answer per input line, in order
//! (SPEC.md section 5).
//!
//! ```text
//! {"op": "size", "args": ["(2,(2,2)):(4,(2,1))"]}   ->  {"ok": "8"}
//! {"op": "size", "args": []}                        ->  {"error": "size: expected 1 argument (LAYOUT|COMPOSED|TUPLE), got 0", "kind": "Arity"}
//! ```
//!
//! Input is read as bytes, not text, so that a line which is not UTF-8 is answered with an error
//! like any other malformed line (an empty line, JSON that is not a request, a line longer than
//! [`MAX_LINE`]) and the lines after it are still processed. Output is buffered and flushed
//! whenever the input has nothing more buffered, so both a pipe of a million requests and an
//! interactive driver that waits for each answer work.

use std::io::{self, BufRead, Read, Write};

use crate::ops::request::{answer_json, handle_line};
use crate::ops::OpError;

/// Longest request line accepted, in bytes. Longer lines are answered with a `BadRequest` error;
/// they are read to their end but not kept in memory.
pub const MAX_LINE: usize = 1 << 20;

/// Answers every request line of `input` on `output`. Returns on end of input, or with the
/// first I/O error (a closed output pipe included).
pub fn run(input: impl Read, output: impl Write) -> io::Result<()> {
    let mut input = io::BufReader::with_capacity(1 << 16, input);
    let mut out = io::BufWriter::with_capacity(1 << 16, output);
    let mut line: Vec<u8> = Vec::new();
    let mut too_long = false;
    let mut pending = false; // bytes of an unfinished line seen
    loop {
        if input.buffer().is_empty() {
            // The next read may block: let the answers so far reach whoever waits for them.
            out.flush()?;
        }
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if pending {
                answer(&mut out, &line, too_long)?;
            }
            return out.flush();
        }
        let (chunk, ends_line) = match buf.iter().position(|&b| b == b'\n') {
            Some(p) => (&buf[..p], true),
            None => (buf, false),
        };
        if !too_long {
            if line.len() + chunk.len() > MAX_LINE {
                too_long = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        pending = true;
        let used = chunk.len() + usize::from(ends_line);
        input.consume(used);
        if ends_line {
            answer(&mut out, &line, too_long)?;
            line.clear();
            too_long = false;
            pending = false;
        }
    }
}

/// Writes the answer to one request line.
fn answer(out: &mut impl Write, line: &[u8], too_long: bool) -> io::Result<()> {
    let result = if too_long {
        Err(OpError::new(
            "BadRequest",
            format!("request line longer than {MAX_LINE} bytes"),
        ))
    } else {
        handle_line(line)
    };
    writeln!(out, "{}", answer_json(&result))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn batch(input: &[u8]) -> String {
        let mut out = Vec::new();
        if let Err(e) = run(input, &mut out) {
            panic!("writing to a Vec failed: {e}");
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    #[test]
    fn one_answer_per_line() {
        let input = b"{\"op\":\"size\",\"args\":[\"8:1\"]}\n\n\xff\xfe\n{bad\n[1]\n{\"op\":\"x\",\"args\":[]}\n{\"op\":\"rank\",\"args\":[\"(2,3):(1,2)\"]}";
        let out = batch(input);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 7, "{out}");
        assert_eq!(lines[0], r#"{"ok": "8"}"#);
        assert!(lines[1].contains("\"BadRequest\""), "{}", lines[1]);
        assert!(lines[2].contains("not UTF-8"), "{}", lines[2]);
        assert!(lines[3].contains("not valid JSON"), "{}", lines[3]);
        assert!(lines[4].contains("JSON object"), "{}", lines[4]);
        assert!(lines[5].contains("\"UnknownOp\""), "{}", lines[5]);
        assert_eq!(lines[6], r#"{"ok": "2"}"#);
    }

    #[test]
    fn long_lines_are_refused_and_skipped() {
        let mut input = vec![b' '; MAX_LINE + 10];
        input.push(b'\n');
        input.extend_from_slice(b"{\"op\":\"depth\",\"args\":[\"8:1\"]}\r\n");
        let out = batch(&input);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[0].contains("longer than"));
        assert_eq!(lines[1], r#"{"ok": "0"}"#);
    }

    #[test]
    fn empty_input_gives_no_output() {
        assert_eq!(batch(b""), "");
        assert_eq!(batch(b"\n").lines().count(), 1);
    }
}
