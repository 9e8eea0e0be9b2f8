"""The capacity page, pure: a count at which a rate limit answered does not fit, and the
page says which limit, at which count, with its figures tied to capacity's JSON."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from ghbench.pages.capacity_page import capacity_page

from .pagecheck import check_figures, figures

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "capacity.json"


def _refused_at_the_second_count() -> dict[str, Any]:
    """The golden answer as if GraphQL had run out at its second count."""
    doc = copy.deepcopy(json.loads(GOLDEN.read_text()))
    first, second = doc["tried"]
    second["fits"], second["worst"] = False, "graphqlPointsPerHr"
    second["rateLimited"] = [
        {
            "budget": "graphqlPointsPerHr",
            "calls": 17,
            "at": "2026-04-17T09:14:15.518Z",
            "message": "GraphQL points ran out at 2026-04-17T09:14:15.518Z: 17 call(s) refused",
        }
    ]
    doc.update(
        sessions=first["sessions"],
        reachedMax=False,
        limitingResource="graphqlPointsPerHr",
        at=first,
        next=second,
    )
    return doc


def test_a_count_refused_by_a_rate_limit_is_shown_and_binds() -> None:
    doc = _refused_at_the_second_count()
    html = capacity_page(doc)
    assert 'id="refusals"' in html
    assert html.index('id="refusals"') < html.index('id="margins"')
    assert f"at {doc['next']['sessions']} a rate limit answers" in html
    assert "GraphQL points ran out at 2026-04-17T09:14:15.518Z: 17 call(s) refused" in html
    shown = {f.field: f for f in figures(html)}
    assert shown["tried.1.rateLimited.0.calls"].value == 17
    check_figures(list(shown.values()), doc)
    # extrapolated hourly figures are said so
    assert "extrapolated from a window under 10 minutes (5m 0s)" in html


def test_no_count_fits_when_the_smallest_is_refused() -> None:
    doc = _refused_at_the_second_count()
    doc.update(sessions=0, at=None, next=doc["tried"][1], tried=[doc["tried"][1]])
    html = capacity_page(doc)
    assert "No count fits within 80% of every budget" in html
    assert "graphqlPointsPerHr answered with refusals" in html


def test_an_answer_with_no_refusal_has_no_such_section() -> None:
    assert 'id="refusals"' not in capacity_page({**json.loads(GOLDEN.read_text()), "tried": []})
