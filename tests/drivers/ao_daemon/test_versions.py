"""Which daemon build an executable is (its sha256, else what its help shows), and what
each release line's ``ao spawn`` gets."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ao_sources import ao_shared_dir
from ghbench.drivers.ao_daemon.versions import (
    DAEMON_VERSIONS,
    KNOWN_BUILDS,
    NAME_MAX,
    daemon_build,
    spawn_name,
)
from ghbench.drivers.common.ao_cli import AoCommand

AO_0126 = "ao-go-0.12.6-linux-x64"


def _fake_ao(path: Path, spawn_flags: str) -> Path:
    """An executable that answers ``ao daemon --help`` and ``ao spawn --help`` as a daemon
    build whose spawn takes ``spawn_flags`` does."""
    path.write_text(
        "#!/bin/sh\n"
        'case "$1" in\n'
        '  daemon) echo "Run the AO backend daemon"; exit 0 ;;\n'
        f'  spawn) printf "Flags:\\n{spawn_flags}\\n"; exit 0 ;;\n'
        "esac\nexit 1\n"
    )
    path.chmod(0o755)
    return path


def test_the_release_ao_runs_is_known_by_its_sha256() -> None:
    """``ao --version`` prints ``dev``: the binary's own bytes name its release."""
    shipped = ao_shared_dir() / AO_0126
    expected = (shipped.parent / f"{AO_0126}.sha256").read_text().split()[0]
    assert KNOWN_BUILDS[expected].release == "0.12.6"
    build = daemon_build(AoCommand(str(shipped)))
    assert build is not None and build.known is not None
    assert (build.version.line, build.name) == ("0.12", "AO 0.12.6")
    assert build.known.commit.startswith("075de7a0") and build.known.tag == "v0.12.6"


def test_another_build_is_the_newest_line_whose_mark_its_help_shows(tmp_path: Path) -> None:
    newer = daemon_build(AoCommand(str(_fake_ao(tmp_path / "a", "--mode string  --name"))))
    older = daemon_build(AoCommand(str(_fake_ao(tmp_path / "b", "--name string"))))
    assert newer is not None and newer.version.line == "0.12" and newer.known is None
    assert newer.name.startswith("AO 0.12 (sha256 ")
    assert older is not None and older.version.line == "0.10"


def test_a_checkout_a_typescript_cli_or_no_ao_is_no_daemon(tmp_path: Path) -> None:
    cli = tmp_path / "ao-ts"
    cli.write_text("#!/bin/sh\necho 'Usage: ao [command]'\nexit 1\n")
    cli.chmod(0o755)
    assert daemon_build(AoCommand(str(cli))) is None
    assert daemon_build(AoCommand(str(tmp_path))) is None  # a checkout: a directory
    assert daemon_build(AoCommand(str(tmp_path / "missing"), env_path="/nonexistent")) is None


def test_a_replaced_executable_is_looked_at_again(tmp_path: Path) -> None:
    ao = _fake_ao(tmp_path / "ao", "--name string")
    first = daemon_build(AoCommand(str(ao)))
    assert first is not None and first.version.line == "0.10"
    _fake_ao(tmp_path / "ao.new", "--mode string").replace(ao)
    os.utime(ao, ns=(1, 1))  # a different mtime, whatever the clock's resolution
    again = daemon_build(AoCommand(str(ao)))
    assert again is not None and again.version.line == "0.12"


@pytest.mark.parametrize(
    ("project", "name"), [("todo-app", "todo-app #7"), ("a" * 30, "a" * 17 + " #7")]
)
def test_a_sessions_name_is_its_project_and_issue_within_the_limit(project: str, name: str) -> None:
    assert spawn_name(project, 7) == name and len(name) <= NAME_MAX


def test_each_line_spawns_as_its_cli_wants() -> None:
    old, new = DAEMON_VERSIONS
    assert old.spawn_args("p", 3, "claude-code") == [
        "spawn", "--project", "p", "--issue", "3", "--harness", "claude-code",
        "--skip-agent-check",
    ]  # fmt: skip
    assert new.spawn_args("p", 3, "claude-code") == [
        "spawn", "--project", "p", "--issue", "3", "--name", "p #3", "--mode", "tui",
        "--harness", "claude-code", "--skip-agent-check",
    ]  # fmt: skip
