#!/usr/bin/env python3
"""The cost of links: the 10k-line app of generate.py, linted as it is and with N links added
to its root file (default 2,000), alternately, for each build given. Each link opens a path of
the app (a feature's list, an item, its related item, its settings, beta and help pages), with
typed and untyped placeholders and query items, under prefixes that keep the patterns apart.
With several builds, each run lints with each build in turn (the machine's speed drifts).

Then, in `routes lsp` with the linked app's root file open: one-character edits (an X typed,
then deleted: 20, each answered by diagnostics) in a link's pattern, which keep the analysis
of the tree and judge the links again, and in a screen name of the tree, which analyses the
program again; the median of each.

    python3 Benchmarks/links_bench.py --binary .build/release/routes [--links 2000] [--runs 5]
"""
import argparse, os, pathlib, re, shutil, statistics, subprocess, sys, tempfile, time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from lsp_bench import Client, start_and_open, typed_and_deleted  # noqa: E402


def links_for(features, count):
    shapes = [
        ('list/{page}?filter={filter}', 'F{k}Home/F{k}List(filter: filter, page: page)'),
        ('items/{id}', 'F{k}Home/F{k}List(filter: "", page: 0)/F{k}Detail(id: id)'),
        ('items/{id}/related/{other}', 'F{k}Home/F{k}List(filter: "", page: 0)/F{k}Detail(id: id)/F{k}Related(id: other)'),
        ('settings', 'F{k}Home/F{k}Settings'),
        ('beta', 'F{k}Home/F{k}Beta'),
        ('help', 'F{k}Home/F{k}Help'),
    ]
    out = []
    variant = 0
    while len(out) < count:
        for k in features:
            for pattern, path in shapes:
                if len(out) == count:
                    return out
                out.append(f'link l{len(out)} "/v{variant}/f{k}/{pattern}" -> Home/{path.format(k=k)}')
        variant += 1
    return out


def lint(binary, folder):
    start = time.perf_counter()
    r = subprocess.run(["/usr/bin/time", "-f", "%M", binary, "lint", "App.routes"], cwd=folder, capture_output=True, text=True)
    wall = time.perf_counter() - start
    rss = int(r.stderr.strip().splitlines()[-1]) // 1024
    return wall, rss, r.stdout.strip().splitlines()[-1]


def server_edits(binary, folder):
    """Medians of one-character edits in a link's pattern and in a screen name of the tree,
    each answered by the root file's diagnostics."""
    path = str(folder / "App.routes")
    text = open(path).read()
    uri = "file://" + path
    c, _, _ = start_and_open(binary, str(folder), uri, text)
    lines = text.split("\n")
    link = next(i for i, l in enumerate(lines) if l.startswith("link "))
    link_edit, version = typed_and_deleted(c, uri, 1, link, lines[link].index('"/v') + 3)
    use = next(i for i, l in enumerate(lines) if l.lstrip().startswith("screen ") and l.startswith(" "))
    name_end = len(lines[use]) - len(lines[use].lstrip()) + len("screen ") + 1
    tree_edit, _ = typed_and_deleted(c, uri, version, use, name_end)
    c.close()
    return link_edit, tree_edit


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", action="append", required=True)
    parser.add_argument("--links", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    work = pathlib.Path(tempfile.mkdtemp(prefix="routes-links-"))
    try:
        plain = work / "plain"
        subprocess.run([sys.executable, str(HERE / "generate.py"), "--lines", "10000", "--out", str(plain)], check=True, capture_output=True)
        features = sorted({int(m) for f in plain.glob("*.routes") for m in re.findall(r"^builder f(\d+) \{", f.read_text(), re.M)})
        linked = work / "links"
        shutil.copytree(plain, linked)
        with open(linked / "App.routes", "a") as f:
            f.write("\n" + "\n".join(links_for(features, args.links)) + "\n")
        print(f"{len(features)} features, {args.links} links; {args.runs} runs each, builds alternating run by run")
        times = {binary: {"plain": [], "links": []} for binary in args.binary}
        rss = {binary: {} for binary in args.binary}
        results = {binary: {} for binary in args.binary}
        for _ in range(args.runs):
            for binary in args.binary:
                for name, folder in (("plain", plain), ("links", linked)):
                    wall, peak, result = lint(os.path.abspath(binary), folder)
                    times[binary][name].append(wall)
                    rss[binary][name] = peak
                    results[binary][name] = result
        for binary in args.binary:
            p, l = statistics.median(times[binary]["plain"]), statistics.median(times[binary]["links"])
            # Each run's two lints are taken back to back: the median of their ratios is less
            # moved by the machine's drift than the ratio of the medians.
            paired = statistics.median(b / a for a, b in zip(times[binary]["plain"], times[binary]["links"]))
            print(f"{binary}: without links {p * 1000:.1f} ms ({rss[binary]['plain']} MB, {results[binary]['plain']}); "
                  f"with links {l * 1000:.1f} ms ({rss[binary]['links']} MB, {results[binary]['links']}); ratio {l / p:.2f}, "
                  f"run by run {paired:.2f}")
        for binary in args.binary:
            link_edit, tree_edit = server_edits(os.path.abspath(binary), linked)
            print(f"{binary} (server): an edit in a link's pattern {link_edit:.1f} ms, in a screen name of the tree {tree_edit:.1f} ms")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
