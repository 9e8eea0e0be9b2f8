"""AO's lifecycle poller, once: guards, batch, PR detection, review throttle, caches.

One ``tick()`` is one run of AO's 30 s ``setInterval`` body (reference §5):

1. **Guard 1** per repo (parallel): ``pulls?state=open&sort=updated…&per_page=1`` with
   the repo's ETag. Anything but a 304 means "changed" (errors too; before B1 a
   304 also did, ``count_304_as_change``).
2. **Guard 2**, only when no repo changed: per PR with a known head commit, one
   after another, ``commits/{sha}/check-runs?per_page=1`` (``/status`` at bench-era).
3. **GraphQL batch**: when anything changed, every PR in chunks of ``batch_max_prs``;
   otherwise only PRs missing from the enrichment cache.
4. **checkSession** per session (parallel): PR detection for PR-less sessions
   (only when their repo changed; positive results cached), ``pr view --json state``
   when the batch has no data for a PR, then the review guard at most once per
   ``review_interval`` per PR, and the thread query after it changed.

The poller is pure policy: every call goes through a ``CallRunner``, every time
comes from it, and its state is the caches a restart loses (``restart()``). The
parallel parts are lanes, generators that yield one call at a time, so the runner
can interleave them in time order (virtual time) or run them one by one.
"""

from __future__ import annotations

import functools
import json
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any

from ghbench.workload import calls as ao
from ghbench.workload.caches import LruCache, TtlCache
from ghbench.workload.calls import BatchTarget, GhCall, GhResult, parse_api_output
from ghbench.workload.config import SessionSpec
from ghbench.workload.profiles import PolicyParams
from ghbench.workload.runner import CallRunner, Lane

__all__ = ["BasePoller", "Enrichment", "Poller", "SessionState", "TickReport"]

TERMINAL_PR_STATES = frozenset({"MERGED", "CLOSED"})


@dataclass
class SessionState:
    """What AO's session metadata holds for one session."""

    spec: SessionSpec
    pr: int | None
    terminal: bool = False

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def repo(self) -> str:
        return self.spec.repo


@dataclass(frozen=True)
class Enrichment:
    """The part of a batch answer the poller uses."""

    state: str
    head_sha: str | None


@dataclass
class TickReport:
    """What one tick did, for tests and progress output."""

    started_at: float
    ended_at: float = 0.0
    calls: Counter[str] = field(default_factory=Counter)
    changed: bool = False
    batched_prs: int = 0

    @property
    def duration(self) -> float:
        return self.ended_at - self.started_at


def _api_status(result: GhResult) -> tuple[int | None, dict[str, str], bytes]:
    out = parse_api_output(result.stdout)
    return out.status, out.headers, out.body


def _load_json(data: bytes) -> Any:
    try:
        return json.loads(data) if data.strip() else None
    except ValueError:
        return None


class BasePoller(ABC):
    """What both of the model's pollers are made from (``ghbench.workload.pollers``):
    an AO policy, a ``CallRunner``, and the sessions it watches, set up by ``watch``."""

    def __init__(
        self,
        policy: PolicyParams,
        runner: CallRunner,
        *,
        repos: tuple[str, ...],
        sessions: tuple[SessionSpec, ...] = (),
    ) -> None:
        self.policy = policy
        self.runner = runner
        self.sessions: dict[str, SessionState] = {}
        self.watch(repos, sessions)

    @abstractmethod
    def watch(self, repos: tuple[str, ...], sessions: tuple[SessionSpec, ...]) -> None:
        """Start watching ``repos`` and ``sessions``, as this poller's AO does."""


class Poller(BasePoller):
    """AO's lifecycle manager for one project, against a ``CallRunner``."""

    def watch(self, repos: tuple[str, ...], sessions: tuple[SessionSpec, ...]) -> None:
        self.repos = list(repos)
        self._init_caches()
        for spec in sessions:
            self.sessions[spec.id] = SessionState(spec, spec.pr)
            if spec.repo not in self.repos:
                self.repos.append(spec.repo)

    def _init_caches(self) -> None:
        p = self.policy
        self.repo_etags: LruCache[str, str] = LruCache(p.etag_cache_repos)
        self.commit_etags: LruCache[str, str] = LruCache(p.etag_cache_commits)
        self.review_etags: LruCache[tuple[str, int], str] = LruCache(p.etag_cache_prs)
        self.enrichment: LruCache[tuple[str, int], Enrichment] = LruCache(p.enrichment_cache_size)
        self.detected: TtlCache[str, int] = TtlCache(p.detect_pr_cache_ttl)
        self.pr_states: TtlCache[tuple[str, int], str] = TtlCache(p.pr_state_ttl)
        self.issues: TtlCache[tuple[str, int], bool] = TtlCache(p.issue_cache_ttl)
        self.last_review: dict[tuple[str, int], float] = {}

    # -- session management (spawn, restart) ---------------------------------

    def restart(self) -> None:
        """A process restart: every in-memory cache and ETag is lost; metadata stays."""
        self._init_caches()

    def add_session(self, spec: SessionSpec) -> None:
        """A new session (``ao spawn``): AO reads its issue once, through the cache."""
        self.sessions[spec.id] = SessionState(spec, spec.pr)
        if spec.repo not in self.repos:
            self.repos.append(spec.repo)
        if self.policy.issue_view_on_spawn and spec.issue is not None:
            self.view_issue(spec.repo, spec.issue, session_id=spec.id)

    def view_issue(
        self,
        repo: str,
        number: int,
        *,
        component: str = ao.COMPONENT_TRACKER,
        session_id: str | None = None,
    ) -> bool:
        """``gh issue view`` behind the 5-minute cache; True when it made a call."""
        key = (repo, number)
        if self.issues.get(key, self.runner.now()) is not None:
            return False
        res = self.runner.call(
            ao.issue_view(repo, number, component=component, session_id=session_id)
        )
        if res.exit_code == 0:
            self.issues.put(key, True, self.runner.now())
        return True

    def live_pr_sessions(self) -> list[SessionState]:
        return [s for s in self.sessions.values() if s.pr is not None and not s.terminal]

    # -- one tick --------------------------------------------------------------

    def tick(self) -> TickReport:
        report = TickReport(started_at=self.runner.now())
        before = self.runner.calls_made
        changed_repos = self._guard_pr_lists(report)
        changed = bool(changed_repos)
        prs = self.live_pr_sessions()
        if not changed and self.policy.guard_commit != "none":
            changed = self._guard_commits(prs, report)
        report.changed = changed
        self._batch(prs, refresh_all=changed, report=report)
        self.runner.parallel(
            [self._check_lane(s, changed_repos, report) for s in self.sessions.values()]
        )
        report.ended_at = self.runner.now()
        report.calls["total"] = self.runner.calls_made - before
        return report

    def _guard_pr_lists(self, report: TickReport) -> set[str]:
        changed: set[str] = set()
        if not self.policy.guard_pr_list:
            return set(self.repos)

        def lane(repo: str) -> Lane:
            res = yield ao.guard_pr_list(repo, self.repo_etags.get(repo))
            report.calls[ao.GUARD_PR_LIST] += 1
            status, headers, _ = _api_status(res)
            if status == 304 and not self.policy.count_304_as_change:
                return
            changed.add(repo)
            if res.exit_code == 0 and headers.get("etag"):
                self.repo_etags.put(repo, headers["etag"])

        self.runner.parallel([functools.partial(lane, repo) for repo in self.repos])
        return changed

    def _guard_commits(self, prs: list[SessionState], report: TickReport) -> bool:
        """Guard 2, one PR after another, no early exit (AO's loop)."""
        changed = False
        for s in prs:
            assert s.pr is not None
            info = self.enrichment.get((s.repo, s.pr))
            if info is None or not info.head_sha:
                changed = True  # nothing to guard with; the batch will fetch it
                continue
            sha = info.head_sha
            res = self.runner.call(
                ao.guard_commit(s.repo, sha, self.policy.guard_commit, self.commit_etags.get(sha))
            )
            report.calls[ao.GUARD_COMMIT_STATUS] += 1
            status, headers, _ = _api_status(res)
            if status == 304 and not self.policy.count_304_as_change:
                continue
            changed = True
            if res.exit_code == 0 and headers.get("etag"):
                self.commit_etags.put(sha, headers["etag"])
        return changed

    def _batch(self, prs: list[SessionState], *, refresh_all: bool, report: TickReport) -> None:
        targets = [
            BatchTarget(s.repo, s.pr)
            for s in prs
            if s.pr is not None and (refresh_all or (s.repo, s.pr) not in self.enrichment)
        ]
        if not targets:
            return
        size = self.policy.batch_max_prs
        chunks = [targets[i : i + size] for i in range(0, len(targets), size)]
        report.batched_prs += len(targets)

        def lane(chunk: list[BatchTarget]) -> Lane:
            res = yield ao.graphql_batch(chunk, self.policy.batch_contexts_first)
            report.calls[ao.BATCH] += 1
            if res.exit_code != 0:
                return  # AO keeps its old data; the PRs stay uncached and get a pr view
            _, _, body = _api_status(res)
            self._store_batch(chunk, _load_json(body))

        self.runner.parallel([functools.partial(lane, chunk) for chunk in chunks])

    def _store_batch(self, chunk: list[BatchTarget], doc: Any) -> None:
        data = doc.get("data") if isinstance(doc, dict) else None
        if not isinstance(data, dict):
            return
        for i, t in enumerate(chunk):
            repo_node = data.get(f"pr{i}")
            pr = repo_node.get("pullRequest") if isinstance(repo_node, dict) else None
            if not isinstance(pr, dict):
                continue
            self.enrichment.put(
                (t.repo, t.number),
                Enrichment(state=str(pr.get("state", "OPEN")), head_sha=pr.get("headRefOid")),
            )

    # -- checkSession ------------------------------------------------------------

    def _check_lane(
        self, s: SessionState, changed_repos: set[str], report: TickReport
    ) -> Callable[[], Lane]:
        def lane() -> Lane:
            if s.terminal:
                return
            if s.pr is None:
                yield from self._detect(s, changed_repos, report)
                return
            state = yield from self._pr_state(s, report)
            if state in TERMINAL_PR_STATES:
                s.terminal = True
                return
            yield from self._reviews(s, report)

        return lane

    def _detect(self, s: SessionState, changed_repos: set[str], report: TickReport) -> Lane:
        p = self.policy
        if not p.detect_pr:
            return
        if p.detect_pr_only_on_repo_change and s.repo not in changed_repos:
            return
        now = self.runner.now()
        cached = self.detected.get(s.id, now)
        if cached is not None:
            s.pr = cached
            return
        res = yield ao.detect_pr(s.repo, s.spec.branch_name, s.id)
        report.calls["gh.pr.list"] += 1
        found = _load_json(res.stdout) if res.exit_code == 0 else None
        if isinstance(found, list) and found and isinstance(found[0], dict):
            number = found[0].get("number")
            if isinstance(number, int):
                self.detected.put(s.id, number, self.runner.now())
                s.pr = number

    def _pr_state(
        self, s: SessionState, report: TickReport
    ) -> Generator[GhCall, GhResult, str | None]:
        assert s.pr is not None
        key = (s.repo, s.pr)
        info = self.enrichment.get(key)
        if info is not None:
            return info.state
        if not self.policy.pr_view_on_batch_miss:
            return None
        cached = self.pr_states.get(key, self.runner.now())
        if cached is not None:
            return cached
        res = yield ao.pr_view_state(s.repo, s.pr, s.id)
        report.calls["gh.pr.view"] += 1
        doc = _load_json(res.stdout) if res.exit_code == 0 else None
        state = doc.get("state") if isinstance(doc, dict) else None
        if isinstance(state, str):
            self.pr_states.put(key, state, self.runner.now())
            return state
        return None

    def _reviews(self, s: SessionState, report: TickReport) -> Lane:
        assert s.pr is not None
        p = self.policy
        key = (s.repo, s.pr)
        # AO's throttle compares Date.now() at this check with the last check's; the
        # check comes after the tick's guards, whose time varies, so four ticks later
        # it is as often just under 2 min as just over, and the PR waits a 5th tick
        now = self.runner.now()
        last = self.last_review.get(key)
        if last is not None and now - last < p.review_interval:
            return
        self.last_review[key] = now
        call = ao.review_comments(
            s.repo, s.pr, self.review_etags.get(key), guarded=p.review_comments_etag
        )
        res = yield call
        report.calls[call.operation or "gh.api.repos"] += 1
        changed = True
        if p.review_comments_etag:
            status, headers, _ = _api_status(res)
            changed = status != 304
            if res.exit_code == 0 and headers.get("etag"):
                self.review_etags.put(key, headers["etag"])
        if p.review_threads == "always" or (p.review_threads == "on-change" and changed):
            yield ao.review_threads(s.repo, s.pr, include=p.review_threads_include)
            report.calls["gh.api.graphql"] += 1
