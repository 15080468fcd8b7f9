#!/usr/bin/env python3
"""Measures `routes lsp` over pipes, as an editor uses it, on generated single-file
documents of 1k and 10k lines: initialize round trip and didOpen → publishDiagnostics (each
the median over 7 fresh servers),
didChange → publishDiagnostics (median of 20 one-character edits each: in a comment, in a
type name, in a screen name used inside a builder), completion after `uses ` (median of 20),
and the server's peak RSS. Prints a Markdown table. Then the editor requests on the 100k-line
generated workspace (one feature file open, a client that pulls diagnostics):
workspace/symbol with a short query, inlay hints for a screenful, pull diagnostics of the
document and of the workspace when nothing changed, document highlight, selection range, code
lenses and the resolve of one (median of 20 each).

    make release && python3 Benchmarks/lsp_bench.py [--binary .build/release/routes]
    python3 Benchmarks/lsp_bench.py --requests-only     # the editor requests alone

(`make release` links the Swift runtime statically, as an installed `routes` is built.)
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# Fresh servers started per document for the initialize and didOpen columns (their median).
OPENS = 7
ROOT = os.path.dirname(HERE)


class Client:
    def __init__(self, binary, cwd):
        self.p = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, cwd=cwd)
        self.next_id = 0

    def send(self, obj):
        body = json.dumps(obj).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def read(self):
        headers = {}
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise EOFError("server closed its output")
            line = line.strip()
            if not line:
                break
            k, v = line.split(b":", 1)
            headers[k.strip().lower()] = v.strip()
        return json.loads(self.p.stdout.read(int(headers[b"content-length"])))

    def request(self, method, params):
        self.next_id += 1
        rid = self.next_id
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            m = self.read()
            if m.get("id") == rid and "method" not in m:
                return m
            if "method" in m and "id" in m:  # a request from the server: answer it
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": None})

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait_diagnostics(self, uri, version=None):
        while True:
            m = self.read()
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri:
                if version is None or m["params"].get("version") == version:
                    return m
            elif "method" in m and "id" in m:
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": None})

    def peak_rss_kb(self):
        with open(f"/proc/{self.p.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        return 0

    def close(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        self.p.wait(timeout=10)


def start_and_open(binary, directory, uri, text):
    """A server on `directory`, initialized, with the document open: (client, initialize
    milliseconds, didOpen → diagnostics milliseconds)."""
    c = Client(binary, directory)
    t = time.perf_counter()
    c.request("initialize", {"processId": None, "rootUri": "file://" + directory, "capabilities": {}})
    init_ms = (time.perf_counter() - t) * 1000
    c.notify("initialized", {})
    t = time.perf_counter()
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "routes", "version": 1, "text": text}})
    c.wait_diagnostics(uri, 1)
    return c, init_ms, (time.perf_counter() - t) * 1000


def typed_and_deleted(c, uri, version, line, col):
    """20 one-character edits at (line, col), an X typed then deleted, each answered by
    diagnostics: (median milliseconds, the document's version after them)."""
    times = []
    for i in range(20):
        version += 1
        end = col if i % 2 == 0 else col + 1
        change = {"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": end}},
                  "text": "X" if i % 2 == 0 else ""}
        t = time.perf_counter()
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
        c.wait_diagnostics(uri, version)
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), version


def measure(binary, lines, directory):
    path = os.path.join(directory, f"App{lines}.routes")
    subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), "--lines", str(lines), "--single-file",
                    "--out", path], check=True, stdout=subprocess.DEVNULL)
    text = open(path).read()
    uri = "file://" + path
    # initialize and didOpen happen once per server: the median of OPENS fresh servers (one
    # sample of a fresh process's first open moves by a quarter with this VM's neighbours).
    inits, opens = [], []
    for _ in range(OPENS - 1):
        other, init_ms, open_ms = start_and_open(binary, directory, uri, text)
        other.close()
        inits.append(init_ms)
        opens.append(open_ms)
    c, init_ms, open_ms = start_and_open(binary, directory, uri, text)
    init_ms = statistics.median(inits + [init_ms])
    open_ms = statistics.median(opens + [open_ms])
    # One-character edits in a comment line at the end, each answered by diagnostics.
    doc_lines = text.split("\n")
    line = len(doc_lines) - 1
    changes = []
    version = 1
    for i in range(20):
        version += 1
        t = time.perf_counter()
        c.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": line, "character": i}, "end": {"line": line, "character": i}},
                                "text": "/" if i < 2 else "x"}]})
        c.wait_diagnostics(uri, version)
        changes.append((time.perf_counter() - t) * 1000)
    # One-character edits in code, typed then deleted. (1) In a type name of a declaration:
    # only that declaration is parsed and resolved again, and the analysis is kept (types are
    # not analysed). (2) In a screen name used inside a builder (the name becomes undefined,
    # then defined again): the builder is parsed and resolved again, and the analysis runs
    # again in full.
    def one_character_edits(line, col):
        nonlocal version
        median, version = typed_and_deleted(c, uri, version, line, col)
        return median
    decl = next(i for i, l in enumerate(doc_lines) if l.startswith("dependency ") and ":" in l)
    type_change = one_character_edits(decl, len(doc_lines[decl].rstrip()))
    use = next(i for i, l in enumerate(doc_lines) if l.startswith(" ") and l.lstrip().startswith("screen ") and " uses " in l)
    name_end = doc_lines[use].index(" uses ")
    name_change = one_character_edits(use, name_end)
    # Completion after `uses ` on a screen node of the first feature.
    target = next(i for i, l in enumerate(doc_lines) if "uses appStore, analytics" in l)
    col = doc_lines[target].index("uses ") + len("uses ")
    completions = []
    for _ in range(20):
        t = time.perf_counter()
        r = c.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": {"line": target, "character": col}})
        completions.append((time.perf_counter() - t) * 1000)
        assert "result" in r, r
    rss = c.peak_rss_kb()
    c.close()
    return {"lines": text.count("\n"), "initialize": init_ms, "open": open_ms,
            "change": statistics.median(changes), "type_change": type_change, "name_change": name_change, "completion": statistics.median(completions), "rss": rss / 1024}


def measure_workspace(binary, folders, directory):
    """A workspace folder holding `folders` copies of the two example apps (2 × folders
    programs, 6 files each copy): open one file of one copy of the shop, then one-character
    edits in a screen name used inside a builder (median of 20, typed then deleted)."""
    for i in range(folders):
        for app in ("Seed", "Shop"):
            shutil.copytree(os.path.join(ROOT, "Examples", app), os.path.join(directory, f"app{i}", app))
    path = os.path.join(directory, "app0", "Shop", "Account.routes")
    text = open(path).read()
    uri = "file://" + path
    c, _, open_ms = start_and_open(binary, directory, uri, text)
    doc_lines = text.split("\n")
    use = next(i for i, l in enumerate(doc_lines) if l.lstrip().startswith("screen ") and " uses " in l)
    col = doc_lines[use].index(" uses ")
    name_change, _ = typed_and_deleted(c, uri, 1, use, col)
    rss = c.peak_rss_kb()
    c.close()
    return {"programs": 2 * folders, "files": 6 * folders, "open": open_ms, "name_change": name_change, "rss": rss / 1024}


def median_ms(c, method, params, runs=20):
    """The median round trip of a request, in milliseconds, and its last result."""
    times = []
    result = None
    for _ in range(runs):
        t = time.perf_counter()
        r = c.request(method, params)
        times.append((time.perf_counter() - t) * 1000)
        assert "result" in r, r
        result = r["result"]
    return statistics.median(times), result


def measure_requests(binary, directory):
    """The editor requests on the 100k-line generated workspace, one feature file open, with a
    client that pulls diagnostics (so none are pushed): rows of (request, median ms, what)."""
    subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), "--lines", "100000", "--out", directory],
                   check=True, stdout=subprocess.DEVNULL)
    lines = sum(open(os.path.join(directory, n)).read().count("\n") for n in os.listdir(directory))
    files = len(os.listdir(directory))
    path = os.path.join(directory, "Features2.routes")
    text = open(path).read()
    uri = "file://" + path
    c = Client(binary, directory)
    c.request("initialize", {"processId": None, "rootUri": "file://" + directory,
                             "capabilities": {"textDocument": {"diagnostic": {"dynamicRegistration": False}}}})
    c.notify("initialized", {})
    doc = {"textDocument": {"uri": uri}}
    t = time.perf_counter()
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "routes", "version": 1, "text": text}})
    first = c.request("textDocument/diagnostic", doc)["result"]
    rows = [("didOpen → textDocument/diagnostic (the workspace read and analysed)", (time.perf_counter() - t) * 1000,
             f"{len(first['items'])} diagnostics")]
    ms, r = median_ms(c, "textDocument/diagnostic", dict(doc, previousResultId=first["resultId"]))
    rows.append(("textDocument/diagnostic, unchanged", ms, r["kind"]))
    everything = c.request("workspace/diagnostic", {"previousResultIds": []})["result"]["items"]
    previous = [{"uri": i["uri"], "value": i["resultId"]} for i in everything]
    ms, r = median_ms(c, "workspace/diagnostic", {"previousResultIds": previous})
    rows.append(("workspace/diagnostic, unchanged", ms,
                 f"{sum(1 for i in r['items'] if i['kind'] == 'unchanged')} of {len(r['items'])} files unchanged"))
    for query in ("det", "f12Ho", "x"):
        ms, r = median_ms(c, "workspace/symbol", {"query": query})
        rows.append((f"workspace/symbol `{query}`", ms, f"{len(r)} symbols"))
    doc_lines = text.split("\n")
    middle = len(doc_lines) // 2
    ms, r = median_ms(c, "textDocument/inlayHint", dict(doc, range={"start": {"line": middle, "character": 0},
                                                                     "end": {"line": middle + 60, "character": 0}}))
    rows.append(("textDocument/inlayHint, 60 lines", ms, f"{len(r)} hints"))
    ms, r = median_ms(c, "textDocument/inlayHint", dict(doc, range={"start": {"line": 0, "character": 0},
                                                                     "end": {"line": len(doc_lines), "character": 0}}))
    rows.append((f"textDocument/inlayHint, the whole file ({len(doc_lines)} lines)", ms, f"{len(r)} hints"))
    use = next(i for i, l in enumerate(doc_lines) if l.lstrip().startswith("screen ") and " uses " in l)
    at = {"line": use, "character": doc_lines[use].index("screen ") + 8}
    ms, r = median_ms(c, "textDocument/documentHighlight", dict(doc, position=at))
    rows.append(("textDocument/documentHighlight", ms, f"{len(r)} highlights"))
    ms, r = median_ms(c, "textDocument/selectionRange", dict(doc, positions=[at]))
    depth = 0
    node = r[0]
    while node:
        depth += 1
        node = node.get("parent")
    rows.append(("textDocument/selectionRange", ms, f"{depth} ranges"))
    ms, lenses = median_ms(c, "textDocument/codeLens", doc)
    rows.append(("textDocument/codeLens", ms, f"{len(lenses)} lenses"))
    screen_lens = next(l for l in lenses if l["data"]["kind"] == "screen")
    ms, r = median_ms(c, "codeLens/resolve", screen_lens)
    rows.append(("codeLens/resolve, a screen", ms, r["command"]["title"]))
    rss = c.peak_rss_kb()
    c.close()
    return {"lines": lines, "files": files, "rows": rows, "rss": rss / 1024}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "routes"))
    ap.add_argument("--workspaces-only", action="store_true", help="only the workspace rows")
    ap.add_argument("--requests-only", action="store_true", help="only the editor requests on the 100k workspace")
    args = ap.parse_args()
    print(f"`routes lsp` over pipes, release build, {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores\n")
    if args.requests_only or not args.workspaces_only:
        with tempfile.TemporaryDirectory() as d:
            requests = measure_requests(args.binary, os.path.realpath(d))
        print(f"| request ({requests['lines']} lines in {requests['files']} files, one open) | median | answer |")
        print("|---|---:|---|")
        for name, ms, what in requests["rows"]:
            print(f"| {name} | {ms:.1f} ms | {what} |")
        print(f"\npeak RSS {requests['rss']:.0f} MB\n")
        if args.requests_only:
            return
    rows = []
    if not args.workspaces_only:
        with tempfile.TemporaryDirectory() as d:
            rows = [measure(args.binary, n, os.path.realpath(d)) for n in (1000, 10000)]
    workspaces = []
    for folders in (30, 300):
        with tempfile.TemporaryDirectory() as d:
            workspaces.append(measure_workspace(args.binary, folders, os.path.realpath(d)))
    print("| document | initialize | didOpen → diagnostics | didChange → diagnostics: comment | type name | name used in a builder | completion | peak RSS |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['lines']} lines | {r['initialize']:.1f} ms | {r['open']:.1f} ms | {r['change']:.1f} ms | "
              f"{r['type_change']:.1f} ms | {r['name_change']:.1f} ms | {r['completion']:.1f} ms | {r['rss']:.0f} MB |")
    print("\n| workspace | didOpen → diagnostics | didChange: name in a builder | peak RSS |")
    print("|---|---:|---:|---:|")
    for w in workspaces:
        print(f"| {w['programs']} programs, {w['files']} files | {w['open']:.1f} ms | {w['name_change']:.1f} ms | {w['rss']:.0f} MB |")


if __name__ == "__main__":
    main()
