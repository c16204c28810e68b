"""The three TA1 tables of a document (CM clusters and mentions, AM argument assertions, TM
temporal 4-tuples), as rows that NIST's stages read, correct, drop and write back."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from aifcheck.errors import InputError
from aifcheck.extract.model import Span
from aifcheck.loading.paths import entries
from aifcheck.loading.tsv import TypedColumn, fit_cells, number, read_lines
from aifcheck.pipeline.shared.checks import trim
from aifcheck.pipeline.shared.tables import rstrip_cells

KINDS = ("CM", "AM", "TM")  # NIST reads a document's files in this order
FILE_NAMES = {kind: f"AIDA_P3_TA1_{kind}_A0001.rq.tsv" for kind in KINDS}


# spans and confidences repeat over a document's rows and builds: each text is read once
@lru_cache(maxsize=1 << 16)
def span(text: str) -> Span:
    """A printed span, as NIST's scorer reads it."""
    try:
        return Span.parse(text)
    except ValueError:
        raise ValueError("is not a span (DOC:ELEMENT:(x1,y1)-(x2,y2))") from None


@lru_cache(maxsize=1 << 10)
def confidence(text: str) -> float:
    """A confidence as NIST's validator reads it: a number, quotes and all."""
    return number(trim(text))


_STOPS = "{column} {text} {reason}; NIST's pipeline stops on it"
# The tables' columns, in NIST's order, each read as its type
COLUMNS: dict[str, tuple[TypedColumn, ...]] = {
    "CM": (
        TypedColumn("cluster"),
        TypedColumn("metatype"),
        TypedColumn("type"),
        TypedColumn("mention_span", span),
        TypedColumn("is_negated"),
        TypedColumn("type_statement_confidence", confidence, _STOPS),
        TypedColumn("cluster_membership_confidence", confidence, _STOPS),
        TypedColumn("mention_type_justification_confidence", confidence, _STOPS),
    ),
    "AM": (
        TypedColumn("is_assertion_negated"),
        TypedColumn("subject_metatype"),
        TypedColumn("subject"),
        TypedColumn("is_subject_negated"),
        TypedColumn("predicate"),
        TypedColumn("object_metatype"),
        TypedColumn("object"),
        TypedColumn("is_object_negated"),
        TypedColumn("predicate_justification", span),
        TypedColumn("argument_assertion_confidence", confidence, _STOPS),
        TypedColumn("predicate_justification_confidence", confidence, _STOPS),
    ),
    "TM": (
        TypedColumn("cluster"),
        TypedColumn("sa_month"),
        TypedColumn("sa_day"),
        TypedColumn("sa_year"),
        TypedColumn("sb_month"),
        TypedColumn("sb_day"),
        TypedColumn("sb_year"),
        TypedColumn("ea_month"),
        TypedColumn("ea_day"),
        TypedColumn("ea_year"),
        TypedColumn("eb_month"),
        TypedColumn("eb_day"),
        TypedColumn("eb_year"),
    ),
}
NAMES = {kind: tuple(column.name for column in columns) for kind, columns in COLUMNS.items()}
HEADER_CELLS = {kind: tuple(f"?{c}" for c in names) for kind, names in NAMES.items()}
Cells = tuple[tuple[str, ...], ...]  # the lines of a table, each a tuple of cells
_INDEX = {kind: {c: i for i, c in enumerate(names)} for kind, names in NAMES.items()}
_TYPED = {kind: {c.name: (i, c) for i, c in enumerate(columns)} for kind, columns in COLUMNS.items()}


@dataclass
class TableRow:
    """One row of a table; validation may correct its cells (NIST writes the corrected row)."""

    kind: str
    document: str
    path: str
    line: int
    cells: list[str]
    valid: bool = True

    def __getitem__(self, column: str) -> str:
        return self.cells[_INDEX[self.kind][column]]

    def __setitem__(self, column: str, value: str) -> None:
        self.cells[_INDEX[self.kind][column]] = value

    def value(self, column: str) -> Any:
        """The cell of ``column`` read as the column's type; InputError naming the row when it is none."""
        at, typed = _TYPED[self.kind][column]
        return typed.value(self.cells[at], self.path, self.line)


@dataclass
class Document:
    """A document's tables: the rows of each file present (a missing file has no key)."""

    id: str
    tables: dict[str, list[TableRow]] = field(default_factory=dict)

    def rows(self, kind: str) -> list[TableRow]:
        return self.tables.get(kind, [])


MAX_CELL = 4096  # characters of a cell (NIST's IRIs and spans take some tens)


def read_cells(path: str | os.PathLike) -> Cells:
    """Every line of a table's file (the header first, blank lines too) as its cells, split at
    every tab: the lines as NIST opens the file in text mode (only \\r\\n, \\r and \\n end one;
    a \\x0c or \\u2028 stays in its cell, as NIST's clean stage and reader keep it)."""
    return tuple(tuple(line.split("\t")) for _, line in read_lines(path, skip_blank=False))


def document_rows(kind: str, document: str, path: str, cells: Cells) -> list[TableRow]:
    """A table's lines (header first) as rows; the header is taken without its trailing whitespace,
    as NIST reads it. InputError when the header is not NIST's."""
    header = rstrip_cells(cells[0]) if cells else ()
    return table_rows(kind, document, path, header, cells[1:])


def table_rows(
    kind: str, document: str, path: str, header: Sequence[str], lines: Iterable[Sequence[str]]
) -> list[TableRow]:
    """A table's header cells and the cells of each of its lines (split at every tab) as rows,
    taken as NIST's reader takes them (fit_cells); InputError when the header is not NIST's, or a
    line has too few cells."""
    if tuple(header) != HEADER_CELLS[kind]:
        found = " ".join(header) or "no header"
        raise InputError(
            path,
            f"not NIST's {kind} table: expected the columns {' '.join(HEADER_CELLS[kind])}, found {found}",
            1,
        )
    width = len(NAMES[kind])
    rows = []
    for line_number, line in enumerate(lines, 2):
        cells = fit_cells(line, width)
        if len(cells) != width:
            raise InputError(
                path,
                f"row has {len(cells)} cells, the {kind} table has {width} columns (NIST's pipeline stops here)",
                line_number,
            )
        if max(map(len, cells)) > MAX_CELL:
            longest = max(cells, key=len)
            raise InputError(
                path,
                f"a cell of {len(longest):,} characters ({longest[:60]}...), more than {MAX_CELL:,}: NIST's score "
                "tables pad every row to the widest cell, which would make them gigabytes",
                line_number,
            )
        rows.append(TableRow(kind, document, path, line_number, list(cells)))
    return rows


def read_layout(folder: Path, documents: Iterable[str] | None = None) -> dict[str, dict[str, Path]]:
    """NIST's layout ``FOLDER/<doc>.ttl/<table>.rq.tsv``: document -> kind -> file, for the
    given documents (all when None). Files of other names are ignored."""
    found: dict[str, dict[str, Path]] = {}
    wanted = None if documents is None else set(documents)
    for sub in entries(folder):
        if not (sub.is_dir() and sub.name.endswith(".ttl")):
            continue
        document = sub.name[: -len(".ttl")]
        if wanted is not None and document not in wanted:
            continue
        # a table that is there but no file (a folder, a FIFO, a link to nothing) is read, and refused
        names = {entry.name for entry in entries(sub)}
        found[document] = {kind: sub / name for kind, name in FILE_NAMES.items() if name in names}
    return found


def read_document(document: str, files: dict[str, Path]) -> Document:
    return Document(
        document, {kind: document_rows(kind, document, str(path), read_cells(path)) for kind, path in files.items()}
    )
