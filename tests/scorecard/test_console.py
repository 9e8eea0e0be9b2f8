"""Console rendering: the spec's layout to the character, colour bands, golden files."""

from __future__ import annotations

import os
from pathlib import Path

import msgspec
import pytest

from ghbench.artifacts.models import (
    BracketDelta,
    ResourceWindow,
    ResourceWindows,
    Scorecard,
    ScorecardArtifact,
    Warmup,
    Window,
)
from ghbench.scorecard import render_console, use_color
from ghbench.scorecard.console import GREEN, RED, RESET, YELLOW, bar_color

from .helpers import opaque, rest, score, snapshots

GOLDEN = Path(__file__).resolve().parents[1] / "golden"

# The spec's "Console Output" block. Its REST bar has 19 cells, a slip in the spec
# (every bar is 20 cells); the one difference is marked below.
SPEC_CONSOLE = """\
═══════════════════════════════════════════════════════════
  GH Rate-Limit Benchmark
  quiet-steady.single-repo.20 | ad10dbf7 | feat/gh-rate-limiting
  2026-04-16T14:32:02Z | warmup 2m | measured 15m | 20 sessions
═══════════════════════════════════════════════════════════

  Total GH calls:          1,200
  Calls/min:                80.0

  GraphQL points/hr:       3,000  / 5,000  ████████████░░░░░░░░  60%
  REST core requests/hr:     120  / 5,000  █░░░░░░░░░░░░░░░░░░░   2%

  graphql-batch count:       180
  guard-pr-list 304s:        170  (94.4%)
  guard-pr-list errors:       10

  Opaque calls:              840  (70.0%)
  Bracket delta (core):      117
  Bracket delta (graphql):   750

  p50 / p95 / p99:     1,014 / 1,400 / 1,800 ms

  Trace:     experiments/out/gh-trace-bench-1776400000.jsonl
  Scorecard: experiments/out/scorecard-quiet-steady.single-repo.20-1776400000.json
═══════════════════════════════════════════════════════════
"""


def spec_artifact() -> ScorecardArtifact:
    return ScorecardArtifact(
        scenario_id="quiet-steady.single-repo.20",
        git_sha="ad10dbf7c0ffee",
        branch="feat/gh-rate-limiting",
        measured_at="2026-04-16T14:32:02Z",
        session_count=20,
        warmup=Warmup(requested="2m", actual_end="2026-04-16T14:17:02.000Z"),
        window=Window(
            start="2026-04-16T14:17:02.000Z",
            end="2026-04-16T14:32:02.000Z",
            duration_requested="15m",
            duration_actual="15m 0s",
        ),
        resource_windows=ResourceWindows(
            graphql=ResourceWindow(reset_at="2026-04-16T15:17:00Z", straddled=False),
            core=ResourceWindow(reset_at="2026-04-16T14:49:03Z", straddled=False),
        ),
        scorecard=Scorecard(
            total_calls=1200,
            calls_per_min=80.0,
            graphql_points_per_hr=3000,
            rest_core_requests_per_hr=120,
            graphql_batch_count=180,
            guard_pr_list_304_count=170,
            guard_pr_list_error_count=10,
            guard_pr_list_304_rate=0.944,
            opaque_call_count=840,
            opaque_call_pct=0.70,
            bracket_delta=BracketDelta(core=117, graphql=750),
            p50_duration_ms=1014,
            p95_duration_ms=1400,
            p99_duration_ms=1800,
            benchmark_control_calls=2,
        ),
        trace="experiments/out/gh-trace-bench-1776400000.jsonl",
    )


SPEC_PATHS = {
    "Trace": "experiments/out/gh-trace-bench-1776400000.jsonl",
    "Scorecard": "experiments/out/scorecard-quiet-steady.single-repo.20-1776400000.json",
}


def test_the_spec_block_is_reproduced_character_for_character() -> None:
    text = render_console(spec_artifact(), color=False, paths=SPEC_PATHS)
    assert text.startswith(SPEC_CONSOLE)
    assert all(len(line) == 59 for line in SPEC_CONSOLE.splitlines() if line.startswith("═"))


def test_after_the_spec_block_come_the_insights() -> None:
    text = render_console(spec_artifact(), color=False, paths=SPEC_PATHS)
    rest_ = text[len(SPEC_CONSOLE) :]
    assert "Insights" in rest_ and "Peak calls in flight" in rest_
    assert "\x1b[" not in text


@pytest.mark.parametrize(
    ("percent", "color"),
    [(0.0, GREEN), (49.99, GREEN), (50.0, YELLOW), (80.0, YELLOW), (80.01, RED), (250.0, RED)],
)
def test_bar_colour_bands(percent: float, color: str) -> None:
    assert bar_color(percent) == color


def _bar_line(text: str, label: str) -> str:
    return next(line for line in text.splitlines() if line.lstrip().startswith(label))


def test_bars_fill_round_show_any_spend_and_cap_at_twenty_cells() -> None:
    art = spec_artifact()
    cases = {1.0: 1, 2_500.0: 10, 4_999.0: 20, 12_000.0: 20, 0.0: 0}
    for value, cells in cases.items():
        sc = msgspec.structs.replace(art.scorecard, graphql_points_per_hr=value)
        line = _bar_line(
            render_console(msgspec.structs.replace(art, scorecard=sc), color=False), "GraphQL"
        )
        assert line.count("█") == cells
        assert line.count("█") + line.count("░") == 20


def test_colour_wraps_only_the_bar_when_asked() -> None:
    text = render_console(spec_artifact(), color=True, paths=SPEC_PATHS)
    assert f"{YELLOW}████████████░░░░░░░░  60%{RESET}" in _bar_line(text, "GraphQL")
    assert f"{GREEN}█" in _bar_line(text, "REST core")
    plain = text.replace(YELLOW, "").replace(GREEN, "").replace(RESET, "")
    assert plain == render_console(spec_artifact(), color=False, paths=SPEC_PATHS)


@pytest.mark.parametrize(
    ("tty", "env", "expected"),
    [
        (True, {}, True),
        (False, {}, False),
        (True, {"NO_COLOR": "1"}, False),
        (True, {"NO_COLOR": ""}, True),  # no-color.org: only a non-empty value counts
    ],
)
def test_use_color(tty: bool, env: dict[str, str], expected: bool) -> None:
    assert use_color(tty, env) is expected


def test_null_figures_render_as_n_a_and_estimates_are_marked() -> None:
    rows = [opaque(1.0), rest(2.0, 4990), rest(3.0, 4980, reset=1_776_355_200)]
    a = score(rows, 0, 900, snapshots=snapshots(graphql=(4000, 3900)))
    text = render_console(a, color=False)
    assert "(estimated)" in _bar_line(text, "GraphQL points/hr")
    assert "(estimated)" not in _bar_line(text, "REST core")
    assert _bar_line(text, "Bracket delta (core)").endswith("n/a")
    assert "GraphQL points/hr (estimated): no row carried" in text
    assert "core: the window straddled a rate-limit reset" in text


def test_zero_length_window_and_incomplete_runs_are_called_out() -> None:
    a = score([opaque(5.0)], 5, 5, incomplete_reason="the orchestrator exited (code 1)")
    text = render_console(a, color=False)
    assert "! incomplete run: the orchestrator exited (code 1)" in text
    assert "! the window is zero-length, so every rate reads 0" in text
    assert _bar_line(text, "Calls/min").endswith(" 0.0")  # AO writes 0 without a window


def _golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("GHBENCH_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{name} changed; see tests/golden/README.md"


def measure_like_artifact() -> ScorecardArtifact:
    """A measure-mode run with sessions, snapshots, a core straddle and estimated GraphQL."""
    rows = [
        rest(float(i), 60 - i, status=200 if i % 3 == 0 else 304, sessionId=f"ta-{i % 2}")
        for i in range(40)
    ]
    rows += [rest(100.0 + i, 4999 - i, reset=1_776_355_200, sessionId="ta-1") for i in range(20)]
    rows += [opaque(200.0 + i, durationMs=900.0 + i) for i in range(30)]
    return score(
        rows,
        0,
        900,
        snapshots=snapshots(
            core=(60, 4980), graphql=(4700, 4400), reset=(1_776_351_600, 1_776_355_200)
        ),
        warmup_requested="2m",
        duration_requested="15m",
        control_calls=2,
        session_count=2,
        git_sha="0123456789abcdef",
        branch="main",
        trace_path="out/gh-trace-bench-1776348900.jsonl",
    )


def test_golden_console_measure_mode_plain_and_tty() -> None:
    a = measure_like_artifact()
    paths = {
        "Trace": a.trace or "",
        "Scorecard": "out/scorecard-test.single-repo.1-1776348900.json",
    }
    _golden("console-measure.txt", render_console(a, color=False, paths=paths))
    _golden("console-measure.tty.txt", render_console(a, color=True, paths=paths))
