"""The TA2 scorer: NIST's AcrossDocumentsCoreferenceMetricV2 (MAP over pseudo-queries), or the
plan's definitions; see ``score_ta2``."""

from aifcheck.score.ta2.scorer import score_ta2
from aifcheck.score.ta2.scores import TA2Scores

__all__ = ["TA2Scores", "score_ta2"]
