"""The figures ``compare`` reads from a scorecard, by the names ``--fail`` takes: the
spec's fields and the insights at their paths, missing figures as None (not 0), the
rate limits that answered (none known before scorecard version 4), per-operation
figures, and the one grammar of an operation's metric name."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from ghbench.analysis.compare_metrics import (
    OPERATION_FIELDS,
    SCALAR_METRICS,
    SECTIONS,
    metric_values,
    operation_metric,
    parse_operation_metric,
)
from ghbench.artifacts.models import load_scorecard

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def test_every_metric_has_one_name_and_a_known_section() -> None:
    names = [m.name for m in SCALAR_METRICS]
    assert len(names) == len(set(names))
    assert {m.section for m in SCALAR_METRICS} <= set(SECTIONS)
    assert [m.section for m in SCALAR_METRICS[:3]] == ["limits"] * 3  # what answered, first


def test_a_scorecards_figures_by_their_names() -> None:
    card = load_scorecard(GOLDEN / "scorecard-example.json")
    values = metric_values(card)
    assert values["totalCalls"] == 184.0
    assert values["consumption.graphql.perHr"] == 116.0
    assert values["consumption.graphql.firstCallPoints"] == 1.0
    assert values["bracketDelta.core"] is None  # no snapshots: no data, not 0
    assert values["rateLimited.refusedCalls"] == 0.0  # version 5: known to be none
    assert values["operations[gh.api.guard-commit-status].corePoints"] == 8.0
    assert values["operations[gh.api.guard-commit-status].calls"] == 135.0
    doc = msgspec.to_builtins(card)
    assert values["p95DurationMs"] == doc["scorecard"]["p95DurationMs"]


def test_the_rate_limits_that_answered_are_summed_over_the_budgets() -> None:
    values = metric_values(load_scorecard(GOLDEN / "scorecard-rate-limited.json"))
    assert values["rateLimited.refusedCalls"] == 2.0
    assert values["rateLimited.refusedSeconds"] == 60.0  # 50 s on graphql, 10 s on REST
    assert values["rateLimited.budgets"] == 2.0  # the front-loaded warning is not one


def test_before_version_4_no_one_knows_what_answered() -> None:
    values = metric_values(load_scorecard(GOLDEN / "scorecard-example-v3.json"))
    assert values["rateLimited.refusedCalls"] is None
    assert values["rateLimited.budgets"] is None
    assert values["totalCalls"] == 184.0


@pytest.mark.parametrize("field", OPERATION_FIELDS)
def test_an_operation_metric_reads_back(field: str) -> None:
    name = operation_metric("gh.api.graphql-batch", field)
    assert parse_operation_metric(name) == ("gh.api.graphql-batch", field)


@pytest.mark.parametrize(
    "name",
    [
        "totalCalls",
        "operations[gh.pr.view].mean",  # not a per-operation field
        "operations[].calls",
        "operations[a[b]].calls",
        "operations[gh.pr.view].calls.extra",
        " operations[gh.pr.view].calls",
    ],
)
def test_anything_else_is_not_an_operation_metric(name: str) -> None:
    assert parse_operation_metric(name) is None
