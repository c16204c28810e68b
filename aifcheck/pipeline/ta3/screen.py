"""NIST's TA3 validation (``validate_responses.py --task task3 --queries``), which its ARF stage
runs again on its own input.

Files are read per query folder in NIST's order (OC, CC, CT, GR, TM tables, then the ranking), each
row split into at most as many cells as its header has, each cell stripped. A file whose header is
none of NIST's TA3 tables is not read (UNKNOWN_RESPONSE_FILE_TYPE, an error): the merged
``AIDA_P3_TA3_GR_0001`` table of the March 2022 queries (22 columns; NIST's validator knows the
tag's 26) is such a file, so that none of its KE rows reaches SPARQL-VALID-output. A row belongs to
the claim ``ConditionN:<query>:<claim ID>`` (a ClaimKey: the claim ID of its row, or the claim
frame's file name); the checks, in NIST's order, each logging its event:

- every table: the claim ID is the frame's file name (UNEXPECTED_CLAIM_ID);
- outer claim (OC): epistemic and sentiment values, topic (every condition), subtopic and template
  (Conditions 5 and 6) as in the condition's topics.tsv, the document is one of LDC's;
- claim components (CC): the component type;
- claim time (CT) and temporal (TM): each bound a valid date, each range and the claim's span in
  order (start after <= start before, end after <= end before, start after <= end before);
- graph (GR): the document known and the outer claim's; each negation Negated or NotNegated; the
  object's metatype Entity, Relation or Event, the subject's Relation or Event; each confidence
  (one that is no number in (0, 1], NULL too, becomes "1.0", a warning); the object's informative
  span, and each of the one or two spans of the edge's justification (NULL passes), against the AUX
  data (aifcheck.pipeline.shared.checks.SpanChecker): a lone span partly outside its element is
  moved inside it (a warning), one of a pair is an error;
- ranking: the claim exists, the relation (Condition 5), the query ID is the folder's and a query
  claim frame or topic of the user queries.

Then per claim: an invalid outer claim, no ranking line, or (Conditions 5 and 6) no xVariable
component makes the claim invalid. SPARQL-VALID-output holds each file read, with the valid rows of
valid claims. Where NIST stops (a short row, two claim times, two claims with one rank, a date
part that is not a number) this is an InputError naming the file and line.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field

from aifcheck.errors import InputError
from aifcheck.loading.ranking import RANKING_SUFFIX
from aifcheck.loading.tsv import TsvTable, fit_cells
from aifcheck.pipeline.shared.auxdata import Aux
from aifcheck.pipeline.shared.checks import RowFinding, SpanChecker, confidence, trim
from aifcheck.pipeline.shared.events import EventLog
from aifcheck.pipeline.ta3.queries import UserQueries

_DATES = ("start_after", "start_before", "end_after", "end_before")
_DATE_COLUMNS = tuple(f"{bound}_{part}" for bound in _DATES for part in ("month", "day", "year"))
_DATE_HEADER = tuple(f"?{b}_{p}" for b in ("sa", "sb", "ea", "eb") for p in ("month", "day", "year"))
# NIST's TA3 response schemas: name -> (header, column names)
SCHEMAS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "CC": (
        ("?claim_id", "?component_type", "?name", "?qnode_id", "?qnode_type", "?provenance", "?ke"),
        (
            "claim_id",
            "claim_component_type",
            "claim_component_name",
            "claim_component_qnode_id",
            "claim_component_qnode_type",
            "claim_component_provenance",
            "claim_component_ke",
        ),
    ),
    "RANKING5": (
        ("?query_claim_id", "?claim_id", "?rank", "?claim_relation"),
        ("query_claim_id", "claim_id", "rank", "claim_relation"),
    ),
    "RANKING67": (("?query_topic", "?claim_id", "?rank"), ("query_topic", "claim_id", "rank")),
    "CT": (("?claim_id", *_DATE_HEADER), ("claim_id", *_DATE_COLUMNS)),
    "OC": (
        (
            "?root_uid",
            "?claim_id",
            "?topic",
            "?subtopic",
            "?claim_template",
            "?description",
            "?epistemic_status",
            "?sentiment_status",
        ),
        (
            "document_id",
            "claim_id",
            "claim_topic",
            "claim_subtopic",
            "claim_template",
            "claim_description",
            "claim_epistemic_status",
            "claim_sentiment_status",
        ),
    ),
    "TM": (("?cluster", *_DATE_HEADER), ("subject_cluster_id", *_DATE_COLUMNS)),
    # the table NIST's queries print at the tag (the four claim-association flags added in April 2022)
    "GR": (
        (
            "?docid",
            "?edge_type",
            "?is_assertion_negated",
            "?object_cluster",
            "?is_object_associated_to_claim",
            "?is_object_in_claim_semantics",
            "?objectmo",
            "?objectmo_metatype",
            "?is_objectmo_negated",
            "?oinf_j_span",
            "?object_type",
            "?subject_cluster",
            "?is_subject_associated_to_claim",
            "?is_subject_in_claim_semantics",
            "?subjectmo",
            "?subjectmo_metatype",
            "?is_subjectmo_negated",
            "?sinf_j_span",
            "?subject_type",
            "?ej_span",
            "?objectc_handle",
            "?edge_cj_cv",
            "?oinf_j_cv",
            "?obcm_cv",
            "?sinf_j_cv",
            "?sbcm_cv",
        ),
        (
            "document_id",
            "predicate",
            "is_assertion_negated",
            "object_cluster_id",
            "is_object_associated_to_claim",
            "is_object_in_claim_semantics",
            "object_cluster_member_id",
            "object_cluster_member_metatype",
            "is_object_cluster_member_negated",
            "object_informative_justification_span_text",
            "object_type",
            "subject_cluster_id",
            "is_subject_associated_to_claim",
            "is_subject_in_claim_semantics",
            "subject_cluster_member_id",
            "subject_cluster_member_metatype",
            "is_subject_cluster_member_negated",
            "subject_informative_justification_span_text",
            "subject_type",
            "predicate_justification_spans_text",
            "object_cluster_handle",
            "predicate_justification_confidence",
            "object_informative_justification_confidence",
            "object_cluster_membership_confidence",
            "subject_informative_justification_confidence",
            "subject_cluster_membership_confidence",
        ),
    ),
}
_ORDER = {
    "AIDA_P3_TA3_OC_0001.rq.tsv": 1,
    "AIDA_P3_TA3_CC_0001.rq.tsv": 2,
    "AIDA_P3_TA3_CT_0001.rq.tsv": 3,
    "AIDA_P3_TA3_GR_0001.rq.tsv": 4,
    "AIDA_P3_TA3_TM_0001.rq.tsv": 5,
}
EPISTEMIC = (
    "EpistemicTrueCertain",
    "EpistemicTrueUncertain",
    "EpistemicFalseCertain",
    "EpistemicFalseUncertain",
    "EpistemicUnknown",
)
SENTIMENT = ("SentimentPositive", "SentimentNegative", "SentimentMixed", "SentimentNeutralUnknown")
COMPONENT_TYPES = ("claimMedium", "claimer", "claimerAffiliation", "claimLocation", "xVariable")
RELATIONS = ("supporting", "refuting", "related")
NEGATION = ("Negated", "NotNegated")
METATYPES = ("Entity", "Relation", "Event")
NULL = "NULL"  # a GR span NIST's queries leave out (the subject's; the edge's, unjustified)
_NULL_PASSES = ("subject_informative_justification_span_text", "predicate_justification_spans_text")


@dataclass
class Entry:
    """A row being validated: its cells by NIST's column names, and where it is."""

    schema: str
    values: dict[str, str]
    where: str
    frame: str | None  # the claim frame's file name (None for a ranking line)
    valid: bool = True
    claim: GatheredClaim | None = None


@dataclass(frozen=True)
class ClaimKey:
    """What names a claim in NIST's validator: the condition and query folders of its row and its
    claim ID. NIST's log prints it ``ConditionN:<query>:<claim ID>`` (``__str__``, the one printing)."""

    condition: str
    query: str
    claim_id: str

    def __str__(self) -> str:
        return f"{self.condition}:{self.query}:{self.claim_id}"


@dataclass
class GatheredClaim:
    """A claim as NIST's validator gathers it from the rows that name it."""

    key: ClaimKey
    outer: Entry | None = None  # the last OC row
    components: list[Entry] = field(default_factory=list)
    edges: list[Entry] = field(default_factory=list)  # GR rows: the claim's KEs
    times: list[Entry] = field(default_factory=list)  # TM rows: its events' and relations' times
    time: Entry | None = None
    rank: Entry | None = None
    qnode_types: dict[str, set[str]] = field(default_factory=dict)  # component key -> its qnode types
    valid: bool = True


@dataclass(frozen=True)
class Validated:
    tables: tuple[TsvTable, ...]  # the files read, with their valid rows
    claims: tuple[GatheredClaim, ...]  # every claim a row named, in NIST's order
    unknown: tuple[str, ...]  # the files not read (their header is none of NIST's TA3 tables)
    warnings: tuple[str, ...]


class _Screening:
    """One validation: NIST's ResponseSet for task3."""

    def __init__(self, queries: UserQueries, aux: Aux, log: EventLog, root: str) -> None:
        self.queries = queries
        self.documents = aux.documents
        self.spans = SpanChecker(aux)
        self.log = log
        self.root = root
        self.claims: dict[ClaimKey, GatheredClaim] = {}
        self.read: list[tuple[TsvTable, str, list[Entry]]] = []
        self.unknown: list[str] = []
        self.warnings: list[str] = []

    def event(self, code: str, *args: object, where: str | None = None, source: str = "Validator") -> None:
        self.log.record(code, *args, where=where, source=source)

    # ---- reading ------------------------------------------------------------------------------------------
    def load(self, table: TsvTable) -> None:
        parts = table.path.split("/")
        condition = parts[0]
        if table.is_ranking:  # no header line: NIST gives the condition's
            schema = "RANKING5" if condition == "Condition5" else "RANKING67"
            header = SCHEMAS[schema][0]
        else:
            header = table.columns or ("",)
            schema = next(
                (name for name, (known, _) in SCHEMAS.items() if known == header and not name.startswith("RANKING")),
                None,
            )
        path = f"{self.root}/{table.path}"
        if schema is None:
            self.log.record("UNKNOWN_RESPONSE_FILE_TYPE", path)
            self.unknown.append(table.path)
            return
        columns = SCHEMAS[schema][1]
        entries = []
        for number, row in table.rows:
            cells = fit_cells(row, len(header))
            if len(cells) < len(header):
                raise InputError(
                    path, f"{len(cells)} cells, expected {len(header)}: NIST's validator stops on it", number
                )
            entry = Entry(
                schema,
                dict(zip(columns, cells, strict=True)),
                f"{path}:{number}",
                parts[2] if len(parts) == 4 else None,
            )
            self.check(entry, condition, parts[1])
            entries.append(entry)
        self.read.append((table, schema, entries))

    # ---- the checks of one row, in NIST's order --------------------------------------------------------
    def check(self, entry: Entry, condition: str, query: str) -> None:
        values = entry.values
        kb_claim_id = entry.frame[:-4] if entry.frame else None  # the frame's file name without .ttl
        if not values.get("claim_id") and kb_claim_id is not None:
            values["claim_id"] = kb_claim_id
        key = ClaimKey(condition, query, values["claim_id"])
        self.attach(entry, key)
        if kb_claim_id is not None and values["claim_id"] != kb_claim_id:
            entry.valid = False
            self.event("UNEXPECTED_CLAIM_ID", values["claim_id"], kb_claim_id, where=entry.where)
        if key not in self.claims:
            entry.valid = False
            self.event("UNKNOWN_CLAIM_ID", key, where=entry.where)
        getattr(self, f"check_{entry.schema.lower()}")(entry, condition, query, key)
        if kb_claim_id is not None and values["claim_id"] != kb_claim_id:
            entry.valid = False  # NIST checks it again (kb_claim_id); the same message is not logged twice

    def attach(self, entry: Entry, key: ClaimKey) -> None:
        if entry.schema.startswith("RANKING"):
            entry.claim = self.claims.get(key)
            if entry.claim is not None:
                if entry.claim.rank is not None:
                    self.event("MULTIPLE_CLAIM_RANKS", key, where=entry.where, source="GatheredClaim")
                entry.claim.rank = entry
            return
        claim = entry.claim = self.claims.setdefault(key, GatheredClaim(key))
        if entry.schema == "OC":
            claim.outer = entry
        elif entry.schema == "CC":
            claim.components.append(entry)
        elif entry.schema == "GR":
            claim.edges.append(entry)
        elif entry.schema == "TM":
            claim.times.append(entry)
        elif entry.schema == "CT":
            if claim.time is not None:
                raise InputError(
                    entry.where,
                    f"claim {key} has a second claim time (line {claim.time.where.rsplit(':', 1)[1]} "
                    "is the first): NIST's validator stops on it",
                )
            claim.time = entry

    def check_condition(self, entry: Entry, condition: str) -> None:
        if condition not in self.queries.conditions:
            entry.valid = False
            self.event("UNKNOWN_CLAIM_CONDITION", condition, where=entry.where)

    def check_query(self, entry: Entry, condition: str, query: str) -> None:
        known = self.queries.conditions.get(condition)
        if known is not None and query not in known.query_ids:
            entry.valid = False
            key = "query_claim_frames" if known.query_claim_frames else "topics"
            self.event("UNKNOWN_CLAIM_QUERY_TOPIC_OR_CLAIM_FRAME_ID", key, query, where=entry.where)

    def member(self, entry: Entry, name: str, value: str, allowed: tuple[str, ...]) -> None:
        if value not in allowed:
            entry.valid = False
            self.event("UNKNOWN_VALUE", name, value, ", ".join(sorted(allowed)), where=entry.where)

    def check_oc(self, entry: Entry, condition: str, query: str, key: ClaimKey) -> None:
        values = entry.values
        self.check_condition(entry, condition)
        self.member(entry, "epistemic_status", values["claim_epistemic_status"], EPISTEMIC)
        self.check_query(entry, condition, query)
        self.member(entry, "sentiment_status", values["claim_sentiment_status"], SENTIMENT)
        topic, subtopic, template = (trim(values[c]) for c in ("claim_topic", "claim_subtopic", "claim_template"))
        rows = self.queries.conditions[condition].rows() if condition in self.queries.conditions else []
        if condition in ("Condition5", "Condition6"):
            for name, shown, value, keys in (
                ("subtopic", "subtopic", subtopic, ("subtopic", "topic")),
                ("claim_template", "claimTemplate", template, ("subtopic", "topic", "claim_template")),
            ):
                wanted = {"subtopic": subtopic, "topic": topic, "claim_template": template}
                if value == "":
                    entry.valid = False
                    self.event("MISSING_REQUIRED_CLAIM_FIELD", name, condition, key, where=entry.where)
                elif not any(all(row.get(k) == wanted[k] for k in keys) for row in rows):
                    entry.valid = False
                    self.event("UNEXPECTED_CLAIM_VALUE", shown, value, key, where=entry.where)
        if not any(row.get("topic") == topic for row in rows):
            entry.valid = False
            self.event("UNEXPECTED_CLAIM_VALUE", "topic", topic, key, where=entry.where)
        document = values["document_id"] or entry.frame[:-4]  # NIST falls back on the frame's file name
        values["document_id"] = document
        if document not in self.documents:
            entry.valid = False
            self.event("UNKNOWN_ITEM", "document", document, where=entry.where)

    def check_cc(self, entry: Entry, condition: str, query: str, key: ClaimKey) -> None:
        values = entry.values
        key = ":".join(
            values[c] for c in ("claim_id", "claim_component_type", "claim_component_name", "claim_component_qnode_id")
        )
        values["claim_component_key"] = key
        entry.claim.qnode_types.setdefault(key, set()).add(values["claim_component_qnode_type"])
        self.member(entry, "component_type", values["claim_component_type"], COMPONENT_TYPES)
        self.check_condition(entry, condition)
        self.check_query(entry, condition, query)

    def check_ct(self, entry: Entry, condition: str, query: str, key: ClaimKey) -> None:
        self.check_condition(entry, condition)
        self.check_query(entry, condition, query)
        dates = {bound: _date(entry, bound) for bound in _DATES}
        self.range(entry, key, "start_after", dates["start_after"], "end_before", dates["end_before"])
        self.range(entry, key, "end_after", dates["end_after"], "end_before", dates["end_before"])
        self.date(entry, "end_before", dates["end_before"])
        self.date(entry, "end_after", dates["end_after"])
        self.range(entry, key, "start_after", dates["start_after"], "start_before", dates["start_before"])
        self.date(entry, "start_before", dates["start_before"])
        self.date(entry, "start_after", dates["start_after"])

    check_tm = check_ct

    def check_gr(self, entry: Entry, condition: str, query: str, key: ClaimKey) -> None:
        values = entry.values
        self.check_condition(entry, condition)
        self.check_query(entry, condition, query)
        self.check_document(entry)
        for name in ("is_assertion_negated", "is_object_cluster_member_negated", "is_subject_cluster_member_negated"):
            self.member(entry, "negation_status", values[name], NEGATION)
        self.metatype(entry, values["object_cluster_member_metatype"])
        for name in ("object_cluster_membership_confidence", "object_informative_justification_confidence"):
            self.confidence(entry, name)
        self.provenance(entry, "object_informative_justification_span_text")
        self.edge_spans(entry)
        self.confidence(entry, "predicate_justification_confidence")
        self.metatype(entry, values["subject_cluster_member_metatype"], subject=True)
        for name in ("subject_cluster_membership_confidence", "subject_informative_justification_confidence"):
            self.confidence(entry, name)
        self.provenance(entry, "subject_informative_justification_span_text")

    def check_document(self, entry: Entry) -> None:
        """The row's document: known, and the outer claim's (NIST stops at the first that fails)."""
        document = entry.values["document_id"]
        outer = entry.claim.outer
        if document not in self.documents:
            entry.valid = False
            self.event("UNKNOWN_ITEM", "document", document, where=entry.where)
        elif outer is not None and document != outer.values["document_id"]:
            entry.valid = False
            self.event("UNEXPECTED_DOCUMENT", outer.values["document_id"], document, where=entry.where)

    def metatype(self, entry: Entry, value: str, subject: bool = False) -> None:
        if value not in METATYPES:
            entry.valid = False
            # NIST passes the arguments the other way round from its message
            self.event("INVALID_METATYPE", value, ",".join(METATYPES), where=entry.where)
        elif subject and value == "Entity":
            entry.valid = False
            self.event("UNEXPECTED_VALUE", "metatype", value, where=entry.where)

    def confidence(self, entry: Entry, name: str) -> None:
        """One that is no number in (0, 1] becomes "1.0" (a warning); the row stays valid."""
        _, entry.values[name], finding = confidence(entry.values[name])
        if finding is not None:
            self.event(finding.code, *finding.args, where=entry.where)

    def edge_spans(self, entry: Entry) -> None:
        """The edge's spans, ``A`` or ``A;B``: NIST corrects a lone span only."""
        name = "predicate_justification_spans_text"
        parts = entry.values[name].split(";")
        if len(parts) > 2:
            entry.valid = False
            self.event("IMPROPER_COMPOUND_JUSTIFICATION", entry.values[name], where=entry.where)
            return
        for part in parts:
            if not self.provenance(entry, name, part, correct=len(parts) == 1):
                return

    def provenance(self, entry: Entry, name: str, span: str | None = None, correct: bool = True) -> bool:
        """A span (the column's, or one of its spans) against the AUX data; one partly outside its
        element is moved inside it when ``correct`` (a warning), else an error. NULL passes in the
        subject's and the edge's columns."""
        span = entry.values[name] if span is None else span
        if span == NULL and name in _NULL_PASSES:
            return True
        checked = self.spans.check(span, entry.values["document_id"])
        finding = checked.problem or checked.corrected
        if finding is None:
            return True
        if finding.stops is not None:
            raise InputError(entry.where, f"{finding.stops}: NIST's validator stops on it")
        if finding is checked.corrected and not correct:
            box, _, bounds, element = finding.args
            finding = RowFinding("SPAN_OFF_BOUNDARY_ERROR", (box, bounds, element), "")
        self.event(finding.code, *finding.args, where=entry.where)
        if finding is checked.corrected:
            entry.values[name] = checked.span
            return True
        entry.valid = False
        return False

    def date(self, entry: Entry, name: str, date: tuple[int, int, int]) -> None:
        year, month, day = date
        if year and month and day:
            try:
                datetime.date(year, month, day)
            except ValueError:
                entry.valid = False
                self.event("INVALID_DATE", None, name, "date", where=entry.where)
        elif year < 0 or (month and not 1 <= month <= 12):
            entry.valid = False
            self.event("INVALID_DATE", None, name, "date", where=entry.where)

    def range(
        self,
        entry: Entry,
        key: ClaimKey,
        after_name: str,
        after: tuple[int, int, int],
        before_name: str,
        before: tuple[int, int, int],
    ) -> None:
        """NIST's comparison: by year; by month when both have one; by day when both have one."""
        if before[0] < after[0]:
            wrong = True
        elif before[0] > after[0] or not (before[1] and after[1]):
            wrong = False
        elif before[1] != after[1]:
            wrong = before[1] < after[1]
        else:
            wrong = bool(before[2] and after[2] and before[2] < after[2])
        if wrong:
            entry.valid = False
            self.event("INVALID_DATE_RANGE", "GatheredClaim", key, after_name, before_name, where=entry.where)

    def check_ranking5(self, entry: Entry, condition: str, query: str, key: ClaimKey) -> None:
        values = entry.values
        self.member(entry, "claim_relation", values["claim_relation"], RELATIONS)
        if values["claim_relation"] not in RELATIONS and entry.claim is not None:
            entry.claim.valid = False  # (NIST stops when the claim is unknown too)
        if values["query_claim_id"] != query:
            entry.valid = False
            self.event("UNEXPECTED_CLAIM_ID", values["query_claim_id"], query, where=entry.where)
            return
        self.check_condition(entry, condition)
        self.check_query(entry, condition, query)

    def check_ranking67(self, entry: Entry, condition: str, query: str, key: ClaimKey) -> None:
        known = self.queries.conditions.get(condition)
        if known is not None and entry.values["query_topic"] not in known.topics:
            entry.valid = False
            self.event(
                "UNKNOWN_CLAIM_QUERY_TOPIC_OR_CLAIM_FRAME_ID", "topic", entry.values["query_topic"], where=entry.where
            )

    # ---- the checks of each claim ----------------------------------------------------------------------
    def check_claims(self) -> None:
        ranks: dict[tuple[str, str], dict[str, Entry]] = {}
        for claim in self.claims.values():
            if claim.outer is None:
                claim.valid = False
                self.warnings.append(
                    f"claim {claim.key} has no outer claim row (AIDA_P3_TA3_OC_0001): it is left out "
                    "(NIST's validator stops on it)"
                )
            elif not claim.outer.valid:
                claim.valid = False
            if claim.rank is not None:
                by_rank = ranks.setdefault((claim.key.condition, claim.key.query), {})
                rank = claim.rank.values["rank"]
                if rank in by_rank:
                    raise InputError(
                        claim.rank.where,
                        f"rank {rank} is also given to {by_rank[rank].values['claim_id']} "
                        f"(line {by_rank[rank].where.rsplit(':', 1)[1]}): NIST's validator stops on it",
                    )
                by_rank[rank] = claim.rank
            else:
                claim.valid = False
                self.event("MISSING_CLAIM_RANK", claim.key, source="ResponseSet")
            if claim.key.condition != "Condition7" and not any(
                c.values["claim_component_type"] == "xVariable" for c in claim.components
            ):
                claim.valid = False
                self.event(
                    "MISSING_REQUIRED_CLAIM_FIELD", "xVariable", claim.key.condition, claim.key, source="ResponseSet"
                )

    def result(self) -> Validated:
        tables = []
        for table, schema, entries in self.read:
            columns = SCHEMAS[schema][1]
            rows = tuple(
                tuple(e.values[c] for c in columns)
                for e in entries
                if e.valid and e.claim is not None and e.claim.valid
            )
            tables.append(TsvTable.numbered(table.path, None if table.is_ranking else table.columns, rows))
        return Validated(tuple(tables), tuple(self.claims.values()), tuple(self.unknown), tuple(self.warnings))


def validate(files: Iterable[TsvTable], queries: UserQueries, aux: Aux, log: EventLog, root: str) -> Validated:
    """Validate a stage's files (``root`` names their folder in the log) as NIST does."""
    run = _Screening(queries, aux, log, root)
    for table in sorted(files, key=_order):
        run.load(table)
    run.check_claims()
    return run.result()


def _order(table: TsvTable) -> tuple:
    """NIST's reading order: condition, query folder, then the kind of table (frames in path order)."""
    parts = table.path.split("/")
    kind = 6 if table.path.endswith(RANKING_SUFFIX) else _ORDER.get(parts[-1], 7)
    return parts[0], parts[1], kind, table.path


def _date(entry: Entry, bound: str) -> tuple[int, int, int]:
    """(year, month, day) of one bound, each part of the cell without its quotes, as NIST reads it."""
    parts = []
    for part in ("year", "month", "day"):
        text = trim(entry.values[f"{bound}_{part}"])
        try:
            parts.append(int(text))
        except ValueError:
            raise InputError(
                entry.where,
                f"{bound} {part} '{text}' is not a number: NIST's validator stops on it "
                "(or fills an empty month or day, which aifcheck does not)",
            ) from None
    return parts[0], parts[1], parts[2]
