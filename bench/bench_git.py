"""Git through the emulator, and what real git costs the emulator's commits (not a
test: figures go to docs/performance.md).

    .venv/bin/python bench/bench_git.py [--repeat 10]

1. ``ghbench emulator serve --state DIR`` in its own process; the real git clones a
   small repository (a README and 20 files) through the proxy address
   (``http://github.localhost/acme/todo.git``) and directly, fetches with nothing
   new, and pushes a new branch with one commit (the push is imported into the
   emulator's records before it returns): wall time of each git command;
2. in-process, the cost of an API commit: ``create_pull`` with a pushed head branch
   (what seeding and the simulation do per session), in memory and with ``--state``.
The machine is shared: report the best and the median, and the load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ghbench.clock import VirtualClock
from ghbench.emulator.client_env import git_environment
from ghbench.emulator.core import Emulator
from ghbench.emulator.process import start_emulator_process

TOKEN = "ghp_benchgit0000000000000000000000000000"


def _timed(runs: int, action: Callable[[int], float | None]) -> list[float]:
    """Wall time of each run, or the time the action measured itself (returned)."""
    times = []
    for i in range(runs):
        start = time.perf_counter()
        own = action(i)
        times.append(own if own is not None else time.perf_counter() - start)
    return times


def _line(name: str, times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    return f"{name:<44} best {ms[0]:7.1f} ms   median {statistics.median(ms):7.1f} ms"


def bench_git(repeat: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        with start_emulator_process(root / "state", tokens=[TOKEN], repos=["acme/todo"]) as emu:
            env = {
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                "HOME": str(root),
                "GIT_CONFIG_NOSYSTEM": "1",
                "GIT_AUTHOR_NAME": "Bench",
                "GIT_AUTHOR_EMAIL": "bench@example.com",
                "GIT_COMMITTER_NAME": "Bench",
                "GIT_COMMITTER_EMAIL": "bench@example.com",
                "GH_TOKEN": TOKEN,
            }
            env |= git_environment(emu.url)

            def git(*args: str, cwd: Path | None = None) -> None:
                subprocess.run(["git", *args], env=env, cwd=cwd, check=True, capture_output=True)

            seed = root / "seed"
            git("clone", "-q", "http://github.localhost/acme/todo.git", str(seed))
            for n in range(20):
                (seed / f"src/file{n}.txt").parent.mkdir(exist_ok=True)
                (seed / f"src/file{n}.txt").write_text(f"line {n}\n" * 50)
            git("add", ".", cwd=seed)
            git("commit", "-q", "-m", "twenty files", cwd=seed)
            git("push", "-q", "origin", "HEAD:main", cwd=seed)

            def cloner(url: str, name: str) -> Callable[[int], None]:
                return lambda i: git("clone", "-q", url, str(root / f"{name}{i}"))

            proxied = cloner("http://github.localhost/acme/todo.git", "proxied")
            print(_line("clone via the proxy address", _timed(repeat, proxied)))
            direct = cloner(f"{emu.url}/acme/todo.git", "direct")
            print(_line("clone directly", _timed(repeat, direct)))
            (bare,) = (root / "state" / "git").glob("*.git")
            local = cloner(f"file://{bare}", "local")
            print(_line("clone the bare repository by path (no HTTP)", _timed(repeat, local)))
            fetch = _timed(repeat, lambda i: git("fetch", "-q", cwd=seed))
            print(_line("fetch, nothing new", fetch))

            def push(i: int) -> float:
                (seed / "pushed.txt").write_text(f"{i}\n")
                git("add", "pushed.txt", cwd=seed)
                git("commit", "-q", "-m", f"push {i}", cwd=seed)
                start = time.perf_counter()  # the push alone
                git("push", "-q", "origin", f"HEAD:refs/heads/bench/{i}", cwd=seed)
                return time.perf_counter() - start

            print(_line("push a new branch (one commit), imported", _timed(repeat, push)))


def bench_commits(repeat: int) -> None:
    for label, state in (("in memory", False), ("with --state", True)):
        per_pull = []
        for _ in range(repeat):
            with tempfile.TemporaryDirectory() as tmp:
                emulator = Emulator(clock=VirtualClock(), state_dir=Path(tmp) if state else None)
                emulator.create_user("octo", [TOKEN])
                emulator.create_repo("acme/todo")
                count = 300
                start = time.perf_counter()
                for i in range(count):
                    emulator.create_pull("acme/todo", f"feat/issue-{i}", title=f"Fix #{i}")
                per_pull.append((time.perf_counter() - start) / count)
                emulator.close()
        us = sorted(t * 1e6 for t in per_pull)
        print(
            f"create_pull with a pushed head, {label:<13} best {us[0]:7.0f} µs   "
            f"median {statistics.median(us):7.0f} µs"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}")
    bench_git(args.repeat)
    bench_commits(max(3, args.repeat // 3))
    return 0


if __name__ == "__main__":
    sys.exit(main())
