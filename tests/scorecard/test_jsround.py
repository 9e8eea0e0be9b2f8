"""JavaScript's rounding on the double's exact value: ``toFixed`` ties away from zero,
``Math.round`` ties toward +∞, and a decimal that is not a tie in binary rounds as its
double lies (the values AO's harness writes; node is the oracle in test_ao_compat.py)."""

from __future__ import annotations

import pytest

from ghbench.scorecard.jsround import math_round, to_fixed


@pytest.mark.parametrize(
    ("value", "digits", "expected"),
    [
        (0.125, 2, 0.13),  # an exact tie: up, where Python's round gives 0.12
        (-0.125, 2, -0.13),  # away from zero
        (2.5, 0, 3.0),
        (1.005, 2, 1.0),  # 1.005 is 1.00499999999999989… as a double
        (0.3, 1, 0.3),
        (1234.56789, 3, 1234.568),
        (7.0, 4, 7.0),
        (0.0, 2, 0.0),
    ],
)
def test_to_fixed(value: float, digits: int, expected: float) -> None:
    assert to_fixed(value, digits) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (2.5, 3),
        (-2.5, -2),  # toward +∞
        (0.5, 1),
        (-0.5, 0),
        (1690.4999999999998, 1690),  # the double below a tie rounds down
        (-1.5000000000000002, -2),
        (3.0, 3),
        (-7.2, -7),
    ],
)
def test_math_round(value: float, expected: int) -> None:
    assert math_round(value) == expected
    assert isinstance(math_round(value), int)
