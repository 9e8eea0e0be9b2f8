"""Relay-style pages over plain lists: ``nodes``, ``edges``, ``pageInfo``, ``totalCount``.

Cursors are opaque base64 strings of the item's position (GitHub's are opaque too, so
clients only pass them back). ``hasNextPage``/``hasPreviousPage`` say whether the
whole list has items after/before the page, which is what gh's pagination loops test.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any

__all__ = ["Edge", "Page", "paginate"]


def _cursor(index: int) -> str:
    return base64.b64encode(f"cursor:v2:{index}".encode()).decode()


def _index(cursor: str | None) -> int | None:
    if not cursor:
        return None
    try:
        text = base64.b64decode(cursor.encode(), validate=True).decode()
        return int(text.rsplit(":", 1)[1])
    except (ValueError, IndexError, UnicodeDecodeError):
        return None


class Edge:
    __slots__ = ("cursor", "node")

    def __init__(self, cursor: str, node: Any) -> None:
        self.cursor = cursor
        self.node = node


class Page:
    """One page of a connection; field names are GraphQL's."""

    def __init__(self, items: Sequence[Any], start: int, stop: int) -> None:
        self._items = items
        self._start = start
        self._stop = stop
        self.nodes = list(items[start:stop])
        self.totalCount = len(items)

    @property
    def edges(self) -> list[Edge]:
        return [Edge(_cursor(self._start + i), node) for i, node in enumerate(self.nodes)]

    @property
    def pageInfo(self) -> dict[str, Any]:  # noqa: N802 - GraphQL's field name
        empty = self._start >= self._stop
        return {
            "hasNextPage": self._stop < len(self._items),
            "hasPreviousPage": self._start > 0,
            "startCursor": None if empty else _cursor(self._start),
            "endCursor": None if empty else _cursor(self._stop - 1),
        }

    @property
    def all_items(self) -> Sequence[Any]:
        """The whole list, for aggregate fields such as ``checkRunCount``."""
        return self._items


def paginate(
    items: Sequence[Any],
    first: int | None = None,
    last: int | None = None,
    after: str | None = None,
    before: str | None = None,
    *,
    page_type: type[Page] = Page,
    **_ignored: Any,
) -> Page:
    """Slice ``items`` the way the Relay connection spec describes (into a
    ``page_type``, a Page with more fields)."""
    start, stop = 0, len(items)
    after_index = _index(after)
    if after_index is not None:
        start = max(start, after_index + 1)
    before_index = _index(before)
    if before_index is not None:
        stop = min(stop, before_index)
    stop = max(start, stop)
    if first is not None:
        stop = min(stop, start + max(first, 0))
    if last is not None:
        start = max(start, stop - max(last, 0))
    return page_type(items, start, stop)
