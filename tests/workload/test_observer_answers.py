"""What AO 0.12.6's observer reads of an answer: a guard's outcome, a GraphQL answer's
data, and whether a batch's answer is a rate limit and for how long."""

import json

import pytest

from ghbench.policies.cooldown import ao_jitter
from ghbench.workload.observer_answers import (
    Answer,
    check_runs_fingerprint,
    dig,
    graphql_data,
    guard_of,
    rate_limit_cooldown,
    tail,
)


def _json(status: int, doc: object, **headers: str) -> Answer:
    return Answer(status, headers, json.dumps(doc).encode())


def test_a_guard_is_unchanged_changed_or_failed_and_keeps_its_etag() -> None:
    same = guard_of(Answer(304, {}, b""), '"a"')
    assert (same.changed, same.not_modified, same.etag, same.had_etag) == (False, True, '"a"', True)
    new = guard_of(Answer(200, {"etag": '"b"'}, b"{}"), None)
    assert (new.changed, new.etag, new.had_etag) == (True, '"b"', False)
    for status in (500, None):
        failed = guard_of(Answer(status, {}, b""), '"a"')
        assert failed.failed and not failed.changed and failed.etag is None


def test_graphql_data_is_none_on_any_error_or_a_failed_answer() -> None:
    assert graphql_data(_json(200, {"data": {"a": 1}})) == {"a": 1}
    assert graphql_data(_json(200, {"data": {"a": 1}, "errors": [{"message": "x"}]})) is None
    assert graphql_data(_json(502, {"data": {"a": 1}})) is None
    assert graphql_data(Answer(200, {}, b"not json")) is None
    assert graphql_data(_json(200, {"data": [1]})) is None


def test_dig_and_tail_and_the_fingerprint() -> None:
    assert dig({"a": {"b": 2}}, "a", "b") == 2 and dig({"a": [1]}, "a", "b") is None
    assert tail(b"".join(b"%d\n" % i for i in range(100))).split("\n")[-1] == "99"
    runs = [{"name": "ci", "status": "completed", "conclusion": "success"}, {"name": "lint"}]
    assert check_runs_fingerprint(runs) == check_runs_fingerprint([*reversed(runs), "junk"])
    assert check_runs_fingerprint(runs) != check_runs_fingerprint(runs[:1])


@pytest.mark.parametrize(
    ("answer", "wait"),
    [
        (_json(429, {}, **{"retry-after": "90"}), 90.0),
        (
            _json(403, {"message": "API rate limit exceeded"}, **{"x-ratelimit-reset": "1300"}),
            300.0,
        ),
        (_json(403, {}, **{"x-ratelimit-remaining": "0", "x-ratelimit-reset": "1010"}), 30.0),
        (_json(403, {"message": "Resource not accessible by integration"}), None),
        (_json(404, {"message": "rate limit"}), None),
        (_json(200, {"errors": [{"message": "Something went wrong"}]}), None),
        (_json(200, {"data": {}}), None),
    ],
)
def test_a_rate_limit_and_its_hints(answer: Answer, wait: float | None) -> None:
    assert rate_limit_cooldown(answer, 1000.0) == wait


def test_a_graphql_rate_limit_carries_no_hint_so_the_default() -> None:
    error = {"type": "RATE_LIMITED", "message": "API rate limit exceeded"}
    limited = _json(200, {"errors": [error]}, **{"retry-after": "500"})
    assert rate_limit_cooldown(limited, 1000.0) == 60.0 + ao_jitter(1000.0)
