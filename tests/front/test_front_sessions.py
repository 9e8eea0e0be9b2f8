"""A client's session from its own process, and the agents' rows in a trace of their own.

An orchestrator's agents run gh and git with whatever proxy the orchestrator's
environment gives them (one for all), but each with its session in its environment
(AO 0.10's ``AO_SESSION_ID``). A front told ``session_from`` reads it from the process
at the other end of the connection, and a phase with an agents' trace puts the rows of
clients with a session there, beside the orchestrator's own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ghbench.emulator.thread_server import EmulatorServer
from ghbench.front import Front
from ghbench.front.rows import ao_operation

from .front_helpers import TOKEN, client_env, rows, run, running_front


@pytest.fixture(scope="module")
def front(
    _shared_server: tuple[EmulatorServer, Any], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Front]:
    server, _ = _shared_server
    state = tmp_path_factory.mktemp("front")
    with running_front(state, server.url, session_from=("AO_SESSION_ID",)) as running:
        yield running


@pytest.mark.gh
@pytest.mark.slow
def test_the_session_comes_from_the_clients_environment(
    front: Front, emulator_server: Any, tmp_path: Path
) -> None:
    trace, agents = tmp_path / "trace.jsonl", tmp_path / "agents.jsonl"
    front.switch_trace(trace, agents)
    try:
        for session in ("todo-1", "todo-2"):
            env = client_env(front, tmp_path / session, TOKEN) | {"AO_SESSION_ID": session}
            proc = run(["gh", "issue", "list", "-R", "acme/todo"], env)
            assert proc.returncode == 0, proc.stderr
        # the orchestrator: no session in its environment, none in its credential
        plain = client_env(front, tmp_path / "daemon", TOKEN)
        proc = run(["gh", "api", "repos/acme/todo/pulls?per_page=1"], plain)
        assert proc.returncode == 0, proc.stderr
    finally:
        counts = front.switch_trace(None)
    agent_rows, own_rows = rows(agents), rows(trace)
    assert [r["sessionId"] for r in agent_rows] == ["todo-1", "todo-2"]
    assert {r["component"] for r in agent_rows} == {"gh"}
    assert len(own_rows) == 1 and own_rows[0].get("sessionId") is None
    assert counts.rows_written == 3 and counts.rows_lost == 0


def test_a_credential_names_the_session_before_the_environment(
    front: Front, emulator_server: Any, tmp_path: Path
) -> None:
    trace = tmp_path / "trace.jsonl"
    front.switch_trace(trace)
    try:
        env = client_env(front, tmp_path, TOKEN, session="given") | {"AO_SESSION_ID": "env"}
        proc = run(["curl", "-sf", "https://api.github.com/repos/acme/todo"], env)
        assert proc.returncode == 0, proc.stderr
    finally:
        front.switch_trace(None)
    assert [r["sessionId"] for r in rows(trace)] == ["given"]


@pytest.mark.parametrize(
    ("method", "target", "front_name", "expected"),
    [
        (
            "GET",
            "/repos/acme/todo/pulls?state=open&sort=updated&direction=desc&per_page=1",
            "rest.repos.pulls",
            "gh.api.guard-pr-list",
        ),
        (
            "GET",
            "/repos/acme/todo/pulls?direction=desc&page=1&per_page=100&sort=updated&state=open",
            "rest.repos.pulls",
            None,
        ),
        (
            "GET",
            "/repos/acme/todo/commits/0123abcd/check-runs?per_page=1",
            "rest.repos.commits",
            "gh.api.guard-commit-status",
        ),
        (  # AO 0.12: the guard reads the first page of 100 runs
            "GET",
            "/repos/acme/todo/commits/0123abcd/check-runs?per_page=100",
            "rest.repos.commits",
            "gh.api.guard-commit-status",
        ),
        (  # and the later pages unconditionally
            "GET",
            "/repos/acme/todo/commits/0123abcd/check-runs?page=2&per_page=100",
            "rest.repos.commits",
            None,
        ),
        ("POST", "/graphql", "graphql.batch.repository", "gh.api.graphql-batch"),
        ("POST", "/graphql", "graphql.repository", None),
        ("GET", "/repos/acme/todo/pulls/4", "rest.repos.pulls", None),
    ],
)
def test_ao_names_its_daemons_requests_as_its_typescript_builds_did(
    method: str, target: str, front_name: str, expected: str | None
) -> None:
    assert ao_operation(method, target, front_name) == expected
