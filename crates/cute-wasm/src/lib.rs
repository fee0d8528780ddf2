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

/// The operation table as JSON, in the order `cute ops` lists them: `[{"name", "topic",
/// "topic_title", "usage", "min", "max", "summary", "params", "overloads", "returns", "f2",
/// "f2_basis", "law", "example", "output", "limits"}, ...]` (`f2`, `f2_basis`: whether it also
/// takes layouts with F2 strides, F2 basis strides; `example`: the declared example's arguments,
/// `output` what the operation answers to them).
/// A parameter is `{"name", "label", "kinds", "arity"}`: `name` an identifier (`layout`, `n`), `label` its
/// word in the usage line, `kinds` the kinds it takes (`"Layout"`, `"Tag:LayoutLeft"`), `arity`
/// one of `one`, `optional`, `many`, `one_or_more`.
#[wasm_bindgen]
pub fn ops() -> String {
    let items: Vec<String> = cute_ops::all()
        .map(|s| {
            let sigs: Vec<String> = s.overloads.iter().map(|sig| params_json(sig, None)).collect();
            let returns: Vec<String> = s.returns.iter().map(|&k| kind_json(k)).collect();
            let example: Vec<String> = s.example.iter().map(|a| json_string(a)).collect();
            format!(
                "{{\"name\": {}, \"topic\": {}, \"topic_title\": {}, \"usage\": {}, \"min\": {}, \"max\": {}, \"summary\": {}, \"params\": {}, \"overloads\": [{}], \"returns\": [{}], \"f2\": {}, \"f2_basis\": {}, \"law\": {}, \"example\": [{}], \"output\": {}, \"limits\": {}}}",
                json_string(s.name),
                json_string(s.topic.key()),
                json_string(s.topic.title()),
                json_string(&s.usage()),
                s.min(),
                s.max(),
                json_string(s.summary),
                params_json(s.params, Some(&s.param_names())),
                sigs.join(", "),
                returns.join(", "),
                s.f2.is_some(),
                s.f2_basis.is_some(),
                json_string(s.law),
                example.join(", "),
                json_string(s.output),
                json_string(s.limits)
            )
        })
        .collect();
    format!("[{}]", items.join(", "))
}

fn kind_json(k: cute_ops::table::Kind) -> String {
    match k {
        cute_ops::table::Kind::Tag(t) => json_string(&format!("Tag:{t}")),
        _ => json_string(k.name()),
    }
}

fn params_json(params: &[cute_ops::table::Param], names: Option<&[String]>) -> String {
    use cute_ops::table::Arity;
    let items: Vec<String> = params
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let name = names.map_or_else(|| p.ident(), |n| n[k].clone());
            let kinds: Vec<String> = p.kinds.iter().map(|&k| kind_json(k)).collect();
            let arity = match p.arity {
                Arity::One => "one",
                Arity::Optional => "optional",
                Arity::Many => "many",
                Arity::OneOrMore => "one_or_more",
            };
            format!(
                "{{\"name\": {}, \"label\": {}, \"kinds\": [{}], \"arity\": \"{arity}\"}}",
                json_string(&name),
                json_string(&p.label()),
                kinds.join(", ")
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
        let all = v.as_array().unwrap();
        assert_eq!(all.len(), cute_ops::all().count());
        let make_layout = all.iter().find(|o| o["name"] == "make_layout").unwrap();
        assert_eq!(make_layout["topic"], "construction");
        assert_eq!(
            make_layout["usage"],
            "SHAPE [STRIDE|LayoutLeft|LayoutRight]"
        );
        assert_eq!(
            make_layout["params"].to_string(),
            r#"[{"arity":"one","kinds":["Shape"],"label":"SHAPE","name":"shape"},{"arity":"optional","kinds":["Stride","Tag:LayoutLeft","Tag:LayoutRight"],"label":"STRIDE|LayoutLeft|LayoutRight","name":"stride"}]"#
        );
        assert_eq!(make_layout["returns"].to_string(), r#"["Layout"]"#);
        assert_eq!(make_layout["f2"], false);
        assert_eq!(make_layout["topic_title"], "Construction");
        let divide = all.iter().find(|o| o["name"] == "logical_divide").unwrap();
        let example: Vec<String> = divide["example"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_string())
            .collect();
        let line = format!(
            "{{\"op\":\"logical_divide\",\"args\":{}}}",
            serde_json::to_string(&example).unwrap()
        );
        assert_eq!(
            answer(&line),
            format!(
                "{{\"ok\": {}}}",
                serde_json::to_string(&divide["output"]).unwrap()
            )
        );
        let size = all.iter().find(|o| o["name"] == "size").unwrap();
        assert_eq!(
            (&size["f2"], &size["f2_basis"]),
            (&true.into(), &true.into())
        );
    }
}
