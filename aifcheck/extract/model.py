"""A knowledge graph as NIST reads it (plan §2.4.1): clusters, mentions, edges, temporal 4-tuples.

Frozen dataclasses keyed by cluster IRIs (plain strings), so that scorers can align system and
gold objects with sets and dicts. aifcheck.extract builds them from the rows of NIST's tables.
"""
from __future__ import annotations

import calendar
import datetime
import enum
import re
from dataclasses import dataclass, field

_SPAN = re.compile(r"^([^:]+):([^:]+):\((\d+),(\d+)\)-\((\d+),(\d+)\)$")


class Metatype(enum.Enum):
    """What a cluster is, decided by the class of its prototype (plan §2.4.1 item 5)."""

    ENTITY = "Entity"
    EVENT = "Event"
    RELATION = "Relation"

    @classmethod
    def from_iri(cls, iri: str) -> Metatype:
        return cls(iri.rsplit("#", 1)[-1])


@dataclass(frozen=True, order=True)
class Span:
    """A justification span: text offsets (start, end inclusive) or an image box.

    NIST prints both as ``DOC:DOCELT:(x1,y1)-(x2,y2)``: a text span has y1 = y2 = 0, so that
    ``start``/``end`` are the character offsets; an image box has ``top``/``bottom`` as well.
    """

    document: str
    element: str
    start: int
    end: int
    top: int = 0
    bottom: int = 0

    @classmethod
    def parse(cls, text: str) -> Span:
        match = _SPAN.match(text)
        if not match:
            raise ValueError(f"not a span: {text!r}")
        document, element, start, top, end, bottom = match.groups()
        return cls(document, element, int(start), int(end), int(top), int(bottom))

    def __str__(self) -> str:
        return f"{self.document}:{self.element}:({self.start},{self.top})-({self.end},{self.bottom})"

    def iou(self, other: Span) -> float:
        """Intersection over union of the covered characters (or pixels; ends are inclusive).

        0.0 when the spans lie in different documents or document elements.
        """
        if (self.document, self.element) != (other.document, other.element):
            return 0.0
        width = min(self.end, other.end) - max(self.start, other.start) + 1
        height = min(self.bottom, other.bottom) - max(self.top, other.top) + 1
        overlap = max(width, 0) * max(height, 0)
        union = self._area() + other._area() - overlap
        return overlap / union if union > 0 else 0.0

    def _area(self) -> int:
        return max(self.end - self.start + 1, 0) * max(self.bottom - self.top + 1, 0)


@dataclass(frozen=True, order=True)
class Mention:
    """One justification of a type statement on a member of a cluster (plan §2.4.1 item 8)."""

    span: Span
    type: str
    negated: bool
    type_confidence: float = 1.0
    membership_confidence: float = 1.0
    justification_confidence: float = 1.0

    @property
    def document(self) -> str:
        return self.span.document


@dataclass(frozen=True)
class Cluster:
    """An entity, event or relation KE: an aida:SameAsCluster and what NIST reads from it."""

    iri: str
    metatype: Metatype
    prototype: str
    members: tuple[str, ...] = ()
    types: tuple[tuple[str, float], ...] = ()  # (type, highest type-statement confidence)
    mentions: tuple[Mention, ...] = ()
    handle: str | None = None
    names: tuple[str, ...] = ()
    links: tuple[tuple[str, float], ...] = ()  # (KB ID, link confidence)

    @property
    def type_set(self) -> frozenset[str]:
        return frozenset(t for t, _ in self.types)

    @property
    def negated_mentions(self) -> tuple[Mention, ...]:
        return tuple(m for m in self.mentions if m.negated)

    @property
    def documents(self) -> frozenset[str]:
        return frozenset(m.document for m in self.mentions)


def short_role(role: str) -> str:
    """A DWD role's short name: its first two ``_``-separated parts ("A0_pag_agent_robber" -> "A0_pag")."""
    return "_".join(role.split("_")[:2])


@dataclass(frozen=True)
class Edge:
    """A labeled edge: an argument assertion between two cluster prototypes (plan §2.4.1 item 12)."""

    subject: str
    object: str
    role: str
    negated: bool = False
    confidence: float = 1.0
    justifications: tuple[Span, ...] = ()

    @property
    def short_role(self) -> str:
        return short_role(self.role)


@dataclass(frozen=True, order=True)
class LDCDate:
    """One bound of a temporal 4-tuple, as NIST prints it (unconstrained parts filled in)."""

    year: int
    month: int
    day: int

    @property
    def unconstrained(self) -> bool:
        return (self.year, self.month, self.day) in ((1, 1, 1), (9999, 12, 31))

    def to_date(self) -> datetime.date:
        """The calendar date, with a day past the month's end taken as its last day (plan §4.5)."""
        month = min(max(self.month, 1), 12)
        last = calendar.monthrange(self.year, month)[1]
        return datetime.date(self.year, month, min(max(self.day, 1), last))


@dataclass(frozen=True)
class LDCTime:
    """A temporal 4-tuple [T1 T2 T3 T4] (plan §4.5): on a cluster's prototype, or a claim's
    aida:claimDateTime (plan §6.2.1 field 10), where ``cluster`` is None."""

    start_after: LDCDate  # T1
    start_before: LDCDate  # T2
    end_after: LDCDate  # T3
    end_before: LDCDate  # T4
    cluster: str | None = None

    def as_tuple(self) -> tuple[LDCDate, LDCDate, LDCDate, LDCDate]:
        return (self.start_after, self.start_before, self.end_after, self.end_before)

    def bounds(self) -> tuple[LDCDate, LDCDate]:
        """Earliest and latest day of a moment (such as a claim being made) that is both the
        start and the end of the 4-tuple: after T1 and T3, before T2 and T4."""
        return max(self.start_after, self.end_after), min(self.start_before, self.end_before)


@dataclass(frozen=True)
class KnowledgeGraph:
    """The clusters, edges and temporal 4-tuples of one KB, with look-ups by cluster IRI."""

    source: str
    clusters: tuple[Cluster, ...] = ()
    edges: tuple[Edge, ...] = ()
    times: tuple[LDCTime, ...] = ()
    _by_iri: dict[str, Cluster] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_iri", {c.iri: c for c in self.clusters})

    def cluster(self, iri: str) -> Cluster:
        return self._by_iri[iri]

    def __contains__(self, iri: object) -> bool:
        return iri in self._by_iri

    def of_metatype(self, metatype: Metatype) -> tuple[Cluster, ...]:
        return tuple(c for c in self.clusters if c.metatype is metatype)

    @property
    def entities(self) -> tuple[Cluster, ...]:
        return self.of_metatype(Metatype.ENTITY)

    @property
    def events(self) -> tuple[Cluster, ...]:
        return self.of_metatype(Metatype.EVENT)

    @property
    def relations(self) -> tuple[Cluster, ...]:
        return self.of_metatype(Metatype.RELATION)

    def edges_of(self, subject: str) -> tuple[Edge, ...]:
        return tuple(e for e in self.edges if e.subject == subject)

    def edges_between(self, subject: str, obj: str) -> tuple[Edge, ...]:
        return tuple(e for e in self.edges if (e.subject, e.object) == (subject, obj))

    def roles(self, subject: str, obj: str) -> frozenset[str]:
        """The short role names of the KE edge (subject, object): the Roles of a TRF triple (plan §4.6)."""
        return frozenset(e.short_role for e in self.edges_between(subject, obj))

    def edge_pairs(self) -> frozenset[tuple[str, str]]:
        """The KE edges: unique (subject, object) pairs (plan §2.4.1)."""
        return frozenset((e.subject, e.object) for e in self.edges)

    def times_of(self, cluster: str) -> tuple[LDCTime, ...]:
        return tuple(t for t in self.times if t.cluster == cluster)


@dataclass(frozen=True)
class ClaimComponent:
    """An X variable, claimer, claimer affiliation, claim location or medium (plan §6.2.1)."""

    name: str
    identity: str  # a Qnode or NIL ID
    types: tuple[str, ...] = ()  # type Qnodes, sorted
    provenance: str | None = None
    ke: str | None = None  # aida:componentKE: the cluster standing for the component


@dataclass(frozen=True)
class Claim:
    """One claim frame as NIST's TA3 tables read it (plan §6.2.1-6.2.3).

    Epistemic and sentiment values are the local names of AIF's IRIs (``EpistemicTrueCertain``,
    ``SentimentNeutralUnknown``); cluster IRIs are plain strings; multi-valued fields are
    sorted tuples.
    """

    source: str  # the file the claim was read from (a claim-frame KB, or a CRUX .tab file)
    document: str
    claim_id: str
    topic: str
    epistemic: str
    sentiment: str
    query_id: str | None = None
    subtopic: str | None = None
    template: str | None = None
    x_variable: ClaimComponent | None = None
    semantics: tuple[str, ...] = ()
    claimer: ClaimComponent | None = None
    affiliations: tuple[ClaimComponent, ...] = ()
    date_time: LDCTime | None = None
    location: ClaimComponent | None = None
    medium: ClaimComponent | None = None
    associated_kes: tuple[str, ...] = ()
    description: str | None = None
    identical_claims: tuple[str, ...] = ()
    supporting_claims: tuple[str, ...] = ()
    refuting_claims: tuple[str, ...] = ()
    related_claims: tuple[str, ...] = ()
    importance: float | None = None
    # a CRUX .tab file has no 4-tuple: its claim date/time as it gives it (on|before|after
    # yyyy-mm-ddTHH:MM:SS, x for an unknown digit), None when unknown
    crux_date: str | None = None


# CRUX 2023's names of AIF's epistemic and sentiment values (CRUX plan §2.1)
CRUX_EPISTEMIC = {
    "EpistemicTrueCertain": "true-certain",
    "EpistemicTrueUncertain": "true-uncertain",
    "EpistemicFalseCertain": "false-certain",
    "EpistemicFalseUncertain": "false-uncertain",
    "EpistemicUnknown": "unknown",
}
CRUX_SENTIMENT = {
    "SentimentNegative": "negative",
    "SentimentPositive": "positive",
    "SentimentMixed": "mixed",
    "SentimentNeutralUnknown": "neutral-unknown",
}
