"""ghbench.artifacts.jsontext: what ``--json`` prints is strict JSON, whatever numbers
it holds (a non-finite one is null)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ghbench.artifacts.jsontext import strict_json

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=20,
)


def _strict(text: str) -> Any:
    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


@settings(max_examples=50, deadline=None)
@given(values)
def test_any_value_prints_as_json_every_parser_reads(value: Any) -> None:
    _strict(strict_json(value))


def test_non_finite_numbers_are_null_where_they_stand() -> None:
    value = {"a": float("inf"), "b": [1.5, float("nan"), (float("-inf"),)], "c": 2}
    assert _strict(strict_json(value)) == {"a": None, "b": [1.5, None, [None]], "c": 2}
    assert strict_json({"x": 1}, indent=0) == '{\n"x": 1\n}'
