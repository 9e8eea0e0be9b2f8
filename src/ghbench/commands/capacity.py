"""``ghbench capacity``: the most sessions a cell holds within a fraction of every budget."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ghbench.errors import UsageError
from ghbench.timefmt import duration_flag
from ghbench.workload.profiles import PROFILE_NAMES, ProfileName

__all__ = ["command"]


def _seconds(flag: str, text: str | None) -> float | None:
    return None if text is None else duration_flag(flag, text, allow_zero=flag == "--warmup")


@click.command(name="capacity")
@click.option("--scenario", default="S2", show_default=True, help="S1..S6 or a name.")
@click.option("--topology", default="T1", show_default=True, help="T1 (one repo) or T2.")
@click.option(
    "--profile",
    type=click.Choice(PROFILE_NAMES),
    default="head",
    show_default=True,
    help="AO version the model plays.",
)
@click.option(
    "--budget-fraction",
    type=click.FloatRange(min=0.0, min_open=True, max=1.0),
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
    help="Where the plot goes.",
)
@click.option("--no-plot", is_flag=True, help="Do not write the PNG.")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as a JSON object.")
def command(  # noqa: PLR0917 - one parameter per flag, as click passes them
    scenario: str,
    topology: str,
    profile: ProfileName,
    budget_fraction: float,
    poll_ceiling: str,
    max_sessions: int,
    seed: int,
    warmup: str | None,
    duration: str | None,
    out_dir: Path,
    no_plot: bool,
    as_json: bool,
) -> None:
    """Search, with the AO model in virtual time, for the largest session count that stays
    within --budget-fraction of every budget: GraphQL points/h, REST core requests/h,
    secondary points/min, concurrency and the poll cycle."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.analysis.capacity_render import capacity_json, capacity_png, capacity_text  # noqa: PLC0415
    from ghbench.artifacts.io import unique_path, write_new  # noqa: PLC0415
    from ghbench.matrix.capacity import CapacityCell, run_capacity  # noqa: PLC0415
    from ghbench.workload.scenarios import parse_scenario, parse_topology  # noqa: PLC0415

    cell = CapacityCell(
        scenario=parse_scenario(scenario).id,
        topology=parse_topology(topology),
        profile=profile,
        seed=seed,
        warmup_s=_seconds("--warmup", warmup),
        duration_s=_seconds("--duration", duration),
        ceiling_s=_seconds("--poll-ceiling", poll_ceiling) or 60.0,
    )
    if max_sessions < cell.smallest:
        raise UsageError(f"--max-sessions: {cell.topology} needs at least {cell.smallest}")
    result = run_capacity(cell, fraction=budget_fraction, maximum=max_sessions)
    paths: dict[str, str] = {}
    if not no_plot:
        stem = f"capacity-{cell.scenario}-{cell.topology}-{cell.profile}-seed{cell.seed}"
        png = capacity_png(result, title=cell.title)
        paths["plot"] = str(write_new(unique_path(out_dir, stem, ".png"), png))
    reproduce = [cell.simulate_command(p.sessions) for p in (result.at, result.next) if p]
    if as_json:
        extra = {
            "cell": {
                "scenario": cell.scenario,
                "topology": cell.topology,
                "profile": cell.profile,
                "seed": cell.seed,
                "warmupSeconds": cell.warmup,
                "windowSeconds": cell.duration,
            },
            "pollCeilingSeconds": cell.ceiling_s,
            "maxSessions": max_sessions,
            "plot": paths.get("plot"),
            "reproduce": reproduce,
        }
        click.echo(json.dumps(capacity_json(result, extra), indent=2))
        return
    notes = [f"reproduce: {line}" for line in reproduce]
    click.echo(capacity_text(result, title=cell.title, notes=notes, paths=paths), nl=False)
