"""The control API under ``/_ghbench/``: never rate-limited, never in the ledger.

GET  /_ghbench/health                       {"ok", "now", "requests"}
POST /_ghbench/users        {"login", "tokens": [...], "scopes": "repo, read:org"}
POST /_ghbench/seed         see Emulator.seed
POST /_ghbench/repos/{o}/{r}/pulls          {"head", "base", "title", "body", "author", "draft",
                                             "labels"}
POST /_ghbench/repos/{o}/{r}/issues         {"title", "body", "author", "labels"}
POST /_ghbench/repos/{o}/{r}/labels         {"number", "labels"}  (replaces the labels)
POST /_ghbench/repos/{o}/{r}/ci             {"state", "sha" | "pr", "name", "log"}
POST /_ghbench/repos/{o}/{r}/push           {"branch", "message", "files": {path: text}}
POST /_ghbench/repos/{o}/{r}/review-comments {"count", "prs", "author"}
GET|POST /_ghbench/clock                    {"advance": s} | {"set": epoch}
GET  /_ghbench/ledger?since=&until=&token=&resource=   entries + totals (JSON)
GET  /_ghbench/ledger.jsonl?...             JSON Lines
POST /_ghbench/reset
GET|POST /_ghbench/faults | /_ghbench/secondary   (POST: the settings to change)
POST /_ghbench/limits       {"resource", "limit", "window_s", "owner"}
GET  /_ghbench/rate_limit?owner=LOGIN       the /rate_limit document, free
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import parse_qsl

import msgspec

from ghbench.emulator.control_access import refusal
from ghbench.emulator.control_bodies import (
    CiBody,
    ClockBody,
    IssueBody,
    LabelsBody,
    LedgerQuery,
    LimitsBody,
    PullBody,
    PushBody,
    ReviewCommentsBody,
    UserBody,
)
from ghbench.emulator.errors import ApiError
from ghbench.emulator.http import JSON_TYPE, EmuRequest, EmuResponse, encode_json, json_message
from ghbench.emulator.operations import ControlOperations
from ghbench.emulator.rest.routing import Route, Router
from ghbench.errors import ConfigError, GhbenchError
from ghbench.validation import convert, describe_error

__all__ = ["ControlRoutes"]

B = TypeVar("B")


@dataclass(frozen=True)
class _Request:
    """One control request as a handler sees it; ``body`` and ``query`` validate it."""

    where: str  # "POST /_ghbench/users", for error messages
    params: dict[str, str]
    raw_query: dict[str, str]
    data: Any  # the parsed JSON body, None when empty

    def body(self, kind: type[B]) -> B:
        return convert({} if self.data is None else self.data, kind, source=self.where)

    def query(self, kind: type[B]) -> B:
        # query values are strings: msgspec converts "12.5" to a float when not strict
        try:
            return msgspec.convert(self.raw_query, kind, strict=False)
        except msgspec.ValidationError as exc:
            problem = describe_error(exc, self.raw_query, kind)
            raise ConfigError(f"{self.where} query: {problem}") from None

    @property
    def full_name(self) -> str:
        return f"{self.params['owner']}/{self.params['repo']}"


ControlHandler = Callable[[ControlOperations, _Request], Any]


def _health(emu: ControlOperations, r: _Request) -> Any:
    return {"ok": True, "now": emu.clock.now(), "requests": emu.request_count}


def _users(emu: ControlOperations, r: _Request) -> Any:
    b = r.body(UserBody)
    if b.budget is None:
        return {"login": b.login, "tokens": emu.create_user(b.login, b.tokens, scopes=b.scopes)}
    ids = [
        emu.issue_token(
            b.login,
            token,
            b.budget,
            installation=b.installation,
            repository=b.repository,
            scopes=b.scopes,
        )
        for token in b.tokens
    ]
    return {"login": b.login, "tokens": ids, "budget": b.budget.describe()}


def _seed(emu: ControlOperations, r: _Request) -> Any:
    return emu.seed({} if r.data is None else r.data, source=r.where)


def _pulls(emu: ControlOperations, r: _Request) -> Any:
    b = r.body(PullBody)
    number = emu.create_pull(
        r.full_name,
        b.head,
        base=b.base,
        title=b.title,
        author=b.author,
        draft=b.draft,
        body=b.body,
        labels=b.labels,
    )
    return {"number": number}


def _issues(emu: ControlOperations, r: _Request) -> Any:
    b = r.body(IssueBody)
    number = emu.create_issue(r.full_name, b.title, body=b.body, author=b.author, labels=b.labels)
    return {"number": number}


def _set_labels(emu: ControlOperations, r: _Request) -> Any:
    b = r.body(LabelsBody)
    emu.set_labels(r.full_name, b.number, b.labels)
    return {"number": b.number, "labels": b.labels}


def _ci(emu: ControlOperations, r: _Request) -> Any:
    b = r.body(CiBody)
    sha = emu.set_ci(r.full_name, b.state, sha=b.sha, pr=b.pr, name=b.name, log=b.log)
    return {"sha": sha, "state": b.state}


def _push(emu: ControlOperations, r: _Request) -> Any:
    b = r.body(PushBody)
    return {"sha": emu.push(r.full_name, b.branch, b.message, files=b.files)}


def _review_comments(emu: ControlOperations, r: _Request) -> Any:
    b = r.body(ReviewCommentsBody)
    added = emu.add_review_comments(r.full_name, count=b.count, prs=b.prs, author=b.author)
    return {"added": added}


def _clock(emu: ControlOperations, r: _Request) -> Any:
    b = r.body(ClockBody)
    if b.advance is not None:
        emu.advance_clock(b.advance)
    elif b.set is not None:
        emu.set_clock(b.set)
    return {"now": emu.clock.now()}


def _ledger_filters(r: _Request) -> dict[str, Any]:
    return msgspec.structs.asdict(r.query(LedgerQuery))


def _ledger(emu: ControlOperations, r: _Request) -> Any:
    filters = _ledger_filters(r)
    return {
        "entries": [e.to_json() for e in emu.ledger_entries(**filters)],
        "totals": emu.ledger_totals(**filters),
        "count": emu.ledger_count(**filters),
    }


def _ledger_jsonl(emu: ControlOperations, r: _Request) -> Any:
    return emu.limiter.export_jsonl(emu.ledger_entries(**_ledger_filters(r)))


def _reset(emu: ControlOperations, r: _Request) -> Any:
    emu.reset()
    return {"ok": True}


def _faults(emu: ControlOperations, r: _Request) -> Any:
    return emu.set_faults(_settings(r), source=r.where)


def _secondary(emu: ControlOperations, r: _Request) -> Any:
    return emu.set_secondary(_settings(r), source=r.where)


def _settings(r: _Request) -> dict[str, Any]:
    if r.data is None:
        return {}
    if not isinstance(r.data, dict):
        raise ConfigError(f"{r.where}: expected a JSON object of settings to change")
    return r.data


def _limits(emu: ControlOperations, r: _Request) -> Any:
    b = r.body(LimitsBody)
    emu.set_limit(b.resource, b.limit, b.window_s, owner=b.owner)
    return {"ok": True}


def _rate_limit(emu: ControlOperations, r: _Request) -> Any:
    return emu.rate_limit_document(r.raw_query.get("owner", "ip:127.0.0.1"))


_R = "/_ghbench/repos/{owner}/{repo}"
ROUTES: list[tuple[str, str, ControlHandler]] = [
    ("GET", "/_ghbench/health", _health),
    ("POST", "/_ghbench/users", _users),
    ("POST", "/_ghbench/seed", _seed),
    ("POST", _R + "/pulls", _pulls),
    ("POST", _R + "/issues", _issues),
    ("POST", _R + "/labels", _set_labels),
    ("POST", _R + "/ci", _ci),
    ("POST", _R + "/push", _push),
    ("POST", _R + "/review-comments", _review_comments),
    ("GET", "/_ghbench/clock", _clock),
    ("POST", "/_ghbench/clock", _clock),
    ("GET", "/_ghbench/ledger", _ledger),
    ("GET", "/_ghbench/ledger.jsonl", _ledger_jsonl),
    ("POST", "/_ghbench/reset", _reset),
    ("GET", "/_ghbench/faults", _faults),
    ("POST", "/_ghbench/faults", _faults),
    ("GET", "/_ghbench/secondary", _secondary),
    ("POST", "/_ghbench/secondary", _secondary),
    ("POST", "/_ghbench/limits", _limits),
    ("GET", "/_ghbench/rate_limit", _rate_limit),
]


class ControlRoutes:
    """The HTTP face of :class:`ControlOperations` (module docstring for the routes).

    A body or query that does not fit its struct is a 400 naming the key; a domain
    error is GitHub's status (404 for a missing repository, ...); a request the
    emulator cannot do in its state (moving a real clock) is a 409. Anything else is a
    bug and raises, so it is never mistaken for bad input."""

    def __init__(self, emulator: ControlOperations) -> None:
        self.emulator = emulator
        self._handlers: dict[tuple[str, str], ControlHandler] = {}
        routes = []
        for method, pattern, handler in ROUTES:
            self._handlers[(method, pattern)] = handler
            routes.append(Route(method, pattern, _unused, resource=None))
        self.router = Router(routes)

    def handle(self, request: EmuRequest, path: str, query: str) -> EmuResponse:
        refused = refusal(request, self.emulator.control_key)
        if refused is not None:
            return json_message(refused.status, refused.message)
        method = request.method
        found = self.router.match(method, path)
        if found is None:
            return json_message(404, f"no control endpoint {method} {path}")
        route, params = found
        handler = self._handlers[(route.method, route.pattern)]
        where = f"{method} {path}"
        try:
            data = msgspec.json.decode(request.body) if request.body.strip() else None
        except msgspec.DecodeError as exc:
            return json_message(400, f"{where}: the body is not JSON ({exc})")
        call = _Request(where, params, dict(parse_qsl(query)), data)
        try:
            result = handler(self.emulator, call)
        except ConfigError as exc:  # validation: the one 400
            return json_message(400, str(exc))
        except ApiError as exc:
            return EmuResponse(exc.status, {"content-type": JSON_TYPE}, encode_json(exc.body()))
        except GhbenchError as exc:
            return json_message(409, str(exc))
        if isinstance(result, bytes):
            return EmuResponse(200, {"content-type": "application/x-ndjson"}, result)
        return EmuResponse(200, {"content-type": JSON_TYPE}, encode_json(result))


def _unused(call: Any) -> Any:  # the control router only matches; handlers are above
    raise NotImplementedError
