"""How ghbench runs AO's CLI, in every build: which program (``AoCommand``: a checkout's
``node packages/cli/dist/index.js``, an ``ao`` executable, or ``ao`` on ``PATH``), one of
its subcommands (``run_ao``), and its own words when it fails (``ao_error_line``).

AO prints plugin noise before anything fails (every notifier without a webhook says
so, over several indented lines), colours its text, and states the failure itself in
a line of its own: ``✗ GitHub CLI is not authenticated. Run: gh auth login``, or
``Error: …``. Cutting the first bytes of its stderr shows the noise and hides the
reason; ``ao_error_line`` finds the reason.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ghbench.errors import GhbenchError, ToolMissingError

__all__ = [
    "CLI_ENTRY",
    "AoCommand",
    "ao_error_line",
    "resolve_ao_command",
    "run_ao",
    "storm_note",
]

CLI_ENTRY = Path("packages") / "cli" / "dist" / "index.js"


@dataclass(frozen=True)
class AoCommand:
    """How to run AO; resolved lazily so ``--help`` never fails on a missing AO."""

    spec: str | None
    env_path: str | None = None

    @property
    def checkout(self) -> Path | None:
        if self.spec and Path(self.spec).expanduser().is_dir():
            return Path(self.spec).expanduser().resolve()
        return None

    def argv(self) -> list[str]:
        checkout = self.checkout
        if checkout is not None:
            entry = checkout / CLI_ENTRY
            if not entry.is_file():
                raise ToolMissingError(
                    f"{entry} does not exist; build AO first (pnpm install && pnpm build in"
                    f" {checkout})"
                )
            node = shutil.which("node", path=self.env_path)
            if node is None:
                raise ToolMissingError("node is not installed; install Node.js 20 or newer")
            return [node, str(entry)]
        if self.spec:
            path = Path(self.spec).expanduser()
            if path.is_file() and os.access(path, os.X_OK):
                return [str(path.resolve())]
            found = shutil.which(self.spec, path=self.env_path)
            if found:
                return [found]
            raise ToolMissingError(
                f"--ao {self.spec}: not an AO checkout or an executable; pass the checkout"
                " directory or the ao executable"
            )
        found = shutil.which("ao", path=self.env_path)
        if found is None:
            raise ToolMissingError(
                "AO's CLI was not found: pass --ao <checkout dir or ao executable>,"
                " set GHBENCH_AO, or put ao on PATH"
            )
        return [found]


def resolve_ao_command(flag: str | None, env: Mapping[str, str]) -> AoCommand:
    return AoCommand(spec=flag or env.get("GHBENCH_AO") or None, env_path=env.get("PATH"))


def _subcommand(args: Sequence[str]) -> list[str]:
    """The subcommand's words (``session ls``), without its flags and values."""
    words: list[str] = []
    for arg in args[:2]:
        if not arg[:1].isalpha():
            break
        words.append(arg)
    return words or list(args[:1])


def run_ao(
    command: AoCommand,
    args: Sequence[str],
    *,
    env: Mapping[str, str],
    cwd: Path,
    timeout: float,
    check: bool = True,
) -> subprocess.CompletedProcess[str]:
    """``ao ARGS``, its output captured. GhbenchError naming the subcommand when it runs
    past ``timeout`` seconds, or (``check``) when it fails: AO's own failure line."""
    shown = " ".join(_subcommand(args))
    try:
        proc = subprocess.run(
            [*command.argv(), *args],
            env=dict(env),
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        raise GhbenchError(f"'ao {shown}' did not finish within {timeout:g} s") from None
    if check and proc.returncode != 0:
        said = ao_error_line(proc.stderr, proc.stdout)
        raise GhbenchError(f"'ao {shown}' failed (code {proc.returncode}): {said}")
    return proc


def storm_note(session_ids: Sequence[str], how: str) -> str:
    """What an S3 cell notes of the sessions ``how`` started in its window."""
    return f"S3: {len(session_ids)} sessions spawned at t0 by '{how}' ({', '.join(session_ids)})"


# -- AO's own words ------------------------------------------------------------------

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_NOISE_START = re.compile(r"^\[notifier-[\w-]+\]")
# How AO states a failure, strongest first.
_FAILURE_LINES = (
    re.compile(r"^[✗✖×]\s*(.+)"),
    re.compile(r"^(?:Error|error|Fatal|fatal):\s*(.+)"),
    re.compile(r"^(.*\b(?:[Ff]ailed|not authenticated|not installed|not found)\b.*)"),
)
MAX_LEN = 300


def _lines(text: str) -> list[str]:
    """Non-blank lines without colour, leaving out notifier blocks (a ``[notifier-x]``
    line and the indented lines under it)."""
    out: list[str] = []
    in_noise = False
    for raw in _ANSI.sub("", text).splitlines():
        line = raw.rstrip()
        if not line.strip():
            in_noise = False
            continue
        if _NOISE_START.match(line.strip()):
            in_noise = True
            continue
        if in_noise and raw[:1].isspace():
            continue
        in_noise = False
        out.append(line.strip())
    return out


def ao_error_line(*texts: str) -> str:
    """The line where AO says what failed (the last such line), else its last line."""
    lines = [line for text in texts for line in _lines(text)]
    for pattern in _FAILURE_LINES:
        found = [m.group(1).strip() for line in lines if (m := pattern.match(line))]
        if found:
            return found[-1][:MAX_LEN]
    return lines[-1][:MAX_LEN] if lines else "no output"
