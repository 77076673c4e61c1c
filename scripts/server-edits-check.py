#!/usr/bin/env python3
"""Random edits through `skilllint server`, checked against the command line.

    scripts/server-edits-check.py BINARY REPOSITORY [SEED] [EDITS]

Copies REPOSITORY to a temporary folder, starts `BINARY server` on the copy, opens six files it
reads and sends EDITS (default 200) random incremental changes to them (letters, line breaks,
JSON and YAML punctuation, non-ASCII), then writes the edited texts into the copy and compares the
diagnostics the server last published for every file with `BINARY --format json` there: code,
message and range (UTF-16, from the report's byte offsets). The hints the server adds where a
finding's label points into another file are left out. Exits 1 when a file differs.
"""
import json, os, queue, random, shutil, subprocess, sys, tempfile, threading
from urllib.parse import unquote
if len(sys.argv) < 3:
    sys.exit(__doc__)
binary, src = os.path.realpath(sys.argv[1]), sys.argv[2]
seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
edits = int(sys.argv[4]) if len(sys.argv) > 4 else 200
rnd = random.Random(seed)
work = tempfile.mkdtemp(); root = os.path.join(work, "repo"); shutil.copytree(src, root, symlinks=True)
root = os.path.realpath(root)
srv = subprocess.Popen([binary, "server"], cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
q = queue.Queue()
def reader():
    while True:
        n = None
        while True:
            l = srv.stdout.readline()
            if not l: return
            l = l.strip()
            if not l: break
            if l.lower().startswith(b"content-length:"): n = int(l.split(b":")[1])
        q.put(json.loads(srv.stdout.read(n)))
threading.Thread(target=reader, daemon=True).start()
def send(m):
    b = json.dumps(m).encode(); srv.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(b), b)); srv.stdin.flush()
latest = {}
def drain_until(i):
    while True:
        m = q.get(timeout=120)
        if m.get("method") == "textDocument/publishDiagnostics":
            latest[m["params"]["uri"]] = m["params"]["diagnostics"]
        if m.get("id") == i: return m
send({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":None,"capabilities":{},"workspaceFolders":[{"uri":"file://"+root,"name":"r"}]}})
drain_until(1); send({"jsonrpc":"2.0","method":"initialized","params":{}})
names = ("SKILL.md", "tools.json", "requirement.yaml", "TOOL.md", "DRIVER.md", "SECRETS.md")
files = sorted(os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs if f in names or f.endswith(".tools.json"))
files = [f for f in files if not os.path.islink(os.path.join(root, f))]
texts = {}
for rel in rnd.sample(files, min(6, len(files))):
    t = open(os.path.join(root, rel), encoding="utf-8", errors="strict", newline="").read()
    texts[rel] = t
    send({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file://"+os.path.join(root, rel),"languageId":"x","version":1,"text":t}}})
import re
BREAK = re.compile("\r\n|\r|\n")
def utf16(t, off):
    # Lines end at \r\n, \r or \n, as the protocol counts them; columns are UTF-16 units.
    b = t[:off]; breaks = list(BREAK.finditer(b))
    if b.endswith("\r") and t[off:off + 1] == "\n":
        breaks = breaks[:-1]
    col = b[breaks[-1].end():] if breaks else b
    return {"line": len(breaks), "character": sum(2 if ord(c) > 0xFFFF else 1 for c in col)}
pieces = ["", "x", "\n", "\r\n", "\r", "- `create_event` needs confirmation\n", '"', "{", "}", ",", ":", "true", "false", "---\n", "requiresConfirmation", "type: write\n", "é", "𝄞"]
for v in range(edits):
    rel = rnd.choice(list(texts)); t = texts[rel]
    a = rnd.randrange(len(t) + 1); b = min(len(t), a + rnd.choice([0, 0, 1, 3, 20]))
    # No position falls between the \r and \n of a line break: the protocol cannot name it.
    inside = lambda i: 0 < i < len(t) and t[i - 1] == "\r" and t[i] == "\n"
    a, b = a - inside(a), b - inside(b)
    b = max(a, b)
    new = rnd.choice(pieces)
    change = {"range": {"start": utf16(t, a), "end": utf16(t, b)}, "text": new}
    texts[rel] = t[:a] + new + t[b:]
    send({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file://"+os.path.join(root, rel),"version":v+2},"contentChanges":[change]}})
    if rnd.random() < 0.3:
        send({"jsonrpc":"2.0","id":1000+v,"method":"textDocument/hover","params":{"textDocument":{"uri":"file://"+os.path.join(root, rel)},"position":utf16(texts[rel], a)}})
        drain_until(1000+v)
# Shutdown is answered after the pending edits are linted and published (a hover may come first).
send({"jsonrpc":"2.0","id":4,"method":"textDocument/hover","params":{"textDocument":{"uri":"file://"+root+"/x"},"position":{"line":0,"character":0}}})
drain_until(4)
send({"jsonrpc":"2.0","id":5,"method":"shutdown","params":None}); drain_until(5); send({"jsonrpc":"2.0","method":"exit","params":None})
# The same texts on disk in a second copy, linted by the command line.
for rel, t in texts.items():
    open(os.path.join(root, rel), "w", encoding="utf-8", newline="").write(t)
cli = json.loads(subprocess.run([binary, ".", "--format", "json"], cwd=root, capture_output=True).stdout)
def pos(text, off):
    return utf16(text, len(text.encode()[:off].decode("utf-8", "replace")))
cache = {}
def text(rel):
    if rel not in cache: cache[rel] = open(os.path.join(root, rel), encoding="utf-8", errors="replace", newline="").read()
    return cache[rel]
exp = {}
for d in cli:
    t = text(d["path"]); s = pos(t, d["start"]["offset"]); e = pos(t, d["end"]["offset"])
    exp.setdefault(d["path"], []).append((d["code"], d["message"], (s["line"], s["character"]), (e["line"], e["character"])))
have = {}
for u, ds in latest.items():
    rel = os.path.relpath(unquote(u[7:]), root)
    for d in ds:
        if d["severity"] == 4: continue
        r = d["range"]
        have.setdefault(rel, []).append((d["code"], d["message"], (r["start"]["line"], r["start"]["character"]), (r["end"]["line"], r["end"]["character"])))
bad = sorted(f for f in set(exp) | set(have) if sorted(exp.get(f, [])) != sorted(have.get(f, [])))
print("%s seed %d: %d edits on %d open files; %d findings; files differing: %s" % (os.path.basename(src), seed, edits, len(texts), sum(map(len, exp.values())), bad or "none"))
for f in bad[:2]:
    print("  cli   ", sorted(exp.get(f, []))[:4]); print("  server", sorted(have.get(f, []))[:4])
shutil.rmtree(work)
sys.exit(1 if bad else 0)
