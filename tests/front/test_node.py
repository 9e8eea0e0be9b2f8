"""ghbench.front.node: where the Node preload is on disk (the package's own file, or a
copy in the state directory when the package is imported from a zip)."""

from __future__ import annotations

import zipfile
from pathlib import Path

from ghbench.front.node import PRELOAD, preload_file


def test_the_preload_is_the_packaged_file(tmp_path: Path) -> None:
    path = preload_file(tmp_path / "state")
    assert path.name == PRELOAD and path.parent.name == "front"  # used in place
    assert not (tmp_path / "state").exists()  # nothing written where it is not needed
    # a package imported from a zip has no file to give Node: a copy in the state dir
    archive = tmp_path / "ghbench.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr(f"ghbench/front/{PRELOAD}", path.read_bytes())
    copy = preload_file(tmp_path / "state", zipfile.Path(archive, f"ghbench/front/{PRELOAD}"))
    assert copy == tmp_path / "state" / PRELOAD
    assert copy.read_bytes() == path.read_bytes()


def test_a_stale_copy_is_replaced_and_no_partial_file_is_left(tmp_path: Path) -> None:
    archive = tmp_path / "ghbench.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr(f"ghbench/front/{PRELOAD}", b"// this version\n")
    state = tmp_path / "state"
    state.mkdir()
    (state / PRELOAD).write_bytes(b"// an older ghbench's\n")
    copy = preload_file(state, zipfile.Path(archive, f"ghbench/front/{PRELOAD}"))
    assert copy.read_bytes() == b"// this version\n"
    assert sorted(p.name for p in state.iterdir()) == [PRELOAD]
