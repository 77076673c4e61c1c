#!/usr/bin/env bash
# Tests for the packaging files that need no build and no network (run by .ci/run):
#
#   - scripts/release-check.sh passes on this tree, and on a temporary copy it fails, naming the
#     file and both versions, when one place disagrees with Cargo.toml (and on a tag without its
#     CHANGELOG heading);
#   - the pre-commit package's build backend (python/shim_backend) writes a wheel whose metadata
#     pins skilllint-rs to Cargo.toml's version, with tomllib and with its fallback reader alike;
#   - the npm launcher, run without its platform package, exits 2 naming the package it wanted
#     (skipped without node);
#   - no `run:` in action.yml or a workflow has a `${{ }}` expression (skipped without PyYAML).
#
# It prints one line per check and ends with `packaging: N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
passed=0
failed=0

pass() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "FAILED - $1"; }
skip() { echo "skipped - $1"; }

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)

# --- release-check on the tree itself.
if out=$(env -u GITHUB_REF_NAME -u GITHUB_REF_TYPE bash scripts/release-check.sh 2>&1); then
  pass "release-check passes on this tree ($out)"
else
  fail "release-check fails on this tree:"$'\n'"$out"
fi

# A fresh copy of the files release-check reads, for each case that breaks one of them.
fresh_copy() {
  rm -rf "$scratch/tree"
  mkdir -p "$scratch/tree/scripts" "$scratch/tree/python"
  cp Cargo.toml pyproject.toml action.yml .pre-commit-hooks.yaml README.md CHANGELOG.md "$scratch/tree/"
  cp python/pyproject.toml "$scratch/tree/python/"
  cp -R npm "$scratch/tree/npm"
  cp scripts/release-check.sh "$scratch/tree/scripts/"
}

# expect_mismatch NAME EXPECTED_LINE [ENV=VALUE ...]: release-check on the copy exits 1 and prints
# EXPECTED_LINE as one of its lines.
expect_mismatch() {
  local name=$1 expected=$2
  shift 2
  local out code
  out=$(cd "$scratch/tree" && env -u GITHUB_REF_NAME -u GITHUB_REF_TYPE "$@" bash scripts/release-check.sh 2>&1)
  code=$?
  if [ "$code" -eq 1 ] && grep -qxF -- "$expected" <<<"$out"; then
    pass "release-check: $name"
  else
    fail "release-check: $name: exit $code, wanted 1 and the line '$expected'; got:"$'\n'"$out"
  fi
}

other=9.8.7
fresh_copy
sed -i "0,/^version = \"$version\"/s//version = \"$other\"/" "$scratch/tree/Cargo.toml"
expect_mismatch "Cargo.toml bumped alone" \
  "pyproject.toml ([project] version): found $version, expected $other"

fresh_copy
sed -i "s/\"skilllint-rs==$version\"/\"skilllint-rs==$other\"/" "$scratch/tree/pyproject.toml"
expect_mismatch "the pre-commit package pins another wheel" \
  "pyproject.toml (skilllint-rs== dependency): found $other, expected $version"

fresh_copy
sed -i "s/\"@skilllint\/cli-linux-x64\": \"$version\"/\"@skilllint\/cli-linux-x64\": \"$other\"/" \
  "$scratch/tree/npm/skilllint/package.json"
expect_mismatch "an optionalDependencies version" \
  "npm/skilllint/package.json (optionalDependencies @skilllint/cli-linux-x64): found $other, expected $version"

fresh_copy
sed -i "s/\"version\": \"$version\"/\"version\": \"$other\"/" "$scratch/tree/npm/platforms/darwin-arm64/package.json"
expect_mismatch "a platform package's version" \
  "npm/platforms/darwin-arm64/package.json (version): found $other, expected $version"

fresh_copy
sed -i "s/^    default: \"$version\"/    default: \"$other\"/" "$scratch/tree/action.yml"
expect_mismatch "action.yml's version default" \
  "action.yml (inputs.version default): found $other, expected $version"

fresh_copy
sed -i "0,/rev: v$version/s//rev: v$other/" "$scratch/tree/README.md"
expect_mismatch "a README rev: example" "README.md (rev:): found $other, expected $version"

fresh_copy
sed -i "s/rev: v$version/rev: v$other/" "$scratch/tree/.pre-commit-hooks.yaml"
expect_mismatch "the .pre-commit-hooks.yaml comment" \
  ".pre-commit-hooks.yaml (rev:): found $other, expected $version"

fresh_copy
sed -i "0,/^dynamic = \[\"version\"\]/s//version = \"$other\"/" "$scratch/tree/python/pyproject.toml"
expect_mismatch "a version stated in python/pyproject.toml" \
  "python/pyproject.toml ([project] version): found $other, expected $version"

fresh_copy
sed -i 's/^## Unreleased/## Not yet/' "$scratch/tree/CHANGELOG.md"
expect_mismatch "CHANGELOG.md without Unreleased or the version" \
  "CHANGELOG.md: found no \`## $version\` or \`## Unreleased\` heading, expected one of them"

fresh_copy
expect_mismatch "a tag whose CHANGELOG has only Unreleased" \
  "CHANGELOG.md: found no \`## $version\` heading, expected \`## $version\` on tag v$version" \
  GITHUB_REF_TYPE=tag GITHUB_REF_NAME="v$version"
expect_mismatch "a tag that is not v<Cargo.toml version>" \
  "tag (GITHUB_REF_NAME): found v$other, expected v$version" GITHUB_REF_TYPE=tag GITHUB_REF_NAME="v$other"

fresh_copy
printf '# Changelog\n\n## %s\n\n- First release.\n' "$version" > "$scratch/tree/CHANGELOG.md"
if out=$(cd "$scratch/tree" && GITHUB_REF_TYPE=tag GITHUB_REF_NAME="v$version" bash scripts/release-check.sh 2>&1); then
  pass "release-check: a tag with its CHANGELOG heading passes"
else
  fail "release-check: a tag with its CHANGELOG heading fails:"$'\n'"$out"
fi

# --- the pre-commit package's build backend.
if out=$(python3 - "$version" "$scratch/wheels" <<'PY' 2>&1
import os
import sys
import zipfile

sys.path.insert(0, "python/shim_backend")
import skilllint_shim_backend as backend

version, out = sys.argv[1], sys.argv[2]
with open("pyproject.toml", encoding="utf-8") as file:
    text = file.read()
if backend.tomllib is not None and backend._read_project(text) != backend._read_project(text, use_tomllib=False):
    sys.exit("tomllib and the fallback reader disagree on pyproject.toml")
os.makedirs(out)
for use_tomllib in (True, False):
    saved = backend.tomllib
    if not use_tomllib:
        backend.tomllib = None
    name = backend.build_wheel(out)
    backend.tomllib = saved
    with zipfile.ZipFile(os.path.join(out, name)) as wheel:
        metadata = wheel.read("skilllint_pre_commit-%s.dist-info/METADATA" % version).decode()
    wanted = "Requires-Dist: skilllint-rs==" + version
    if wanted not in metadata.splitlines():
        sys.exit("%s lacks %r:\n%s" % (name, wanted, metadata))
print(name)
PY
); then
  pass "the pre-commit package's wheel pins skilllint-rs==$version ($out)"
else
  fail "the pre-commit package's wheel:"$'\n'"$out"
fi

# --- the npm launcher without its platform package.
if command -v node >/dev/null 2>&1; then
  mkdir -p "$scratch/launcher"
  cp -R npm/skilllint "$scratch/launcher/"
  out=$(node "$scratch/launcher/skilllint/bin/skilllint.js" --version 2>&1)
  code=$?
  # shellcheck disable=SC2016 # JavaScript template literals, not shell expansions
  wanted=$(node -e 'const k = `${process.platform} ${process.arch}`; const m = {"darwin arm64": 1, "darwin x64": 1, "linux arm64": 1, "linux x64": 1, "win32 x64": 1}; console.log(m[k] ? `@skilllint/cli-${process.platform}-${process.arch} is not installed` : `no prebuilt binary for ${k}`)')
  if [ "$code" -eq 2 ] && grep -qF -- "$wanted" <<<"$out"; then
    pass "the npm launcher without its platform package exits 2 and says '$wanted'"
  else
    fail "the npm launcher without its platform package: exit $code, wanted 2 and '$wanted'; got: $out"
  fi
else
  skip "the npm launcher (no node on PATH)"
fi

# --- no expression inside run: (it would expand into the script: template injection).
if python3 -c 'import yaml' >/dev/null 2>&1; then
  if out=$(python3 - action.yml .github/workflows/*.yml <<'PY' 2>&1
import sys

import yaml

bad = []
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as file:
        document = yaml.safe_load(file)
    steps = list(document.get("runs", {}).get("steps", []))
    for job in (document.get("jobs") or {}).values():
        steps.extend(job.get("steps", []))
    bad.extend("%s: %s" % (path, step.get("name", step["run"][:40])) for step in steps if "${{" in step.get("run", ""))
if bad:
    sys.exit("\n".join(bad))
print(len(sys.argv) - 1)
PY
  ); then
    pass "no \${{ }} inside run: in action.yml and the workflows ($out files)"
  else
    fail "\${{ }} inside run::"$'\n'"$out"
  fi
else
  skip "\${{ }} inside run: (no PyYAML for python3)"
fi

echo "packaging: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
