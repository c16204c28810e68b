"""NIST's TA2 outputs: the docker stages' folders, the pool, the score files, and their summaries."""
