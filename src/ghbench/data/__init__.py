"""Data shipped with ghbench: the example trace (``ghbench report --example``)."""
