"""GitHub's hourly budgets as the lab prices them: windows, refusals, partial copies."""

from ghbench.policies.ledger import WINDOW_S, HourlyLedger


def test_the_window_opens_with_the_first_charge_and_resets_an_hour_later() -> None:
    ledger = HourlyLedger({"graphql": 10.0, "core": 5.0})
    assert ledger.reset("graphql", 100.0) == 100.0 + WINDOW_S  # not opened yet
    assert ledger.charge(100.0, {"graphql": 4.0}, 1.0) == 1.0
    assert ledger.left(200.0) == {"graphql": 6.0, "core": 5.0}
    assert ledger.reset("graphql", 200.0) == 100.0 + WINDOW_S
    assert ledger.reset("core", 200.0) == 200.0 + WINDOW_S  # core's has not opened
    assert ledger.left(100.0 + WINDOW_S - 1) == {"graphql": 6.0, "core": 5.0}
    assert ledger.left(100.0 + WINDOW_S) == {"graphql": 10.0, "core": 5.0}


def test_a_call_over_what_is_left_is_refused_and_charged_nothing() -> None:
    ledger = HourlyLedger({"graphql": 10.0, "core": 5.0})
    assert ledger.charge(0.0, {"graphql": 8.0}, 1.0) == 1.0
    assert ledger.charge(1.0, {"graphql": 3.0, "core": 1.0}, 1.0) < 1.0
    # copies refused in part: of 4 copies of a 1-point call, the 2 that fit go
    ledger = HourlyLedger({"graphql": 10.0, "core": 5.0})
    ledger.charge(0.0, {"graphql": 8.0}, 1.0)
    assert ledger.charge(1.0, {"graphql": 1.0, "core": 1.0}, 4.0) == 2.0
    assert ledger.left(2.0) == {"graphql": 0.0, "core": 3.0}


def test_the_scarcest_budget_decides_and_a_refused_call_opens_no_window() -> None:
    ledger = HourlyLedger({"graphql": 10.0, "core": 0.0})
    assert ledger.charge(50.0, {"graphql": 1.0, "core": 1.0}, 1.0) == 0.0
    assert ledger.left(60.0) == {"graphql": 10.0, "core": 0.0}
    assert ledger.reset("graphql", 60.0) == 60.0 + WINDOW_S  # still closed
    assert ledger.charge(70.0, {"graphql": 0.0, "core": 0.0}, 3.0) == 3.0  # free: all go
