"""GitHub's GraphQL query limits over a cost report (pure: plain ``CostReport`` values).

Every connection that lists items needs ``first`` or ``last`` between 1 and 100, and a
call may ask for at most 500,000 nodes; each violation is one error in GitHub's shape.
"""

from __future__ import annotations

import pytest

from ghbench.emulator.graphql.cost import ConnectionUse, CostReport
from ghbench.emulator.graphql.limits import MAX_NODES, check_limits


def _use(
    first: int | None = None, last: int | None = None, *, selects_items: bool = True
) -> ConnectionUse:
    return ConnectionUse(
        path=("repository", "pullRequests"),
        field_name="pullRequests",
        line=1,
        column=38,
        first=first,
        last=last,
        parent_multiplier=1,
        selects_items=selects_items,
    )


def _report(*uses: ConnectionUse, node_count: int = 0) -> CostReport:
    return CostReport(requests=1, cost=1, node_count=node_count, connections=uses)


def test_a_connection_without_a_page_size_is_refused_where_it_is() -> None:
    (error,) = check_limits(_report(_use()))
    assert error == {
        "type": "MISSING_PAGINATION_BOUNDARIES",
        "path": ["repository", "pullRequests"],
        "locations": [{"line": 1, "column": 38}],
        "message": "You must provide a `first` or `last` value to properly paginate the "
        "`pullRequests` connection.",
    }


def test_a_connection_that_lists_nothing_needs_no_page_size() -> None:
    assert check_limits(_report(_use(selects_items=False))) == []


@pytest.mark.parametrize(
    ("first", "last", "kinds"),
    [
        (0, None, ["INVALID_PAGINATION"]),
        (None, -1, ["INVALID_PAGINATION"]),
        (1, None, []),
        (None, 100, []),
        (101, None, ["EXCESSIVE_PAGINATION"]),
        (101, 0, ["INVALID_PAGINATION", "EXCESSIVE_PAGINATION"]),
    ],
)
def test_page_sizes_must_be_between_1_and_100(
    first: int | None, last: int | None, kinds: list[str]
) -> None:
    assert [e["type"] for e in check_limits(_report(_use(first, last)))] == kinds


def test_each_argument_over_the_limit_is_named() -> None:
    errors = check_limits(_report(_use(first=150, last=200)))
    assert [e["message"] for e in errors] == [
        "Requesting 150 records on the `pullRequests` connection exceeds the `first` limit "
        "of 100 records.",
        "Requesting 200 records on the `pullRequests` connection exceeds the `last` limit "
        "of 100 records.",
    ]


def test_500000_nodes_may_run_and_one_more_may_not() -> None:
    assert check_limits(_report(_use(first=100), node_count=MAX_NODES)) == []
    (error,) = check_limits(_report(_use(first=100), node_count=1_010_100))
    assert error == {
        "type": "MAX_NODE_LIMIT_EXCEEDED",
        "message": "This query requests up to 1,010,100 possible nodes which exceeds the "
        "maximum limit of 500,000.",
    }
    assert check_limits(_report(node_count=MAX_NODES + 1))[0]["type"] == "MAX_NODE_LIMIT_EXCEEDED"


def test_every_violation_is_reported_in_rule_order() -> None:
    report = _report(_use(), _use(first=0), _use(first=101), node_count=MAX_NODES + 1)
    assert [e["type"] for e in check_limits(report)] == [
        "MISSING_PAGINATION_BOUNDARIES",
        "INVALID_PAGINATION",
        "EXCESSIVE_PAGINATION",
        "MAX_NODE_LIMIT_EXCEEDED",
    ]
