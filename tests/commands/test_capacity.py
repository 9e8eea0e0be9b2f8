"""``ghbench capacity`` through the real entry point, checked against ``ghbench simulate``.

For every scenario, the count capacity finds and the next one are run again with
``simulate`` (the command capacity prints); the budgets recomputed from simulate's own
scorecard and its printed poll cycle must fit at the count and not at the next, with
the same limiting budget and the same figures. Short windows and a low budget fraction
keep each search small; the default search is measured in bench/bench_capacity.py.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from ghbench.analysis.capacity import BudgetUse, budget_uses
from ghbench.artifacts.models import load_scorecard

SHORT = ["--warmup", "30s", "--duration", "3m"]


def _simulated(ghbench: Any, line: str, cwd: Path, out: str) -> tuple[BudgetUse, ...]:
    args = shlex.split(line)
    assert args[0] == "ghbench"
    proc = ghbench(*args[1:], "--out", out)
    assert proc.returncode == 0, proc.stderr
    cycle = re.search(r"longest poll cycle in the window ([0-9.]+) s", proc.stderr)
    assert cycle is not None, proc.stderr
    (card,) = (cwd / out).glob("scorecard-*.json")
    return budget_uses(load_scorecard(card), float(cycle.group(1)))


def _same(model: dict[str, Any], uses: tuple[BudgetUse, ...]) -> None:
    for reported, use in zip(model["budgets"], uses, strict=True):
        assert reported["name"] == use.name
        digits = 1 if use.name == "pollCycle" else 6  # simulate prints the cycle to 0.1 s
        assert round(reported["used"], digits) == pytest.approx(round(use.used, digits), abs=0.06)


# coverage's line tracer triples this test's CPU (it replays the model or generates
# hundreds of requests); the code it runs is covered by the simulation's own tests
@pytest.mark.no_cover
@pytest.mark.parametrize(
    ("scenario", "topology", "profile"),
    [  # 2-15 s each: make test runs them, make test-fast does not
        pytest.param("S1", "T1", "pre-b1", marks=pytest.mark.slow),
        pytest.param("S2", "T2", "head", marks=pytest.mark.slow),
        pytest.param("S3", "T1", "pre-b1", marks=pytest.mark.slow),
        pytest.param("S4", "T1", "head", marks=pytest.mark.slow),
        pytest.param("S5", "T2", "pre-b1", marks=pytest.mark.slow),
        pytest.param("S6", "T1", "head", marks=pytest.mark.slow),
    ],
)
def test_capacity_agrees_with_simulate_at_the_count_and_the_next(
    ghbench: Any, tmp_path: Path, scenario: str, topology: str, profile: str
) -> None:
    flags = ["--scenario", scenario, "--topology", topology, "--profile", profile, *SHORT]
    proc = ghbench("capacity", *flags, "--budget-fraction", "0.15", "--json")
    assert proc.returncode == 0, proc.stderr
    answer = json.loads(proc.stdout)
    n, limiting = answer["sessions"], answer["limitingResource"]
    assert n >= 1 and answer["next"]["sessions"] == n + 1 and not answer["reachedMax"]
    assert answer["at"]["fits"] and not answer["next"]["fits"]
    assert answer["next"]["worst"] == limiting
    assert (tmp_path / answer["plot"]).read_bytes()[:4] == b"\x89PNG"

    at, nxt = (
        _simulated(ghbench, line, tmp_path, f"sim{i}") for i, line in enumerate(answer["reproduce"])
    )
    _same(answer["at"], at)
    _same(answer["next"], nxt)
    assert all(u.fits(0.15) for u in at)
    over = [u for u in nxt if not u.fits(0.15)]
    assert max(over, key=lambda u: u.share).name == limiting


def test_console_names_the_count_the_binding_budget_and_both_margins(
    ghbench: Any, tmp_path: Path
) -> None:
    proc = ghbench("capacity", *SHORT, "--budget-fraction", "0.1", "--no-plot")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith(
        "capacity: S2-T1 (quiet steady state, concentrated), profile ao-0.12.6"
    )
    m = re.match(
        r"  (\d+) session\(s\) fit within 10% of every budget; at (\d+) (\w+) binds", lines[1]
    )
    assert m is not None and int(m.group(2)) == int(m.group(1)) + 1
    header = lines[3].split()
    assert header[:2] == ["budget", "limit"] and header.count("margin") == 2
    assert any(line.startswith(f"  {m.group(3)} ") and "over" in line for line in lines)
    assert not list(tmp_path.glob("**/*.png"))


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--budget-fraction", "0"], "--budget-fraction"),
        (["--budget-fraction", "1.5"], "--budget-fraction"),
        (["--scenario", "S9"], "--scenario: unknown scenario 'S9'"),
        (["--poll-ceiling", "soon"], "--poll-ceiling"),
        (["--topology", "T2", "--max-sessions", "1"], "--max-sessions"),
        (["--agents", "default", "--scenario", "S2"], "--agents: S2 (quiet-steady) has no"),
        (["--agents", "codex"], "--agents"),
        (
            ["--agents", "default", "--verify"],
            "--agents applies only with --driver ao or the model",
        ),
        (["--transport", "gh"], "--transport applies only with --verify with --driver workload"),
        (["--driver", "ao"], "--driver ao applies only with --verify"),
        (["--verify", "--driver", "ao"], "--driver ao needs --ao CHECKOUT"),
        (["--from-trace", "t.jsonl", "--scenario", "S3"], "--scenario does not apply"),
        (["--policies", "cache"], "--policies applies to --from-trace (ghbench lab"),
        (["--from-trace", "t.jsonl", "--policies", "shim"], "--policies shim: not run by a"),
    ],
)
def test_bad_flags_are_one_line_usage_errors(ghbench: Any, args: list[str], needle: str) -> None:
    proc = ghbench("capacity", *args)
    assert proc.returncode == 2
    assert len(proc.stderr.splitlines()) == 1 and needle in proc.stderr


def test_with_agents_fewer_sessions_fit_and_a_graphql_budget_binds(ghbench: Any) -> None:
    """The issue's question: the evidence says 5 agents drain GraphQL; the model agrees."""
    alone = ghbench("capacity", "--profile", "ao-main-60e8c881", "--json", "--no-plot")
    with_agents = ghbench(
        "capacity", "--profile", "ao-main-60e8c881", "--agents", "default", "--json", "--no-plot"
    )
    assert alone.returncode == 0 and with_agents.returncode == 0, with_agents.stderr
    without, withag = json.loads(alone.stdout), json.loads(with_agents.stdout)
    assert withag["sessions"] < without["sessions"]
    assert withag["limitingResource"].startswith("graphql")
    agents = withag["cell"]["agents"]
    assert withag["cell"]["scenario"] == "S3" and agents == "claude-code-gh-2.102"
    spend = withag["next"]["spend"]
    assert spend["agents"]["graphqlPointsPerHr"] > 10 * spend["orchestrator"]["graphqlPointsPerHr"]
    assert "--agents claude-code-gh-2.102" in withag["reproduce"][0]


@pytest.mark.slow
def test_from_a_trace_the_answer_replays_the_users_own_traffic(
    ghbench: Any, tmp_path: Path
) -> None:
    made = ghbench(
        "simulate", "--scenario", "S3", "--sessions", "3", "--agents", "default",
        "--duration", "10m", "--out", "rec",
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    (trace,) = (tmp_path / "rec").glob("gh-trace-sim-*.jsonl")
    proc = ghbench("capacity", "--from-trace", str(trace), "--json", "--no-plot")
    assert proc.returncode == 0, proc.stderr
    answer = json.loads(proc.stdout)
    assert answer["fromTrace"]["recordedSessions"] == 3
    assert answer["fromTrace"]["agentTrace"] is not None  # the agents' trace beside it
    assert answer["limitingResource"] == "graphqlPointsPerHr"
    assert answer["next"]["spend"]["agents"]["graphqlPointsPerHr"] > 0
    # the count found is what the model's own search finds for that cell, give or take one
    model = ghbench("capacity", "--agents", "default", "--json", "--no-plot")
    assert abs(answer["sessions"] - json.loads(model.stdout)["sessions"]) <= 1
