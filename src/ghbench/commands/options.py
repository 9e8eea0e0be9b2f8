"""Flags shared by ``setup`` and ``measure``, and what they resolve to."""

from __future__ import annotations

import functools
import os
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, TypeVar, cast

import click

from ghbench.commands import DEFAULT_OUT
from ghbench.commands.params import MAX_ISSUE_NUMBER, MAX_SESSIONS, ProfileChoice
from ghbench.drivers.project import Project, load_project
from ghbench.errors import UsageError
from ghbench.github.names import BACKEND_NAMES, BackendName
from ghbench.harness.flags import RunFlags
from ghbench.workload.profiles import DEFAULT_PROFILE, ProfileName

__all__ = [
    "CommonFlags",
    "common_options",
    "parse_issue_list",
    "resolve_project",
    "run_flags",
]

_RANGE = re.compile(r"^([0-9]+)-([0-9]+)$")
_NUMBER = re.compile(r"^[0-9]+$")

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class CommonFlags:
    """The values of the flags ``common_options`` adds, handed over as one ``common``."""

    project: str
    sessions: int
    config_path: Path | None
    out_dir: Path
    driver: str
    github: BackendName
    ao_command: str | None
    ao_layout: str
    transport: str
    profile: ProfileName
    tick: str | None


_COMMON_NAMES = tuple(f.name for f in fields(CommonFlags))


def common_options(func: F) -> F:
    """--project/--sessions, where things go, which driver and which GitHub.

    The command receives their values as one keyword argument, ``common: CommonFlags``.
    """

    @functools.wraps(func)
    def with_common(*args: Any, **kwargs: Any) -> Any:
        common = CommonFlags(**{name: kwargs.pop(name) for name in _COMMON_NAMES})
        return func(*args, common=common, **kwargs)

    decorators = [
        click.option("--project", required=True, help="Project id in agent-orchestrator.yaml."),
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
            type=click.Choice(["ao", "workload"]),
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
            type=click.Choice(["auto", "json", "kv"]),
            default="auto",
            show_default=True,
            help="AO's session storage: json (current) or kv (bench-era key=value files).",
        ),
        click.option(
            "--transport",
            type=click.Choice(["gh", "http"]),
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


def run_flags(common: CommonFlags) -> RunFlags:
    return RunFlags(
        driver=common.driver,
        github=common.github,
        ao_command=common.ao_command,
        ao_layout=common.ao_layout,
        transport=common.transport,
        profile=common.profile,
        tick=common.tick,
    )


def resolve_project(project_id: str, config_path: Path | None) -> Project:
    """``projects.<project_id>`` of the config AO would use from here (or ``--config``)."""
    return load_project(
        project_id,
        env=os.environ,
        cwd=Path.cwd(),
        home=Path.home(),
        explicit=config_path,
    )


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
