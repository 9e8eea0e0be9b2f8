"""``parse_rate_limit``: GitHub's ``/rate_limit`` body as a snapshot; every bucket with a
``limit``, counts it leaves out as 0, anything else (a body that is not an object,
a bucket without a limit) left out."""

from __future__ import annotations

from typing import Any

import pytest

from ghbench.ratelimit import Bucket, RateLimitSnapshot, parse_rate_limit

BODY = {
    "resources": {
        "core": {"limit": 5000, "used": 12, "remaining": 4988, "reset": 1776351600},
        "graphql": {"limit": 5000, "used": 0, "remaining": 5000, "reset": 1776351601},
        "search": {"limit": 30, "remaining": 30},  # no used, no reset
        "code_search": {"used": 3},  # no limit: not a bucket
        "broken": "5000",
    },
    "rate": {"limit": 5000, "used": 12, "remaining": 4988, "reset": 1776351600},
}


def test_every_bucket_with_a_limit_and_its_missing_counts_as_0() -> None:
    snap = parse_rate_limit(BODY, captured_at=1776348000.5)
    assert snap.captured_at == 1776348000.5
    assert sorted(snap.resources) == ["core", "graphql", "search"]
    assert snap.get("core") == Bucket(limit=5000, remaining=4988, used=12, reset=1776351600)
    assert snap.get("search") == Bucket(limit=30, remaining=30, used=0, reset=0)
    assert snap.get("code_search") is None and snap.get("rate") is None


def test_only_the_buckets_named_when_names_are_given() -> None:
    snap = parse_rate_limit(BODY, 0.0, names=("graphql", "nothing"))
    assert list(snap.resources) == ["graphql"]


@pytest.mark.parametrize("body", [None, [], "rate limited", {}, {"resources": None}])
def test_a_body_without_resources_is_an_empty_snapshot(body: Any) -> None:
    assert parse_rate_limit(body, 7.0) == RateLimitSnapshot(captured_at=7.0, resources={})
