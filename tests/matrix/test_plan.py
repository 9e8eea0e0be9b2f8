"""A matrix planned as GitHub Actions jobs."""

from __future__ import annotations

import json

from ghbench.matrix.plan import render_plan
from ghbench.runspec.cells import Cell


def test_plan_github_actions_is_one_job_per_cell() -> None:
    cells = [Cell("S2", "T1", 1), Cell("S4", "T1", 10)]
    data = json.loads(render_plan(cells, "github-actions"))
    assert data == {
        "include": [
            {"cell": "S2-T1-1", "scenario": "S2", "topology": "T1", "scale": 1, "priority": True},
            {"cell": "S4-T1-10", "scenario": "S4", "topology": "T1", "scale": 10, "priority": True},
        ]
    }
