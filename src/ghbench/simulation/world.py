"""The emulator as a simulation sees it: seeding, triggers, snapshots, the ledger.

Everything here uses the emulator's control surface (the store's methods and the
rate limiter), never the traced path, so nothing in this module costs a point or
writes a row. This is the one module that knows the emulator's Python API.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass

import msgspec

from ghbench.budgets import WINDOW_S, Budget
from ghbench.clock import VirtualClock
from ghbench.emulator.config import EmulatorConfig
from ghbench.emulator.core import ACTIONS_BUCKET, Emulator
from ghbench.emulator.faults import draw_fault
from ghbench.emulator.http import EmuRequest
from ghbench.ratelimit import RateLimitSnapshot, parse_rate_limit
from ghbench.workload.config import SessionSpec
from ghbench.workload.ghmap import HttpRequest, HttpResponse

__all__ = ["SIM_LATENCY", "SIM_START", "Ledger", "SimWorld"]

# 2026-04-17T09:05:00Z: inside an hour, like the runbook's hygiene asks
SIM_START = 1_776_416_700.0

# The latency model for simulated calls (the emulator's lognormal faults): the median
# covers gh's process start plus a round trip, AO's p50 at 5-20 sessions (reference §5).
SIM_LATENCY: dict[str, object] = {
    "latency": "lognormal",
    "latency_ms": 750.0,
    "latency_sigma": 0.35,
}
SIM_TOKEN = "ghp_simulated0000000000000000000000000000"
SIM_LOGIN = "ao-bot"
SIM_INSTALLATION = "ao-app"  # an App budget's installation


@dataclass(frozen=True)
class Ledger:
    """What the emulator's ledger charged in ``[start, end]`` (epoch s): points per
    resource that was charged, and how many charges."""

    charges: int
    points: Mapping[str, int]
    start: float
    end: float

    @property
    def spent(self) -> dict[str, int]:
        """The resources that cost something, and their points."""
        return {resource: n for resource, n in self.points.items() if n}

    def per_hour(self, resource: str) -> float:
        """``resource``'s points per hour of the window (0.0 for an empty window)."""
        hours = (self.end - self.start) / 3600.0
        return self.points.get(resource, 0) / hours if hours > 0 else 0.0


class SimWorld:
    """One in-memory emulator on a virtual clock, seeded for a cell."""

    def __init__(
        self,
        clock: VirtualClock,
        *,
        seed: int,
        latency: tuple[float, float] | None = None,
        budget: Budget | None = None,
    ) -> None:
        """``latency``: (median ms, sigma) of the lognormal call latency instead of
        ``SIM_LATENCY`` (a calibration run uses the latency its real run measured).
        ``budget``: the kind of token the run's calls use (``ghbench.budgets``), issued
        and limited by the emulator as GitHub limits that kind; None: a user's token."""
        cfg = EmulatorConfig()
        cfg.faults.update(dict(SIM_LATENCY))
        if latency is not None:
            cfg.faults.update({"latency_ms": latency[0], "latency_sigma": latency[1]})
        self.clock = clock
        self.budget = budget
        self.emulator = Emulator(config=cfg, clock=clock, seed=seed)
        if budget is None:
            self.emulator.create_user(SIM_LOGIN, [SIM_TOKEN])
        else:
            self.emulator.issue_token(SIM_LOGIN, SIM_TOKEN, budget, installation=SIM_INSTALLATION)
        self.token = SIM_TOKEN
        self.home: str | None = None  # an Actions token's repository
        # the round trip of an answer the emulator refuses before it draws a latency
        # (a rate limit): the same model, from a source of its own so that a run in
        # which nothing is refused draws what it always drew
        self._trip = msgspec.structs.replace(cfg.faults, error_rate=0.0, timeout_rate=0.0)
        self._trip_rng: random.Random | None = random.Random(seed)

    def set_limit(self, resource: str, limit: int, window_s: int = WINDOW_S) -> None:
        """``resource``'s limit for the run's token, whatever its kind."""
        if self.budget is None or self.budget.kind == "pat":
            self.emulator.set_limit(resource, limit, window_s)
        else:
            self.emulator.set_limit(resource, limit, window_s, owner=self.owner)

    @property
    def owner(self) -> str:
        """The bucket the run's token draws on (an Actions token: its repository's)."""
        kind = "pat" if self.budget is None else self.budget.kind
        if kind in ("app", "app-enterprise"):
            return f"installation:{SIM_INSTALLATION}"
        if kind == "actions":
            return f"{ACTIONS_BUCKET}{self.home or SIM_LOGIN}"
        return SIM_LOGIN

    @classmethod
    def around(cls, emulator: Emulator, clock: VirtualClock, token: str) -> SimWorld:
        """A world over an emulator someone else built and seeded (tests)."""
        world = cls.__new__(cls)
        world.clock, world.emulator, world.token = clock, emulator, token
        world.budget, world.home = None, None
        world._trip, world._trip_rng = emulator.config.faults, None
        return world

    # -- requests ----------------------------------------------------------------

    def handle(self, request: HttpRequest) -> HttpResponse:
        path, _, query = request.path.partition("?")
        emu = EmuRequest(request.method, path, query, dict(request.headers), request.body or b"")
        before = self.clock.now()
        resp = self.emulator.handle(emu)
        # on a virtual clock the emulator advances it by the latency it drew
        latency = self.clock.now() - before + resp.delay_s
        if latency <= 0 and self._trip_rng is not None:
            latency = draw_fault(self._trip, self._trip_rng).delay_s
        return HttpResponse(
            resp.status, list(resp.headers.items()), resp.body, latency if latency > 0 else None
        )

    # -- seeding and triggers ------------------------------------------------------

    def seed(self, repos: list[str], sessions: int, *, open_prs: bool) -> list[SessionSpec]:
        """Repos, one issue per session, and (``open_prs``) each session's branch and PR.

        Sessions are spread round-robin over ``repos``; ids are AO's ``ta-{n}``.
        """
        api = self.emulator
        for full in repos:
            api.create_repo(full)
        if (
            self.budget is not None and self.budget.kind == "actions" and repos
        ):  # its calls naming no repository
            self.home = repos[0]
            api.issue_token(SIM_LOGIN, SIM_TOKEN, self.budget, repository=self.home)
        specs: list[SessionSpec] = []
        for i in range(sessions):
            full = repos[i % len(repos)]
            issue = api.create_issue(full, f"Benchmark task {i + 1}", author=SIM_LOGIN)
            spec = SessionSpec(id=f"ta-{i + 1}", repo=full, issue=issue)
            specs.append(self.open_pr(spec) if open_prs else spec)
        return specs

    def open_pr(self, spec: SessionSpec) -> SessionSpec:
        """What the session's agent does: push ``feat/issue-N``, open its PR, CI passes."""
        api = self.emulator
        number = api.create_pull(
            spec.repo, spec.branch_name, title=f"Fix #{spec.issue}", author=SIM_LOGIN
        )
        api.set_ci(spec.repo, "success", pr=number)
        return SessionSpec(
            id=spec.id, repo=spec.repo, issue=spec.issue, branch=spec.branch, pr=number
        )

    def settle_pull(self, full_name: str, number: int) -> None:
        """What GitHub computes about PR ``number`` in the background (its mergeability),
        computed now, as for a PR that has been open a while."""
        owner, _, name = full_name.partition("/")
        store = self.emulator.store
        repo = store.repo(owner, name)
        pull = None if repo is None else store.pull(repo, number)
        if pull is not None:
            store.mergeability(pull)

    def latest_run(self, full_name: str, number: int) -> int:
        """The newest workflow run of PR ``number``'s head (1 when it has none)."""
        owner, _, name = full_name.partition("/")
        store = self.emulator.store
        repo = store.repo(owner, name)
        pull = None if repo is None else store.pull(repo, number)
        if repo is None or pull is None:
            return 1
        runs = [r.id for r in store.runs(repo) if r.head_sha == pull.head_sha]
        return runs[0] if runs else 1

    def add_review_comments(self, spec: SessionSpec, count: int) -> None:
        if spec.pr is not None:
            self.emulator.add_review_comments(spec.repo, count=count, prs=[spec.pr])

    # -- measurements ---------------------------------------------------------------

    def spend(self, resource: str, points: int) -> None:
        """Spend ``points`` of the user's ``resource`` budget (at most what is left)
        outside the model's calls: what a real run's harness spent before its window
        opened, so that a model run starts where the real one's budget stood."""
        left = self.emulator.limiter.view(self.owner, resource).remaining
        if min(points, left) > 0:
            self.emulator.limiter.charge(
                self.owner, "harness", resource, min(points, left), endpoint="harness", status=200
            )

    def rate_limit_snapshot(self) -> RateLimitSnapshot:
        """``GET /rate_limit`` in-process with the workload's token (free, untraced)."""
        resp = self.handle(
            HttpRequest("GET", "/rate_limit", {"Authorization": f"token {self.token}"})
        )
        return parse_rate_limit(json.loads(resp.body), self.clock.now())

    def ledger(self, start: float, end: float) -> Ledger:
        """What was charged in ``[start, end]``."""
        entries = self.emulator.ledger_entries(since=start, until=end + 1e-6)
        totals: dict[str, int] = {}
        for e in entries:
            totals[e.resource] = totals.get(e.resource, 0) + e.cost
        return Ledger(len(entries), totals, start, end)
