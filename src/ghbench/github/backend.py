"""Which GitHub a benchmark runs against: real GitHub, or the embedded emulator.

A backend gives the harness three things: a counted ``ControlClient`` for its own
calls, the environment the orchestrator needs to reach the same GitHub, and the
repo slug as seen there. The emulator backend also starts and stops the emulator
process and keeps its state in a directory, so ``setup`` and ``measure`` (two runs
of ghbench) see the same repos, PRs and rate-limit buckets.

Unmodified gh-based orchestrators reach the emulator with ``GH_HOST=github.localhost``
(gh's plain-HTTP host), a token, and both ``HTTP_PROXY`` and ``HTTPS_PROXY`` pointing at
the emulator: gh then sends ``GET http://api.github.localhost/...`` to the proxy
address, which the emulator serves (limits reference §5b, AO reference §9).
"""

from __future__ import annotations

import secrets
import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ghbench.clock import Clock
from ghbench.emulator.client_env import git_environment
from ghbench.emulator.control_access import CONTROL_KEY_ENV
from ghbench.errors import EmulatorError, GhbenchError, GitHubError
from ghbench.github.auth import (
    GitHubToken,
    check_gh_route,
    is_enterprise,
    resolve_api_url,
    resolve_gh_host,
    resolve_token,
)
from ghbench.github.control import ControlClient
from ghbench.github.names import BackendName
from ghbench.github.seed import EmulatorControl, push_branch, seed_repo, set_faults

__all__ = [
    "Backend",
    "BackendName",
    "EmulatorBackend",
    "RealGitHubBackend",
    "make_backend",
]

# Variables that would send gh (or a Go/Python HTTP client) somewhere else.
_ROUTING_VARS = (
    "GH_HOST",
    "GH_ENTERPRISE_TOKEN",
    "GITHUB_ENTERPRISE_TOKEN",
    "NO_PROXY",
    "no_proxy",
    "http_proxy",
    "https_proxy",
    "ALL_PROXY",
    "all_proxy",
)


class Backend(Protocol):
    """The GitHub a run talks to."""

    name: BackendName

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def control_client(self) -> ControlClient: ...

    def orchestrator_env(self) -> dict[str, str]:
        """Variables to add to the orchestrator's environment (may hold the token)."""
        ...

    def agent_env(self) -> dict[str, str]:
        """The same for the agents an orchestrator starts: the same GitHub and budget;
        on the emulator, a second token of the same user, so its ledger tells the
        agents' spend from the orchestrator's."""
        ...

    @property
    def gh_socket(self) -> Path | None:
        """A unix socket gh can reach this GitHub on (``http_unix_socket``), if any."""
        ...

    def describe(self) -> str:
        """One line for the console: where the calls go (never the token)."""
        ...

    @property
    def api_url(self) -> str:
        """The REST root the harness and an HTTP client use."""
        ...

    def push_branch(self, repo: str, branch: str, message: str) -> None:
        """Stand in for an agent's ``git push`` of a new branch (emulator only)."""
        ...

    @property
    def gh_host(self) -> str:
        """The host gh is pointed at (``GH_HOST``)."""
        ...

    @property
    def token(self) -> str: ...

    def ensure_repo(self, repo: str, issues: Sequence[int], control: ControlClient) -> None:
        """Make sure ``repo`` and its issues exist (the emulator seeds; GitHub is left alone)."""
        ...

    def explain(self, error: GhbenchError) -> GhbenchError:
        """``error`` with its cause when the backend knows it better (the embedded
        emulator could not write its state: a full disk, not the emulator's fault)."""
        ...


@dataclass
class RealGitHubBackend:
    """GitHub (api.github.com, an enterprise host or ``GITHUB_API_URL``), with gh's token.

    Host, REST root and token are resolved as gh resolves them (``ghbench.github.auth``),
    and the orchestrator gets them explicitly (``GH_HOST``, ``GH_TOKEN``, and
    ``GH_ENTERPRISE_TOKEN`` for an enterprise host, where gh ignores ``GH_TOKEN``), so
    its gh and the harness's control calls spend and read one budget. Proxies come from
    the user's environment for both, as they do for gh.
    """

    env: Mapping[str, str]
    clock: Clock
    name: BackendName = "github"
    _token: GitHubToken | None = field(default=None, repr=False)

    def start(self) -> None:
        self._token = resolve_token(self.env, self.gh_host)

    def explain(self, error: GhbenchError) -> GhbenchError:
        return error

    def stop(self) -> None:
        self._token = None

    def _found(self) -> GitHubToken:
        if self._token is None:
            self._token = resolve_token(self.env, self.gh_host)
        return self._token

    @property
    def token(self) -> str:
        return self._found().value

    @property
    def api_url(self) -> str:
        return resolve_api_url(self.env)

    @property
    def gh_host(self) -> str:
        return resolve_gh_host(self.env)

    def check_gh_route(self) -> None:
        """For orchestrators that call gh: refuse a gh host that is not the API's."""
        check_gh_route(self.env)

    def control_client(self) -> ControlClient:
        found = self._found()
        return ControlClient(
            self.api_url,
            found.value,
            self.clock,
            trust_env=True,
            token_source=found.source,
            token_fix=found.fix,
        )

    def orchestrator_env(self) -> dict[str, str]:
        # The orchestrator's gh must spend the budget the brackets read: the same host
        # and token, whatever gh login or GH_HOST the user's shell has.
        host, token = self.gh_host, self.token
        env = {"GH_HOST": host, "GH_TOKEN": token}
        if is_enterprise(host):
            env["GH_ENTERPRISE_TOKEN"] = token
        return env

    def agent_env(self) -> dict[str, str]:
        return self.orchestrator_env()  # one token: GitHub cannot tell them apart

    @property
    def gh_socket(self) -> Path | None:
        return None

    def describe(self) -> str:
        return f"GitHub at {self.api_url} (gh host {self.gh_host})"

    def push_branch(self, repo: str, branch: str, message: str) -> None:
        # On GitHub the setup actions commit through the contents API instead.
        return None

    def ensure_repo(self, repo: str, issues: Sequence[int], control: ControlClient) -> None:
        """Repos and issues are the user's to create: check them before anything starts.

        One counted control call for the repo and one per issue; a bad token, a repo the
        token cannot see, or a missing issue is an error before the orchestrator runs.
        """
        control.require_repo(repo)
        missing = [n for n in issues if not control.is_issue(repo, n)]
        if missing:
            shown = ", ".join(f"#{n}" for n in missing[:5]) + (" ..." if len(missing) > 5 else "")
            raise GitHubError(
                f"{repo} has no issue {shown} ({len(missing)} of {len(issues)} missing; a pull"
                f" request's number is not an issue): create them in {repo}, or pass --issues"
                " that exist"
            )


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


@contextmanager
def explained(backend: Backend) -> Iterator[None]:
    """Errors raised inside go out with the backend's explanation (``Backend.explain``)."""
    try:
        yield
    except GhbenchError as exc:
        better = backend.explain(exc)
        if better is exc:
            raise
        raise better from exc


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

    def control_client(self) -> ControlClient:
        return ControlClient(self.url, self.token, self.clock)

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

    def ensure_repo(self, repo: str, issues: Sequence[int], control: ControlClient) -> None:
        seed_repo(self.control(), repo, issues, lambda n: control.issue_exists(repo, n))

    def set_faults(self, faults: Mapping[str, object]) -> None:
        set_faults(self.control(), faults)


def _emulator_token() -> str:
    """A fresh token (or control key) for this process's emulator, held in memory only.

    The emulator keys rate-limit buckets by user, as GitHub does for personal tokens,
    so setup and measure (separate processes, separate tokens for the same user) share
    one budget without any token being written down; the emulator stores only hashes.
    """
    return "ghp_" + secrets.token_hex(18)


def scrub_routing(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` without the variables that would reroute gh or HTTP clients."""
    return {k: v for k, v in env.items() if k not in _ROUTING_VARS}


def make_backend(
    name: BackendName,
    *,
    env: Mapping[str, str],
    clock: Clock,
    state_dir: Path,
) -> Backend:
    if name == "emulator":
        return EmulatorBackend(
            state_dir=state_dir,
            clock=clock,
            control_key=env.get(CONTROL_KEY_ENV) or None,
        )
    return RealGitHubBackend(env=env, clock=clock)
