"""A GraphQL document's structure: its tokens with the small integers left out.

Two documents with the same key parse to the same tree but for the values of their
32-bit integer literals (a page size, a pull request's number), which no operation
name, top-level field or validation rule depends on, but one: where two fields of one
selection set share a response name, field merging compares their arguments. So each
key comes with the pattern of its integers' equalities (each numbered by its value's
first appearance): where documents of one key have the same pattern, what was found
valid for one holds for the other; where the document merges no fields, for any. A
poller asks the same query for each of its PRs: a key lets the emulator validate it
once and the GitHub front read its shape once (``emulator.graphql.request``,
``front.graphql``). Strings, names, punctuation and every other literal stay in the
key; whitespace, commas and comments do not (they do not reach the tree). Text the
lexer would refuse has no key.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["Key", "structure_key", "template_key"]

_TOKEN = re.compile(
    r'(?P<block>"""(?:\\"""|[^"]|"(?!""))*""")'
    r'|(?P<string>"(?:\\.|[^"\\\n\r])*")'
    r"|(?P<ignored>(?:[\s,\ufeff]|#[^\n\r]*)+)"
    r"|(?P<number>-?(?:0|[1-9][0-9]*)(?P<float>(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?))"
    r"|(?P<name>[_A-Za-z][_0-9A-Za-z]*)"
    r"|(?P<punct>\.\.\.|[!$&()\[\]{}:=@|])"
)
_INT32 = (-(2**31), 2**31 - 1)
SMALL_INT = "\x01"  # what a 32-bit integer literal is in a key


class Key(NamedTuple):
    """A document's key, and the pattern of its integer literals' equalities."""

    text: str
    equalities: tuple[int, ...]


def _scan(text: str, *, in_place: bool) -> Key | None:
    out: list[str] = []
    seen: dict[int, int] = {}
    pattern: list[int] = []
    at = 0
    for found in _TOKEN.finditer(text):
        if found.start() != at:
            return None
        at = found.end()
        kind, token = found.lastgroup, found.group()
        if kind == "number" and not found.group("float"):
            value = int(token)
            if _INT32[0] <= value <= _INT32[1]:
                pattern.append(seen.setdefault(value, len(seen)))
                token = SMALL_INT * len(token) if in_place else SMALL_INT
        if kind != "ignored" or in_place:
            out.append(token)
    if at != len(text):
        return None
    return Key(("" if in_place else "\0").join(out), tuple(pattern))


def structure_key(text: str) -> Key | None:
    """The document's tokens, joined, each 32-bit integer literal as ``SMALL_INT``;
    None when a character is not part of a token."""
    return _scan(text, in_place=False)


def template_key(text: str) -> Key | None:
    """The text itself with each 32-bit integer literal's characters masked (every
    other character, whitespace included, in place): two texts with the same key
    differ only in those literals, at the same offsets, so one's syntax tree is the
    other's with those literals' values read from the other text. None when a
    character is not part of a token."""
    return _scan(text, in_place=True)
