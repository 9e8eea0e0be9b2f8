"""What a GraphQL request costs by GitHub's published formula, read from the request alone.

GitHub sends no cost with a GraphQL answer unless the query asks for ``rateLimit``,
and gh's own queries (``gh pr view``, ``gh pr create``, …) never do. So a traced call
of an agent's gh has a known GraphQL *request* but no reported cost. The formula
(docs: "Rate limits and query limits for the GraphQL API") needs only the request:
count the requests needed to fill every connection, each ``first``/``last`` assumed
filled, a nested connection once per possible parent; divide by 100, round half up,
at least 1. The docs' example: 100 repositories × 50 issues × 60 labels is 1 + 100 +
5,000 = 5,101 requests, 51 points.

A connection is recognised by its ``first``/``last`` argument: GitHub's schema puts
those on connections only, but for the fields in ``NOT_CONNECTIONS`` (a test holds the
list to GitHub's own schema), and a
connection asked without them (only its ``totalCount``) counts nothing, the reading the
emulator uses by default (``page-size``, inferred). A mutation costs 1. The result is
an estimate, labelled as such where it is shown: GitHub may round or weigh otherwise.
Pure: no I/O.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    VariableNode,
    parse,
)

__all__ = [
    "MAX_QUERY_CHARS",
    "NOT_CONNECTIONS",
    "estimate_graphql_cost",
    "parsed_document",
    "points_for",
]

MAX_QUERY_CHARS = 1_000_000  # beyond this, not worth parsing in a tracer: no estimate
_PAGE_ARGS = ("first", "last")
# Fields of GitHub's schema that take ``first`` but return a plain list, not a connection
NOT_CONNECTIONS = frozenset({"relatedTopics"})


def points_for(requests: int) -> int:
    """Requests to points: divide by 100, round half up, at least 1."""
    return max(1, (requests + 50) // 100)


def estimate_graphql_cost(
    query: str,
    variables: Mapping[str, Any] | None = None,
    operation_name: str | None = None,
) -> int | None:
    """The request's primary cost in points, or None when it is not a readable query.
    Parsed once per query text, counted once per (text, operation, page sizes): a
    tracer sees the same few queries with other ids over and over."""
    if not query or len(query) > MAX_QUERY_CHARS:
        return None
    document = parsed_document(query)
    operation = None if document is None else _operation(document, operation_name)
    if operation is None:
        return None
    if operation.operation is OperationType.MUTATION:
        return 1
    values = _variables(operation, variables or {})
    return _cost(query, operation_name, tuple(sorted(values.items())))


@functools.lru_cache(maxsize=512)
def parsed_document(query: str) -> DocumentNode | None:
    """``query``'s tree without locations, parsed once per text (None: not one); shared
    with the GitHub front's reading of a request, which asks the same texts."""
    try:
        return parse(query, no_location=True)
    except (GraphQLError, RecursionError):
        return None


@functools.lru_cache(maxsize=4096)
def _cost(
    query: str, operation_name: str | None, values: tuple[tuple[str, int], ...]
) -> int | None:
    document = parsed_document(query)
    operation = None if document is None else _operation(document, operation_name)
    if document is None or operation is None:
        return None
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    try:
        requests = _requests(operation.selection_set, 1, fragments, dict(values), frozenset())
    except RecursionError:
        return None
    return points_for(requests)


def _operation(document: DocumentNode, name: str | None) -> OperationDefinitionNode | None:
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if name:
        named = [o for o in operations if o.name is not None and o.name.value == name]
        return named[0] if named else None
    return operations[0] if len(operations) == 1 else None


def _variables(operation: OperationDefinitionNode, given: Mapping[str, Any]) -> dict[str, int]:
    values: dict[str, int] = {}
    for definition in operation.variable_definitions or ():
        name = definition.variable.name.value
        value = given.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            values[name] = value
        elif isinstance(definition.default_value, IntValueNode):
            values[name] = int(definition.default_value.value)
    return values


def _page_size(node: FieldNode, variables: Mapping[str, int]) -> int | None:
    if node.name.value in NOT_CONNECTIONS:
        return None
    for argument in node.arguments or ():
        if argument.name.value not in _PAGE_ARGS:
            continue
        value = argument.value
        if isinstance(value, IntValueNode):
            return int(value.value)
        if isinstance(value, VariableNode) and value.name.value in variables:
            return variables[value.name.value]
    return None


def _requests(
    selection_set: SelectionSetNode | None,
    multiplier: int,
    fragments: Mapping[str, FragmentDefinitionNode],
    variables: Mapping[str, int],
    seen: frozenset[str],
) -> int:
    """Requests the selection needs, ``multiplier`` being its possible parents."""
    if selection_set is None:
        return 0
    total = 0
    for selection in selection_set.selections:
        if isinstance(selection, FieldNode):
            size = _page_size(selection, variables)
            inner = multiplier
            if size is not None:
                total += multiplier  # a connection: once per possible parent
                inner = multiplier * max(size, 1)
            total += _requests(selection.selection_set, inner, fragments, variables, seen)
        elif isinstance(selection, InlineFragmentNode):
            total += _requests(selection.selection_set, multiplier, fragments, variables, seen)
        elif isinstance(selection, FragmentSpreadNode):
            name = selection.name.value
            fragment = fragments.get(name)
            if fragment is not None and name not in seen:
                total += _requests(
                    fragment.selection_set, multiplier, fragments, variables, seen | {name}
                )
    return total
