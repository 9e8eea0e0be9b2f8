"""The scaling chart: GraphQL points/hr and REST core requests/hr against sessions.

One line per scenario x topology (latest successful run of each cell), one panel per
resource, and the 5,000/hr budget drawn across both (``analysis.plots``: the one
matplotlib setup); returns PNG bytes for the caller to write atomically.
"""

from __future__ import annotations

from collections.abc import Mapping

from ghbench.analysis.plots import new_figure, png_bytes
from ghbench.artifacts.metrics import METRICS
from ghbench.matrix.runs import MatrixRun
from ghbench.runspec.cells import Cell

__all__ = ["CHART_NAME", "scaling_chart_png"]

CHART_NAME = "scaling.png"
BUDGET = 5000
_PANELS = (
    ("graphqlPointsPerHr", "GraphQL points/hr"),
    ("restCoreRequestsPerHr", "REST core requests/hr"),
)


def scaling_chart_png(best: Mapping[Cell, MatrixRun]) -> bytes:
    """PNG bytes of the chart; an empty matrix still gives a chart with the budget line."""
    fig = new_figure(11, 4.8)
    series = sorted({(c.scenario, c.topology) for c in best})
    for i, (key, label) in enumerate(_PANELS):
        ax = fig.add_subplot(1, 2, i + 1)
        metric = METRICS[key]
        for scen, topo in series:
            points = sorted(
                (c.sessions, v)
                for c, r in best.items()
                if (c.scenario, c.topology) == (scen, topo)
                and r.scorecard is not None
                and (v := metric.of(r.scorecard)) is not None
            )
            if points:
                xs, ys = zip(*points, strict=True)
                # colour per scenario, line style per topology: 12 series stay legible
                style = "-" if topo == "T1" else "--"
                colour = f"C{int(scen[1:]) - 1}"
                ax.plot(
                    xs, ys, style, color=colour, marker="o", markersize=3, label=f"{scen}-{topo}"
                )
        ax.axhline(BUDGET, color="red", linewidth=1.2, label="5,000/hr budget")
        ax.set_title(label)
        ax.set_xlabel("sessions")
        ax.set_ylabel("per hour")
        ax.grid(True, alpha=0.3)
        if i == 1:
            ax.legend(fontsize=7, ncol=2, loc="upper left")
    fig.tight_layout()
    return png_bytes(fig)
