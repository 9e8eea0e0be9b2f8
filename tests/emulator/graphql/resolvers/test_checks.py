"""A commit's CI in GraphQL: ``statusCheckRollup`` over the latest check run per name and
status per context, its counts, check suites and their workflow runs."""

from __future__ import annotations

from typing import Any

from emu_helpers import graphql

from ghbench.emulator.core import Emulator

_ROLLUP = """query($oid: GitObjectID!) { repository(owner: "acme", name: "todo") {
  object(oid: $oid) { ... on Commit { oid abbreviatedOid messageHeadline messageBody
    statusCheckRollup { state contexts(first: 10) { checkRunCount statusContextCount
      checkRunCountsByState { state count } statusContextCountsByState { state count }
      nodes { __typename ... on CheckRun { name status conclusion checkSuite {
        app { slug } conclusion workflowRun { runNumber workflow { name } } } }
        ... on StatusContext { context state } } } } } } } }"""


def _commit(emulator: Emulator, oid: str) -> Any:
    return graphql(emulator, _ROLLUP, oid=oid)["data"]["repository"]["object"]


def _setup(emulator: Emulator) -> tuple[Any, Any, Any, str]:
    store = emulator.store
    repo, octo = store.get_repo("acme", "todo"), store.user("octo")
    sha = store.commit_to_branch(repo, "feat/x", "Title line\n\nBody text").sha
    return store, repo, octo, sha


def test_a_commit_without_ci_has_no_rollup(emulator: Emulator) -> None:
    _, _, _, sha = _setup(emulator)
    commit = _commit(emulator, sha)
    assert commit["statusCheckRollup"] is None
    assert (commit["messageHeadline"], commit["messageBody"]) == ("Title line", "Body text")
    assert commit["abbreviatedOid"] == sha[:7]


def test_the_rollup_is_the_worst_of_the_latest_runs_and_statuses(emulator: Emulator) -> None:
    store, repo, octo, sha = _setup(emulator)
    store.set_ci(repo, sha, "failure", octo)
    store.set_ci(repo, sha, "success", octo)  # the same job again: only the latest counts
    store.add_status(repo, sha, "pending", octo, context="deploy")
    store.create_check_run(repo, sha, "lint", conclusion="cancelled")
    rollup = _commit(emulator, sha)["statusCheckRollup"]
    assert rollup["state"] == "FAILURE"  # a cancelled run fails the rollup
    contexts = rollup["contexts"]
    assert (contexts["checkRunCount"], contexts["statusContextCount"]) == (2, 2)
    runs = [n for n in contexts["nodes"] if n["__typename"] == "CheckRun"]
    assert [(r["name"], r["conclusion"]) for r in runs] == [
        ("ci", "SUCCESS"),
        ("lint", "CANCELLED"),
    ]
    ci, lint = (r["checkSuite"] for r in runs)
    assert ci["app"]["slug"] == "github-actions" and ci["workflowRun"]["workflow"]["name"] == "CI"
    assert lint["app"]["slug"] == "ghbench" and lint["workflowRun"] is None
    assert {c["state"]: c["count"] for c in contexts["checkRunCountsByState"]} == {
        "SUCCESS": 1,
        "CANCELLED": 1,
    }
    statuses = {c["state"]: c["count"] for c in contexts["statusContextCountsByState"]}
    assert statuses == {"SUCCESS": 1, "PENDING": 1}


def test_pending_runs_keep_the_rollup_pending(emulator: Emulator) -> None:
    store, repo, octo, sha = _setup(emulator)
    store.set_ci(repo, sha, "success", octo)
    store.create_check_run(repo, sha, "slow", status="in_progress")
    assert _commit(emulator, sha)["statusCheckRollup"]["state"] == "PENDING"
