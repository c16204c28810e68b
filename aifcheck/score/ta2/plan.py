"""The TA2 scores as the evaluation plan (§5.2) defines them: research/ta2-scoring.md §7, P1-P14.

- Only valid rows count (P1): invalid ones neither rank clusters nor take pooling places. The top
  C clusters and their ranked lists of K items are NIST's (P2-P4: one row per document).
- An item's value for query q comes from q's own line (P5): labels in any case (correct/yes,
  inexact, incorrect/wrong/no); NIL, an empty label or no line: not judged, value 0 at its rank (P6).
- G(q): the classes of q's CORRECT and INEXACT lines (P7); NIL or an empty fqec is one class NIL
  of q alone (P8).
- GT of a class: its documents over the right lines of every query of the package, scored or not;
  of q's NIL: the documents of q's right NIL lines (P9, P14).
- AP = sum over the ranks r holding an item of the class of (such items in ranks 1..r) / r,
  divided by min(K, GT) (P10); clusters and classes matched one to one for the greatest total AP
  (P11); MAP = sum of the APs / sum over the scored queries of min(C, |G(q)|), 0 when that is 0 (P12).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from aifcheck.pipeline.ta2.queries import Query
from aifcheck.pipeline.ta2.ranking import SelectedCluster, select
from aifcheck.pipeline.ta2.responses import LoadedResponses, Response
from aifcheck.score.ta2.alignment import best_pairs
from aifcheck.score.ta2.assessments import NIL, RIGHT, Assessments, Judgement
from aifcheck.score.ta2.explain import plan_row
from aifcheck.score.ta2.scores import PseudoQuery, ResponseCounts


def score_plan(
    queries: Mapping[str, Query], files: Mapping[str, LoadedResponses], assessments: Assessments, explain: bool = False
) -> tuple[list[PseudoQuery], float, int]:
    """(rows by entity, query and class; MAP; its denominator); ``explain``: each row carries its
    explanation."""
    truth: dict[str, set[str]] = {}
    for j in assessments.lines():
        if j.plan_label in RIGHT and j.plan_class != NIL:
            truth.setdefault(j.plan_class, set()).add(j.document)
    rows: list[PseudoQuery] = []
    denominator = 0
    for query in queries.values():
        own = assessments.by_query.get(query.query_id, {})
        found = files.get(query.query_id)
        valid = tuple(r for r in found.rows if r.valid) if found is not None else ()
        query_rows = _query_rows(query, valid, own, truth, (explain, found))
        denominator += min(query.clusters, len(query_rows))
        rows += query_rows
    rows.sort(key=lambda r: (r.entity_id, r.query_id))
    total = 0.0
    for row in rows:
        total += row.ap
    return rows, total / denominator if denominator else 0.0, denominator


def _query_rows(
    query: Query,
    rows: tuple[Response, ...],
    own: Mapping[str, Judgement],
    truth: Mapping[str, set[str]],
    explain: tuple[bool, LoadedResponses | None] = (False, None),
) -> list[PseudoQuery]:
    """The query's rows, one per class; ``explain``: (whether to explain them, the query's
    response file)."""
    right = [j for j in own.values() if j.plan_label in RIGHT]
    classes = sorted({j.plan_class for j in right})
    truth = {**truth, NIL: {j.document for j in right if j.plan_class == NIL}}
    selected = select(rows, query.clusters, query.documents)
    lists = [[own.get(rows[i].span_text) for i in cluster.pooled] for cluster in selected]
    aps = [
        [_average_precision(items, g, min(query.documents, len(truth.get(g, ())))) for g in classes] for items in lists
    ]
    aligned = {k: (selected[i], aps[i][k]) for i, k in best_pairs(aps)}
    found = []
    for k, g in enumerate(classes):
        cluster, ap = aligned.get(k, (None, 0.0))
        gt = len(truth.get(g, ()))
        row = PseudoQuery(
            query.entity_id,
            query.query_id,
            g,
            gt,
            min(query.documents, gt),
            ap,
            cluster.cluster if cluster else None,
            _counts(cluster, rows, own) if cluster else ResponseCounts(),
        )
        if explain[0]:
            values = (("ap", ap), ("rel_counted", row.rel_counted))
            class_aps = {c.cluster: aps[i][k] for i, c in enumerate(selected)}
            pooled = cluster.pooled if cluster else ()
            name = cluster.cluster if cluster else None
            explanation = plan_row(query, g, values, pooled, rows, explain[1], own, truth.get(g, ()), class_aps, name)
            row = replace(row, explanation=explanation)
        found.append(row)
    return found


def _average_precision(items: list[Judgement | None], g: str, divisor: int) -> float:
    hits = 0
    total = 0.0
    for rank, j in enumerate(items, 1):
        if j is not None and j.plan_label in RIGHT and j.plan_class == g:
            hits += 1
            total += hits / rank
    return total / divisor if divisor else 0.0


def _counts(cluster: SelectedCluster, rows: tuple[Response, ...], own: Mapping[str, Judgement]) -> ResponseCounts:
    """The aligned cluster's rows as the plan reads them: every row valid, its ranked items
    judged by the query's own lines."""
    labels = [
        j.plan_label for j in (own.get(rows[i].span_text) for i in cluster.pooled) if j is not None and j.plan_label
    ]
    submitted, pooled, assessed = len(cluster.rows), len(cluster.pooled), len(labels)
    correct, inexact, incorrect = (labels.count(label) for label in ("CORRECT", "INEXACT", "INCORRECT"))
    return ResponseCounts(
        submitted,
        submitted,
        0,
        submitted - pooled,
        pooled,
        assessed,
        pooled - assessed,
        correct,
        inexact,
        incorrect,
        correct + inexact,
        incorrect,
        submitted - pooled + pooled - assessed,
    )
