"""Where the control client's token and base URL come from, for real GitHub.

Token: ``GH_TOKEN``, then ``GITHUB_TOKEN``, then ``gh auth token`` (gh's own store), the
order gh itself uses for github.com. Base URL: ``GITHUB_API_URL``, else
``https://api.github.com``. The token is returned, never logged, and never put in an
error message.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping

from ghbench.errors import GitHubError
from ghbench.procs import tool_output

__all__ = ["DEFAULT_API_URL", "resolve_api_url", "resolve_token"]

DEFAULT_API_URL = "https://api.github.com"
TOKEN_VARS = ("GH_TOKEN", "GITHUB_TOKEN")


def resolve_api_url(env: Mapping[str, str]) -> str:
    """The REST base URL, without a trailing slash."""
    url = env.get("GITHUB_API_URL", "").strip() or DEFAULT_API_URL
    return url.rstrip("/")


def _gh_auth_token(env: Mapping[str, str]) -> str | None:
    gh = shutil.which("gh", path=env.get("PATH"))
    if gh is None:
        return None
    return tool_output([gh, "auth", "token"], timeout=20, env=env)


def resolve_token(env: Mapping[str, str]) -> str:
    """The token for real GitHub; raise GitHubError saying how to provide one."""
    for name in TOKEN_VARS:
        value = env.get(name, "").strip()
        if value:
            return value
    token = _gh_auth_token(env)
    if token:
        return token
    raise GitHubError(
        "no GitHub token: set GH_TOKEN or GITHUB_TOKEN, or run 'gh auth login'"
        " (or use --github emulator to run offline)"
    )
