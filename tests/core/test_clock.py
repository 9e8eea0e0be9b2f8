import pytest

from ghbench.clock import Clock, SystemClock, VirtualClock


def test_virtual_clock_moves_only_when_told() -> None:
    clock = VirtualClock(start=100.0)
    assert clock.now() == 100.0
    clock.sleep(30)
    assert clock.now() == 130.0
    assert clock.advance(0.5) == 130.5
    clock.set(200.0)
    assert clock.now() == 200.0


def test_virtual_clock_never_goes_back() -> None:
    clock = VirtualClock(start=100.0)
    with pytest.raises(ValueError, match="cannot go back"):
        clock.advance(-1)
    with pytest.raises(ValueError, match="cannot go back"):
        clock.set(99.0)


def test_both_clocks_satisfy_the_protocol() -> None:
    assert isinstance(SystemClock(), Clock)
    assert isinstance(VirtualClock(), Clock)
    assert SystemClock().now() > 1_700_000_000
