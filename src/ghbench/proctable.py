"""What /proc says about processes: whether one or a group still runs, when a process
started (to tell it from a later one with its number), and what a group listens on.

Linux only; elsewhere the answers are the cautious ones each function names.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
from pathlib import Path

__all__ = ["environ_value", "group_alive", "group_listeners", "socket_owner", "start_time"]


def start_time(pid: int) -> int | None:
    """When ``pid`` started (clock ticks since boot); None when it does not exist (or is
    a zombie), 0 where /proc cannot say."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return None
    except OSError:
        return 0
    # "pid (comm) state ppid ... starttime" (field 22): comm may hold spaces and ')'
    fields = stat.rsplit(")", 1)[-1].split()
    if not fields or fields[0] == "Z":
        return None
    return int(fields[19]) if len(fields) > 19 and fields[19].isdigit() else 0


def _live_members(pgid: int) -> bool | None:
    """Whether the group has a member that is not a zombie; None without /proc."""
    proc = Path("/proc")
    if not proc.is_dir():
        return None
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (comm) state ppid pgrp ...": comm may hold spaces, so split after ')'
        fields = stat.rsplit(")", 1)[-1].split()
        if len(fields) >= 3 and fields[2] == str(pgid) and fields[0] != "Z":
            return True
    return False


def _group_members(pgid: int) -> list[int]:
    members: list[int] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[-1].split()
        except OSError:
            continue
        if len(fields) >= 3 and fields[2] == str(pgid):
            members.append(int(entry.name))
    return members


def _tcp_address(hex_address: str) -> str:
    """A /proc/net/tcp{,6} local address (kernel byte order) as text."""
    raw = bytes.fromhex(hex_address)
    if len(raw) == 4:
        return str(ipaddress.IPv4Address(raw[::-1]))
    words = b"".join(raw[i : i + 4][::-1] for i in range(0, 16, 4))
    address = ipaddress.IPv6Address(words)
    return str(address.ipv4_mapped or address)


def group_listeners(pgid: int) -> list[tuple[str, int]]:
    """(address, port) of every TCP socket a member of the group listens on (Linux
    /proc; empty elsewhere). A child started in its own session is not a member."""
    proc = Path("/proc")
    if not proc.is_dir():
        return []
    inodes: set[str] = set()
    for pid in _group_members(pgid):
        with contextlib.suppress(OSError):
            for fd in (proc / str(pid) / "fd").iterdir():
                with contextlib.suppress(OSError):
                    target = os.readlink(fd)
                    if target.startswith("socket:["):
                        inodes.add(target[8:-1])
    found: set[tuple[str, int]] = set()
    for table in ("tcp", "tcp6"):
        try:
            lines = (proc / "net" / table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            cols = line.split()
            if len(cols) > 9 and cols[3] == "0A" and cols[9] in inodes:  # 0A: LISTEN
                address, port = cols[1].rsplit(":", 1)
                found.add((_tcp_address(address), int(port, 16)))
    return sorted(found)


def group_alive(pgid: int) -> bool:
    """True while any process of the group runs (zombies awaiting a reaper do not count)."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    live = _live_members(pgid)
    return True if live is None else live


def _hex_ipv4(address: str, port: int) -> str:
    """``127.0.0.1``, 5000 as /proc/net/tcp writes it (``0100007F:1388``)."""
    return f"{bytes(reversed(ipaddress.IPv4Address(address).packed)).hex().upper()}:{port:04X}"


def socket_owner(local: tuple[str, int], remote: tuple[str, int]) -> int | None:
    """The pid of a process holding the IPv4 TCP socket from ``local`` to ``remote`` (a
    loopback client's end of a connection we accepted); None when /proc cannot tell.

    The socket's inode comes from /proc/net/tcp, then the first process with a file
    descriptor on it (a forked child may share it; any holder is that client)."""
    proc = Path("/proc")
    try:
        wanted = (_hex_ipv4(*local), _hex_ipv4(*remote))
        lines = (proc / "net" / "tcp").read_text().splitlines()[1:]
    except (OSError, ValueError):
        return None
    inode = None
    for line in lines:
        cols = line.split()
        if len(cols) > 9 and (cols[1], cols[2]) == wanted:
            inode = cols[9]
            break
    if inode is None or inode == "0":
        return None
    target = f"socket:[{inode}]"
    # ``with``: a return from inside the loops closes both directories' descriptors
    with contextlib.suppress(OSError), os.scandir(proc) as entries:
        for entry in entries:
            if not entry.name.isdigit():
                continue
            with contextlib.suppress(OSError), os.scandir(f"/proc/{entry.name}/fd") as fds:
                for fd in fds:
                    with contextlib.suppress(OSError):
                        if os.readlink(fd.path) == target:
                            return int(entry.name)
    return None


def environ_value(pid: int, names: tuple[str, ...]) -> str | None:
    """The first of ``names`` set (non-empty) in ``pid``'s environment as it started;
    None when none is, or /proc cannot be read."""
    try:
        raw = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return None
    found: dict[str, str] = {}
    for item in raw.split(b"\0"):
        key, sep, value = item.partition(b"=")
        if sep and value:
            found[key.decode("latin-1")] = value.decode("latin-1")
    return next((found[name] for name in names if name in found), None)
