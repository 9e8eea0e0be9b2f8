"""``ghbench emulator serve``'s ready line: how calls authenticate, never a token."""

from pathlib import Path

from ghbench.emulator.serve import ready_line


def test_with_a_token_the_line_names_it_redacted() -> None:
    line = ready_line("http://127.0.0.1:1", None, ["ghp_0123456789abcdef"], None, has_key=False)
    assert "GH_TOKEN=ghp_…" in line and "0123456789" not in line
    assert "control API closed" in line


def test_without_a_token_the_line_says_what_a_call_gets() -> None:
    line = ready_line("http://127.0.0.1:1", None, [], None, has_key=True)
    assert "no token was given with --token or in --config" in line
    assert "answers 401" in line and "anonymous, 60 an hour" in line
    kept = ready_line("http://127.0.0.1:1", None, [], Path("/s"), has_key=True)
    assert "a token kept in /s" in kept
