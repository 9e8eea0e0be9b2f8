"""The embedded emulator as a run's GitHub: a subprocess with durable state.

The emulator backend starts and stops the emulator process and keeps its state in a
directory, so ``setup`` and ``measure`` (two runs of ghbench) see the same repos, PRs
and rate-limit buckets.

Unmodified gh-based orchestrators reach the emulator with ``GH_HOST=github.localhost``
(gh's plain-HTTP host), a token, and both ``HTTP_PROXY`` and ``HTTPS_PROXY`` pointing at
the emulator: gh then sends ``GET http://api.github.localhost/...`` to the proxy
address, which the emulator serves (limits reference §5b, AO reference §9).
"""

from __future__ import annotations

import secrets
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ghbench.clock import Clock
from ghbench.emulator.client_env import git_environment
from ghbench.errors import ArtifactError, EmulatorError, GhbenchError
from ghbench.github.benchmark_client import BenchmarkClient
from ghbench.github.front_route import FrontRoute
from ghbench.github.names import BackendName
from ghbench.github.seed import (
    EmulatorControl,
    add_review_comments,
    push_branch,
    seed_repo,
    set_faults,
)

__all__ = ["EmulatorBackend"]


class _EmulatorHandle(Protocol):
    url: str

    @property
    def stderr_tail(self) -> str: ...

    def stop(self, timeout: float = ...) -> Any: ...


@dataclass
class _AttachedHandle:
    """An emulator someone else started (a test server): never stopped by us."""

    url: str
    stderr_tail: str = ""

    def stop(self, timeout: float = 0.0) -> None:
        return None


_LOG_WAIT_S = 1.0
# what the emulator's log says when its state could not be written: the disk, not it
_STORAGE_FAILURES = (
    "database or disk is full",
    "No space left on device",
    "File too large",
    "Disk quota exceeded",
    "disk I/O error",  # SQLite, when the file-size limit (RLIMIT_FSIZE) stops a write
)


@dataclass
class EmulatorBackend:
    """The embedded emulator as a subprocess with durable state in ``state_dir``.

    Its token and the control API's key are minted here, in memory, and reach the
    emulator process in its environment only. ``control_key``: use this key instead
    (``GHBENCH_EMULATOR_CONTROL_KEY`` from ghbench's own environment, which is how
    a user shares one with a standalone ``ghbench emulator serve``).
    """

    state_dir: Path
    clock: Clock
    name: BackendName = "emulator"
    seeds_repos: bool = True
    port: int = 0
    config: Path | None = None  # ``emulator serve --config`` (e.g. injected latency)
    control_key: str | None = field(default=None, repr=False)
    _handle: _EmulatorHandle | None = field(default=None, repr=False)
    _token: str | None = field(default=None, repr=False)
    _agent_token: str | None = field(default=None, repr=False)
    _socket: Path | None = field(default=None, repr=False)
    _socket_dir: Path | None = field(default=None, repr=False)  # ours to remove

    @property
    def token(self) -> str:
        if self._token is None:
            self._token = _emulator_token()
        return self._token

    def control(self) -> EmulatorControl:
        """The running emulator's control API (its URL and key)."""
        if self.control_key is None:
            self.control_key = _emulator_token()
        return EmulatorControl(self.url, self.control_key)

    @property
    def agent_token(self) -> str:
        """The agents' token: the same user (so the same budget), another token."""
        if self._agent_token is None:
            self._agent_token = _emulator_token()
        return self._agent_token

    @property
    def gh_socket(self) -> Path | None:
        return self._socket

    @property
    def url(self) -> str:
        if self._handle is None:
            raise EmulatorError("the emulator is not running")
        return self._handle.url.rstrip("/")

    @classmethod
    def attach(
        cls,
        url: str,
        token: str,
        clock: Clock,
        state_dir: Path,
        *,
        control_key: str,
        gh_socket: Path | None = None,
        agent_token: str | None = None,
    ) -> EmulatorBackend:
        """Use an emulator that is already running at ``url`` (with that control key,
        and ``gh_socket`` when it listens on one)."""
        return cls(
            state_dir=state_dir,
            clock=clock,
            control_key=control_key,
            _handle=_AttachedHandle(url),
            _token=token,
            _agent_token=agent_token or token,
            _socket=gh_socket,
        )

    def start(self) -> None:
        if self._handle is not None:
            return
        # the emulator's code takes ~0.4 s to import (docs/performance.md); a run against
        # real GitHub never needs it
        from ghbench.emulator import start_emulator_process  # noqa: PLC0415

        self.state_dir.mkdir(parents=True, exist_ok=True)
        if self.control_key is None:
            self.control_key = _emulator_token()
        # a unix socket's path must stay short: /tmp, not under the state directory
        self._socket_dir = Path(tempfile.mkdtemp(prefix="ghbench-emu-", dir="/tmp"))
        self._socket = self._socket_dir / "gh.sock"
        try:
            handle: Any = start_emulator_process(
                self.state_dir,
                port=self.port,
                tokens=[self.token, self.agent_token],
                uds=self._socket,
                config=self.config,
                control_key=self.control_key,
            )
        except BaseException:
            self._remove_socket_dir()
            raise
        self._handle = handle

    def stop(self) -> None:
        if self._handle is not None and not isinstance(self._handle, _AttachedHandle):
            handle, self._handle = self._handle, None
            handle.stop()
            self._remove_socket_dir()

    def _remove_socket_dir(self) -> None:
        if self._socket_dir is not None:
            shutil.rmtree(self._socket_dir, ignore_errors=True)
            self._socket_dir = self._socket = None

    def _storage_failure(self, wait: float) -> str | None:
        """What the emulator's log says about its state failing to be written; a server
        error's traceback is logged as it answers, so it is given ``wait`` s to arrive."""
        deadline = self.clock.now() + wait
        while True:
            log = self._handle.stderr_tail if self._handle is not None else ""
            cause = next((c for c in _STORAGE_FAILURES if c in log), None)
            if cause is not None or self.clock.now() >= deadline:
                return cause
            self.clock.sleep(0.05)

    def explain(self, error: GhbenchError) -> GhbenchError:
        cause = self._storage_failure(wait=_LOG_WAIT_S if "HTTP 5" in str(error) else 0.0)
        if cause is None:
            return error
        return GhbenchError(
            f"the emulator could not write its state under {self.state_dir} ({cause}):"
            f" free space on that disk (or raise the file-size limit) and run again;"
            f" the failing call was: {error}"
        )

    def check_state(self, setup: Path) -> None:
        if self._handle is None and not (self.state_dir.is_dir() and any(self.state_dir.iterdir())):
            raise ArtifactError(
                f"{self.state_dir}: the emulator's state is gone (the setup {setup} was made"
                " in it, with its repos and PRs): run 'ghbench setup' again with the same"
                " --out, or restore that directory"
            )

    def __enter__(self) -> EmulatorBackend:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def api_url(self) -> str:
        return self.url

    @property
    def gh_host(self) -> str:
        return "github.localhost"

    def benchmark_client(self) -> BenchmarkClient:
        return BenchmarkClient(self.url, self.token, self.clock)

    def agent_env(self) -> dict[str, str]:
        return {**self.orchestrator_env(), "GH_TOKEN": self.agent_token}

    def orchestrator_env(self) -> dict[str, str]:
        """gh's host, token and proxies, and git's rewriting of github.com remotes to
        the emulator (``git_environment``: no token in it, the helper reads ``GH_TOKEN``)."""
        proxy = self.url
        env = {
            "GH_HOST": "github.localhost",
            "GH_TOKEN": self.token,
            "HTTP_PROXY": proxy,
            "HTTPS_PROXY": proxy,
            "http_proxy": proxy,
            "https_proxy": proxy,
            "NO_PROXY": "",
            "no_proxy": "",
            "GH_NO_UPDATE_NOTIFIER": "1",
            "GH_PROMPT_DISABLED": "1",
            "GITHUB_API_URL": proxy,
        }
        env.update(git_environment(proxy))
        return env

    def describe(self) -> str:
        return f"embedded emulator at {self.url} (state {self.state_dir})"

    def push_branch(self, repo: str, branch: str, message: str) -> None:
        push_branch(self.control(), repo, branch, message)

    def ensure_repo(self, repo: str, issues: Sequence[int], client: BenchmarkClient) -> None:
        seed_repo(self.control(), repo, issues, lambda n: client.issue_exists(repo, n))

    def set_faults(self, faults: Mapping[str, object]) -> None:
        set_faults(self.control(), faults)

    def check_gh_route(self) -> None:
        return None  # gh reaches the emulator through the environment ghbench gives it

    def front_route(self) -> FrontRoute:
        return FrontRoute("emulate", self.url)

    def add_review_comments(self, plan: Sequence[tuple[str, int, int]]) -> int:
        return add_review_comments(self.control(), plan)


def _emulator_token() -> str:
    """A fresh token (or control key) for this process's emulator, held in memory only.

    The emulator keys rate-limit buckets by user, as GitHub does for personal tokens,
    so setup and measure (separate processes, separate tokens for the same user) share
    one budget without any token being written down; the emulator stores only hashes.
    """
    return "ghp_" + secrets.token_hex(18)
