"""Why a command behind the front made no exchange: one line, from the front's counts.

A client that fails before it reaches the front prints its own error (``ENOTFOUND``
for one that resolved api.github.com itself on a machine without the network, a TLS
error for one that distrusts the CA), and nothing reaches the trace. ``record`` cannot
read the command's output, but the front's counts tell how far its clients got, which
names the likely cause; the line also names what the command was given, so the user
can see which variable their client did not read. Pure: counts and variables in.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit, urlunsplit

from ghbench.front import FrontCounts
from ghbench.front.hosts import CA_VARIABLES

__all__ = ["no_exchange_cause", "shown_environment"]

_PROXY = "HTTPS_PROXY"
_NODE = ("NODE_USE_ENV_PROXY", "NODE_OPTIONS")


def _masked(url: str) -> str:
    """The proxy URL with its password (the front's secret) hidden."""
    parts = urlsplit(url)
    credential, at, where = parts.netloc.rpartition("@")
    if not at or ":" not in credential:
        return url
    user = credential.split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{where}"))


def shown_environment(given: Mapping[str, str], *, trust: bool = False) -> str:
    """What the command was given to reach the front, fit to print: the proxy (its
    secret hidden) with ``NO_PROXY`` and Node's settings, or (``trust``) the CA's."""
    if trust:  # the variables that carry one file named once: A, B=FILE
        by_file: dict[str, list[str]] = {}
        for name in CA_VARIABLES:
            if name in given:
                by_file.setdefault(given[name], []).append(name)
        return ", ".join(f"{', '.join(names)}={file}" for file, names in by_file.items())
    shown = [f"{_PROXY}={_masked(given[_PROXY])} (and https_proxy, HTTP_PROXY, http_proxy)"]
    shown += [f"{name}={given[name]}" for name in ("NO_PROXY", *_NODE) if name in given]
    return ", ".join(shown)


def no_exchange_cause(counts: FrontCounts, given: Mapping[str, str]) -> str | None:
    """None when a client made an exchange through the front; else the likely cause,
    most telling first, with the environment it concerns (``given``: the variables
    the front's ``client_env`` gave the command)."""
    if counts.exchanges:
        return None
    if counts.failed_handshakes:
        return (
            f"{counts.failed_handshakes} TLS handshake(s) with the front failed (the warning"
            f" above says how: most often a client that does not trust the front's CA); it"
            f" was given {shown_environment(given, trust=True)}"
        )
    if counts.unauthorized:
        return (
            f"{counts.unauthorized} request(s) reached the front without its proxy credential"
            f" (answered 407): a client dropped the user and password of the proxy URL it"
            f" was given, {shown_environment(given)}"
        )
    if counts.refused or counts.tunnelled:
        return (
            f"its clients asked only for other hosts than GitHub's API, git and upload hosts"
            f" ({counts.refused} refused, {counts.tunnelled} tunnelled untraced)"
        )
    if counts.abandoned:
        return (
            f"{counts.abandoned} tunnel(s) to the front were closed before any TLS: a client"
            " gave up (a probe, or a timeout) before its first request"
        )
    return (
        "no client reached the GitHub front: COMMAND made no GitHub call, or its clients"
        " went around the proxy (one that resolves api.github.com itself fails with"
        " ENOTFOUND where there is no network, or calls GitHub untraced where there is);"
        f" it was given {shown_environment(given)}"
    )
