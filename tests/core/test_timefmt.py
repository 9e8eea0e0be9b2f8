import pytest

from ghbench.timefmt import format_duration, iso_ms, iso_s, parse_duration, parse_iso


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("90s", 90.0),
        ("2m", 120.0),
        ("15m", 900.0),
        ("1h30m", 5400.0),
        ("500ms", 0.5),
        ("1m30s", 90.0),
        ("45", 45.0),
        (" 2M ", 120.0),
    ],
)
def test_parse_duration_accepts_the_spec_forms(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "m", "2x", "1h-3m", "abc", "2m3"])
def test_parse_duration_rejects_with_the_accepted_forms(text: str) -> None:
    with pytest.raises(ValueError, match="use forms like"):
        parse_duration(text)


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(900, "15m 0s"), (45, "45s"), (3723, "1h 2m 3s"), (899.6, "15m 0s"), (0, "0s")],
)
def test_format_duration_matches_the_spec_example(seconds: float, text: str) -> None:
    assert format_duration(seconds) == text


def test_iso_round_trip() -> None:
    t = parse_iso("2026-04-16T14:17:02.123Z")
    assert iso_ms(t) == "2026-04-16T14:17:02.123Z"
    assert iso_s(t) == "2026-04-16T14:17:02Z"
    assert parse_iso("2026-04-16T14:17:02+00:00") == parse_iso("2026-04-16T14:17:02Z")
    # a naive time is UTC
    assert parse_iso("2026-04-16T14:17:02") == parse_iso("2026-04-16T14:17:02Z")
