"""Tests of the TextMate grammar Grammar/routes.tmLanguage.json.

The grammar is run by textmate-grammar-python, a Python port of the tokenizer VS Code uses
(vscode-textmate). The scope checks are data-driven: each file in fixtures/*.yaml holds
cases of a source snippet and the tokens expected in it, as [token text, innermost scope]
pairs (see fixtures/declarations.yaml for the format). Test_editor_files.py runs the same
cases against the Sublime syntax.

Run: python3 -m pytest -q Tests/editors
"""
from __future__ import annotations

import json
import os
import pathlib
import re
import tempfile

import pytest
import yaml

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
GRAMMAR = ROOT / "Grammar" / "routes.tmLanguage.json"
EBNF = ROOT / "Grammar" / "routes.ebnf"
FIXTURES = HERE / "fixtures"
EXAMPLES = sorted((ROOT / "Examples").rglob("*.routes"))
TEST_SOURCES = sorted((ROOT / "Tests").rglob("*.routes"))

ROOT_SCOPE = "source.routes"


# ---------------------------------------------------------------------------- helpers


def load_engine():
    """Imports textmate-grammar-python. The package creates a `.textmate_cache` folder in
    the working directory when it is imported; it is imported from a temporary directory
    so that the checkout stays clean."""
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)
        try:
            from textmate_grammar.parsers.base import LanguageParser
            from textmate_grammar.utils.logger import LOGGER
        finally:
            os.chdir(cwd)
    # The port logs a warning for every run of text inside a region (a string's
    # characters, say) that no pattern matched; that is normal TextMate behaviour.
    LOGGER.logger.setLevel("ERROR")
    return LanguageParser


def ebnf_keywords() -> set[str]:
    """The KEYWORD rule of Grammar/routes.ebnf: the language's reserved words."""
    text = EBNF.read_text(encoding="utf-8")
    rule = re.search(r"^KEYWORD\s*=(.*?);", text, re.S | re.M)
    assert rule, "no KEYWORD rule in routes.ebnf"
    body = re.sub(r"\(\*.*?\*\)", "", rule.group(1), flags=re.S)
    words = set(re.findall(r'"([^"]+)"', body))
    assert len(words) >= 20, words
    return words


def load_cases() -> list[tuple[str, dict]]:
    cases = []
    for path in sorted(FIXTURES.glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8")):
            cases.append((f"{path.stem}: {case['name']}", case))
    return cases


Token = tuple[str, list[str]]  # (text, scopes from the outermost to the innermost)


def check_tokens(tokens: list[Token], expect: list[list[str]]) -> list[str]:
    """Matches each expected [text, scope] to the next token with exactly that text, in
    order, and returns the problems: a text not found, or a different innermost scope."""
    problems = []
    position = 0
    for text, scope in expect:
        found = next((i for i in range(position, len(tokens)) if tokens[i][0] == text), None)
        if found is None:
            problems.append(f"no token {text!r} after token #{position}")
            continue
        innermost = tokens[found][1][-1]
        if innermost != scope:
            problems.append(f"{text!r} (token #{found}) is {innermost}, expected {scope}")
        position = found + 1
    return problems


def is_leaf(scope: str) -> bool:
    """Whether a scope says what a token is: not the file's scope or a region's `meta.*`."""
    return scope != ROOT_SCOPE and not scope.startswith("meta.")


def describe(tokens: list[Token]) -> str:
    return "\n".join(f"  {text!r:30} {' '.join(scopes)}" for text, scopes in tokens)


# ---------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def grammar() -> dict:
    return json.loads(GRAMMAR.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def tokenize(grammar):
    parser = load_engine()(grammar)

    def run(source: str) -> list[Token]:
        element = parser.parse_string(source)
        assert element is not None, f"the grammar tokenized nothing in {source!r}"
        return [(text, list(scopes)) for _, text, scopes in element.flatten()]

    return run


# ---------------------------------------------------------------------------- the grammar file


def test_grammar_identity(grammar):
    assert grammar["scopeName"] == "source.routes"
    assert grammar["fileTypes"] == ["routes"]
    assert grammar["name"] == "Routes"


def walk_rules(node, where="$"):
    """Yields (location, rule) for every rule object in the grammar."""
    if isinstance(node, dict):
        if any(key in node for key in ("match", "begin", "include", "patterns", "name")):
            yield where, node
        for key, value in node.items():
            yield from walk_rules(value, f"{where}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from walk_rules(value, f"{where}[{index}]")


def test_every_include_resolves(grammar):
    repository = grammar["repository"]
    for where, rule in walk_rules(grammar):
        include = rule.get("include")
        if include is None or include in ("$self", "$base"):
            continue
        assert include.startswith("#"), f"{where}: include {include!r} names another grammar"
        assert include[1:] in repository, f"{where}: include {include!r} is not in the repository"


def test_every_repository_rule_is_used(grammar):
    used = {rule["include"][1:] for _, rule in walk_rules(grammar) if "include" in rule}
    unused = set(grammar["repository"]) - used
    assert not unused, f"repository rules that nothing includes: {sorted(unused)}"


def test_every_regex_compiles_in_oniguruma(grammar):
    import onigurumacffi

    count = 0
    for where, rule in walk_rules(grammar):
        for key in ("match", "begin", "end", "while"):
            if key in rule:
                try:
                    onigurumacffi.compile(rule[key])
                except Exception as error:  # noqa: BLE001 - report which regex failed
                    pytest.fail(f"{where}.{key}: {error}: {rule[key]}")
                count += 1
    assert count > 20


def test_every_scope_ends_with_the_language(grammar):
    scopes = []
    for where, rule in walk_rules(grammar):
        if where == "$":
            continue  # the grammar's own "name" is its display name
        for key in ("name", "contentName"):
            if isinstance(rule.get(key), str):
                scopes.append(rule[key])
    assert scopes
    for scope in scopes:
        for part in scope.split():
            assert part.endswith(".routes"), f"scope {part!r} does not end with .routes"


def test_keyword_lists_match_the_ebnf(grammar):
    """Every alternation of keywords in the grammar (the `(?!(?:import|...)` guards that keep
    keywords out of names) lists exactly the KEYWORD rule of routes.ebnf."""
    keywords = ebnf_keywords()
    text = json.dumps(grammar)
    guards = re.findall(r"\(\?!\(\?:((?:[A-Za-z]+\|)+[A-Za-z]+)\)", text)
    assert guards, "no keyword guard found in the grammar"
    for guard in guards:
        assert set(guard.split("|")) == keywords, f"keyword guard {guard!r} differs from routes.ebnf"
    # The fallback rules scope every keyword somewhere.
    fallback = " ".join(rule["match"] for rule in grammar["repository"]["keywords"]["patterns"])
    fallback += " " + " ".join(rule["match"] for rule in grammar["repository"]["literals"]["patterns"])
    assert {word for word in keywords if re.search(rf"\b{word}\b", fallback)} == keywords


# ---------------------------------------------------------------------------- scopes: fixtures

CASES = load_cases()


def test_fixtures_exist():
    assert len(CASES) >= 20, f"only {len(CASES)} fixture cases"
    for name, case in CASES:
        assert case.get("source") and case.get("expect"), name
        for pair in case["expect"]:
            assert isinstance(pair, list) and len(pair) == 2, f"{name}: {pair!r} is no [text, scope] pair"
            assert all(isinstance(part, str) for part in pair), f"{name}: {pair!r}"


@pytest.mark.parametrize("case", [case for _, case in CASES], ids=[name for name, _ in CASES])
def test_fixture_scopes(tokenize, case):
    tokens = tokenize(case["source"])
    problems = check_tokens(tokens, case["expect"])
    assert not problems, "\n".join(problems) + "\ntokens:\n" + describe(tokens)


def test_checker_reports_a_wrong_scope_and_a_missing_token(tokenize):
    """The fixture checker itself can fail: it reports a wrong scope and a missing token."""
    tokens = tokenize("screen Home\n")
    assert check_tokens(tokens, [["Home", "entity.name.type.screen.routes"]]) == []
    assert check_tokens(tokens, [["Home", "variable.other.routes"]])
    assert check_tokens(tokens, [["Detail", "entity.name.type.screen.routes"]])
    # Order matters: `screen` comes before `Home`, not after it.
    assert check_tokens(tokens, [["Home", "entity.name.type.screen.routes"],
                                 ["screen", "keyword.declaration.screen.routes"]])


@pytest.mark.parametrize("keyword", sorted(ebnf_keywords()))
def test_every_keyword_is_scoped_as_a_keyword_everywhere(tokenize, keyword):
    """At top level, in a block, in a parameter list (not as a label) and in a type."""
    sources = [f"{keyword}\n", f"root {{ {keyword} }}\n", f"screen S(a: A {keyword})\n",
               f"dependency d: [{keyword}]\n"]
    for source in sources:
        tokens = tokenize(source)
        scopes = [scopes[-1] for text, scopes in tokens if text == keyword]
        assert scopes, f"{keyword!r} is no token of its own in {source!r}:\n{describe(tokens)}"
        assert re.match(r"(keyword|storage\.modifier|constant\.language)\.", scopes[0]), (
            f"{keyword!r} in {source!r} is {scopes[0]}")


@pytest.mark.parametrize("keyword", sorted(ebnf_keywords()))
def test_every_keyword_is_a_label_before_a_colon(tokenize, keyword):
    tokens = tokenize(f"screen S({keyword}: T)\n")
    expect = [["(", "punctuation.section.parameters.begin.routes"],
              [keyword, "variable.parameter.routes"], ["T", "support.type.routes"]]
    assert check_tokens(tokens, expect) == [], describe(tokens)


# ---------------------------------------------------------------------------- whole files


def assert_fully_scoped(tokens: list[Token], source: str, allow_invalid: bool):
    text_by_line = source.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    joined = "".join(text for text, _ in tokens)
    assert joined == "".join(text_by_line), "the tokens do not cover the text exactly"
    for text, scopes in tokens:
        if text.strip() == "":
            continue
        assert scopes[0] == ROOT_SCOPE
        assert is_leaf(scopes[-1]), f"{text!r} is left unscoped ({' '.join(scopes)})"
        if not allow_invalid:
            assert not any(scope.startswith("invalid.") for scope in scopes), (
                f"{text!r} is marked invalid ({' '.join(scopes)})")


def test_examples_exist():
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize("path", EXAMPLES, ids=[str(p.relative_to(ROOT)) for p in EXAMPLES])
def test_example_is_fully_scoped(tokenize, path):
    """Every token of every example gets a scope of its own (only whitespace is left with
    just source.routes or a region's meta scope), and none is marked invalid: the examples
    use only real tokens, even the one whose point is a syntax error."""
    source = path.read_text(encoding="utf-8")
    assert_fully_scoped(tokenize(source), source, allow_invalid=False)


@pytest.mark.parametrize("path", TEST_SOURCES, ids=[str(p.relative_to(ROOT)) for p in TEST_SOURCES])
def test_test_source_tokenizes(tokenize, path):
    """The .routes files of the other test suites, broken ones included, tokenize fully
    (a stray character is scoped invalid.illegal rather than left out)."""
    source = path.read_bytes().decode("utf-8", errors="replace")
    assert_fully_scoped(tokenize(source), source, allow_invalid=True)
