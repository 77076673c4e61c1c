#!/usr/bin/env bash
# Runs cargo-fuzz targets for SECONDS each (default 600) with a nightly toolchain, JOBS at a time.
#   scripts/fuzz.sh [SECONDS] [TARGET...]        JOBS=2 scripts/fuzz.sh 600
# New inputs go to fuzz/corpus-run/<target> (not committed); the seed corpus in fuzz/corpus/<target>
# is read but never written. Crashes land in fuzz/artifacts/<target>; the script exits 1 if any.
set -uo pipefail
cd "$(dirname "$0")/../fuzz"
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(frontmatter_yaml json markdown tools_dialects pipeline large_inputs \
  policy_load policy_eval baseline git_tree_listing)
jobs=${JOBS:-1}
cargo +nightly fuzz build >/dev/null 2>&1 || cargo +nightly fuzz build
run_one() {
  local target=$1
  mkdir -p "corpus-run/$target" logs
  # large_inputs repeats its input to about 1 MB: a short piece and a per-input time limit make
  # a quadratic rule a reported timeout instead of a slow run.
  local limits=(-max_len=65536)
  [ "$target" = large_inputs ] && limits=(-max_len=256 -timeout=20)
  # A loaded policy's rule code is leaked on purpose (once per load: diagnostics carry it as
  # `&'static str`), which the leak checker would report on every input; an evaluation the cost
  # bounds let run for seconds is a failure.
  # libFuzzer's -detect_leaks=0 stops the per-input check; the sanitizer's own check when the
  # process exits needs ASAN_OPTIONS too (without it a clean run ends in a leak report, exit 1).
  local asan=${ASAN_OPTIONS:-}
  case $target in policy_*)
    limits+=(-detect_leaks=0 -timeout=10)
    asan="${asan:+$asan:}detect_leaks=0"
    ;;
  esac
  ASAN_OPTIONS=$asan cargo +nightly fuzz run "$target" "corpus-run/$target" "corpus/$target" -- \
    -max_total_time="$seconds" "${limits[@]}" -rss_limit_mb=2048 >"logs/$target.log" 2>&1
  local status=$?
  echo "== $target: exit $status; $(grep -E '^Done [0-9]+ runs' "logs/$target.log" || echo 'no summary')"
  grep -E '^#[0-9]+.*(pulse|DONE)' "logs/$target.log" | tail -1
  return $status
}
failed=0
running=0
for target in "${targets[@]}"; do
  run_one "$target" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
done
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done
exit $failed
