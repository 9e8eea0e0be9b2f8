"""Three ways to run a gh invocation: the real gh, httpx, or the emulator in-process.

``gh`` runs the real CLI with the exact argv; ``http`` makes the request gh
would make (see ``ghbench.workload.ghmap``) with httpx; ``inprocess`` hands the
same request to the emulator core with no socket, on a virtual clock. All three
answer a ``GhResult`` shaped like gh's output, so rows are built the same way.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from ghbench.workload.config import WorkloadConfig
from ghbench.workload.runner import Transport

__all__ = ["make_transport"]


def make_transport(cfg: WorkloadConfig, env: Mapping[str, str] | None = None) -> Transport:
    """The real-time transport a config asks for (``gh`` or ``http``)."""
    # imported here: httpx costs 80-100 ms of start-up, which a simulation (the
    # in-process transport, a sibling module) never needs
    from ghbench.workload.transport.gh import GhTransport  # noqa: PLC0415
    from ghbench.workload.transport.http import HttpTransport  # noqa: PLC0415

    environ = dict(os.environ if env is None else env)
    if cfg.transport == "gh":
        return GhTransport(cfg.gh_path, host=cfg.host, token_env=cfg.token_env, env=environ)
    if cfg.transport == "http":
        return HttpTransport(cfg.rest_base, token=environ.get(cfg.token_env))
    raise ValueError(f"transport {cfg.transport!r} runs only inside ghbench simulate")
