"""ghbench.github.names: a GitHub backend by name."""

from __future__ import annotations

import pytest

from ghbench.github.names import BACKEND_NAMES, backend_name


def test_each_name_is_itself() -> None:
    assert [backend_name(name) for name in BACKEND_NAMES] == ["github", "emulator"]


@pytest.mark.parametrize("text", ["GitHub", "emu", "", " github"])
def test_anything_else_names_the_choices(text: str) -> None:
    with pytest.raises(ValueError, match=r"is not a GitHub backend \(github, emulator\)"):
        backend_name(text)
