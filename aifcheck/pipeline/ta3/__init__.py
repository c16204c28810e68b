"""NIST's TA3 docker stages (run_task3_evaluation_pipeline.py) and its TA3 pooler."""
