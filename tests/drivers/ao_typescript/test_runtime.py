"""AO's private world and runtime, with the real git, tmux and gh (no AO needed).

- the world clones the user's checkout and writes a derived config; the user's
  checkout, config and git config are never changed;
- the runtime's tmux server is ghbench's own, started with the run's environment, so
  a session on it (what AO's agents get) sees the emulator's routing, whatever tmux
  server the user runs; ``close`` kills it;
- gh, with only what the runtime gives it, passes ``gh auth status`` (AO's preflight)
  against the emulator over its unix socket, github.com included, and reaches nothing
  else.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from ao_sources import missing
from ghbench.drivers.ao_typescript.runtime import AoRouting, AoRuntime
from ghbench.drivers.ao_typescript.world import AoWorld
from ghbench.drivers.common.tmux import Tmux
from ghbench.drivers.project import load_project
from ghbench.emulator.core import Emulator
from ghbench.emulator.thread_server import EmulatorServer

TOKEN = "ghp_runtime0000000000000000000000000000001"


def _git(path: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(path), *args], check=True, capture_output=True, text=True
    ).stdout


def _tools() -> None:
    for tool in ("git", "tmux"):  # gh: the test's build (the gh marker)
        if subprocess.run(["which", tool], capture_output=True).returncode != 0:
            missing(tool, f"apt-get install {tool}")


@pytest.fixture
def user(tmp_path: Path) -> dict[str, Path]:
    """A user's checkout (origin on github.com), global git config and AO config."""
    _tools()
    checkout = tmp_path / "user" / "todo-app"
    checkout.mkdir(parents=True)
    _git(checkout, "init", "-q", "-b", "main")
    (checkout / "README.md").write_text("hello\n")
    _git(checkout, "add", ".")
    _git(checkout, "-c", "user.name=u", "-c", "user.email=u@e", "commit", "-qm", "init")
    _git(checkout, "remote", "add", "origin", "https://github.com/acme/todo.git")
    gitconfig = tmp_path / "user" / ".gitconfig"
    gitconfig.write_text("[user]\n\tname = Ada\n\temail = ada@example.com\n")
    config = tmp_path / "user" / "agent-orchestrator.yaml"
    config.write_text(
        yaml.safe_dump(
            {
                "port": 3000,
                "notifiers": {"slack": {"plugin": "slack", "webhookUrl": "https://x"}},
                "defaults": {"notifiers": ["slack"]},
                "projects": {
                    "todo-app": {"repo": "acme/todo", "path": str(checkout), "agent": "x"},
                    "other": {"repo": "acme/other", "path": "/nowhere"},
                },
            }
        )
    )
    return {"checkout": checkout, "gitconfig": gitconfig, "config": config}


def _snapshot(checkout: Path) -> str:
    refs = _git(checkout, "for-each-ref")
    files = sorted(str(p.relative_to(checkout)) for p in checkout.rglob("*"))
    return refs + "\n".join(files) + _git(checkout, "config", "--local", "--list")


def test_world_clones_and_derives_without_touching_the_users_files(
    user: dict[str, Path], tmp_path: Path
) -> None:
    before = _snapshot(user["checkout"]), user["config"].read_bytes()
    project = load_project("todo-app", env={}, cwd=tmp_path, home=tmp_path, explicit=user["config"])
    world = AoWorld(tmp_path / "out" / "state" / "ao" / "todo-app", project)
    bench = world.prepare(user["gitconfig"])
    world.prepare(user["gitconfig"])  # again: the clone is kept, the config rewritten

    assert bench.path == world.checkout and bench.path.name == "todo-app"
    assert bench.session_prefix == project.session_prefix
    assert _git(bench.path, "remote", "get-url", "origin").strip() == (
        "https://github.com/acme/todo.git"
    )
    assert (bench.path / "README.md").read_text() == "hello\n"
    derived = yaml.safe_load(world.config_path.read_text())
    assert list(derived["projects"]) == ["todo-app"]
    entry = derived["projects"]["todo-app"]
    assert entry["path"] == str(bench.path) and entry["agent"] == "x"
    assert "notifiers" not in derived and derived["defaults"]["notifiers"] == []
    assert derived["port"] == 3000
    # commits made with AO's HOME carry the user's identity, via an include only
    identity = subprocess.run(
        ["git", "config", "user.email"],
        env={"HOME": str(world.home), "PATH": os.environ["PATH"]},
        capture_output=True,
        text=True,
    )
    assert identity.stdout.strip() == "ada@example.com"
    assert (_snapshot(user["checkout"]), user["config"].read_bytes()) == before


@pytest.fixture
def emulator_uds() -> Iterator[tuple[str, Path]]:
    emulator = Emulator(seed=1)
    emulator.create_user("octo", [TOKEN])
    emulator.create_repo("acme/todo")
    sock_dir = Path(tempfile.mkdtemp(prefix="gbt", dir="/tmp"))
    server = EmulatorServer(emulator, "127.0.0.1", 0, uds=sock_dir / "gh.sock")
    url = server.start()
    try:
        yield url, sock_dir / "gh.sock"
    finally:
        server.stop()
        shutil.rmtree(sock_dir, ignore_errors=True)


def _routing(url: str, sock: Path) -> AoRouting:
    env = {"GH_HOST": "github.localhost", "GH_TOKEN": TOKEN, "http_proxy": url}
    return AoRouting(env=env, gh_socket=sock)


@pytest.mark.gh
def test_runtime_gives_its_tmux_sessions_the_run_env_and_gh_passes_aos_preflight(
    user: dict[str, Path], tmp_path: Path, emulator_uds: tuple[str, Path]
) -> None:
    url, sock = emulator_uds
    project = load_project("todo-app", env={}, cwd=tmp_path, home=tmp_path, explicit=user["config"])
    world = AoWorld(tmp_path / "ao", project)
    world.prepare(None)
    # the user's own tmux server, and a TMUX saying we run inside it
    user_tmux_dir = Path(tempfile.mkdtemp(prefix="gbu", dir="/tmp"))
    user_env = {"PATH": os.environ["PATH"], "TMUX_TMPDIR": str(user_tmux_dir)}
    user_tmux = Tmux(user_env)
    user_tmux.new_session("mine", tmp_path, "sleep 300")
    socket = next(user_tmux_dir.rglob("default"))
    base = {
        "PATH": os.environ["PATH"],
        "TMUX": f"{socket},1,0",
        "TMUX_TMPDIR": str(user_tmux_dir),
        "GITHUB_TOKEN": "ghp_users_own_real_token_never_to_be_seen",
        "LANG": "C.UTF-8",
    }
    runtime = AoRuntime(world, base, _routing(url, sock))
    try:
        runtime.open()
        private = Path(runtime.env()["TMUX_TMPDIR"])
        out = tmp_path / "agent-env.json"
        runtime.tmux().new_session(
            "agent",
            tmp_path,
            f'python3 -c \'import json,os; json.dump(dict(os.environ), open("{out}", "w"))\'',
        )
        for _ in range(100):
            if out.exists() and out.stat().st_size:
                break
            time.sleep(0.05)
        seen = json.loads(out.read_text())
        assert seen["GH_HOST"] == "github.localhost" and seen["GH_TOKEN"] == TOKEN
        assert seen["HOME"] == str(world.home)
        assert "GITHUB_TOKEN" not in seen
        assert not user_tmux.has_session("agent")  # nothing landed on the user's server
        auth = subprocess.run(
            ["gh", "auth", "status"], env=runtime.env(), capture_output=True, text=True
        )
        assert auth.returncode == 0, auth.stderr
        # gh 2.23 reports on stderr and names github.com too; 2.102 on stdout, the host
        # it is logged in to only
        assert "Logged in to github.localhost" in auth.stdout + auth.stderr
        assert "GH_CONFIG_DIR" in runtime.env() and "TMUX" not in runtime.env()
        runtime.tmux().new_session("agent-2", tmp_path, "sleep 300")
        assert Tmux(runtime.env()).has_session("agent-2")
    finally:
        runtime.close()
        user_tmux.kill_server()
        shutil.rmtree(user_tmux_dir, ignore_errors=True)
    assert not private.exists()  # the private server's socket went with its directory
