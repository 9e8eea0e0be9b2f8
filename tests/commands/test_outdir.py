"""``--out``: every command that takes one refuses a directory it cannot write before
doing any work, with one ``error:`` line and exit 2. The commands are found in the CLI's
own group, so a new command with ``--out`` is walked too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from ghbench.cli import cli, main


def _commands(
    group: click.Group, ctx: click.Context, path: tuple[str, ...]
) -> Iterator[tuple[str, ...]]:
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None
        if isinstance(command, click.Group):
            yield from _commands(command, ctx, (*path, name))
        elif any("--out" in p.opts for p in command.params):
            yield (*path, name)


WITH_OUT = sorted(_commands(cli, click.Context(cli), ()))


def test_the_walk_finds_the_commands_that_write() -> None:
    names = {" ".join(c) for c in WITH_OUT}
    assert {"setup", "measure", "demo", "simulate", "matrix run", "replay", "capacity"} <= names


def _tree(root: Path) -> set[Path]:
    return set(root.rglob("*"))


@pytest.mark.parametrize("command", WITH_OUT, ids=" ".join)
@pytest.mark.parametrize(
    ("out", "needle"),
    [
        ("a-file", "is a file, not a directory"),
        ("a-file/below", "is under"),
        ("/proc/ghbench-out", "cannot write there"),
        ("/sys/kernel", "cannot write there"),
    ],
)
def test_a_bad_out_is_one_line_before_any_work(
    *,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: tuple[str, ...],
    out: str,
    needle: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-file").write_text("not a directory\n")
    before = _tree(tmp_path)
    with pytest.raises(SystemExit) as done:
        main([*command, "--out", out])
    assert done.value.code == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: --out {out}: "), lines
    assert needle in lines[0]
    assert _tree(tmp_path) == before
