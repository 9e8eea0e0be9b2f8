"""ghbench.front.proxy, the front's server, under abuse over real sockets: strangers
(another uid included), bytes pipelined behind a CONNECT, abandoned and idle tunnels,
oversized heads, a client that leaves mid-answer, hundreds of agents that do not trust
the CA, too many connections, TLS sessions resumed; and all of it at once, after which
every row of the trace is what happened and the front still answers. Time limits are the
front's own deadlines (five seconds here: short, but long enough for a handshake on a
busy machine); how fast it answers after the battery is measured by
``bench/bench_front.py --hostile``, not asserted."""

from __future__ import annotations

import json
import os
import re
import secrets
import socket
import ssl
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tooling.front_abuse import (
    TIMEOUT_S,
    abandon,
    big_answer_then_leave,
    connect_request,
    distrusting_client,
    get,
    hostile_battery,
    idle,
    open_tunnel,
    oversized,
    pipelined,
    read_head,
    wait_until,
)

from ghbench.clock import SystemClock
from ghbench.emulator.core import Emulator
from ghbench.emulator.thread_server import EmulatorServer
from ghbench.front import Front, FrontSettings, start_front
from tools import GH_BUILDS, GhBuild, require_gh, require_tool

from .front_helpers import TOKEN, client_env, rows, run, running_front, traced

BIG = 16 << 20  # larger than every socket buffer between the front and a client


@pytest.fixture(scope="module")
def front(
    _shared_server: tuple[EmulatorServer, Any], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Front]:
    server, _ = _shared_server
    state = tmp_path_factory.mktemp("front")
    with running_front(state, server.url, head_timeout=5.0) as running:
        yield running


def _secret(front: Front) -> str:
    assert front.settings.secret is not None
    return front.settings.secret


def _operations(trace: Path) -> Counter[str]:
    return Counter(r["operation"] for r in rows(trace))


def test_a_clienthello_in_the_connects_write_and_pipelined_requests(
    front: Front, trace: Path
) -> None:
    first, second = pipelined(front.port, _secret(front), front.ca_cert)
    assert first.startswith(b"HTTP/1.1 200") and b'"resources"' in first
    assert second.startswith(b"HTTP/1.1 200") and b'"full_name":"acme/todo"' in second
    got = rows(trace)
    assert [(r["operation"], r["httpStatus"], r["ok"]) for r in got] == [
        ("rest.rate_limit", 200, True),
        ("rest.repos", 200, True),
    ]


@pytest.mark.slow
def test_an_abandoned_tunnel_is_its_own_row_and_no_ca_warning(front: Front, trace: Path) -> None:
    abandon(front.port, _secret(front))
    assert idle(front.port, _secret(front), after_connect=True).startswith(b"HTTP/1.1 200")
    wait_until(lambda: front.status().abandoned == 2, "two abandoned tunnels")
    counts = front.status()
    assert (counts.failed_handshakes, counts.warnings) == (0, [])
    got = rows(trace)
    assert [r["operation"] for r in got] == ["front.tunnel-abandoned"] * 2
    # the CONNECT's own answer: not a call of unknown outcome
    assert {(r["method"], r["httpStatus"], r["ok"]) for r in got} == {("CONNECT", 200, False)}
    summary = subprocess.run(
        [sys.executable, "-m", "ghbench", "summarize", "--json", str(trace)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(summary.stdout)["opaque"] == 0


@pytest.mark.slow
def test_a_head_that_does_not_come_is_cut_at_the_deadline(front: Front, trace: Path) -> None:
    assert idle(front.port, _secret(front), after_connect=False) == b""
    counts = front.status()
    assert not counts.reached and rows(trace) == []


@pytest.mark.slow
def test_a_head_trickled_a_line_at_a_time_is_cut_at_its_deadline(front: Front, trace: Path) -> None:
    """Each line re-arming the deadline would hold the connection for ever (64 KiB at
    a line a fifth of a second); the deadline runs from the head's first byte."""
    with socket.create_connection(("127.0.0.1", front.port), timeout=TIMEOUT_S) as sock:
        sock.sendall(b"CONNECT api.github.com:443 HTTP/1.1\r\n")
        sock.settimeout(0.2)
        closed, lines = False, 0
        while not closed and lines < 60 * 5:  # a minute: far past the 5 s deadline
            try:
                closed = sock.recv(65536) == b""
            except TimeoutError:
                lines += 1
                try:
                    sock.sendall(b"X-Slow: a\r\n")
                except OSError:
                    closed = True
        assert closed, "the front kept a trickled head open for a minute"
    assert rows(trace) == []


def test_an_oversized_head_is_431(front: Front, trace: Path) -> None:
    outside = oversized(front.port, _secret(front), front.ca_cert, inside=False)
    inside = oversized(front.port, _secret(front), front.ca_cert, inside=True)
    assert outside.startswith(b"HTTP/1.1 431 ") and inside.startswith(b"HTTP/1.1 431 ")
    # before the CONNECT no credential was read: no row; inside the tunnel, a refusal
    (row,) = rows(trace)
    assert (row["operation"], row["httpStatus"], row["endpoint"]) == (
        "front.refused",
        431,
        "api.github.com:443",
    )


def test_a_client_that_leaves_mid_answer_gets_a_row_that_says_so(
    front: Front, trace: Path, emulator: Emulator
) -> None:
    emulator.push("acme/todo", "main", files={"big.txt": secrets.token_hex(BIG // 2)})
    read = big_answer_then_leave(
        front.port, _secret(front), front.ca_cert, "/repos/acme/todo/contents/big.txt"
    )
    wait_until(lambda: front.status().client_aborts == 1, "the client's leaving")
    (row,) = rows(trace)
    assert row["operation"] == "rest.repos.contents" and row["httpStatus"] == 200
    assert row["ok"] is False and row["clientClosed"] is True
    # what its connection had taken when it broke: more than it read, far from all
    assert read <= row["responseBytes"] < BIG


@pytest.mark.slow
def test_three_hundred_agents_that_distrust_the_ca_are_one_warning(
    front: Front, trace: Path
) -> None:
    agents = [f"agent-{i}/1.0 \xe9\xff" + "x" * 300 for i in range(300)]
    for agent in agents:
        distrusting_client(front.port, _secret(front), agent)
    wait_until(lambda: front.status().failed_handshakes == 300, "300 failed handshakes")
    (warning,) = front.status().warnings
    assert "ended in the client's alert" in warning and "seen 300 times" in warning
    assert "\xe9" not in warning  # printable, and cut
    assert re.search(r"; e\.g\. agent-\d+/1\.0 \?\?x{60,}…, agent-", warning), warning
    assert len(warning) < 1000
    assert _operations(trace) == Counter({"front.tls-handshake": 300})


def test_a_stranger_without_the_secret_gets_407_and_no_row(front: Front, trace: Path) -> None:
    for secret in (None, "not-the-secret"):
        with socket.create_connection(("127.0.0.1", front.port), timeout=TIMEOUT_S) as sock:
            sock.sendall(connect_request(secret))
            head, _ = read_head(sock)
        assert head.startswith(b"HTTP/1.1 407 ")
        assert b'proxy-authenticate: Basic realm="ghbench front"' in head
    with socket.create_connection(("127.0.0.1", front.port), timeout=TIMEOUT_S) as sock:
        sock.sendall(get("http://api.github.com/rate_limit"))  # plain HTTP, absolute form
        assert read_head(sock)[0].startswith(b"HTTP/1.1 407 ")
    counts = front.status()
    assert (counts.unauthorized, counts.exchanges, counts.reached) == (3, 0, False)
    assert rows(trace) == []


def _as_nobody(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    if os.geteuid() != 0:
        pytest.skip("acting as another uid needs root (CI runs as root)")
    setpriv = require_tool("setpriv")
    who = ["--reuid=65534", "--regid=65534", "--clear-groups"]
    return subprocess.run(
        [setpriv, *who, *argv], env=env, capture_output=True, text=True, timeout=TIMEOUT_S
    )


@pytest.mark.needs("curl")
def test_another_uid_cannot_use_a_running_front(front: Front, trace: Path, tmp_path: Path) -> None:
    env = client_env(front, tmp_path, TOKEN)
    # the run's own client, holding the proxy URL, gets through
    assert (
        run(
            ["curl", "-sSf", "-o", "/dev/null", "https://api.github.com/rate_limit"], env
        ).returncode
        == 0
    )
    # another user knows the port and a session's name, not the secret
    stranger = {"PATH": env["PATH"], "HOME": "/tmp"}
    for proxy in (f"http://127.0.0.1:{front.port}", f"http://s-1:-@127.0.0.1:{front.port}"):
        for url in ("https://api.github.com/rate_limit", "http://api.github.com/rate_limit"):
            argv = ["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-x", proxy, "-k", url]
            proc = _as_nobody(argv, stranger)
            assert proc.returncode != 0 or proc.stdout == "407", (proc.stdout, proc.stderr)
            assert "407" in proc.stdout + proc.stderr
    # nor can it read the secret from the run's clients
    holder = subprocess.Popen(["sleep", "60"], env=env)
    try:
        peek = _as_nobody(["cat", f"/proc/{holder.pid}/environ"], stranger)
        assert peek.returncode != 0 and _secret(front) not in peek.stdout
    finally:
        holder.kill()
        holder.wait()
    counts = front.status()
    assert (counts.exchanges, counts.unauthorized) == (1, 4)
    assert [r["operation"] for r in rows(trace)] == ["rest.rate_limit"]


_STRANGERS = {
    "curl": (["curl", "-sS", "https://api.github.com/rate_limit"], "curl"),
    "git": (["git", "ls-remote", "https://github.com/acme/todo"], "git"),
    **{
        f"gh-{build.version}": ([str(build.path), "api", "rate_limit"], build)
        for build in GH_BUILDS
    },
    "python": (
        [
            "/usr/bin/python3",
            "-c",
            "import urllib.request as u; u.urlopen('https://api.github.com/rate_limit')",
        ],
        "python3",
    ),
}


@pytest.mark.parametrize("client", sorted(_STRANGERS))
def test_another_uids_real_clients_are_refused(client: str, front: Front, trace: Path) -> None:
    """gh, git, curl and Python's urllib of another user, who knows the port and a
    session's label: 407, and no row."""
    argv, program = _STRANGERS[client]
    if isinstance(program, GhBuild):
        require_gh(program)
    else:
        require_tool(program)
    proxy = f"http://s-1:-@127.0.0.1:{front.port}"
    with tempfile.TemporaryDirectory(prefix="ghbench-nobody-") as home:  # outside ours
        if os.geteuid() == 0:
            os.chown(home, 65534, 65534)
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": home,
            "GH_TOKEN": TOKEN,
            "GH_PROMPT_DISABLED": "1",
            **dict.fromkeys(("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"), proxy),
        }
        proc = _as_nobody(argv, env)
    said = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert "407" in said or "proxy credential required" in said, said  # gh shows the reason
    counts = front.status()
    assert counts.unauthorized >= 1 and counts.exchanges == 0  # git asks twice
    assert rows(trace) == []


def test_past_its_connection_limit_a_client_is_answered_503(
    emulator_server: Any, tmp_path: Path
) -> None:
    settings = FrontSettings(
        mode="emulate",
        state_dir=str(tmp_path / "front"),
        upstream=emulator_server.url,
        max_connections=2,
        workers=1,  # the limit is each worker's share: one worker holds all of it
    )
    with start_front(settings) as front:
        held = []
        for _ in range(2):  # CONNECTed and answered: the front holds them
            sock = socket.create_connection(("127.0.0.1", front.port), timeout=TIMEOUT_S)
            sock.sendall(connect_request(_secret(front)))
            assert read_head(sock)[0].startswith(b"HTTP/1.1 200")
            held.append(sock)
        with socket.create_connection(("127.0.0.1", front.port), timeout=TIMEOUT_S) as third:
            third.sendall(connect_request(_secret(front)))
            assert read_head(third)[0].startswith(b"HTTP/1.1 503 ghbench front: at its limit of 2")
        for sock in held:
            sock.close()
        wait_until(lambda: front.status().abandoned == 2, "the held tunnels' end")
        tunnel = open_tunnel(front.port, _secret(front), front.ca_cert)  # room again
        tunnel.send(get("/rate_limit", close=True))
        assert tunnel.answer().startswith(b"HTTP/1.1 200")
        tunnel.close()
        (warning,) = front.status().warnings
        assert warning.startswith("ghbench front: at its limit of 2 connections")


def test_a_client_that_reconnects_resumes_its_tls_session(front: Front, trace: Path) -> None:
    context = ssl.create_default_context(cafile=str(front.ca_cert))
    session = None
    resumed = []
    for _ in range(2):
        raw = socket.create_connection(("127.0.0.1", front.port), timeout=TIMEOUT_S)
        raw.sendall(connect_request(_secret(front)))
        assert read_head(raw)[0].startswith(b"HTTP/1.1 200")
        with context.wrap_socket(raw, server_hostname="api.github.com", session=session) as tls:
            tls.sendall(get("/rate_limit", close=True))
            while tls.recv(65536):
                pass
            resumed.append(tls.session_reused)
            session = tls.session
    assert resumed == [False, True]
    assert _operations(trace) == Counter({"rest.rate_limit": 2})


@pytest.mark.slow
def test_a_hostile_battery_leaves_a_true_trace_and_a_front_that_answers(
    front: Front, trace: Path, emulator: Emulator, tmp_path: Path
) -> None:
    emulator.push("acme/todo", "main", files={"big.txt": secrets.token_hex(BIG // 2)})
    expected = hostile_battery(
        front.port,
        _secret(front),
        front.ca_cert,
        big_target="/repos/acme/todo/contents/big.txt",
    )
    wait_until(lambda: _operations(trace) == expected, f"the rows {dict(expected)}")
    counts = front.status()
    assert (counts.failed_handshakes, counts.abandoned, counts.unauthorized) == (300, 2, 1)
    assert (counts.client_aborts, counts.refused, counts.rows_lost) == (1, 1, 0)
    assert len(counts.warnings) == 2  # the CA (300 agents) and the stranger, one line each
    for row in rows(trace):
        operation = row["operation"]
        if operation.startswith("front.tunnel") or operation == "front.tls-handshake":
            assert (row["method"], row["httpStatus"], row["ok"]) == ("CONNECT", 200, False)
        elif operation == "front.refused":
            assert (row["httpStatus"], row["ok"]) == (431, False)
        elif operation == "rest.repos.contents":
            assert (row["ok"], row["clientClosed"]) == (False, True)
        else:
            assert row["ok"] is True and row["httpStatus"] == 200 and "clientClosed" not in row
    # and it still answers a real client
    env = client_env(front, tmp_path, TOKEN)
    ok = run(["curl", "-sSf", "-o", "/dev/null", "https://api.github.com/rate_limit"], env)
    assert ok.returncode == 0, ok.stderr


def test_a_client_that_leaves_before_its_answer_came_gets_a_row_that_says_so(
    front: Front, serve: Callable[[Emulator], str], tmp_path: Path
) -> None:
    # An emulator on the wall clock, whose injected latency is real: its answer comes 3 s
    # after the request, when the front has long read the leaving, even on a loaded
    # machine. (The fixture's emulator runs on virtual time, where latency only moves its
    # clock: the answer came at once, and now and then reached the front before the
    # leaving did, so the front relayed it whole.)
    emulator = Emulator(clock=SystemClock(), seed=1)
    emulator.create_user("octo", [TOKEN])
    emulator.create_repo("acme/todo")
    emulator.set_faults(latency="fixed", latency_ms=3000.0)
    serve(emulator)
    with traced(front, tmp_path) as trace:
        tunnel = open_tunnel(front.port, _secret(front), front.ca_cert)
        try:
            tunnel.send(get("/repos/acme/todo"))
            tunnel.leave()  # before any answer
            wait_until(lambda: front.status().client_aborts == 1, "the client's leaving")
        finally:
            tunnel.close()
    (row,) = rows(trace)
    assert (row["operation"], row["httpStatus"]) == ("rest.repos", 200)  # GitHub answered
    assert row["durationMs"] >= 3000  # the latency was real
    assert (row["ok"], row["clientClosed"], row["responseBytes"]) == (False, True, 0)
