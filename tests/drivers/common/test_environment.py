"""The environment a world gives its orchestrator: the user's, less what would send it
elsewhere, in the world's HOME."""

from __future__ import annotations

import socket
from pathlib import Path

from ghbench.drivers.common.environment import (
    SCRUBBED,
    free_loopback_port,
    inherited,
    private_home,
)


def test_what_would_send_the_orchestrator_elsewhere_is_not_inherited() -> None:
    user = {
        "PATH": "/usr/bin",
        "LANG": "C.UTF-8",
        "GH_TOKEN": "ghp_users0000000000000000000000000000003",
        "TMUX": "/tmp/tmux-0/default,1,0",
        "HTTPS_PROXY": "http://corp:3128",
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": "credential.helper",
        "GIT_CONFIG_VALUE_0": "store",
        "AO_SESSION_ID": "users-1",
        "SSL_CERT_FILE": "/etc/corp.pem",
    }
    kept = inherited(user)
    assert kept == {
        "PATH": "/usr/bin",
        "LANG": "C.UTF-8",
        "AO_SESSION_ID": "users-1",
        "SSL_CERT_FILE": "/etc/corp.pem",
    }
    assert inherited(user, also=("SSL_CERT_FILE",), prefixes=("AO_",)) == {
        "PATH": "/usr/bin",
        "LANG": "C.UTF-8",
    }
    assert {"GH_TOKEN", "GITHUB_TOKEN", "GH_CONFIG_DIR", "XDG_CONFIG_HOME"} <= SCRUBBED


def test_a_private_home_holds_every_directory_gh_and_git_read(tmp_path: Path) -> None:
    env = private_home(tmp_path / "home", tmp_path / "tmp", tmp_path / "gh")
    assert env["HOME"] == str(tmp_path / "home") and env["TMPDIR"] == str(tmp_path / "tmp")
    assert env["GH_CONFIG_DIR"] == str(tmp_path / "gh")
    xdg = [v for k, v in env.items() if k.startswith("XDG_")]
    assert len(xdg) == 4 and all(v.startswith(str(tmp_path / "home")) for v in xdg)
    assert env["GH_PROMPT_DISABLED"] == "1"


def test_a_free_loopback_port_can_be_bound() -> None:
    port = free_loopback_port()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))
