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

import math
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

from aifcheck.errors import InputError, UsageError
from aifcheck.loading.paths import read_text
from aifcheck.loading.ranking import RANKING_SUFFIX

TABLE_SUFFIX = ".rq.tsv"  # a query's table's file: the query's name and this
LARGEST = 1e100  # a score beyond: its cube, which a skewness takes, is no number


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


def fit_cells(cells: Sequence[str], width: int) -> tuple[str, ...]:
    """A line's cells (split at every tab) as NIST's file reader takes them: at most ``width``
    cells (the cells past the last column stay in it, joined by tabs: NIST's tolerance for
    over-long rows), each stripped. Every reader of a table here takes its rows so."""
    if len(cells) > width:
        cells = (*cells[: width - 1], "\t".join(cells[width - 1 :]))
    return tuple(cell.strip() for cell in cells)


def number(text: str | None) -> float:
    """A cell as a number, as Python's float reads it (nan and inf too); ValueError otherwise."""
    try:
        return float(text)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ValueError("is not a number") from None


def score(text: str | None) -> float:
    """A cell as a score: a finite number, at most LARGEST in size."""
    value = number(text)
    if not math.isfinite(value):
        raise ValueError("is not a number")
    if abs(value) > LARGEST:
        raise ValueError(f"is no score (at most {LARGEST:g} in size)")
    return value


@dataclass(frozen=True)
class TypedColumn:
    """A column of one of NIST's tables: its name and how a cell's text reads as its value
    (``read`` raises ValueError, its argument the reason, when the text is none). A cell keeps
    its text (NIST's outputs print it byte for byte); its value is read when asked for."""

    name: str
    read: Callable[[str], Any] = str
    complaint: str = "{column}: {text} {reason}"  # the message when a cell is no value

    def value(self, text: str, path: str, line: int | None) -> Any:
        """The value of a cell of this column; InputError naming the file and line when it is none."""
        try:
            return self.read(text)
        except ValueError as exc:
            message = self.complaint.format(column=self.name, text=repr(text), reason=exc)
            raise InputError(path, message, line) from None


class TsvRow(NamedTuple):
    """A row of a table (a tuple: AUX tables have hundreds of thousands)."""

    line: int | None  # its line in the file; None for a row of a JSON file (CRUX's claim scores)
    cells: tuple[str, ...]


# TsvRow's fields as one tuple, without NamedTuple's __new__ (a Python call per row)
_row = tuple.__new__


@dataclass(frozen=True)
class TsvTable:
    """One of NIST's tab-separated tables, read from its file or made in memory: the files NIST's
    stages pass on (a query's table, as its SPARQL stage prints it: a header of ``?name`` cells;
    what its clean, validate, merge and handle stages make of it; a TA3 ranking file, which has no
    header line), the AUX files, queries tables, pools and score files. Each row carries its line
    in the file (the line it is printed on, for a table made in memory)."""

    path: str
    columns: tuple[str, ...]  # the header line's cells as the file has them; () when it has none
    rows: tuple[TsvRow, ...]  # a table read by read_table: one stripped cell per column
    headed: bool = True  # False: the file has no header line (a TA3 ranking file)

    @classmethod
    def numbered(cls, path: str, header: Sequence[str] | None, rows: Iterable[Sequence[str]]) -> TsvTable:
        """The table of a file that prints ``header`` (None: no header line) and ``rows``, each
        row numbered by its line, its cells kept as they are."""
        first = 1 if header is None else 2
        return cls(
            path,
            () if header is None else tuple(header),
            tuple(_row(TsvRow, (line, tuple(cells))) for line, cells in enumerate(rows, first)),
            header is not None,
        )

    @classmethod
    def printed(cls, path: str, header: Sequence[str], rows: Iterable[Sequence[str]]) -> TsvTable:
        """The table NIST's reader makes of the file that prints ``header`` and ``rows`` (one line
        each, cells joined by tabs), without printing it: every cell stripped, the rows numbered
        from line 2."""
        return cls.numbered(path, [name.strip() for name in header], ([c.strip() for c in cells] for cells in rows))

    @property
    def name(self) -> str:
        """The table's name: its file's, without folders and ``.rq.tsv`` (a query's table)."""
        return self.path.rpartition("/")[2].removesuffix(TABLE_SUFFIX)

    @property
    def is_ranking(self) -> bool:
        return self.path.endswith(RANKING_SUFFIX)

    @cached_property
    def _index(self) -> dict[str, int]:
        # a name given twice: NIST's row dictionary keeps the last cell of that name
        return {name: position for position, name in enumerate(self.columns)}

    def column(self, name: str) -> int:
        return self._index[name]

    def has(self, column: str) -> bool:
        return column in self._index

    def getter(self, column: str) -> Callable[[TsvRow], str | None]:
        """A function row -> the row's cell in ``column`` (None when the table has no such column)."""
        index = self._index.get(column)
        if index is None:
            return lambda _row: None
        return lambda row: row.cells[index]

    def require(self, *columns: str, option: str = "") -> None:
        """For a column the table lacks: UsageError when a user's ``option`` named it, else InputError (line 1)."""
        for column in columns:
            if option and not column:  # the user's option, given empty: no column is named ''
                raise UsageError(f"{option} '': give the name of a column of {self.path}")
            if column and column not in self._index:
                known = ", ".join(self.columns)
                if option:  # the user's option names what the table lacks
                    raise UsageError(f"{option} {column}: {self.path} has no such column (its columns: {known})")
                raise InputError(self.path, f"no such column {column} (the columns are {known})", 1)

    def value(self, row: TsvRow, column: TypedColumn) -> Any:
        """A row's cell in ``column`` read as the column's type (InputError naming the file and
        line when it is none); the cell is None when the table has no such column."""
        return column.value(self.getter(column.name)(row), self.path, row.line)  # type: ignore[arg-type]

    def number(self, row: TsvRow, column: str) -> float:
        """A cell as a score (a finite number), or InputError naming the file and line."""
        return self.value(row, TypedColumn(column, score))

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
        cells = fit_cells(text.split("\t"), width)
        if len(cells) < width:
            raise InputError(path, f"{len(cells)} cells, the header has {width} columns", line)
        found.append(_row(TsvRow, (line, cells)))
    return TsvTable(path, columns, tuple(found))


def check_unique(path: str, key: Sequence[str], rows: Iterable[tuple[int | None, Sequence[str]]]) -> None:
    """InputError, naming both lines, when two of the rows (line, cells of the columns ``key``) of
    the table at ``path`` have the same cells (a query given twice): which row counts is the user's
    to say, and NIST's readers keep one in silence."""
    first: dict[tuple[str, ...], int | None] = {}
    for line, cells in rows:
        seen = first.setdefault(tuple(cells), line)
        if seen != line:
            shown = " ".join(f"{name} {cell}" for name, cell in zip(key, cells, strict=True))
            raise InputError(path, f"{shown} is also on line {seen}: give each once", line)
