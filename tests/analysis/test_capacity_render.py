"""``capacity``'s console text and JSON, and its two solves', on probes whose every figure
is known: the headline in each case (a count found, every count fits, none fits, a rate
limit answered), the margins and what binds, the JSON holding the same runs."""

from __future__ import annotations

import json
import re

from ghbench.analysis.capacity import (
    BUDGETS,
    BudgetUse,
    Probe,
    Refusal,
    VerifiedCount,
    find_capacity,
)
from ghbench.analysis.capacity_render import (
    SCHEMA_VERSION,
    capacity_json,
    capacity_text,
    solve_json,
    solve_text,
    verify_json,
    verify_text,
)
from ghbench.analysis.capacity_solve import solve_agents, solve_tick

LIMITS = {
    "graphqlPointsPerHr": 5_000.0,
    "coreRequestsPerHr": 5_000.0,
    "restPointsPerMinute": 900.0,
    "graphqlPointsPerMinute": 2_000.0,
    "concurrency": 100.0,
    "pollCycle": 30.0,
}


def _probe(sessions: int, graphql: float, *, refusals: tuple[Refusal, ...] = ()) -> Probe:
    used = {"graphqlPointsPerHr": graphql, "pollCycle": 2.25}
    uses = tuple(BudgetUse(name, used.get(name, 1.0), LIMITS[name]) for name in BUDGETS)
    return Probe(sessions, uses, refusals=refusals)


def test_the_count_found_its_margins_and_the_next_that_binds() -> None:
    result = find_capacity(lambda n: _probe(n, 300.0 * n), fraction=0.8, maximum=100)
    text = capacity_text(
        result, title="capacity: S2-T1", notes=("a note",), paths={"plot": "p.png"}
    )
    lines = text.splitlines()
    assert lines[:2] == [
        "capacity: S2-T1",
        "  13 session(s) fit within 80% of every budget; at 14 graphqlPointsPerHr binds first.",
    ]
    graphql = next(line for line in lines if line.startswith("  graphqlPointsPerHr"))
    assert re.split(r"\s{2,}", graphql.strip()) == [
        "graphqlPointsPerHr",
        "5,000 points/h",
        "3,900 (78.0%)",
        "+100",
        "4,200 (84.0%)",
        "-200 over",
    ]
    assert "2.2 (7.5%)" in text  # the poll cycle to a tenth of a second
    assert lines[-2:] == ["  a note", "  plot: p.png"]
    doc = capacity_json(result, {"cell": {"scenario": "S2"}})
    assert (doc["schemaVersion"], doc["kind"], doc["sessions"]) == (SCHEMA_VERSION, "capacity", 13)
    assert (doc["limitingResource"], doc["reachedMax"], doc["cell"]) == (
        "graphqlPointsPerHr",
        False,
        {"scenario": "S2"},
    )
    assert [t["sessions"] for t in doc["tried"]] == [p.sessions for p in result.probes]
    assert doc["next"]["fits"] is False and doc["next"]["budgets"][0]["margin"] == -200.0
    json.dumps(doc, allow_nan=False)


def test_every_count_up_to_the_maximum_fits() -> None:
    result = find_capacity(lambda n: _probe(n, 10.0 * n), fraction=0.8, maximum=10)
    assert capacity_text(result, title="t").splitlines()[1] == (
        "  Every count up to 10 fits within 80% of every budget (the maximum tried); the"
        " closest is pollCycle at 7.5%."
    )
    assert capacity_json(result, {})["reachedMax"] is True


def test_no_count_fits_and_a_rate_limit_that_answered_is_named() -> None:
    over = find_capacity(lambda n: _probe(n, 9_000.0), fraction=0.8, maximum=10)
    assert "No count fits within 80% of every budget: at 1 session(s) graphqlPointsPerHr" in (
        capacity_text(over, title="t")
    )
    refused = Refusal("graphqlPointsPerHr", 3, None, "GraphQL refused 3 call(s)")
    limited = find_capacity(lambda n: _probe(n, 1.0, refusals=(refused,)), maximum=10)
    text = capacity_text(limited, title="t")
    assert "answered with refusals" in text
    assert "  rate limited at 1: GraphQL refused 3 call(s)" in text
    assert capacity_json(limited, {})["next"]["rateLimited"][0]["calls"] == 3


def test_the_solved_interval_and_agents_say_the_runs_they_show() -> None:
    tick = solve_tick(lambda t: _probe(10, 40_000.0 / t), sessions=10, fraction=0.8)
    text = solve_text(tick, title="tick")
    assert text.splitlines()[1] == (
        "  10 session(s) fit within 80% of every budget polling every 10 s at the fastest;"
        " at 9 s graphqlPointsPerHr binds."
    )
    assert "every 10 s" in text.splitlines()[3] and "every 9 s" in text.splitlines()[3]
    doc = solve_json(tick, {})
    assert (doc["kind"], doc["tickSeconds"], doc["faster"]["tickSeconds"]) == (
        "capacity-tick",
        10,
        9,
    )
    assert [t["tickSeconds"] for t in doc["tried"]] == [t.value for t in tick.tried]
    agents = solve_agents(lambda m: _probe(20, 500 + 450.0 * m), sessions=20, fraction=0.8)
    assert solve_text(agents, title="agents").splitlines()[1] == (
        "  7 agent(s) fit beside 20 session(s) within 80% of every budget; with 8"
        " graphqlPointsPerHr binds."
    )
    assert (solve_json(agents, {})["agents"], solve_json(agents, {})["more"]["agents"]) == (7, 8)


def test_a_verification_says_where_the_model_and_the_real_runs_disagree() -> None:
    counts = [
        VerifiedCount(_probe(5, 1_000.0), _probe(5, 1_200.0)),
        VerifiedCount(_probe(9, 3_900.0), _probe(9, 4_100.0)),
    ]
    text = verify_text(counts, 0.8, how="real time, 5 m")
    assert "  at 5: model fits, real fits: agree" in text
    assert "  at 9: model fits, real over (graphqlPointsPerHr): DISAGREE" in text
    assert text.rstrip().endswith("the real runs do NOT agree with the model at every count")
    doc = verify_json(counts, 0.8)
    assert doc["agree"] is False and [c["agree"] for c in doc["counts"]] == [True, False]


def test_every_solve_headline_says_whether_none_all_or_some_fit() -> None:
    def tick(per: float) -> str:
        r = solve_tick(lambda t: _probe(10, per / t), sessions=10, fraction=0.8)
        return solve_text(r, title="tick").splitlines()[1]

    def agents(base: float, each: float) -> str:
        r = solve_agents(lambda m: _probe(20, base + each * m), sessions=20, fraction=0.8)
        return solve_text(r, title="agents").splitlines()[1]

    assert tick(1.0) == (
        "  10 session(s) fit within 80% of every budget polling every 1 s, the fastest tried."
    )
    assert tick(1e9) == (
        "  No poll interval up to 60 s fits 10 session(s) within 80% of every budget: at 60 s"
        " graphqlPointsPerHr binds."
    )
    assert agents(1.0, 0.0) == (
        "  Every one of 20 session(s) may run its agent within 80% of every budget."
    )
    assert agents(1e9, 1.0) == (
        "  20 session(s) do not fit within 80% of every budget even with no agent:"
        " graphqlPointsPerHr binds (fewer sessions: `ghbench capacity`)."
    )
