#!/usr/bin/env python3
"""Checks the symbol links of the Swift doc comments in Sources/: every ``Name``,
``Type/member`` or ``Type/function(label:other:)``, and every function named in code voice
with its labels (`Type.function(label:other:)`), must name a declaration that exists, with
those argument labels, so that a comment never points at an initializer or a type that was
renamed or removed. Exit 1 with one line per broken link.

    python3 scripts/check_doc_links.py [ROOT]
"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SOURCES = os.path.join(ROOT, "Sources")

LINK = re.compile(r"``([^`]+)``")
# A function named in code voice with its labels (`init(project:reusing:)`,
# `Project.forLint(entries:provider:)`): checked as a link is.
CALL = re.compile(r"(?<!`)`((?:[A-Za-z_][A-Za-z0-9_]*[./])*[A-Za-z_][A-Za-z0-9_]*\((?:[A-Za-z_][A-Za-z0-9_]*:)+\))`(?!`)")
# A declaration: its keyword, its name, and for a function its parameter list.
DECL = re.compile(r"\b(func|init|subscript|var|let|case|struct|enum|class|protocol|typealias|actor|associatedtype)\b\s*"
                  r"([A-Za-z_][A-Za-z0-9_]*|`[^`]+`)?\s*(<[^>{]*>)?\s*(\()?")


# Types of the standard library that comments name (not declared here).
STANDARD_LIBRARY = {"String", "Substring", "Character", "Array", "Dictionary", "Set", "Int", "Int32", "Int64",
                    "UInt8", "UInt32", "UInt64", "Double", "Bool", "Optional", "Sequence", "Collection", "Result"}


def labels_of(params):
    """The argument labels of a parameter list's text (`_` for none)."""
    out, depth, current = [], 0, ""
    for ch in params:
        if ch in "([<":
            depth += 1
        elif ch in ")]>":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        out.append(current)
    labels = []
    for p in out:
        if ":" not in p:
            labels.append("_")  # an enum case's unlabelled associated value
            continue
        head = p.split(":")[0].strip().split()
        head = [h for h in head if not h.startswith("@") and h not in ("inout", "borrowing", "consuming", "isolated", "sending")]
        if not head:
            continue
        labels.append(head[0])
    return labels


def declarations():
    """Every declared name, with the label lists of its functions and initializers."""
    names = {}
    for dirpath, _, files in os.walk(SOURCES):
        for f in files:
            if not f.endswith(".swift"):
                continue
            text = open(os.path.join(dirpath, f), encoding="utf-8").read()
            for m in DECL.finditer(text):
                kind, name, _, paren = m.groups()
                if kind in ("init", "subscript"):
                    name = kind
                if not name:
                    continue
                name = name.strip("`")
                entry = names.setdefault(name, [])
                if paren:
                    # The parameter list up to its closing parenthesis.
                    depth, i = 1, m.end()
                    while i < len(text) and depth:
                        depth += {"(": 1, ")": -1}.get(text[i], 0)
                        i += 1
                    entry.append(labels_of(text[m.end():i - 1]))
                else:
                    entry.append(None)
    return names


def check_link(link, names):
    """Why a link names nothing, or None."""
    target = link.split("/")[-1]
    m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)(?:\(([^)]*)\))?(?:-\w+)?", target)
    if not m:
        return None  # not a symbol link (an operator, a URL): left alone
    name, labels = m.group(1), m.group(2)
    if name in STANDARD_LIBRARY:
        return None
    if name not in names:
        return f"no declaration named `{name}`"
    if labels is not None and name[0].isupper() and "/" not in link:
        name = "init"  # `Type(label:)`: one of the type's initializers
    for part in link.split("/")[:-1]:
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", part) and part not in names:
            return f"no declaration named `{part}`"
    if labels is None:
        return None
    wanted = [l for l in labels.split(":") if l != ""]
    if not any(entry is not None and entry == wanted for entry in names[name]):
        return f"no `{name}` with the labels ({':'.join(wanted) + ':' if wanted else ''})"
    return None


def main():
    names = declarations()
    broken = []
    for dirpath, _, files in os.walk(SOURCES):
        for f in sorted(files):
            if not f.endswith(".swift"):
                continue
            path = os.path.join(dirpath, f)
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                stripped = line.strip()
                if not stripped.startswith("///"):
                    continue
                for link in LINK.findall(stripped) + [c.replace(".", "/") for c in CALL.findall(stripped)]:
                    why = check_link(link, names)
                    if why:
                        broken.append(f"{os.path.relpath(path, ROOT)}:{number}: ``{link}``: {why}")
    for b in broken:
        print(b)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
