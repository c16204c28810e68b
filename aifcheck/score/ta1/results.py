"""The entries of NIST's TA1 ``results.json``, as values (aifcheck.render.ta1.scores prints them).

NIST's TA1 driver fills each of its 141 entries from the ALL-Macro row of the metric's table whose
language and metatype match; when no row matches it writes the integer 0. ``Total`` is
``FrameMetric_S``; ``Errors`` counts the log lines holding "ERROR", ``ErrorStats`` by the name of
the class that logged each; ``FatalError`` is "Yes" when a score file is missing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from aifcheck.score.ta1.metrics import METRICS
from aifcheck.score.ta1.metrics.common import MetricScores

LANGUAGES = ("ALL", "ENG", "RUS", "SPA")
PLURAL = {"ALL": "", "Entity": "Entities_", "Event": "Events_", "Relation": "Relations_"}
TOTAL = "FrameMetric_S"  # the entry NIST's driver copies to "Total"


@dataclass(frozen=True)
class TA1Results:
    """What results.json reports of a run."""

    run_id: str
    values: Mapping[str, float | None]  # by results.json's key, in NIST's order; None: no row matches
    errors: int  # log lines holding "ERROR"
    error_stats: Mapping[str, int]  # those lines by the class that logged each, sorted
    fatal: bool  # a score file is missing (NIST's FatalError)

    @property
    def total(self) -> float | None:
        return self.values[TOTAL]


def result_key(metric: str, language: str, metatype: str, column: str) -> str:
    return f"{metric}_{'' if language == 'ALL' else language + '_'}{PLURAL[metatype]}{column}"


def results(
    run_id: str, scores: Mapping[str, MetricScores], errors: int, error_stats: Mapping[str, int], fatal: bool
) -> TA1Results:
    """results.json's values (``fatal``: a score file is missing, NIST's FatalError)."""
    values: dict[str, float | None] = {}
    for metric in METRICS:
        for language in LANGUAGES:
            if language in metric.omitted_languages:
                continue
            for metatype in metric.metatypes:
                row = scores[metric.name].summary(language, metatype) if metric.name in scores else None
                key = result_key(metric.name, language, metatype, metric.label)
                values[key] = None if row is None else float(row.get(metric.reported))
    return TA1Results(run_id, values, errors, dict(sorted(error_stats.items())), fatal)


def headline_key(metric: str, language: str = "ALL") -> str:
    """The key of a metric's ALL-Macro value over all metatypes in results.json."""
    label = next(m.label for m in METRICS if m.name == metric)
    return result_key(metric, language, "ALL", label)
