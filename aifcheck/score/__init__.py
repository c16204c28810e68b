"""Scorers: what NIST's evaluation computes from a run's model objects (TA1, TA3, CRUX)."""
