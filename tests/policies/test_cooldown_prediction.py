"""AO 0.12's cooldown, predicted by the lab and run for real (docs/policies.md): the AO
0.12.6 model (scm-observer) recorded on a GraphQL budget that runs out, the lab's
prediction with the cooldown from that recording, against the same model with the
profile's ``rate_limit_cooldown: true`` on the same budget (same seed): within 10% on
spend per hour of both budgets, and the cooldown acts in both."""

import msgspec
import pytest

from ghbench.analysis.lab import calls_of
from ghbench.policies.calls import Verdict
from ghbench.policies.cooldown import BATCH_OPERATION
from ghbench.policies.offline import run_offline
from ghbench.policies.spec import parse_policies
from ghbench.runspec.build import build_spec
from ghbench.runspec.spec import RunSpec
from ghbench.simulation.cell import CellRun, ScenarioPlay, run_cell
from ghbench.workload.profiles import PROFILES

pytestmark = pytest.mark.slow  # the model twice in virtual time (~2 s)
# 50 sessions spawned at once spend ~60 GraphQL points in 20 minutes: a budget of 30 an
# hour runs out mid-window, and AO's REST reads go on beside the refused batches
GRAPHQL_BUDGET = 30
SPEC = build_spec(
    "simulate",
    {"scenario": "S3", "topology": "T2", "sessions": 50, "profile": "ao-0.12.6",
     "duration": "20m", "warmup": "0s", "seed": 3},
    base=RunSpec(backend="simulated"),
)  # fmt: skip
PLAY = ScenarioPlay(limits=(("graphql", GRAPHQL_BUDGET),))


def _batches(run: CellRun) -> int:
    return sum(1 for row in run.rows if row.operation == BATCH_OPERATION)


def test_the_lab_predicts_aos_cooldown_within_10_percent() -> None:
    recorded = run_cell(SPEC, PLAY)  # the budget runs out; no cooldown
    assert any(row.rateLimited for row in recorded.rows)
    cooling = msgspec.structs.replace(PROFILES["ao-0.12.6"], rate_limit_cooldown=True)
    real = run_cell(msgspec.structs.replace(SPEC, policy=cooling), PLAY)
    recording = calls_of(recorded.rows)
    limits = {"graphql": float(GRAPHQL_BUDGET), "core": 5000.0}
    predicted = run_offline(
        recording.calls, parse_policies("cooldown"), limits, span_s=recording.span_s
    )
    for budget in ("graphql", "core"):
        measured = real.ledger.per_hour(budget)
        assert predicted.per_hour(budget) == pytest.approx(measured, rel=0.10), budget
    # it acted in both: the lab held batches, the model sent fewer than without it
    assert predicted.cooldowns >= 1 and predicted.verdicts[Verdict.COOLING] > 0
    assert _batches(real) < _batches(recorded)
