"""Percentiles interpolated as AO's harness does, in IEEE doubles, to the last bit."""

from __future__ import annotations

import json
import math
import random
import subprocess

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ao_sources import node_available
from ghbench.scorecard.jsround import math_round
from ghbench.scorecard.percentile import percentiles

QS = (50.0, 95.0, 99.0)


def test_interpolation_by_hand() -> None:
    values = np.array([4.0, 1.0, 3.0, 2.0])
    # rank h = q/100·(n−1): p50 → 1.5 → 2.5; p95 → 2.85 → 3.85; p99 → 2.97 → 3.97
    assert percentiles(values, QS) == pytest.approx([2.5, 3.85, 3.97])


def test_missing_and_negative_durations_are_left_out() -> None:
    # AO keeps the durations that are numbers and not negative
    assert percentiles(np.array([math.nan, 10.0, -5.0, math.nan]), (50, 99)) == [10.0, 10.0]


def test_no_durations_give_none() -> None:
    assert percentiles(np.array([math.nan, -1.0]), (50,)) == [None]
    assert percentiles(np.array([], dtype=np.float64), (50, 95)) == [None, None]


# Ties: the exact percentile is x.5, the doubles land just below it, Math.round goes down
# (numpy's interpolation lands on x.5 and rounds up: ghbench wrote 1691 where AO wrote 1690)
TIES = [
    # (durations, q, AO's double, AO's rounded value)
    ([0.0] * 97 + [1690.0, 1715.0], 99.0, 1690.4999999999998, 1690),
    ([0.0] * 55 + [1690.0] + [1705.0] * 3, 95.0, 1691.4999999999998, 1691),
    ([0.0] * 79 + [1158.1] + [1161.1] * 5, 95.0, 1160.4999999999998, 1160),
    ([0.0] * 10 + [1957.61, 1958.61], 99.0, 1958.4999999999998, 1958),
]


@pytest.mark.parametrize(("durations", "q", "double", "rounded"), TIES)
def test_ties_land_where_aos_doubles_land(
    durations: list[float], q: float, double: float, rounded: int
) -> None:
    shuffled = np.array(durations[::-1])
    (value,) = percentiles(shuffled, (q,))
    assert value == double
    assert math_round(value) == rounded
    assert math_round(float(np.percentile(shuffled, q))) == rounded + 1


# AO's formula, restated in JavaScript and run by node on the same doubles
_FORMULA = """
const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const pick = (xs, p) => {
  if (xs.length === 0) return null;
  if (p <= 0) return xs[0];
  if (p >= 100) return xs[xs.length - 1];
  const h = (p / 100) * (xs.length - 1), lo = Math.floor(h), hi = Math.ceil(h);
  if (lo === hi) return xs[lo];
  const f = h - lo;
  return xs[lo] * (1 - f) + xs[hi] * f;
};
console.log(JSON.stringify(cases.map(([ds, ps]) => {
  const xs = ds.filter((d) => !isNaN(d) && d >= 0).sort((a, b) => a - b);
  return ps.map((p) => pick(xs, p));
})));
"""


def _node_formula(cases: list[tuple[list[float], list[float]]]) -> list[list[float | None]]:
    node_available()
    proc = subprocess.run(
        ["node", "-e", _FORMULA], input=json.dumps(cases), capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    found: list[list[float | None]] = json.loads(proc.stdout)
    return found


def _ours(cases: list[tuple[list[float], list[float]]]) -> list[list[float | None]]:
    return [percentiles(np.array(ds, dtype=np.float64), qs) for ds, qs in cases]


def test_the_formula_equals_aos_on_a_random_battery() -> None:
    rng = random.Random(22)
    cases = []
    for _ in range(500):
        n = rng.choice([1, 2, 3, 12, 59, 85, 99, 100, rng.randint(1, 400)])
        values = [round(rng.uniform(0, 3000), rng.choice([0, 1, 3])) for _ in range(n)]
        values += rng.sample([-1.0, 1690.0, 1715.0, 0.0], 2)
        cases.append((values, rng.sample([0.0, 1.0, 50.0, 95.0, 99.0, 99.9, 100.0], 3)))
    assert _ours(cases) == _node_formula(cases)


_durations = st.lists(
    st.one_of(
        st.floats(0, 10_000, allow_nan=False),
        st.integers(0, 5000).map(float),
        st.integers(0, 10**7).map(lambda i: i / 1000),
        st.sampled_from([-1.0, 0.0, 1690.0, 1715.0]),
    ),
    max_size=200,
)
_qs = st.lists(st.sampled_from([0.0, 1.0, 50.0, 90.0, 95.0, 99.0, 99.9, 100.0]), min_size=1)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(cases=st.lists(st.tuples(_durations, _qs), min_size=1, max_size=10))
def test_the_formula_equals_aos_on_random_durations(
    cases: list[tuple[list[float], list[float]]],
) -> None:
    assert _ours(cases) == _node_formula(cases)
