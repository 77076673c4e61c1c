#!/usr/bin/env bash
# Times skilllint on generated corpora against the read floor (cat of every file), ripgrep reading
# the same files for a word none holds (`rg -c`, when rg is installed: the yardstick of a fast
# parallel reader) and, when it is installed, agnix (the fastest peer), side by side in one run.
#   scripts/bench.sh [COUNT...]        default: 1000 5000 20000
#   AGNIX=/path/to/agnix RUNS=7 scripts/bench.sh 5000
#   BASELINE=/path/to/older/skilllint RUNS=11 scripts/bench.sh 5000
# BASELINE times another build of skilllint in the same turns (base_s) and prints how much less
# time this build takes (faster_%); scripts/bench-scan.sh compares instruction counts.
# agnix is not installed by this script: `python3 -m venv /tmp/agnix && /tmp/agnix/bin/pip install
# agnix`, then AGNIX=/tmp/agnix/bin/agnix. Prints medians of RUNS runs and peak memory.
set -euo pipefail
cd "$(dirname "$0")/.."
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1000 5000 20000)
runs=${RUNS:-7}
agnix=${AGNIX:-$(command -v agnix || true)}
rg=${RG:-$(command -v rg || true)}
baseline=${BASELINE:-}
cargo build --release --quiet --example gen_corpus
cargo build --release --quiet
bin=target/release/skilllint
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
time_it() { # seconds for one run of "$@"
  local start end
  start=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}
peak_mb() { # peak resident memory of one run of "$@", in MB
  { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null || true; } | tail -1 | awk '{printf "%.1f", $1 / 1024}'
}

printf '%-7s %-7s %-9s %-9s %-11s %-9s %-9s %-9s %-9s %-9s %-9s %-9s %-9s\n' \
  skills files floor_s rg_s skilllint_s x_floor x_rg agnix_s x_faster sl_MB agnix_MB base_s faster_%
for count in "${counts[@]}"; do
  corpus="$work/corpus-$count"
  target/release/examples/gen_corpus "$count" "$corpus" >/dev/null
  files=$(find "$corpus" -type f | wc -l)
  find "$corpus" -type f > "$work/list"
  # The corpus was just written: flush it to disk so background writeback does not slow the
  # timed runs, and warm the caches with one untimed run of each command.
  sync
  sh -c "xargs cat < '$work/list'" >/dev/null 2>&1 || true
  "$bin" "$corpus" --format concise >/dev/null 2>&1 || true
  [ -z "$baseline" ] || "$baseline" "$corpus" --format concise >/dev/null 2>&1 || true
  [ -z "$agnix" ] || "$agnix" "$corpus" --format json --max-files 0 >/dev/null 2>&1 || true
  # The commands take turns run by run, so a machine that speeds up or slows down during the
  # benchmark affects them alike.
  [ -z "$rg" ] || "$rg" -c zqxjkwvq "$corpus" >/dev/null 2>&1 || true
  : > "$work/floor"; : > "$work/lint"; : > "$work/peer"; : > "$work/rg"; : > "$work/base"
  for _ in $(seq "$runs"); do
    time_it sh -c "xargs cat < '$work/list'" >> "$work/floor"
    [ -z "$rg" ] || time_it "$rg" -c zqxjkwvq "$corpus" >> "$work/rg"
    time_it "$bin" "$corpus" --format concise >> "$work/lint"
    [ -z "$baseline" ] || time_it "$baseline" "$corpus" --format concise >> "$work/base"
    [ -z "$agnix" ] || time_it "$agnix" "$corpus" --format json --max-files 0 >> "$work/peer"
  done
  floor=$(median < "$work/floor")
  if [ -n "$rg" ]; then rg_s=$(median < "$work/rg"); else rg_s=nan; fi
  lint=$(median < "$work/lint")
  lint_mb=$(peak_mb "$bin" "$corpus" --format concise)
  if [ -n "$agnix" ]; then
    peer=$(median < "$work/peer")
    peer_mb=$(peak_mb "$agnix" "$corpus" --format json --max-files 0)
    faster=$(echo "$peer / $lint" | bc -l)
  else
    peer=nan; peer_mb=-; faster=nan
  fi
  if [ -n "$baseline" ]; then
    base=$(median < "$work/base")
    base_s=$(printf '%.3f' "$base")
    faster_pct=$(printf '%.1f' "$(echo "100 * ($base - $lint) / $base" | bc -l)")
  else
    base_s=-; faster_pct=-
  fi
  printf '%-7s %-7s %-9.3f %-9s %-11.3f %-9.2f %-9s %-9s %-9s %-9s %-9s %-9s %-9s\n' "$count" "$files" "$floor" \
    "$(printf '%.3f' "$rg_s" 2>/dev/null || echo -)" "$lint" "$(echo "$lint / $floor" | bc -l)" \
    "$( [ "$rg_s" = nan ] && echo - || printf '%.2f' "$(echo "$lint / $rg_s" | bc -l)")" \
    "$(printf '%.3f' "$peer" 2>/dev/null || echo -)" \
    "$(printf '%.1f' "$faster" 2>/dev/null || echo -)" "$lint_mb" "$peer_mb" "$base_s" "$faster_pct"
done
