#!/usr/bin/env bash
# Counts the instructions of one lint of a generated corpus under callgrind, and the share of them
# spent in the text scan (the cues of text aimed at the model: `semantic::cues::find_payloads`
# and everything it calls). Instructions, unlike seconds, do not depend on what else the machine
# runs, so two builds compare exactly.
#   scripts/bench-scan.sh [COUNT]           default: 5000
#   BASELINE=/path/to/skilllint scripts/bench-scan.sh 5000
# BASELINE adds the total of another binary on the same corpus (its scan share only when it was
# built with symbols). The profiled build keeps line tables for function names
# (CARGO_PROFILE_RELEASE_DEBUG=line-tables-only) in its own target directory, so the ordinary
# release build is not rebuilt. Needs valgrind (callgrind_annotate comes with it).
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-5000}
command -v valgrind >/dev/null || { echo "bench-scan: valgrind is not installed" >&2; exit 1; }
target=${PROFILE_TARGET_DIR:-target/profiling}
CARGO_PROFILE_RELEASE_DEBUG=line-tables-only CARGO_TARGET_DIR="$target" \
  cargo build --release --quiet --bin skilllint --example gen_corpus
bin="$target/release/skilllint"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$target/release/examples/gen_corpus" "$count" "$work/corpus" >/dev/null

# Prints "total scan share" for one binary: callgrind's total, and the inclusive count of the
# scan's entry point (0 when the binary has no symbols).
measure() {
  local out="$work/callgrind.$1"
  valgrind --tool=callgrind --callgrind-out-file="$out" "$2" "$work/corpus" --format json \
    >/dev/null 2>"$work/valgrind.log" || true
  local total scan
  total=$(awk '/^summary:/ {print $2}' "$out")
  scan=$(callgrind_annotate --inclusive=yes "$out" 2>/dev/null |
    awk '/:skilllint::semantic::cues::find_payloads / {gsub(",", "", $1); if ($1 > m) m = $1} END {print m + 0}')
  echo "$total $scan"
}

printf '%-10s %-16s %-16s %-8s\n' binary instructions scan scan_%
report() {
  local name=$1 total=$2 scan=$3
  printf '%-10s %-16s %-16s %-8s\n' "$name" "$total" "$scan" "$(echo "scale=2; 100 * $scan / $total" | bc -l)"
}
read -r total scan < <(measure new "$bin")
report new "$total" "$scan"
if [ -n "${BASELINE:-}" ]; then
  read -r base_total base_scan < <(measure baseline "$BASELINE")
  report baseline "$base_total" "$base_scan"
  echo "instructions: $(echo "scale=1; 100 * ($base_total - $total) / $base_total" | bc -l)% fewer than the baseline"
fi
