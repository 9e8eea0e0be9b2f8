"""The emulator's GraphQL API: a subset of GitHub's schema executed with graphql-core.

The core calls :func:`parse_request` with the raw ``POST /graphql`` body (no state
needed), then :func:`answer` with a
:class:`~ghbench.emulator.graphql_contract.GraphQLRequestContext`; :func:`handle_graphql`
does both. Stages live in
their own modules: ``schema.graphql``/``schema`` (SDL and resolvers), ``cost`` (GitHub's
published formula, pure), ``limits`` (page size and node limit rules), ``errors``
(GitHub-shaped errors), ``resolvers`` (reading and writing the store) and ``handler``
(the pipeline).
"""

from __future__ import annotations

from ghbench.emulator.graphql.cost import ConnectionUse, CostReport, analyze_cost, points_for
from ghbench.emulator.graphql.handler import answer, handle_graphql, parse_request, refused

__all__ = [
    "ConnectionUse",
    "CostReport",
    "analyze_cost",
    "answer",
    "handle_graphql",
    "parse_request",
    "points_for",
    "refused",
]
