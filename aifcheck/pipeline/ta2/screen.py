"""NIST's TA2 validate stage (``validate_responses.py --task task2``): which rows of the cleaned
SPARQL output it writes to ``SPARQL-VALID-output``, the corrections it makes to them, and the
events it logs (``logs/validate-responses.log``).

Every cell is stripped. A row is checked in NIST's order (its document, its two confidences, its
span), every check running even after one fails, and each distinct message is logged once. A row
is written when every check passed and its document is a core document of the AUX data. Where
NIST's stage stops with a traceback (a span coordinate that is no number; an element without a
boundary in the AUX data, or with one that is not numbers) the row is invalid and an ERROR of
aifcheck's names why. The checks of a row are RowValidator's, which the scorer runs again
(aifcheck.pipeline.ta2.responses).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from aifcheck.extract.model import Confidence
from aifcheck.loading.tsv import TsvTable
from aifcheck.pipeline.shared.auxdata import Aux
from aifcheck.pipeline.shared.checks import VALIDATOR, RowFinding, SpanChecker, confidence
from aifcheck.pipeline.shared.events import Event, EventLog, Where

CLEAN_FOLDER = "SPARQL-CLEAN-output"  # the folder NIST's stage reads, which its log names
# A row with an empty ?docid takes the document ID NIST derives from its file's path: the name of
# the folder less its last four characters
NO_DOCUMENT = CLEAN_FOLDER[:-4]


def validate_stage(files: Sequence[TsvTable], aux: Aux) -> tuple[tuple[TsvTable, ...], tuple[Event, ...]]:
    """The files of the clean stage as NIST's validate stage writes them, and its log. ``aux``:
    the AUX tables with the package's full list of core documents (``aux.TA2_CORE``). Its log's
    events name the row they are about by its file's name and line."""
    log = EventLog("validate_responses.py")
    log.record("DEFAULT_INFO", "validation started")
    validator = RowValidator(aux, NO_DOCUMENT)
    valid = []
    for file in sorted(files, key=lambda f: f.path):
        rows = []
        for line, cells in file.rows:
            row = validator.check(cells)
            for finding in row.findings:
                log.record(finding.code, *finding.args, where=Where(file.path, line), source=VALIDATOR)
            if row.known and row.core and row.problem is None:
                rows.append(row.cells)
        valid.append(TsvTable.numbered(file.path, file.columns, rows))
    log.record("DEFAULT_INFO", f"validation finished (warnings:{log.count('WARNING')}, errors:{log.count('ERROR')})")
    return tuple(valid), tuple(log.events)


class CheckedRow(NamedTuple):
    """A TA2 response row as NIST's Validator leaves it (a tuple: a run has tens of thousands)."""

    cells: tuple[str, ...]  # its 7 cells stripped, with NIST's corrections (document, confidences, span)
    j_cv: Confidence  # the confidences NIST uses, with their text in ``cells``
    link_cv: Confidence
    known: bool  # its document is in the AUX data
    core: bool  # its document is a core document
    problem: RowFinding | None  # what makes its span invalid (None: nothing)
    findings: tuple[RowFinding, ...]  # what NIST logs of it, in its order


# CheckedRow's fields as one tuple, without NamedTuple's __new__ (a Python call per row)
_row = tuple.__new__


class RowValidator:
    """NIST's Validator on a TA2 response row (``?docid ?query_link_target ?link_target ?cluster
    ?mention_span ?j_cv ?link_cv``), as its validate stage runs it and its scorer runs it again:
    every cell stripped, then in NIST's order the document known, each confidence (one that is no
    number in (0, 1] becomes "1.0", a warning), the span (pipeline.validate.SpanChecker); every
    check runs even after one fails. ``no_document``: the document of a row with an empty ?docid."""

    def __init__(self, aux: Aux, no_document: str = "") -> None:
        self.aux = aux
        self.no_document = no_document
        self.spans = SpanChecker(aux)
        self._confidences: dict[str, tuple[Confidence, RowFinding | None]] = {}

    def check(self, cells: Sequence[str]) -> CheckedRow:
        document, query_link_target, link_target, cluster, span, j_cv_text, link_cv_text = [
            cell.strip() for cell in cells
        ]
        document = document or self.no_document
        known = document in self.aux.documents
        j_cv, j_finding = self._confidences.get(j_cv_text) or self._confidence(j_cv_text)
        link_cv, link_finding = self._confidences.get(link_cv_text) or self._confidence(link_cv_text)
        span, problem, corrected = self.spans.check(span, document)
        if known and j_finding is None and link_finding is None and problem is None and corrected is None:
            findings = ()
        else:
            found = (
                None
                if known
                else RowFinding("UNKNOWN_ITEM", ("document", document), f"document {document!r} is unknown"),
                j_finding,
                link_finding,
                problem,
                corrected,
            )
            findings = tuple(f for f in found if f is not None)
        return _row(
            CheckedRow,
            (
                (document, query_link_target, link_target, cluster, span, j_cv.text, link_cv.text),
                j_cv,
                link_cv,
                known,
                self.aux.is_core(document),
                problem,
                findings,
            ),
        )

    def _confidence(self, text: str) -> tuple[Confidence, RowFinding | None]:
        value, written, finding = confidence(text)
        self._confidences[text] = found = Confidence(value, written), finding  # kept: a run has few distinct ones
        return found
