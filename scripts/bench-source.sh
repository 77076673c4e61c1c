#!/usr/bin/env bash
# Times reading tools from source code on a generated monorepo: FILES source files
# (TypeScript, Python and Go, 2% of them registering MCP tools), `skilllint DIR` against a plain
# text search of the same tree (`rg -c <absent word>`, or `grep -rc` where rg is not installed),
# with peak memory.
#
#   scripts/bench-source.sh [SKILLLINT] [FILES] [DIR]
#
# SKILLLINT defaults to target/release/skilllint, FILES to 20000, DIR to a new temporary folder.
set -euo pipefail

bin=${1:-target/release/skilllint}
files=${2:-20000}
dir=${3:-$(mktemp -d)}

python3 - "$dir" "$files" <<'PY'
import os, sys
root, total = sys.argv[1], int(sys.argv[2])
plain_ts = """import {{ readFile }} from "fs/promises";
import path from "path";

export interface Options {{ root: string; depth: number; }}

export async function load{n}(options: Options): Promise<string[]> {{
  const file = path.join(options.root, "data-{n}.json");
  const text = await readFile(file, "utf8");
  return text.split("\\n").filter((line) => line.length > 0).slice(0, options.depth);
}}
""" + "\n".join(f"export const constant{i} = {i} * 2;" for i in range(40)) + "\n"
plain_py = """import json
import os


def load_{n}(root: str, depth: int = 3) -> list:
    \"\"\"Loads the data file {n}.\"\"\"
    with open(os.path.join(root, "data-{n}.json")) as handle:
        return json.load(handle)[:depth]
""" + "\n".join(f"CONSTANT_{i} = {i} * 2" for i in range(40)) + "\n"
plain_go = """package pkg{n}

import "strings"

func Split{n}(text string) []string {{
	return strings.Split(text, "\\n")
}}
""" + "\n".join(f"const Constant{i} = {i} * 2" for i in range(40)) + "\n"
tool_ts = """import {{ McpServer }} from "@modelcontextprotocol/sdk/server/mcp.js";
import {{ z }} from "zod";
import fs from "fs/promises";

const server = new McpServer({{ name: "svc-{n}", version: "1.0.0" }});

server.registerTool(
  "remove_item_{n}",
  {{
    description: "Removes an item of service {n}.",
    inputSchema: {{ id: z.string().max(64).describe("Item id") }},
    annotations: {{ readOnlyHint: false, destructiveHint: true }},
  }},
  async ({{ id }}) => {{
    await fs.rm(`items/${{id}}`);
    return {{ content: [] }};
  }}
);

server.tool("list_items_{n}", "Lists the items.", {{ limit: z.number().int().max(100) }}, {{ readOnlyHint: true }}, async () => ({{ content: [] }}));
"""
tool_py = """from typing import Annotated

from mcp.server.fastmcp import FastMCP
from pydantic import Field

mcp = FastMCP("svc-{n}")


@mcp.tool()
def count_items_{n}(kind: Annotated[str, Field(description="Kind", max_length=40)], limit: int = 10) -> int:
    \"\"\"Counts the items of a kind.\"\"\"
    return limit
"""
for i in range(total):
    folder = os.path.join(root, f"pkg{i // 200}", f"mod{i // 20}")
    os.makedirs(folder, exist_ok=True)
    tool = i % 50 == 0
    kind = i % 5
    if tool and i % 100 == 0:
        name, text = f"server{i}.ts", tool_ts.format(n=i)
    elif tool:
        name, text = f"server{i}.py", tool_py.format(n=i)
    elif kind < 2:
        name, text = f"file{i}.ts", plain_ts.format(n=i)
    elif kind < 4:
        name, text = f"file{i}.py", plain_py.format(n=i)
    else:
        name, text = f"file{i}.go", plain_go.format(n=i)
    with open(os.path.join(folder, name), "w") as out:
        out.write(text)
PY

echo "tree: $dir ($files files, $(du -sh "$dir" | cut -f1))"
measure() {
    local label=$1
    shift
    local best=""
    for _ in 1 2 3; do
        local start end
        start=$(date +%s%N)
        "$@" > /dev/null 2>&1 || true
        end=$(date +%s%N)
        local ms=$(((end - start) / 1000000))
        if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
    done
    local rss
    local report
    report=$(mktemp)
    /usr/bin/time -v -o "$report" "$@" > /dev/null 2>&1 || true
    rss=$(awk -F': ' '/Maximum resident/ {print $2}' "$report")
    rm -f "$report"
    echo "$label: best of 3 ${best} ms, peak ${rss:-?} KB"
}
if command -v rg > /dev/null; then
    measure "rg -c" rg -c zzq_absent_word_qzz "$dir"
else
    measure "grep -rc (rg not installed)" grep -rc zzq_absent_word_qzz "$dir"
fi
measure "skilllint" "$bin" "$dir"
measure "skilllint tools" "$bin" tools "$dir"
echo "tools found: $("$bin" tools --format json "$dir" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["tools"]))')"
