"""GitHub's published GraphQL cost formula: the one walk and count (the emulator's schema
-aware pricing uses it too), and what a request costs read from the request alone.

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

``walk_connections`` is the walk both readings share: it finds the connections of an
operation (which fields are connections is the caller's: by ``first``/``last`` here, by
the schema's ``…Connection`` types in ``ghbench.emulator.graphql.cost``), each with the
product of its ancestors' page sizes; ``requests_for`` and ``points_for`` are the count.
Pure: no I/O.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

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
    "PAGE_ARGS",
    "ConnectionUse",
    "estimate_graphql_cost",
    "fragments_of",
    "node_count",
    "parsed_document",
    "points_for",
    "requests_for",
    "variable_values",
    "walk_connections",
]

MAX_QUERY_CHARS = 1_000_000  # beyond this, not worth parsing in a tracer: no estimate
PAGE_ARGS = ("first", "last")  # the arguments that size a connection's page
# Fields under a connection that return its items; asking only for ``totalCount`` or
# ``pageInfo`` needs no page size on GitHub.
_ITEM_FIELDS = frozenset({"nodes", "edges"})
# Fields of GitHub's schema that take ``first`` but return a plain list, not a connection
NOT_CONNECTIONS = frozenset({"relatedTopics"})

T = TypeVar("T")


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


def points_for(requests: int) -> int:
    """Requests to points: divide by 100, round half up (as Ruby does), at least 1."""
    return max(1, (requests + 50) // 100)


def requests_for(uses: tuple[ConnectionUse, ...], *, every_connection: bool = False) -> int:
    """The requests to fill every connection, each once per possible parent: only the
    paged ones (``page-size``), or every one (``every-connection``)."""
    return sum(use.parent_multiplier for use in uses if every_connection or use.paged)


def node_count(uses: tuple[ConnectionUse, ...]) -> int:
    """The most nodes the query may return: each connection that asks for ``nodes`` or
    ``edges``, its page size times its ancestors' page sizes."""
    return sum(use.parent_multiplier * use.page_size for use in uses if use.selects_items)


def variable_values(
    operation: OperationDefinitionNode, variables: Mapping[str, Any]
) -> dict[str, Any]:
    """Provided variables, falling back to the declared (integer) defaults."""
    values: dict[str, Any] = {}
    for definition in operation.variable_definitions or ():
        name = definition.variable.name.value
        if name in variables:
            values[name] = variables[name]
        elif isinstance(definition.default_value, IntValueNode):
            values[name] = int(definition.default_value.value)
    return values


# How a caller reads a field under a parent: None, not a field to walk into; else the
# parent its selection is read under and whether it is a connection.
Classify = Callable[[FieldNode, T], "tuple[T, bool] | None"]
# How a fragment's type condition changes the parent (the schema's type of that name)
Narrow = Callable[[str, T], T]


class _Walk(Generic[T]):
    def __init__(
        self,
        fragments: Mapping[str, FragmentDefinitionNode],
        variables: Mapping[str, Any],
        classify: Classify[T],
        narrow: Narrow[T],
    ) -> None:
        self.fragments, self.variables = fragments, variables
        self.classify, self.narrow = classify, narrow
        self.uses: list[ConnectionUse] = []

    def walk(
        self,
        selection_set: SelectionSetNode | None,
        parent: T,
        multiplier: int,
        path: tuple[str, ...],
        seen: frozenset[str],
    ) -> None:
        if selection_set is None:
            return
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode):
                self.field(selection, parent, multiplier, path, seen)
            elif isinstance(selection, InlineFragmentNode):
                condition = selection.type_condition
                target = parent if condition is None else self.narrow(condition.name.value, parent)
                self.walk(selection.selection_set, target, multiplier, path, seen)
            elif isinstance(selection, FragmentSpreadNode):
                name = selection.name.value
                fragment = self.fragments.get(name)
                if fragment is None or name in seen:
                    continue
                target = self.narrow(fragment.type_condition.name.value, parent)
                self.walk(fragment.selection_set, target, multiplier, path, seen | {name})

    def field(
        self,
        node: FieldNode,
        parent: T,
        multiplier: int,
        path: tuple[str, ...],
        seen: frozenset[str],
    ) -> None:
        read = self.classify(node, parent)
        if read is None:
            return
        child, connection = read
        child_path = (*path, node.alias.value if node.alias else node.name.value)
        if not connection:
            self.walk(node.selection_set, child, multiplier, child_path, seen)
            return
        first, last = (int_argument(node, name, self.variables) for name in PAGE_ARGS)
        line, column = _position(node)
        use = ConnectionUse(
            child_path,
            node.name.value,
            line,
            column,
            first,
            last,
            multiplier,
            _selects_items(node, self.fragments),
        )
        self.uses.append(use)
        self.walk(node.selection_set, child, multiplier * max(use.page_size, 1), child_path, seen)


def walk_connections(
    document: DocumentNode,
    operation: OperationDefinitionNode,
    variables: Mapping[str, Any],
    *,
    root: T,
    classify: Classify[T],
    narrow: Narrow[T],
) -> tuple[ConnectionUse, ...]:
    """Every connection of ``operation`` (``classify`` says which fields are), in the
    order the query asks for them."""
    walk = _Walk(fragments_of(document), variable_values(operation, variables), classify, narrow)
    walk.walk(operation.selection_set, root, 1, (), frozenset())
    return tuple(walk.uses)


def fragments_of(document: DocumentNode) -> dict[str, FragmentDefinitionNode]:
    """``document``'s fragment definitions by name."""
    return {d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)}


def int_argument(node: FieldNode, name: str, variables: Mapping[str, Any]) -> int | None:
    """The integer a field's argument ``name`` is given, literally or by a variable."""
    for argument in node.arguments or ():
        if argument.name.value != name:
            continue
        value = argument.value
        if isinstance(value, IntValueNode):
            return int(value.value)
        if isinstance(value, VariableNode):
            provided = variables.get(value.name.value)
            whole = isinstance(provided, int) and not isinstance(provided, bool)
            return provided if whole else None
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


# -- the request alone: a field with first/last is a connection ------------------------


def _by_arguments(node: FieldNode, parent: None) -> tuple[None, bool]:
    names = {argument.name.value for argument in node.arguments or ()}
    return None, node.name.value not in NOT_CONNECTIONS and bool(names & set(PAGE_ARGS))


def _same(name: str, parent: None) -> None:
    return parent


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
    given = {
        k: v for k, v in (variables or {}).items() if isinstance(v, int) and not isinstance(v, bool)
    }
    values = variable_values(operation, given)
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
    try:
        uses = walk_connections(
            document, operation, dict(values), root=None, classify=_by_arguments, narrow=_same
        )
    except RecursionError:
        return None
    return points_for(requests_for(uses))


def _operation(document: DocumentNode, name: str | None) -> OperationDefinitionNode | None:
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if name:
        named = [o for o in operations if o.name is not None and o.name.value == name]
        return named[0] if named else None
    return operations[0] if len(operations) == 1 else None
