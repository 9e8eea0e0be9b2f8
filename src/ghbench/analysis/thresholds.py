"""``--fail`` thresholds: ``METRIC OP VALUE`` (absolute) or ``METRIC OP VALUE%`` (relative).

- ``graphqlPointsPerHr>+10%`` fails when the candidate's median is more than 10% above
  the baseline's; ``p95DurationMs<-20%`` when it dropped by more than 20%. From a
  baseline of 0 any rise is +∞% and any fall −∞%.
- ``opaqueCallPct>0.05`` fails when the candidate's median is above 0.05, whatever the
  baseline.
- OP is one of ``>``, ``>=``, ``<``, ``<=``; spaces are allowed around it.
- A threshold whose figure is missing on a side it needs (a rate of a zero-length
  window, say) fails: a gate that cannot see the number does not let it through.

``parse_threshold`` checks only the form, so a malformed expression is refused before
any file is read; ``check_metric`` then checks the name against what the comparison has.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ghbench.analysis.compare import Comparison, MetricComparison
from ghbench.analysis.compare_metrics import OPERATION_FIELDS, SCALAR_METRICS
from ghbench.errors import UsageError

__all__ = [
    "OPERATORS",
    "THRESHOLD_FAILED",
    "Threshold",
    "ThresholdResult",
    "check_metric",
    "evaluate",
    "format_number",
    "known_metrics_text",
    "parse_threshold",
]

THRESHOLD_FAILED = 3  # the exit code when a --fail threshold held

OPERATORS: dict[str, Callable[[float, float], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
}
_NAME = r"[A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*)*|operations\[[^\[\]]+\]\.[A-Za-z]+"
_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_EXPRESSION = re.compile(
    rf"^\s*(?P<metric>{_NAME})\s*(?P<op>>=|<=|>|<)\s*(?P<value>{_NUMBER})\s*(?P<pct>%)?\s*$"
)
_EXAMPLES = "e.g. 'graphqlPointsPerHr>+10%' (relative to the baseline) or 'opaqueCallPct>0.05'"


@dataclass(frozen=True)
class Threshold:
    expression: str  # as the user wrote it
    metric: str
    op: str
    value: float
    relative: bool  # VALUE% of the baseline's median, else the candidate's own median

    @property
    def canonical(self) -> str:
        value = format_number(self.value)
        if self.relative:
            value = f"{'+' if self.value >= 0 else ''}{value}%"
        return f"{self.metric}{self.op}{value}"


@dataclass(frozen=True)
class ThresholdResult:
    threshold: Threshold
    observed: float | None  # the change in % (relative) or the candidate's median
    failed: bool
    missing: str | None = None  # why it could not be checked (it then fails)

    def describe(self) -> str:
        """``change +12.5%``, ``candidate 0.0712``, or why it could not be checked."""
        if self.observed is None:
            return f"cannot be checked: {self.missing}"
        if not self.threshold.relative:
            return f"candidate {self.observed:g}"
        if math.isinf(self.observed):
            return f"change {'+' if self.observed > 0 else '-'}∞% (from 0)"
        return f"change {self.observed:+.1f}%"


def format_number(value: float) -> str:
    """Shortest text that reads back as ``value`` (``10``, ``0.05``, ``1e-07``)."""
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def known_metrics_text(operations: Sequence[str] = ()) -> str:
    names = ", ".join(m.name for m in SCALAR_METRICS)
    fields = "|".join(OPERATION_FIELDS)
    ops = f" for OP in {', '.join(operations)}" if operations else ""
    return f"{names}, operations[OP].{fields}{ops}"


def parse_threshold(text: str) -> Threshold:
    """The threshold ``text`` writes; UsageError (exit 2) naming it when malformed."""
    m = _EXPRESSION.match(text)
    if m is None:
        raise UsageError(
            f"--fail {text!r}: not a threshold; write METRIC OP VALUE or METRIC OP VALUE%"
            f" with OP one of {', '.join(sorted(OPERATORS, key=len))}, {_EXAMPLES};"
            f" metrics: {known_metrics_text()}"
        )
    value = float(m.group("value"))
    if not math.isfinite(value):
        raise UsageError(f"--fail {text!r}: {m.group('value')} is not a finite number")
    return Threshold(text, m.group("metric"), m.group("op"), value, m.group("pct") is not None)


def check_metric(threshold: Threshold, comparison: Comparison) -> MetricComparison:
    """The compared metric the threshold names; UsageError listing the known ones."""
    found = comparison.find(threshold.metric)
    if found is None:
        raise UsageError(
            f"--fail {threshold.expression!r}: unknown metric {threshold.metric!r}; known:"
            f" {known_metrics_text(comparison.operations)}"
        )
    return found


def _observed(threshold: Threshold, metric: MetricComparison) -> tuple[float | None, str | None]:
    if threshold.relative and metric.baseline.median is None:
        return None, "the baseline has no value"
    if metric.candidate.median is None:
        return None, "the candidate has no value"
    if threshold.relative:
        return metric.change_pct, None
    return metric.candidate.median, None


def evaluate(threshold: Threshold, metric: MetricComparison) -> ThresholdResult:
    """Check the threshold against the medians; True in ``failed`` fails the comparison."""
    observed, missing = _observed(threshold, metric)
    if observed is None:
        return ThresholdResult(threshold, None, True, missing)
    return ThresholdResult(threshold, observed, OPERATORS[threshold.op](observed, threshold.value))
