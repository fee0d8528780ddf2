//! `cute batch`: one JSON request per input line, exactly one JSON answer per input line, in order
//! (SPEC.md section 5).
//!
//! ```text
//! {"op": "size", "args": ["(2,(2,2)):(4,(2,1))"]}   ->  {"ok": "8"}
//! {"op": "size", "args": []}                        ->  {"error": "size: expected 1 argument (LAYOUT|TUPLE), got 0", "kind": "Arity"}
//! ```
//!
//! Input is read as bytes, not text, so that a line which is not UTF-8 is answered with an error
//! like any other malformed line (an empty line, JSON that is not a request, a line longer than
//! [`MAX_LINE`]) and the lines after it are still processed. Output is buffered and flushed
//! whenever the input has nothing more buffered, so both a pipe of a million requests and an
//! interactive driver that waits for each answer work.

use std::io::{self, BufRead, Read, Write};

use serde_json::Value;

use crate::ops::{run_op, Arg, OpError};

/// Longest request line accepted, in bytes. Longer lines are answered with a `BadRequest` error;
/// they are read to their end but not kept in memory.
pub const MAX_LINE: usize = 1 << 20;

/// Deepest nesting of `args` lists accepted.
const MAX_ARG_DEPTH: usize = 8;

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
    match result {
        Ok(text) => writeln!(out, "{{\"ok\": {}}}", json_string(&text)),
        Err(e) => writeln!(
            out,
            "{{\"error\": {}, \"kind\": {}}}",
            json_string(&e.message),
            json_string(e.kind)
        ),
    }
}

fn json_string(s: &str) -> String {
    // Serializing a &str cannot fail.
    serde_json::to_string(s).unwrap_or_else(|_| String::from("\"\""))
}

/// Parses and runs one request line (without its newline).
pub fn handle_line(line: &[u8]) -> Result<String, OpError> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let text = std::str::from_utf8(line).map_err(|e| {
        OpError::new(
            "BadRequest",
            format!(
                "request line is not UTF-8 (invalid byte at offset {})",
                e.valid_up_to()
            ),
        )
    })?;
    if text.trim().is_empty() {
        return Err(OpError::new("BadRequest", "empty request line"));
    }
    let value: Value = serde_json::from_str(text)
        .map_err(|e| OpError::new("BadRequest", format!("request is not valid JSON: {e}")))?;
    let Value::Object(map) = value else {
        return Err(OpError::new(
            "BadRequest",
            "request must be a JSON object {\"op\": ..., \"args\": [...]}",
        ));
    };
    let op = match map.get("op") {
        Some(Value::String(s)) => s.as_str(),
        Some(_) => return Err(OpError::new("BadRequest", "\"op\" must be a string")),
        None => return Err(OpError::new("BadRequest", "request has no \"op\"")),
    };
    // Other fields (an "id" a driver keeps for itself, say) are ignored.
    let args = match map.get("args") {
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(k, v)| to_arg(v, k, 0))
            .collect::<Result<Vec<_>, _>>()?,
        Some(_) => return Err(OpError::new("BadRequest", "\"args\" must be a list")),
        None => Vec::new(),
    };
    run_op(op, &args)
}

fn to_arg(v: &Value, k: usize, depth: usize) -> Result<Arg, OpError> {
    let bad = |what: &str| {
        OpError::new(
            "BadRequest",
            format!(
                "argument {} {what}; expected a string, an integer or a list",
                k + 1
            ),
        )
    };
    match v {
        Value::String(s) => Ok(Arg::Text(s.clone())),
        Value::Number(n) => n
            .as_i64()
            .map(Arg::Int)
            .ok_or_else(|| bad(&format!("is the number {n}, not a 64-bit integer"))),
        Value::Array(items) if depth < MAX_ARG_DEPTH => items
            .iter()
            .map(|x| to_arg(x, k, depth + 1))
            .collect::<Result<Vec<_>, _>>()
            .map(Arg::List),
        Value::Array(_) => Err(bad("nests lists too deeply")),
        Value::Null => Err(bad("is null")),
        Value::Bool(_) => Err(bad("is a boolean")),
        Value::Object(_) => Err(bad("is an object")),
    }
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
