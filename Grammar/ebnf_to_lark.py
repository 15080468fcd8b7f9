#!/usr/bin/env python3
"""Render Grammar/routes.ebnf as a Lark grammar, and check Routes sources with it.

The EBNF file is the only grammar of the language that people maintain. This module
reads it, renders it to a Lark grammar (Earley parser, dynamic lexer), and wraps that
in a small checker that says whether a text is in the language. Tests/grammar uses the
checker to keep the Swift parser and the EBNF document in agreement.

How the EBNF is read (see the header of routes.ebnf for the notation):

* Rules named in lowerCamelCase are *syntactic*. Each becomes a Lark rule
  (``screenDecl`` -> ``screen_decl``); their parts are tokens, with trivia between.
* Rules named in UPPER_CASE are *lexical*. They are compiled to regular expressions.
  Those that syntactic rules use (``IDENT``, ``STRING``, ``NUMBER``) become Lark
  terminals; ``TRIVIA`` becomes ``%ignore``; the others are inlined where used.
  A lexical rule that is just a list of literals (``KEYWORD``) and that a syntactic
  rule uses becomes a Lark rule over those literal tokens, so that each keyword stays
  its own token (``label = IDENT | KEYWORD``).
* Each literal in a syntactic rule is a token. A literal that ends in a word
  character may not be followed by one (``screen`` does not match the start of
  ``screenHome``), and a literal that is a prefix of a longer token (``/`` of ``//``)
  may not be followed by the rest of it: the tokens are read longest first, as the
  Swift lexer reads them.
* ``A - B`` (exception): when A matches one character, "A but not B"; otherwise it is
  read on whole words: "a match of A that is not, as a whole, a match of B". The
  characters that would extend a match are those of A's trailing ``{ ... }``.
* ``? [...] ?`` special sequences hold one regular-expression character class.
* The start symbols are the syntactic rules that no rule uses (``file``, ``path``).

What the EBNF cannot say, the checker does around the parse (and nothing else):
decoding (invalid UTF-8 is an error), skipping one byte-order mark at the very start,
verifying that each ``\\u{...}`` escape in a STRING is a Unicode scalar value, and the
Swift parser's nesting limit (``NESTING_LIMITS``).

Command line:
    python3 Grammar/ebnf_to_lark.py [--ebnf FILE]            # print the Lark grammar
    python3 Grammar/ebnf_to_lark.py check [--start path] FILE...
                                                              # verdict per file
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import sys
from typing import Dict, Iterator, List, Optional, Sequence, Tuple, Union

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_EBNF = os.path.join(HERE, "routes.ebnf")

# The name of the lexical rule that may stand between any two tokens.
TRIVIA_RULE = "TRIVIA"


class EbnfError(Exception):
    """The EBNF file is malformed, or uses something this converter cannot render."""


# ---------------------------------------------------------------------------------------
# 1. The EBNF file: tokens, syntax tree, parser
# ---------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Lit:
    text: str


@dataclasses.dataclass(frozen=True)
class Special:
    text: str


@dataclasses.dataclass(frozen=True)
class Ref:
    name: str
    line: int


@dataclasses.dataclass(frozen=True)
class Seq:
    items: Tuple["Expr", ...]


@dataclasses.dataclass(frozen=True)
class Alt:
    items: Tuple["Expr", ...]


@dataclasses.dataclass(frozen=True)
class Opt:
    item: "Expr"


@dataclasses.dataclass(frozen=True)
class Rep:
    item: "Expr"


@dataclasses.dataclass(frozen=True)
class Times:
    count: int
    item: "Expr"


@dataclasses.dataclass(frozen=True)
class Except:
    base: "Expr"
    exception: "Expr"


Expr = Union[Lit, Special, Ref, Seq, Alt, Opt, Rep, Times, Except]


@dataclasses.dataclass
class Rule:
    name: str
    expr: Expr
    line: int

    @property
    def lexical(self) -> bool:
        return is_lexical_name(self.name)


def is_lexical_name(name: str) -> bool:
    return re.fullmatch(r"[A-Z][A-Z0-9_]*", name) is not None


@dataclasses.dataclass
class _Tok:
    kind: str  # NAME INT LIT SPECIAL or the symbol itself
    value: str
    line: int
    col: int


_SYMBOLS = set("=;|[]{}()-*,")


def _tokenize_ebnf(text: str) -> List[_Tok]:
    toks: List[_Tok] = []
    i, line, line_start = 0, 1, 0
    n = len(text)

    def where(pos: int) -> Tuple[int, int]:
        return line, pos - line_start + 1

    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            line_start = i + 1
            i += 1
        elif c in " \t\r":
            i += 1
        elif text.startswith("(*", i):
            # ISO 14977 comments nest.
            depth, start = 0, where(i)
            while True:
                if i >= n:
                    raise EbnfError("%d:%d: unterminated comment" % start)
                if text.startswith("(*", i):
                    depth += 1
                    i += 2
                elif text.startswith("*)", i):
                    depth -= 1
                    i += 2
                    if depth == 0:
                        break
                else:
                    if text[i] == "\n":
                        line += 1
                        line_start = i + 1
                    i += 1
        elif c in "\"'":
            end = text.find(c, i + 1)
            nl = text.find("\n", i + 1)
            if end < 0 or (0 <= nl < end):
                raise EbnfError("%d:%d: unterminated literal" % where(i))
            if end == i + 1:
                raise EbnfError("%d:%d: empty literal" % where(i))
            toks.append(_Tok("LIT", text[i + 1 : end], *where(i)))
            i = end + 1
        elif c == "?":
            end = text.find("?", i + 1)
            if end < 0:
                raise EbnfError("%d:%d: unterminated special sequence" % where(i))
            toks.append(_Tok("SPECIAL", text[i + 1 : end].strip(), *where(i)))
            i = end + 1
        elif c.isalpha() or c == "_":
            m = re.compile(r"[A-Za-z_][A-Za-z0-9_]*").match(text, i)
            toks.append(_Tok("NAME", m.group(0), *where(i)))
            i = m.end()
        elif c.isdigit():
            m = re.compile(r"[0-9]+").match(text, i)
            toks.append(_Tok("INT", m.group(0), *where(i)))
            i = m.end()
        elif c in _SYMBOLS:
            toks.append(_Tok(c, c, *where(i)))
            i += 1
        else:
            raise EbnfError("%d:%d: unexpected character %r" % (where(i) + (c,)))
    toks.append(_Tok("EOF", "", line, i - line_start + 1))
    return toks


class _EbnfParser:
    def __init__(self, text: str):
        self.toks = _tokenize_ebnf(text)
        self.pos = 0

    def peek(self) -> _Tok:
        return self.toks[self.pos]

    def take(self, kind: Optional[str] = None) -> _Tok:
        t = self.toks[self.pos]
        if kind is not None and t.kind != kind:
            raise EbnfError(
                "%d:%d: expected %s, found %s" % (t.line, t.col, kind, t.value or t.kind)
            )
        self.pos += 1
        return t

    def grammar(self) -> List[Rule]:
        rules = []
        while self.peek().kind != "EOF":
            name = self.take("NAME")
            self.take("=")
            expr = self.alternatives()
            self.take(";")
            rules.append(Rule(name.value, expr, name.line))
        return rules

    def alternatives(self) -> Expr:
        items = [self.sequence()]
        while self.peek().kind == "|":
            self.take()
            items.append(self.sequence())
        return items[0] if len(items) == 1 else Alt(tuple(items))

    _STARTS_TERM = {"LIT", "SPECIAL", "NAME", "INT", "[", "{", "("}

    def sequence(self) -> Expr:
        items = []
        while True:
            if self.peek().kind == "," and items:
                self.take()  # ISO concatenation symbol: allowed, not needed
            if self.peek().kind not in self._STARTS_TERM:
                break
            items.append(self.term())
        if not items:
            t = self.peek()
            raise EbnfError("%d:%d: empty alternative" % (t.line, t.col))
        return items[0] if len(items) == 1 else Seq(tuple(items))

    def term(self) -> Expr:
        base = self.factor()
        if self.peek().kind == "-":
            self.take()
            return Except(base, self.factor())
        return base

    def factor(self) -> Expr:
        if self.peek().kind == "INT":
            count = int(self.take().value)
            self.take("*")
            return Times(count, self.primary())
        return self.primary()

    def primary(self) -> Expr:
        t = self.take()
        if t.kind == "LIT":
            return Lit(t.value)
        if t.kind == "SPECIAL":
            return Special(t.value)
        if t.kind == "NAME":
            return Ref(t.value, t.line)
        closing = {"[": "]", "{": "}", "(": ")"}
        if t.kind in closing:
            inner = self.alternatives()
            self.take(closing[t.kind])
            return {"[": Opt, "{": Rep, "(": lambda x: x}[t.kind](inner)
        raise EbnfError("%d:%d: unexpected %s" % (t.line, t.col, t.value or t.kind))


def parse_ebnf(text: str) -> List[Rule]:
    return _EbnfParser(text).grammar()


def _walk(e: Expr) -> Iterator[Expr]:
    yield e
    if isinstance(e, (Seq, Alt)):
        for i in e.items:
            yield from _walk(i)
    elif isinstance(e, (Opt, Rep, Times)):
        yield from _walk(e.item)
    elif isinstance(e, Except):
        yield from _walk(e.base)
        yield from _walk(e.exception)


# ---------------------------------------------------------------------------------------
# 2. Rendering
# ---------------------------------------------------------------------------------------

_PUNCT_NAMES = {
    "{": "LBRACE", "}": "RBRACE", "(": "LPAR", ")": "RPAR", "[": "LSQB", "]": "RSQB",
    ",": "COMMA", ":": "COLON", ".": "DOT", "?": "QMARK", "/": "SLASH", "=": "EQUAL",
    ";": "SEMICOLON", "-": "MINUS", "@": "AT", "#": "HASH", "*": "STAR", "+": "PLUS",
}


_RX_META = set(".^$*+?{}[]\\|()/-")


def _rx_char(ch: str, in_class: bool = False) -> str:
    """One character, escaped for a regex inside Lark's /.../ literal."""
    if ch == "\n":
        return r"\n"
    if ch == "\r":
        return r"\r"
    if ch == "\t":
        return r"\t"
    if not (ch.isascii() and ch.isprintable()):
        return "\\U%08x" % ord(ch)
    if ch in _RX_META or (in_class and ch == "^"):
        return "\\" + ch
    return ch


def _rx_escape(s: str) -> str:
    """A regex matching s literally, written so that it survives Lark's /.../ literal."""
    return "".join(_rx_char(ch) for ch in s)


# Precedence of a rendered regex: what it needs before it is quantified or concatenated.
_ATOM, _QUANT, _SEQ, _ALT = range(4)


def _wrap(rx: str) -> str:
    return "(?:%s)" % rx


def _snake(name: str) -> str:
    s = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()
    return s


@dataclasses.dataclass
class Rendered:
    lark: str                 # the Lark grammar text
    starts: List[str]         # Lark names of the start rules
    rule_names: Dict[str, str]  # EBNF syntactic rule name -> Lark rule name
    terminals: Dict[str, str]   # Lark terminal name -> regex
    keywords: List[str]         # literals of keyword lists (e.g. KEYWORD)
    contextual_words: List[str]  # word literals in syntax that are not keywords


class _Renderer:
    def __init__(self, rules: List[Rule], source_name: str):
        self.source_name = source_name
        self.rules: Dict[str, Rule] = {}
        for r in rules:
            if r.name in self.rules:
                raise EbnfError(
                    "line %d: rule %s is defined twice (first on line %d)"
                    % (r.line, r.name, self.rules[r.name].line)
                )
            if not r.lexical and not re.fullmatch(r"[a-z][A-Za-z0-9]*", r.name):
                raise EbnfError(
                    "line %d: rule name %s is neither UPPER_CASE (lexical) nor "
                    "lowerCamelCase (syntactic)" % (r.line, r.name)
                )
            self.rules[r.name] = r
        self.order = [r.name for r in rules]
        self._rx_cache: Dict[str, str] = {}
        self._validate()

    # -- checks ------------------------------------------------------------------------

    def _validate(self) -> None:
        for r in self.rules.values():
            for e in _walk(r.expr):
                if isinstance(e, Ref):
                    if e.name not in self.rules:
                        raise EbnfError(
                            "line %d: %s uses undefined rule %s" % (e.line, r.name, e.name)
                        )
                    if r.lexical and not is_lexical_name(e.name):
                        raise EbnfError(
                            "line %d: lexical rule %s uses syntactic rule %s"
                            % (e.line, r.name, e.name)
                        )
                elif isinstance(e, Except) and not r.lexical:
                    raise EbnfError(
                        "line %d: exception '-' is only supported in lexical rules (%s)"
                        % (r.line, r.name)
                    )
                elif isinstance(e, Special):
                    if not (e.text.startswith("[") and e.text.endswith("]")):
                        raise EbnfError(
                            "line %d: special sequence ? %s ? must be one character class"
                            " like ? [0-9] ?" % (r.line, e.text)
                        )
                    try:
                        rx = re.compile(e.text)
                    except re.error as err:
                        raise EbnfError("line %d: bad character class %s: %s" % (r.line, e.text, err))
                    if rx.match("ab") and rx.match("ab").end() != 1:
                        raise EbnfError("line %d: %s must match one character" % (r.line, e.text))
            if not r.lexical:
                for e in _walk(r.expr):
                    if isinstance(e, Special):
                        raise EbnfError(
                            "line %d: syntactic rule %s uses a special sequence" % (r.line, r.name)
                        )
        if TRIVIA_RULE not in self.rules:
            raise EbnfError("the grammar must define %s (what may stand between tokens)" % TRIVIA_RULE)
        # lexical rules must not be recursive (they become regular expressions)
        for name, r in self.rules.items():
            if r.lexical:
                self._check_lexical_cycle(name, [])

    def _check_lexical_cycle(self, name: str, chain: List[str]) -> None:
        if name in chain:
            raise EbnfError("lexical rules are recursive: %s" % " -> ".join(chain + [name]))
        for e in _walk(self.rules[name].expr):
            if isinstance(e, Ref):
                self._check_lexical_cycle(e.name, chain + [name])

    # -- lexical: regular expressions ---------------------------------------------------

    def _resolve(self, e: Expr) -> Expr:
        while isinstance(e, Ref):
            e = self.rules[e.name].expr
        return e

    def _is_single_char(self, e: Expr) -> bool:
        e = self._resolve(e)
        if isinstance(e, Lit):
            return len(e.text) == 1
        if isinstance(e, Special):
            return True
        if isinstance(e, Alt):
            return all(self._is_single_char(i) for i in e.items)
        if isinstance(e, Except):
            return self._is_single_char(e.base)
        return False

    def _continuation(self, e: Expr) -> str:
        """Regex of the characters that can extend a match of e (its trailing { ... })."""
        e = self._resolve(e)
        if isinstance(e, Seq):
            last = self._resolve(e.items[-1])
            if isinstance(last, Rep) and self._is_single_char(last.item):
                return self.regex(last.item)
        raise EbnfError(
            "an exception 'A - B' with a multi-character A needs A to end in a "
            "repetition of single characters (like WORD = LETTER { LETTER | DIGIT })"
        )

    def regex(self, e: Expr) -> str:
        return self._rx(e)[0]

    def _rx(self, e: Expr) -> Tuple[str, int]:
        """The regex of a lexical expression, and its precedence."""
        if isinstance(e, Lit):
            return _rx_escape(e.text), (_ATOM if len(e.text) == 1 else _SEQ)
        if isinstance(e, Special):
            return e.text.replace("/", r"\/").replace(r"\\/", r"\/"), _ATOM
        if isinstance(e, Ref):
            if e.name not in self._rx_cache:
                self._rx_cache[e.name] = self._rx(self.rules[e.name].expr)
            return self._rx_cache[e.name]
        if isinstance(e, Seq):
            parts = []
            for i in e.items:
                rx, prec = self._rx(i)
                parts.append(_wrap(rx) if prec == _ALT else rx)
            return "".join(parts), _SEQ
        if isinstance(e, Alt):
            merged = self._char_class(e)
            if merged is not None:
                return merged, _ATOM
            return "|".join(self._rx(i)[0] for i in e.items), _ALT
        if isinstance(e, (Opt, Rep, Times)):
            rx, prec = self._rx(e.item)
            if prec != _ATOM:
                rx = _wrap(rx)
            suffix = {Opt: "?", Rep: "*"}.get(type(e)) or "{%d}" % e.count
            return rx + suffix, _QUANT
        if isinstance(e, Except):
            base, bprec = self._rx(e.base)
            exc, eprec = self._rx(e.exception)
            if bprec == _ALT:
                base = _wrap(base)
            if self._is_single_char(e.base):
                return "(?!%s)%s" % (exc, base), _SEQ
            if eprec == _ALT:
                exc = _wrap(exc)
            cont = self._continuation(e.base)
            return "(?!%s(?!%s))%s" % (exc, cont, base), _SEQ
        raise AssertionError(e)

    def _char_class(self, e: Alt) -> Optional[str]:
        """An alternation of single characters and (non-negated) classes, as one class."""
        members = []
        for item in e.items:
            item = self._resolve(item)
            if isinstance(item, Lit) and len(item.text) == 1:
                members.append(_rx_char(item.text, in_class=True))
            elif isinstance(item, Special) and not item.text.startswith("[^"):
                members.append(self._rx(item)[0][1:-1])
            elif isinstance(item, Alt):
                sub = self._char_class(item)
                if sub is None:
                    return None
                members.append(sub[1:-1])
            else:
                return None
        return "[%s]" % "".join(members)

    def _literal_list(self, e: Expr) -> Optional[List[str]]:
        """The literals of a rule that is only a list of literals, else None."""
        e = self._resolve(e)
        if isinstance(e, Lit):
            return [e.text]
        if isinstance(e, Alt):
            out: List[str] = []
            for i in e.items:
                sub = self._literal_list(i)
                if sub is None:
                    return None
                out += sub
            return out
        return None

    # -- the whole grammar --------------------------------------------------------------

    def render(self) -> Rendered:
        syntactic = [n for n in self.order if not self.rules[n].lexical]
        if not syntactic:
            raise EbnfError("the grammar has no syntactic (lowerCamelCase) rules")
        rule_names = {n: _snake(n) for n in syntactic}
        if len(set(rule_names.values())) != len(rule_names):
            raise EbnfError("two rule names map to the same Lark name: %s" % rule_names)

        # What syntactic rules use: literals and lexical rules.
        used_by_syntax: Dict[str, None] = {}
        literals: Dict[str, None] = {}
        referenced: set = set()
        for n in syntactic:
            for e in _walk(self.rules[n].expr):
                if isinstance(e, Lit):
                    literals[e.text] = None
                elif isinstance(e, Ref):
                    referenced.add(e.name)
                    if is_lexical_name(e.name):
                        used_by_syntax[e.name] = None

        # Lexical rules used by syntax that are only lists of literals are "keyword lists":
        # rendered as Lark rules over the literal tokens.
        keyword_lists: Dict[str, List[str]] = {}
        token_rules: List[str] = []
        for name in used_by_syntax:
            lits = self._literal_list(self.rules[name].expr)
            if lits is not None:
                keyword_lists[name] = lits
                for l in lits:
                    literals[l] = None
            else:
                token_rules.append(name)
        keywords = sorted({l for ls in keyword_lists.values() for l in ls})
        for name in keyword_lists:
            lark_name = _snake(name.lower())
            if lark_name in rule_names.values():
                raise EbnfError("keyword list %s collides with rule %s" % (name, lark_name))
            rule_names[name] = lark_name

        # The characters that continue a word: those that extend an identifier.
        word_cont = self._word_continuation(token_rules)
        word_rx = re.compile(word_cont) if word_cont else None

        # Tokens that a literal may be the prefix of: other literals, and the opening
        # literal of each kind of trivia (a comment's "//").
        longer_tokens = set(literals) | set(self._trivia_openers())

        terminals: Dict[str, str] = {}
        lit_terminal: Dict[str, str] = {}
        contextual: List[str] = []
        for text in sorted(literals, key=lambda t: (not t[0].isalpha(), t)):
            if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", text):
                prefix = "KW_" if text in keywords else "CW_"
                if text not in keywords:
                    contextual.append(text)
                tname = prefix + text.upper()
            elif all(ch in _PUNCT_NAMES for ch in text):
                tname = "_".join(_PUNCT_NAMES[ch] for ch in text)
            else:
                tname = "LIT_" + "_".join("%X" % ord(ch) for ch in text)
            rx = _rx_escape(text)
            guards = []
            if word_rx is not None and word_rx.fullmatch(text[-1]):
                guards.append(word_cont)
            for other in sorted(longer_tokens):
                if other != text and other.startswith(text):
                    guards.append(_rx_escape(other[len(text):]))
            if guards:
                rx += "(?!%s)" % "|".join(guards)
            if tname in terminals:
                raise EbnfError("two literals map to terminal %s" % tname)
            terminals[tname] = rx
            lit_terminal[text] = tname
        for name in token_rules:
            if name in terminals:
                raise EbnfError("lexical rule %s collides with a literal's terminal" % name)
            terminals[name] = self.regex(self.rules[name].expr)
        trivia_rx = "(?:%s)+" % self.regex(self.rules[TRIVIA_RULE].expr)

        def syn(e: Expr, top: bool = False) -> str:
            if isinstance(e, Lit):
                return lit_terminal[e.text]
            if isinstance(e, Ref):
                if e.name in rule_names:
                    return rule_names[e.name]
                return e.name
            if isinstance(e, Seq):
                return " ".join(syn(i) for i in e.items)
            if isinstance(e, Alt):
                body = " | ".join(syn(i) for i in e.items)
                return body if top else "(%s)" % body
            if isinstance(e, Opt):
                return "(%s)?" % syn(e.item, True)
            if isinstance(e, Rep):
                return "(%s)*" % syn(e.item, True)
            if isinstance(e, Times):
                return "(%s) ~ %d" % (syn(e.item, True), e.count)
            raise EbnfError("cannot render %r in a syntactic rule" % (e,))

        starts = [rule_names[n] for n in syntactic if n not in referenced]
        if not starts:
            raise EbnfError("no start symbol: every syntactic rule is used by another")

        out = []
        out.append("// GENERATED by Grammar/ebnf_to_lark.py from %s -- do not edit." % self.source_name)
        out.append("// Start symbols: %s" % ", ".join(starts))
        out.append("")
        out.append("// ---- syntactic rules ----")
        for n in syntactic:
            out.append("%s: %s" % (rule_names[n], syn(self.rules[n].expr, True)))
        if keyword_lists:
            out.append("")
            out.append("// ---- keyword lists (lexical rules made of literals, used by syntax) ----")
            for name, lits in keyword_lists.items():
                out.append("%s: %s" % (rule_names[name], " | ".join(lit_terminal[l] for l in lits)))
        out.append("")
        out.append("// ---- tokens ----")
        for tname, rx in terminals.items():
            out.append("%s: /%s/" % (tname, rx))
        out.append("")
        out.append("%s: /%s/" % (TRIVIA_RULE, trivia_rx))
        out.append("%%ignore %s" % TRIVIA_RULE)
        out.append("")
        terminals[TRIVIA_RULE] = trivia_rx
        return Rendered(
            lark="\n".join(out),
            starts=starts,
            rule_names=rule_names,
            terminals=terminals,
            keywords=keywords,
            contextual_words=contextual,
        )

    def _word_continuation(self, token_rules: Sequence[str]) -> Optional[str]:
        """The continuation class of the token rule defined as an exception on words
        (IDENT = WORD - KEYWORD), or failing that of any token rule ending in { ... }."""
        candidates = []
        for name in token_rules:
            e = self.rules[name].expr
            if isinstance(e, Except) and not self._is_single_char(e.base):
                candidates.insert(0, e.base)
            else:
                candidates.append(e)
        for e in candidates:
            try:
                return self._continuation(e)
            except EbnfError:
                continue
        return None

    def _trivia_openers(self) -> List[str]:
        """Leading literals of the trivia alternatives longer than one character ("//")."""
        out = []

        def first_lit(e: Expr) -> Optional[str]:
            e = self._resolve(e)
            if isinstance(e, Lit):
                return e.text
            if isinstance(e, Seq):
                return first_lit(e.items[0])
            return None

        def alts(e: Expr) -> Iterator[Expr]:
            e = self._resolve(e)
            if isinstance(e, Alt):
                for i in e.items:
                    yield from alts(i)
            else:
                yield e

        for a in alts(self.rules[TRIVIA_RULE].expr):
            lit = first_lit(a)
            if lit:
                out.append(lit)
        return out


def render_lark(ebnf_text: str, source_name: str = "routes.ebnf") -> Rendered:
    """Render EBNF text as a Lark grammar."""
    return _Renderer(parse_ebnf(ebnf_text), source_name).render()


# ---------------------------------------------------------------------------------------
# 3. The checker
# ---------------------------------------------------------------------------------------


@dataclasses.dataclass
class Verdict:
    accepted: bool
    error: Optional[str] = None  # why not, when not accepted

    def __bool__(self) -> bool:
        return self.accepted


_UNICODE_ESCAPE = re.compile(r"\\(?:u\{([0-9A-Fa-f]*)\}|.)", re.S)


def check_unicode_escapes(string_token: str) -> Optional[str]:
    r"""The post-pass the EBNF cannot express: each \u{...} must be a Unicode scalar."""
    for m in _UNICODE_ESCAPE.finditer(string_token[1:-1]):
        digits = m.group(1)
        if digits is None:
            continue
        value = int(digits, 16)
        if value > 0x10FFFF or 0xD800 <= value <= 0xDFFF:
            return "\\u{%s} is not a Unicode scalar value" % digits
    return None


# An implementation limit, not part of the language (see "What this grammar does not
# describe" in routes.ebnf): the Swift parser (Parser.defaultMaxDepth) rejects a chain of
# more than this many nested `builder`s, or of nested `type`s, so that no input can
# overflow its stack. The checker applies the same limit so that the two agree.
NESTING_LIMITS = {"builder": 200, "type": 200}


def _nesting_problem(tree, limits: Dict[str, int]) -> Optional[str]:
    """The first rule nested deeper than its limit, if any (iterative: trees are deep)."""
    stack = [(tree, {name: 0 for name in limits})]
    while stack:
        node, depths = stack.pop()
        data = getattr(node, "data", None)
        if data is None:
            continue
        if data in limits:
            depths = dict(depths)
            depths[data] += 1
            if depths[data] > limits[data]:
                return "more than %d nested %s nodes (implementation limit)" % (limits[data], data)
        stack.extend((child, depths) for child in node.children)
    return None


class GrammarChecker:
    """Parses Routes sources with the Lark grammar rendered from routes.ebnf."""

    def __init__(self, ebnf_path: str = DEFAULT_EBNF, ambiguity: str = "resolve",
                 nesting_limits: Optional[Dict[str, int]] = None):
        import lark  # imported here so that rendering works without Lark installed

        with open(ebnf_path, encoding="utf-8") as f:
            self.rendered = render_lark(f.read(), os.path.basename(ebnf_path))
        self.lark = lark.Lark(
            self.rendered.lark,
            parser="earley",
            lexer="dynamic",
            start=self.rendered.starts,
            keep_all_tokens=True,
            ambiguity=ambiguity,
        )
        self._lark_module = lark
        limits = NESTING_LIMITS if nesting_limits is None else nesting_limits
        # Limits are given by EBNF rule name; the tree uses Lark names.
        self.nesting_limits = {self.rendered.rule_names.get(k, k): v for k, v in limits.items()}

    @property
    def starts(self) -> List[str]:
        return self.rendered.starts

    def parse(self, source: Union[str, bytes], start: str = "file"):
        """The Lark tree of source, or raises SourceError."""
        text = self.decode(source)
        try:
            tree = self.lark.parse(text, start=start)
        except self._lark_module.exceptions.LarkError as e:
            raise SourceError(str(e).strip()) from None
        except RecursionError:
            # Lark builds trees recursively; only nesting far past the limit gets here.
            raise SourceError("nesting too deep for the checker (over the implementation limit)") from None
        problem = _nesting_problem(tree, self.nesting_limits)
        if problem:
            raise SourceError(problem)
        for tok in tree.scan_values(lambda v: isinstance(v, self._lark_module.Token)):
            if tok.type == "STRING":
                problem = check_unicode_escapes(str(tok))
                if problem:
                    raise SourceError("line %s: %s" % (tok.line, problem))
        return tree

    def check(self, source: Union[str, bytes], start: str = "file") -> Verdict:
        try:
            self.parse(source, start)
        except SourceError as e:
            return Verdict(False, str(e))
        return Verdict(True)

    def accepts(self, source: Union[str, bytes], start: str = "file") -> bool:
        return self.check(source, start).accepted

    @staticmethod
    def decode(source: Union[str, bytes]) -> str:
        """Strict UTF-8 (an invalid sequence is an error), one leading BOM skipped."""
        if isinstance(source, bytes):
            try:
                source = source.decode("utf-8", errors="strict")
            except UnicodeDecodeError as e:
                raise SourceError("invalid UTF-8 at byte %d" % e.start) from None
        if source.startswith("\ufeff"):
            source = source[1:]
        return source


class SourceError(Exception):
    """The source is not in the language."""


# ---------------------------------------------------------------------------------------
# 4. Command line
# ---------------------------------------------------------------------------------------


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "check":
        ap = argparse.ArgumentParser(prog="ebnf_to_lark.py check",
                                     description="Say whether each file is in the language.")
        ap.add_argument("--ebnf", default=DEFAULT_EBNF)
        ap.add_argument("--start", default="file", help="start symbol (file or path)")
        ap.add_argument("files", nargs="+")
        args = ap.parse_args(argv[1:])
        try:
            checker = GrammarChecker(args.ebnf)
        except EbnfError as e:
            print("%s: %s" % (args.ebnf, e), file=sys.stderr)
            return 2
        status = 0
        for path in args.files:
            with open(path, "rb") as f:
                verdict = checker.check(f.read(), args.start)
            if verdict:
                print("%s: accepted" % path)
            else:
                status = 1
                print("%s: rejected: %s" % (path, verdict.error.splitlines()[0]))
        return status
    ap = argparse.ArgumentParser(description="Print the Lark grammar rendered from the EBNF.")
    ap.add_argument("--ebnf", default=DEFAULT_EBNF)
    args = ap.parse_args(argv)
    try:
        with open(args.ebnf, encoding="utf-8") as f:
            rendered = render_lark(f.read(), os.path.basename(args.ebnf))
    except EbnfError as e:
        print("%s: %s" % (args.ebnf, e), file=sys.stderr)
        return 1
    sys.stdout.write(rendered.lark)
    return 0


if __name__ == "__main__":
    sys.exit(main())
