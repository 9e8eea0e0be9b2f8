"""GitHub's published GraphQL cost formula, as a pure function of the query.

The rule (docs: "Rate limits and query limits for the GraphQL API"): count the
requests needed to fill every connection, assuming each ``first``/``last`` is
filled. A connection is requested once per possible parent node, i.e. it counts
the product of the page sizes of all its ancestor connections (1 at the top).
Sum, divide by 100, round, minimum 1. The docs' example: 100 repositories × 50
issues × 60 labels → 1 + 100 + 5,000 = 5,101 requests → 51 points.

Plain object lookups (``repository``, ``pullRequest(number:)``, aliases of them)
are not connections and add nothing, which is why a 25-alias primary-key batch
costs 1 point unless it nests connections.

A connection asked without ``first``/``last`` (only its ``totalCount`` or
``pageInfo``, which GitHub allows) is where the docs stop: they count requests "to
fulfill each unique connection" and "assume every request will reach the first or last
argument limits". Two readings, one named rule each (:data:`COST_RULES`):

- ``page-size`` (the default, **inferred**): only connections given ``first`` or
  ``last`` count. The docs define a request by those limits; Sourcegraph's cost
  estimator (sourcegraph/sourcegraph#11402), counts only such connections and was
  checked by its authors against the cost GitHub reported for several queries.
- ``every-connection``: such a connection is one request per possible parent too.

They differ for gh: its comment and review fragments select ``reactionGroups { users
{ totalCount } }`` (see docs/emulator.md, where both are measured with real gh).

``nodeCount`` is the most nodes the query may return: each connection that asks for
``nodes``/``edges`` contributes its page size times its ancestors' page sizes.

A connection is a field whose type is named ``…Connection`` (GitHub's convention).
The walk and the count are the formula's own (``ghbench.trace.graphql_cost``, which a
tracer uses on a request alone); this module says which fields are connections, by the
schema. It only walks an already validated document; it never touches I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    GraphQLNamedType,
    GraphQLSchema,
    OperationDefinitionNode,
    OperationType,
    get_named_type,
    is_interface_type,
    is_object_type,
)

from ghbench.emulator.graphql_contract import COST_RULES, DEFAULT_COST_RULE
from ghbench.trace.graphql_cost import (
    ConnectionUse,
    node_count,
    points_for,
    requests_for,
    walk_connections,
)

__all__ = [
    "COST_RULES",
    "DEFAULT_COST_RULE",
    "ConnectionUse",
    "CostReport",
    "analyze_cost",
    "points_for",
]


@dataclass(frozen=True)
class CostReport:
    """The cost of one operation by GitHub's published formula."""

    requests: int
    cost: int
    node_count: int
    connections: tuple[ConnectionUse, ...]


def analyze_cost(
    schema: GraphQLSchema,
    document: DocumentNode,
    operation: OperationDefinitionNode,
    variables: Mapping[str, Any],
    rule: str = DEFAULT_COST_RULE,
) -> CostReport:
    """Walk ``operation`` and count requests, points and nodes under ``rule`` (one of
    :data:`COST_RULES`, see the module doc).

    A mutation costs 1 primary point whatever it selects (GitHub publishes no rule;
    by the formula a connection-free mutation is 1). Its nodes are still counted.
    """
    root: GraphQLNamedType | None = schema.get_root_type(operation.operation)
    if root is None:  # validation rejects this first; keep the walk total
        return CostReport(requests=0, cost=1, node_count=0, connections=())

    def classify(node: FieldNode, parent: GraphQLNamedType) -> tuple[GraphQLNamedType, bool] | None:
        if not (is_object_type(parent) or is_interface_type(parent)):
            return None
        definition = parent.fields.get(node.name.value)
        if definition is None:  # __typename and friends
            return None
        field_type = get_named_type(definition.type)
        return field_type, field_type.name.endswith("Connection")

    def narrow(name: str, parent: GraphQLNamedType) -> GraphQLNamedType:
        return schema.get_type(name) or parent

    uses = walk_connections(
        document, operation, variables, root=root, classify=classify, narrow=narrow
    )
    requests = requests_for(uses, every_connection=rule == "every-connection")
    cost = 1 if operation.operation is OperationType.MUTATION else points_for(requests)
    return CostReport(requests=requests, cost=cost, node_count=node_count(uses), connections=uses)
