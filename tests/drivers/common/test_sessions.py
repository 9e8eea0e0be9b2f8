"""The sessions a driver spawned, kept beside its state and read back tolerantly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ghbench.drivers.common.sessions import SessionRegistry
from ghbench.errors import GhbenchError


def test_sessions_round_trip_and_a_stranger_entry_is_skipped(tmp_path: Path) -> None:
    registry = SessionRegistry(tmp_path / "state" / "sessions.json")
    assert registry.load() == {}
    registry.save({"p-1": {"issue": 1, "branch": "ao/p-1/root"}})
    assert registry.load() == {"p-1": {"issue": 1, "branch": "ao/p-1/root"}}
    registry.path.write_text(json.dumps({"sessions": {"p-1": {"issue": 1}, "p-2": "x"}}))
    assert registry.load() == {"p-1": {"issue": 1}}
    registry.path.write_text(json.dumps({"sessions": []}))
    assert registry.load() == {}


def test_a_file_that_is_not_json_is_named(tmp_path: Path) -> None:
    registry = SessionRegistry(tmp_path / "sessions.json")
    registry.path.write_text("{cut short")
    with pytest.raises(GhbenchError, match=r"sessions\.json: not valid JSON .*; remove it"):
        registry.load()
