"""Running ghbench as users do: a real subprocess with its own HOME and working directory."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from tools import coverage_env, missing

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
        **coverage_env(),
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


class Output:
    """A child's stdout and stderr, each read to the end by a thread of its own.

    ``wait_for_line`` waits on what the threads have read, so its deadline holds even
    while the child writes nothing (a ``readline`` on the pipe would block past it),
    and ``communicate`` still returns everything the child wrote.
    """

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self._lines: dict[str, list[str]] = {"stdout": [], "stderr": []}
        self._ended: set[str] = set()
        self._changed = threading.Condition()
        self._threads = [
            threading.Thread(target=self._read, args=(name, stream), daemon=True)
            for name, stream in (("stdout", proc.stdout), ("stderr", proc.stderr))
        ]
        for thread in self._threads:
            thread.start()

    def _read(self, name: str, stream: IO[str] | None) -> None:
        assert stream is not None
        with stream:
            for line in stream:
                with self._changed:
                    self._lines[name].append(line)
                    self._changed.notify_all()
        with self._changed:
            self._ended.add(name)
            self._changed.notify_all()

    def wait_for_line(self, needle: str, timeout: float = 90, stream: str = "stderr") -> list[str]:
        """The lines of ``stream`` up to the first that contains ``needle``.

        On a timeout or an early end the child is interrupted (Ctrl-C stops what it
        started) and the test fails with what it did write.
        """
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                lines = self._lines[stream]
                for i, line in enumerate(lines):
                    if needle in line:
                        return lines[: i + 1]
                left = deadline - time.monotonic()
                if stream in self._ended or left <= 0:
                    break
                self._changed.wait(left)
            seen = list(self._lines[stream])
        self._stop()
        raise AssertionError(f"{needle!r} not seen on {stream} within {timeout:g} s; got {seen}")

    def _stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def communicate(self, timeout: float) -> tuple[str, str]:
        """Wait for the child to exit; everything it wrote to stdout and stderr."""
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self._stop()
            tail = "".join(self._lines["stderr"])[-3000:]
            raise AssertionError(
                f"no exit within {timeout:g} s of the test's wait; its stderr ended with:\n{tail}"
            ) from None
        for thread in self._threads:
            thread.join(timeout)
        return "".join(self._lines["stdout"]), "".join(self._lines["stderr"])


def children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text()
        out.extend(int(x) for x in text.split())
    return out


def cmdline(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()


def _stat_fields(pid: int) -> list[str] | None:
    """/proc/PID/stat after the command name: state, ppid, pgrp, ...; None if gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[-1].split()


def _running(pid: int) -> bool:
    fields = _stat_fields(pid)
    return fields is not None and fields[0] != "Z"


def descendants(pid: int) -> list[int]:
    """Every process below ``pid``, children first."""
    out: list[int] = []
    todo = [pid]
    while todo:
        with contextlib.suppress(OSError):
            for child in children(todo.pop()):
                out.append(child)
                todo.append(child)
    return out


class Family:
    """What a ghbench process started, by pid and process group (never by name), so a
    test can check that all of it stopped after ghbench did, however ghbench ended."""

    def __init__(self, root: int) -> None:
        self.members: dict[int, int] = {}  # pid -> its process group
        self.names: dict[int, str] = {}
        # ghbench's own group is the test's (or the shell's): its members are checked
        # one by one, the group is not
        root_fields = _stat_fields(root)
        self.shared = {os.getpgrp(), int(root_fields[2]) if root_fields else -1}
        for pid in descendants(root):
            fields = _stat_fields(pid)
            if fields is not None:
                self.members[pid] = int(fields[2])
                with contextlib.suppress(OSError):
                    self.names[pid] = cmdline(pid)  # whole: a long path must not hide a name

    def running(self) -> list[str]:
        """Members still running, and any process in one of their groups."""
        groups = set(self.members.values()) - self.shared
        found = {pid for pid in self.members if _running(pid)}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                fields = _stat_fields(int(entry.name))
                if fields is not None and fields[0] != "Z" and int(fields[2]) in groups:
                    found.add(int(entry.name))
        return [f"{pid} {self.names.get(pid, '')[:120]}".strip() for pid in sorted(found)]

    def left_after(self, timeout: float) -> list[str]:
        """Wait up to ``timeout`` for every member to stop; what still runs then."""
        deadline = time.monotonic() + timeout
        while (left := self.running()) and time.monotonic() < deadline:
            time.sleep(0.1)
        return left


class SmallFilesystem:
    """A tmpfs mounted for one test: a real filesystem that fills up and frees again."""

    def __init__(self, where: Path) -> None:
        self.where = where
        self._filler = where / ".filler"

    def fill(self) -> None:
        """Take every free byte (the last partial block too): the next write that needs
        room fails, or is cut short, as on a full disk."""
        with open(self._filler, "ab", buffering=0) as f:
            for chunk in (1 << 20, 1 << 12, 1):
                with contextlib.suppress(OSError):
                    while f.write(b"\0" * chunk):
                        pass

    def free(self) -> None:
        self._filler.unlink(missing_ok=True)


@contextlib.contextmanager
def small_filesystem(where: Path, size: str = "8m") -> Iterator[SmallFilesystem]:
    """A tmpfs of ``size`` at ``where`` (as root, else with passwordless sudo), unmounted
    after the test (lazily: a process still holding a file cannot fail the test)."""
    where.mkdir(parents=True, exist_ok=True)
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    options = f"size={size},mode=0777"
    mount = [*sudo, "mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)]
    proc = subprocess.run(mount, capture_output=True, text=True, check=False)
    if proc.returncode != 0 or shutil.which("umount") is None:
        missing(
            f"a small filesystem to fill ({' '.join(mount)}: {proc.stderr.strip()})",
            "run the tests as root or with passwordless sudo (mounting a tmpfs needs it)",
        )
    try:
        yield SmallFilesystem(where)
    finally:
        subprocess.run([*sudo, "umount", "-l", str(where)], capture_output=True, check=False)


def environ_of(pid: int) -> dict[str, str]:
    """A live process's environment (``/proc/PID/environ``)."""
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    return dict(item.split("=", 1) for item in raw.decode().split("\0") if "=" in item)


def wait_until(condition: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    """Wait for ``condition`` (an event a test can see: a file, a process's state),
    checking it every 50 ms; AssertionError naming ``what`` at the deadline."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"waited {timeout:g} s for {what}"
        time.sleep(0.05)


def waiting_on_a_child(pid: int) -> bool:
    """Whether ``pid`` is blocked waiting for a child to exit (``wait``): everything it
    did to start that child is done."""
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/wchan").read_text().strip() == "do_wait"
    return False
