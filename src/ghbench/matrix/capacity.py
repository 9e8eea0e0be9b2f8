"""``ghbench capacity``'s flow: the workload model in virtual time as the capacity search's
probe, and ``--verify``: the answer and the next count in real time on the emulator.

Each count tried is one ``simulate`` run of the cell (same spec, same seed), reduced to
its budgets (``ghbench.analysis.capacity``): the scorecard in memory plus the longest
poll cycle of the window. So ``ghbench simulate``, run as the ``reproduce`` lines say,
prints the same scorecard figures and poll cycle for any count tried.

``series_search`` answers for each series (scenario, topology) of a matrix the same
way, with the matrix's profile, agents and seed at the runbook's timing
(``series_searches``: those not yet answered with these settings), and ``store_series``
keeps it in ``capacity/{S}-{T}.json``: ``baseline.md``'s "Sessions that fit" is that
answer, so ``capacity`` and the baseline cannot give two numbers for one cell and
profile. A matrix runs the searches on both of its lanes once the cells are done
(``ghbench.matrix.invoke``).

``verify_capacity`` runs each of the two counts as a real-time matrix cell (the harness's
setup and measure, the chosen driver, the scenario's trigger) on an emulator of its own
whose calls take the model's latency once setup is done, and the model again at that
run's timing, so the two are compared like for like; ``--verify-scale`` shortens both.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
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
    VerifiedCount,
    budget_uses,
    find_capacity,
    longest_poll_cycle,
    poll_ticks,
    traced_probe,
)
from ghbench.analysis.capacity_render import capacity_json
from ghbench.analysis.load import load_trace
from ghbench.artifacts.io import replace_atomic
from ghbench.clock import Clock
from ghbench.errors import UsageError
from ghbench.matrix.hygiene import CellTiming, cell_timing, run_timing
from ghbench.matrix.realtime import RealtimeCells
from ghbench.matrix.runner import cell_spec
from ghbench.matrix.runs import capacity_path
from ghbench.runspec.cells import SCENARIOS, TOPOLOGIES, Cell
from ghbench.runspec.names import AgentsName
from ghbench.runspec.spec import Duration, RunSpec
from ghbench.simulation.cell import ScenarioPlay, run_cell
from ghbench.simulation.replay import ReplaySpec, replay_plan, replay_scorecard
from ghbench.simulation.replay_targets import recorded_limits
from ghbench.simulation.simulate import cell_scorecard
from ghbench.simulation.world import SIM_LATENCY
from ghbench.timefmt import format_duration
from ghbench.trace.frame import TraceFrame
from ghbench.trace.schema import TraceRow, from_agent
from ghbench.workload.profiles import ProfileName
from ghbench.workload.replay import ReplayPlan, plan_replay, recorded_session_count

__all__ = [
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
    "smallest_sessions",
    "store_series",
    "trace_probe",
    "verify_capacity",
]


def capacity_spec(
    scenario: str, topology: str, *, profile: ProfileName, agents: AgentsName, seed: int
) -> RunSpec:
    """What ``ghbench capacity --scenario S --topology T --profile P --agents A --seed N``
    searches with: the cell at its smallest count, the runbook's warmup and window, the
    model in virtual time (a test holds the command to it)."""
    info, topo = SCENARIOS[scenario], TOPOLOGIES[topology]
    return RunSpec(
        backend="simulated",
        cell=Cell(info.id, topo.id, topo.min_sessions),
        warmup=Duration(info.warmup_s, f"{info.warmup_s:g}s"),
        duration=Duration(info.duration_s, f"{info.duration_s:g}s"),
        profile=profile,
        seed=seed,
        agents=agents if info.agents else "none",
    )


def capacity_command(spec: RunSpec) -> str:
    """The ``ghbench capacity`` run that answers for ``spec``'s cell."""
    cell = spec.cell
    agents = f" --agents {spec.agents}" if spec.runs_agents else ""
    return (
        f"ghbench capacity --scenario {cell.scenario} --topology {cell.topology}"
        f" --profile {spec.profile}{agents} --seed {spec.seed}"
    )


def smallest_sessions(spec: RunSpec) -> int:
    """The fewest sessions the cell's topology holds (a spread needs two)."""
    return spec.cell.layout.min_sessions


def _at(spec: RunSpec, sessions: int) -> RunSpec:
    cell = spec.cell
    return msgspec.structs.replace(spec, cell=Cell(cell.scenario, cell.topology, sessions))


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
        run = run_cell(_at(spec, sessions))
        card = cell_scorecard(run)
        uses = budget_uses(card, run.longest_poll_cycle, ceiling_s)
        return Probe.of(sessions, card, uses)

    return probe


def trace_probe(
    rows: Sequence[TraceRow], plan: ReplayPlan, *, seed: int, ceiling_s: float
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
    here are the ticks after the first (all of them when there is one)."""
    limits = recorded_limits(rows)
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
        result = replay_plan(rows, plan, ReplaySpec(sessions=sessions), seed=seed)
        card = replay_scorecard(result, scenario_id="capacity-from-trace")
        uses = budget_uses(card, cycle, ceiling_s, hourly_limits=limits)
        return Probe.of(sessions, card, uses)

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
            scenario, topology, profile=plan.profile, agents=plan.agents, seed=plan.seed
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


def _series_extra(spec: RunSpec) -> dict[str, Any]:
    return {
        "cell": capacity_cell(spec),
        "pollCeilingSeconds": POLL_CEILING_S,
        "maxSessions": MAX_SESSIONS,
        "command": capacity_command(spec),
    }


def store_series(matrix_dir: Path, spec: RunSpec, result: CapacityResult) -> Path:
    """``capacity/{S}-{T}.json``: ``capacity --json``'s object for the series, with the
    command that gives it."""
    extra = _series_extra(spec)
    extra["reproduce"] = [simulate_command(spec, p.sessions) for p in (result.at, result.next) if p]
    data = msgspec.json.format(msgspec.json.encode(capacity_json(result, extra)), indent=2)
    path = capacity_path(matrix_dir, spec.cell.scenario, spec.cell.topology)
    path.parent.mkdir(parents=True, exist_ok=True)
    return replace_atomic(path, data + b"\n")


def capacity_cell(spec: RunSpec) -> dict[str, Any]:
    """``capacity --json``'s ``cell``: what the search ran."""
    cell = spec.cell
    return {
        "scenario": cell.scenario,
        "topology": cell.topology,
        "profile": spec.profile,
        "agents": spec.agents if spec.runs_agents else None,
        "seed": spec.seed,
        "warmupSeconds": spec.warmup.seconds,
        "windowSeconds": spec.duration.seconds,
    }


MAX_SESSIONS = 1000  # capacity's --max-sessions default


def _timing(spec: RunSpec) -> CellTiming:
    """What the real run does (``cell_timing``, as the matrix's real-time cells use it)."""
    return cell_timing(
        _at(spec, smallest_sessions(spec)).cell,
        duration_scale=spec.duration_scale,
        scaled_poll=spec.traits.tick,
    )


def _model_at(spec: RunSpec, sessions: int, timing: CellTiming, ceiling_s: float) -> Probe:
    """The model at the real run's timing and triggers, its cycle read like the real one's."""
    poll = timing.tick_s or timing.poll_s
    scale = spec.duration_scale
    model = msgspec.structs.replace(
        _at(spec, sessions),
        backend="simulated",
        warmup=Duration.of(timing.warmup_s),
        duration=Duration.of(timing.window_s),
        tick=Duration(poll, f"{poll:g}s"),
    )
    play = ScenarioPlay(
        burst_prs=math.ceil(sessions / 2),  # the real-time S4's M = ceil(N/2)
        dashboard_refresh=max(1.0, 30.0 * scale),  # the real-time S6 reader's, scaled
        dashboard_click=max(1.0, 10.0 * scale),
    )
    run = run_cell(model, play)
    frame = TraceFrame.from_rows(run.rows)
    return traced_probe(cell_scorecard(run), frame, poll, ceiling_s)


def _real_at(
    spec: RunSpec,
    sessions: int,
    root: Path,
    *,
    timing: CellTiming,
    ceiling_s: float,
    clock: Clock,
    env: Mapping[str, str],
    log: Callable[[str], None],
) -> Probe:
    """The count as a real-time matrix cell on its own emulator (fresh buckets), whose
    latency is the model's (``SIM_LATENCY``), with the chosen driver."""
    real = msgspec.structs.replace(spec, backend="emulator", poll_interval=Duration(1.0, "1s"))
    cell = _at(spec, sessions).cell
    runner = RealtimeCells(
        spec=real,
        state_dir=root / "state" / "emulator",
        work_dir=root / "realtime",
        clock=clock,
        env=env,
        log=log,
        window_faults=SIM_LATENCY,
    )
    try:
        result = runner.run_cell(cell_spec(real, cell, run_timing(real, cell), root / "cell"))
    finally:
        runner.close()
    frame = load_trace(result.trace_path, ("ts_ms", "duration_ms", "operation"))
    return traced_probe(result.scorecard, frame, timing.tick_s or timing.poll_s, ceiling_s)


def verify_capacity(
    spec: RunSpec,
    result: CapacityResult,
    out_dir: Path,
    *,
    ceiling_s: float,
    clock: Clock,
    env: Mapping[str, str],
    log: Callable[[str], None],
) -> tuple[CellTiming, list[VerifiedCount]]:
    """The answer and the next count, each run in real time (``spec``'s driver, its
    ``duration_scale``) under ``out_dir`` and by the model at the same timing; both poll
    cycles are read from the trace (``longest_poll_cycle``: from each tick's Guard 1
    on), since a real orchestrator records no ticks."""
    timing = _timing(spec)
    out = []
    for probe in (result.at, result.next):
        if probe is None:
            continue
        n = probe.sessions
        log(f"verify: {n} session(s) in real time on the emulator ({spec.driver} driver)")
        root = out_dir / f"sessions-{n}"
        real = _real_at(
            spec, n, root, timing=timing, ceiling_s=ceiling_s, clock=clock, env=env, log=log
        )
        out.append(VerifiedCount(_model_at(spec, n, timing, ceiling_s), real))
    return timing, out
