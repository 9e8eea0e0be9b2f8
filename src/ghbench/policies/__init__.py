"""The fixes a fleet puts in front of GitHub, as policies: their settings (``spec``),
each policy once (``probe``, ``shim``, ``reserve``, ``cache``, ``gate``, ``cooldown``),
the stack that runs them in the order they act (``stack``), GitHub's hourly budgets as
the lab prices them (``ledger``) and a recorded fleet's calls run through them offline
(``offline``). Pure: times are the calls' own, the random source is passed in.
docs/policies.md has each policy with the real-world tool it stands for."""
