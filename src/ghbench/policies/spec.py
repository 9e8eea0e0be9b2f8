"""The fixes a fleet puts in front of GitHub, as data: each policy once, with its settings.

Six policies (docs/policies.md has each with the real-world tool it stands for):

============  ========  ==========================================================
name          where     what it does
============  ========  ==========================================================
``probe``     gh        before a status read (``gh pr checks``, ``gh pr view
                        --json``), a conditional REST probe of the PR and its head's
                        check runs; both unchanged (304, free) and the command's last
                        answer is reused instead of its GraphQL
``shim``      gh        ``gh pr checks`` and ``gh pr view --json`` answered over
                        REST instead of GraphQL (``policies.shim``)
``reserve``   gh        below ``percent`` of a budget left, the status reads that
                        would draw on it are refused by the wrapper (not sent)
``cache``     proxy     a fleet-wide caching proxy: an identical call within ``ttl``
                        answered from its cache, identical calls in flight merged into
                        one, a write to a repository drops that repository's answers
``gate``      proxy     one admission gate for the fleet: a token bucket per budget
                        (``refill`` an hour, ``burst``); a call waits for its points
``cooldown``  AO        AO 0.12.6's cooldown: a rate-limited GraphQL batch stops the
                        orchestrator's batches for Retry-After, else until the reset,
                        else 60 s (within 30 s and 10 minutes)
============  ========  ==========================================================

``Policies`` is one run's choice (each field a policy's settings, or None when it is
off), part of the run's spec; ``parse_policies`` reads ``--policies`` (``all``, or
names joined by ``,`` or ``+``, each with ``:key=value`` settings). Pure data.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, get_args

import msgspec

from ghbench.errors import UsageError

__all__ = [
    "COMBINATIONS",
    "POLICY_NAMES",
    "POLICY_TABLE",
    "CacheSpec",
    "CooldownSpec",
    "GateSpec",
    "Policies",
    "PolicyInfo",
    "PolicyName",
    "ProbeSpec",
    "ReserveSpec",
    "ShimSpec",
    "parse_policies",
    "policies_of",
]

PolicyName = Literal["probe", "shim", "reserve", "cache", "gate", "cooldown"]
POLICY_NAMES: tuple[PolicyName, ...] = get_args(PolicyName)
Seconds = Annotated[float, msgspec.Meta(ge=0, le=86_400)]
Positive = Annotated[float, msgspec.Meta(gt=0, le=10_000_000)]


class _Spec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    pass


class ProbeSpec(_Spec, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """ETag probes before GraphQL: no settings (the probes are the PR and its head's
    check runs, each sent with the ETag of the command's last answer)."""


class ShimSpec(_Spec, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The GraphQL→REST shim: no settings (which commands it answers: ``shim.SHIMMED``)."""


class ReserveSpec(_Spec, frozen=True, kw_only=True, forbid_unknown_fields=True):
    percent: Annotated[float, msgspec.Meta(gt=0, lt=100)] = 20.0  # of the budget left


class CacheSpec(_Spec, frozen=True, kw_only=True, forbid_unknown_fields=True):
    ttl: Seconds = 30.0
    coalesce: bool = True  # identical calls in flight merged into one
    invalidate: bool = True  # a write to a repository drops its answers
    # a TTL of its own per operation; when any is given, only those operations are
    # cached (``replay --ttl OP=DURATION`` builds this)
    per_operation: dict[str, Seconds] = msgspec.field(default_factory=dict)

    def ttl_for(self, operation: str) -> float | None:
        """How long an answer to ``operation`` is kept (None: not cached)."""
        if not self.per_operation:
            return self.ttl
        return self.per_operation.get(operation)


class GateSpec(_Spec, frozen=True, kw_only=True, forbid_unknown_fields=True):
    # points (GraphQL) or requests (REST core) an hour per budget; None: 80% of the
    # budget's limit (capacity's budget fraction)
    refill: Positive | None = None
    burst: Annotated[int, msgspec.Meta(ge=1, le=1_000_000)] = 100


class CooldownSpec(_Spec, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """AO 0.12.6's bounds (``observe/scm/observer.go``)."""

    minimum: Seconds = 30.0
    maximum: Seconds = 600.0
    default: Seconds = 60.0


class Policies(_Spec, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One run's policies: each one's settings, or None when it is off."""

    probe: ProbeSpec | None = None
    shim: ShimSpec | None = None
    reserve: ReserveSpec | None = None
    cache: CacheSpec | None = None
    gate: GateSpec | None = None
    cooldown: CooldownSpec | None = None

    @property
    def names(self) -> tuple[PolicyName, ...]:
        """The policies on, in ``POLICY_NAMES`` order."""
        return tuple(n for n in POLICY_NAMES if getattr(self, n) is not None)

    @property
    def label(self) -> str:
        """``cache+probe``, or ``none``."""
        return "+".join(self.names) or "none"

    def __bool__(self) -> bool:
        return bool(self.names)


@dataclass(frozen=True)
class PolicyInfo:
    """A policy's row of the table: its settings' type, where it acts, what it does and
    the real-world tool it stands for."""

    spec: type[_Spec]
    where: Literal["gh", "proxy", "AO"]
    what: str
    stands_for: str


POLICY_TABLE: Mapping[PolicyName, PolicyInfo] = {
    "probe": PolicyInfo(
        ProbeSpec,
        "gh",
        "ETag probes before GraphQL: a status read sends a conditional REST probe of the"
        " PR and its head's check runs first, and reuses its last answer when both are"
        " unchanged (304s are free)",
        "AO's own guards (feat/gh-rate-limiting: conditional REST before the GraphQL"
        " batch), moved into a gh wrapper in front of the agents' status reads",
    ),
    "shim": PolicyInfo(
        ShimSpec,
        "gh",
        "a GraphQL→REST shim: gh pr checks and gh pr view --json answered with REST calls",
        "phnx-labs/agi-cli #3317's PATH shim for gh pr checks, extended to gh pr view --json",
    ),
    "reserve": PolicyInfo(
        ReserveSpec,
        "gh",
        "a reserve band: below percent% of a budget left, the wrapper refuses the status"
        " reads that would draw on it",
        "craft-agents' deferrals (its 2026 report: 221 calls deferred once the budget ran"
        " low), a circuit breaker on the budget left",
    ),
    "cache": PolicyInfo(
        CacheSpec,
        "proxy",
        "a caching, coalescing proxy: identical calls within ttl answered from its cache,"
        " identical calls in flight merged, a write to a repository drops its answers",
        "a gh cache daemon: gh's own cache (gh api --cache TTL, keyed by method, URL and"
        " body) shared by the fleet, with singleflight coalescing and invalidation on"
        " writes",
    ),
    "gate": PolicyInfo(
        GateSpec,
        "proxy",
        "a fleet-wide admission gate: a token bucket per budget (refill an hour, burst);"
        " a call waits until its points are in the bucket",
        "@octokit/plugin-throttling with one Bottleneck limiter shared by every process"
        " (its Redis clustering), as a proxy for gh",
    ),
    "cooldown": PolicyInfo(
        CooldownSpec,
        "AO",
        "AO 0.12.6's cooldown: after a rate-limited GraphQL batch the orchestrator sends"
        " no batch for Retry-After, else until the reset, else 60 s (30 s to 10 min)",
        "AO 0.12.6 rateLimitCooldown (observe/scm/observer.go), as it would act were"
        " GitHub's errors read (docs/calibration.md: for GitHub it never starts)",
    ),
}

# what the lab tries beyond each policy alone: the combinations a fleet would ship
COMBINATIONS: tuple[tuple[PolicyName, ...], ...] = (
    ("cache", "probe"),
    ("cache", "shim"),
    ("cache", "probe", "gate"),
    ("cache", "probe", "reserve", "gate", "cooldown"),
)


def _value(text: str) -> Any:
    if text in ("true", "false"):
        return text == "true"
    try:
        return float(text) if any(c in text for c in ".eE") else int(text)
    except ValueError:
        return text


def _one(flag: str, item: str) -> tuple[PolicyName, _Spec]:
    name, _, rest = item.partition(":")
    name = name.strip()
    if name not in POLICY_NAMES:
        raise UsageError(f"{flag} {item}: no policy {name!r}; use all or {', '.join(POLICY_NAMES)}")
    info = POLICY_TABLE[name]
    settings: dict[str, Any] = {}
    for pair in filter(None, rest.split(":")):
        key, eq, text = pair.partition("=")
        if not eq:
            raise UsageError(f"{flag} {item}: write a setting as key=value ({pair!r})")
        settings[key.strip()] = _value(text.strip())
    known = info.spec.__struct_fields__
    for key in settings:
        if key not in known:
            what = ", ".join(known) if known else "none"
            raise UsageError(f"{flag} {item}: {name} has no setting {key!r} (settings: {what})")
    try:
        return name, msgspec.convert(settings, info.spec)
    except msgspec.ValidationError as exc:
        raise UsageError(f"{flag} {item}: {exc}") from None


def parse_policies(text: str, *, flag: str = "--policies") -> Policies:
    """``all`` (every policy with its defaults), ``none``, or names joined by ``,`` or
    ``+``, each with ``:key=value`` settings (``cache:ttl=60,gate:refill=3000``)."""
    text = text.strip()
    if text in ("", "none"):
        return Policies()
    if text == "all":
        return policies_of(POLICY_NAMES)
    chosen: dict[str, _Spec] = {}
    for item in text.replace("+", ",").split(","):
        if not item.strip():
            continue
        name, spec = _one(flag, item.strip())
        if name in chosen:
            raise UsageError(f"{flag}: {name} is named twice")
        chosen[name] = spec
    return msgspec.structs.replace(Policies(), **chosen)


def policies_of(names: Iterable[str]) -> Policies:
    """The policies ``names``, each with its default settings."""
    return msgspec.structs.replace(Policies(), **{n: POLICY_TABLE[n].spec() for n in names})  # type: ignore[index]
