#!/usr/bin/env python3
"""Generates realistic .routes programs for benchmarks.

A program is an app with N features. Each feature has ~9 screens (push, sheet,
sheet(allowsPush: false), parameters), a store provided by its home screen (`from`), an
optional draft, a beta flag, a recursive detail builder (recursion through a nesting),
and a cross-link to the next feature's share builder. Features are grouped into files that
import a shared file; the app file imports them all and declares `root`.

    python3 Benchmarks/generate.py --lines 100000 --out Benchmarks/generated/100k

With --shape, one file of a shape that stresses the exact analyses instead (the sizes of
real apps' feature-flag menus):

    --shape menu --count N             an `anyOf` of N `conditional f_i { screen S_i }`
                                       branches, then a missing dependency and an unused flag
    --shape optionals --count N        the same with `if let o_i { screen S_i uses o_i }`
    --shape pairs --count N            N nested pairs `conditional x_i { conditional y_i {
                                       screen S_i } }`, every x declared before every y
    --shape pairs-interleaved --count N  the same, declared x0 y0 x1 y1 ...
"""
import argparse
import os

SHARED = """// Shared declarations.
/// The app-wide store.
dependency appStore: AppStore
dependency analytics: Analytics.Client
flag isLoggedIn
screen Home
screen Login
screen Web(url: String) sheet
builder web { screen Web uses analytics }
"""


def feature(k: int, start: int, end: int) -> str:
    """Feature k of the file holding features start..<end (cross-links stay in the file)."""
    F = f"F{k}"
    f = f"f{k}"
    nxt = f"f{start + (k + 1 - start) % (end - start)}"
    return f"""
/// Feature {k}: list, detail, editing, settings.
screen {F}Home
screen {F}List(filter: String, page: Int)
screen {F}Detail(id: {F}.ID) sheet
screen {F}Edit(id: {F}.ID, draft: [String: Int]?) sheet(allowsPush: false)
screen {F}Related(id: {F}.ID)
screen {F}Settings
screen {F}Beta
screen {F}Share sheet
screen {F}Help
/// The store of feature {k}, created by its home screen.
dependency {f}Store: {F}Store from {F}Home
/// A draft that may be open.
optional {f}Draft: {F}Draft
flag {f}Beta

builder {f}Share {{ screen {F}Share uses analytics }}

builder {f}Detail {{
  screen {F}Detail uses {f}Store, analytics {{
    anyOf {{
      screen {F}Related uses {f}Store {{ {f}Detail }}
      if let {f}Draft {{
        screen {F}Edit uses {f}Store, {f}Draft
      }}
      {nxt}Share
      web
    }}
  }}
}}

builder {f} {{
  screen {F}Home uses appStore, analytics {{
    anyOf {{
      screen {F}List uses {f}Store {{ {f}Detail }}
      conditional {f}Beta {{
        screen {F}Beta uses {f}Store
      }} else {{
        screen {F}Settings uses {f}Store
      }}
      if screen {F}Help {{ screen {F}Help }} else {{ {f}Detail }}
      {f}Share
    }}
  }}
}}
"""


ROOT = """
root {{
  conditional isLoggedIn {{
    wildcard Home {{
      screen Home uses appStore {{
        anyOf {{
{branches}
        }}
      }}
    }}
  }} else {{
    wildcard Login {{ screen Login }}
  }}
}}
"""


def shape(kind: str, n: int) -> str:
    """One program of an app-scale shape (see the module's doc)."""
    lines = ["screen P", "screen X", "dependency d: D from P", "flag unusedFlag"]
    lines += [f"screen S{i}" for i in range(n)]
    if kind == "menu":
        lines += [f"flag f{i}" for i in range(n)]
        branches = [f"conditional f{i} {{ screen S{i} }} else {{ empty }}" for i in range(n)]
    elif kind == "optionals":
        lines += [f"optional o{i}: O{i}" for i in range(n)]
        branches = [f"if let o{i} {{ screen S{i} uses o{i} }}" for i in range(n)]
    elif kind in ("pairs", "pairs-interleaved"):
        if kind == "pairs":
            lines += [f"flag x{i}" for i in range(n)] + [f"flag y{i}" for i in range(n)]
        else:
            lines += [f for i in range(n) for f in (f"flag x{i}", f"flag y{i}")]
        branches = [f"conditional x{i} {{ conditional y{i} {{ screen S{i} }} else {{ empty }} }} else {{ empty }}"
                    for i in range(n)]
    else:
        raise SystemExit(f"unknown shape {kind}")
    branches += ["screen X uses d", "screen P"]
    lines.append("root {\n  anyOf {\n" + "\n".join("    " + b for b in branches) + "\n  }\n}")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shape", choices=["menu", "optionals", "pairs", "pairs-interleaved"])
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--lines", type=int)
    ap.add_argument("--out", required=True)
    ap.add_argument("--per-file", type=int, default=20, help="features per file")
    ap.add_argument("--single-file", action="store_true", help="one file: shared declarations, features and root")
    args = ap.parse_args()
    if args.shape:
        with open(args.out, "w") as out:
            out.write(shape(args.shape, args.count))
        print(f"{args.out}: {args.shape}, {args.count}")
        return
    if args.lines is None:
        ap.error("--lines is required without --shape")
    per_feature = feature(0, 0, 2).count("\n")
    n = max(2, args.lines // per_feature)
    if args.single_file:
        with open(args.out, "w") as out:
            out.write(SHARED)
            for k in range(n):
                out.write(feature(k, 0, n))
            branches = "\n".join(f"          f{k}" for k in range(n))
            out.write(ROOT.format(branches=branches))
        print(f"{args.out}: {n} features, 1 file")
        return
    os.makedirs(args.out, exist_ok=True)
    for name in os.listdir(args.out):
        if name.endswith(".routes"):
            os.remove(os.path.join(args.out, name))
    with open(os.path.join(args.out, "Shared.routes"), "w") as out:
        out.write(SHARED)
    files = []
    for start in range(0, n, args.per_file):
        name = f"Features{start // args.per_file}.routes"
        files.append(name)
        with open(os.path.join(args.out, name), "w") as out:
            out.write('import "Shared.routes"\n')
            end = min(n, start + args.per_file)
            for k in range(start, end):
                out.write(feature(k, start, end))
    branches = "\n".join(f"          f{k}" for k in range(n))
    imports = "\n".join(f'import "{name}"' for name in files)
    with open(os.path.join(args.out, "App.routes"), "w") as out:
        out.write(imports + '\nimport "Shared.routes"\n' + ROOT.format(branches=branches))
    total = 0
    size = 0
    for name in os.listdir(args.out):
        p = os.path.join(args.out, name)
        with open(p, "rb") as fh:
            data = fh.read()
        total += data.count(b"\n")
        size += len(data)
    print(f"{args.out}: {n} features, {len(files) + 2} files, {total} lines, {size} bytes")


if __name__ == "__main__":
    main()
