"""JavaScript's number rounding, so the spec's fields carry the values AO's harness writes.

AO's ``benchmark.mjs`` rounds with ``Number.prototype.toFixed`` (then ``parseFloat``) and
``Math.round``. Python's ``round`` differs on exact ties (it rounds half to even), so a
scorecard from ghbench and one from AO would disagree on values like 0.125. Both are
computed here on the double's exact decimal value, as the ECMAScript spec defines them:

- ``toFixed(f)``: the integer ``n`` closest to ``x·10^f``; on a tie, the larger ``n``
  (for a negative ``x``, the result is ``-(-x).toFixed(f)``: ties away from zero);
- ``Math.round``: the integer closest to ``x``; on a tie, the one closer to +∞.
"""

from __future__ import annotations

from decimal import ROUND_HALF_DOWN, ROUND_HALF_UP, Decimal

__all__ = ["math_round", "to_fixed"]


def to_fixed(value: float, digits: int) -> float:
    """``parseFloat(value.toFixed(digits))``."""
    exact = Decimal(value)  # the double's exact value, not its shortest repr
    quantum = Decimal(1).scaleb(-digits)
    return float(exact.quantize(quantum, rounding=ROUND_HALF_UP))


def math_round(value: float) -> int:
    """``Math.round(value)``: half-way cases go toward +∞ (-2.5 -> -2, 2.5 -> 3)."""
    exact = Decimal(value)
    if exact >= 0:
        return int(exact.to_integral_value(rounding=ROUND_HALF_UP))
    return -int((-exact).to_integral_value(rounding=ROUND_HALF_DOWN))
