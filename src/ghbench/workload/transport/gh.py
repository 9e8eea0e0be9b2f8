"""The ``gh`` transport: the real gh CLI as a subprocess, with AO's exact argv."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Mapping

from ghbench.errors import ToolMissingError
from ghbench.procs import stop_group
from ghbench.signals import signal_name
from ghbench.workload.calls import GhCall, GhResult

__all__ = ["GhTransport", "find_gh"]

_STOP_GRACE_S = 5.0  # a gh past its timeout gets this long after SIGTERM, then SIGKILL
INSTALL_HINT = (
    "install it with 'sudo apt-get install gh' (or use transport: http, which needs no gh)"
)


def find_gh(gh_path: str = "gh") -> str:
    """The gh executable's path; ToolMissingError with an install hint when absent."""
    found = shutil.which(gh_path)
    if found is None:
        raise ToolMissingError(f"the gh CLI ({gh_path!r}) is not on PATH; {INSTALL_HINT}")
    return found


class GhTransport:
    """Runs ``gh <argv>`` like AO's ``execFile`` and captures its output."""

    def __init__(
        self,
        gh_path: str = "gh",
        *,
        host: str | None = None,
        token_env: str = "GH_TOKEN",
        env: Mapping[str, str] | None = None,
        timeout_s: float = 120.0,
        cwd: str | None = None,
    ) -> None:
        """``cwd``: where gh runs (an agent's checkout: gh finds its repository and branch
        there); None runs it in ghbench's own directory, as AO's calls name ``--repo``."""
        self.executable = find_gh(gh_path)
        self.cwd = cwd
        base = dict(os.environ if env is None else env)
        base.setdefault("GH_NO_UPDATE_NOTIFIER", "1")
        base.setdefault("GH_PROMPT_DISABLED", "1")
        if host:
            base["GH_HOST"] = host
        if token_env != "GH_TOKEN" and token_env in base:
            base["GH_TOKEN"] = base[token_env]
        self.env = base
        self.timeout_s = timeout_s

    def call(self, call: GhCall) -> GhResult:
        start = time.monotonic()
        proc = subprocess.Popen(
            [self.executable, *call.argv],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=self.env,
            cwd=self.cwd,
            start_new_session=True,
        )
        try:
            out, err = proc.communicate(timeout=self.timeout_s)
        except subprocess.TimeoutExpired:
            stop_group(proc, _STOP_GRACE_S)
            out, err = proc.communicate()
        except BaseException:
            # interrupted mid-call: the call is abandoned, its process group stopped
            stop_group(proc, _STOP_GRACE_S)
            raise
        duration = time.monotonic() - start
        code = proc.returncode
        return GhResult(
            exit_code=code if code >= 0 else 1,
            stdout=out,
            stderr=err,
            duration_s=duration,
            signal=signal_name(code),
        )

    def close(self) -> None:
        return None
