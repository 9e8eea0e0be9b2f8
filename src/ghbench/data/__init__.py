"""Data shipped with ghbench: the example trace (``ghbench report --example``)."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

__all__ = ["example_trace_path"]


def example_trace_path() -> Path:
    """The small example trace shipped in the package (``ghbench report --example``)."""
    return Path(str(files("ghbench.data").joinpath("example-trace.jsonl")))
