"""ghbench.record.contract: what the record shim and its parent agree on through the
environment: the sinks rows go to, and the user's own debug settings kept under gh's."""

from __future__ import annotations

import pytest

from ghbench.record.contract import (
    DEBUG_SENTINEL,
    ENV_USER_DEBUG,
    Sink,
    decode_sinks,
    encode_sinks,
    gh_child_env,
    user_debug_env,
)


def test_sinks_round_trip_and_bad_input_is_ignored() -> None:
    sinks = [Sink("/t/a.jsonl", "record", "/s"), Sink("/t/b.jsonl", "agents", "/s2")]
    assert decode_sinks(encode_sinks(sinks)) == sinks
    assert decode_sinks("not json") == []
    assert decode_sinks('[["only", "two"], 3, ["a", "b", "c"]]') == [Sink("a", "b", "c")]
    assert decode_sinks(None) == []


@pytest.mark.parametrize(
    "env",
    [{}, {"GH_DEBUG": "1"}, {"GH_DEBUG": "api"}, {"DEBUG": "yes"}, {"GH_DEBUG": "", "DEBUG": "1"}],
)
def test_user_debug_survives_nested_shims(env: dict[str, str]) -> None:
    first = gh_child_env(env)
    assert first["GH_DEBUG"] == DEBUG_SENTINEL and ENV_USER_DEBUG in first
    second = gh_child_env(first)  # gh ran an extension that ran gh again
    expected = (env.get("GH_DEBUG"), env.get("DEBUG"))
    assert user_debug_env(first) == expected
    assert user_debug_env(second) == expected


@pytest.mark.parametrize("saved", ["not json", '["only one"]', '{"a": 1}', "[1, 2]"])
def test_a_damaged_saved_setting_is_the_environments_own(saved: str) -> None:
    env = {"GH_DEBUG": DEBUG_SENTINEL, ENV_USER_DEBUG: saved, "DEBUG": "1"}
    expected = (None, None) if saved == "[1, 2]" else (DEBUG_SENTINEL, "1")
    assert user_debug_env(env) == expected


def test_the_childs_environment_keeps_the_rest_and_leaves_the_parents_alone() -> None:
    env = {"PATH": "/bin", "GH_DEBUG": "api"}
    child = gh_child_env(env)
    assert child["PATH"] == "/bin" and env == {"PATH": "/bin", "GH_DEBUG": "api"}
