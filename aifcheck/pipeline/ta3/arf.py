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
The ``-raw-kes.tab`` beside it holds the claim's KEs, from its GR rows (all those NIST's validator
read, valid or not): a row per edge (numbered from 1, EdgeID ``subject::role::object``, the two
claim-semantics flags, the document and the three spans), then a row per edge whose subject has a
TM row (the first), numbered on: EdgeID ``subject::Time::TIME``, the four dates
``T1;T2;T3;T4`` as its object handle; an unconstrained time takes a number but no row, a row
repeating an earlier one neither. ``-readable-kes.txt`` holds a frame per event or relation
(metatype, cluster and type, in the order of their first edge): its UID, the four dates of its
cluster's TM row (n/a where unconstrained; a second TM row replaces the first, a MULTIPLE_DATES
warning) and its arguments, grouped by role. A claim without GR rows has the header line alone and
an empty readable file (so with the March 2022 GR table, which the validator does not read).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

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
# -raw-kes.tab: a KE row's columns, from a GR row's (None: made here)
KE_COLUMNS = (
    "claim_id",
    None,
    None,
    "predicate",
    "is_assertion_negated",
    "subject_cluster_member_metatype",
    "subject_type",
    "subject_cluster_id",
    "is_subject_cluster_member_negated",
    "is_subject_in_claim_semantics",
    "object_cluster_member_metatype",
    "object_type",
    "object_cluster_id",
    "is_object_cluster_member_negated",
    "is_object_in_claim_semantics",
    "object_cluster_handle",
    "document_id",
    "subject_informative_justification_span_text",
    "predicate_justification_spans_text",
    "object_informative_justification_span_text",
)
UNCONSTRAINED_TIME = "0001-01-01;9999-12-31;0001-01-01;9999-12-31"
NO_DATES = ("01-01-0001", "31-12-9999", "0001-01-01", "9999-12-31")  # printed n/a
_BOUNDS = ("start_after", "start_before", "end_after", "end_before")

Row = tuple[str, ...]


_TIMES = ("T1 (start on or after)", "T2 (start on or before)", "T3 (end on or after)", "T4 (end on or before)")


@dataclass(frozen=True)
class KeFrame:
    """An event or relation of -readable-kes.txt: its arguments (role, then the object's
    metatype, type, handle and cluster), grouped by role in the order the roles come."""

    metatype: str
    cluster: str
    type: str
    dates: tuple[str, ...] | None  # T1-T4 of its cluster's TM row
    arguments: tuple[tuple[str, tuple[str, str, str, str]], ...]

    @property
    def uid(self) -> str:
        return f"{self.metatype}:{self.cluster}:{self.type}"

    def text(self) -> str:
        lines = [f"{self.metatype}:{self.cluster}", self.type, f"\tUID: {self.uid}"]
        if self.dates is not None:
            lines += [f"\tTime {name}: {date}" for name, date in zip(_TIMES, self.dates, strict=True)]
        lines += [f"\targ{n}\t{role}\t" + "\t".join(filler) for n, (role, filler) in enumerate(self.arguments, 1)]
        return "\n".join(lines)


@dataclass(frozen=True)
class ArfClaim:
    condition: str
    query: str
    claim_id: str
    outer: tuple[Row, ...]  # the outer claim's rows, then the claim time's
    components: tuple[Row, ...]
    edges: tuple[Row, ...] = ()  # -raw-kes.tab's rows of the edges
    times: tuple[Row, ...] = ()  # and of their subjects' times
    frames: tuple[KeFrame, ...] = ()  # -readable-kes.txt

    # the texts stay beside the rows: NIST's pool ID is the MD5 of the printed ARF, and the pooler
    # (aifcheck.pipeline.ta3.pool, below render/) reads a run held in memory through them
    def outer_text(self) -> str:
        """``<claim>-outer-claim.tab`` as NIST writes it: the outer rows' lines and the components'
        lines joined, each block without a final newline."""
        before = "\n".join("\t".join(row) for row in (HEADER, *self.outer))
        return before + "\n" + "\n".join("\t".join(row) for row in self.components)

    def raw_kes_text(self) -> str:
        """``<claim>-raw-kes.tab``: the header and the edges' rows, then (after a newline) the
        times' rows, as NIST joins them."""
        edges = "\n".join("\t".join(row) for row in (RAW_KES_HEADER, *self.edges))
        return edges + "\n" + "\n".join("\t".join(row) for row in self.times)

    def readable_text(self) -> str:
        """``<claim>-readable-kes.txt``: the frames, a blank line between two."""
        return "\n\n".join(frame.text() for frame in self.frames)


def arf(claims: Iterable[GatheredClaim], log: EventLog) -> tuple[ArfClaim, ...]:
    """Every claim's ARF files, their events logged in NIST's order: the outer claims' first, then
    the readable KEs' of every claim."""
    claims = [claim for claim in claims if claim.outer is not None]
    outer = [_claim(claim, log) for claim in claims]
    frames = [_frames(claim, log) for claim in claims]
    return tuple(
        replace(found, edges=_edges(claim), times=_times(claim), frames=tuple(framed))
        for claim, found, framed in zip(claims, outer, frames, strict=True)
    )


def _claim(claim: GatheredClaim, log: EventLog) -> ArfClaim:
    outer = claim.outer.values
    rows = [
        (outer["claim_id"], name, "1", field, outer[column], judged)
        for column, name, fields, judged in OUTER_FIELDS
        for field in fields
    ]
    if claim.time is not None:
        rows += _time(claim.time)
    key = claim.key
    return ArfClaim(key.condition, key.query, key.claim_id, tuple(rows), _components(claim, log))


def _dates(entry: Entry) -> list[str]:
    """A CT or TM row's four bounds, YEAR-MONTH-DAY each, as NIST writes them (quotes dropped)."""
    return [
        "-".join(entry.values[f"{bound}_{part}"] for part in ("year", "month", "day")).replace('"', "")
        for bound in _BOUNDS
    ]


def _time(entry: Entry) -> list[Row]:
    bounds = _dates(entry)
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


def _edges(claim: GatheredClaim) -> tuple[Row, ...]:
    rows = []
    for number, entry in enumerate(claim.edges, 1):
        values = entry.values
        edge = f"{values['subject_cluster_id']}::{values['predicate']}::{values['object_cluster_id']}"
        made = {1: str(number), 2: edge}
        rows.append(tuple(made[i] if column is None else values[column] for i, column in enumerate(KE_COLUMNS)))
    return tuple(rows)


def _times(claim: GatheredClaim) -> tuple[Row, ...]:
    """A row per edge whose subject has a time, numbered after the edges (see the module docstring)."""
    rows: list[Row] = []
    seen = set()
    number = len(claim.edges)
    for entry in claim.edges:
        values = entry.values
        number += 1
        subject = values["subject_cluster_id"]
        time = next((t for t in claim.times if t.values["subject_cluster_id"] == subject), None)
        handle = ";".join(_dates(time)) if time is not None else None
        if handle is None or handle == UNCONSTRAINED_TIME:
            continue  # (its number stays taken, as in NIST's code)
        row = (
            values["claim_id"],
            f"{subject}::Time::TIME",
            "Time",
            "NotNegated",
            values["subject_cluster_member_metatype"],
            values["subject_type"],
            subject,
            "NotNegated",
            values["is_subject_in_claim_semantics"],
            "Time",
            "TMP",
            "TIME",
            "NotNegated",
            values["is_object_in_claim_semantics"],
            handle,
            values["document_id"],
            "NULL",
            "NULL",
            "NULL",
        )
        if row in seen:
            number -= 1
            continue
        seen.add(row)
        rows.append((row[0], str(number), *row[1:]))
    return tuple(rows)


def _frames(claim: GatheredClaim, log: EventLog) -> list[KeFrame]:
    """The claim's events and relations (by UID), each with its arguments and its cluster's (last) dates."""
    subjects: dict[str, tuple[str, str, str]] = {}
    arguments: dict[str, dict[str, list[tuple[str, str, str, str]]]] = {}
    for entry in claim.edges:
        values = entry.values
        subject = (values["subject_cluster_member_metatype"], values["subject_cluster_id"], values["subject_type"])
        uid = ":".join(subject)
        subjects.setdefault(uid, subject)
        filler = (
            values["object_cluster_member_metatype"],
            values["object_type"],
            values["object_cluster_handle"],
            values["object_cluster_id"],
        )
        arguments.setdefault(uid, {}).setdefault(values["predicate"], []).append(filler)
    dates: dict[str, tuple[str, ...]] = {}
    for time in claim.times:
        bounds = tuple(date if date not in NO_DATES else "n/a" for date in _dates(time))
        for uid, (metatype, cluster, _) in subjects.items():
            if cluster != time.values["subject_cluster_id"]:
                continue
            if uid in dates:
                log.record("MULTIPLE_DATES", claim.key, uid, metatype, cluster, source="EventOrRelationFrame")
            dates[uid] = bounds
    return [
        KeFrame(*subject, dates.get(uid), tuple((role, f) for role, fillers in arguments[uid].items() for f in fillers))
        for uid, subject in subjects.items()
    ]
