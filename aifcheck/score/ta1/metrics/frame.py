"""FrameMetric, the primary TA1 metric (NIST's ``frame_metric_scorer.py``; plan §4.7).

For each aligned gold event or relation with an edge, the mean EdgeScore of the matching of its
edges with the aligned system cluster's edges, where EdgeScore = ClusterSim(subjects) x RoleSim x
ClusterSim(fillers); each unaligned system event or relation scores 0. NIST calls RoleSim with the
gold edge twice, so it is always 1 (the plan's RolesPrecision under ``plan``), and gives unaligned
gold clusters no row (the plan counts them, at 0). Tied edge matchings share the same total, so
this matching uses scipy (aifcheck.pipeline.shared.matching.assign).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linear_sum_assignment

from aifcheck.score.ta1.metrics.common import (
    CLUSTER_COLUMNS,
    ID_COLUMNS,
    NONE,
    Inputs,
    MetricScores,
    ScoreRow,
    Trf,
    aligned_similarity,
    by_cluster,
    cluster_sim,
    frame_trfs,
    roles_precision,
    summarise,
)
from aifcheck.score.table import Column

COLUMNS = (*ID_COLUMNS, *CLUSTER_COLUMNS, Column("average_edge_score", "AvgEdgeScore", "6.4f", "R", "6.4f"))
FRAMES = ("Event", "Relation")


def score(inputs: Inputs) -> MetricScores:
    rows = []
    for document, language, alignment, gold in inputs.aligned_documents():
        system = inputs.system.get(document)
        for gold_id, (system_id, _) in alignment.gold_to_system.items():
            metatype = gold.cluster(gold_id).metatype
            if metatype not in FRAMES:
                continue
            gold_edges = frame_trfs(gold, gold_id)
            if gold_edges:
                value = _average_edge_score(inputs, document, gold_edges, frame_trfs(system, system_id))
                rows.append(
                    ScoreRow(document, language, metatype, (("average_edge_score", value),), gold_id, system_id)
                )
        if inputs.plan:
            for gold_id in alignment.unaligned_gold:
                metatype = gold.cluster(gold_id).metatype
                if metatype in FRAMES and frame_trfs(gold, gold_id):
                    rows.append(ScoreRow(document, language, metatype, (("average_edge_score", 0),), gold_id, NONE))
        for system_id in alignment.unaligned_system:
            cluster = inputs.system_cluster(document, system_id)
            if cluster is not None and cluster.metatype in FRAMES:
                rows.append(
                    ScoreRow(document, language, cluster.metatype, (("average_edge_score", 0),), NONE, system_id)
                )
    return summarise(COLUMNS, rows, ("average_edge_score",), by_cluster)


def _average_edge_score(inputs: Inputs, document: str, gold_list: list[Trf], system_list: list[Trf]) -> float:
    matched = edge_matching(inputs, document, gold_list, system_list)
    total = 0
    for _, _, value in matched:  # NIST adds the aligned scores in system edge order
        total += value
    count = len(matched) + (len(gold_list) - len(matched)) + (len(system_list) - len(matched))
    return total / count if matched else 0  # nothing aligned: every gold edge counts, at 0


def edge_components(inputs: Inputs, document: str, g: Trf, s: Trf) -> tuple[float, float, float]:
    """ClusterSim(subjects), RoleSim and ClusterSim(fillers) of a gold and a system edge."""
    alignment = inputs.alignments[document]
    gold, system = inputs.gold[document], inputs.system[document]
    subject = cluster_sim(
        aligned_similarity(alignment, s.subject, g.subject), system.cluster(s.subject), gold.cluster(g.subject)
    )
    role = roles_precision(g.roles, s.roles) if inputs.plan else 1.0
    filler = cluster_sim(
        aligned_similarity(alignment, s.filler, g.filler), system.cluster(s.filler), gold.cluster(g.filler)
    )
    return subject, role, filler


def edge_matching(
    inputs: Inputs, document: str, gold_list: list[Trf], system_list: list[Trf]
) -> list[tuple[int, int, float]]:
    """(gold index, system index, EdgeScore) of the matching of the edges, in system edge order."""
    if not system_list:
        return []
    scores = np.zeros((len(gold_list), len(system_list)))
    for i, g in enumerate(gold_list):
        for j, s in enumerate(system_list):
            subject, role, filler = edge_components(inputs, document, g, s)
            scores[i, j] = subject * role * filler
    rows, columns = linear_sum_assignment(scores, maximize=True)
    return sorted(
        ((int(r), int(c), float(scores[r, c])) for r, c in zip(rows, columns, strict=True)), key=lambda m: m[1]
    )
