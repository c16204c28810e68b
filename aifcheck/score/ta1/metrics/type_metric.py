"""TypeMetricV4 (NIST's ``type_metric_v4_scorer.py``; plan §4.4.2): the mean TypeSim over
aligned entity and event pairs (TypeSim without threshold), unaligned gold and system entity and
event clusters scoring 0. Relations are not scored."""

from __future__ import annotations

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

COLUMNS = (*ID_COLUMNS, *CLUSTER_COLUMNS, Column("type_similarity", "TypeSimilarity", "6.4f", "R", "6.4f"))
SCORED = ("Entity", "Event")


def score(inputs: Inputs) -> MetricScores:
    rows = []
    for document, language, alignment, gold in inputs.aligned_documents():
        for gold_id, (system_id, _) in alignment.gold_to_system.items():
            metatype = gold.cluster(gold_id).metatype
            if metatype in SCORED:
                value = alignment.type_similarity(system_id, gold_id)
                rows.append(ScoreRow(document, language, metatype, (("type_similarity", value),), gold_id, system_id))
        for gold_id in alignment.unaligned_gold:
            metatype = gold.cluster(gold_id).metatype
            if metatype in SCORED:
                rows.append(ScoreRow(document, language, metatype, (("type_similarity", 0.0),), gold_id, NONE))
        for system_id in alignment.unaligned_system:
            cluster = inputs.system_cluster(document, system_id)
            if cluster is not None and cluster.metatype in SCORED:
                rows.append(
                    ScoreRow(document, language, cluster.metatype, (("type_similarity", 0.0),), NONE, system_id)
                )
    return summarise(COLUMNS, rows, ("type_similarity",), by_cluster)
