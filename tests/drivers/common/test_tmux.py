"""A private tmux server with real tmux: its sessions get the server's environment, it
is named to the lifeline, and closing it leaves nothing; placeholders by exact name."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from ghbench.drivers.common.tmux import Placeholders, PrivateTmux
from ghbench.proctable import group_alive

pytestmark = pytest.mark.needs("tmux")


def test_a_private_server_runs_placeholders_and_closing_it_leaves_nothing(
    tmp_path: Path,
) -> None:
    private = PrivateTmux("ghbench-test-")
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "AGENT_TOKEN_SEEN": "yes"}
    try:
        tmux = private.start(env, "/bin/sh")
        assert private.start(env, "/bin/sh") is tmux  # once
        directory = private.path
        assert directory is not None and str(directory).startswith("/tmp/ghbench-test-")
        server = tmux.server_pid()
        assert server is not None and group_alive(server)
        placeholders = Placeholders(tmux)
        placeholders.ensure("p-1", tmp_path)
        placeholders.ensure("p-10", tmp_path)
        assert tmux.has_session("p-1") and not tmux.has_session("p")  # exact names
        shown = tmux._run("show-environment", "-g", "AGENT_TOKEN_SEEN").stdout.strip()
        assert shown == "AGENT_TOKEN_SEEN=yes"
        assert placeholders.remove_all() == ["p-1", "p-10"]
    finally:
        private.close()
    assert private.path is None and not directory.exists()
    deadline = time.monotonic() + 10  # the server exits once it has killed its sessions
    while group_alive(server) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not group_alive(server)
