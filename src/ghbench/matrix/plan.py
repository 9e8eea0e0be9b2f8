"""``matrix plan``: the selected cells as a CI job matrix, JSON or text.

``github-actions`` prints one line, ``{"include": [{"cell": "S2-T1-1", …}, …]}``,
ready for ``echo "matrix=$(ghbench matrix plan --format github-actions)" >>
"$GITHUB_OUTPUT"`` and ``strategy.matrix: ${{ fromJSON(needs.plan.outputs.matrix) }}``:
one cell per job, each job running ``ghbench matrix run --cells ${{ matrix.cell }}``
and uploading its directory, a final job running ``ghbench matrix merge``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ghbench.matrix.hygiene import estimate_cost
from ghbench.runspec.cells import Cell
from ghbench.timefmt import format_duration

__all__ = ["FORMATS", "plan_entries", "render_plan"]

FORMATS = ("text", "json", "github-actions")


def plan_entries(cells: Sequence[Cell]) -> list[dict[str, Any]]:
    return [
        {
            "cell": c.id,
            "scenario": c.scenario,
            "topology": c.topology,
            "scale": c.sessions,
            "priority": c.priority is not None,
            "title": c.title,
            "runtimeSeconds": c.runtime_s,
            "estimate": estimate_cost(c),
        }
        for c in cells
    ]


def render_plan(cells: Sequence[Cell], fmt: str) -> str:
    """The plan in ``fmt`` (one of FORMATS), ending with a newline."""
    if fmt == "github-actions":
        include = [
            {k: e[k] for k in ("cell", "scenario", "topology", "scale", "priority")}
            for e in plan_entries(cells)
        ]
        return json.dumps({"include": include}, separators=(",", ":")) + "\n"
    if fmt == "json":
        return json.dumps({"cells": plan_entries(cells)}, indent=2) + "\n"
    lines = [f"{len(cells)} cells, in run order:"]
    for c in cells:
        est = estimate_cost(c)
        mark = "*" if c.priority is not None else " "
        lines.append(
            f" {mark} {c.id:<10} {c.title:<52} {format_duration(c.runtime_s):>8}"
            f"  ≤{est['graphql']:,} gql / ≤{est['core']:,} core"
        )
    lines.append("(* runbook priority cell; estimates are conservative upper bounds)")
    return "\n".join(lines) + "\n"
