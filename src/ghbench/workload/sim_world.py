"""The emulator as a simulation sees it: seeding, triggers, snapshots, the ledger.

Everything here uses the emulator's control surface (the store's methods and the
rate limiter), never the traced path, so nothing in this module costs a point or
writes a row. This is the one module that knows the emulator's Python API.
"""

from __future__ import annotations

import random
from typing import Any

from ghbench.clock import VirtualClock
from ghbench.workload.config import SessionSpec
from ghbench.workload.ghmap import HttpRequest, HttpResponse

__all__ = ["SIM_LATENCY", "SimWorld"]

# The latency model for simulated calls (the emulator's lognormal faults): the median
# covers gh's process start plus a round trip, AO's p50 at 5-20 sessions (reference §5).
SIM_LATENCY: dict[str, object] = {"latency": "lognormal", "latency_ms": 750.0, "latency_sigma": 0.35}
SIM_TOKEN = "ghp_simulated0000000000000000000000000000"  # noqa: S105 - the emulator's own
SIM_LOGIN = "ao-bot"


class SimWorld:
    """One in-memory emulator on a virtual clock, seeded for a cell."""

    def __init__(self, clock: VirtualClock, *, seed: int) -> None:
        from ghbench.emulator.config import EmulatorConfig
        from ghbench.emulator.core import Emulator

        cfg = EmulatorConfig()
        cfg.faults.update(dict(SIM_LATENCY))
        self.clock = clock
        self.rng = random.Random(seed)
        self.emulator = Emulator(config=cfg, clock=clock, seed=seed)
        self.store = self.emulator.store
        self.user = self.store.ensure_user(SIM_LOGIN)
        self.store.add_token(self.user, SIM_TOKEN, label="workload")
        self.reviewer = self.store.ensure_user("reviewer")
        self.token = SIM_TOKEN

    # -- requests ----------------------------------------------------------------

    def handle(self, request: HttpRequest) -> HttpResponse:
        from ghbench.emulator.http import EmuRequest

        path, _, query = request.path.partition("?")
        emu = EmuRequest(
            request.method, path, query, dict(request.headers), request.body or b""
        )
        resp = self.emulator.handle(emu)
        return HttpResponse(resp.status, list(resp.headers.items()), resp.body, resp.delay_s)

    # -- seeding and triggers ------------------------------------------------------

    def seed(self, repos: list[str], sessions: int, *, open_prs: bool) -> list[SessionSpec]:
        """Repos, one issue per session, and (``open_prs``) each session's branch and PR.

        Sessions are spread round-robin over ``repos``; ids are AO's ``ta-{n}``.
        """
        store = self.store
        for full in repos:
            owner, name = full.split("/", 1)
            if store.repo(owner, name) is None:
                store.create_repo(owner, name)
        specs: list[SessionSpec] = []
        per_repo: dict[str, int] = {}
        for i in range(sessions):
            full = repos[i % len(repos)]
            repo = store.get_repo(*full.split("/", 1))
            issue = store.create_issue(repo, self.user, f"Benchmark task {i + 1}")
            per_repo[full] = per_repo.get(full, 0) + 1
            spec = SessionSpec(id=f"ta-{i + 1}", repo=full, issue=issue.number)
            if open_prs:
                spec = self.open_pr(spec)
            specs.append(spec)
        return specs

    def open_pr(self, spec: SessionSpec) -> SessionSpec:
        """What the session's agent does: push ``feat/issue-N`` and open its PR."""
        repo = self.store.get_repo(*spec.repo.split("/", 1))
        pull = self.store.create_pull(
            repo,
            self.user,
            f"Fix #{spec.issue}",
            spec.branch_name,
            repo.default_branch,
            body=f"Closes #{spec.issue}",
            create_head=True,
        )
        self.store.set_ci(repo, pull.head_sha, "success", self.user)
        return SessionSpec(
            id=spec.id, repo=spec.repo, issue=spec.issue, branch=spec.branch, pr=pull.number
        )

    def add_review_comments(self, spec: SessionSpec, count: int) -> None:
        repo = self.store.get_repo(*spec.repo.split("/", 1))
        pull = self.store.pull(repo, spec.pr) if spec.pr is not None else None
        if pull is None:
            return
        for k in range(count):
            self.store.add_review_comment(pull, self.reviewer, f"Please fix this ({k + 1})")

    # -- measurements ---------------------------------------------------------------

    def rate_limit_snapshot(self) -> dict[str, Any]:
        """``GET /rate_limit`` in-process with the workload's token (free, untraced)."""
        resp = self.handle(
            HttpRequest("GET", "/rate_limit", {"Authorization": f"token {self.token}"})
        )
        import json

        doc = json.loads(resp.body)
        return {"capturedAt": self.clock.now(), "resources": doc.get("resources", {})}

    def ledger_summary(self, start: float, end: float) -> dict[str, Any]:
        """Points charged per resource in ``[start, end]`` and the charge count."""
        entries = self.emulator.limiter.entries(since=start, until=end + 1e-6)
        totals: dict[str, int] = {}
        for e in entries:
            totals[e.resource] = totals.get(e.resource, 0) + e.cost
        return {"charges": len(entries), "points": totals, "start": start, "end": end}
