"""ghbench.front.graphql: a GraphQL request's operation name, and the meter that tells
what each exchange was charged."""

from __future__ import annotations

from collections.abc import Callable

import msgspec
import pytest

from ghbench.front.graphql import GraphqlMeter, read_graphql_request
from ghbench.front.workers import SharedMeter


def _graphql(query: str, **extra: object) -> bytes:
    return msgspec.json.encode({"query": query, **extra})


@pytest.mark.parametrize(
    ("query", "operation"),
    [
        (
            'query PullRequestByNumber { repository(owner:"a", name:"b") { id } }',
            "graphql.PullRequestByNumber",
        ),
        ("{ viewer { login } }", "graphql.viewer"),
        (
            'query{ pr0: repository(owner:"a",name:"b"){ id }'
            ' pr1: repository(owner:"a",name:"c"){ id } }',
            "graphql.batch.repository",
        ),
        ("{ viewer { login } rateLimit { cost } }", "graphql.viewer"),
        ("{ rateLimit { cost } }", "graphql.rateLimit"),
        ('{ viewer { login } repository(owner:"a", name:"b") { id } }', "graphql.batch"),
        ("mutation { addComment(input: {}) { clientMutationId } }", "graphql.mutation.addComment"),
        ("not graphql", "graphql"),
    ],
)
def test_graphql_operations(query: str, operation: str) -> None:
    request = read_graphql_request(_graphql(query))
    assert request is not None and request.operation == operation


def test_graphql_named_among_several() -> None:
    body = _graphql("query A { viewer { id } } query B { viewer { login } }", operationName="B")
    request = read_graphql_request(body)
    assert request is not None and request.name == "B"
    assert read_graphql_request(b"[]") is None
    assert read_graphql_request(b"{") is None


@pytest.mark.parametrize("make", [GraphqlMeter, SharedMeter], ids=["in-process", "shared"])
def test_graphql_meter(make: Callable[[], GraphqlMeter | SharedMeter]) -> None:
    """The workers' shared meter reads charges exactly as the in-process one."""
    meter = make()
    assert meter.end(meter.begin(), 5000, 100, 3) is None  # no earlier reading
    assert meter.end(meter.begin(), 5000, 100, 5) == 2
    a, b = meter.begin(), meter.begin()  # overlapping: neither can be told
    assert meter.end(b, 5000, 100, 9) is None
    assert meter.end(a, 5000, 100, 7) is None
    assert meter.end(meter.begin(), 5000, 100, 10) == 1  # the highest reading was 9
    assert meter.end(meter.begin(), 5000, 200, 1) is None  # a new window
    assert meter.end(meter.begin(), 5000, 200, 1) is None  # no rise
    assert meter.end(meter.begin(), None, 200, 4) is None
