"""``ghbench capacity``'s flow: the search for the most sessions that fit, with the
workload model in virtual time as its probe, or a recorded trace replayed at each count;
then the answer's plot and HTML page, how to reproduce it, and ``--verify``
(``capacity_verify``).

Each count the model tries is one ``simulate`` run of the cell (same spec, same seed),
reduced to its budgets (``ghbench.analysis.capacity``): the scorecard in memory plus the
longest poll cycle of the window. So ``ghbench simulate``, run as the ``reproduce`` lines
say, prints the same scorecard figures and poll cycle for any count tried.

``series_search`` answers for each series (scenario, topology) of a matrix the same
way, with the matrix's profile, agents and seed at the runbook's timing: the spec
``capacity``'s own flags build (``capacity_spec``); ``series_searches`` lists those not
yet answered with these settings, and ``store_series`` keeps each in
``capacity/{S}-{T}.json``: ``baseline.md``'s "Sessions that fit" is that answer, so
``capacity`` and the baseline cannot give two numbers for one cell and profile. A
matrix runs the searches on both of its lanes once the cells are done
(``ghbench.matrix.invoke``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from ghbench.analysis.capacity import (
    AO_POLL_S,
    DEFAULT_FRACTION,
    POLL_CEILING_S,
    TICK_MARK,
    CapacityResult,
    Probe,
    budget_uses,
    find_capacity,
    longest_poll_cycle,
    poll_ticks,
)
from ghbench.analysis.capacity_render import capacity_json, capacity_png, capacity_text
from ghbench.artifacts.io import replace_atomic, unique_path, write_new
from ghbench.budgets import Budget
from ghbench.clock import Clock
from ghbench.collector import batch_collection
from ghbench.errors import UsageError
from ghbench.matrix.capacity_verify import (
    Verification,
    at_sessions,
    smallest_sessions,
    verify_capacity,
)
from ghbench.matrix.runs import capacity_path
from ghbench.pages.capacity_page import capacity_page
from ghbench.policies.spec import Policies, parse_policies
from ghbench.runspec.build import build_spec
from ghbench.runspec.cells import SCENARIOS, Cell
from ghbench.runspec.flags import flag_for
from ghbench.runspec.names import AgentsName
from ghbench.runspec.spec import RunSpec
from ghbench.simulation.cell import run_cell
from ghbench.simulation.replay import ReplaySpec, load_recording, replay_plan, replay_scorecard
from ghbench.simulation.replay_policies import check_replayable
from ghbench.simulation.replay_targets import recorded_limits
from ghbench.simulation.simulate import cell_scorecard
from ghbench.timefmt import format_duration
from ghbench.trace.frame import TraceFrame
from ghbench.trace.schema import TraceRow, from_agent
from ghbench.workload.profiles import ProfileName
from ghbench.workload.replay import ReplayPlan, plan_replay, recorded_session_count

__all__ = [
    "MAX_SESSIONS",
    "CapacityAnswer",
    "CapacityQuery",
    "answer_capacity",
    "capacity_cell",
    "capacity_command",
    "capacity_spec",
    "capacity_title",
    "model_probe",
    "run_capacity",
    "run_capacity_from_trace",
    "series_search",
    "series_searches",
    "simulate_command",
    "store_series",
    "trace_probe",
]

Log = Callable[[str], None]
# what a recording's own run fixed: the flags that describe the model's cell
_MODEL_FLAGS = ("scenario", "topology", "profile", "agents", "warmup", "duration")
_VERIFY_FLAGS = ("driver", "ao_command", "transport", "duration_scale")
MAX_SESSIONS = 1000  # capacity's --max-sessions default


@dataclass(frozen=True)
class CapacityQuery:
    """What the search is asked, beside the run it probes (``RunSpec``)."""

    fraction: float
    maximum: int
    ceiling_s: float
    plot: bool = True
    verify: bool = False
    from_trace: Path | None = None
    policies: str = "none"  # --policies: in front of the replay (--from-trace only)


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


def capacity_spec(
    scenario: str,
    topology: str,
    *,
    profile: ProfileName,
    agents: AgentsName,
    seed: int,
    budget: Budget | None = None,
) -> RunSpec:
    """What ``ghbench capacity --scenario S --topology T --profile P --agents A --seed N``
    searches with: the spec those flags build (the runbook's warmup and window, the
    model in virtual time)."""
    values = {
        "scenario": scenario,
        "topology": topology,
        "profile": profile,
        "agents": agents,
        "seed": seed,
    }
    return build_spec("capacity", values, base=RunSpec(backend="simulated", budget=budget))


def _flags(spec: RunSpec) -> str:
    """The ``--budget`` flags of ``spec``'s budget (none for a user's token)."""
    return "" if spec.budget is None else spec.budget.flags


def capacity_command(spec: RunSpec) -> str:
    """The ``ghbench capacity`` run that answers for ``spec``'s cell."""
    cell = spec.cell
    agents = f" --agents {spec.agents}" if spec.runs_agents else ""
    return (
        f"ghbench capacity --scenario {cell.scenario} --topology {cell.topology}"
        f" --profile {spec.profile}{agents} --seed {spec.seed}{_flags(spec)}"
    )


def capacity_cell(spec: RunSpec) -> dict[str, Any]:
    """``capacity --json``'s ``cell``: what the search ran."""
    cell = spec.cell
    budget = {} if spec.budget is None else {"budget": spec.budget.label}
    return {
        "scenario": cell.scenario,
        "topology": cell.topology,
        "profile": spec.profile,
        "agents": spec.agents if spec.runs_agents else None,
        "seed": spec.seed,
        "warmupSeconds": spec.warmup.seconds,
        "windowSeconds": spec.duration.seconds,
        **budget,  # absent for a user's token: answers stored before budgets still hold
    }


def capacity_title(spec: RunSpec) -> str:
    cell = spec.cell
    agents = f", agents {spec.agents}" if spec.runs_agents else ""
    return (
        f"capacity: {cell.scenario}-{cell.topology} ({cell.info.title.lower()},"
        f" {cell.layout.title}), profile {spec.profile}{agents}, seed {spec.seed};"
        f" warmup {format_duration(spec.warmup.seconds)},"
        f" window {format_duration(spec.duration.seconds)}"
        + ("" if spec.budget is None else f"; budget {spec.budget.describe()}")
    )


def simulate_command(spec: RunSpec, sessions: int) -> str:
    """The ``ghbench simulate`` run that is the search's probe at ``sessions``."""
    cell = spec.cell
    agents = f" --agents {spec.agents}" if spec.runs_agents else ""
    if spec.agent_count is not None:
        agents += f" --agent-count {spec.agent_count}"
    return (
        f"ghbench simulate --scenario {cell.scenario} --topology {cell.topology}"
        f" --sessions {sessions} --warmup {spec.warmup.seconds:g}s"
        f" --duration {spec.duration.seconds:g}s --profile {spec.profile}{agents}"
        f" --seed {spec.seed}{_flags(spec)}"
    )


def model_probe(spec: RunSpec, ceiling_s: float) -> Callable[[int], Probe]:
    """``probe(n)``: the cell at n sessions in virtual time, reduced to its budgets (the
    agents' calls in them when the cell runs agents)."""

    def probe(sessions: int) -> Probe:
        run = run_cell(at_sessions(spec, sessions))
        card = cell_scorecard(run)
        uses = budget_uses(card, run.longest_poll_cycle, ceiling_s)
        return Probe.of(sessions, card, uses)

    return probe


def trace_probe(
    rows: Sequence[TraceRow],
    plan: ReplayPlan,
    *,
    seed: int,
    ceiling_s: float,
    budget: Budget | None = None,
    policies: Policies | None = None,
) -> Callable[[int], Probe]:
    """``probe(n)``: a recorded trace replayed at n sessions (``ghbench replay``), its
    budgets against one token's: the recording's hourly limits, not the replay's
    (which grow with the copies so that it measures what n sessions ask for). A replay
    re-issues each call at its recorded time, so it does not re-time a tick: the poll
    cycle at n is the recording's, read from its trace as ``--verify`` reads a real
    run's, with the time its sessions' own calls (rows with a ``sessionId``) took in each
    tick scaled by n over the recorded sessions (``longest_poll_cycle``): a poller that
    calls once per session takes that much longer (a recording without ``sessionId``s
    keeps its cycle). The recording's first tick is its orchestrator's start, which reads
    every PR cold; as the model's cycle is judged after its warmup, the cycles judged
    here are the ticks after the first (all of them when there is one). ``budget``: the
    token's hourly limits instead of the recording's (``--budget``). ``policies``: the
    fleet's, in front of the replay at each count (``simulation.replay_policies``); how
    far their gate set a session behind its recorded pace is judged against the poll
    ceiling, as the lab judges it (``analysis.lab``)."""
    limits = recorded_limits(rows, budget)
    run = RunSpec(backend="simulated", budget=budget)
    orchestrator = [r for r in rows if not from_agent(r)]
    frame = TraceFrame.from_rows(orchestrator)
    marks = frame.operation.mask(TICK_MARK)
    ticks = poll_ticks(frame.ts_ms, frame.duration_ms, marks, poll_s=AO_POLL_S)
    opens = float(ticks[1]) if ticks.size > 1 else plan.start * 1000
    window = (round(opens), round(plan.end * 1000))
    sessions_own = frame.session_id.codes >= 0
    recorded = recorded_session_count(plan)

    def probe(sessions: int) -> Probe:
        cycle = longest_poll_cycle(
            frame.ts_ms,
            frame.duration_ms,
            marks,
            window=window,
            poll_s=AO_POLL_S,
            scaled=sessions_own,
            factor=sessions / recorded,
        )
        replay = ReplaySpec(run=run, sessions=sessions, policies=policies or Policies())
        result = replay_plan(rows, plan, replay, seed=seed)
        card = replay_scorecard(result, scenario_id="capacity-from-trace")
        # a session the fleet's gate held falls behind as a slow poll does: one ceiling
        waited = max(cycle, result.longest_lag_s)
        uses = budget_uses(card, waited, ceiling_s, hourly_limits=limits)
        return Probe.of(sessions, card, uses)

    return probe


def run_capacity_from_trace(
    rows: Sequence[TraceRow],
    *,
    fraction: float,
    maximum: int,
    ceiling_s: float,
    seed: int,
    budget: Budget | None = None,
    policies: Policies | None = None,
) -> tuple[CapacityResult, int]:
    """The most sessions a user's own traffic holds within ``fraction`` of every budget,
    replayed at each count tried; and how many sessions the recording had."""
    plan = plan_replay(rows)
    if not plan.calls:
        raise UsageError(
            f"--from-trace: none of its {plan.rows} rows can be re-issued "
            f"({', '.join(sorted(plan.skipped))})"
        )
    probe = trace_probe(
        rows, plan, seed=seed, ceiling_s=ceiling_s, budget=budget, policies=policies
    )
    result = find_capacity(probe, fraction=fraction, start=1, maximum=maximum)
    return result, recorded_session_count(plan)


def run_capacity(
    spec: RunSpec, *, fraction: float, maximum: int, ceiling_s: float
) -> CapacityResult:
    """The most sessions of ``spec``'s cell within ``fraction`` of every budget."""
    probe = model_probe(spec, ceiling_s)
    return find_capacity(probe, fraction=fraction, start=smallest_sessions(spec), maximum=maximum)


def _settings(cell: Any, fraction: Any, ceiling: Any, maximum: Any) -> tuple[Any, ...]:
    """What an answer depends on besides the model's code: the cell as searched (its
    scenario, topology, profile, agents, seed, timing), the fraction, the poll ceiling and
    the most sessions tried."""
    return (cell, fraction, ceiling, maximum)


def _stored(path: Path) -> dict[str, Any] | None:
    try:
        found = msgspec.json.decode(path.read_bytes())
    except (OSError, msgspec.DecodeError):
        return None
    return found if isinstance(found, dict) else None


def _busiest_first(series: tuple[str, str]) -> tuple[bool, bool, str]:
    """The searches whose probes run the most calls first (the sessions' spawns and
    bursts, S3 and S4; the spread topology's repos), so that two lanes end together."""
    scenario, topology = series
    return (not SCENARIOS[scenario].agents, topology != "T2", scenario)


def series_searches(matrix_dir: Path, plan: RunSpec, cells: Sequence[Cell]) -> list[RunSpec]:
    """What ``capacity`` searches for each series of ``cells`` (with ``plan``'s profile,
    agents and seed, at capacity's defaults: 80% of every budget, a 60 s poll ceiling,
    up to 1,000 sessions) whose answer with those settings is not yet in
    ``capacity/{S}-{T}.json``; the busiest first."""
    out = []
    for scenario, topology in sorted({(c.scenario, c.topology) for c in cells}, key=_busiest_first):
        spec = capacity_spec(
            scenario,
            topology,
            profile=plan.profile,
            agents=plan.agents,
            seed=plan.seed,
            budget=plan.budget,
        )
        stored = _stored(capacity_path(matrix_dir, scenario, topology)) or {}
        kept = _settings(
            stored.get("cell"),
            stored.get("budgetFraction"),
            stored.get("pollCeilingSeconds"),
            stored.get("maxSessions"),
        )
        if kept != _settings(capacity_cell(spec), DEFAULT_FRACTION, POLL_CEILING_S, MAX_SESSIONS):
            out.append(spec)
    return out


def series_search(spec: RunSpec) -> CapacityResult:
    """One series' answer: exactly ``ghbench capacity``'s search at its defaults."""
    return run_capacity(
        spec, fraction=DEFAULT_FRACTION, maximum=MAX_SESSIONS, ceiling_s=POLL_CEILING_S
    )


def store_series(matrix_dir: Path, spec: RunSpec, result: CapacityResult) -> Path:
    """``capacity/{S}-{T}.json``: ``capacity --json``'s object for the series, with the
    command that gives it."""
    extra = {
        "cell": capacity_cell(spec),
        "pollCeilingSeconds": POLL_CEILING_S,
        "maxSessions": MAX_SESSIONS,
        "command": capacity_command(spec),
        "reproduce": [simulate_command(spec, p.sessions) for p in (result.at, result.next) if p],
    }
    data = msgspec.json.format(msgspec.json.encode(capacity_json(result, extra)), indent=2)
    path = capacity_path(matrix_dir, spec.cell.scenario, spec.cell.topology)
    path.parent.mkdir(parents=True, exist_ok=True)
    return replace_atomic(path, data + b"\n")


def _check(spec: RunSpec, query: CapacityQuery, typed: Collection[str]) -> None:
    """What the flags ask that the search cannot do, before anything runs."""
    if query.from_trace is not None:
        for dest in (*_MODEL_FLAGS, "verify", *_VERIFY_FLAGS):
            if dest in typed:
                flag = "--verify" if dest == "verify" else flag_for(dest).name
                raise UsageError(f"{flag} does not apply to --from-trace (a recording's own run)")
        check_replayable(parse_policies(query.policies))
        return
    if parse_policies(query.policies):
        raise UsageError("--policies applies to --from-trace (ghbench lab tabulates them)")
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
    with batch_collection():
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
        "cell": capacity_cell(spec),
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
    policies = parse_policies(query.policies)
    with batch_collection():
        result, recorded = run_capacity_from_trace(
            rows,
            fraction=query.fraction,
            maximum=query.maximum,
            ceiling_s=query.ceiling_s,
            seed=seed,
            budget=spec.budget,
            policies=policies,
        )
    under = f", policies {policies.label}" if policies else ""
    title = f"capacity from {trace} ({recorded} recorded sessions, replayed at each count{under})"
    stem = f"capacity-from-{trace.stem}-seed{seed}"
    paths = _plot(result, title, spec.out_dir, stem) if query.plot else {}
    reproduce = [
        f"ghbench replay --trace {trace} --sessions {p.sessions} --seed {seed}{_flags(spec)}"
        + (f" --policies {query.policies}" if policies else "")
        for p in (result.at, result.next)
        if p
    ]
    extra = {
        "fromTrace": {
            "trace": str(trace),
            "agentTrace": None if agents_trace is None else str(agents_trace),
            "recordedSessions": recorded,
            "seed": seed,
            "policies": policies.label,
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
