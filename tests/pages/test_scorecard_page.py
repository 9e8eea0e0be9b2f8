"""The scorecard page, pure: what it says first, warnings of any kind, every figure
tied to the artifact (the burn curve's points: test_burn.py)."""

from __future__ import annotations

from pathlib import Path

import msgspec
import numpy as np
import pytest

from ghbench.artifacts.models import (
    Consumption,
    ConsumptionByResource,
    RunWarning,
    ScorecardArtifact,
    load_scorecard,
)
from ghbench.pages.burn import BurnSeries
from ghbench.pages.scorecard_page import report_path, scorecard_page

from .pagecheck import check_figures, external_references, figures, verdict_of

EXAMPLE = Path(__file__).resolve().parents[1] / "golden" / "scorecard-example.json"


@pytest.fixture
def example() -> ScorecardArtifact:
    return load_scorecard(EXAMPLE)


def _doc(artifact: ScorecardArtifact) -> object:
    return msgspec.to_builtins(artifact)


def test_every_figure_is_the_artifacts_and_nothing_is_fetched(
    example: ScorecardArtifact,
) -> None:
    html = scorecard_page(example)
    assert check_figures(figures(html), _doc(example)) > 60
    assert external_references(html) == []
    assert "<script" not in html


def test_a_warning_of_a_kind_the_page_never_heard_of_is_shown_in_full(
    example: ScorecardArtifact,
) -> None:
    novel = RunWarning(
        kind="budget-exhausted",
        message="graphql ran out 4 min into the window",
        action="lower the poll rate or spread sessions over tokens",
        count=3,
        seconds=12.5,
        at="2026-04-16T14:20:00Z",
    )
    card = msgspec.structs.replace(example, warnings=[novel])
    html = scorecard_page(card)
    assert 'data-kind="budget-exhausted"' in html
    for text in (novel.kind, novel.message, novel.action, novel.at):
        assert text in html
    shown = {f.field: f for f in figures(html)}
    assert shown["warnings.0.count"].value == 3
    assert shown["warnings.0.seconds"].text == "12.5\u2009s"
    check_figures(list(shown.values()), _doc(card))
    # the verdict comes first and counts it; the warnings follow
    assert html.index('class="verdict') < html.index('id="warnings"') < html.index('id="scorecard"')
    assert verdict_of(html) == "warn"
    assert "1 warning(s)" in html


def test_the_verdict_says_when_a_budget_is_over_or_the_run_incomplete(
    example: ScorecardArtifact,
) -> None:
    assert verdict_of(scorecard_page(example)) == "ok"
    over = ConsumptionByResource(
        graphql=Consumption(source="rows", points=9000, per_hr=6200.0),
        core=example.insights.consumption.core,
    )
    insights = msgspec.structs.replace(example.insights, consumption=over)
    html = scorecard_page(msgspec.structs.replace(example, insights=insights))
    assert verdict_of(html) == "bad"
    assert "Over budget: GraphQL points per hour at 124% of its limit" in html
    cut = msgspec.structs.replace(example, incomplete=True, incomplete_reason="SIGTERM")
    html = scorecard_page(cut)
    assert verdict_of(html) == "bad" and "SIGTERM" in html


def test_a_budget_that_reached_zero_in_the_trace_is_called_out(
    example: ScorecardArtifact,
) -> None:
    burn = BurnSeries(
        "graphql",
        np.array([1776349020.0, 1776349080.0, 1776349140.0]),
        np.array([40, 0, 0], dtype=np.int64),
        5000,
    )
    html = scorecard_page(example, [burn])
    assert verdict_of(html) == "bad"
    assert "graphql: remaining reached 0 at 2026-04-16 14:18:00 UTC" in html


def test_the_rate_limits_that_answered_come_first_and_make_theverdict_of() -> None:
    """A version-4 scorecard's ``rate-limited`` warnings: the verdict says a budget ran
    out and how many calls were refused, each warning is shown before any other with its
    budget and figures, tied to the artifact."""
    card = load_scorecard(EXAMPLE.with_name("scorecard-rate-limited.json"))
    html = scorecard_page(card)
    assert verdict_of(html) == "bad"
    assert "A budget ran out: 2 call(s) refused" in html
    kinds = [html.index(f'data-kind="{k}"') for k in ("rate-limited", "short-window")]
    assert kinds == sorted(kinds)
    assert "budget GraphQL points (primary limit)" in html
    assert "budget the secondary limit on REST points per minute (secondary limit)" in html
    shown = {f.field: f for f in figures(html)}
    assert (shown["warnings.0.count"].value, shown["warnings.1.seconds"].value) == (1, 10.0)
    check_figures(list(shown.values()), _doc(card))
    only_secondary = msgspec.structs.replace(card, warnings=card.warnings[1:2])
    assert "A secondary rate limit refused calls: 1 call(s)" in scorecard_page(only_secondary)


def test_the_pacing_figures_are_the_artifacts_and_a_version_4_page_has_none() -> None:
    """Each reset window's share spent in its first 10 minutes, when it ran out and the
    minutes refused, as the JSON has them (scorecard version 5); the front-loaded
    warning with its figures."""
    card = load_scorecard(EXAMPLE.with_name("scorecard-rate-limited.json"))
    html = scorecard_page(card)
    doc = _doc(card)
    paced = {f.field: f for f in figures(html) if f.field.startswith("insights.pacing.")}
    base = "insights.pacing.graphql.windows.0"
    for field in (
        "spentFirst10Min",
        "limit",
        "shareFirst10Min",
        "exhaustedAfterSeconds",
        "refusedMinutes",
    ):
        assert f"{base}.{field}" in paced and f"insights.pacing.core.windows.0.{field}" in paced
    assert (paced[f"{base}.shareFirst10Min"].text, paced[f"{base}.refusedMinutes"].value) == (
        "100.0%",
        0.833,
    )
    assert paced["insights.pacing.core.windows.0.exhaustedAfterSeconds"].text == "n/a"
    check_figures(list(paced.values()), doc)
    assert 'data-kind="front-loaded"' in html and 'id="pacing"' in html
    old = load_scorecard(EXAMPLE.with_name("scorecard-example-v4.json"))
    assert 'id="pacing"' not in scorecard_page(old)


def test_the_page_sits_beside_its_scorecard() -> None:
    card = Path("/out/scorecard-quiet-steady.single-repo.5-1776417000.json")
    assert report_path(card) == (Path("/out"), "report-quiet-steady.single-repo.5-1776417000")


def test_the_checks_catch_a_wrong_figure_and_a_fetch(example: ScorecardArtifact) -> None:
    html = scorecard_page(example)
    field = 'data-field="scorecard.totalCalls" data-value="'
    start = html.index(field) + len(field)
    wrong = html[:start] + "1" + html[start:]
    with pytest.raises(AssertionError, match=r"scorecard\.totalCalls"):
        check_figures(figures(wrong), _doc(example))
    fetched = html.replace("</main>", '<img src="https://example.com/x.png"></main>')
    assert external_references(fetched) == ["<img src='https://example.com/x.png'>", "<img>"]
