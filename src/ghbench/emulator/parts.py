"""The parts of one emulator that every request path shares, and how answers are built.

:class:`EmulatorParts` owns the clock, the seeded random source, the settings, the
control key, the state (database, git repositories, record store), the rate limiters,
the lock and the ETag cache. The control operations (``operations.py``) and the request
handling (``core.py``) build on it; the GraphQL bridge, git over HTTP and the REST
handlers see it through their ``emulator`` argument, so none of them imports the core.
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ghbench.clock import Clock, SystemClock
from ghbench.emulator.config import EmulatorConfig
from ghbench.emulator.control_access import new_control_key
from ghbench.emulator.errors import ApiError, PrimaryRateLimited
from ghbench.emulator.fairness import RequestBudget, Turnstile
from ghbench.emulator.git.storage import GitStorage
from ghbench.emulator.graphql_contract import BucketView, KnownAnswers
from ghbench.emulator.http import JSON_TYPE, EmuResponse, encode_json
from ghbench.emulator.ratelimit import RateLimiter, is_anonymous
from ghbench.emulator.secondary import SecondaryLimiter
from ghbench.emulator.state import Database, MemoryDatabase, SqliteDatabase, Store
from ghbench.errors import EmulatorError

__all__ = ["EmulatorParts", "rate_headers"]

# (token id, api base, path, query, accept) -> (repository version, etag)
EtagKey = tuple[str, str, str, str, str]


def rate_headers(view: BucketView) -> dict[str, str]:
    return {
        "x-ratelimit-limit": str(view.limit),
        "x-ratelimit-remaining": str(view.remaining),
        "x-ratelimit-used": str(view.used),
        "x-ratelimit-reset": str(view.reset),
        "x-ratelimit-resource": view.resource,
    }


class EmulatorParts:
    """State, limiters and settings of one emulator; see :class:`~ghbench.emulator.core.
    Emulator` for the arguments."""

    def __init__(
        self,
        *,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        seed: int = 0,
        state_dir: Path | None = None,
        config: EmulatorConfig | None = None,
        control_key: str | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.clock: Clock = clock or SystemClock()
        # real elapsed time, for request deadlines and turns (fairness.py), whatever
        # ``clock`` says (a simulation's virtual time stands still while it computes)
        self.monotonic = monotonic
        # the control API's secret (control_access.py); a fresh one unless given
        self.control_key = control_key or new_control_key()
        # signs the Actions log download URLs (blobs.py); never leaves the process
        self.blob_key = secrets.token_bytes(32)
        self.rng = rng or random.Random(seed)
        self.config = config or EmulatorConfig()
        git_root = Path(state_dir) / "git" if state_dir else None
        had_git = git_root is not None and git_root.is_dir()
        self.db: Database = SqliteDatabase(Path(state_dir)) if state_dir else MemoryDatabase()
        self.git = GitStorage(git_root)
        try:
            self.store = Store(self.db, self.clock, self.rng, self.git)
            if git_root is not None and not had_git and self.store.commits:
                raise EmulatorError(
                    f"--state {state_dir}: written by an older ghbench whose commits have no "
                    "git repositories; remove the directory or choose another one"
                )
            self.limiter = RateLimiter(
                self.db,
                self.clock,
                limits=self.config.limits,
                anonymous_limits=self.config.anonymous_limits,
            )
        except BaseException:
            self.db.close()
            raise
        self.secondary = SecondaryLimiter(self.clock, self.config.secondary, self.db)
        self.lock = Turnstile()
        # the last representation per token, URL and media type: the repository
        # version it was rendered at, its ETag, when it first had that ETag (and that
        # time as Last-Modified's HTTP-date)
        self._etags: dict[EtagKey, tuple[tuple[int, int], str, float, str]] = {}
        self.graphql_answers = KnownAnswers()  # graphql_bridge's memo
        self.request_count = 0
        self.status_counts: dict[int, int] = {}
        self.durable = state_dir is not None  # resumed on restart
        self._opened()

    def _opened(self) -> None:
        """What a subclass makes once the parts are there (``Emulator``: its routes)."""

    def budget(self) -> RequestBudget:
        """A new request's deadline (``config.request_timeout_s``) and turns."""
        return RequestBudget(
            self.lock,
            monotonic=self.monotonic,
            timeout_s=self.config.request_timeout_s,
            may_pause=self.db.outside_transaction,
        )

    def close(self) -> None:
        """Commit and close the state database; remove temporary git repositories."""
        with self.lock:
            self.db.close()
            self.git.close()

    # -- answers -----------------------------------------------------------------
    def respond(
        self, status: int, payload: bytes, view: BucketView, extra: dict[str, str]
    ) -> EmuResponse:
        headers = {"content-type": JSON_TYPE, **rate_headers(view)}
        headers["x-github-media-type"] = "github.v3; format=json"
        headers["x-github-request-id"] = f"GHB:{self.request_count:08X}"
        headers["vary"] = "Accept, Authorization, Cookie, X-GitHub-OTP"
        headers.update(extra)
        return EmuResponse(status, headers, payload)

    def not_modified(self, etag: str, last_modified: str, view: BucketView) -> EmuResponse:
        """GitHub's free 304; ``last_modified`` is the HTTP-date already formatted."""
        response = self.respond(304, b"", view, {"etag": etag, "last-modified": last_modified})
        del response.headers["content-type"]
        return response

    def error_response(self, exc: ApiError, view: BucketView) -> EmuResponse:
        if isinstance(exc, PrimaryRateLimited):
            view = BucketView(view.resource, view.limit, 0, view.used, view.reset)
        return self.respond(exc.status, encode_json(exc.body()), view, exc.headers)

    def rate_limit_document(self, owner: str) -> dict[str, Any]:
        """``GET /rate_limit``'s body for ``owner`` (a login or ``ip:<addr>``)."""
        resources = {}
        names = ["core", "graphql", "search"] if is_anonymous(owner) else self.limiter.resources()
        for name in names:
            view = self.limiter.view(owner, name)
            resources[name] = {
                "limit": view.limit,
                "used": view.used,
                "remaining": view.remaining,
                "reset": view.reset,
            }
        return {"resources": resources, "rate": resources["core"]}
