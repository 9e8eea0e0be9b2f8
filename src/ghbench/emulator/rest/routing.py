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


class Router:
    def __init__(self, routes: list[Route]) -> None:
        self.routes = routes
        self._by_method: dict[str, list[tuple[re.Pattern[str], Route]]] = {}
        for route in sorted(routes, key=_specificity):
            self._by_method.setdefault(route.method, []).append((_compile(route.pattern), route))
        # HEAD is answered by the GET handler, without a body.
        self._by_method.setdefault("HEAD", self._by_method.get("GET", []))

    def match(self, method: str, path: str) -> tuple[Route, dict[str, str]] | None:
        for regex, route in self._by_method.get(method, ()):
            found = regex.fullmatch(path)
            if found is not None:
                return route, {k: unquote(v) for k, v in found.groupdict().items()}
        return None
