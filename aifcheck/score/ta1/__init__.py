"""The TA1 scorer: NIST's pipeline after its SPARQL stage (clean, validate, align and filter, the
twelve metrics, results.json), on aifcheck's query engine; see ``score_ta1``."""

from aifcheck.pipeline.ta1.settings import TA1Settings
from aifcheck.score.ta1.scorer import TA1Scores, score_ta1

__all__ = ["TA1Scores", "TA1Settings", "score_ta1"]
