"""Running the real git against a served emulator (a unique module name)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

from ghbench.emulator.client_env import git_environment


def base_env(home: Path) -> dict[str, str]:
    """git with a private HOME, no system config, no prompts, a fixed identity."""
    home.mkdir(parents=True, exist_ok=True)
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_AUTHOR_NAME": "Octo Cat",
        "GIT_AUTHOR_EMAIL": "octo@users.noreply.github.com",
        "GIT_COMMITTER_NAME": "Octo Cat",
        "GIT_COMMITTER_EMAIL": "octo@users.noreply.github.com",
    }


def with_token(env: Mapping[str, str], url: str, token: str, host: str) -> dict[str, str]:
    """``env`` plus ghbench's git environment for ``host`` (token in GH_TOKEN)."""
    out = dict(env)
    out.update(git_environment(url, host=host, existing=env))
    out["GH_TOKEN"] = token
    return out


def git(
    env: Mapping[str, str], *args: str, cwd: Path | None = None, check: bool = True
) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        ["git", *args], env=dict(env), cwd=cwd, capture_output=True, text=True, timeout=120
    )
    if check:
        assert proc.returncode == 0, f"git {' '.join(args)}: {proc.stderr}"
    return proc


def commit_file(env: Mapping[str, str], work: Path, path: str, text: str, message: str) -> str:
    target = work / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text)
    git(env, "add", path, cwd=work)
    git(env, "commit", "-q", "-m", message, cwd=work)
    return git(env, "rev-parse", "HEAD", cwd=work).stdout.strip()


def bare_git(git_dir: Path, *args: str, data: bytes = b"") -> str:
    """git on a bare repository, no configuration but its own; its stdout."""
    proc = subprocess.run(
        ["git", "--git-dir", str(git_dir), *args],
        input=data,
        capture_output=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(git_dir)},
    )
    return proc.stdout.decode()
