"""A GraphQL document's structure: its tokens with the small integers left out.

Two documents with the same key parse to the same tree but for the values of their
32-bit integer literals (a page size, a pull request's number); where two of them are
equal in one they are equal in the other (each is numbered by its first appearance),
so no validation rule (field merging compares arguments), operation name or top-level
field can tell them apart: what was found valid, or the operation's shape, for one
holds for the other. A poller asks the same query for each
of its PRs: a key lets the emulator validate it once and the GitHub front read its
shape once (``emulator.graphql.request``, ``front.graphql``). Strings, names,
punctuation and every other literal stay in the key; whitespace, commas and comments
do not (they do not reach the tree). Text the lexer would refuse has no key.
"""

from __future__ import annotations

import re

__all__ = ["structure_key", "template_key"]

_TOKEN = re.compile(
    r'(?P<block>"""(?:\\"""|[^"]|"(?!""))*""")'
    r'|(?P<string>"(?:\\.|[^"\\\n\r])*")'
    r"|(?P<ignored>(?:[\s,\ufeff]|#[^\n\r]*)+)"
    r"|(?P<number>-?(?:0|[1-9][0-9]*)(?P<float>(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?))"
    r"|(?P<name>[_A-Za-z][_0-9A-Za-z]*)"
    r"|(?P<punct>\.\.\.|[!$&()\[\]{}:=@|])"
)
_INT32 = (-(2**31), 2**31 - 1)
SMALL_INT = "\x01"  # what a 32-bit integer literal is in a key, then its number


def structure_key(text: str) -> str | None:
    """The document's tokens, joined, each 32-bit integer literal as ``SMALL_INT`` and
    the order of its value's first appearance; None when a character is not part of a
    token."""
    out: list[str] = []
    seen: dict[int, int] = {}
    at = 0
    for found in _TOKEN.finditer(text):
        if found.start() != at:
            return None
        at = found.end()
        kind = found.lastgroup
        token = found.group()
        if kind == "ignored":
            continue
        if kind == "number" and not found.group("float"):
            value = int(token)
            if _INT32[0] <= value <= _INT32[1]:
                token = f"{SMALL_INT}{seen.setdefault(value, len(seen))}"
        out.append(token)
    return "\0".join(out) if at == len(text) else None


def template_key(text: str) -> str | None:
    """The text itself with the digits of each 32-bit integer literal masked (every
    other character, whitespace included, in place), and which of those literals are
    equal: two texts with the same key differ only in those digits, at the same
    offsets, so one's syntax tree is the other's with those literals' values read from
    the other text. None when a character is not part of a token."""
    chars = list(text)
    seen: dict[int, int] = {}
    order: list[str] = []
    at = 0
    for found in _TOKEN.finditer(text):
        if found.start() != at:
            return None
        at = found.end()
        if found.lastgroup != "number" or found.group("float"):
            continue
        value = int(found.group())
        if _INT32[0] <= value <= _INT32[1]:
            for i in range(found.start(), found.end()):
                if chars[i].isdigit():
                    chars[i] = SMALL_INT
            order.append(str(seen.setdefault(value, len(seen))))
    if at != len(text):
        return None
    return "".join(chars) + "\0" + ",".join(order)
