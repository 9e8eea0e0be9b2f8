"""The reaper: waits on ghbench's lifeline and stops what ghbench left when it died.

Started by ``ghbench.lifeline`` with the pipe's read end as its one argument; not a
command of its own. See ``ghbench.lifeline`` for why and how.
"""

from __future__ import annotations

import signal
import sys

from ghbench.lifeline import watch
from ghbench.procs import stop_orphans

__all__ = ["main"]


def main() -> None:
    # its own session already keeps the terminal's signals away; these make sure a
    # hang-up or Ctrl-C meant for ghbench's job never ends the watch early
    for sig in (signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    stop_orphans(watch(int(sys.argv[1])))
