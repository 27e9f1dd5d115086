"""Worded constructions to a parse tree: the lexer and the parse driver
behind :mod:`geodsl.lang.aux_text`.

The grammars (``grammar/aux_en.lark``, ``grammar/aux_zh.lark``) are LALR(1)
over tokens this module makes, not over characters, because worded text
mixes two alphabets: a run of Latin letters is a keyword when a word
terminal of the grammar matches all of it, and the names of points
otherwise ("AB" is A and B); Chinese phrases are matched longest first, as
a lexer does. Commas and "and" are the hard part of reading such text: in
"connect AB, CD and EF" they build a list, in "过点P作PQ⊥AB，交AC于Q" the
comma is mere punctuation inside one construction, and in "取AB的中点E，
连接CE" it separates two. The driver decides each one as it parses, from
the parser's own table: part of the phrase if the grammar takes it there
(and the next token after it), punctuation if the phrase goes on without
it, and otherwise the separator between two constructions.

Text is untrusted: it is never evaluated, its size is bounded
(:data:`MAX_CHARS`), every loop here advances by at least one character or
token, and every failure is a located :class:`~geodsl.lang.errors.SyntaxErrorGDL`.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from .errors import LimitError, SyntaxErrorGDL

if TYPE_CHECKING:  # lark is imported on first use: `import geodsl` stays light
    from lark import Lark, Token, Tree

LANGS = ("en", "zh")
MAX_CHARS = 4_000
"""The longest worded candidate read (a model's auxiliary lines are a few
sentences; a longer text is refused with a LimitError, not parsed)."""

# Full-width ASCII (U+FF01..U+FF5E) and the ideographic space, one character
# for one, so columns stay where the user sees them.
_WIDE = {cp: cp - 0xFEE0 for cp in range(0xFF01, 0xFF5F)}
_WIDE.update({0x3000: 0x20, 0x2032: 0x27, 0x2019: 0x27, 0x2018: 0x27, 0x00A0: 0x20})
# "，" and "、" and the Latin comma are one token; "；" and "。" separate.
_WIDE.update({0xFF0C: 0x2C, 0xFF1B: 0x3B})


def normalise(text: str) -> str:
    """Full-width letters and punctuation as their ASCII forms, one for one."""
    return text.translate(_WIDE)


_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_'₀-₉]*")
_POINT = re.compile(r"[A-Za-z](?:_?[0-9]+|[₀-₉]+)?'*")
_SPACE = re.compile(r"[ \t\r\u00a0]+")
_WORD_CHAR = re.compile(r"[A-Za-z0-9_]")
_CJK = re.compile(r"[\u3400-\u9fff]")

HARD = frozenset(";。\n!?！？")
"""Characters that always end a construction (with "." between words)."""
SOFT_TYPES = frozenset({"COMMA", "AND", "THEN", "BING"})
"""Tokens the driver decides: in the phrase, punctuation, or a separator."""

# Words dropped wherever they stand, and words dropped before a point name.
_DROP = {"en": frozenset({"a", "an", "the", "any", "some", "arbitrary", "given"}),
         "zh": frozenset({"的", "任意", "一条", "两条", "某"})}
_DROP_BEFORE_POINT = {"en": frozenset({"point", "points"}),
                      "zh": frozenset({"点", "一点", "另一点", "一个点", "任意一点", "任一点", "另一交点"})}
# A claim — a consequence, not a construction — starts at one of these.
CLAIM_MARKERS = {
    "en": ("so", "hence", "thus", "therefore", "clearly", "obviously", "consequently", "we get",
           "we have", "we obtain", "we see", "it follows", "which gives", "because", "since", "∴", "∵"),
    "zh": ("则", "所以", "因此", "故", "于是", "从而", "可得", "易得", "易知", "易证", "得到", "可知",
           "显然", "因为", "由于", "那么", "∴", "∵"),
}
_THEN = {"en": ("then", "and then", "next"), "zh": ("然后", "接着", "再", "并且", "然后再")}


@dataclass(frozen=True)
class Lexeme:
    """A token: grammar type, text, offset in the (normalised) text."""

    type: str
    text: str
    start: int

    @property
    def end(self) -> int:
        return self.start + len(self.text)


class Vocabulary:
    """One language's terminals, compiled for :func:`lex`."""

    def __init__(self, lang: str, parser: "Lark") -> None:
        self.lang = lang
        flags = re.IGNORECASE if lang == "en" else 0
        terms: list[tuple[str, re.Pattern[str]]] = []
        words: list[tuple[str, re.Pattern[str]]] = []
        for t in parser.terminals:
            regexp = t.pattern.to_regexp()
            terms.append((t.name, re.compile(regexp, flags)))
            # At a Latin word the match must end where the word does: the
            # lookahead makes `meet|meeting` find "meeting", not stop at "meet".
            words.append((t.name, re.compile(f"(?:{regexp})(?![A-Za-z0-9_])", flags)))
        self.terminals = tuple(terms)
        self.words = tuple(words)
        self.verbs = frozenset(n for n, _ in terms if n.startswith("V_"))

    def longest(self, text: str, pos: int, latin: bool) -> tuple[str, int] | None:
        """The terminal with the longest match at ``pos`` and its end; for a
        Latin word the match must end at a word boundary. Two terminals
        matching the same longest text is a grammar bug, reported as such."""
        best: tuple[str, int] | None = None
        for name, pattern in (self.words if latin else self.terminals):
            m = pattern.match(text, pos)
            if m is None or m.end() == pos:
                continue
            end = m.end()
            if best is None or end > best[1]:
                best = (name, end)
            elif end == best[1]:
                raise AssertionError(f"aux grammar ({self.lang}): `{text[pos:end]}` is both "
                                     f"{best[0]} and {name}")
        return best

    def verb_at(self, text: str, pos: int) -> bool:
        """Whether a construction verb (a ``V_`` terminal) starts at ``pos``."""
        m = _SPACE.match(text, pos)
        if m:
            pos = m.end()
        found = self.longest(text, pos, bool(_LATIN.match(text, pos)))
        return found is not None and found[0] in self.verbs


@cache
def _grammar(lang: str) -> str:
    return resources.files("geodsl.grammar").joinpath(f"aux_{lang}.lark").read_text(encoding="utf-8")


_LOCK = threading.Lock()
_PARSERS: dict[str, tuple["Lark", Vocabulary]] = {}


def parser(lang: str) -> tuple["Lark", Vocabulary]:
    """The LALR parser of ``lang`` and its vocabulary, built once per process."""
    found = _PARSERS.get(lang)
    if found is not None:
        return found
    from lark import Lark
    from lark.lexer import Lexer

    class _Unused(Lexer):
        """The driver feeds tokens itself; Lark's lexer never runs."""

        def __init__(self, conf: object) -> None:
            pass

        def lex(self, lexer_state: object, parser_state: object) -> Iterator["Token"]:  # pragma: no cover
            raise NotImplementedError  # never called: tokens are fed to the interactive parser

    with _LOCK:
        if lang not in _PARSERS:
            built = Lark(_grammar(lang), parser="lalr", lexer=_Unused, propagate_positions=False)
            _PARSERS[lang] = (built, Vocabulary(lang, built))
    return _PARSERS[lang]


# ---------------------------------------------------------------- lexing


class Where:
    """Offsets in one text to (line, column), and the text of each line."""

    def __init__(self, text: str, source: str | None, line: int, shown: str | None = None) -> None:
        self.text = text
        self.shown = text if shown is None else shown
        """The text as written (``text`` is normalised, one character for one)."""
        self.source = source
        self.first_line = line
        self._starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line_col(self, offset: int) -> tuple[int, int]:
        index = max(0, _bisect(self._starts, offset) - 1)
        return self.first_line + index, offset - self._starts[index] + 1

    def line_text(self, offset: int) -> str:
        index = max(0, _bisect(self._starts, offset) - 1)
        start = self._starts[index]
        end = self.shown.find("\n", start)
        return self.shown[start:end if end >= 0 else len(self.shown)]

    def error(self, message: str, offset: int, length: int, hint: str) -> SyntaxErrorGDL:
        line, column = self.line_col(offset)
        return SyntaxErrorGDL(message, source=self.source, line=line, column=column,
                              text=self.shown[offset:offset + max(1, length)], hint=hint,
                              source_line=self.line_text(offset))


def _bisect(starts: Sequence[int], offset: int) -> int:
    lo, hi = 0, len(starts)
    while lo < hi:
        mid = (lo + hi) // 2
        if starts[mid] <= offset:
            lo = mid + 1
        else:
            hi = mid
    return lo


def lex(text: str, lang: str, where: Where, hint: str) -> list[Lexeme]:
    """The tokens of ``text`` (normalised) in ``lang``; a located error for
    a character or word that is none of the grammar's."""
    vocab = parser(lang)[1]
    out: list[Lexeme] = []
    pos, n = 0, len(text)
    drop, drop_before = _DROP[lang], _DROP_BEFORE_POINT[lang]
    markers = CLAIM_MARKERS[lang]
    while pos < n:
        m = _SPACE.match(text, pos)
        if m:
            pos = m.end()
            continue
        ch = text[pos]
        if ch in HARD or (ch == "." and not _decimal_point(text, pos)):
            out.append(Lexeme("SEP", ch, pos))
            pos += 1
            continue
        if ch in ",、":
            out.append(Lexeme("COMMA", ch, pos))
            pos += 1
            continue
        latin = _LATIN.match(text, pos)
        then = _starts_with(text, pos, _THEN[lang], lang)
        if then is not None and vocab.verb_at(text, pos + len(then)):
            out.append(Lexeme("THEN", then, pos))
            pos += len(then)
            continue
        capitals = latin is not None and latin.group() == latin.group().upper()
        # An all-capitals run is point names ("AT", "ON", "SO", "A"), never a word.
        found = None if capitals else vocab.longest(text, pos, latin is not None)
        marker = None if capitals else _starts_with(text, pos, markers, lang)
        if marker is None and then is not None and lang == "en" and then.lower() == "then" and not capitals:
            marker = then  # "then ∠AHB = 90°": a claim, as 则 is
        if marker is not None and (found is None or found[1] - pos <= len(marker)):
            end = _claim_end(text, pos + len(marker), vocab)
            out.append(Lexeme("CLAIM", text[pos:end].rstrip().rstrip(",、").rstrip(), pos))
            pos = end
            continue
        if found is not None and text[pos:found[1]].lower() in drop_before and _LATIN.match(
                text, _skip_space(text, found[1])):
            pos = found[1]  # "point P", "点P": the name says it
            continue
        if latin is not None and found is None:
            word = latin.group()
            lower = word.lower()
            if capitals:
                out.append(Lexeme("POINTS", word, pos))
                pos = latin.end()
                continue
            if lang == "en" and lower in drop:
                pos = latin.end()
                continue
            if lang == "en" and lower in drop_before and _LATIN.match(text, _skip_space(text, latin.end())):
                pos = latin.end()
                continue
            if lang == "en" and word != word.upper() and (len(word) >= 4 or word[0].isupper()) and len(word) > 1:
                raise where.error(f"unknown word `{word}`", pos, len(word),
                                  "point names are written in capitals (`AB`); " + hint)
            out.append(Lexeme("POINTS", word, pos))
            pos = latin.end()
            continue
        if found is None:
            for word in sorted(drop | drop_before, key=len, reverse=True):
                if lang == "zh" and text.startswith(word, pos):
                    found = ("", pos + len(word))
                    break
            if found is None:
                what = "character" if not _CJK.match(ch) else "phrase"
                raise where.error(f"unexpected {what} `{ch}`", pos, 1, hint)
            pos = found[1]
            continue
        name, end = found
        word = text[pos:end]
        if lang == "en" and word.lower() in drop:
            pos = end
            continue
        out.append(Lexeme(name, word, pos))
        pos = end
    return out


def _decimal_point(text: str, pos: int) -> bool:
    return 0 < pos < len(text) - 1 and text[pos - 1].isdigit() and text[pos + 1].isdigit()


def _skip_space(text: str, pos: int) -> int:
    m = _SPACE.match(text, pos)
    return m.end() if m else pos


def _starts_with(text: str, pos: int, words: Sequence[str], lang: str) -> str | None:
    """The longest of ``words`` at ``pos`` (a whole word in English)."""
    best = None
    for w in words:
        if lang == "en":
            piece = text[pos:pos + len(w)]
            if piece.lower() != w or (pos + len(w) < len(text) and _WORD_CHAR.match(text, pos + len(w))):
                continue
            if w == "so" and re.match(r"\s+that\b", text[pos + 2:], re.IGNORECASE):
                continue
            found = piece
        elif text.startswith(w, pos):
            found = w
        else:
            continue
        if best is None or len(found) > len(best):
            best = found
    return best


def _claim_end(text: str, pos: int, vocab: Vocabulary) -> int:
    """Where a claim starting before ``pos`` ends: at a hard separator, or at
    a comma, "and" or "then" that a construction verb follows."""
    n = len(text)
    while pos < n:
        ch = text[pos]
        if ch in HARD or (ch == "." and not _decimal_point(text, pos)):
            return pos
        if ch in ",、" and vocab.verb_at(text, pos + 1):
            return pos
        if vocab.lang == "en":
            for word in ("and", "then"):
                if (text[pos:pos + len(word)].lower() == word and (pos == 0 or not _WORD_CHAR.match(text[pos - 1]))
                        and vocab.verb_at(text, pos + len(word))):
                    return pos
        elif any(text.startswith(w, pos) and vocab.verb_at(text, pos + len(w)) for w in _THEN["zh"] + ("并",)):
            return pos
        pos += 1
    return n


# ---------------------------------------------------------------- parsing


def parse(text: str, lang: str, where: Where, hint: str) -> "Tree":
    """The parse tree of ``text`` (already normalised), deciding each soft
    token as the module docstring says. Raises a located SyntaxErrorGDL
    quoting the construction it could not read."""
    if len(text) > MAX_CHARS:
        raise LimitError(f"the candidate is {len(text):,} characters long; the limit is {MAX_CHARS:,}",
                         source=where.source, line=where.first_line, column=1, text="",
                         hint="pass the auxiliary constructions one candidate at a time",
                         source_line=where.line_text(0))
    from lark import Token
    from lark.exceptions import UnexpectedInput

    lark, _ = parser(lang)
    tokens = lex(text, lang, where, hint)
    ip = lark.parse_interactive(None)
    states = ip.parser_state.parse_conf.parse_table.states

    def accepts(state_ip: object, terminal: str) -> bool:
        return terminal in states[state_ip.parser_state.position]  # type: ignore[attr-defined]  # an InteractiveParser

    def token(lx: Lexeme, type_: str | None = None) -> Token:
        line, column = where.line_col(lx.start)
        return Token(type_ or lx.type, lx.text, start_pos=lx.start, line=line, column=column,
                     end_pos=lx.end)

    item_start = 0
    fed_any = False
    i = 0
    while i < len(tokens):
        lx = tokens[i]
        if lx.type in SOFT_TYPES or lx.type == "SEP":
            j = i
            while j < len(tokens) and (tokens[j].type in SOFT_TYPES or tokens[j].type == "SEP"):
                j += 1
            run, nxt = tokens[i:j], (tokens[j] if j < len(tokens) else None)
            i = j
            if nxt is None or not fed_any:
                continue  # leading and trailing punctuation
            hard = any(t.type == "SEP" for t in run)
            chosen: Lexeme | None = None
            if not hard:
                for s in reversed(run):
                    if accepts(ip, s.type):
                        trial = ip.copy()
                        try:
                            trial.feed_token(token(s))
                        except UnexpectedInput:
                            continue
                        if accepts(trial, nxt.type):
                            chosen = s
                            break
            if chosen is not None:
                ip.feed_token(token(chosen))
            elif not hard and accepts(ip, nxt.type):
                pass  # punctuation inside one construction
            else:
                try:
                    ip.feed_token(token(run[0], "SEP"))
                except UnexpectedInput:
                    raise _unexpected(text, where, hint, item_start, run[0]) from None
                item_start = run[-1].end
            continue
        try:
            ip.feed_token(token(lx))
        except UnexpectedInput:
            raise _unexpected(text, where, hint, item_start, lx) from None
        fed_any = True
        i += 1
    if not fed_any:
        raise where.error("no construction in the text", 0, len(text), hint)
    last = next(t for t in reversed(tokens) if t.type not in SOFT_TYPES and t.type != "SEP")
    try:
        return ip.feed_eof(token(last))
    except UnexpectedInput:
        raise _incomplete(text, where, hint, item_start, last) from None


def _phrase(text: str, start: int) -> tuple[int, str]:
    """The construction starting at ``start``: up to the next hard separator."""
    while start < len(text) and (text[start].isspace() or text[start] in ",、"):
        start += 1
    end = start
    while end < len(text) and not (text[end] in HARD or (text[end] == "." and not _decimal_point(text, end))):
        end += 1
    return start, text[start:end].strip()


def _unexpected(text: str, where: Where, hint: str, item_start: int, at: Lexeme) -> SyntaxErrorGDL:
    start, phrase = _phrase(text, item_start)
    what = "separator" if at.type in ("SEP", "COMMA", "THEN") else ("point names" if at.type == "POINTS"
                                                                     else "word")
    return where.error(f"cannot read `{phrase}` as a construction: unexpected {what} `{at.text}`",
                       at.start, len(at.text), hint)


def _incomplete(text: str, where: Where, hint: str, item_start: int, last: Lexeme) -> SyntaxErrorGDL:
    start, phrase = _phrase(text, item_start)
    return where.error(f"cannot read `{phrase}` as a construction: it stops after `{last.text}`",
                       start, max(1, last.end - start), hint)


def split_points(run: str) -> list[tuple[str, int]] | None:
    """Point names of a POINTS run with their offsets in it (``G_1A'`` → G_1, A'),
    or None when the run is not a sequence of names."""
    out = []
    pos = 0
    while pos < len(run):
        m = _POINT.match(run, pos)
        if m is None:
            return None
        out.append((m.group(), pos))
        pos = m.end()
    return out


def detect(text: str) -> str:
    """``zh`` when the text has Chinese characters, else ``en``."""
    return "zh" if _CJK.search(text) else "en"
