"""NIST's twelve TA1 metrics (``score_submission.py task1``), one module per metric family."""
