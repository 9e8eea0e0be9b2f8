"""One module per ghbench subcommand; each exposes a click command named ``command``."""
