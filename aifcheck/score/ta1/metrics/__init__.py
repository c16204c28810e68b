"""NIST's twelve TA1 metrics (``score_submission.py task1``), one module per metric family, and
the one list of them: each metric's name, its scorer, and what results.json reports of it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from aifcheck.score.ta1.metrics import argument, coreference, frame, negation, temporal, type_metric
from aifcheck.score.ta1.metrics.common import Inputs, MetricScores


@dataclass(frozen=True)
class Metric:
    name: str  # NIST's: the score files are scores/<name>-scores.{txt,tab}
    score: Callable[[Inputs], MetricScores]
    reported: str  # the column whose ALL-Macro rows results.json reports
    label: str  # its name in results.json's keys
    metatypes: tuple[str, ...]  # the metatypes results.json reports (ALL first)
    omitted_languages: tuple[str, ...] = ()  # languages NIST's driver lists no entry for
    headline: int = 0  # its place among the metrics ``aifcheck score ta1`` prints (0: not printed)
    # its rows come from aligned clusters, of the documents the run submitted: a core document the
    # run lacks has none, and is left out of the macro mean (the others score it 0)
    submitted_only: bool = False


_EVENTS = ("ALL", "Event", "Relation")
_ARGUMENTS = tuple(
    Metric(
        f"ArgumentMetricV3{variant}{1 if justified else 2}",
        partial(argument.score, variant=variant, justified=justified),
        "trf_score",
        "TRFscore",
        _EVENTS,
        omitted_languages=("SPA",) if (variant, justified) == ("C", False) else (),
        headline=6 if (variant, justified) == ("A", False) else 0,
    )
    for variant in ("A", "B", "C")
    for justified in (True, False)
)

# in the order NIST's scorer runs them (each over every document)
METRICS: tuple[Metric, ...] = (
    Metric("CoreferenceMetric", coreference.score, "f1", "F1", ("ALL", "Entity", "Event"), headline=2),
    Metric("FrameMetric", frame.score, "average_edge_score", "S", _EVENTS, headline=1, submitted_only=True),
    Metric("TemporalMetric", temporal.score, "similarity", "S", _EVENTS, headline=4, submitted_only=True),
    Metric("NegationMetricV1", negation.score_v1, "f1", "F1", _EVENTS, submitted_only=True),
    Metric("NegationMetricV2", negation.score_v2, "f1", "F1", _EVENTS, headline=5),
    Metric(
        "TypeMetricV4",
        type_metric.score,
        "type_similarity",
        "S",
        ("ALL", "Entity", "Event"),
        headline=3,
        submitted_only=True,
    ),
    *_ARGUMENTS,
)
HEADLINE = tuple(m.name for m in sorted((m for m in METRICS if m.headline), key=lambda m: m.headline))
