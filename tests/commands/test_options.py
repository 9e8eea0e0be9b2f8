"""The flag table's rows as click options: types, defaults and help from the tables."""

from __future__ import annotations

import pytest

from ghbench.cli import main
from ghbench.workload.profiles import DEFAULT_PROFILE


def _help(capsys: pytest.CaptureFixture[str], *command: str) -> str:
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    return " ".join(capsys.readouterr().out.split())


def test_help_takes_defaults_from_the_tables(capsys: pytest.CaptureFixture[str]) -> None:
    text = _help(capsys, "simulate")
    assert f"[default: {DEFAULT_PROFILE}]" in text
    assert "[default: workload]" in _help(capsys, "measure")
    assert "[default: workload]" in _help(capsys, "matrix", "run")


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["simulate", "--profile", "nope"], "Invalid value for '--profile': 'nope'"),
        (["simulate", "--agents", "codex"], "Invalid value for '--agents': 'codex'"),
        (["matrix", "run", "--backend", "cloud"], "'cloud' is not one of"),
        (["setup", "--backend", "simulated"], "'simulated' is not one of 'github', 'emulator'"),
        (["matrix", "run", "--duration-scale", "nan"], "finite"),
        (["demo", "--transport", "ftp"], "'ftp' is not one of 'gh', 'http', 'auto'"),
    ],
)
def test_an_enumerated_value_is_checked_while_parsing(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("error: ") and needle in line


def test_the_old_names_still_work(capsys: pytest.CaptureFixture[str]) -> None:
    assert "--backend, --github" in _help(capsys, "setup")
    assert "--duration-scale, --verify-scale" in _help(capsys, "capacity")
    assert "--agents, --profile" in _help(capsys, "workload", "agents")
