"""Pacing on a real run: the workload model (AO's pre-b1 build, which spends GraphQL on
every poll) against the emulator in virtual time, 40 sessions on a 1,000-point GraphQL
budget for 15 minutes. Polling every 2 s burns two thirds of the budget in the reset
window's first 10 minutes, runs out before the run ends and gets the ``front-loaded``
warning; polling every 60 s spends at a pace that fits the hour (over 900 points an hour,
most of the budget: the fleet's spend does not all scale with the poll interval) and
does not."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from ghbench.budgets import Budget
from ghbench.runspec.spec import Duration
from ghbench.simulation.simulate import simulate_cell
from specs import model_spec

GRAPHQL = 1000


def _run(tmp_path: Path, tick_s: float) -> dict[str, Any]:
    spec = model_spec(
        sessions=40,
        profile="ao-bench-1e73a505",
        warmup_s=30.0,
        duration_s=900.0,
        budget=Budget(kind="custom", graphql=GRAPHQL),
        tick=Duration.of(tick_s),
    )
    out = tmp_path / f"tick-{tick_s:g}"
    result = simulate_cell(msgspec.structs.replace(spec, out_dir=out))
    doc: dict[str, Any] = json.loads(result.scorecard_path.read_text())
    return doc


@pytest.mark.slow
def test_a_fleet_polling_every_2s_is_front_loaded_and_every_60s_is_not(tmp_path: Path) -> None:
    fast = _run(tmp_path, 2.0)
    paced = fast["insights"]["pacing"]["graphql"]
    (window,) = paced["windows"]
    assert window["limit"] == GRAPHQL
    assert window["shareFirst10Min"] >= 0.5
    (warning,) = [w for w in fast["warnings"] if w["kind"] == "front-loaded"]
    assert (warning["budget"], warning["at"]) == ("graphql", window["start"])
    assert f"of {GRAPHQL:,} (" in warning["message"]
    # it ran out inside the run, and the minutes refused are the rate-limited warning's
    (limited,) = [w for w in fast["warnings"] if w["kind"] == "rate-limited"]
    assert limited["budget"] == "graphql" and window["exhaustedAfterSeconds"] is not None
    assert window["refusedMinutes"] * 60 == pytest.approx(limited["seconds"], abs=0.06)

    slow = _run(tmp_path, 60.0)
    (window,) = slow["insights"]["pacing"]["graphql"]["windows"]
    assert window["shareFirst10Min"] < 0.5 and window["exhaustedAfterSeconds"] is None
    assert not [w for w in slow["warnings"] if w["kind"] in ("front-loaded", "rate-limited")]
    # it paces: most of the hour's budget, spent evenly, fits
    per_hour = slow["insights"]["consumption"]["graphql"]["perHr"]
    assert GRAPHQL * 0.8 < per_hour <= GRAPHQL
