"""NIST's TA2 validate stage (``validate_responses.py --task task2``): which rows of the cleaned
SPARQL output it writes to ``SPARQL-VALID-output``, the corrections it makes to them, and the
events it logs (``logs/validate-responses.log``).

Every cell is stripped. A row is checked in NIST's order (its document, its two confidences, its
span), every check running even after one fails, and each distinct message is logged once. A row
is written when every check passed and its document is a core document of the AUX data. Where
NIST's stage stops with a traceback (a span coordinate that is no number; an element without a
boundary in the AUX data) the row is invalid and an ERROR of aifcheck's names why.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..score.ta1.aux import Aux, Boundary
from ..score.ta1.events import SPECS
# NIST's span boundary rules, shared with the TA1 validate stage
from ..score.ta1.validate import _clip, _inside

EVENTS = {
    **SPECS,
    # NIST's log specification lacks NOT_A_NUMBER, so NIST's stage stops where it would log it
    "NOT_A_NUMBER": ("ERROR", "'{}' is not a number"),
    # NIST's stage stops on a span of an element whose modality has no boundaries (audio, pdf), or
    # that its boundary file lacks
    "NO_BOUNDARY": ("ERROR", "No {} boundary for document element '{}' in the AUX data"),
}
_VALIDATOR = "Validator"
_NO_CLASS = "NO_CLASS_NAME"
_PROVENANCE = re.compile(r"^(\w+?):(\w+?):\((\S+),(\S+)\)-\((\S+),(\S+)\)$")
_KEYFRAME = re.compile(r"^(\w*?)_(\d+)$")
CLEAN_FOLDER = "SPARQL-CLEAN-output"  # the folder NIST's stage reads, which its log names
# A row with an empty ?docid takes the document ID NIST derives from its file's path: the name of
# the folder less its last four characters
_NO_DOCUMENT = CLEAN_FOLDER[:-4]


@dataclass(frozen=True)
class ResponseFile:
    """One file of a stage: its header's cells and its rows' cells (NIST joins each with tabs)."""

    name: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Event:
    """A line of NIST's validate log."""

    level: str  # INFO, WARNING or ERROR
    code: str
    message: str  # "<class> - <code> - <text>": NIST logs each distinct one once
    file: str | None = None  # the SPARQL-CLEAN-output file of the row it is about
    line: int | None = None


def info(text: str) -> Event:
    """An INFO line of NIST's logs (DEFAULT_INFO)."""
    return Event("INFO", "DEFAULT_INFO", f"{_NO_CLASS} - DEFAULT_INFO - {text}")


def validate_stage(files: Sequence[ResponseFile], aux: Aux) -> tuple[tuple[ResponseFile, ...], tuple[Event, ...]]:
    """The files of the clean stage as NIST's validate stage writes them, and its log. ``aux``:
    the AUX tables with the package's full list of core documents (``aux.TA2_CORE``)."""
    log = _Log()
    log.record("DEFAULT_INFO", "validation started")
    checker = _RowChecker(aux, log)
    valid = tuple(
        ResponseFile(file.name, file.header, tuple(row for line, cells in enumerate(file.rows, 2)
                                                   if (row := checker.check(cells, file.name, line)) is not None))
        for file in sorted(files, key=lambda f: f.name)
    )
    log.record("DEFAULT_INFO", f"validation finished (warnings:{log.warnings}, errors:{log.errors})")
    return valid, tuple(log.events)


class _Log:
    """NIST's logger: each distinct message once; warnings and errors counted as logged."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.warnings = self.errors = 0
        self._seen: set[str] = set()

    def record(self, code: str, *args: object, where: tuple[str, int] | None = None, source: str = _NO_CLASS) -> None:
        level, template = EVENTS[code]
        message = f"{source} - {code} - {template.format(*args)}"
        if message in self._seen:
            return
        self._seen.add(message)
        self.warnings += level == "WARNING"
        self.errors += level == "ERROR"
        self.events.append(Event(level, code, message, *(where or (None, None))))


class _RowChecker:
    def __init__(self, aux: Aux, log: _Log) -> None:
        self.aux = aux
        self.log = log
        self.where = ("", 0)  # the row being checked: its file and line

    def record(self, code: str, *args: object) -> None:
        self.log.record(code, *args, where=self.where, source=_VALIDATOR)

    def check(self, cells: tuple[str, ...], file: str, line: int) -> tuple[str, ...] | None:
        """The row NIST writes (stripped, corrected), or None when it drops it."""
        self.where = (file, line)
        document, query_link_target, link_target, cluster, span, j_cv, link_cv = (cell.strip() for cell in cells)
        document = document or _NO_DOCUMENT
        known = self.document(document)
        j_cv, link_cv = self.confidence(j_cv), self.confidence(link_cv)
        span, spanned = self.provenance(span, document)
        if not (known and spanned and self.aux.is_core(document)):
            return None
        return document, query_link_target, link_target, cluster, span, j_cv, link_cv

    def document(self, document: str) -> bool:
        if document not in self.aux.documents:
            self.record("UNKNOWN_ITEM", "document", document)
            return False
        return True

    def confidence(self, text: str) -> str:
        """An unreadable confidence, or one outside (0, 1], becomes "1.0" (a warning)."""
        try:
            value = float(text.replace('"', ""))
        except ValueError:
            self.record("INVALID_CONFIDENCE", text)
            return '"1.0"'
        if not 0 < value <= 1:
            self.record("INVALID_CONFIDENCE", value)
            return '"1.0"'
        return text

    def provenance(self, span: str, document_id: str) -> tuple[str, bool]:
        """The span as NIST writes it (corrected when partly outside its element), and whether
        it is valid."""
        match = _PROVENANCE.match(span)
        if len(span.split(":")) != 3 or not match:
            self.record("INVALID_PROVENANCE_FORMAT", span)
            return span, False
        document, element, *corners = match.groups()
        keyframe = _KEYFRAME.match(element)
        element = keyframe.group(1) if keyframe else element
        if document != document_id:
            self.record("MULTIPLE_DOCUMENTS", document, document_id)
            return span, False
        if document not in self.aux.documents:
            self.record("UNKNOWN_ITEM", "document", document)
            return span, False
        if element not in self.aux.elements:
            self.record("UNKNOWN_ITEM", "document element", element)
            return span, False
        modality = self.aux.elements[element].modality
        if modality is None:
            self.record("UNKNOWN_MODALITY", element)
            return span, False
        keyframe_id = f"{element}_{keyframe.group(2)}" if keyframe and modality == "video" else None
        if keyframe_id and keyframe_id not in self.aux.boundaries["keyframe"]:
            self.record("MISSING_ITEM_WITH_KEY", "KeyFrameID", keyframe_id)
            return span, False
        if element not in self.aux.children(document):
            self.record("PARENT_CHILD_RELATION_FAILURE", element, document)
            return span, False
        if not self.coordinates(span, corners):
            return span, False
        kind = "keyframe" if keyframe_id else modality
        boundary = self.aux.boundaries.get(kind, {}).get(keyframe_id or element)
        if boundary is None:
            self.record("NO_BOUNDARY", kind, keyframe_id or element)
            return span, False
        box = Boundary(*corners)
        if _inside(box, boundary):
            return span, True
        corrected = _clip(box, boundary)
        if corrected is None:
            self.record("SPAN_OFF_BOUNDARY_ERROR", box, boundary, element)
            return span, False
        self.record("SPAN_OFF_BOUNDARY_CORRECTED", box, corrected, boundary, element)
        return f"{document}:{keyframe_id or element}:{corrected}", True

    def coordinates(self, span: str, corners: list[str]) -> bool:
        for corner in corners:
            try:
                value = float(corner)
            except ValueError:
                self.record("NOT_A_NUMBER", corner)
                return False
            if value < 0:
                self.record("NEGATIVE_NUMBER", corner)
                return False
        for start, end in ((corners[0], corners[2]), (corners[1], corners[3])):
            if float(start) > float(end):
                self.record("START_BIGGER_THAN_END", start, end, span)
                return False
        return True
