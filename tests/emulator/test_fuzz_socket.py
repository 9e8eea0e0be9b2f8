"""The emulator's HTTP front over a real socket: whatever bytes arrive, the server
answers with a status below 500 or closes the connection, never hangs, and keeps
serving everyone else (issue 12, "fuzzing in the suite").

Two properties: arbitrary request heads (a request line and headers made of any
bytes, with or without a body) sent raw; and well-formed requests with random
methods, targets, headers and bodies through httpx, on one kept-alive connection.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator

import httpx
import pytest
from emu_helpers import TOKEN, new_emulator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ghbench.emulator.thread_server import EmulatorServer
from ghbench.tls import tls_context

_WAIT_S = 5.0  # an answer or a close: no request is left hanging for longer
_TLS = tls_context()  # httpx builds one per client otherwise: ~37 ms for each example


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    emulator = new_emulator()
    emulator.set_limit("core", 10**9)
    emulator.set_secondary(enabled=False)
    emulator.create_pull("acme/todo", "feat/x")
    with EmulatorServer(emulator) as running:
        yield running


def _raw_exchange(server: EmulatorServer, data: bytes) -> bytes:
    """Send ``data``, half-close, read until the server closes (or has answered)."""
    host, port = server.url.removeprefix("http://").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=_WAIT_S) as conn:
        conn.sendall(data)
        conn.shutdown(socket.SHUT_WR)
        received = b""
        while chunk := conn.recv(65536):
            received += chunk
        return received


def _still_serving(server: EmulatorServer) -> None:
    answer = httpx.get(
        f"{server.url}/rate_limit", headers={"Authorization": f"token {TOKEN}"}, verify=_TLS
    )
    assert answer.status_code == 200


_TOKENS = st.sampled_from(
    [b"GET", b"POST", b" ", b"/", b"\r\n", b"\n", b"HTTP/1.1", b"HTTP/9.9", b"Host:", b":",
     b"Content-Length: ", b"-1", b"99999999999999999999", b"Transfer-Encoding: chunked",
     b"\x00", b"\xff", b"%", b"%zz", b"/graphql", b"/repos/acme/todo/pulls", b"?", b"&",
     b"Authorization: token ", TOKEN.encode(), b"0\r\n\r\n", b"{", b"}"]
)  # fmt: skip
_HEADS = st.lists(st.one_of(_TOKENS, st.binary(max_size=12)), max_size=40).map(b"".join)


@pytest.mark.slow
@settings(
    max_examples=100, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
@given(_HEADS)
def test_any_bytes_get_an_answer_below_500_or_a_close(server: EmulatorServer, data: bytes) -> None:
    received = _raw_exchange(server, data)
    if received:
        status_line = received.split(b"\r\n", 1)[0]
        assert status_line.startswith(b"HTTP/1.1 "), status_line
        assert int(status_line.split()[1]) < 500, received[:300]
    _still_serving(server)


_SEGMENTS = st.sampled_from(
    ["repos", "acme", "todo", "pulls", "issues", "1", "2", "commits", "main", "status",
     "compare", "main...feat/x", "graphql", "rate_limit", "user", "search", "labels",
     "%2F", "%00", "..", "", "ü", "x" * 300, "_ghbench", "api", "v3"]
)  # fmt: skip
_HEADERS = st.dictionaries(
    st.sampled_from(
        ["Accept", "Content-Type", "If-None-Match", "X-GitHub-Api-Version", "Origin",
         "Authorization", "Range", "If-Modified-Since", "X-Ghbench-Control-Key"]
    ),
    # printable ASCII; h11 refuses to send a value with whitespace at either end
    st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=40).map(
        str.strip
    ),
    max_size=4,
)  # fmt: skip
_BODIES = st.one_of(
    st.binary(max_size=200),
    st.sampled_from(
        [b'{"query": "{ viewer { login } }"}', b'{"query": 1}', b'{"title": "t", "head": "x"}',
         b"[" * 5000, b'{"query": "' + b"{a" * 3000 + b'"}', b"null"]
    ),
)  # fmt: skip


_REQUESTS = st.tuples(
    st.sampled_from(["GET", "POST", "PATCH", "PUT", "DELETE", "HEAD", "OPTIONS"]),
    st.lists(_SEGMENTS, max_size=6).map(lambda parts: "/" + "/".join(parts)),
    st.sampled_from(["", "?per_page=1", "?page=0", "?q=((((", "?per_page=1e9", "?state=%ff"]),
    _HEADERS,
    _BODIES,
    st.booleans(),
)


@pytest.mark.slow
@settings(
    max_examples=100, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
@given(_REQUESTS)
def test_well_formed_requests_never_get_a_server_error(
    server: EmulatorServer, sent: tuple[str, str, str, dict[str, str], bytes, bool]
) -> None:
    method, path, query, headers, body, authorized = sent
    if authorized:
        headers = {**headers, "Authorization": f"token {TOKEN}"}
    if path.startswith("/_ghbench/reset"):
        return  # the module's emulator is shared
    with httpx.Client(base_url=server.url, timeout=_WAIT_S, verify=_TLS) as client:
        answer = client.request(method, path + query, headers=headers, content=body)
    assert answer.status_code < 500, (method, path, query, answer.status_code, answer.text[:300])
    _still_serving(server)
