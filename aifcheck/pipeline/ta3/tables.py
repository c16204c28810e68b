"""The files NIST's TA3 stages pass from one to the next, as values.

A stage's output is a set of files under its folder (``SPARQL-CLEAN-output``, ...), each named by
its path below that folder (``Condition5/<query>/<frame>.ttl/AIDA_P3_TA3_OC_0001.rq.tsv``,
``Condition5/<query>/<query>.ranking.tsv``). A table is its header line (None for a ranking file,
which has none) and its rows of cells; aifcheck.render.ta3.pipeline writes it as NIST's scripts do, each
line ending in a newline. A ranking file as NIST's docker copies it into SPARQL-output is its text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

RANKING_SUFFIX = ".ranking.tsv"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_ENDED_LINE = re.compile(r"[^\n]*\n|[^\n]+$")


@dataclass(frozen=True)
class StageTable:
    path: str
    header: str | None
    rows: tuple[tuple[str, ...], ...]

    @property
    def is_ranking(self) -> bool:
        return self.path.endswith(RANKING_SUFFIX)


@dataclass(frozen=True)
class TextFile:
    """A file kept byte for byte (NIST copies these with cp)."""

    path: str
    text: str


def file_text(file: StageTable | TextFile) -> str:
    """A stage's file as NIST's scripts write it: a table's header line, then a line per row, each
    ending in a newline; a copied file as it is."""
    if isinstance(file, TextFile):
        return file.text
    header = "" if file.header is None else file.header + "\n"
    return header + "".join("\t".join(row) + "\n" for row in file.rows)


def text_lines(text: str) -> list[str]:
    """The lines of a text as Python's text mode reads them (NIST reads every file so): "\\r\\n",
    "\\r" and "\\n" end a line, and a last line without an ending still counts."""
    lines = _LINE_BREAK.split(text)
    return lines[:-1] if lines[-1] == "" else lines


def ended_lines(text: str) -> list[str]:
    """The lines of a text as Python's readlines() gives them in text mode: each with its ending,
    made "\n"."""
    return _ENDED_LINE.findall(text.replace("\r\n", "\n").replace("\r", "\n"))
