"""The control API under ``/_ghbench/``: never rate-limited, never in the ledger.

GET  /_ghbench/health                       {"ok", "now", "requests"}
POST /_ghbench/users        {"login", "tokens": [...], "scopes": "repo, read:org"}
POST /_ghbench/seed         see Emulator.seed
POST /_ghbench/repos/{o}/{r}/pulls          {"head", "base", "title", "body", "author", "draft",
                                             "labels"}
POST /_ghbench/repos/{o}/{r}/issues         {"title", "body", "author", "labels"}
POST /_ghbench/repos/{o}/{r}/labels         {"number", "labels"}  (replaces the labels)
POST /_ghbench/repos/{o}/{r}/ci             {"state", "sha" | "pr", "name"}
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

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl

from ghbench.emulator.control_access import refusal
from ghbench.emulator.errors import ApiError
from ghbench.emulator.http import JSON_TYPE, EmuRequest, EmuResponse, encode_json, json_message
from ghbench.emulator.operations import ControlOperations
from ghbench.emulator.rest.routing import Route, Router
from ghbench.errors import GhbenchError

__all__ = ["ControlApi"]

Params = dict[str, str]
ControlHandler = Callable[[ControlOperations, Params, Params, Any], Any]


def _float(query: Params, name: str) -> float | None:
    return float(query[name]) if query.get(name) else None


def _ledger_filters(query: Params) -> dict[str, Any]:
    return {
        "since": _float(query, "since"),
        "until": _float(query, "until"),
        "token": query.get("token") or None,
        "resource": query.get("resource") or None,
    }


def _body(body: Any) -> dict[str, Any]:
    if body is None:
        return {}
    if not isinstance(body, dict):
        raise ValueError("expected a JSON object")
    return body


def _health(emu: ControlOperations, p: Params, q: Params, body: Any) -> Any:
    return {"ok": True, "now": emu.clock.now(), "requests": emu.request_count}


def _users(emu: ControlOperations, p: Params, q: Params, body: Any) -> Any:
    b = _body(body)
    scopes = b.get("scopes")
    return {
        "login": b["login"],
        "tokens": emu.create_user(
            str(b["login"]),
            list(b.get("tokens", [])),
            scopes=None if scopes is None else str(scopes),
        ),
    }


def _seed(emu: ControlOperations, p: Params, q: Params, body: Any) -> Any:
    return emu.seed(_body(body))


def _full(p: Params) -> str:
    return f"{p['owner']}/{p['repo']}"


def _pulls(emu: ControlOperations, p: Params, q: Params, body: Any) -> Any:
    b = _body(body)
    number = emu.create_pull(
        _full(p),
        str(b["head"]),
        base=b.get("base"),
        title=b.get("title"),
        author=b.get("author"),
        draft=bool(b.get("draft", False)),
        body=b.get("body"),
        labels=_labels(b),
    )
    return {"number": number}


def _labels(b: dict[str, Any]) -> list[str]:
    labels = b.get("labels") or []
    if not isinstance(labels, list):
        raise ValueError("labels must be a list of names")
    return [str(label) for label in labels]


def _issues(emu: ControlOperations, p: Params, q: Params, body: Any) -> Any:
    b = _body(body)
    return {
        "number": emu.create_issue(
            _full(p), str(b["title"]), body=b.get("body"), author=b.get("author"), labels=_labels(b)
        )
    }


def _set_labels(emu: ControlOperations, p: Params, q: Params, body: Any) -> Any:
    b = _body(body)
    emu.set_labels(_full(p), int(b["number"]), _labels(b))
    return {"number": int(b["number"]), "labels": _labels(b)}


def _ci(emu: ControlOperations, p: Params, q: Params, body: Any) -> Any:
    b = _body(body)
    pr = b.get("pr")
    sha = emu.set_ci(
        _full(p),
        str(b["state"]),
        sha=b.get("sha"),
        pr=int(pr) if pr is not None else None,
        name=str(b.get("name", "ci")),
    )
    return {"sha": sha, "state": b["state"]}


def _push(emu: ControlOperations, p: Params, q: Params, body: Any) -> Any:
    b = _body(body)
    files = b.get("files")
    if files is not None and not (
        isinstance(files, dict)
        and all(isinstance(k, str) and k and isinstance(v, str) for k, v in files.items())
    ):
        raise ValueError("files must map each path to its text")
    message = str(b.get("message", "Update"))
    return {"sha": emu.push(_full(p), str(b["branch"]), message, files=files)}


def _review_comments(emu: ControlOperations, p: Params, q: Params, body: Any) -> Any:
    b = _body(body)
    prs = b.get("prs")
    added = emu.add_review_comments(
        _full(p),
        count=int(b.get("count", 1)),
        prs=[int(n) for n in prs] if prs is not None else None,
        author=str(b.get("author", "reviewer")),
    )
    return {"added": added}


def _clock(emu: ControlOperations, p: Params, q: Params, body: Any) -> Any:
    b = _body(body)
    if "advance" in b:
        emu.advance_clock(float(b["advance"]))
    elif "set" in b:
        emu.set_clock(float(b["set"]))
    return {"now": emu.clock.now()}


def _ledger(emu: ControlOperations, p: Params, q: Params, body: Any) -> Any:
    entries = emu.ledger_entries(**_ledger_filters(q))
    return {
        "entries": [e.to_json() for e in entries],
        "totals": emu.limiter.totals(entries),
        "count": len(entries),
    }


def _ledger_jsonl(emu: ControlOperations, p: Params, q: Params, body: Any) -> Any:
    return emu.limiter.export_jsonl(emu.ledger_entries(**_ledger_filters(q)))


def _reset(emu: ControlOperations, p: Params, q: Params, body: Any) -> Any:
    emu.reset()
    return {"ok": True}


def _faults(emu: ControlOperations, p: Params, q: Params, body: Any) -> Any:
    return emu.set_faults(**_body(body))


def _secondary(emu: ControlOperations, p: Params, q: Params, body: Any) -> Any:
    return emu.set_secondary(**_body(body))


def _limits(emu: ControlOperations, p: Params, q: Params, body: Any) -> Any:
    b = _body(body)
    emu.set_limit(
        str(b["resource"]), int(b["limit"]), int(b.get("window_s", 3600)), owner=b.get("owner")
    )
    return {"ok": True}


def _rate_limit(emu: ControlOperations, p: Params, q: Params, body: Any) -> Any:
    return emu.rate_limit_document(q.get("owner", "ip:127.0.0.1"))


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


class ControlApi:
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
            return _message(refused.status, refused.message)
        method, body = request.method, request.body
        found = self.router.match(method, path)
        if found is None:
            return _message(404, f"no control endpoint {method} {path}")
        route, params = found
        handler = self._handlers[(route.method, route.pattern)]
        try:
            parsed = json.loads(body) if body.strip() else None
            result = handler(self.emulator, params, dict(parse_qsl(query)), parsed)
        except ApiError as exc:
            return EmuResponse(exc.status, {"content-type": JSON_TYPE}, encode_json(exc.body()))
        except (GhbenchError, KeyError, ValueError, TypeError, RecursionError) as exc:
            detail = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
            return _message(400, f"bad control request: {detail}")
        if isinstance(result, bytes):
            return EmuResponse(200, {"content-type": "application/x-ndjson"}, result)
        return EmuResponse(200, {"content-type": JSON_TYPE}, encode_json(result))


def _unused(call: Any) -> Any:  # the control router only matches; handlers are above
    raise NotImplementedError


def _message(status: int, message: str) -> EmuResponse:
    return json_message(status, message)
