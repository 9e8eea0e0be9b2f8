"""The workload model against the in-process emulator in virtual time.

A flow: it joins the model (``ghbench.workload``), the emulator and the scorecard; the
model never imports either, it gets an in-process transport built here.
"""
