"""NIST's validate stage (``validate_responses.py``) for TA1 tables: which rows are valid, the
corrections it makes to rows it keeps, and the events it logs.

A document's CM rows are checked first, then AM, then TM (an argument or date is valid only if
its clusters have a valid CM row). NIST keeps checking a row after its first problem, so every
problem of a row is logged (each distinct message once). Cases where NIST's pipeline stops with a
traceback are reported as InputError (file and line), but for two of a valid KB, which get a
documented result instead: a CM row without a span (cfn:getSpan prints none for a shot, and NIST's
scorer stops on the empty cell) is invalid, as NIST's validator makes such an AM row
(INVALID_PROVENANCE_FORMAT); a span of a document element whose modality NIST's AUX data has no
boundaries for (audio; NIST's validator stops on it) is invalid (MISSING_ITEM_WITH_KEY).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from aifcheck.errors import InputError
from aifcheck.extract.model import SCORER_SPAN, LDCDate
from aifcheck.pipeline.shared.auxdata import KINDS, SUFFIXES, Aux
from aifcheck.pipeline.shared.checks import VALIDATOR as _VALIDATOR
from aifcheck.pipeline.shared.checks import SpanChecker, confidence
from aifcheck.pipeline.shared.events import EventLog, Where
from aifcheck.pipeline.ta1.dates import NAMES, read_date
from aifcheck.pipeline.ta1.tables import Document, TableRow

METATYPES = ("Entity", "Relation", "Event")
NEGATION = ("Negated", "NotNegated")


@dataclass
class _ClusterRows:
    """What validating a cluster's rows remembers of it."""

    metatype: str | None = None
    rows: list[TableRow] = field(default_factory=list)  # its CM rows
    frame_metatype: str | None = None  # the subject metatype of its first AM row


def validate_documents(documents: list[Document], aux: Aux, log: EventLog) -> None:
    """Set ``valid`` on every row and apply NIST's corrections; log what NIST logs."""
    for document in documents:
        _DocumentValidator(document.id, aux, log).run(document)


class _DocumentValidator:
    def __init__(self, document: str, aux: Aux, log: EventLog) -> None:
        self.document = document
        self.aux = aux
        self.log = log
        self.clusters: dict[str, _ClusterRows] = {}
        self.spans = SpanChecker(aux)

    def run(self, document: Document) -> None:
        for row in document.rows("CM"):
            row.valid = self.cm(row)
        for row in document.rows("AM"):
            row.valid = self.am(row)
        for row in document.rows("TM"):
            row.valid = self.tm(row)

    def cluster(self, cluster_id: str) -> _ClusterRows:
        return self.clusters.setdefault(cluster_id, _ClusterRows())

    # the checks of each table, in the order NIST's attribute table lists them
    def cm(self, row: TableRow) -> bool:
        where = Where(row.path, row.line)
        cluster = self.cluster(row["cluster"])
        if cluster.metatype is None:
            cluster.metatype = row["metatype"]
        if row["metatype"] != cluster.metatype:
            self.log.record("MULTIPLE_METATYPES", row["metatype"], cluster.metatype, row["cluster"], where=where)
        _check_span_syntax(row, "mention_span")
        for column in (
            "type_statement_confidence",
            "cluster_membership_confidence",
            "mention_type_justification_confidence",
        ):
            row.value(column)  # a confidence that is no number stops NIST's pipeline
        cluster.rows.append(row)
        checks = [
            self.confidence(row, "cluster_membership_confidence", where),
            self.document_known(where),
            self.negation(row["is_negated"], where),
            self.confidence(row, "mention_type_justification_confidence", where),
            self.provenance(row, "mention_span", where),
            self.metatype(row["metatype"], where, cluster=cluster),
            self.confidence(row, "type_statement_confidence", where),
        ]
        return all(checks)

    def am(self, row: TableRow) -> bool:
        where = Where(row.path, row.line)
        obj = self.cluster(row["object"])
        subject = self.cluster(row["subject"])
        if subject.frame_metatype is None:
            subject.frame_metatype = row["subject_metatype"]
        if subject.frame_metatype != row["subject_metatype"]:
            raise InputError(
                row.path,
                f"cluster {row['subject']} is the subject of arguments with metatypes {subject.frame_metatype} "
                f"and {row['subject_metatype']}; NIST's pipeline stops on it (METATYPE_MISMATCH)",
                row.line,
            )
        checks = [
            self.confidence(row, "argument_assertion_confidence", where),
            self.document_known(where),
            self.negation(row["is_assertion_negated"], where),
            self.negation(row["is_object_negated"], where),
            self.negation(row["is_subject_negated"], where),
            _has_valid_row(obj),
            self.metatype(row["object_metatype"], where),
            self.provenance(row, "predicate_justification", where),
            self.confidence(row, "predicate_justification_confidence", where),
            _has_valid_row(subject),
            self.metatype(row["subject_metatype"], where, subject=True),
        ]
        return all(checks)

    def tm(self, row: TableRow) -> bool:
        where = Where(row.path, row.line)
        dates: dict[str, LDCDate | None] = {}
        for name in NAMES:
            dates[name], correction = read_date(row, name)
            if correction is not None:
                self.log.record(
                    "MISSING_DATE_FIELD",
                    correction.name,
                    correction.missing,
                    correction.completed,
                    correction.name,
                    where=where,
                    source="Generator",
                )
        subject = self.cluster(row["cluster"])
        cluster_id = row["cluster"]
        checks = [
            self.date_order(dates["end_before"], dates["start_after"], "start_after", "end_before", cluster_id, where),
            self.document_known(where),
            self.date_order(dates["end_before"], dates["end_after"], "end_after", "end_before", cluster_id, where),
            self.date_valid(dates["end_before"], "end_before", where),
            self.date_valid(dates["end_after"], "end_after", where),
            self.date_order(
                dates["start_before"], dates["start_after"], "start_after", "start_before", cluster_id, where
            ),
            self.date_valid(dates["start_before"], "start_before", where),
            self.date_valid(dates["start_after"], "start_after", where),
            _has_valid_row(subject),
        ]
        return all(checks)

    # NIST's validators
    def confidence(self, row: TableRow, column: str, where: Where) -> bool:
        """An unreadable or out-of-range confidence becomes 1.0 (a warning); the row stays valid."""
        _, row[column], finding = confidence(row[column])
        if finding is not None:
            self.log.record(finding.code, *finding.args, where=where, source=_VALIDATOR)
        return True

    def document_known(self, where: Where) -> bool:
        if self.document not in self.aux.documents:
            self.log.record("UNKNOWN_ITEM", "document", self.document, where=where, source=_VALIDATOR)
            return False
        return True

    def negation(self, value: str, where: Where) -> bool:
        if value not in NEGATION:
            self.log.record(
                "UNKNOWN_VALUE", "negation_status", value, ", ".join(sorted(NEGATION)), where=where, source=_VALIDATOR
            )
            return False
        return True

    def metatype(self, value: str, where: Where, cluster: _ClusterRows | None = None, subject: bool = False) -> bool:
        if value not in METATYPES:
            # NIST passes the arguments the other way round from its message
            self.log.record("INVALID_METATYPE", value, ",".join(METATYPES), where=where, source=_VALIDATOR)
            return False
        if (subject and value == "Entity") or (cluster is not None and cluster.metatype != value):
            self.log.record("UNEXPECTED_VALUE", "metatype", value, where=where, source=_VALIDATOR)
            return False
        return True

    def date_valid(self, date: LDCDate | None, name: str, where: Where) -> bool:
        if date is None:
            return True
        bad = False
        if date.year and date.month and date.day:
            try:
                datetime.date(date.year, date.month, date.day)
            except (
                ValueError,
                OverflowError,
            ):  # (a year of hundreds of digits: NIST's code stops, here the date is invalid)
                bad = True
        elif date.year < 0 or (date.month and not 1 <= date.month <= 12):
            bad = True
        if bad:
            # NIST names the row's "cluster_id", which a TM row has not: its message says None
            self.log.record("INVALID_DATE", None, name, "date", where=where, source=_VALIDATOR)
        return not bad

    def date_order(
        self,
        before: LDCDate | None,
        after: LDCDate | None,
        after_name: str,
        before_name: str,
        cluster_id: str,
        where: Where,
    ) -> bool:
        """A BEFORE bound earlier than an AFTER bound (compared field by field as NIST does)."""
        if before is None or after is None:
            return True
        bad = before.year < after.year
        if before.year == after.year and before.month and after.month:
            bad = before.month < after.month or (
                before.month == after.month and bool(before.day and after.day) and before.day < after.day
            )
        if bad:
            self.log.record(
                "INVALID_DATE_RANGE", "Cluster", cluster_id, after_name, before_name, where=where, source=_VALIDATOR
            )
        return not bad

    def provenance(self, row: TableRow, column: str, where: Where) -> bool:
        """A span ``DOC:ELEMENT:(x1,y1)-(x2,y2)``: its document, element, coordinates and bounds.
        A span partly outside its element is clipped to it (a warning)."""
        checked = self.spans.check(row[column], self.document)
        finding = checked.problem or checked.corrected
        if finding is None:
            return True
        if finding.code == "NOT_A_NUMBER":
            raise InputError(
                row.path,
                f"coordinate {finding.args[0]!r} of span {row[column]} is not a number; NIST's pipeline stops on it",
                row.line,
            )
        if (
            finding.code == "NO_BOUNDARY" and finding.args[0] not in KINDS
        ):  # (audio) NIST's Validator has no boundaries of it
            self.log.record(
                "MISSING_ITEM_WITH_KEY", f"{finding.args[0]} boundary", finding.args[1], where=where, source=_VALIDATOR
            )
            return False
        if finding.stops is not None:
            kind, element = finding.args
            what = "no {} boundary" if finding.code == "NO_BOUNDARY" else "a {} boundary that is not numbers"
            raise InputError(
                row.path,
                f"{what.format(kind)} for document element {element} in the AUX data's "
                f"{self.aux.folder}/*{SUFFIXES[kind]}; NIST's pipeline stops on it",
                row.line,
            )
        self.log.record(finding.code, *finding.args, where=where, source=_VALIDATOR)
        row[column] = checked.span
        return checked.problem is None


def _has_valid_row(cluster: _ClusterRows) -> bool:
    # NIST drops an argument or date of a cluster without a valid CM row silently
    return any(row.valid for row in cluster.rows)


def _check_span_syntax(row: TableRow, column: str) -> None:
    if row[column] and SCORER_SPAN.parts(row[column]) is None:
        raise InputError(
            row.path,
            f"mention span {row[column]!r} is not DOC:ELEMENT:(x1,y1)-(x2,y2); NIST's pipeline stops on it",
            row.line,
        )
