"""``ghbench ab`` end to end: real processes, the embedded emulator over loopback.

Two workload profiles as the two builds (head against pre-b1). The real AO builds' A/B
and the smoke gate's refusal of a build that traces nothing are in the real-AO stage
(tests/realao/test_ab.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .helpers import clean_env, ghbench, make_project

# the smoke window outlasts the model's start-up under load (a 2 s one saw no call yet)
WINDOWS = ["--runs", "2", "--warmup", "1s", "--duration", "4s", "--smoke", "8s"]
EMULATOR = ["--github", "emulator", "--poll-interval", "1s", "--timeout", "60s"]

pytestmark = pytest.mark.slow


def _values(compare: dict[str, object], name: str, side: str) -> list[float]:
    metrics = compare["metrics"]
    assert isinstance(metrics, list)
    (metric,) = (m for m in metrics if m["name"] == name)
    return list(metric[side]["values"])


def test_two_profiles_alternate_on_one_setup_and_are_compared(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    proc = ghbench(
        "ab",
        "--project",
        "todo-app",
        "--sessions",
        "2",
        "--driver",
        "workload",
        "--transport",
        "http",
        "--tick",
        "1s",
        "--a-profile",
        "head",
        "--b-profile",
        "pre-b1",
        *WINDOWS,
        *EMULATOR,
        "--out",
        "out",
        "--fail",
        "benchmarkControlCalls>=2",  # always true: exit 3 is the threshold's doing
        cwd=root,
        env=clean_env(root),
    )
    assert proc.returncode == 3, proc.stderr
    order = re.findall(r"^run \d/4: build ([ab]) ", proc.stderr, re.M)
    assert order == ["a", "b", "a", "b"]
    assert proc.stderr.index("smoke: build a") < proc.stderr.index("smoke: build b")
    assert proc.stderr.index("smoke: build b") < proc.stderr.index("run 1/4")
    # each smoke ends at its build's first traced call, not after its 8 s
    assert proc.stderr.count("window ended early: the build traced its first call") == 2

    (run_dir,) = (root / "out").glob("ab-*")
    for side in ("a", "b"):
        cards = sorted((run_dir / side).glob("scorecard-*.json"))
        assert len(cards) == 2
        for card in cards:
            trace = Path(json.loads(card.read_text())["trace"])
            assert trace.parent == run_dir / side and trace.read_text().strip()
        assert len(list((run_dir / side).glob("summary-bench-*.txt"))) == 2
        (smoke,) = (run_dir / "smoke" / side).glob("gh-trace-bench-*.jsonl")
        assert smoke.read_text().strip()
    assert (root / "out" / "setup-todo-app-quiet-steady.single-repo.2.json").is_file()

    compare = json.loads((run_dir / "compare.json").read_text())
    assert compare["baseline"]["runs"] == 2 and compare["candidate"]["runs"] == 2
    assert compare["thresholds"][0]["failed"] is True and compare["passed"] is False
    assert "ghbench compare: quiet-steady.single-repo.2" in proc.stdout
    assert (run_dir / "compare.md").read_text().startswith("### ghbench compare")
    # head runs Guard 2 once every repo answered 304; pre-b1 takes a 304 for a change
    guard2 = "operations[gh.api.guard-commit-status].calls"
    assert min(_values(compare, guard2, "baseline")) > 0
    assert _values(compare, guard2, "candidate") == [0.0, 0.0]

    again = ghbench(
        "compare", str(run_dir / "a"), str(run_dir / "b"), "--json", cwd=root, env=clean_env(root)
    )
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["metrics"] == compare["metrics"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--driver", "workload", "--a-profile", "head"], "--driver workload needs --b-profile"),
        (
            ["--driver", "ao", "--a-ao", "x", "--b-ao", "y", "--a-profile", "head"],
            "--a-profile applies only with --driver workload",
        ),
        (["--driver", "ao", "--a-ao", "x"], "--driver ao needs --b-ao"),
        (
            ["--driver", "workload", "--a-profile", "head", "--b-profile", "head", "--fail", "x"],
            "--fail 'x': not a threshold",
        ),
        (
            ["--driver", "workload", "--a-profile", "head", "--b-profile", "head", "--issues", "1"],
            "--issues lists 1 issues but --sessions is 2",
        ),
    ],
)
def test_bad_flags_are_one_line_before_anything_starts(
    tmp_path: Path, args: list[str], needle: str
) -> None:
    root = make_project(tmp_path)
    proc = ghbench(
        "ab",
        "--project",
        "todo-app",
        "--sessions",
        "2",
        "--duration",
        "1s",
        *args,
        "--out",
        "out",
        cwd=root,
        env=clean_env(root),
    )
    assert proc.returncode == 2, proc.stderr
    assert len(proc.stderr.splitlines()) == 1 and needle in proc.stderr
    assert not (root / "out").exists()
