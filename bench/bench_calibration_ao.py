"""The model against the real AO builds: docs/calibration.md's generated section.

    python bench/bench_calibration_ao.py                 # real runs of every build, then render
    python bench/bench_calibration_ao.py real --builds 0.10.3 --sizes 3,10,25
    python bench/bench_calibration_ao.py real --builds 0.12.6 --sizes 10 --limits core=8/5m15s
    python bench/bench_calibration_ao.py render          # the model and the doc, from the results

``real`` runs each AO build as a user runs it, with the stand-in agent
``tests/agents/claude`` on ``PATH``, a global git config through ``GIT_CONFIG_GLOBAL`` and
a checkout whose ``origin`` is https://github.com/acme/todo.git; then ``ghbench setup
--driver ao --github emulator`` and ``ghbench measure`` as subprocesses, one at a time
(the real runs are never run in parallel). The builds:

- AO's TypeScript builds (``../shared/ao/build-ao main --web`` and ``bench``, or
  ``--ao-main``/``--ao-bench``), with the user's ``agent-orchestrator.yaml``. The quiet
  steady state, S2 on one repo: the default warmup, 95 s, lets AO reach it (it ticks
  every 30 s from its start; main is steady from its third tick, at 60 s, and the third
  tick of 25 sessions is over by 95 s); the 5-minute window holds ten ticks.
- AO's Go daemon, run from the checkout with no config: 0.10.3 (``0.10.3``:
  ``../shared/ao/fetch-ao-go``, or ``--ao-go``) and 0.12.6 (``0.12.6``: the binary
  ``../shared/ao/ao-go-0.12.6-linux-x64``, its sha256 checked, or ``--ao-go-0-12``). No
  warmup: the window opens before the daemon starts and holds its cold start, then 22
  polls in 11 minutes, past its 2-minute review cadence and 5-minute refetch.

``--limits RESOURCE=POINTS[/WINDOW],…`` gives the run's measurement those budgets instead
of GitHub's (``GHBENCH_EMULATOR_CONFIG``), each a window of GitHub's hour or ``WINDOW``
(``5m``: it resets within the run), so that one runs out: what the daemon asks once it
has, and after the reset, beside the model with the same budgets. The setup runs with
GitHub's budgets (its agents' gh would run out), and the measurement starts once the
setup's windows have lapsed, so it opens on fresh budgets, as the model's does. Such a
run is kept beside the build's run of the same size, not in its place.

Each run's scorecard, window digest, wall times and machine load go to ``--results``
(docs/calibration-ao.json), replacing an earlier run of the same build and size.

``render`` runs the model (``ghbench.simulation``, virtual time, seeds ``0..N-1``) for
every profile with each real run's sessions, warmup, window and latency, and rewrites the
part of docs/calibration.md between its ``generated`` markers.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import msgspec
import repo  # noqa: F401 - tooling/ on sys.path
import yaml
from tooling.against_ao import (
    RESULTS_VERSION,
    CalibrationResults,
    RealRun,
    window_digest,
)
from tooling.against_ao_doc import REAL_AO_SECTION, calibration_section, with_section

from ghbench.artifacts.io import replace_atomic
from ghbench.github.backend import EMULATOR_CONFIG_ENV
from ghbench.timefmt import parse_duration, parse_iso
from ghbench.trace.reader import read_rows
from ghbench.workload.profiles import PROFILE_BUILDS

REPO = Path(__file__).resolve().parents[1]
AGENTS = REPO / "tests" / "agents"
RESULTS = REPO / "docs" / "calibration-ao.json"
DOC = REPO / "docs" / "calibration.md"
PROJECT = "todo-app"
CONFIG = "agent-orchestrator.yaml"
USER_REPO = "acme/todo"
# the builds, each with the commit its profile names (../shared/ao/README.md), and
# build-ao's arguments: main with the dashboard, as the other real-AO work builds it
# (S2 runs --no-dashboard)
COMMITS = {b[0]: b[1] for b in PROFILE_BUILDS.values() if b}
BUILD_ARGS = {"main": ["main", "--web"], "bench": ["bench"]}
# AO's Go daemon: a binary, run from the checkout with no config; how each is found
# (../shared/ao: fetch-ao-go prints 0.10.3's path; 0.12.6 is built there, with its sha256)
DAEMONS = {"0.10.3": "fetch-ao-go", "0.12.6": "ao-go-0.12.6-linux-x64"}
# each build's override flag (a built checkout, or the daemon's binary)
OVERRIDES = {"main": "ao_main", "bench": "ao_bench", "0.10.3": "ao_go", "0.12.6": "ao_go_0_12"}
# (warmup, duration) by kind of build. The TypeScript builds: the quiet steady state
# after their third tick, ten ticks. The daemon: its cold start (a window with no warmup
# opens before it starts) and 22 ticks, beyond its 2- and 5-minute cadences.
DAEMON_WINDOW = ("0s", "11m")
TYPESCRIPT_WINDOW = ("95s", "5m")
HOUR = 3600  # GitHub's rate-limit window


# -- the real runs ----------------------------------------------------------------------


def build_checkout(build: str, override: str | None) -> Path:
    """The build's checkout (the TypeScript builds, ``build-ao``) or binary (the
    daemon: ``fetch-ao-go``, or the 0.12.6 binary beside it, checked against its
    sha256)."""
    if override:
        return Path(override)
    shared = _shared_ao()
    if DAEMONS.get(build, "").startswith("ao-go-"):
        binary = shared / DAEMONS[build]
        want = (shared / f"{binary.name}.sha256").read_text().split()[0]
        if hashlib.sha256(binary.read_bytes()).hexdigest() != want:
            raise SystemExit(f"{binary}: its sha256 is not {want}")
        return binary
    command = [DAEMONS[build]] if build in DAEMONS else ["build-ao", *BUILD_ARGS[build]]
    out = subprocess.run([str(shared / command[0]), *command[1:]], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{command[0]} {build} failed: {out.stderr.strip()[-400:]}")
    return Path(out.stdout.strip())


def _shared_ao() -> Path:
    override = os.environ.get("GHBENCH_AO_SHARED")
    for path in [Path(override)] if override else [p / "shared" / "ao" for p in REPO.parents]:
        if (path / "build-ao").is_file():
            return path
    raise SystemExit("no shared/ao/build-ao beside the repository; set GHBENCH_AO_SHARED")


def _git(path: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(path), *args], check=True, capture_output=True)


def user_world(root: Path, *, ao_config: bool) -> tuple[Path, dict[str, str]]:
    """A user's checkout, git identity, PATH (with the stand-in agent) and, for AO's
    TypeScript builds, their agent-orchestrator.yaml: returns the checkout and the
    environment ghbench runs in."""
    checkout = root / "src" / PROJECT
    checkout.mkdir(parents=True)
    _git(checkout, "init", "-q", "-b", "main")
    (checkout / "README.md").write_text("# todo\n")
    _git(checkout, "add", ".")
    _git(checkout, "-c", "user.name=Ada", "-c", "user.email=ada@example.com", "commit", "-qm", "i")
    _git(checkout, "remote", "add", "origin", f"https://github.com/{USER_REPO}.git")
    gitconfig = root / "user.gitconfig"
    gitconfig.write_text("[user]\n\tname = Ada\n\temail = ada@example.com\n")
    if ao_config:
        project = {"repo": USER_REPO, "path": str(checkout), "defaultBranch": "main"}
        (root / CONFIG).write_text(yaml.safe_dump({"projects": {PROJECT: project}}))
    (root / "home").mkdir()
    tmux = root / "tmux"
    tmux.mkdir()
    env = {
        "PATH": os.pathsep.join(
            [str(AGENTS), str(Path(sys.executable).parent), "/usr/bin", "/bin"]
        ),
        "HOME": str(root / "home"),
        "LANG": "C.UTF-8",
        "SHELL": "/bin/bash",
        "GIT_CONFIG_GLOBAL": str(gitconfig),
        "TMUX_TMPDIR": str(tmux),
        "NO_COLOR": "1",
        "STANDIN_AGENT_LOG": str(root / "agents.log"),
    }
    if "PYTHONPATH" in os.environ:  # a snapshot of ghbench to run, not the worktree's
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return checkout, env


def load() -> str:
    """The machine's load averages (1, 5, 15 min), as ``uptime`` prints them."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def ghbench(env: dict[str, str], cwd: Path, *args: str) -> float:
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "ghbench", *args], cwd=cwd, env=env, capture_output=True, text=True
    )
    took = time.monotonic() - start
    if proc.returncode != 0:
        raise SystemExit(f"ghbench {args[0]} failed ({proc.returncode}): {proc.stderr[-1500:]}")
    return took


def real_run(build: str, checkout: Path, sessions: int, args: argparse.Namespace) -> RealRun:
    limits, windows = _limits(args.limits)
    budgets = "".join(f"-{k}{v}" for k, v in limits.items())
    root = Path(args.work) / f"{build}-{sessions}{budgets}"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    daemon = build in DAEMONS
    checkout_dir, env = user_world(root, ao_config=not daemon)
    common = [
        "--project", PROJECT, "--sessions", str(sessions), "--driver", "ao",
        "--github", "emulator", "--ao", str(checkout), "--out", str(root / "out"),
    ]  # fmt: skip
    # the TypeScript builds read the user's config; the daemon runs from the checkout
    cwd = checkout_dir if daemon else root
    if not daemon:
        common += ["--config", str(root / CONFIG)]
    warmup, duration = _window(build, args)
    load_before = load()
    issues = f"1-{sessions}" if sessions > 1 else "1"
    setup_started = time.monotonic()
    setup_s = ghbench(env, cwd, "setup", *common, "--issues", issues, "--poll-interval", "5s",
                      "--timeout", "30m")  # fmt: skip
    measure_env = dict(env)
    if limits:
        config = root / "emulator.yaml"
        config.write_text(
            yaml.safe_dump({"limits": {k: [v, windows.get(k, HOUR)] for k, v in limits.items()}})
        )
        measure_env[EMULATOR_CONFIG_ENV] = str(config)
        # setup's spend counts in a window its first call opened: let every one lapse
        lapse = setup_started + max(windows.get(k, HOUR) for k in limits) + 5 - time.monotonic()
        if lapse > 0:
            print(f"waiting {lapse:.0f} s for setup's rate-limit windows to lapse", file=sys.stderr,
                  flush=True)  # fmt: skip
            time.sleep(lapse)
    load_setup = load()
    measure_s = ghbench(measure_env, cwd, "measure", *common, "--warmup", warmup, "--duration",
                        duration, "--no-plot")  # fmt: skip
    (card_path,) = (root / "out").glob("scorecard-*.json")
    card = json.loads(card_path.read_text())
    if card["incomplete"]:
        raise SystemExit(f"{card_path}: incomplete ({card['incompleteReason']})")
    start, end = (parse_iso(card["window"][k]) for k in ("start", "end"))
    return RealRun(
        build=build,
        ao_commit=COMMITS[build],
        sessions=sessions,
        warmup=warmup,
        duration=duration,
        warmup_seconds=parse_duration(warmup),
        duration_seconds=parse_duration(duration),
        setup_seconds=round(setup_s, 1),
        measure_seconds=round(measure_s, 1),
        load_before_setup=load_before,
        load_before_measure=load_setup,
        load_after=load(),
        scorecard=card,
        digest=window_digest(read_rows(card["trace"]), start, end),
        limits=limits,
        limit_windows=windows,
    )


def _limits(text: str | None) -> tuple[dict[str, int], dict[str, int]]:
    """``--limits graphql=6/8m,core=100``: resource -> points a window, and resource ->
    its window in seconds where one is given (else GitHub's hour)."""
    limits: dict[str, int] = {}
    windows: dict[str, int] = {}
    for part in (text or "").split(","):
        if not part.strip():
            continue
        name, _, value = part.partition("=")
        points, _, window = value.partition("/")
        try:
            seconds = round(parse_duration(window)) if window.strip() else HOUR
        except ValueError:
            seconds = 0
        if not points.strip().isdigit() or seconds <= 0:
            raise SystemExit(f"--limits: {part!r} is not RESOURCE=POINTS or RESOURCE=POINTS/WINDOW")
        limits[name.strip()] = int(points)
        if window.strip():
            windows[name.strip()] = seconds
    return limits, windows


def _window(build: str, args: argparse.Namespace) -> tuple[str, str]:
    """(warmup, duration): the flags', or the build's own default."""
    warm, long = DAEMON_WINDOW if build in DAEMONS else TYPESCRIPT_WINDOW
    return args.warmup or warm, args.duration or long


def read_results(path: Path) -> list[RealRun]:
    if not path.exists():
        return []
    results = msgspec.json.decode(path.read_bytes(), type=CalibrationResults)
    if results.version != RESULTS_VERSION:
        raise SystemExit(f"{path}: version {results.version}, this script reads {RESULTS_VERSION}")
    return results.runs


def save_result(path: Path, run: RealRun) -> None:
    """Add ``run`` to the results, in place of an earlier run of its build, size and
    budgets."""

    def key(r: RealRun) -> tuple[str, int, list[tuple[str, int]]]:
        return (r.build, r.sessions, sorted(r.limits.items()))

    runs = [r for r in read_results(path) if key(r) != key(run)]
    runs = sorted([*runs, run], key=key)
    data = msgspec.json.encode(CalibrationResults(runs=runs))
    replace_atomic(path, msgspec.json.format(data, indent=1) + b"\n")


def real(args: argparse.Namespace) -> int:
    sizes = [int(n) for n in args.sizes.split(",")]
    for build in args.builds.split(","):
        checkout = build_checkout(build, getattr(args, OVERRIDES[build]))
        for n in sizes:
            print(f"{build} {n} sessions: load {load()}", file=sys.stderr, flush=True)
            run = real_run(build, checkout, n, args)
            save_result(Path(args.results), run)
            print(
                f"{build} {n}: setup {run.setup_seconds} s, measure {run.measure_seconds} s,"
                f" {run.scorecard['scorecard']['callsPerMin']} calls/min",
                file=sys.stderr,
                flush=True,
            )
    return 0


# -- the doc ------------------------------------------------------------------------------


def render(args: argparse.Namespace) -> int:
    runs = read_results(Path(args.results))
    if not runs:
        raise SystemExit(f"{args.results}: no real-AO run yet; run the 'real' step first")
    started = time.monotonic()
    section = calibration_section(runs, seeds=args.seeds)
    took = time.monotonic() - started
    doc = Path(args.doc)
    try:
        text = with_section(doc.read_text(), REAL_AO_SECTION, section)
    except ValueError as exc:
        raise SystemExit(f"{doc}: {exc}") from None
    replace_atomic(doc, text.encode())
    print(f"wrote {args.doc}; the model's runs took {took:.1f} s", file=sys.stderr)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default=str(RESULTS))
    sub = parser.add_subparsers(dest="command")
    run = sub.add_parser("real", help="run the real AO builds")
    run.add_argument("--builds", default="main,bench,0.10.3,0.12.6")
    run.add_argument("--sizes", default="3,10,25")
    run.add_argument("--warmup", help="default: 95s for the TypeScript builds, 0s for the daemon")
    run.add_argument("--duration", help="default: 5m for the TypeScript builds, 11m for the daemon")
    run.add_argument("--ao-main", help="a built AO main checkout (default: build-ao main --web)")
    run.add_argument("--ao-bench", help="a built AO bench checkout (default: build-ao bench)")
    run.add_argument("--ao-go", help="AO 0.10.3's binary (default: fetch-ao-go)")
    run.add_argument(
        "--ao-go-0-12", help="AO 0.12.6's binary (default: ../shared/ao's, sha256-checked)"
    )
    run.add_argument(
        "--limits",
        help="RESOURCE=POINTS[/WINDOW],...: the measurement's budgets (a window: default 1h)",
    )
    run.add_argument("--work", default=str(Path(tempfile.gettempdir()) / "ghbench-calibration"))
    draw = sub.add_parser("render", help="run the model and rewrite the doc's generated section")
    for p in (parser, draw):
        p.add_argument("--doc", default=str(DOC))
        p.add_argument("--seeds", type=int, default=5, help="model seeds to average (0..N-1)")
    args = parser.parse_args()
    if args.command == "real":
        return real(args)
    if args.command == "render":
        return render(args)
    # everything: the real runs of both builds, then the doc
    defaults = run.parse_args([])
    for key, value in vars(defaults).items():
        setattr(args, key, getattr(args, key, value))
    real(args)
    return render(args)


if __name__ == "__main__":
    sys.exit(main())
