"""The front's pure parts: hosts and clients, the client environment, upstream
addresses, GraphQL naming and metering, rows, the CA."""

from __future__ import annotations

import base64
import dataclasses
import datetime as dt
import ssl
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from cryptography import x509

from ghbench.errors import UsageError
from ghbench.front.ca import mint_ca, mint_leaf, prepare_ca
from ghbench.front.downstream import Caller, proxy_credential
from ghbench.front.env import client_environment, no_proxy, proxy_url
from ghbench.front.graphql import GraphqlMeter, read_graphql_request
from ghbench.front.hosts import client_of, github_domain, host_kind, printable, split_authority
from ghbench.front.http1 import Head
from ghbench.front.rows import Exchange, exchange_row, operation_of, secrets_of
from ghbench.front.settings import Upstream, parse_upstream
from ghbench.front.workers import SharedMeter
from tools import require_tool

NOW = dt.datetime(2026, 12, 4, 12, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    ("agent", "component", "variable"),
    [
        ("ao-agent-orchestrator/scm-github", "scm-github", "SSL_CERT_FILE"),
        ("ao-agent-orchestrator/tracker-github", "tracker-github", "SSL_CERT_FILE"),
        ("GitHub CLI 2.23.0", "gh", "SSL_CERT_FILE"),
        ("git/2.39.5", "git", "GIT_SSL_CAINFO"),
        ("curl/7.88.1", "curl", "CURL_CA_BUNDLE"),
        (
            "octokit-rest.js/22.0.1 octokit-core.js/7.0.6 Node.js/20",
            "octokit",
            "NODE_EXTRA_CA_CERTS",
        ),
        ("PyGithub/Python", "pygithub", "REQUESTS_CA_BUNDLE"),
        ("python-requests/2.34.2", "python", "REQUESTS_CA_BUNDLE"),
        ("python-httpx/0.29.0", "python", "SSL_CERT_FILE"),
        ("Python-urllib/3.11", "python", "SSL_CERT_FILE"),
        ("Go-http-client/1.1", "go", "SSL_CERT_FILE"),
    ],
)
def test_clients_by_user_agent(agent: str, component: str, variable: str) -> None:
    client = client_of(agent)
    assert client is not None
    assert (client.component, client.ca_variable) == (component, variable)


def test_an_unknown_client_is_none() -> None:
    assert client_of("Mozilla/5.0") is None
    assert client_of(None) is None


@pytest.mark.parametrize(
    ("text", "default", "expected"),
    [
        ("api.github.com:443", 443, ("api.github.com", 443)),
        ("GitHub.com", 443, ("github.com", 443)),
        ("[::1]:8080", 80, ("::1", 8080)),
        ("host:0", 80, None),
        ("host:99999", 80, None),
        ("host:x", 80, None),
        (":443", 443, None),
        ("[::1]x", 443, None),
        ("evil.com\r\nx:443", 443, None),  # echoed in answers and rows: a host name only
        ("a b:443", 443, None),
        ("[::1\n]:443", 443, None),
    ],
)
def test_split_authority(text: str, default: int, expected: tuple[str, int] | None) -> None:
    assert split_authority(text, default) == expected


def test_github_hosts() -> None:
    assert host_kind("api.github.com.") == "rest"
    assert host_kind("codeload.github.com") == "codeload"
    assert host_kind("gist.github.com") is None
    assert github_domain("objects.githubusercontent.com") and github_domain("ghcr.io")
    assert not github_domain("notgithub.com") and not github_domain("127.0.0.1")


def test_what_a_client_sent_is_cut_and_made_printable() -> None:
    assert printable("curl/8.0\x1b[31m\r\n") == "curl/8.0?[31m??"
    assert printable("x" * 500) == "x" * 79 + "…"
    assert printable(None) == ""


def test_no_proxy_keeps_what_does_not_bypass_github() -> None:
    assert no_proxy("github.com,.github.com,*.github.com,*,corp.example,127.0.0.1") == (
        "corp.example,127.0.0.1,localhost,::1"
    )
    assert no_proxy(None) == "localhost,127.0.0.1,::1"


def test_client_environment(tmp_path: Path) -> None:
    bundle, ca = tmp_path / "bundle.pem", tmp_path / "ca.pem"
    env = client_environment(
        8080, secret="0a1b", bundle=bundle, ca_cert=ca, session="s 1", base={"no_proxy": "x"}
    )
    assert env["HTTPS_PROXY"] == env["http_proxy"] == "http://s%201:0a1b@127.0.0.1:8080"
    assert env["SSL_CERT_FILE"] == env["GIT_SSL_CAINFO"] == env["CURL_CA_BUNDLE"] == str(bundle)
    assert env["REQUESTS_CA_BUNDLE"] == str(bundle)
    assert env["NODE_EXTRA_CA_CERTS"] == str(ca)
    assert env["NO_PROXY"] == "x,localhost,127.0.0.1,::1"
    assert env["GIT_HTTP_PROXY_AUTHMETHOD"] == "basic"
    assert proxy_url(1, "0a1b") == "http://-:0a1b@127.0.0.1:1"  # no session: user "-"
    assert proxy_url(1, None) == "http://127.0.0.1:1"


def _basic(user: str, password: str = "sec") -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def _caller(credential: str | None, secret: str | None = "sec") -> Caller:
    headers = [] if credential is None else [(b"proxy-authorization", credential.encode())]
    return Caller.of(Head(method=b"CONNECT", headers=headers), secret)


def test_the_proxy_credential_names_the_session_and_carries_the_secret() -> None:
    assert _caller(_basic("s-1")) == Caller(None, "s-1", authorized=True)
    assert _caller(_basic("-")) == Caller(None, None, authorized=True)  # no session
    assert _caller(_basic("s%201")).session is None  # a space: not a session name
    assert _caller(_basic("x" * 200)).session is None
    assert not _caller(_basic("s-1", "wrong")).authorized
    assert not _caller(_basic("s-1", "")).authorized
    assert not _caller(None).authorized
    assert not _caller("Bearer sec").authorized
    assert not _caller("Basic !!!").authorized
    assert _caller(None, secret=None).authorized  # a front without a secret
    assert proxy_credential(_basic("a:b", "c")) == ("a", "b:c")


def test_parse_upstream() -> None:
    assert parse_upstream("http://127.0.0.1:8080") == Upstream("http", "127.0.0.1", 8080)
    assert parse_upstream("https://ghe.example.com/") == Upstream("https", "ghe.example.com", 443)
    assert parse_upstream("unix:/tmp/gh.sock").socket == "/tmp/gh.sock"
    for bad in ("unix:gh.sock", "ftp://x", "http://h:99999", "http://h/api", "http://u@h"):
        with pytest.raises(UsageError, match="--upstream"):
            parse_upstream(bad)


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


@pytest.mark.parametrize(
    ("kind", "path", "operation"),
    [
        ("rest", "/repos/o/r/pulls", "rest.repos.pulls"),
        ("rest", "/repos/o/r", "rest.repos"),
        ("rest", "/user", "rest.user"),
        ("rest", "/", "rest.root"),
        ("git", "/o/r.git/info/refs", "git.info-refs"),
        ("git", "/o/r/git-receive-pack", "git.receive-pack"),
        ("git", "/login/device", "web.login"),
        ("uploads", "/repos/o/r/releases/1/assets", "uploads.repos.releases"),
        ("codeload", "/o/r/tar.gz/main", "codeload.archive"),
    ],
)
def test_operation_of(kind: str, path: str, operation: str) -> None:
    assert operation_of(kind, path, None) == operation


def test_a_row_never_carries_the_credential() -> None:
    token = "custom-credential-0123456789"
    ex = Exchange(
        kind="rest",
        method="GET",
        target=f"/repos/o/r?access_token=abc&x={token}",
        started_at=1.0,
        finished_at=1.5,
        credential=f"token {token}",
        status=200,
        reason="OK",
        headers={"etag": f'"{token}"', "x-ratelimit-remaining": "4999"},
    )
    row = exchange_row(ex, "front")
    text = msgspec.json.encode(row).decode()
    assert token not in text and "abc" not in text
    assert row.endpoint == "repos/o/r?access_token=[REDACTED]&x=[REDACTED]"
    assert (row.durationMs, row.rateLimitRemaining, row.component) == (500.0, 4999, "front")


def test_a_refused_graphql_answer_is_no_success_and_costs_nothing() -> None:
    """GitHub's 200 + RATE_LIMITED: the row says the primary limit refused it, not ok, no
    GraphQL cost (the formula would say 1); its body goes in the row for a replay, and a
    conditional GET keeps the ETag it sent back."""
    body = b'{"query":"query { viewer { login } }"}'
    ex = Exchange(
        kind="rest",
        method="POST",
        target="/graphql",
        started_at=1.0,
        finished_at=1.2,
        status=200,
        reason="OK",
        headers={"x-ratelimit-remaining": "0", "x-ratelimit-resource": "graphql"},
        graphql=read_graphql_request(body),
        response_head=b'{"errors":[{"type":"RATE_LIMITED","message":"API rate limit exceeded"}]}',
        request_body=body,
    )
    row = exchange_row(ex, "front")
    assert (row.ok, row.rateLimited, row.graphqlCost) == (False, "primary", None)
    assert row.requestBody == body.decode()
    answered = exchange_row(dataclasses.replace(ex, response_head=b'{"data":{}}'), "front")
    assert (answered.ok, answered.rateLimited, answered.graphqlCost) == (True, None, 1)
    guard = Exchange(
        kind="rest",
        method="GET",
        target="/repos/o/r/pulls?per_page=1",
        started_at=1.0,
        finished_at=1.1,
        status=304,
        if_none_match='W/"abc"',
    )
    assert exchange_row(guard, "front").ifNoneMatch == 'W/"abc"'


@pytest.mark.parametrize("name", ["code", "access_token", "client_secret", "token", "sig", "jwt"])
def test_secret_looking_query_parameters_are_redacted(name: str) -> None:
    target = f"/login/oauth/x?a=1&{name}=s3cr3tvalue&b=2"
    ex = Exchange(kind="git", method="GET", target=target, started_at=1.0, finished_at=1.0)
    ex.status, ex.reason = 200, "OK"
    row = exchange_row(ex, "front")
    assert row.endpoint == f"login/oauth/x?a=1&{name}=[REDACTED]&b=2"


def test_an_endpoint_is_cut() -> None:
    ex = Exchange(kind="rest", method="GET", target="/" + "a" * 10_000, started_at=1.0)
    ex.status = 404
    endpoint = exchange_row(ex, "front").endpoint
    assert endpoint is not None and len(endpoint) == 2048 and endpoint.endswith("…")


def test_a_client_that_left_mid_answer_is_not_ok() -> None:
    ex = Exchange(kind="rest", method="GET", target="/user", started_at=1.0, finished_at=1.0)
    ex.status, ex.response_bytes, ex.client_closed = 200, 10, True
    row = exchange_row(ex, "front")
    assert (row.ok, row.clientClosed, row.httpStatus, row.responseBytes) == (False, True, 200, 10)


def test_secrets_of_a_credential() -> None:
    basic = "Basic " + base64.b64encode(b"x-access-token:ghp_secret123").decode()
    assert secrets_of(basic) == [basic, basic[6:], "x-access-token", "ghp_secret123"]
    assert secrets_of("token abcdefgh") == ["token abcdefgh", "abcdefgh"]
    assert secrets_of(None) == []


HOSTS = ["api.github.com", "github.com"]
DAY = dt.timedelta(days=1)


def test_the_leaf_verifies_against_the_ca_for_every_github_host() -> None:
    ca = mint_ca(NOW, "test", HOSTS, DAY)
    leaf = mint_leaf(ca, HOSTS, NOW)
    leaf.cert.verify_directly_issued_by(ca.cert)
    names = leaf.cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert names.get_values_for_type(x509.DNSName) == HOSTS
    assert leaf.cert.not_valid_after_utc == ca.cert.not_valid_after_utc
    # valid for the run and a margin, not for weeks
    assert ca.cert.not_valid_after_utc == NOW + DAY + dt.timedelta(hours=1)
    constraints = ca.cert.extensions.get_extension_for_class(x509.NameConstraints)
    assert constraints.critical
    assert constraints.value.permitted_subtrees == [x509.DNSName(h) for h in HOSTS]


def _openssl_verify(
    tmp_path: Path, ca_pem: bytes, leaf_pem: bytes
) -> subprocess.CompletedProcess[str]:
    (tmp_path / "ca.pem").write_bytes(ca_pem)
    (tmp_path / "leaf.pem").write_bytes(leaf_pem)
    at = str(int((NOW + dt.timedelta(minutes=5)).timestamp()))
    argv = ["openssl", "verify", "-attime", at, "-CAfile", "ca.pem", "leaf.pem"]
    return subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, check=False)


def test_the_ca_cannot_vouch_for_another_host(tmp_path: Path) -> None:
    """OpenSSL itself refuses a certificate the CA would sign for any other name."""
    require_tool("openssl")
    ca = mint_ca(NOW, "test", HOSTS, DAY)
    ok = _openssl_verify(tmp_path, ca.cert_pem(), mint_leaf(ca, ["api.github.com"], NOW).cert_pem())
    assert ok.returncode == 0, ok.stdout + ok.stderr
    other = _openssl_verify(tmp_path, ca.cert_pem(), mint_leaf(ca, ["example.com"], NOW).cert_pem())
    assert other.returncode != 0 and "permitted subtree violation" in other.stdout + other.stderr


def test_prepare_ca_files(tmp_path: Path) -> None:
    base = tmp_path / "system.pem"
    base.write_text("-----BEGIN CERTIFICATE-----\nsystem\n-----END CERTIFICATE-----")
    first = prepare_ca(tmp_path / "s", ["api.github.com"], NOW, base_bundle=base)
    assert not first.key.exists()  # not kept: never written
    assert stat.S_IMODE(first.leaf_key.stat().st_mode) == 0o600
    bundle = first.bundle.read_bytes()
    assert bundle.startswith(base.read_bytes() + b"\n") and bundle.endswith(first.cert.read_bytes())
    ssl.create_default_context(cafile=str(first.cert))  # a CA OpenSSL loads
    first.forget(keep=False)
    assert not first.leaf_key.exists()
    hosts = ["api.github.com"]
    alone = prepare_ca(tmp_path / "s", hosts, NOW, base_bundle=None)
    assert alone.bundle.read_bytes() == alone.cert.read_bytes()  # emulate: the CA alone
    kept = prepare_ca(tmp_path / "s", hosts, NOW, base_bundle=None, keep=True)
    assert stat.S_IMODE(kept.key.stat().st_mode) == 0o600
    key = kept.key.read_bytes()
    kept.forget(keep=True)
    assert kept.key.exists() and not kept.leaf_key.exists()
    assert (
        prepare_ca(tmp_path / "s", hosts, NOW, base_bundle=None, keep=True).key.read_bytes() == key
    )
    later = NOW + dt.timedelta(hours=20)  # not valid for another day: minted afresh
    assert (
        prepare_ca(tmp_path / "s", hosts, later, base_bundle=None, keep=True).key.read_bytes()
        != key
    )
    prepare_ca(tmp_path / "s", hosts, NOW, base_bundle=None)  # not kept: a kept key goes
    assert not kept.key.exists()
