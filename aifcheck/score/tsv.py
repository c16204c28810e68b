"""Tab-separated files, read with line numbers so that every complaint can name the file and
line: without a header line (TA3 ranking files, CRUX .tab files), or with one (NIST's tables,
AUX files and the type similarity table), for every scorer."""
from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..errors import InputError
from ..loading.paths import read_text


def read_rows(path: str | os.PathLike) -> list[tuple[int, list[str]]]:
    """(line number, cells) for each line that is not blank; cells are split at tabs and keep
    their spaces. InputError when the file cannot be read as UTF-8 text."""
    text = read_text(path)
    rows = []
    # split at \n only (a stray \x0c or \u2028 inside a value is not a line break, as for NIST)
    for number, line in enumerate(text.split("\n"), 1):
        line = line.removesuffix("\r")
        if line.strip():
            rows.append((number, line.split("\t")))
    return rows


@dataclass(frozen=True)
class Table:
    path: str
    columns: tuple[str, ...]
    rows: tuple[tuple[int, tuple[str, ...]], ...]  # (line number, cells), one cell per column

    def column(self, name: str) -> int:
        return self.columns.index(name)

    def records(self) -> Iterator[tuple[int, dict[str, str]]]:
        """(line number, {column: cell}) of each row."""
        for line, cells in self.rows:
            yield line, dict(zip(self.columns, cells))


def read_table(path: str | os.PathLike, required: Sequence[str]) -> Table:
    """A table whose first line names its columns, read as NIST's file handler reads it: a row
    keeps at most as many cells as there are columns (further tabs stay in the last cell), and
    every cell is stripped. InputError for a missing column or a row with too few cells."""
    rows = read_rows(path)
    path = str(path)
    if not rows:
        raise InputError(path, f"empty: expected a header line naming {', '.join(required)}")
    header_line, header = rows[0]
    columns = tuple(cell.strip() for cell in "\t".join(header).rstrip().split("\t"))  # NIST right-strips it
    missing = [c for c in required if c not in columns]
    if missing:
        raise InputError(path, f"the header has no column {', '.join(missing)}", header_line)
    width = len(columns)
    found = []
    for line, cells in rows[1:]:
        if len(cells) < width:
            raise InputError(path, f"{len(cells)} cells, the header has {width} columns", line)
        cells = [*cells[: width - 1], "\t".join(cells[width - 1:])]
        found.append((line, tuple(cell.strip() for cell in cells)))
    return Table(path, columns, tuple(found))
