"""LDC's TA2 assessments as NIST's scorer reads them: every ``DIR/data/TA2/*.tab`` (here in name
order), no header; each line's 9 tab-separated fields, stripped: query ID, descriptor, response ID,
modality, document, mention span (``ELT:(x1,y1)-(x2,y2)``), label, mention type, fqec (LDC's entity
class). A line's key is ``document:span``, compared as a string with a response's span.

What cannot be scored stops the reading with one located line (InputError): a line with fewer
than 9 fields (NIST stops too; ``--plan`` skips it, as the plan reading does), a label that is not
one of correct, incorrect, inexact, wrong, yes, no, NIL or empty in any case, a span or document
that is not of that form, and a line repeating another line's query and key with another label or
class. A repeat that agrees (a kit delivered twice) is kept once (NIST stops on it), and a copy of
pool.txt's header line is skipped, each with a note.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from aifcheck.errors import InputError
from aifcheck.extract.model import ASSESSMENT_SPAN
from aifcheck.loading.paths import input_folder, missing, regular_files
from aifcheck.loading.tsv import fit_cells, read_lines

FIELDS = 9
# NIST's mapping of labels (exact words); any other label stays as written
NIST_LABELS = {"correct": "CORRECT", "wrong": "INCORRECT", "inexact": "INEXACT", "yes": "CORRECT", "no": "INCORRECT"}
RIGHT = ("CORRECT", "INEXACT")
# the plan reading: labels in any case; NIL or empty means not judged
PLAN_LABELS = {
    "correct": "CORRECT",
    "yes": "CORRECT",
    "inexact": "INEXACT",
    "incorrect": "INCORRECT",
    "wrong": "INCORRECT",
    "no": "INCORRECT",
}
UNJUDGED = ("nil", "")
NIL = "NIL"
NIST_NIL_CLASS = "NILG1001"  # NIST's generated class of every CORRECT NIL line (its counter never advances)
POOL_HEADER = (
    "QUERY_ID",
    "DESCRIPTOR",
    "RESPONSE_ID",
    "MENTION_SOURCE",
    "DOCUMENT_ID",
    "MENTION_SPAN",
    "CORRECTNESS",
    "MENTION_TYPE",
    "FQEC",
)


class Judgement(NamedTuple):
    """One assessment line, with what NIST and the plan make of it (a tuple: a package has tens of
    thousands of lines)."""

    path: str
    line: int
    query_id: str
    document: str
    mention: str  # ELT:(x1,y1)-(x2,y2)
    label_read: str
    fqec_read: str
    key: str  # document:mention, as a response's span reads
    nist_label: str  # NIST's mapping of the five lower-case words; other labels as written
    nist_fqec: str  # NILG1001 for a CORRECT NIL line
    nist_right: bool  # CORRECT or INEXACT for NIST
    plan_label: str | None  # CORRECT, INEXACT, INCORRECT, or None (not judged)
    plan_class: str  # NIL for NIL or an empty fqec

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


def judgement(path: str, line: int, query_id: str, document: str, mention: str, label: str, fqec: str) -> Judgement:
    nist_label = NIST_LABELS.get(label, label)
    nist_fqec = NIST_NIL_CLASS if fqec == NIL and nist_label == "CORRECT" else fqec
    return Judgement(
        path,
        line,
        query_id,
        document,
        mention,
        label,
        fqec,
        f"{document}:{mention}",
        nist_label,
        nist_fqec,
        nist_label in RIGHT,
        PLAN_LABELS.get(label.lower()),
        NIL if fqec in (NIL, "") else fqec,
    )


@dataclass(frozen=True)
class Assessments:
    by_query: dict[str, dict[str, Judgement]]  # query -> key -> its line (the first one of a repeat)
    notes: tuple[str, ...]

    def lines(self) -> list[Judgement]:
        return [j for judged in self.by_query.values() for j in judged.values()]


def assessment_files(folder: str | os.PathLike) -> list[Path]:
    """LDC's kits, data/TA2/*.tab: each a file that can be read (a FIFO or a link to nothing is an
    error, not a kit left out); a folder that cannot be read is an error, not "no assessments"."""
    data = Path(folder) / "data" / "TA2"
    if missing(data):
        raise InputError(str(folder), "no data/TA2 folder (LDC's package layout)")
    return regular_files(input_folder(data, "LDC's kits"), lambda name: name.endswith(".tab"), "an LDC kit")


def read_assessments(folder: str | os.PathLike, skip_short: bool = False) -> Assessments:
    by_query: dict[str, dict[str, Judgement]] = {}
    notes = []
    repeats = []
    for path in assessment_files(folder):
        name = str(path)
        for number, line in read_lines(path):
            cells = line.split("\t")
            if len(cells) < FIELDS:
                if skip_short:
                    notes.append(f"{name}:{number}: fewer than {FIELDS} fields, skipped (--plan)")
                    continue
                raise InputError(name, f"{len(cells)} tab-separated fields, {FIELDS} expected", number)
            cells = fit_cells(cells, FIELDS)
            if cells == POOL_HEADER:
                notes.append(f"{name}:{number}: pool.txt's header line, skipped (NIST's scorer stops on it: C3)")
                continue
            query_id, _descriptor, _id, _modality, document, mention, label, _type, fqec = cells
            _check(name, number, document, mention, label)
            found = judgement(name, number, query_id, document, mention, label, fqec)
            judged = by_query.setdefault(query_id, {})
            first = judged.get(found.key)
            if first is None:
                judged[found.key] = found
            elif (first.nist_label, first.fqec_read) != (found.nist_label, found.fqec_read):
                raise InputError(
                    name,
                    f"query {query_id}, {found.key}: judged {label} {fqec} here and "
                    f"{first.label_read} {first.fqec_read} at {first.where}",
                    number,
                )
            else:
                repeats.append((found, first))
    if repeats:
        again, first = repeats[0]
        notes.append(
            f"C4: {len(repeats)} assessment line(s) repeat an earlier line of their query (first: {again.where} "
            f"repeats {first.where}); each kept once (NIST's scorer stops: MULTIPLE_ASSESSMENTS)"
        )
    return Assessments(by_query, tuple(notes))


def _check(path: str, number: int, document: str, mention: str, label: str) -> None:
    if label.lower() not in PLAN_LABELS and label.lower() not in UNJUDGED:
        raise InputError(
            path,
            f"unknown assessment label {label!r} (expected correct, incorrect, inexact, wrong, yes, no or NIL)",
            number,
        )
    if ASSESSMENT_SPAN.parts(f"{document}:{mention}") is None:
        raise InputError(path, f"mention {document}:{mention} is not DOCUMENT and ELEMENT:(x1,y1)-(x2,y2)", number)
