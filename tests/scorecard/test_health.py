"""The run's health warnings, from hand-made rows whose every gap and duration can be
checked by eye: each fires past its bound and not at it, with its figures and what to
do; lost rows make the run incomplete and say so."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import msgspec
import pytest

from ghbench.artifacts.models import ScorecardArtifact, encode_artifact
from ghbench.scorecard import build_scorecard_artifact, render_console
from ghbench.scorecard.health import ACTIONS, HealthBounds, RunHealth, incomplete_reason
from ghbench.timefmt import iso_ms
from ghbench.trace.frame import TraceFrame
from ghbench.trace.schema import CONTROL_COMPONENT, TraceRow
from ghbench.trace.writer import TraceLoss

from .helpers import T0, T0_MS, row

WINDOW_S = 60  # the window: T0 to T0 + 60 s; the poll interval 5 s, so a gap over 15 s
POLL_S = 5.0
TRACE = "/out/gh-trace-bench-1.jsonl"


def _card(
    rows: Sequence[TraceRow],
    *,
    losses: Sequence[TraceLoss] = (),
    snapshot_delays: Mapping[str, float] | None = None,
    full_disk: Sequence[float] = (),
    bounds: HealthBounds | None = None,
) -> ScorecardArtifact:
    health = RunHealth(
        poll_interval_s=POLL_S,
        losses=losses,
        snapshot_delays=snapshot_delays or {},
        full_disk=full_disk,
        bounds=bounds or HealthBounds(),
    )
    card = build_scorecard_artifact(
        TraceFrame.from_rows(rows),
        window_start_ms=T0_MS,
        window_end_ms=T0_MS + WINDOW_S * 1000,
        scenario_id="x",
        measured_at=T0 + WINDOW_S,
        health=health,
    )
    # a minute's window is short for hourly figures: that warning is tested below
    short, *health_only = card.warnings
    assert short.kind == "short-window"
    return msgspec.structs.replace(card, warnings=health_only)


def _steady() -> list[TraceRow]:
    """A call every 5 s through the window, each 100 ms long."""
    return [row(t) for t in range(0, WINDOW_S + 1, 5)]


def test_a_healthy_run_has_no_warnings() -> None:
    card = _card(_steady(), snapshot_delays={"before": 0.2, "after": 0.3})
    assert card.warnings == [] and not card.incomplete


def test_a_gap_over_the_bound_is_reported_from_where_it_began() -> None:
    # calls at 0..20 s, then nothing until 40 s (a 20 s gap), then every 5 s; and the
    # last call at 45 s leaves the window's last 15 s empty: at the bound, not over it
    rows = [row(t) for t in (0, 5, 10, 15, 20, 40, 45)]
    (gap,) = _card(rows).warnings
    assert (gap.kind, gap.count, gap.seconds) == ("trace-gap", 1, 20.0)
    assert gap.at == iso_ms(T0 + 20)
    assert "more than 3 poll intervals of 5 s (the longest 20.0 s" in gap.message
    assert gap.action == ACTIONS["trace-gap"]


def test_the_window_edges_bound_a_gap() -> None:
    (gap,) = _card([row(30)]).warnings  # nothing for 30 s on either side
    assert (gap.count, gap.seconds, gap.at) == (2, 30.0, iso_ms(T0))


def test_calls_that_ran_past_the_bound_are_hung_even_across_the_windows_end() -> None:
    rows = [
        *_steady(),
        row(30, durationMs=10_000.0),  # at the bound: not hung
        row(31, durationMs=12_500.0),
        row(WINDOW_S + 8, durationMs=20_000.0),  # began 12 s before the end, hung across it
        row(WINDOW_S + 30, durationMs=20_000.0),  # began after the end
        row(32, durationMs=60_000.0, component=CONTROL_COMPONENT),  # the harness's own
    ]
    (hung,) = _card(rows).warnings
    assert (hung.kind, hung.count, hung.seconds) == ("hung-calls", 2, 20.0)
    assert hung.at == iso_ms(T0 + WINDOW_S - 12)
    assert hung.message.startswith("2 call(s) ran longer than 10 s (the longest 20.0 s")


@pytest.mark.parametrize(("which", "edge"), [("before", 0), ("after", WINDOW_S)])
def test_a_late_snapshot_says_which_and_by_how_much(which: str, edge: int) -> None:
    card = _card(_steady(), snapshot_delays={which: 7.25, "other": 99.0})
    (late,) = card.warnings
    assert (late.kind, late.seconds, late.at) == ("late-snapshot", 7.25, iso_ms(T0 + edge))
    assert late.message.startswith(f"the {which}-snapshot answered 7.2 s after the window's")
    assert _card(_steady(), snapshot_delays={which: 5.0}).warnings == []  # at the bound


def test_the_bounds_are_the_runs() -> None:
    bounds = HealthBounds(hung_call_s=0.05, gap_polls=0.5, late_snapshot_s=0.1)
    card = _card(_steady(), snapshot_delays={"after": 0.2}, bounds=bounds)
    assert [w.kind for w in card.warnings] == ["hung-calls", "trace-gap", "late-snapshot"]


def test_lost_rows_make_the_run_incomplete_with_the_count_per_trace() -> None:
    agents = "/out/gh-trace-agents-1.jsonl"
    losses = [
        TraceLoss(trace=TRACE, rows=3, reason="No space left on device"),
        TraceLoss(trace=agents, rows=1, reason="No space left on device"),
        TraceLoss(trace=TRACE, rows=2, reason="No space left on device"),  # after a restart
    ]
    card = _card(_steady(), losses=losses, full_disk=[T0 + 10, T0 + 11, T0 + 14])
    assert card.incomplete
    assert card.incomplete_reason == (
        f"6 trace row(s) could not be written (No space left on device: {TRACE};"
        f" No space left on device: {agents})"
    )
    lost = [(w.count, w.message) for w in card.warnings if w.kind == "rows-lost"]
    assert lost == [
        (5, f"5 row(s) could not be written to {TRACE} (No space left on device)"),
        (1, f"1 row(s) could not be written to {agents} (No space left on device)"),
    ]
    (full,) = [w for w in card.warnings if w.kind == "disk-full"]
    assert (full.count, full.seconds, full.at) == (3, 4.0, iso_ms(T0 + 10))
    console = render_console(card, color=False)
    assert "! incomplete run: 6 trace row(s) could not be written" in console
    assert "! rows-lost: 5 row(s) could not be written to" in console
    # strict JSON, every warning typed
    data = json.loads(encode_artifact(card))
    assert [w["kind"] for w in data["warnings"]] == ["rows-lost", "rows-lost", "disk-full"]
    assert all(w["action"] for w in data["warnings"])


def test_another_reason_keeps_its_place_before_the_lost_rows() -> None:
    loss = TraceLoss(trace=TRACE, rows=1, reason="File too large")
    assert incomplete_reason("interrupted (SIGINT) after 5s of 1m", [loss]) == (
        f"interrupted (SIGINT) after 5s of 1m; 1 trace row(s) could not be written"
        f" (File too large: {TRACE})"
    )
    assert incomplete_reason("cut short", []) == "cut short"
    assert incomplete_reason(None, []) is None


def test_report_mode_has_no_health_to_watch() -> None:
    assert [w.kind for w in _report(WINDOW_S).warnings] == ["short-window"]


def test_a_window_under_ten_minutes_says_its_hourly_figures_are_extrapolated() -> None:
    (short,) = _report(WINDOW_S).warnings
    assert (short.kind, short.seconds, short.at) == ("short-window", 60.0, iso_ms(T0))
    assert short.message == (
        "hourly figures are extrapolated from a 1m 0s window (under 10m 0s): read them as rough"
    )
    assert _report(600).warnings == []  # ten minutes is not short


def _report(window_s: int) -> ScorecardArtifact:
    return build_scorecard_artifact(
        TraceFrame.from_rows([row(0), row(50)]),
        window_start_ms=T0_MS,
        window_end_ms=T0_MS + window_s * 1000,
        scenario_id="x",
        measured_at=T0 + window_s,
    )
