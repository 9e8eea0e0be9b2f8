"""ghbench's GitHub front: one local proxy any client reaches through ``HTTPS_PROXY``.

It terminates TLS for GitHub's hosts with a certificate from a per-run CA, answers
them from the emulator (emulate) or sends them on to GitHub (forward), and writes one
AO-schema row per exchange. See docs/record.md. The API a run uses:

    front = start_front(FrontSettings(mode="emulate", state_dir=..., upstream=emulator_url))
    env = front.client_env(os.environ, session="s-1")   # HTTPS_PROXY, SSL_CERT_FILE, ...
    front.switch_trace(trace_path)                      # counts of the phase that ended
    counts = front.stop()                               # FrontCounts; .reached
"""

from ghbench.front.process import Front, FrontError, start_front
from ghbench.front.settings import FrontCounts, FrontMode, FrontSettings

__all__ = ["Front", "FrontCounts", "FrontError", "FrontMode", "FrontSettings", "start_front"]
