#!/usr/bin/env bash
# Other projects' test suites (../shared/peer-tests: CuTe's C++ unit tests, pycute's, NVlabs'
# PyCuTe's, tensor-layouts' and CuTe's documentation, translated into `cute batch` requests and
# judged by their own evaluator) against the built `cute`. Fails on any WRONG answer or any
# refused-false (we refuse where the peer's answer obeys the law), in any suite; an NVlabs case
# whose answer is a documented CuTe C++ convention (`convention` with `cute_text` in
# crates/cute-ops/tests/data/nvlabs_rest.jsonl, our answer equal to CuTe's) counts apart.
#
#   scripts/ci/peer-tests.sh [CUTE]     # default: target/debug/cute (built here if missing)
#
# Skipped, with a message, where ../shared/peer-tests is absent (a checkout outside the
# workspace that holds it). Needs python3 >= 3.10 (standard library only). About 2 minutes,
# most of it the peers' Python evaluator: the debug `cute` that `cargo test` already built is as
# fast here as a release build (measured 2m12s against 2m24s on the 2-core VM), so the gate
# builds nothing more.
set -euo pipefail
cd "$(dirname "$0")/../.."

peer=../shared/peer-tests
if [[ ! -f $peer/run.py ]]; then
  echo "peer-tests: SKIPPED: $peer/run.py not found (the peer suites live outside this repository, in ../shared)"
  exit 0
fi
cute=${1:-target/debug/cute}
if [[ ! -x $cute ]]; then
  cargo build -q -p cute-cli
  cute=target/debug/cute
fi
out=$(mktemp)
trap 'rm -f "$out" "$out.txt"' EXIT
python3 "$peer/run.py" "$cute" --out "$out" >"$out.txt" || { cat "$out.txt"; exit 1; }
python3 - "$out" "$out.txt" crates/cute-ops/tests/data/nvlabs_rest.jsonl <<'PY'
import json, sys
from collections import Counter
# NVlabs cases where cute follows CuTe C++ (a `convention` with CuTe's answer `cute_text` in
# nvlabs_rest.jsonl, itself checked against CuTe's vectors) are conventions, not WRONG.
conv = {}
for line in open(sys.argv[3]):
    c = json.loads(line)
    e = c.get("expect") or {}
    if "convention" in e and "cute_text" in e:
        conv[(c["op"], json.dumps(c["args"]))] = e["cute_text"].replace(" ", "")
by = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    cat = r["category"]
    if cat == "WRONG" and r["suite"] == "nvlabs-cute":
        want = conv.get((r.get("op"), json.dumps(r.get("args"))))
        if want is not None and str(r.get("ours", "")).replace(" ", "") == want:
            cat = "convention"
    by.setdefault(r["suite"], Counter())[cat] += 1
bad = 0
for suite, c in sorted(by.items()):
    w, f = c.get("WRONG", 0), c.get("refused-false", 0)
    bad += w + f
    print(f"peer-tests: {suite:15s} {sum(c.values()):6d} cases  pass {c.get('pass', 0):6d}  "
          f"WRONG {w}  refused-false {f}" + (f"  CuTe-convention {c['convention']}" if c.get("convention") else ""))
if bad:
    text = open(sys.argv[2]).read()
    print(text[text.index("\n== WRONG"):])
    sys.exit(f"peer-tests: FAILED: {bad} WRONG or refused-false cases (listed above)")
print("peer-tests: ok (0 WRONG, 0 refused-false in every suite)")
PY
