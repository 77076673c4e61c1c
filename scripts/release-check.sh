#!/usr/bin/env bash
# Checks that every place that states skilllint's version states the one in Cargo.toml:
#
#   pyproject.toml            the pre-commit package's version and its `skilllint-rs==` pin
#   python/pyproject.toml     the wheel's version, if it states one (else maturin takes Cargo.toml's)
#   npm/**/package.json       every package's version and the launcher's optionalDependencies
#   action.yml                the `version` input's default (the wheel the action installs)
#   .pre-commit-hooks.yaml    `rev: v<version>` and `skilllint-rs==<version>` in its comments
#   README.md                 `rev: v<version>`, `skilllint/skilllint@v<version>`, `skilllint-rs==<version>`
#   CHANGELOG.md              an `## <version>` heading, or `## Unreleased` on an untagged tree
#
# On a tag (GITHUB_REF_TYPE=tag, or GITHUB_REF_NAME=v<something> when GITHUB_REF_TYPE is unset, as
# in a local run) the tag must be `v<version>` and CHANGELOG.md must have the `## <version>` heading.
# Each mismatch is printed as `file: found X, expected Y`; the exit code is 1 if there is any.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PY'
import glob
import json
import os
import re
import sys

problems = []
checked = 0


def read(path):
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except OSError as error:
        problems.append("%s: cannot read (%s)" % (path, error.strerror))
        return None


def expect(path, found, expected, what=""):
    global checked
    checked += 1
    if found != expected:
        label = "%s (%s)" % (path, what) if what else path
        problems.append("%s: found %s, expected %s" % (label, found, expected))


def toml_table(text, table):
    """The body of `[table]` in a TOML file, up to the next table header."""
    match = re.search(r"^\[%s\][ \t]*$(.*?)(?=^\[|\Z)" % re.escape(table), text, re.M | re.S)
    return match.group(1) if match else None


def toml_string(body, key):
    match = re.search(r'^%s[ \t]*=[ \t]*"([^"]*)"' % re.escape(key), body or "", re.M)
    return match.group(1) if match else None


cargo = read("Cargo.toml")
version = toml_string(toml_table(cargo or "", "package"), "version")
if version is None:
    print("Cargo.toml: no version in [package]")
    sys.exit(1)

# The pre-commit package at the root.
shim = read("pyproject.toml")
if shim is not None:
    project = toml_table(shim, "project")
    expect("pyproject.toml", toml_string(project, "version"), version, "[project] version")
    pins = re.findall(r'"skilllint-rs\s*==\s*([^";\s]+)', project or "")
    if not pins:
        problems.append("pyproject.toml: found no skilllint-rs== dependency, expected skilllint-rs==%s" % version)
    for pin in pins:
        expect("pyproject.toml", pin, version, "skilllint-rs== dependency")

# The maturin project: a stated version must agree; `dynamic = ["version"]` takes Cargo.toml's.
wheel = read("python/pyproject.toml")
if wheel is not None:
    stated = toml_string(toml_table(wheel, "project"), "version")
    if stated is not None:
        expect("python/pyproject.toml", stated, version, "[project] version")

# npm: every package, and the versions the launcher asks for.
manifests = sorted(glob.glob("npm/**/package.json", recursive=True))
if not manifests:
    problems.append("npm: found no package.json, expected npm/skilllint/package.json")
for path in manifests:
    if "/node_modules/" in path:
        continue
    try:
        manifest = json.loads(read(path) or "{}")
    except ValueError as error:
        problems.append("%s: not valid JSON (%s)" % (path, error))
        continue
    expect(path, manifest.get("version"), version, "version")
    for name, wanted in sorted(manifest.get("optionalDependencies", {}).items()):
        expect(path, wanted, version, "optionalDependencies " + name)

# action.yml: the default of the `version` input.
action = read("action.yml")
if action is not None:
    match = re.search(r'^  version:\n(?:    .*\n)*?    default:[ \t]*["\']?([^"\'\n]*)', action, re.M)
    expect("action.yml", match.group(1).strip() if match else None, version, "inputs.version default")


def mentions(path, text):
    patterns = (
        (r"rev:[ \t]*v(\d[^\s\"'#]*)", "rev:"),
        (r"skilllint/skilllint@v(\d[^\s\"'#]*)", "uses: skilllint/skilllint@"),
        (r"skilllint-rs==(\d[^\s\"'`]*)", "skilllint-rs=="),
    )
    for pattern, what in patterns:
        for found in re.findall(pattern, text):
            expect(path, found, version, what)


for path in (".pre-commit-hooks.yaml", "README.md"):
    text = read(path)
    if text is not None:
        mentions(path, text)

# CHANGELOG.md and the tag.
ref_type = os.environ.get("GITHUB_REF_TYPE", "")
ref_name = os.environ.get("GITHUB_REF_NAME", "")
tagged = ref_type == "tag" or (not ref_type and re.match(r"v\d", ref_name) is not None)
if tagged:
    expect("tag (GITHUB_REF_NAME)", ref_name, "v" + version)
changelog = read("CHANGELOG.md")
if changelog is not None:
    headings = re.findall(r"^## \[?([^\]\s]+)\]?", changelog, re.M)
    if version in headings:
        checked += 1
    elif tagged:
        expect("CHANGELOG.md", "no `## %s` heading" % version, "`## %s` on tag %s" % (version, ref_name))
    elif "Unreleased" in headings:
        checked += 1
    else:
        expect("CHANGELOG.md", "no `## %s` or `## Unreleased` heading" % version, "one of them")

for problem in problems:
    print(problem)
if problems:
    print("release-check: %d mismatch(es) with version %s from Cargo.toml" % (len(problems), version))
    sys.exit(1)
print("release-check: version %s agrees in %d places" % (version, checked))
PY
