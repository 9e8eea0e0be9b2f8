"""How ghbench runs AO: its CLI (a checkout's ``node packages/cli/dist/index.js``, an ``ao``
executable, or ``ao`` on ``PATH``), and the user's git identity AO's world includes.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ghbench.errors import ToolMissingError

__all__ = ["CLI_ENTRY", "AoCommand", "is_daemon_build", "resolve_ao_command", "user_gitconfig"]

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


@functools.cache
def _has_daemon(executable: str, mtime_ns: int) -> bool:
    try:
        proc = subprocess.run(
            [executable, "daemon", "--help"],
            capture_output=True,
            text=True,
            timeout=30,
            stdin=subprocess.DEVNULL,
            env={"PATH": os.defpath, "HOME": "/nonexistent", "AO_TELEMETRY_REMOTE": "off"},
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0 and "daemon" in proc.stdout.lower()


def is_daemon_build(command: AoCommand) -> bool:
    """Whether ``command`` is AO 0.10 or later, the Go daemon (``ao daemon``), rather
    than a TypeScript CLI: told apart by what it runs, no flag. An AO checkout (a
    directory) is the TypeScript CLI; a missing AO is no daemon (its error comes later)."""
    if command.checkout is not None:
        return False
    try:
        executable = command.argv()[0]
    except ToolMissingError:
        return False
    try:
        stamp = Path(executable).stat().st_mtime_ns
    except OSError:
        return False
    return _has_daemon(executable, stamp)


def resolve_ao_command(flag: str | None, env: Mapping[str, str]) -> AoCommand:
    return AoCommand(spec=flag or env.get("GHBENCH_AO") or None, env_path=env.get("PATH"))


def user_gitconfig(env: Mapping[str, str]) -> Path | None:
    """The user's global git config, as git finds it (it is only ever included)."""
    if env.get("GIT_CONFIG_GLOBAL"):
        return Path(env["GIT_CONFIG_GLOBAL"])
    home = Path(env.get("HOME") or Path.home())
    xdg = Path(env.get("XDG_CONFIG_HOME") or home / ".config") / "git" / "config"
    for candidate in (home / ".gitconfig", xdg):
        if candidate.is_file():
            return candidate
    return None
