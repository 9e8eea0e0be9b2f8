"""Emulator settings: rate limits, secondary limits, faults, sizes, URLs.

Loaded from ``--config FILE`` (YAML or JSON) with :func:`load_config`; every key is
validated and an unknown key names itself in a ConfigError. Example::

    limits: {core: [5000, 3600], graphql: [5000, 3600], search: [30, 60]}
    anonymous_limits: {core: [60, 3600]}
    secondary: {enabled: true, rest_points_per_minute: 900, content_per_minute: 80, status: 429}
    faults: {latency: lognormal, latency_ms: 40, error_rate: 0.01}
    max_body_bytes: 10485760
    primary_status: 403        # or 429
    graphql_cost_rule: page-size   # or every-connection
    web_url: https://github.com
    users: {octo: [ghp_example_token]}
    repos: [acme/todo]
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
import yaml
from msgspec import Meta

from ghbench.emulator.faults import FaultConfig
from ghbench.emulator.graphql_contract import DEFAULT_COST_RULE, CostRule
from ghbench.emulator.secondary import SecondaryConfig
from ghbench.errors import ConfigError
from ghbench.validation import convert, read_text

__all__ = ["REPO_NAME", "EmulatorConfig", "config_from_mapping", "load_config"]

REPO_NAME = Annotated[
    str, Meta(pattern=r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$", description="owner/name")
]
# [limit, window seconds], e.g. [5000, 3600]
Limit = tuple[Annotated[int, Meta(ge=0)], Annotated[int, Meta(gt=0)]]
WebUrl = Annotated[str, Meta(pattern=r"^https?://[^/\s]+", description="an http(s) URL")]


class EmulatorConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The file's keys, their defaults and limits (``--config``; module doc)."""

    limits: dict[str, Limit] = msgspec.field(default_factory=dict)
    anonymous_limits: dict[str, Limit] = msgspec.field(default_factory=dict)
    secondary: SecondaryConfig = msgspec.field(default_factory=SecondaryConfig)
    faults: FaultConfig = msgspec.field(default_factory=FaultConfig)
    max_body_bytes: Annotated[int, Meta(gt=0)] = 10 * 1024 * 1024
    # A spent primary limit: GitHub's docs say 403 or 429; 403 is what github.com
    # answered in every report found, through 2026.
    primary_status: Literal[403, 429] = 403
    # How GraphQL counts a connection without first/last (graphql/cost.py, COST_RULES)
    graphql_cost_rule: CostRule = DEFAULT_COST_RULE
    web_url: WebUrl = "https://github.com"
    # GitHub ends a request after 10 s ("Timeouts", GraphQL rate-limit docs)
    request_timeout_s: Annotated[float, Meta(gt=0, le=600)] = 10.0
    users: dict[str, list[str]] = msgspec.field(default_factory=dict)  # login -> tokens
    repos: list[REPO_NAME] = msgspec.field(default_factory=list)  # created at start

    def __post_init__(self) -> None:
        self.web_url = self.web_url.rstrip("/")


def config_from_mapping(raw: Any, source: str = "config") -> EmulatorConfig:
    """Validate parsed YAML/JSON into an EmulatorConfig (ConfigError names the key)."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ConfigError(f"{source}: expected a mapping of settings at the top level")
    return convert(raw, EmulatorConfig, source=source)


def load_config(path: Path) -> EmulatorConfig:
    """Read ``path`` (YAML, or JSON for ``.json``)."""
    where = f"--config {path}"
    text = read_text(path, where)
    try:
        raw = json.loads(text) if Path(path).suffix == ".json" else yaml.safe_load(text)
    except (ValueError, RecursionError, yaml.YAMLError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ConfigError(f"{where}: cannot parse ({first})") from exc
    return config_from_mapping(raw, where)
