"""``results.json``, as NIST's TA1 driver writes it from ``scores/*.txt`` and ``logs/``.

For each of its 141 entries the driver takes the ALL-Macro row of the metric's table whose
language and metatype match, as printed (4 decimals, a string); when no row matches it writes the
integer 0. ``Total`` is ``FrameMetric_S``; ``Errors`` counts the log lines holding "ERROR", ``ErrorStats``
by the name of the class that logged each; ``FatalError`` is "Yes" when a score file is missing.
"""

from __future__ import annotations

from collections.abc import Mapping

from aifcheck.score.ta1.metrics import METRICS
from aifcheck.score.ta1.metrics.common import MetricScores

LANGUAGES = ("ALL", "ENG", "RUS", "SPA")
PLURAL = {"ALL": "", "Entity": "Entities_", "Event": "Events_", "Relation": "Relations_"}


def result_key(metric: str, language: str, metatype: str, column: str) -> str:
    return f"{metric}_{'' if language == 'ALL' else language + '_'}{PLURAL[metatype]}{column}"


def results(
    run_id: str, scores: Mapping[str, MetricScores], errors: int, error_stats: Mapping[str, int], fatal: bool
) -> dict[str, object]:
    """The entries of results.json (a missing metric or row gives the integer 0; ``fatal``: a
    score file is missing, NIST's FatalError)."""
    found: dict[str, object] = {}
    for metric in METRICS:
        for language in LANGUAGES:
            if language in metric.omitted_languages:
                continue
            for metatype in metric.metatypes:
                row = scores[metric.name].summary(language, metatype) if metric.name in scores else None
                key = result_key(metric.name, language, metatype, metric.label)
                found[key] = 0 if row is None else format(row.get(metric.reported), "6.4f").strip()
    found.update(
        {
            "Errors": errors,
            "ErrorStats": dict(error_stats),
            "FatalError": "Yes" if fatal else "No",
            "RunID": run_id,
            "Total": found["FrameMetric_S"],
        }
    )
    return found


def headline_key(metric: str, language: str = "ALL") -> str:
    """The key of a metric's ALL-Macro value over all metatypes in results.json."""
    label = next(m.label for m in METRICS if m.name == metric)
    return result_key(metric, language, "ALL", label)
