"""``replay``: a recorded trace's calls re-issued against the in-process emulator.

The plan (``ghbench.workload.replay``) says what each recorded call was; this flow
seeds an emulator with what the calls name (each recorded repository, per copy, with
its PRs and issues at their recorded numbers), re-issues the calls in recorded time
order, scaled to N sessions by copies of the recording, under the counterfactual
policies, and writes what ``measure`` writes: a trace of the re-issued calls and its
scorecard. The emulator's ledger prices every call; the recording's own rows are priced
as the scorecard prices them, so the two spends compare.

Virtual time by default (a 30-minute trace replays in seconds); with ``speed`` the
calls are paced on the wall clock at that many times recorded speed.
"""

from __future__ import annotations

import heapq
import itertools
import random
import re
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from ghbench.artifacts.io import unique_path, write_new
from ghbench.artifacts.models import ScorecardArtifact
from ghbench.errors import UsageError
from ghbench.ratelimit import RateLimitSnapshot
from ghbench.scorecard import Snapshots, build_scorecard_artifact, write_scorecard
from ghbench.scorecard.costs import row_costs
from ghbench.simulation.replay_targets import (
    default_repo,
    entities,
    recorded_limits,
    retarget_argv,
    seed_copies,
    with_etag,
)
from ghbench.simulation.world import SimWorld
from ghbench.trace.files import agent_trace_path
from ghbench.trace.frame import TraceFrame
from ghbench.trace.graphql_cost import estimate_graphql_cost
from ghbench.trace.reader import iter_rows
from ghbench.trace.schema import CONTROL_COMPONENT, TraceRow
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
    plan_replay,
    recorded_session_count,
    recorded_sessions,
)
from ghbench.workload.rows import RowSettings, row_for
from ghbench.workload.runner import LaneClock
from ghbench.workload.transport.inprocess import InProcessTransport

__all__ = [
    "ReplayResult",
    "ReplaySpec",
    "load_recording",
    "recorded_points",
    "replay_plan",
    "replay_scorecard",
    "replay_trace",
    "write_replay",
]

_COMMIT = re.compile(r"repos/([^/?]+/[^/?]+)/commits/([0-9a-f]{40})")


@dataclass(frozen=True)
class ReplaySpec:
    sessions: int | None = None  # None: the recorded count
    speed: float | None = None  # None: virtual time
    policy: ReplayPolicy = field(default_factory=ReplayPolicy)


@dataclass
class ReplayResult:
    plan: ReplayPlan
    rows: list[TraceRow]
    recorded_sessions: int
    sessions: int
    copies: float
    recorded: dict[str, int]
    recorded_unpriced: int
    ledger: dict[str, Any]
    snapshots: dict[str, RateLimitSnapshot]
    window_start: float
    window_end: float
    policy: dict[str, Counter[str]] = field(default_factory=dict)
    stopped: Counter[str] = field(default_factory=Counter)
    calls: int = 0
    # the agents' calls (``ReplayCall.agent``); None when the recording had none
    agent_rows: list[TraceRow] | None = None

    @property
    def every_row(self) -> list[TraceRow]:
        """The orchestrator's rows and the agents', in time order."""
        if not self.agent_rows:
            return self.rows
        return sorted([*self.rows, *self.agent_rows], key=lambda r: r.timestamp)

    @property
    def replayed(self) -> dict[str, int]:
        return {k: v for k, v in self.ledger["points"].items() if v}

    def summary(self) -> dict[str, Any]:
        return {
            "recordedRows": self.plan.rows,
            "recordedSessions": self.recorded_sessions,
            "sessions": self.sessions,
            "copies": round(self.copies, 4),
            "callsReissued": self.calls,
            "requests": len(self.rows) + len(self.agent_rows or ()),
            "recordedPoints": self.recorded,
            "recordedUnpricedRows": self.recorded_unpriced,
            "replayedPoints": self.replayed,
            "ratio": {
                k: round(self.replayed.get(k, 0) / v, 4) for k, v in self.recorded.items() if v
            },
            "notReissued": {r: dict(c) for r, c in sorted(self.plan.skipped.items())},
            "notReissuedRows": self.plan.skipped_rows,
            "policy": {r: dict(c) for r, c in sorted(self.policy.items())},
            "stoppedEarly": dict(self.stopped),
        }


def _query_of(argv: Sequence[str]) -> tuple[str, dict[str, object]] | None:
    """A ``gh api graphql -f query=…`` row's query and its ``-f``/``-F`` variables."""
    if "graphql" not in argv:
        return None
    query: str | None = None
    variables: dict[str, object] = {}
    for flag, value in itertools.pairwise(argv):
        if flag in ("-f", "-F", "--raw-field", "--field"):
            key, _, text = value.partition("=")
            if key == "query":
                query = text
            else:
                variables[key] = int(text) if flag in ("-F", "--field") and text.isdigit() else text
    return (query, variables) if query else None


def recorded_points(rows: Sequence[TraceRow]) -> tuple[dict[str, int], int]:
    """What the recording spent, priced as the scorecard prices rows, plus GitHub's
    published cost of a ``gh api graphql`` row whose answer did not say (AO's review
    thread query); and how many rows stay unpriced (a ``gh pr view`` in AO's trace)."""
    frame = TraceFrame.from_rows(list(rows))
    costs = row_costs(frame)
    graphql = int(costs.graphql_points.sum())
    unpriced = 0
    for i, row in enumerate(rows):
        if costs.graphql_priced[i] or costs.core_priced[i] or row.component == CONTROL_COMPONENT:
            continue
        asked = _query_of(row.args or [])
        cost = estimate_graphql_cost(*asked) if asked and row.ok else None
        if cost is not None:
            graphql += cost
        elif row.ok is not False:
            unpriced += 1
    return {"graphql": graphql, "core": int(costs.core_points.sum())}, unpriced


# -- the run --------------------------------------------------------------------------


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


class _Replay:
    def __init__(self, plan: ReplayPlan, spec: ReplaySpec, seed: int) -> None:
        self.plan = plan
        self.spec = spec
        self.rng = random.Random(seed)
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
        self.gate = PolicyGate(spec.policy)
        self.policy: dict[str, Counter[str]] = {}
        self.stopped: Counter[str] = Counter()
        self.calls = 0
        self.repos = sorted(entities(plan))
        self.default = default_repo(plan)
        self._queue: list[tuple[float, int, _Job]] = []
        self._seq = itertools.count()
        self._ids = itertools.count(1)
        self._wall0 = time.monotonic()
        # the ETag this replay last got per endpoint: a recorded conditional request is
        # re-issued with it (the recording's tags name the recording's resources)
        self.etags: dict[tuple[int, str], str] = {}
        self.shas: dict[tuple[str, str], str] = {}

    def copies_for(self, recorded: int, sessions: int) -> list[tuple[int, float]]:
        """(copy, share of its sessions) for each copy of the recording."""
        factor = sessions / recorded
        full = int(factor)
        out = [(c, 1.0) for c in range(full)]
        if factor - full > 1e-9:
            out.append((full, factor - full))
        return out

    def stream(self, copies: list[tuple[int, float]]) -> Iterator[tuple[float, _Job]]:
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
        if self.spec.speed:
            wait = (when - self.plan.start) / self.spec.speed - (time.monotonic() - self._wall0)
            if wait > 0:
                time.sleep(wait)

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

    def _start(self, when: float, job: _Job) -> None:
        call = job.call
        reason = self.gate.verdict(call, job.copy)
        if reason is not None:
            self.policy.setdefault(reason, Counter())[call.operation] += 1
            return
        self.calls += 1
        job.invocation = f"replay-{next(self._ids)}"
        job.argv = self._argv(call, job.copy)
        key = call.session or "unattributed"
        job.session = key if job.copy == 0 else f"{key}#{job.copy}"
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
            return
        if call.kind == "rest":
            endpoint = retarget_argv((call.endpoint or "",), self.repos, job.copy)[0]
            endpoint = self._retarget_shas((endpoint,))[0]
            headers = {"authorization": f"token {self.world.token}", "user-agent": "GitHub CLI"}
            job.pending = HttpRequest("GET", "/" + endpoint.lstrip("/"), headers)
            job.times = [when]
            self._exchange(when, job)
            return
        values = self._values(job)
        templates = [t for _, t in call.requests]
        job.times = [t for t, _ in call.requests]
        job.requests = script(templates, values, self.world.token)
        self._next(when, job, None)

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
                "run_id": 1,
            }
        bound = job.call.values
        if not bound:
            return base
        return {**base, **{k: v for k, v in bound.items() if k != "repo"}}

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
        self.sink(job).append(
            exchange_row(
                request,
                response,
                started_at=when,
                finished_at=end,
                argv=job.argv,
                session_id=job.session,
                invocation_id=job.invocation,
                request_index=job.index,
            )
        )
        job.index += 1
        if job.requests is not None:
            self._next(end, job, response)


def load_recording(path: Path) -> tuple[list[TraceRow], Path | None]:
    """A recorded trace's rows, with the agents' trace beside it (``gh-trace-agents-*``,
    as a run leaves it) when there is one: (rows, the agents' trace or None)."""
    rows = [row for _, row in iter_rows(path)]
    beside = agent_trace_path(path)
    if beside == path or not beside.is_file() or beside.stat().st_size == 0:
        return rows, None
    agents = [row for _, row in iter_rows(beside)]
    # an AO agent's gh traced by ghbench's shim says component agent; the model's says so
    return sorted([*rows, *agents], key=lambda r: r.timestamp), beside


def replay_plan(
    rows: Sequence[TraceRow], plan: ReplayPlan, spec: ReplaySpec, *, seed: int = 0
) -> ReplayResult:
    """Re-issue the calls of ``plan`` (``plan_replay(rows)``: a search replays one plan
    at many counts); nothing is written."""
    if not plan.calls:
        raise UsageError(
            f"--trace: none of its {plan.rows} rows can be re-issued "
            f"({', '.join(sorted(plan.skipped))})"
        )
    recorded = recorded_session_count(plan)
    sessions = spec.sessions or recorded
    replay = _Replay(plan, spec, seed)
    copies = replay.copies_for(recorded, sessions)
    seed_copies(replay.world, entities(plan), len(copies), recorded_limits(rows))
    snapshots: dict[str, RateLimitSnapshot] = {}
    replay.clock.jump(plan.start)
    snapshots["before"] = replay.world.rate_limit_snapshot()
    window_end = plan.end

    def at_end() -> None:
        snapshots["after"] = replay.world.rate_limit_snapshot()

    replay.run(replay.stream(copies), window_end, at_end)
    replay.rows.sort(key=lambda r: r.timestamp)
    replay.agent_rows.sort(key=lambda r: r.timestamp)
    agents = any(call.agent for call in plan.calls)
    points, unpriced = recorded_points(rows)
    return ReplayResult(
        plan,
        replay.rows,
        recorded,
        sessions,
        sessions / recorded,
        points,
        unpriced,
        replay.world.ledger_summary(plan.start, max(window_end, replay.clock.now())),
        snapshots,
        plan.start,
        window_end,
        replay.policy,
        replay.stopped,
        replay.calls,
        agent_rows=replay.agent_rows if agents else None,
    )


def replay_trace(rows: Sequence[TraceRow], spec: ReplaySpec, *, seed: int = 0) -> ReplayResult:
    """Re-issue ``rows``' calls; nothing is written."""
    return replay_plan(rows, plan_replay(rows), spec, seed=seed)


def replay_scorecard(
    result: ReplayResult,
    *,
    scenario_id: str,
    trace_path: str | None = None,
    agent_trace: str | None = None,
) -> ScorecardArtifact:
    """The replay's scorecard, the agents' calls split from the orchestrator's when the
    recording had both (``insights.spendSplit``)."""
    agents = None if result.agent_rows is None else TraceFrame.from_rows(result.agent_rows)
    return build_scorecard_artifact(
        TraceFrame.from_rows(result.rows),
        window_start_ms=round(result.window_start * 1000),
        window_end_ms=round(result.window_end * 1000),
        scenario_id=scenario_id,
        measured_at=result.window_end,
        snapshots=Snapshots(
            before=result.snapshots.get("before"), after=result.snapshots.get("after")
        ),
        control_calls=len(result.snapshots),
        session_count=result.sessions,
        trace_path=trace_path,
        agent_frame=agents,
        agent_trace_path=agent_trace,
    )


def _write_rows(path: Path, rows: Sequence[TraceRow]) -> Path:
    encoder = msgspec.json.Encoder()
    return write_new(path, b"".join(encoder.encode(r) + b"\n" for r in rows))


def write_replay(result: ReplayResult, *, out_dir: Path, source: Path) -> tuple[Path, Path]:
    """The replay's trace (and the agents', beside it) and its scorecard under
    ``out_dir``, as ``measure`` writes them: (trace, scorecard)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = f"gh-trace-replay-{source.stem}-{result.sessions}s-{int(result.window_end)}"
    trace_path = _write_rows(unique_path(out_dir, stem, ".jsonl"), result.rows)
    agents = None
    if result.agent_rows is not None:
        agents = _write_rows(agent_trace_path(trace_path), result.agent_rows)
    artifact = replay_scorecard(
        result,
        scenario_id=f"replay-{source.stem}",
        trace_path=str(trace_path),
        agent_trace=None if agents is None else str(agents),
    )
    return trace_path, write_scorecard(artifact, out_dir)
