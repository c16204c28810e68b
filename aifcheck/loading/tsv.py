"""Tab-separated files as NIST's file handler reads them, with line numbers for every complaint:
without a header line (TA3 ranking files, CRUX .tab files, LDC's TA2 assessments, response
files), or with one naming the columns (NIST's tables, AUX files, queries tables, the type
similarity table, pools).

NIST opens a file in text mode, so ``\\r\\n`` and a lone ``\\r`` end lines too (but not ``\\x0c``
or ``\\u2028``, which ``str.splitlines`` would take); it takes a line without its line break,
splits it into at most as many cells as the header has columns (further tabs stay in the last
cell) and strips each cell. A line with fewer cells stops NIST's code; a blank line is such a line
for NIST, and skipped here.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

from aifcheck.errors import InputError
from aifcheck.loading.paths import read_text


def read_lines(path: str | os.PathLike, skip_blank: bool = True) -> list[tuple[int, str]]:
    """(line number, text without its line break) of every line (that is not blank). InputError
    when the file cannot be read as UTF-8 text (naming the line of a byte that is not UTF-8)."""
    lines = read_text(path, universal=True).split("\n")
    if lines[-1] == "":
        lines.pop()  # the last line's break ends it; it does not start another line
    return [(number, line) for number, line in enumerate(lines, 1) if not skip_blank or line.strip()]


def read_rows(path: str | os.PathLike) -> list[tuple[int, list[str]]]:
    """(line number, cells) of each line that is not blank; cells are split at every tab and keep
    their spaces."""
    return [(number, line.split("\t")) for number, line in read_lines(path)]


@dataclass(frozen=True)
class TsvTable:
    path: str
    columns: tuple[str, ...]
    rows: tuple[tuple[int, tuple[str, ...]], ...]  # (line number, cells), one cell per column

    @cached_property
    def _index(self) -> dict[str, int]:
        # a name given twice: NIST's row dictionary keeps the last cell of that name
        return {name: position for position, name in enumerate(self.columns)}

    def column(self, name: str) -> int:
        return self._index[name]

    def records(self) -> Iterator[tuple[int, dict[str, str]]]:
        """(line number, {column: cell}) of each row."""
        for line, cells in self.rows:
            yield line, dict(zip(self.columns, cells, strict=True))

    def cells(self, names: Sequence[str]) -> list[tuple[int, list[str]]]:
        """(line number, the cells of the columns ``names``: "" for a column the header lacks) of
        each row."""
        at = [self._index.get(name) for name in names]
        return [(line, [cells[i] if i is not None else "" for i in at]) for line, cells in self.rows]


def read_table(path: str | os.PathLike, required: Sequence[str]) -> TsvTable:
    """A table whose first line names its columns. InputError when the file is empty, lacks a
    column of ``required``, or a row has too few cells."""
    lines = read_lines(path)
    path = str(path)
    if not lines:
        raise InputError(path, f"empty: expected a header line naming {', '.join(required)}")
    header_line, header = lines[0]
    columns = tuple(cell.strip() for cell in header.rstrip().split("\t"))  # NIST right-strips it
    missing = [c for c in required if c not in columns]
    if missing:
        raise InputError(path, f"the header has no column {', '.join(missing)}", header_line)
    width = len(columns)
    found = []
    for line, text in lines[1:]:
        cells = text.split("\t", width - 1)
        if len(cells) < width:
            raise InputError(path, f"{len(cells)} cells, the header has {width} columns", line)
        found.append((line, tuple(cell.strip() for cell in cells)))
    return TsvTable(path, columns, tuple(found))


def check_unique(path: str | os.PathLike, key: Sequence[str]) -> None:
    """InputError, naming both lines, when two rows of the table at ``path`` have the same cells in
    the columns ``key`` (a query given twice): which row counts is the user's to say, and NIST's
    readers keep one in silence."""
    table = read_table(path, key)
    first: dict[tuple[str, ...], int] = {}
    for line, cells in table.cells(key):
        seen = first.setdefault(tuple(cells), line)
        if seen != line:
            shown = " ".join(f"{name} {cell}" for name, cell in zip(key, cells, strict=True))
            raise InputError(table.path, f"{shown} is also on line {seen}: give each once", line)
