"""TemporalMetric (NIST's ``temporal_metric_scorer.py``; plan §4.5).

For each gold event or relation with a TM row: S = mean over the gold constraints present of
c/(c+d) (d = |days| / 365, c = 1/12), a system constraint missing counting 0; several system
tuples are averaged; an unaligned gold cluster scores 0. NIST scores the "unknown" dates LDC writes
(0001-01-01, 9999-12-31) as dates; the plan (``plan``) treats them as absent constraints and skips
gold tuples that are absent or inconsistent (T1 > T2, T3 > T4, T1 > T4).
"""

from __future__ import annotations

import datetime

from aifcheck.errors import InputError
from aifcheck.extract.model import LDCTime
from aifcheck.score.ta1.metrics.common import (
    CLUSTER_COLUMNS,
    ID_COLUMNS,
    NONE,
    Inputs,
    MetricScores,
    ScoreRow,
    by_cluster,
    summarise,
)
from aifcheck.score.table import Column

COLUMNS = (*ID_COLUMNS, *CLUSTER_COLUMNS, Column("similarity", "Similarity", "6.4f", "R", "6.4f"))
FRAMES = ("Event", "Relation")
C = 1 / 12
SENTINELS = (datetime.date(1, 1, 1), datetime.date(9999, 12, 31))

Tuple4 = tuple[datetime.date | None, ...]


def score(inputs: Inputs) -> MetricScores:
    rows = []
    for document, language, alignment, gold in inputs.aligned_documents():
        for gold_id in [*alignment.gold_to_system, *alignment.unaligned_gold]:
            cluster = gold.cluster(gold_id)
            if cluster.metatype not in FRAMES:
                continue
            times = gold.times_of(gold_id)
            if not times:
                inputs.log.record("NO_TEMPORAL_CONSTRAINT", gold_id, document, source="TemporalMetricScorer")
                continue
            gold_tuple = _tuple(times[0], inputs.plan, document, gold_id)
            if inputs.plan and not _evaluable(gold_tuple):
                continue
            system_id = alignment.gold_to_system.get(gold_id, (NONE, 0))[0]
            similarity = 0
            if system_id != NONE:
                if len(times) > 1:
                    path, line = inputs.gold_time_rows[document][gold_id][
                        1
                    ]  # the second tuple: where the gold says too much
                    raise InputError(
                        path,
                        f"gold cluster {gold_id} of {document} has {len(times)} temporal tuples; "
                        "NIST's scorer stops on it (UNEXPECTED_NUM_DATES)",
                        line,
                    )
                tuples = [
                    _tuple(t, inputs.plan, document, system_id) for t in inputs.system[document].times_of(system_id)
                ]
                if tuples:
                    total = 0
                    for system_tuple in tuples:
                        total += _similarity(gold_tuple, system_tuple)
                    similarity = total / len(tuples)
            rows.append(
                ScoreRow(document, language, cluster.metatype, (("similarity", similarity),), gold_id, system_id)
            )
    return summarise(COLUMNS, rows, ("similarity",), by_cluster)


def _tuple(time: LDCTime, plan: bool, document: str, cluster: str) -> Tuple4:
    result = []
    for date in time.as_tuple():
        if date is None:
            result.append(None)
            continue
        try:
            value = datetime.date(date.year, date.month, date.day)
        except (TypeError, ValueError):
            raise InputError(
                document,
                f"cluster {cluster} has the date {date.year}-{date.month}-{date.day}; NIST's scorer stops on it",
            ) from None
        result.append(None if plan and value in SENTINELS else value)
    return tuple(result)


def _evaluable(gold: Tuple4) -> bool:
    """The plan's gold tuple: some constraint, and T1 <= T2, T3 <= T4, T1 <= T4 where given."""
    t1, t2, t3, t4 = gold
    if all(t is None for t in gold):
        return False
    return not any(a is not None and b is not None and a > b for a, b in ((t1, t2), (t3, t4), (t1, t4)))


def _similarity(gold: Tuple4, system: Tuple4) -> float:
    similarity = 0
    count = 0
    for k, r in zip(gold, system, strict=True):  # two 4-tuples
        if k is not None:
            if r is not None:
                similarity += C / (C + abs((k - r).days) / 365)
            count += 1
    return similarity / count if count else 0
