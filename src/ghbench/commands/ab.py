"""``ghbench ab``: A/B runs of two orchestrator builds on one setup, then their comparison.

Build A is the baseline, build B the candidate. With ``--driver ao`` each build is an AO
checkout (``--a-ao`` / ``--b-ao``); with ``--driver workload`` each is a profile of the
model (``--a-profile`` / ``--b-profile``). Exit codes as ``compare``: 3 when a
``--fail`` threshold fails.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ghbench.clock import SystemClock
from ghbench.commands.options import parse_issue_list, resolve_project
from ghbench.commands.outdir import hold_out
from ghbench.commands.params import MAX_SESSIONS, ProfileChoice
from ghbench.errors import UsageError
from ghbench.harness.flags import RunFlags
from ghbench.timefmt import duration_flag
from ghbench.workload.profiles import DEFAULT_PROFILE, ProfileName

if TYPE_CHECKING:
    from ghbench.harness.ab import AbOutcome

__all__ = ["command"]

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class AbArgs:
    """Every flag of ``ghbench ab``, as click passes them."""

    project: str
    sessions: int
    issues: str | None
    config_path: Path | None
    out_dir: Path
    driver: str
    github: str
    transport: str
    tick: str | None
    runs: int
    warmup: str
    duration: str
    smoke: str
    poll_interval: str
    timeout: str
    fail: tuple[str, ...]
    a_ao: str | None
    a_ao_layout: str
    a_profile: ProfileName | None
    b_ao: str | None
    b_ao_layout: str
    b_profile: ProfileName | None

    def side(self, label: str) -> tuple[str | None, str, ProfileName | None]:
        """(AO checkout, AO layout, profile) of build ``label``."""
        values = vars(self)
        return values[f"{label}_ao"], values[f"{label}_ao_layout"], values[f"{label}_profile"]


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
            type=click.Choice(["auto", "json", "kv"]),
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
@click.option("--project", required=True, help="Project id in agent-orchestrator.yaml.")
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
@click.option("--driver", type=click.Choice(["ao", "workload"]), default="ao", show_default=True)
@click.option(
    "--github",
    type=click.Choice(["github", "emulator"]),
    default="github",
    show_default=True,
    help="Real GitHub as gh reaches it, or the embedded emulator (state in OUT/state).",
)
@click.option(
    "--transport",
    type=click.Choice(["gh", "http"]),
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
    from ghbench.analysis.compare import Run  # noqa: PLC0415
    from ghbench.analysis.thresholds import parse_threshold  # noqa: PLC0415
    from ghbench.artifacts.models import load_scorecard  # noqa: PLC0415
    from ghbench.commands.compare import report_comparison  # noqa: PLC0415

    args = AbArgs(**flags)
    thresholds = [parse_threshold(t) for t in args.fail]
    outcome = _run(args, _builds(args))
    sides: dict[str, list[Run]] = {"a": [], "b": []}
    for build, result in outcome.runs:
        path = result.scorecard_path
        sides[build.label].append(Run(str(path), load_scorecard(path)))
    return report_comparison(sides["a"], sides["b"], thresholds, save_to=outcome.run_dir)


def _builds(args: AbArgs) -> Any:
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.harness.ab import Build  # noqa: PLC0415

    builds = []
    for label in ("a", "b"):
        ao, layout, profile = args.side(label)
        wanted, unwanted = (ao, profile) if args.driver == "ao" else (profile, ao)
        flag, other = ("ao", "profile") if args.driver == "ao" else ("profile", "ao")
        if wanted is None:
            raise UsageError(
                f"--driver {args.driver} needs --{label}-{flag} (build {label.upper()})"
            )
        if unwanted is not None:
            raise UsageError(f"--{label}-{other} does not apply to --driver {args.driver}")
        flags = RunFlags(
            driver=args.driver,
            github="emulator" if args.github == "emulator" else "github",
            ao_command=ao,
            ao_layout=layout,
            transport=args.transport,
            profile=profile or DEFAULT_PROFILE,
            tick=args.tick,
        )
        builds.append(Build(label, Path(wanted).name or wanted, flags))
    return tuple(builds)


def _run(args: AbArgs, builds: Any) -> AbOutcome:
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.harness.ab import AbOptions, run_ab  # noqa: PLC0415
    from ghbench.harness.progress import make_progress  # noqa: PLC0415

    issues = parse_issue_list(args.issues or f"1-{args.sessions}")
    if len(issues) != args.sessions:
        raise UsageError(
            f"--issues lists {len(issues)} issues but --sessions is {args.sessions};"
            " give exactly one issue per session"
        )
    options = AbOptions(
        out_dir=args.out_dir,
        sessions=args.sessions,
        issues=tuple(issues),
        runs=args.runs,
        warmup=duration_flag("--warmup", args.warmup),
        duration=duration_flag("--duration", args.duration, allow_zero=False),
        warmup_text=args.warmup,
        duration_text=args.duration,
        smoke=duration_flag("--smoke", args.smoke, allow_zero=False),
        poll_interval=duration_flag("--poll-interval", args.poll_interval, allow_zero=False),
        setup_timeout=duration_flag("--timeout", args.timeout, allow_zero=False),
    )
    project = resolve_project(args.project, args.config_path)
    hold_out(args.out_dir)
    return run_ab(
        project,
        builds,
        options=options,
        clock=SystemClock(),
        progress=make_progress,
        announce=lambda text: click.echo(text, err=True),
    )
