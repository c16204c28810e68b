"""``results.json``, as NIST's TA1 driver writes it from ``scores/*.txt`` and ``logs/``.

For each of its 141 entries the driver takes the ALL-Macro row of the metric's table whose
language and metatype match, as printed (4 decimals, a string); when no row matches it writes the
integer 0. ``Total`` is ``FrameMetric_S``; ``Errors`` counts the log lines holding "ERROR".
"""
from __future__ import annotations

import json
from collections.abc import Mapping

from .metrics.common import MetricScores

LANGUAGES = ("ALL", "ENG", "RUS", "SPA")
PLURAL = {"ALL": "", "Entity": "Entities_", "Event": "Events_", "Relation": "Relations_"}
# metric -> (the column results.json reports and its name there, the metatypes it reports)
REPORTED = {
    **{f"ArgumentMetricV3{v}": ("trf_score", "TRFscore", ("ALL", "Event", "Relation")) for v in ("A1", "A2", "B1", "B2", "C1", "C2")},
    "CoreferenceMetric": ("f1", "F1", ("ALL", "Entity", "Event")),
    "FrameMetric": ("average_edge_score", "S", ("ALL", "Event", "Relation")),
    "NegationMetricV1": ("f1", "F1", ("ALL", "Event", "Relation")),
    "NegationMetricV2": ("f1", "F1", ("ALL", "Event", "Relation")),
    "TemporalMetric": ("similarity", "S", ("ALL", "Event", "Relation")),
    "TypeMetricV4": ("type_similarity", "S", ("ALL", "Entity", "Event")),
}
OMITTED_LANGUAGES = {"ArgumentMetricV3C2": ("SPA",)}  # NIST's driver lists no ArgumentMetricV3C2_SPA_* entries


def result_key(metric: str, language: str, metatype: str, column: str) -> str:
    return f"{metric}_{'' if language == 'ALL' else language + '_'}{PLURAL[metatype]}{column}"


def results(run_id: str, scores: Mapping[str, MetricScores], errors: int, error_stats: Mapping[str, int]) -> dict[str, object]:
    """The entries of results.json (a missing metric or row gives the integer 0)."""
    found: dict[str, object] = {}
    for metric, (column, label, metatypes) in REPORTED.items():
        for language in LANGUAGES:
            if language in OMITTED_LANGUAGES.get(metric, ()):
                continue
            for metatype in metatypes:
                row = scores[metric].summary(language, metatype) if metric in scores else None
                found[result_key(metric, language, metatype, label)] = 0 if row is None else format(row.get(column), "6.4f").strip()
    found.update({"Errors": errors, "ErrorStats": dict(error_stats), "FatalError": "No", "RunID": run_id, "Total": found["FrameMetric_S"]})
    return found


def results_json(entries: Mapping[str, object]) -> str:
    return json.dumps({"scores": [dict(entries)]}, indent=4, sort_keys=True)
