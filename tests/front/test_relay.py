"""ghbench.front.relay, each case with a front of its own: forward mode against a
second emulator standing in for GitHub (and a host that is not GitHub's tunnelled
untouched), an upstream that does not answer, where a GraphQL cost comes from."""

from __future__ import annotations

import base64
import socket
from pathlib import Path
from typing import Any

import pytest

from ghbench.emulator.core import Emulator
from ghbench.front import Front

from .front_helpers import TOKEN, client_env, rows, run, running_front


@pytest.mark.gh
@pytest.mark.needs("git")
@pytest.mark.slow
def test_forward_sends_github_requests_on_unchanged(
    emulator_server: Any, emulator: Emulator, tmp_path: Path
) -> None:
    trace = tmp_path / "trace.jsonl"
    with running_front(
        tmp_path / "front", emulator_server.url, mode="forward", trace=trace
    ) as front:
        env = client_env(front, tmp_path, TOKEN, session="s-1")
        api = run(["gh", "api", "repos/acme/todo", "--jq", ".full_name"], env)
        assert api.stdout.strip() == "acme/todo", api.stderr
        cloned = run(["git", "clone", "https://github.com/acme/todo", str(tmp_path / "w")], env)
        assert cloned.returncode == 0, cloned.stderr
        counts = front.stop()
    assert counts.exchanges == len(rows(trace)) == 4
    assert [r["operation"] for r in rows(trace)] == [
        "rest.repos",
        "git.info-refs",
        "git.upload-pack",
        "git.upload-pack",
    ]
    assert emulator.ledger_count() == 1  # the one API call, charged by the upstream


def _http_through_tunnel(front: Front, host: str, port: int, *, secret: bool = True) -> bytes:
    """CONNECT host:port through the front (with its credential), then a plain GET
    inside the tunnel; everything the front answered."""
    credential = base64.b64encode(f"-:{front.settings.secret}".encode()).decode()
    auth = f"Proxy-Authorization: Basic {credential}\r\n" if secret else ""
    with socket.create_connection(("127.0.0.1", front.port), timeout=30) as sock:
        sock.sendall(
            f"CONNECT {host}:{port} HTTP/1.1\r\nHost: {host}:{port}\r\n{auth}\r\n".encode()
        )
        answer = sock.recv(4096)
        if answer.startswith(b"HTTP/1.1 200"):
            sock.sendall(
                f"GET /rate_limit HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode()
            )
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


@pytest.mark.slow
def test_forward_tunnels_only_githubs_hosts_and_the_upstream(
    emulator_server: Any, tmp_path: Path
) -> None:
    trace = tmp_path / "trace.jsonl"
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        elsewhere = closed.getsockname()[1]
    with running_front(
        tmp_path / "front", emulator_server.url, mode="forward", trace=trace
    ) as front:
        upstream = _http_through_tunnel(front, "127.0.0.1", emulator_server.port)
        other = _http_through_tunnel(front, "127.0.0.1", elsewhere)
        stranger = _http_through_tunnel(front, "127.0.0.1", emulator_server.port, secret=False)
        counts = front.stop()
    assert upstream.startswith(b"HTTP/1.1 200")
    assert b'"resources"' in upstream
    assert other.startswith(
        b"HTTP/1.1 403 ghbench front (forward) passes only GitHub's hosts and the upstream,"
    )
    assert stranger.startswith(b"HTTP/1.1 407 ")
    assert b'proxy-authenticate: Basic realm="ghbench front"' in stranger
    assert (counts.tunnelled, counts.refused, counts.unauthorized) == (1, 1, 1)
    (refusal,) = rows(trace)  # the stranger left no row
    assert (refusal["operation"], refusal["endpoint"]) == (
        "front.refused",
        f"127.0.0.1:{elsewhere}",
    )


@pytest.mark.slow
@pytest.mark.needs("curl")
def test_an_upstream_that_does_not_answer_is_a_502_row_and_a_warning(tmp_path: Path) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        nobody = f"http://127.0.0.1:{closed.getsockname()[1]}"
    trace = tmp_path / "trace.jsonl"
    with running_front(tmp_path / "front", nobody, trace=trace) as front:
        env = client_env(front, tmp_path, TOKEN)
        proc = run(["curl", "-sS", "-w", "%{http_code}", "https://api.github.com/user"], env)
        counts = front.stop()
    assert proc.stdout.endswith("502")
    assert counts.upstream_errors == 1
    assert counts.warnings == [
        f"ghbench front: no answer from {nobody} (Connection refused);"
        " such requests were answered 502"
    ]
    (row,) = rows(trace)
    assert row["httpStatus"] == 502 and row["ok"] is False and row["operation"] == "rest.user"


_QUERY = "query { viewer { login } }"
_ASKING = "query { viewer { login } rateLimit { cost remaining resetAt } }"


@pytest.mark.slow
@pytest.mark.gh
def test_graphql_cost_reported_charged_or_estimated(
    emulator_server: Any, emulator: Emulator, tmp_path: Path
) -> None:
    trace = tmp_path / "trace.jsonl"
    with running_front(tmp_path / "front", emulator_server.url, trace=trace) as front:
        env = client_env(front, tmp_path, TOKEN)
        for query in (_QUERY, _QUERY, _ASKING):
            proc = run(["gh", "api", "graphql", "-f", f"query={query}"], env)
            assert proc.returncode == 0, proc.stderr
    first, second, asking = rows(trace)
    charged = [e.cost for e in emulator.ledger_entries(resource="graphql")]
    # the first: no earlier reading in the window, so GitHub's published formula
    assert (first["graphqlCost"], first.get("graphqlCostEstimated")) == (1, True)
    # the second: the rise of x-ratelimit-used, what the emulator charged
    assert second["graphqlCost"] == charged[1] and "graphqlCostEstimated" not in second
    # asked for: the answer's own data.rateLimit
    assert asking["graphqlCost"] == charged[2] and asking["graphqlRemaining"] is not None
    assert {r["operation"] for r in (first, second, asking)} == {"graphql.viewer"}
