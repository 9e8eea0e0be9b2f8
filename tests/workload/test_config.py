"""The workload config: every key documented, validated, named in errors, round-tripped."""

from pathlib import Path

import pytest
import yaml

from ghbench.errors import ConfigError
from ghbench.workload.config import (
    dump_workload_config,
    load_workload_config,
    parse_workload_config,
)
from ghbench.workload.profiles import PROFILES, PolicyParams

GOOD = """
profile: bench-era
transport: http
host: github.localhost
sessions:
  - {id: ta-1, repo: acme/todo, issue: 1, pr: 2}
  - {id: ta-2, repo: acme/other, issue: 3}
trace: {session_ids: true}
policy:
  tick: 45s
  review_interval: 3m
  batch_max_prs: 10
"""


def test_profile_defaults_and_overrides_resolve() -> None:
    cfg = parse_workload_config(GOOD)
    assert cfg.profile == "bench-era"
    assert cfg.policy.guard_commit == "status"  # from the profile
    assert cfg.policy.tick == 45.0  # overridden, duration parsed
    assert cfg.policy.review_interval == 180.0
    assert cfg.policy.batch_max_prs == 10
    assert cfg.all_repos == ("acme/todo", "acme/other")
    assert cfg.sessions[1].branch_name == "feat/issue-3"
    assert cfg.rest_base == "http://api.github.localhost/"


def test_dump_loads_back_equal(tmp_path: Path) -> None:
    cfg = parse_workload_config(GOOD)
    path = tmp_path / "w.yaml"
    path.write_bytes(dump_workload_config(cfg))
    assert load_workload_config(path) == cfg


def test_every_policy_field_is_overridable() -> None:
    head = PROFILES["ao-main-60e8c881"]
    for field in PolicyParams.__struct_fields__:
        changed = _other_value(getattr(head, field))
        text = yaml.safe_dump({"repos": ["a/b"], "policy": {field: changed}})
        cfg = parse_workload_config(text)
        assert getattr(cfg.policy, field) == changed, field


def _other_value(value: object) -> object:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value - 1 if value > 1 else value + 1  # within every field's bounds
    others = {
        "check-runs": "status",
        "on-change": "always",
        "lifecycle": "scm-observer",
        "set-interval": "go-ticker",
    }
    return others.get(str(value), value)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("sessions: [{id: a, repo: x/y, pr: zz}]", "sessions[0].pr"),
        ("repos: [a/b]\npolicy: {tik: 3}", "policy.tik"),
        ("repos: [a/b]\npolicy: {tick: 3x}", "policy.tick"),
        ("repos: [a/b]\npolicy: {tick: -1}", "policy.tick"),
        ("sessions: [{id: a, repo: x/y, foo: 1}]", "sessions[0].foo"),
        ("repos: [a/b]\nbogus: 1", "bogus"),
        ("repos: [a/b]\nprofile: nope", "profile"),
        ("repos: [nope]", "repos[0]"),
        ("sessions: [{id: a, repo: x/y}, {id: a, repo: x/y}]", "sessions[1].id"),
        ("repos: [a/b]\ntrace: {session_id: true}", "trace.session_id"),
        ("repos: [a/b]\ntransport: inprocess", "transport"),
        ("{}", "sessions"),
    ],
)
def test_errors_name_the_key_and_the_file(text: str, key: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_workload_config(text, source="w.yaml")
    assert str(info.value).startswith("w.yaml: ")
    assert key in str(info.value)


def test_missing_file_names_the_flag(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="--config"):
        load_workload_config(tmp_path / "absent.yaml")


def test_profiles_differ_where_ao_did() -> None:
    head, bench, pre = (PROFILES[n] for n in ("ao-main-60e8c881", "bench-era", "ao-bench-1e73a505"))
    assert (head.guard_commit, bench.guard_commit) == ("check-runs", "status")
    assert pre.count_304_as_change and not bench.count_304_as_change
    assert head.review_comments_etag and not bench.review_comments_etag
