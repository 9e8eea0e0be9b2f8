"""``ghbench capacity``'s flow: the search for the most sessions that fit, with the
workload model in virtual time as its probe, or a recorded trace replayed at each count;
then the answer's plot and HTML page, how to reproduce it, and ``--verify``
(``capacity_verify``).

Each count the model tries is one ``simulate`` run of the cell (same spec, same seed),
reduced to its budgets (``ghbench.analysis.capacity``): the scorecard in memory plus the
longest poll cycle of the window. So ``ghbench simulate``, run as the ``reproduce`` lines
say, prints the same scorecard figures and poll cycle for any count tried.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ghbench.analysis.capacity import (
    CapacityResult,
    Probe,
    Spend,
    budget_uses,
    find_capacity,
    longest_poll_cycle,
)
from ghbench.analysis.capacity_render import capacity_json, capacity_png, capacity_text
from ghbench.artifacts.io import unique_path, write_new
from ghbench.clock import Clock
from ghbench.errors import UsageError
from ghbench.matrix.capacity_verify import (
    AO_POLL_S,
    TICK_MARK,
    Verification,
    at_sessions,
    smallest_sessions,
    verify_capacity,
)
from ghbench.pages.capacity_page import capacity_page
from ghbench.runspec.flags import flag_for
from ghbench.runspec.spec import RunSpec
from ghbench.simulation.cell import run_cell
from ghbench.simulation.replay import ReplaySpec, load_recording, replay_plan, replay_scorecard
from ghbench.simulation.replay_targets import recorded_limits
from ghbench.simulation.simulate import cell_scorecard
from ghbench.timefmt import format_duration
from ghbench.trace.frame import TraceFrame
from ghbench.trace.schema import TraceRow
from ghbench.workload.replay import ReplayPlan, plan_replay, recorded_session_count

__all__ = [
    "CapacityAnswer",
    "CapacityQuery",
    "answer_capacity",
    "capacity_title",
    "model_probe",
    "run_capacity",
    "run_capacity_from_trace",
    "simulate_command",
    "trace_probe",
]

Log = Callable[[str], None]
# what a recording's own run fixed: the flags that describe the model's cell
_MODEL_FLAGS = ("scenario", "topology", "profile", "agents", "warmup", "duration")
_VERIFY_FLAGS = ("driver", "ao_command", "transport", "duration_scale")


@dataclass(frozen=True)
class CapacityQuery:
    """What the search is asked, beside the run it probes (``RunSpec``)."""

    fraction: float
    maximum: int
    ceiling_s: float
    plot: bool = True
    verify: bool = False
    from_trace: Path | None = None


@dataclass(frozen=True)
class CapacityAnswer:
    """The search's result and what describes it: the console text and the JSON object
    (``analysis.capacity_render``) are made from it alone."""

    result: CapacityResult
    title: str
    extra: dict[str, Any]  # the JSON object's own keys: the cell, the plot, reproduce
    notes: list[str] = field(default_factory=list)
    paths: dict[str, str] = field(default_factory=dict)
    runs: str = "model run(s)"
    verification: Verification | None = None
    page: str | None = None  # the answer's HTML page (``ghbench.pages``), when written

    def _doc(self) -> dict[str, Any]:
        extra = dict(self.extra)
        if self.verification is not None:
            extra["verify"] = self.verification.json()
        return capacity_json(self.result, extra)

    def json(self) -> dict[str, Any]:
        return {**self._doc(), "page": self.page}

    def with_page(self, out_dir: Path, stem: str) -> CapacityAnswer:
        """This answer with its HTML page written under ``out_dir``, beside the plot."""
        html = capacity_page(self._doc()).encode()
        page = str(write_new(unique_path(out_dir, stem, ".html"), html))
        return dataclasses.replace(self, page=page, paths={**self.paths, "page": page})

    def text(self) -> str:
        text = capacity_text(
            self.result, title=self.title, notes=self.notes, paths=self.paths, runs=self.runs
        )
        return text + ("" if self.verification is None else self.verification.text())


def capacity_title(spec: RunSpec) -> str:
    cell = spec.cell
    agents = f", agents {spec.agents}" if spec.runs_agents else ""
    return (
        f"capacity: {cell.scenario}-{cell.topology} ({cell.info.title.lower()},"
        f" {cell.layout.title}), profile {spec.profile}{agents}, seed {spec.seed};"
        f" warmup {format_duration(spec.warmup.seconds)},"
        f" window {format_duration(spec.duration.seconds)}"
    )


def simulate_command(spec: RunSpec, sessions: int) -> str:
    """The ``ghbench simulate`` run that is the search's probe at ``sessions``."""
    cell = spec.cell
    agents = f" --agents {spec.agents}" if spec.runs_agents else ""
    return (
        f"ghbench simulate --scenario {cell.scenario} --topology {cell.topology}"
        f" --sessions {sessions} --warmup {spec.warmup.seconds:g}s"
        f" --duration {spec.duration.seconds:g}s --profile {spec.profile}{agents}"
        f" --seed {spec.seed}"
    )


def model_probe(spec: RunSpec, ceiling_s: float) -> Callable[[int], Probe]:
    """``probe(n)``: the cell at n sessions in virtual time, reduced to its budgets (the
    agents' calls in them when the cell runs agents)."""

    def probe(sessions: int) -> Probe:
        run = run_cell(at_sessions(spec, sessions))
        card = cell_scorecard(run)
        uses = budget_uses(card, run.longest_poll_cycle, ceiling_s)
        return Probe(sessions, uses, Spend.of(card))

    return probe


def trace_probe(
    rows: Sequence[TraceRow], plan: ReplayPlan, *, seed: int, ceiling_s: float
) -> Callable[[int], Probe]:
    """``probe(n)``: a recorded trace replayed at n sessions (``ghbench replay``), its
    budgets against one token's: the recording's hourly limits, not the replay's
    (which grow with the copies so that it measures what n sessions ask for). A replay
    re-issues each call at its recorded time, so the poll cycle is the recording's,
    read from its trace as ``--verify`` reads a real run's."""
    limits = recorded_limits(rows)
    frame = TraceFrame.from_rows(list(rows))
    window = (round(plan.start * 1000), round(plan.end * 1000))
    marks = frame.operation.mask(TICK_MARK)
    cycle = longest_poll_cycle(
        frame.ts_ms, frame.duration_ms, marks, window=window, poll_s=AO_POLL_S
    )

    def probe(sessions: int) -> Probe:
        result = replay_plan(rows, plan, ReplaySpec(sessions=sessions), seed=seed)
        card = replay_scorecard(result, scenario_id="capacity-from-trace")
        uses = budget_uses(card, cycle, ceiling_s, hourly_limits=limits)
        return Probe(sessions, uses, Spend.of(card))

    return probe


def run_capacity_from_trace(
    rows: Sequence[TraceRow], *, fraction: float, maximum: int, ceiling_s: float, seed: int
) -> tuple[CapacityResult, int]:
    """The most sessions a user's own traffic holds within ``fraction`` of every budget,
    replayed at each count tried; and how many sessions the recording had."""
    plan = plan_replay(rows)
    if not plan.calls:
        raise UsageError(
            f"--from-trace: none of its {plan.rows} rows can be re-issued "
            f"({', '.join(sorted(plan.skipped))})"
        )
    probe = trace_probe(rows, plan, seed=seed, ceiling_s=ceiling_s)
    result = find_capacity(probe, fraction=fraction, start=1, maximum=maximum)
    return result, recorded_session_count(plan)


def run_capacity(
    spec: RunSpec, *, fraction: float, maximum: int, ceiling_s: float
) -> CapacityResult:
    """The most sessions of ``spec``'s cell within ``fraction`` of every budget."""
    probe = model_probe(spec, ceiling_s)
    return find_capacity(probe, fraction=fraction, start=smallest_sessions(spec), maximum=maximum)


def _check(spec: RunSpec, query: CapacityQuery, typed: Collection[str]) -> None:
    """What the flags ask that the search cannot do, before anything runs."""
    if query.from_trace is not None:
        for dest in (*_MODEL_FLAGS, "verify", *_VERIFY_FLAGS):
            if dest in typed:
                flag = "--verify" if dest == "verify" else flag_for(dest).name
                raise UsageError(f"{flag} does not apply to --from-trace (a recording's own run)")
        return
    smallest = smallest_sessions(spec)
    if query.maximum < smallest:
        raise UsageError(f"--max-sessions: {spec.cell.topology} needs at least {smallest}")
    if query.verify and spec.driver == "ao" and spec.ao_command is None:
        raise UsageError("--driver ao needs --ao CHECKOUT")


def _plot(result: CapacityResult, title: str, out_dir: Path, stem: str) -> dict[str, str]:
    png = capacity_png(result, title=title)
    return {"plot": str(write_new(unique_path(out_dir, stem, ".png"), png))}


def answer_capacity(
    spec: RunSpec,
    query: CapacityQuery,
    typed: Collection[str],
    *,
    clock: Clock,
    env: Mapping[str, str],
    log: Log,
    hold: Callable[[Path], None],
) -> CapacityAnswer:
    """The search ``query`` asks of ``spec``'s cell (or of ``query.from_trace``): checked
    first, ``hold`` takes ``spec.out_dir`` before anything is written there, then the
    answer, its plot and ``--verify``'s real runs."""
    _check(spec, query, typed)
    if query.from_trace is not None:
        return _from_trace(query.from_trace, spec, query, hold)
    if query.verify or query.plot:
        hold(spec.out_dir)
    result = run_capacity(
        spec, fraction=query.fraction, maximum=query.maximum, ceiling_s=query.ceiling_s
    )
    cell, title = spec.cell, capacity_title(spec)
    agents = f"-agents-{spec.agents}" if spec.runs_agents else ""
    stem = f"capacity-{cell.scenario}-{cell.topology}-{spec.profile}{agents}-seed{spec.seed}"
    paths = _plot(result, title, spec.out_dir, stem) if query.plot else {}
    reproduce = [simulate_command(spec, p.sessions) for p in (result.at, result.next) if p]
    verification = None
    if query.verify:
        # absolute: the emulator and the orchestrator run in directories of their own
        where = unique_path(spec.out_dir.resolve(), f"verify-{cell.scenario}-{cell.topology}", "")
        verification = verify_capacity(
            spec, result, where, ceiling_s=query.ceiling_s, clock=clock, env=env, log=log
        )
    extra = {
        "cell": {
            "scenario": cell.scenario,
            "topology": cell.topology,
            "profile": spec.profile,
            "agents": spec.agents if spec.runs_agents else None,
            "seed": spec.seed,
            "warmupSeconds": spec.warmup.seconds,
            "windowSeconds": spec.duration.seconds,
        },
        "pollCeilingSeconds": query.ceiling_s,
        "maxSessions": query.maximum,
        "plot": paths.get("plot"),
        "reproduce": reproduce,
        "verify": None,
    }
    notes = [f"reproduce: {line}" for line in reproduce]
    answer = CapacityAnswer(result, title, extra, notes, paths, verification=verification)
    return answer.with_page(spec.out_dir, stem) if query.plot else answer


def _from_trace(
    trace: Path, spec: RunSpec, query: CapacityQuery, hold: Callable[[Path], None]
) -> CapacityAnswer:
    """``--from-trace``: the search with the recording replayed as its probe."""
    rows, agents_trace = load_recording(trace)
    if query.plot:
        hold(spec.out_dir)
    seed = spec.seed
    result, recorded = run_capacity_from_trace(
        rows, fraction=query.fraction, maximum=query.maximum, ceiling_s=query.ceiling_s, seed=seed
    )
    title = f"capacity from {trace} ({recorded} recorded sessions, replayed at each count)"
    stem = f"capacity-from-{trace.stem}-seed{seed}"
    paths = _plot(result, title, spec.out_dir, stem) if query.plot else {}
    reproduce = [
        f"ghbench replay --trace {trace} --sessions {p.sessions} --seed {seed}"
        for p in (result.at, result.next)
        if p
    ]
    extra = {
        "fromTrace": {
            "trace": str(trace),
            "agentTrace": None if agents_trace is None else str(agents_trace),
            "recordedSessions": recorded,
            "seed": seed,
        },
        "pollCeilingSeconds": query.ceiling_s,
        "maxSessions": query.maximum,
        "plot": paths.get("plot"),
        "reproduce": reproduce,
    }
    notes = [f"reproduce: {line}" for line in reproduce]
    if agents_trace is not None:
        notes.insert(0, f"with the agents' trace beside it: {agents_trace}")
    answer = CapacityAnswer(result, title, extra, notes, paths, runs="replay(s)")
    return answer.with_page(spec.out_dir, stem) if query.plot else answer
