#!/usr/bin/env python3
"""The GitHub Actions job summary for a skilllint SARIF log (run by action.yml).

    scripts/action-summary.py SARIF [--limit N] >> "$GITHUB_STEP_SUMMARY"

Writes Markdown: the findings counted by severity and by rule, then the first N findings
(default 20, errors first) with a link to the line at the commit when GITHUB_SERVER_URL,
GITHUB_REPOSITORY and GITHUB_SHA are set. Results the baseline hides or a comment suppresses are
counted, not listed. Messages quote the repository that was linted, so every character Markdown
or HTML would act on is escaped: a finding cannot add a link, an image or markup to the summary.
"""
import json
import os
import sys
import urllib.parse

LEVELS = {"error": "error", "warning": "warning", "note": "info"}
ORDER = {"error": 0, "warning": 1, "note": 2}


def escape(text):
    """Plain text for a Markdown table cell: no markup, no HTML, one line."""
    out = []
    for char in " ".join(str(text).split()):
        if char in "\\`*_{}[]()<>#!|~&$":
            out.append("&#%d;" % ord(char))
        else:
            out.append(char)
    return "".join(out)


def plural(count, word):
    return "%d %s%s" % (count, word, "" if count == 1 else "s")


def main(argv):
    limit = 20
    args = list(argv)
    if "--limit" in args:
        at = args.index("--limit")
        limit = int(args[at + 1])
        del args[at : at + 2]
    if len(args) != 1:
        sys.exit("usage: action-summary.py SARIF [--limit N]")
    with open(args[0], encoding="utf-8") as file:
        log = json.load(file)
    run = (log.get("runs") or [{}])[0]
    rules = {r.get("id"): r.get("name", "") for r in run.get("tool", {}).get("driver", {}).get("rules", [])}
    shown, hidden, suppressed = [], 0, 0
    for result in run.get("results", []):
        kinds = [s.get("kind") for s in result.get("suppressions", [])]
        if "external" in kinds:
            hidden += 1
        elif kinds:
            suppressed += 1
        else:
            shown.append(result)
    server = os.environ.get("GITHUB_SERVER_URL", "").rstrip("/")
    repository = os.environ.get("GITHUB_REPOSITORY", "")
    sha = os.environ.get("GITHUB_SHA", "")

    by_level = {}
    by_rule = {}
    for result in shown:
        level = result.get("level", "warning")
        by_level[level] = by_level.get(level, 0) + 1
        rule = result.get("ruleId", "")
        by_rule[rule] = by_rule.get(rule, 0) + 1

    lines = []
    if shown:
        counts = ", ".join(
            plural(by_level[level], LEVELS.get(level, level))
            for level in sorted(by_level, key=lambda l: ORDER.get(l, 3))
        )
        lines.append("### skilllint: %s" % counts)
    else:
        lines.append("### skilllint: no findings")
    quiet = []
    if hidden:
        quiet.append("%s hidden by the baseline" % plural(hidden, "finding"))
    if suppressed:
        quiet.append("%s suppressed inline" % plural(suppressed, "finding"))
    if quiet:
        lines.append("")
        lines.append("; ".join(quiet).capitalize() + ".")
    if not shown:
        print("\n".join(lines))
        return
    lines += ["", "| Rule | Name | Findings |", "|---|---|---:|"]
    for rule, count in sorted(by_rule.items(), key=lambda item: (-item[1], item[0])):
        lines.append("| %s | %s | %d |" % (escape(rule), escape(rules.get(rule, "")), count))
    first = sorted(
        shown,
        key=lambda r: (ORDER.get(r.get("level"), 3), location(r)[0], location(r)[1]),
    )[:limit]
    lines += ["", "| | Rule | Finding | Where |", "|---|---|---|---|"]
    for result in first:
        uri, line = location(result)
        where = escape("%s:%d" % (urllib.parse.unquote(uri), line)) if uri else ""
        if uri and server and repository and sha and "://" not in uri:
            link = "%s/%s/blob/%s/%s#L%d" % (server, repository, sha, uri, line)
            where = "[%s](%s)" % (where, link.replace(")", "%29").replace(" ", "%20"))
        lines.append(
            "| %s | %s | %s | %s |"
            % (
                LEVELS.get(result.get("level"), "warning"),
                escape(result.get("ruleId", "")),
                escape(result.get("message", {}).get("text", "")),
                where,
            )
        )
    if len(shown) > limit:
        lines.append("")
        lines.append(
            "%s more in the SARIF report and the code scanning alerts."
            % plural(len(shown) - limit, "finding")
        )
    print("\n".join(lines))


def location(result):
    """(uri relative to the repository, start line) of a result's first location."""
    try:
        physical = result["locations"][0]["physicalLocation"]
        return physical["artifactLocation"]["uri"], int(physical.get("region", {}).get("startLine", 1))
    except (KeyError, IndexError, TypeError, ValueError):
        return "", 0


if __name__ == "__main__":
    main(sys.argv[1:])
