#!/usr/bin/env python3
"""Measures a program of many files at app scale, in the editor and on the command line.

The workspaces are `generate.py`'s (one program: features spread over files that import a
shared file, an app file that imports them all and declares `root`), of 10k, 100k and 1M
lines. For each, with each binary given (builds alternate run by run, in the same minutes):

- the language server, rooted at the workspace: initialize and initialized, then a request
  answered once the server has scanned and analysed the workspace (`initialized → scanned`),
  then didOpen of one feature file → its diagnostics (open is the cost of one file in a
  known workspace); then one-character edits, each answered by diagnostics
  (median of 20, typed then deleted):
    uses   — an `X` at the end of a `uses` line inside a builder (an `undefined-name`
             appears, then goes),
    rename — an `X` at the end of a screen's name in its declaration (every use of it in the
             program becomes undefined, then defined again);
  the server's peak RSS after open and after the edits, and its RSS after `--edits` more.
- `routes lint` of the workspace folder, and `ruff check --no-cache --isolated` of Python of
  the same size (per file, the same number of lines and of bytes, in the same number of
  files) when `--ruff` names a ruff binary: median wall time and peak RSS (getrusage of the
  child; `--lint-runs`, 21 by default), after every server run, each binary's lint and
  ruff's in turn. Both inputs are clean: the workspace lints without a diagnostic, and the Python
  parses and gets none from ruff (asserted before anything is timed), so that neither time
  is spent rendering findings.

    make release
    python3 Benchmarks/workspace_bench.py --binary A --binary B [--ruff PATH] [--sizes 10000,100000]

Prints Markdown tables.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from lsp_bench import Client  # noqa: E402


def generate(lines, directory):
    subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), "--lines", str(lines), "--out", directory],
                   check=True, stdout=subprocess.DEVNULL)


def python_of_same_shape(routes_dir, out_dir):
    """For each .routes file, a Python module with the same number of lines and the same
    number of bytes, in the shape of an app's code: classes with typed methods that branch
    and call, using what they import. Every module parses and gets no diagnostics from
    `ruff check` (checked by `assert_clean`), so that both tools read the same amount of
    clean input and report nothing."""
    os.makedirs(out_dir, exist_ok=True)
    for name in sorted(os.listdir(routes_dir)):
        if not name.endswith(".routes"):
            continue
        with open(os.path.join(routes_dir, name), "rb") as f:
            data = f.read()
        lines, size = data.count(b"\n"), len(data)
        module = name[:-len(".routes")].lower()
        head = [f'"""Screens of {module}."""', "import os", "import sys", ""]
        blocks = []
        k = 0
        while len(head) + sum(len(b) for b in blocks) + 18 <= lines - 1:
            blocks.append([
                "",
                f"class Screen{k}:",
                f'    """Screen {k} of {module}."""',
                "",
                "    def __init__(self, store: dict, draft: dict | None = None) -> None:",
                "        self.store = store",
                "        self.draft = draft",
                "",
                "    def build(self, path: list[str]) -> str | None:",
                "        if not path:",
                "            return None",
                f"        if path[0] == 'detail{k}':",
                "            return self.store.get(path[1], self.draft)",
                "        for item in path:",
                "            if item in self.store:",
                "                return item",
                "        return os.path.join(*path) if sys.platform else None",
                "",
            ])
            k += 1

        def text(blocks):
            # (The imports only where the classes use them.)
            body = (head if blocks else head[:1] + head[3:]) + [line for b in blocks for line in b]
            body += [f"v{i} = {i}" for i in range(lines - 1 - len(body))]
            return "\n".join(body) + "\n"

        # Fewer classes until a comment line can make up the bytes exactly.
        while blocks and len(text(blocks).encode()) + 2 > size:
            blocks.pop()
        out = text(blocks)
        pad = size - len(out.encode()) - 1
        assert pad >= 1, f"{name}: too short a file to match"
        out += "#" + "=" * (pad - 1) + "\n"
        assert len(out.encode()) == size and out.count("\n") == lines, name
        with open(os.path.join(out_dir, module + ".py"), "w") as f:
            f.write(out)


def assert_clean(ruff, py):
    """ruff reports nothing for the Python input: the comparison is of two clean lints."""
    r = subprocess.run([ruff, "check", "--no-cache", "--isolated", "--statistics", py], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() in ("", "All checks passed!"), f"ruff finds problems in {py}:\n{r.stdout}{r.stderr}"


def run_measured(argv, cwd):
    """Wall milliseconds and the child's peak RSS in MB."""
    t = time.perf_counter()
    p = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(p.pid, 0)
    return (time.perf_counter() - t) * 1000, usage.ru_maxrss / 1024


def rss_kb(pid, key="VmRSS:"):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key):
                return int(line.split()[1])
    return 0


def edits(c, uri, version, line, col, count=20):
    times = []
    for i in range(count):
        version += 1
        end = col if i % 2 == 0 else col + 1
        change = {"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": end}},
                  "text": "X" if i % 2 == 0 else ""}
        t = time.perf_counter()
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
        c.wait_diagnostics(uri, version)
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), version


def server_run(binary, directory, more_edits):
    files = sorted(n for n in os.listdir(directory) if n.startswith("Features"))
    path = os.path.join(directory, files[len(files) // 2])
    text = open(path).read()
    uri = "file://" + path
    c = Client(binary, directory)
    c.request("initialize", {"processId": None, "rootUri": "file://" + directory, "capabilities": {}})
    c.notify("initialized", {})
    # The server analyses the workspace when told `initialized`; a request answered after it
    # (requests are handled in order) marks the end of that scan.
    t = time.perf_counter()
    c.request("textDocument/documentSymbol", {"textDocument": {"uri": "file:///nonexistent.routes"}})
    scan_ms = (time.perf_counter() - t) * 1000
    t = time.perf_counter()
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "routes", "version": 1, "text": text}})
    c.wait_diagnostics(uri, 1)
    open_ms = (time.perf_counter() - t) * 1000
    rss_open = rss_kb(c.p.pid)
    lines = text.split("\n")
    # A line that ends with its `uses` list: the X lengthens the last name.
    use = next(i for i, l in enumerate(lines) if l.startswith(" ") and l.lstrip().startswith("screen ") and " uses " in l
               and not l.rstrip().endswith(("{", "}")))
    uses_ms, version = edits(c, uri, 1, use, len(lines[use].rstrip()))
    decl = next(i for i, l in enumerate(lines) if l.startswith("screen ") and l.rstrip().endswith("Help"))
    rename_ms, version = edits(c, uri, version, decl, len(lines[decl].rstrip()))
    peak = rss_kb(c.p.pid, "VmHWM:")
    after = None
    if more_edits:
        _, version = edits(c, uri, version, use, len(lines[use].rstrip()), more_edits)
        # As when someone stops typing: the server gives freed memory back to the system
        # once no edit has come for a second.
        time.sleep(1.5)
        after = rss_kb(c.p.pid)
    c.close()
    return {"scan": scan_ms, "open": open_ms, "uses": uses_ms, "rename": rename_ms, "rss_open": rss_open / 1024,
            "peak": peak / 1024, "after": None if after is None else after / 1024}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", action="append", required=True)
    ap.add_argument("--ruff")
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--runs", type=int, default=5, help="server runs per binary (alternating)")
    ap.add_argument("--lint-runs", type=int, default=21,
                    help="lint runs per binary and of ruff (alternating): this machine's speed drifts within minutes")
    ap.add_argument("--edits", type=int, default=0,
                    help="more edits after the measured ones, for the RSS column (read after a pause of 1.5 s)")
    ap.add_argument("--keep", help="a folder to generate into and keep")
    args = ap.parse_args()
    base = args.keep or tempfile.mkdtemp(prefix="routes-ws-")
    for size in [int(s) for s in args.sizes.split(",")]:
        ws = os.path.join(base, f"ws{size}")
        if not os.path.isdir(ws):
            generate(size, ws)
        py = os.path.join(base, f"py{size}")
        if args.ruff and not os.path.isdir(py):
            python_of_same_shape(ws, py)
        if args.ruff:
            assert_clean(args.ruff, py)
        for b in args.binary:
            r = subprocess.run([b, "lint", "--root", ws, ws], capture_output=True, text=True)
            assert r.returncode == 0 and r.stdout.startswith("0 errors, 0 warnings"), f"{b} finds problems in {ws}:\n{r.stdout[-2000:]}"
        nfiles = len([n for n in os.listdir(ws) if n.endswith(".routes")])
        nlines = sum(sum(1 for _ in open(os.path.join(ws, n))) for n in os.listdir(ws) if n.endswith(".routes"))
        server = {b: [] for b in args.binary}
        lint = {b: [] for b in args.binary}
        ruff = []
        for _ in range(args.runs):
            for b in args.binary:
                server[b].append(server_run(b, ws, args.edits))
        # The lints after every server run, each binary's and ruff's in turn: a lint started
        # as a server of hundreds of megabytes exits ran on a machine still taking those pages
        # back (on the VM of the figures, 100k lines took 110 ms there against 60 ms here,
        # while ruff, which ran after it, was not slowed).
        time.sleep(1)
        for _ in range(args.lint_runs):
            for b in args.binary:
                lint[b].append(run_measured([b, "lint", "--root", ws, ws], ws))
                if args.ruff:
                    ruff.append(run_measured([args.ruff, "check", "--no-cache", "--isolated", "--exit-zero", py], py))
        print(f"\n### {nlines:,} lines, {nfiles} files\n")
        print("| binary | initialized → scanned | open → diagnostics | uses edit | rename edit | RSS after open | peak RSS | RSS after more edits | lint | lint peak RSS |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for b in args.binary:
            s = server[b]
            med = lambda k: statistics.median(r[k] for r in s)  # noqa: E731
            after = "—" if s[0]["after"] is None else f"{med('after'):.0f} MB"
            print(f"| {b} | {med('scan'):.0f} ms | {med('open'):.1f} ms | {med('uses'):.2f} ms | {med('rename'):.2f} ms | {med('rss_open'):.0f} MB "
                  f"| {med('peak'):.0f} MB | {after} | {statistics.median(t for t, _ in lint[b]):.1f} ms "
                  f"| {statistics.median(m for _, m in lint[b]):.0f} MB |")
        if ruff:
            print(f"| ruff check | | | | | | | | {statistics.median(t for t, _ in ruff):.1f} ms | {statistics.median(m for _, m in ruff):.0f} MB |")
    if not args.keep:
        shutil.rmtree(base)


if __name__ == "__main__":
    main()
