"""Which GitHub a benchmark runs against: real GitHub, or the embedded emulator
(``ghbench.github.emulator_backend``).

A backend gives the harness three things: a counted ``BenchmarkClient`` for its own
calls, the environment the orchestrator needs to reach the same GitHub, and the
repo slug as seen there. ``make_backend`` picks one by name, from a table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ghbench.clock import Clock
from ghbench.emulator.control_access import CONTROL_KEY_ENV
from ghbench.errors import GhbenchError, GitHubError
from ghbench.github.auth import (
    GitHubToken,
    check_gh_route,
    is_enterprise,
    resolve_api_url,
    resolve_gh_host,
    resolve_token,
)
from ghbench.github.benchmark_client import BenchmarkClient
from ghbench.github.comments import post_review_comments
from ghbench.github.emulator_backend import EmulatorBackend
from ghbench.github.front_route import FrontRoute, forward_route
from ghbench.github.names import BackendName

__all__ = [
    "EMULATOR_CONFIG_ENV",
    "Backend",
    "BackendName",
    "RealGitHubBackend",
    "explained",
    "make_backend",
]


class Backend(Protocol):
    """The GitHub a run talks to."""

    name: BackendName
    # ghbench makes the repos, issues and pushes a run needs (the emulator); on GitHub
    # they are the user's, and ghbench only checks them
    seeds_repos: bool

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def benchmark_client(self) -> BenchmarkClient: ...

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

    def ensure_repo(self, repo: str, issues: Sequence[int], client: BenchmarkClient) -> None:
        """Make sure ``repo`` and its issues exist (the emulator seeds; GitHub is left alone)."""
        ...

    def explain(self, error: GhbenchError) -> GhbenchError:
        """``error`` with its cause when the backend knows it better (the embedded
        emulator could not write its state: a full disk, not the emulator's fault)."""
        ...

    def check_state(self, setup: Path) -> None:
        """Before it starts for ``measure``: refuse when the state ``setup`` was made in
        is gone (the emulator's directory), naming it and what to do."""
        ...

    def check_gh_route(self) -> None:
        """For orchestrators that call gh: refuse a gh host that is not this GitHub."""
        ...

    def add_review_comments(self, plan: Sequence[tuple[str, int, int]]) -> int:
        """(repo, PR, count) review comments on each PR, outside the trace (the matrix's
        S4 burst); how many were added."""
        ...

    def set_faults(self, faults: Mapping[str, object]) -> None:
        """Inject faults (latency, errors) into every call from now on (the emulator's)."""
        ...

    @property
    def agent_token(self) -> str:
        """The token an orchestrator's agents call with (``agent_env``'s ``GH_TOKEN``)."""
        ...

    def front_route(self) -> FrontRoute:
        """How a GitHub front (``ghbench.front``) reaches this GitHub, for clients that
        call github.com's hosts themselves (AO 0.10's daemon)."""
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
    seeds_repos: bool = False
    _token: GitHubToken | None = field(default=None, repr=False)

    def start(self) -> None:
        self._token = resolve_token(self.env, self.gh_host)

    def explain(self, error: GhbenchError) -> GhbenchError:
        return error

    def check_state(self, setup: Path) -> None:
        return None  # GitHub keeps its own

    @property
    def agent_token(self) -> str:
        return self.token  # one token: GitHub cannot tell them apart

    def front_route(self) -> FrontRoute:
        return forward_route(self.api_url)

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
        check_gh_route(self.env)

    def add_review_comments(self, plan: Sequence[tuple[str, int, int]]) -> int:
        return post_review_comments(self.api_url, self.token, plan)

    def set_faults(self, faults: Mapping[str, object]) -> None:
        raise GhbenchError("injected faults need the emulator backend")

    def benchmark_client(self) -> BenchmarkClient:
        found = self._found()
        return BenchmarkClient(
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

    def ensure_repo(self, repo: str, issues: Sequence[int], client: BenchmarkClient) -> None:
        """Repos and issues are the user's to create: check them before anything starts.

        One counted control call for the repo and one per issue; a bad token, a repo the
        token cannot see, or a missing issue is an error before the orchestrator runs.
        """
        client.require_repo(repo)
        missing = [n for n in issues if not client.is_issue(repo, n)]
        if missing:
            shown = ", ".join(f"#{n}" for n in missing[:5]) + (" ..." if len(missing) > 5 else "")
            raise GitHubError(
                f"{repo} has no issue {shown} ({len(missing)} of {len(issues)} missing; a pull"
                f" request's number is not an issue): create them in {repo}, or pass --issues"
                " that exist"
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


def make_backend(
    name: BackendName,
    *,
    env: Mapping[str, str],
    clock: Clock,
    state_dir: Path,
) -> Backend:
    """The GitHub ``name`` names (the emulator's state in ``state_dir``)."""
    return _BACKENDS[name](env, clock, state_dir)


# an emulator config (``emulator serve --config``: its budgets, faults) for the emulator
# a run starts; what the calibration's run with a budget that runs out gives it
EMULATOR_CONFIG_ENV = "GHBENCH_EMULATOR_CONFIG"


def _emulator(env: Mapping[str, str], clock: Clock, state_dir: Path) -> Backend:
    config = env.get(EMULATOR_CONFIG_ENV)
    return EmulatorBackend(
        state_dir=state_dir,
        clock=clock,
        control_key=env.get(CONTROL_KEY_ENV) or None,
        config=Path(config) if config else None,
    )


def _github(env: Mapping[str, str], clock: Clock, state_dir: Path) -> Backend:
    return RealGitHubBackend(env=env, clock=clock)


_BACKENDS: dict[BackendName, Callable[[Mapping[str, str], Clock, Path], Backend]] = {
    "emulator": _emulator,
    "github": _github,
}
