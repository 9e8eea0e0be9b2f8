"""Finding gh for the gh transport: its path, or one line saying how to install it."""

import stat
from pathlib import Path

import pytest

from ghbench.errors import ToolMissingError
from ghbench.workload.transport.gh import find_gh


def test_a_missing_gh_names_itself_and_the_install_hint() -> None:
    with pytest.raises(ToolMissingError, match=r"\('no-such-gh-here'\) is not on PATH; install"):
        find_gh("no-such-gh-here")


def test_a_path_to_an_executable_is_found_as_given(tmp_path: Path) -> None:
    gh = tmp_path / "gh"
    gh.write_text("#!/bin/sh\n")
    gh.chmod(gh.stat().st_mode | stat.S_IXUSR)
    assert find_gh(str(gh)) == str(gh)
    gh.chmod(stat.S_IRUSR | stat.S_IWUSR)  # not executable: not gh
    with pytest.raises(ToolMissingError):
        find_gh(str(gh))
