"""The grammar document (Grammar/routes.ebnf) against samples and against the Swift parser.

Run from the repository root:  python3 -m pytest Tests/grammar
Only the grammar's own tests:    python3 -m pytest Tests/grammar -k "not conformance"

The checker is built from the .ebnf on every run (Grammar/ebnf_to_lark.py); there is no
second grammar to keep in step. The conformance tests run the Swift CLI
(`routes lint --format json`) and compare its syntax-error verdict with the checker's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple, Union

import pytest

REPO = Path(__file__).resolve().parents[2]
GRAMMAR_DIR = REPO / "Grammar"
EBNF = GRAMMAR_DIR / "routes.ebnf"
sys.path.insert(0, str(GRAMMAR_DIR))

import ebnf_to_lark  # noqa: E402


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def skip_or_fail(message: str) -> None:
    """Under CI a missing prerequisite is a failure; on a developer's machine a skip."""
    if in_ci():
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def checker() -> ebnf_to_lark.GrammarChecker:
    try:
        import lark  # noqa: F401
    except ImportError:
        skip_or_fail("the grammar tests need Lark: python3 -m pip install lark")
    return ebnf_to_lark.GrammarChecker(str(EBNF))


Source = Union[str, bytes]

# ---------------------------------------------------------------------------------------
# Samples. Each is (id, source). They are unit tests of the grammar, and (see the end of
# this file) also conformance cases for the Swift parser.
# ---------------------------------------------------------------------------------------

# The seed app, whose routing tree Examples/Seed/App.tree shows.
SEED_APP = """\
/// The seed app.
import "Settings.routes"

screen Login
screen Home
screen Settings
screen Detail(id: String) sheet

dependency appStore: AppStore
dependency loginStore: LoginStore
dependency settingsStore: SettingsStore from Home
optional detailStore: DetailStore
flag isLoggedIn

/// A detail sheet, which can show another detail.
builder detail {
  if let detailStore {
    screen Detail uses detailStore {
      detail
    }
  } else {
    empty
  }
}

root {
  conditional isLoggedIn {
    wildcard Home {
      screen Home uses appStore {
        anyOf {
          screen Settings uses settingsStore
          detail
        }
      }
    }
  } else {
    wildcard Login {
      screen Login uses loginStore
    }
  }
}
"""

# One declaration of each kind, as the guide lists them (docs/language.md#declarations).
DECLARATIONS = """\
import "Settings.routes"                 // another file; path relative to this file

screen Home                              // a screen type, presented by push (the default)
screen Detail(id: String) sheet          // parameters are the screen's fields; presentation: push | sheet
screen Onboarding sheet(allowsPush: false)

dependency appStore: AppStore            // in scope everywhere
dependency settingsStore: SettingsStore from Home   // provided by a Home screen to what is built after it
optional detailStore: DetailStore        // may be nil: usable only inside `if let detailStore { }`
// `optional x: T from P` is both: provided by P, and usable only inside `if let x`
flag isLoggedIn                          // a runtime condition, used by `conditional`

/// Docs for a reusable builder.
builder home {                           // a named path builder (one builder in its block)
  screen Home uses appStore { empty }
}

root { home }                            // the program's entry builder: builds the first path element
"""

KEYWORDS = (
    "import screen dependency optional flag from builder root uses anyOf "
    "conditional else if let wildcard empty push sheet true false"
).split()

VALID_FILES: List[Tuple[str, Source]] = [
    ("seed-app", SEED_APP),
    ("declarations", DECLARATIONS),
    ("empty-file", ""),
    ("only-whitespace", " \t\r\n\n"),
    ("only-comments", "// a comment\n/// a doc comment with nothing after it\n"),
    ("doc-comment-at-eof-without-newline", "flag f\n/// dangling"),
    ("comment-right-after-token", "flag f// comment\nflag g///doc\n"),
    ("keyword-label-from", "screen Transfer(from: Account)"),
    ("cover-and-popover-declarations",
     "screen Paywall cover\nscreen Picker popover(allowsPush: false)\nscreen Story cover(allowsPush: true)\n"
     "root { screen Paywall { screen Picker } }"),
    ("presentation-at-a-placement",
     "screen Home\nscreen Detail sheet\ndependency store: Store\n"
     "root { screen Home { anyOf {\n  screen Detail as push uses store\n"
     "  screen Home as cover(allowsPush: false) uses store\n  screen Detail as sheet\n} } }"),
    ("placement-presentation-then-nesting", "screen A\nroot { screen A as popover { screen A as cover } }"),
    ("cover-popover-as-are-names",
     "screen cover\nscreen popover\nflag as\nbuilder b { conditional as { screen cover } else { screen popover } }\nroot { b }"),
    ("every-keyword-as-label",
     "screen S(" + ", ".join("%s: T%d" % (k, i) for i, k in enumerate(KEYWORDS)) + ")"),
    ("dictionary-of-arrays-optional", "screen S(x: [String: [Int]]?)"),
    ("dependency-dictionary-type", "dependency d: [String: [Int]]?"),
    ("nested-collection-types", "dependency d: [[A.B: C?]: [D]??]"),
    ("qualified-type", "dependency d: Swift.Result.Success?"),
    ("type-with-spaces-between-tokens", "dependency d: Swift . Result ?\noptional o: [ K : V ] ?"),
    ("type-generic", "dependency d: Array<Int>"),
    ("type-generics-nested", "dependency d: Result<Set<String>, [Array<Int>]>?"),
    ("type-generic-then-member", "dependency d: Array<Int>.Element"),
    ("type-tuple", "dependency d: (Int, Int)"),
    ("type-tuple-labelled", "screen S(point: (x: Int, y: Int), range: (from: Int, to: Int))"),
    ("type-empty-tuple", "dependency d: ()"),
    ("type-parenthesized-optional", "dependency d: (any Store)?"),
    ("type-function", "dependency d: (Int) -> Void"),
    ("type-function-no-parameters", "dependency d: () -> Void"),
    ("type-function-effects", "dependency d: @Sendable (Int, String) async throws -> [Int]"),
    ("type-function-typed-throws", "dependency d: () throws(LoadError) -> Data"),
    ("type-function-curried", "dependency d: (Int) -> (Int) -> Int"),
    ("type-function-optional", "dependency d: ((Int) -> Void)?"),
    ("type-function-labelled-parameters", "dependency d: (_ id: Int, inout [String]) -> Void"),
    ("type-function-attribute-parameter", "dependency d: (@escaping () -> Void) -> Void"),
    ("type-attributes", "dependency d: @MainActor @Sendable () -> Void from Home"),
    ("type-any", "dependency d: any Store"),
    ("type-some", "dependency d: some View"),
    ("type-composition", "dependency d: any Store & Sendable"),
    ("type-composition-without-any", "dependency d: Codable & Hashable"),
    ("type-metatype", "dependency d: Foo.Bar<Baz>.Type"),
    ("type-words-as-names", "dependency d: any\noptional o: some\nscreen async(throws: inout)"),
    ("type-any-over-lines", "dependency d: any\n  Store"),
    ("type-right-angles-together", "dependency d: Set<Set<Int>>"),
    ("type-any-as-a-name-in-composition", "dependency d: any & P"),
    ("empty-parameter-list", "screen S()"),
    ("empty-parameter-list-with-space", "screen S ( )"),
    ("trailing-comma-in-parameters", "screen S(a: Int, b: String,)"),
    ("parameters-over-lines", "screen S(\n  a: Int,\n  b: String,\n)\n"),
    ("push", "screen S push"),
    ("sheet", "screen S(a: Int) sheet"),
    ("sheet-allows-push-true", "screen S sheet(allowsPush: true)"),
    ("sheet-allows-push-false", "screen S sheet ( allowsPush : false )"),
    ("allowsPush-is-an-identifier", "screen allowsPush\nflag allowsPush\nroot { allowsPush }"),
    ("allowsPush-as-parameter-label", "screen S(allowsPush: Bool) sheet(allowsPush: false)"),
    ("identifiers-that-start-with-keywords",
     "flag screens\nflag iffy\nflag if_\nflag _\nflag Screen\nflag anyof\nflag root2\nflag elseX"),
    ("no-space-where-none-is-needed",
     'import"a.routes"screen S(a:Int,b:[K:V]?)sheet(allowsPush:false)'
     "root{anyOf{screen S uses a,b{empty}x}}"),
    ("dependency-from", "dependency d: T from Home"),
    ("optional-from", "optional o: T from Home"),
    ("flag", "flag isLoggedIn"),
    ("empty-builder", "builder nothing { empty }"),
    ("reference-builder", "root { home }"),
    ("screen-builder-bare", "root { screen Home }"),
    ("screen-builder-uses", "root { screen Home uses a, b, c }"),
    ("screen-builder-uses-and-block", "root { screen Home uses a, b { screen Detail } }"),
    ("uses-then-next-builder-without-comma", "root { anyOf { screen A uses a b } }"),
    ("uses-then-next-builder-over-lines", "root {\n  anyOf {\n    screen A uses a,\n      b\n    screen B\n  }\n}"),
    ("anyOf-one-branch", "root { anyOf { empty } }"),
    ("anyOf-many-branches", "root { anyOf { screen A screen B home empty wildcard W { screen W } } }"),
    ("conditional", "root { conditional f { screen A } else { screen B } }"),
    ("if-let", "root { if let o { screen A } }"),
    ("if-let-else", "root { if let o { screen A } else { empty } }"),
    ("if-screen", "root { screen A { if screen A { screen B } } }"),
    ("if-screen-else", "root { if screen A { screen B } else { screen C } }"),
    ("else-block-with-if", "root { if let o { empty } else { if let p { empty } else { empty } } }"),
    ("wildcard", "root { wildcard Home { screen Home } }"),
    ("screen-at-line-start-inside-blocks",
     "root {\n  anyOf {\n    screen A {\n      anyOf {\n        screen B\n        screen C\n      }\n    }\n"
     "    screen D\n  }\n}\nscreen A\nscreen B\n"),
    ("deep-nesting", "root { " + "screen A { " * 50 + "empty" + " }" * 50 + " }"),
    ("nesting-at-the-limit", "root { " + "screen A { " * 199 + "empty" + " }" * 199 + " }"),
    ("type-nesting-at-the-limit", "dependency d: " + "[" * 199 + "Int" + "]" * 199),
    ("outdented-screen-in-anyOf", "root {\n    anyOf {\n  screen A\n  screen B\n    }\n}\n"),
    ("outdented-screen-in-nesting", "root {\n    screen A {\n  screen B\n    }\n}\n"),
    ("screen-in-column-0-in-indented-anyOf", "root {\n  anyOf {\nscreen A\nscreen B\n  }\n}\n"),
    ("blocks-all-in-column-0", "root {\nscreen A {\nscreen B {\nempty\n}\n}\n}\n"),
    ("tabs-and-spaces-mixed", "root {\n\tanyOf {\n\t\tscreen A\n        screen B\n\t}\n}\n"),
    ("keyword-labels-at-line-start", "screen S(\n  a: Int,\n  flag: Bool,\nroot: Int\n)\n"),
    ("keyword-label-colon-on-next-line", "screen S(\nflag\n: Bool)\n"),
    ("uses-names-in-column-0", "root {\n  screen A uses\na,\nb\n}\n"),
    ("dependency-over-lines", "dependency d:\n  T\nfrom Home\n"),
    ("parameters-on-next-line", "screen X\n(a: Int)\n"),
    ("sheet-option-one-token-a-line", "screen X\nsheet\n(\nallowsPush\n:\nfalse\n)\n"),
    ("declarations-on-one-line", 'flag a import "x" root { empty } flag f screen A'),
    ("else-on-next-line", "root {\n  conditional f {\n    empty\n  }\n  else {\n    empty\n  }\n}\n"),
    ("if-let-one-token-a-line", "root {\n  if\n  let\n  o\n  {\n  empty\n  }\n}\n"),
    ("reference-on-line-after-uses", "root {\n  anyOf {\n    screen A uses a\n    b\n  }\n}\n"),
    ("four-slash-comment", "//// not a doc comment\nflag f"),
    ("string-with-raw-tab-and-nul", 'import "a\tb\x00c"'),
    ("anyOf-nesting-at-the-limit", "root { " + "anyOf { " * 199 + "empty" + " }" * 199 + " }"),
    ("else-nesting-at-the-limit", "root { " + "if let o { empty } else { " * 199 + "empty" + " }" * 199 + " }"),
    ("string-escapes", r'import "a\"b\\c\n\t\u{1F600}\u{0}\u{10FFFF}\u{0000000A}.routes"'),
    ("string-escaped-backslash-before-u", r'import "\\u{D800}"'),
    ("string-non-ascii", 'import "caf\u00e9/\U0001F600.routes"'),
    ("string-with-slashes", 'import "dir//sub/x.routes" // trailing comment'),
    ("non-ascii-in-comment", "// caf\u00e9 \U0001F600 \u2028\nflag f"),
    ("bom-at-start", b"\xef\xbb\xbfflag f\n"),
    ("crlf-line-endings", "flag f\r\nroot {\r\n  empty\r\n}\r\n"),
    ("cr-line-endings", "flag f\r// comment\rroot { empty }\r"),
    ("tabs", "flag\tf\nroot\t{\tempty\t}"),
    ("several-roots-are-a-semantic-error-only", "root { empty }\nroot { empty }"),
    ("duplicate-names-are-a-semantic-error-only", "flag f\nflag f\nscreen f"),
]

INVALID_FILES: List[Tuple[str, Source]] = [
    ("as-in-a-declaration", "screen A as sheet"),
    ("presentation-at-a-placement-without-as", "root { screen A sheet }"),
    ("as-after-uses", "root { screen A uses s as sheet }"),
    ("as-without-a-presentation", "root { screen A as }"),
    ("as-with-an-unknown-presentation", "root { screen A as modal }"),
    ("push-with-options", "screen A push(allowsPush: false)"),
    ("cover-with-an-unknown-option", "screen A cover(animated: true)"),
    ("empty-block", "root {}"),
    ("empty-block-with-space", "root { }"),
    ("empty-nesting-block", "root { screen A { } }"),
    ("two-builders-in-a-block", "root { screen A screen B }"),
    ("uses-then-next-builder-in-a-block", "root { screen A uses a b }"),
    ("else-if", "root { if let o { empty } else if let p { empty } }"),
    ("else-if-screen", "root { if screen A { empty } else if screen B { empty } }"),
    ("trailing-comma-in-uses", "root { screen A uses a, }"),
    ("trailing-comma-in-uses-before-builder", "root { anyOf { screen A uses a, b, screen B } }"),
    ("uses-without-names", "root { screen A uses }"),
    ("uses-keyword-name", "root { screen A uses empty }"),
    ("wildcard-without-block", "root { wildcard W }"),
    ("wildcard-without-name", "root { wildcard { empty } }"),
    ("keyword-as-builder-name", "builder empty { empty }"),
    ("keyword-as-builder-name-if", "builder if { empty }"),
    ("keyword-as-reference", "root { anyOf { uses } }"),
    ("keyword-as-screen-name", "screen root"),
    ("keyword-as-flag-name", "flag true"),
    ("keyword-as-type", "dependency d: screen"),
    ("keyword-in-qualified-type", "dependency d: Foo.empty"),
    ("keyword-as-wildcard-screen", "root { wildcard push { empty } }"),
    ("allows-push-maybe", "screen S sheet(allowsPush: maybe)"),
    ("allows-push-empty-parens", "screen S sheet()"),
    ("allows-push-trailing-comma", "screen S sheet(allowsPush: true,)"),
    ("allows-push-wrong-case", "screen S sheet(AllowsPush: true)"),
    ("allows-push-other-label", "screen S sheet(animated: true)"),
    ("allows-push-string", 'screen S sheet(allowsPush: "false")'),
    ("push-with-arguments", "screen S push(allowsPush: false)"),
    ("two-presentations", "screen S sheet push"),
    ("conditional-without-else", "root { conditional f { empty } }"),
    ("conditional-without-name", "root { conditional { empty } else { empty } }"),
    ("if-without-let-or-screen", "root { if o { empty } }"),
    ("if-let-without-block", "root { if let o }"),
    ("anyOf-empty", "root { anyOf { } }"),
    ("anyOf-without-braces", "root { anyOf screen A }"),
    ("builder-without-block", "builder b"),
    ("builder-without-name", "builder { empty }"),
    ("root-without-block", "root"),
    ("root-with-name", "root main { empty }"),
    ("unclosed-block", "root { screen A {\n  empty\n}\n"),
    ("extra-closing-brace", "root { empty } }"),
    ("builder-at-top-level", "screen A uses a"),
    ("anyOf-at-top-level", "anyOf { empty }"),
    ("reference-at-top-level", "home"),
    ("declaration-inside-block", "root { flag f }"),
    ("parameter-without-colon", "screen S(a Int)"),
    ("parameter-without-type", "screen S(a:)"),
    ("parameter-only-comma", "screen S(,)"),
    ("parameter-double-comma", "screen S(a: Int,, b: Int)"),
    ("parameter-unclosed", "screen S(a: Int"),
    ("dependency-without-type", "dependency d"),
    ("dependency-from-without-name", "dependency d: T from"),
    ("dependency-from-keyword", "dependency d: T from screen"),
    ("type-empty-brackets", "dependency d: []"),
    ("type-dictionary-without-value", "dependency d: [String:]"),
    ("type-trailing-dot", "dependency d: Swift."),
    ("type-only-question-mark", "dependency d: ?"),
    ("type-generic-unclosed", "dependency d: Array<Int"),
    ("type-generic-empty", "dependency d: Array<>"),
    ("type-generic-trailing-comma", "dependency d: Result<A,>"),
    ("type-tuple-unclosed", "dependency d: (Int, Int"),
    ("type-tuple-empty-element", "dependency d: (Int, , Int)"),
    ("type-function-without-parentheses", "dependency d: Int -> Void"),
    ("type-function-without-result", "dependency d: (Int) ->"),
    ("type-function-async-without-arrow", "dependency d: (Int) async"),
    ("type-function-throws-twice", "dependency d: (Int) throws throws -> Void"),
    ("type-attribute-alone", "dependency d: @Sendable"),
    ("type-attribute-with-space", "dependency d: @ Sendable () -> Void"),
    ("type-composition-trailing", "dependency d: P &"),
    ("type-implicitly-unwrapped", "dependency d: Int!"),
    ("type-arrow-in-parameter-list", "screen S(a: Int -> Int)"),
    ("type-bracket-mismatch", "dependency d: [Int)"),
    ("flag-without-name", "flag"),
    ("import-without-string", "import"),
    ("import-identifier", "import Foundation"),
    ("import-number", "import 42"),
    ("number-in-file", "flag 1"),
    ("semicolon", "flag a;"),
    ("equals", "flag a = b"),
    ("at-sign", "@main root { empty }"),
    ("hash", "# comment"),
    ("minus", "flag a-b"),
    ("block-comment", "/* no block comments */ flag f"),
    ("single-slash", "/ flag f"),
    ("string-unterminated", 'import "a.routes'),
    ("string-with-newline", 'import "a\n.routes"'),
    ("string-with-cr", 'import "a\r.routes"'),
    ("string-escape-r", r'import "a\r"'),
    ("string-escape-0", r'import "a\0"'),
    ("single-quoted-string", r"import 'a'"),
    ("string-escape-single-quote", r'import "a\'"'),
    ("string-escape-u-without-braces", r'import "\u1234"'),
    ("string-escape-u-empty", r'import "\u{}"'),
    ("string-escape-u-nine-digits", r'import "\u{000000041}"'),
    ("string-escape-u-not-hex", r'import "\u{12G}"'),
    ("string-escape-u-surrogate", r'import "\u{D800}"'),
    ("string-escape-u-low-surrogate", r'import "\u{dfff}"'),
    ("string-escape-u-too-large", r'import "\u{110000}"'),
    ("string-escape-u-unclosed", r'import "\u{41"'),
    ("string-trailing-backslash", 'import "a\\"'),
    ("invalid-utf8", b"flag f\n\xff\n"),
    ("invalid-utf8-in-comment", b"// \xc3\x28\nflag f\n"),
    ("invalid-utf8-in-string", b'import "\xe2\x82"\n'),
    ("encoded-surrogate", b'import "\xed\xa0\x80"\n'),
    ("bom-not-at-start", b"flag f\n\xef\xbb\xbfflag g\n"),
    ("two-boms", b"\xef\xbb\xbf\xef\xbb\xbfflag f\n"),
    ("non-ascii-identifier", "screen Caf\u00e9"),
    ("no-break-space", "flag\u00a0f"),
    ("form-feed", "flag f\x0c"),
    ("vertical-tab", "flag\x0bf"),
    ("line-separator", "flag f\u2028flag g"),
    ("nul", "flag f\x00"),
    ("nesting-over-the-limit", "root { " + "screen A { " * 200 + "empty" + " }" * 200 + " }"),
    ("type-nesting-over-the-limit", "dependency d: " + "[" * 200 + "Int" + "]" * 200),
    ("anyOf-nesting-over-the-limit", "root { " + "anyOf { " * 200 + "empty" + " }" * 200 + " }"),
    ("else-nesting-over-the-limit", "root { " + "if let o { empty } else { " * 200 + "empty" + " }" * 200 + " }"),
    ("screen-in-column-0-after-the-blocks-builder", "root {\n  screen A\nscreen B\n}\n"),
    ("keyword-optional-as-type", "dependency d: optional"),
    ("string-with-crlf", 'import "a\r\n"'),
    ("overlong-utf8", b"// \xc0\xaf\nflag f"),
    ("truncated-utf8-at-eof", b"flag f // \xe2\x82"),
    ("dollar", "flag $f"),
    ("backtick-name", "flag `f`"),
    ("nesting-far-over-the-limit", "root { " + "anyOf { " * 2000 + "empty" + " }" * 2000 + " }"),
]

VALID_PATHS: List[Tuple[str, str]] = [
    ("one-screen", "Home"),
    ("spec-example", 'Home/Detail(id: "42")/Settings'),
    ("empty-arguments", "Home/Detail()"),
    ("all-value-kinds", 'S(s: "x", i: 42, n: -1, f: 0.5, z: 007, t: true, u: false)'),
    ("keyword-labels", 'Transfer(from: "a", if: 1, screen: true)'),
    ("whitespace-between-tokens", ' Home / Detail ( id : "42" ) '),
    ("string-escapes", r'S(s: "a\"b\\c\n\t\u{1F600}")'),
    ("identifier-starting-with-keyword", "screens/rootView"),
]

INVALID_PATHS: List[Tuple[str, str]] = [
    ("empty", ""),
    ("leading-slash", "/Home"),
    ("trailing-slash", "Home/"),
    ("space-separated", "Home Detail"),
    ("dot-separated", "Home.Detail"),
    ("keyword-element", "Home/screen"),
    ("trailing-comma", 'Home(id: "1",)'),
    ("positional-argument", 'Home("1")'),
    ("missing-colon", 'Home(id "1")'),
    ("missing-label", 'Home(: "1")'),
    ("missing-value", "Home(id:)"),
    ("identifier-value", "Home(id: other)"),
    ("number-trailing-dot", "Home(id: 1.)"),
    ("number-leading-dot", "Home(id: .5)"),
    ("number-plus", "Home(id: +1)"),
    ("number-exponent", "Home(id: 1e3)"),
    ("number-space-after-minus", "Home(id: - 1)"),
    ("two-values", 'Home(id: "1" "2")'),
    ("unclosed", 'Home(id: "1"'),
    ("bad-escape", r'Home(id: "\u{D800}")'),
    ("semicolon", "Home;"),
]


def _ids(cases):
    return [c[0] for c in cases]


def _check_unique_ids():
    for cases in (VALID_FILES + INVALID_FILES, VALID_PATHS + INVALID_PATHS):
        ids = _ids(cases)
        dupes = {i for i in ids if ids.count(i) > 1}
        assert not dupes, "duplicate sample ids: %s" % sorted(dupes)


_check_unique_ids()


# ---------------------------------------------------------------------------------------
# The grammar on samples
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name,source", VALID_FILES, ids=_ids(VALID_FILES))
def test_grammar_accepts_file(checker, name, source):
    verdict = checker.check(source, "file")
    assert verdict.accepted, "rejected %s:\n%s" % (name, verdict.error)


@pytest.mark.parametrize("name,source", INVALID_FILES, ids=_ids(INVALID_FILES))
def test_grammar_rejects_file(checker, name, source):
    assert not checker.accepts(source, "file"), "accepted %s: %r" % (name, source)


@pytest.mark.parametrize("name,source", VALID_PATHS, ids=_ids(VALID_PATHS))
def test_grammar_accepts_path(checker, name, source):
    verdict = checker.check(source, "path")
    assert verdict.accepted, "rejected path %r:\n%s" % (source, verdict.error)


@pytest.mark.parametrize("name,source", INVALID_PATHS, ids=_ids(INVALID_PATHS))
def test_grammar_rejects_path(checker, name, source):
    assert not checker.accepts(source, "path"), "accepted path %r" % source


def test_a_file_is_not_a_path_and_a_path_is_not_a_file(checker):
    assert not checker.accepts("screen Home", "path")
    assert not checker.accepts("Home/Detail", "file")


def test_start_symbols_are_file_and_path(checker):
    assert checker.starts == ["file", "path"]


def test_keywords_are_the_ones_in_the_spec(checker):
    assert sorted(checker.rendered.keywords) == sorted(KEYWORDS)
    # The words the grammar spells that are not reserved: `allowsPush`, `link` (at the start
    # of a declaration), and the words of Swift's type syntax, which are ordinary names
    # outside a type.
    assert sorted(checker.rendered.contextual_words) == sorted(
        ["allowsPush", "link", "as", "cover", "popover",
         "any", "some", "async", "throws", "inout", "borrowing", "consuming", "sending"])


def test_link_is_a_name_outside_the_start_of_a_declaration(checker):
    assert checker.accepts('screen Home\nlink home "/" -> Home\nroot { screen Home }')
    assert checker.accepts("builder link { empty }\nroot { link }")
    assert checker.accepts("screen link\nroot { screen link }")
    assert not checker.accepts('link home "/" Home')
    assert not checker.accepts('link home "/" -> "Home"')


@pytest.mark.parametrize("keyword", KEYWORDS)
def test_no_keyword_is_a_name_but_every_keyword_is_a_label(checker, keyword):
    assert not checker.accepts("flag %s" % keyword)
    assert not checker.accepts("root { %s }" % keyword) or keyword == "empty"
    assert checker.accepts("screen S(%s: Int)" % keyword)
    assert checker.accepts('S(%s: "x")' % keyword, "path")
    # A keyword with anything more is an ordinary identifier.
    assert checker.accepts("flag %s1\nflag %s_\nflag _%s" % (keyword, keyword, keyword))


def test_parse_tree_of_seed_app_has_the_expected_shape(checker):
    tree = checker.parse(SEED_APP)
    kinds = [sub.data for sub in tree.children]
    assert kinds == (["import"] + ["screen_decl"] * 4 + ["dependency_decl"] * 3
                     + ["optional_decl", "flag_decl", "builder_decl", "root_decl"])
    builders = {sub.data for sub in tree.iter_subtrees()}
    assert {"conditional", "wildcard", "screen_builder", "any_of", "if_let"} <= builders


def test_grammar_is_unambiguous_on_every_valid_sample():
    """Each valid sample has exactly one parse: the grammar is a readable specification,
    not a puzzle (Lark marks alternative parses with `_ambig` nodes)."""
    pytest.importorskip("lark")
    explicit = ebnf_to_lark.GrammarChecker(str(EBNF), ambiguity="explicit")
    for name, source in VALID_FILES:
        tree = explicit.parse(source, "file")
        assert not list(tree.find_data("_ambig")), "ambiguous parse of %s" % name
    for name, source in VALID_PATHS:
        tree = explicit.parse(source, "path")
        assert not list(tree.find_data("_ambig")), "ambiguous parse of path %s" % name


def test_a_large_file_is_checked_quickly(checker):
    import time

    decls = "".join("screen S%d(id: String, n: [Int: String]?) sheet\n" % i for i in range(500))
    branches = "".join("    screen S%d uses a, b { if let o { empty } else { x } }\n" % i for i in range(500))
    source = decls + "root {\n  anyOf {\n" + branches + "  }\n}\n"
    t0 = time.monotonic()
    assert checker.accepts(source)
    assert time.monotonic() - t0 < 30


# ---------------------------------------------------------------------------------------
# The converter: the checker really is derived from the .ebnf
# ---------------------------------------------------------------------------------------


def _checker_from_text(tmp_path, text):
    path = tmp_path / "edited.ebnf"
    path.write_text(text, encoding="utf-8")
    return ebnf_to_lark.GrammarChecker(str(path))


def test_editing_the_ebnf_changes_what_is_accepted(tmp_path):
    pytest.importorskip("lark")
    original = EBNF.read_text(encoding="utf-8")
    edited = original.replace('block          = "{" builder "}" ;',
                              'block          = "{" [ builder ] "}" ;')
    assert edited != original, "the rule for block is no longer spelled as the test expects"
    assert _checker_from_text(tmp_path, edited).accepts("root { }")

    edited = original.replace('| "empty" | "push" | "sheet" | "true" | "false" ;',
                              '| "empty" | "push" | "sheet" | "true" | "false" | "maybe" ;')
    assert edited != original, "the KEYWORD rule is no longer spelled as the test expects"
    maybe = _checker_from_text(tmp_path, edited)
    assert not maybe.accepts("flag maybe")
    assert maybe.accepts("screen S(maybe: Int)")


def test_generated_grammar_names_its_source_and_start_symbols():
    rendered = ebnf_to_lark.render_lark(EBNF.read_text(encoding="utf-8"))
    assert "GENERATED" in rendered.lark
    assert rendered.starts == ["file", "path"]
    assert "%ignore TRIVIA" in rendered.lark


def test_command_line_prints_the_lark_grammar():
    out = subprocess.run([sys.executable, str(GRAMMAR_DIR / "ebnf_to_lark.py")],
                         capture_output=True, text=True, check=True).stdout
    assert out.startswith("// GENERATED")
    assert "screen_decl:" in out


@pytest.mark.parametrize("text,message", [
    ("a = b ;", "undefined rule b"),
    ('a = "x" ; a = "y" ; TRIVIA = " " ;', "defined twice"),
    ('a = "x" ;', "TRIVIA"),
    ('a = "x" - "y" ; TRIVIA = " " ;', "only supported in lexical rules"),
    ('a = X ; X = y ; y = "q" ; TRIVIA = " " ;', "lexical rule X uses syntactic rule y"),
    ('a = X ; X = "q" X ; TRIVIA = " " ;', "recursive"),
    ('a = X ; X = ? letters ? ; TRIVIA = " " ;', "character class"),
    ('a = "x" (* unterminated', "unterminated comment"),
    ('Bad_Name = "x" ;', "neither"),
    ('a = "x" ', "expected ;"),
])
def test_converter_reports_malformed_ebnf(text, message):
    with pytest.raises(ebnf_to_lark.EbnfError) as err:
        ebnf_to_lark.render_lark(text)
    assert message in str(err.value)


def test_ebnf_comments_nest_and_iso_commas_are_allowed(tmp_path):
    pytest.importorskip("lark")
    text = '(* outer (* inner *) still outer *) a = "x" , "y" ; TRIVIA = " " ;'
    tiny = _checker_from_text(tmp_path, text)
    assert tiny.starts == ["a"]
    assert tiny.accepts("x y", "a")
    assert not tiny.accepts("y x", "a")


# ---------------------------------------------------------------------------------------
# Conformance: the checker's verdict equals the Swift parser's
# ---------------------------------------------------------------------------------------

CORPUS_DIRS = ("Tests/Fixtures", "Examples")


def corpus_files() -> List[Path]:
    files: List[Path] = []
    for d in CORPUS_DIRS:
        base = REPO / d
        if base.is_dir():
            files.extend(sorted(p for p in base.rglob("*.routes") if p.is_file()))
    return files


CORPUS = corpus_files()


def routes_binary() -> Path:
    configured = os.environ.get("ROUTES_BIN")
    path = Path(configured) if configured else REPO / ".build" / "debug" / "routes"
    if not path.is_absolute():
        path = Path.cwd() / path if configured else REPO / path
    if not (path.is_file() and os.access(str(path), os.X_OK)):
        skip_or_fail(
            "the conformance tests need the routes CLI at %s (build it with `swift build`, "
            "or point ROUTES_BIN at it)" % path
        )
    return path


def swift_syntax_errors(binary: Path, file: Path, cwd: Path) -> List[dict]:
    """The syntax-error diagnostics `routes lint --format json` reports in file itself."""
    rel = os.path.relpath(str(file), str(cwd))
    proc = subprocess.run(
        [str(binary), "lint", "--format", "json", rel],
        cwd=str(cwd), capture_output=True, timeout=120,
    )
    stdout = proc.stdout.decode("utf-8", "replace")
    stderr = proc.stderr.decode("utf-8", "replace")
    try:
        report = json.loads(stdout)
    except ValueError:
        pytest.fail(
            "`routes lint --format json %s` (exit %d) did not print JSON.\nstdout:\n%s\nstderr:\n%s"
            % (rel, proc.returncode, stdout[:4000], stderr[:4000]),
            pytrace=False,
        )
    own = None
    for entry in report.get("files", []):
        entry_path = os.path.realpath(os.path.join(str(cwd), entry.get("path", "")))
        if entry_path == os.path.realpath(str(file)):
            own = entry
            break
    if own is None:
        pytest.fail(
            "`routes lint --format json %s` has no entry for the file itself; files: %s"
            % (rel, [e.get("path") for e in report.get("files", [])]),
            pytrace=False,
        )
    return [d for d in own.get("diagnostics", []) if d.get("rule") == "syntax-error"]


def _describe(diags: List[dict]) -> str:
    """Diagnostics as `LINE:COL: message`, 1-based as the text format prints them."""
    lines = []
    for d in diags[:10]:
        start = d.get("range", {}).get("start", {})
        line, col = start.get("line"), start.get("character")
        where = "%d:%d" % (line + 1, col + 1) if isinstance(line, int) and isinstance(col, int) else "?"
        lines.append("  %s: %s" % (where, d.get("message", "")))
    if len(diags) > 10:
        lines.append("  ... and %d more" % (len(diags) - 10))
    return "\n".join(lines)


def assert_verdicts_agree(checker, binary: Path, file: Path, cwd: Path, label: str) -> None:
    lark_verdict = checker.check(file.read_bytes(), "file")
    swift_errors = swift_syntax_errors(binary, file, cwd)
    swift_accepts = not swift_errors
    __tracebackhide__ = True
    if lark_verdict.accepted and not swift_accepts:
        raise VerdictMismatch(
            "%s: the grammar (routes.ebnf) accepts it, but the Swift parser reports "
            "syntax errors:\n%s" % (label, _describe(swift_errors))
        )
    if not lark_verdict.accepted and swift_accepts:
        raise VerdictMismatch(
            "%s: the Swift parser accepts it, but the grammar (routes.ebnf) rejects it:\n%s"
            % (label, lark_verdict.error)
        )


@pytest.mark.parametrize(
    "relpath",
    [p.relative_to(REPO).as_posix() for p in CORPUS] or [None],
    ids=[p.relative_to(REPO).as_posix() for p in CORPUS] or ["no-routes-files"],
)
def test_conformance_fixture(checker, relpath):
    """Every .routes file under Tests/Fixtures and Examples: same verdict as Swift."""
    if relpath is None:
        skip_or_fail("no .routes files under %s: nothing to compare" % " or ".join(CORPUS_DIRS))
    binary = routes_binary()
    assert_verdicts_agree(checker, binary, REPO / relpath, REPO, relpath)


# Samples on which the Swift parser is known to disagree with the grammar, waiting for a
# decision. Strict: once the two agree, the entry must go. None today.
KNOWN_DIVERGENCES: dict = {}


class VerdictMismatch(AssertionError):
    """The grammar and the Swift parser disagree on a text."""


SAMPLES = [(n, s, True) for n, s in VALID_FILES] + [(n, s, False) for n, s in INVALID_FILES]


def _sample_param(name, source, valid):
    marks = ()
    if name in KNOWN_DIVERGENCES:
        marks = pytest.mark.xfail(raises=VerdictMismatch, strict=True,
                                  reason="known divergence: " + KNOWN_DIVERGENCES[name])
    return pytest.param(name, source, valid, id=name, marks=marks)


def test_known_divergences_name_samples():
    names = {n for n, _, _ in SAMPLES}
    assert set(KNOWN_DIVERGENCES) <= names


@pytest.mark.parametrize("name,source,valid", [_sample_param(*s) for s in SAMPLES])
def test_conformance_sample(checker, tmp_path, name, source, valid):
    """The samples above: the Swift parser agrees with the grammar on them too."""
    binary = routes_binary()
    file = tmp_path / "sample.routes"
    file.write_bytes(source if isinstance(source, bytes) else source.encode("utf-8"))
    assert_verdicts_agree(checker, binary, file, tmp_path, "sample %s" % name)


# ---------------------------------------------------------------------------------------
# The reader of `routes lint --format json`, against a stand-in CLI
# ---------------------------------------------------------------------------------------

FAKE_LINT = r'''#!/usr/bin/env python3
import json, sys
path = sys.argv[-1]
print(json.dumps({"version": 1, "files": [
    {"path": "lib/Imported.routes", "diagnostics": [
        {"rule": "syntax-error", "severity": "error", "message": "in the import",
         "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}},
         "related": []}]},
    {"path": path, "diagnostics": [
        {"rule": "undefined-name", "severity": "error", "message": "no such name",
         "range": {"start": {"line": 1, "character": 2}, "end": {"line": 1, "character": 5}},
         "related": []}] + ([
        {"rule": "syntax-error", "severity": "error", "message": "expected a builder",
         "range": {"start": {"line": 2, "character": 7}, "end": {"line": 2, "character": 8}},
         "related": []}] if "bad" in path else [])}],
    "summary": {"files": 2, "errors": 2, "warnings": 0}}))
sys.exit(1)
'''


def test_lint_reader_counts_only_syntax_errors_of_the_file_itself(tmp_path):
    fake = tmp_path / "routes"
    fake.write_text(FAKE_LINT)
    fake.chmod(0o755)
    good, bad = tmp_path / "good.routes", tmp_path / "bad.routes"
    good.write_text("flag f\n")
    bad.write_text("root {}\n")
    assert swift_syntax_errors(fake, good, tmp_path) == []
    errors = swift_syntax_errors(fake, bad, tmp_path)
    assert [e["message"] for e in errors] == ["expected a builder"]
    assert _describe(errors) == "  3:8: expected a builder"
