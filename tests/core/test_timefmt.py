import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghbench.errors import UsageError
from ghbench.timefmt import (
    describe_seconds,
    duration_flag,
    format_duration,
    iso_ms,
    iso_s,
    parse_duration,
    parse_iso,
)


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


# --- properties: any text is a bounded duration or a ValueError, never anything else ---

_UNITS = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 0.001}
_part = st.tuples(st.integers(0, 10**6), st.sampled_from(sorted(_UNITS)))


@settings(max_examples=200, deadline=None)
@given(text=st.one_of(st.text(max_size=80), st.from_regex(r"[0-9.hms ]{0,80}", fullmatch=True)))
def test_any_text_is_a_finite_duration_or_a_value_error(text: str) -> None:
    try:
        seconds = parse_duration(text)
    except ValueError as exc:
        assert "duration" in str(exc)
    else:
        assert math.isfinite(seconds) and seconds >= 0


@settings(max_examples=200, deadline=None)
@given(parts=st.lists(_part, min_size=1, max_size=4))
def test_written_durations_parse_to_their_sum(parts: list[tuple[int, str]]) -> None:
    text = "".join(f"{n}{unit}" for n, unit in parts)
    assert parse_duration(text) == pytest.approx(sum(n * _UNITS[u] for n, u in parts))


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=80), maximum=st.floats(1, 10**7))
def test_a_duration_flag_is_within_its_bound_or_a_usage_error(text: str, maximum: float) -> None:
    try:
        seconds = duration_flag("--duration", text, allow_zero=False, maximum=maximum)
    except UsageError as exc:
        assert str(exc).startswith("--duration: ")
        assert "\n" not in str(exc)
    else:
        assert 0 < seconds <= maximum


_offsets = st.sampled_from(["Z", "+00:00", "+01:00", "-01:00", "+14:00", "-23:59", ""])


@settings(max_examples=300, deadline=None)
@given(
    text=st.one_of(
        st.text(max_size=40),
        st.builds(lambda d, o: d.isoformat() + o, st.datetimes(), _offsets),
    )
)
@pytest.mark.slow
def test_any_text_is_a_time_in_years_1_to_9999_or_a_value_error(text: str) -> None:
    try:
        epoch = parse_iso(text)
    except ValueError:
        return
    # a time ghbench accepts always formats, and formats back to itself
    written = iso_ms(epoch)
    assert len(written) == 24 and written.endswith("Z")
    assert abs(parse_iso(written) - epoch) < 0.001
    assert iso_s(epoch)[:4].isdigit()


@pytest.mark.parametrize(
    "text",
    ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-00:01", "0000-01-01T00:00:00Z"],
)
def test_times_outside_years_1_to_9999_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match=r"1 to 9999|year 0 is out of range"):
        parse_iso(text)


def test_the_ends_of_the_range_format_with_four_digit_years() -> None:
    assert iso_ms(parse_iso("0001-01-01T00:00:00Z")) == "0001-01-01T00:00:00.000Z"
    assert iso_s(parse_iso("9999-12-31T23:59:59Z")) == "9999-12-31T23:59:59Z"


def test_duration_bounds_name_themselves() -> None:
    with pytest.raises(UsageError, match=r"longer than the maximum, 168h; give at most 168h"):
        duration_flag("--duration", "100000000h")
    with pytest.raises(UsageError, match=r"\(400 characters\) is not a duration"):
        duration_flag("--duration", "9" * 400)
    assert describe_seconds(5400) == "1h30m"
