"""A document's TA1 rows read into aifcheck's model, as NIST's scorer reads them: a KnowledgeGraph
of the document (its ``source`` is the document ID) with a Cluster per cluster of its CM rows, in
the order of its first row (its metatype that row's); a Mention per CM row, which
Cluster.by_span keys by printed span as NIST does (a span asserted twice keeps its place and
takes its last values); an Edge per AM row, with its one justification span, whose subjects make
the document's frames; an LDCTime per TM row.

The rows are NIST's printed cells after its validate stage, which leaves only "Negated" and
"NotNegated" and numbers in the cells read here: the model's booleans and floats hold them
exactly. A span is parsed as NIST's scorer parses it (Span.parse); its modality and boundary come
from the AUX data where they are used (aifcheck.pipeline.shared.auxdata, .iou).
"""

from __future__ import annotations

from aifcheck.extract.model import Cluster, Edge, KnowledgeGraph, LDCTime, Mention, Metatype, best_confidences
from aifcheck.pipeline.ta1.dates import NAMES, read_date
from aifcheck.pipeline.ta1.tables import Document, TableRow


def build(document: Document, keep=lambda row: row.valid) -> KnowledgeGraph:
    """The objects of a document's rows that ``keep`` accepts (CM, then AM, then TM)."""
    mentions: dict[str, list[Mention]] = {}
    metatypes: dict[str, Metatype] = {}
    for row in document.rows("CM"):
        if keep(row):
            cluster = row["cluster"]
            if cluster not in metatypes:
                metatypes[cluster] = _METATYPES[row["metatype"]]
                mentions[cluster] = []
            mentions[cluster].append(_mention(row))
    edges = tuple(_edge(row) for row in document.rows("AM") if keep(row))
    times = tuple(tm_time(row) for row in document.rows("TM") if keep(row))
    clusters = tuple(
        Cluster(
            cluster,
            metatypes[cluster],
            types=best_confidences((m.type, m.type_confidence) for m in found),
            mentions=tuple(found),
        )
        for cluster, found in mentions.items()
    )
    return KnowledgeGraph(document.id, clusters, edges, times)


def tm_time(row: TableRow) -> LDCTime:
    """A TM row's four constraints (start after, start before, end after, end before), each None
    where the row gives no year (all four None: NIST's "no date")."""
    return LDCTime(*(read_date(row, name)[0] for name in NAMES), cluster=row["cluster"])


_METATYPES = {metatype.value: metatype for metatype in Metatype}  # (a look-up: Metatype(text) is slow)


def _mention(row: TableRow) -> Mention:
    return Mention(
        row.value("mention_span"),
        row["type"],
        row["is_negated"] == "Negated",
        row.value("type_statement_confidence"),
        row.value("cluster_membership_confidence"),
        row.value("mention_type_justification_confidence"),
    )


def _edge(row: TableRow) -> Edge:
    return Edge(
        row["subject"],
        row["object"],
        row["predicate"],
        row["is_assertion_negated"] == "Negated",
        row.value("argument_assertion_confidence"),
        (row.value("predicate_justification"),),
        row.value("predicate_justification_confidence"),
        _METATYPES[row["subject_metatype"]],
    )
