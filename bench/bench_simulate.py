"""Speed of ``ghbench simulate``, and the calibration table.

    python bench/bench_simulate.py              # S2-T1-50, 2 min warmup + 15 min: wall time
    python bench/bench_simulate.py --cli --repeat 10   # the whole command, start-up included
    python bench/bench_simulate.py --calibrate  # docs/calibration.md's table against AO's notes

The budgets: the canonical quiet-steady cell at 50 sessions (the default profile)
completes in at most 2 s of wall time in-process (the in-process emulator, no sockets,
no subprocesses), and the whole command, ``ghbench simulate --sessions 50``, in at most
1 s. ``--cli`` alternates ``--against`` (another checkout's ``src``, run with the same
interpreter) with this one when given, and prints the load average before and after.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

BUDGET_S = 2.0
CLI_BUDGET_S = 1.0


def bench_cli(repeat: int, profile: str | None, against: str | None) -> int:
    """The whole command in a fresh process, ``repeat`` times (alternating with
    ``against``'s): wall and CPU (user + system) of each, from ``os.wait4``."""
    import os
    import subprocess

    load = " ".join(open("/proc/loadavg").read().split()[:3])  # noqa: SIM115
    print(f"load average before: {load}", file=sys.stderr)
    sides = [("this", None)] + ([("against", against)] if against else [])
    times: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in sides}
    flags = ["--profile", profile] if profile else []
    for _ in range(repeat):
        for name, src in sides:
            env = dict(os.environ)
            if src:
                env["PYTHONPATH"] = src
            with tempfile.TemporaryDirectory() as out:
                cmd = [sys.executable, "-m", "ghbench", "simulate", "--sessions", "50",
                       *flags, "--out", out]  # fmt: skip
                start = time.perf_counter()
                proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)  # fmt: skip
                _, status, usage = os.wait4(proc.pid, 0)
                wall = time.perf_counter() - start
                if status != 0:
                    print(f"{name}: exit status {status}", file=sys.stderr)
                    return 1
            times[name].append((wall, usage.ru_utime + usage.ru_stime))
    load = " ".join(open("/proc/loadavg").read().split()[:3])  # noqa: SIM115
    print(f"load average after: {load}", file=sys.stderr)
    for name, runs in times.items():
        walls = sorted(w for w, _ in runs)
        cpus = sorted(c for _, c in runs)
        print(f"{name}: wall best {walls[0]:.3f} s, median {walls[len(walls) // 2]:.3f} s;"
              f" CPU best {cpus[0]:.3f} s, median {cpus[len(cpus) // 2]:.3f} s")  # fmt: skip
    best = min(w for w, _ in times["this"])
    print(f"whole command, S2-T1-50: best {best:.3f} s, budget {CLI_BUDGET_S} s")
    return 0 if best <= CLI_BUDGET_S else 1


def bench_cell(repeat: int, seed: int) -> int:
    import msgspec

    from ghbench.runspec.cells import Cell
    from ghbench.runspec.spec import RunSpec
    from ghbench.simulation.simulate import simulate_cell

    spec = RunSpec(backend="simulated", cell=Cell("S2", "T1", 50), seed=seed)
    times = []
    for i in range(repeat):
        with tempfile.TemporaryDirectory() as out:
            start = time.perf_counter()
            result = simulate_cell(msgspec.structs.replace(spec, out_dir=Path(out)))
            times.append(time.perf_counter() - start)
        print(f"run {i + 1}: {times[-1]:.3f} s wall, {result.ticks} ticks", file=sys.stderr)
    best, worst = min(times), max(times)
    print(f"S2-T1-50 (2m + 15m): best {best:.3f} s, worst {worst:.3f} s, budget {BUDGET_S} s")
    return 0 if worst <= BUDGET_S else 1


def calibrate(seed: int) -> int:
    """Rewrite the section of docs/calibration.md that holds the model against the
    figures of AO's DISCUSSION-NOTES (every profile, 5 to 50 sessions)."""
    import repo  # noqa: F401 - tooling/ on sys.path
    from tooling.against_ao_doc import NOTES_SECTION, with_section
    from tooling.calibration import calibrate as run
    from tooling.calibration import markdown_table

    from ghbench.artifacts.io import replace_atomic
    from ghbench.workload.profiles import PROFILE_NAMES

    points = []
    for profile in PROFILE_NAMES:
        points += run(profile=profile, seed=seed)
    table = markdown_table(points)
    print(table, end="")
    doc = Path(__file__).resolve().parents[1] / "docs" / "calibration.md"
    replace_atomic(doc, with_section(doc.read_text(), NOTES_SECTION, table).encode())
    print(f"wrote {doc}", file=sys.stderr)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calibrate", action="store_true")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cli", action="store_true", help="time the whole command")
    parser.add_argument("--profile", help="--cli: the profile (default: the command's)")
    parser.add_argument("--against", help="--cli: another checkout's src to alternate with")
    args = parser.parse_args()
    if args.cli:
        return bench_cli(args.repeat, args.profile, args.against)
    return calibrate(args.seed) if args.calibrate else bench_cell(args.repeat, args.seed)


if __name__ == "__main__":
    sys.exit(main())
