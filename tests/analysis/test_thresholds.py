"""The ``--fail`` threshold parser and its evaluation: examples and Hypothesis properties."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ghbench.analysis.compare import MetricComparison, Spread, Verdict
from ghbench.analysis.compare_metrics import OPERATION_FIELDS, SCALAR_METRICS, MetricDef
from ghbench.analysis.thresholds import (
    OPERATORS,
    Threshold,
    evaluate,
    format_number,
    parse_threshold,
)
from ghbench.errors import UsageError

SCALAR_NAMES = [m.name for m in SCALAR_METRICS]
metric_names = st.one_of(
    st.sampled_from(SCALAR_NAMES),
    st.builds(
        lambda op, field: f"operations[{op}].{field}",
        st.text(st.characters(blacklist_characters="[]", blacklist_categories=("Cs",)), min_size=1),
        st.sampled_from(OPERATION_FIELDS),
    ),
)
numbers = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12)
spaces = st.sampled_from(["", " ", "  ", "\t"])


def test_examples_from_the_issue() -> None:
    rel = parse_threshold("graphqlPointsPerHr>+10%")
    assert (rel.metric, rel.op, rel.value, rel.relative) == ("graphqlPointsPerHr", ">", 10.0, True)
    ab = parse_threshold("opaqueCallPct>0.05")
    assert (ab.metric, ab.op, ab.value, ab.relative) == ("opaqueCallPct", ">", 0.05, False)
    op = parse_threshold("operations[gh.api.graphql-batch].calls <= -25%")
    assert op.metric == "operations[gh.api.graphql-batch].calls" and op.op == "<="


@given(metric_names, st.sampled_from(sorted(OPERATORS)), numbers, st.booleans(), spaces, spaces)
def test_parse_reads_back_what_canonical_writes(  # noqa: PLR0917 - one per strategy
    metric: str, op: str, value: float, relative: bool, before: str, after: str
) -> None:
    t = Threshold("", metric, op, value, relative)
    text = t.canonical.replace(op, f"{before}{op}{after}", 1) if "[" not in metric else t.canonical
    parsed = parse_threshold(text)
    assert (parsed.metric, parsed.op, parsed.value, parsed.relative) == (
        metric,
        op,
        value,
        relative,
    )
    assert parsed.expression == text
    assert parse_threshold(parsed.canonical).canonical == parsed.canonical


@given(st.text())
def test_any_text_parses_or_is_a_usage_error_naming_it(text: str) -> None:
    try:
        t = parse_threshold(text)
    except UsageError as exc:
        assert repr(text) in str(exc)
        assert ">, <, >=, <=" in str(exc) or "finite" in str(exc)
    else:
        assert t.op in OPERATORS and math.isfinite(t.value)
        assert t.metric in text


@given(numbers)
def test_format_number_round_trips(value: float) -> None:
    assert float(format_number(value)) == value


@pytest.mark.parametrize(
    "text",
    ["", ">1", "x", "x>", "x=1", "x==1", "x>1%%", "x>1 2", "x>>1", "1x>1", "x>nan", "x>1e999"],
)
def test_malformed(text: str) -> None:
    with pytest.raises(UsageError, match="--fail"):
        parse_threshold(text)


def _metric(base: list[float], cand: list[float]) -> MetricComparison:
    return MetricComparison(
        MetricDef("m", "scorecard", (), 1),
        Spread(tuple(base), len(base) or 1),
        Spread(tuple(cand), len(cand) or 1),
        Verdict.TOO_FEW,
        None,
    )


@given(
    st.lists(numbers, min_size=1, max_size=5),
    st.lists(numbers, min_size=1, max_size=5),
    st.sampled_from(sorted(OPERATORS)),
    numbers,
)
def test_relative_thresholds_fail_exactly_when_the_change_crosses(
    base: list[float], cand: list[float], op: str, limit: float
) -> None:
    m = _metric(base, cand)
    result = evaluate(Threshold("e", "m", op, limit, True), m)
    assert result.observed == m.change_pct
    assert result.failed is OPERATORS[op](m.change_pct, limit)  # type: ignore[arg-type]


@given(st.lists(numbers, min_size=1, max_size=5), st.sampled_from(sorted(OPERATORS)), numbers)
def test_absolute_thresholds_look_only_at_the_candidate(
    cand: list[float], op: str, limit: float
) -> None:
    result = evaluate(Threshold("e", "m", op, limit, False), _metric([], cand))
    assert result.failed is OPERATORS[op](result.observed, limit)  # type: ignore[arg-type]


def test_rise_from_zero_is_infinite_and_fails_any_rise_limit() -> None:
    result = evaluate(parse_threshold("m>+1000%"), _metric([0.0], [1.0]))
    assert result.failed and result.observed == math.inf
    assert result.describe() == "change +∞% (from 0)"
    assert not evaluate(parse_threshold("m>+10%"), _metric([0.0], [0.0])).failed


@pytest.mark.parametrize(
    ("base", "cand", "text", "why"),
    [
        ([], [1.0], "m>+10%", "the baseline has no value"),
        ([1.0], [], "m>+10%", "the candidate has no value"),
        ([1.0], [], "m>5", "the candidate has no value"),
    ],
)
def test_a_threshold_that_cannot_be_checked_fails(
    base: list[float], cand: list[float], text: str, why: str
) -> None:
    result = evaluate(parse_threshold(text), _metric(base, cand))
    assert result.failed and result.missing == why
    assert result.describe() == f"cannot be checked: {why}"
