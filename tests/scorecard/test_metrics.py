"""The spec's scorecard fields, one definition at a time, and the edge cases."""

from __future__ import annotations

import pytest

from ghbench.trace.schema import TraceRow

from .helpers import RESET_A, RESET_B, T0_MS, gql, opaque, rest, row, score, snapshots


def _guard_rows() -> list[TraceRow]:
    return [
        rest(1.0, 4990, status=304),  # ok: false, as AO records a 304
        rest(2.0, 4990, status=304, ok=True),  # after B1 a 304 may be ok: true; still a 304
        rest(3.0, 4989, status=200),
        rest(4.0, 4989, status=500),  # a genuine error
        row(5.0, operation="gh.api.guard-pr-list", ok=False, exitCode=1),  # network: no status
        row(6.0, operation="gh.api.guard-pr-list"),  # ok unknown, no status: neither
        rest(7.0, 4988, status=304, operation="gh.api.guard-commit-status"),  # other guard
    ]


def test_guard_pr_list_counts_and_rate() -> None:
    s = score(_guard_rows()).scorecard
    assert s.guard_pr_list_304_count == 2
    assert s.guard_pr_list_error_count == 2
    # 304 / (304 + success + error) = 2 / (2 + 1 + 2)
    assert s.guard_pr_list_304_rate == 0.4


def test_guard_rate_without_guard_rows_is_0_as_ao_writes_it_and_null_in_exact() -> None:
    a = score([opaque(1.0)])
    assert a.scorecard.guard_pr_list_304_rate == 0
    assert a.insights.exact is not None and a.insights.exact.guard_pr_list_304_rate is None


def test_totals_rates_batch_and_opaque() -> None:
    rows = [gql(float(i), 4990 - i, cost=1) for i in range(3)] + [
        opaque(10.0 + i) for i in range(5)
    ]
    a = score(rows, 0, 900)
    s, exact = a.scorecard, a.insights.exact
    assert exact is not None
    assert s.total_calls == 8
    assert s.calls_per_min == 0.5  # AO's toFixed(1) of 8 / 15
    assert exact.calls_per_min == pytest.approx(8 / 15)
    assert s.graphql_batch_count == 3
    assert s.opaque_call_count == 5
    assert s.opaque_call_pct == 0.63  # toFixed(2) of 0.625: a tie, rounded up as JS does
    assert exact.opaque_call_pct == 5 / 8
    assert s.graphql_points_per_hr == 8  # first − last = 2 over a quarter hour
    assert s.graphql_points_per_hr_estimated is False
    assert s.rest_core_requests_per_hr == 0  # no core headers, no bracket: AO writes 0
    assert exact.rest_core_requests_per_hr is None
    assert exact.rest_core_requests_per_hr_source is None
    assert s.benchmark_control_calls is None


def test_window_filter_excludes_warmup_late_and_control_rows_from_every_metric() -> None:
    rows = [
        rest(5.0, 4000, status=304),  # warmup
        rest(10.0, 3990, status=304),
        row(11.0, component="benchmark-control", operation="gh.api.guard-pr-list", durationMs=9e6),
        rest(20.0, 3980, status=304),
        rest(30.0, 100, status=500),  # after the window
    ]
    a = score(rows, 10, 20, control_calls=2)
    s = a.scorecard
    assert s.total_calls == 2
    assert s.guard_pr_list_304_count == 2 and s.guard_pr_list_error_count == 0
    assert s.rest_core_requests_per_hr == 10 * 360
    assert s.p99_duration_ms == 100
    assert s.benchmark_control_calls == 2
    ex = a.insights.rows_excluded
    assert (ex.before_window, ex.after_window, ex.benchmark_control) == (1, 1, 1)


def test_zero_rows() -> None:
    a = score([], 0, 60)
    s, exact = a.scorecard, a.insights.exact
    assert exact is not None
    assert (s.total_calls, s.calls_per_min, s.opaque_call_pct) == (0, 0.0, 0)
    assert (s.graphql_points_per_hr, s.rest_core_requests_per_hr) == (0, 0)
    assert (s.p50_duration_ms, s.p95_duration_ms, s.p99_duration_ms) == (0, 0, 0)
    assert a.resource_windows.core is not None and a.resource_windows.core.reset_at is None
    assert (exact.opaque_call_pct, exact.graphql_points_per_hr, exact.p50_duration_ms) == (
        None,
        None,
        None,
    )
    assert exact.resource_windows.core is None and exact.resource_windows.graphql is None


def test_one_row() -> None:
    a = score([rest(0.0, 4990, status=200, durationMs=250.0)], 0, 60)
    s = a.scorecard
    assert s.total_calls == 1
    assert s.rest_core_requests_per_hr == 0  # one row: AO needs two for a per-row burn
    assert a.insights.exact is not None
    assert a.insights.exact.rest_core_requests_per_hr == 0.0  # one row: first − last = 0
    assert a.insights.exact.rest_core_requests_per_hr_source == "rows"
    assert s.p50_duration_ms == s.p99_duration_ms == 250
    assert a.insights.consumption.core.points == 1  # the call itself did cost 1


def test_zero_length_window_has_no_rates() -> None:
    a = score([rest(5.0, 4990), rest(5.0, 4980)], 5, 5, snapshots=snapshots(core=(5000, 4000)))
    s, exact = a.scorecard, a.insights.exact
    assert exact is not None
    assert s.total_calls == 2
    assert s.calls_per_min == 0 and exact.calls_per_min is None
    assert s.rest_core_requests_per_hr == 0 and not s.rest_core_requests_per_hr_estimated
    assert s.graphql_points_per_hr == 0 and not s.graphql_points_per_hr_estimated
    assert exact.rest_core_requests_per_hr is None and exact.graphql_points_per_hr is None
    assert a.window.duration_actual == "0s"
    assert a.insights.consumption.core.per_hr is None


def test_only_opaque_rows() -> None:
    a = score([opaque(float(i)) for i in range(4)], 0, 60)
    s = a.scorecard
    assert (s.opaque_call_count, s.opaque_call_pct) == (4, 1.0)
    assert s.graphql_points_per_hr == 0 and s.rest_core_requests_per_hr == 0
    # with snapshots the burn falls back to the bracket, flagged as estimated
    a = score(
        [opaque(float(i)) for i in range(4)],
        0,
        900,
        snapshots=snapshots((4990, 4980), (4000, 3900)),
    )
    s = a.scorecard
    assert (s.rest_core_requests_per_hr, s.rest_core_requests_per_hr_estimated) == (40, True)
    assert (s.graphql_points_per_hr, s.graphql_points_per_hr_estimated) == (400, True)
    assert s.bracket_delta.core == 10 and s.bracket_delta.graphql == 100


def test_per_row_and_bracket_sources_are_never_mixed() -> None:
    rows = [rest(1.0, 4990), rest(2.0, 4980)]
    s = score(rows, 0, 3600, snapshots=snapshots((5000, 4000), (5000, 4000))).scorecard
    assert (s.rest_core_requests_per_hr, s.rest_core_requests_per_hr_estimated) == (10.0, False)
    assert (s.graphql_points_per_hr, s.graphql_points_per_hr_estimated) == (1000.0, True)
    assert s.bracket_delta.core == 1000  # the bracket itself is still reported


def test_window_that_straddles_a_reset() -> None:
    rows = [
        rest(10.0, 30),
        rest(20.0, 10),  # 20 before the reset
        rest(30.0, 4999, reset=RESET_B),
        rest(40.0, 4989, reset=RESET_B),  # 10 after it
    ]
    a = score(rows, 0, 1800, snapshots=snapshots(core=(40, 4985), reset=(RESET_A, RESET_B)))
    assert a.scorecard.rest_core_requests_per_hr == 60
    assert a.resource_windows.core is not None
    assert a.resource_windows.core.straddled is True
    # AO names the first reset window seen; ghbench's exact view the newest
    assert a.resource_windows.core.reset_at == "2026-04-16T15:00:00.000Z"
    assert a.insights.exact is not None
    exact_core = a.insights.exact.resource_windows.core
    assert exact_core is not None and exact_core.reset_at == "2026-04-16T16:00:00Z"
    assert a.scorecard.bracket_delta.core == 40 - 4985  # literal: negative across a reset


def test_bracket_fallback_across_a_reset_detects_the_straddle_and_never_goes_negative() -> None:
    snaps = snapshots(core=(40, 4985), reset=(RESET_A, RESET_B))
    a = score([opaque(1.0)], 0, 1800, snapshots=snaps)
    # AO: a bracket delta that is not positive is no estimate; the rate stays 0
    assert a.scorecard.rest_core_requests_per_hr == 0
    assert a.scorecard.rest_core_requests_per_hr_estimated is False
    exact = a.insights.exact
    assert exact is not None
    assert exact.rest_core_requests_per_hr == 0.0
    assert exact.rest_core_requests_per_hr_source == "bracket"
    assert exact.resource_windows.core is not None and exact.resource_windows.core.straddled
    # AO's resourceWindows come from rows only
    assert a.resource_windows.core is not None and not a.resource_windows.core.straddled
    # an unused bucket's reset moves on every call; that is not a straddle
    idle = snapshots(core=(5000, 5000), reset=(RESET_A, RESET_A + 60))
    idle_exact = score([opaque(1.0)], 0, 60, snapshots=idle).insights.exact
    assert idle_exact is not None
    rw = idle_exact.resource_windows.core
    assert rw is not None and rw.straddled is False


def test_percentiles_over_window_rows() -> None:
    rows = [opaque(float(i), durationMs=float(d)) for i, d in enumerate([100, 200, 300, 400, 1000])]
    s = score(rows, 0, 60).scorecard
    assert (s.p50_duration_ms, s.p95_duration_ms, s.p99_duration_ms) == (300, 880, 976)


def test_spec_example_figures_reproduce() -> None:
    """The spec's example: 750 graphql points and 117 core requests in 15 minutes."""
    rows = [gql(1.0, 4950), gql(899.0, 4200), rest(2.0, 4997), rest(898.0, 4880)]
    s = score(rows, 0, 900, snapshots=snapshots((4997, 4880), (4950, 4200))).scorecard
    assert s.graphql_points_per_hr == 3000.0
    assert s.rest_core_requests_per_hr == 468.0
    assert (s.bracket_delta.core, s.bracket_delta.graphql) == (117, 750)


def test_resource_window_reset_at_is_the_first_seen_and_exact_has_the_newest() -> None:
    a = score([gql(1.0, 10, reset=RESET_B), gql(2.0, 4000, reset=RESET_A)], 0, 60)
    assert a.resource_windows.graphql is not None
    assert a.resource_windows.graphql.reset_at == "2026-04-16T16:00:00.000Z"
    b = score([gql(1.0, 4000, reset=RESET_A), gql(2.0, 10, reset=RESET_B)], 0, 60)
    assert b.resource_windows.graphql is not None
    assert b.resource_windows.graphql.reset_at == "2026-04-16T15:00:00.000Z"
    assert b.insights.exact is not None and b.insights.exact.resource_windows.graphql is not None
    assert b.insights.exact.resource_windows.graphql.reset_at == "2026-04-16T16:00:00Z"


def test_window_and_warmup_metadata() -> None:
    a = score([opaque(1.0)], 120, 1020, warmup_requested="2m", duration_requested="15m")
    assert a.warmup.requested == "2m"
    assert a.warmup.actual_end == a.window.start == "2026-04-16T14:02:00.000Z"
    assert a.window.end == "2026-04-16T14:17:00.000Z"
    assert (a.window.duration_requested, a.window.duration_actual) == ("15m", "15m 0s")
    assert a.rate_limit_snapshots is None
    assert T0_MS  # the helpers' origin is 2026-04-16T14:00:00Z


def test_incomplete_runs_are_marked() -> None:
    a = score([opaque(1.0)], incomplete_reason="interrupted (Ctrl-C) after 3m 10s")
    assert a.incomplete is True
    assert a.incomplete_reason == "interrupted (Ctrl-C) after 3m 10s"
    assert score([opaque(1.0)]).incomplete is False


@pytest.mark.parametrize("measured_at", [1_776_349_000.0, "2026-04-16T14:16:40Z"])
def test_measured_at_takes_epoch_or_iso(measured_at: float | str) -> None:
    assert score([opaque(1.0)], measured_at=measured_at).measured_at == "2026-04-16T14:16:40Z"
