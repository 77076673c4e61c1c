#!/usr/bin/env bash
# Runs the `run:` steps of action.yml on this machine the way the runner would, to check the
# action's install and lint steps without pushing anything:
#
#   scripts/action-local.sh [--wheels DIR | --skilllint BINARY] [--input NAME=VALUE ...]
#
# --wheels DIR makes pip install skilllint-rs from DIR only (PIP_FIND_LINKS + PIP_NO_INDEX), e.g.
# the folder `maturin build --release --out DIR` wrote to. --skilllint BINARY skips the install
# step and runs BINARY (a build of this checkout, for testing the other steps). The action is run
# from this checkout (GITHUB_ACTION_PATH) with the workspace set to the current directory; inputs
# take action.yml's defaults unless given. A step's `working-directory` is honoured; the job
# summary ($GITHUB_STEP_SUMMARY) is printed at the end. Steps that `uses:` another action (the
# SARIF upload) are listed and skipped. Each step's time is printed. Needs Python 3 with PyYAML.
#
# Example, the same inputs as .github/workflows/skilllint.yml, without the upload:
#   scripts/action-local.sh --wheels target/wheels \
#     --input path=tests/fixtures --input args=--exit-zero --input upload=false
set -euo pipefail
action_path=$(cd "$(dirname "$0")/.." && pwd)
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --wheels)
      export PIP_FIND_LINKS
      PIP_FIND_LINKS=$(cd "$2" && pwd)
      export PIP_NO_INDEX=1
      shift 2
      ;;
    --skilllint)
      export ACTION_LOCAL_SKILLLINT
      ACTION_LOCAL_SKILLLINT=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
      shift 2
      ;;
    --input) args+=("$2"); shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "action-local.sh: unexpected argument '$1'" >&2; exit 2 ;;
  esac
done
exec "${PYTHON:-python3}" - "$action_path" "${args[@]}" <<'PY'
import os
import re
import subprocess
import sys
import tempfile
import time

try:
    import yaml
except ImportError:
    sys.exit("action-local.sh: needs PyYAML (pip install pyyaml)")

action_path = sys.argv[1]
with open(os.path.join(action_path, "action.yml"), encoding="utf-8") as file:
    action = yaml.safe_load(file)

inputs = {name: str(spec.get("default", "")) for name, spec in action.get("inputs", {}).items()}
for assignment in sys.argv[2:]:
    name, sep, value = assignment.partition("=")
    if not sep or name not in inputs:
        sys.exit("action-local.sh: unknown input %r (action.yml has %s)" % (name, ", ".join(inputs)))
    inputs[name] = value

runner_temp = tempfile.mkdtemp(prefix="skilllint-action-")
outputs = {}  # step id -> {key: value}
outcomes = {}  # step id -> "success" / "failure"


def event_value(path):
    """`github.event.…` from the event payload at $GITHUB_EVENT_PATH, "" when absent."""
    event_path = os.environ.get("GITHUB_EVENT_PATH")
    if not event_path:
        return ""
    import json
    with open(event_path, encoding="utf-8") as file:
        value = json.load(file)
    for key in path.split("."):
        if not isinstance(value, dict) or key not in value:
            return ""
        value = value[key]
    return "" if value is None else str(value)


def context(expression):
    expression = expression.strip()
    if expression.startswith("inputs."):
        # A default may itself be an expression (`${{ github.event… }}`).
        return substitute(inputs[expression[len("inputs."):]])
    if expression.startswith("github.event."):
        return event_value(expression[len("github.event."):])
    if expression == "runner.temp":
        return runner_temp
    match = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expression)
    if match:
        return outputs.get(match.group(1), {}).get(match.group(2), "")
    match = re.fullmatch(r"steps\.([\w-]+)\.outcome", expression)
    if match:
        return outcomes.get(match.group(1), "")
    sys.exit("action-local.sh: cannot evaluate ${{ %s }}" % expression)


def substitute(value):
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: context(m.group(1)), str(value))


def condition(text):
    """The `if:` forms action.yml uses: `A == 'v'` and `A != 'v'` terms joined by &&, and
    always()."""
    for term in text.split("&&"):
        term = term.strip()
        if term == "always()":
            continue
        match = re.fullmatch(r"([\w.-]+)\s*(==|!=)\s*'([^']*)'", term)
        if not match:
            sys.exit("action-local.sh: cannot evaluate if: %s" % text)
        if (context(match.group(1)) == match.group(3)) != (match.group(2) == "=="):
            return False
    return True


summary_file = os.path.join(runner_temp, "step-summary.md")
open(summary_file, "w").close()
environment = dict(os.environ)
environment.update(
    GITHUB_ACTION_PATH=action_path,
    GITHUB_WORKSPACE=os.getcwd(),
    GITHUB_STEP_SUMMARY=summary_file,
    RUNNER_TEMP=runner_temp,
)
binary = os.environ.get("ACTION_LOCAL_SKILLLINT")
status = 0
for number, step in enumerate(action["runs"]["steps"], 1):
    name = step.get("name", "step %d" % number)
    if "if" in step and not condition(str(step["if"])):
        print("== %s: skipped (if: %s)" % (name, step["if"]), flush=True)
        continue
    if binary and step.get("id") == "install":
        print("== %s: skipped (--skilllint %s)" % (name, binary), flush=True)
        outputs["install"] = {"binary": binary}
        outcomes["install"] = "success"
        continue
    if "uses" in step:
        print("== %s: skipped here (uses: %s)" % (name, step["uses"]), flush=True)
        continue
    output_file = os.path.join(runner_temp, "output-%d" % number)
    open(output_file, "w").close()
    step_environment = dict(environment, GITHUB_OUTPUT=output_file)
    step_environment.update({key: substitute(value) for key, value in step.get("env", {}).items()})
    script = os.path.join(runner_temp, "step-%d.sh" % number)
    if "${{" in step["run"]:
        # Expressions expand into the script text before bash sees it: a template injection.
        sys.exit("action-local.sh: step %r has ${{ }} inside run:; pass it through env:" % name)
    with open(script, "w", encoding="utf-8") as file:
        file.write(step["run"])
    print("== %s" % name, flush=True)
    started = time.monotonic()
    # The runner's command line for `shell: bash`.
    cwd = os.path.join(os.getcwd(), substitute(step.get("working-directory", ".")))
    code = subprocess.call(["bash", "--noprofile", "--norc", "-eo", "pipefail", script], env=step_environment, cwd=cwd)
    print("== %s: exit %d in %.1f s" % (name, code, time.monotonic() - started), flush=True)
    step_outputs = {}
    with open(output_file, encoding="utf-8") as file:
        for line in file:
            key, sep, value = line.rstrip("\n").partition("=")
            if sep:
                step_outputs[key] = value
    if "id" in step:
        outputs[step["id"]] = step_outputs
        outcomes[step["id"]] = "success" if code == 0 else "failure"
    if code != 0:
        status = code
        break
print("outputs: %s" % {key: value for key, value in sorted(outputs.items())})
with open(summary_file, encoding="utf-8") as file:
    summary = file.read()
if summary:
    print("== job summary ($GITHUB_STEP_SUMMARY)\n" + summary, end="" if summary.endswith("\n") else "\n")
sys.exit(status)
PY
