"""The checks of NIST's Validator (``validate_responses.py``) that its TA1 and TA2 stages share: a
confidence, and a mention span (provenance) against the AUX data, with NIST's correction of a span
partly outside its element.

A check returns Findings: what NIST logs (its event code and the arguments of its message) and
aifcheck's own words for it. Where NIST's code stops with a traceback on a span it means to reject
(a coordinate that is no number; an element without a boundary in the AUX data, or with one that
is not numbers) the RowFinding has a code of aifcheck's (``events.STOPS``) and says so in ``stops``;
each task decides what to make of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from aifcheck.extract.model import VALIDATOR_SPAN
from aifcheck.pipeline.shared.auxdata import Aux, Boundary

VALIDATOR = "Validator"  # the class NIST's Validator's events name
ONE = '"1.0"'  # NIST's replacement of a confidence it cannot use, as it writes it back


@dataclass(frozen=True)
class RowFinding:
    code: str  # NIST's event code (events.SPECS, or aifcheck's events.STOPS)
    args: tuple  # its message's arguments
    detail: str  # aifcheck's words for it
    stops: str | None = None  # where NIST's code stops on it: aifcheck's words for that


def trim(text: str) -> str:
    """A cell without its outer whitespace and its quotes, as NIST's validators read a value."""
    return text.strip().replace('"', "")


def confidence(text: str) -> tuple[float, str, RowFinding | None]:
    """NIST's reading of a confidence (spaces and quotes removed): the value, the text NIST writes
    back, and a RowFinding when it is no number or not in (0, 1] (a warning: NIST takes 1.0)."""
    try:
        value = float(trim(text))
    except ValueError:
        return 1.0, ONE, RowFinding("INVALID_CONFIDENCE", (text,), f"confidence {text!r} replaced by 1.0")
    if not 0 < value <= 1:
        return 1.0, ONE, RowFinding("INVALID_CONFIDENCE", (value,), f"confidence {text!r} replaced by 1.0")
    return value, text, None


class SpanCheck(NamedTuple):
    """(a tuple: a run has tens of thousands of spans)"""

    span: str  # the span as NIST keeps it (corrected when it was partly outside its element)
    problem: RowFinding | None  # why the span is invalid; None when it is valid
    corrected: RowFinding | None = None  # SPAN_OFF_BOUNDARY_CORRECTED, when it was corrected


# what a span's (row document, span document, element) decide: the RowFinding that makes it invalid,
# the element or key frame, its kind, its extent (texts and numbers), and the RowFinding of an extent
# that is missing or not numbers
_Element = tuple[RowFinding | None, str, str, str, "tuple[Boundary, tuple[float, ...]] | None", RowFinding | None]


# SpanCheck's fields as one tuple, without NamedTuple's __new__ (a Python call per span)
_check = tuple.__new__


class SpanChecker:
    """NIST's checks of a mention span ``DOC:ELEMENT:(x1,y1)-(x2,y2)``, in its order: the format,
    DOC the row's document and known, ELEMENT (or the key frame ``ELEMENT_N`` of a video element) a
    known element of a known modality and a child of DOC, coordinates numbers >= 0 with start <= end,
    and the span inside the element's extent (moved inside it when partly outside). What a span's
    document and element decide is worked out once per (document, element)."""

    def __init__(self, aux: Aux) -> None:
        self.aux = aux
        self._elements: dict[tuple[str, str, str], _Element] = {}

    def check(self, span: str, document: str) -> SpanCheck:
        """The span of a row of ``document``."""
        parts = VALIDATOR_SPAN.parts(span)
        if parts is None or span.count(":") != 2:
            return SpanCheck(
                span,
                RowFinding(
                    "INVALID_PROVENANCE_FORMAT", (span,), f"mention span {span!r} is not DOC:ELT:(x1,y1)-(x2,y2)"
                ),
            )
        span_document, element_text, *corners = parts
        key = (document, span_document, element_text)
        found = self._elements.get(key)
        if found is None:
            found = self._elements[key] = self._element(*key)
        problem, element, target, _kind, extent, missing = found
        if problem is not None:
            return _check(SpanCheck, (span, problem, None))
        try:
            values = [float(corner) for corner in corners]
        except ValueError:
            values = None
        if values is None or min(values) < 0 or values[0] > values[2] or values[1] > values[3]:
            return _check(SpanCheck, (span, _coordinates(span, corners), None))
        if extent is None:
            return _check(SpanCheck, (span, missing, None))
        bounds, limits = extent
        moved = _clip(corners, values, bounds, limits)
        if moved is corners:
            return _check(SpanCheck, (span, None, None))
        box = Boundary(*corners)
        if moved is None:
            return SpanCheck(
                span,
                RowFinding(
                    "SPAN_OFF_BOUNDARY_ERROR", (box, bounds, element), f"span {span} lies outside its element {target}"
                ),
            )
        fixed = f"{span_document}:{target}:{Boundary(*moved)}"
        return SpanCheck(
            fixed,
            None,
            RowFinding(
                "SPAN_OFF_BOUNDARY_CORRECTED",
                (box, Boundary(*moved), bounds, element),
                f"span {span} moved inside its element: {fixed}",
            ),
        )

    def _element(self, document: str, span_document: str, element_text: str) -> _Element:
        element, keyframe = VALIDATOR_SPAN.element(element_text)

        def invalid(finding: RowFinding) -> _Element:
            return finding, element, element, "", None, None

        if span_document != document:
            return invalid(
                RowFinding(
                    "MULTIPLE_DOCUMENTS",
                    (span_document, document),
                    f"the span is of document {span_document}, the row's is {document}",
                )
            )
        if span_document not in self.aux.documents:
            return invalid(RowFinding("UNKNOWN_ITEM", ("document", span_document), f"unknown document {span_document}"))
        if element not in self.aux.modalities:
            return invalid(
                RowFinding("UNKNOWN_ITEM", ("document element", element), f"unknown document element {element}")
            )
        modality = self.aux.modalities[element]
        if modality is None:
            return invalid(
                RowFinding("UNKNOWN_MODALITY", (element,), f"document element {element} has no known modality")
            )
        keyframe_id = element_text if keyframe and modality == "video" else None
        if keyframe_id is not None and keyframe_id not in self.aux.extents("keyframe"):
            return invalid(
                RowFinding("MISSING_ITEM_WITH_KEY", ("KeyFrameID", keyframe_id), f"unknown key frame {keyframe_id}")
            )
        if element not in self.aux.children(document):
            return invalid(
                RowFinding(
                    "PARENT_CHILD_RELATION_FAILURE",
                    (element, document),
                    f"document element {element} is not part of document {document}",
                )
            )
        kind = "keyframe" if keyframe_id else modality
        target = keyframe_id or element
        bounds = self.aux.extent(kind, target)
        if bounds is None:
            words = f"no {kind} extent for {target} in the AUX data"
            return None, element, target, kind, None, RowFinding("NO_BOUNDARY", (kind, target), words, words)
        try:
            limits = bounds.floats()
        except ValueError:
            words = f"the {kind} extent of {target} in the AUX data is not numbers"
            return None, element, target, kind, None, RowFinding("BOUNDARY_NOT_A_NUMBER", (kind, target), words, words)
        return None, element, target, kind, (bounds, limits), None


def _coordinates(span: str, corners: Sequence[str]) -> RowFinding | None:
    """What NIST finds first of the coordinates, in its order: each a number, not negative; then
    each start not beyond its end."""
    for corner in corners:
        try:
            value = float(corner)
        except ValueError:
            return RowFinding(
                "NOT_A_NUMBER",
                (corner,),
                f"coordinate {corner!r} is not a number",
                f"coordinate {corner!r} of {span} is not a number",
            )
        if value < 0:
            return RowFinding("NEGATIVE_NUMBER", (corner,), f"negative coordinate {corner}")
    for start, end in ((corners[0], corners[2]), (corners[1], corners[3])):
        if float(start) > float(end):
            return RowFinding("START_BIGGER_THAN_END", (start, end, span), f"span {span} starts after it ends")
    return None


def _clip(
    corners: Sequence[str], values: Sequence[float], bounds: Boundary, limits: Sequence[float]
) -> Sequence | None:
    """NIST's correction of a span's corners to its element's extent: the corners themselves (the
    same object) when inside; the whole element for a (0,0)-(0,0) span; None when the span lies
    wholly outside; else each corner outside the extent replaced by the extent's."""
    low_x, low_y, high_x, high_y = limits
    sx, sy, ex, ey = values
    if low_x <= sx <= high_x and low_x <= ex <= high_x and low_y <= sy <= high_y and low_y <= ey <= high_y:
        return corners
    if sx + sy + ex + ey == 0:
        return (bounds.start_x, bounds.start_y, bounds.end_x, bounds.end_y)
    if sx > high_x or sy > high_y or ex < low_x or ey < low_y:
        return None
    return (
        bounds.start_x if sx < low_x else corners[0],
        bounds.start_y if sy < low_y else corners[1],
        bounds.end_x if ex > high_x else corners[2],
        bounds.end_y if ey > high_y else corners[3],
    )
