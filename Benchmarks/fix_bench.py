#!/usr/bin/env python3
"""The cost of `routes lint --fix` on a file of many syntax errors that each have a safe fix:
N `# note` comments (`--fix` writes `//`) and N `screen S;` declarations (`--fix` removes the
`;`), 2N fixes in all, that every round checks by analysing the file (a file with syntax
errors is always checked). Each build given fixes a fresh copy in turn (`--runs` times, the
machine's speed drifts); the median wall time and peak resident size of each, and whether all
wrote the same text.

    python3 Benchmarks/fix_bench.py --binary .build/release/routes [--binary OTHER] [--count 1000] [--runs 3]
"""
import argparse, hashlib, pathlib, statistics, subprocess, sys, tempfile, time


def program(count):
    lines = ["screen Home"]
    for i in range(count):
        lines.append(f"# note {i}")
        lines.append(f"screen S{i};")
    lines.append("root { screen Home { anyOf {")
    lines += [f"  screen S{i}" for i in range(count)]
    lines.append("} } }")
    return "\n".join(lines) + "\n"


def fix(binary, text, folder):
    path = folder / "App.routes"
    path.write_text(text)
    start = time.perf_counter()
    r = subprocess.run(["/usr/bin/time", "-f", "%M", binary, "lint", "--fix", "App.routes"], cwd=folder,
                       capture_output=True, text=True)
    wall = time.perf_counter() - start
    rss = int(r.stderr.strip().splitlines()[-1]) // 1024
    summary = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
    return wall, rss, hashlib.sha256(path.read_bytes()).hexdigest()[:12], summary


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", action="append", required=True)
    parser.add_argument("--count", type=int, default=1000, help="comments and declarations each (2N fixes)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    args.binary = [str(pathlib.Path(b).resolve()) for b in args.binary]
    text = program(args.count)
    times = {b: [] for b in args.binary}
    peaks = {b: [] for b in args.binary}
    written = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp)
        for _ in range(args.runs):
            for b in args.binary:
                wall, rss, digest, summary = fix(b, text, folder)
                times[b].append(wall)
                peaks[b].append(rss)
                written[b] = (digest, summary)
    print(f"{2 * args.count} fixes in {len(text.splitlines())} lines, {args.runs} runs each")
    for b in args.binary:
        print(f"{b}: median {statistics.median(times[b]) * 1000:.0f} ms, peak {max(peaks[b])} MB, "
              f"wrote {written[b][0]} ({written[b][1]})")
    if len({w[0] for w in written.values()}) > 1:
        print("the builds wrote different texts", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
