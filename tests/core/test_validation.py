"""ghbench.validation: a struct's constraints, and errors that name the key and what is allowed."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
import pytest

from ghbench.errors import ConfigError
from ghbench.validation import convert

Repo = Annotated[str, msgspec.Meta(pattern=r"^[a-z]+/[a-z]+$", description="owner/name")]


class Item(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    id: str
    size: Annotated[int, msgspec.Meta(ge=1)] = 1


class Doc(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    kind: Literal["a", "b"] = "a"
    ratio: Annotated[float, msgspec.Meta(gt=0)] = 1.0
    repos: list[Repo] = msgspec.field(default_factory=list)
    items: tuple[Item, ...] = ()
    named: dict[str, Item] = msgspec.field(default_factory=dict)
    note: str | None = None


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "c"}, "f.yaml: kind: 'c' is not one of a, b"),
        ({"ratio": 0}, "f.yaml: ratio: must be more than 0, got 0"),
        ({"repos": ["ok/ok", "Nope"]}, "f.yaml: repos[1]: 'Nope' is not owner/name"),
        ({"items": [{"id": "x", "size": 0}]}, "f.yaml: items[0].size: must be at least 1, got 0"),
        ({"items": [{}]}, "f.yaml: items[0].id is required"),
        (
            {"items": [{"id": "x", "colour": 1}]},
            "f.yaml: unknown key items[0].colour; known keys: id, size",
        ),
        ({"named": {"k": {"id": "x"}, "j": {"id": 3}}}, "f.yaml: named.j.id: expected str, got 3"),
        ({"note": 5}, "f.yaml: note: expected str or null, got 5"),
        (
            {"extra": 1},
            "f.yaml: unknown key extra; known keys: kind, ratio, repos, items, named, note",
        ),
    ],
)
def test_errors_name_the_file_the_key_and_what_is_allowed(
    data: dict[str, Any], message: str
) -> None:
    with pytest.raises(ConfigError) as info:
        convert(data, Doc, source="f.yaml")
    assert str(info.value) == message


def test_a_prefix_places_the_keys_where_they_sit_in_the_file() -> None:
    with pytest.raises(
        ConfigError, match=r"^f\.yaml: policy\.items\[0\]\.size: must be at least 1"
    ):
        convert({"items": [{"id": "x", "size": -2}]}, Doc, source="f.yaml", prefix="policy")
    with pytest.raises(
        ConfigError, match=r"^f\.yaml: unknown key policy\.bogus; known keys: kind,"
    ):
        convert({"bogus": 1}, Doc, source="f.yaml", prefix="policy")


def test_valid_data_converts() -> None:
    doc = convert({"kind": "b", "repos": ["a/b"], "items": [{"id": "x"}]}, Doc, source="f")
    assert doc.kind == "b" and doc.repos == ["a/b"] and doc.items == (Item(id="x"),)
