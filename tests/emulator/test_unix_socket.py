"""GitHub Enterprise Server's URL layout: REST under ``/api/v3``, GraphQL at ``/api/graphql``.

gh 2.23 builds ``https://HOST/api/v3/`` and ``https://HOST/api/graphql`` for every host
but github.com and github.localhost (cli/cli ``internal/ghinstance/host.go``). Through
HTTPS_PROXY that is a CONNECT tunnel, which the emulator refuses; gh's
``http_unix_socket`` setting instead dials every request, https URLs included, over a
unix socket without TLS, so the real gh reaches the emulator as an enterprise host.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from emu_helpers import TOKEN

from ghbench.emulator.client_env import gh_enterprise_environment, gh_environment
from ghbench.emulator.control_access import CONTROL_KEY_HEADER
from ghbench.emulator.core import Emulator
from ghbench.emulator.process import start_emulator_process
from ghbench.emulator.thread_server import EmulatorServer
from ghbench.emulator.transport import EmulatorTransport
from ghbench.errors import EmulatorError

HOST = "ghe.example.com"
PULLS = "GET /repos/{owner}/{repo}/pulls"


def client(emulator: Emulator, base: str) -> httpx.Client:
    return httpx.Client(
        transport=EmulatorTransport(emulator),
        base_url=base,
        headers={"Authorization": f"token {TOKEN}"},
    )


def test_rest_under_api_v3_is_the_same_call(emulator: Emulator) -> None:
    for head in ("feat/a", "feat/b"):
        emulator.create_pull("acme/todo", head)
    dotcom = client(emulator, f"http://{HOST}").get("/repos/acme/todo/pulls")
    ghes = client(emulator, f"http://{HOST}/api/v3").get("/repos/acme/todo/pulls")
    assert ghes.status_code == dotcom.status_code == 200
    # the same records; the URLs in the answer keep the layout the client used
    assert ghes.text == dotcom.text.replace(f"http://{HOST}/", f"http://{HOST}/api/v3/")
    assert ghes.json()[0]["url"] == f"http://{HOST}/api/v3/repos/acme/todo/pulls/2"
    assert [(e.endpoint, e.resource) for e in emulator.ledger_entries()] == [(PULLS, "core")] * 2
    assert int(ghes.headers["x-ratelimit-used"]) == int(dotcom.headers["x-ratelimit-used"]) + 1


def test_pages_etags_root_and_rate_limit_under_api_v3(emulator: Emulator) -> None:
    for head in ("feat/a", "feat/b"):
        emulator.create_pull("acme/todo", head)
    api = client(emulator, f"http://{HOST}/api/v3")
    page = api.get("/repos/acme/todo/pulls", params={"per_page": 1})
    assert f"<http://{HOST}/api/v3/repos/acme/todo/pulls?per_page=1&page=2>" in page.headers["link"]
    again = api.get(
        "/repos/acme/todo/pulls",
        params={"per_page": 1},
        headers={"If-None-Match": page.headers["etag"]},
    )
    assert again.status_code == 304
    assert api.get("").json()["rate_limit_url"] == f"http://{HOST}/api/v3/rate_limit"
    # the page and the root were charged; /rate_limit itself is free, as ever
    assert api.get("/rate_limit").json()["resources"]["core"]["used"] == 2
    assert client(emulator, f"http://{HOST}/api/v3x").get("/user").status_code == 404
    assert [e.endpoint for e in emulator.ledger_entries()] == [PULLS, "GET /", "GET (unknown)"]


def test_graphql_at_api_graphql_charges_the_graphql_bucket(emulator: Emulator) -> None:
    emulator.create_pull("acme/todo", "feat/a")
    api = client(emulator, f"http://{HOST}")
    query = (
        'query Probe { repository(owner: "acme", name: "todo") {'
        " pullRequests(first: 5) { nodes { number } } } rateLimit { used } }"
    )
    answer = api.post("/api/graphql", json={"query": query})
    assert answer.status_code == 200
    data = answer.json()["data"]
    assert data["repository"]["pullRequests"]["nodes"] == [{"number": 1}]
    assert answer.headers["x-ratelimit-resource"] == "graphql"
    assert data["rateLimit"]["used"] == int(answer.headers["x-ratelimit-used"]) == 1
    # GraphQL lives at /api/graphql only: a client that builds /api/v3/graphql gets a 404
    wrong = api.post("/api/v3/graphql", json={"query": query})
    assert wrong.status_code == 404 and wrong.headers["x-ratelimit-resource"] == "core"
    ledger = [(e.endpoint, e.resource, e.cost) for e in emulator.ledger_entries()]
    assert ledger == [("Probe", "graphql", 1), ("POST (unknown)", "core", 1)]


# -- the real gh over a unix socket ------------------------------------------------------


@dataclass
class Enterprise:
    server: EmulatorServer
    socket: Path
    emulator: Emulator


@pytest.fixture
def socket_dir() -> Iterator[Path]:
    # AF_UNIX paths are short (~107 bytes): pytest's tmp_path can be too long
    directory = Path(tempfile.mkdtemp(prefix="ghb-"))
    try:
        yield directory
    finally:
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def enterprise(emulator: Emulator, socket_dir: Path) -> Iterator[Enterprise]:
    path = socket_dir / "emu.sock"
    server = EmulatorServer(emulator, uds=path)
    server.start()
    try:
        yield Enterprise(server, path, emulator)
    finally:
        server.stop()


def _gh_env(socket_path: Path, home: Path, **extra: str) -> dict[str, str]:
    env = {"PATH": os.environ["PATH"], "LANG": "C.UTF-8"}  # the test's gh build first
    return env | gh_enterprise_environment(HOST, socket_path, TOKEN, home) | extra


def gh(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["gh", *args], env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.gh
def test_gh_as_an_enterprise_host_lists_prs_and_runs_graphql(
    enterprise: Enterprise, tmp_path: Path
) -> None:
    emulator = enterprise.emulator
    for head in ("feat/a", "feat/b"):
        emulator.create_pull("acme/todo", head)
    # gh ignores GH_TOKEN for an enterprise host: GH_ENTERPRISE_TOKEN is what it sends
    env = _gh_env(enterprise.socket, tmp_path / "home", GH_TOKEN="ghp_" + "x" * 36)
    listed = gh(env, "pr", "list", "-R", f"{HOST}/acme/todo")
    assert listed.returncode == 0, listed.stderr
    assert [line.split("\t")[0] for line in listed.stdout.splitlines()] == ["2", "1"]
    viewer = gh(env, "api", "graphql", "-f", "query=query Who { viewer { login } }")
    assert viewer.returncode == 0, viewer.stderr
    assert '"login":"octo"' in viewer.stdout
    paged = gh(env, "api", "--paginate", "repos/acme/todo/pulls?per_page=1", "--jq", ".[].number")
    assert paged.returncode == 0, paged.stderr
    assert paged.stdout.split() == ["2", "1"]  # the link header's next page, under /api/v3
    files = gh(env, "api", "repos/acme/todo/pulls/1/files", "--jq", ".[].filename")
    assert files.stdout.split() == ["notes/feat/a.md"]
    ledger = [(e.endpoint, e.resource, e.owner) for e in emulator.ledger_entries()]
    assert ledger == [
        ("PullRequestList", "graphql", "octo"),
        ("Who", "graphql", "octo"),
        (PULLS, "core", "octo"),
        (PULLS, "core", "octo"),
        ("GET /repos/{owner}/{repo}/pulls/{number}/files", "core", "octo"),
    ]


@pytest.mark.gh
def test_gh_to_an_enterprise_host_through_the_proxy_is_refused(
    emulator_server: Any, emulator: Emulator, tmp_path: Path
) -> None:
    url = emulator_server.url
    home = tmp_path / "home"
    env = {"PATH": os.environ["PATH"], "LANG": "C.UTF-8"}  # the test's gh build first
    env |= gh_environment(url, None, home) | {"GH_HOST": HOST, "GH_ENTERPRISE_TOKEN": TOKEN}
    for sub in (".config/gh", ".cache", "tmp"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    refused = gh(env, "pr", "list", "-R", f"{HOST}/acme/todo")
    assert refused.returncode == 1
    assert f'Post "https://{HOST}/api/graphql": Method Not Allowed' in refused.stderr
    assert emulator.request_count == 0  # the CONNECT never reached the API
    port = int(url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"CONNECT {HOST}:443 HTTP/1.1\r\nHost: {HOST}:443\r\n\r\n".encode())
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    assert reply.startswith(b"HTTP/1.1 405")
    assert b"http_unix_socket" in reply and HOST.encode() in reply


def test_a_unix_socket_that_exists_is_refused_and_ours_is_removed(
    emulator: Emulator, socket_dir: Path
) -> None:
    taken = socket_dir / "taken.sock"
    taken.write_text("")
    with pytest.raises(EmulatorError, match=r"taken\.sock: it exists and is not a socket"):
        EmulatorServer(emulator, uds=taken).start()
    ours = socket_dir / "emu.sock"
    with EmulatorServer(emulator, uds=ours) as server:
        assert ours.is_socket()
        with httpx.Client(transport=httpx.HTTPTransport(uds=str(ours))) as c:
            answer = c.get(f"http://{HOST}/api/v3/rate_limit")
        assert answer.status_code == 200 and server.port > 0
        with pytest.raises(EmulatorError, match="another process listens on it"):
            EmulatorServer(emulator, uds=ours).start()
    assert not ours.exists() and taken.read_text() == ""


# -- ghbench emulator serve --uds ---------------------------------------------------------


def _over(path: Path) -> httpx.Client:
    return httpx.Client(
        transport=httpx.HTTPTransport(uds=str(path)),
        base_url=f"http://{HOST}",
        headers={"Authorization": f"token {TOKEN}"},
    )


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "ghbench", "emulator", "serve", *args]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60)


@pytest.mark.gh
@pytest.mark.slow
def test_serve_uds_lets_gh_reach_it_as_an_enterprise_host(socket_dir: Path, tmp_path: Path) -> None:
    path = socket_dir / "emu.sock"
    env = _gh_env(path, tmp_path / "home")
    state = tmp_path / "state"
    with start_emulator_process(state, tokens=[TOKEN], repos=["acme/todo"], uds=path) as first:
        line = first.ready_line
        assert line.startswith(f"ghbench emulator listening on {first.url} and unix socket {path} ")
        assert f"gh config set http_unix_socket {path}," in line and TOKEN[:8] not in line
        with _over(path) as control:  # the control API answers on the socket too
            for head in ("feat/a", "feat/b"):
                made = control.post(
                    "http://localhost/_ghbench/repos/acme/todo/pulls",  # a loopback Host
                    json={"head": head},
                    headers={CONTROL_KEY_HEADER: first.control_key},
                )
                assert made.status_code == 200, made.text
        listed = gh(env, "pr", "list", "-R", f"{HOST}/acme/todo")
        assert listed.returncode == 0, listed.stderr
        assert [row.split("\t")[0] for row in listed.stdout.splitlines()] == ["2", "1"]
        first.kill()  # SIGKILL: no cleanup, so the socket file is left behind, stale
    assert path.is_socket()
    with start_emulator_process(state, tokens=[TOKEN], uds=path) as again:  # stale: replaced
        viewed = gh(env, "pr", "view", "2", "-R", f"{HOST}/acme/todo", "--json", "headRefName")
        assert viewed.returncode == 0, viewed.stderr
        assert json.loads(viewed.stdout) == {"headRefName": "feat/b"}
        key = {CONTROL_KEY_HEADER: again.control_key}
        ledger = httpx.get(f"{again.url}/_ghbench/ledger", headers=key).json()["entries"]
        assert [(e["endpoint"], e["resource"]) for e in ledger] == [
            ("PullRequestList", "graphql"),
            ("PullRequestByNumber", "graphql"),
        ]
        assert again.stop() == 0  # SIGTERM to the group: a clean exit...
    assert not path.exists()  # ...that removes the socket file


@pytest.mark.slow
def test_serve_uds_removes_its_socket_on_ctrl_c(socket_dir: Path) -> None:
    path = socket_dir / "emu.sock"
    with start_emulator_process(tokens=[TOKEN], repos=["acme/todo"], uds=path) as proc:
        with _over(path) as api:
            assert api.get("/api/v3/repos/acme/todo").json()["full_name"] == "acme/todo"
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C sends the terminal's foreground group
        assert proc.process.wait(timeout=30) == 0
        assert not path.exists()


@pytest.mark.slow
def test_serve_uds_refuses_a_path_it_must_not_take(socket_dir: Path) -> None:
    missing = socket_dir / "no-such-dir" / "emu.sock"
    refused = _serve("--uds", str(missing))
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr == (
        f"error: --uds {missing}: its directory {missing.parent} does not exist; "
        "create it or choose another path\n"
    )
    regular = socket_dir / "notes.txt"
    regular.write_text("keep me")
    refused = _serve("--uds", str(regular))
    assert refused.returncode == 2
    assert refused.stderr == (
        f"error: --uds {regular}: it exists and is not a socket; remove it or choose another path\n"
    )
    assert regular.read_text() == "keep me"
    live = socket_dir / "live.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(str(live))
        listener.listen(8)
        refused = _serve("--uds", str(live))
        assert refused.returncode == 2
        assert refused.stderr.startswith(f"error: --uds {live}: another process listens on it")
        assert live.is_socket()  # not removed: it is someone else's
