"""The agents' profiles: names, aliases, each habit with each gh, and faster."""

import msgspec
import pytest

from ghbench.workload.agents.profiles import (
    AGENT_PROFILE_CHOICES,
    AGENT_PROFILES,
    agent_profile,
    faster,
    profile_before_gh_2_102,
)


def test_profiles_and_the_default_alias() -> None:
    assert agent_profile("default") is AGENT_PROFILES["claude-code-gh-2.102"]
    assert agent_profile("claude-code") is AGENT_PROFILES["claude-code-gh-2.102"]
    assert agent_profile("claude-code-badge").badge_interval == 60.0
    assert agent_profile("claude-code-rest-checks").rest_checks
    assert "default" in AGENT_PROFILE_CHOICES
    # each habit with each gh: today's (the names without a gh) and Debian's 2.23
    assert agent_profile("claude-code-badge").gh == "2.102"
    old = agent_profile("claude-code-rest-checks-gh-2.23")
    assert (old.gh, old.rest_checks) == ("2.23", True)
    assert msgspec.structs.replace(old, gh="2.102") == agent_profile("claude-code-rest-checks")
    # what a plan stored before: a habit alone ran gh 2.23's requests
    assert profile_before_gh_2_102("claude-code") == "claude-code-gh-2.23"
    assert profile_before_gh_2_102("none") == "none"
    with pytest.raises(ValueError, match="unknown agent profile 'codex'"):
        agent_profile("codex")


def test_faster_divides_every_wait_of_a_profile() -> None:
    base = AGENT_PROFILES["claude-code-badge-gh-2.102"]
    quick = faster(base, 10.0)
    assert quick.work == (base.work[0] / 10, base.work[1] / 10)
    assert quick.status_poll == base.status_poll / 10 and quick.badge_interval == 6.0
    assert quick.review == base.review and faster(base, 1.0) is base
