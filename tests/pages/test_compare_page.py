"""The compare page from its JSON object, as text: every figure tied to the object, the
thresholds' verdict first, rows of nothing left out, the runs' verdict column only
when there are runs to judge, and what a user wrote shown as text."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from ghbench.pages.compare_page import compare_page

from .pagecheck import check_figures, external_references, figures, verdict_of

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "compare-runs.json"


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    return dict(json.loads(GOLDEN.read_text()))


def test_every_figure_is_the_objects_and_nothing_is_fetched(doc: dict[str, Any]) -> None:
    html = compare_page(doc)
    shown = figures(html)
    assert check_figures(shown, doc) == len(shown) > 100
    assert external_references(html) == []
    assert 'data-page="compare"' in html


def test_the_thresholds_verdict_comes_first(doc: dict[str, Any]) -> None:
    html = compare_page(doc)
    assert verdict_of(html) == "bad" and "1 of 2 threshold(s) failed" in html
    assert "<b>FAIL</b> <code>opaqueCallPct &gt; 0.2</code>: observed" in html
    assert "<b>pass</b> <code>graphqlPointsPerHr&gt;+10%</code>" in html
    assert html.index('id="thresholds"') < html.index('id="section-scorecard"')
    held = copy.deepcopy(doc) | {"thresholds": [], "thresholdsFailed": 0}
    assert verdict_of(compare_page(held)) == "ok"
    assert "No thresholds given: the change only" in compare_page(held)


def test_an_operations_empty_figures_are_left_out_but_its_calls_never(
    doc: dict[str, Any],
) -> None:
    html = compare_page(doc)
    names = {m["name"]: m for m in doc["metrics"] if m["section"] == "operations"}
    for name, m in names.items():
        empty = not any(m["baseline"]["values"]) and not any(m["candidate"]["values"])
        shown = f"<code>{name}</code>" in html
        assert shown == (name.endswith("].calls") or not empty), name
    assert any(
        not name.endswith("].calls") and f"<code>{name}</code>" not in html for name in names
    )


def test_the_runs_say_column_only_with_runs_to_judge(doc: dict[str, Any]) -> None:
    assert '<th class="r">runs say</th>' in compare_page(doc)
    single = copy.deepcopy(doc)
    for role in ("baseline", "candidate"):
        single[role]["runs"] = 1
    assert "runs say" not in compare_page(single)


def test_a_change_from_zero_different_cells_and_text_from_users(doc: dict[str, Any]) -> None:
    changed = copy.deepcopy(doc)
    changed["metrics"][0] |= {"fromZero": True, "changePct": None}
    changed["candidate"]["cell"]["scenarioId"] = "other<cell>"
    changed["sameCell"] = False
    changed["notes"] = ["<script>alert(1)</script>"]
    html = compare_page(changed)
    assert "from 0" in html
    assert "<title>ghbench compare: quiet-steady.single-repo.5 vs other&lt;cell&gt;</title>" in html
    assert "different cells (--allow-different-cells)" in html
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
