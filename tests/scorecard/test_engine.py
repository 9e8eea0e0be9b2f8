"""The engine's exact figures against a plain-Python reading of the spec's definitions.

The oracle below is written from the spec's metric table only, row by row with no
numpy, so a vectorisation mistake in the engine cannot hide in both. It checks the
counts in ``scorecard`` and the unrounded rates in ``insights.exact``; the rounded
spec fields are held to AO's own harness in ``test_ao_compat.py``.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import msgspec
import pytest

from ghbench.data import example_trace_path
from ghbench.scorecard import build_scorecard_artifact
from ghbench.trace.reader import read_trace

WINDOWS = [
    ("2026-04-16T14:17:00Z", "2026-04-16T14:32:00Z"),  # after warmup
    ("2026-04-16T14:15:00Z", "2026-04-16T14:32:00Z"),  # everything
    ("2026-04-16T14:20:00Z", "2026-04-16T14:28:00Z"),  # across the core reset
]


def _ms(iso: str) -> int:
    return round(datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() * 1000)


def _pct(values: list[float], q: float) -> float:
    xs = sorted(values)
    h = (len(xs) - 1) * q / 100
    lo = int(h)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (h - lo) * (xs[hi] - xs[lo])


def oracle(rows: list[dict[str, Any]], start: int, end: int) -> dict[str, Any]:
    win = [
        r
        for r in rows
        if start <= _ms(r["timestamp"]) <= end and r.get("component") != "benchmark-control"
    ]
    hours = (end - start) / 3_600_000
    out: dict[str, Any] = {"totalCalls": len(win), "callsPerMin": len(win) / (hours * 60)}
    for resource, key in (("graphql", "graphqlPointsPerHr"), ("core", "restCoreRequestsPerHr")):
        groups: dict[int, list[tuple[int, int, int]]] = {}
        for i, r in enumerate(win):
            if (
                r.get("rateLimitResource") == resource
                and r.get("rateLimitRemaining") is not None
                and r.get("rateLimitReset") is not None
            ):
                groups.setdefault(r["rateLimitReset"], []).append(
                    (_ms(r["timestamp"]), i, r["rateLimitRemaining"])
                )
        total = 0
        for members in groups.values():
            members.sort()
            total += max(0, members[0][2] - members[-1][2])
        out[key] = total / hours if groups else None
    guard = [r for r in win if r.get("operation") == "gh.api.guard-pr-list"]
    n304 = sum(1 for r in guard if r.get("httpStatus") == 304)
    ok = sum(1 for r in guard if r.get("httpStatus") != 304 and r.get("ok") is True)
    err = sum(1 for r in guard if r.get("httpStatus") != 304 and r.get("ok") is False)
    out["guardPrList304Count"] = n304
    out["guardPrListErrorCount"] = err
    out["guardPrList304Rate"] = n304 / (n304 + ok + err) if guard else None
    out["graphqlBatchCount"] = sum(1 for r in win if r.get("operation") == "gh.api.graphql-batch")
    opaque = sum(1 for r in win if r.get("httpStatus") is None)
    out["opaqueCallCount"] = opaque
    out["opaqueCallPct"] = opaque / len(win)
    durations = [float(r["durationMs"]) for r in win if r.get("durationMs") is not None]
    for q in (50, 95, 99):
        out[f"p{q}DurationMs"] = _pct(durations, q)
    return out


@pytest.mark.parametrize(("start", "end"), WINDOWS)
def test_engine_matches_the_oracle_on_the_example_trace(start: str, end: str) -> None:
    path = example_trace_path()
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    art = build_scorecard_artifact(
        read_trace(path),
        window_start_ms=_ms(start),
        window_end_ms=_ms(end),
        scenario_id="example",
        measured_at=0.0,
    )
    got = msgspec.to_builtins(art.scorecard) | msgspec.to_builtins(art.insights.exact)
    expected = oracle(rows, _ms(start), _ms(end))
    assert {k: got[k] for k in expected} == pytest.approx(expected)
