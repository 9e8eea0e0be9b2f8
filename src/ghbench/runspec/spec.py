"""``RunSpec``: what a run is, built once by the CLI and passed on unchanged.

Every command turns its flags into one ``RunSpec`` (``ghbench.runspec.build``, from the
flag table ``ghbench.runspec.flags``); the flows (harness, simulation,
matrix) and the drivers read it and never re-wrap it. A flow that runs several things
derives each one's spec with ``msgspec.structs.replace`` (a matrix cell, an A/B build, a
capacity probe). The workload driver serialises it, with the sessions, as the model's
config (``ghbench.drivers.workload.driver``).

Durations keep the text they were given (``2m``), which the scorecard records as
requested, beside their seconds.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from ghbench.budgets import Budget
from ghbench.errors import UsageError
from ghbench.github.names import BackendName
from ghbench.runspec.cells import SCENARIOS, Cell
from ghbench.runspec.names import AgentsName, AoLayoutName, DriverName, RunBackendName
from ghbench.timefmt import MAX_DURATION_S, duration_flag, format_duration
from ghbench.workload.agents.profiles import AgentProfileName, canonical_agent_profile
from ghbench.workload.config import TransportName
from ghbench.workload.profiles import DEFAULT_PROFILE, PROFILES, PolicyParams, ProfileName

__all__ = ["Duration", "RunSpec"]


class Duration(msgspec.Struct, frozen=True):
    """Seconds, and the text they were given as (``2m``) or are shown as (``2m 0s``)."""

    seconds: float
    text: str

    @classmethod
    def parse(
        cls, flag: str, text: str, *, allow_zero: bool = True, maximum: float = MAX_DURATION_S
    ) -> Duration:
        """A duration flag's value; UsageError naming ``flag`` when it is not one."""
        return cls(duration_flag(flag, text, allow_zero=allow_zero, maximum=maximum), text)

    @classmethod
    def of(cls, seconds: float) -> Duration:
        """``seconds`` as a run shows it (``format_duration``)."""
        return cls(seconds, format_duration(seconds))


_S2 = SCENARIOS["S2"]


class RunSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One run: the orchestrator and how it runs, the GitHub it calls, what is measured,
    the setup it needs and where things go."""

    # the orchestrator
    driver: DriverName = "workload"
    ao_command: str | None = None  # --ao: an AO checkout or executable (driver ao)
    ao_layout: AoLayoutName = "auto"  # AO's session storage (driver ao)
    transport: TransportName = "gh"  # how the model calls GitHub
    profile: ProfileName = DEFAULT_PROFILE  # the AO build the model plays
    policy: PolicyParams | None = None  # a config's whole policy; None: the profile's
    tick: Duration | None = None  # the model's poll interval; None: the policy's
    agents: AgentsName = "none"  # the agent model's profile: the coding agents' own calls
    # how many of the cell's sessions run their agent (the first ones); None: every one
    agent_count: int | None = None
    # the GitHub
    backend: RunBackendName = "github"
    # the kind of token and what GitHub allows it an hour (``ghbench.budgets``); None: a
    # user's token (5,000 and 5,000), a replay the limits its recording shows
    budget: Budget | None = None
    repos: tuple[str, ...] = ()  # the matrix's --repos on real GitHub
    # what is measured
    cell: Cell = Cell("S2", "T1", 1)
    warmup: Duration = Duration(_S2.warmup_s, "2m")
    duration: Duration = Duration(_S2.duration_s, "15m")
    duration_scale: float = 1.0  # real time: the runbook's durations times this
    seed: int = 0
    session_ids: bool = True  # the model's rows carry sessionId (what a replay needs)
    # the setup
    project: str | None = None  # the AO project id (agent-orchestrator.yaml)
    ao_config: Path | None = None  # --config: that agent-orchestrator.yaml
    issues: tuple[int, ...] = ()  # one per session
    poll_interval: Duration = Duration(30.0, "30s")  # setup's PR polling
    setup_timeout: Duration = Duration(600.0, "10m")  # setup's wait for PRs
    # where things go
    out_dir: Path = Path("ghbench-out")

    def __post_init__(self) -> None:
        self.cell.check()
        if self.duration.seconds <= 0 or self.warmup.seconds < 0:
            raise UsageError("--duration must be positive and --warmup not negative")
        if not 0 < self.duration_scale <= 1:
            raise UsageError(f"--duration-scale {self.duration_scale:g}: use a number in (0, 1]")
        if self.agent_count is not None:
            self._check_agent_count(self.agent_count)

    def _check_agent_count(self, count: int) -> None:
        sessions = self.cell.sessions
        if self.agent_model is None:
            raise UsageError(
                f"--agent-count {count}: the sessions run no agents; give --agents PROFILE"
                " in S3 or S4"
            )
        if not 0 <= count <= sessions:
            raise UsageError(
                f"--agent-count {count}: one agent per session, so 0 to --sessions ({sessions})"
            )

    @property
    def runs_agents(self) -> bool:
        """The cell's sessions run the agent model (S3, S4 with --agents; the others'
        sessions are idle)."""
        return self.agent_model is not None

    @property
    def agent_model(self) -> AgentProfileName | None:
        """The agent model's profile the cell's sessions run, by its own name (``agents``
        may be an alias: ``claude-code``); None when they run none."""
        if self.agents == "none" or not self.cell.info.agents:
            return None
        return canonical_agent_profile(self.agents)

    @property
    def agent_sessions(self) -> int:
        """How many of the cell's sessions run their agent (0 without agents)."""
        if self.agent_model is None:
            return 0
        return self.cell.sessions if self.agent_count is None else self.agent_count

    @property
    def github(self) -> BackendName:
        """The real GitHub a real-time run calls (UsageError for a simulated one)."""
        if self.backend == "simulated":
            raise UsageError("a simulated run has no GitHub of its own; use emulator or github")
        return self.backend

    def model_policy(self) -> PolicyParams:
        """The model's policy: the config's, else the profile's; ``tick`` over either."""
        base = self.policy if self.policy is not None else PROFILES[self.profile]
        if self.tick is None:
            return base
        return msgspec.structs.replace(base, tick=self.tick.seconds)
