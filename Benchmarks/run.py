#!/usr/bin/env python3
"""Times `routes lint` (release build, whole process) on generated programs of 1k, 10k and
100k lines, and on workspaces of many small programs (folders each holding a copy of the
example apps, as a repository of several apps or of fixtures does): median wall time of 5
runs and peak resident memory. Prints a Markdown table.

    python3 Benchmarks/run.py            # builds release, generates, measures
    python3 Benchmarks/run.py --no-build # reuse .build/release/routes
"""
import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SIZES = [("1k", 1000), ("10k", 10000), ("100k", 100000)]
# Folders of the example apps (two programs each: the seed app and the five-file shop).
WORKSPACES = [30, 300]
# App-scale shapes of Benchmarks/generate.py --shape: feature-flag menus and flag pairs.
SHAPES = [("menu", 20), ("menu", 60), ("menu", 200), ("menu", 2000), ("optionals", 200),
          ("pairs", 20), ("pairs", 40), ("pairs", 200), ("pairs-interleaved", 20), ("pairs-interleaved", 40)]


def make_workspace(folders, out):
    """`folders` folders, each with a copy of Examples/Seed and Examples/Shop."""
    shutil.rmtree(out, ignore_errors=True)
    for i in range(folders):
        for app in ("Seed", "Shop"):
            shutil.copytree(os.path.join(ROOT, "Examples", app), os.path.join(out, f"app{i}", app))


def peak_rss_kb(cmd):
    """Peak RSS of a child process, via GNU time (falls back to resource accounting)."""
    try:
        out = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, check=False)
        return int(out.stderr.strip().splitlines()[-1])
    except (FileNotFoundError, ValueError, IndexError):
        import resource
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    if not args.no_build:
        # (The build `make release` makes: the same flags as the binaries users install.)
        subprocess.run(["make", "release"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    binary = os.path.join(ROOT, ".build", "release", "routes")
    rows = []
    inputs = []
    for name, lines in SIZES:
        out = os.path.join(HERE, "generated", name)
        subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), "--lines", str(lines), "--out", out],
                       check=True, stdout=subprocess.DEVNULL)
        inputs.append((name, out))
    for folders in WORKSPACES:
        out = os.path.join(HERE, "generated", f"workspace{folders}")
        make_workspace(folders, out)
        inputs.append((f"{2 * folders} programs in {folders} folders", out))
    shape_rows = []
    for kind, count in SHAPES:
        out = os.path.join(HERE, "generated", f"{kind}{count}.routes")
        subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), "--shape", kind, "--count", str(count),
                        "--out", out], check=True, stdout=subprocess.DEVNULL)
        cmd = [binary, "lint", out]
        first = subprocess.run(cmd, capture_output=True, text=True)
        found = sorted({line.rsplit("[", 1)[1].rstrip("]") for line in first.stdout.splitlines()
                        if line.endswith("]") and "[" in line})
        times = []
        for _ in range(args.runs):
            t = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times.append(time.perf_counter() - t)
        shape_rows.append((kind, count, statistics.median(times), peak_rss_kb(cmd), ", ".join(found)))
    for name, out in inputs:
        files = [os.path.join(d, f) for d, _, fs in os.walk(out) for f in fs if f.endswith(".routes")]
        size = sum(os.path.getsize(f) for f in files)
        nlines = sum(open(f, "rb").read().count(b"\n") for f in files)
        cmd = [binary, "lint", out]
        first = subprocess.run(cmd, capture_output=True, text=True)
        summary = first.stdout.strip().splitlines()[-1] if first.stdout.strip() else "?"
        times = []
        for _ in range(args.runs):
            t = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times.append(time.perf_counter() - t)
        rss = peak_rss_kb(cmd)
        rows.append((name, nlines, size, statistics.median(times), min(times), rss, summary))
    print(f"`routes lint`, release build, median of {args.runs} runs, {time.strftime('%Y-%m-%d')}, "
          f"{platform.machine()} {os.cpu_count()} cores\n")
    print("| program | lines | bytes | median wall | min wall | peak RSS | result |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for name, nlines, size, med, best, rss, summary in rows:
        print(f"| {name} | {nlines} | {size} | {med * 1000:.0f} ms | {best * 1000:.0f} ms | {rss / 1024:.0f} MB | {summary} |")
    if len(rows) >= 3:
        ratio = rows[2][3] / rows[1][3]
        print(f"\n100k / 10k time ratio: {ratio:.1f} (10.0 would be linear)")
    if len(rows) >= 5:
        ratio = rows[4][3] / rows[3][3]
        print(f"600 / 60 programs time ratio: {ratio:.1f} (10.0 would be linear)")
    print("\nApp-scale shapes (Benchmarks/generate.py --shape), median of the same runs:\n")
    print("| shape | count | median wall | peak RSS | rules reported |")
    print("|---|---:|---:|---:|---|")
    for kind, count, med, rss, found in shape_rows:
        print(f"| {kind} | {count} | {med * 1000:.1f} ms | {rss / 1024:.0f} MB | {found} |")


if __name__ == "__main__":
    main()
