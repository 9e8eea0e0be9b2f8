"""The one matplotlib setup every chart uses: a figure on the Agg canvas (no pyplot, no
global state), and its PNG bytes with no version or date in them (the same chart is
the same bytes).

matplotlib takes 0.5-1 s to import (docs/performance.md): it loads when the first
figure is made, so a command that draws nothing never pays it.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["new_figure", "png_bytes"]


def new_figure(width: float, height: float) -> Figure:
    """An empty figure of ``width`` x ``height`` inches at 100 dpi, on the Agg canvas."""
    # only a command that draws loads matplotlib (see the module docstring)
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415
    from matplotlib.figure import Figure  # noqa: PLC0415

    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def png_bytes(fig: Figure) -> bytes:
    """The figure as PNG bytes (its ``Software`` tag left out)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()
