"""Data-driven routing: a table of (method, path pattern) -> handler.

Patterns use ``{name}`` for one path segment and ``{name:path}`` for the rest of the
path (git refs contain slashes). Literal-heavy patterns are tried first, so
``/repos/{o}/{r}/pulls/comments`` wins over ``/repos/{o}/{r}/pulls/{number}``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from ghbench.emulator.errors import NotFound
from ghbench.emulator.parts import EmulatorParts
from ghbench.emulator.rest.render import RestRenderer
from ghbench.emulator.state import Store, User

__all__ = ["JSON_MEDIA", "Call", "Reply", "Route", "Router"]

JSON_MEDIA = "application/json"


@dataclass
class Call:
    """What a handler gets: the matched parameters, parsed query and body, the caller."""

    emulator: EmulatorParts
    store: Store
    render: RestRenderer  # the REST serializer, on this request's URL bases
    path: str  # origin-form path, without the query
    params: dict[str, str]
    query: dict[str, str]
    user: User | None
    owner: str  # the rate-limit owner: a login, or ip:<addr>
    body: Any = None  # parsed JSON (None when absent)
    accept: str = ""  # the request's Accept header (media types: rest/media.py)
    api_version: str = "2022-11-28"  # X-GitHub-Api-Version (see versions.py)

    def param_int(self, name: str) -> int:
        value = self.params[name]
        if not value.isdigit():
            raise NotFound()
        return int(value)


@dataclass
class Reply:
    """A handler's answer; ``body`` is JSON-serializable (None: empty body), or the
    bytes of another media type (with its ``content-type`` in ``headers``)."""

    body: Any
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)


Handler = Callable[[Call], Reply]


@dataclass(frozen=True)
class Route:
    """One endpoint. ``resource`` is the bucket it charges (None: free, like
    ``/rate_limit``); ``etag`` turns on conditional GETs; ``creates_content`` counts
    toward the content-creation secondary limit; ``anonymous`` allows no token;
    ``media_types`` are the response media types it can answer with (the conformance
    test checks each against GitHub's OpenAPI description)."""

    method: str
    pattern: str
    handler: Handler
    resource: str | None = "core"
    etag: bool = False
    creates_content: bool = False
    anonymous: bool = True
    media_types: tuple[str, ...] = (JSON_MEDIA,)

    @property
    def name(self) -> str:
        """The ledger's endpoint label: ``GET /repos/{owner}/{repo}/pulls``."""
        return f"{self.method} {self.pattern.replace(':path', '')}"


def _compile(pattern: str) -> re.Pattern[str]:
    out = []
    for part in re.split(r"(\{[a-z_]+(?::path)?\})", pattern):
        if part.startswith("{"):
            name, _, kind = part[1:-1].partition(":")
            out.append(f"(?P<{name}>.+)" if kind == "path" else f"(?P<{name}>[^/]+)")
        else:
            out.append(re.escape(part))
    return re.compile("".join(out) + "/?")


def _specificity(route: Route) -> tuple[int, int]:
    literal = re.sub(r"\{[^}]+\}", "", route.pattern)
    return (-len(literal.strip("/").split("/")), -len(literal))


# A path's dispatch key: its first segment and, under /repos/{owner}/{repo}/, the
# resource (pulls, issues, commits...). Routes are tried only in their key's bucket
# (and the buckets of routes whose key positions are parameters), in specificity order.
Key = tuple[str | None, str | None]


def _path_key(path: str) -> Key:
    parts = path.split("/", 5)
    first = parts[1] if len(parts) > 1 else ""
    return first, parts[4] if first == "repos" and len(parts) > 4 else None


def _pattern_key(pattern: str) -> Key:
    parts = pattern.split("/", 5)
    first = parts[1] if len(parts) > 1 and "{" not in parts[1] else None
    resource = parts[4] if len(parts) > 4 and "{" not in parts[4] else None
    return first, resource if first == "repos" else None


class Router:
    def __init__(self, routes: list[Route]) -> None:
        self.routes = routes
        # method -> key -> [(order, regex, route)]: each bucket in specificity order
        self._buckets: dict[str, dict[Key, list[tuple[int, re.Pattern[str], Route]]]] = {}
        for order, route in enumerate(sorted(routes, key=_specificity)):
            bucket = self._buckets.setdefault(route.method, {})
            bucket.setdefault(_pattern_key(route.pattern), []).append(
                (order, _compile(route.pattern), route)
            )
        # HEAD is answered by the GET handler, without a body.
        self._buckets.setdefault("HEAD", self._buckets.get("GET", {}))
        self._candidates: dict[tuple[str, Key], list[tuple[re.Pattern[str], Route]]] = {}

    def _routes_for(self, method: str, key: Key) -> list[tuple[re.Pattern[str], Route]]:
        """The routes a path with ``key`` may match, in specificity order (cached per
        bucket, so paths nobody routes cannot grow the cache)."""
        buckets = self._buckets.get(method, {})
        if key not in buckets:
            key = (key[0], None) if (key[0], None) in buckets else (None, None)
        found = self._candidates.get((method, key))
        if found is None:
            wanted = {key, (key[0], None), (None, None)}
            merged = sorted(e for k in wanted for e in buckets.get(k, ()))
            found = self._candidates[(method, key)] = [(regex, r) for _, regex, r in merged]
        return found

    def match(self, method: str, path: str) -> tuple[Route, dict[str, str]] | None:
        for regex, route in self._routes_for(method, _path_key(path)):
            found = regex.fullmatch(path)
            if found is not None:
                return route, {k: unquote(v) for k, v in found.groupdict().items()}
        return None
