"""A justification's extent, read from the columns of a query's row (?docid ?doceid ?so ?eo ?ulx
?uly ?lrx ?lry ?kfid ?st ?et ?sid), as a Span equal to the one NIST's printed span reads as: how
explanations tie a row of NIST's tables to the justification's node in the KB."""

from __future__ import annotations

from aifcheck.extract.model import Span
from aifcheck.extract.query import value


def _number(term) -> int | float:
    text = value(term)
    try:
        return int(text)
    except ValueError:
        return float(text)


def extent(record: dict) -> Span:
    """The extent of the justification a record names: a text span, a bounding box (in its key
    frame, if any), a time span, or a shot."""
    document, element = value(record["docid"]), value(record["doceid"])
    keyframe = value(record["kfid"])
    if record["so"] is not None:
        return Span(document, element, _number(record["so"]), _number(record["eo"]))
    if record["ulx"] is not None:
        corners = [_number(record[c]) for c in ("ulx", "lrx", "uly", "lry")]
        return Span(document, element, *corners, keyframe=keyframe)
    if record["st"] is not None:
        return Span(document, element, _number(record["st"]), _number(record["et"]))
    return Span(document, element, shot=value(record["sid"]))
