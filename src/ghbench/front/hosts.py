"""What the front knows about hosts and clients: tables, no I/O.

- ``GITHUB_HOSTS``: the hosts the front terminates TLS for (a certificate is minted for
  each) and traces; every other host is refused (emulate) or tunnelled untouched
  (forward).
- ``CLIENTS``: a client, told apart by its ``User-Agent``, gives a row its
  ``component`` and, when it does not trust the front's CA, the variable it reads
  its trust from (the warning names it).
- ``CA_VARIABLES``: every variable through which a client may be given the CA bundle.
- ``GITHUB_DOMAINS``: GitHub's other hosts (release assets, raw files, avatars), which
  forward mode tunnels untouched; it tunnels nothing else but the upstream.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "CA_VARIABLES",
    "CLIENTS",
    "GITHUB_DOMAINS",
    "GITHUB_HOSTS",
    "Client",
    "client_of",
    "github_domain",
    "host_kind",
    "printable",
    "split_authority",
]

# host -> what it serves (a row's operation starts with it)
GITHUB_HOSTS: dict[str, str] = {
    "api.github.com": "rest",  # REST and /graphql
    "github.com": "git",  # git's smart HTTP (and the web, which the emulator does not serve)
    "uploads.github.com": "uploads",  # release assets
    "codeload.github.com": "codeload",  # archives
}

# forward mode tunnels these (and their subdomains) untouched: where GitHub's answers
# send clients (release assets and archives redirect to objects.githubusercontent.com)
GITHUB_DOMAINS = ("github.com", "githubusercontent.com", "githubassets.com", "ghcr.io")
_HOST = re.compile(
    r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*"
)
_IPV6 = re.compile(r"[0-9a-f:.]{2,45}")
_UNPRINTABLE = re.compile(r"[^\x20-\x7e]")

# variable -> the clients that read it; SSL_CERT_FILE is a whole bundle (it replaces
# the system's), the others add to or replace theirs
CA_VARIABLES: dict[str, str] = {
    "SSL_CERT_FILE": "Go (gh, AO's daemon), OpenSSL, Python's ssl, urllib and httpx",
    "GIT_SSL_CAINFO": "git",
    "CURL_CA_BUNDLE": "curl (and requests)",
    "REQUESTS_CA_BUNDLE": "requests (PyGithub)",
    "NODE_EXTRA_CA_CERTS": "Node.js (octokit)",
}


@dataclass(frozen=True)
class Client:
    """A kind of client: the component its rows carry and the CA variable it reads."""

    component: str
    ca_variable: str


# (User-Agent pattern, component, CA variable): the first match wins; a component of
# None is the pattern's first group (AO 0.10's daemon names its adapter after the
# slash, ``ao-agent-orchestrator/scm-github``, as AO's own trace named its components).
CLIENTS: tuple[tuple[re.Pattern[str], str | None, str], ...] = (
    (re.compile(r"^ao-agent-orchestrator/([\w.-]{1,64})"), None, "SSL_CERT_FILE"),
    (re.compile(r"^GitHub CLI\b"), "gh", "SSL_CERT_FILE"),
    (re.compile(r"^git/"), "git", "GIT_SSL_CAINFO"),
    (re.compile(r"^curl/"), "curl", "CURL_CA_BUNDLE"),
    (re.compile(r"\boctokit\b", re.IGNORECASE), "octokit", "NODE_EXTRA_CA_CERTS"),
    (re.compile(r"^(?:node|undici)\b"), "node", "NODE_EXTRA_CA_CERTS"),
    (re.compile(r"^PyGithub/"), "pygithub", "REQUESTS_CA_BUNDLE"),
    (re.compile(r"^python-requests/"), "python", "REQUESTS_CA_BUNDLE"),
    (re.compile(r"^(?:python-httpx|Python-urllib|GitHubKit)/", re.I), "python", "SSL_CERT_FILE"),
    (re.compile(r"^Go-http-client/"), "go", "SSL_CERT_FILE"),
)


def client_of(user_agent: str | None) -> Client | None:
    """The client a ``User-Agent`` names, or None when the table does not know it."""
    if not user_agent:
        return None
    for pattern, component, ca_variable in CLIENTS:
        found = pattern.search(user_agent)
        if found is not None:
            return Client(component or found.group(1), ca_variable)
    return None


def host_kind(host: str) -> str | None:
    """What a GitHub host serves (``GITHUB_HOSTS``), or None for any other host."""
    return GITHUB_HOSTS.get(host.lower().rstrip("."))


def github_domain(host: str) -> bool:
    """One of GitHub's hosts (``GITHUB_DOMAINS`` or a subdomain of one)."""
    name = host.lower().rstrip(".")
    return any(name == d or name.endswith("." + d) for d in GITHUB_DOMAINS)


def printable(text: str | None, limit: int = 80) -> str:
    """What a client sent, fit to echo in a warning: printable ASCII, at most ``limit``
    characters (a User-Agent is the client's to choose)."""
    clean = _UNPRINTABLE.sub("?", text or "")
    return clean if len(clean) <= limit else clean[: limit - 1] + "…"


def split_authority(authority: str, default_port: int) -> tuple[str, int] | None:
    """``host[:port]`` (``[v6]:port`` too) as (host, port); None when it is not one (a
    host name must be one: it is echoed in answers and rows)."""
    text = authority.strip().lower()
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else ""
        if rest and not rest.startswith(":"):
            return None
        if not _IPV6.fullmatch(host):
            return None
    else:
        host, _, port_text = text.partition(":")
        if len(host) > 253 or not _HOST.fullmatch(host.rstrip(".")):
            return None
    if not port_text:
        return host.lower(), default_port
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        return None
    return host.lower(), int(port_text)
