#!/usr/bin/env bash
# Latency of `skilllint server` on a large repository: the time from a didChange of one tools.json
# to the publishDiagnostics of that file (no debounce timer: the server lints as soon as its input
# is drained), median and p95 over EDITS edits, and the server's memory after them.
#   scripts/bench-server.sh                 corpus: /tmp/corpus5000, else a generated 5,000-skill one
#   CORPUS=/path/to/repo EDITS=100 scripts/bench-server.sh
#   EDIT_FILE=group-000/.tools/x/TOOL.md scripts/bench-server.sh   one letter in and out of that
#                                           file's last line instead (a TOOL.md relints every unit)
# The edits alternate between stripping a write tool's confirmation gate (TJ003 appears), putting
# it back (TJ003 goes) and rewording a description (nothing changes), sent as incremental
# changes of one range, as editors send keystrokes.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
corpus=${CORPUS:-/tmp/corpus5000}
if [ ! -d "$corpus" ]; then
  cargo build --release --quiet --example gen_corpus
  corpus=$(mktemp -d)/corpus5000
  target/release/examples/gen_corpus 5000 "$corpus" >/dev/null
fi
exec python3 - "$PWD/target/release/skilllint" "$corpus" "${EDITS:-100}" "${EDIT_FILE:-}" <<'PY'
import json, os, queue, statistics, subprocess, sys, threading, time

binary, corpus, edits = sys.argv[1], os.path.realpath(sys.argv[2]), int(sys.argv[3])
edit_file = sys.argv[4]
server = subprocess.Popen([binary, "server"], cwd=corpus, stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
incoming = queue.Queue()

def read():
    out = server.stdout
    while True:
        length = None
        while True:
            line = out.readline()
            if not line:
                return
            line = line.strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        incoming.put((time.perf_counter(), json.loads(out.read(length))))

threading.Thread(target=read, daemon=True).start()

def send(message):
    body = json.dumps(message).encode()
    server.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    server.stdin.flush()

def wait(match, timeout=120):
    deadline = time.perf_counter() + timeout
    while True:
        at, message = incoming.get(timeout=max(0.1, deadline - time.perf_counter()))
        if match(message):
            return at, message

def uri(path):
    return "file://" + path

started = time.perf_counter()
send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
      "params": {"processId": None, "capabilities": {},
                 "workspaceFolders": [{"uri": uri(corpus), "name": "corpus"}]}})
wait(lambda m: m.get("id") == 1)
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
# A request is answered after the pending lint: the folder's first lint is done then.
send({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
      "params": {"textDocument": {"uri": uri(corpus + "/x")}, "position": {"line": 0, "character": 0}}})
wait(lambda m: m.get("id") == 2)
first_lint = time.perf_counter() - started

tools = os.path.join(corpus, edit_file) if edit_file else None
for dirpath, dirnames, filenames in sorted(os.walk(corpus)):
    dirnames.sort()
    if tools:
        break
    if "tools.json" in filenames:
        candidate = os.path.join(dirpath, "tools.json")
        if '"requiresConfirmation": true' in open(candidate).read():
            tools = candidate
            break
if tools is None:
    sys.exit("no tools.json with a confirmation gate in " + corpus)
text = open(tools).read()
target = uri(tools)
send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
      "params": {"textDocument": {"uri": target, "languageId": "json", "version": 1, "text": text}}})
wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == target)

if edit_file:
    # Only the one-letter edits, at the start of the last line.
    gate = None
    word = text.rstrip("\n").rfind("\n") + 1
else:
    gate = text.index('"requiresConfirmation": true') + len('"requiresConfirmation": ')
    line = text.count("\n", 0, gate)
    column = gate - (text.rfind("\n", 0, gate) + 1)
    word = text.index('"description": "') + len('"description": "')
word_line = text.count("\n", 0, word)
word_column = word - (text.rfind("\n", 0, word) + 1)
latencies, codes_seen, gated, inserted = [], set(), True, False
for version in range(2, edits + 2):
    step = version % 3 if gate is not None else 2
    if step == 0:   # strip the gate
        change = {"range": {"start": {"line": line, "character": column},
                            "end": {"line": line, "character": column + 4}}, "text": "false"}
        gated = False
    elif step == 1 and not gated:   # put it back
        change = {"range": {"start": {"line": line, "character": column},
                            "end": {"line": line, "character": column + 5}}, "text": "true"}
        gated = True
    else:   # reword: one letter in, or out again
        position = {"line": word_line, "character": word_column}
        if not inserted:
            change = {"range": {"start": position, "end": position}, "text": "A"}
        else:
            change = {"range": {"start": position,
                                "end": {"line": word_line, "character": word_column + 1}}, "text": ""}
        inserted = not inserted
    sent = time.perf_counter()
    send({"jsonrpc": "2.0", "method": "textDocument/didChange",
          "params": {"textDocument": {"uri": target, "version": version}, "contentChanges": [change]}})
    at, message = wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                       and m["params"]["uri"] == target)
    latencies.append((at - sent) * 1000)
    codes_seen.update(d.get("code") for d in message["params"]["diagnostics"])

rss = hwm = "?"
with open("/proc/%d/status" % server.pid) as status:
    for row in status:
        if row.startswith("VmRSS:"):
            rss = "%.1f MB" % (int(row.split()[1]) / 1024)
        if row.startswith("VmHWM:"):
            hwm = "%.1f MB" % (int(row.split()[1]) / 1024)
send({"jsonrpc": "2.0", "id": 3, "method": "shutdown", "params": None})
wait(lambda m: m.get("id") == 3)
send({"jsonrpc": "2.0", "method": "exit", "params": None})
server.wait(timeout=30)

latencies.sort()
p95 = latencies[max(0, int(round(0.95 * len(latencies))) - 1)]
files = sum(len(f) for _, _, f in os.walk(corpus))
print("corpus: %s (%d files); edited: %s" % (corpus, files, os.path.relpath(tools, corpus)))
print("first lint of the folder (initialize to first answer): %.0f ms" % (first_lint * 1000))
print("didChange -> publishDiagnostics over %d edits: median %.1f ms, p95 %.1f ms, max %.1f ms"
      % (len(latencies), statistics.median(latencies), p95, latencies[-1]))
print("codes published for the edited file: %s" % (", ".join(sorted(c for c in codes_seen if c)) or "none"))
print("server memory after the edits: RSS %s, peak %s" % (rss, hwm))
PY
