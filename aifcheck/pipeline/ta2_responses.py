"""A TA2 run's responses as NIST's scorer and pooler load them: the ``<query_id>.rq.tsv`` files of
its SPARQL-VALID-output folder, each row validated again as NIST's validator does
(research/ta2-scoring.md §2.3).

A file is read when its header is exactly NIST's seven columns (otherwise NIST skips it, an
error). In each row, in this order: the document must be known (parent_children); each confidence
that is not a number in (0, 1] becomes ``"1.0"`` (a warning, the row stays valid); the mention span
must read ``DOC:ELT:(x1,y1)-(x2,y2)`` with DOC the row's document, ELT (or the key frame ``ELT_N``
of a video element) a known child of DOC and coordinates numbers >= 0, start <= end. A span partly
outside its element is moved inside it (the row's span changes), one wholly outside makes the row
invalid. A row whose document is unknown or not a core document is dropped; every other row is
kept, valid or not, in file order.

Where NIST's code stops (a row with fewer than 7 fields) aifcheck stops too, naming the line
(InputError); where it stops on a row it means to reject (a coordinate that is not a number, an
element of a modality or with an extent the AUX data lacks), the row is invalid here.
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from ..errors import InputError, UsageError
from .ta2_aux import Extent, Ta2Aux
from .ta2_queries import Ta2Query
from .tab_lines import read_lines

HEADER = ("?docid", "?query_link_target", "?link_target", "?cluster", "?mention_span", "?j_cv", "?link_cv")
SUFFIX = ".rq.tsv"
VALID_FOLDER = "SPARQL-VALID-output"
_SPAN = re.compile(r"^(\w+?):(\w+?):\((\S+),(\S+)\)-\((\S+),(\S+)\)$")  # NIST's
# the same groups, where it matches, without NIST's backtracking (a run has tens of thousands of spans)
_PLAIN_SPAN = re.compile(r"^(\w+):(\w+):\(([^,()\s]+),([^,()\s]+)\)-\(([^,()\s]+),([^,()\s]+)\)$")
_KEYFRAME = re.compile(r"^(\w*?)_(\d+)$")
ONE = '"1.0"'  # NIST's replacement of a confidence it cannot use, as it writes it back


class Response(NamedTuple):
    """A kept row of a response file (a tuple: a run has tens of thousands of them)."""

    line: int
    document: str  # ?docid
    query_link_target: str
    link_target: str
    cluster: str
    span: str  # ?mention_span, as corrected
    j_cv_text: str  # ?j_cv as NIST writes it back
    link_cv_text: str
    j_cv: float
    link_cv: float
    valid: bool

    def text(self) -> str:
        """The row as NIST writes it back (stripped cells, corrections applied), with its newline."""
        return "\t".join(self[1:8]) + "\n"


@dataclass(frozen=True)
class Event:
    """Something NIST's validator logs about a row: ``kind`` is one of KINDS."""

    kind: str
    line: int
    detail: str


# what NIST logs, by the word aifcheck's notes use: "invalid" and "dropped" are its errors
KINDS = ("invalid", "dropped", "corrected", "confidence", "unreadable")


@dataclass(frozen=True)
class ResponseFile:
    path: str
    query_id: str
    header: str | None  # the header line as NIST writes it back; None when the file was skipped
    rows: tuple[Response, ...] = ()
    skipped: str | None = None  # why NIST skips the file
    events: tuple[Event, ...] = field(default_factory=tuple)

    @property
    def errors(self) -> int:
        """What NIST logs as errors: rows dropped as unknown documents, invalid rows, a skipped file."""
        return sum(e.kind in ("invalid", "dropped") for e in self.events) + (self.skipped is not None)


def query_id_of(path: str | os.PathLike) -> str:
    return os.path.basename(path).replace(SUFFIX, "")


def read_folder(folder: str | os.PathLike, aux: Ta2Aux, query_ids: Iterable[str] | None = None) -> dict[str, ResponseFile]:
    """The response files of a SPARQL-VALID-output folder, by query ID in file-name order: all the
    files NIST loads, or only those of ``query_ids`` (the others change nothing the scorer computes)."""
    folder = Path(folder)
    if query_ids is None:
        paths = sorted(p for p in folder.iterdir() if p.is_file())
    else:
        paths = sorted(p for p in (folder / f"{q}{SUFFIX}" for q in dict.fromkeys(query_ids)) if p.is_file())
    check = _RowCheck(aux)
    found = {}
    for path in paths:
        loaded = read_file(path, check)
        found[loaded.query_id] = loaded
    return found


def read_file(path: str | os.PathLike, check: _RowCheck) -> ResponseFile:
    path = str(path)
    lines = read_lines(path, skip_blank=False)
    query_id = query_id_of(path)
    if not lines:
        return ResponseFile(path, query_id, None, skipped="empty, without a header")
    header = lines[0][1].rstrip()
    if tuple(header.split("\t")) != HEADER:
        return ResponseFile(path, query_id, None, skipped="its header is not NIST's 7 columns")
    events: list[Event] = []
    rows = []
    for number, line in lines[1:]:
        cells = line.split("\t", 6)
        if len(cells) < 7:
            if not line.strip():
                continue
            raise InputError(path, f"{len(cells)} tab-separated fields, 7 expected", number)
        row = check(number, [cell.strip() for cell in cells], events)
        if row is not None:
            rows.append(row)
    return ResponseFile(path, query_id, header, tuple(rows), events=tuple(events))


class _RowCheck:
    """NIST's checks of a row (its validator's attribute order), with the events it logs. What a
    row's document and element decide is worked out once per (document, element)."""

    def __init__(self, aux: Ta2Aux) -> None:
        self.aux = aux
        self.elements: dict[tuple[str, str, str], tuple[str | None, str, tuple | None, str | None]] = {}
        self.confidences: dict[str, tuple[float, str, bool]] = {}  # a confidence's text -> NIST's value, text, replaced

    def __call__(self, number: int, cells: list[str], events: list[Event]) -> Response | None:
        document, query_link_target, link_target, cluster, span, j_cv_text, link_cv_text = cells
        j_cv, j_cv_text = self.confidence(number, j_cv_text, events)
        link_cv, link_cv_text = self.confidence(number, link_cv_text, events)
        span, problem = self.span(number, document, span, events)
        if document not in self.aux.elements_of or document not in self.aux.core:
            known = "not a core document" if document in self.aux.elements_of else "unknown"
            events.append(Event("dropped", number, f"document {document!r} is {known}"))
            return None
        if problem is not None:
            events.append(Event("invalid", number, problem))
        return Response(number, document, query_link_target, link_target, cluster, span, j_cv_text, link_cv_text,
                        j_cv, link_cv, problem is None)

    def span(self, number: int, document: str, span: str, events: list[Event]) -> tuple[str, str | None]:
        """The span as NIST keeps it, and what makes the row invalid (None when nothing)."""
        match = _PLAIN_SPAN.match(span) or _SPAN.match(span)
        if match is None or span.count(":") != 2:
            return span, f"mention span {span!r} is not DOC:ELT:(x1,y1)-(x2,y2)"
        span_document, element_text, *corners = match.groups()
        key = (document, span_document, element_text)
        found = self.elements.get(key)
        if found is None:
            found = self.elements[key] = self.element(*key)
        problem, element, extent, missing = found
        if problem is not None:
            return span, problem
        try:
            values = [float(corner) for corner in corners]
        except ValueError:
            values = None
        if values is None or min(values) < 0:  # NIST stops at the first corner that is not a number, or negative
            return span, _bad_corner(number, span, corners, events)
        if values[0] > values[2] or values[1] > values[3]:
            return span, f"span {span} starts after it ends"
        if extent is None:
            events.append(Event("unreadable", number, missing))
            return span, missing
        corrected = _inside(corners, values, extent)
        if corrected is None:
            return span, f"span {span} lies outside its element {element}"
        if corrected is corners:
            return span, None
        fixed = f"{document}:{element}:({corrected[0]},{corrected[1]})-({corrected[2]},{corrected[3]})"
        events.append(Event("corrected", number, f"span {span} moved inside its element: {fixed}"))
        return fixed, None

    def element(self, document: str, span_document: str, element_text: str) -> tuple[str | None, str, tuple | None, str | None]:
        """(what makes the row invalid, the element or key frame a corrected span names, its extent
        (its corners and their numbers), why the extent is missing) for a span's document and
        element, checked in NIST's order."""
        keyframe = _KEYFRAME.match(element_text)
        element = keyframe.group(1) if keyframe else element_text
        if span_document != document:
            return f"the span is of document {span_document}, the row's is {document}", element, None, None
        if span_document not in self.aux.elements_of:
            return f"unknown document {span_document}", element, None, None
        if element not in self.aux.modality:
            return f"unknown document element {element}", element, None, None
        modality = self.aux.modality[element]
        if modality is None:
            return f"document element {element} has no known modality", element, None, None
        keyframe_id = element_text if keyframe and modality == "video" else None
        if keyframe_id is not None and keyframe_id not in self.aux.extents("keyframe"):
            return f"unknown key frame {keyframe_id}", element, None, None
        if element not in self.aux.elements_of[document]:
            return f"document element {element} is not part of document {document}", element, None, None
        kind = "keyframe" if keyframe_id else modality
        extent = self.aux.extents(kind).get(keyframe_id or element)
        missing = f"no {kind} extent for {keyframe_id or element} in the AUX data"
        if extent is None:
            return None, keyframe_id or element, None, missing
        try:
            numbers = tuple(float(corner) for corner in extent)
        except ValueError:
            return None, keyframe_id or element, None, f"the {kind} extent of {keyframe_id or element} in the AUX data is not numbers"
        return None, keyframe_id or element, (extent, numbers), missing


    def confidence(self, number: int, text: str, events: list[Event]) -> tuple[float, str]:
        """The confidence NIST uses (quotes removed) and the text it writes back."""
        found = self.confidences.get(text)
        if found is None:
            try:
                value = float(text.replace('"', ""))
            except ValueError:
                value = None
            found = self.confidences[text] = (value, text, False) if value is not None and 0 < value <= 1 else (1.0, ONE, True)
        if found[2]:
            events.append(Event("confidence", number, f"confidence {text!r} replaced by 1.0"))
        return found[0], found[1]


def _bad_corner(number: int, span: str, corners: list[str], events: list[Event]) -> str:
    for corner in corners:
        try:
            value = float(corner)
        except ValueError:
            events.append(Event("unreadable", number, f"coordinate {corner!r} of {span} is not a number"))
            return f"coordinate {corner!r} is not a number"
        if value < 0:
            break
    return f"negative coordinate {corner}"


def _inside(corners: list[str], values: list[float], extent: tuple[Extent, tuple[float, ...]]) -> list | None:
    """The span's corners kept (the same list), or moved to the element's extent as NIST's
    validator moves them: all four 0 means the whole element; a corner outside takes the
    extent's; None when the span lies wholly outside."""
    bounds, (low_x, low_y, high_x, high_y) = extent
    sx, sy, ex, ey = values
    if low_x <= sx <= high_x and low_x <= ex <= high_x and low_y <= sy <= high_y and low_y <= ey <= high_y:
        return corners
    if sx + sy + ex + ey == 0:
        return list(bounds)
    if sx > high_x or sy > high_y or ex < low_x or ey < low_y:
        return None
    return [bounds[0] if sx < low_x else corners[0], bounds[1] if sy < low_y else corners[1],
            bounds[2] if ex > high_x else corners[2], bounds[3] if ey > high_y else corners[3]]


KB_NAME = "task2_kb.ttl"


def load_run(run: str | os.PathLike, aux: Ta2Aux, queries: Mapping[str, Ta2Query], every_file: bool = False) -> dict[str, ResponseFile]:
    """A run's response files by query ID (those of ``queries``, or with ``every_file`` all that
    NIST loads): from RUN/SPARQL-VALID-output (NIST's docker output), or from its KB
    (RUN/task2_kb.ttl, or the .ttl itself) through ``responses_from_kb``."""
    run = Path(run)
    if (run / VALID_FOLDER).is_dir():
        return read_folder(run / VALID_FOLDER, aux, None if every_file else queries)
    if (run / KB_NAME).is_file():
        return responses_from_kb(run / KB_NAME, aux, queries)
    if run.is_file() and run.suffix == ".ttl":
        return responses_from_kb(run, aux, queries)
    raise UsageError(f"{run}: not a TA2 run (a folder holding {VALID_FOLDER}/ or {KB_NAME})")


def responses_from_kb(kb: Path, aux: Ta2Aux, queries: Mapping[str, Ta2Query]) -> dict[str, ResponseFile]:
    """THE SEAM for a run given as its KB: NIST's TA2 query stage (aifcheck.pipeline.ta2: each
    query's SPARQL on the KB, from its entry point, then clean and validate) gives the rows NIST's
    docker writes to SPARQL-VALID-output, which are then read as from that folder. Not wired yet."""
    raise UsageError(f"{kb}: a run given as its KB needs aifcheck's TA2 query stage (pipeline ta2), which is not wired "
                     f"into this command yet: run that stage and give the folder holding its {VALID_FOLDER}/")
