"""Tooling for the tests, the ``bench/`` scripts and ``scripts/``, not shipped in ghbench.

``calibration``: the model's quiet-steady figures beside AO's DISCUSSION-NOTES ones;
``against_ao``: one reduction of a window for a real AO run and a model run;
``against_ao_doc``: docs/calibration.md's generated tables from those; ``traces``: traces
the tests and the bench scripts both feed to ghbench.
"""
