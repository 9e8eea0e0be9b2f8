"""ghbench.front.hosts: which client a User-Agent names and the CA variable it reads,
GitHub's hosts, authorities and what a client sent made printable."""

from __future__ import annotations

import pytest

from ghbench.front.hosts import client_of, github_domain, host_kind, printable, split_authority


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
