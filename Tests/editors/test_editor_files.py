"""Tests of the editor integration files: Grammar/language-configuration.json, the VS Code
extension (Editors/vscode), the Helix configuration (Editors/helix) and the Sublime Text
files (Editors/sublime).

Nothing here needs an editor, Node or npm: manifests, the lockfile and settings are parsed
and cross-checked, and the Sublime syntax is run on the fixture cases of test_textmate.py by
a small interpreter of the sublime-syntax format (SublimeSyntax below). Where node and npm
are installed, they also run the extension's argument parser and check the lockfile.

Run: python3 -m pytest -q Tests/editors
"""
from __future__ import annotations

import base64
import json
import pathlib
import plistlib
import re
import shutil
import subprocess

import onigurumacffi
import pytest
import yaml

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib

from test_textmate import check_tokens, describe, ebnf_keywords, is_leaf, load_cases

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
GRAMMAR_DIR = ROOT / "Grammar"
TMLANGUAGE = GRAMMAR_DIR / "routes.tmLanguage.json"
LANGUAGE_CONFIGURATION = GRAMMAR_DIR / "language-configuration.json"
VSCODE = ROOT / "Editors" / "vscode"
EXTENSION_TS = VSCODE / "src" / "extension.ts"
PREVIEW_ARGUMENTS_JS = VSCODE / "src" / "previewArguments.js"
SEMANTIC_TOKENS_SWIFT = ROOT / "Sources" / "RoutesIDE" / "SemanticTokens.swift"
HELIX = ROOT / "Editors" / "helix" / "languages.toml"
SUBLIME = ROOT / "Editors" / "sublime"
SUBLIME_SYNTAX = SUBLIME / "Routes.sublime-syntax"
SUBLIME_LSP = SUBLIME / "LSP.sublime-settings"
EXAMPLES = sorted((ROOT / "Examples").rglob("*.routes"))


def read_json(path: pathlib.Path):
    return json.loads(path.read_text(encoding="utf-8"))


# ============================================================================ language-configuration.json


@pytest.fixture(scope="module")
def language_configuration() -> dict:
    return read_json(LANGUAGE_CONFIGURATION)


def test_language_configuration_comments_and_brackets(language_configuration):
    assert language_configuration["comments"] == {"lineComment": "//"}
    assert "blockComment" not in language_configuration["comments"]  # the language has none
    brackets = {tuple(pair) for pair in language_configuration["brackets"]}
    assert brackets == {("{", "}"), ("(", ")"), ("[", "]")}


def test_language_configuration_pairs(language_configuration):
    closing = {pair["open"]: pair["close"] for pair in language_configuration["autoClosingPairs"]}
    assert closing == {"{": "}", "(": ")", "[": "]", '"': '"'}
    quote = next(pair for pair in language_configuration["autoClosingPairs"] if pair["open"] == '"')
    assert set(quote["notIn"]) == {"string", "comment"}
    surrounding = {tuple(pair) for pair in language_configuration["surroundingPairs"]}
    assert surrounding == {("{", "}"), ("(", ")"), ("[", "]"), ('"', '"')}


@pytest.mark.parametrize("line, increases", [
    ("root {", True),
    ("builder detail {", True),
    ("  screen Home uses appStore {   ", True),
    ("    anyOf { // the tabs", True),
    ("screen OrderTracking(", True),
    ("  items: [", True),
    ("screen Home", False),
    ("  screen Home uses appStore { detail }", False),
    ("// root {", False),
    ("screen Home // {", False),
    ("}", False),
])
def test_indentation_increases_after_an_open_bracket(language_configuration, line, increases):
    pattern = language_configuration["indentationRules"]["increaseIndentPattern"]
    assert bool(re.search(pattern, line)) == increases


@pytest.mark.parametrize("line, decreases", [
    ("}", True), ("  } else {", True), (")", True), ("  ) sheet", True), ("]", True),
    ("  screen Home", False), ("root {", False), ("// }", False),
])
def test_indentation_decreases_at_a_closing_bracket(language_configuration, line, decreases):
    pattern = language_configuration["indentationRules"]["decreaseIndentPattern"]
    assert bool(re.search(pattern, line)) == decreases


def test_word_pattern_is_an_identifier(language_configuration):
    word = re.compile(language_configuration["wordPattern"])
    for identifier in ["Home", "settingsStore", "_private", "a1", "screenHome", "anyOf"]:
        assert word.fullmatch(identifier), identifier
    assert [m.group() for m in word.finditer("Detail(id: Order.ID)")] == ["Detail", "id", "Order", "ID"]
    assert [m.group() for m in word.finditer("uses a, b")] == ["uses", "a", "b"]
    assert not word.match("1abc")


def test_enter_in_a_doc_comment_continues_it(language_configuration):
    rules = language_configuration["onEnterRules"]
    doc = [rule for rule in rules if rule["action"].get("appendText") == "/// "]
    assert len(doc) == 1
    before = re.compile(doc[0]["beforeText"])
    assert before.search("  /// Docs for Home.")
    assert not before.search("  // A plain comment.")
    assert not before.search("//// Four slashes: a plain comment.")


# ============================================================================ VS Code


@pytest.fixture(scope="module")
def manifest() -> dict:
    return read_json(VSCODE / "package.json")


@pytest.fixture(scope="module")
def extension_ts() -> str:
    return EXTENSION_TS.read_text(encoding="utf-8")


def ts_string_constants(source: str) -> dict[str, str]:
    """`const NAME = "value";` declarations of a TypeScript file."""
    return dict(re.findall(r'\bconst\s+([A-Za-z_]\w*)\s*=\s*"([^"\\]*)"\s*;', source))


def ts_value(source: str, expression: str) -> str:
    """A string literal, or a constant's value."""
    expression = expression.strip()
    literal = re.fullmatch(r'"([^"\\]*)"', expression)
    if literal:
        return literal.group(1)
    constants = ts_string_constants(source)
    assert expression in constants, f"{expression} is neither a string literal nor a string constant"
    return constants[expression]


def test_manifest_identity(manifest):
    assert manifest["name"] == "routes-vscode"
    assert manifest["publisher"] == "routes"
    assert re.fullmatch(r"\d+\.\d+\.\d+", manifest["version"])
    assert manifest["main"] == "./out/extension.js"
    assert "onLanguage:routes" in manifest["activationEvents"]


def test_manifest_engine_fits_the_language_client(manifest):
    """vscode-languageclient 9 refuses to start on VS Code older than 1.82 (its
    checkVersion), so the manifest must not promise less."""
    client = manifest["dependencies"]["vscode-languageclient"]
    assert re.fullmatch(r"\^9\.\d+\.\d+", client), client
    engine = re.fullmatch(r"\^1\.(\d+)\.\d+", manifest["engines"]["vscode"])
    assert engine and int(engine.group(1)) >= 82, manifest["engines"]["vscode"]
    # vsce refuses @types/vscode newer than the engine.
    types = re.fullmatch(r"[~^]?1\.(\d+)\.\d+", manifest["devDependencies"]["@types/vscode"])
    assert types and int(types.group(1)) <= int(engine.group(1))


def test_main_is_what_tsc_builds(manifest):
    tsconfig = read_json(VSCODE / "tsconfig.json")
    options = tsconfig["compilerOptions"]
    source = pathlib.PurePosixPath(options["rootDir"]) / "extension.ts"
    built = pathlib.PurePosixPath(options["outDir"]) / "extension.js"
    assert (VSCODE / source).is_file()
    assert pathlib.PurePosixPath(manifest["main"]) == pathlib.PurePosixPath(".") / built
    assert options["module"] == "commonjs"


def contributed_paths(manifest) -> list[str]:
    contributes = manifest["contributes"]
    paths = [language["configuration"] for language in contributes["languages"] if "configuration" in language]
    paths += [grammar["path"] for grammar in contributes["grammars"]]
    return paths


def test_every_contributed_path_exists_and_parses(manifest):
    paths = contributed_paths(manifest)
    assert len(paths) == 2
    for relative in paths:
        path = (VSCODE / relative).resolve()
        assert path.is_relative_to(VSCODE), f"{relative} is outside the extension: vsce would not package it"
        assert path.is_file(), relative
        read_json(path)


def test_language_contribution(manifest):
    [language] = manifest["contributes"]["languages"]
    assert language["id"] == "routes"
    assert language["extensions"] == [".routes"]
    assert language["configuration"] == "./language-configuration.json"


@pytest.mark.parametrize("copy, original", [
    ("language-configuration.json", LANGUAGE_CONFIGURATION),
    ("syntaxes/routes.tmLanguage.json", TMLANGUAGE),
])
def test_extension_copies_equal_the_grammar_files(copy, original):
    """The extension ships copies (vsce packages only its own folder); sync-grammar.js
    makes them. Run `node Editors/vscode/sync-grammar.js` after editing Grammar/."""
    assert (VSCODE / copy).read_bytes() == original.read_bytes(), (
        f"Editors/vscode/{copy} differs from {original.relative_to(ROOT)}: run node Editors/vscode/sync-grammar.js")


def test_grammar_contribution(manifest):
    [grammar] = manifest["contributes"]["grammars"]
    assert grammar["language"] == "routes"
    assert grammar["scopeName"] == "source.routes"
    assert read_json(VSCODE / grammar["path"])["scopeName"] == grammar["scopeName"]


def test_sync_script_copies_what_the_manifest_names(manifest):
    script = (VSCODE / "sync-grammar.js").read_text(encoding="utf-8")
    for relative in contributed_paths(manifest):
        name = pathlib.PurePosixPath(relative)
        assert f'"{name.name}"' in script, f"sync-grammar.js does not copy {name.name}"
    assert "sync-grammar" in manifest["scripts"]["vscode:prepublish"]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_sync_script_runs(tmp_path):
    (tmp_path / "Editors").mkdir()
    shutil.copytree(GRAMMAR_DIR, tmp_path / "Grammar")
    shutil.copytree(VSCODE, tmp_path / "Editors" / "vscode",
                    ignore=shutil.ignore_patterns("node_modules", "out", "syntaxes", "language-configuration.json"))
    subprocess.run(["node", "sync-grammar.js"], cwd=tmp_path / "Editors" / "vscode", check=True, capture_output=True)
    assert (tmp_path / "Editors/vscode/syntaxes/routes.tmLanguage.json").read_bytes() == TMLANGUAGE.read_bytes()
    assert (tmp_path / "Editors/vscode/language-configuration.json").read_bytes() == LANGUAGE_CONFIGURATION.read_bytes()


def test_command_contribution(manifest):
    commands = {command["command"]: command["title"] for command in manifest["contributes"]["commands"]}
    assert commands == {
        "routes.showPreview": "Routes: Show Routing Tree",
        "routes.previewPath": "Routes: Preview a Path…",
        "routes.restartServer": "Routes: Restart Language Server",
    }
    for menu, items in manifest["contributes"].get("menus", {}).items():
        for item in items:
            assert item["command"] in commands, f"menu {menu} names an unknown command {item['command']}"


def test_extension_registers_exactly_the_contributed_commands(manifest, extension_ts):
    registered = {ts_value(extension_ts, argument)
                  for argument in re.findall(r"registerCommand\(\s*([^,]+),", extension_ts)}
    contributed = {command["command"] for command in manifest["contributes"]["commands"]}
    assert registered == contributed


def test_configuration_contribution(manifest):
    properties = manifest["contributes"]["configuration"]["properties"]
    assert properties["routes.server.path"]["type"] == "string"
    assert properties["routes.server.path"]["default"] == "routes"
    trace = properties["routes.trace.server"]
    assert trace["enum"] == ["off", "messages", "verbose"]
    assert trace["default"] == "off"


def test_extension_reads_the_contributed_settings(manifest, extension_ts):
    properties = manifest["contributes"]["configuration"]["properties"]
    section = re.search(r'getConfiguration\("([^"]+)"\)\.get<string>\("([^"]+)"\)', extension_ts)
    assert section, "extension.ts does not read the server path setting"
    assert f"{section.group(1)}.{section.group(2)}" == "routes.server.path"
    # The fallback when the setting is empty is the setting's default.
    assert re.search(r':\s*"routes"\s*;', extension_ts)
    # vscode-languageclient reads `<client id>.trace.server`.
    client_id = re.search(r"new LanguageClient\(\s*([^,]+),", extension_ts)
    assert client_id, "extension.ts creates no LanguageClient"
    assert f"{ts_value(extension_ts, client_id.group(1))}.trace.server" in properties


def test_extension_starts_routes_lsp_over_stdio(extension_ts):
    assert 'from "vscode-languageclient/node"' in extension_ts
    server = re.search(r"\{\s*command:\s*serverPath\(\),\s*args:\s*\[\s*\"lsp\"\s*\]\s*\}", extension_ts)
    assert server, "the server is not `{command: serverPath(), args: [\"lsp\"]}`"
    assert not re.search(r"transport\s*:", extension_ts)  # an Executable without transport talks over stdio


def test_extension_selects_routes_files_and_watches_them(extension_ts):
    assert re.search(r'documentSelector:\s*\[\s*\{\s*scheme:\s*"file",\s*language:\s*"routes"\s*\}\s*\]', extension_ts)
    assert 'createFileSystemWatcher("**/*.routes")' in extension_ts
    assert re.search(r"fileEvents:\s*watcher", extension_ts)


def test_extension_previews_through_routes_preview(extension_ts):
    constants = ts_string_constants(extension_ts)
    request = re.search(r"sendRequest<\w+>\(\s*([^,]+),", extension_ts)
    assert request and ts_value(extension_ts, request.group(1)) == "routes/preview"
    assert re.search(r"textDocument:\s*\{\s*uri:\s*source\.toString\(\)\s*\},\s*path:\s*null", extension_ts)
    scheme = re.search(r"registerTextDocumentContentProvider\(\s*([^,]+),", extension_ts)
    assert scheme and ts_value(extension_ts, scheme.group(1)) == "routes-preview"
    assert constants.get("PREVIEW_SCHEME") == "routes-preview"
    assert "showTextDocument" in extension_ts


def test_the_preview_command_is_what_code_lenses_run(extension_ts):
    """The server's code lenses run `routes.showPreview` with the params of `routes/preview`
    as their one argument (Sources/RoutesLSP/EditorRequests.swift): the extension's command
    must take them, besides the editor title's URI and no argument at all."""
    lsp = (ROOT / "Sources" / "RoutesLSP" / "EditorRequests.swift").read_text(encoding="utf-8")
    command = re.search(r'static let previewCommand = "([^"]+)"', lsp)
    assert command and ts_string_constants(extension_ts)["SHOW_PREVIEW_COMMAND"] == command.group(1)
    assert re.search(r"registerCommand\(SHOW_PREVIEW_COMMAND,\s*\(argument\?: unknown\)\s*=>\s*showPreview\(provider,\s*argument\)\)",
                     extension_ts)
    assert "isPreviewParams(argument)" in extension_ts and "argument instanceof vscode.Uri" in extension_ts


def test_the_path_preview_asks_for_a_path_flags_and_optionals(extension_ts):
    body = extension_ts[extension_ts.index("async function previewPath("):]
    body = body[:body.index("\n}\n")]
    assert "showInputBox(" in body
    assert "parsePreviewArguments(input)" in body
    for field in ("path: parsed.path", "flags: parsed.flags", "optionals: parsed.optionals"):
        assert field in body
    assert 'from "./previewArguments"' in extension_ts


def test_restart_stops_and_starts_the_client(extension_ts):
    restart = re.search(r"registerCommand\(RESTART_COMMAND,(.*?)\}\),", extension_ts, re.S)
    assert restart, "no restart command"
    body = restart.group(1)
    assert body.index("await stopClient()") < body.index("await startClient(watcher)")


def test_extension_imports_only_what_it_depends_on(manifest, extension_ts):
    """Node's own modules need @types/node, which is not a dependency: the extension imports
    vscode, the language client and its own files only."""
    imports = re.findall(r'from "([^"]+)"', extension_ts)
    allowed = {"vscode", "vscode-languageclient/node"}
    for module in imports:
        assert module in allowed or module.startswith("./"), module
    assert "vscode-languageclient" in manifest["dependencies"]
    assert "@types/node" not in manifest.get("devDependencies", {})
    tsconfig = read_json(VSCODE / "tsconfig.json")
    assert tsconfig["compilerOptions"].get("allowJs") is True  # src/previewArguments.js is compiled too


# The cases Neovim's :RoutesPreview is tested with (Tests/editors/nvim/test.lua): the same rules.
PREVIEW_ARGUMENT_CASES = [
    ('Home/Detail(id: "42")', {"path": 'Home/Detail(id: "42")', "flags": {}, "optionals": {}}),
    ('Home/Detail(id: "a b")  isLoggedIn=false', {"path": 'Home/Detail(id: "a b")', "flags": {"isLoggedIn": False}, "optionals": {}}),
    ("detailStore=absent Login", {"path": "Login", "flags": {}, "optionals": {"detailStore": False}}),
    ('  Home / Detail(id: "x\\" y")  ', {"path": 'Home / Detail(id: "x\\" y")', "flags": {}, "optionals": {}}),
    ("isLoggedIn=true", {"path": None, "flags": {"isLoggedIn": True}, "optionals": {}}),
    ("", {"path": None, "flags": {}, "optionals": {}}),
    ("Home x=true Detail", {"error": True}),
    ("isLoggedIn=maybe", {"error": True}),
]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_preview_arguments_parse_as_neovim_parses_them():
    script = (
        "const { parsePreviewArguments } = require(process.argv[1]);"
        "const cases = JSON.parse(process.argv[2]);"
        "process.stdout.write(JSON.stringify(cases.map((c) => parsePreviewArguments(c))));"
    )
    inputs = [text for text, _ in PREVIEW_ARGUMENT_CASES]
    out = subprocess.run(["node", "-e", script, str(PREVIEW_ARGUMENTS_JS), json.dumps(inputs)],
                         check=True, capture_output=True, text=True).stdout
    for (text, expected), got in zip(PREVIEW_ARGUMENT_CASES, json.loads(out)):
        if "error" in expected:
            assert set(got) == {"error"} and got["error"], (text, got)
        else:
            assert got == expected, text


# ---------------------------------------------------------------------------- VS Code: semantic tokens

# VS Code's own token types and modifiers (its semantic token classification).
STANDARD_TOKEN_TYPES = {
    "namespace", "class", "enum", "interface", "struct", "typeParameter", "type", "parameter", "variable",
    "property", "enumMember", "decorator", "event", "function", "method", "macro", "label", "comment",
    "string", "keyword", "number", "regexp", "operator",
}
STANDARD_TOKEN_MODIFIERS = {
    "declaration", "definition", "readonly", "static", "deprecated", "abstract", "async", "modification",
    "documentation", "defaultLibrary",
}


def server_token_legend() -> tuple[list[str], list[str]]:
    """The token types and modifiers the server emits, from SemanticTokens.swift: the cases
    of SemanticToken.Kind (in legend order) and Modifiers.legendNames."""
    source = SEMANTIC_TOKENS_SWIFT.read_text(encoding="utf-8")
    kinds = re.search(r"enum Kind: Int, Sendable, Hashable, CaseIterable \{\s*case ([^\n]+)", source)
    assert kinds, "SemanticToken.Kind not found"
    types = [name.strip() for name in kinds.group(1).split(",")]
    for name in types:  # each case is sent under its own name
        assert re.search(rf'case \.{name}: return "{name}"', source), name
    modifiers = re.search(r"legendNames = \[([^\]]*)\]", source)
    assert modifiers, "Modifiers.legendNames not found"
    return types, re.findall(r'"([^"]+)"', modifiers.group(1))


def test_the_server_legend_is_read():
    types, modifiers = server_token_legend()
    assert types[:5] == ["screen", "builder", "dependency", "optional", "flag"]
    assert "declaration" in modifiers and "unresolved" in modifiers


def test_every_token_type_the_server_emits_is_known_to_vscode(manifest):
    """VS Code ignores tokens of a type it does not know, and themes colour a declared type
    only through its superType or its TextMate scopes: every type the server emits is a
    standard one or declared here, with a superType VS Code knows."""
    types, modifiers = server_token_legend()
    declared = {entry["id"]: entry for entry in manifest["contributes"]["semanticTokenTypes"]}
    for name in types:
        assert name in STANDARD_TOKEN_TYPES or name in declared, f"token type {name} is not declared"
    for name, entry in declared.items():
        assert name in types, f"{name} is declared but the server never emits it"
        assert entry["superType"] in STANDARD_TOKEN_TYPES, entry
        assert entry["description"]
    declared_modifiers = {entry["id"] for entry in manifest["contributes"]["semanticTokenModifiers"]}
    for name in modifiers:
        assert name in STANDARD_TOKEN_MODIFIERS or name in declared_modifiers, f"modifier {name} is not declared"
    assert declared_modifiers <= set(modifiers)


def test_declared_token_types_map_to_the_grammars_scopes(manifest):
    """semanticTokenScopes maps each declared type (and its declarations) to the scopes the
    TextMate grammar gives the same names, so a theme colours them as it colours the grammar."""
    [entry] = manifest["contributes"]["semanticTokenScopes"]
    assert entry["language"] == "routes"
    scopes = entry["scopes"]
    grammar = TMLANGUAGE.read_text(encoding="utf-8")
    declared = {item["id"] for item in manifest["contributes"]["semanticTokenTypes"]}
    for name in declared:
        assert name in scopes, f"no TextMate scope for {name}"
    for selector, names in scopes.items():
        token_type, _, modifier = selector.partition(".")
        assert token_type in declared, selector
        assert modifier in ("", *server_token_legend()[1]), selector
        for scope in names:
            assert f'"{scope}"' in grammar, f"{selector}: {scope} is not a scope of the TextMate grammar"


# ---------------------------------------------------------------------------- VS Code: the lockfile


def parse_version(text: str) -> tuple[int, int, int]:
    major, minor, patch = (int(part) for part in text.split("-")[0].split("."))
    return major, minor, patch


def satisfies(version: str, requirement: str) -> bool:
    """npm's ranges as the manifests here write them: exact, ^X.Y.Z and ~X.Y.Z."""
    have = parse_version(version)
    if requirement[0] in "^~":
        want = parse_version(requirement[1:])
        if have < want:
            return False
        if requirement[0] == "~":
            return have[:2] == want[:2]
        return have[0] == want[0] if want[0] > 0 else have[:2] == want[:2]
    return have == parse_version(requirement)


@pytest.mark.parametrize("version, requirement, expected", [
    ("9.0.1", "^9.0.1", True), ("9.4.0", "^9.0.1", True), ("10.0.0", "^9.0.1", False), ("9.0.0", "^9.0.1", False),
    ("1.82.3", "~1.82.0", True), ("1.83.0", "~1.82.0", False), ("3.17.5", "3.17.5", True), ("3.17.6", "3.17.5", False),
])
def test_the_range_check_can_fail(version, requirement, expected):
    assert satisfies(version, requirement) == expected


@pytest.fixture(scope="module")
def lockfile() -> dict:
    return read_json(VSCODE / "package-lock.json")


def resolve(packages: dict, location: str, name: str) -> str | None:
    """Where node finds `name` from the package at `location`: its own node_modules, then
    each enclosing one."""
    while True:
        candidate = f"{location}/node_modules/{name}" if location else f"node_modules/{name}"
        if candidate in packages:
            return candidate
        if not location:
            return None
        location = location.rsplit("/node_modules/", 1)[0] if "/node_modules/" in location else ""


def test_the_lockfile_records_the_manifest(manifest, lockfile):
    assert lockfile["lockfileVersion"] == 3
    assert lockfile["name"] == manifest["name"] and lockfile["version"] == manifest["version"]
    root = lockfile["packages"][""]
    for key in ("name", "version", "dependencies", "devDependencies", "engines"):
        assert root.get(key) == manifest.get(key), key


def test_every_dependency_is_locked_once_and_satisfies_its_range(manifest, lockfile):
    packages = lockfile["packages"]
    reached: dict[str, bool] = {}  # location -> reached from a production dependency
    stack = [("", name, requirement, False) for name, requirement in manifest["dependencies"].items()]
    stack += [("", name, requirement, True) for name, requirement in manifest["devDependencies"].items()]
    while stack:
        parent, name, requirement, dev = stack.pop()
        location = resolve(packages, parent, name)
        assert location, f"{name} (needed by {parent or 'the extension'}) is not in the lockfile"
        entry = packages[location]
        assert satisfies(entry["version"], requirement), f"{location} {entry['version']} does not satisfy {requirement}"
        if location in reached and (dev or not reached[location]):
            continue
        reached[location] = reached.get(location, False) or not dev
        stack += [(location, dep, req, dev) for dep, req in entry.get("dependencies", {}).items()]
    listed = {key for key in packages if key}
    assert listed == set(reached), f"packages nothing needs: {listed - set(reached)}"
    for location, production in reached.items():
        assert packages[location].get("dev", False) == (not production), location


def test_every_locked_package_comes_from_the_registry_with_its_hash(lockfile):
    for location, entry in lockfile["packages"].items():
        if not location:
            continue
        name = location.rsplit("node_modules/", 1)[1]
        base = name.rsplit("/", 1)[-1]
        assert entry["resolved"] == f"https://registry.npmjs.org/{name}/-/{base}-{entry['version']}.tgz", location
        algorithm, _, digest = entry["integrity"].partition("-")
        assert algorithm == "sha512", location
        assert len(base64.b64decode(digest, validate=True)) == 64, location


@pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")
def test_npm_reads_the_lockfile_as_complete(tmp_path):
    """`npm ls --package-lock-only` checks the tree in the lockfile against the manifest,
    offline."""
    for name in ("package.json", "package-lock.json"):
        shutil.copy(VSCODE / name, tmp_path / name)
    result = subprocess.run(["npm", "ls", "--package-lock-only", "--all", "--offline"], cwd=tmp_path,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_vscodeignore_keeps_what_the_extension_needs(manifest):
    ignored = [line.strip() for line in (VSCODE / ".vscodeignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    assert "src/**" in ignored
    needed = [manifest["main"], *contributed_paths(manifest), "./package.json"]
    for path in needed:
        path = path.removeprefix("./")
        for pattern in ignored:
            assert not pathlib.PurePosixPath(path).match(pattern), f".vscodeignore {pattern!r} drops {path}"


def test_vscode_readme_has_the_build_steps():
    readme = (VSCODE / "README.md").read_text(encoding="utf-8")
    for step in ["npm ci", "npx tsc -p .", "npx @vscode/vsce package", "code --install-extension", "routes.server.path",
                 "Routes: Preview a Path", "Routes: Restart Language Server"]:
        assert step in readme, f"Editors/vscode/README.md does not mention {step!r}"


# ============================================================================ Helix


@pytest.fixture(scope="module")
def helix() -> dict:
    with HELIX.open("rb") as file:
        return tomllib.load(file)


def test_helix_language(helix):
    [language] = [entry for entry in helix["language"] if entry["name"] == "routes"]
    assert language["scope"] == "source.routes"
    assert language["file-types"] == ["routes"]
    # `comment-tokens` (a string or a list) replaced `comment-token` in Helix 24.03.
    assert "comment-token" not in language
    assert language["comment-tokens"] in ("//", ["//"]) or language["comment-tokens"][0] == "//"
    assert language["indent"]["unit"].strip() == "" and len(language["indent"]["unit"]) == language["indent"]["tab-width"]
    assert language["language-servers"] == ["routes-lsp"]


def test_helix_language_server(helix):
    server = helix["language-server"]["routes-lsp"]
    assert server["command"] == "routes"
    assert server["args"] == ["lsp"]


def test_helix_servers_are_defined(helix):
    for language in helix["language"]:
        for server in language["language-servers"]:
            name = server if isinstance(server, str) else server["name"]
            assert name in helix["language-server"], f"{language['name']} uses an undefined server {name}"


# ============================================================================ Sublime Text


@pytest.fixture(scope="module")
def sublime_syntax() -> dict:
    return yaml.safe_load(SUBLIME_SYNTAX.read_text(encoding="utf-8"))


def test_sublime_syntax_identity(sublime_syntax):
    assert SUBLIME_SYNTAX.read_text(encoding="utf-8").startswith("%YAML 1.2\n---\n")
    # Version 2 of the format; SublimeSyntax below runs `set` as version 2 does.
    assert sublime_syntax["version"] == 2
    assert sublime_syntax["scope"] == "source.routes"
    assert sublime_syntax["file_extensions"] == ["routes"]
    assert sublime_syntax["name"] == "Routes"
    assert "main" in sublime_syntax["contexts"]


def test_sublime_syntax_keywords_match_the_ebnf(sublime_syntax):
    keyword = sublime_syntax["variables"]["keyword"]
    assert set(re.fullmatch(r"\(\?:(.*)\)", keyword).group(1).split("|")) == ebnf_keywords()


def test_sublime_syntax_references_and_regexes(sublime_syntax):
    syntax = SublimeSyntax(sublime_syntax)  # compiles every regex, resolves every context
    assert len(syntax.compiled) > 40


def test_sublime_syntax_scopes_like_the_textmate_grammar(sublime_syntax):
    """Every scope the Sublime syntax assigns is one the TextMate grammar assigns too."""
    def scopes_of(node, keys):
        if isinstance(node, dict):
            for key, value in node.items():
                if key in keys and isinstance(value, str):
                    yield value
                elif key == "captures" and all(isinstance(v, str) for v in value.values()):
                    yield from value.values()  # sublime-syntax: group -> scope
                else:
                    yield from scopes_of(value, keys)
        elif isinstance(node, list):
            for item in node:
                yield from scopes_of(item, keys)

    textmate = set(scopes_of(read_json(TMLANGUAGE)["repository"], {"name"}))
    sublime = set(scopes_of(sublime_syntax["contexts"], {"scope", "meta_scope"}))
    assert sublime - textmate == set()
    assert len(sublime) > 40


CASES = load_cases()


@pytest.mark.parametrize("case", [case for _, case in CASES], ids=[name for name, _ in CASES])
def test_sublime_fixture_scopes(sublime_syntax, case):
    tokens = SublimeSyntax(sublime_syntax).tokenize(case["source"])
    problems = check_tokens(tokens, case["expect"])
    assert not problems, "\n".join(problems) + "\ntokens:\n" + describe(tokens)


@pytest.mark.parametrize("path", EXAMPLES, ids=[str(p.relative_to(ROOT)) for p in EXAMPLES])
def test_sublime_example_is_fully_scoped(sublime_syntax, path):
    source = path.read_text(encoding="utf-8")
    tokens = SublimeSyntax(sublime_syntax).tokenize(source)
    assert "".join(text for text, _ in tokens) == source.replace("\n", "")
    for text, scopes in tokens:
        if text.strip():
            assert is_leaf(scopes[-1]), f"{text!r} is left unscoped ({' '.join(scopes)})"
            assert not any(scope.startswith("invalid.") for scope in scopes), f"{text!r}: {' '.join(scopes)}"


def test_sublime_interpreter_can_fail(sublime_syntax):
    tokens = SublimeSyntax(sublime_syntax).tokenize("root {\n  screen Home\n}\n")
    assert check_tokens(tokens, [["Home", "entity.name.type.routes"]]) == []
    assert check_tokens(tokens, [["Home", "entity.name.type.screen.routes"]])


def test_sublime_lsp_client(sublime_syntax):
    settings = read_json(SUBLIME_LSP)
    client = settings["clients"]["routes"]
    assert client["enabled"] is True
    assert client["command"] == ["routes", "lsp"]
    assert client["selector"] == sublime_syntax["scope"]


def test_sublime_comment_preferences():
    preferences = plistlib.loads((SUBLIME / "Comments.tmPreferences").read_bytes())
    assert preferences["scope"] == "source.routes"
    variables = {item["name"]: item["value"] for item in preferences["settings"]["shellVariables"]}
    assert variables == {"TM_COMMENT_START": "// "}


def test_sublime_indentation_preferences_match_vscode(language_configuration):
    preferences = plistlib.loads((SUBLIME / "Indentation Rules.tmPreferences").read_bytes())
    assert preferences["scope"] == "source.routes"
    rules = language_configuration["indentationRules"]
    assert preferences["settings"]["increaseIndentPattern"] == rules["increaseIndentPattern"]
    assert preferences["settings"]["decreaseIndentPattern"] == rules["decreaseIndentPattern"]


# ---------------------------------------------------------------------------- a sublime-syntax interpreter


class SublimeSyntax:
    """Runs a .sublime-syntax file the way Sublime Text does, for the features this syntax
    uses: variables, named contexts, a prototype (and meta_include_prototype), include,
    match with scope or captures, push / set / pop, and meta_scope. Each line is matched
    with its newline; at each position the pattern of the current context that matches
    earliest wins, the first listed on a tie. A meta_scope covers the text that pushes and
    pops its context too; the text a `set` matches gets the new context's meta_scope only,
    as in version 2 of the format. Anything else in the file is an error here, so that this
    test never silently ignores a construct."""

    KNOWN_KEYS = {"match", "scope", "captures", "push", "set", "pop", "include",
                  "meta_scope", "meta_include_prototype"}

    def __init__(self, syntax: dict):
        self.scope = syntax["scope"]
        self.variables = syntax.get("variables", {})
        self.contexts = syntax["contexts"]
        self.compiled: dict[str, onigurumacffi._Pattern] = {}
        # As in Sublime, the contexts the prototype includes do not get the prototype.
        self.in_prototype = self._included_by("prototype") if "prototype" in self.contexts else set()
        self.patterns = {name: self._flatten(name) for name in self.contexts}

    def _included_by(self, name: str) -> set[str]:
        found = {name}
        for rule in self.contexts[name]:
            if "include" in rule and rule["include"] not in found:
                found |= self._included_by(rule["include"])
        return found

    def _expand(self, regex: str) -> str:
        for _ in range(10):
            expanded = re.sub(r"\{\{(\w+)\}\}", lambda m: self.variables[m.group(1)], regex)
            if expanded == regex:
                return expanded
            regex = expanded
        raise AssertionError(f"variables nest too deep in {regex}")

    def _compile(self, regex: str):
        if regex not in self.compiled:
            self.compiled[regex] = onigurumacffi.compile(self._expand(regex))
        return self.compiled[regex]

    def _meta(self, name: str) -> dict:
        meta = {}
        for rule in self.contexts[name]:
            for key in ("meta_scope", "meta_include_prototype"):
                if key in rule:
                    meta[key] = rule[key]
        return meta

    def _flatten(self, name: str, seen=()) -> list[dict]:
        assert name in self.contexts, f"unknown context {name!r}"
        assert name not in seen, f"contexts include each other: {seen + (name,)}"
        rules = []
        if not seen and name not in self.in_prototype \
                and self._meta(name).get("meta_include_prototype", True):
            rules += self._flatten("prototype", (name,))
        for rule in self.contexts[name]:
            unknown = set(rule) - self.KNOWN_KEYS
            assert not unknown, f"{name}: unsupported keys {unknown}"
            if "include" in rule:
                rules += self._flatten(rule["include"], seen + (name,))
            elif "match" in rule:
                self._compile(rule["match"])
                for target in ("push", "set"):
                    if target in rule:
                        assert isinstance(rule[target], str), f"{name}: only named contexts are supported"
                        assert rule[target] in self.contexts, f"{name}: unknown context {rule[target]!r}"
                rules.append(rule)
        return rules

    def tokenize(self, source: str) -> list[tuple[str, list[str]]]:
        stack = ["main"]
        runs: list[tuple[str, list[str]]] = []

        def metas() -> list[str]:
            return [scope for context in stack
                    for scope in [self._meta(context).get("meta_scope")] if scope]

        def emit(text: str, scopes: list[str]):
            text = text.replace("\n", "")
            if not text:
                return
            if runs and runs[-1][1] == scopes:
                runs[-1] = (runs[-1][0] + text, scopes)
            else:
                runs.append((text, scopes))

        for line in source.splitlines(keepends=True):
            if not line.endswith("\n"):
                line += "\n"
            position = 0
            last_empty: tuple[int, int] | None = None
            while position < len(line):
                best = None
                for rule in self.patterns[stack[-1]]:
                    match = self._compile(rule["match"]).search(line, position)
                    if match and (best is None or match.start() < best[1].start()):
                        best = (rule, match)
                if best is None:
                    emit(line[position:], [self.scope, *metas()])
                    break
                rule, match = best
                if match.start() == match.end():
                    # A zero-width match must change the stack, or it would repeat forever.
                    assert any(key in rule for key in ("push", "set", "pop")), f"empty match of {rule['match']}"
                    assert last_empty != (position, len(stack)), f"loop at {line!r}:{position}"
                    last_empty = (position, len(stack))
                emit(line[position:match.start()], [self.scope, *metas()])
                # The stack the matched text is scoped with: a pushed or set context's
                # meta_scope covers it, and so does a popped one's.
                if "pop" in rule:
                    inside = list(stack)
                    stack.pop()
                elif "set" in rule:
                    stack[-1] = rule["set"]
                    inside = list(stack)
                elif "push" in rule:
                    stack.append(rule["push"])
                    inside = list(stack)
                else:
                    inside = list(stack)
                base = [self.scope] + [scope for context in inside
                                       for scope in [self._meta(context).get("meta_scope")] if scope]
                if "scope" in rule:
                    base.append(rule["scope"])
                per_char = [list(base) for _ in range(match.start(), match.end())]
                for group, scope in sorted(rule.get("captures", {}).items()):
                    start, end = match.span(group)
                    for index in range(max(start, match.start()), min(end, match.end())):
                        per_char[index - match.start()].append(scope)
                for offset, scopes in enumerate(per_char):
                    emit(line[match.start() + offset], scopes)
                assert stack, "popped the main context"
                position = match.end()
        return runs
