"""Trace rows in AO's schema: the row model, the columnar frame, the reader and the writer."""
