"""What each traced call costs: which budget it draws on, its known primary cost, and its
secondary-limit points. Tables, not if-chains; see docs/scorecard.md for the sources.

Primary (hourly) cost, counted only when the row proves it:
- a call a rate limit refused (``rateLimited``, or what its fields prove:
  ``refusals``) costs 0: it ran nothing, and GitHub documents
  no charge for it (its headers, which feed ``consumption``, show what was taken);
- a call GitHub does not charge costs 0: ``GET /rate_limit`` ("Calling this endpoint
  does not count against your primary rate limit", GitHub's REST rate-limit docs; the
  frame's ``rate_limit_call``);
- a row with ``graphqlCost`` costs that many ``graphql`` points;
- a REST row on the ``core`` budget with an HTTP status costs 1, or 0 for a 304
  (conditional requests that hit are free);
- anything else (opaque rows, REST rows on other budgets) has no known cost.

Secondary points (GitHub's per-minute limits): GraphQL query 1, mutation 5; REST
GET/HEAD/OPTIONS 1, POST/PATCH/PUT/DELETE 5. A 304 still counts here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np
import numpy.typing as npt

from ghbench.trace.frame import NA, Categorical, TraceFrame
from ghbench.trace.limits import FORBIDDEN, KINDS, TOO_MANY

__all__ = [
    "GRAPHQL_MUTATION_OPERATIONS",
    "OPERATION_BUDGET",
    "WRITE_METHODS",
    "Budget",
    "RowCosts",
    "budget_of_rows",
    "refusals",
    "row_costs",
]


class Budget(IntEnum):
    """The rate-limit bucket a call draws on."""

    UNKNOWN = 0
    CORE = 1
    GRAPHQL = 2
    OTHER_REST = 3  # search, code_search, …: REST, but not the core bucket


# x-ratelimit-resource header value -> budget; any other value is another REST bucket
HEADER_BUDGET: dict[str, Budget] = {"core": Budget.CORE, "graphql": Budget.GRAPHQL}

# For rows without the header: first matching operation-name prefix wins.
# gh's pr/issue subcommands talk GraphQL (gh 2.23 builds their queries in api/queries_*.go).
OPERATION_BUDGET: tuple[tuple[str, Budget], ...] = (
    ("gh.api.graphql", Budget.GRAPHQL),
    ("gh.api.", Budget.CORE),
    ("gh.pr.", Budget.GRAPHQL),
    ("gh.issue.", Budget.GRAPHQL),
    ("gh.repo.", Budget.GRAPHQL),
)

# gh subcommands that send a GraphQL mutation (5 secondary points instead of 1)
GRAPHQL_MUTATION_OPERATIONS: frozenset[str] = frozenset(
    {
        "gh.pr.close",
        "gh.pr.comment",
        "gh.pr.create",
        "gh.pr.edit",
        "gh.pr.merge",
        "gh.pr.ready",
        "gh.pr.reopen",
        "gh.pr.review",
        "gh.issue.close",
        "gh.issue.comment",
        "gh.issue.create",
        "gh.issue.edit",
        "gh.issue.reopen",
    }
)
WRITE_METHODS: frozenset[str] = frozenset({"POST", "PATCH", "PUT", "DELETE"})
WRITE_POINTS = 5
READ_POINTS = 1
NOT_MODIFIED = 304
OK = 200


@dataclass(frozen=True)
class RowCosts:
    """Per-row cost columns, aligned with the frame they were computed from."""

    budget: npt.NDArray[np.int8]
    graphql_points: npt.NDArray[np.int64]  # 0 where unknown
    graphql_priced: npt.NDArray[np.bool_]
    core_points: npt.NDArray[np.int8]  # 0 where unknown
    core_priced: npt.NDArray[np.bool_]
    rest_secondary: npt.NDArray[np.int8]  # secondary points of REST rows, else 0
    graphql_secondary: npt.NDArray[np.int8]  # secondary points of GraphQL rows, else 0
    # the rate limit that refused each row: an index into ``trace.limits.KINDS``, -1 none
    refused: npt.NDArray[np.int8]


def _per_label(cat: Categorical, values: list[int], missing: int) -> npt.NDArray[np.int8]:
    """Map each row through a per-label table; code -1 (missing) picks ``missing``."""
    table = np.asarray([*values, missing], dtype=np.int8)
    return table[cat.codes]


def _operation_budget(label: str) -> Budget:
    for prefix, budget in OPERATION_BUDGET:
        if label.startswith(prefix):
            return budget
    return Budget.UNKNOWN


def budget_of_rows(frame: TraceFrame) -> npt.NDArray[np.int8]:
    """Each row's ``Budget``: the rate-limit header when present, else ``graphqlCost``
    (GraphQL), else the operation-name table."""
    header = _per_label(
        frame.resource,
        [int(HEADER_BUDGET.get(label, Budget.OTHER_REST)) for label in frame.resource.labels],
        int(Budget.UNKNOWN),
    )
    by_operation = _per_label(
        frame.operation,
        [int(_operation_budget(label)) for label in frame.operation.labels],
        int(Budget.UNKNOWN),
    )
    by_operation[frame.graphql_cost != NA] = Budget.GRAPHQL
    return np.where(header != Budget.UNKNOWN, header, by_operation)


def refusals(frame: TraceFrame) -> npt.NDArray[np.int8]:
    """The limit that refused each row (an index into ``KINDS``, -1 for none): the row's
    ``rateLimited``, else what its other fields prove (AO's own rows, older traces):
    ``403``/``429`` with ``remaining`` 0 is the primary limit, any other ``429`` a
    secondary one, a GraphQL answer gh reported failed (``ok`` false) with status 200 and
    ``remaining`` 0 the primary limit's ``RATE_LIMITED``. A ``403`` with budget left may
    be a secondary limit or a permission error: without its message it is neither."""
    index: dict[str, int] = {kind: i for i, kind in enumerate(KINDS)}
    told = _per_label(frame.rate_limited, [index.get(k, -1) for k in frame.rate_limited.labels], -1)
    status, remaining = frame.http_status, frame.rate_limit_remaining
    spent = remaining == 0
    refused_status = (status == FORBIDDEN) | (status == TOO_MANY)
    graphql_refused = (status == OK) & (frame.ok == 0) & spent & frame.resource.mask("graphql")
    primary = (refused_status & spent) | graphql_refused
    secondary = np.where(status == TOO_MANY, index["secondary"], -1)
    inferred = np.where(primary, index["primary"], secondary)
    return np.where(frame.rate_limited.codes >= 0, told, inferred).astype(np.int8)


def row_costs(frame: TraceFrame) -> RowCosts:
    """Every row's budget, known primary cost and secondary points."""
    budget = budget_of_rows(frame)
    refused = refusals(frame)
    free = (frame.rate_limit_call == 1) | (refused >= 0)
    gql_priced = (frame.graphql_cost != NA) | (free & (budget == Budget.GRAPHQL))
    core_priced = (budget == Budget.CORE) & (frame.http_status != NA) & ~gql_priced
    core_points = (core_priced & (frame.http_status != NOT_MODIFIED) & ~free).view(np.int8)
    write_method = _per_label(
        frame.method,
        [WRITE_POINTS if m.upper() in WRITE_METHODS else READ_POINTS for m in frame.method.labels],
        READ_POINTS,
    )
    mutation = _per_label(
        frame.operation,
        [
            WRITE_POINTS if op in GRAPHQL_MUTATION_OPERATIONS else READ_POINTS
            for op in frame.operation.labels
        ],
        READ_POINTS,
    )
    rest = (budget == Budget.CORE) | (budget == Budget.OTHER_REST)
    write_method[~rest] = 0
    mutation[budget != Budget.GRAPHQL] = 0
    return RowCosts(
        budget=budget,
        graphql_points=np.where(gql_priced & ~free, frame.graphql_cost, 0),
        graphql_priced=gql_priced,
        core_points=core_points,
        core_priced=core_priced,
        rest_secondary=write_method,
        graphql_secondary=mutation,
        refused=refused,
    )
