"""One part of a replay: its copies of the recording re-issued against an emulator of its
own, in virtual time (or paced on the wall clock).

``run_part`` seeds the part's copies (each recorded repository renamed per copy, its PRs
and issues at their recorded numbers), gives the part one token whose buckets and
secondary limits are the recording's times its copies, and re-issues every call of its
copies in recorded time order, each request of a call at its own recorded time. A replay
runs as one part, or as several in parallel whose results ``replay_merge`` joins.
"""

from __future__ import annotations

import heapq
import itertools
import random
import re
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from ghbench.policies.calls import Admission, Call, Verdict
from ghbench.policies.spec import Policies
from ghbench.ratelimit import RateLimitSnapshot
from ghbench.simulation.replay_policies import ReplayStack
from ghbench.simulation.replay_targets import (
    default_repo,
    entities,
    retarget_argv,
    retarget_body,
    seed_copies,
    with_etag,
)
from ghbench.simulation.world import SimWorld
from ghbench.timefmt import format_duration
from ghbench.trace.schema import TraceRow
from ghbench.workload.agents.fixtures import ScriptOutcome, script
from ghbench.workload.agents.rows import exchange_row
from ghbench.workload.calls import GhCall
from ghbench.workload.ghmap import HttpRequest, HttpResponse, plan_call
from ghbench.workload.replay import (
    UNATTRIBUTED,
    PolicyGate,
    ReplayCall,
    ReplayPlan,
    ReplayPolicy,
    copy_repo,
    recorded_sessions,
)
from ghbench.workload.rows import RowSettings, row_for
from ghbench.workload.runner import LaneClock
from ghbench.workload.transport.inprocess import InProcessTransport

__all__ = ["Part", "PartResult", "copies_for", "run_part"]

_COMMIT = re.compile(r"repos/([^/?]+/[^/?]+)/commits/([0-9a-f]{40})")
_RECORDED_ONLY = frozenset({"repo", "run_id"})  # values an argv names that a copy replaces
NOT_MODIFIED = 304
PROGRESS_S = 15.0  # on the wall clock, off a terminal, a long run says how far it is

# (copy, share of its sessions): copy ``c`` runs against repositories ``NAME-c``
Copies = Sequence[tuple[int, float]]


def copies_for(recorded: int, sessions: int) -> list[tuple[int, float]]:
    """(copy, share of its sessions) for each copy of a recording of ``recorded``
    sessions replayed at ``sessions``: whole copies, then a share of one."""
    factor = sessions / recorded
    full = int(factor)
    out = [(c, 1.0) for c in range(full)]
    if factor - full > 1e-9:
        out.append((full, factor - full))
    return out


@dataclass(frozen=True)
class Part:
    """What one part replays, and how."""

    copies: Copies
    seed: int
    limits: Mapping[str, int]  # the recording's hourly limit per bucket, per copy
    policy: ReplayPolicy = field(default_factory=ReplayPolicy)
    speed: float | None = None  # None: virtual time
    # the fleet's policies (``replay_policies``; ``policy``'s ttl folded in): one part
    policies: Policies = field(default_factory=Policies)
    name: str = ""  # tells its invocation ids from another part's
    # on the wall clock: a line at least every ``PROGRESS_S`` seconds
    progress: Callable[[str], None] | None = None


@dataclass
class PartResult:
    """What one part re-issued and what its emulator charged."""

    rows: list[TraceRow]  # the orchestrator's calls, in time order
    agent_rows: list[TraceRow]  # the agents' calls, in time order
    points: dict[str, int]  # charged in the replay's window, per bucket
    charges: int
    snapshots: dict[str, RateLimitSnapshot]  # before, after
    policy: dict[str, Counter[str]]
    stopped: Counter[str]
    calls: int
    end: float  # the part's clock when its last request ended
    longest_lag_s: float = 0.0  # the furthest a session fell behind at the fleet's gate


def run_part(plan: ReplayPlan, part: Part) -> PartResult:
    """Re-issue ``part``'s copies of ``plan``; nothing is written."""
    replay = _Replay(plan, part)
    seed_copies(replay.world, entities(plan), [c for c, _ in part.copies], part.limits)
    snapshots: dict[str, RateLimitSnapshot] = {}
    replay.clock.jump(plan.start)
    snapshots["before"] = replay.world.rate_limit_snapshot()

    def at_end() -> None:
        snapshots["after"] = replay.world.rate_limit_snapshot()

    replay.run(replay.stream(part.copies), plan.end, at_end)
    replay.rows.sort(key=lambda r: r.timestamp)
    replay.agent_rows.sort(key=lambda r: r.timestamp)
    end = max(plan.end, replay.clock.now())
    ledger = replay.world.ledger(plan.start, end)
    return PartResult(
        replay.rows,
        replay.agent_rows,
        ledger.spent,
        ledger.charges,
        snapshots,
        replay.policy,
        replay.stopped,
        replay.calls,
        end,
        replay.policed.longest_lag_s if replay.policed is not None else 0.0,
    )


@dataclass
class _Job:
    """One call in one copy; ``requests`` drives a fixture call request by request."""

    call: ReplayCall
    copy: int
    requests: Generator[HttpRequest, HttpResponse, ScriptOutcome] | None = None
    pending: HttpRequest | None = None
    index: int = 0
    times: list[float] = field(default_factory=list)
    invocation: str = ""
    argv: tuple[str, ...] = ()  # the call's argv in its copy
    session: str = ""  # the session id its rows carry
    etag_key: tuple[int, str] | None = None  # a GET's (copy, path): its ETag is kept
    checked: bool = False  # past the drops and poll intervals
    lag: float = 0.0  # seconds its session's waits at the gate moved it
    seen: Call | None = None  # the call as the policies admitted it
    admission: Admission | None = None


class _Replay:
    """One part's emulator, queue and rows."""

    def __init__(self, plan: ReplayPlan, part: Part) -> None:
        self.plan = plan
        self.part = part
        self.rng = random.Random(part.seed)
        self.clock = LaneClock(plan.start)
        self.world = SimWorld(self.clock, seed=self.rng.randrange(2**31))
        self.transport = InProcessTransport(
            self.world.handle, token=self.world.token, rng=random.Random(self.rng.randrange(2**31))
        )
        self.rows: list[TraceRow] = []
        self.agent_rows: list[TraceRow] = []  # an agent's calls (``ReplayCall.agent``)
        self._session_values: dict[tuple[str, int], dict[str, object]] = {}
        self._argvs: dict[tuple[tuple[str, ...], int], tuple[str, ...]] = {}
        self.options = RowSettings(session_ids=True, origin="replay")
        self.gate = PolicyGate(part.policy)
        self.policed = ReplayStack(part.policies, part.limits) if part.policies else None
        self.policy: dict[str, Counter[str]] = {}
        self.stopped: Counter[str] = Counter()
        self.calls = 0
        self.repos = sorted(entities(plan))
        self.default = default_repo(plan)
        self._queue: list[tuple[float, int, _Job]] = []
        self._seq = itertools.count()
        self._ids = itertools.count(1)
        self._wall0 = time.monotonic()
        self._said = self._wall0
        # the ETag this replay last got per endpoint: a recorded conditional request is
        # re-issued with it (the recording's tags name the recording's resources)
        self.etags: dict[tuple[int, str], str] = {}
        self.shas: dict[tuple[str, str], str] = {}

    def stream(self, copies: Copies) -> Iterator[tuple[float, _Job]]:
        """Every call of every copy, in recorded time order (the plan's calls are)."""
        keys = [k for k in recorded_sessions(self.plan) if k != UNATTRIBUTED]
        kept = [
            (copy, share, set(keys[: round(share * len(keys))]) if share < 1 else set(keys))
            for copy, share in copies
        ]
        for call in self.plan.calls:
            for copy, share, keep in kept:
                if call.session == UNATTRIBUTED:
                    if share < 1 and self.rng.random() >= share:
                        continue
                elif call.session not in keep:
                    continue
                yield call.at, _Job(call, copy)

    def _push(self, when: float, job: _Job) -> None:
        heapq.heappush(self._queue, (when, next(self._seq), job))

    def _pace(self, when: float) -> None:
        if self.part.speed:
            wait = (when - self.plan.start) / self.part.speed - (time.monotonic() - self._wall0)
            while wait > 0:  # in slices, each saying how far the replay is
                time.sleep(min(wait, PROGRESS_S))
                wait -= PROGRESS_S
                self._report(when)

    def _report(self, when: float) -> None:
        """How far the replay is, at most every ``PROGRESS_S`` seconds of the wall clock."""
        now = time.monotonic()
        if self.part.progress is None or now - self._said < PROGRESS_S:
            return
        self._said = now
        span = max(self.plan.end - self.plan.start, 1e-9)
        done = min(1.0, max(0.0, (when - self.plan.start) / span))
        self.part.progress(
            f"replay: {done:.0%} of the recording's {format_duration(span)} re-issued"
            f" ({self.calls:,} calls)"
        )

    def run(
        self, calls: Iterator[tuple[float, _Job]], until: float, at_end: Callable[[], None]
    ) -> None:
        """The calls in time order, each request of a call at its own time (the queue
        holds the requests in flight); ``at_end`` once at ``until``."""
        ended = False
        queue = self._queue
        coming = next(calls, None)
        while coming is not None or queue:
            if queue and (coming is None or queue[0][0] < coming[0]):
                when, _, job = heapq.heappop(queue)
            else:
                assert coming is not None
                when, job = coming
                coming = next(calls, None)
            if not ended and when > until:
                at_end()
                ended = True
            self._pace(when)
            self.clock.jump(when)
            if job.pending is not None:
                self._exchange(when, job)
            else:
                self._start(when, job)
        if not ended:
            at_end()

    def _held(self, reason: str, job: _Job) -> None:
        self.policy.setdefault(reason, Counter())[job.call.operation] += 1

    def _start(self, when: float, job: _Job) -> None:
        call = job.call
        if job.admission is None:
            if not job.checked:
                reason = self.gate.verdict(call, job.copy)
                if reason is not None:
                    self._held(reason, job)
                    return
                job.argv = self._argv(call, job.copy)
                key = call.session or "unattributed"
                job.session = key if job.copy == 0 else f"{key}#{job.copy}"
            if self.policed is not None and not self._admitted(when, job):
                return
        self.calls += 1
        job.invocation = f"replay{self.part.name}-{next(self._ids)}"
        if call.kind == "api":
            argv = self._retarget_shas(job.argv)
            tag = (job.copy, plan_call(argv, None).request.path)
            # the replay's world does not change as the recording's did (a review burst,
            # a push): a conditional request the recording saw answered 200 is sent
            # without its tag, so it is answered (and charged) as it was then
            changed = call.recorded_status is not None and call.recorded_status != 304
            argv = with_etag(argv, None if changed else self.etags.get(tag))
            gh = GhCall(argv, "replay", call.operation, session_id=job.session)
            result = self.transport.call(gh)
            row = row_for(gh, result, completed_at=when + result.duration_s, options=self.options)
            if row.etag:
                self.etags[tag] = row.etag
            self.sink(job).append(row)
            self._answered(job, row, when)
            return
        if call.kind in ("rest", "graphql"):
            job.pending = self._request(call, job)
            job.times = [when]
            self._exchange(when, job)
            return
        values = self._values(job)
        templates = [t for _, t in call.requests]
        job.times = [t for t, _ in call.requests]
        job.requests = script(
            templates[call.cached :],
            values,
            self.world.token,
            uncached=templates[: call.cached],
        )
        self._next(when, job, None)

    def _admitted(self, when: float, job: _Job) -> bool:
        """The policies' verdict on ``job`` at ``when``: True, it goes now; else it was
        answered without GitHub, refused, or comes back when the gate lets it go."""
        policed = self.policed
        assert policed is not None
        job.checked = True
        # its session waited at the gate before it (those waits may be known only now:
        # an earlier call goes once the gate lets it): it comes that much later
        lag = policed.behind.get(job.session, 0.0) - job.lag
        if lag > 1e-9:
            job.lag += lag
            return self._later(when + lag, job)
        target = self.plan.sessions.get(job.call.session)
        repo = copy_repo((target.repo if target else None) or self.default, job.copy)
        seen = policed.call(job.call, at=when, session=job.session, argv=job.argv, repo=repo)
        admission = policed.admit(seen)
        if admission.verdict is not Verdict.SENT:
            self._held(str(admission.verdict), job)
            return False
        policed.sent(seen, admission)
        job.seen, job.admission = seen, admission
        return admission.at <= when or self._later(admission.at, job)

    def _later(self, when: float, job: _Job) -> bool:
        """``job`` starts at ``when``, unless that is past the recording's end."""
        if when > self.plan.end:
            self._held("held past the recording's end", job)
        else:
            self._push(when, job)
        return False

    def _answered(self, job: _Job, row: TraceRow, at: float) -> None:
        if self.policed is not None and job.seen is not None:
            self.policed.answered(job.seen, row, at)

    def _request(self, call: ReplayCall, job: _Job) -> HttpRequest:
        """A row recorded without argv as the request it was: a GraphQL body POSTed again,
        or a GET, conditional on the ETag this replay last got for its endpoint when the
        recording's was conditional and answered 304 (one answered 200 saw its resource
        change, which the replay's world does not: sent without its tag, it is charged
        as it was then)."""
        headers = {"authorization": f"token {self.world.token}", "user-agent": "GitHub CLI"}
        if call.kind == "graphql":
            body = retarget_body(call.body or "", self.repos, job.copy)
            return HttpRequest("POST", "/graphql", headers, body.encode())
        endpoint = retarget_argv((call.endpoint or "",), self.repos, job.copy)[0]
        path = "/" + self._retarget_shas((endpoint,))[0].lstrip("/")
        job.etag_key = (job.copy, path)
        tag = self.etags.get(job.etag_key)
        if call.conditional and call.recorded_status == NOT_MODIFIED and tag:
            headers["if-none-match"] = tag
        return HttpRequest("GET", path, headers)

    def _retarget_shas(self, argv: tuple[str, ...]) -> tuple[str, ...]:
        """A recorded commit sha names a commit of the recording: each becomes the head
        of one of the replay's PRs in that repository, in order of first sight."""

        def swap(found: re.Match[str]) -> str:
            repo, sha = found.group(1), found.group(2)
            key = (repo, sha)
            if key not in self.shas:
                owner, _, name = repo.partition("/")
                stored = self.world.emulator.store.repo(owner, name)
                heads = (
                    [p.head_sha for p in self.world.emulator.store.pulls(stored)] if stored else []
                )
                used = sum(1 for r, _ in self.shas if r == repo)
                self.shas[key] = heads[used % len(heads)] if heads else sha
            return f"repos/{repo}/commits/{self.shas[key]}"

        return tuple(_COMMIT.sub(swap, a) for a in argv)

    def _argv(self, call: ReplayCall, copy: int) -> tuple[str, ...]:
        """``call``'s argv re-targeted to ``copy`` (each argv once per copy: a recording
        repeats a session's few commands)."""
        key = (call.argv, copy)
        argv = self._argvs.get(key)
        if argv is None:
            argv = self._argvs[key] = retarget_argv(call.argv, self.repos, copy)
        return argv

    def sink(self, job: _Job) -> list[TraceRow]:
        """Where a call's rows go: the agents' trace for an agent's call."""
        return self.agent_rows if job.call.agent else self.rows

    def _values(self, job: _Job) -> dict[str, object]:
        key = (job.call.session, job.copy)
        base = self._session_values.get(key)
        if base is None:
            target = self.plan.sessions.get(job.call.session)
            repo = copy_repo((target.repo if target else None) or self.default, job.copy)
            owner, _, name = repo.partition("/")
            base = self._session_values[key] = {
                "owner": owner,
                "name": name,
                "repo": repo,
                "branch": (target.branch if target else None) or "main",
                "issue": (target.issue if target else None) or 1,
                "pr": (target.pr if target else None) or 1,
                "title": "Replayed",
                "body": "Replayed",
                "comment": "Replayed",
                "reply": "Replayed",
                "comment_id": 1,
                "run_id": self.world.latest_run(repo, (target.pr if target else None) or 1),
            }
        bound = job.call.values
        if not bound:
            return base
        # the recording's repository and workflow run are the recording's: the copy's stand
        return {**base, **{k: v for k, v in bound.items() if k not in _RECORDED_ONLY}}

    def _next(self, when: float, job: _Job, response: HttpResponse | None) -> None:
        assert job.requests is not None
        try:
            request = next(job.requests) if response is None else job.requests.send(response)
        except StopIteration as done:
            outcome: ScriptOutcome = done.value
            if outcome.stopped or len(outcome.responses) < len(job.times):
                self.stopped[job.call.operation] += len(job.times) - len(outcome.responses)
            return
        job.pending = request
        recorded = job.times[job.index] if job.index < len(job.times) else when
        self._push(max(when, recorded), job)

    def _exchange(self, when: float, job: _Job) -> None:
        assert job.pending is not None
        request, job.pending = job.pending, None
        response = self.transport.exchange(request)
        end = when + (response.latency_s or 0.0)
        if job.etag_key is not None:
            etag = next((v for k, v in response.headers if k.lower() == "etag"), None)
            if etag:
                self.etags[job.etag_key] = etag
        row = exchange_row(
            request,
            response,
            started_at=when,
            finished_at=end,
            argv=job.argv,
            session_id=job.session,
            invocation_id=job.invocation,
            request_index=job.index,
        )
        self.sink(job).append(row)
        self._answered(job, row, when)
        job.index += 1
        if job.requests is not None:
            self._next(end, job, response)
