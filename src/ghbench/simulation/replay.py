"""``replay``: a recorded trace's calls re-issued against the in-process emulator.

The plan (``ghbench.workload.replay``) says what each recorded call was; this flow
seeds an emulator with what the calls name (each recorded repository, per copy, with
its PRs and issues at their recorded numbers), re-issues the calls in recorded time
order, scaled to N sessions by copies of the recording, under the counterfactual
policies, and writes what ``measure`` writes: a trace of the re-issued calls and its
scorecard (the agents' calls in a trace of their own beside it). The emulator's ledger
prices every call; the recording's own rows are priced as the scorecard prices them, so
the two spends compare.

Virtual time by default (a 30-minute trace replays in seconds); with ``speed`` the
calls are paced on the wall clock at that many times recorded speed. Two copies or more
replay as two parts in parallel (``replay_parts``), joined as one (``replay_merge``).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from ghbench.artifacts.models import ScorecardArtifact
from ghbench.errors import UsageError
from ghbench.policies.spec import Policies, parse_policies
from ghbench.ratelimit import RateLimitSnapshot
from ghbench.runspec.result import RunResult
from ghbench.runspec.spec import RunSpec
from ghbench.scorecard import Snapshots, build_scorecard_artifact
from ghbench.scorecard.costs import row_costs
from ghbench.simulation.replay_merge import merge_parts
from ghbench.simulation.replay_parts import run_parts
from ghbench.simulation.replay_policies import check_replayable
from ghbench.simulation.replay_run import Part, copies_for
from ghbench.simulation.replay_targets import recorded_limits
from ghbench.simulation.simulate import Frames, run_frames, write_run
from ghbench.simulation.world import Ledger
from ghbench.timefmt import duration_flag
from ghbench.trace.files import agents_beside
from ghbench.trace.frame import TraceFrame
from ghbench.trace.graphql_cost import estimate_graphql_cost
from ghbench.trace.reader import read_rows
from ghbench.trace.schema import CONTROL_COMPONENT, TraceRow
from ghbench.workload.replay import (
    ReplayPlan,
    ReplayPolicy,
    plan_replay,
    recorded_session_count,
)

__all__ = [
    "SCHEMA_VERSION",
    "ReplayResult",
    "ReplaySpec",
    "ReplaySummary",
    "ReplayWritten",
    "load_recording",
    "recorded_points",
    "replay_plan",
    "replay_recording",
    "replay_scorecard",
    "replay_spec",
    "replay_trace",
    "write_replay",
]

# a part's seed: the first part's is the replay's (one part replays as it always did)
_PART_SEED_STRIDE = 1_000_003
SCHEMA_VERSION = 1  # of ``replay --json``'s object


@dataclass(frozen=True)
class ReplaySpec:
    """A replay: the run it is (``run``: its seed, where it writes, and with --sessions
    its cell's count), how many sessions, how fast, under which policies."""

    run: RunSpec = field(default_factory=lambda: RunSpec(backend="simulated"))
    sessions: int | None = None  # None: the recorded count
    speed: float | None = None  # None: virtual time
    policy: ReplayPolicy = field(default_factory=ReplayPolicy)
    # the fleet's policies in front of the calls (``replay_policies``): one part, as the
    # fleet's gate and cache are one
    policies: Policies = field(default_factory=Policies)
    # parts run in parallel (``replay_parts``); None: two for two copies or more in
    # virtual time, else one. Fixed by the spec, never by the machine, so a replay
    # gives the same figures everywhere.
    workers: int | None = None
    # on the wall clock (``speed``): told how far the replay is, every so often
    progress: Callable[[str], None] | None = None

    @property
    def policies_on(self) -> bool:
        return bool(self.policies) or bool(self.policy.ttl)

    def stack(self) -> Policies:
        """The policies the replay's calls meet: ``policies`` with ``--ttl`` folded in."""
        return self.policy.policies(self.policies)

    def parts(self, copies: int) -> int:
        """How many parts replay ``copies`` copies."""
        if self.policies_on:
            return 1
        if self.workers is not None:
            return max(1, min(self.workers, copies))
        return 2 if copies >= 2 and self.speed is None else 1


def replay_spec(  # noqa: PLR0917 - one parameter per flag of ``ghbench replay``
    run: RunSpec,
    sessions: int | None,
    speed: float | None,
    drop: Sequence[str],
    ttl: Sequence[str],
    interval: Sequence[str],
    policies: str,
    progress: Callable[[str], None],
) -> ReplaySpec:
    """The replay ``ghbench replay``'s flags describe: ``--policies`` checked as a replay
    can apply them, ``--ttl`` and ``--interval`` as seconds per operation, and told
    how far it is (``progress``) on the wall clock only, where it lasts as long as its
    recording."""
    chosen = parse_policies(policies)
    check_replayable(chosen)
    policy = ReplayPolicy(
        drop=frozenset(drop),
        ttl=_per_operation("--ttl", ttl),
        interval=_per_operation("--interval", interval),
    )
    said = None if speed is None else progress
    return ReplaySpec(
        run=run, sessions=sessions, speed=speed, policy=policy, policies=chosen, progress=said
    )


def _per_operation(flag: str, values: Sequence[str]) -> dict[str, float]:
    """``OP=DURATION`` pairs (``gh.pr.view=30s``) as seconds per operation."""
    out: dict[str, float] = {}
    for value in values:
        operation, sep, duration = value.partition("=")
        if not sep or not operation:
            raise UsageError(f"{flag}: {value!r} is not OPERATION=DURATION (gh.pr.view=30s)")
        out[operation] = duration_flag(flag, duration, allow_zero=False)
    return out


class ReplaySummary(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """How a replay's spend compares with the recording's, what could not be re-issued
    and why, and what the policies held back."""

    recorded_rows: int
    recorded_sessions: int
    sessions: int
    copies: float
    calls_reissued: int
    requests: int
    recorded_points: dict[str, int]
    recorded_unpriced_rows: int
    replayed_points: dict[str, int]
    ratio: dict[str, float]
    not_reissued: dict[str, dict[str, int]]  # reason -> operation -> rows
    not_reissued_rows: int
    policy: dict[str, dict[str, int]]  # reason -> operation -> calls held back
    stopped_early: dict[str, int]

    def lines(self) -> list[str]:
        """The summary as the console shows it, under the scorecard."""
        recorded, replayed = self.recorded_points, self.replayed_points
        lines = [
            f"replay: {self.sessions} sessions ({self.recorded_sessions} recorded, "
            f"{self.copies} copies), {self.calls_reissued} calls re-issued",
        ]
        for budget in sorted(set(recorded) | set(replayed)):
            lines.append(
                f"  {budget}: recorded {recorded.get(budget, 0)} points, "
                f"replayed {replayed.get(budget, 0)}"
            )
        lines.append(f"  not re-issued: {self.not_reissued_rows} rows")
        for reason, operations in self.not_reissued.items():
            lines.append(f"    {reason}: {_named(operations)}")
        for reason, operations in self.policy.items():
            lines.append(f"  policy, {reason}: {_named(operations)}")
        return lines


def _named(operations: dict[str, int]) -> str:
    return ", ".join(f"{op} {n}" for op, n in sorted(operations.items()))


@dataclass
class ReplayResult:
    plan: ReplayPlan
    rows: list[TraceRow]
    recorded_sessions: int
    sessions: int
    copies: float
    recorded: dict[str, int]
    recorded_unpriced: int
    ledger: Ledger
    snapshots: dict[str, RateLimitSnapshot]
    window_start: float
    window_end: float
    policy: dict[str, Counter[str]] = field(default_factory=dict)
    stopped: Counter[str] = field(default_factory=Counter)
    calls: int = 0
    # the agents' calls (``ReplayCall.agent``); None when the recording had none
    agent_rows: list[TraceRow] | None = None
    longest_lag_s: float = 0.0  # the furthest a session fell behind at the fleet's gate

    @property
    def every_row(self) -> list[TraceRow]:
        """The orchestrator's rows and the agents', in time order."""
        if not self.agent_rows:
            return self.rows
        return sorted([*self.rows, *self.agent_rows], key=lambda r: r.timestamp)

    @property
    def replayed(self) -> dict[str, int]:
        return self.ledger.spent

    def summary(self) -> ReplaySummary:
        replayed = self.replayed
        return ReplaySummary(
            recorded_rows=self.plan.rows,
            recorded_sessions=self.recorded_sessions,
            sessions=self.sessions,
            copies=round(self.copies, 4),
            calls_reissued=self.calls,
            requests=len(self.rows) + len(self.agent_rows or ()),
            recorded_points=self.recorded,
            recorded_unpriced_rows=self.recorded_unpriced,
            replayed_points=replayed,
            ratio={k: round(replayed.get(k, 0) / v, 4) for k, v in self.recorded.items() if v},
            not_reissued={r: dict(c) for r, c in sorted(self.plan.skipped.items())},
            not_reissued_rows=self.plan.skipped_rows,
            policy={r: dict(c) for r, c in sorted(self.policy.items())},
            stopped_early=dict(self.stopped),
        )


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


def load_recording(path: Path) -> tuple[list[TraceRow], Path | None]:
    """A recorded trace's rows, with the agents' trace beside it (``gh-trace-agents-*``,
    as a run leaves it) when there is one: (rows, the agents' trace or None)."""
    rows = read_rows(path)
    beside = agents_beside(path)
    if beside is None:
        return rows, None
    agents = read_rows(beside)
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
    spec.policy.check(plan)
    policies = spec.stack()
    check_replayable(policies)
    recorded = recorded_session_count(plan)
    sessions = spec.sessions or recorded
    copies = copies_for(recorded, sessions)
    limits = recorded_limits(rows, spec.run.budget)
    workers = spec.parts(len(copies))
    parts = [
        Part(
            copies[i::workers],
            seed if i == 0 else seed + i * _PART_SEED_STRIDE,
            limits,
            spec.policy,
            spec.speed,
            name="" if workers == 1 else f"{i}",
            progress=spec.progress if i == 0 else None,
            policies=policies,
        )
        for i in range(workers)
    ]
    done = merge_parts(run_parts(plan, parts))
    points, unpriced = recorded_points(rows)
    agents = any(call.agent for call in plan.calls)
    ledger = Ledger(done.charges, done.points, plan.start, done.end)
    return ReplayResult(
        plan,
        done.rows,
        recorded,
        sessions,
        sessions / recorded,
        points,
        unpriced,
        ledger,
        done.snapshots,
        plan.start,
        plan.end,
        done.policy,
        done.stopped,
        done.calls,
        agent_rows=done.agent_rows if agents else None,
        longest_lag_s=done.longest_lag_s,
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
    frames: Frames | None = None,
) -> ScorecardArtifact:
    """The replay's scorecard, the agents' calls split from the orchestrator's when the
    recording had both (``insights.spendSplit``); ``frames``: ``run_frames(result)``,
    when the caller has them."""
    frame, agents = frames or run_frames(result)
    return build_scorecard_artifact(
        frame,
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


@dataclass(frozen=True)
class ReplayWritten(RunResult):
    """A replay's trace, scorecard and page as written, the recording it re-issued,
    and its summary."""

    source: Path
    agent_source: Path | None
    page_path: Path  # the scorecard's HTML page (``ghbench.pages``)
    summary: ReplaySummary

    def json(self) -> dict[str, object]:
        """``replay --json``'s object: where things are, then the summary."""
        return {
            "schemaVersion": SCHEMA_VERSION,
            "source": str(self.source),
            "agentSource": None if self.agent_source is None else str(self.agent_source),
            "trace": str(self.trace_path),
            "scorecard": str(self.scorecard_path),
            "page": str(self.page_path),
            **msgspec.to_builtins(self.summary),
        }


def write_replay(
    result: ReplayResult, *, out_dir: Path, source: Path, agent_source: Path | None = None
) -> ReplayWritten:
    """The replay's trace (and the agents', beside it), its scorecard and the
    scorecard's page under ``out_dir``, as ``measure`` writes them."""
    stem = f"gh-trace-replay-{source.stem}-{result.sessions}s-{int(result.window_end)}"
    written = write_run(
        result,
        out_dir,
        stem,
        lambda trace, agents, frames: replay_scorecard(
            result,
            scenario_id=f"replay-{source.stem}",
            trace_path=trace,
            agent_trace=agents,
            frames=frames,
        ),
    )
    return ReplayWritten(
        written.trace_path,
        written.scorecard_path,
        written.scorecard,
        source,
        agent_source,
        written.page_path,
        result.summary(),
    )


def replay_recording(spec: ReplaySpec, source: Path) -> ReplayWritten:
    """``ghbench replay``: the recording at ``source`` (with its agents' trace beside
    it) re-issued as ``spec`` says, written under ``spec.run.out_dir``."""
    rows, agents = load_recording(source)
    result = replay_trace(rows, spec, seed=spec.run.seed)
    return write_replay(result, out_dir=spec.run.out_dir, source=source, agent_source=agents)
