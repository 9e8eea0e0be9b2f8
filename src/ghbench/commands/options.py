"""Flags shared by ``setup`` and ``measure``, and what they resolve to."""

from __future__ import annotations

import functools
import os
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import click

from ghbench.commands import DEFAULT_OUT
from ghbench.commands.params import MAX_ISSUE_NUMBER, MAX_SESSIONS, ProfileChoice
from ghbench.drivers.project import Project
from ghbench.errors import UsageError
from ghbench.github.names import BACKEND_NAMES, BackendName
from ghbench.runspec.cells import Cell
from ghbench.runspec.names import AO_LAYOUT_NAMES, DRIVER_NAMES, AoLayoutName, DriverName
from ghbench.runspec.spec import Duration, RunSpec
from ghbench.workload.config import TRANSPORT_NAMES, TransportName
from ghbench.workload.profiles import DEFAULT_PROFILE, ProfileName

__all__ = ["PROJECT_HELP", "common_options", "parse_issue_list", "resolve_project"]

PROJECT_HELP = (
    "Project id: in agent-orchestrator.yaml (AO's TypeScript builds, the model), or the id"
    " AO 0.10 registers the checkout ghbench runs in under."
)

_RANGE = re.compile(r"^([0-9]+)-([0-9]+)$")
_NUMBER = re.compile(r"^[0-9]+$")

F = TypeVar("F", bound=Callable[..., Any])


def _spec(
    *,
    project: str,
    sessions: int,
    config_path: Path | None,
    out_dir: Path,
    driver: DriverName,
    github: BackendName,
    ao_command: str | None,
    ao_layout: AoLayoutName,
    transport: TransportName,
    profile: ProfileName,
    tick: str | None,
) -> RunSpec:
    """The run the shared flags describe (S2 on one repo: the spec's v1 setup)."""
    return RunSpec(
        driver=driver,
        ao_command=ao_command,
        ao_layout=ao_layout,
        transport=transport,
        profile=profile,
        tick=None if tick is None else Duration.parse("--tick", tick, allow_zero=False),
        backend=github,
        cell=Cell("S2", "T1", sessions),
        project=project,
        ao_config=config_path,
        out_dir=out_dir,
    )


_SHARED = (
    "project",
    "sessions",
    "config_path",
    "out_dir",
    "driver",
    "github",
    "ao_command",
    "ao_layout",
    "transport",
    "profile",
    "tick",
)


def common_options(func: F) -> F:
    """--project/--sessions, where things go, which driver and which GitHub.

    The command receives the run they describe as one keyword argument, ``spec:
    RunSpec``, and adds its own flags' settings to it.
    """

    @functools.wraps(func)
    def with_common(*args: Any, **kwargs: Any) -> Any:
        spec = _spec(**{name: kwargs.pop(name) for name in _SHARED})
        return func(*args, spec=spec, **kwargs)

    decorators = [
        click.option("--project", required=True, help=PROJECT_HELP),
        click.option(
            "--sessions",
            required=True,
            type=click.IntRange(min=1, max=MAX_SESSIONS),
            help="Number of sessions.",
        ),
        click.option(
            "--config",
            "config_path",
            type=click.Path(dir_okay=False, path_type=Path),
            default=None,
            help="agent-orchestrator.yaml to use (default: AO's own search order).",
        ),
        click.option(
            "--out",
            "out_dir",
            type=click.Path(file_okay=False, path_type=Path, resolve_path=True),
            default=DEFAULT_OUT,
            show_default=True,
            help="Directory for artifacts, traces and state.",
        ),
        click.option(
            "--driver",
            type=click.Choice(DRIVER_NAMES),
            default="ao",
            show_default=True,
            help="ao: the real AO CLI; workload: ghbench's built-in AO model.",
        ),
        click.option(
            "--github",
            "github",
            type=click.Choice(BACKEND_NAMES),
            default="github",
            show_default=True,
            help="github: real GitHub as gh reaches it (GH_HOST, GITHUB_API_URL; token from"
            " GH_TOKEN/GITHUB_TOKEN or gh's login for the host); emulator: the embedded"
            " emulator, state kept in OUT/state/emulator.",
        ),
        click.option(
            "--ao",
            "ao_command",
            default=None,
            help="AO checkout directory (runs node packages/cli/dist/index.js) or an ao"
            " executable; default: $GHBENCH_AO, else 'ao' on PATH.",
        ),
        click.option(
            "--ao-layout",
            type=click.Choice(AO_LAYOUT_NAMES),
            default="auto",
            show_default=True,
            help="AO's session storage: json (current) or kv (bench-era key=value files).",
        ),
        click.option(
            "--transport",
            type=click.Choice(TRANSPORT_NAMES),
            default="gh",
            show_default=True,
            help="How the workload model calls GitHub: the real gh CLI, or HTTP.",
        ),
        click.option(
            "--profile",
            type=ProfileChoice(),
            default=DEFAULT_PROFILE,
            show_default=True,
            help="Workload model profile.",
        ),
        click.option(
            "--tick",
            default=None,
            help="Workload model poll interval (default: the profile's 30s).",
        ),
    ]
    wrapped: Callable[..., Any] = with_common
    for deco in reversed(decorators):
        wrapped = deco(wrapped)
    return cast(F, wrapped)


def resolve_project(spec: RunSpec) -> Project:
    """The project ``spec``'s ``--project`` names, as its driver finds it: in the
    agent-orchestrator.yaml AO would read from here (or ``--config``), or, for AO 0.10,
    the checkout ghbench runs in."""
    # the flags are checked; the driver table loads now, not for --help
    from ghbench.drivers.registry import find_project  # noqa: PLC0415

    return find_project(spec, os.environ, Path.cwd(), Path.home())


def parse_issue_list(text: str) -> list[int]:
    """``1,2,5-9`` -> [1, 2, 5, 6, 7, 8, 9]; duplicates are an error, and so is a list
    longer than MAX_SESSIONS or a number GitHub could not have given an issue."""
    out: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        m = _RANGE.match(part)
        if m:
            lo, hi = int(m.group(1)), int(m.group(2))
            if lo > hi:
                raise UsageError(f"--issues: range {part} runs backwards; write {hi}-{lo}")
            if hi - lo + 1 + len(out) > MAX_SESSIONS:
                raise UsageError(
                    f"--issues: {part} lists {hi - lo + 1:,} issues; give at most"
                    f" {MAX_SESSIONS:,} in all (one per session)"
                )
            out.extend(range(lo, hi + 1))
        elif _NUMBER.match(part):
            out.append(int(part))
        else:
            raise UsageError(f"--issues: {part!r} is not an issue number or range like 5-9")
    if not out:
        raise UsageError("--issues: give at least one issue number, e.g. --issues 1,2,5-9")
    if len(out) > MAX_SESSIONS:
        raise UsageError(f"--issues: {len(out):,} issues; give at most {MAX_SESSIONS:,}")
    if any(n <= 0 for n in out):
        raise UsageError("--issues: issue numbers start at 1")
    if max(out) > MAX_ISSUE_NUMBER:
        raise UsageError(
            f"--issues: {max(out)} is not an issue number (at most {MAX_ISSUE_NUMBER})"
        )
    dupes = sorted(n for n, seen in Counter(out).items() if seen > 1)
    if dupes:
        raise UsageError(f"--issues: issue {dupes[0]} is listed twice; list each issue once")
    return out
