"""A knowledge graph as NIST reads it (plan §2.4.1): clusters, mentions, edges, frames, temporal
4-tuples; the one domain model of aifcheck.

Frozen dataclasses keyed by cluster IRIs (plain strings), so that scorers can align system and
gold objects with sets and dicts. aifcheck.extract builds them from the rows of NIST's tables
queried from a KB; the TA1 scorer builds the same objects from the rows of NIST's printed tables
(aifcheck.score.ta1.responses), where a cluster is named by what NIST's clean stage leaves of it.
"""

from __future__ import annotations

import calendar
import datetime
import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple


class Metatype(enum.StrEnum):
    """What a cluster is, decided by the class of its prototype (plan §2.4.1 item 5). A string
    enum: equal to, and printed as, NIST's name ("Entity")."""

    ENTITY = "Entity"
    EVENT = "Event"
    RELATION = "Relation"

    @classmethod
    def from_iri(cls, iri: str) -> Metatype:
        return cls(iri.rsplit("#", 1)[-1])


class SpanKind(enum.StrEnum):
    """The AIF justification a span comes from (aida:TextJustification ... aida:VideoJustification)."""

    TEXT = "text"
    IMAGE = "image"
    KEYFRAME = "keyframe"
    SHOT = "shot"
    AUDIO = "audio"
    VIDEO = "video"


_TIMED = (SpanKind.AUDIO, SpanKind.VIDEO)

# the six parts of a printed span: document, element (or key frame ID) and the four corners, as text
SpanParts = tuple[str, str, str, str, str, str]


@dataclass(frozen=True)
class SpanGrammar:
    """One of NIST's readings of a printed span ``DOC:ELEMENT:(x1,y1)-(x2,y2)``. NIST's scripts read
    it with different regular expressions, and what each accepts decides what its stage keeps or
    stops on, so each is kept as a named grammar saying which script it follows."""

    name: str
    follows: str  # the NIST script (function) whose reading this is, and how it differs
    pattern: re.Pattern[str]  # NIST's expression: six groups, the parts of the span
    keyframe: re.Pattern[str] | None  # how it splits ELEMENT_N into element and key frame (None: not at all)
    # the same groups where it matches, without NIST's backtracking: tried first (a run has tens of
    # thousands of spans)
    plain: re.Pattern[str] | None = None

    def parts(self, text: str) -> SpanParts | None:
        """The six parts of a span this grammar reads, or None when it reads none."""
        match = (self.plain and self.plain.match(text)) or self.pattern.match(text)
        return match.groups() if match else None  # type: ignore[return-value]

    def element(self, text: str) -> tuple[str, str]:
        """(element, key frame ID or "") of the element part of a span."""
        frame = self.keyframe.match(text) if self.keyframe else None
        return (frame.group(1), text) if frame else (text, "")


SCORER_SPAN = SpanGrammar(
    "scorer",
    "utility.py spanstring_to_object (the scorers, the TA2 pooler): any text before each colon",
    re.compile(r"^(.*?):(.*?):\((\S+),(\S+)\)-\((\S+),(\S+)\)$"),
    re.compile(r"^(.*)_(\d+)$"),
)
VALIDATOR_SPAN = SpanGrammar(
    "validator",
    "validator.py parse_provenance (validate_responses.py): document and element word characters only",
    re.compile(r"^(\w+?):(\w+?):\((\S+),(\S+)\)-\((\S+),(\S+)\)$"),
    re.compile(r"^(\w*?)_(\d+)$"),
    re.compile(r"^(\w+):(\w+):\(([^,()\s]+),([^,()\s]+)\)-\(([^,()\s]+),([^,()\s]+)\)$"),
)
HANDLE_SPAN = SpanGrammar(
    "handle",
    "augment_output.py handle: the validator's expression; the element is an LTF file, never a key frame",
    VALIDATOR_SPAN.pattern,
    None,
    VALIDATOR_SPAN.plain,
)
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
ASSESSMENT_SPAN = SpanGrammar(
    "assessment",
    "LDC's TA2 assessment line, document and mention joined (aifcheck's check: NIST's scorer compares "
    "them as text): no colon or space in the document or element, every corner a number",
    re.compile(rf"^([^\s:]+):([^\s:]+):\(({_NUMBER}),({_NUMBER})\)-\(({_NUMBER}),({_NUMBER})\)$"),
    None,
    re.compile(r"^([^\s:]+):([^\s:]+):\((\d+),(\d+)\)-\((\d+),(\d+)\)$"),  # nearly every one
)


@dataclass(frozen=True, order=True)
class Span:
    """A justification's extent, as NIST's ``cfn:getSpan`` prints it: ``DOC:ELEMENT:(x1,y1)-(x2,y2)``.

    - text: character offsets ``start``..``end`` (inclusive), printed ``(start,0)-(end,0)``;
    - image: a box, ``(start,top)-(end,bottom)`` (upper left x and y, lower right x and y);
    - keyframe: a box in the key frame ``keyframe`` of the video ``element``; NIST prints the
      keyframe ID in the element's place (``DOC:VIDEO_3:(x1,y1)-(x2,y2)``);
    - audio, video: start and end times in seconds, printed ``(start,0)-(end,0)``;
    - shot: the shot ``shot`` of a video, which has no extent: getSpan prints nothing for it.

    ``text`` is the span as printed, which NIST's scorer uses as a mention's key ("(010,0)" is not
    "(10,0)" there). ``kind`` is None for a span read from NIST's printed form, which does not tell
    text, audio and video apart (the AUX data's modality of the element does). Two spans are equal
    when they cover the same extent of the same element, key frame or shot, whatever their text.
    """

    document: str
    element: str
    start: int | float = 0
    end: int | float = 0
    top: int | float = 0
    bottom: int | float = 0
    keyframe: str = ""
    shot: str = ""
    kind: SpanKind | None = field(default=None, compare=False)
    text: str = field(default="", compare=False, repr=False)

    @classmethod
    def parse(cls, text: str, kind: SpanKind | None = None, grammar: SpanGrammar = SCORER_SPAN) -> Span:
        """A span as NIST prints it, read by ``grammar`` (NIST's scorer's by default); ValueError
        if it is not one. A keyframe ID (``VIDEO_N``) in the element's place is split as the
        grammar splits it, unless ``kind`` says the span is of another kind."""
        parts = grammar.parts(text)
        if parts is None:
            raise ValueError(f"not a span: {text!r}")
        document, element, *corners = parts
        start, top, end, bottom = (_coordinate(c) for c in corners)
        keyframe = ""
        if kind in (None, SpanKind.KEYFRAME) and "_" in element:  # (a key frame ID is ELEMENT_N)
            element, keyframe = grammar.element(element)
        return cls(document, element, start, end, top, bottom, keyframe, kind=kind, text=text)

    def __str__(self) -> str:
        if self.text or self.shot:
            return self.text  # a shot prints as nothing, as getSpan prints it
        corners = (self.start, self.top, self.end, self.bottom)
        return "{}:{}:({},{})-({},{})".format(self.document, self.keyframe or self.element, *corners)

    def iou(self, other: Span) -> float:
        """Intersection over union: of the characters or pixels covered (both ends included), of
        the times (as lengths) of audio and video spans; a shot is all of itself.

        0.0 when the spans lie in different documents, document elements, key frames or shots.
        """
        if (self.document, self.element, self.keyframe, self.shot) != (
            other.document,
            other.element,
            other.keyframe,
            other.shot,
        ):
            return 0.0
        if self.shot:
            return 1.0
        if self.kind in _TIMED and other.kind in _TIMED:
            overlap = max(min(self.end, other.end) - max(self.start, other.start), 0)
            union = (self.end - self.start) + (other.end - other.start) - overlap
            return overlap / union if union > 0 else 0.0
        width = min(self.end, other.end) - max(self.start, other.start) + 1
        height = min(self.bottom, other.bottom) - max(self.top, other.top) + 1
        overlap = max(width, 0) * max(height, 0)
        union = self._area() + other._area() - overlap
        return overlap / union if union > 0 else 0.0

    def _area(self) -> int | float:
        return max(self.end - self.start + 1, 0) * max(self.bottom - self.top + 1, 0)


class Confidence(NamedTuple):
    """A confidence as a response row gives it: the value NIST's scorer uses, and the text NIST
    writes back (the row's, or ``"1.0"`` where NIST replaced a value it cannot use). A tuple of a
    number and a text, which Python's collector leaves alone, as it then does the rows holding it
    (a run has tens of thousands)."""

    value: float
    text: str


def _coordinate(text: str) -> int | float:
    """A printed coordinate as a number (an integer when it reads as one); ValueError if it is none."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"the coordinate {text!r} is not a number") from None


@dataclass(frozen=True, order=True)
class Mention:
    """One justification of a type statement on a member of a cluster (plan §2.4.1 item 8): a row
    of NIST's CM table."""

    span: Span
    type: str
    negated: bool
    type_confidence: float = 1.0
    membership_confidence: float = 1.0
    justification_confidence: float = 1.0

    @property
    def document(self) -> str:
        return self.span.document

    @property
    def key(self) -> str:
        """The span as printed: NIST's key of a mention."""
        return str(self.span)


@dataclass(frozen=True)
class Cluster:
    """An entity, event or relation KE: an aida:SameAsCluster and what NIST reads from it."""

    iri: str
    metatype: Metatype
    prototype: str = ""  # (NIST's tables do not name it)
    members: tuple[str, ...] = ()
    # (type, highest type-statement confidence), each type once: sorted (aifcheck.extract), in
    # order of first assertion (NIST's tables)
    types: tuple[tuple[str, float], ...] = ()
    mentions: tuple[Mention, ...] = ()  # one per justification of a type statement (a CM row)
    handle: str | None = None
    names: tuple[str, ...] = ()
    links: tuple[tuple[str, float], ...] = ()  # (KB ID, link confidence)
    # The mentions by their printed span, as NIST's scorer keys them: each span once, in the order
    # of its first mention, with the values of its last.
    by_span: dict[str, Mention] = field(init=False, repr=False, compare=False)
    # Each type with the highest membership x type-statement confidence of its mentions: the weights
    # NIST's TypeSim multiplies (plan §4.2), in order of first assertion.
    weighted_types: tuple[tuple[str, float], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # made at once: scorers read them for every cluster, many times
        by_span: dict[str, Mention] = {}
        weights: dict[str, float] = {}
        for mention in self.mentions:
            by_span[mention.key] = mention
            weight = mention.membership_confidence * mention.type_confidence
            known = weights.get(mention.type)
            if known is None or weight > known:
                weights[mention.type] = weight
        object.__setattr__(self, "by_span", by_span)
        object.__setattr__(self, "weighted_types", tuple(weights.items()))

    @property
    def type_set(self) -> frozenset[str]:
        return frozenset(t for t, _ in self.types)

    @property
    def negated_mentions(self) -> tuple[Mention, ...]:
        return tuple(m for m in self.mentions if m.negated)

    @property
    def documents(self) -> frozenset[str]:
        return frozenset(m.document for m in self.mentions)


def best_confidences(pairs: Iterable[tuple[str, float]]) -> tuple[tuple[str, float], ...]:
    """Each name once, with its highest confidence, in order of first appearance."""
    best: dict[str, float] = {}
    for name, confidence in pairs:
        known = best.get(name)
        if known is None or confidence > known:
            best[name] = confidence
    return tuple(best.items())


def short_role(role: str) -> str:
    """A DWD role's short name: its first two ``_``-separated parts ("A0_pag_agent_robber" -> "A0_pag")."""
    return "_".join(role.split("_")[:2])


@dataclass(frozen=True)
class Edge:
    """A labeled edge: an argument assertion between two cluster prototypes (plan §2.4.1 item 12),
    with the spans of its compound justification."""

    subject: str
    object: str
    role: str
    negated: bool = False
    confidence: float = 1.0
    justifications: tuple[Span, ...] = ()
    justification_confidence: float = 1.0  # of the compound justification (the highest, when several)
    subject_metatype: Metatype | None = None  # as NIST's argument row gives it; None: the subject cluster's

    @property
    def short_role(self) -> str:
        return short_role(self.role)


@dataclass(frozen=True)
class Frame:
    """An event or relation with its arguments (NIST's frame, plan §4.6-4.7): the edges whose
    subject is the cluster, in the order given."""

    cluster: str
    metatype: Metatype
    edges: tuple[Edge, ...] = ()

    @cached_property
    def fillers(self) -> dict[str, tuple[Edge, ...]]:
        """The edges to each filler (object cluster), as NIST's scorer gathers them: by role in the
        order of the role's first edge, then by filler in the order of its first edge with that role."""
        by_role: dict[str, dict[str, list[Edge]]] = {}
        for edge in self.edges:
            by_role.setdefault(edge.role, {}).setdefault(edge.object, []).append(edge)
        found: dict[str, list[Edge]] = {}
        for fillers in by_role.values():
            for filler, edges in fillers.items():
                found.setdefault(filler, []).extend(edges)
        return {filler: tuple(edges) for filler, edges in found.items()}


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
    aida:claimDateTime (plan §6.2.1 field 10), where ``cluster`` is None. A bound is None where a
    row of NIST's printed TM table gives it no year (aifcheck's queries fill every bound in)."""

    start_after: LDCDate | None  # T1
    start_before: LDCDate | None  # T2
    end_after: LDCDate | None  # T3
    end_before: LDCDate | None  # T4
    cluster: str | None = None

    def as_tuple(self) -> tuple[LDCDate | None, LDCDate | None, LDCDate | None, LDCDate | None]:
        return (self.start_after, self.start_before, self.end_after, self.end_before)

    def bounds(self) -> tuple[LDCDate, LDCDate]:
        """Earliest and latest day of a moment (such as a claim being made) that is both the
        start and the end of the 4-tuple: after T1 and T3, before T2 and T4."""
        return max(self.start_after, self.end_after), min(self.start_before, self.end_before)


@dataclass(frozen=True)
class KnowledgeGraph:
    """The clusters, edges and temporal 4-tuples of one KB (or of one document's TA1 tables, whose
    ``source`` is then the document), with look-ups by cluster IRI."""

    source: str
    clusters: tuple[Cluster, ...] = ()
    edges: tuple[Edge, ...] = ()
    times: tuple[LDCTime, ...] = ()
    _by_iri: dict[str, Cluster] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_iri", {c.iri: c for c in self.clusters})

    def cluster(self, iri: str) -> Cluster:
        return self._by_iri[iri]

    def get(self, iri: str) -> Cluster | None:
        return self._by_iri.get(iri)

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

    @cached_property
    def frames(self) -> dict[str, Frame]:
        """The frame of each subject of an edge, in the order of its first edge; its metatype is
        the one its first edge gives (NIST's reading of its argument rows), else its cluster's."""
        edges: dict[str, list[Edge]] = {}
        for edge in self.edges:
            edges.setdefault(edge.subject, []).append(edge)
        return {
            subject: Frame(subject, found[0].subject_metatype or self.cluster(subject).metatype, tuple(found))
            for subject, found in edges.items()
        }

    def times_of(self, cluster: str) -> tuple[LDCTime, ...]:
        return self._times.get(cluster, ())

    @cached_property
    def _times(self) -> dict[str | None, tuple[LDCTime, ...]]:
        found: dict[str | None, list[LDCTime]] = {}
        for time in self.times:
            found.setdefault(time.cluster, []).append(time)
        return {cluster: tuple(times) for cluster, times in found.items()}


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
