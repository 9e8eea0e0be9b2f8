"""The workload model's config file (YAML): what ``ghbench workload run --config FILE`` reads.

Example, with every key (only ``sessions`` or ``repos`` is needed)::

    version: 1                 # optional; the only version is 1
    profile: ao-main-60e8c881  # ao-main-60e8c881 | ao-bench-1e73a505 | bench-era, or the
                               #   old names head, pre-b1 (see ghbench.workload.profiles)
    transport: gh              # gh (the real gh CLI) | http (httpx, no gh needed)
    host: github.localhost     # gh's GH_HOST; github.com for real GitHub
    api_url: null              # REST base for the http transport; default from host:
                               #   github.localhost -> http://api.github.localhost/
                               #   github.com       -> https://api.github.com/
                               #   other            -> https://HOST/api/v3/
    token_env: GH_TOKEN        # NAME of the env var holding the token (never the token)
    gh_path: gh                # the gh executable for the gh transport
    project: todo-app          # AO project id (projectId when trace.session_ids is on)
    seed: 0                    # the model's random source
    repos: [acme/todo]         # polled by Guard 1; sessions' repos are added
    sessions:                  # the sessions the poller watches
      - id: ta-1               # AO session id
        repo: acme/todo        # owner/name
        issue: 1               # issue number (optional)
        branch: feat/issue-1   # default feat/issue-{issue}
        pr: 42                 # open PR number; omit for a session still without a PR
    trace:
      session_ids: false       # add sessionId/projectId to rows (AO never does)
      origin: workload         # the row's origin extension; null leaves it out
    policy:                    # overrides of the profile; every PolicyParams field, e.g.
      tick: 30s                # durations: seconds or 90s / 2m / 1h30m
      review_interval: 2m
      batch_max_prs: 25

Unknown keys are errors, and every error names the key (``sessions[3].pr``,
``policy.tick``), the file and what is allowed (``ghbench.validation``): the file's
shape and limits are declared once, on the structs below. ``load_workload_config``
returns a resolved ``WorkloadConfig`` whose ``policy`` is the profile with the overrides applied;
``dump_workload_config`` writes a file that loads back to the same config.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
import yaml

from ghbench.errors import ConfigError
from ghbench.timefmt import parse_duration
from ghbench.validation import convert
from ghbench.workload.profiles import (
    DEFAULT_PROFILE,
    DURATION_FIELDS,
    PROFILES,
    PolicyParams,
    ProfileName,
    unalias_profile,
)

__all__ = [
    "SessionSpec",
    "TraceSettings",
    "TransportName",
    "WorkloadConfig",
    "default_api_url",
    "dump_workload_config",
    "load_workload_config",
    "parse_workload_config",
    "resolve_policy",
    "workload_config_from",
]

# ``ghbench simulate`` runs the model in-process; a config file names a real transport
TransportName = Literal["gh", "http"]

Repo = Annotated[
    str, msgspec.Meta(pattern=r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$", description="owner/name")
]
SessionId = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^[A-Za-z0-9_.-]+$", description="a session id AO accepts (letters, digits, . _ -)"
    ),
]
Positive = Annotated[int, msgspec.Meta(gt=0)]


class SessionSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One AO session: its id, repo, issue, branch and (once it has one) its PR."""

    id: SessionId
    repo: Repo
    issue: Positive | None = None
    branch: str | None = None
    pr: Positive | None = None

    @property
    def branch_name(self) -> str:
        if self.branch:
            return self.branch
        return f"feat/issue-{self.issue}" if self.issue is not None else f"session/{self.id}"


class TraceSettings(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What the model adds to AO's rows."""

    session_ids: bool = False
    origin: str | None = "workload"


class _Settings(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Every key of the file but ``version`` and ``policy``, declared once."""

    profile: ProfileName = DEFAULT_PROFILE
    transport: TransportName = "gh"
    host: str = "github.localhost"
    api_url: str | None = None
    token_env: str = "GH_TOKEN"
    gh_path: str = "gh"
    project: str = "default"
    seed: int = 0
    repos: tuple[Repo, ...] = ()
    sessions: tuple[SessionSpec, ...] = ()
    trace: TraceSettings = TraceSettings()


class _File(_Settings, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The file as written: ``policy`` holds overrides of the profile."""

    version: Literal[1] = 1
    policy: dict[str, Any] = msgspec.field(default_factory=dict)


class WorkloadConfig(_Settings, frozen=True, kw_only=True):
    """A resolved config: ``policy`` is the profile's parameters with overrides applied."""

    policy: PolicyParams = PROFILES[DEFAULT_PROFILE]

    @property
    def all_repos(self) -> tuple[str, ...]:
        """Configured repos, then the sessions' repos, each once, in order."""
        seen = dict.fromkeys(self.repos)
        for s in self.sessions:
            seen.setdefault(s.repo, None)
        return tuple(seen)

    @property
    def rest_base(self) -> str:
        return self.api_url or default_api_url(self.host)


def default_api_url(host: str) -> str:
    """The REST base URL gh uses for ``host`` (github limits reference §5b)."""
    h = host.strip().lower()
    if h == "github.com":
        return "https://api.github.com/"
    if h == "github.localhost" or h.endswith(".github.localhost"):
        return "http://api.github.localhost/"
    return f"https://{host}/api/v3/"


def resolve_policy(source: str, profile: ProfileName, raw: dict[str, Any]) -> PolicyParams:
    """The profile's parameters with ``raw``'s overrides (durations may be ``2m``)."""
    values = msgspec.structs.asdict(PROFILES[profile])
    for key, given in raw.items():
        value = given
        if key in DURATION_FIELDS and isinstance(given, str):
            try:
                value = parse_duration(given)
            except ValueError as exc:
                raise ConfigError(f"{source}: policy.{key}: {exc}") from None
        values[str(key)] = value
    return convert(values, PolicyParams, source=source, prefix="policy")


def _check(source: str, f: _File) -> None:
    """What one key's type cannot say: ids unique, something to poll."""
    seen: set[str] = set()
    for i, s in enumerate(f.sessions):
        if s.id in seen:
            raise ConfigError(f"{source}: sessions[{i}].id: {s.id!r} appears twice")
        seen.add(s.id)
    if not f.repos and not f.sessions:
        raise ConfigError(f"{source}: sessions: give at least one session or one entry in repos")


def parse_workload_config(data: bytes | str, *, source: str = "<config>") -> WorkloadConfig:
    """Parse YAML text into a resolved config; ``source`` names the file in errors."""
    try:
        raw = yaml.safe_load(data)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{source}: not valid YAML: {exc}".replace("\n", " ")) from None
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ConfigError(f"{source}: the top level must be a mapping of keys")
    return workload_config_from(raw, source=source)


def workload_config_from(raw: dict[str, Any], *, source: str) -> WorkloadConfig:
    """A config given as the file's keys and values (already parsed), resolved."""
    if "profile" in raw:  # an old name stands for the profile it is an alias of
        raw = {**raw, "profile": unalias_profile(raw["profile"])}
    f = convert(raw, _File, source=source)
    policy = resolve_policy(source, f.profile, f.policy)
    _check(source, f)
    settings = {name: getattr(f, name) for name in _Settings.__struct_fields__}
    return WorkloadConfig(**settings, policy=policy)


def load_workload_config(path: Path | str) -> WorkloadConfig:
    """Read and validate a config file; errors name the file and the key."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise ConfigError(f"{p}: no such config file; check --config") from None
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read the config file: {exc.strerror}") from None
    return parse_workload_config(data, source=str(p))


def dump_workload_config(cfg: WorkloadConfig) -> bytes:
    """YAML that ``load_workload_config`` reads back to an equal config.

    The whole resolved policy is written, so the file does not depend on a
    profile's defaults changing later.
    """
    doc: dict[str, Any] = {"version": 1, **msgspec.to_builtins(cfg)}
    text = yaml.safe_dump(doc, sort_keys=False, default_flow_style=False)
    return text.encode()
