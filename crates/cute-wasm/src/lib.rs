//! The web playground's WebAssembly module: `cute batch`'s requests, pictures, explanations and
//! `cute show` text, through [`cute_ops`]. It holds no algebra and no rendering of its own: every
//! function takes one batch-protocol request line (`{"op": NAME, "args": [...]}`) and returns one
//! answer line (`{"ok": TEXT}` or `{"error": MESSAGE, "kind": KIND}`), so every failure reaches
//! the page as a value.
//!
//! `web/app.js` wraps [`answer`] as `window.cute.run(op, args)`.

use cute_ops::request::{answer_json, json_string, parse_line};
use cute_ops::{view, OpError};
use wasm_bindgen::prelude::wasm_bindgen;

/// The answer of `cute batch` to one request line.
#[wasm_bindgen]
pub fn answer(line: &str) -> String {
    cute_ops::request::answer_line(line.as_bytes())
}

/// A view of one request, as an answer line: `what` is `picture` (SVG, see
/// [`cute_ops::view::picture`]), `explain` (the derivation or refusal), `show` (`cute show`'s
/// text of the request's one argument) or `banks_report` (args `LAYOUT BANKS ELEM_BYTES ACCESS`).
#[wasm_bindgen]
pub fn view(what: &str, line: &str) -> String {
    answer_json(&view_result(what, line))
}

fn view_result(what: &str, line: &str) -> Result<String, OpError> {
    let (op, args) = parse_line(line.as_bytes())?;
    let a = |k: usize| -> Result<String, OpError> {
        args.get(k)
            .map(ToString::to_string)
            .ok_or_else(|| OpError::new("Arity", format!("{what}: argument {} is missing", k + 1)))
    };
    let int = |k: usize| -> Result<i64, OpError> {
        let s = a(k)?;
        s.trim().parse().map_err(|_| {
            OpError::new(
                "BadRequest",
                format!("{what}: argument {} must be an integer, got {s:?}", k + 1),
            )
        })
    };
    match what {
        "picture" => view::picture(&op, &args),
        "explain" => view::explain(&op, &args),
        "show" => view::show(&a(0)?),
        "banks_report" => view::banks_report(&a(0)?, int(1)?, int(2)?, &a(3)?),
        _ => Err(OpError::new(
            "UnknownOp",
            format!("no view {what:?}; one of picture, explain, show, banks_report"),
        )),
    }
}

/// The operation table as JSON: `[{"name", "usage", "min", "max", "about"}, ...]` in the order
/// `cute ops` lists them.
#[wasm_bindgen]
pub fn ops() -> String {
    let items: Vec<String> = cute_ops::all()
        .map(|s| {
            format!(
                "{{\"name\": {}, \"usage\": {}, \"min\": {}, \"max\": {}, \"about\": {}}}",
                json_string(s.name),
                json_string(s.usage),
                s.min,
                s.max,
                json_string(s.about)
            )
        })
        .collect();
    format!("[{}]", items.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_and_views() {
        assert_eq!(
            answer(r#"{"op":"size","args":["(2,3):(1,2)"]}"#),
            r#"{"ok": "6"}"#
        );
        assert!(view("picture", r#"{"op":"show","args":["8:1"]}"#).starts_with(r#"{"ok": "<svg"#));
        assert!(view("show", r#"{"op":"show","args":["8:1"]}"#).contains("layout: 8:1"));
        assert!(view("nope", "{}").contains("\"kind\": \"BadRequest\""));
        assert!(view("nope", r#"{"op":"x"}"#).contains("\"kind\": \"UnknownOp\""));
        assert!(
            view("banks_report", r#"{"op":"b","args":["8:1",32,4,"rows"]}"#).contains("request 0")
        );
        let v: serde_json::Value = serde_json::from_str(&ops()).unwrap();
        assert!(v.as_array().unwrap().len() > 40);
    }
}
