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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ghbench.emulator.faults import FaultConfig
from ghbench.emulator.graphql_contract import COST_RULES, DEFAULT_COST_RULE
from ghbench.emulator.secondary import SecondaryConfig
from ghbench.errors import ConfigError

__all__ = ["EmulatorConfig", "load_config"]


@dataclass
class EmulatorConfig:
    limits: dict[str, tuple[int, int]] = field(default_factory=dict)
    anonymous_limits: dict[str, tuple[int, int]] = field(default_factory=dict)
    secondary: SecondaryConfig = field(default_factory=SecondaryConfig)
    faults: FaultConfig = field(default_factory=FaultConfig)
    max_body_bytes: int = 10 * 1024 * 1024
    # A spent primary limit: GitHub's docs say 403 or 429; 403 is what github.com
    # answered in every report found, through 2026.
    primary_status: int = 403
    # How GraphQL counts a connection without first/last (graphql/cost.py, COST_RULES)
    graphql_cost_rule: str = DEFAULT_COST_RULE
    web_url: str = "https://github.com"
    users: dict[str, list[str]] = field(default_factory=dict)  # login -> tokens
    repos: list[str] = field(default_factory=list)  # owner/name created at start


def _limits(where: str, raw: object) -> dict[str, tuple[int, int]]:
    if not isinstance(raw, dict):
        raise ConfigError(f"{where}: expected a mapping of resource to [limit, window_s]")
    out: dict[str, tuple[int, int]] = {}
    for resource, value in raw.items():
        if (
            not isinstance(value, list | tuple)
            or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)
            or value[1] == 0
        ):
            raise ConfigError(f"{where}.{resource}: expected [limit, window_s], e.g. [5000, 3600]")
        out[str(resource)] = (int(value[0]), int(value[1]))
    return out


def config_from_mapping(raw: dict[str, Any], source: str = "config") -> EmulatorConfig:
    """Validate a parsed mapping into an EmulatorConfig (raises ConfigError)."""
    cfg = EmulatorConfig()
    known = set(EmulatorConfig.__dataclass_fields__)
    for key in raw:
        if key not in known:
            raise ConfigError(
                f"{source}: unknown key {key!r}; known keys: {', '.join(sorted(known))}"
            )
    if "limits" in raw:
        cfg.limits = _limits(f"{source}: limits", raw["limits"])
    if "anonymous_limits" in raw:
        cfg.anonymous_limits = _limits(f"{source}: anonymous_limits", raw["anonymous_limits"])
    for key, target in (("secondary", cfg.secondary), ("faults", cfg.faults)):
        if key in raw:
            if not isinstance(raw[key], dict):
                raise ConfigError(f"{source}: {key} must be a mapping")
            try:
                target.update(raw[key])
            except (KeyError, TypeError, ValueError) as exc:
                raise ConfigError(f"{source}: {key}: bad setting {exc}") from exc
    if "max_body_bytes" in raw:
        value = raw["max_body_bytes"]
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise ConfigError(f"{source}: max_body_bytes must be a positive integer")
        cfg.max_body_bytes = value
    if "primary_status" in raw:
        if raw["primary_status"] not in (403, 429) or isinstance(raw["primary_status"], bool):
            raise ConfigError(f"{source}: primary_status must be 403 or 429")
        cfg.primary_status = int(raw["primary_status"])
    if "graphql_cost_rule" in raw:
        if raw["graphql_cost_rule"] not in COST_RULES:
            rules = ", ".join(COST_RULES)
            raise ConfigError(f"{source}: graphql_cost_rule must be one of {rules}")
        cfg.graphql_cost_rule = str(raw["graphql_cost_rule"])
    if "web_url" in raw:
        cfg.web_url = str(raw["web_url"]).rstrip("/")
    users = raw.get("users", {})
    if not isinstance(users, dict) or not all(
        isinstance(v, list) and all(isinstance(t, str) for t in v) for v in users.values()
    ):
        raise ConfigError(f"{source}: users must map a login to a list of tokens")
    cfg.users = {str(k): list(v) for k, v in users.items()}
    repos = raw.get("repos", [])
    if not isinstance(repos, list) or not all(isinstance(r, str) and "/" in r for r in repos):
        raise ConfigError(f"{source}: repos must be a list of owner/name")
    cfg.repos = list(repos)
    return cfg


def load_config(path: Path) -> EmulatorConfig:
    """Read ``path`` (YAML or JSON)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"--config {path}: cannot read ({exc.strerror})") from exc
    try:
        raw = json.loads(text) if Path(path).suffix == ".json" else yaml.safe_load(text)
    except (ValueError, yaml.YAMLError) as exc:
        raise ConfigError(f"--config {path}: cannot parse ({exc})") from exc
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ConfigError(f"--config {path}: expected a mapping at the top level")
    return config_from_mapping(raw, f"--config {path}")
