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
import re
from dataclasses import dataclass
from pathlib import Path

from ...errors import InputError, UsageError
from ...pipeline.tab_lines import read_lines, split_cells

FIELDS = 9
# NIST's mapping of labels (exact words); any other label stays as written
NIST_LABELS = {"correct": "CORRECT", "wrong": "INCORRECT", "inexact": "INEXACT", "yes": "CORRECT", "no": "INCORRECT"}
RIGHT = ("CORRECT", "INEXACT")
# the plan reading: labels in any case; NIL or empty means not judged
PLAN_LABELS = {"correct": "CORRECT", "yes": "CORRECT", "inexact": "INEXACT", "incorrect": "INCORRECT", "wrong": "INCORRECT", "no": "INCORRECT"}
UNJUDGED = ("nil", "")
NIL = "NIL"
NIST_NIL_CLASS = "NILG1001"  # NIST's generated class of every CORRECT NIL line (its counter never advances)
POOL_HEADER = ("QUERY_ID", "DESCRIPTOR", "RESPONSE_ID", "MENTION_SOURCE", "DOCUMENT_ID", "MENTION_SPAN", "CORRECTNESS", "MENTION_TYPE", "FQEC")
_DOCUMENT = re.compile(r"^[^\s:]+$")
_MENTION = re.compile(r"^[^\s:]+:\(([^\s,()]+),([^\s,()]+)\)-\(([^\s,()]+),([^\s,()]+)\)$")


@dataclass(frozen=True, slots=True)
class Judgement:
    """One assessment line."""

    path: str
    line: int
    query_id: str
    document: str
    mention: str  # ELT:(x1,y1)-(x2,y2)
    label_read: str
    fqec_read: str

    @property
    def key(self) -> str:
        return f"{self.document}:{self.mention}"

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"

    @property
    def nist_label(self) -> str:
        return NIST_LABELS.get(self.label_read, self.label_read)

    @property
    def nist_fqec(self) -> str:
        return NIST_NIL_CLASS if self.fqec_read == NIL and self.nist_label == "CORRECT" else self.fqec_read

    @property
    def nist_right(self) -> bool:
        return self.nist_label in RIGHT

    @property
    def plan_label(self) -> str | None:
        """CORRECT, INEXACT, INCORRECT, or None (not judged)."""
        return PLAN_LABELS.get(self.label_read.lower())

    @property
    def plan_class(self) -> str:
        return NIL if self.fqec_read in (NIL, "") else self.fqec_read


@dataclass(frozen=True)
class Assessments:
    by_query: dict[str, dict[str, Judgement]]  # query -> key -> its line (the first one of a repeat)
    notes: tuple[str, ...]

    def lines(self) -> list[Judgement]:
        return [j for judged in self.by_query.values() for j in judged.values()]


def assessment_files(folder: str | os.PathLike) -> list[Path]:
    data = Path(folder) / "data" / "TA2"
    if not data.is_dir():
        raise UsageError(f"--assessments: {folder} has no data/TA2 folder (LDC's package layout)")
    return sorted(p for p in data.glob("*.tab") if p.is_file())


def read_assessments(folder: str | os.PathLike, skip_short: bool = False) -> Assessments:
    by_query: dict[str, dict[str, Judgement]] = {}
    notes = []
    repeats = []
    for path in assessment_files(folder):
        name = str(path)
        for number, line in read_lines(path):
            if skip_short and len(line.split("\t")) < FIELDS:
                notes.append(f"{name}:{number}: fewer than {FIELDS} fields, skipped (--plan)")
                continue
            cells = split_cells(name, number, line, FIELDS)
            if tuple(cells) == POOL_HEADER:
                notes.append(f"{name}:{number}: pool.txt's header line, skipped (NIST's scorer stops on it: C3)")
                continue
            judgement = _judgement(name, number, cells)
            judged = by_query.setdefault(judgement.query_id, {})
            first = judged.get(judgement.key)
            if first is None:
                judged[judgement.key] = judgement
            elif (first.nist_label, first.fqec_read) != (judgement.nist_label, judgement.fqec_read):
                raise InputError(name, f"query {judgement.query_id}, {judgement.key}: judged {judgement.label_read} {judgement.fqec_read} "
                                       f"here and {first.label_read} {first.fqec_read} at {first.where}", number)
            else:
                repeats.append((judgement, first))
    if repeats:
        again, first = repeats[0]
        notes.append(f"C4: {len(repeats)} assessment line(s) repeat an earlier line of their query (first: {again.where} "
                     f"repeats {first.where}); each kept once (NIST's scorer stops: MULTIPLE_ASSESSMENTS)")
    return Assessments(by_query, tuple(notes))


def _judgement(path: str, number: int, cells: list[str]) -> Judgement:
    query_id, _descriptor, _id, _modality, document, mention, label, _type, fqec = cells
    if label.lower() not in PLAN_LABELS and label.lower() not in UNJUDGED:
        raise InputError(path, f"unknown assessment label {label!r} (expected correct, incorrect, inexact, wrong, yes, no or NIL)", number)
    match = _MENTION.match(mention)
    if not _DOCUMENT.match(document) or match is None or not all(_is_number(c) for c in match.groups()):
        raise InputError(path, f"mention {document}:{mention} is not DOCUMENT and ELEMENT:(x1,y1)-(x2,y2)", number)
    return Judgement(path, number, query_id, document, mention, label, fqec)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
