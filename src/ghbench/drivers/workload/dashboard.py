"""S6 for the workload driver: a dashboard tab's reads, traced as component ``dashboard``.

Every ``refresh_s`` it loads the session titles (one ``gh issue view`` per session);
every ``click_s`` it opens one session's PR (``gh pr view``), round-robin: the cadence of
every S6 reader (``ghbench.drivers.common.readers``). Its rows are appended to
the window's trace (O_APPEND, one write per row) beside the orchestrator's. A profile
whose dashboard reads no GitHub (``dashboard_reads_github``: AO 0.10's desktop app reads
its daemon) makes no call.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ghbench.clock import SystemClock
from ghbench.drivers.base import DashboardView
from ghbench.drivers.common.readers import ReaderDashboard, ReaderThread
from ghbench.errors import GhbenchError
from ghbench.trace.writer import TraceLoss
from ghbench.workload import calls as ao
from ghbench.workload.config import load_workload_config
from ghbench.workload.process import open_trace_sink, row_settings
from ghbench.workload.runner import CallRunner
from ghbench.workload.transport import make_transport

__all__ = ["ModelDashboard", "ModelDashboardReader"]


class ModelDashboardReader(ReaderThread):
    """The reads a dashboard tab makes, through the model's calls, in its own thread."""

    def __init__(
        self,
        config_path: Path,
        trace_path: Path,
        env: Mapping[str, str],
        *,
        refresh_s: float = 30.0,
        click_s: float = 10.0,
    ) -> None:
        super().__init__(refresh_s, click_s)
        self.config_path, self.trace_path, self.env = config_path, trace_path, dict(env)
        self.calls = 0
        self.loss: TraceLoss | None = None  # the rows its writer could not write

    def _read(self) -> None:
        cfg = load_workload_config(self.config_path)
        token = self.env.get(cfg.token_env, "")
        secrets = (token,) if token else ()
        write, writer = open_trace_sink(self.trace_path, secrets)
        transport = make_transport(cfg, self.env)
        clock = SystemClock()
        runner = CallRunner(transport, clock, write, row_settings(cfg, secrets))
        reads = cfg.policy.dashboard_reads_github
        sessions = [s for s in cfg.sessions if s.pr is not None] if reads else []

        def refresh() -> None:
            for s in sessions:
                if s.issue is not None and not self._stop.is_set():
                    runner.call(
                        ao.issue_view(
                            s.repo, s.issue, component=ao.DASHBOARD_COMPONENT, session_id=s.id
                        )
                    )

        def click(i: int) -> None:
            s = sessions[i]
            runner.call(ao.dashboard_pr_view(s.repo, s.pr or 0, s.id))

        try:
            self._cadence(refresh, click, len(sessions), now=clock.now)
        finally:
            self.calls = runner.calls_made
            writer.close()
            self.loss = writer.loss()
            transport.close()


class ModelDashboard(ReaderDashboard):
    """The model's sessions read as a dashboard would, for one window."""

    def __init__(self, config_path: Path, view: DashboardView, env: Mapping[str, str]) -> None:
        self.model_reader = ModelDashboardReader(
            config_path,
            view.sink.path,
            env,
            refresh_s=view.refresh_s,
            click_s=view.click_s,
        )
        super().__init__(self.model_reader)

    def _notes(self) -> list[str]:
        loss = self.model_reader.loss
        if loss is not None:
            raise GhbenchError(
                f"S6: {loss.rows} of the dashboard reader's rows could not be written to"
                f" {loss.trace} ({loss.reason})"
            )
        return [
            f"S6: the dashboard reader made {self.model_reader.calls} calls (component dashboard)"
        ]
