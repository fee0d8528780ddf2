#!/usr/bin/env bash
# Other projects' test suites (../shared/peer-tests: CuTe's C++ unit tests, pycute's, NVlabs'
# PyCuTe's, tensor-layouts' and CuTe's documentation, translated into `cute batch` requests and
# judged by their own evaluator) against the built `cute`. Fails on any WRONG answer or any
# refused-false (we refuse where the peer's answer obeys the law), in any suite.
#
#   scripts/ci/peer-tests.sh [CUTE]     # default: $CUTE, else target/debug/cute (built here if missing)
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
cute=${1:-${CUTE:-target/debug/cute}}
if [[ ! -x $cute ]]; then
  cargo build -q -p cute-cli
  cute=target/debug/cute
fi
out=$(mktemp)
trap 'rm -f "$out" "$out.txt"' EXIT
python3 "$peer/run.py" "$cute" --out "$out" >"$out.txt" || { cat "$out.txt"; exit 1; }
python3 - "$out" "$out.txt" <<'PY'
import json, sys
from collections import Counter
by = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    by.setdefault(r["suite"], Counter())[r["category"]] += 1
bad = 0
for suite, c in sorted(by.items()):
    w, f = c.get("WRONG", 0), c.get("refused-false", 0)
    bad += w + f
    print(f"peer-tests: {suite:15s} {sum(c.values()):6d} cases  pass {c.get('pass', 0):6d}  "
          f"WRONG {w}  refused-false {f}")
if bad:
    text = open(sys.argv[2]).read()
    print(text[text.index("\n== WRONG"):])
    sys.exit(f"peer-tests: FAILED: {bad} WRONG or refused-false cases (listed above)")
print("peer-tests: ok (0 WRONG, 0 refused-false in every suite)")
PY
