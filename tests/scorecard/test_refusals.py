"""A rate limit that answered in the window is a finding: one typed warning per budget,
with when it began, the calls refused and the time spent refused; refused calls are no
successes and cost nothing, and neither does ``/rate_limit``. Hand-made rows, every
figure checkable by eye."""

from __future__ import annotations

from ghbench.scorecard import build_scorecard_artifact, render_console
from ghbench.timefmt import iso_ms, iso_s
from ghbench.trace.frame import TraceFrame

from .helpers import RESET_A, T0, T0_MS, gql, rest, row, score


def _refused_gql(at: float, **fields: object) -> object:
    """GitHub's 200 + RATE_LIMITED, as ghbench's writers record it."""
    return gql(at, 0, cost=None, ok=False, rateLimited="primary", **fields)


def test_a_graphql_budget_that_ran_out_says_when_what_was_refused_and_for_how_long() -> None:
    rows = [
        gql(10, 1, cost=1),
        gql(20, 0, cost=1),  # the last point: the bucket ran out here
        _refused_gql(30),
        _refused_gql(90),
        gql(150, 4999, cost=1, reset=RESET_A + 3600),  # a new hour answers again
        _refused_gql(3000, reset=RESET_A + 3600),  # refused again until the reset
    ]
    card = score(rows, 0, 3600)
    (w,) = [w for w in card.warnings if w.kind == "rate-limited"]
    assert (w.budget, w.limit, w.count, w.at) == ("graphql", "primary", 3, iso_ms(T0 + 20))
    # 30 s → 150 s (the next answer), then 3000 s → the window's end (the reset is later)
    assert w.seconds == 120 + 600
    assert w.message.startswith(f"GraphQL points ran out at {iso_ms(T0 + 20)}: 3 call(s)")
    assert "12m 0s spent refused" in w.message
    assert f"the bucket reset at {iso_s(RESET_A + 3600)}" in w.message
    # refused calls are charged nothing: only the three answered ones are attributed
    assert card.insights.attributed_spend.graphql.attributed_points == 3


def test_a_budget_at_zero_with_nothing_refused_still_ran_out() -> None:
    (w,) = [w for w in score([gql(10, 3), gql(20, 0)]).warnings if w.kind == "rate-limited"]
    assert (w.budget, w.count, w.seconds, w.at) == ("graphql", 0, 0.0, iso_ms(T0 + 20))
    assert "no call refused in the window" in w.message


def test_a_refused_guard_is_an_error_not_a_success_and_costs_nothing() -> None:
    rows = [
        rest(10, 0),
        rest(20, 0, status=403, ok=False, rateLimited="primary"),
        rest(30, 0, status=429, ok=False, rateLimited="primary"),
    ]
    card = score(rows)
    assert card.scorecard.guard_pr_list_error_count == 2  # the spec's definition, ok false
    core = card.insights.attributed_spend.core
    assert (core.priced_calls, core.attributed_points) == (3, 1)
    (w,) = [w for w in card.warnings if w.kind == "rate-limited"]
    assert (w.budget, w.count) == ("core", 2)
    assert w.seconds == 3600 - 20  # nothing answered after: until the window's end


def test_rows_without_the_field_are_judged_by_what_they_prove() -> None:
    # AO's own rows: a 403 with remaining 0 is the primary limit, any 429 a secondary
    # one, a GraphQL 200 gh called failed with remaining 0 the primary's RATE_LIMITED; a
    # 403 with budget left (a permission error, perhaps) is no refusal
    rows = [
        rest(10, 0, status=403, ok=False),
        rest(20, 40, status=429, ok=False),
        rest(30, 40, status=403, ok=False),
        gql(40, 0, cost=None, ok=False),
    ]
    warnings = score(rows).warnings
    found = {(w.budget, w.limit, w.count) for w in warnings if w.kind == "rate-limited"}
    assert found == {
        ("core", "primary", 1),
        ("graphql", "primary", 1),
        ("secondary", "secondary", 1),
    }


def test_each_secondary_limit_is_a_budget_of_its_own() -> None:
    rows = [
        gql(10, 4000, cost=None, httpStatus=429, ok=False, rateLimited="secondary-points"),
        rest(20, 4000, status=429, ok=False, rateLimited="secondary-points"),
        rest(30, 4000, status=429, ok=False, rateLimited="secondary-concurrency"),
        rest(40, 4000, status=403, ok=False, rateLimited="secondary-content", method="POST"),
        rest(50, 4000, status=403, ok=False, rateLimited="secondary"),
        rest(60, 3999),
    ]
    found = [(w.budget, w.limit, w.count) for w in score(rows).warnings if w.limit]
    assert found == [
        ("graphqlPointsPerMinute", "secondary", 1),
        ("restPointsPerMinute", "secondary", 1),
        ("concurrency", "secondary", 1),
        ("contentCreation", "secondary", 1),
        ("secondary", "secondary", 1),
    ]
    (points,) = [w for w in score(rows).warnings if w.budget == "restPointsPerMinute"]
    assert points.seconds == 40.0  # 20 s → the next answered REST call at 60 s


def test_rate_limit_is_free_for_the_primary_limit() -> None:
    rows = [
        rest(10, 4990, operation="gh.api.rate_limit", endpoint="rate_limit"),
        rest(20, 4990, operation="rest.rate_limit", endpoint="/rate_limit"),
        rest(30, 4989, operation="gh.api.pulls", endpoint="repos/a/b/pulls"),
    ]
    core = score(rows).insights.attributed_spend.core
    assert (core.priced_calls, core.attributed_points) == (3, 1)
    assert core.unattributed_per_hr == 0.0


def test_the_agents_refusals_count_against_the_same_budget() -> None:
    orchestrator = [gql(10, 5, cost=1), _refused_gql(40)]
    agents = [gql(20, 0, cost=1, origin="agent"), _refused_gql(30, origin="agent")]
    card = build_scorecard_artifact(
        TraceFrame.from_rows(orchestrator),
        agent_frame=TraceFrame.from_rows(agents),
        window_start_ms=T0_MS,
        window_end_ms=T0_MS + 3_600_000,
        scenario_id="x",
        measured_at=T0 + 3600,
    )
    (w,) = [w for w in card.warnings if w.kind == "rate-limited"]
    assert (w.count, w.at) == (2, iso_ms(T0 + 20))
    assert "2 call(s) refused (1 the orchestrator's, 1 its agents')" in w.message


def test_the_console_says_it_above_the_numbers() -> None:
    text = render_console(score([gql(10, 1), gql(20, 0), _refused_gql(30)]), color=False)
    finding = text.index("! GraphQL points ran out at")
    assert finding < text.index("Total GH calls:")
    assert "! rate-limited (graphql): run fewer sessions" in text
    # without one, the spec's block follows the header directly
    plain = render_console(score([row(10, ok=True)]), color=False).splitlines()
    assert plain[5:7] == ["", "  Total GH calls:              1"]
