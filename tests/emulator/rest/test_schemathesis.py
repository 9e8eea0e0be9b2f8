"""schemathesis against the emulator's REST routes, from GitHub's own OpenAPI description.

For every operation GitHub describes that the emulator serves (its route table), cases
are generated from ``@octokit/openapi`` (path and query parameters, bodies), half of
them aimed at the seeded repository, and sent to the emulator; no answer may be a
server error, and a successful one must match GitHub's schema for its status. The run
is bounded (``EXAMPLES`` per operation, no shrinking beyond Hypothesis' default), and
what it found is kept below as plain regression tests.
"""

from __future__ import annotations

import copy
import functools
import os
import zlib
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from emu_helpers import TOKEN
from github_descriptions import OPENAPI, need, openapi
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openapi_check import operation_for
from rest_examples import seeded
from schemathesis.checks import not_a_server_error, response_schema_conformance

from ghbench.emulator.core import Emulator
from ghbench.emulator.rest import ROUTES
from ghbench.emulator.thread_server import EmulatorServer

EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "25"))


@functools.cache
def _served_document() -> dict[str, Any]:
    """GitHub's description cut down to the operations the emulator serves."""
    document = copy.deepcopy(openapi())
    served: dict[str, dict[str, Any]] = {}
    for route in ROUTES:
        found = operation_for(document, route.method, route.pattern)
        if found is not None:
            path, operation = found
            served.setdefault(path, {})[route.method.lower()] = operation
    for path, item in served.items():
        common = document["paths"][path].get("parameters")
        if common:
            item["parameters"] = common
    document["paths"] = served
    return document


@pytest.fixture(scope="module")
def served_schema() -> Any:
    """GitHub's description of the served operations, loaded when a test runs, not
    when it is collected (it costs seconds; make test-fast leaves these tests out)."""
    need(OPENAPI, "@octokit/openapi")
    return schemathesis.openapi.from_dict(_served_document())


@pytest.fixture(scope="module")
def world() -> Iterator[tuple[Emulator, httpx.Client]]:
    emulator = seeded()
    emulator.set_limit("core", 10**9)
    emulator.set_limit("search", 10**9)
    emulator.set_secondary(enabled=False)
    with (
        EmulatorServer(emulator) as server,
        httpx.Client(base_url=server.url, headers={"Authorization": f"token {TOKEN}"}) as client,
    ):
        yield emulator, client


def test_githubs_description_covers_the_served_routes() -> None:
    """The description cut down to the served operations is not empty."""
    need(OPENAPI, "@octokit/openapi")
    assert len(_served_document()["paths"]) >= 40


_AIM = {"owner": "acme", "repo": "todo", "username": "octo"}


# coverage's line tracer triples this test's CPU (it replays the model or generates
# hundreds of requests); the code it runs is covered by the emulator's own tests
@pytest.mark.no_cover
@pytest.mark.slow
@pytest.mark.parametrize("route", [f"{r.method} {r.pattern}" for r in ROUTES])
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_githubs_description_against_the_emulator(
    route: str, data: st.DataObject, served_schema: Any, world: tuple[Emulator, httpx.Client]
) -> None:
    method, pattern = route.split(" ", 1)
    found = operation_for(openapi(), method, pattern)
    if found is None:
        pytest.skip(
            f"{route} has no operation in GitHub's description (served for clients that call it)"
        )
    case: schemathesis.Case = data.draw(served_schema[found[0]][method].as_strategy())
    _, client = world
    if case.path_parameters and zlib.crc32(repr(case.body).encode()) % 2 == 0:
        # half of the cases on the seeded repository, so they reach the handlers
        for name, value in _AIM.items():
            if name in case.path_parameters:
                case.path_parameters[name] = value
    kwargs = case.as_transport_kwargs(base_url=str(client.base_url).rstrip("/"))
    kwargs.pop("cookies", None)
    if isinstance(kwargs.get("data"), bytes | str):  # requests' name for a raw body
        kwargs["content"] = kwargs.pop("data")
    headers = {k: v for k, v in (kwargs.pop("headers", None) or {}).items() if v is not None}
    response = client.request(**kwargs, headers=headers)
    # error bodies are GitHub's {message, documentation_url}, which its description's
    # oneOf of two error schemas (both matching) cannot accept: successes only
    checks = [not_a_server_error]
    if response.status_code < 300:
        checks.append(response_schema_conformance)
    case.validate_response(response, checks=checks)


# What the runs found, kept as plain regression tests


@pytest.mark.parametrize(
    ("query", "status", "body"),
    [
        ("path=%00", 200, []),
        ("since=%00", 200, []),
        ("until=x%00y", 200, []),
        ("sha=main%00", 404, None),  # no such ref, as GitHub says
    ],
)
def test_a_nul_byte_in_a_commits_query_matches_nothing(
    query: str, status: int, body: list[object] | None, world: tuple[Emulator, httpx.Client]
) -> None:
    """git's arguments cannot carry NUL (it was a 500: 'embedded null byte')."""
    _, client = world
    response = client.get(f"/repos/acme/todo/commits?{query}")
    assert response.status_code == status
    if body is not None:
        assert response.json() == body


def test_an_encoded_question_mark_stays_in_the_path(world: tuple[Emulator, httpx.Client]) -> None:
    """`%3F` inside a ref is part of the ref: the emulator took ASGI's decoded path,
    where it ended the path, and answered the commits list for a check-runs URL."""
    _, client = world
    response = client.get("/repos/acme/todo/commits/%3Fx/check-runs")
    assert response.status_code == 404  # as for any unknown ref on check-runs
    assert response.json()["message"] == "No commit found for SHA: ?x"
