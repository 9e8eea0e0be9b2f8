"""What /proc says about real processes: start times that tell a process from a later
one with its number, zombies that do not count as running, a group's listening
sockets (IPv4 and IPv6), the owner of a loopback connection, and a process's
environment as it started."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ghbench.proctable import (
    environ_value,
    group_alive,
    group_listeners,
    socket_owner,
    start_time,
)


@pytest.fixture
def zombie() -> Iterator[subprocess.Popen[bytes]]:
    """A process of its own group that has exited and is not yet reaped."""
    proc = subprocess.Popen(["true"], start_new_session=True)
    os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)  # exited, left unreaped
    yield proc
    proc.wait()


def test_a_running_process_has_a_start_time_and_a_gone_or_dead_one_none(
    zombie: subprocess.Popen[bytes],
) -> None:
    own = start_time(os.getpid())
    assert own is not None and own > 0
    assert start_time(os.getpid()) == own  # the same process, the same start
    assert start_time(zombie.pid) is None
    assert start_time(2**22 + 1) is None  # above the kernel's largest pid


def test_a_zombie_group_is_not_alive_and_a_live_one_is(zombie: subprocess.Popen[bytes]) -> None:
    assert not group_alive(zombie.pid)
    assert group_alive(os.getpgrp())
    sleeper = subprocess.Popen(["sleep", "60"], start_new_session=True)
    try:
        assert group_alive(sleeper.pid)
    finally:
        sleeper.kill()
        sleeper.wait()
    assert not group_alive(sleeper.pid)


def test_the_groups_listening_sockets_and_only_those() -> None:
    with (
        socket.create_server(("127.0.0.1", 0)) as v4,
        socket.create_server(("::1", 0), family=socket.AF_INET6) as v6,
        socket.socket() as unbound,
    ):
        found = group_listeners(os.getpgrp())
        assert ("127.0.0.1", v4.getsockname()[1]) in found
        assert ("::1", v6.getsockname()[1]) in found
        assert unbound.fileno() >= 0  # a socket that does not listen is not listed
        assert all(port != 0 for _, port in found)
        port = v4.getsockname()[1]
    assert ("127.0.0.1", port) not in group_listeners(os.getpgrp())  # closed: gone


def test_the_owner_of_a_loopback_connection_is_the_process_that_holds_it() -> None:
    """Its /proc directories are closed on the way out (filterwarnings=error fails an
    iterator left open)."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        with socket.create_connection(server.getsockname()) as client:
            accepted, remote = server.accept()
            with accepted:
                assert remote == client.getsockname()
                assert socket_owner(remote, server.getsockname()) == os.getpid()
        assert socket_owner(("127.0.0.1", 1), ("127.0.0.1", 2)) is None  # no such socket
    assert socket_owner(("not an address", 1), ("127.0.0.1", 2)) is None


def test_a_processs_environment_as_it_started() -> None:
    env = {"PATH": os.environ["PATH"], "EMPTY": "", "SECOND": "b", "FIRST": "a=b"}
    sleeper = subprocess.Popen(["sleep", "60"], env=env)
    try:
        # Popen returns once exec closed its pipe, a moment before the kernel has laid
        # out the new environment: wait until it has
        environ = Path(f"/proc/{sleeper.pid}/environ")
        deadline = time.monotonic() + 30
        while not environ.read_bytes() and time.monotonic() < deadline:
            time.sleep(0.001)
        assert environ_value(sleeper.pid, ("FIRST", "SECOND")) == "a=b"  # the first named
        assert environ_value(sleeper.pid, ("EMPTY", "SECOND")) == "b"  # empty is unset
        assert environ_value(sleeper.pid, ("MISSING",)) is None
    finally:
        sleeper.kill()
        sleeper.wait()
    assert environ_value(sleeper.pid, ("FIRST",)) is None  # gone
