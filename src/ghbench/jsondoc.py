"""A value inside a parsed JSON document, found by its path of keys and list indexes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["dig"]


def dig(doc: Any, steps: Iterable[str]) -> Any:
    """The value at ``steps`` of ``doc``: a mapping's key, or a list's index written in
    digits; None when any step is missing."""
    value = doc
    for key in steps:
        if isinstance(value, Mapping):
            value = value.get(key)
        elif isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        else:
            return None
    return value
