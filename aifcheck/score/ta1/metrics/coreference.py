"""CoreferenceMetric (NIST's ``coreference_metric_scorer.py``; plan §4.4.1).

Per document and metatype (ALL = entities and events): precision = sum of Sim(G,S) over aligned
pairs / sum of the system clusters' self-similarity, recall the same over the gold clusters'. NIST
reads self-similarities from ``similarities/``, which lists aligned clusters only, so unaligned
clusters count in neither denominator; under ``plan`` every evaluable cluster counts. A core
document the system did not submit scores 0.
"""

from __future__ import annotations

from aifcheck.extract.model import KnowledgeGraph
from aifcheck.pipeline.ta1.align import type_similarity
from aifcheck.pipeline.ta1.similarity import TypeSimilarity
from aifcheck.score.ta1.metrics.common import (
    ID_COLUMNS,
    Inputs,
    MetricScores,
    ScoreRow,
    by_document_metatype,
    summarise,
)
from aifcheck.score.table import Column

COLUMNS = (
    *ID_COLUMNS,
    Column("precision", "Prec", "6.4f", "R", "s"),
    Column("recall", "Recall", "6.4f", "R", "s"),
    Column("f1", "F1", "6.4f", "R", "6.4f"),
)
GROUPS = {"ALL": ("Entity", "Event"), "Entity": ("Entity",), "Event": ("Event",)}


def score(inputs: Inputs) -> MetricScores:
    rows = []
    for document, language in inputs.documents():
        for key, metatypes in GROUPS.items():
            aligned, gold_total, system_total = _totals(inputs, document, metatypes)
            precision = aligned / system_total if system_total else 0
            recall = aligned / gold_total if gold_total else 0
            f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0
            rows.append(ScoreRow(document, language, key, (("precision", precision), ("recall", recall), ("f1", f1))))
    return summarise(COLUMNS, rows, ("precision", "recall", "f1"), by_document_metatype, blank=("precision", "recall"))


def _totals(inputs: Inputs, document: str, metatypes: tuple[str, ...]) -> tuple[float, float, float]:
    """The similarity of the aligned clusters of ``metatypes`` in a document, and the gold's and
    the system's totals it is divided by (NIST's: the self-similarities of the alignment; the
    plan's: _self_total)."""
    alignment = inputs.alignments.get(document)
    gold = inputs.gold.get(document)
    aligned = 0
    gold_total = system_total = 0
    if alignment is not None:
        for gold_id, (_, similarity) in alignment.gold_to_system.items():
            if gold.cluster(gold_id).metatype in metatypes:
                aligned += similarity
        if inputs.plan:
            gold_total = _self_total(gold, metatypes, inputs.types)
            system_total = _self_total(inputs.system.get(document), metatypes, inputs.types)
        else:
            for cluster_id, similarity in alignment.self_similarity["gold"].items():
                if gold.cluster(cluster_id).metatype in metatypes:
                    gold_total += similarity
            for cluster_id, similarity in alignment.self_similarity["system"].items():
                if inputs.system_cluster(document, cluster_id).metatype in metatypes:
                    system_total += similarity
    elif inputs.plan:
        gold_total = _self_total(gold, metatypes, inputs.types)
    return aligned, gold_total, system_total


def _self_total(graph: KnowledgeGraph | None, metatypes: tuple[str, ...], types: TypeSimilarity) -> float:
    """The plan's denominator: TypeSim(C,C) x |C| summed over every cluster (each mention of a
    cluster matches itself)."""
    total = 0
    for cluster in graph.clusters if graph else ():
        if cluster.metatype in metatypes and cluster.weighted_types:
            total += type_similarity(cluster, cluster, types) * len(cluster.by_span)
    return total
