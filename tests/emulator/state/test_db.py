"""A state directory's database is ghbench's or refused (issue 23 cases 5 and 7).

``ghbench emulator serve --state DIR`` is run for real on files another program made:
it refuses them in one line and leaves them as they were, byte for byte, with no lock
file, journal or git folder next to them. ghbench's own files from before the
application id are still read.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from emu_helpers import new_emulator

from ghbench.emulator.core import Emulator
from ghbench.emulator.state.db import SCHEMA_VERSION

APPLICATION_ID = 0x67686245  # "ghbE": what the file header says (a format constant)


def _serve(state: Path) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "ghbench", "emulator", "serve", "--port", "0"]
    return subprocess.run(
        [*argv, "--state", str(state)], capture_output=True, text=True, timeout=60
    )


def _snapshot(state: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(state.iterdir())}


def _database(path: Path, *statements: str) -> None:
    conn = sqlite3.connect(path)
    for statement in statements:
        conn.execute(statement)
    conn.commit()
    conn.close()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("statements", "what"),
    [
        (
            [
                "CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT)",
                "INSERT INTO notes VALUES (1, 'mine')",
            ],
            "tables notes",
        ),
        (  # ghbench's table names, another program's application id (Fossil's)
            ["CREATE TABLE records(kind, id, data)", "PRAGMA application_id = 0x0F055112"],
            "application id 0xf055112",
        ),
        (  # ghbench's tables plus one column of its own
            [
                "CREATE TABLE records(kind, id, data, extra)",
                "CREATE TABLE buckets(owner, resource, used, window_start)",
                "CREATE TABLE ledger(seq, ts, owner, token_id, resource, cost, endpoint, status)",
            ],
            "tables buckets, ledger, records",
        ),
    ],
    ids=["other-tables", "other-application-id", "other-columns"],
)
def test_another_programs_database_is_refused_and_left_untouched(
    tmp_path: Path, statements: list[str], what: str
) -> None:
    _database(tmp_path / "emulator.sqlite3", *statements)
    before = _snapshot(tmp_path)
    refused = _serve(tmp_path)
    assert refused.returncode == 1
    assert refused.stderr == (
        f"error: --state {tmp_path}: emulator.sqlite3 is another program's database ({what}), "
        "not a ghbench emulator's state; it was left untouched: choose another directory\n"
    )
    assert _snapshot(tmp_path) == before  # no emulator.lock, no -wal, no git/, same bytes


@pytest.mark.slow
def test_a_refused_serve_leaves_no_lock_file(tmp_path: Path) -> None:
    new_emulator(state_dir=tmp_path).close()
    conn = sqlite3.connect(tmp_path / "emulator.sqlite3")
    conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    refused = _serve(tmp_path)
    assert refused.returncode == 1
    assert "its state schema version is 99" in refused.stderr
    assert not (tmp_path / "emulator.lock").exists()


def test_ghbench_files_say_whose_they_are(tmp_path: Path) -> None:
    new_emulator(state_dir=tmp_path).close()
    conn = sqlite3.connect(tmp_path / "emulator.sqlite3")
    assert conn.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
    conn.close()
    assert not (tmp_path / "emulator.lock").exists()  # a clean stop removes it too


def test_a_ghbench_file_from_before_the_application_id_is_read(tmp_path: Path) -> None:
    emulator = new_emulator(state_dir=tmp_path)
    emulator.create_issue("acme/todo", "kept")
    emulator.close()
    # the unversioned layout: no application id, no meta, no secondary table
    _database(
        tmp_path / "emulator.sqlite3",
        "PRAGMA application_id = 0",
        "DROP TABLE meta",
        "DROP TABLE secondary",
    )
    again = Emulator(state_dir=tmp_path)
    try:
        repo = again.store.repo("acme", "todo")
        assert repo is not None and again.store.issue(repo, 1) is not None
    finally:
        again.close()
    conn = sqlite3.connect(tmp_path / "emulator.sqlite3")
    assert conn.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
    assert conn.execute("SELECT value FROM meta").fetchall() == [(str(SCHEMA_VERSION),)]
    conn.close()
