"""Spreading work over processes, forked copies and Dask clusters."""
