"""The calibration table of docs/calibration.md: the model's quiet-steady figures beside AO's."""

from __future__ import annotations

from pathlib import Path

import pytest
from tooling.against_ao_doc import NOTES_SECTION, generated_section
from tooling.calibration import AO_MEASURED, calibrate, markdown_table

from ghbench.workload.profiles import PROFILE_NAMES

DOC = Path(__file__).resolve().parents[2] / "docs" / "calibration.md"


def test_bench_era_at_five_sessions_polls_as_the_doc_derives() -> None:
    (point,) = calibrate((5,), profile="bench-era", warmup_s=60.0, duration_s=600.0)
    # quiet steady: nothing changes, so every guard answers 304 and no tick overruns
    assert point.guard_304_rate == 1.0
    assert point.cycle_s == pytest.approx(30.0)
    # R + P guards a tick, and every 4th or 5th tick per session the review call and
    # the thread query: 2 * (1 + N) guards a minute, and 2 * N calls every 2 to 2.5 min
    # (docs/calibration.md): 16 to 17 at N = 5
    assert 2 * (1 + 5) + 2 * 5 / 2.5 <= point.calls_per_min <= 2 * (1 + 5) + 2 * 5 / 2
    assert point.p50_ms < point.p99_ms


def test_the_table_puts_ao_beside_bench_era_only() -> None:
    points = calibrate((5,), profile="bench-era", warmup_s=60.0, duration_s=300.0)
    points += calibrate((5,), profile="ao-main-60e8c881", warmup_s=60.0, duration_s=300.0)
    lines = markdown_table(points).splitlines()
    bench, head = lines[2], lines[3]
    calls, _, _, p99 = AO_MEASURED[5]
    assert bench.startswith("| bench-era | 5 |") and f"/ {calls:g} |" in bench
    assert f"/ {p99:g} |" in bench
    assert head.startswith("| ao-main-60e8c881 | 5 |") and "/ — |" in head


# coverage's line tracer triples this test's CPU (it replays the model or generates
# hundreds of requests); the code it runs is covered by the file's other tests
@pytest.mark.no_cover
@pytest.mark.slow
def test_the_docs_table_is_what_the_model_gives_today() -> None:
    """docs/calibration.md shows the current model's figures (seed 0); when the model or
    the emulator changes them, regenerate the table with bench/bench_simulate.py
    --calibrate and check the prose below it still holds."""
    points = []
    for profile in PROFILE_NAMES:
        points += calibrate(profile=profile, seed=0)
    assert generated_section(DOC.read_text(), NOTES_SECTION) == markdown_table(points)
