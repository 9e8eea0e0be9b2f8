"""Which GitHub a real-GitHub run talks to, and with which token: gh's own rules.

The orchestrator's gh and ghbench's control calls must reach the same GitHub with the
same token, or the ``/rate_limit`` brackets measure someone else's budget. So ghbench
resolves all three the way gh does (limits reference §5b) and hands gh the result:

- gh's host: ``GH_HOST``; else the host whose REST root ``GITHUB_API_URL`` is
  (``api.github.com``, ``api.github.localhost``, ``HOST/api/v3``); else github.com.
- REST root: ``GITHUB_API_URL``; else gh's root for that host.
- Token: what gh sends to that host (go-gh ``tokenForHost``). github.com and
  github.localhost: ``GH_TOKEN``, ``GITHUB_TOKEN``, then gh's login for the host.
  Any other host is an enterprise host, where gh ignores ``GH_TOKEN``:
  ``GH_ENTERPRISE_TOKEN``, ``GITHUB_ENTERPRISE_TOKEN``, then gh's login. gh's login is
  ``gh auth token --hostname HOST``: gh 2.23's ``gh auth token`` ignores ``GH_HOST`` and
  would answer with github.com's token.

The token is returned, never logged, and never put in an error message.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from ghbench.errors import ConfigError, GitHubError
from ghbench.procs import tool_output

__all__ = [
    "DEFAULT_API_URL",
    "GitHubToken",
    "check_gh_route",
    "host_of_api_url",
    "is_enterprise",
    "resolve_api_url",
    "resolve_gh_host",
    "resolve_token",
    "rest_root",
]

DEFAULT_API_URL = "https://api.github.com"
DOTCOM_TOKEN_VARS = ("GH_TOKEN", "GITHUB_TOKEN")
ENTERPRISE_TOKEN_VARS = ("GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN")
_LOCALHOST = "github.localhost"


@dataclass(frozen=True)
class GitHubToken:
    """A token and where it came from (the source goes in messages; the value never)."""

    value: str = field(repr=False)
    source: str  # "GH_TOKEN", ..., or "gh auth token --hostname HOST"
    fix: str  # what to do when GitHub rejects it


def _normal(host: str) -> str:
    h = host.strip().lower()
    return _LOCALHOST if h.endswith("." + _LOCALHOST) else h


def is_enterprise(host: str) -> bool:
    """gh's rule: every host but github.com and (*.)github.localhost, ports included."""
    return _normal(host) not in ("github.com", _LOCALHOST)


def rest_root(host: str) -> str:
    """gh's REST root for ``host``, without a trailing slash."""
    h = _normal(host)
    if h == "github.com":
        return DEFAULT_API_URL
    if h == _LOCALHOST:
        return "http://api.github.localhost"
    return f"https://{host.strip()}/api/v3"


def host_of_api_url(url: str) -> str | None:
    """The gh host whose REST root ``url`` is, or None when gh has no host for it."""
    parts = urlsplit(url.strip())
    netloc, path = parts.netloc.lower(), parts.path.rstrip("/")
    if not netloc:
        return None
    if netloc == "api.github.com" and not path:
        return "github.com"
    if (netloc == "api." + _LOCALHOST or netloc.endswith("." + _LOCALHOST)) and not path:
        return _LOCALHOST
    if path == "/api/v3":
        return parts.netloc
    return None


def resolve_gh_host(env: Mapping[str, str]) -> str:
    host = env.get("GH_HOST", "").strip()
    if host:
        return host
    url = env.get("GITHUB_API_URL", "").strip()
    return (host_of_api_url(url) if url else None) or "github.com"


def resolve_api_url(env: Mapping[str, str]) -> str:
    """The REST root, without a trailing slash."""
    url = env.get("GITHUB_API_URL", "").strip()
    return (url or rest_root(resolve_gh_host(env))).rstrip("/")


def check_gh_route(env: Mapping[str, str]) -> None:
    """Refuse a setting where gh would call another GitHub than ghbench's control calls.

    Only for runs whose orchestrator uses gh: ``GITHUB_API_URL`` alone, naming no host
    gh knows (an emulator's ``http://127.0.0.1:PORT``), would leave gh on github.com;
    ``GH_HOST`` and a ``GITHUB_API_URL`` of another host disagree outright.
    """
    url = env.get("GITHUB_API_URL", "").strip()
    if not url:
        return
    host = env.get("GH_HOST", "").strip()
    derived = host_of_api_url(url)
    if not host and derived is None:
        raise ConfigError(
            f"GITHUB_API_URL={url} is not the REST root of a host gh knows, so gh would call"
            " github.com; set GH_HOST to the host gh should use (github.localhost with"
            " HTTP_PROXY/HTTPS_PROXY for an emulator), or use --transport http"
        )
    if host and derived is not None and _normal(derived) != _normal(host):
        raise ConfigError(
            f"GH_HOST={host} but GITHUB_API_URL={url} is {derived}'s API: gh and ghbench"
            " would measure different GitHubs; unset one or make them agree"
        )


def _gh_login(env: Mapping[str, str], host: str) -> str | None:
    gh = shutil.which("gh", path=env.get("PATH"))
    if gh is None:
        return None
    return tool_output([gh, "auth", "token", "--hostname", host], timeout=20, env=env)


def resolve_token(env: Mapping[str, str], host: str = "github.com") -> GitHubToken:
    """The token gh would send to ``host``; GitHubError saying how to provide one."""
    names = ENTERPRISE_TOKEN_VARS if is_enterprise(host) else DOTCOM_TOKEN_VARS
    for name in names:
        value = env.get(name, "").strip()
        if value:
            return GitHubToken(value, name, f"set a valid token in {name}")
    login = "gh auth login" if host == "github.com" else f"gh auth login --hostname {host}"
    token = _gh_login(env, host)
    if token:
        return GitHubToken(token, f"gh auth token --hostname {host}", f"run '{login}'")
    where = "" if host == "github.com" else f" for {host}"
    hint = " (gh ignores GH_TOKEN for an enterprise host)" if is_enterprise(host) else ""
    raise GitHubError(
        f"no GitHub token{where}: set {' or '.join(names)}{hint}, or run '{login}'"
        " (or run offline on the embedded emulator: --github emulator, matrix --backend"
        " emulator)"
    )
