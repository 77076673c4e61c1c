#!/usr/bin/env bash
# `--format junit` against the JUnit XML Schema (tests/data/junit-10.xsd, Jenkins' xUnit plugin's)
# with xmllint: the multi-file formats fixture, a run without findings, and every rule's `fires`
# fixture with its findings. xmllint comes with libxml2-utils, installed here when this runs as root
# with apt; without it the check is skipped, saying so. (`--format gitlab` is validated against
# GitLab's schema by tests/formats.rs, in the test suite.)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v xmllint >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libxml2-utils) >/dev/null 2>&1 ||
    echo "check-report-schemas: could not install libxml2-utils with apt"
fi
if ! command -v xmllint >/dev/null; then
  echo "check-report-schemas: xmllint is not installed (and cannot be installed here); JUnit schema validation skipped"
  exit 0
fi
cargo build --locked --quiet
bin=target/debug/skilllint
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
report() { # report NAME PATH [FLAGS]: the JUnit report of a run, findings or not
  local name=$1 path=$2 status=0
  shift 2
  "$bin" "$path" --format junit -o "$out/$name.xml" --quiet "$@" || status=$?
  [ "$status" -le 1 ] || { echo "skilllint exited $status on $path" >&2; exit 1; }
}
report formats tests/formats
clean=$(find tests/fixtures -mindepth 2 -maxdepth 2 -name clean -type d | sort | head -n 1)
report clean "$clean" --select "$(basename "$(dirname "$clean")")" --isolated
for fires in tests/fixtures/*/fires; do
  code=$(basename "$(dirname "$fires")")
  report "fires-$code" "$fires" --select ALL --isolated
done
grep -q '<testcase name="no findings"' "$out/clean.xml" || { echo "a clean run is not one passing test case" >&2; exit 1; }
count=$(find "$out" -name '*.xml' | wc -l)
xmllint --noout --schema tests/data/junit-10.xsd "$out"/*.xml 2>"$out/xmllint.log" || {
  grep -v ' validates$' "$out/xmllint.log" >&2
  exit 1
}
# The check can fail: a report without a suite's required `tests` count is refused.
sed 's/<testsuite name="\([^"]*\)" tests="[0-9]*"/<testsuite name="\1"/' "$out/formats.xml" >"$out/broken.xml.bad"
if xmllint --noout --schema tests/data/junit-10.xsd "$out/broken.xml.bad" 2>/dev/null; then
  echo "xmllint accepted a JUnit report without its tests count" >&2
  exit 1
fi
echo "check-report-schemas: $count JUnit reports valid against tests/data/junit-10.xsd"
