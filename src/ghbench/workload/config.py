"""The workload model's config file (YAML): what ``ghbench workload run --config FILE`` reads.

Example, with every key (only ``sessions`` or ``repos`` is needed)::

    version: 1                 # optional; the only version is 1
    profile: head              # head | bench-era | pre-b1 (see ghbench.workload.profiles)
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
``policy.tick``) and the file. ``load_workload_config`` returns a resolved
``WorkloadConfig`` whose ``policy`` is the profile with the overrides applied;
``dump_workload_config`` writes a file that loads back to the same config.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

import msgspec
import yaml

from ghbench.errors import ConfigError
from ghbench.timefmt import parse_duration
from ghbench.workload.profiles import DURATION_FIELDS, PROFILES, PolicyParams, ProfileName

__all__ = [
    "SessionSpec",
    "TraceOptions",
    "TransportName",
    "WorkloadConfig",
    "default_api_url",
    "dump_workload_config",
    "load_workload_config",
    "parse_workload_config",
    "resolve_policy",
]

TransportName = Literal["gh", "http", "inprocess"]

_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_SESSION_ID = re.compile(r"^[A-Za-z0-9_.-]+$")


class SessionSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One AO session: its id, repo, issue, branch and (once it has one) its PR."""

    id: str
    repo: str
    issue: int | None = None
    branch: str | None = None
    pr: int | None = None

    @property
    def branch_name(self) -> str:
        if self.branch:
            return self.branch
        return f"feat/issue-{self.issue}" if self.issue is not None else f"session/{self.id}"


class TraceOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What the model adds to AO's rows."""

    session_ids: bool = False
    origin: str | None = "workload"


class _File(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    version: int = 1
    profile: ProfileName = "head"
    transport: TransportName = "gh"
    host: str = "github.localhost"
    api_url: str | None = None
    token_env: str = "GH_TOKEN"
    gh_path: str = "gh"
    project: str = "default"
    seed: int = 0
    repos: list[str] = msgspec.field(default_factory=list)
    sessions: list[SessionSpec] = msgspec.field(default_factory=list)
    trace: TraceOptions = msgspec.field(default_factory=TraceOptions)
    policy: dict[str, Any] = msgspec.field(default_factory=dict)


class WorkloadConfig(msgspec.Struct, frozen=True, kw_only=True):
    """A resolved config: ``policy`` is the profile's parameters with overrides applied."""

    profile: ProfileName = "head"
    transport: TransportName = "gh"
    host: str = "github.localhost"
    api_url: str | None = None
    token_env: str = "GH_TOKEN"
    gh_path: str = "gh"
    project: str = "default"
    seed: int = 0
    repos: tuple[str, ...] = ()
    sessions: tuple[SessionSpec, ...] = ()
    trace: TraceOptions = TraceOptions()
    policy: PolicyParams = PolicyParams()

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


def _where(msgspec_path: str) -> str:
    # msgspec says "at `$.sessions[0].pr`"; users wrote "sessions[0].pr"
    return msgspec_path.removeprefix("$.").removeprefix("$")


def _convert_error(source: str, exc: msgspec.ValidationError, prefix: str = "") -> ConfigError:
    text = str(exc)
    m = re.search(r" - at `([^`]*)`$", text)
    if m:
        key = prefix + _where(m.group(1))
        detail = text[: m.start()]
    else:
        key = prefix.rstrip(".") or "(top level)"
        detail = text
    m2 = re.match(r"Object contains unknown field `([^`]*)`", detail)
    if m2:
        key = f"{key}.{m2.group(1)}" if key and key != "(top level)" else m2.group(1)
        return ConfigError(f"{source}: unknown key {key}; check the spelling against the docs")
    return ConfigError(f"{source}: {key}: {detail}")


def resolve_policy(source: str, profile: ProfileName, raw: dict[str, Any]) -> PolicyParams:
    values = msgspec.structs.asdict(PROFILES[profile])
    for key, given in raw.items():
        if not isinstance(key, str) or key not in values:
            raise ConfigError(
                f"{source}: unknown key policy.{key}; known keys: {', '.join(sorted(values))}"
            )
        value = given
        if key in DURATION_FIELDS and isinstance(given, str):
            try:
                value = parse_duration(given)
            except ValueError as exc:
                raise ConfigError(f"{source}: policy.{key}: {exc}") from None
        values[key] = value
    try:
        params = msgspec.convert(values, PolicyParams)
    except msgspec.ValidationError as exc:
        raise _convert_error(source, exc, "policy.") from None
    _check_policy(source, params)
    return params


def _check_policy(source: str, p: PolicyParams) -> None:
    positive = {"tick": p.tick, "batch_max_prs": p.batch_max_prs}
    for key, value in positive.items():
        if value <= 0:
            raise ConfigError(f"{source}: policy.{key} must be positive, got {value}")
    for key, value in msgspec.structs.asdict(p).items():
        if isinstance(value, int | float) and not isinstance(value, bool) and value < 0:
            raise ConfigError(f"{source}: policy.{key} cannot be negative, got {value}")


def _check(source: str, f: _File) -> None:
    if f.version != 1:
        raise ConfigError(f"{source}: version: only version 1 is known, got {f.version}")
    for i, repo in enumerate(f.repos):
        if not _REPO.match(repo):
            raise ConfigError(f"{source}: repos[{i}]: {repo!r} is not owner/name")
    seen: set[str] = set()
    for i, s in enumerate(f.sessions):
        if not _SESSION_ID.match(s.id):
            raise ConfigError(f"{source}: sessions[{i}].id: {s.id!r} has characters AO rejects")
        if s.id in seen:
            raise ConfigError(f"{source}: sessions[{i}].id: {s.id!r} appears twice")
        seen.add(s.id)
        if not _REPO.match(s.repo):
            raise ConfigError(f"{source}: sessions[{i}].repo: {s.repo!r} is not owner/name")
        for key, value in (("issue", s.issue), ("pr", s.pr)):
            if value is not None and value <= 0:
                raise ConfigError(f"{source}: sessions[{i}].{key} must be positive, got {value}")
    if not f.repos and not f.sessions:
        raise ConfigError(f"{source}: sessions: give at least one session or one entry in repos")
    if f.transport == "inprocess":
        raise ConfigError(
            f"{source}: transport: inprocess runs only inside 'ghbench simulate'; use gh or http"
        )


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
    try:
        f = msgspec.convert(raw, _File)
    except msgspec.ValidationError as exc:
        raise _convert_error(source, exc) from None
    policy = resolve_policy(source, f.profile, f.policy)
    _check(source, f)
    return WorkloadConfig(
        profile=f.profile,
        transport=f.transport,
        host=f.host,
        api_url=f.api_url,
        token_env=f.token_env,
        gh_path=f.gh_path,
        project=f.project,
        seed=f.seed,
        repos=tuple(f.repos),
        sessions=tuple(f.sessions),
        trace=f.trace,
        policy=policy,
    )


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
    doc: dict[str, Any] = {
        "version": 1,
        "profile": cfg.profile,
        "transport": cfg.transport,
        "host": cfg.host,
        "api_url": cfg.api_url,
        "token_env": cfg.token_env,
        "gh_path": cfg.gh_path,
        "project": cfg.project,
        "seed": cfg.seed,
        "repos": list(cfg.repos),
        "sessions": [msgspec.to_builtins(s) for s in cfg.sessions],
        "trace": msgspec.to_builtins(cfg.trace),
        "policy": msgspec.structs.asdict(cfg.policy),
    }
    text = yaml.safe_dump(doc, sort_keys=False, default_flow_style=False)
    return text.encode()
