"""ghbench.harness.plot: the burn curve as a PNG, from the packaged example trace's points
(the HTML report draws the same ones), with and without a window, and a window with
nothing to draw."""

from __future__ import annotations

import io

import matplotlib.image
import numpy as np

from ghbench.data import example_trace_path
from ghbench.harness.plot import burn_points, render_burn_png
from ghbench.pages.burn import BURN_COLUMNS
from ghbench.trace.reader import read_trace

PNG = b"\x89PNG\r\n\x1a\n"


def _pixels(png: bytes) -> np.ndarray:
    assert png.startswith(PNG)
    return np.asarray(matplotlib.image.imread(io.BytesIO(png), format="png"))


def test_the_example_traces_curves_with_their_window_shaded() -> None:
    series = burn_points(read_trace(example_trace_path(), columns=BURN_COLUMNS))
    assert series  # the example's rows carry x-ratelimit-remaining
    start = float(series[0].times[0])
    plain = _pixels(render_burn_png(series, window=None, title="example"))
    shaded = _pixels(render_burn_png(series, window=(start + 60, start + 600), title="example"))
    assert plain.shape == shaded.shape and plain.shape[1] > plain.shape[0]  # wide: 9 x 4.5
    assert not np.array_equal(plain, shaded)  # the window is drawn


def test_nothing_to_draw_is_still_an_image() -> None:
    """A window with no rows in it (an orchestrator that made no call)."""
    assert _pixels(render_burn_png([], window=(10.0, 70.0), title="an empty window")).size > 0
