from pathlib import Path

import pytest

from ghbench.artifacts.io import replace_atomic, unique_path, write_new
from ghbench.errors import ArtifactError


def test_write_new_creates_parents_and_leaves_no_temp_files(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "scorecard.json"
    write_new(target, b'{"x": 1}')
    assert target.read_bytes() == b'{"x": 1}'
    assert [p.name for p in target.parent.iterdir()] == ["scorecard.json"]


def test_write_new_never_overwrites(tmp_path: Path) -> None:
    target = tmp_path / "trace.jsonl"
    target.write_bytes(b"precious\n")
    with pytest.raises(ArtifactError, match="already exists"):
        write_new(target, b"new")
    assert target.read_bytes() == b"precious\n"
    assert [p.name for p in tmp_path.iterdir()] == ["trace.jsonl"]


def test_write_new_reports_an_unwritable_directory(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a dir")
    with pytest.raises(ArtifactError, match="cannot create directory"):
        write_new(blocker / "x.json", b"{}")


def test_replace_atomic_replaces_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "baseline.md"
    replace_atomic(target, b"one")
    replace_atomic(target, b"two")
    assert target.read_bytes() == b"two"
    assert [p.name for p in tmp_path.iterdir()] == ["baseline.md"]


def test_unique_path_skips_taken_names(tmp_path: Path) -> None:
    assert unique_path(tmp_path, "s", ".json") == tmp_path / "s.json"
    (tmp_path / "s.json").write_text("")
    (tmp_path / "s-2.json").write_text("")
    assert unique_path(tmp_path, "s", ".json") == tmp_path / "s-3.json"
