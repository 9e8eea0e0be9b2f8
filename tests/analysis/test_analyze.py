from __future__ import annotations

import json

import pytest

from ghbench.analysis.analyze import analyze
from ghbench.analysis.shapes import bucket_kind, endpoint_shape
from ghbench.analysis.text import analysis_lines
from ghbench.trace.frame import TraceFrame

from .conftest import RESET_A, row


def test_wall_clock_and_outcomes(frame: TraceFrame) -> None:
    a = analyze(frame)
    assert a.rows == 9 and a.control_rows == 1
    assert a.span_minutes == 3
    assert a.calls_per_minute.first(3, 0) == (2, 5, 2)
    o = a.outcomes
    assert (o.ok, o.not_modified, o.failed, o.unknown) == (6, 1, 2, 0)


def test_failures_by_exit_code_and_status(frame: TraceFrame) -> None:
    a = analyze(frame)
    assert set(a.failures_by_exit) == {
        (1, "gh.api.guard-pr-list", 1, 1),
        (4, "gh.pr.list", 1, 0),
        (1, "gh.api.repos", 1, 0),
    }
    assert dict(a.failures_by_status) == {None: 1, 304: 1, 502: 1}


def test_buckets_shapes_repos_sessions(frame: TraceFrame) -> None:
    a = analyze(frame)
    kinds = {b.operation: (b.kind, b.shapes) for b in a.buckets}
    assert kinds["gh.api.guard-pr-list"] == ("explicit", 1)
    assert kinds["gh.api.repos"] == ("generic", 1)
    assert kinds["gh.pr.view"] == ("derived", 1)
    assert a.bucket_share("generic") == pytest.approx(1 / 9)
    shapes = {g.label: g.calls for g in a.shapes}
    assert shapes["repos/{owner}/{repo}/pulls?per_page&state"] == 5
    assert shapes["repos/{owner}/{repo}/commits/{sha}/check-runs?per_page"] == 1
    assert shapes["(no endpoint)"] == 2
    repos = {g.label: g.calls for g in a.repos}
    assert repos == {"acme/todo": 6, "acme/api": 1, "(none)": 2}
    assert a.attributed_rows == 1


def test_rate_limit_curve_and_coverage(frame: TraceFrame) -> None:
    a = analyze(frame)
    curves = {c.resource: c.lowest.first(a.span_minutes, None) for c in a.curves}
    assert curves["core"] == (4990, 4989, 4996)
    assert curves["graphql"] == (None, 4998, None)
    cov = {c.operation: c for c in a.coverage}
    assert cov["gh.pr.view"].with_status == 0
    assert cov["gh.api.graphql-batch"].with_graphql_cost == 1
    text = "\n".join(analysis_lines(a))
    assert "Status coverage" in text and "core: 4,990 → 4,996, lowest 4,989" in text
    data = json.loads(json.dumps(a.to_json()))
    assert data["kind"] == "analysis" and data["outcomes"]["notModified"] == 1


@pytest.mark.parametrize(
    ("endpoint", "shape"),
    [
        (None, "(no endpoint)"),
        ("graphql", "graphql"),
        (
            "/repos/o/r/pulls/12/comments?per_page=1&page=2",
            "repos/{owner}/{repo}/pulls/{n}/comments?page&per_page",
        ),
        (
            "repos/o/r/commits/" + "0123456789abcdef" * 2 + "01234567/status",
            "repos/{owner}/{repo}/commits/{sha}/status",
        ),
        ("rate_limit", "rate_limit"),
    ],
)
def test_endpoint_shape(endpoint: str | None, shape: str) -> None:
    assert endpoint_shape(endpoint) == shape


@pytest.mark.parametrize(
    ("operation", "kind"),
    [
        (None, "missing"),
        ("gh.api.guard-commit-status", "explicit"),
        ("gh.api.--method", "generic"),
        ("gh.api.-X", "generic"),
        ("gh.issue.view", "derived"),
    ],
)
def test_bucket_kind(operation: str | None, kind: str) -> None:
    assert bucket_kind(operation) == kind


def test_the_rate_limits_that_answered_come_first() -> None:
    reset = {"rateLimitResource": "graphql", "rateLimitReset": RESET_A}
    rows = [
        row(0, httpStatus=200, ok=True, graphqlCost=1, rateLimitRemaining=0, **reset),
        row(30, httpStatus=200, ok=False, rateLimited="primary", rateLimitRemaining=0, **reset),
        row(60, httpStatus=429, ok=False, rateLimited="secondary-concurrency", **reset),
    ]
    a = analyze(TraceFrame.from_rows(rows))
    assert [(w.budget, w.count) for w in a.rate_limits] == [("graphql", 1), ("concurrency", 1)]
    assert (a.outcomes.failed, a.outcomes.refused) == (2, 2)
    text = "\n".join(analysis_lines(a))
    assert text.index("Rate limits") < text.index("Outcomes")
    assert "! GraphQL points ran out at" in text
    data = a.to_json()
    assert data["schemaVersion"] == 3 and data["outcomes"]["refused"] == 2
    assert [w["budget"] for w in data["rateLimited"]] == ["graphql", "concurrency"]
