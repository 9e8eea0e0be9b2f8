"""Hand-made calls for the policies' tests: one status read of session s1 in o/r, one
GraphQL point, unless told otherwise."""

from collections.abc import Callable

import pytest

from ghbench.policies.calls import Call

MakeCall = Callable[..., Call]


def _call(at: float, **kw: object) -> Call:
    fields: dict[str, object] = {
        "session": "s1", "key": "k", "repo": "o/r", "command": "gh.pr.checks",
        "graphql": 1.0, "core": 0.0,
    }  # fmt: skip
    fields.update(kw)
    return Call(at=at, **fields)  # type: ignore[arg-type]


@pytest.fixture
def call() -> MakeCall:
    return _call
