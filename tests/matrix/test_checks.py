"""The checks on a real-time cell's trace: the dashboard/lifecycle split, the spread."""

from __future__ import annotations

from ghbench.matrix.checks import is_dashboard_row, split_dashboard_traffic, unpolled_repos
from ghbench.timefmt import parse_iso
from ghbench.trace.schema import TraceRow


def _row(at: str, operation: str, args: list[str], component: str = "scm-github") -> TraceRow:
    return TraceRow(timestamp=at, operation=operation, args=args, component=component)


def test_split_tells_dashboard_calls_by_shape_within_the_window() -> None:
    t = "2026-04-17T14:00:{:02d}.000Z"
    pr_state = ["pr", "view", "7", "--repo", "o/r", "--json", "state"]
    pr_enrich = ["pr", "view", "7", "--repo", "o/r", "--json", "number,state,title"]
    issue = ["issue", "view", "3", "--repo", "o/r", "--json", "title"]
    rows = [
        _row(t.format(1), "gh.issue.view", issue, "tracker-github"),  # before the window
        _row(t.format(10), "gh.api.guard-pr-list", ["api", "repos/o/r/pulls"], "scm-github-batch"),
        _row(t.format(11), "gh.pr.view", pr_state),  # the poller's batch-cache miss
        _row(t.format(12), "gh.pr.view", pr_enrich),  # AO's dashboard enrichment
        _row(t.format(13), "gh.issue.view", issue, "tracker-github"),  # AO's dashboard titles
        _row(t.format(14), "gh.pr.view", pr_state, "dashboard"),  # the workload model's reader
        _row(t.format(15), "gh.pr.checks", ["pr", "checks", "7", "--repo", "o/r"]),  # AO's
        TraceRow(timestamp="not a time", operation="gh.issue.view"),
        _row(t.format(30), "gh.pr.view", pr_enrich),  # after the window
    ]
    assert [is_dashboard_row(r) for r in rows[1:7]] == [False, False, True, True, True, True]
    start, end = (round(parse_iso(t.format(s)) * 1000) for s in (5, 20))
    split = split_dashboard_traffic(rows, start, end)
    assert (split.dashboard, split.lifecycle) == (4, 2)
    # the window's edges count, to the millisecond, as in the scorecard
    edge = split_dashboard_traffic(rows, round(parse_iso(t.format(13)) * 1000), end)
    assert (edge.dashboard, edge.lifecycle) == (3, 0)
    assert dict(split.dashboard_operations) == {
        "gh.pr.view": 2,
        "gh.issue.view": 1,
        "gh.pr.checks": 1,
    }
    assert split.note() == (
        "S6: in the window, 4 dashboard calls (1 gh.issue.view, 1 gh.pr.checks,"
        " 2 gh.pr.view) and 2 lifecycle calls"
    )


def test_unpolled_repos_needs_the_whole_name() -> None:
    rows = [
        TraceRow(
            timestamp="t",
            args=["api", "repos/o/t2-50-r10/pulls?per_page=1"],
            endpoint="repos/o/t2-50-r10",
        ),
        TraceRow(timestamp="t", args=["pr", "view", "1", "--repo", "o/t2-50-r2"]),
    ]
    repos = ["o/t2-50-r1", "o/t2-50-r2", "o/t2-50-r10"]
    assert unpolled_repos(rows, repos) == ["o/t2-50-r1"]
