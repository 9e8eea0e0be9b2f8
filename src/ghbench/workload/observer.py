"""AO 0.10's SCM observer, once: what its daemon asks GitHub each tick.

One ``tick()`` is one ``Observer.Poll`` of 0.10.3 (``backend/internal/observe/scm``),
every call one after another (the Go observer runs no two at once):

1. **PR-list guard** per watched repo (the repos of live sessions):
   ``pulls?…&per_page=1`` with the repo's last ETag.
2. **Open-PR list** of a repo whose guard did not answer 304 (``per_page=100``, paged,
   behind its client's own ETag cache): new PRs are attributed to the session whose
   branch they are on (or below: ``branch/…``, a ``…/root`` branch's namespace).
3. **Check-runs guard** per tracked open PR with a known head commit, always; a PR is
   refreshed when it changed, its repo's guard did, or the store lacks its state.
4. **GraphQL batches** of at most ``batch_max_prs`` PRs to refresh (and a check-context
   page query for a PR with more contexts than one page).
5. **Failed-job log tails** over REST (a redirect, then the log) for a PR whose CI
   fails with checks whose tails the store does not hold for that head.
6. **Review threads** (GraphQL, a second, older page when the latest 50 start with an
   unresolved thread) for a PR whose stored review state is missing or stale, whose
   last fetch failed, or, while changes are requested, every ``review_interval``.

State: the daemon's store (SQLite: what it knows of each PR, ``TrackedPr``) survives a
restart; its ETag caches and review timestamps (memory, FIFO) do not (``restart()``):
after a restart every guard and the list answer 200, every PR is refreshed. A PR
given with its session (``SessionSpec.pr``) is one the store holds from before
(setup's daemon found it), not yet observed: the first tick refreshes it and reads its
reviews, as a real window after ``ghbench setup`` shows.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ghbench.workload import observer_calls as go
from ghbench.workload.caches import FifoCache, TtlCache
from ghbench.workload.calls import BatchTarget, GhCall, parse_api_output
from ghbench.workload.config import SessionSpec
from ghbench.workload.observer_state import (
    CHANGES_REQUESTED,
    Observation,
    TrackedPr,
    decision_of,
    observation_of,
)
from ghbench.workload.poller import SessionState, TickReport
from ghbench.workload.profiles import PolicyParams
from ghbench.workload.runner import CallRunner

__all__ = ["Observer"]


@dataclass(frozen=True)
class _Answer:
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
class _Guard:
    """A guard's outcome (``repoGuardState``/``SCMGuardResult``)."""

    failed: bool
    not_modified: bool = False
    etag: str | None = None
    had_etag: bool = False

    @property
    def changed(self) -> bool:
        return not self.failed and not self.not_modified


@dataclass
class _Poll:
    """One poll's working state: guards, failures, what to refresh, what was observed."""

    report: TickReport
    now: float
    guards: dict[str, _Guard] = field(default_factory=dict)
    failed_repos: set[str] = field(default_factory=set)
    refresh: list[TrackedPr] = field(default_factory=list)
    commit_etags: dict[tuple[str, int], tuple[tuple[str, str], str]] = field(default_factory=dict)
    observed: dict[tuple[str, int], Observation] = field(default_factory=dict)
    reviewed: dict[tuple[str, int], str] = field(default_factory=dict)  # PR -> decision
    review_failed: set[tuple[str, int]] = field(default_factory=set)

    def count(self, what: str) -> None:
        self.report.calls[what] += 1


class Observer:
    """AO 0.10's SCM observer for the sessions it watches, against a ``CallRunner``."""

    def __init__(
        self,
        policy: PolicyParams,
        runner: CallRunner,
        *,
        repos: tuple[str, ...],
        sessions: tuple[SessionSpec, ...] = (),
    ) -> None:
        del repos  # the daemon polls the repos of its live sessions, no other
        self.policy = policy
        self.runner = runner
        self.sessions: dict[str, SessionState] = {}
        self.store: dict[tuple[str, int], TrackedPr] = {}
        # the dashboard readers' issue cache (S6): AO 0.10's desktop app reads the daemon
        self.issues: TtlCache[tuple[str, int], bool] = TtlCache(policy.issue_cache_ttl)
        self._init_caches()
        for spec in sessions:
            self.add_session(spec)

    def _init_caches(self) -> None:
        p = self.policy
        self.repo_etags: FifoCache[str, str] = FifoCache(p.etag_cache_repos)
        self.commit_etags: FifoCache[tuple[str, str], str] = FifoCache(p.etag_cache_commits)
        self.last_review: FifoCache[tuple[str, int], float] = FifoCache(p.etag_cache_prs)
        self.review_failed: FifoCache[tuple[str, int], bool] = FifoCache(p.etag_cache_prs)
        # the HTTP client's cache of other GETs: URL -> (ETag, body)
        self.requests: FifoCache[str, tuple[str, bytes]] = FifoCache(p.etag_cache_requests)

    def restart(self) -> None:
        """The daemon restarts: its memory is gone, its store is not."""
        self._init_caches()

    def add_session(self, spec: SessionSpec) -> None:
        """A session (``ao spawn``; its agent opens its PR, the observer finds it)."""
        self.sessions[spec.id] = SessionState(spec, spec.pr)
        if spec.pr is not None:
            key = (spec.repo, spec.pr)
            self.store.setdefault(key, TrackedPr(spec.id, spec.repo, spec.pr))

    # -- one poll ----------------------------------------------------------------------

    def tick(self) -> TickReport:
        report = TickReport(started_at=self.runner.now())
        before = self.runner.calls_made
        live = [s for s in self.sessions.values() if not s.terminal]
        repos = list(dict.fromkeys(s.repo for s in live))
        if repos:
            poll = _Poll(report, report.started_at)
            for repo in repos:
                poll.guards[repo] = self._guard_repo(repo, poll)
            for repo in repos:
                self._discover(repo, [s for s in live if s.repo == repo], poll)
            self._select(live, poll)
            report.changed = bool(poll.refresh)
            self._batches(poll)
            for obs in poll.observed.values():
                self._failure_logs(obs, poll)
            self._reviews(live, poll)
            self._persist(poll)
        report.ended_at = self.runner.now()
        report.calls["total"] = self.runner.calls_made - before
        return report

    def _answer(self, call: GhCall, session: str | None = None) -> _Answer:
        """The call's answer; ``session``: the session whose PR it is about (a trace that
        attributes rows names it: what a replay of n sessions scales by)."""
        if session is not None:
            call = dataclasses.replace(call, session_id=session)
        out = parse_api_output(self.runner.call(call).stdout)
        return _Answer(out.status, out.headers, out.body)

    def _guard_repo(self, repo: str, poll: _Poll) -> _Guard:
        prev = self.repo_etags.get(repo)
        answer = self._answer(go.pr_list_guard(repo, prev))
        poll.count("guard-pr-list")
        return _guard(answer, prev)

    def _discover(self, repo: str, sessions: list[SessionState], poll: _Poll) -> None:
        """``discoverNewPRs``: list a changed repo's open PRs, attribute new ones."""
        guard = poll.guards[repo]
        if guard.failed or (guard.not_modified and guard.had_etag):
            return
        pulls = self._open_prs(repo, poll)
        if pulls is None:
            poll.failed_repos.add(repo)
            return
        for pr in pulls:
            number, branch, sha = pr.get("number"), _dig(pr, "head", "ref"), _dig(pr, "head", "sha")
            if not isinstance(number, int) or not isinstance(branch, str) or not branch:
                continue
            known = self.store.get((repo, number))
            if known is not None:
                if known.head_sha is None and isinstance(sha, str):
                    known.head_sha = sha  # the store's head, as setup's daemon saw it
                continue
            if str(_dig(pr, "head", "repo", "full_name")).lower() != repo.lower():
                continue  # a fork's PR: only a session's own origin attributes
            owner = _owner_session(sessions, branch)
            if owner is None:
                continue
            self.store[(repo, number)] = TrackedPr(
                owner.id, repo, number, head_sha=sha if isinstance(sha, str) else None
            )
            if owner.pr is None:
                owner.pr = number

    def _open_prs(self, repo: str, poll: _Poll) -> list[dict[str, Any]] | None:
        per_page = self.policy.list_per_page
        out: list[dict[str, Any]] = []
        page = 1
        while True:
            cached = self.requests.get(f"{repo}#{page}")
            etag = cached[0] if cached is not None else None
            answer = self._answer(go.open_prs_page(repo, page, per_page, etag))
            poll.count("list-open-prs")
            if answer.status == 304 and cached is not None:
                body = cached[1]
            elif answer.ok:
                body = answer.body
                if answer.headers.get("etag"):
                    self.requests.put(f"{repo}#{page}", (answer.headers["etag"], body))
            else:
                return None
            try:
                pulls = json.loads(body)
            except ValueError:
                return None
            if not isinstance(pulls, list):
                return None
            out += [p for p in pulls if isinstance(p, dict)]
            if len(pulls) < per_page:
                return out
            page += 1

    def _select(self, live: list[SessionState], poll: _Poll) -> None:
        """``selectRefreshCandidates``: every tracked open PR's check-runs guard."""
        alive = {s.id for s in live}
        for pr in list(self.store.values()):
            if pr.terminal or pr.session_id not in alive:
                continue
            candidate = pr.missing_state or poll.guards[pr.repo].changed
            if pr.head_sha:
                key = (pr.repo, pr.head_sha)
                prev = self.commit_etags.get(key)
                request = go.commit_checks_guard(pr.repo, pr.head_sha, prev)
                answer = self._answer(request, pr.session_id)
                poll.count("guard-commit-status")
                guard = _guard(answer, prev)
                if guard.failed:
                    poll.failed_repos.add(pr.repo)
                elif not guard.not_modified:
                    candidate = True
                    if guard.etag:
                        poll.commit_etags[pr.key] = (key, guard.etag)
            if candidate:
                poll.refresh.append(pr)

    def _batches(self, poll: _Poll) -> None:
        size = self.policy.batch_max_prs
        for i in range(0, len(poll.refresh), size):
            chunk = poll.refresh[i : i + size]
            targets = [BatchTarget(pr.repo, pr.number) for pr in chunk]
            answer = self._answer(go.batch(targets, self.policy.batch_contexts_first))
            poll.count("graphql-batch")
            poll.report.batched_prs += len(chunk)
            data = _graphql_data(answer)
            for n, pr in enumerate(chunk):
                node = _dig(data, f"pr{n}", "pullRequest") if data is not None else None
                if isinstance(node, dict) and self._all_contexts(pr, node, poll):
                    poll.observed[pr.key] = observation_of(pr.repo, pr.number, node)
                else:
                    poll.failed_repos.add(pr.repo)

    def _all_contexts(self, pr: TrackedPr, node: dict[str, Any], poll: _Poll) -> bool:
        """``fetchRemainingCheckContexts``: the pages of a rollup of many checks."""
        contexts = _contexts(node)
        while isinstance(contexts, dict) and _dig(contexts, "pageInfo", "hasNextPage"):
            cursor = _dig(contexts, "pageInfo", "endCursor")
            if not isinstance(cursor, str) or not cursor:
                return False
            call = go.check_contexts(pr.repo, pr.number, cursor, self.policy.batch_contexts_first)
            answer = self._answer(call, pr.session_id)
            poll.count("check-contexts")
            page = _contexts(_dig(_graphql_data(answer), "repo", "pullRequest"))
            if not isinstance(page, dict):
                return False
            contexts.setdefault("nodes", []).extend(page.get("nodes") or [])
            contexts["pageInfo"] = page.get("pageInfo")
        return True

    def _failure_logs(self, obs: Observation, poll: _Poll) -> None:
        """``enrichFailureLogs``: the tails of failed jobs the store does not hold."""
        if not obs.failing or not obs.fingerprint:
            return
        stored = self.store[obs.key].stored_tails(obs)
        if stored is not None:
            obs.log_tails = stored
            return
        tails = []
        for check in obs.failed_checks:
            if not check.job_id:
                continue
            answer = self._answer(go.failed_job_log(obs.repo, check.job_id))
            poll.count("failed-job-log")
            location = answer.headers.get("location")
            if answer.status in (301, 302, 303, 307, 308) and location:
                answer = self._answer(go.blob_download(location))
                poll.count("failed-job-log")
            tail = _tail(answer.body) if answer.ok else f"<log fetch failed: {answer.status}>"
            tails.append((check.name, tail))
        obs.log_tails = tuple(tails)

    def _reviews(self, live: list[SessionState], poll: _Poll) -> None:
        """``refreshReviews``: review threads where the review state calls for them."""
        alive = {s.id for s in live}
        for pr in list(self.store.values()):
            if pr.terminal or pr.session_id not in alive:
                continue
            obs = poll.observed.get(pr.key)
            decision = obs.decision if obs is not None and obs.decision else pr.review
            if not self._needs_review(pr, decision, has_obs=obs is not None, now=poll.now):
                continue
            fetched = self._review_threads(pr, poll)
            if fetched is None:
                self.review_failed.put(pr.key, True)
                poll.review_failed.add(pr.key)
                continue
            poll.reviewed[pr.key] = fetched or decision
            self.review_failed.pop(pr.key)

    def _needs_review(self, pr: TrackedPr, decision: str, *, has_obs: bool, now: float) -> bool:
        if self.review_failed.get(pr.key) or pr.review_hash is None:
            return True
        if decision == CHANGES_REQUESTED:
            last = self.last_review.get(pr.key)
            return last is None or now - last >= self.policy.review_interval
        if has_obs and decision != pr.review:
            return True
        return pr.review == CHANGES_REQUESTED

    def _review_threads(self, pr: TrackedPr, poll: _Poll) -> str | None:
        """The review decision read with the threads, or None when the fetch failed."""
        answer = self._answer(go.review_threads(pr.repo, pr.number), pr.session_id)
        poll.count("review-threads")
        node = _dig(_graphql_data(answer), "repo", "pullRequest")
        if not isinstance(node, dict):
            return None
        threads = node.get("reviewThreads") or {}
        nodes = threads.get("nodes") or []
        cursor = _dig(threads, "pageInfo", "startCursor")
        older = _dig(threads, "pageInfo", "hasPreviousPage")
        if older and (not nodes or not _dig(nodes[0], "isResolved")) and cursor:
            older = go.review_threads(pr.repo, pr.number, before=cursor)
            answer = self._answer(older, pr.session_id)
            poll.count("review-threads")
            if not isinstance(_dig(_graphql_data(answer), "repo", "pullRequest"), dict):
                return None
        return decision_of(node.get("reviewDecision"))

    def _persist(self, poll: _Poll) -> None:
        """What a poll leaves: the store's state of every PR it observed, and the ETags
        and review times of what it refreshed without a failure."""
        for key, obs in poll.observed.items():
            stale = key in poll.review_failed  # the stored review state is kept
            self.store[key].observe(obs, poll.reviewed.get(key), keep_review=stale)
        for key, decision in poll.reviewed.items():
            if key not in poll.observed:
                self.store[key].review_only(decision)
            self.last_review.put(key, poll.now)
        for key, (commit, etag) in poll.commit_etags.items():
            if key in poll.observed:
                self.commit_etags.put(commit, etag)
        for repo, guard in poll.guards.items():
            if not guard.failed and guard.etag and repo not in poll.failed_repos:
                self.repo_etags.put(repo, guard.etag)
        self._retire_sessions()

    def _retire_sessions(self) -> None:
        """A session whose PRs are all merged or closed is done (AO's completion rule)."""
        by_session: dict[str, list[TrackedPr]] = {}
        for pr in self.store.values():
            by_session.setdefault(pr.session_id, []).append(pr)
        for sid, prs in by_session.items():
            s = self.sessions.get(sid)
            if s is not None and prs and all(pr.terminal for pr in prs):
                s.terminal = True


def _guard(answer: _Answer, prev: str | None) -> _Guard:
    """A guard's outcome: 304 (unchanged), 2xx (changed), anything else a failure."""
    if answer.status == 304:
        return _Guard(False, True, answer.headers.get("etag") or prev, prev is not None)
    if answer.ok:
        return _Guard(False, False, answer.headers.get("etag") or prev, prev is not None)
    return _Guard(True, had_etag=prev is not None)


def _dig(value: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def _graphql_data(answer: _Answer) -> dict[str, Any] | None:
    """The ``data`` of a GraphQL answer without errors (AO treats any error as failed)."""
    doc = answer.json() if answer.ok else None
    if not isinstance(doc, dict) or doc.get("errors"):
        return None
    data = doc.get("data")
    return data if isinstance(data, dict) else None


def _contexts(node: Any) -> Any:
    commits = _dig(node, "commits", "nodes")
    for commit in commits if isinstance(commits, list) else []:
        contexts = _dig(commit, "commit", "statusCheckRollup", "contexts")
        if contexts is not None:
            return contexts
    return None


def _owner_session(sessions: Iterable[SessionState], branch: str) -> SessionState | None:
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


def _tail(body: bytes) -> str:
    lines = body.decode("utf-8", "replace").rstrip("\n").split("\n")
    return "\n".join(lines[-TAIL_LINES:])
