"""What each traced call costs, one row per rule (docs/scorecard.md): the budget from the
header, else ``graphqlCost``, else the operation's name; a known primary cost only where
the row proves it (304s, ``/rate_limit`` and refused calls free); secondary points per
method and per GraphQL mutation; the limit that refused a row, told or proven."""

from __future__ import annotations

from typing import Any

import pytest

from ghbench.scorecard.costs import Budget, RowCosts, row_costs
from ghbench.trace.frame import TraceFrame
from ghbench.trace.limits import KINDS
from ghbench.trace.schema import TraceRow

NONE = -1


def _rest(status: int, remaining: int = 10, method: str = "GET", **more: Any) -> dict[str, Any]:
    return {
        "operation": "gh.api.repos",
        "method": method,
        "httpStatus": status,
        "rateLimitResource": "core",
        "rateLimitRemaining": remaining,
    } | more


PRIMARY, SECONDARY, CONTENT = (
    KINDS.index(k) for k in ("primary", "secondary", "secondary-content")
)
GRAPHQL, CORE, OTHER, UNKNOWN = Budget.GRAPHQL, Budget.CORE, Budget.OTHER_REST, Budget.UNKNOWN

# name -> (row fields, (budget, graphql points, graphql priced, core points, core priced,
#          REST secondary, GraphQL secondary, refused by))
CASES: dict[str, tuple[dict[str, Any], tuple[Budget, int, bool, int, bool, int, int, int]]] = {
    "a REST read": (_rest(200), (CORE, 0, False, 1, True, 1, 0, NONE)),
    "a 304 is free but read": (_rest(304), (CORE, 0, False, 0, True, 1, 0, NONE)),
    "a REST write": (_rest(201, method="post"), (CORE, 0, False, 1, True, 5, 0, NONE)),
    "GET /rate_limit is free": (
        _rest(200, endpoint="rate_limit"),
        (CORE, 0, False, 0, True, 1, 0, NONE),
    ),
    "search is REST, not core": (
        _rest(200, rateLimitResource="search"),
        (OTHER, 0, False, 0, False, 1, 0, NONE),
    ),
    "a GraphQL query and its cost": (
        {"operation": "gh.pr.view", "graphqlCost": 3},
        (GRAPHQL, 3, True, 0, False, 0, 1, NONE),
    ),
    "gh pr create: a mutation of unknown cost": (
        {"operation": "gh.pr.create", "ok": True},
        (GRAPHQL, 0, False, 0, False, 0, 5, NONE),
    ),
    "an opaque call: no known budget": (
        {"operation": "gh.run.list", "ok": True},
        (UNKNOWN, 0, False, 0, False, 0, 0, NONE),
    ),
    "a 403 with nothing left: the primary limit": (
        _rest(403, remaining=0),
        (CORE, 0, False, 0, True, 1, 0, PRIMARY),
    ),
    "a 403 with budget left proves nothing": (
        _rest(403, remaining=5),
        (CORE, 0, False, 1, True, 1, 0, NONE),
    ),
    "any 429: a secondary limit": (_rest(429), (CORE, 0, False, 0, True, 1, 0, SECONDARY)),
    "a GraphQL answer refused with a 200": (
        _rest(200, remaining=0, ok=False, rateLimitResource="graphql", graphqlCost=1),
        (GRAPHQL, 0, True, 0, False, 0, 1, PRIMARY),
    ),
    "the limit the row names wins": (
        _rest(403, method="POST", rateLimited="secondary-content"),
        (CORE, 0, False, 0, True, 5, 0, CONTENT),
    ),
}


@pytest.fixture(scope="module")
def costs() -> RowCosts:
    rows = [TraceRow(timestamp="2026-04-16T14:00:00Z", **fields) for fields, _ in CASES.values()]
    return row_costs(TraceFrame.from_rows(rows))


@pytest.mark.parametrize("case", list(CASES))
def test_each_rule(costs: RowCosts, case: str) -> None:
    i = list(CASES).index(case)
    got = (
        Budget(int(costs.budget[i])),
        int(costs.graphql_points[i]),
        bool(costs.graphql_priced[i]),
        int(costs.core_points[i]),
        bool(costs.core_priced[i]),
        int(costs.rest_secondary[i]),
        int(costs.graphql_secondary[i]),
        int(costs.refused[i]),
    )
    assert got == CASES[case][1]


def test_an_empty_frame_costs_nothing() -> None:
    empty = row_costs(TraceFrame.from_rows([]))
    assert len(empty.budget) == len(empty.refused) == 0
