"""The agent model as the coding agent an orchestrator launches: a ``claude`` on its PATH.

AO's ``claude-code`` agent plugin starts ``claude`` in the session's worktree, in a tmux
session, and watches for a process of that name: the TypeScript builds probe ``claude
--version`` and type the prompt into the terminal; AO's daemon runs ``claude auth
status`` first, then ``claude --session-id … -- PROMPT`` (0.12 resumes a session after a
restart with ``--resume ID``). ``install_agent`` writes a ``claude`` that answers both
probes and otherwise runs ghbench's agent model (``ghbench workload agent``, one
profile) in the directory it is started in, with the real gh (``--transport gh``) and
real pushes (``--push``), for as long as the session lives; it stays in the foreground
reading what AO types, as a real agent does. A resumed session has done its work: it
waits for what AO types next, as ``claude --resume`` does.

Its gh calls are traced where the orchestrator's driver traces its agents' gh (ghbench's
record shim, first on the same PATH, one row per HTTP exchange): the model's own rows
go nowhere, so no call is counted twice. The session id is ``AO_SESSION`` (the
TypeScript builds) or ``AO_SESSION_ID`` (the daemon); the issue is ``AO_ISSUE_ID``'s digits;
the repository and branch are the worktree's (``origin``, the branch checked out).
``GHBENCH_AGENT_LOG``, when set in the agents' environment, collects the model's
stderr. ``speed`` runs the session that many times faster (a real-time run whose
runbook durations are scaled down, ``--duration-scale``, scales its agents alike).

A driver puts it in a directory first on its agents' PATH: the TypeScript AO driver in
its runtime's ``bin`` (``ghbench.drivers.ao_typescript.runtime``), the daemon's driver in
its world's (``ghbench.drivers.ao_daemon.world``).
"""

from __future__ import annotations

import shlex
from pathlib import Path

from ghbench.artifacts.io import replace_atomic
from ghbench.workload.agents.profiles import AgentProfileName

__all__ = ["AGENT_EXECUTABLE", "CLAUDE_VERSION", "agent_script", "install_agent"]

AGENT_EXECUTABLE = "claude"  # what AO's claude-code plugin runs
CLAUDE_VERSION = "2.0.0 (Claude Code)"  # what ``claude --version`` answers
SESSION_LIFETIME = "24h"  # the model runs until its session ends, or this long

_SCRIPT = """\
#!/bin/sh
# ghbench: AO's coding agent is ghbench's agent model, profile {profile}
case "${{1:-}}" in
  --version) echo {version}; exit 0 ;;
  auth) exit 0 ;;
esac
case " $* " in
  *" --resume "*) exec cat >/dev/null ;;  # resumed: its work is done, it waits for input
esac
session=${{AO_SESSION:-${{AO_SESSION_ID:-agent}}}}
issue=$(printf '%s' "${{AO_ISSUE_ID:-}}" | tr -cd 0-9)
AO_GH_TRACE_FILE=/dev/null {python} -m ghbench workload agent --profile {profile} \\
  --transport gh --cwd "$PWD" --push --session "$session" --issue "${{issue:-1}}" \\
  --speed {speed:g} --duration {lifetime} \\
  >/dev/null 2>>"${{GHBENCH_AGENT_LOG:-/dev/null}}" </dev/null &
# the prompt and AO's later messages arrive on the terminal: read them, as an agent does
cat >/dev/null
wait
"""


def agent_script(profile: AgentProfileName, python: str, speed: float = 1.0) -> str:
    """The ``claude`` that runs the agent model's ``profile`` with ``python``."""
    return _SCRIPT.format(
        profile=profile,
        version=shlex.quote(CLAUDE_VERSION),
        python=shlex.quote(python),
        speed=speed,
        lifetime=SESSION_LIFETIME,
    )


def install_agent(
    bin_dir: Path, profile: AgentProfileName, python: str, speed: float = 1.0
) -> Path:
    """Write ``bin_dir/claude`` (atomically, executable) for ``profile``; its path."""
    script = agent_script(profile, python, speed)
    path = replace_atomic(bin_dir / AGENT_EXECUTABLE, script.encode())
    path.chmod(0o755)
    return path
