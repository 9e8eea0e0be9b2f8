"""AO's own failure line, found under its notifier noise and colours."""

from __future__ import annotations

from ghbench.drivers.ao_output import ao_error_line

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
