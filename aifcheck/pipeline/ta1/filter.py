"""NIST's filter stage (``filter_responses.py``): which system rows are evaluable.

NIST decides per CM row: a row is kept when its cluster is aligned to a gold cluster, or when the
row's own type is evaluable (taggable, or more similar than alpha to a taggable type). An AM row
is kept when its subject and its object each kept a CM row, a TM row when its subject did. The
plan (§4.2) keeps every mention of a cluster that passes (``whole_clusters``).
"""

from __future__ import annotations

from aifcheck.pipeline.shared.events import EventLog, Where
from aifcheck.pipeline.ta1.align import DocumentAlignment
from aifcheck.pipeline.ta1.similarity import TypeSimilarity
from aifcheck.pipeline.ta1.tables import Document


def filter_document(
    document: Document,
    alignment: DocumentAlignment | None,
    types: TypeSimilarity,
    log: EventLog,
    whole_clusters: bool = False,
) -> dict[int, bool]:
    """Which of the document's (valid) rows pass, by ``id(row)``."""
    aligned = alignment.system_to_gold if alignment is not None else {}
    passed: dict[int, bool] = {}
    kept = _filter_mentions(document, aligned, types, log, passed)
    if whole_clusters:
        for row in document.rows("CM"):
            if row.valid:
                passed[id(row)] = kept[row["cluster"]]
    _filter_arguments(document, kept, log, passed)
    for row in document.rows("TM"):
        if row.valid:
            passed[id(row)] = kept.get(row["cluster"], False)
            if not passed[id(row)]:
                log.record("CLUSTER_NOT_ANNOTATED", row["cluster"], where=Where(row.path, row.line))
    return passed


def _filter_mentions(
    document: Document,
    aligned: dict[str, tuple[str, float]],
    types: TypeSimilarity,
    log: EventLog,
    passed: dict[int, bool],
) -> dict[str, bool]:
    """The CM rows' verdicts, into ``passed``; returns whether each of their clusters kept a row."""
    kept: dict[str, bool] = {}
    for row in document.rows("CM"):
        if not row.valid:
            continue
        cluster = row["cluster"]
        kept.setdefault(cluster, False)
        if cluster in aligned or types.evaluable(row["type"]):
            passed[id(row)] = kept[cluster] = True
        else:
            passed[id(row)] = False
            log.record("MENTION_NOT_ANNOTATED", row["mention_span"], where=Where(row.path, row.line))
    return kept


def _filter_arguments(document: Document, kept: dict[str, bool], log: EventLog, passed: dict[int, bool]) -> None:
    """The AM rows' verdicts, into ``passed``: an argument passes when neither of its clusters lost
    all its CM rows (a cluster without CM rows does not stop it)."""
    for row in document.rows("AM"):
        if not row.valid:
            continue
        passed[id(row)] = True
        for cluster in (row["subject"], row["object"]):
            if not kept.get(cluster, True):
                passed[id(row)] = False
                log.record("CLUSTER_NOT_ANNOTATED", cluster, where=Where(row.path, row.line))
                break
