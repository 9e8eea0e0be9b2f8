"""The matrix page from ``baseline.json``, as text: every figure tied to the object, the
verdict (every cell done, cells pending, runs failed or rate limited), each cell's
latest successful run in the scaling charts, and what is shown when nothing is yet."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from ghbench.pages.matrix_page import matrix_page

from .pagecheck import check_figures, external_references, figures, verdict_of

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "matrix-baseline.json"


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    return dict(json.loads(GOLDEN.read_text()))


def test_every_figure_is_the_objects_and_every_cell_done_is_ok(doc: dict[str, Any]) -> None:
    html = matrix_page(doc)
    shown = figures(html)
    assert check_figures(shown, doc) == len(shown) > 20
    assert external_references(html) == []
    assert verdict_of(html) == "ok" and "Every planned cell has a successful run" in html
    assert "3 run(s) of 3 cell(s); 3 cell(s) with a successful run." in html
    assert "<code>ghbench capacity --scenario S2 --topology T1" in html
    assert "None: every planned cell has a successful run." in html


def test_pending_cells_warn_and_a_failed_or_limited_run_is_bad(doc: dict[str, Any]) -> None:
    pending = copy.deepcopy(doc) | {"pending": ["S4-T2-5"]}
    html = matrix_page(pending)
    assert verdict_of(html) == "warn" and "Pending: S4-T2-5." in html
    assert "<li><code>S4-T2-5</code></li>" in html
    failed = copy.deepcopy(doc)
    failed["runs"].append(
        failed["runs"][0] | {"run": 2, "status": "refused", "reason": "over <budget>"}
    )
    html = matrix_page(failed)
    assert verdict_of(html) == "bad" and 'id="failed"' in html
    assert "1 run(s) failed or were refused (below)." in html
    assert "over &lt;budget&gt;" in html
    limited = copy.deepcopy(doc)
    limited["runs"][1]["warnings"] = [{"kind": "rate-limited", "budget": "graphql"}]
    html = matrix_page(limited)
    assert verdict_of(html) == "bad"
    assert "A rate limit answered in 1 run(s), whose figures count refused calls:" in html
    assert "S2-T1-2 run 1: graphql." in html


def _chart(html: str) -> str:
    start = html.index('data-figure="graphqlPointsPerHr"')
    return html[start : html.index("</figure>", start)]


def _with(doc: dict[str, Any], *runs: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    out["runs"] += [copy.deepcopy(r) for r in runs]
    return out


def test_the_charts_take_each_cells_latest_successful_run(doc: dict[str, Any]) -> None:
    rerun = copy.deepcopy(doc["runs"][0])
    rerun["run"] = 2
    rerun["scorecard"]["graphqlPointsPerHr"] = 4321
    failed = rerun | {"run": 3, "status": "failed", "scorecard": None}
    older = rerun | {"run": 0}  # listed last, numbered first
    chart = _chart(matrix_page(doc))
    assert _chart(matrix_page(_with(doc, rerun))) != chart  # the later run is drawn
    assert _chart(matrix_page(_with(doc, rerun, failed))) == _chart(matrix_page(_with(doc, rerun)))
    assert _chart(matrix_page(_with(doc, older))) == chart


def test_nothing_yet(doc: dict[str, Any]) -> None:
    empty = {"schemaVersion": doc["schemaVersion"], "kind": "baseline", "runs": []}
    html = matrix_page(empty)
    assert "No successful runs yet." in html
    assert "No series' capacity yet: computed once the matrix ends." in html
    assert f"baseline.json v{doc['schemaVersion']}" in html
