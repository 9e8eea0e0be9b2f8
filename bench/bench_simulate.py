"""Speed of ``ghbench simulate``, and the calibration table.

    python bench/bench_simulate.py              # S2-T1-50, 2 min warmup + 15 min: CPU time
    python bench/bench_simulate.py --cli --repeat 10   # the whole command, start-up included
    python bench/bench_simulate.py --calibrate  # docs/calibration.md's table against AO's notes

The budgets: the canonical quiet-steady cell at 50 sessions (the default profile)
completes in at most 2 s of CPU in-process (the in-process emulator, no sockets, no
subprocesses), after an untimed one-session cell has loaded what every run needs (CPU,
not wall time: on a shared machine the wall time is other jobs' too; it is printed
beside); and the whole command, ``ghbench simulate --sessions 50``, in at most 1 s.
``--cli`` alternates ``--against`` (another checkout's ``src``, run with the same
interpreter) with this one when given, and prints the load average before and after.
"""

from __future__ import annotations

import argparse
import resource
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
    with tempfile.TemporaryDirectory() as out:  # imports and caches: not the cell's cost
        warm = Cell("S2", "T1", 1)
        simulate_cell(msgspec.structs.replace(spec, cell=warm, out_dir=Path(out)))
    times, cpus = [], []
    for i in range(repeat):
        with tempfile.TemporaryDirectory() as out:
            start, cpu = time.perf_counter(), _cpu()
            result = simulate_cell(msgspec.structs.replace(spec, out_dir=Path(out)))
            times.append(time.perf_counter() - start)
            cpus.append(_cpu() - cpu)
        print(
            f"run {i + 1}: {times[-1]:.3f} s wall, {cpus[-1]:.3f} s CPU, {result.ticks} ticks",
            file=sys.stderr,
        )
    print(
        f"S2-T1-50 (2m + 15m): CPU best {min(cpus):.3f} s, worst {max(cpus):.3f} s, budget"
        f" {BUDGET_S} s; wall best {min(times):.3f} s, worst {max(times):.3f} s"
    )
    return 0 if max(cpus) <= BUDGET_S else 1


def _cpu() -> float:
    """This process's CPU seconds and its finished children's (a simulation starts
    none; one that did would be counted)."""
    own, children = (
        resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


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
