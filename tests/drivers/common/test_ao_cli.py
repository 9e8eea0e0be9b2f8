"""Running AO's CLI: a subcommand's failure in AO's own words (found under its notifier
noise and colours), and one that hangs."""

from __future__ import annotations

from pathlib import Path

import pytest

from ghbench.drivers.common.ao_cli import AoCommand, ao_error_line, run_ao
from ghbench.errors import GhbenchError

# What `ao batch-spawn` printed on stderr when gh's preflight failed (issue 10, item 1).
PREFLIGHT = (
    "[notifier-discord] No webhookUrl configured.\n"
    "  Set it in agent-orchestrator.yaml under notifiers.discord.webhookUrl\n"
    "  Create a webhook: Discord Server Settings > Integrations > Webhooks > New Webhook\n"
    "[notifier-openclaw] No token configured.\n"
    "  Set OPENCLAW_HOOKS_TOKEN env var, or add token to your notifier config.\n"
    "  Run: ao setup openclaw\n"
    "[notifier-slack] No webhookUrl configured — notifications will be no-ops\n"
    "\x1b[31m✗ GitHub CLI is not authenticated. Run: gh auth login\x1b[39m\n"
)


def test_the_failure_line_not_the_noise() -> None:
    assert ao_error_line(PREFLIGHT) == "GitHub CLI is not authenticated. Run: gh auth login"


def test_error_prefix_and_last_line_fallbacks() -> None:
    assert ao_error_line("starting\nError: Unknown project: foo\n") == "Unknown project: foo"
    assert ao_error_line("[notifier-x] noise\n  more\nsomething odd\n") == "something odd"
    assert ao_error_line("", "\n") == "no output"
    assert ao_error_line("out", "Failed to start lifecycle worker: boom") == (
        "Failed to start lifecycle worker: boom"
    )


def _ao(tmp_path: Path, body: str) -> AoCommand:
    path = tmp_path / "ao"
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return AoCommand(str(path))


def test_a_subcommand_that_fails_is_named_with_ao_s_reason(tmp_path: Path) -> None:
    ao = _ao(
        tmp_path,
        'echo "[notifier-slack] no webhook" >&2; echo "Error: --name is required" >&2; exit 2',
    )
    env = {"PATH": "/usr/bin:/bin"}
    with pytest.raises(GhbenchError) as failed:
        run_ao(ao, ["spawn", "--project", "p", "--issue", "1"], env=env, cwd=tmp_path, timeout=30)
    assert str(failed.value) == "'ao spawn' failed (code 2): --name is required"
    proc = run_ao(ao, ["session", "ls", "--json"], env=env, cwd=tmp_path, timeout=30, check=False)
    assert proc.returncode == 2  # the caller reads it


def test_a_subcommand_that_hangs_is_named(tmp_path: Path) -> None:
    ao = _ao(tmp_path, "exec sleep 30")
    with pytest.raises(GhbenchError, match=r"^'ao session kill' did not finish within 0.2 s$"):
        run_ao(
            ao, ["session", "kill", "p-1"], env={"PATH": "/usr/bin:/bin"}, cwd=tmp_path, timeout=0.2
        )
