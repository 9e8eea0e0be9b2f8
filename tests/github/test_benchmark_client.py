"""The control client against the real emulator over a socket: answers, counting, retries."""

import http.server
import socket
import threading
from typing import Any

import httpx
import pytest

from ghbench.clock import VirtualClock
from ghbench.errors import GitHubError
from ghbench.github.benchmark_client import BenchmarkClient


def _client(server: Any) -> BenchmarkClient:
    return BenchmarkClient(server.url, server.token, VirtualClock())


def test_rate_limit_snapshot_is_free_and_counted(emulator_server: Any) -> None:
    with _client(emulator_server) as control:
        first = control.rate_limit()
        second = control.rate_limit()
        assert control.calls == 2
    for snap in (first, second):
        core = snap.get("core")
        assert core is not None and core.limit == 5000
        assert snap.get("graphql") is not None
    assert first.resources["core"].remaining == second.resources["core"].remaining
    assert emulator_server.emulator.ledger_entries() == []


def test_open_prs_by_branch_and_pr_state(emulator_server: Any) -> None:
    emu = emulator_server.emulator
    one = emu.create_pull("acme/todo", "feat/issue-1", title="one")
    two = emu.create_pull("acme/todo", "feat/issue-2", title="two")
    with httpx.Client(base_url=emulator_server.url) as raw:
        closed = raw.patch(
            f"/repos/acme/todo/pulls/{two}",
            json={"state": "closed"},
            headers={"Authorization": f"token {emulator_server.token}"},
        )
        assert closed.status_code == 200
    with _client(emulator_server) as control:
        found = control.open_pull_requests("acme/todo")
        assert set(found) == {"feat/issue-1"}
        assert found["feat/issue-1"].number == one
        assert found["feat/issue-1"].url.endswith(f"/acme/todo/pull/{one}")
        assert control.pr_state("acme/todo", one) == "OPEN"
        assert control.pr_state("acme/todo", two) == "CLOSED"
        assert control.pr_state("acme/todo", 999) == "MISSING"
        assert control.calls == 4


def test_bad_token_is_a_clear_error_without_the_token(emulator_server: Any) -> None:
    secret = "ghp_not_a_known_token_123"
    control = BenchmarkClient(emulator_server.url, secret, VirtualClock())
    with control, pytest.raises(GitHubError) as info:
        control.rate_limit()
    assert "401" in str(info.value)
    assert secret not in str(info.value)


def test_unreachable_api_is_retried_then_fails() -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    clock = VirtualClock()
    start = clock.now()
    with BenchmarkClient(f"http://127.0.0.1:{port}", "t", clock, attempts=3) as control:
        with pytest.raises(GitHubError, match="failed after 3 attempts"):
            control.rate_limit()
        assert control.calls == 3
    # a backoff between attempts, none after the last: it would only delay the error
    assert clock.now() - start == pytest.approx(1 + 2)


class _Unavailable(http.server.BaseHTTPRequestHandler):
    """Every request: 503 with ``retry-after: 60``, as GitHub answers when overloaded."""

    def do_GET(self) -> None:
        self.send_response(503)
        self.send_header("retry-after", "60")
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        return None


def test_retry_after_is_waited_between_attempts_and_not_after_the_last() -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Unavailable)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    clock = VirtualClock()
    start = clock.now()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        with BenchmarkClient(url, "t", clock, attempts=2) as control:
            with pytest.raises(GitHubError, match=r"failed after 2 attempts \(HTTP 503\)"):
                control.rate_limit()
            assert control.calls == 2
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
    assert clock.now() - start == pytest.approx(60)
