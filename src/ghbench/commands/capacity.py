"""``ghbench capacity``: the most sessions a cell holds within a fraction of every budget."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click

from ghbench.artifacts.io import unique_path
from ghbench.clock import SystemClock
from ghbench.collector import batch_collection
from ghbench.commands.outdir import hold_out
from ghbench.commands.params import (
    AGENTS_HELP,
    MAX_VIRTUAL_S,
    AgentsChoice,
    FiniteFloatRange,
    ProfileChoice,
)
from ghbench.errors import UsageError
from ghbench.runspec.cells import TOPOLOGIES, Cell, parse_topology, scenario_for
from ghbench.runspec.names import DRIVER_NAMES, AgentsName, DriverName
from ghbench.runspec.spec import Duration, RunSpec
from ghbench.timefmt import duration_flag, format_duration
from ghbench.workload.config import TRANSPORT_NAMES, TransportName
from ghbench.workload.profiles import DEFAULT_PROFILE, ProfileName

__all__ = ["command"]


def _duration(flag: str, text: str | None, runbook: float) -> Duration:
    """The flag's duration, or the runbook's for the scenario."""
    if text is None:
        return Duration(runbook, f"{runbook:g}s")
    return Duration.parse(flag, text, allow_zero=flag == "--warmup", maximum=MAX_VIRTUAL_S)


@click.command(name="capacity")
@click.option("--scenario", default=None, help="S1..S6 or a name [S2; S3 with --agents].")
@click.option("--topology", default="T1", show_default=True, help="T1 (one repo) or T2.")
@click.option(
    "--profile",
    type=ProfileChoice(),
    default=DEFAULT_PROFILE,
    show_default=True,
    help="AO version the model plays.",
)
@click.option("--agents", type=AgentsChoice(), default="none", show_default=True, help=AGENTS_HELP)
@click.option(
    "--from-trace",
    "from_trace",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Answer from a recorded trace instead of the model: replayed at each count tried"
    " (with the agents' trace beside it, gh-trace-agents-*, when there is one).",
)
@click.option(
    "--budget-fraction",
    type=FiniteFloatRange(min=0.0, min_open=True, max=1.0),
    default=0.8,
    show_default=True,
    help="Share of every budget a count may use.",
)
@click.option(
    "--poll-ceiling",
    default="60s",
    show_default=True,
    metavar="DURATION",
    help="Longest acceptable poll cycle (AO's limit-finder: 60 s).",
)
@click.option(
    "--max-sessions",
    type=click.IntRange(min=1, max=100_000),
    default=1000,
    show_default=True,
    help="Largest count tried.",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--warmup", default=None, help="Warmup [the runbook's for the scenario].")
@click.option("--duration", default=None, help="Window [the runbook's for the scenario].")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("ghbench-out"),
    show_default=True,
    help="Where the plot and the HTML page go.",
)
@click.option("--no-plot", is_flag=True, help="Do not write the PNG and the HTML page.")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as a JSON object.")
@click.option(
    "--verify",
    is_flag=True,
    help="Run the count found and the next one in real time on the emulator, and say"
    " whether they agree with the model.",
)
@click.option(
    "--driver",
    type=click.Choice(DRIVER_NAMES),
    default="workload",
    show_default=True,
    help="--verify: the orchestrator to run.",
)
@click.option("--ao", "ao_command", default=None, help="--verify --driver ao: AO checkout.")
@click.option(
    "--transport",
    type=click.Choice(TRANSPORT_NAMES),
    default="http",
    show_default=True,
    help="--verify --driver workload: through the real gh CLI, or HTTP.",
)
@click.option(
    "--verify-scale",
    type=FiniteFloatRange(min=0.0, min_open=True, max=1.0),
    default=1.0,
    show_default=True,
    help="--verify: the runbook's warmup and window (and the model's poll) times this.",
)
def command(  # noqa: PLR0917 - one parameter per flag, as click passes them
    scenario: str | None,
    topology: str,
    profile: ProfileName,
    agents: AgentsName,
    from_trace: Path | None,
    budget_fraction: float,
    poll_ceiling: str,
    max_sessions: int,
    seed: int,
    warmup: str | None,
    duration: str | None,
    out_dir: Path,
    no_plot: bool,
    as_json: bool,
    verify: bool,
    driver: DriverName,
    ao_command: str | None,
    transport: TransportName,
    verify_scale: float,
) -> None:
    """Search, with the AO model in virtual time (its sessions' agents too with --agents),
    or by replaying your own trace (--from-trace), for the largest session count that
    stays within --budget-fraction of every budget: GraphQL points/h, REST core
    requests/h, secondary points/min, concurrency and the poll cycle."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.analysis.capacity_render import capacity_json, capacity_text  # noqa: PLC0415
    from ghbench.matrix.capacity import (  # noqa: PLC0415
        capacity_cell,
        capacity_title,
        run_capacity,
        simulate_command,
        smallest_sessions,
    )

    given = click.get_current_context().get_parameter_source
    ceiling_s = duration_flag(
        "--poll-ceiling", poll_ceiling, allow_zero=False, maximum=MAX_VIRTUAL_S
    )
    if from_trace is not None:
        model_flags = ("scenario", "topology", "profile", "agents", "warmup", "duration")
        for name in (*model_flags, "verify", "driver", "ao_command", "transport"):
            if given(name) is click.core.ParameterSource.COMMANDLINE:
                flag = "--" + name.replace("_command", "").replace("_", "-")
                raise UsageError(f"{flag} does not apply to --from-trace (a recording's own run)")
        _from_trace(
            from_trace,
            fraction=budget_fraction,
            maximum=max_sessions,
            ceiling_s=ceiling_s,
            seed=seed,
            out_dir=out_dir,
            plot=not no_plot,
            as_json=as_json,
        )
        return
    info = scenario_for(scenario, agents=agents != "none")
    topo = TOPOLOGIES[parse_topology(topology)]
    # the search probes the cell at every count from its smallest; --verify runs two of
    # them in real time
    spec = RunSpec(
        backend="simulated",
        cell=Cell(info.id, topo.id, topo.min_sessions),
        warmup=_duration("--warmup", warmup, info.warmup_s),
        duration=_duration("--duration", duration, info.duration_s),
        profile=profile,
        seed=seed,
        driver=driver,
        ao_command=ao_command,
        transport=transport,
        duration_scale=verify_scale,
        agents=agents,
    )
    smallest = smallest_sessions(spec)
    if max_sessions < smallest:
        raise UsageError(f"--max-sessions: {spec.cell.topology} needs at least {smallest}")
    for flag, name in (
        ("--driver", "driver"),
        ("--ao", "ao_command"),
        ("--transport", "transport"),
        ("--verify-scale", "verify_scale"),
    ):
        if not verify and given(name) is click.core.ParameterSource.COMMANDLINE:
            raise UsageError(f"{flag} applies to --verify only; add --verify or drop it")
    if spec.traits.ao != (ao_command is not None) and verify:
        raise UsageError("--driver ao needs --ao CHECKOUT, and --ao needs --driver ao")
    if verify and spec.runs_agents and not spec.traits.agents:
        raise UsageError(
            f"--verify --agents: the {spec.driver} driver runs no agents in real time;"
            " use --driver ao --ao CHECKOUT, or drop --verify"
        )
    if verify or not no_plot:
        hold_out(out_dir)
    with batch_collection():
        result = run_capacity(
            spec, fraction=budget_fraction, maximum=max_sessions, ceiling_s=ceiling_s
        )
    cell = spec.cell
    agents_part = f"-agents-{spec.agents}" if spec.runs_agents else ""
    stem = f"capacity-{cell.scenario}-{cell.topology}-{spec.profile}{agents_part}-seed{spec.seed}"
    paths = _plot(result, capacity_title(spec), out_dir, stem) if not no_plot else {}
    reproduce = [simulate_command(spec, p.sessions) for p in (result.at, result.next) if p]
    checked: dict[str, Any] | None = None
    checked_text = ""
    if verify:
        checked, checked_text = _verify(spec, result, out_dir, ceiling_s)
    extra = {
        "cell": capacity_cell(spec),
        "pollCeilingSeconds": ceiling_s,
        "maxSessions": max_sessions,
        "plot": paths.get("plot"),
        "reproduce": reproduce,
        "verify": checked,
    }
    doc = _with_page(capacity_json(result, extra), out_dir, stem, paths, write=not no_plot)
    if as_json:
        click.echo(json.dumps(doc, indent=2))
        return
    notes = [f"reproduce: {line}" for line in reproduce]
    click.echo(
        capacity_text(result, title=capacity_title(spec), notes=notes, paths=paths), nl=False
    )
    click.echo(checked_text, nl=False)


def _plot(result: Any, title: str, out_dir: Path, stem: str) -> dict[str, str]:
    """The cost plot's PNG under ``out_dir``: ``{"plot": path}``."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.analysis.capacity_render import capacity_png  # noqa: PLC0415
    from ghbench.artifacts.io import write_new  # noqa: PLC0415

    png = capacity_png(result, title=title)
    return {"plot": str(write_new(unique_path(out_dir, stem, ".png"), png))}


def _with_page(
    doc: dict[str, Any], out_dir: Path, stem: str, paths: dict[str, str], *, write: bool
) -> dict[str, Any]:
    """``doc`` with ``page``: the answer's HTML page, written beside the plot (added to
    ``paths``) unless ``write`` is off (None then)."""
    # the page loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.artifacts.io import write_new  # noqa: PLC0415
    from ghbench.pages.capacity_page import capacity_page  # noqa: PLC0415

    page = None
    if write:
        html = capacity_page(doc).encode()
        page = paths["page"] = str(write_new(unique_path(out_dir, stem, ".html"), html))
    return {**doc, "page": page}


def _from_trace(
    trace: Path,
    *,
    fraction: float,
    maximum: int,
    ceiling_s: float,
    seed: int,
    out_dir: Path,
    plot: bool,
    as_json: bool,
) -> None:
    """``--from-trace``: the search with the recording replayed as its probe."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.analysis.capacity_render import capacity_json, capacity_text  # noqa: PLC0415
    from ghbench.matrix.capacity import run_capacity_from_trace  # noqa: PLC0415
    from ghbench.simulation.replay import load_recording  # noqa: PLC0415

    rows, agents_trace = load_recording(trace)
    if plot:
        hold_out(out_dir)
    with batch_collection():
        result, recorded = run_capacity_from_trace(
            rows, fraction=fraction, maximum=maximum, ceiling_s=ceiling_s, seed=seed
        )
    title = f"capacity from {trace} ({recorded} recorded sessions, replayed at each count)"
    stem = f"capacity-from-{trace.stem}-seed{seed}"
    paths = _plot(result, title, out_dir, stem) if plot else {}
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
        "pollCeilingSeconds": ceiling_s,
        "maxSessions": maximum,
        "plot": paths.get("plot"),
        "reproduce": reproduce,
    }
    doc = _with_page(capacity_json(result, extra), out_dir, stem, paths, write=plot)
    if as_json:
        click.echo(json.dumps(doc, indent=2))
        return
    notes = [f"reproduce: {line}" for line in reproduce]
    if agents_trace is not None:
        notes.insert(0, f"with the agents' trace beside it: {agents_trace}")
    text = capacity_text(result, title=title, notes=notes, paths=paths, runs="replay(s)")
    click.echo(text, nl=False)


def _verify(spec: Any, result: Any, out_dir: Path, ceiling_s: float) -> tuple[dict[str, Any], str]:
    """Run ``--verify``; its JSON object and its console text."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.analysis.capacity_render import verify_json, verify_text  # noqa: PLC0415
    from ghbench.matrix.capacity import verify_capacity  # noqa: PLC0415

    cell, scale, driver = spec.cell, spec.duration_scale, spec.driver
    # absolute: the emulator and the orchestrator run in directories of their own
    where = unique_path(out_dir.resolve(), f"verify-{cell.scenario}-{cell.topology}", "")
    timing, counts = verify_capacity(
        spec,
        result,
        where,
        ceiling_s=ceiling_s,
        clock=SystemClock(),
        env=dict(os.environ),
        log=lambda line: click.echo(line, err=True),
    )
    poll = timing.tick_s or timing.poll_s
    how = (
        f"real time on the emulator ({driver} driver"
        + (f" over {spec.transport}" if spec.traits.transport else "")
        + f"; warmup {format_duration(timing.warmup_s)}, window {format_duration(timing.window_s)},"
        f" poll {poll:g} s; the model's latency), against the model at the same timing;"
        " poll cycles read from each trace (each tick from its Guard 1 on)"
    )
    doc = {
        **verify_json(counts, result.fraction),
        "scale": scale,
        "driver": driver,
        "warmupSeconds": timing.warmup_s,
        "windowSeconds": timing.window_s,
        "pollSeconds": poll,
        "artifacts": str(where),
    }
    text = verify_text(counts, result.fraction, how=how)
    if scale != 1.0 and timing.tick_s is not None:
        text += (
            f"  note: at ×{scale:g} the model polls every {poll:g} s, not every 30 s, so the"
            " per-hour figures are far above the full timing's: these verdicts test the\n"
            "  model's calls against real ones, not the count found; --verify-scale 1 (the"
            " default) runs the runbook's timing\n"
        )
    return doc, text + f"  artifacts: {where}\n"
