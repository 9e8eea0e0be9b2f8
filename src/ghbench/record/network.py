"""``ghbench record --github emulator|github``: run a command behind the GitHub front.

Every client of the command's process tree that honours ``HTTPS_PROXY`` and a CA
bundle (gh with its default host, git over https, curl, Go, Python and Node clients,
AO 0.10's daemon) reaches GitHub's hosts through the front (``ghbench.front``), and
each exchange becomes one row. No gh shim: the front sees gh's calls already, and
two tracers would write each call twice.

- ``--github emulator``: an emulator process (state under ``--state``, or a temporary
  directory) answers; the command gets its token in ``GH_TOKEN`` and ``GITHUB_TOKEN``
  (and in any other token variable it already had, so no real token reaches the
  emulator), and git a credential helper for ``https://github.com/`` that answers
  with it. ``--repo OWNER/NAME`` creates repositories first.
- ``--github github``: the front forwards to GitHub, or to ``--upstream URL``; the
  command's own tokens and git credentials are used, untouched.

Node clients (``fetch``, ``https``, octokit) get Node's own proxy support or the
front's preload where the version lacks it (``ghbench.front.node``). A command none
of whose clients made an exchange gets the likely cause (``diagnosis``), whatever its
exit code.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ghbench.clock import Clock, SystemClock
from ghbench.emulator.client_env import credential_entries, git_config_environment
from ghbench.emulator.process import start_emulator_process
from ghbench.errors import GhbenchError, UsageError
from ghbench.front import FrontCounts, FrontSettings, start_front
from ghbench.front.settings import parse_upstream
from ghbench.record.diagnosis import no_exchange_cause
from ghbench.record.runner import (
    RecordResult,
    appended,
    check_command,
    check_runnable,
    count_lines,
    file_size,
    incomplete,
    record,
    resolve_trace,
    run_command,
)
from ghbench.signals import uninterruptible

__all__ = [
    "GitHubChoice",
    "NetworkRecordResult",
    "emulator_token_env",
    "record_command",
    "record_network",
]

GitHubChoice = Literal["emulator", "github"]
# token variables the command's clients read: set to the emulator's token
_TOKEN_VARIABLES = ("GH_TOKEN", "GITHUB_TOKEN")
_OTHER_TOKEN_VARIABLES = ("AO_GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN")
_REPO = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+")
_GITHUB = "https://github.com/"


@dataclass(frozen=True)
class NetworkRecordResult:
    """How the command ended and what the front saw."""

    returncode: int  # Popen style: negative means killed by that signal
    trace: Path
    rows: int  # lines appended to the trace during the run
    counts: FrontCounts
    # why no client made an exchange through the front (None: one did)
    no_exchange: str | None = None

    def lines(self) -> list[str]:
        """What ``record --github`` says on stderr when the command ends."""
        counts = self.counts
        seen = (
            f"{counts.exchanges} exchanges, {counts.refused} refused, {counts.tunnelled}"
            f" tunnelled, {counts.failed_handshakes} failed handshakes,"
            f" {counts.rows_lost} rows lost"
        )
        if counts.abandoned or counts.unauthorized:
            seen += f", {counts.abandoned} abandoned tunnels, {counts.unauthorized} unauthorized"
        warnings = [f"warning: {warning}" for warning in counts.warnings]
        lines = [*warnings, f"ghbench record: {appended(self.rows, self.trace)} ({seen})"]
        if self.no_exchange and not self._traced_nothing:
            # whatever the exit code: the command's own error may not say
            lines.append(f"ghbench record: no GitHub exchange: {self.no_exchange}")
        return lines

    @property
    def _traced_nothing(self) -> bool:
        """A success that no client reached the front in: it traced nothing."""
        return self.returncode == 0 and not self.counts.reached and bool(self.no_exchange)

    def raise_for_trace(self) -> None:
        """A command that succeeded fails when no client reached the front (the error
        says the likely cause) or when rows were lost."""
        if self._traced_nothing:
            raise GhbenchError(str(self.no_exchange))  # a success that traced nothing is not one
        if self.returncode == 0 and self.counts.rows_lost:
            raise incomplete(
                f"{self.counts.rows_lost:,} trace row(s) could not be written", self.trace
            )


def emulator_token_env(token: str, env: Mapping[str, str]) -> dict[str, str]:
    """The variables that hand the emulator's ``token`` to the command's clients: the
    token variables, and a git credential helper for github.com alone (the list reset
    first, so the user's helper is not asked) that reads it from ``$GH_TOKEN``."""
    out = {name: token for name in _TOKEN_VARIABLES}
    out |= {name: token for name in _OTHER_TOKEN_VARIABLES if name in env}
    out |= git_config_environment(credential_entries(_GITHUB, "GH_TOKEN"), env)
    return out


def _check_flags(github: GitHubChoice, upstream: str | None, repos: Sequence[str]) -> None:
    if github == "emulator" and upstream is not None:
        raise UsageError("--upstream goes with --github github (the emulator is the upstream)")
    if github == "github" and repos:
        raise UsageError("--repo goes with --github emulator (GitHub's repositories exist)")
    if upstream is not None:
        parse_upstream(upstream)
    for repo in repos:
        if not _REPO.fullmatch(repo):
            raise UsageError(f"--repo {repo!r}: give OWNER/NAME, e.g. --repo acme/todo")


def record_network(
    command: Sequence[str],
    *,
    github: GitHubChoice,
    upstream: str | None = None,
    repos: Sequence[str] = (),
    state: Path | None = None,
    trace: Path | None = None,
    component: str = "record",
    keep_ca: bool = False,
    env: Mapping[str, str] | None = None,
    clock: Clock | None = None,
) -> NetworkRecordResult:
    """Run ``command`` behind a front (see the module docstring); rows go to ``trace``.
    ``keep_ca``: keep the front's CA key under ``state`` for later runs (otherwise no
    key outlives the run).

    UsageError for bad flags and ToolMissingError for a command that cannot be run,
    before anything starts; FrontError or EmulatorError if either cannot start."""
    check_command(command, component)
    _check_flags(github, upstream, repos)
    if keep_ca and state is None:
        raise UsageError("--keep-ca goes with --state DIR (where the CA is kept)")
    base_env = dict(os.environ if env is None else env)
    check_runnable(command[0], base_env.get("PATH", os.defpath))
    trace_path = resolve_trace(trace, clock or SystemClock())
    start_size = file_size(trace_path)
    temporary = state is None
    state_dir = Path(tempfile.mkdtemp(prefix="ghbench-record-")) if state is None else state
    emulator = None
    front = None
    front_env: dict[str, str] = {}
    try:
        child_env = dict(base_env)
        if github == "emulator":
            token = "ghp_" + secrets.token_hex(18)
            emulator = start_emulator_process(
                state_dir / "emulator", tokens=[token], repos=list(repos)
            )
            upstream = emulator.url
            child_env |= emulator_token_env(token, base_env)
        front = start_front(
            FrontSettings(
                mode="emulate" if github == "emulator" else "forward",
                state_dir=str(state_dir / "front"),
                upstream=upstream,
                trace=str(trace_path),
                component=component,
                keep_ca=keep_ca,
            ),
            env=base_env,
        )
        front_env = front.client_env(base_env)
        child_env |= front_env
        returncode = run_command(command, child_env)
    finally:
        with uninterruptible():
            counts = front.stop() if front is not None else FrontCounts()
            if emulator is not None:
                emulator.stop()
            if temporary:
                shutil.rmtree(state_dir, ignore_errors=True)
    rows = count_lines(trace_path, start_size)
    cause = no_exchange_cause(counts, front_env)
    return NetworkRecordResult(returncode, trace_path, rows, counts, cause)


def record_command(
    command: Sequence[str],
    *,
    github: GitHubChoice | None,
    upstream: str | None = None,
    repos: Sequence[str] = (),
    state: Path | None = None,
    keep_ca: bool = False,
    trace: Path | None = None,
    component: str = "record",
) -> RecordResult | NetworkRecordResult:
    """``ghbench record``: ``command`` traced by the gh shim (``github`` None: the
    front's flags are refused) or behind the front (``record_network``)."""
    if github is None:
        front = (("--upstream", upstream), ("--repo", repos), ("--state", state))
        for flag, given in (*front, ("--keep-ca", keep_ca)):
            if given:
                raise UsageError(f"{flag} goes with --github emulator|github")
        return record(command, trace=trace, component=component)
    return record_network(
        command,
        github=github,
        upstream=upstream,
        repos=repos,
        state=state,
        trace=trace,
        component=component,
        keep_ca=keep_ca,
    )
