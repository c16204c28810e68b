"""NIST's ARF stage (generate_arf.py): each claim in the assessors' readable format.

For every claim a row of SPARQL-AUGMENTED-output names (valid or not; NIST's ARF stage validates
its input again, logging to its own log), ``ARF-output/ConditionN/<query>/<claim>-outer-claim.tab``
holds, under the header ``claim_id component_type id fieldname value correctness``:
- the outer claim: claimTopic, claimSubtopic, claimDescription, claimTemplate, claimDocument,
  claimEpistemic (polarity and strength, both the epistemic status), claimSentiment; the
  unassessed ones (topic, subtopic, description, document) judged ``--``, the others ``NIL``;
- the claim time, when any of its four bounds is not unconstrained: ``date 1 range
  (T1,T2)-(T3,T4)``, then its ec_id and ec_similarity rows;
- each claim component (the first row of each claim ID, type, name and identity QNode), numbered
  per type: its name, identity QNode and type QNodes (the identity QNode counted as a type too,
  NIST's lenient setting; at most 5 types, the first in sorted order, with a warning), sorted,
  then its informativenessAssessment, overallAssessment, ec_id and ec_similarity rows.
The ``-raw-kes.tab`` and ``-readable-kes.txt`` beside it hold the claim's KEs, which come from the
GR table: NIST's validator never reads that table (aifcheck.pipeline.ta3.screen), so the first is
its header line and the second is empty, as NIST's docker writes them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from aifcheck.pipeline.shared.events import EventLog
from aifcheck.pipeline.ta3.screen import Entry, GatheredClaim

HEADER = ("claim_id", "component_type", "id", "fieldname", "value", "correctness")
RAW_KES_HEADER = (
    "ClaimID",
    "JustificationNum",
    "EdgeID",
    "EdgeLabel",
    "IsEdgeNegated",
    "EvtRelMetatype",
    "EvtRelType",
    "EvtRelClusterID",
    "IsEvtRelNegated",
    "IsEvtRelInClaimSemantics",
    "ObjMetatype",
    "ObjectType",
    "ObjClusterID",
    "IsObjNegated",
    "IsObjInClaimSemantics",
    "ObjectHandle",
    "DocID",
    "SubjectJustification",
    "PredicateJustification",
    "ArgumentJustification",
)
# outer-claim column -> (component type, field names, judgement)
OUTER_FIELDS = (
    ("claim_topic", "claimTopic", ("value",), "--"),
    ("claim_subtopic", "claimSubtopic", ("value",), "--"),
    ("claim_description", "claimDescription", ("value",), "--"),
    ("claim_template", "claimTemplate", ("value",), "NIL"),
    ("document_id", "claimDocument", ("value",), "--"),
    ("claim_epistemic_status", "claimEpistemic", ("polarity", "strength"), "NIL"),
    ("claim_sentiment_status", "claimSentiment", ("value",), "NIL"),
)
ASSESSMENTS = ("informativenessAssessment", "overallAssessment", "ec_id", "ec_similarity")
UNCONSTRAINED = "(0001-01-01,9999-12-31)-(0001-01-01,9999-12-31)"
MAX_QNODE_TYPES = 5

Row = tuple[str, ...]


@dataclass(frozen=True)
class ArfClaim:
    condition: str
    query: str
    claim_id: str
    outer: tuple[Row, ...]  # the outer claim's rows, then the claim time's
    components: tuple[Row, ...]

    def outer_text(self) -> str:
        """``<claim>-outer-claim.tab`` as NIST writes it: the outer rows' lines and the components'
        lines joined, each block without a final newline."""
        before = "\n".join("\t".join(row) for row in (HEADER, *self.outer))
        return before + "\n" + "\n".join("\t".join(row) for row in self.components)


def arf(claims: Iterable[GatheredClaim], log: EventLog) -> tuple[ArfClaim, ...]:
    return tuple(_claim(claim, log) for claim in claims if claim.outer is not None)


def _claim(claim: GatheredClaim, log: EventLog) -> ArfClaim:
    outer = claim.outer.values
    rows = [
        (outer["claim_id"], name, "1", field, outer[column], judged)
        for column, name, fields, judged in OUTER_FIELDS
        for field in fields
    ]
    if claim.time is not None:
        rows += _time(claim.time)
    return ArfClaim(claim.condition, claim.query, claim.claim_id, tuple(rows), _components(claim, log))


def _time(entry: Entry) -> list[Row]:
    bounds = [
        "-".join(entry.values[f"{bound}_{part}"].replace('"', "") for part in ("year", "month", "day"))
        for bound in ("start_after", "start_before", "end_after", "end_before")
    ]
    text = f"({bounds[0]},{bounds[1]})-({bounds[2]},{bounds[3]})"
    if text == UNCONSTRAINED:
        return []
    claim_id = entry.values["claim_id"]
    return [
        (claim_id, "date", "1", "range", text, "NIL"),
        *((claim_id, "date", "1", field, "value", "NIL") for field in ("ec_id", "ec_similarity")),
    ]


def _components(claim: GatheredClaim, log: EventLog) -> tuple[Row, ...]:
    rows: list[Row] = []
    numbers: dict[str, int] = {}
    seen = set()
    for entry in claim.components:
        values = entry.values
        key = values["claim_component_key"]
        if key in seen:
            continue
        seen.add(key)
        kind = values["claim_component_type"]
        number = numbers[kind] = numbers.get(kind, 0) + 1
        fields = {
            ("name", values["claim_component_name"]),
            ("qnode_id", values["claim_component_qnode_id"]),
            ("qnode_type", values["claim_component_qnode_id"]),
        }
        fields.update(
            ("qnode_type", piece) for kind_type in _types(claim, entry, log) for piece in kind_type.split(",")
        )
        claim_id = values["claim_id"]
        rows += [(claim_id, kind, str(number), name, value, "NIL") for name, value in sorted(fields)]
        rows += [(claim_id, kind, str(number), name, "value", "NIL") for name in ASSESSMENTS]
    return tuple(rows)


def _types(claim: GatheredClaim, entry: Entry, log: EventLog) -> list[str]:
    key = entry.values["claim_component_key"]
    types = claim.qnode_types[key]
    if len(types) <= MAX_QNODE_TYPES:
        return list(types)
    log.record(
        "UNEXPECTED_NUM_CLAIM_COMPONENT_QNODE_TYPES",
        key,
        len(types),
        MAX_QNODE_TYPES,
        where=entry.where,
        source="ClaimComponent",
    )
    return sorted(types)[:MAX_QNODE_TYPES]
