"""The scenario trigger table and the review burst's plan, against the runbook."""

from __future__ import annotations

import random

from ghbench.harness.window import Measurement
from ghbench.matrix.triggers import comment_burst_plan, scenario_triggers


class _Hooks:
    def restart(self, measured: Measurement, hard: bool) -> None:
        return None

    def spawn_all(self, measured: Measurement) -> None:
        return None

    def comment_burst(self, measured: Measurement) -> None:
        return None

    def start_dashboard(self, measured: Measurement) -> None:
        return None

    def stop_dashboard(self, measured: Measurement | None = None) -> None:
        return None


def test_trigger_offsets_follow_the_runbook() -> None:
    at = {s: [t.at_s for t in scenario_triggers(s, 600.0, _Hooks())] for s in ("S1", "S2", "S5")}
    assert at == {"S1": [0.0], "S2": [], "S5": [300.0]}
    s6 = scenario_triggers("S6", 600.0, _Hooks())
    assert [t.at_s for t in s6] == [0.0, 600.0]


def test_comment_burst_is_5_to_10_comments_on_half_the_prs() -> None:
    prs = [("o/a", n) for n in range(1, 8)] + [("o/b", n) for n in range(1, 4)]
    plan = comment_burst_plan(prs, random.Random(3))
    assert len(plan) == 5
    assert all(5 <= count <= 10 for _, _, count in plan)
    assert len({(r, n) for r, n, _ in plan}) == 5
    assert plan == comment_burst_plan(prs, random.Random(3))
    assert comment_burst_plan([("o/a", 1)], random.Random(0))[0][:2] == ("o/a", 1)
