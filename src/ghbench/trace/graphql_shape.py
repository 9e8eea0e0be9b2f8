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
``front.graphql``). Everything else stays in the key, the layout included (a poller
sends one layout; another layout is another key, never a wrong one). Text the lexer
would refuse has no key.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["Key", "structure_key", "template_key"]

_STRING = r'"""(?:\\"""|[^"]|"(?!""))*"""|"(?:\\.|[^"\\\n\r])*"'
_COMMENT = r"#[^\n\r]*"
_NUMBER = r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?"
# every character is part of a token, whitespace or a comment (checked in one match)
_LEXABLE = re.compile(
    rf"(?:{_STRING}|{_COMMENT}|[\s,\ufeff]|{_NUMBER}|[_A-Za-z][_0-9A-Za-z]*"
    r"|\.\.\.|[!$&()\[\]{}:=@|])*"
)
# what may hold digits that are no integer literal (strings, comments), or an integer
# literal: not part of a name, a float or a longer number
_LITERALS = re.compile(
    rf"({_STRING}|{_COMMENT})|(?<![_0-9A-Za-z.])(-?(?:0|[1-9][0-9]*))(?![_0-9A-Za-z.])"
)
_INT32 = (-(2**31), 2**31 - 1)
SMALL_INT = "\x01"  # what a 32-bit integer literal is in a key


class Key(NamedTuple):
    """A document's key, and the pattern of its integer literals' equalities."""

    text: str
    equalities: tuple[int, ...]


def _scan(text: str, *, in_place: bool) -> Key | None:
    if _LEXABLE.fullmatch(text) is None:
        return None
    out: list[str] = []
    seen: dict[int, int] = {}
    pattern: list[int] = []
    at = 0
    for found in _LITERALS.finditer(text):
        literal = found.group(2)
        if literal is None:
            continue
        value = int(literal)
        if not _INT32[0] <= value <= _INT32[1]:
            continue
        pattern.append(seen.setdefault(value, len(seen)))
        out += [text[at : found.start()], SMALL_INT * len(literal) if in_place else SMALL_INT]
        at = found.end()
    out.append(text[at:])
    return Key("".join(out), tuple(pattern))


def structure_key(text: str) -> Key | None:
    """The document's text, each 32-bit integer literal as one ``SMALL_INT``; None
    when a character is not part of a token. (Its layout stays in the key: a poller
    sends one layout.)"""
    return _scan(text, in_place=False)


def template_key(text: str) -> Key | None:
    """The text itself with each 32-bit integer literal's characters masked (every
    other character, whitespace included, in place): two texts with the same key
    differ only in those literals, at the same offsets, so one's syntax tree is the
    other's with those literals' values read from the other text. None when a
    character is not part of a token."""
    return _scan(text, in_place=True)
