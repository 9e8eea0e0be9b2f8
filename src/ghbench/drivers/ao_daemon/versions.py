"""AO's Go daemon, version by version: what each line needs of ghbench, and which line an
executable is.

Since June 2026 AO is a Go daemon (``ao daemon``); its users ran 0.10.3 (npm's last
release), and run 0.12.6 (the desktop line) today. The driver is one for both; what
differs between the lines is a row of ``DAEMON_VERSIONS`` (docs/harness.md shows the
table):

- ``ao spawn --name``: optional in 0.10 (derived from the prompt), required in 0.12, at
  most 20 characters;
- ``ao spawn --mode tui``: 0.12 can run a session's agent in a structured chat instead of
  a terminal (the daemon's default is a setting); ghbench asks for the terminal, whose
  tmux session it keeps alive;
- the executable's name: both put the daemon's own directory first on each agent's PATH
  to call ``ao`` back from there, only when it runs as a file named ``ao``; under
  another name 0.10 warns (its activity tracking stalls) and 0.12's sessions exit at
  once. The driver runs every line as a file named ``ao``, as npm installs 0.10
  (``DaemonWorld.daemon_executable``);
- the database: a line may not read a newer line's (0.12 migrates 0.10's forward), so
  each line keeps its own (``DaemonWorld.data_for``).

Which line an executable is: ``ao --version`` prints ``dev`` in both builds, so the
answer comes from the executable itself. Its sha256 names the builds ghbench knows
(``KNOWN_BUILDS``: the release, its AO commit and tag, which the artifacts record as the
orchestrator's sha and branch); any other daemon build is the newest line whose mark
its ``ao spawn --help`` shows (0.12 added ``--mode``). An executable that answers ``ao
daemon --help`` is a daemon build; an AO checkout (a directory) never is.
"""

from __future__ import annotations

import functools
import hashlib
import os
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ghbench.drivers.common.ao_cli import AoCommand
from ghbench.errors import ToolMissingError

__all__ = [
    "DAEMON_VERSIONS",
    "KNOWN_BUILDS",
    "DaemonBuild",
    "DaemonVersion",
    "KnownBuild",
    "daemon_build",
]

NAME_MAX = 20  # `ao spawn --name`: the sidebar's limit, in characters


@dataclass(frozen=True)
class DaemonVersion:
    """One line of AO's daemon releases, as ghbench drives it."""

    line: str  # "0.10", "0.12": what ghbench says it runs
    mark: str | None  # a flag of `ao spawn --help` this line introduced (None: the first)
    spawn_name: bool  # `ao spawn --name NAME` is required
    spawn_mode: bool  # `ao spawn --mode tui` asks for the agent in a terminal
    # how the agent is launched and resumed, and how the default branch is found: what
    # the docs' table says (the driver needs nothing of them)
    agent_launch: str
    default_branch: str

    def spawn_args(self, project: str, issue: int, harness: str) -> list[str]:
        """``ao spawn``'s arguments for one session of ``project`` on ``issue``."""
        args = ["spawn", "--project", project, "--issue", str(issue)]
        if self.spawn_name:
            args += ["--name", spawn_name(project, issue)]
        if self.spawn_mode:
            args += ["--mode", "tui"]
        return [*args, "--harness", harness, "--skip-agent-check"]


def spawn_name(project: str, issue: int) -> str:
    """A session's name in AO's sidebar: the project and its issue, as a user names it,
    cut to ``NAME_MAX`` characters (the issue kept whole)."""
    tail = f" #{issue}"
    return project[: max(0, NAME_MAX - len(tail))] + tail


# oldest first; detection takes the newest whose mark it sees
DAEMON_VERSIONS: tuple[DaemonVersion, ...] = (
    DaemonVersion(
        line="0.10",
        mark=None,
        spawn_name=False,
        spawn_mode=False,
        agent_launch="claude --session-id UUID --append-system-prompt TEXT -- PROMPT",
        default_branch=(
            "the project's configured branch, else the cached refs/remotes/origin/HEAD,"
            " else the branch checked out, else main"
        ),
    ),
    DaemonVersion(
        line="0.12",
        mark="--mode",
        spawn_name=True,
        spawn_mode=True,
        agent_launch=(
            "claude --session-id UUID --append-system-prompt-file FILE -- PROMPT;"
            " resumed after a restart with --resume UUID"
        ),
        default_branch=(
            "git ls-remote --symref origin HEAD, else the cached refs/remotes/origin/HEAD;"
            " neither: the spawn is refused"
        ),
    ),
)
_BY_LINE = {v.line: v for v in DAEMON_VERSIONS}


@dataclass(frozen=True)
class KnownBuild:
    """A daemon build ghbench knows by its sha256."""

    release: str
    line: str
    commit: str  # AO's commit it was built from
    tag: str


KNOWN_BUILDS: dict[str, KnownBuild] = {
    # npm @aoagents/ao-linux-x64@0.10.3, package/bin/ao (../shared/ao/fetch-ao-go)
    "c6a4095f07187d1461a961a98c5e9561d3bd59da9695aa049693d6f25b3af750": KnownBuild(
        "0.10.3", "0.10", "c89414ddb8cf4dc35e77417907e1ea663b79cf6b", "desktop-v0.10.3"
    ),
    # backend/cmd/ao at v0.12.6, built as AO's release build does
    # (../shared/ao/ao-go-0.12.6-linux-x64)
    "09a20df13b064e6e373660341d52b7a666fbc629ed1d03eff1b63a119ebea52d": KnownBuild(
        "0.12.6", "0.12", "075de7a0195d84f1de8d8eaef03ad3b98871bee1", "v0.12.6"
    ),
}


@dataclass(frozen=True)
class DaemonBuild:
    """What an ``ao`` executable is: its line, and its release when ghbench knows it."""

    executable: Path
    version: DaemonVersion
    known: KnownBuild | None

    @property
    def name(self) -> str:
        """What a run says it drives: ``AO 0.12.6``, or ``AO 0.12 (sha256 09a20df13b06…)``."""
        if self.known is not None:
            return f"AO {self.known.release}"
        return f"AO {self.version.line} (sha256 {_sha256(self.executable)[:12]}…)"


def _probe(executable: str, *args: str) -> str | None:
    """``executable ARGS``'s output, run with nothing of the user's; None when it fails."""
    try:
        proc = subprocess.run(
            [executable, *args],
            capture_output=True,
            text=True,
            timeout=30,
            stdin=subprocess.DEVNULL,
            env={"PATH": os.defpath, "HOME": "/nonexistent", "AO_TELEMETRY_REMOTE": "off"},
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout if proc.returncode == 0 else None


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _line_of(spawn_help: str, versions: Sequence[DaemonVersion]) -> DaemonVersion:
    found = versions[0]
    for version in versions:
        if version.mark is None or version.mark in spawn_help.split():
            found = version
    return found


@functools.cache
def _build_of(executable: Path, stamp: tuple[int, int]) -> DaemonBuild | None:
    """``stamp`` (mtime, size) keys the cache: a replaced file is looked at again."""
    known = KNOWN_BUILDS.get(_sha256(executable))
    if known is not None:
        return DaemonBuild(executable, _BY_LINE[known.line], known)
    daemon_help = _probe(str(executable), "daemon", "--help")
    if daemon_help is None or "daemon" not in daemon_help.lower():
        return None
    spawn_help = _probe(str(executable), "spawn", "--help") or ""
    return DaemonBuild(executable, _line_of(spawn_help, DAEMON_VERSIONS), None)


def daemon_build(command: AoCommand) -> DaemonBuild | None:
    """The daemon build ``command`` runs, or None: a TypeScript AO (a checkout, or an
    executable without ``ao daemon``), or no AO at all (its error comes later)."""
    if command.checkout is not None:
        return None
    try:
        executable = Path(command.argv()[0])
        info = executable.stat()
    except (ToolMissingError, OSError):
        return None
    return _build_of(executable, (info.st_mtime_ns, info.st_size))
