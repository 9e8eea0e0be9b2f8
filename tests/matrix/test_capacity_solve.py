"""``capacity --sessions N --solve tick``: the fastest poll interval at which N sessions
fit, checked the way the issue's Done-when asks: a run at the interval found stays
within the budget, a run 20% faster does not. ``--solve agents``: the most of N sessions
that may run their coding agent, checked by a run at that count and one with one more.
The runs are ``ghbench simulate`` as the answer's reproduce lines print them, judged by
the session search's own ``fits`` (the solver's bisection alone:
tests/analysis/test_capacity_solve.py)."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

from ghbench.analysis.capacity import Probe, budget_uses
from ghbench.artifacts.models import load_scorecard

# pre-b1 (a TypeScript build) spends GraphQL on every tick: its interval is what binds
CELL = ["--profile", "pre-b1", "--warmup", "30s", "--duration", "5m", "--no-plot"]


def _run(ghbench: Any, cwd: Path, line: str, out: str) -> Probe:
    """A reproduce line (``ghbench simulate ...``) run, judged as the search judges it."""
    args = line.split()
    assert args[:2] == ["ghbench", "simulate"]
    proc = ghbench(*args[1:], "--out", out)
    assert proc.returncode == 0, proc.stderr
    cycle = re.search(r"longest poll cycle in the window ([0-9.]+) s", proc.stderr)
    assert cycle is not None, proc.stderr
    (card,) = (cwd / out).glob("scorecard-*.json")
    artifact = load_scorecard(card)
    return Probe.of(
        int(args[args.index("--sessions") + 1]),
        artifact,
        budget_uses(artifact, float(cycle.group(1))),
    )


@pytest.mark.no_cover
@pytest.mark.slow
def test_the_interval_found_stays_within_the_budget_and_20pct_faster_does_not(
    ghbench: Any,
    tmp_path: Path,
) -> None:
    proc = ghbench(
        "capacity",
        *CELL,
        "--sessions",
        "40",
        "--solve",
        "tick",
        "--budget-fraction",
        "1",
        "--budget",
        "custom",
        "--graphql",
        "2000",
        "--json",
    )
    assert proc.returncode == 0, proc.stderr
    answer = json.loads(proc.stdout)
    tick, binding = answer["tickSeconds"], answer["limitingResource"]
    assert answer["kind"] == "capacity-tick" and 1 < tick < 60
    assert binding == "graphqlPointsPerHr" and answer["faster"]["tickSeconds"] == tick - 1
    at_line = answer["reproduce"][0]
    assert at_line.endswith(f"--tick {tick}s")
    at = _run(ghbench, tmp_path, at_line, "at")
    assert at.fits(1.0) and not at.refusals
    faster = math.floor(tick * 0.8)
    over = _run(ghbench, tmp_path, at_line.replace(f"--tick {tick}s", f"--tick {faster}s"), "over")
    assert not over.fits(1.0) and over.binding == binding
    # the reproduce line is the run the answer shows: the same figures
    shown = {b["name"]: b["used"] for b in answer["at"]["budgets"]}
    for use in at.uses:
        assert shown[use.name] == pytest.approx(use.used, abs=0.06)


@pytest.mark.no_cover
@pytest.mark.slow
def test_a_larger_budget_polls_faster_and_the_answer_names_it(ghbench: Any) -> None:
    ticks = {}
    for budget in ([], ["--budget", "app", "--repos", "60"]):
        proc = ghbench("capacity", *CELL, "--sessions", "40", "--solve", "tick", *budget, "--json")
        assert proc.returncode == 0, proc.stderr
        answer = json.loads(proc.stdout)
        ticks[bool(budget)] = answer["tickSeconds"]
        limit = answer["at"]["budgets"][0]["limit"]
        assert limit == (7_000 if budget else 5_000)
        assert all(" --budget app --repos 60" in line for line in answer["reproduce"]) == bool(
            budget
        )
    assert ticks[True] < ticks[False]


@pytest.mark.no_cover
@pytest.mark.slow
def test_the_agent_count_found_fits_and_one_more_does_not(
    ghbench: Any,
    tmp_path: Path,
) -> None:
    # S3 (the spawn storm), 20 sessions: each agent's own gh calls spend GraphQL
    cell = ["--agents", "default", "--warmup", "30s", "--duration", "5m", "--no-plot"]
    proc = ghbench("capacity", *cell, "--sessions", "20", "--solve", "agents", "--json")
    assert proc.returncode == 0, proc.stderr
    answer = json.loads(proc.stdout)
    agents, binding = answer["agents"], answer["limitingResource"]
    assert answer["kind"] == "capacity-agents" and 0 < agents < 20
    assert binding == "graphqlPointsPerHr" and answer["more"]["agents"] == agents + 1
    at_line, more_line = answer["reproduce"]
    assert at_line.endswith(f"--agent-count {agents} --seed 0")
    assert more_line.endswith(f"--agent-count {agents + 1} --seed 0")
    at = _run(ghbench, tmp_path, at_line, "at")
    assert at.fits(0.8) and not at.refusals
    more = _run(ghbench, tmp_path, more_line, "more")
    assert not more.fits(0.8) and more.binding == binding
    shown = {b["name"]: b["used"] for b in answer["at"]["budgets"]}
    for use in at.uses:
        assert shown[use.name] == pytest.approx(use.used, abs=0.06)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--solve", "tick"], "--solve and --sessions go together"),
        (["--sessions", "5"], "--solve and --sessions go together"),
        (["--sessions", "5", "--solve", "tick", "--verify"], "--solve tick: --verify"),
        (
            ["--sessions", "1", "--solve", "tick", "--topology", "T2"],
            "--topology T2 needs at least 2",
        ),
        (["--sessions", "5", "--solve", "speed"], "--solve"),
        (["--sessions", "5", "--solve", "agents"], "--solve agents: the sessions run no agents"),
        (
            ["--sessions", "5", "--solve", "agents", "--agents", "default", "--verify"],
            "--agents applies only with --driver ao or the model alone (no --verify)",
        ),
    ],
)
def test_bad_solve_flags_are_one_line_usage_errors(
    ghbench: Any,
    args: list[str],
    needle: str,
) -> None:
    proc = ghbench("capacity", "--no-plot", *args)
    assert proc.returncode == 2
    assert len(proc.stderr.splitlines()) == 1 and needle in proc.stderr
