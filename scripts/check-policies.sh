#!/usr/bin/env bash
# The example policy pack in CI: its inline tests pass (`skilllint policy test examples/policies`),
# and a SARIF log of a run with it (policy rules in `rules[]`, their results) passes the SARIF
# Multitool's "Sarif" and "Gh" rule sets with 0 errors. The Multitool check needs
# ../shared/tools/validate-sarif (beside the clone) and npm; without them it is skipped, saying so.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --locked --quiet
bin=target/debug/skilllint
"$bin" policy test examples/policies
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
# Findings exit 1; only a usage or internal error (2) is a failure here.
status=0
"$bin" tests/fixtures --select ALL --policies examples/policies --format sarif -o "$out/policies.sarif" --quiet || status=$?
[ "$status" -le 1 ] || { echo "skilllint exited $status" >&2; exit 1; }
grep -q '"id": "ORG001"' "$out/policies.sarif" || { echo "the SARIF log does not describe ORG001" >&2; exit 1; }
validator=../shared/tools/validate-sarif
if [ ! -x "$validator" ]; then
  echo "check-policies: $validator not found; SARIF Multitool validation skipped"
elif ! command -v npm >/dev/null 2>&1; then
  echo "check-policies: npm not found; SARIF Multitool validation skipped"
else
  "$validator" "$out/policies.sarif"
fi
