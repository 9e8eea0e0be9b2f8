"""``ghbench record``: run a command with a tracing gh shim first on ``PATH``.

The run gets a temporary directory holding ``bin/gh`` (a two-line shell script that
execs ``ghbench.record.shim`` with the real gh's path and the sinks baked in) and
``state/`` (the once-only warning markers). Every process of the command's tree
inherits ``PATH``, so each ``gh`` it runs, however deep, is traced. The command's
exit code or fatal signal becomes ours.

The command runs in a process group of its own (given the terminal when ours had it,
as a shell gives a job), so what it starts under ``sh -c`` is stopped with it:
signals sent to us are forwarded to the whole group, and after a signal that stops
(SIGINT, SIGTERM, SIGHUP, SIGQUIT) whatever of the group outlives the command gets
SIGTERM, a deadline, then SIGKILL. If we are killed (SIGKILL) the lifeline stops the
group (``ghbench.procs.guard``).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import stat
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import ghbench
from ghbench.artifacts.io import unique_path
from ghbench.clock import Clock, SystemClock
from ghbench.errors import GhbenchError, ToolMissingError, UsageError, make_dir
from ghbench.procs import guard, popen_guarded, stop_group, unguard
from ghbench.record.contract import (
    ENV_PROJECT,
    ENV_REAL_GH,
    ENV_SESSION,
    ENV_SINKS,
    SHIM_MARKER,
    Sink,
    decode_sinks,
    encode_sinks,
)
from ghbench.signals import SignalForwarder

__all__ = [
    "DEFAULT_COMPONENT",
    "GH_INSTALL_HINT",
    "RecordResult",
    "check_command",
    "check_runnable",
    "count_lines",
    "default_trace_path",
    "file_size",
    "find_real_gh",
    "record",
    "resolve_trace",
    "run_command",
    "shim_script",
]

DEFAULT_COMPONENT = "record"
DEFAULT_DIR = "ghbench-out"
GH_INSTALL_HINT = (
    "install the GitHub CLI (Debian/Ubuntu: 'sudo apt install gh'; macOS: 'brew install gh'; "
    "others: https://cli.github.com) and run ghbench record again"
)
_COUNT_CHUNK = 1 << 20
_STOPPING = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT})
_LEFTOVER_GRACE_S = 5.0  # what the command left in its group, after a stop signal
_HEAD_BYTES = 4096  # read of an existing --trace to tell a trace from another file


def shown(path: Path) -> str:
    """``path`` as the user will find it: relative to here when it is below here."""
    try:
        return os.path.relpath(path) if path.is_relative_to(Path.cwd()) else str(path)
    except (OSError, ValueError):
        return str(path)


def appended(count: int, trace: Path) -> str:
    return f"{count} {'row' if count == 1 else 'rows'} appended to {shown(trace)}"


def incomplete(what: str, trace: Path) -> GhbenchError:
    """COMMAND succeeded but its trace did not keep every call: not a success."""
    return GhbenchError(
        f"{what} to {shown(trace)}: the trace is incomplete; free space (or choose"
        " another --trace) and record again"
    )


@dataclass(frozen=True)
class RecordResult:
    """How the recorded command ended and what reached the trace."""

    returncode: int  # Popen style: negative means killed by that signal
    trace: Path
    rows: int  # lines appended to the trace during the run
    write_failed: bool  # a shim could not write the trace (it warned once)

    def lines(self) -> list[str]:
        """What ``record`` says on stderr when the command ends."""
        where = shown(self.trace)
        if self.write_failed:
            return [
                f"ghbench record: the trace {where} could not be written (see the warning above)"
            ]
        if self.rows:
            return [f"ghbench record: {appended(self.rows, self.trace)}"]
        return [f"ghbench record: no gh HTTP exchanges were recorded; trace: {where}"]

    def raise_for_trace(self) -> None:
        """A command that succeeded while rows were lost fails: the trace is incomplete."""
        if self.returncode == 0 and self.write_failed:
            raise incomplete("trace rows could not be written", self.trace)


def _is_shim(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            return SHIM_MARKER.encode() in fh.read(512)
    except OSError:
        return False


def _executable_file(path: Path) -> bool:
    """An executable regular file; False for anything that cannot be looked at (a
    ``PATH`` entry we may not read is skipped, as a shell skips it)."""
    try:
        return path.is_file() and os.access(path, os.X_OK)
    except OSError:
        return False


def find_real_gh(path_env: str) -> str | None:
    """The first executable ``gh`` on ``path_env`` that is not a ghbench shim."""
    for entry in path_env.split(os.pathsep):
        candidate = Path(entry or ".") / "gh"
        if _executable_file(candidate) and not _is_shim(candidate):
            return str(candidate.resolve())
    return None


def default_trace_path(directory: Path, clock: Clock) -> Path:
    """``directory/gh-trace-record-{unix ts}.jsonl``, never an existing file."""
    return unique_path(directory, f"gh-trace-record-{int(clock.now())}", ".jsonl")


def shim_script(
    real_gh: str,
    sinks: Sequence[Sink],
    python: str,
    *,
    only_when: str | None = None,
    session_from: str | None = None,
    project_from: str | None = None,
) -> str:
    """The ``gh`` shim: bakes in its settings so a command that trims its environment
    but keeps ``PATH`` is still traced.

    ``only_when`` names a variable: a caller without it runs the real gh directly, at
    the cost of one ``exec`` (an orchestrator whose PATH its agents inherit stays
    untraced here; it keeps its own trace). ``session_from`` / ``project_from`` name
    the variables whose values the rows carry as ``sessionId`` / ``projectId``.
    """
    src = str(Path(ghbench.__file__).resolve().parent.parent)
    bootstrap = (
        f"import sys; sys.path.insert(0, {src!r}); from ghbench.record.shim import main; main()"
    )
    lines = ["#!/bin/sh", f"{SHIM_MARKER}: runs the real gh and traces its HTTP exchanges"]
    if only_when is not None:
        lines.append(f'[ -n "${{{only_when}:-}}" ] || exec {shlex.quote(real_gh)} "$@"')
    exported = [ENV_REAL_GH, ENV_SINKS]
    lines += [
        f"{ENV_REAL_GH}={shlex.quote(real_gh)}",
        f"{ENV_SINKS}={shlex.quote(encode_sinks(sinks))}",
    ]
    for target, source in ((ENV_SESSION, session_from), (ENV_PROJECT, project_from)):
        if source is not None:
            lines.append(f'{target}="${{{source}:-}}"')
            exported.append(target)
    lines.append(f"export {' '.join(exported)}")
    lines.append(f'exec {shlex.quote(python)} -I -c {shlex.quote(bootstrap)} "$@"')
    return "\n".join(lines) + "\n"


def count_lines(path: Path, offset: int) -> int:
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return 0  # /dev/full, a FIFO: nothing to count, and reading may never end
        with path.open("rb") as fh:
            fh.seek(offset)
            return sum(chunk.count(b"\n") for chunk in iter(lambda: fh.read(_COUNT_CHUNK), b""))
    except OSError:
        return 0


def file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def check_runnable(program: str, path_env: str) -> None:
    """ToolMissingError before anything is written when ``program`` cannot be run."""
    if os.sep in program:
        if not _executable_file(Path(program)):
            raise ToolMissingError(f"cannot run {program!r}: it is not an executable file")
    elif shutil.which(program, path=path_env) is None:
        raise ToolMissingError(f"cannot run {program!r}: it is not on PATH")


def _looks_like_a_trace(path: Path) -> bool:
    """An existing regular file rows may be appended to: empty, or JSON lines."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return True  # /dev/null, a FIFO: written to, never read back
        with path.open("rb") as fh:
            head = fh.read(_HEAD_BYTES)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return b"\0" not in head and head.lstrip()[:1] in (b"", b"{")


def resolve_trace(trace: Path | None, clock: Clock) -> Path:
    """Where rows go; UsageError, before anything is written or run, for a place they
    cannot go: under a file, into a file that is not a trace, or unwritable."""
    if trace is None:
        directory = Path.cwd() / DEFAULT_DIR
        # If this fails the shim warns when it cannot write; the command still runs.
        with contextlib.suppress(OSError):
            directory.mkdir(parents=True, exist_ok=True)
        return default_trace_path(directory, clock)
    path = Path(trace).expanduser().absolute()
    if path.is_dir():
        raise UsageError(
            f"--trace {trace} is a directory; give a file path such as {trace}/gh.jsonl"
        )
    above = next(p for p in path.parents if p.exists())
    if not above.is_dir():
        raise UsageError(f"--trace {trace}: {above} is a file, not a directory")
    if not _looks_like_a_trace(path):
        raise UsageError(
            f"--trace {trace} exists and is not a trace (rows would be appended to it);"
            " give a new file or a trace to add to"
        )
    make_dir(
        path.parent,
        lambda why: UsageError(f"--trace {trace}: cannot create {path.parent} ({why})"),
    )
    if not os.access(path if path.exists() else path.parent, os.W_OK):
        raise UsageError(f"--trace {trace}: not writable; give a file you can write")
    return path


def check_command(command: Sequence[str], component: str) -> None:
    """UsageError for an empty command or a ``--component`` that is no name."""
    if not command:
        raise UsageError("give the command to run after '--', e.g. ghbench record -- gh pr list")
    if not component.strip() or "\n" in component:
        raise UsageError(f"--component {component!r} must be a non-empty single-line name")


def record(
    command: Sequence[str],
    *,
    trace: Path | None = None,
    component: str = DEFAULT_COMPONENT,
    env: Mapping[str, str] | None = None,
    clock: Clock | None = None,
) -> RecordResult:
    """Run ``command`` with the gh shim first on PATH; rows go to ``trace`` (appended).

    Raises UsageError for an empty command or bad flag, ToolMissingError when gh or
    the command cannot be found.
    """
    check_command(command, component)
    base_env = dict(os.environ if env is None else env)
    path_env = base_env.get("PATH", os.defpath)
    real_gh = find_real_gh(path_env) or base_env.get(ENV_REAL_GH) or None
    if real_gh is None or not os.access(real_gh, os.X_OK):
        raise ToolMissingError(f"gh is not on PATH; {GH_INSTALL_HINT}")
    check_runnable(command[0], path_env)
    trace_path = resolve_trace(trace, clock or SystemClock())
    start_size = file_size(trace_path)

    workdir = Path(tempfile.mkdtemp(prefix="ghbench-record-"))
    try:
        bin_dir, state_dir = workdir / "bin", workdir / "state"
        bin_dir.mkdir()
        state_dir.mkdir()
        # A record run we are nested in keeps getting rows; a stale variable (its run
        # is over and its state dir gone) is ignored.
        outer = [s for s in decode_sinks(base_env.get(ENV_SINKS)) if Path(s.state_dir).is_dir()]
        sinks = [*outer, Sink(str(trace_path), component, str(state_dir))]
        shim = bin_dir / "gh"
        shim.write_text(shim_script(real_gh, sinks, sys.executable))
        shim.chmod(0o755)
        child_env = dict(base_env)
        child_env["PATH"] = f"{bin_dir}{os.pathsep}{path_env}"
        child_env[ENV_REAL_GH] = real_gh
        child_env[ENV_SINKS] = encode_sinks(sinks)
        returncode = run_command(command, child_env)
        write_failed = any(state_dir.glob("trace-unwritable-*"))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    rows = count_lines(trace_path, start_size)
    return RecordResult(returncode, trace_path, rows, write_failed)


def _foreground_terminal() -> int | None:
    """A descriptor of our controlling terminal when our group is its foreground."""
    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return None
    try:
        if os.tcgetpgrp(fd) == os.getpgrp():
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def _hand_terminal(fd: int, pgid: int) -> None:
    """Make ``pgid`` the terminal's foreground group (from the background too)."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTTOU})
    try:
        with contextlib.suppress(OSError):
            os.tcsetpgrp(fd, pgid)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def run_command(command: Sequence[str], env: dict[str, str]) -> int:
    """Run ``command`` in a process group of its own (see the module docstring)."""
    program = command[0]
    terminal = _foreground_terminal()
    forwarder = SignalForwarder(group=True)  # a signal while it starts is kept for it
    try:
        try:
            # not a new session: the command keeps our terminal, and takes its foreground
            proc = popen_guarded(command, group=False, env=env, close_fds=False, process_group=0)
        except OSError as exc:
            raise ToolMissingError(f"cannot run {program!r}: {exc.strerror}") from exc
        guard(proc.pid, group=True)
        if terminal is not None:
            _hand_terminal(terminal, proc.pid)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGCONT)  # had it read the terminal too early
        forwarder.attach(proc)
        returncode = proc.wait()
        stopped = bool(_STOPPING.intersection(forwarder.arrived))
        if stopped:
            stop_group(proc, _LEFTOVER_GRACE_S)
        unguard(proc.pid, group=False)
        if not stopped:
            unguard(proc.pid, group=True)  # what it left behind is the user's, as in a shell
        return returncode
    finally:
        forwarder.restore()
        if terminal is not None:
            _hand_terminal(terminal, os.getpgrp())
            os.close(terminal)
