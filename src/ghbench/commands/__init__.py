"""One module per ghbench subcommand; each exposes a click command named ``command``.

This is the CLI layer: click lives here and in ``ghbench.cli`` only. ``ghbench.cli``
imports a command's module only when that command is invoked, and each command
imports its flow (harness, matrix, simulation, analysis, ...) inside its function:
a flow brings numpy, httpx and the drivers, which made ``ghbench measure --help``
take 0.56 s instead of 0.09 s (docs/performance.md), and a mistyped flag is reported
before any of it loads. Those imports carry ``noqa: PLC0415`` and point here.

A command's flags come from the one flag table (``ghbench.runspec.flags``) through
``options.flag_options``; its run is the ``RunSpec`` they build.
"""
