"""NIST's TA1 docker stages (run_task1_evaluation_pipeline.py) before its scorer: select the KBs,
their SPARQL tables, clean, screen (validate_responses.py), align and filter (filter_responses.py)."""
