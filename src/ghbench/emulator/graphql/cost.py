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
This module only walks an already validated document; it never touches I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLNamedType,
    GraphQLSchema,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    VariableNode,
    get_named_type,
    is_interface_type,
    is_object_type,
)

from ghbench.emulator.graphql_contract import COST_RULES, DEFAULT_COST_RULE

__all__ = [
    "COST_RULES",
    "DEFAULT_COST_RULE",
    "ConnectionUse",
    "CostReport",
    "analyze_cost",
    "points_for",
]


# Fields under a connection that return its items; asking only for ``totalCount`` or
# ``pageInfo`` needs no page size on GitHub.
_ITEM_FIELDS = frozenset({"nodes", "edges"})
_PAGE_ARGS = ("first", "last")


@dataclass(frozen=True)
class ConnectionUse:
    """One connection field in the query, with what the cost rules need to know."""

    path: tuple[str, ...]  # response keys from the root, e.g. ("pr0", "pullRequest", "reviews")
    field_name: str
    line: int
    column: int
    first: int | None
    last: int | None
    parent_multiplier: int  # product of the page sizes of the enclosing connections
    selects_items: bool  # asks for nodes or edges, so it needs a page size

    @property
    def paged(self) -> bool:
        """Given ``first`` or ``last`` (counted under either cost rule)."""
        return self.first is not None or self.last is not None

    @property
    def page_size(self) -> int:
        """The page this connection asks for; 0 for a ``totalCount``-only use."""
        if self.first is not None:
            return self.first
        if self.last is not None:
            return self.last
        return 0


@dataclass(frozen=True)
class CostReport:
    """The cost of one operation by GitHub's published formula."""

    requests: int
    cost: int
    node_count: int
    connections: tuple[ConnectionUse, ...]


def points_for(requests: int) -> int:
    """Requests → points: divide by 100, round half up (as Ruby does), minimum 1."""
    return max(1, (requests + 50) // 100)


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
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    root = schema.get_root_type(operation.operation)
    if root is None:  # validation rejects this first; keep the walk total
        return CostReport(requests=0, cost=1, node_count=0, connections=())
    walker = _Walker(schema, fragments, _variable_values(operation, variables))
    walker.walk(operation.selection_set, root, multiplier=1, path=())
    uses = tuple(walker.uses)
    every = rule == "every-connection"
    requests = sum(use.parent_multiplier for use in uses if every or use.paged)
    nodes = sum(use.parent_multiplier * use.page_size for use in uses if use.selects_items)
    cost = 1 if operation.operation is OperationType.MUTATION else points_for(requests)
    return CostReport(requests=requests, cost=cost, node_count=nodes, connections=uses)


def _variable_values(
    operation: OperationDefinitionNode, variables: Mapping[str, Any]
) -> dict[str, Any]:
    """Provided variables, falling back to the declared defaults."""
    values: dict[str, Any] = {}
    for definition in operation.variable_definitions or ():
        name = definition.variable.name.value
        if name in variables:
            values[name] = variables[name]
        elif isinstance(definition.default_value, IntValueNode):
            values[name] = int(definition.default_value.value)
    return values


class _Walker:
    def __init__(
        self,
        schema: GraphQLSchema,
        fragments: Mapping[str, FragmentDefinitionNode],
        variables: Mapping[str, Any],
    ) -> None:
        self.schema = schema
        self.fragments = fragments
        self.variables = variables
        self.uses: list[ConnectionUse] = []

    def walk(
        self,
        selection_set: SelectionSetNode | None,
        parent: GraphQLNamedType,
        multiplier: int,
        path: tuple[str, ...],
        seen_fragments: frozenset[str] = frozenset(),
    ) -> None:
        if selection_set is None:
            return
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode):
                self._field(selection, parent, multiplier, path, seen_fragments)
            elif isinstance(selection, InlineFragmentNode):
                condition = selection.type_condition
                target = self.schema.get_type(condition.name.value) if condition else parent
                self.walk(
                    selection.selection_set, target or parent, multiplier, path, seen_fragments
                )
            elif isinstance(selection, FragmentSpreadNode):
                name = selection.name.value
                fragment = self.fragments.get(name)
                if fragment is None or name in seen_fragments:
                    continue
                target = self.schema.get_type(fragment.type_condition.name.value)
                self.walk(
                    fragment.selection_set,
                    target or parent,
                    multiplier,
                    path,
                    seen_fragments | {name},
                )

    def _field(
        self,
        node: FieldNode,
        parent: GraphQLNamedType,
        multiplier: int,
        path: tuple[str, ...],
        seen_fragments: frozenset[str],
    ) -> None:
        if not (is_object_type(parent) or is_interface_type(parent)):
            return
        definition = parent.fields.get(node.name.value)
        if definition is None:  # __typename and friends
            return
        field_type = get_named_type(definition.type)
        key = node.alias.value if node.alias else node.name.value
        child_path = (*path, key)
        if not field_type.name.endswith("Connection"):
            self.walk(node.selection_set, field_type, multiplier, child_path, seen_fragments)
            return
        first, last = (self._int_argument(node, name) for name in _PAGE_ARGS)
        line, column = _position(node)
        use = ConnectionUse(
            path=child_path,
            field_name=node.name.value,
            line=line,
            column=column,
            first=first,
            last=last,
            parent_multiplier=multiplier,
            selects_items=_selects_items(node, self.fragments),
        )
        self.uses.append(use)
        inner = multiplier * max(use.page_size, 1)
        self.walk(node.selection_set, field_type, inner, child_path, seen_fragments)

    def _int_argument(self, node: FieldNode, name: str) -> int | None:
        for argument in node.arguments or ():
            if argument.name.value != name:
                continue
            value = argument.value
            if isinstance(value, IntValueNode):
                return int(value.value)
            if isinstance(value, VariableNode):
                provided = self.variables.get(value.name.value)
                return provided if isinstance(provided, int) else None
        return None


def _position(node: FieldNode) -> tuple[int, int]:
    if node.loc is None:
        return (0, 0)
    # the first token's own line and column: what ``source.get_location`` counts again
    # from the start of the text (a batch query's 250 fields took 50 ms)
    token = node.loc.start_token
    return (token.line, token.column)


def _selects_items(
    node: FieldNode, fragments: Mapping[str, FragmentDefinitionNode], depth: int = 0
) -> bool:
    """Whether a connection field asks for ``nodes`` or ``edges`` (through fragments too)."""
    if node.selection_set is None or depth > 8:
        return False
    pending = list(node.selection_set.selections)
    while pending:
        selection = pending.pop()
        if isinstance(selection, FieldNode):
            if selection.name.value in _ITEM_FIELDS:
                return True
        elif isinstance(selection, InlineFragmentNode):
            pending.extend(selection.selection_set.selections)
        elif isinstance(selection, FragmentSpreadNode):
            fragment = fragments.get(selection.name.value)
            if fragment is not None and depth < 8:
                depth += 1
                pending.extend(fragment.selection_set.selections)
    return False
