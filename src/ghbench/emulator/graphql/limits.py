"""GitHub's query limits, checked before anything is charged or executed.

Docs ("Rate limits and query limits for the GraphQL API", node limit): every
connection needs ``first`` or ``last`` between 1 and 100, and one call may request
at most 500,000 nodes in total. Each rule is one small function over the
:class:`~ghbench.emulator.graphql.cost.CostReport`; ``check_limits`` runs them all.

The error ``type`` names are GitHub's (``MISSING_PAGINATION_BOUNDARIES``,
``EXCESSIVE_PAGINATION``, ``MAX_NODE_LIMIT_EXCEEDED``); the message wording follows
answers reported from github.com and is not in GitHub's docs (see docs/emulator.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ghbench.emulator.graphql.cost import ConnectionUse, CostReport

__all__ = ["MAX_NODES", "MAX_PAGE_SIZE", "MIN_PAGE_SIZE", "check_limits"]

MAX_PAGE_SIZE = 100
MIN_PAGE_SIZE = 1
MAX_NODES = 500_000

ErrorDict = dict[str, object]


def _error(kind: str, use: ConnectionUse, message: str) -> ErrorDict:
    return {
        "type": kind,
        "path": list(use.path),
        "locations": [{"line": use.line, "column": use.column}],
        "message": message,
    }


def missing_pagination_boundaries(report: CostReport) -> list[ErrorDict]:
    """A connection that returns items must say how many."""
    return [
        _error(
            "MISSING_PAGINATION_BOUNDARIES",
            use,
            f"You must provide a `first` or `last` value to properly paginate the "
            f"`{use.field_name}` connection.",
        )
        for use in report.connections
        if use.selects_items and use.first is None and use.last is None
    ]


def _page_sizes(report: CostReport) -> Iterator[tuple[ConnectionUse, str, int]]:
    """Every page size a connection is given: the connection, ``first`` or ``last``, the size."""
    for use in report.connections:
        for argument, value in (("first", use.first), ("last", use.last)):
            if value is not None:
                yield use, argument, value


def excessive_pagination(report: CostReport) -> list[ErrorDict]:
    """``first``/``last`` above 100."""
    return [
        _error(
            "EXCESSIVE_PAGINATION",
            use,
            f"Requesting {value} records on the `{use.field_name}` connection "
            f"exceeds the `{argument}` limit of {MAX_PAGE_SIZE} records.",
        )
        for use, argument, value in _page_sizes(report)
        if value > MAX_PAGE_SIZE
    ]


def too_small_pagination(report: CostReport) -> list[ErrorDict]:
    """``first``/``last`` below 1 (the docs' range is 1–100)."""
    return [
        _error(
            "INVALID_PAGINATION",
            use,
            f"`{argument}` on the `{use.field_name}` connection must be between "
            f"{MIN_PAGE_SIZE} and {MAX_PAGE_SIZE}; got {value}.",
        )
        for use, argument, value in _page_sizes(report)
        if value < MIN_PAGE_SIZE
    ]


def node_limit(report: CostReport) -> list[ErrorDict]:
    """At most 500,000 nodes per call."""
    if report.node_count <= MAX_NODES:
        return []
    return [
        {
            "type": "MAX_NODE_LIMIT_EXCEEDED",
            "message": f"This query requests up to {report.node_count:,} possible nodes which "
            f"exceeds the maximum limit of {MAX_NODES:,}.",
        }
    ]


RULES: tuple[Callable[[CostReport], list[ErrorDict]], ...] = (
    missing_pagination_boundaries,
    too_small_pagination,
    excessive_pagination,
    node_limit,
)


def check_limits(report: CostReport) -> list[ErrorDict]:
    """Every limit violation, in rule order; empty when the query may run."""
    return [error for rule in RULES for error in rule(report)]
