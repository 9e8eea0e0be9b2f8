"""Line charts as inline SVG: series, reference lines (a limit, a fraction of it, an
answer), shaded bands (the measurement window), axes with round ticks.

The SVG has a ``viewBox`` and no fixed size, so it scales with the page (a phone, a
printed sheet). A series with more points than the chart has pixels is thinned to the
first, lowest, highest and last point of each pixel column: the drawn line is the same,
the file stays small. Pure: numbers in, markup out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ghbench.pages.html import Markup, esc

__all__ = ["COLUMNS", "Band", "RefLine", "Series", "legend", "line_chart", "nice_ticks", "thin"]

WIDTH, HEIGHT = 480, 260
_LEFT, _RIGHT, _TOP, _BOTTOM = 62, 12, 14, 44
COLUMNS = WIDTH - _LEFT - _RIGHT  # the plot's width in the viewBox's pixels


@dataclass(frozen=True)
class Series:
    """One line: ``points`` as (x, y) in x order; ``step``: a value holds until the next."""

    label: str
    points: Sequence[tuple[float, float]]
    step: bool = False
    markers: bool = False


@dataclass(frozen=True)
class RefLine:
    """A horizontal (or, in ``vlines``, vertical) line at ``value``; ``cls`` is its style:
    limit | fraction | answer."""

    value: float
    label: str
    cls: str = "limit"


@dataclass(frozen=True)
class Band:
    start: float
    end: float
    label: str


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values (1, 2 or 5 times a power of ten apart) covering [low, high]."""
    if not (math.isfinite(low) and math.isfinite(high)) or high <= low:
        return [low]
    raw = (high - low) / max(1, count)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value <= high + step * 1e-9:
        if value >= low - step * 1e-9:
            ticks.append(round(value, 10))
        value += step
    return ticks


def thin(points: Sequence[tuple[float, float]], columns: int) -> list[tuple[float, float]]:
    """At most four points per pixel column: the first, the lowest, the highest, the last."""
    if len(points) <= 2 * columns:
        return list(points)
    x0, x1 = points[0][0], points[-1][0]
    span = (x1 - x0) or 1.0
    out: list[tuple[float, float]] = []
    bucket: list[tuple[float, float]] = []
    current = -1
    for p in points:
        col = min(columns - 1, int((p[0] - x0) / span * columns))
        if col != current and bucket:
            out.extend(_keep(bucket))
            bucket = []
        current = col
        bucket.append(p)
    out.extend(_keep(bucket))
    return out


def _keep(bucket: list[tuple[float, float]]) -> list[tuple[float, float]]:
    if len(bucket) <= 4:
        return bucket
    low = min(bucket, key=lambda p: p[1])
    high = max(bucket, key=lambda p: p[1])
    middle = sorted({low, high}, key=lambda p: p[0])
    return [bucket[0], *middle, bucket[-1]]


def _fmt_tick(value: float) -> str:
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:g}"


def line_chart(
    series: Sequence[Series],
    *,
    x_label: str,
    y_label: str,
    hlines: Sequence[RefLine] = (),
    vlines: Sequence[RefLine] = (),
    bands: Sequence[Band] = (),
    y_min: float | None = 0.0,
    x_fmt: Callable[[float], str] = _fmt_tick,
    title: str = "",
) -> Markup:
    """The chart as ``<svg>``; an empty chart (no point, no line) still draws its axes."""
    xs = [p[0] for s in series for p in s.points] + [v.value for v in vlines]
    xs += [b.start for b in bands] + [b.end for b in bands]
    ys = [p[1] for s in series for p in s.points] + [h.value for h in hlines]
    x_lo, x_hi = (min(xs), max(xs)) if xs else (0.0, 1.0)
    y_lo = min(ys) if ys else 0.0
    if y_min is not None:
        y_lo = min(y_lo, y_min)
    y_hi = max(ys) if ys else 1.0
    if x_hi <= x_lo:
        x_lo, x_hi = x_lo - 0.5, x_hi + 0.5
    if y_hi <= y_lo:
        y_hi = y_lo + 1.0
    y_hi += (y_hi - y_lo) * 0.06  # room above a limit line for its label
    plot_w, plot_h = WIDTH - _LEFT - _RIGHT, HEIGHT - _TOP - _BOTTOM

    def px(x: float) -> float:
        return _LEFT + (x - x_lo) / (x_hi - x_lo) * plot_w

    def py(y: float) -> float:
        return _TOP + plot_h - (y - y_lo) / (y_hi - y_lo) * plot_h

    out = [
        f'<svg viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{esc(title or y_label)}"'
        ' xmlns="http://www.w3.org/2000/svg">'
    ]
    for band in bands:
        x0, x1 = px(band.start), px(band.end)
        out.append(
            f'<rect class="band" x="{x0:.1f}" y="{_TOP}" width="{max(0.5, x1 - x0):.1f}"'
            f' height="{plot_h}"><title>{esc(band.label)}</title></rect>'
        )
    for tick in nice_ticks(y_lo, y_hi):
        y = py(tick)
        out.append(
            f'<line class="grid" x1="{_LEFT}" x2="{WIDTH - _RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>'
        )
        out.append(
            f'<text x="{_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{esc(_fmt_tick(tick))}</text>'
        )
    for tick in nice_ticks(x_lo, x_hi, 6):
        x = px(tick)
        out.append(
            f'<line class="grid" x1="{x:.1f}" x2="{x:.1f}" y1="{_TOP}" y2="{_TOP + plot_h}"/>'
        )
        label = esc(x_fmt(tick))
        out.append(
            f'<text x="{x:.1f}" y="{_TOP + plot_h + 17}" text-anchor="middle">{label}</text>'
        )
    out.append(
        f'<line class="axis" x1="{_LEFT}" x2="{WIDTH - _RIGHT}" y1="{_TOP + plot_h}"'
        f' y2="{_TOP + plot_h}"/><line class="axis" x1="{_LEFT}" x2="{_LEFT}" y1="{_TOP}"'
        f' y2="{_TOP + plot_h}"/>'
    )
    middle = 'text-anchor="middle">'
    out.append(
        f'<text x="{_LEFT + plot_w / 2:.0f}" y="{HEIGHT - 6}" {middle}{esc(x_label)}</text>'
        f'<text transform="translate(14 {_TOP + plot_h / 2:.0f}) rotate(-90)"'
        f" {middle}{esc(y_label)}</text>"
    )
    for line in hlines:
        y = py(line.value)
        out.append(
            f'<line class="{esc(line.cls)}" x1="{_LEFT}" x2="{WIDTH - _RIGHT}" y1="{y:.1f}"'
            f' y2="{y:.1f}"/><text class="ref-label" x="{WIDTH - _RIGHT - 2}" y="{y - 4:.1f}"'
            f' text-anchor="end">{esc(line.label)}</text>'
        )
    for line in vlines:
        x = px(line.value)
        out.append(
            f'<line class="{esc(line.cls)}" x1="{x:.1f}" x2="{x:.1f}" y1="{_TOP}"'
            f' y2="{_TOP + plot_h}"/><text class="ref-label" x="{x + 4:.1f}" y="{_TOP + 12}">'
            f"{esc(line.label)}</text>"
        )
    for i, s in enumerate(series):
        points = thin(s.points, plot_w)
        if not points:
            continue
        coords = []
        for j, (x, y) in enumerate(points):
            if s.step and j:
                coords.append(f"{px(x):.1f},{py(points[j - 1][1]):.1f}")
            coords.append(f"{px(x):.1f},{py(y):.1f}")
        out.append(
            f'<polyline class="line s{i % 5}" points="{" ".join(coords)}">'
            f"<title>{esc(s.label)}</title></polyline>"
        )
        if s.markers or len(points) == 1:
            out += [
                f'<circle class="f{i % 5}" cx="{px(x):.1f}" cy="{py(y):.1f}" r="3"/>'
                for x, y in points
            ]
    out.append("</svg>")
    return Markup("".join(out))


def legend(series: Sequence[Series], extra: Sequence[str] = ()) -> Markup:
    """The series' colours and names under a chart, and ``extra`` notes."""
    items = [
        f'<span style="color:var(--c{i % 5})">&#9632;</span>&nbsp;{esc(s.label)}'
        for i, s in enumerate(series)
    ]
    items += [esc(e) for e in extra]
    return Markup(f'<div class="legend">{" &nbsp; ".join(items)}</div>')
