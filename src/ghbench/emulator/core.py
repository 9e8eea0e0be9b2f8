"""The emulator core: one synchronous ``handle(EmuRequest) -> EmuResponse``.

All behaviour lives here; the ASGI app, the httpx transport and the threaded and
subprocess servers are thin adapters. A request goes through:

1. target: absolute-form (``http://api.github.localhost/...``) is reduced to the path,
   GitHub Enterprise's ``/api/v3/...`` and ``/api/graphql`` to github.com's paths;
   ``CONNECT`` is refused with a message naming the host;
2. ``/_ghbench/...`` goes to the control API (no limits, no ledger);
3. credentials: ``token T`` or ``Bearer T``; unknown -> 401; none -> the caller's
   address is the rate-limit owner (60/h);
4. ``X-GitHub-Api-Version`` (an unsupported one is GitHub's 400, ``versions.py``), then
   route lookup in the data table (unknown -> 404, charged like GitHub);
5. secondary limits, primary limit, faults, body size and JSON;
6. conditional GET: an ``If-None-Match`` hit is a free 304 answered from the ETag
   cache (no rendering, no SQLite write);
7. the handler runs inside one store transaction; the charge and its ledger entry
   are written in the same transaction, committed before the response is returned.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from ghbench.budgets import WINDOW_S
from ghbench.clock import VirtualClock
from ghbench.emulator.blobs import BLOB_PREFIX, serve_blob
from ghbench.emulator.connect import connect_refusal, payload_too_large
from ghbench.emulator.control import ControlRoutes
from ghbench.emulator.errors import (
    ApiError,
    BadCredentials,
    BadRequest,
    NotFound,
    PrimaryRateLimited,
    RequiresAuthentication,
    ServerError,
)
from ghbench.emulator.etag import etag_matches, http_date, make_etag, not_modified_since
from ghbench.emulator.faults import draw_fault
from ghbench.emulator.git_http import import_push
from ghbench.emulator.graphql_bridge import run_graphql
from ghbench.emulator.graphql_contract import BucketView, RateLimited
from ghbench.emulator.http import EmuRequest, EmuResponse, encode_json
from ghbench.emulator.operations import ControlOperations
from ghbench.emulator.rest import ROUTES
from ghbench.emulator.rest.render import RestRenderer
from ghbench.emulator.rest.routing import Call, Reply, Route, Router
from ghbench.emulator.state import User
from ghbench.emulator.versions import UnsupportedApiVersion, select_version

__all__ = ["ACTIONS_BUCKET", "CONTROL_PREFIX", "Emulator"]

CONTROL_PREFIX = "/_ghbench"
ACTIONS_KIND = "actions"
ACTIONS_BUCKET = "actions:"  # an Actions token's bucket: this, then the repository
_READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_ETAG_CACHE_MAX = 100_000
_GHES_REST = "/api/v3"  # GitHub Enterprise Server's REST root on its host
_GHES_GRAPHQL = "/api/graphql"


def _not_found(call: Call) -> Reply:
    raise NotFound()


# Unknown paths answer GitHub's 404 and are charged like any REST call.
_UNKNOWN_ROUTES = {
    m: Route(m, "(unknown)", _not_found)
    for m in ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
}


@dataclass(slots=True)
class _Target:
    """The matched route and the parts of the request target it needs."""

    route: Route
    params: dict[str, str]
    path: str
    query: str
    render: RestRenderer
    api_version: str = field(kw_only=True)


@dataclass(slots=True)
class _Caller:
    """Who is asking: the rate-limit owner, the ledger's token id, the user, the token's
    scopes (None: no token), and its limits when its kind has its own (``Token``):
    ``per_repository`` for Actions' GITHUB_TOKEN, whose calls draw on the bucket of the
    repository they name."""

    owner: str
    token_id: str
    user: User | None
    scopes: str | None = None
    limits: dict[str, int] | None = field(default=None, kw_only=True)
    per_repository: bool = field(default=False, kw_only=True)


class Emulator(ControlOperations):
    """An emulated GitHub API. Thread-safe: one lock around each request.

    ``clock``: a ``VirtualClock`` makes injected latency advance virtual time (the
    in-process simulation); a real clock leaves ``delay_s`` on the response for the
    transport to wait. ``state_dir``: durable SQLite state resumed on restart; None
    keeps everything in memory. ``control_key``: the secret the control API asks for
    (``control_access.py``); None mints one, readable as ``control_key``.
    ``monotonic``: real elapsed time, for deadlines and turns (``fairness.py``).
    """

    router: Router
    control: ControlRoutes

    def _opened(self) -> None:
        """The API beside its parts: its routes, the control API, the config's data."""
        self.router = Router(ROUTES)
        self.control = ControlRoutes(self)
        self.apply_config_seed()
        if self.durable:
            self._import_unrecorded_pushes()

    def _import_unrecorded_pushes(self) -> None:
        """A push git accepted but the emulator stopped before recording (killed
        mid-push) is recorded now: the repositories on disk are what clients saw."""
        for repo in list(self.store.repos.values()):
            git = self.git.repo(repo.id)
            if not git.path.is_dir():
                continue
            recorded = {
                r.name: r.sha
                for r in self.store.refs_with_prefix(repo, "")
                if r.name.startswith(("heads/", "tags/"))
            }
            if git.disk_refs() != recorded:
                import_push(self, repo)

    # -- entry point -------------------------------------------------------------
    def handle(self, request: EmuRequest) -> EmuResponse:
        """Answer one request. Never raises for bad input. Thread-safe: requests take
        turns on the turnstile (``fairness.py``)."""
        with self.lock:
            try:
                response = self._dispatch(request)
            finally:
                self.store.end_request()
            self.request_count += 1
            self.status_counts[response.status] = self.status_counts.get(response.status, 0) + 1
        if response.delay_s > 0 and isinstance(self.clock, VirtualClock):
            self.clock.advance(response.delay_s)
            response.delay_s = 0.0
        return response

    def _dispatch(self, request: EmuRequest) -> EmuResponse:
        method = request.method
        if method == "CONNECT":
            return connect_refusal(request.path or request.headers.get("host", "?"))
        if len(request.body) > self.config.max_body_bytes:
            return payload_too_large()
        path, query_string, api_base = self._split_target(request)
        if path == CONTROL_PREFIX or path.startswith(CONTROL_PREFIX + "/"):
            return self.control.handle(request, path, query_string)
        if path.startswith(BLOB_PREFIX) and method in ("GET", "HEAD"):
            return serve_blob(self, path, query_string)
        try:
            caller = self._authenticate(request)
        except ApiError as exc:
            owner = f"ip:{request.client}"
            return self.error_response(exc, self.limiter.view(owner, "core"))
        self.store.begin_request(caller.user)
        if method == "POST" and path.rstrip("/") == "/graphql":
            return self._graphql(request, caller)
        try:
            version = select_version(request.headers.get("x-github-api-version"))
        except UnsupportedApiVersion as exc:  # refused before routing, not charged
            return self.error_response(exc, self.limiter.view(caller.owner, "core"))
        found = self.router.match(method, path)
        if found is None:
            found = (_UNKNOWN_ROUTES.get(method) or Route(method, "(unknown)", _not_found), {})
        route, params = found
        caller = self._by_repository(caller, params)
        render = RestRenderer(api=api_base, web=self.config.web_url)
        target = _Target(route, params, path, query_string, render, api_version=version)
        response = self._rest(request, caller, target)
        response.headers["x-github-api-version-selected"] = version
        if caller.scopes is not None:  # GitHub says a classic token's scopes on every answer
            response.headers.setdefault("x-oauth-scopes", caller.scopes)
        return response

    # -- target, credentials -----------------------------------------------------
    @staticmethod
    def _split_target(request: EmuRequest) -> tuple[str, str, str]:
        """(path, query, API base) from origin-form or absolute-form targets.

        GitHub Enterprise Server's layout is served too: REST under ``/api/v3`` and
        GraphQL at ``/api/graphql`` (gh's URLs for any host but github.com and
        github.localhost). Such a request is the same request without the prefix,
        charged alike; the prefix stays in the API base, so the URLs in answers
        (``url`` fields, ``link`` pages) keep the layout the client used.
        """
        target = request.path
        host = request.headers.get("host", "api.github.localhost")
        # ghbench's front terminates a client's TLS and says so: answers then carry the
        # https:// URLs the client would get from GitHub
        scheme = "https" if request.headers.get("x-forwarded-proto") == "https" else "http"
        if target.startswith(("http://", "https://")):
            parts = urlsplit(target)
            scheme, host = parts.scheme, parts.netloc or host
            path, query = parts.path or "/", parts.query
        else:
            path, _, query = target.partition("?")
        base = f"{scheme}://{host}"
        if path == _GHES_REST or path.startswith(_GHES_REST + "/"):
            rest = path[len(_GHES_REST) :]
            # GraphQL is at /api/graphql only; /api/v3/graphql stays an unknown path (404)
            if rest.rstrip("/") != "/graphql":
                path, base = rest, base + _GHES_REST
        elif path.rstrip("/") == _GHES_GRAPHQL:
            path, base = "/graphql", base + _GHES_REST
        return path or "/", query or request.query, base

    def _authenticate(self, request: EmuRequest) -> _Caller:
        header = request.headers.get("authorization")
        if not header:
            owner = f"ip:{request.client}"
            return _Caller(owner, owner, None)
        scheme, _, credential = header.strip().partition(" ")
        token = None
        if scheme.lower() in ("token", "bearer") and credential.strip():
            token = self.store.token_for(credential.strip())
        if token is None:
            raise BadCredentials()
        user = self.store.user_by_id(token.user_id)
        limits = {
            name: value
            for name, value in (("core", token.core_limit), ("graphql", token.graphql_limit))
            if value is not None
        }
        actions = token.kind == ACTIONS_KIND
        owner = token.bucket or user.login
        if actions:
            owner = f"{ACTIONS_BUCKET}{token.repository or user.login}"
        caller = _Caller(
            owner, token.label, user, token.scopes, limits=limits or None, per_repository=actions
        )
        self._own_limits(caller)
        return caller

    def _own_limits(self, caller: _Caller) -> None:
        """A token whose kind has limits of its own sets them on its bucket the first
        time the bucket is used (the control API's ``limits`` may change them after)."""
        if caller.limits is None:
            return
        mine = self.limiter.owner_limits[caller.owner]
        for resource, limit in caller.limits.items():
            mine.setdefault(resource, (limit, WINDOW_S))

    def _by_repository(self, caller: _Caller, params: dict[str, str]) -> _Caller:
        """An Actions token's call on ``repos/{owner}/{repo}/…`` draws on that
        repository's bucket (1,000 an hour per repository)."""
        owner, name = params.get("owner"), params.get("repo")
        if not caller.per_repository or not owner or not name:
            return caller
        found = self.store.repo(owner, name)
        full = found.full_name if found is not None else f"{owner}/{name}"
        mine = _Caller(
            f"{ACTIONS_BUCKET}{full}",
            caller.token_id,
            caller.user,
            caller.scopes,
            limits=caller.limits,
            per_repository=True,
        )
        self._own_limits(mine)
        return mine

    # -- REST --------------------------------------------------------------------
    def _rest(self, request: EmuRequest, caller: _Caller, target: _Target) -> EmuResponse:
        method = request.method
        route = target.route
        resource = route.resource
        bucket_name = resource or "core"
        owner = caller.owner
        points = 1 if method in _READ_METHODS else 5
        try:
            self.secondary.check(
                owner,
                kind="rest",
                points=points,
                creates_content=route.creates_content,
                concurrency=request.concurrency,
                user_id=None if caller.user is None else caller.user.id,
            )
            if resource is not None and self.limiter.view(owner, resource).remaining < 1:
                raise self._primary_limited(caller)
            if not route.anonymous and caller.user is None:
                raise RequiresAuthentication()
        except ApiError as exc:
            return self.error_response(exc, self.limiter.view(owner, bucket_name))
        fault = draw_fault(self.config.faults, self.rng)
        if fault.status is not None:
            self.secondary.record(owner, kind="rest", points=points, creates_content=False)
            response = self.error_response(
                ServerError(fault.status, fault.message), self.limiter.view(owner, bucket_name)
            )
            response.delay_s = fault.delay_s
            return response
        response = self._rest_answer(request, caller, target)
        response.delay_s = fault.delay_s
        self.secondary.record(
            owner,
            kind="rest",
            points=points,
            creates_content=route.creates_content and response.status < 300,
        )
        return response

    def _rest_answer(self, request: EmuRequest, caller: _Caller, target: _Target) -> EmuResponse:
        method = request.method
        route, params, render = target.route, target.params, target.render
        bucket_name = route.resource or "core"
        if_none_match = request.headers.get("if-none-match")
        # If-None-Match wins when both are sent (RFC 9110 13.1.3)
        if_modified_since = None if if_none_match else request.headers.get("if-modified-since")
        conditional = route.etag and method in ("GET", "HEAD")
        accept = request.headers.get("accept", "")
        # the same URL has one representation per media type (GitHub varies on Accept)
        cache_key = (caller.token_id, render.api, target.path, target.query, accept)
        version = self._version_for(params)
        cached = self._etags.get(cache_key) if conditional else None
        if (
            cached is not None
            and cached[0] == version
            and self._unchanged(cached[1], cached[2], if_none_match, if_modified_since)
        ):
            return self.not_modified(
                cached[1], cached[3], self.limiter.view(caller.owner, bucket_name)
            )
        try:
            body = self._parse_body(request) if method in _BODY_METHODS else None
        except BadRequest as exc:
            return self._charged_error(exc, caller, route)
        query = dict(parse_qsl(target.query, keep_blank_values=True))
        call = Call(
            self,
            self.store,
            render,
            target.path,
            params,
            query,
            caller.user,
            caller.owner,
            body,
            accept,
            target.api_version,
        )
        with self.db.transaction():
            try:
                reply = route.handler(call)
            except ApiError as exc:
                return self._charged_error(exc, caller, route)
            if isinstance(reply.body, bytes):  # a media type other than JSON (rest/media.py)
                payload = reply.body
            else:
                payload = b"" if reply.body is None else encode_json(reply.body)
            headers = dict(reply.headers)
            if conditional and reply.status == 200:
                etag = make_etag(caller.token_id, payload)
                # Last-Modified: when this representation first had this ETag
                if cached is not None and cached[1] == etag:
                    since, stamp = cached[2], cached[3]
                else:
                    since = self.clock.now()
                    stamp = http_date(since)
                if len(self._etags) >= _ETAG_CACHE_MAX:
                    self._etags.clear()  # a cold cache only costs a re-render
                self._etags[cache_key] = (version, etag, since, stamp)
                if self._unchanged(etag, since, if_none_match, if_modified_since):
                    view = self.limiter.view(caller.owner, bucket_name)
                    return self.not_modified(etag, stamp, view)
                headers["etag"] = etag
                headers["last-modified"] = stamp
            view = self._charge(caller, route, reply.status)
        if method == "HEAD":
            payload = b""
        return self.respond(reply.status, payload, view, headers)

    @staticmethod
    def _unchanged(
        etag: str, last_modified: float, if_none_match: str | None, if_modified_since: str | None
    ) -> bool:
        """A conditional request's 304: its ETag matches, or (without If-None-Match) the
        representation is not newer than If-Modified-Since."""
        if if_none_match:
            return etag_matches(if_none_match, etag)
        if if_modified_since:
            return not_modified_since(if_modified_since, last_modified)
        return False

    def _version_for(self, params: dict[str, str]) -> tuple[int, int]:
        owner, name = params.get("owner"), params.get("repo")
        repo = self.store.repo(owner, name) if owner and name else None
        return self.store.version(repo.id if repo else None)

    @staticmethod
    def _parse_body(request: EmuRequest) -> Any:
        if not request.body.strip():
            return None
        try:
            return json.loads(request.body)
        except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
            raise BadRequest() from exc

    def _charge(self, caller: _Caller, route: Route, status: int) -> BucketView:
        resource = route.resource
        if resource is None:
            return self.limiter.view(caller.owner, "core")
        try:
            return self.limiter.charge(
                caller.owner, caller.token_id, resource, 1, endpoint=route.name, status=status
            )
        except RateLimited as exc:  # checked before the handler; kept for safety
            return exc.bucket

    def _charged_error(self, exc: ApiError, caller: _Caller, route: Route) -> EmuResponse:
        with self.db.transaction():
            view = self._charge(caller, route, exc.status)
        return self.error_response(exc, view)

    def _primary_limited(self, caller: _Caller) -> PrimaryRateLimited:
        if caller.user is None:
            ip = caller.owner.removeprefix("ip:")
            return PrimaryRateLimited(
                f"API rate limit exceeded for {ip}. (But here's the good news: Authenticated "
                "requests get a higher rate limit. Check out the documentation for more "
                "details.)",
                status=self.config.primary_status,
            )
        return PrimaryRateLimited(
            f"API rate limit exceeded for user ID {caller.user.id}.",
            status=self.config.primary_status,
        )

    # -- GraphQL -----------------------------------------------------------------
    def _graphql(self, request: EmuRequest, caller: _Caller) -> EmuResponse:
        owner, token_id, user = caller.owner, caller.token_id, caller.user
        return run_graphql(self, request, owner, token_id, user, budget=self.budget)
