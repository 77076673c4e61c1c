#!/usr/bin/env bash
# What 20 policy rules cost: skilllint on the 5,000-skill corpus without policies and with the
# example pack (examples/policies, 8 rules) plus 12 more rules over every entity kind, runs taking
# turns. Target: at most 25% slower with the policies, on the corpus as generated. Prints medians
# (and the fastest) of RUNS runs (default 7), then the same on a copy where every rule passes.
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
fastest() { sort -n | head -1; }
time_it() {
  local start end
  start=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}
# measure LABEL CORPUS: RUNS runs each way, taking turns after one warm-up run each.
measure() {
  local label=$1 tree=$2 findings none with
  findings=$("$bin" "$tree" --isolated --policies "$work/pack" --format json 2>/dev/null |
    grep -c '"code": "\(ORG\|BEN\)' || true)
  "$bin" "$tree" --isolated --format concise >/dev/null 2>&1 || true
  "$bin" "$tree" --isolated --policies "$work/pack" --format concise >/dev/null 2>&1 || true
  : > "$work/none"; : > "$work/with"
  for _ in $(seq "$runs"); do
    time_it "$bin" "$tree" --isolated --format concise >> "$work/none"
    time_it "$bin" "$tree" --isolated --policies "$work/pack" --format concise >> "$work/with"
  done
  none=$(median < "$work/none")
  with=$(median < "$work/with")
  printf '%s (%s policy findings, %s runs): without policies: %.3f s (fastest %.3f)   with 20 policy rules: %.3f s (fastest %.3f)   ratio of medians: %.3f\n' \
    "$label" "$findings" "$runs" "$none" "$(fastest < "$work/none")" "$with" "$(fastest < "$work/with")" \
    "$(echo "$with / $none" | bc -l)"
}
# The target (ratio <= 1.25) is judged on the corpus as generated, where the rules report
# thousands of findings.
measure "corpus as generated" "$corpus"
# The same rules on a copy where they pass: the cost of evaluating them without the cost of
# reporting what they find. (The edits also clear a few built-in findings; both runs read the
# copy.) COMPLIANT=0 skips it.
if [ "${COMPLIANT:-1}" = 1 ]; then
  cp -r "$corpus" "$work/compliant"
  python3 - "$work/compliant" <<'PY'
import pathlib, re, sys
root = pathlib.Path(sys.argv[1])
def edit(path, change):
    text = path.read_text(encoding="utf-8")
    new = change(text)
    if new != text:
        path.write_text(new, encoding="utf-8")
def name_the_tool(text):  # ORG005: the confirmation item names the skill's write tool
    tool = re.search(r"`(create_\w+)`", text)
    if not tool:
        return text
    return text.replace("- Never execute a write operation without explicit confirmation",
                        f"- Never call `{tool.group(1)}` or execute another write operation without explicit confirmation")
def describe(text):  # BEN005: tool descriptions of 40 characters or more
    return re.sub(r'"description": "List (\w+) records that match a query\."',
                  r'"description": "List the \1 records that match a free-text query, newest first."', text)
def approve(text):  # ORG001: database writes need approval on every call
    return re.sub(r"(?m)^approval: on-mutate$", "approval: always", text)
for path in root.rglob("SKILL.md"):
    edit(path, name_the_tool)
for path in root.rglob("tools.json"):
    edit(path, describe)
for path in root.rglob("TOOL.md"):
    edit(path, approve)
PY
  measure "compliant copy" "$work/compliant"
fi
