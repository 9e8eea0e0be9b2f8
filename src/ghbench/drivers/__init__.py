"""The orchestrators ghbench drives, one package per family (``ao_daemon``,
``ao_typescript``, ``workload``) over what they share (``common``), behind one interface
(``base``) and one table (``registry``)."""
