"""The burn curve as a PNG: rate-limit ``remaining`` over time, one line per resource.

The points are ``ghbench.pages.burn``'s (the HTML report draws the same ones); the
measurement window is shaded. ``render_burn_png`` draws them (``analysis.plots``: the one
matplotlib setup) and returns PNG bytes (the caller writes them atomically).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ghbench.analysis.plots import new_figure, png_bytes
from ghbench.pages.burn import BurnSeries, burn_points

__all__ = ["BurnSeries", "burn_points", "render_burn_png"]


def render_burn_png(
    series: Sequence[BurnSeries], *, window: tuple[float, float] | None, title: str
) -> bytes:
    fig = new_figure(9, 4.5)
    ax = fig.add_subplot(1, 1, 1)
    origin = min((s.times[0] for s in series), default=window[0] if window else 0.0)
    if window is not None:
        origin = min(origin, window[0])
    for s in series:
        t = (np.asarray(s.times) - origin) / 60.0
        ax.step(t, s.remaining, where="post", label=s.resource, marker=".", markersize=3)
    if window is not None:
        ax.axvspan(
            (window[0] - origin) / 60.0,
            (window[1] - origin) / 60.0,
            color="tab:green",
            alpha=0.12,
            label="measurement window",
        )
    ax.set_xlabel("minutes since start")
    ax.set_ylabel("rate-limit remaining")
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    if series or window is not None:
        ax.legend(loc="best")
    return png_bytes(fig)
