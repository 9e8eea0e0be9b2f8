"""``ghbench.emulator``'s public names, imported on first use from the module that
defines each (the package itself imports nothing heavy)."""

from __future__ import annotations

import pytest

from ghbench import emulator
from ghbench.emulator.client_env import gh_environment
from ghbench.emulator.core import Emulator
from ghbench.emulator.http import EmuRequest


def test_each_public_name_is_its_modules_own() -> None:
    assert emulator.Emulator is Emulator
    assert emulator.EmuRequest is EmuRequest
    assert emulator.gh_environment is gh_environment
    for name in emulator.__all__:
        assert getattr(emulator, name).__name__ == name


def test_an_unknown_name_is_an_attribute_error_naming_it() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'Emulatorr'"):
        _ = emulator.Emulatorr
    assert not hasattr(emulator, "core_helpers")
