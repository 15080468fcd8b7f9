#!/usr/bin/env python3
"""Writes the seed corpora of the server and structured fuzz targets (Fuzz/Corpus/server,
Fuzz/Corpus/programs). The analysis target's seeds are the fixtures and examples themselves
(copied by this script too). Deterministic: running it again gives the same files."""
import json, pathlib, random, shutil

ROOT = pathlib.Path(__file__).resolve().parent.parent
URI = "file:///routes-fuzz-nonexistent/App.routes"


def frame(obj, crlf=True):
    body = json.dumps(obj, separators=(",", ":")).encode()
    sep = b"\r\n" if crlf else b"\n"
    return b"Content-Length: " + str(len(body)).encode() + sep + sep + body


def pos(line, character):
    return {"line": line, "character": character}


def request(i, method, params):
    return frame({"jsonrpc": "2.0", "id": i, "method": method, "params": params})


def notify(method, params):
    return frame({"jsonrpc": "2.0", "method": method, "params": params})


def change(version, start, end, text):
    return notify("textDocument/didChange", {
        "textDocument": {"uri": URI, "version": version},
        "contentChanges": [{"range": {"start": pos(*start), "end": pos(*end)}, "text": text}]})


doc = {"textDocument": {"uri": URI}}
at = lambda l, c: {"textDocument": {"uri": URI}, "position": pos(l, c)}
server = {
    "edits": change(2, (0, 7), (0, 11), "Start") + change(3, (9, 0), (9, 0), "  anyOf {\n") + change(4, (1, 0), (2, 0), ""),
    "requests": b"".join([
        request(1, "textDocument/hover", at(6, 10)), request(2, "textDocument/completion", at(10, 25)),
        request(3, "textDocument/definition", at(6, 10)), request(4, "textDocument/references", {**at(0, 8), "context": {"includeDeclaration": True}}),
        request(5, "textDocument/prepareRename", at(0, 8)), request(6, "textDocument/rename", {**at(0, 8), "newName": "Start"}),
        request(7, "textDocument/documentSymbol", doc), request(8, "textDocument/semanticTokens/full", doc),
        request(9, "textDocument/foldingRange", doc), request(10, "routes/preview", {**doc, "path": "Home", "flags": {"isLoggedIn": True}}),
    ]),
    "cancel": request(20, "textDocument/hover", at(1, 1)) + notify("$/cancelRequest", {"id": 20}),
    "bad-framing": b"Content-Length: 99999999999\r\n\r\n{}" + b"junk\r\n\r\n" + b"Content-Type: x\r\n\r\n"
                   + frame({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": at(0, 0)}, crlf=False),
    "bad-json": b"Content-Length: 5\r\n\r\n{'a':" + frame([1, 2]) + frame({"jsonrpc": "1.0", "id": {}, "method": 3}),
    "lifecycle": request(1, "initialize", {}) + request(2, "shutdown", None) + request(3, "textDocument/hover", at(0, 0)) + notify("exit", None),
    "open-close": notify("textDocument/didOpen", {"textDocument": {"uri": "file:///routes-fuzz-nonexistent/B.routes", "languageId": "routes", "version": 1,
                                                                   "text": "import \"App.routes\"\nbuilder b { screen Home }\n"}})
                  + notify("textDocument/didClose", {"textDocument": {"uri": URI}}) + request(1, "textDocument/hover", at(0, 0)),
    "full-change": notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": 9},
                                                     "contentChanges": [{"text": "root { screen Nope }\n"}]}) + request(1, "routes/preview", doc),
    "watched": notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": "file:///routes-fuzz-nonexistent/x.routes", "type": 1}]})
               + notify("workspace/didChangeWorkspaceFolders", {"event": {"added": [{"uri": "file:///routes-fuzz-nonexistent", "name": "w"}], "removed": []}}),
    "utf16": change(2, (0, 0), (0, 0), "// é😀\n") + request(1, "textDocument/hover", at(1, 9)),
    # A link added to the document, then the requests that read links.
    "links": change(2, (0, 0), (0, 0), 'link item "/items/{id}?q={q?}" -> Home/Detail(id: id)\n')
             + request(1, "textDocument/hover", at(0, 6)) + request(2, "textDocument/completion", at(0, 48))
             + request(3, "textDocument/rename", {**at(0, 19), "newName": "itemID"}) + request(4, "textDocument/codeLens", doc)
             + request(5, "routes/preview", {**doc, "url": "myapp://items/3?q=%zz"}) + request(6, "textDocument/definition", at(0, 52)),
}


layouts = {
    "crlf-and-lf": b"screen A\r\nscreen B\nroot {\r\n  anyOf { screen A\n screen B }\r\n}",
    "lone-cr": b"screen A\rroot {\r screen A }\r",
    "suppressions": b"flag a flag b // routes:ignore unused-declaration\nscreen S\n// routes:ignore unreachable-screen\n\nroot { screen S }\n",
    "comments-everywhere": b"screen // a\nS( // b\n x: // c\n Int // d\n) // e\nroot // f\n{ // g\n screen // h\n S // i\n} // j\n",
    "errors-between": b"screen   A\nflag f = 1\nscreen   B ; screen C\nroot {   anyOf {\n screen A\nscreen B }\n",
    "long-one-liners": b"screen " + b"A" * 90 + b"\nroot { anyOf { screen " + b"A" * 90 + b" empty } }\n",
}


def main():
    corpus = ROOT / "Fuzz" / "Corpus"
    for name in ("analysis", "server", "programs", "format"):
        d = corpus / name
        if d.exists():
            shutil.rmtree(d)
        d.mkdir(parents=True)
    for src in sorted(list((ROOT / "Tests" / "Fixtures").rglob("*.routes")) + list((ROOT / "Examples").rglob("*.routes"))):
        rel = src.relative_to(ROOT).as_posix().replace("/", "_")
        # Programs entangled on purpose up to the analysis's budget take seconds each under
        # AddressSanitizer: they would turn the fuzz smoke into a timeout.
        if "analysis-limit" in rel:
            continue
        shutil.copyfile(src, corpus / "analysis" / rel)
    # Two files joined by the `%%%` line the analysis target splits on, with an import.
    (corpus / "analysis" / "two-files.routes").write_bytes(
        b'import "F1.routes"\nroot { anyOf { screen Home\n b } }\n\n%%%\nscreen Home\nbuilder b { screen Home }\n')
    # Links across two files: one ties with a link of the imported file.
    (corpus / "analysis" / "two-files-links.routes").write_bytes(
        b'import "F1.routes"\nlink a "/{x}" -> Home/D(x: x)\nroot { screen Home { screen D } }\n\n%%%\n'
        b'screen Home\nscreen D(x: String)\nlink b "/{y}" -> Home/D(x: y)\nlink c "/d?n={n?}" -> D(x: n)\n')
    # The formatter's: its fixtures, before and after, and layouts of every kind (the
    # analysis seeds are read by the format target too: scripts/fuzz.sh).
    for src in sorted((ROOT / "Tests" / "Fixtures" / "fmt").iterdir()):
        if src.suffix in (".routes", ".formatted"):
            shutil.copyfile(src, corpus / "format" / src.name)
    for name, data in layouts.items():
        (corpus / "format" / name).write_bytes(data)
    for name, data in server.items():
        (corpus / "server" / name).write_bytes(data)
    rng = random.Random(20261121)
    for i in range(24):
        (corpus / "programs" / f"random-{i:02}").write_bytes(bytes(rng.randrange(256) for _ in range(rng.choice([16, 64, 256]))))


if __name__ == "__main__":
    main()
