//! The batch protocol's requests (SPEC.md section 5): one JSON object `{"op": NAME, "args": [...]}`
//! in, one JSON object `{"ok": TEXT}` or `{"error": MESSAGE, "kind": KIND}` out.
//!
//! `cute batch` reads these a line at a time; the Python package and the web page answer the same
//! requests through [`answer_line`] and [`handle_line`], so every front end gives the same text.

use serde_json::Value;

use crate::{run_op, Arg, OpError};

/// Deepest nesting of `args` lists accepted.
const MAX_ARG_DEPTH: usize = 8;

/// The answer to one request line, as one line of JSON without its newline:
/// `{"ok": "..."}` or `{"error": "...", "kind": "..."}`.
///
/// ```
/// let a = cute_ops::request::answer_line(br#"{"op":"rank","args":["(2,3):(1,2)"]}"#);
/// assert_eq!(a, r#"{"ok": "2"}"#);
/// ```
pub fn answer_line(line: &[u8]) -> String {
    answer_json(&handle_line(line))
}

/// A result written as the protocol's answer object (one line, no newline).
pub fn answer_json(result: &Result<String, OpError>) -> String {
    match result {
        Ok(text) => format!("{{\"ok\": {}}}", json_string(text)),
        Err(e) => format!(
            "{{\"error\": {}, \"kind\": {}}}",
            json_string(&e.message),
            json_string(e.kind)
        ),
    }
}

/// `s` as a JSON string literal.
pub fn json_string(s: &str) -> String {
    // Serializing a &str cannot fail.
    serde_json::to_string(s).unwrap_or_else(|_| String::from("\"\""))
}

/// Parses and runs one request line (without its newline).
pub fn handle_line(line: &[u8]) -> Result<String, OpError> {
    let (op, args) = parse_line(line)?;
    run_op(&op, &args)
}

/// One request line (without its newline) as its operation name and arguments.
///
/// # Errors
/// `BadRequest` for a line that is not a request object.
pub fn parse_line(line: &[u8]) -> Result<(String, Vec<Arg>), OpError> {
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
    Ok((op.to_string(), args))
}

/// A JSON value as an operation argument (`k` is its position, for messages).
pub fn to_arg(v: &Value, k: usize, depth: usize) -> Result<Arg, OpError> {
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
