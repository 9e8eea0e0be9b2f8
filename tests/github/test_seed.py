"""ghbench.github.seed: the emulator's control API as setup drives it, against the
session's emulator over a real socket: a repository and its issues, a push, faults,
free review comments; a key the emulator does not know."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from ghbench.errors import EmulatorError, GhbenchError
from ghbench.github.seed import (
    EmulatorControl,
    add_review_comments,
    push_branch,
    seed_repo,
    set_faults,
)

TOKEN = "ghp_test0000000000000000000000000000000001"  # the conftest emulator's


@pytest.fixture
def control(emulator_server: Any) -> EmulatorControl:
    return EmulatorControl(emulator_server.url, emulator_server.emulator.control_key)


@pytest.fixture
def api(emulator_server: Any) -> Any:
    with httpx.Client(
        base_url=emulator_server.url, headers={"Authorization": f"token {TOKEN}"}
    ) as client:
        yield client


def test_issues_are_created_up_to_the_highest_asked(control: EmulatorControl, api: Any) -> None:
    asked: list[int] = []

    def exists(number: int) -> bool:
        asked.append(number)
        return api.get(f"/repos/acme/seeded/issues/{number}").status_code == 200

    seed_repo(control, "acme/seeded", [4, 2], exists)
    assert asked == [4]  # one counted call: the highest
    numbers = [i["number"] for i in api.get("/repos/acme/seeded/issues").json()]
    assert sorted(numbers) == [1, 2, 3, 4]
    seed_repo(control, "acme/seeded", [3], exists)  # there already: nothing created
    assert len(api.get("/repos/acme/seeded/issues").json()) == 4
    seed_repo(control, "acme/empty", [], exists)  # a repository alone
    assert api.get("/repos/acme/empty").status_code == 200 and asked == [4, 3]


def test_a_push_then_free_review_comments_on_its_pr(control: EmulatorControl, api: Any) -> None:
    push_branch(control, "acme/todo", "feature", "a change")
    branch = api.get("/repos/acme/todo/branches/feature").json()
    assert branch["commit"]["commit"]["message"] == "a change"
    pr = api.post("/repos/acme/todo/pulls", json={"title": "t", "head": "feature", "base": "main"})
    number = pr.json()["number"]
    assert add_review_comments(control, [("acme/todo", number, 3)]) == 3
    assert len(api.get(f"/repos/acme/todo/pulls/{number}/comments").json()) == 3
    with pytest.raises(GhbenchError, match="refused review comments on acme/todo#999"):
        add_review_comments(control, [("acme/todo", 999, 1)])


def test_faults_are_set_and_a_bad_one_is_refused(control: EmulatorControl) -> None:
    set_faults(control, {"latency_ms": 0})
    with pytest.raises(EmulatorError, match="setting faults failed"):
        set_faults(control, {"no_such_fault": 1})


def test_a_key_the_emulator_does_not_know_fails_every_call(emulator_server: Any) -> None:
    stranger = EmulatorControl(emulator_server.url, "ghp_wrong")
    assert "ghp_wrong" not in repr(stranger)  # never printed
    with pytest.raises(EmulatorError, match=r"seeding failed \(HTTP 4"):
        seed_repo(stranger, "acme/x", [], lambda _: True)
    with pytest.raises(EmulatorError, match=r"pushing b to acme/todo failed \(HTTP 4"):
        push_branch(stranger, "acme/todo", "b", "m")
