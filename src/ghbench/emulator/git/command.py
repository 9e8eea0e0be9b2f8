"""Running git on a bare repository: a clean environment, its own process group.

The user's git configuration never applies (no system or global config, no
``GIT_*`` variables from our environment), so every machine computes the same
diffs and merges. A git that overruns its deadline is killed with its group.
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from ghbench.errors import EmulatorError

__all__ = ["GitFailed", "git_env", "run_git"]

_TIMEOUT_S = 60.0


class GitFailed(EmulatorError):
    """A git command exited non-zero (``returncode``; ``stderr`` holds its message)."""

    def __init__(self, argv: Sequence[str], returncode: int, stderr: str) -> None:
        line = stderr.strip().splitlines()[-1] if stderr.strip() else "no message"
        super().__init__(f"git {' '.join(argv[:2])} failed ({returncode}): {line}")
        self.returncode = returncode
        self.stderr = stderr


def git_env(git_dir: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for git on ``git_dir``: nothing of the caller's git setup."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        {
            "GIT_DIR": str(git_dir),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_TERMINAL_PROMPT": "0",
            "LC_ALL": "C",
        }
    )
    env.update(extra or {})
    return env


def run_git(
    git_dir: Path,
    args: Sequence[str],
    *,
    input: bytes = b"",
    ok: tuple[int, ...] = (0,),
    timeout: float = _TIMEOUT_S,
) -> tuple[int, bytes]:
    """``git ARGS`` on ``git_dir``: (exit code, stdout). Exit codes outside ``ok`` raise."""
    argv = ["git", *args]
    try:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=git_env(git_dir),
            cwd=git_dir,
            start_new_session=True,
        )
    except OSError as exc:
        raise EmulatorError(
            f"cannot run git ({exc.strerror}); install git (apt-get install git)"
        ) from exc
    try:
        out, err = proc.communicate(input, timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise EmulatorError(f"git {args[0]} did not finish within {timeout:.0f} s") from None
    if proc.returncode not in ok:
        raise GitFailed(args, proc.returncode, err.decode(errors="replace"))
    return proc.returncode, out
