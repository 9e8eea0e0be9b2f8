"""The model's pollers, one per way an AO build polls, chosen by the profile.

``PolicyParams.poller`` names the row of ``POLLERS``: ``lifecycle`` is AO's TypeScript
lifecycle manager (``ghbench.workload.poller``: gh calls, parallel guards, per-session
checks), ``scm-observer`` AO 0.10's SCM observer (``ghbench.workload.observer``: its
own HTTP calls, one after another, a persistent store). Both are driven the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ghbench.workload.caches import TtlCache
from ghbench.workload.config import SessionSpec
from ghbench.workload.observer import Observer
from ghbench.workload.poller import Poller, SessionState, TickReport
from ghbench.workload.profiles import PolicyParams, PollerKind
from ghbench.workload.runner import CallRunner

__all__ = ["POLLERS", "PollerModel", "make_poller"]


class PollerModel(Protocol):
    """What the flows drive: ticks, restarts (S1, S5), spawns (S3), and what the S6
    dashboard readers share with the poller."""

    sessions: dict[str, SessionState]
    issues: TtlCache[tuple[str, int], bool]

    def tick(self) -> TickReport: ...

    def restart(self) -> None: ...

    def add_session(self, spec: SessionSpec) -> None: ...


Factory = Callable[..., PollerModel]
POLLERS: dict[PollerKind, Factory] = {"lifecycle": Poller, "scm-observer": Observer}


def make_poller(
    policy: PolicyParams,
    runner: CallRunner,
    *,
    repos: tuple[str, ...],
    sessions: tuple[SessionSpec, ...] = (),
) -> PollerModel:
    """The poller ``policy`` names, over ``runner``, watching ``repos`` and ``sessions``."""
    poller: PollerModel = POLLERS[policy.poller](policy, runner, repos=repos, sessions=sessions)
    return poller
