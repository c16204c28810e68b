"""The files NIST's docker stages pass from one to the next, as values: the tables its SPARQL
stage prints (aifcheck.pipeline.shared.sparql; TA1's as its folder of tables names them,
``AIDA_P3_TA1_CM_A0001.rq.tsv``) and what the later TA2 and TA3 stages make of them.

A stage's output is a set of files under its folder (``SPARQL-CLEAN-output``, ...), each named by
its path below that folder (TA2: ``AIDA_P3_TA2_E0001.rq.tsv``; TA3:
``Condition5/<query>/<frame>.ttl/AIDA_P3_TA3_OC_0001.rq.tsv``,
``Condition5/<query>/<query>.ranking.tsv``). A table is an aifcheck.loading.tsv.TsvTable: its
header's cells (a ranking file has none) and its rows of cells, each with its line;
render/ta3/pipeline.py writes it as NIST's scripts do, each line ending in a newline
(render/tables.py). A header is its query's variables (``?name``): where NIST strips a header line,
that changes none of them. A ranking file as NIST's docker copies it into SPARQL-output is its
text (a TextFile).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_ENDED_LINE = re.compile(r"[^\n]*\n|[^\n]+$")


@dataclass(frozen=True)
class TextFile:
    """A file kept byte for byte (NIST copies these with cp)."""

    path: str
    text: str


def rstrip_cells(cells: Sequence[str]) -> tuple[str, ...]:
    """The cells of a line whose trailing whitespace NIST strips (tabs included: empty cells at
    the end go)."""
    kept = list(cells)
    while len(kept) > 1 and not kept[-1].strip():
        kept.pop()
    return (*kept[:-1], kept[-1].rstrip()) if kept else ()


def text_lines(text: str) -> list[str]:
    """The lines of a text as Python's text mode reads them (NIST reads every file so): "\\r\\n",
    "\\r" and "\\n" end a line, and a last line without an ending still counts."""
    lines = _LINE_BREAK.split(text)
    return lines[:-1] if lines[-1] == "" else lines


def ended_lines(text: str) -> list[str]:
    """The lines of a text as Python's readlines() gives them in text mode: each with its ending,
    made "\n"."""
    return _ENDED_LINE.findall(text.replace("\r\n", "\n").replace("\r", "\n"))
