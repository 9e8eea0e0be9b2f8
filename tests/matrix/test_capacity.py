"""``ghbench capacity``'s flow without a search: the spec its flags build, the lines that
reproduce it, the answer a matrix stores per series and when that answer is stale, and
the flags refused before anything runs or is written. (The searches themselves, checked
against ``simulate``: tests/commands/test_capacity.py and tests/simulation/test_lanes.py.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ghbench.analysis.capacity import (
    DEFAULT_FRACTION,
    POLL_CEILING_S,
    BudgetUse,
    CapacityResult,
    Probe,
)
from ghbench.budgets import parse_budget
from ghbench.clock import VirtualClock
from ghbench.errors import UsageError
from ghbench.matrix.capacity import (
    MAX_SESSIONS,
    CapacityQuery,
    answer_capacity,
    capacity_cell,
    capacity_command,
    capacity_spec,
    capacity_title,
    run_capacity_from_trace,
    series_searches,
    simulate_command,
    store_series,
)
from ghbench.matrix.runs import load_capacities
from ghbench.runspec.cells import Cell
from ghbench.runspec.spec import RunSpec

AGENTS = "claude-code-gh-2.102"


def _spec(scenario: str = "S2", topology: str = "T1", **more: object) -> RunSpec:
    values: dict[str, object] = {"profile": "ao-0.12.6", "agents": "none", "seed": 3, **more}
    return capacity_spec(scenario, topology, **values)  # type: ignore[arg-type]


def test_capacitys_spec_is_the_runbooks_cell_in_virtual_time() -> None:
    spec = _spec()
    assert (spec.backend, spec.cell, spec.seed, spec.profile) == (
        "simulated",
        Cell("S2", "T1", 1),
        3,
        "ao-0.12.6",
    )
    assert (spec.warmup.seconds, spec.duration.seconds) == (120.0, 900.0)
    assert capacity_command(spec) == (
        "ghbench capacity --scenario S2 --topology T1 --profile ao-0.12.6 --seed 3"
    )
    assert simulate_command(spec, 7) == (
        "ghbench simulate --scenario S2 --topology T1 --sessions 7 --warmup 120s"
        " --duration 900s --profile ao-0.12.6 --seed 3"
    )
    assert capacity_cell(spec) == {
        "scenario": "S2",
        "topology": "T1",
        "profile": "ao-0.12.6",
        "agents": None,
        "seed": 3,
        "warmupSeconds": 120.0,
        "windowSeconds": 900.0,
    }  # no "budget" key for a user's token: answers stored before budgets still match
    assert capacity_title(spec) == (
        "capacity: S2-T1 (quiet steady state, concentrated), profile ao-0.12.6, seed 3;"
        " warmup 2m 0s, window 15m 0s"
    )


def test_agents_a_count_of_them_and_a_budget_appear_in_every_line() -> None:
    budget = parse_budget("app", repos=40)
    spec = _spec("S3", "T2", agents=AGENTS, budget=budget)
    assert capacity_command(spec) == (
        f"ghbench capacity --scenario S3 --topology T2 --profile ao-0.12.6 --agents {AGENTS}"
        f" --seed 3{budget.flags}"
    )
    assert budget.flags in simulate_command(spec, 10) and f"--agents {AGENTS}" in simulate_command(
        spec, 10
    )
    counted = RunSpec(backend="simulated", agents=AGENTS, cell=Cell("S3", "T1", 4), agent_count=2)  # type: ignore[arg-type]
    assert simulate_command(counted, 4).endswith(f"--agents {AGENTS} --agent-count 2 --seed 0")
    cell = capacity_cell(spec)
    assert (cell["agents"], cell["budget"], cell["warmupSeconds"]) == (AGENTS, budget.label, 0.0)
    assert capacity_title(spec).endswith(f"; budget {budget.describe()}")
    assert f", agents {AGENTS}, seed 3" in capacity_title(spec)


def _result(sessions: int) -> CapacityResult:
    def probe(n: int, used: float) -> Probe:
        return Probe(n, (BudgetUse("graphqlPointsPerHr", used, 5000.0),))

    at, after = probe(sessions, 3900.0), probe(sessions + 1, 4100.0)
    return CapacityResult(
        DEFAULT_FRACTION, sessions, "graphqlPointsPerHr", at, after, (at, after), capped=False
    )


def test_a_stored_series_answer_is_what_the_baseline_reads_until_its_settings_change(
    tmp_path: Path,
) -> None:
    plan = RunSpec(backend="simulated", profile="ao-0.12.6", seed=3)
    cells = [Cell("S2", "T1", 1), Cell("S2", "T1", 5), Cell("S3", "T2", 10)]
    searches = series_searches(tmp_path, plan, cells)
    # one per series, the one whose probes spawn sessions first
    assert [(s.cell.scenario, s.cell.topology) for s in searches] == [("S3", "T2"), ("S2", "T1")]
    s3, s2 = searches
    assert s2 == _spec()
    path = store_series(tmp_path, s2, _result(12))
    doc = json.loads(path.read_text())
    assert (doc["sessions"], doc["maxSessions"], doc["pollCeilingSeconds"]) == (
        12,
        MAX_SESSIONS,
        POLL_CEILING_S,
    )
    assert doc["reproduce"] == [simulate_command(s2, 12), simulate_command(s2, 13)]
    stored = load_capacities(tmp_path)[("S2", "T1")]
    assert (stored.sessions, stored.command) == (12, capacity_command(s2))
    assert series_searches(tmp_path, plan, cells) == [s3]  # answered with these settings
    other_seed = RunSpec(backend="simulated", profile="ao-0.12.6", seed=4)
    assert len(series_searches(tmp_path, other_seed, cells)) == 2
    doc["budgetFraction"] = 0.5  # answered for another fraction: searched again
    path.write_text(json.dumps(doc))
    assert len(series_searches(tmp_path, plan, cells)) == 2
    path.write_text("{")  # an answer that does not read is searched again too
    assert len(series_searches(tmp_path, plan, cells)) == 2


def _query(**more: object) -> CapacityQuery:
    values: dict[str, object] = {"fraction": 0.8, "maximum": 100, "ceiling_s": 60.0, **more}
    return CapacityQuery(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("spec", "query", "typed", "message"),
    [
        (
            RunSpec(backend="simulated"),
            {"policies": "cache"},
            (),
            "--policies applies to --from-trace",
        ),
        (
            RunSpec(backend="simulated", cell=Cell("S2", "T2", 5)),
            {"maximum": 1},
            (),
            "--max-sessions: T2 needs at least 2",
        ),
        (
            RunSpec(backend="simulated", driver="ao"),
            {"verify": True},
            (),
            "--driver ao needs --ao CHECKOUT",
        ),
        (
            RunSpec(backend="simulated"),
            {"from_trace": Path("t.jsonl")},
            ("scenario",),
            "--scenario does not apply to --from-trace",
        ),
        (
            RunSpec(backend="simulated"),
            {"from_trace": Path("t.jsonl")},
            ("verify",),
            "--verify does not apply to --from-trace",
        ),
    ],
)
def test_flags_the_search_cannot_honour_are_refused_before_anything_is_held(
    tmp_path: Path, spec: RunSpec, query: dict[str, object], typed: tuple[str, ...], message: str
) -> None:
    held: list[Path] = []
    with pytest.raises(UsageError, match=message):
        answer_capacity(
            spec,
            _query(**query),
            typed,
            clock=VirtualClock(0.0),
            env={},
            log=lambda _: None,
            hold=held.append,
        )
    assert held == []


def test_a_trace_with_nothing_to_replay_is_refused() -> None:
    with pytest.raises(UsageError, match="--from-trace: none of its 0 rows can be re-issued"):
        run_capacity_from_trace([], fraction=0.8, maximum=10, ceiling_s=60.0, seed=0)
