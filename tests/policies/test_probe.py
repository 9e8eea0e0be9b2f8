"""The ETag probes before a status read, as the lab prices them offline."""

from collections.abc import Callable

from ghbench.policies.calls import Call, Verdict
from ghbench.policies.ledger import TOKEN_LIMITS as LIMITS
from ghbench.policies.offline import run_offline
from ghbench.policies.probe import PROBES, Probe
from ghbench.policies.spec import parse_policies

MakeCall = Callable[..., Call]  # tests/policies/conftest.py: the call fixture


def test_the_probes_reuse_an_answer_until_the_repo_is_written(call: MakeCall) -> None:
    calls = [call(0.0), call(10.0), call(20.0, key="w", write=True, command="gh.pr.comment"),
             call(30.0)]  # fmt: skip
    tally = run_offline(calls, parse_policies("probe"), LIMITS, span_s=30.0)
    assert tally.verdicts[Verdict.UNCHANGED] == 1
    # the first read and the one after the write: the read, and its probes' 200s
    assert tally.spent == {"graphql": 3.0, "core": 4.0}


def test_only_status_reads_are_probed(call: MakeCall) -> None:
    assert Probe.applies(call(0.0)) and Probe.applies(call(0.0, command="gh.pr.view"))
    assert not Probe.applies(call(0.0, command="gh.issue.view"))
    assert not Probe.applies(call(0.0, write=True))


def test_a_sessions_probes_cost_again_only_after_its_repo_changed(call: MakeCall) -> None:
    probe = Probe()
    assert not probe.unchanged(call(0.0))  # never answered
    assert probe.charged(call(0.0)) == PROBES  # never probed: 200s
    assert probe.charged(call(5.0, key="other")) == 0  # its ETags are fresh: 304s
    assert probe.charged(call(5.0, session="s2")) == PROBES  # another session's own
    probe.answered(call(0.0), 1.0)
    assert probe.unchanged(call(6.0))
    probe.wrote("o/r", 7.0)
    assert not probe.unchanged(call(8.0))
    assert probe.charged(call(8.0)) == PROBES
    probe.wrote("o/elsewhere", 9.0)  # another repository's write changes nothing here
    probe.answered(call(8.0), 8.0)
    assert probe.unchanged(call(10.0)) and probe.charged(call(10.0)) == 0
