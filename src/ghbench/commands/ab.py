"""``ghbench ab``: A/B runs of two orchestrator builds on one setup, then their comparison.

Build A is the baseline, build B the candidate. With ``--driver ao`` each build is an AO
checkout (``--a-ao`` / ``--b-ao``); with ``--driver workload`` each is a profile of the
model (``--a-profile`` / ``--b-profile``). Exit codes as ``compare``: 3 when a
``--fail`` threshold fails.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click
import msgspec

from ghbench.clock import SystemClock
from ghbench.commands.comparison import print_report
from ghbench.commands.options import PROJECT_HELP, parse_issue_list, resolve_project
from ghbench.commands.outdir import hold_out
from ghbench.commands.params import MAX_SESSIONS, ProfileChoice
from ghbench.errors import UsageError
from ghbench.runspec.cells import Cell
from ghbench.runspec.names import AO_LAYOUT_NAMES, DRIVER_NAMES
from ghbench.runspec.spec import Duration, RunSpec
from ghbench.workload.config import TRANSPORT_NAMES
from ghbench.workload.profiles import DEFAULT_PROFILE

if TYPE_CHECKING:
    from ghbench.harness.ab import AbOutcome, Build

__all__ = ["command"]

F = TypeVar("F", bound=Callable[..., Any])


def _build_options(func: F) -> F:
    """``--a-ao``/``--b-ao``, their layouts, ``--a-profile``/``--b-profile``."""
    for label in ("b", "a"):
        role = "baseline" if label == "a" else "candidate"
        build = f"build {label.upper()} ({role})"
        func = click.option(
            f"--{label}-profile",
            type=ProfileChoice(),
            default=None,
            help=f"--driver workload: {build}, a profile of the model.",
        )(func)
        func = click.option(
            f"--{label}-ao-layout",
            type=click.Choice(AO_LAYOUT_NAMES),
            default="auto",
            show_default=True,
            help=f"--driver ao: {build}'s session storage (kv: bench-era AO).",
        )(func)
        func = click.option(
            f"--{label}-ao",
            default=None,
            metavar="CHECKOUT",
            help=f"--driver ao: {build}, an AO checkout or ao executable.",
        )(func)
    return func


@click.command(name="ab")
@click.option("--project", required=True, help=PROJECT_HELP)
@click.option("--sessions", required=True, type=click.IntRange(min=1, max=MAX_SESSIONS))
@click.option("--issues", default=None, help="Issues to spawn sessions for [1-SESSIONS].")
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="agent-orchestrator.yaml to use (default: AO's own search order).",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path, resolve_path=True),
    default=Path("ghbench-ab"),
    show_default=True,
    help="The setup and emulator state; each A/B in OUT/ab-{time}: smoke/, a/, b/, compare.*",
)
@click.option("--driver", type=click.Choice(DRIVER_NAMES), default="ao", show_default=True)
@click.option(
    "--github",
    type=click.Choice(["github", "emulator"]),
    default="github",
    show_default=True,
    help="Real GitHub as gh reaches it, or the embedded emulator (state in OUT/state).",
)
@click.option(
    "--transport",
    type=click.Choice(TRANSPORT_NAMES),
    default="gh",
    show_default=True,
    help="--driver workload: call GitHub through the real gh CLI, or HTTP.",
)
@click.option("--tick", default=None, help="--driver workload: poll interval [30s].")
@click.option(
    "--runs", type=click.IntRange(min=1, max=100), default=4, show_default=True, help="Per build."
)
@click.option("--warmup", default="2m", show_default=True, help="Warmup before each window.")
@click.option("--duration", required=True, help="Each run's measurement window, e.g. 10m.")
@click.option(
    "--smoke",
    default="60s",
    show_default=True,
    help="Each build's longest smoke window (it ends at the first traced call); a build"
    " whose trace stays empty is refused.",
)
@click.option("--poll-interval", default="30s", show_default=True, help="Setup's PR polling.")
@click.option("--timeout", default="10m", show_default=True, help="Setup's wait for PRs.")
@click.option(
    "--fail",
    multiple=True,
    metavar="EXPR",
    help="A compare threshold, B against A, e.g. 'graphqlPointsPerHr>+10%' (exit 3).",
)
@_build_options
def command(**flags: Any) -> int:
    """Run two orchestrator builds alternately on one setup (A B A B, --runs each), keep
    every run's artifacts, and compare B (candidate) with A (baseline)."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.analysis.thresholds import parse_threshold  # noqa: PLC0415
    from ghbench.harness.ab import compare_builds  # noqa: PLC0415

    thresholds = [parse_threshold(t) for t in flags["fail"]]
    spec = _spec(flags)
    builds = _builds(spec, flags)
    outcome = _run(spec, flags, builds)
    report, saved = compare_builds(outcome, thresholds)
    return print_report(report, "console", saved)


def _spec(flags: dict[str, Any]) -> RunSpec:
    """The run both builds make: everything but the orchestrator's build."""
    sessions = flags["sessions"]
    issues = parse_issue_list(flags["issues"] or f"1-{sessions}")
    if len(issues) != sessions:
        raise UsageError(
            f"--issues lists {len(issues)} issues but --sessions is {sessions};"
            " give exactly one issue per session"
        )
    tick = flags["tick"]
    return RunSpec(
        driver=flags["driver"],
        backend=flags["github"],
        transport=flags["transport"],
        tick=None if tick is None else Duration.parse("--tick", tick, allow_zero=False),
        cell=Cell("S2", "T1", sessions),
        warmup=Duration.parse("--warmup", flags["warmup"]),
        duration=Duration.parse("--duration", flags["duration"], allow_zero=False),
        project=flags["project"],
        ao_config=flags["config_path"],
        issues=tuple(issues),
        poll_interval=Duration.parse("--poll-interval", flags["poll_interval"], allow_zero=False),
        setup_timeout=Duration.parse("--timeout", flags["timeout"], allow_zero=False),
        out_dir=flags["out_dir"],
    )


def _builds(spec: RunSpec, flags: dict[str, Any]) -> tuple[Build, Build]:
    """Build A and build B: the run with each one's AO checkout or model profile."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.harness.ab import Build  # noqa: PLC0415

    builds = []
    ao = spec.traits.ao
    for label in ("a", "b"):
        checkout, profile = flags[f"{label}_ao"], flags[f"{label}_profile"]
        wanted, unwanted = (checkout, profile) if ao else (profile, checkout)
        flag, other = ("ao", "profile") if ao else ("profile", "ao")
        if wanted is None:
            raise UsageError(
                f"--driver {spec.driver} needs --{label}-{flag} (build {label.upper()})"
            )
        if unwanted is not None:
            raise UsageError(f"--{label}-{other} does not apply to --driver {spec.driver}")
        build = msgspec.structs.replace(
            spec,
            ao_command=checkout,
            ao_layout=flags[f"{label}_ao_layout"],
            profile=profile or DEFAULT_PROFILE,
        )
        builds.append(Build(label, Path(wanted).name or wanted, build))
    return builds[0], builds[1]


def _run(spec: RunSpec, flags: dict[str, Any], builds: tuple[Build, Build]) -> AbOutcome:
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.drivers.registry import driver_kind  # noqa: PLC0415
    from ghbench.harness.ab import run_ab  # noqa: PLC0415
    from ghbench.harness.progress import make_progress  # noqa: PLC0415

    smoke = Duration.parse("--smoke", flags["smoke"], allow_zero=False)
    a, b = (driver_kind(build.spec, os.environ) for build in builds)
    if a.name != b.name:
        raise UsageError(
            f"build A runs as {a.name} and build B as {b.name}: one setup cannot serve both"
            " (AO 0.10 keeps its sessions in its own data directory); measure each with"
            " 'ghbench setup' and 'ghbench measure' in its own --out, then 'ghbench compare'"
        )
    project = resolve_project(builds[0].spec)
    hold_out(spec.out_dir)
    return run_ab(
        project,
        builds,
        runs=flags["runs"],
        smoke=smoke,
        clock=SystemClock(),
        progress=make_progress,
        announce=lambda text: click.echo(text, err=True),
    )
