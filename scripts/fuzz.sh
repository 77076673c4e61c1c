#!/usr/bin/env bash
# Runs every cargo-fuzz target for SECONDS each (default 600) with a nightly toolchain.
#   scripts/fuzz.sh [SECONDS] [TARGET...]
# New inputs go to fuzz/corpus-run/<target> (not committed); the seed corpus in fuzz/corpus/<target>
# is read but never written. Crashes land in fuzz/artifacts/<target>.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(frontmatter_yaml json markdown tools_dialects pipeline)
for target in "${targets[@]}"; do
  mkdir -p "corpus-run/$target"
  echo "== $target ($seconds s)"
  cargo +nightly fuzz run "$target" "corpus-run/$target" "corpus/$target" -- \
    -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 2>&1 | tail -4
done
