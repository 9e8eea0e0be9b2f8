"""Where AO's daemon runs: the environments its daemon and agents get, its executable
named ``ao``, and each release line's own database."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from pathlib import Path

import pytest

from ghbench.drivers.ao_daemon.world import DaemonTokens, DaemonWorld
from ghbench.errors import GhbenchError

TOKEN = "ghp_daemon000000000000000000000000000001"
AGENT_TOKEN = "ghp_agents000000000000000000000000000002"


def test_the_daemon_and_its_agents_get_their_own_token_and_nothing_of_an_ao_session(
    tmp_path: Path,
) -> None:
    world = DaemonWorld(tmp_path / "w", (), rewrite_remotes=True)
    base = {
        "PATH": "/usr/bin",
        "HOME": "/home/u",
        "GH_TOKEN": "ghp_users0000000000000000000000000000003",
        "AO_SESSION_ID": "users-session-1",  # ghbench run from inside an AO session
        "HTTPS_PROXY": "http://corp:3128",
        "SSL_CERT_FILE": "/etc/corp.pem",
    }
    route = {"HTTPS_PROXY": "http://127.0.0.1:7000", "SSL_CERT_FILE": "/w/front/bundle.pem"}
    tokens = DaemonTokens(daemon=TOKEN, agents=AGENT_TOKEN)
    daemon = world.daemon_env(base, route, tokens, 4242)
    assert daemon["AO_GITHUB_TOKEN"] == TOKEN and "GH_TOKEN" not in daemon
    assert "AO_SESSION_ID" not in daemon and daemon["AO_TELEMETRY_REMOTE"] == "off"
    assert daemon["HTTPS_PROXY"] == route["HTTPS_PROXY"]
    assert daemon["SSL_CERT_FILE"] == route["SSL_CERT_FILE"]
    assert (daemon["HOME"], daemon["AO_PORT"]) == (str(world.home), "4242")
    agents = world.agents_env(base, route, tokens)
    assert agents["GH_TOKEN"] == AGENT_TOKEN and "AO_GITHUB_TOKEN" not in agents
    git_config = [agents[k] for k in agents if k.startswith("GIT_CONFIG_VALUE_")]
    assert "git@github.com:" in git_config  # ssh remotes go through the front (emulate)
    assert not any(AGENT_TOKEN in v for v in git_config)  # the helper reads $GH_TOKEN
    assert "AO_SESSION_ID" not in agents


def test_the_daemon_runs_as_a_file_named_ao(tmp_path: Path) -> None:
    """0.12 calls back ``ao`` from its own directory: a differently named build runs as a
    copy (a hard link where it can be), remade when the build changes."""
    world = DaemonWorld(tmp_path / "w", ())
    named = tmp_path / "bin" / "ao"
    named.parent.mkdir()
    named.write_bytes(b"#!/bin/sh\n")
    assert world.daemon_executable(named) == named
    (tmp_path / "bin" / "ao-link").symlink_to(named)
    assert world.daemon_executable(tmp_path / "bin" / "ao-link") == named
    (tmp_path / "ao").symlink_to(tmp_path / "bin" / "release-0.12")  # named ao, runs as not
    (tmp_path / "bin" / "release-0.12").write_bytes(b"#!/bin/sh\n")
    assert world.daemon_executable(tmp_path / "ao") == world.root / "ao-bin" / "ao"
    other = tmp_path / "ao-go-0.12.6-linux-x64"
    other.write_bytes(b"#!/bin/sh\necho one\n")
    copy = world.daemon_executable(other)
    assert copy == world.root / "ao-bin" / "ao"
    assert copy.read_bytes() == other.read_bytes() and os.access(copy, os.X_OK)
    assert world.daemon_executable(other) == copy
    other.unlink()  # a new build where the old one was
    other.write_bytes(b"#!/bin/sh\necho two, longer\n")
    assert world.daemon_executable(other).read_bytes() == b"#!/bin/sh\necho two, longer\n"


def _database(path: Path, sessions: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("create table if not exists sessions (id text)")
        db.execute("delete from sessions")
        db.executemany("insert into sessions values (?)", [(s,) for s in sessions])
        db.commit()


def _sessions(path: Path) -> list[str]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return [row[0] for row in db.execute("select id from sessions order by id")]


def test_a_newer_line_measures_an_older_lines_setup_on_a_copy_of_its_database(
    tmp_path: Path,
) -> None:
    old = DaemonWorld(tmp_path / "w", (), line="0.10")
    new = DaemonWorld(tmp_path / "w", (), line="0.12")
    assert (old.data.name, new.data.name) == ("data", "data-0.12")
    new.sync_data()  # no sessions yet: nothing to copy
    assert not (new.data / "ao.db").exists()
    old.claim_sessions()
    _database(old.data / "ao.db", ["p-1", "p-2"])
    new.data.mkdir()
    new.sync_data()
    assert _sessions(new.data / "ao.db") == ["p-1", "p-2"]
    _database(new.data / "ao.db", ["p-1", "p-2", "p-3"])  # what the newer line wrote
    new.sync_data()  # the setup's database did not change since: the copy stays
    assert _sessions(new.data / "ao.db") == ["p-1", "p-2", "p-3"]
    _database(old.data / "ao.db", ["p-1"])  # the older line ran again
    future = time.time_ns() + 10**9
    os.utime(old.data / "ao.db", ns=(future, future))
    new.sync_data()
    assert _sessions(new.data / "ao.db") == ["p-1"]
    assert old.unreadable() is None and new.unreadable() is None


def test_an_older_line_cannot_read_a_newer_lines_database(tmp_path: Path) -> None:
    DaemonWorld(tmp_path / "w", (), line="0.12").claim_sessions()
    old = DaemonWorld(tmp_path / "w", (), line="0.10")
    refused = old.unreadable()
    assert refused is not None and "spawned by AO 0.12" in refused
    assert "run setup with AO 0.10 in another --out" in refused
    with pytest.raises(GhbenchError, match="cannot read"):
        old.sync_data()
