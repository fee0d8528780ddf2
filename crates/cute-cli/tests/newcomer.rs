//! What a new user meets first: the README's commands and picture, per-operation help,
//! suggestions for near-miss names, one-line errors with documented exit statuses, `show` of
//! shapes, batch `show` / `explain` / JSON tuples, and pictures bounded before they are drawn.

use crate::common;

use std::time::{Duration, Instant};

use common::{batch, cute, stderr, stdout};

/// Asserts that `args` fails with exit status `code` and exactly one line
/// `cute: error[KIND]: ...` on stderr; returns that line.
fn one_line_error(args: &[&str], code: i32) -> String {
    let o = cute(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("cute: error["), "{args:?}: {err}");
    err.trim_end().to_string()
}

/// The repository's README.md.
const README: &str = include_str!("../../../README.md");

/// The README's main-job command, which runs `cute` from the optimised build.
const CARGO_RUN: &str = "cargo run --release --locked -q -p cute-cli -- ";

/// Splits a shell command line whose only quoting is single quotes (all the README uses).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let (mut quoted, mut any) = (false, false);
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    words.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    assert!(!quoted, "unclosed quote in {line:?}");
    if any {
        words.push(cur);
    }
    words
}

/// The `$ COMMAND` lines of the README's ```console blocks, each with the lines shown after it.
fn console_commands() -> Vec<(String, String)> {
    let mut commands: Vec<(String, String)> = Vec::new();
    let mut inside = false;
    for line in README.lines() {
        if !inside {
            inside = line == "```console";
        } else if line == "```" {
            inside = false;
        } else if let Some(command) = line.strip_prefix("$ ") {
            commands.push((command.to_string(), String::new()));
        } else {
            let (_, shown) = commands
                .last_mut()
                .expect("a console block starts with a `$ ` line");
            shown.push_str(line);
            shown.push('\n');
        }
    }
    commands
}

#[test]
fn every_readme_console_command_prints_what_the_readme_shows() {
    let commands = console_commands();
    assert!(commands.len() >= 8, "{} console commands", commands.len());
    assert!(
        commands[0].0.starts_with(CARGO_RUN),
        "the first command runs the optimised build: {}",
        commands[0].0
    );
    for (command, shown) in &commands {
        let rest = command
            .strip_prefix(CARGO_RUN)
            .or_else(|| command.strip_prefix("cute "))
            .unwrap_or_else(|| panic!("not a cute command: {command}"));
        let words = shell_words(rest);
        let args: Vec<&str> = words.iter().map(String::as_str).collect();
        let o = cute(&args);
        let printed = format!("{}{}", stdout(&o), stderr(&o));
        assert_eq!(&printed, shown, "README.md: $ {command}");
    }
}

#[test]
fn readme_picture_is_what_its_command_draws() {
    let image = README
        .lines()
        .find_map(|l| l.strip_prefix("![").and_then(|l| l.split_once("](")))
        .map(|(_, rest)| rest.trim_end_matches(')'))
        .expect("README.md shows a picture");
    let start = README
        .find("`cute svg ")
        .expect("README.md says how its picture is made")
        + 1;
    let command = &README[start..start + README[start..].find('`').expect("closing backtick")];
    let words = shell_words(
        command
            .replace('\n', " ")
            .strip_prefix("cute ")
            .unwrap_or(""),
    );
    let at = words.iter().position(|w| w == "-o").expect("-o") + 1;
    assert_eq!(
        words[at], image,
        "the command writes the picture README.md shows"
    );
    let mut args: Vec<&str> = words.iter().map(String::as_str).collect();
    args[at] = "-";
    let o = cute(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let committed = std::fs::read(root.join(image)).expect("the picture is committed");
    assert!(
        committed.len() < 100 * 1024,
        "{image} is {} bytes",
        committed.len()
    );
    assert!(
        o.stdout == committed,
        "{image} differs from what `{command}` draws"
    );
}

#[test]
fn every_operation_has_help_and_its_example_prints_what_it_says() {
    let listed = stdout(&cute(&["ops"]));
    for spec in cute_ops::all() {
        let line = listed
            .lines()
            .find(|l| l.split_whitespace().next() == Some(spec.name))
            .unwrap_or_else(|| panic!("`cute ops` does not list {}", spec.name));
        assert!(line.contains(spec.summary), "{line}");
        let h = spec;
        for args in [vec![spec.name, "--help"], vec!["help", spec.name]] {
            let o = cute(&args);
            assert!(o.status.success(), "{args:?}: {}", stderr(&o));
            let text = stdout(&o);
            assert!(
                text.lines()
                    .any(|l| l.starts_with(&format!("Usage: cute {}", spec.name))),
                "{args:?}: {text}"
            );
            assert!(text.contains("\nLaw: "), "{args:?}: {text}");
            assert!(
                text.contains(&format!("$ {}\n", cute_ops::help::example_line(h))),
                "{args:?}: {text}"
            );
        }
        let mut call = vec![spec.name];
        call.extend(h.example.iter().copied());
        let o = cute(&call);
        assert!(o.status.success(), "{call:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), format!("{}\n", h.output), "{call:?}");
    }
}

#[test]
fn help_for_commands_and_unknown_topics() {
    for topic in ["show", "png", "batch", "explain"] {
        let o = cute(&["help", topic]);
        assert!(o.status.success(), "{topic}");
        assert!(
            stdout(&o).contains(&format!("Usage: cute {topic}")),
            "{topic}"
        );
    }
    let o = cute(&["help"]);
    assert!(o.status.success() && stdout(&o).contains("cute help OP"));
    let e = one_line_error(&["help", "shwo"], 2);
    assert!(e.contains("did you mean show?"), "{e}");
    // `latex` advertises only what it takes.
    let latex = stdout(&cute(&["latex", "--help"]));
    assert!(!latex.contains("--banks") && !latex.contains("--scale") && !latex.contains("OP A B"));
}

#[test]
fn near_misses_name_the_nearest_valid_word() {
    let e = one_line_error(&["compositon", "8:1", "8:1"], 2);
    assert!(e.ends_with("did you mean composition?"), "{e}");
    let e = one_line_error(&["make_layout", "(2,4)", "LayoutRigth"], 2);
    assert!(e.contains("did you mean LayoutRight?"), "{e}");
    let e = one_line_error(&["bach"], 2);
    assert!(e.contains("did you mean batch?"), "{e}");
    let e = one_line_error(&["svg", "logical_divde", "8:1", "2"], 2);
    assert!(e.contains("did you mean logical_divide?"), "{e}");
    let e = one_line_error(&["show", "(2,2):(1,2)", "--cords"], 2);
    assert!(e.contains("--coords"), "{e}");
}

#[test]
fn every_error_is_one_line_with_the_documented_status() {
    for args in [
        &["show", "8:1", "extra"][..],
        &["show"],
        &["svg", "--tv", "8:1"],
        &["banks", "(4,32):(1,4)", "--banks", "0"],
        &["banks", "(4,32):(1,4)", "--access", "diag"],
        &["banks", "(4,32):(1,4)", "--elem-bytes", "3"],
        &["svg", "8:1", "-o", "plain.pdf"],
        &["png", "8:1", "-o", "plain.svg"],
        &["latex", "8:1", "--banks", "4"],
        &["show", "--color", "sometimes", "8:1"],
        &["png", "8:1", "--scale", "-1", "-o", "x.png"],
    ] {
        one_line_error(args, 2);
    }
    let e = one_line_error(&["svg", "8:1", "-o", "plain.pdf"], 2);
    assert!(e.contains("writes SVG, not .pdf"), "{e}");
    one_line_error(&["idx2crd", "3", "(2,3):(0,2)"], 1);
}

#[test]
fn show_takes_shapes_and_explains_swizzled_layouts() {
    let o = cute(&["show", "(2,2)"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("layout: (2,2):(1,2)\n"));
    let e = one_line_error(&["show", "Sw<3,4,3> o (8,64):(64,1)"], 2);
    assert!(e.contains("Sw<B,M,S> o OFFSET o LAYOUT"), "{e}");
    assert!(cute(&["show", "Sw<3,4,3> o 0 o (8,64):(64,1)"])
        .status
        .success());
}

#[test]
fn batch_takes_json_tuples_show_and_explain() {
    let input = br#"{"op": "crd2idx", "args": [[1,5], "(3,(2,3)):(3,(12,1))"]}
{"op": "make_layout", "args": [[2,[2,2]], [4,[2,1]]]}
{"op": "composition", "args": ["(6,2):(8,2)", [4,3]]}
{"op": "show", "args": ["(2,2)"]}
{"op": "explain", "args": ["complement", "4:2", "24"]}
{"op": "explain", "args": ["right_inverse", "(4,8):(8,1)"]}
"#;
    let (_, answers) = batch(input);
    assert_eq!(answers[0]["ok"], "17");
    assert_eq!(answers[1]["ok"], "(2,(2,2)):(4,(2,1))");
    assert_eq!(answers[2]["ok"], "(4,3):(8,2)"); // by mode: (6:8 o 4, 2:2 o 3)
    assert!(answers[3]["ok"]
        .as_str()
        .unwrap_or("")
        .starts_with("layout: (2,2):(1,2)"));
    assert!(answers[4]["ok"]
        .as_str()
        .unwrap_or("")
        .ends_with("=> (2,3):(1,8)"));
    assert!(answers[5]["ok"].is_string(), "{}", answers[5]);
}

#[test]
fn banks_report_counts_in_words() {
    let o = cute(&["banks", "(32,32):(1,32)"]);
    let text = stdout(&o);
    assert!(
        !text.contains(" 1 wavefronts") && !text.contains(" 1 requests"),
        "{text}"
    );
}

#[test]
fn pictures_are_bounded_before_they_are_drawn() {
    let dir = std::env::temp_dir().join(format!("cute-newcomer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = |name: &str| dir.join(name).to_string_lossy().into_owned();
    for args in [
        vec!["png", "65536:1"],
        vec!["png", "(256,256):(1,256)", "--scale", "8"],
    ] {
        let out = file("big.png");
        let mut args = args.clone();
        args.extend(["-o", &out]);
        let t = Instant::now();
        let e = one_line_error(&args, 1);
        assert!(e.contains("error[TooLarge]"), "{e}");
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "{args:?} took {:?}",
            t.elapsed()
        );
    }
    // The default scale makes a small layout large enough for a slide.
    let out = file("small.png");
    let o = cute(&["png", "(4,8):(8,1)", "-o", &out]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bytes = std::fs::read(&out).expect("png written");
    let w = u32::from_be_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]);
    assert!(w >= 800, "width {w}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn large_layouts_are_coloured_by_range_not_stripes() {
    let svg = stdout(&cute(&["svg", "(32,32):(32,1)"]));
    assert!(svg.contains("colour = where the value lies in [0, 1023]"));
    let svg = stdout(&cute(&["svg", "(4,8):(8,1)"]));
    assert!(!svg.contains("colour = where"));
    let svg = stdout(&cute(&["svg", "(4,8):(8,1)", "--color-by", "range"]));
    assert!(svg.contains("colour = where the value lies in [0, 31]"));
}

#[test]
fn pictures_show_swizzles_and_highlight_a_thread() {
    let o = cute(&["svg", "Sw<3,4,3> o 0 o (8,64):(64,1)"]);
    assert!(stdout(&o).contains("colour = value / 16 mod 8"));
    let o = cute(&[
        "svg",
        "--tv",
        "((4,8),(2,2)):((16,1),(8,64))",
        "--tile",
        "(16,8)",
        "--highlight",
        "5",
    ]);
    let svg = stdout(&o);
    assert!(
        svg.contains("class=\"hl\"") && svg.contains("the 4 cells of thread 5"),
        "{svg}"
    );
}
