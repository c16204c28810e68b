"""Model objects built from the typed rows of NIST's tables, the rows NIST's printed tables are
made of, so that objects and TSVs always agree.

Mentions come from AIDA_P3_TA1_CM_A0001, edges from AIDA_P3_TA1_AM_A0001 and temporal 4-tuples
from AIDA_P3_TA1_TM_A0001 (the TA1/TA2 reading of a KB: types and mentions from the members).
What those tables leave out (prototypes, members, handles, names, links) comes from aifcheck's
own queries in queries/aifcheck_*.rq. A span is the one NIST's table prints, of the kind, document
element and shot the table's hidden columns give (its element, for a key frame, is the video's); a
justification NIST's cfn:getSpan cannot print (none of its kinds, or several) gives no mention and
no span of an edge, and a shot one a span with no extent.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pyoxigraph as ox

from aifcheck.errors import InputError
from aifcheck.extract.model import (
    Cluster,
    Edge,
    KnowledgeGraph,
    LDCDate,
    LDCTime,
    Mention,
    Metatype,
    Span,
    SpanKind,
    best_confidences,
)
from aifcheck.extract.query import run_table, value
from aifcheck.loading.kb import KB, load_kb
from aifcheck.loading.lines import Term

CLUSTERS = "AIDA_P3_TA1_CM_A0001"
EDGES = "AIDA_P3_TA1_AM_A0001"
TIMES = "AIDA_P3_TA1_TM_A0001"


def load_kg(path: str | os.PathLike) -> KnowledgeGraph:
    """Load one KB file and read it as NIST does; raises InputError when it cannot be read."""
    with load_kb(path) as kb:
        return build_kg(kb)


def build_kg(kb: KB) -> KnowledgeGraph:
    """A KB read as NIST's tables read it; InputError (at the line of the node concerned) for a value
    the tables print but the model cannot hold: a span that is not one, a part of a date or a
    confidence that is not a number."""
    return KnowledgeGraph(kb.path, _clusters(kb), _edges(kb), _times(kb))


@contextmanager
def _reading(kb: KB, what: str, node: Term | None) -> Iterator[None]:
    """Turn the model's ValueError on one row into an InputError naming the row's node and line."""
    try:
        yield
    except ValueError as exc:
        raise InputError(kb.path, f"{what} {_shown(node)}: {exc}", kb.line_of(node)) from None


def _shown(node: Term | None) -> str:
    return f"<{node.value}>" if isinstance(node, ox.NamedNode) else value(node)


def _clusters(kb: KB) -> tuple[Cluster, ...]:
    basics: dict[str, dict] = {}
    members: dict[str, set[str]] = defaultdict(set)
    for row in run_table(kb, "aifcheck_clusters").records():
        iri = value(row["cluster"])
        basics.setdefault(iri, row)
        if row["member"] is not None:
            members[iri].add(value(row["member"]))
    names: dict[str, set[str]] = defaultdict(set)
    for row in run_table(kb, "aifcheck_names").records():
        names[value(row["cluster"])].add(value(row["name"]))
    links: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for row in run_table(kb, "aifcheck_links").records():
        with _reading(kb, "the link of cluster", row["cluster"]):
            links[value(row["cluster"])].append((value(row["target"]), _number(row["confidence"])))
    mentions: dict[str, list[Mention]] = defaultdict(list)
    for row in run_table(kb, CLUSTERS).distinct().records():
        with _reading(kb, "a mention of cluster", row["cluster"]):
            span = _span(row, "mention_span", "mention_kind", "sid")
            if span is None:
                continue
            mentions[value(row["cluster"])].append(
                Mention(
                    span=span,
                    type=value(row["type"]),
                    negated=value(row["is_negated"]) == "Negated",
                    type_confidence=_number(row["type_statement_confidence"]),
                    membership_confidence=_number(row["cluster_membership_confidence"]),
                    justification_confidence=_number(row["mention_type_justification_confidence"]),
                )
            )
    return tuple(
        Cluster(
            iri=iri,
            metatype=Metatype.from_iri(value(row["metatype"])),
            prototype=value(row["prototype"]),
            members=tuple(sorted(members[iri])),
            types=tuple(sorted(best_confidences((m.type, m.type_confidence) for m in mentions[iri]))),
            mentions=tuple(sorted(mentions[iri])),
            handle=value(row["handle"]) if row["handle"] is not None else None,
            names=tuple(sorted(names[iri])),
            links=tuple(sorted(links[iri])),
        )
        for iri, row in sorted(basics.items())
    )


def _edges(kb: KB) -> tuple[Edge, ...]:
    spans: dict[tuple[str, str, str, bool, float], list[Span]] = defaultdict(list)
    confidences: dict[tuple[str, str, str, bool, float], float] = {}
    for row in run_table(kb, EDGES).records():
        with _reading(kb, "an argument of", row["subject"]):
            key = (
                value(row["subject"]),
                value(row["object"]),
                value(row["predicate"]),
                value(row["is_assertion_negated"]) == "Negated",
                _number(row["argument_assertion_confidence"]),
            )
            span = _span(row, "predicate_justification", "justification_kind", "ejsid")
            spans[key].extend(() if span is None else (span,))
            confidence = _number(row["predicate_justification_confidence"])
            confidences[key] = max(confidence, confidences.get(key, confidence))
    return tuple(
        Edge(
            subject,
            obj,
            role,
            negated,
            confidence,
            tuple(sorted(set(found))),
            confidences[subject, obj, role, negated, confidence],
        )
        for (subject, obj, role, negated, confidence), found in sorted(spans.items())
    )


def _span(row: dict[str, Term | None], printed: str, kind: str, shot: str) -> Span | None:
    """The span of a row's justification (None when NIST's cfn:getSpan cannot print it and it is
    no shot); ValueError when the printed span is not one."""
    if row[kind] is None:
        return None
    found = SpanKind(value(row[kind]))
    if found is SpanKind.SHOT:
        return Span(value(row["docid"]), value(row["doceid"]), shot=value(row[shot]), kind=found)
    span = Span.parse(value(row[printed]), found)
    if span.document != value(row["docid"]):  # NIST's printed span cannot be read back: its document holds ':'
        raise ValueError(f"not a span: {value(row[printed])!r} (the document {value(row['docid'])!r} holds ':')")
    return replace(span, element=value(row["doceid"])) if found is SpanKind.KEYFRAME else span


def _times(kb: KB) -> tuple[LDCTime, ...]:
    times = []
    for row in run_table(kb, TIMES).records():
        with _reading(kb, "the time of cluster", row["cluster"]):
            times.append(ldc_time(row, cluster=value(row["cluster"])))
    return tuple(sorted(times, key=lambda t: (t.cluster, t.as_tuple())))


def ldc_time(row: dict[str, Term | None], cluster: str | None = None) -> LDCTime:
    """The 4-tuple of a TM or CT row (columns sa_year ... eb_day); ValueError if a part is not a number."""
    return LDCTime(
        *(LDCDate(*(_whole(row[f"{b}_{part}"]) for part in ("year", "month", "day"))) for b in _BOUNDS),
        cluster=cluster,
    )


_BOUNDS = ("sa", "sb", "ea", "eb")  # the column prefixes of T1, T2, T3, T4


def _number(term: Term | None) -> float:
    """A confidence (1.0 when absent); ValueError in plain words when it is not a number."""
    try:
        return float(term.value) if term is not None else 1.0
    except ValueError:
        raise ValueError(f"the confidence {_shown(term)} is not a number") from None


def _whole(term: Term | None) -> int:
    """A part of an LDC date; ValueError in plain words when it is not a whole number."""
    try:
        return int(value(term))
    except ValueError:
        raise ValueError(f"the date part {_shown(term)} is not a whole number") from None
