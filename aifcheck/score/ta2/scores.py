"""What ``score_ta2`` returns: one row per pseudo-query (a query and one of its entity classes),
as NIST's AcrossDocumentsCoreferenceMetricV2 table has them, and the summary value."""

from __future__ import annotations

from dataclasses import dataclass, field

from aifcheck.score.explain import Explanation

NIST = "nist"
PLAN = "plan"


@dataclass(frozen=True)
class ResponseCounts:
    """The responses of the cluster a row is aligned to, by what the scorer made of them."""

    submitted: int = 0  # rows of the cluster in the query's file
    valid: int = 0
    invalid: int = 0
    not_pooled: int = 0  # invalid or not pooled
    pooled: int = 0  # valid and pooled
    assessed: int = 0  # pooled, with an assessment line
    not_assessed: int = 0
    correct: int = 0
    inexact: int = 0
    incorrect: int = 0
    right: int = 0
    wrong: int = 0
    ignored: int = 0


@dataclass(frozen=True)
class PseudoQuery:
    """A row: query ``query_id`` asking for entity class ``fqec``."""

    entity_id: str
    query_id: str
    fqec: str
    rel: int  # NIST: documents with a right line of this class; plan: the class's GT
    rel_counted: int  # NIST: Rel, or min(Rel, K) with --cutoff; plan: min(K, GT)
    ap: float
    cluster: str | None  # the aligned cluster, None when none
    counts: ResponseCounts
    explanation: Explanation | None = field(default=None, compare=False)  # when asked (aifcheck.score.ta2.explain)


@dataclass(frozen=True)
class TA2Scores:
    run_id: str
    mode: str  # NIST or PLAN
    rows: tuple[PseudoQuery, ...]  # by entity, query, then class (string order)
    summary: float | None  # NIST: the ALL-Macro AP (None where NIST divides by zero); plan: MAP
    queries: dict[str, str]  # scored query -> its entity, in the table's order
    warnings: tuple[str, ...]  # NIST's quirks that changed a number, one line each
    notes: tuple[str, ...]  # documented results where NIST's code stops, and what its validator logs
    errors: int  # response rows dropped or invalid, response files skipped (exit status 1)
    denominator: int | None = None  # plan: the sum over queries of min(C, G)
    summary_explanation: Explanation | None = None  # when asked: how the summary adds up

    @property
    def explanations(self) -> tuple[Explanation, ...]:
        """Every row explained, then the summary (empty unless asked)."""
        found = tuple(r.explanation for r in self.rows if r.explanation is not None)
        return (*found, self.summary_explanation) if self.summary_explanation is not None else found
