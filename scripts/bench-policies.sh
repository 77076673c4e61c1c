#!/usr/bin/env bash
# What 20 policy rules cost: skilllint on the 5,000-skill corpus without policies and with the
# example pack (examples/policies, 8 rules) plus 12 more rules over every entity kind, runs taking
# turns. Target: at most 25% slower with the policies. Prints medians of RUNS runs (default 7).
#   scripts/bench-policies.sh [CORPUS]   default: /tmp/corpus5000, made with gen_corpus if absent
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-7}
corpus=${1:-/tmp/corpus5000}
cargo build --release --quiet
bin=target/release/skilllint
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ ! -d "$corpus" ]; then
  cargo build --release --quiet --example gen_corpus
  target/release/examples/gen_corpus 5000 "$corpus" >/dev/null
fi
mkdir -p "$work/pack"
cp examples/policies/*.yaml "$work/pack/"
rule() { # code on assert
  cat <<RULE
  - code: $1
    name: bench-$(echo "$1" | tr 'A-Z' 'a-z')
    severity: info
    category: style
    summary: Benchmark rule $1
    on: $2
    assert: '$3'
    message: 'bench $1'
RULE
}
{
  echo "rules:"
  rule BEN001 skill 'has(skill.name) && skill.name.matches("^[a-z0-9-]+$")'
  rule BEN002 skill 'skill.body_lines <= 500'
  rule BEN003 skill '!has(skill.description) || size(skill.description) >= 20'
  rule BEN004 tool 'size(tool.name) <= 64'
  rule BEN005 tool '!has(tool.description) || size(tool.description) >= 40'
  rule BEN006 tool '!has(tool.input_schema) || !has(tool.input_schema.properties) || tool.input_schema.properties.all(p, size(p) <= 40)'
  rule BEN007 tool 'tool.side_effect != "unknown"'
  rule BEN008 tool-use-rule 'size(tool_use_rule.text) <= 400'
  rule BEN009 tool-use-rule '!tool_use_rule.text.contains("TODO")'
  rule BEN010 contract '!has(contract.risk_level) || contract.risk_level <= 3'
  rule BEN011 contract '!has(contract.mutates) || contract.mutates.all(m, m.matches("^[a-z]+:[a-z_]+$"))'
  rule BEN012 driver '!has(driver.kind) || driver.kind != "http" || has(driver.network)'
} > "$work/pack/bench.yaml"
count=$("$bin" rules --isolated --policies "$work/pack" --format json | grep -c '"policy_file"\|"code": "\(ORG\|BEN\)' || true)
echo "policy rules loaded: $count"
"$bin" policy test "$work/pack" >/dev/null 2>&1 || true
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
time_it() {
  local start end
  start=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}
# Warm the caches once each.
"$bin" "$corpus" --isolated --format concise >/dev/null 2>&1 || true
"$bin" "$corpus" --isolated --policies "$work/pack" --format concise >/dev/null 2>&1 || true
: > "$work/none"; : > "$work/with"
for _ in $(seq "$runs"); do
  time_it "$bin" "$corpus" --isolated --format concise >> "$work/none"
  time_it "$bin" "$corpus" --isolated --policies "$work/pack" --format concise >> "$work/with"
done
none=$(median < "$work/none")
with=$(median < "$work/with")
printf 'without policies: %.3f s   with 20 policy rules: %.3f s   ratio: %.3f (target <= 1.25)\n' \
  "$none" "$with" "$(echo "$with / $none" | bc -l)"
