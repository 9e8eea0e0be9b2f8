"""Flags shared by ``setup``, ``measure`` and ``demo`` (click only: cheap to import)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, TypeVar, cast

import click

from ghbench.errors import UsageError
from ghbench.timefmt import parse_duration

__all__ = ["DEFAULT_OUT", "CommonFlags", "common_options", "duration_option_value"]

DEFAULT_OUT = Path("ghbench-out")
F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class CommonFlags:
    """The values of the flags ``common_options`` adds, handed over as one ``common``."""

    project: str
    sessions: int
    config_path: Path | None
    out_dir: Path
    driver: str
    github: str
    ao_command: str | None
    ao_layout: str
    transport: str
    profile: str
    tick: str | None


_COMMON_NAMES = tuple(f.name for f in fields(CommonFlags))


def duration_option_value(flag: str, text: str, *, allow_zero: bool = True) -> float:
    try:
        seconds = parse_duration(text)
    except ValueError as exc:
        raise UsageError(f"{flag}: {exc}") from None
    if seconds < 0 or (seconds == 0 and not allow_zero):
        raise UsageError(f"{flag}: must be {'' if allow_zero else 'more than '}0, got {text!r}")
    return seconds


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
            "--sessions", required=True, type=click.IntRange(min=1), help="Number of sessions."
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
            type=click.Choice(["github", "emulator"]),
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
            type=click.Choice(["head", "bench-era", "pre-b1"]),
            default="head",
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
