"""AO 0.10's and 0.12's SCM observer, once: what its daemon asks GitHub each tick.

One ``tick()`` is one ``Observer.Poll`` of 0.10.3 or 0.12.6
(``backend/internal/observe/scm``), every call one after another (the Go observer runs
no two at once); what 0.12.6 changed is policy (``PolicyParams``, its profile):

1. **PR-list guard** per watched repo (the repos of live sessions):
   ``pulls?…&per_page=1`` with the repo's last ETag. (0.12: first, once per process,
   the token's user, ``GET /user``; only its PRs are attributed.)
2. **Open-PR list** of a repo whose guard did not answer 304 (``per_page=100``, paged,
   behind its client's own ETag cache): new PRs are attributed to the session whose
   branch they are on (or below: ``branch/…``, a ``…/root`` branch's namespace).
   (0.12: ``since`` the repo's last sync less 5 minutes, which GitHub ignores.)
3. **Check-runs guard** per tracked open PR with a known head commit, always; a PR is
   refreshed when it changed, its repo's guard did, or the store lacks its state.
   (0.12: ``per_page=100``, a commit with more runs reads its other pages and keeps
   their fingerprint for an ETag; once a repo has synced, its guard's change refreshes
   only the PRs the list holds; a listed PR, or any PR of a repo not yet synced, not
   fetched for ``pr_max_age`` is; a tracked open PR the list no longer holds is
   fetched in a batch of its own, the terminal reconciliation.)
4. **GraphQL batches** of at most ``batch_max_prs`` PRs to refresh (and a check-context
   page query for a PR with more contexts than one page). (``rate_limit_cooldown``: a
   rate-limited batch stops batches for a while; 0.12.6 has the code, but for GitHub's
   errors it never starts.)
5. **Failed-job log tails** over REST (a redirect, then the log) for a PR whose CI
   fails with checks whose tails the store does not hold for that head.
6. **Review threads** (GraphQL, a second, older page when the latest 50 start with an
   unresolved thread) for a PR whose stored review state is missing or stale, whose
   last fetch failed, or, while changes are requested, every ``review_interval``.
   (0.12: also when a refreshed PR was updated after its reviews were last written.)
7. (0.12, ``auto_review``) a reviewer agent's review of each PR head that waited a
   minute (``autoreview``: a sweep every minute, approximated by the poll's tick).

State: the daemon's store (SQLite: what it knows of each PR, ``TrackedPr``) survives a
restart; its ETag caches, review timestamps, sync cursors and fetch times (memory,
FIFO) do not (``restart()``): after a restart every guard and the list answer 200,
every PR is refreshed. A PR given with its session (``SessionSpec.pr``) is one the
store holds from before (setup's daemon found it), not yet observed: the first tick
refreshes it and reads its reviews, as a real window after ``ghbench setup`` shows.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ghbench.workload import observer_calls as go
from ghbench.workload.caches import FifoCache, TtlCache
from ghbench.workload.calls import BatchTarget, GhCall, parse_api_output
from ghbench.workload.config import SessionSpec
from ghbench.workload.observer_answers import (
    Answer,
    Guard,
    check_runs_fingerprint,
    contexts_of,
    dig,
    graphql_data,
    guard_of,
    owner_session,
    rate_limit_cooldown,
    tail,
)
from ghbench.workload.observer_state import (
    CHANGES_REQUESTED,
    Observation,
    TrackedPr,
    decision_of,
    observation_of,
)
from ghbench.workload.poller import BasePoller, SessionState, TickReport

__all__ = ["Observer"]


@dataclass
class _Poll:
    """One poll's working state: guards, failures, what to refresh, what was observed."""

    report: TickReport
    now: float
    guards: dict[str, Guard] = field(default_factory=dict)
    failed_repos: set[str] = field(default_factory=set)
    list_failed: set[str] = field(default_factory=set)
    listed: dict[str, set[int]] = field(default_factory=dict)  # repo -> PRs it listed
    reconciled: list[TrackedPr] = field(default_factory=list)
    refresh: list[TrackedPr] = field(default_factory=list)
    commit_etags: dict[tuple[str, int], tuple[tuple[str, str], str]] = field(default_factory=dict)
    observed: dict[tuple[str, int], Observation] = field(default_factory=dict)
    reviewed: dict[tuple[str, int], str] = field(default_factory=dict)  # PR -> decision
    review_failed: set[tuple[str, int]] = field(default_factory=set)

    def count(self, what: str) -> None:
        self.report.calls[what] += 1


class Observer(BasePoller):
    """AO 0.10's or 0.12's SCM observer for the sessions it watches, against a
    ``CallRunner``."""

    def watch(self, repos: tuple[str, ...], sessions: tuple[SessionSpec, ...]) -> None:
        del repos  # the daemon polls the repos of its live sessions, no other
        self.store: dict[tuple[str, int], TrackedPr] = {}
        # the auto-review runs' heads (the store's review runs: they survive a restart)
        self.reviewed_heads: set[tuple[str, int, str]] = set()
        # the dashboard readers' issue cache (S6): AO 0.10's desktop app reads the daemon
        self.issues: TtlCache[tuple[str, int], bool] = TtlCache(self.policy.issue_cache_ttl)
        self._init_caches()
        for spec in sessions:
            self.add_session(spec)

    def _init_caches(self) -> None:
        p = self.policy
        self.repo_etags: FifoCache[str, str] = FifoCache(p.etag_cache_repos)
        self.commit_etags: FifoCache[tuple[str, str], str] = FifoCache(p.etag_cache_commits)
        self.last_review: FifoCache[tuple[str, int], float] = FifoCache(p.etag_cache_prs)
        self.review_failed: FifoCache[tuple[str, int], bool] = FifoCache(p.etag_cache_prs)
        self.last_fetch: FifoCache[tuple[str, int], float] = FifoCache(p.etag_cache_prs)
        # the HTTP client's cache of other GETs: URL -> (ETag, body)
        self.requests: FifoCache[str, tuple[str, bytes]] = FifoCache(p.etag_cache_requests)
        self.sync_cursor: dict[str, float] = {}  # repo -> its last listing's poll
        self.cooldown_until: float | None = None  # GitHub's batches, after a rate limit
        self.login: str | None = None  # the token's user, once read (identity_filter)
        self.login_read = False
        self.head_waiting: dict[tuple[str, int, str], float] = {}  # auto-review: since

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
            self._identity(poll)
            for repo in repos:
                self._discover(repo, [s for s in live if s.repo == repo], poll)
            tracked = self._tracked(live)
            self._select(tracked, poll)
            self._reconcile(tracked, poll)
            report.changed = bool(poll.refresh or poll.reconciled)
            self._batches(poll.reconciled, poll, reconciling=True)
            self._batches(poll.refresh, poll)
            for obs in poll.observed.values():
                self._failure_logs(obs, poll)
            self._reviews(tracked, poll)
            self._persist(poll)
            self._auto_review(tracked, poll)
        report.ended_at = self.runner.now()
        report.calls["total"] = self.runner.calls_made - before
        return report

    def _answer(self, call: GhCall, session: str | None = None) -> Answer:
        """The call's answer; ``session``: the session whose PR it is about (a trace that
        attributes rows names it: what a replay of n sessions scales by)."""
        if session is not None:
            call = dataclasses.replace(call, session_id=session)
        out = parse_api_output(self.runner.call(call).stdout)
        return Answer(out.status, out.headers, out.body)

    def _tracked(self, live: list[SessionState]) -> list[TrackedPr]:
        """The subjects: every tracked open PR of a live session."""
        alive = {s.id for s in live}
        return [pr for pr in self.store.values() if not pr.terminal and pr.session_id in alive]

    def _guard_repo(self, repo: str, poll: _Poll) -> Guard:
        prev = self.repo_etags.get(repo)
        answer = self._answer(go.pr_list_guard(repo, prev))
        poll.count("guard-pr-list")
        return guard_of(answer, prev)

    def _identity(self, poll: _Poll) -> None:
        """``resolveIdentities`` (0.12): the token's user, read until it is known; a
        user (not a bot or an app) attributes only its own PRs."""
        if not self.policy.identity_filter or self.login_read:
            return
        answer = self._answer(go.identity())
        poll.count("identity")
        user = answer.json() if answer.ok else None
        if isinstance(user, dict):
            self.login_read = True
            login = str(user.get("login") or "").strip()
            human = str(user.get("type") or "").strip().lower() == "user"
            self.login = login.lower() if human and login else None

    def _discover(self, repo: str, sessions: list[SessionState], poll: _Poll) -> None:
        """``discoverNewPRs``: list a changed repo's open PRs, attribute new ones."""
        guard = poll.guards[repo]
        if guard.failed or (guard.not_modified and guard.had_etag):
            return
        pulls = self._open_prs(repo, poll)
        if pulls is None:
            poll.failed_repos.add(repo)
            poll.list_failed.add(repo)
            return
        poll.listed[repo] = {p["number"] for p in pulls if isinstance(p.get("number"), int)}
        for pr in pulls:
            number, branch, sha = pr.get("number"), dig(pr, "head", "ref"), dig(pr, "head", "sha")
            if not isinstance(number, int) or not isinstance(branch, str) or not branch:
                continue
            if self.login is not None and str(dig(pr, "user", "login")).lower() != self.login:
                continue  # not the token's user's PR (0.12)
            known = self.store.get((repo, number))
            if known is not None:
                if known.head_sha is None and isinstance(sha, str):
                    known.head_sha = sha  # the store's head, as setup's daemon saw it
                continue
            if str(dig(pr, "head", "repo", "full_name")).lower() != repo.lower():
                continue  # a fork's PR: only a session's own origin attributes
            owner = owner_session(sessions, branch)
            if owner is None:
                continue
            self.store[(repo, number)] = TrackedPr(
                owner.id, repo, number, head_sha=sha if isinstance(sha, str) else None
            )
            if owner.pr is None:
                owner.pr = number

    def _since(self, repo: str) -> str | None:
        """0.12's ``since``: the repo's last sync less the 5-minute overlap, as Go's
        RFC 3339 with nanoseconds (trailing zeros dropped)."""
        cursor = self.sync_cursor.get(repo)
        if cursor is None:
            return None
        ns = round((cursor - SYNC_OVERLAP) * 1e9)
        stamp = datetime.fromtimestamp(ns // 1_000_000_000, UTC).strftime("%Y-%m-%dT%H:%M:%S")
        frac = f"{ns % 1_000_000_000:09d}".rstrip("0")
        return f"{stamp}.{frac}Z" if frac else f"{stamp}Z"

    def _etag_of(self, key: str) -> str | None:
        cached = self.requests.get(key)
        return cached[0] if cached is not None else None

    def _cached_get(self, call: GhCall, key: str, session: str | None = None) -> bytes | None:
        """A GET through its client's ETag cache (``doREST``): the body, or None."""
        cached = self.requests.get(key)
        answer = self._answer(call, session)
        if answer.status == 304 and cached is not None:
            return cached[1]
        if not answer.ok:
            return None
        if answer.headers.get("etag"):
            self.requests.put(key, (answer.headers["etag"], answer.body))
        return answer.body

    def _open_prs(self, repo: str, poll: _Poll) -> list[dict[str, Any]] | None:
        per_page = self.policy.list_per_page
        since = self._since(repo)
        out: list[dict[str, Any]] = []
        page = 1
        while True:
            key = f"{repo}#{page}#{since}"
            call = go.open_prs_page(repo, page, per_page, self._etag_of(key), since)
            body = self._cached_get(call, key)
            poll.count("list-open-prs")
            try:
                pulls = json.loads(body) if body is not None else None
            except ValueError:
                return None
            if not isinstance(pulls, list):
                return None
            out += [p for p in pulls if isinstance(p, dict)]
            if len(pulls) < per_page:
                return out
            page += 1

    def _checks_guard(self, repo: str, sha: str, poll: _Poll, session: str) -> Guard:
        """``CommitChecksGuard``: the first page of a head's check runs with its last
        ETag; a commit with more runs than the page (0.12: up to ``check_runs_pages``)
        reads the others through its client's cache, and their fingerprint is its ETag.
        ``session``: the session whose PR the head is."""
        p = self.policy
        prev = self.commit_etags.get((repo, sha))
        first = go.commit_checks_guard(repo, sha, p.check_runs_per_page, prev)
        answer = self._answer(first, session)
        poll.count("guard-commit-status")
        guard = guard_of(answer, prev)
        if guard.failed or guard.not_modified or p.check_runs_pages <= 1:
            return guard
        doc = answer.json()
        runs, total = dig(doc, "check_runs"), dig(doc, "total_count")
        if not isinstance(runs, list) or not isinstance(total, int):
            return Guard(False, had_etag=prev is not None)  # undecodable: no ETag
        if total <= len(runs):
            return guard
        for page in range(2, p.check_runs_pages + 1):
            if len(runs) >= total:
                break
            key = f"{repo}@{sha}#{page}"
            etag = self._etag_of(key)
            call = go.commit_checks_guard(repo, sha, p.check_runs_per_page, etag, page)
            body = self._cached_get(call, key, session)
            poll.count("guard-commit-status")
            more = dig(json.loads(body), "check_runs") if body is not None else None
            if not isinstance(more, list):
                return Guard(True, had_etag=prev is not None)
            runs = runs + more
            if not more:
                break
        fingerprint = check_runs_fingerprint(runs)
        return Guard(False, fingerprint == prev, fingerprint, prev is not None)

    def _select(self, tracked: list[TrackedPr], poll: _Poll) -> None:
        """``selectRefreshCandidates``: every tracked open PR's check-runs guard."""
        max_age = self.policy.pr_max_age
        for pr in tracked:
            synced = pr.repo in self.sync_cursor
            listed = pr.number in poll.listed.get(pr.repo, ())
            candidate = pr.missing_state
            if poll.guards[pr.repo].changed:
                candidate = candidate or listed or not synced
            if pr.head_sha:
                prev = self.commit_etags.get((pr.repo, pr.head_sha))
                guard = self._checks_guard(pr.repo, pr.head_sha, poll, pr.session_id)
                if guard.failed:
                    poll.failed_repos.add(pr.repo)
                elif guard.changed and guard.etag and guard.etag != prev:
                    # (0.10.3 takes any 2xx; GitHub's and the emulator's carry a new ETag)
                    candidate = True
                    poll.commit_etags[pr.key] = ((pr.repo, pr.head_sha), guard.etag)
            if not candidate and max_age > 0 and (listed or not synced):
                last = self.last_fetch.get(pr.key)
                candidate = last is None or poll.now - last > max_age
            if candidate:
                poll.refresh.append(pr)

    def _reconcile(self, tracked: list[TrackedPr], poll: _Poll) -> None:
        """``reconcileTerminalGitHubPRs`` (0.12): a tracked open PR of a changed repo
        that the list no longer holds (and nothing else refreshes) is fetched, to see
        whether it was merged or closed; its repo's ETag and cursor stay, unless a
        write of that repo's observations changes the store."""
        if not self.policy.incremental_listing:
            return
        chosen = {pr.key for pr in poll.refresh}
        for pr in tracked:
            listed = pr.number in poll.listed.get(pr.repo, ())
            if poll.guards[pr.repo].changed and pr.key not in chosen and not listed:
                poll.reconciled.append(pr)

    def _batches(self, refresh: list[TrackedPr], poll: _Poll, *, reconciling: bool = False) -> None:
        size = self.policy.batch_max_prs
        for i in range(0, len(refresh), size):
            chunk = refresh[i : i + size]
            if self.cooldown_until is not None and poll.now < self.cooldown_until:
                poll.failed_repos.update(pr.repo for pr in chunk)
                continue
            self.cooldown_until = None
            targets = [BatchTarget(pr.repo, pr.number) for pr in chunk]
            p = self.policy
            answer = self._answer(go.batch(targets, p.batch_contexts_first, p.observer_queries))
            poll.count("graphql-batch")
            poll.report.batched_prs += len(chunk)
            data = graphql_data(answer)
            if data is None and p.rate_limit_cooldown:
                cooldown = rate_limit_cooldown(answer, poll.now)
                if cooldown is not None:
                    self.cooldown_until = poll.now + cooldown
            for n, pr in enumerate(chunk):
                node = dig(data, f"pr{n}", "pullRequest") if data is not None else None
                if isinstance(node, dict) and self._all_contexts(pr, node, poll):
                    poll.observed[pr.key] = observation_of(pr.repo, pr.number, node)
                if reconciling or pr.key not in poll.observed:
                    poll.failed_repos.add(pr.repo)

    def _all_contexts(self, pr: TrackedPr, node: dict[str, Any], poll: _Poll) -> bool:
        """``fetchRemainingCheckContexts``: the pages of a rollup of many checks."""
        contexts = contexts_of(node)
        while isinstance(contexts, dict) and dig(contexts, "pageInfo", "hasNextPage"):
            cursor = dig(contexts, "pageInfo", "endCursor")
            if not isinstance(cursor, str) or not cursor:
                return False
            call = go.check_contexts(pr.repo, pr.number, cursor, self.policy.batch_contexts_first)
            answer = self._answer(call, pr.session_id)
            poll.count("check-contexts")
            page = contexts_of(dig(graphql_data(answer), "repo", "pullRequest"))
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
            text = tail(answer.body) if answer.ok else f"<log fetch failed: {answer.status}>"
            tails.append((check.name, text))
        obs.log_tails = tuple(tails)

    def _reviews(self, tracked: list[TrackedPr], poll: _Poll) -> None:
        """``refreshReviews``: review threads where the review state calls for them."""
        for pr in tracked:
            obs = poll.observed.get(pr.key)
            decision = obs.decision if obs is not None and obs.decision else pr.review
            if not self._needs_review(pr, decision, obs, now=poll.now):
                continue
            fetched = self._review_threads(pr, poll)
            if fetched is None:
                self.review_failed.put(pr.key, True)
                poll.review_failed.add(pr.key)
                continue
            poll.reviewed[pr.key] = fetched or decision
            self.review_failed.pop(pr.key)

    def _needs_review(
        self, pr: TrackedPr, decision: str, obs: Observation | None, *, now: float
    ) -> bool:
        on_update = self.policy.review_on_update
        if self.review_failed.get(pr.key) or pr.review_hash is None:
            return True
        if on_update and pr.review_observed_at is None:
            return True
        if decision == CHANGES_REQUESTED:
            last = self.last_review.get(pr.key)
            return last is None or now - last >= self.policy.review_interval
        if obs is not None and decision != pr.review:
            return True
        if pr.review == CHANGES_REQUESTED:
            return True
        updated = obs.updated_at if obs is not None else None
        seen = pr.review_observed_at
        return on_update and updated is not None and seen is not None and updated > seen

    def _review_threads(self, pr: TrackedPr, poll: _Poll) -> str | None:
        """The review decision read with the threads, or None when the fetch failed."""
        queries = self.policy.observer_queries
        request = go.review_threads(pr.repo, pr.number, queries=queries)
        answer = self._answer(request, pr.session_id)
        poll.count("review-threads")
        node = dig(graphql_data(answer), "repo", "pullRequest")
        if not isinstance(node, dict):
            return None
        threads = node.get("reviewThreads") or {}
        nodes = threads.get("nodes") or []
        cursor = dig(threads, "pageInfo", "startCursor")
        older = dig(threads, "pageInfo", "hasPreviousPage")
        if older and (not nodes or not dig(nodes[0], "isResolved")) and cursor:
            request = go.review_threads(pr.repo, pr.number, cursor, queries)
            answer = self._answer(request, pr.session_id)
            poll.count("review-threads")
            if not isinstance(dig(graphql_data(answer), "repo", "pullRequest"), dict):
                return None
        return decision_of(node.get("reviewDecision"))

    def _persist(self, poll: _Poll) -> None:
        """What a poll leaves: the store's state of every PR it observed (in AO's
        dispatch order), and the ETags, review and fetch times of what it refreshed
        without a failure; a repo's ETag (and 0.12's sync cursor) when all of its went
        well, or (0.12) when one of its observations changed the store."""
        rewritten: set[str] = set()
        for key in sorted(poll.observed, key=lambda k: (self.store[k].session_id, k[1], k)):
            obs = poll.observed[key]
            stale = key in poll.review_failed  # the stored review state is kept
            pr = self.store[key]
            if pr.observe(obs, poll.reviewed.get(key), keep_review=stale, now=poll.now):
                rewritten.add(pr.repo)
            self.last_fetch.put(key, poll.now)
        for key, decision in poll.reviewed.items():
            if key not in poll.observed:
                self.store[key].review_only(decision)
            self.last_review.put(key, poll.now)
        for key, (commit, etag) in poll.commit_etags.items():
            if key in poll.observed:
                self.commit_etags.put(commit, etag)
        incremental = self.policy.incremental_listing
        missing = {pr.repo for pr in poll.refresh if pr.key not in poll.observed}
        for repo, guard in poll.guards.items():
            if guard.failed or not guard.etag or repo in missing:
                continue
            recovered = incremental and repo in rewritten and repo not in poll.list_failed
            if repo in poll.failed_repos and not recovered:
                continue
            self.repo_etags.put(repo, guard.etag)
            if incremental and repo in poll.listed:
                self.sync_cursor[repo] = poll.now
        self._retire_sessions()

    def _auto_review(self, tracked: list[TrackedPr], poll: _Poll) -> None:
        """``autoreview`` (0.12, ``auto_review``): a PR head not yet reviewed, once it
        has waited ``AUTO_REVIEW_IDLE`` (the worker idle that long), gets one review
        from a reviewer agent."""
        if not self.policy.auto_review:
            return
        for pr in tracked:
            if not pr.head_sha or pr.metadata_hash is None:
                continue
            head = (pr.repo, pr.number, pr.head_sha)
            if head in self.reviewed_heads:
                continue
            since = self.head_waiting.setdefault(head, poll.now)
            if poll.now - since >= AUTO_REVIEW_IDLE:
                self._answer(go.post_review(pr.repo, pr.number, pr.session_id))
                poll.count("auto-review")
                self.reviewed_heads.add(head)

    def _retire_sessions(self) -> None:
        """A session whose PRs are all merged or closed is done (AO's completion rule)."""
        by_session: dict[str, list[TrackedPr]] = {}
        for pr in self.store.values():
            by_session.setdefault(pr.session_id, []).append(pr)
        for sid, prs in by_session.items():
            s = self.sessions.get(sid)
            if s is not None and prs and all(pr.terminal for pr in prs):
                s.terminal = True


SYNC_OVERLAP = 300.0  # incrementalDiscoveryOverlap
AUTO_REVIEW_IDLE = 60.0  # autoreview.DefaultIdleThreshold
