"""Environments that point real clients at an emulator: gh, git, gh as an enterprise host.

Nothing here starts or serves anything: each function returns the variables a client
needs (and ``gh_enterprise_environment`` writes gh's config in a private home), so a
checkout and the user's own configuration are never touched.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

__all__ = [
    "GITHUB_REMOTE_PREFIXES",
    "credential_entries",
    "gh_enterprise_environment",
    "gh_environment",
    "git_config_environment",
    "git_environment",
]


def gh_environment(url: str, token: str | None, home: Path | None = None) -> dict[str, str]:
    """Environment variables that point the real ``gh`` at the emulator at ``url``."""
    env = {
        "GH_HOST": "github.localhost",
        "HTTP_PROXY": url,
        "HTTPS_PROXY": url,
        "http_proxy": url,
        "https_proxy": url,
        "NO_PROXY": "",
        "no_proxy": "",
        "GH_NO_UPDATE_NOTIFIER": "1",
        "GH_PROMPT_DISABLED": "1",
        "NO_COLOR": "1",
    }
    if token is not None:
        env["GH_TOKEN"] = token
    if home is not None:
        env["HOME"] = str(home)
        env["GH_CONFIG_DIR"] = str(home / ".config" / "gh")
        env["XDG_CONFIG_HOME"] = str(home / ".config")
        env["XDG_CACHE_HOME"] = str(home / ".cache")
        env["TMPDIR"] = str(home / "tmp")
    return env


# Where a user's checkout may point at GitHub: every form git accepts for github.com
GITHUB_REMOTE_PREFIXES = (
    "https://github.com/",
    "http://github.com/",
    "git@github.com:",
    "ssh://git@github.com/",
    "git://github.com/",
)
GIT_TOKEN_VARIABLE = "GH_TOKEN"


def git_environment(
    url: str,
    *,
    host: str = "github.localhost",
    token_variable: str = GIT_TOKEN_VARIABLE,
    existing: Mapping[str, str] | None = None,
    remotes: Sequence[str] = GITHUB_REMOTE_PREFIXES,
) -> dict[str, str]:
    """Environment variables that send git's github.com traffic to the emulator at
    ``url``, without touching a checkout or the user's git configuration.

    git reads configuration from the environment (``GIT_CONFIG_COUNT``,
    ``GIT_CONFIG_KEY_n``/``GIT_CONFIG_VALUE_n``, the command line's scope, above every
    file): ``url.http://HOST/.insteadOf`` rewrites each form of a github.com remote
    (https, http, ssh, scp-like ``git@github.com:``, git://) to ``http://HOST/``;
    ``http.http://HOST/.proxy`` sends those requests, and only those, to the emulator;
    a credential helper for that URL alone (the list reset first, so no other helper is
    asked) answers with the token read from ``$token_variable`` when git asks, so no
    token is written to a file, a config or an argument. ``git remote -v`` then shows
    ``http://HOST/OWNER/REPO.git``, which is how gh (with ``GH_HOST=HOST``) finds the
    repository. ``remotes``: the URL prefixes rewritten (an enterprise checkout's
    ``https://HOST/``, say). Entries already in ``existing`` (a caller's own
    ``GIT_CONFIG_*``) are kept, ours appended after them.
    """
    base = f"http://{host}/"
    entries = [(f"url.{base}.insteadOf", prefix) for prefix in remotes]
    entries.append((f"http.{base}.proxy", url))
    return git_config_environment([*entries, *credential_entries(base, token_variable)], existing)


def credential_entries(
    base: str, token_variable: str = GIT_TOKEN_VARIABLE
) -> list[tuple[str, str]]:
    """git configuration giving URLs under ``base`` a credential helper of their own
    (the list reset first, so no other helper is asked) that answers with the token
    in ``$token_variable`` when git asks: no token in a file, a config or an argument."""
    helper = (
        '!f() { test "$1" = get && printf "username=x-access-token\npassword=%s\n" '
        f'"${token_variable}"; }}; f'
    )
    return [(f"credential.{base}.helper", ""), (f"credential.{base}.helper", helper)]


def git_config_environment(
    entries: Sequence[tuple[str, str]], existing: Mapping[str, str] | None = None
) -> dict[str, str]:
    """``entries`` as git's environment configuration (``GIT_CONFIG_COUNT``,
    ``GIT_CONFIG_KEY_n``/``VALUE_n``), after those already in ``existing``; prompts off."""
    start = int((existing or {}).get("GIT_CONFIG_COUNT", "0") or 0)
    out: dict[str, str] = {}
    for i, (key, value) in enumerate(entries, start):
        out[f"GIT_CONFIG_KEY_{i}"] = key
        out[f"GIT_CONFIG_VALUE_{i}"] = value
    out["GIT_CONFIG_COUNT"] = str(start + len(entries))
    out["GIT_TERMINAL_PROMPT"] = "0"
    return out


def gh_enterprise_environment(
    host: str, socket_path: Path, token: str | None, home: Path
) -> dict[str, str]:
    """Environment for the real ``gh`` to reach the emulator as GitHub Enterprise ``host``.

    gh builds ``https://HOST/api/v3/`` and ``https://HOST/api/graphql`` for any host but
    github.com and github.localhost, so through a proxy it would open a CONNECT tunnel
    (which the emulator refuses). gh's ``http_unix_socket`` setting dials every request,
    https ones included, over a unix socket without TLS: this writes that setting into
    ``home``'s gh config and returns the variables (the token goes in
    ``GH_ENTERPRISE_TOKEN``, which gh reads for enterprise hosts; it ignores ``GH_TOKEN``).
    """
    config_dir = home / ".config" / "gh"
    for directory in (config_dir, home / ".cache", home / "tmp"):
        directory.mkdir(parents=True, exist_ok=True)
    (config_dir / "config.yml").write_text(f"http_unix_socket: {socket_path}\n")
    env = {
        "GH_HOST": host,
        "GH_NO_UPDATE_NOTIFIER": "1",
        "GH_PROMPT_DISABLED": "1",
        "NO_COLOR": "1",
        "HOME": str(home),
        "GH_CONFIG_DIR": str(config_dir),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "TMPDIR": str(home / "tmp"),
    }
    if token is not None:
        env["GH_ENTERPRISE_TOKEN"] = token
    return env
