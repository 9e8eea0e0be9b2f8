"""ghbench: measure how much of GitHub's API rate-limit budget an automation spends, and why."""

__version__ = "0.1.0"
BENCHMARK_VERSION = __version__

__all__ = ["BENCHMARK_VERSION", "__version__"]
