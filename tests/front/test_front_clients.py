"""Real clients through the front in emulate mode, each with the variable it reads:
gh with its default host (SSL_CERT_FILE), git over https (GIT_SSL_CAINFO), curl
(CURL_CA_BUNDLE), httpx and urllib (SSL_CERT_FILE), PyGithub (REQUESTS_CA_BUNDLE),
octokit (NODE_EXTRA_CA_CERTS), Node's fetch and https (the preload in NODE_OPTIONS).
One front serves the module (its trace switched per test); the emulator behind it is
each test's own, plugged into the session's server."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ghbench.emulator.core import Emulator
from ghbench.emulator.thread_server import EmulatorServer
from ghbench.front import Front

from .front_helpers import (
    NODE_DIR,
    SYSTEM_BUNDLE,
    TOKEN,
    client_env,
    need_node,
    python_client,
    rows,
    run,
    running_front,
)

REPO = "acme/todo"


@pytest.fixture(scope="module")
def front(
    _shared_server: tuple[EmulatorServer, Any], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Front]:
    server, _ = _shared_server
    with running_front(tmp_path_factory.mktemp("front"), server.url) as running:
        yield running


def _no_secret(trace: Path) -> None:
    text = trace.read_text()
    assert TOKEN not in text
    assert "authorization" not in text.lower()


@pytest.mark.gh
@pytest.mark.slow
def test_gh_with_its_default_host(
    front: Front, trace: Path, emulator: Emulator, tmp_path: Path
) -> None:
    emulator.create_pull(REPO, "feat/a", title="Feature A", author="octo")
    env = client_env(front, tmp_path, TOKEN, session="s-1")
    assert "GH_HOST" not in env
    listed = run(["gh", "pr", "list", "--repo", REPO], env)
    assert listed.returncode == 0, listed.stderr
    assert "Feature A" in listed.stdout
    api = run(["gh", "api", f"repos/{REPO}/pulls/1", "--jq", ".url"], env)
    assert (
        api.stdout.strip() == f"https://api.github.com/repos/{REPO}/pulls/1"
    )  # https: X-Forwarded-Proto
    got = rows(trace)
    assert {r["component"] for r in got} == {"gh"}
    assert {r["sessionId"] for r in got} == {"s-1"}
    graphql = [r for r in got if r["endpoint"] == "graphql"]
    assert graphql and all(r["graphqlCost"] >= 1 for r in graphql)
    assert graphql[0]["operation"] == "graphql.PullRequestList"
    rest = [r for r in got if r["endpoint"] == f"repos/{REPO}/pulls/1"]
    assert rest[0]["operation"] == "rest.repos.pulls"
    assert rest[0]["rateLimitResource"] == "core" and rest[0]["etag"]
    assert all(r["origin"] == "front" and r["httpStatus"] == 200 for r in got)
    # each row is one charge in the emulator's ledger, and nothing else was charged
    assert emulator.ledger_count() == len(got)
    _no_secret(trace)


@pytest.mark.needs("git")
@pytest.mark.slow
def test_git_clone_fetch_and_push_of_github_com(
    front: Front, trace: Path, emulator: Emulator, tmp_path: Path
) -> None:
    env = client_env(front, tmp_path, TOKEN, session="s-2")
    work = tmp_path / "work"
    cloned = run(["git", "clone", f"https://github.com/{REPO}", str(work)], env)
    assert cloned.returncode == 0, cloned.stderr
    assert run(["git", "commit", "--allow-empty", "-m", "x"], env, work).returncode == 0
    pushed = run(["git", "push", "origin", "HEAD:refs/heads/feat/b"], env, work)
    assert pushed.returncode == 0, pushed.stderr
    assert run(["git", "fetch", "origin"], env, work).returncode == 0
    repo = emulator.store.repo("acme", "todo")
    assert repo is not None and emulator.store.branch_sha(repo, "feat/b") is not None
    got = rows(trace)
    operations = {r["operation"] for r in got}
    assert operations == {"git.info-refs", "git.upload-pack", "git.receive-pack"}
    assert {r["component"] for r in got} == {"git"}
    assert {r["sessionId"] for r in got} == {"s-2"}
    assert not any("rateLimitResource" in r for r in got)  # git is free
    assert emulator.ledger_count() == 0
    _no_secret(trace)


@pytest.mark.needs("curl")
def test_curl_with_its_bundle_and_without(front: Front, trace: Path, tmp_path: Path) -> None:
    env = client_env(front, tmp_path, TOKEN)
    url = f"https://api.github.com/repos/{REPO}"
    ok = run(["curl", "-sS", "-H", f"Authorization: token {TOKEN}", url], env)
    assert ok.returncode == 0 and '"full_name":"acme/todo"' in ok.stdout
    untrusting = env | {"CURL_CA_BUNDLE": str(SYSTEM_BUNDLE)}
    failed = run(["curl", "-sS", url], untrusting)
    assert failed.returncode != 0
    counts = front.status()
    assert counts.exchanges == 1 and counts.failed_handshakes == 1
    (warning,) = counts.warnings
    assert warning.startswith("TLS with the front for api.github.com ended in the client's alert")
    assert f"CURL_CA_BUNDLE={front.bundle}" in warning and re.search(r"\(curl/[\w.-]+\)$", warning)
    got = rows(trace)
    assert [r["operation"] for r in got] == ["rest.repos", "front.tls-handshake"]
    assert got[1]["ok"] is False and got[1]["endpoint"] == "api.github.com:443"
    # the CONNECT's own answer: not a call of unknown outcome
    assert got[1]["httpStatus"] == 200
    assert got[0]["component"] == got[1]["component"] == "curl"
    _no_secret(trace)


_PYTHON_CLIENTS = """
import json, os, urllib.request
import httpx
from github import Auth, Github
token = os.environ["GH_TOKEN"]
url = "https://api.github.com/repos/acme/todo"
headers = {"Authorization": f"token {token}"}
out = {"httpx": httpx.get(url, headers=headers).json()["full_name"]}
with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as answer:
    out["urllib"] = json.load(answer)["full_name"]
out["pygithub"] = Github(auth=Auth.Token(token), retry=None).get_repo("acme/todo").full_name
print(json.dumps(out))
"""


@pytest.mark.slow
def test_python_clients(front: Front, trace: Path, tmp_path: Path) -> None:
    proc = python_client(client_env(front, tmp_path, TOKEN, session="py"), _PYTHON_CLIENTS)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == (
        '{"httpx": "acme/todo", "urllib": "acme/todo", "pygithub": "acme/todo"}'
    )
    got = rows(trace)
    assert [r["component"] for r in got] == ["python", "python", "pygithub"]
    assert {r["sessionId"] for r in got} == {"py"}
    _no_secret(trace)


@pytest.mark.slow
def test_octokit(front: Front, trace: Path, emulator: Emulator, tmp_path: Path) -> None:
    node = need_node()
    emulator.create_pull(REPO, "feat/a", title="Feature A", author="octo")
    env = client_env(front, tmp_path, TOKEN) | {"GHBENCH_TOKEN": TOKEN}
    proc = run([node, str(NODE_DIR / "octokit_front.mjs")], env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == ('{"repos.get":"acme/todo","pulls.list":[1],"graphql":"octo"}')
    got = rows(trace)
    assert [r["operation"] for r in got] == ["rest.repos", "rest.repos.pulls", "graphql.viewer"]
    assert {r["component"] for r in got} == {"octokit"}
    _no_secret(trace)


_URLLIB_ELSEWHERE = """
import urllib.request
try:
    urllib.request.urlopen("https://example.com/")
except OSError as exc:
    print(exc)
"""


def test_a_host_that_is_not_githubs_is_refused_with_a_reason(
    front: Front, trace: Path, tmp_path: Path
) -> None:
    proc = python_client(client_env(front, tmp_path, TOKEN, session="s-3"), _URLLIB_ELSEWHERE)
    assert "Tunnel connection failed: 403 ghbench front (emulate) serves only GitHub's hosts" in (
        proc.stdout
    )
    assert "codeload.github.com), not example.com" in proc.stdout
    (row,) = rows(trace)
    assert row["operation"] == "front.refused" and row["httpStatus"] == 403
    assert row["endpoint"] == "example.com:443" and row["sessionId"] == "s-3"
    assert front.status().refused == 1


@pytest.mark.needs("curl")
def test_each_session_is_told_apart_by_its_credential(
    front: Front, trace: Path, tmp_path: Path
) -> None:
    for session in ("alpha", "beta"):
        env = client_env(front, tmp_path / session, TOKEN, session=session)
        proc = run(["curl", "-sS", "-o", "/dev/null", "https://api.github.com/rate_limit"], env)
        assert proc.returncode == 0, proc.stderr
    assert [r["sessionId"] for r in rows(trace)] == ["alpha", "beta"]


@pytest.mark.needs("node")
def test_node_fetch_and_https_carry_their_session(
    front: Front, trace: Path, tmp_path: Path
) -> None:
    # Debian's Node 20 through the preload client_env puts in NODE_OPTIONS: the proxy
    # credential's user name (an agent's session) goes with each CONNECT
    code = (
        "const get = () => new Promise(ok => require('https').get("
        "'https://api.github.com/rate_limit', r => r.resume().on('end', ok)));"
        "fetch('https://api.github.com/rate_limit').then(get)"
    )
    proc = run(["node", "-e", code], client_env(front, tmp_path, TOKEN, session="s-7"))
    assert proc.returncode == 0, proc.stderr
    assert [(r["sessionId"], r["operation"]) for r in rows(trace)] == [
        ("s-7", "rest.rate_limit"),
        ("s-7", "rest.rate_limit"),
    ]


@pytest.mark.needs("curl")
def test_a_switch_ends_a_phase(front: Front, emulator_server: Any, tmp_path: Path) -> None:
    env = client_env(front, tmp_path, TOKEN)
    curl = ["curl", "-sS", "-o", "/dev/null", "https://api.github.com/rate_limit"]
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    front.switch_trace(None)
    run(curl, env)
    untraced = front.switch_trace(first)
    assert (untraced.exchanges, untraced.rows_written) == (1, 0)
    run(curl, env)
    run(curl, env)
    ended = front.switch_trace(second)
    assert (ended.exchanges, ended.rows_written, ended.rows_lost) == (2, 2, 0)
    run(curl, env)
    assert front.switch_trace(None).rows_written == 1
    assert (len(rows(first)), len(rows(second))) == (2, 1)


@pytest.mark.needs("curl")
def test_plain_http_through_the_proxy(front: Front, trace: Path, tmp_path: Path) -> None:
    env = client_env(front, tmp_path, TOKEN)
    ok = run(["curl", "-sS", "-o", "/dev/null", "http://api.github.com/rate_limit"], env)
    refused = run(["curl", "-sS", "-w", "%{http_code}", "http://example.com/x"], env)
    assert ok.returncode == 0, ok.stderr
    assert refused.stdout.endswith("403")
    served, refusal = rows(trace)
    assert (served["operation"], served["httpStatus"]) == ("rest.rate_limit", 200)
    assert (refusal["operation"], refusal["endpoint"]) == ("front.refused", "http://example.com/x")
