"""A GraphQL request as the front sees it: its name, its shape, and what it cost.

The cost of a GraphQL exchange, best source first:

1. ``data.rateLimit.cost`` in the answer, when the query asked for it: GitHub's own
   figure (``graphqlCost``);
2. otherwise the rise of ``x-ratelimit-used`` since the highest reading the front
   has seen in the same window (same ``x-ratelimit-limit`` and ``x-ratelimit-reset``):
   what GitHub, or the emulator, charged for it, provided no other GraphQL exchange
   was in flight through the front meanwhile (``GraphqlMeter``). It is exact when
   every spender of that budget goes through the front; a spender outside it (another
   machine on the same token) shows up in the rise;
3. otherwise GitHub's published formula over the request
   (``ghbench.trace.graphql_cost``), flagged ``graphqlCostEstimated``.

Pure: bytes in, values out; the meter is plain state.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import msgspec
from graphql import FieldNode, OperationDefinitionNode

from ghbench.trace.graphql_cost import MAX_QUERY_CHARS, estimate_graphql_cost, parsed_document
from ghbench.trace.graphql_shape import structure_key

__all__ = ["GraphqlMeter", "GraphqlRequest", "read_graphql_request"]

_WINDOWS_KEPT = 8  # readings of this many (limit, reset) windows are kept


@dataclass(frozen=True)
class GraphqlRequest:
    """What a ``POST /graphql`` body asks: the operation's name, kind, top-level fields."""

    query: str
    variables: dict[str, Any] | None = None
    name: str | None = None
    kind: str = "query"
    fields: tuple[str, ...] = ()

    @property
    def operation(self) -> str:
        """The row's operation: ``graphql.NAME`` for a named operation; for an anonymous
        one its top-level field (``graphql.repository``), ``graphql.batch.FIELD`` for
        several selections of one field (AO's batches), ``graphql.batch`` for a mix;
        a mutation's fields under ``graphql.mutation.``. ``rateLimit`` asked beside
        them is the query's accounting, not what it is about: it does not count."""
        if self.name:
            return f"graphql.{self.name}"
        prefix = "graphql" if self.kind == "query" else f"graphql.{self.kind}"
        fields = [f for f in self.fields if f != "rateLimit"] or list(self.fields)
        distinct = tuple(dict.fromkeys(fields))
        if not distinct:
            return prefix
        if len(fields) == 1:
            return f"{prefix}.{distinct[0]}"
        return f"{prefix}.batch.{distinct[0]}" if len(distinct) == 1 else f"{prefix}.batch"

    @property
    def asks_rate_limit(self) -> bool:
        return "rateLimit" in self.query

    def estimated_cost(self) -> int | None:
        """GitHub's published formula for this request (None: not a readable query)."""
        return _estimate(self.query, msgspec.json.encode(self.variables), self.name)


@functools.lru_cache(maxsize=256)
def _estimate(query: str, variables: bytes, name: str | None) -> int | None:
    decoded = msgspec.json.decode(variables)
    return estimate_graphql_cost(query, decoded if isinstance(decoded, dict) else None, name)


_Shape = tuple[str | None, str, tuple[str, ...]]
# shapes by the document's structure (ghbench.trace.graphql_shape): the same query for
# another PR number has the same operation and fields, and is not parsed again
_STRUCTURES: dict[tuple[str, str | None], _Shape] = {}
_STRUCTURES_MAX = 256


@functools.lru_cache(maxsize=256)
def _shape(query: str, wanted: str | None) -> _Shape | None:
    """(name, kind, top-level fields) of the operation to run; parsed once per text
    (a poller sends the same few queries over and over), and once per structure."""
    found_key = structure_key(query)  # the shape holds whatever the integers
    key = found_key.text if found_key is not None else None
    known = _STRUCTURES.get((key, wanted)) if key is not None else None
    if known is not None:
        return known
    found = _parse_shape(query, wanted)
    if key is not None and found is not None:
        if len(_STRUCTURES) >= _STRUCTURES_MAX:
            _STRUCTURES.clear()
        _STRUCTURES[(key, wanted)] = found
    return found


def _parse_shape(query: str, wanted: str | None) -> _Shape | None:
    document = parsed_document(query)  # the cost formula reads the same tree
    if document is None:
        return None
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if wanted:
        operations = [o for o in operations if o.name is not None and o.name.value == wanted]
    if not operations:
        return None
    chosen = operations[0]
    fields = tuple(
        s.name.value for s in chosen.selection_set.selections if isinstance(s, FieldNode)
    )
    name = chosen.name.value if chosen.name is not None else None
    return name, chosen.operation.value, fields


def read_graphql_request(body: bytes) -> GraphqlRequest | None:
    """The request in a GraphQL POST body, or None when it is not one."""
    try:
        doc = msgspec.json.decode(body)
    except msgspec.DecodeError:
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("query"), str):
        return None
    query: str = doc["query"]
    variables = doc.get("variables")
    wanted = doc.get("operationName")
    wanted = wanted if isinstance(wanted, str) and wanted else None
    shape = _shape(query, wanted) if len(query) <= MAX_QUERY_CHARS else None
    base = GraphqlRequest(query, variables if isinstance(variables, dict) else None, wanted)
    if shape is None:
        return base
    name, kind, fields = shape
    return GraphqlRequest(base.query, base.variables, name, kind, fields)


@dataclass
class GraphqlMeter:
    """Reads what each GraphQL exchange was charged from ``x-ratelimit-used``.

    ``begin`` when a GraphQL request goes out (a ticket); ``end`` with the answer's
    headers gives the charge, or None when it cannot be told: another GraphQL
    exchange overlapped this one, or no earlier reading of the same window exists.
    ``x-ratelimit-used`` only grows within a window, so the highest reading seen is
    the budget's latest state whatever order answers arrive in.
    """

    _open: dict[int, bool] = field(default_factory=dict)  # ticket -> overlapped
    _highest: dict[tuple[int, int], int] = field(default_factory=dict)
    _next: int = 0

    def begin(self) -> int:
        ticket = self._next
        self._next += 1
        overlapped = bool(self._open)
        for other in self._open:
            self._open[other] = True
        self._open[ticket] = overlapped
        return ticket

    def end(
        self, ticket: int, limit: int | None, reset: int | None, used: int | None
    ) -> int | None:
        overlapped = self._open.pop(ticket, True)
        if limit is None or reset is None or used is None:
            return None
        window = (limit, reset)
        before = self._highest.get(window)
        self._highest[window] = used if before is None else max(before, used)
        if len(self._highest) > _WINDOWS_KEPT:
            del self._highest[min(self._highest, key=lambda w: w[1])]
        if overlapped or before is None or used - before < 1:
            return None
        return used - before
