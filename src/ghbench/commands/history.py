"""``--format``: what a command prints on stdout, the trend trackers' formats among them.

``bmf`` (Bencher Metric Format) and ``gab`` (github-action-benchmark's
``customSmallerIsBetter``) come from ``ghbench.pages.history``; the command's other
lines then go to stderr, so stdout is the one JSON document a tracker reads
(``bencher run --adapter json "ghbench simulate --format bmf"``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ghbench.errors import UsageError

if TYPE_CHECKING:
    from ghbench.pages.history import Measurement

__all__ = [
    "HISTORY_FORMATS",
    "echo_history",
    "echo_matrix_history",
    "format_option",
    "resolve_format",
]

HISTORY_FORMATS = ("bmf", "gab")
_F = TypeVar("_F", bound=Callable[..., Any])


def format_option(choices: Sequence[str], default: str) -> Callable[[_F], _F]:
    """``--format`` over ``choices`` (the command's own outputs, then bmf and gab)."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice([*choices, *HISTORY_FORMATS]),
        default=None,
        help=f"What to print [{default}]; bmf: Bencher Metric Format, gab:"
        " github-action-benchmark's customSmallerIsBetter JSON (docs/ci.md).",
    )


def resolve_format(fmt: str | None, default: str, **shorthands: bool) -> str:
    """``--format``, or the one shorthand flag given (``--json``, ``--markdown``), or
    ``default``; two that disagree are a usage error."""
    given = [name for name, on in shorthands.items() if on]
    if len(given) > 1:
        raise UsageError(f"--{given[0]} and --{given[1]}: choose one output")
    if given and fmt is not None and fmt != given[0]:
        raise UsageError(f"--{given[0]} and --format {fmt}: choose one output")
    return fmt or (given[0] if given else default)


def echo_history(measurements: Sequence[Measurement], fmt: str) -> None:
    """The figures as ``fmt`` (bmf | gab), one JSON document on stdout."""
    # the formats load only when asked for (see ghbench.commands)
    from ghbench.pages.history import render_history  # noqa: PLC0415

    click.echo(json.dumps(render_history(measurements, fmt), indent=2))


def echo_matrix_history(matrix_dir: Path, fmt: str) -> None:
    """The latest successful run of each cell under ``matrix_dir`` as ``fmt``: its whole
    scorecard's figures when the file is there, else the spec's the run record keeps."""
    # the matrix's readers load only when asked for (see ghbench.commands)
    from ghbench.artifacts.models import load_scorecard  # noqa: PLC0415
    from ghbench.matrix.baseline import latest_ok  # noqa: PLC0415
    from ghbench.matrix.runs import load_runs  # noqa: PLC0415
    from ghbench.pages.history import (  # noqa: PLC0415
        scorecard_measurements,
        spec_measurements,
    )

    measurements = []
    for cell, run in sorted(latest_ok(load_runs(matrix_dir)).items(), key=lambda c: c[0].id):
        path = None if run.scorecard_path is None else matrix_dir / run.scorecard_path
        if path is not None and path.is_file():
            artifact = load_scorecard(path)
            measurements += scorecard_measurements(artifact, benchmark=cell.scenario_id)
        elif run.scorecard is not None:
            measurements += spec_measurements(cell.scenario_id, run.scorecard)
    echo_history(measurements, fmt)
