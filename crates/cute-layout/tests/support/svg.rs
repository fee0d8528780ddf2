//! The SVG pictures of `cute_layout::render` (and of `cute svg`), parsed back: per panel its
//! title, its cells (class, rectangle, label) and its highlight, plus the stylesheet and the fill
//! colour of every CSS class. Shared by `cute-layout`'s `tests/render.rs` and `cute-cli`'s
//! `tests/draw.rs` (through `#[path]`); each uses the parts it checks.
#![allow(dead_code)]

use std::collections::HashMap;

/// A parsed picture.
pub struct Svg {
    pub panels: Vec<Panel>,
    /// The text of the `<style>` element.
    pub styles: String,
    /// `.class{fill:#rrggbb}` rules, as RGB.
    pub colors: HashMap<String, [u8; 3]>,
}

/// One panel (`<g class="panel">`): its cells in document order.
pub struct Panel {
    pub title: String,
    pub cells: Vec<Cell>,
    /// Number of segments (`M` commands) of the highlight path, 0 without one.
    pub highlight_segments: usize,
}

/// A cell: the class and rectangle of its `<rect>` and the text of its label (the text of a
/// label's `<tspan>`s joined with `|`).
#[derive(Debug)]
pub struct Cell {
    pub class: String,
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
    pub label: String,
}

impl Panel {
    /// The cells' classes.
    pub fn classes(&self) -> Vec<String> {
        self.cells.iter().map(|c| c.class.clone()).collect()
    }

    /// The cells' labels.
    pub fn labels(&self) -> Vec<String> {
        self.cells.iter().map(|c| c.label.clone()).collect()
    }
}

/// Parse a picture; panics (with the document) unless it is well-formed SVG whose every panel
/// has a `cells` group and a `labels` group with one label per cell.
pub fn parse(svg: &str) -> Svg {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}\n{svg}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let styles = root
        .descendants()
        .find(|n| n.has_tag_name("style"))
        .and_then(|n| n.text())
        .unwrap_or_default()
        .to_string();
    let mut colors = HashMap::new();
    for rule in styles.lines() {
        if let Some((sel, body)) = rule.split_once("{fill:#") {
            let hex = &body[..6];
            let c = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap();
            colors.insert(sel.trim_start_matches('.').to_string(), [c(0), c(2), c(4)]);
        }
    }
    let mut panels = Vec::new();
    for p in root
        .children()
        .filter(|n| n.attribute("class") == Some("panel"))
    {
        let group = |name: &str| {
            p.children()
                .find(|n| n.attribute("class") == Some(name))
                .unwrap_or_else(|| panic!("panel without {name}"))
        };
        let labels: Vec<String> = group("labels")
            .children()
            .filter(|n| n.has_tag_name("text"))
            .map(|n| {
                n.descendants()
                    .filter(|d| d.is_text())
                    .map(|d| d.text().unwrap())
                    .collect::<Vec<_>>()
                    .join("|")
            })
            .collect();
        let rects: Vec<_> = group("cells")
            .children()
            .filter(|n| n.has_tag_name("rect"))
            .collect();
        assert_eq!(rects.len(), labels.len(), "one label per cell");
        let cells = rects
            .into_iter()
            .zip(labels)
            .map(|(r, label)| {
                let f = |a: &str| r.attribute(a).unwrap().parse::<f32>().unwrap();
                Cell {
                    class: r.attribute("class").unwrap().to_string(),
                    x: f("x"),
                    y: f("y"),
                    w: f("width"),
                    h: f("height"),
                    label,
                }
            })
            .collect();
        let title = p
            .children()
            .find(|n| n.attribute("class") == Some("title"))
            .and_then(|n| n.text())
            .unwrap_or_default()
            .to_string();
        let highlight_segments = p
            .children()
            .find(|n| n.attribute("class") == Some("hl"))
            .map_or(0, |n| n.attribute("d").unwrap().matches('M').count());
        panels.push(Panel {
            title,
            cells,
            highlight_segments,
        });
    }
    Svg {
        panels,
        styles,
        colors,
    }
}
