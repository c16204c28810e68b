"""The TA1 scorer: NIST's pipeline after its SPARQL stage (clean, validate, align and filter, the
twelve metrics, results.json), on aifcheck's query engine; see ``score_ta1``."""
from .pipeline import TA1Scores, score_ta1
from .settings import TA1Settings

__all__ = ["TA1Scores", "TA1Settings", "score_ta1"]
