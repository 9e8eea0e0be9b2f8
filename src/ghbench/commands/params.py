"""Parameter types the commands share."""

from __future__ import annotations

import math
from typing import Any

import click

__all__ = ["MAX_ISSUE_NUMBER", "MAX_SESSIONS", "FiniteFloatRange"]

MAX_SESSIONS = 10_000  # sessions (and so issues) one run may have
MAX_ISSUE_NUMBER = 2**31 - 1  # GitHub's issue numbers are 32-bit


class FiniteFloatRange(click.FloatRange):
    """``click.FloatRange`` that also refuses ``nan`` and ``inf``: a NaN compares false
    with every bound, so the range alone lets it through."""

    name = "float range"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number
