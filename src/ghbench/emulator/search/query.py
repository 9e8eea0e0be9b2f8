"""The search query language: terms, operators, grouping, ranges, and GitHub's limits.

See the package doc for the syntax; this module only parses and evaluates.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TypeVar

T = TypeVar("T")

MAX_RESULTS = 1000  # "a maximum of 1,000 results will be available" (REST docs, GraphQL schema)
MAX_TEXT = 256  # characters of free text, qualifiers and operators excluded (REST docs)
MAX_OPERATORS = 5  # AND / OR / NOT (REST docs)

# GitHub's messages (REST 422 bodies reported from github.com).
UNSEARCHABLE_REPOS = (
    "The listed users and repositories cannot be searched either because the resources do "
    "not exist or you do not have permission to view them."
)
UNSEARCHABLE_USERS = (
    "The listed users cannot be searched either because the users do not exist or you do "
    "not have permission to view the users."
)
INVALID_SYNTAX = "The search query contains invalid syntax."
TOO_LONG = "The search is longer than 256 characters."
TOO_MANY_OPERATORS = "More than five AND / OR / NOT operators were used."


class SearchProblem(Exception):
    """A query GitHub's REST search refuses with 422 ``Validation Failed``."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# -- the query language ---------------------------------------------------------------
@dataclass(frozen=True)
class Term:
    """One word, phrase or qualifier. ``key`` is None for text; ``values`` are the
    comma-separated alternatives with quotes removed."""

    key: str | None
    values: tuple[str, ...]
    raw: str
    negated: bool = False

    @property
    def value(self) -> str:
        return ",".join(self.values)


@dataclass(frozen=True)
class Negation:
    node: Node


@dataclass(frozen=True)
class AllOf:
    nodes: tuple[Node, ...]


@dataclass(frozen=True)
class AnyOf:
    nodes: tuple[Node, ...]


Node = Term | Negation | AllOf | AnyOf


@dataclass(frozen=True)
class ParsedQuery:
    root: Node | None
    terms: tuple[Term, ...]
    operators: int
    parentheses: int = 0

    def qualifiers(self, *keys: str) -> list[Term]:
        return [t for t in self.terms if t.key in keys]

    @property
    def text_length(self) -> int:
        """The query as GitHub counts it for the 256 limit: free text and parentheses
        (neither operators nor qualifiers, which the docs leave out)."""
        return len(" ".join(t.raw for t in self.terms if t.key is None)) + self.parentheses


# Every qualifier GitHub documents for issue, pull request, repository, user and commit
# search; any other ``key:`` is text.
QUALIFIER_KEYS = frozenset(
    {
        "archived", "assignee", "author", "base", "closed", "comments", "commenter",
        "created", "draft", "followers", "fork", "forks", "good-first-issues",
        "head", "help-wanted-issues", "in", "interactions", "involves", "is", "label",
        "language", "license", "linked", "location", "merged", "mentions", "milestone",
        "mirror", "no", "org", "project", "pushed", "reactions", "reason", "repo",
        "repos", "review", "review-requested", "reviewed-by", "size", "sort", "stars",
        "state", "status", "team", "team-review-requested", "template", "topic",
        "topics", "type", "updated", "user", "user-review-requested",
        "author-date", "author-email", "author-name", "committer", "committer-date",
        "committer-email", "committer-name", "hash", "merge", "parent", "tree",
    }
)  # fmt: skip
_OPERATORS = frozenset({"AND", "OR", "NOT"})
# Repeating one of these means either (their value is one per item); repo/user/org
# together form one scope.
_EITHER_WHEN_REPEATED = {
    "repo": "scope",
    "user": "scope",
    "org": "scope",
    "author": "author",
    "involves": "involves",
    "head": "head",
    "base": "base",
    "language": "language",
}
# Qualifiers that set how the search runs rather than what matches.
_GLOBAL_KEYS = frozenset({"sort", "in"})
USER_KEYS = (
    "author",
    "assignee",
    "mentions",
    "commenter",
    "involves",
    "reviewed-by",
    "review-requested",
    "user-review-requested",
)


def _split_values(text: str) -> tuple[str, ...]:
    """``bug,"help wanted"`` -> ("bug", "help wanted"): commas outside quotes."""
    values: list[str] = []
    current: list[str] = []
    quoted = False
    for char in text:
        if char == '"':
            quoted = not quoted
        elif char == "," and not quoted:
            values.append("".join(current))
            current = []
        else:
            current.append(char)
    values.append("".join(current))
    return tuple(v.strip() for v in values if v.strip())


def _term(word: str) -> Term:
    negated = word.startswith("-") and len(word) > 1
    body = word[1:] if negated else word
    key, sep, rest = body.partition(":")
    if sep and rest and key.lower() in QUALIFIER_KEYS:
        values = _split_values(rest)
        if values:
            return Term(key.lower(), values, body, negated)
    return Term(None, (body.replace('"', "").strip(),), body, negated)


def _tokens(query: str) -> list[str | Term]:
    """Parentheses, operators (upper case only, as on GitHub) and terms."""
    out: list[str | Term] = []
    i, n = 0, len(query)
    while i < n:
        char = query[i]
        if char.isspace():
            i += 1
            continue
        if char in "()":
            out.append(char)
            i += 1
            continue
        start, quoted = i, False
        while i < n:
            char = query[i]
            if char == '"':
                quoted = not quoted
            elif not quoted and (char.isspace() or char in "()"):
                break
            i += 1
        word = query[start:i]
        out.append(word if word in _OPERATORS else _term(word))
    return out


class _Parser:
    """``or := and ("OR" and)*``, ``and := unary ("AND"? unary)*``,
    ``unary := "NOT" unary | "(" or ")" | term``."""

    _STOP = (None, ")", "OR", "AND")

    def __init__(self, tokens: list[str | Term]) -> None:
        self.tokens = tokens
        self.i = 0

    def peek(self) -> str | Term | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> str | Term | None:
        token = self.peek()
        self.i += 1
        return token

    def parse(self) -> Node | None:
        if not self.tokens:
            return None
        node = self.any_of()
        if self.i != len(self.tokens):  # a stray ")"
            raise SearchProblem(INVALID_SYNTAX)
        return node

    def any_of(self) -> Node:
        parts = [self.all_of()]
        while self.peek() == "OR":
            self.i += 1
            parts.append(self.all_of())
        return parts[0] if len(parts) == 1 else AnyOf(tuple(parts))

    def all_of(self) -> Node:
        parts: list[Node] = []
        while self.peek() not in (None, ")", "OR"):
            if self.peek() == "AND":
                self.i += 1
                if not parts or self.peek() in self._STOP:
                    raise SearchProblem(INVALID_SYNTAX)
                continue
            parts.append(self.unary())
        if not parts:
            raise SearchProblem(INVALID_SYNTAX)
        grouped = _group_repeats(parts)
        return grouped[0] if len(grouped) == 1 else AllOf(tuple(grouped))

    def unary(self) -> Node:
        token = self.take()
        if token == "NOT":
            if self.peek() in self._STOP:
                raise SearchProblem(INVALID_SYNTAX)
            return Negation(self.unary())
        if token == "(":
            node = self.any_of()
            if self.take() != ")":
                raise SearchProblem(INVALID_SYNTAX)
            return node
        if not isinstance(token, Term):
            raise SearchProblem(INVALID_SYNTAX)
        return token


def _group_repeats(parts: list[Node]) -> list[Node]:
    """Repeated single-valued qualifiers in one AND group become one OR."""
    groups: dict[str, list[Term]] = {}
    out: list[Node] = []
    for part in parts:
        group = _EITHER_WHEN_REPEATED.get(part.key or "") if isinstance(part, Term) else None
        if isinstance(part, Term) and group is not None and not part.negated:
            if group not in groups:
                groups[group] = []
                out.append(part)  # placeholder, replaced below
            groups[group].append(part)
        else:
            out.append(part)
    for members in groups.values():
        if len(members) > 1:
            out[out.index(members[0])] = AnyOf(tuple(members))
    return out


def _walk_terms(node: Node | None) -> Iterable[Term]:
    if node is None:
        return
    if isinstance(node, Term):
        yield node
    elif isinstance(node, Negation):
        yield from _walk_terms(node.node)
    else:
        for child in node.nodes:
            yield from _walk_terms(child)


def parse_query(query: str) -> ParsedQuery:
    """Parse ``query``; :class:`SearchProblem` for syntax GitHub refuses.

    The length and operator limits are checked on the tokens, before the (recursive)
    parse: they bound how deep a query can nest, so ``((((…`` a thousand deep or
    ``NOT`` two thousand times is GitHub's 422, never a RecursionError."""
    tokens = _tokens(query)
    operators = sum(1 for t in tokens if t in _OPERATORS)
    parentheses = sum(1 for t in tokens if t in ("(", ")"))
    terms = tuple(t for t in tokens if isinstance(t, Term))
    check_limits(ParsedQuery(None, terms, operators, parentheses))
    root = _Parser(tokens).parse()
    return ParsedQuery(root, tuple(_walk_terms(root)), operators, parentheses)


def evaluate(node: Node, item: T, match: Callable[[Term, T], bool]) -> bool:
    if isinstance(node, Term):
        if node.key in _GLOBAL_KEYS:
            return True
        return match(node, item) != node.negated
    if isinstance(node, Negation):
        return not evaluate(node.node, item, match)
    if isinstance(node, AllOf):
        return all(evaluate(child, item, match) for child in node.nodes)
    return any(evaluate(child, item, match) for child in node.nodes)


def matching(parsed: ParsedQuery, items: Iterable[T], match: Callable[[Term, T], bool]) -> list[T]:
    """The ``items`` the query holds for, in their order (every one for a query with no
    expression)."""
    root = parsed.root
    return [item for item in items if root is None or evaluate(root, item, match)]


@functools.lru_cache(maxsize=256)
def word_pattern(phrase: str) -> re.Pattern[str]:
    """``phrase``'s words in order, any whitespace between them, starting a word; any case."""
    words = [re.escape(w) for w in phrase.split()]
    return re.compile(r"(?<!\w)" + r"\s+".join(words), re.IGNORECASE)


def check_limits(parsed: ParsedQuery) -> None:
    if parsed.text_length > MAX_TEXT:
        raise SearchProblem(TOO_LONG)
    if parsed.operators > MAX_OPERATORS:
        raise SearchProblem(TOO_MANY_OPERATORS)


# -- ranges: dates and numbers -----------------------------------------------------
Span = tuple[float, float]  # [start, end)
_INF = float("inf")


def date_atom(text: str) -> Span | None:
    """``YYYY-MM-DD`` is the whole day (UTC); with a time, that second (or minute)."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    start = moment.timestamp()
    if len(text) == 10:
        return start, start + 86_400
    return start, start + (60 if len(text) == 16 else 1)


def number_atom(text: str) -> Span | None:
    return (float(text), float(text) + 1) if text.isdigit() else None


def _range(text: str, atom: Callable[[str], Span | None]) -> Span | None:
    """GitHub's ``>x``, ``>=x``, ``<x``, ``<=x``, ``a..b`` (``*`` open), or ``x``."""
    if ".." in text:
        low_text, _, high_text = text.partition("..")
        low = (-_INF, -_INF) if low_text == "*" else atom(low_text)
        high = (_INF, _INF) if high_text == "*" else atom(high_text)
        return None if low is None or high is None else (low[0], high[1])
    for prefix in (">=", "<=", ">", "<"):
        if text.startswith(prefix):
            span = atom(text[len(prefix) :])
            if span is None:
                return None
            return {
                ">=": (span[0], _INF),
                "<=": (-_INF, span[1]),
                ">": (span[1], _INF),
                "<": (-_INF, span[0]),
            }[prefix]
    return atom(text)


def in_range(value: float | None, text: str, atom: Callable[[str], Span | None]) -> bool:
    span = _range(text, atom)
    return value is not None and span is not None and span[0] <= value < span[1]
