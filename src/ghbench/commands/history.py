"""What a command prints on stdout: its own output (a console scorecard), or
(``--format bmf|gab``, a row of the flag table) the trend trackers' formats.

``bmf`` (Bencher Metric Format) and ``gab`` (github-action-benchmark's
``customSmallerIsBetter``) come from ``ghbench.pages.history``; the command's other
lines then go to stderr, so stdout is the one JSON document a tracker reads
(``bencher run --adapter json "ghbench simulate --format bmf"``).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ghbench.errors import UsageError
from ghbench.runspec.flags import HISTORY_FORMATS

if TYPE_CHECKING:
    from ghbench.artifacts.models import ScorecardArtifact
    from ghbench.pages.history import Measurement

__all__ = ["HISTORY_FORMATS", "echo_history", "echo_scorecard", "resolve_format"]


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


def echo_scorecard(
    scorecard: ScorecardArtifact, paths: Mapping[str, str | Path], output: str = "text"
) -> None:
    """The scorecard as ``output`` says: text, on the console (in colour on a terminal),
    ending with where its files are (``paths``); json, as its file holds it; bmf | gab."""
    # these load only when a scorecard is printed (see ghbench.commands)
    from ghbench.artifacts.models import encode_artifact  # noqa: PLC0415
    from ghbench.pages.history import scorecard_measurements  # noqa: PLC0415
    from ghbench.scorecard import render_console, use_color  # noqa: PLC0415

    if output == "json":
        click.echo(encode_artifact(scorecard).decode(), nl=False)
    elif output in HISTORY_FORMATS:
        echo_history(scorecard_measurements(scorecard), output)
    else:
        color = use_color(sys.stdout.isatty(), os.environ)
        click.echo(render_console(scorecard, color=color, paths=paths), nl=False, color=color)
