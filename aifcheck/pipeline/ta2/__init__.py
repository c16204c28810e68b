"""NIST's TA2 docker stages (run_task2_evaluation_pipeline.py: SPARQL, clean, screen) and its TA2
pooler (generate_pool.py task2)."""
