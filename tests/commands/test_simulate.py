"""``ghbench simulate`` as a command: the console scorecard with its files, a trend
tracker's document alone on stdout, and ``--config``'s profile unless ``--profile``.
The run itself (trace, artifact, the ledger's agreement) is tests/simulation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

SHORT = ["simulate", "--sessions", "2", "--warmup", "0s", "--duration", "1m", "--out", "out"]


def test_the_console_scorecard_and_one_summary_line(ghbench: Any) -> None:
    ran = ghbench(*SHORT)
    assert ran.returncode == 0, ran.stderr
    for label in ("Trace:", "Scorecard:", "Report:"):
        assert label in ran.stdout
    (line,) = ran.stderr.splitlines()
    assert line.startswith("simulated S2-T1-2 (ao-0.12.6, seed 0): ")


def test_a_trackers_format_leaves_stdout_to_its_document(ghbench: Any, tmp_path: Path) -> None:
    ran = ghbench(*SHORT, "--format", "gab")
    assert ran.returncode == 0, ran.stderr
    assert isinstance(json.loads(ran.stdout), list)
    (card,) = (tmp_path / "out").glob("scorecard-*.json")
    assert ran.stderr.splitlines()[0] == f"scorecard: {Path('out') / card.name}"


@pytest.mark.parametrize(
    ("flags", "profile"), [([], "ao-0.10.3"), (["--profile", "head"], "ao-main-60e8c881")]
)
def test_configs_profile_applies_unless_profile_is_given(
    ghbench: Any, tmp_path: Path, flags: list[str], profile: str
) -> None:
    config = tmp_path / "workload.yaml"
    config.write_text("profile: ao-0.10.3\nrepos: [acme/todo]\n")
    ran = ghbench(*SHORT, "--config", str(config), *flags)
    assert ran.returncode == 0, ran.stderr
    assert f"simulated S2-T1-2 ({profile}, seed 0)" in ran.stderr
