"""What AO's daemon makes of GitHub's answers: guards, GraphQL data, rate limits.

Pure functions over one answer (status, lower-cased headers, body), shared by the SCM
observer's steps (``ghbench.workload.observer``). The rate-limit reading and the
cooldown are AO 0.12.6's (``adapters/scm/github/client.go``: ``classifyError``,
``isRateLimited``, ``doGraphQL``; ``observe/scm/observer.go``: ``rateLimitCooldown``,
``boundedCooldown``, ``defaultRateLimitCooldown``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ghbench.policies.cooldown import cooldown_s
from ghbench.policies.spec import CooldownSpec

if TYPE_CHECKING:
    from ghbench.workload.poller import SessionState

__all__ = [
    "Answer",
    "Guard",
    "check_runs_fingerprint",
    "contexts_of",
    "dig",
    "graphql_data",
    "guard_of",
    "owner_session",
    "rate_limit_cooldown",
    "tail",
]


@dataclass(frozen=True)
class Answer:
    status: int | None
    headers: dict[str, str]
    body: bytes

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    def json(self) -> Any:
        try:
            return json.loads(self.body) if self.body.strip() else None
        except ValueError:
            return None


@dataclass(frozen=True)
class Guard:
    """A guard's outcome (``repoGuardState``/``SCMGuardResult``)."""

    failed: bool
    not_modified: bool = False
    etag: str | None = None
    had_etag: bool = False

    @property
    def changed(self) -> bool:
        return not self.failed and not self.not_modified


def guard_of(answer: Answer, prev: str | None) -> Guard:
    """A guard's outcome: 304 (unchanged), 2xx (changed), anything else a failure."""
    if answer.status == 304:
        return Guard(False, True, answer.headers.get("etag") or prev, prev is not None)
    if answer.ok:
        return Guard(False, False, answer.headers.get("etag") or prev, prev is not None)
    return Guard(True, had_etag=prev is not None)


def check_runs_fingerprint(runs: Iterable[Any]) -> str:
    """``commitCheckRunsFingerprint``: a commit's runs by name, status and conclusion,
    sorted, hashed: what stands for the ETag of a commit with more runs than a page."""
    parts = sorted(
        "\0".join(str(r.get(k) or "") for k in ("name", "status", "conclusion"))
        for r in runs
        if isinstance(r, dict)
    )
    return hashlib.sha256("\x1e".join(parts).encode()).hexdigest()


def dig(value: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def graphql_data(answer: Answer) -> dict[str, Any] | None:
    """The ``data`` of a GraphQL answer without errors (AO treats any error as failed)."""
    doc = answer.json() if answer.ok else None
    if not isinstance(doc, dict) or doc.get("errors"):
        return None
    data = doc.get("data")
    return data if isinstance(data, dict) else None


def contexts_of(node: Any) -> Any:
    commits = dig(node, "commits", "nodes")
    for commit in commits if isinstance(commits, list) else []:
        contexts = dig(commit, "commit", "statusCheckRollup", "contexts")
        if contexts is not None:
            return contexts
    return None


def owner_session(sessions: Iterable[SessionState], branch: str) -> SessionState | None:
    """``matchSession``: the session whose branch is the PR's, or its longest prefix
    (``branch/…``; a ``…/root`` branch also owns its namespace)."""
    best, best_len = None, -1
    for s in sessions:
        mine = s.spec.branch_name
        prefixes = [mine]
        if mine.endswith("/root") and len(mine) > len("/root"):
            prefixes.append(mine[: -len("/root")])
        for prefix in prefixes:
            if (branch == prefix or branch.startswith(prefix + "/")) and len(prefix) > best_len:
                best, best_len = s, len(prefix)
    return best


TAIL_LINES = 20  # provider.go's ciFailureLogTailLines


def tail(body: bytes) -> str:
    lines = body.decode("utf-8", "replace").rstrip("\n").split("\n")
    return "\n".join(lines[-TAIL_LINES:])


# -- rate limits ----------------------------------------------------------------------

# AO 0.12.6's bounds, default and jitter: ``policies.cooldown`` (the lab's cooldown)
_AO_COOLDOWN = CooldownSpec()
_REST_MARKERS = ("rate limit", "abuse detection", "secondary rate")  # isRateLimited
_GRAPHQL_MARKERS = ("rate limit", "abuse")  # doGraphQL's first error's message


def _message(answer: Answer) -> str:
    doc = answer.json()
    if isinstance(doc, dict) and isinstance(doc.get("message"), str) and doc["message"]:
        return str(doc["message"])
    return answer.body.decode("utf-8", "replace").strip()


def _number(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _hinted(answer: Answer, now: float) -> float:
    """``rateLimitCooldown`` of an error that carries GitHub's hints (or none)."""
    retry = _number(answer.headers.get("retry-after"))
    reset = _number(answer.headers.get("x-ratelimit-reset"))
    return cooldown_s(
        _AO_COOLDOWN,
        now,
        retry_after=None if retry is None else float(retry),
        reset=None if reset is None or reset <= 0 else float(reset),
    )


def rate_limit_cooldown(answer: Answer, now: float) -> float | None:
    """How long a rate-limited GraphQL batch answer keeps batches off, or None when
    the answer is not a rate limit: 429; 403 with no remaining, a ``Retry-After`` or a
    rate-limit message; a 2xx whose first GraphQL error names a rate limit or abuse
    (that error carries no hints, so the default)."""
    status = answer.status
    if status is not None and not answer.ok:
        if status == 429:
            return _hinted(answer, now)
        low = _message(answer).lower()
        limited = (
            _number(answer.headers.get("x-ratelimit-remaining")) == 0
            or "retry-after" in answer.headers
            or any(marker in low for marker in _REST_MARKERS)
        )
        return _hinted(answer, now) if status == 403 and limited else None
    doc = answer.json()
    errors = doc.get("errors") if isinstance(doc, dict) else None
    if not isinstance(errors, list) or not errors or not isinstance(errors[0], dict):
        return None
    low = str(errors[0].get("message") or "").lower()
    if any(marker in low for marker in _GRAPHQL_MARKERS):
        return _hinted(Answer(status, {}, b""), now)
    return None
