"""The JSON text ghbench prints (``--json``): strict JSON, whatever numbers it holds.

Python's ``json`` writes ``Infinity`` and ``NaN``, which no JSON parser accepts; a
figure computed from a trace can be one (a sum of huge durations overflows). Here such
a number is ``null``, as in every artifact (msgspec writes them so).
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["strict_json"]


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def strict_json(value: Any, *, indent: int = 2) -> str:
    """``value`` as indented JSON text; a non-finite number becomes ``null``."""
    return json.dumps(_finite(value), indent=indent, allow_nan=False)
