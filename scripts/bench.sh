#!/usr/bin/env bash
# Times skilllint on generated corpora against the read floor (cat of every file).
#   scripts/bench.sh [COUNT...]        default: 1000 5000
# Prints the median wall time of several runs and skilllint's peak memory.
set -euo pipefail
cd "$(dirname "$0")/.."
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1000 5000)
runs=${RUNS:-7}
cargo build --release --quiet --example gen_corpus
cargo build --release --quiet
bin=target/release/skilllint
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
time_it() { # prints seconds for one run of "$@"
  local start end
  start=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}

printf '%-8s %-8s %-12s %-12s %-10s %-10s\n' skills files floor_s skilllint_s ratio peak_MB
for count in "${counts[@]}"; do
  corpus="$work/corpus-$count"
  target/release/examples/gen_corpus "$count" "$corpus" >/dev/null
  files=$(find "$corpus" -type f | wc -l)
  find "$corpus" -type f > "$work/list"
  floor=$(for _ in $(seq "$runs"); do time_it sh -c "xargs cat < '$work/list'"; done | median)
  lint=$(for _ in $(seq "$runs"); do time_it "$bin" "$corpus" --format concise; done | median)
  # skilllint exits 1 on the corpus's deliberate defects; only the memory figure matters here.
  peak=$({ /usr/bin/time -f '%M' "$bin" "$corpus" --format concise 2>&1 >/dev/null || true; } | tail -1)
  printf '%-8s %-8s %-12.3f %-12.3f %-10.2f %-10.1f\n' "$count" "$files" "$floor" "$lint" \
    "$(echo "$lint / $floor" | bc -l)" "$(echo "$peak / 1024" | bc -l)"
done
