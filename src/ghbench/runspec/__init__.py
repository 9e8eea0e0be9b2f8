"""The run's spine: one ``RunSpec`` in (``spec``), built from the one table of scenarios,
topologies and cells (``cells``) and the names no part owns (``names``).

Imported by the CLI while it parses flags, so it stays light: msgspec and the few
small modules it names (no flow, no driver, no HTTP client).
"""
