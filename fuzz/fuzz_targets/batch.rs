//! `cute batch` on arbitrary bytes: exactly one JSON answer per input line, each `{"ok": ...}` or
//! `{"error": ..., "kind": ...}`, no panic.
#![no_main]

use cute_fuzz::batch;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let mut out = Vec::new();
    batch::run(data, &mut out).expect("writing to a Vec cannot fail");
    let lines_in = data.iter().filter(|&&c| c == b'\n').count()
        + usize::from(data.last().is_some_and(|&c| c != b'\n'));
    let text = std::str::from_utf8(&out).expect("answers are UTF-8");
    let answers: Vec<&str> = text.lines().collect();
    assert_eq!(answers.len(), lines_in, "input {data:?}\noutput {text}");
    assert!(text.is_empty() || text.ends_with('\n'));
    for a in answers {
        let v: Value = serde_json::from_str(a).expect("answer is JSON");
        let ok =
            v.get("ok").is_some_and(Value::is_string) && v.as_object().map(|o| o.len()) == Some(1);
        let err = v.get("error").is_some_and(Value::is_string)
            && v.get("kind").is_some_and(Value::is_string)
            && v.as_object().map(|o| o.len()) == Some(2);
        assert!(ok || err, "answer {a}");
    }
});
