"""The objects NIST's scorers work on, built from a document's (valid) rows: clusters with their
types, mentions and dates, and event/relation frames with their role fillers."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .aux import Aux, Boundary
from .dates import NAMES, Date, read_date, trim
from .tables import Document, Row

_SPAN = re.compile(r"^(.*?):(.*?):\((\S+),(\S+)\)-\((\S+),(\S+)\)$")
_KEYFRAME = re.compile(r"^(.*)_(\d+)$")


@dataclass(frozen=True)
class Mention:
    id: str  # the span text, NIST's key of a mention
    document: str
    element: str
    keyframe: str | None
    corners: tuple[float, float, float, float]  # x1, y1, x2, y2
    modality: str | None
    boundary: Boundary | None
    is_negated: str


@dataclass(frozen=True)
class Filler:
    """One argument assertion of a frame."""

    role: str
    filler: str  # the filler cluster
    is_assertion_negated: str
    justification: str
    justification_confidence: str


@dataclass
class Cluster:
    id: str
    metatype: str | None = None
    types: dict[str, None] = field(default_factory=dict)  # in order of first assertion
    type_confidences: set[tuple[float, str]] = field(default_factory=set)  # (membership x type confidence, type)
    mentions: dict[str, Mention] = field(default_factory=dict)  # a span asserted twice keeps its place, its last values
    dates: list[tuple[Date | None, ...] | None] = field(default_factory=list)  # one per TM row
    date_rows: list[tuple[str, int]] = field(default_factory=list)  # (file, line) of each TM row, for messages


@dataclass
class Frame:
    id: str
    metatype: str | None = None
    fillers: dict[str, dict[str, list[Filler]]] = field(default_factory=dict)  # role -> filler -> assertions


@dataclass
class DocumentResponses:
    id: str
    clusters: dict[str, Cluster] = field(default_factory=dict)  # in order of first appearance
    frames: dict[str, Frame] = field(default_factory=dict)

    def cluster(self, cluster_id: str) -> Cluster:
        found = self.clusters.get(cluster_id)
        if found is None:
            found = self.clusters[cluster_id] = Cluster(cluster_id)
        return found

    def frame(self, cluster_id: str) -> Frame:
        found = self.frames.get(cluster_id)
        if found is None:
            found = self.frames[cluster_id] = Frame(cluster_id)
        return found


def mention(span: str, is_negated: str, aux: Aux) -> Mention:
    document, element_text, *corners = _SPAN.match(span).groups()
    keyframe_match = _KEYFRAME.match(element_text)
    element = keyframe_match.group(1) if keyframe_match else element_text
    keyframe = element_text if keyframe_match else None
    known = aux.elements.get(element)
    modality = known.modality if known else None
    kind = "keyframe" if keyframe else modality
    boundary = aux.boundaries[kind].get(keyframe or element) if kind in aux.boundaries else None
    x1, y1, x2, y2 = (float(c) for c in corners)
    return Mention(span, document, element, keyframe, (x1, y1, x2, y2), modality, boundary, is_negated)


def build(document: Document, aux: Aux, keep=lambda row: row.valid) -> DocumentResponses:
    """The objects of a document's rows that ``keep`` accepts (CM, then AM, then TM)."""
    result = DocumentResponses(document.id)
    for row in document.rows("CM"):
        if keep(row):
            _add_cm(result.cluster(row["cluster"]), row, aux)
    for row in document.rows("AM"):
        if keep(row):
            result.cluster(row["object"])
            result.cluster(row["subject"])
            frame = result.frame(row["subject"])
            if frame.metatype is None:
                frame.metatype = row["subject_metatype"]
            filler = Filler(row["predicate"], row["object"], row["is_assertion_negated"], row["predicate_justification"], row["predicate_justification_confidence"])
            frame.fillers.setdefault(row["predicate"], {}).setdefault(row["object"], []).append(filler)
    for row in document.rows("TM"):
        if keep(row):
            result.cluster(row["cluster"]).dates.append(tm_dates(row))
            result.cluster(row["cluster"]).date_rows.append((row.path, row.line))
            result.frame(row["cluster"])
    return result


def tm_dates(row: Row) -> tuple[Date | None, ...] | None:
    """A TM row's four constraints (start after, start before, end after, end before); None when
    none is given (NIST's "no date")."""
    dates = tuple(read_date(row, name)[0] for name in NAMES)
    return None if all(d is None for d in dates) else dates


def _add_cm(cluster: Cluster, row: Row, aux: Aux) -> None:
    if cluster.metatype is None:
        cluster.metatype = row["metatype"]
    cluster.types.setdefault(row["type"], None)
    confidence = float(trim(row["cluster_membership_confidence"])) * float(trim(row["type_statement_confidence"]))
    cluster.type_confidences.add((confidence, row["type"]))
    span = row["mention_span"]
    cluster.mentions[span] = mention(span, row["is_negated"], aux)
