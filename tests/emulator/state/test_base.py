"""Durable state: SQLite persistence, restart resumes records, buckets and the ledger."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from emu_helpers import API, TOKEN, new_emulator

from ghbench.clock import VirtualClock
from ghbench.emulator.core import Emulator
from ghbench.emulator.errors import ApiError
from ghbench.emulator.process import start_emulator_process
from ghbench.emulator.state import MemoryDatabase, Store
from ghbench.emulator.state.db import SCHEMA_VERSION
from ghbench.emulator.transport import EmulatorTransport
from ghbench.errors import EmulatorError
from ghbench.locks import LockHeld


def _client(emulator: Emulator) -> httpx.Client:
    return httpx.Client(
        transport=EmulatorTransport(emulator),
        base_url=API,
        headers={"Authorization": f"token {TOKEN}"},
    )


def test_restart_resumes_state_buckets_and_ledger(tmp_path: Path) -> None:
    clock = VirtualClock()
    first = new_emulator(clock=clock, state_dir=tmp_path)
    first.seed({"repos": [{"name": "acme/todo", "issues": 2, "pulls": 2, "ci": "success"}]})
    with _client(first) as api:
        etag = api.get("/repos/acme/todo/pulls").headers["etag"]
        api.post("/repos/acme/todo/pulls/3/comments", json={"body": "x"})
        api.put("/repos/acme/todo/pulls/4/merge")
        last = api.get("/repos/acme/todo")
    first.db.close()

    second = Emulator(clock=clock, seed=99, state_dir=tmp_path)
    with _client(second) as api:
        after = api.get("/repos/acme/todo")
        assert int(after.headers["x-ratelimit-used"]) == int(last.headers["x-ratelimit-used"]) + 1
        assert after.headers["x-ratelimit-reset"] == last.headers["x-ratelimit-reset"]
        assert api.get("/repos/acme/todo/pulls/4").json()["merged"] is True
        assert [c["body"] for c in api.get("/repos/acme/todo/pulls/3/comments").json()] == ["x"]
        # the merge changed the list: a new representation, not a stale 304
        assert api.get("/repos/acme/todo/pulls", headers={"If-None-Match": etag}).status_code == 200
    assert len(second.ledger_entries()) == 8  # 4 before the restart, 4 after
    # ids keep growing after a restart (no reuse)
    assert second.create_issue("acme/todo", "new") == 5


def test_tokens_are_stored_hashed(tmp_path: Path) -> None:
    emulator = new_emulator(state_dir=tmp_path)
    emulator.db.close()
    raw = (tmp_path / "emulator.sqlite3").read_bytes()
    wal = tmp_path / "emulator.sqlite3-wal"
    raw += wal.read_bytes() if wal.exists() else b""
    assert TOKEN.encode() not in raw


def test_reset_clears_durable_state(tmp_path: Path) -> None:
    emulator = new_emulator(state_dir=tmp_path)
    emulator.reset()
    emulator.db.close()
    again = Emulator(state_dir=tmp_path)
    assert again.store.repos == {} and again.ledger_entries() == []


def test_store_rules() -> None:
    store = Store(MemoryDatabase(), VirtualClock(), random.Random(1))
    repo = store.create_repo("acme", "todo")
    author = store.ensure_user("octo")
    with pytest.raises(ApiError, match="Validation"):
        store.create_pull(repo, author, "t", "missing", "main")
    pull = store.create_pull(repo, author, "t", "feature", "main", create_head=True)
    assert pull.number == 1 and store.node(pull.node_id) is pull
    issue = store.create_issue(repo, author, "i")
    assert issue.number == 2  # issues and PRs share one sequence
    old_head = pull.head_sha
    store.commit_to_branch(repo, "feature", "more")
    assert pull.head_sha != old_head  # an open PR follows its branch
    store.set_ci(repo, pull.head_sha, "failure", author)
    assert store.combined_state(repo, pull.head_sha) == "failure"
    store.set_ci(repo, pull.head_sha, "success", author)
    assert store.combined_state(repo, pull.head_sha) == "success"
    assert [r.conclusion for r in store.check_runs(repo, pull.head_sha)] == ["success"]
    store.update_pull(pull, draft=True)
    with pytest.raises(ApiError, match="not mergeable"):
        store.merge_pull(pull, author)
    store.update_pull(pull, draft=False)
    sha = store.merge_pull(pull, author)
    assert store.branch_sha(repo, "main") == sha and pull.merged


def test_a_damaged_state_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "emulator.sqlite3").write_bytes(b"not a database" * 100)
    with pytest.raises(EmulatorError, match="--state"):
        Emulator(state_dir=tmp_path)


def test_one_emulator_per_state_directory(tmp_path: Path) -> None:
    """Issue 12 case 3: two emulators on one state handed out the same numbers and lost
    acknowledged writes; the second is now refused, naming the first one's pid."""
    first = Emulator(state_dir=tmp_path)
    try:
        with pytest.raises(LockHeld, match=rf"--state {tmp_path} is in use by another emulator"):
            Emulator(state_dir=tmp_path)
    finally:
        first.close()
    Emulator(state_dir=tmp_path).close()  # free again once the first is closed


@pytest.mark.slow
def test_a_second_serve_on_one_state_is_refused_and_a_killed_ones_is_taken_over(
    tmp_path: Path,
) -> None:
    state = tmp_path / "state"
    with start_emulator_process(state, tokens=[TOKEN]) as running:
        argv = [sys.executable, "-m", "ghbench", "emulator", "serve", "--state", str(state)]
        second = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        assert second.returncode == 1
        assert second.stderr == (
            f"error: --state {state} is in use by another emulator; stop it or choose another "
            f"directory (pid {running.pid} holds {state / 'emulator.lock'})\n"
        )
        running.kill()  # kill -9 leaves the lock file naming it: taken over
    with start_emulator_process(state, tokens=[TOKEN]) as again:
        assert (state / "emulator.lock").read_text() == f"{again.pid}\n"


# -- versioned state, the ledger in SQL, secondary windows ---------------------------
def _sql(state: Path, statement: str, *args: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(state / "emulator.sqlite3") as conn:
        rows = conn.execute(statement, args).fetchall()
    conn.close()
    return rows


def test_the_state_carries_its_schema_version(tmp_path: Path) -> None:
    new_emulator(state_dir=tmp_path).close()
    assert _sql(tmp_path, "SELECT value FROM meta WHERE key = 'schema_version'") == [
        (str(SCHEMA_VERSION),)
    ]


def test_a_newer_schema_is_refused_and_left_alone(tmp_path: Path) -> None:
    new_emulator(state_dir=tmp_path).close()
    _sql(tmp_path, "UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(EmulatorError) as caught:
        Emulator(state_dir=tmp_path)
    assert str(caught.value) == (
        f"--state {tmp_path}: its state schema version is 99, this ghbench reads "
        f"{SCHEMA_VERSION}; it was written by another ghbench: use that one, or choose "
        "another directory"
    )
    assert _sql(tmp_path, "SELECT value FROM meta WHERE key = 'schema_version'") == [("99",)]
    Emulator(state_dir=tmp_path / "other").close()  # the lock was released


def test_an_unknown_record_kind_is_refused_not_dropped(tmp_path: Path) -> None:
    new_emulator(state_dir=tmp_path).close()
    _sql(tmp_path, "INSERT INTO records(kind, id, data) VALUES ('hologram', 1, '{}')")
    with pytest.raises(EmulatorError, match="holds 'hologram' records, which this ghbench"):
        Emulator(state_dir=tmp_path)


def test_the_ledger_is_queried_in_sql_on_its_index(tmp_path: Path) -> None:
    emulator = new_emulator(state_dir=tmp_path)
    try:
        with _client(emulator) as api:
            for _ in range(3):
                api.get("/repos/acme/todo")
        assert not hasattr(emulator.limiter, "ledger")  # nothing held in memory
        assert len(emulator.ledger_entries(resource="core")) == 3
        assert emulator.ledger_totals(token="octo") == {"core": 3}
        assert emulator.ledger_count(since=emulator.clock.now() + 1) == 0
    finally:
        emulator.close()
    query = "EXPLAIN QUERY PLAN SELECT * FROM ledger WHERE resource = ? AND ts >= ?"
    plan = _sql(tmp_path, query, "core", 0.0)
    assert "ledger_resource_ts" in str(plan)


def test_secondary_windows_survive_a_restart(tmp_path: Path) -> None:
    """Issue 12 case 11: 80 creates, a restart, and 10 more were accepted in the minute."""
    clock = VirtualClock()
    first = new_emulator(clock=clock, state_dir=tmp_path)
    with _client(first) as api:
        made = [api.post("/repos/acme/todo/issues", json={"title": f"t{i}"}) for i in range(80)]
        assert {r.status_code for r in made} == {201}
        assert api.post("/repos/acme/todo/issues", json={"title": "81"}).status_code == 429
    first.close()
    clock.advance(5)
    second = Emulator(clock=clock, state_dir=tmp_path)
    try:
        with _client(second) as api:
            refused = api.post("/repos/acme/todo/issues", json={"title": "after the restart"})
            assert refused.status_code == 429
            assert "content creation" in refused.json()["message"]
            clock.advance(60)  # the minute has passed
            assert api.post("/repos/acme/todo/issues", json={"title": "later"}).status_code == 201
    finally:
        second.close()
