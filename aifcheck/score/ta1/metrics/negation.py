"""NegationMetricV1 and V2 (NIST's ``negation_metric_v{1,2}_scorer.py``; plan §4.3).

Both look at the mentions of aligned event and relation pairs that the mention alignment pairs.
V1: per aligned pair, P = (aligned system mentions whose negation equals their gold mention's) /
|S|, R = the same / |G|; NIST reports the mean of the pairs' F1 (the plan pools the counts over
the document's pairs: ``plan``). V2: per document and metatype, TP/FP/FN of negated mentions, with
a row only where some gold or system mention of that metatype is negated; its ALL-Micro pools the
counts.
"""

from __future__ import annotations

from aifcheck.score.ta1.metrics.common import (
    CLUSTER_COLUMNS,
    ID_COLUMNS,
    Inputs,
    MetricScores,
    ScoreRow,
    by_cluster,
    micro_macro,
    summarise,
)
from aifcheck.score.table import Column

FRAMES = ("Relation", "Event")
PRF = (
    Column("precision", "Prec", "6.4f", "R", "s"),
    Column("recall", "Recall", "6.4f", "R", "s"),
    Column("f1", "F1", "6.4f", "R", "6.4f"),
)
V1_COLUMNS = (*ID_COLUMNS, *CLUSTER_COLUMNS, *PRF)
V2_COLUMNS = (
    *ID_COLUMNS,
    Column("precision", "Prec", "6.4f", "R", "6.4f"),
    Column("recall", "Recall", "6.4f", "R", "6.4f"),
    Column("f1", "F1", "6.4f", "R", "6.4f"),
)
V2_GROUPS = {"ALL": ("Relation", "Event"), "Relation": ("Relation",), "Event": ("Event",)}


def aligned_pairs(inputs: Inputs, document: str):
    """(metatype, gold id, system id, [(system mention negated, gold mention negated, system mention,
    gold mention)], |S|, |G|) for each aligned event or relation pair, in NIST's order."""
    alignment = inputs.alignments.get(document)
    if alignment is None:
        return
    gold = inputs.gold[document]
    for system_id, (gold_id, _) in alignment.system_to_gold.items():
        gold_cluster = gold.cluster(gold_id)
        if gold_cluster.metatype not in FRAMES:
            continue
        system_cluster = inputs.system_cluster(document, system_id)
        paired = alignment.system_mentions.get(system_id, {})
        system_mentions, gold_mentions = system_cluster.by_span, gold_cluster.by_span
        matched = [
            (mention.negated, gold_mentions[paired[key]].negated, key, paired[key])
            for key, mention in system_mentions.items()
            if key in paired and paired[key] in gold_mentions
        ]
        yield gold_cluster.metatype, gold_id, system_id, matched, len(system_mentions), len(gold_mentions)


def _prf(same: float, system: int, gold: int) -> tuple[float, float, float]:
    precision = same / system if system else 0
    recall = same / gold if gold else 0
    return precision, recall, (2 * precision * recall / (precision + recall) if (precision + recall) else 0)


def score_v1(inputs: Inputs) -> MetricScores:
    rows = []
    for document, language in inputs.documents():
        pooled: dict[str, list[float]] = {}
        for metatype, gold_id, system_id, matched, system_size, gold_size in aligned_pairs(inputs, document):
            same = 0
            for system_negated, gold_negated, *_ in matched:
                same += 1.0 if system_negated == gold_negated else 0
            if inputs.plan:
                counts = pooled.setdefault(metatype, [0, 0, 0])
                counts[0] += same
                counts[1] += system_size
                counts[2] += gold_size
                continue
            values = dict(zip(("precision", "recall", "f1"), _prf(same, system_size, gold_size), strict=False))
            rows.append(ScoreRow(document, language, metatype, tuple(values.items()), gold_id, system_id))
        for metatype, (same, system_size, gold_size) in pooled.items():
            rows.append(
                ScoreRow(
                    document,
                    language,
                    metatype,
                    tuple(zip(("precision", "recall", "f1"), _prf(same, system_size, gold_size), strict=False)),
                )
            )
    return summarise(V1_COLUMNS, rows, ("precision", "recall", "f1"), by_cluster, blank=("precision", "recall"))


def score_v2(inputs: Inputs) -> MetricScores:
    rows = []
    for document, language in inputs.documents():
        negated = set()
        for graph in (inputs.gold.get(document), inputs.system.get(document)):
            for cluster in graph.clusters if graph else ():
                if any(m.negated for m in cluster.by_span.values()):
                    negated.update(key for key, metatypes in V2_GROUPS.items() if cluster.metatype in metatypes)
        pairs = list(aligned_pairs(inputs, document))
        for key, metatypes in V2_GROUPS.items():
            if key not in negated:
                continue
            tp = fp = fn = 0
            for metatype, _, _, matched, _, _ in pairs:
                if metatype not in metatypes:
                    continue
                for system_yes, gold_yes, *_ in matched:
                    tp += system_yes and gold_yes
                    fn += gold_yes and not system_yes
                    fp += system_yes and not gold_yes
            rows.append(
                ScoreRow(
                    document,
                    language,
                    key,
                    (
                        ("tp", tp),
                        ("fp", fp),
                        ("fn", fn),
                        *zip(("precision", "recall", "f1"), _counts_prf(tp, fp, fn), strict=False),
                    ),
                )
            )
    return summarise(V2_COLUMNS, rows, ("precision", "recall", "f1"), _by_document_metatype, aggregate=_v2_aggregate)


def _by_document_metatype(row: ScoreRow) -> tuple:
    return (row.document, row.metatype)


def _counts_prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    precision = tp / (tp + fp) if (tp + fp) else 0
    recall = tp / (tp + fn) if (tp + fn) else 0
    return precision, recall, (2 * precision * recall / (precision + recall) if (precision + recall) else 0)


def _v2_aggregate(rows: list[ScoreRow], column: str, kind: str) -> object:
    """V2's summaries: Micro pools TP/FP/FN; Macro averages F1 and leaves P and R empty."""
    if kind == "ALL-Micro":
        tp, fp, fn = (_total(rows, c) for c in ("tp", "fp", "fn"))
        return dict(zip(("precision", "recall", "f1"), _counts_prf(tp, fp, fn), strict=False))[column]
    return "" if column in ("precision", "recall") else micro_macro(rows, column, kind)


def _total(rows: list[ScoreRow], column: str) -> int:
    total = 0
    for row in rows:
        total += row.get(column)
    return total
