"""``build_spec``: a command's flags as its run, and the refusal of a flag its driver
would ignore, from the flag table."""

from __future__ import annotations

from pathlib import Path

import pytest

from ghbench.errors import UsageError
from ghbench.runspec.build import build_spec, check_kind, parse_issue_list
from ghbench.runspec.cells import Cell
from ghbench.runspec.spec import Duration, RunSpec


def test_lists_and_ranges() -> None:
    assert parse_issue_list("1,2,5-9") == [1, 2, 5, 6, 7, 8, 9]
    assert parse_issue_list(" 3 , 4-4 ") == [3, 4]


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", "at least one"),
        ("a", "not an issue number"),
        ("9-5", "backwards"),
        ("1,1", "listed twice"),
        ("0", "start at 1"),
    ],
)
def test_bad_lists_name_the_flag(text: str, match: str) -> None:
    with pytest.raises(UsageError, match=match) as info:
        parse_issue_list(text)
    assert str(info.value).startswith("--issues")


def _setup(**values: object) -> dict[str, object]:
    return {"project": "p", "sessions": 2, "issues": "1-2", "out_dir": Path("o"), **values}


def test_the_flags_become_the_spec_their_rows_name() -> None:
    spec = build_spec(
        "setup",
        _setup(tick="5s", poll_interval="2s", setup_timeout="1m", driver="workload"),
        base=RunSpec(),
    )
    assert spec.cell == Cell("S2", "T1", 2) and spec.issues == (1, 2)
    assert spec.tick == Duration(5.0, "5s") and spec.poll_interval == Duration(2.0, "2s")
    assert spec.setup_timeout == Duration(60.0, "1m")
    assert spec.out_dir == Path("o").resolve()  # real time: the orchestrator runs elsewhere


def test_issues_must_match_the_sessions_and_default_to_one_each() -> None:
    with pytest.raises(UsageError, match="--issues lists 3 issues but --sessions is 2"):
        build_spec("setup", _setup(issues="1-3"))
    assert build_spec("ab", {"sessions": 3}).issues == (1, 2, 3)


def test_a_typed_flag_the_driver_would_ignore_is_refused_in_every_command() -> None:
    # measure --driver ao --tick 5s: AO polls every 30 s whatever it is told
    for command in ("setup", "measure", "ab"):
        with pytest.raises(UsageError, match=r"^--tick applies only with --driver workload"):
            build_spec(command, _setup(driver="ao", tick="5s"), {"driver", "tick"})
    with pytest.raises(UsageError, match=r"^--ao applies only with --driver ao"):
        build_spec("measure", _setup(ao_command="x"), {"ao_command"})
    # the same value untyped (a default) is not the user's
    build_spec("measure", _setup(driver="ao", tick="5s"), {"driver"})


def test_virtual_time_bounds_durations_tighter_and_keeps_the_runbooks() -> None:
    with pytest.raises(UsageError, match="longer than the maximum, 24h"):
        build_spec("simulate", {"duration": "25h"}, base=RunSpec(backend="simulated"))
    spec = build_spec(
        "capacity", {"scenario": "S3", "topology": "T2"}, base=RunSpec(backend="simulated")
    )
    assert spec.cell == Cell("S3", "T2", 2)  # a spread holds two sessions at least
    assert (spec.warmup.seconds, spec.duration.seconds) == (0.0, 600.0)  # S3's runbook
    assert spec.out_dir == Path("ghbench-out")  # as given: nothing runs elsewhere


def test_capacity_says_which_github_in_its_own_words() -> None:
    words = {frozenset({"emulator", "github"}): "--verify"}
    base = RunSpec(backend="simulated")
    with pytest.raises(UsageError, match=r"^--duration-scale applies only with --verify"):
        build_spec("capacity", {"duration_scale": 0.5}, {"duration_scale"}, base=base, words=words)


def test_auto_transport_is_gh_when_gh_is_on_path(tmp_path: Path) -> None:
    empty = {"PATH": str(tmp_path)}
    assert build_spec("demo", {"transport": "auto"}, env=empty).transport == "http"
    gh = tmp_path / "gh"
    gh.write_text("#!/bin/sh\n")
    gh.chmod(0o755)
    assert build_spec("demo", {"transport": "auto"}, env=empty).transport == "gh"


def test_a_setting_only_the_other_kind_of_ao_acts_on_is_refused_by_kind() -> None:
    """--ao-layout kv passes the flags (a TypeScript build takes it); once the run knows
    its AO is the daemon, it is refused. Left at its default, nothing is refused."""
    spec = RunSpec(driver="ao", ao_layout="kv")
    check_kind(spec, "ao-typescript")
    with pytest.raises(UsageError, match=r"^--ao-layout applies only with a TypeScript build"):
        check_kind(spec, "ao-daemon")
    check_kind(RunSpec(driver="ao"), "ao-daemon")
    # a setting every kind of a driver agrees on was checked as the flags were parsed
    check_kind(RunSpec(driver="ao", transport="http"), "ao-daemon")
