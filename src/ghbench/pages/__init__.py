"""What a run looks like to people and to the tools that keep its history.

- ``scorecard_page``, ``compare_page``, ``capacity_page``, ``matrix_page``: one
  self-contained HTML page per artifact (inline CSS and SVG, no script, nothing fetched
  when opened), every figure tagged with its path in the artifact's JSON;
- ``history``: the same figures as Bencher's BMF and github-action-benchmark's
  ``customSmallerIsBetter`` JSON;
- ``burn``: the burn curve's points (the PNG and the page draw the same).

Pure: artifacts in, text out. The flows and commands write the files.
"""
