"""Holding a page to the JSON it was rendered from, and to "nothing is fetched".

``figures(html)`` reads every number a page tags (``data-field``, ``data-value``,
``data-format`` and the text shown); ``check_figures`` holds each to the JSON document:
the raw value equals the document's at that path, and the text shown is that value
rounded as the page printed it. ``external_references`` lists anything a browser
would fetch (a ``src``, an ``href``, a CSS ``url(...)`` or ``@import``). Used on the
HTML text here and on the DOM Chromium built (tests/pages/test_in_chromium.py).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from ghbench.pages.html import at_path

__all__ = [
    "Figure",
    "check_figures",
    "external_references",
    "figures",
    "shown_number",
    "verdict_of",
]


@dataclass(frozen=True)
class Figure:
    field: str
    value: Any  # as data-value holds it, decoded
    fmt: str | None
    text: str


class _Figures(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[Figure] = []
        self._open: dict[str, str | None] | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        got = dict(attrs)
        if "data-field" in got:
            self._open, self._text = got, []

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._open is not None and tag == "span":
            attrs = self._open
            self.found.append(
                Figure(
                    str(attrs["data-field"]),
                    json.loads(str(attrs["data-value"])),
                    attrs.get("data-format"),
                    "".join(self._text),
                )
            )
            self._open = None


def figures(html: str) -> list[Figure]:
    parser = _Figures()
    parser.feed(html)
    return parser.found


_NUMBER = re.compile(r"^[+\u2212-]?[\d,]+(\.\d+)?")


def shown_number(text: str) -> tuple[float, int] | None:
    """The number at the start of ``text`` as shown (thousands separators, a true minus
    sign) and its decimals; None for ``n/a``."""
    m = _NUMBER.match(text.strip())
    if m is None:
        return None
    raw = m.group(0).replace(",", "").replace("\u2212", "-")
    return float(raw), len(m.group(1)) - 1 if m.group(1) else 0


def check_figures(found: list[Figure], doc: Any) -> int:
    """Every figure equals ``doc``'s at its path and reads as that value rounded; the
    number of figures checked."""
    assert found, "the page tags no figure"
    for f in found:
        expected = at_path(doc, f.field)
        assert f.value == expected, f"{f.field}: page says {f.value!r}, JSON {expected!r}"
        shown = shown_number(f.text)
        if expected is None:
            assert f.text.strip() == "n/a", f"{f.field}: {f.text!r} for a null"
            continue
        assert shown is not None, f"{f.field}: {f.text!r} is not a number"
        number, decimals = shown
        scaled = expected * 100 if f.fmt == "pct" else expected
        assert abs(number - scaled) <= 0.5 * 10**-decimals + 1e-9, (
            f"{f.field}: shows {f.text!r} for {expected!r}"
        )
    return len(found)


class _References(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.refs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("src", "href", "srcset", "poster", "data", "action", "xlink:href"):
                self.refs.append(f"<{tag} {name}={value!r}>")
        if tag in ("script", "link", "iframe", "object", "embed", "img", "base"):
            self.refs.append(f"<{tag}>")

    def handle_data(self, data: str) -> None:
        for m in re.finditer(r"url\(|@import", data):
            self.refs.append(data[max(0, m.start() - 20) : m.end() + 40])


def external_references(html: str) -> list[str]:
    """What in ``html`` a browser would load: none may be there."""
    parser = _References()
    parser.feed(html)
    return parser.refs


def verdict_of(html: str) -> str:
    """The level of a page's verdict box (``ok``, ``warn``, ``bad``)."""
    start = html.index('data-verdict="') + len('data-verdict="')
    return html[start : html.index('"', start)]
