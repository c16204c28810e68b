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
element of a modality or with an extent the AUX data lacks), the row is invalid here. The checks are
those of NIST's validate stage (aifcheck.pipeline.ta2.screen.RowValidator), which NIST's scorer
runs again.

A run given as its KB (``task2_kb.ttl``) goes through NIST's TA2 docker stages in-process
(``responses_from_kb``), and its SPARQL-VALID-output rows are read as from that folder.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from aifcheck.errors import InputError, UsageError
from aifcheck.extract.model import SCORER_SPAN, VALIDATOR_SPAN, Confidence, Span
from aifcheck.loading.paths import missing, regular_files
from aifcheck.loading.tsv import read_lines
from aifcheck.pipeline.shared.auxdata import Aux
from aifcheck.pipeline.shared.events import Where
from aifcheck.pipeline.ta2.queries import Query
from aifcheck.pipeline.ta2.screen import RowValidator

if TYPE_CHECKING:  # (a run given as NIST's output needs no KB loader)
    from aifcheck.pipeline.ta2.locate import KbPlaces

HEADER = ("?docid", "?query_link_target", "?link_target", "?cluster", "?mention_span", "?j_cv", "?link_cv")
SUFFIX = ".rq.tsv"
VALID_FOLDER = "SPARQL-VALID-output"


class Response(NamedTuple):
    """A kept row of a response file (a tuple: a run has tens of thousands of them)."""

    line: int
    document: str  # ?docid
    query_link_target: str
    link_target: str
    cluster: str
    # ?mention_span as NIST writes it back (corrected): the text NIST's scorer and pooler key a row's
    # mention by, and compare with LDC's assessment lines
    span_text: str
    j_cv: Confidence
    link_cv: Confidence
    valid: bool

    @property
    def span(self) -> Span | None:
        """The span as NIST's validator reads it (a corrected span: the corrected one), or where it
        reads none (an invalid row) as NIST's scorer and pooler do; None where neither reads it.
        Read when asked: of a run's tens of thousands of rows only those pooled or explained are."""
        for grammar in _READINGS:
            try:
                return Span.parse(self.span_text, None, grammar)
            except ValueError:
                continue
        return None


_READINGS = (VALIDATOR_SPAN, SCORER_SPAN)  # NIST's validator's grammar, then its scorer's and pooler's

# Response's fields as one tuple, without NamedTuple's __new__ (a Python call per row)
_response = tuple.__new__


@dataclass(frozen=True)
class RowEvent:
    """Something NIST's validator logs about a row: ``kind`` is one of KINDS."""

    kind: str
    line: int
    detail: str


# what NIST logs, by the word aifcheck's notes use: "invalid" and "dropped" are its errors
KINDS = ("invalid", "dropped", "corrected", "confidence", "unreadable", "stage")


@dataclass(frozen=True)
class LoadedResponses:
    path: str
    query_id: str
    header: tuple[str, ...] | None  # the header's cells, as NIST writes them back; None when the file was skipped
    rows: tuple[Response, ...] = ()
    skipped: str | None = None  # why NIST skips the file
    events: tuple[RowEvent, ...] = field(default_factory=tuple)
    places: KbPlaces | None = None  # a run given as its KB, when asked: the KB's lines of the rows' objects

    @property
    def errors(self) -> int:
        """What NIST logs as errors: rows dropped as unknown documents, invalid rows, a skipped file."""
        return sum(e.kind in ("invalid", "dropped") for e in self.events) + (self.skipped is not None)


def query_id_of(path: str | os.PathLike) -> str:
    return os.path.basename(path).replace(SUFFIX, "")


def read_folder(
    folder: str | os.PathLike, aux: Aux, query_ids: Iterable[str] | None = None
) -> dict[str, LoadedResponses]:
    """The response files of a SPARQL-VALID-output folder, by query ID in file-name order: all the
    files NIST loads, or only those of ``query_ids`` (the others change nothing the scorer computes)."""
    folder = Path(folder)
    if query_ids is None:  # each a file that can be read: a FIFO or a link to nothing is an error, never left out
        paths = regular_files(folder, lambda _: True, "a response file")
    else:  # (a query without a file has no response; one that is there is read, whatever it is)
        paths = sorted(p for p in (folder / f"{q}{SUFFIX}" for q in dict.fromkeys(query_ids)) if not missing(p))
    validator = RowValidator(aux)
    found = {}
    for path in paths:
        loaded = read_file(path, validator)
        found[loaded.query_id] = loaded
    return found


def read_file(path: str | os.PathLike, validator: RowValidator) -> LoadedResponses:
    path = str(path)
    lines = read_lines(path, skip_blank=False)
    query_id = query_id_of(path)
    if not lines:
        return LoadedResponses(path, query_id, None, skipped="empty, without a header")
    header = tuple(lines[0][1].rstrip().split("\t"))
    if header != HEADER:
        return LoadedResponses(path, query_id, None, skipped="its header is not NIST's 7 columns")
    rows, events = _rows(path, ((number, line.split("\t", 6)) for number, line in lines[1:]), validator)
    return LoadedResponses(path, query_id, header, rows, events=events)


def _rows(
    path: str, lines: Iterable[tuple[int, Sequence[str]]], validator: RowValidator
) -> tuple[tuple[Response, ...], tuple[RowEvent, ...]]:
    """The rows NIST's scorer keeps of a response file's (line number, cells), validated again, and
    what its validator logs of them."""
    events: list[RowEvent] = []
    rows = []
    for number, cells in lines:
        if len(cells) < 7:
            if not "".join(cells).strip():
                continue  # a blank line
            raise InputError(path, f"{len(cells)} tab-separated fields, 7 expected", number)
        kept, j_cv, link_cv, known, core, problem, findings = validator.check(cells)
        for finding in findings:
            if finding.code == "INVALID_CONFIDENCE":
                events.append(RowEvent("confidence", number, finding.detail))
            elif finding is problem and finding.stops is not None:
                events.append(RowEvent("unreadable", number, finding.stops))
            elif finding.code == "SPAN_OFF_BOUNDARY_CORRECTED":
                events.append(RowEvent("corrected", number, finding.detail))
        if not (known and core):
            events.append(
                RowEvent("dropped", number, f"document {kept[0]!r} is {'not a core document' if known else 'unknown'}")
            )
            continue
        if problem is not None:
            events.append(RowEvent("invalid", number, problem.detail))
        rows.append(_response(Response, (number, *kept[:5], j_cv, link_cv, problem is None)))
    return tuple(rows), tuple(events)


KB_NAME = "task2_kb.ttl"
DOCKER_STAGES = ("SPARQL-output", "SPARQL-CLEAN-output", VALID_FOLDER)  # NIST's TA2 docker writes these


def load_run(
    run: str | os.PathLike, aux: Aux, queries: Mapping[str, Query], every_file: bool = False, places: bool = False
) -> dict[str, LoadedResponses]:
    """A run's response files by query ID (those of ``queries``, or with ``every_file`` all that
    NIST loads): from RUN/SPARQL-VALID-output (NIST's docker output), or from its KB
    (RUN/task2_kb.ttl, or the .ttl itself) through ``responses_from_kb`` (``places``: with the KB's
    lines of the rows' objects)."""
    run = Path(run)
    if (run / VALID_FOLDER).is_dir():
        return read_folder(run / VALID_FOLDER, aux, None if every_file else queries)
    kb = kb_of(run)
    if kb is None and run.name in DOCKER_STAGES and (run.parent / VALID_FOLDER).is_dir():
        # a stage's folder of NIST's docker output: the run is the folder above it (its name the run ID)
        raise UsageError(f"{run}: a stage's folder of NIST's docker output: give the run, {run.parent}")
    if kb is None:
        raise UsageError(f"{run}: not a TA2 run (a folder holding {VALID_FOLDER}/ or {KB_NAME})")
    return responses_from_kb(kb, aux, queries, places)


def kb_of(run: str | os.PathLike) -> Path | None:
    """The KB of a run given as its KB (RUN/task2_kb.ttl without RUN/SPARQL-VALID-output, or a
    .ttl file itself); None for a run given as NIST's docker output, or no run."""
    run = Path(run)
    if (run / VALID_FOLDER).is_dir():
        return None
    if (run / KB_NAME).is_file():
        return run / KB_NAME
    return run if run.is_file() and run.suffix == ".ttl" else None


def responses_from_kb(
    kb: Path, aux: Aux, queries: Mapping[str, Query], places: bool = False
) -> dict[str, LoadedResponses]:
    """A run given as its KB: NIST's TA2 docker stages (aifcheck.pipeline.ta2.run: each query's SPARQL
    on the KB, then clean and validate) give the rows NIST's docker writes to SPARQL-VALID-output,
    which are read as from that folder (validated again, as NIST's scorer does), by query ID in
    file-name order (a response file is named ``KB#SPARQL-VALID-output/<query_id>.rq.tsv``). A
    query whose validate stage kept no row has a file with only its header, as in NIST's folder.
    Nothing is written. ``queries``: their entry point types are NIST's (ta2.TEMPLATES)."""
    from aifcheck.pipeline.ta2.run import (
        pipeline_ta2,
    )  # imported when needed: a run given as NIST's output needs no KB loader

    stages = pipeline_ta2(kb, list(queries.values()), aux, places)
    # what the validate stage dropped or corrected never reaches the scorer: kept as "stage" events
    logged: dict[str, list[RowEvent]] = {}
    for event in stages.log:
        if event.level in ("ERROR", "WARNING") and isinstance(event.where, Where):
            where = f"{kb}#SPARQL-CLEAN-output/{os.path.basename(event.where.path)}:{event.where.line}"
            logged.setdefault(query_id_of(event.where.path), []).append(
                RowEvent("stage", event.where.line, f"{where}: {event.message}")
            )
    validator = RowValidator(aux)
    found = {}
    for file in stages.valid:
        path = f"{kb}#{VALID_FOLDER}/{file.path}"
        rows, events = _rows(path, file.rows, validator)
        query_id = query_id_of(file.path)
        found[query_id] = LoadedResponses(
            path,
            query_id,
            tuple(file.columns),
            rows,
            events=(*logged.get(query_id, ()), *events),
            places=stages.places,
        )
    return found
