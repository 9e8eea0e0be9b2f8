"""``--policies`` read into one run's ``Policies``: names, settings, and typos refused."""

import pytest

from ghbench.errors import UsageError
from ghbench.policies.spec import (
    POLICY_NAMES,
    CacheSpec,
    GateSpec,
    parse_policies,
    policies_of,
)


def test_parse_policies_reads_names_settings_and_refuses_typos() -> None:
    chosen = parse_policies("cache:ttl=60+gate:refill=3000:burst=10")
    assert chosen.names == ("cache", "gate")
    assert chosen.cache is not None and chosen.cache.ttl == 60
    assert chosen.gate is not None and (chosen.gate.refill, chosen.gate.burst) == (3000, 10)
    assert parse_policies("all").label == "probe+shim+reserve+cache+gate+cooldown"
    assert not parse_policies("none")
    for bad, said in (("cahce", "no policy 'cahce'"), ("cache:tll=3", "no setting 'tll'"),
                      ("cache:ttl", "key=value"), ("cache,cache", "named twice"),
                      ("reserve:percent=150", "percent")):  # fmt: skip
        with pytest.raises(UsageError, match=said):
            parse_policies(bad)


def test_names_come_in_table_order_whatever_order_they_were_written_in() -> None:
    chosen = parse_policies(" gate , cache:coalesce=false ,")
    assert chosen.names == ("cache", "gate") and chosen.label == "cache+gate"
    assert chosen.cache == CacheSpec(coalesce=False) and chosen.gate == GateSpec()
    assert parse_policies("").label == "none" and not parse_policies("  ")
    assert policies_of(POLICY_NAMES) == parse_policies("all")


def test_a_bad_value_names_the_flag_it_came_from() -> None:
    with pytest.raises(UsageError, match=r"^--lab-policies gate:burst=0: "):
        parse_policies("gate:burst=0", flag="--lab-policies")
    with pytest.raises(UsageError, match="--policies cache:ttl=soon"):
        parse_policies("cache:ttl=soon")  # not a number
    with pytest.raises(UsageError, match="shim has no setting 'x' \\(settings: none\\)"):
        parse_policies("shim:x=1")


def test_a_per_operation_ttl_caches_only_the_operations_named() -> None:
    every = CacheSpec(ttl=12.0)
    assert every.ttl_for("gh.pr.view") == 12.0
    some = CacheSpec(ttl=12.0, per_operation={"gh.pr.checks": 5.0})
    assert some.ttl_for("gh.pr.checks") == 5.0
    assert some.ttl_for("gh.pr.view") is None
