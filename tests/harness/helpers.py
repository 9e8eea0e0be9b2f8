"""Running ghbench as users do: a real subprocess with its own HOME and working directory."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

CONFIG = """projects:
  todo-app:
    repo: acme/todo
    path: {path}
    defaultBranch: main
"""

WORKLOAD_FLAGS = ["--driver", "workload", "--github", "emulator", "--transport", "http"]


def make_project(root: Path) -> Path:
    """A directory with agent-orchestrator.yaml for project todo-app (prefix ``ta``)."""
    project = root / "todo-app"
    project.mkdir(parents=True, exist_ok=True)
    (root / "home").mkdir(exist_ok=True)
    (root / "agent-orchestrator.yaml").write_text(CONFIG.format(path=project))
    return root


def clean_env(root: Path, **extra: str) -> dict[str, str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(root / "home"),
        "LANG": "C.UTF-8",
        "NO_COLOR": "1",
    }
    env.update(extra)
    return env


def ghbench(
    *args: str, cwd: Path, env: dict[str, str], timeout: float = 180
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ghbench", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def popen_ghbench(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "ghbench", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        stdin=subprocess.DEVNULL,
    )


def wait_for_line(stream: object, needle: str, timeout: float = 90) -> list[str]:
    """Read lines from a text pipe until one contains ``needle``."""
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    readline = stream.readline  # type: ignore[attr-defined]
    while time.monotonic() < deadline:
        line = readline()
        if not line:
            break
        seen.append(line)
        if needle in line:
            return seen
    raise AssertionError(f"{needle!r} not seen; got {seen}")


def children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text()
        out.extend(int(x) for x in text.split())
    return out


def cmdline(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
