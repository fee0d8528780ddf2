//! CuTe C++ conformance of the layout surface of issue #29 (the IntTuple toolkit, layout
//! construction and restructuring, general composed layouts): every vector of
//! `tests/conformance/surface/cute_cpp.jsonl` (made by `scripts/gen-conformance-surface.py` from
//! CuTe's own answers, static integers) goes through one `cute batch` run, and the answer must
//! be CuTe's text (spaces ignored, CuTe's static `_N` printed as `N`). A refusal is a failure:
//! every vector is one CuTe answers.

use crate::common;

#[test]
fn surface_vectors_match_cute() {
    let n = common::assert_cute_vectors(include_str!("conformance/surface/cute_cpp.jsonl"));
    assert!(n >= 100, "{n} vectors");
}
