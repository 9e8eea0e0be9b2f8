"""The core's contract with the GraphQL layer (``graphql_contract.py``), on plain values:
the cost rules, ``RateLimited`` and the known-answer memo, forgotten all at once when
full."""

from __future__ import annotations

from ghbench.emulator.graphql_contract import (
    COST_RULES,
    DEFAULT_COST_RULE,
    BucketView,
    KnownAnswer,
    KnownAnswers,
    RateLimited,
)


def test_the_cost_rules() -> None:
    assert COST_RULES == ("page-size", "every-connection")
    assert DEFAULT_COST_RULE in COST_RULES


def test_rate_limited_names_its_bucket() -> None:
    bucket = BucketView("graphql", 5000, 0, 5000, 1_700_000_000)
    refused = RateLimited(bucket)
    assert str(refused) == "graphql rate limit exceeded"
    assert refused.bucket is bucket


def test_known_answers_by_body_viewer_and_rule_until_full() -> None:
    memo = KnownAnswers(size=2)
    one = KnownAnswer(changes=3, cost=1, operation="Q", payload=b"{}")
    refused = KnownAnswer(changes=3, cost=7, operation=None, payload=None)
    memo.put((b"q", 1, "page-size"), one)
    memo.put((b"q", 2, "page-size"), refused)
    assert memo.get((b"q", 1, "page-size")) is one
    assert memo.get((b"q", 2, "page-size")) is refused
    assert memo.get((b"q", 1, "every-connection")) is None
    memo.put((b"r", 1, "page-size"), refused)  # a put into a full memo starts it over
    assert memo.get((b"q", 1, "page-size")) is None
    assert memo.get((b"q", 2, "page-size")) is None
    assert memo.get((b"r", 1, "page-size")) is refused
