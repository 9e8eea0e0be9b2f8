"""``ghbench ab``'s own flags: each build's rows of the flag table (``--a-profile``,
``--b-ao``, ...) and the refusals made before any build runs. The A/B runs themselves,
on the embedded emulator, are tests/harness/test_ab.py."""

from __future__ import annotations

from typing import Any

import pytest
from tests.commands.conftest import one_line_error

RUN = ["ab", "--project", "todo-app", "--sessions", "2", "--duration", "1m", "--out", "ab"]


def test_each_build_has_the_tables_rows_with_its_role(ghbench: Any) -> None:
    ran = ghbench("ab", "--help")
    assert ran.returncode == 0
    text = " ".join(ran.stdout.split())
    for flag in (
        "--a-ao",
        "--b-ao",
        "--a-ao-layout",
        "--b-ao-layout",
        "--a-profile",
        "--b-profile",
    ):
        assert flag in text
    assert "(build A (baseline); " in text and "(build B (candidate); " in text


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--driver", "ao", "--a-profile", "head"], ["--a-profile applies only with", "drop it"]),
        (["--driver", "workload", "--b-profile", "head"], ["needs --a-profile (build A)"]),
        (["--smoke", "0s"], ["--smoke", "more than 0"]),
        (["--fail", "nonsense"], ["nonsense"]),
    ],
)
def test_bad_input_is_refused_before_anything_runs(
    ghbench: Any, tmp_path: Any, args: list[str], needles: list[str]
) -> None:
    ran = ghbench(*RUN, *args)
    one_line_error(ran, 2, *needles)
    assert not (tmp_path / "ab").exists()
