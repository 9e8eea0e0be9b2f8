"""The emulator's GraphQL API: a subset of GitHub's schema executed with graphql-core.

The core calls :func:`handle_graphql` with the raw ``POST /graphql`` body and a
:class:`~ghbench.emulator.graphql_contract.GraphQLRequestContext`. Stages live in
their own modules: ``schema.graphql``/``schema`` (SDL and resolvers), ``cost`` (GitHub's
published formula, pure), ``limits`` (page size and node limit rules), ``errors``
(GitHub-shaped errors), ``resolvers`` (reading and writing the store) and ``handler``
(the pipeline).
"""

from __future__ import annotations

from ghbench.emulator.graphql.cost import ConnectionUse, CostReport, analyze_cost, points_for
from ghbench.emulator.graphql.handler import handle_graphql

__all__ = ["ConnectionUse", "CostReport", "analyze_cost", "handle_graphql", "points_for"]
