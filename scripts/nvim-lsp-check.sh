#!/usr/bin/env bash
# A real editor against `skilllint server`: headless Neovim (its built-in LSP client), set up with
# the Neovim block of docs/editors.md (the one users copy), opens files of the rule fixtures, and
# the diagnostics it receives must be the ones `skilllint --format json` reports for the same file (code, message, severity, start and end; the hints the server adds
# where a finding's label points into another file are left out, the CLI has no such row).
#   scripts/nvim-lsp-check.sh               the fixtures below, with target/debug/skilllint
#   SKILLLINT=target/release/skilllint scripts/nvim-lsp-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nvim >/dev/null; then
  echo "nvim-lsp-check: nvim is not installed; skipped"
  exit 0
fi
if [ -z "${SKILLLINT:-}" ]; then
  cargo build --quiet
  SKILLLINT=$PWD/target/debug/skilllint
fi
export SKILLLINT
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The documented set-up runs `skilllint` from PATH.
mkdir -p "$work/bin"
ln -s "$SKILLLINT" "$work/bin/skilllint"
export PATH="$work/bin:$PATH"
# The set-up as docs/editors.md shows it: the first lua block after its marker comment.
python3 - docs/editors.md "$work/setup.lua" <<'PY'
import sys
text = open(sys.argv[1], encoding="utf-8").read()
marker = "<!-- scripts/nvim-lsp-check.sh runs the block below"
after = text[text.index(marker):]
block = after[after.index("```lua\n") + len("```lua\n"):]
open(sys.argv[2], "w", encoding="utf-8").write(block[:block.index("```")])
PY
export CHECK_SETUP="$work/setup.lua"
# One fixture per file kind: tools.json, SKILL.md, requirement.yaml, TOOL.md, DRIVER.md,
# SECRETS.md, a suppression comment, and cross-file findings with related locations.
# Then the plugin surface: manifests and marketplaces, hooks, MCP configurations, commands,
# AGENTS.md/CLAUDE.md, and findings a skill gets from the files beside it.
fixtures=(TJ003/fires TR003/fires TR004/fires SK003/fires TJ013/fires TM002/fires DR001/fires
  SE001/fires SL003/fires XC003/fires PL003/fires HK005/fires MC003/fires AG004/fires AG005/fires
  SK022/fires SK023/fires)
checked=0
failed=0
for fixture in "${fixtures[@]}"; do
  root="$work/${fixture//\//-}"
  cp -r "tests/fixtures/$fixture" "$root"
  root=$(cd "$root" && pwd -P)
  # Every rule, through the configuration file both read.
  printf '[lint]\nselect = ["ALL"]\n' >"$root/skilllint.toml"
  (cd "$root" && "$SKILLLINT" . --format json >"$work/cli.json" 2>/dev/null || true)
  # Every file the command line reads, findings or not.
  while IFS= read -r rel; do
    rel=${rel#./}
    CHECK_OUT="$work/nvim.out" \
      nvim --headless --clean "$root/$rel" -c "luafile scripts/nvim/check.lua" >/dev/null 2>&1 || true
    if python3 - "$work/cli.json" "$rel" "$work/nvim.out" <<'PY'
import json, sys
cli, rel, got = sys.argv[1], sys.argv[2], sys.argv[3]
expected = sorted(
    (d["code"], d["message"], {"error": 1, "warning": 2, "info": 3}[d["severity"]],
     d["start"]["line"] - 1, d["start"]["column"] - 1, d["end"]["line"] - 1, d["end"]["column"] - 1)
    for d in json.load(open(cli)) if d["path"] == rel)
lines = open(got).read().splitlines()
if lines and lines[0] in ("TIMEOUT", "NO CLIENT"):
    print("  %s: %s" % (rel, lines[0])); sys.exit(1)
found = sorted(
    (d["code"], d["message"], d["severity"], d["lnum"], d["col"], d["end_lnum"], d["end_col"])
    for d in map(json.loads, lines) if d["severity"] != 4)
status = "ok" if found == expected else "DIFFERS"
print("  %-40s %-8s %s" % (rel, status, ", ".join(sorted({f[0] for f in found})) or "no findings"))
if found != expected:
    print("    neovim:  %s\n    skilllint: %s" % (found, expected)); sys.exit(1)
PY
    then checked=$((checked + 1)); else failed=$((failed + 1)); fi
  done < <(cd "$root" && find . -type f \( -name SKILL.md -o -name '*tools.json' -o -name 'requirement.y*ml' \
    -o -name TOOL.md -o -name DRIVER.md -o -name CLI.md -o -name SECRETS.md -o -name plugin.json \
    -o -name marketplace.json -o -name hooks.json -o -name .mcp.json -o -path '*/commands/*.md' \
    -o -name AGENTS.md -o -name CLAUDE.md \) | sort)
done
echo "nvim-lsp-check: $(nvim --version | head -1): $checked files agree with --format json, $failed differ"
[ "$failed" -eq 0 ]
