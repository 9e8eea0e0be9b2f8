"""S6's readers on their own: the cadence and thread every reader shares, and the
dashboard that runs one for a window."""

from __future__ import annotations

import pytest

from ghbench.drivers.ao_daemon.api import DaemonDashboard
from ghbench.drivers.ao_typescript.dashboard import WebDashboard
from ghbench.drivers.common.readers import ReaderDashboard, ReaderThread
from ghbench.drivers.workload.dashboard import ModelDashboard
from ghbench.errors import GhbenchError
from ghbench.matrix.realtime_cell import _no_dashboard_calls


class _FakeTime:
    """The reader's clock and stop flag in one: ``wait`` advances the time, and the flag
    is set once the time reaches ``end`` (or ``set`` is called)."""

    def __init__(self, end: float) -> None:
        self.t, self.end, self.stopped, self.waits = 0.0, end, False, 0

    def now(self) -> float:
        return self.t

    def set(self) -> None:
        self.stopped = True

    def is_set(self) -> bool:
        return self.stopped or self.t >= self.end

    def wait(self, timeout: float | None = None) -> bool:
        self.waits += 1
        self.t += timeout or 0.0
        return self.is_set()


class _Recorder(ReaderThread):
    def __init__(self, fake: _FakeTime, items: int, *, refreshed: bool = False) -> None:
        super().__init__(refresh_s=30.0, click_s=10.0)
        self._stop = fake
        self.fake, self.items, self.refreshed = fake, items, refreshed
        self.log: list[tuple[float, str]] = []

    def _read(self) -> None:
        self._cadence(
            lambda: self.log.append((self.fake.t, "index")),
            lambda i: self.log.append((self.fake.t, f"session {i}")),
            self.items,
            now=self.fake.now,
            refreshed=self.refreshed,
        )


def test_readers_refresh_and_click_round_robin_on_their_cadence() -> None:
    reader = _Recorder(_FakeTime(end=65.0), items=3)
    reader._read()
    assert reader.log == [
        (0.0, "index"), (0.0, "session 0"), (10.0, "session 1"), (20.0, "session 2"),
        (30.0, "index"), (30.0, "session 0"), (40.0, "session 1"), (50.0, "session 2"),
        (60.0, "index"), (60.0, "session 0"),
    ]  # fmt: skip
    # AO's reader loaded the index itself before the cadence starts: the next at 30 s
    loaded = _Recorder(_FakeTime(end=35.0), items=1, refreshed=True)
    loaded._read()
    assert [e for e in loaded.log if e[1] == "index"] == [(30.0, "index")]


def test_a_reader_with_nothing_to_click_waits_for_its_refreshes() -> None:
    fake = _FakeTime(end=65.0)
    reader = _Recorder(fake, items=0)
    reader._read()
    assert reader.log == [(0.0, "index"), (30.0, "index"), (60.0, "index")]
    assert fake.waits == 3  # no 50 ms polling in between


def test_a_reader_thread_reports_what_ended_it() -> None:
    class Broken(ReaderThread):
        def _read(self) -> None:
            raise RuntimeError("the page is gone")

    class Patient(ReaderThread):
        def _read(self) -> None:
            self._cadence(lambda: None, lambda i: None, 2)

    broken = Broken(refresh_s=30.0, click_s=10.0)
    broken.start()
    broken.stop()  # joins the thread
    assert broken.error == "RuntimeError: the page is gone"
    patient = Patient(refresh_s=30.0, click_s=10.0)
    patient.start()
    patient.stop()
    assert patient.error is None and patient._thread is None


class _Reads(ReaderThread):
    def __init__(self, error: str | None = None) -> None:
        super().__init__(refresh_s=30.0, click_s=10.0)
        self.fail, self.stopped = error, 0

    def _read(self) -> None:
        if self.fail is not None:
            raise RuntimeError(self.fail)
        self._cadence(lambda: None, lambda i: None, 1)

    def stop(self) -> None:
        self.stopped += 1
        super().stop()


class _Checked(ReaderDashboard):
    def __init__(self, reader: _Reads, exposed: bool) -> None:
        super().__init__(reader)
        self.exposed = exposed

    def _at_window_end(self) -> list[str]:
        if self.exposed:
            raise GhbenchError("listens beyond loopback")
        return ["checked"]

    def _notes(self) -> list[str]:
        return ["read"]


def test_a_dashboard_stops_its_reader_once_whatever_its_check_finds() -> None:
    ok = _Checked(_Reads(), exposed=False)
    ok.start()
    assert ok.close(at_window_end=True) == ["checked", "read"]
    assert ok.close(at_window_end=True) == []  # closed once
    cut = _Checked(_Reads(), exposed=False)
    cut.start()
    assert cut.close(at_window_end=False) == ["read"]  # no check when cut short
    exposed_reader = _Reads()
    exposed = _Checked(exposed_reader, exposed=True)
    exposed.start()
    with pytest.raises(GhbenchError, match="beyond loopback"):
        exposed.close(at_window_end=True)
    assert exposed_reader.stopped == 1 and exposed_reader._thread is None


def test_a_reader_that_failed_fails_the_cell_with_what_ended_it() -> None:
    broken = ReaderDashboard(_Reads(error="the page is gone"))
    broken.start()
    with pytest.raises(
        GhbenchError, match="S6: the dashboard reader failed: RuntimeError: the page"
    ):
        broken.close(at_window_end=True)


@pytest.mark.parametrize(
    ("dashboard", "calls_github"),
    [(DaemonDashboard, False), (WebDashboard, True), (ModelDashboard, True)],
)
def test_a_window_without_dashboard_calls_says_whether_that_is_by_design(
    dashboard: type[ReaderDashboard], calls_github: bool
) -> None:
    """AO's daemon's desktop app reads what the daemon stored (no GitHub call, so 0 is
    the answer); a web dashboard's server and the model's tab call GitHub, so 0 there is
    a finding the note must not explain away."""
    assert dashboard.calls_github is calls_github
    reader = object.__new__(dashboard)  # what the note reads is the class's
    note = _no_dashboard_calls(reader)
    assert ("as expected" in note) is not calls_github
    assert "as expected" not in _no_dashboard_calls(None)  # no reader: nothing to vouch for
