"""The ``ghbench`` command line: a thin, lazily loaded table of subcommands.

Each subcommand lives in ``ghbench.commands.<module>`` as a click command named
``command`` (or as the table names it); it is imported only when invoked, so
``ghbench --help`` stays fast.
User errors (GhbenchError, click usage errors) become one line ``error: …`` on
stderr with exit 2 (usage) or 1 (runtime). SIGTERM and SIGHUP stop a command as
Ctrl-C does (``ghbench.signals.stop_on_signals``); an interrupted command exits 128 +
the signal: 130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

import click

from ghbench import __version__
from ghbench.collector import frozen_for_exit
from ghbench.errors import GhbenchError, interrupt_signal, signal_label
from ghbench.signals import stop_on_signals

__all__ = ["COMMANDS", "main"]

# name -> (module under ghbench.commands[:its command, if not ``command``], one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("demo", "Run setup and measure of the built-in workload on the embedded emulator."),
    "setup": ("setup", "Create the scenario: spawn sessions and wait for their PRs."),
    "measure": ("measure", "Measure one benchmark window against an existing setup."),
    "report": ("report", "Recompute a scorecard from an existing trace file."),
    "simulate": ("simulate", "Run runbook cells of the workload model in virtual time."),
    "record": ("record", "Run a command with a gh shim that traces every HTTP exchange."),
    "summarize": (
        "traces:summarize",
        "Summarize a trace: totals, operations, statuses, burn windows.",
    ),
    "analyze": ("traces:analyze", "Analyze a trace in depth: outcomes, failures, repos, curves."),
    "compare": ("compare", "Compare a candidate's scorecards with a baseline's; CI thresholds."),
    "ab": ("ab", "Run two orchestrator builds alternately on one setup and compare them."),
    "capacity": ("capacity", "Find how many sessions fit within a fraction of every budget."),
    "matrix": ("matrix", "Run, plan and merge the A2 scenario x topology x scale matrix."),
    "emulator": ("emulator", "Run the embedded GitHub API emulator."),
    "workload": (
        "workload",
        "Run the built-in AO workload model (or a coding agent) as a process.",
    ),
    "lab": ("lab", "The budget lab: a recorded fleet under each policy, sessions that fit."),
    "replay": ("replay", "Re-issue a recorded trace's calls against the emulator, scaled."),
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Listed from the table, so `ghbench --help` imports no subcommand module.
        with formatter.section("Commands"):
            formatter.write_dl([(name, text) for name, (_, text) in COMMANDS.items()])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        module, _, attribute = entry[0].partition(":")
        command: click.Command = getattr(
            importlib.import_module(f"ghbench.commands.{module}"), attribute or "command"
        )
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ghbench")
def cli() -> None:
    """Measure how much of GitHub's API rate-limit budget an automation spends, and why."""


def _fail(message: str, code: int) -> None:
    # One line, always: a multi-line message is folded so the user sees it whole.
    line = " ".join(message.split())
    click.echo(f"error: {line}", err=True)
    sys.exit(code)


def _interrupted(exc: BaseException) -> None:
    signum = interrupt_signal(exc)
    _fail(f"interrupted ({signal_label(signum)})", 128 + signum)


def main(argv: list[str] | None = None) -> None:
    """Entry point for the ``ghbench`` console script and ``python -m ghbench``."""
    args = sys.argv[1:] if argv is None else argv
    if not args:
        args = ["--help"]
    stop_on_signals()
    try:
        _run(args)
    finally:
        if argv is None:  # the program ends here (a test's call does not)
            frozen_for_exit()


def _run(args: list[str]) -> None:
    try:
        rv: Any = cli.main(args=args, prog_name="ghbench", standalone_mode=False)
    except click.UsageError as exc:
        hint = ""
        if exc.ctx is not None:
            hint = f" (see '{exc.ctx.command_path} --help')"
        _fail(f"{exc.format_message()}{hint}", 2)
    except click.exceptions.Abort as exc:
        # click turns a KeyboardInterrupt (and so a StopSignal) into Abort
        _interrupted(exc.__cause__ or exc)
    except click.ClickException as exc:
        _fail(exc.format_message(), exc.exit_code or 1)
    except GhbenchError as exc:
        _fail(str(exc), exc.exit_code)
    except KeyboardInterrupt as exc:
        _interrupted(exc)
    except BrokenPipeError:
        # `ghbench report ... | head`: stop quietly, as other CLI tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(1)
    sys.exit(rv if isinstance(rv, int) else 0)
