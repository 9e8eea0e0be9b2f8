"""Byte-exact golden files (tests/golden, README there): compare, or rewrite on request.

``GHBENCH_UPDATE_GOLDEN=1`` rewrites the file instead of comparing; read the diff before
committing it. ``normalized`` replaces what differs between two runs of the same thing
(a temporary directory, a port, a clock's reading) with a fixed placeholder first.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

__all__ = ["GOLDEN", "check_golden", "normalized"]

GOLDEN = Path(__file__).resolve().parent / "golden"


def normalized(text: str, replacements: Iterable[tuple[str, str]]) -> str:
    """``text`` with each regular expression replaced by its placeholder, in order."""
    for pattern, placeholder in replacements:
        text = re.sub(pattern, placeholder, text)
    return text


def check_golden(name: str, data: str | bytes) -> None:
    """``data`` equals ``tests/golden/NAME`` byte for byte (or rewrites it on request)."""
    raw = data.encode() if isinstance(data, str) else data
    path = GOLDEN / name
    if os.environ.get("GHBENCH_UPDATE_GOLDEN"):
        path.write_bytes(raw)
    assert raw == path.read_bytes(), f"{name} changed; see tests/golden/README.md"
