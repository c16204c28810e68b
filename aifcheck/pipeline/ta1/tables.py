"""The three TA1 tables of a document (CM clusters and mentions, AM argument assertions, TM
temporal 4-tuples), as rows that NIST's stages read, correct, drop and write back."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from aifcheck.errors import InputError
from aifcheck.loading.paths import entries
from aifcheck.loading.tsv import fit_cells, read_lines
from aifcheck.pipeline.shared.tables import rstrip_cells

KINDS = ("CM", "AM", "TM")  # NIST reads a document's files in this order
FILE_NAMES = {kind: f"AIDA_P3_TA1_{kind}_A0001.rq.tsv" for kind in KINDS}
COLUMNS = {
    "CM": (
        "cluster",
        "metatype",
        "type",
        "mention_span",
        "is_negated",
        "type_statement_confidence",
        "cluster_membership_confidence",
        "mention_type_justification_confidence",
    ),
    "AM": (
        "is_assertion_negated",
        "subject_metatype",
        "subject",
        "is_subject_negated",
        "predicate",
        "object_metatype",
        "object",
        "is_object_negated",
        "predicate_justification",
        "argument_assertion_confidence",
        "predicate_justification_confidence",
    ),
    "TM": (
        "cluster",
        "sa_month",
        "sa_day",
        "sa_year",
        "sb_month",
        "sb_day",
        "sb_year",
        "ea_month",
        "ea_day",
        "ea_year",
        "eb_month",
        "eb_day",
        "eb_year",
    ),
}
HEADER_CELLS = {kind: tuple(f"?{c}" for c in columns) for kind, columns in COLUMNS.items()}
Cells = tuple[tuple[str, ...], ...]  # the lines of a table, each a tuple of cells
_INDEX = {kind: {c: i for i, c in enumerate(columns)} for kind, columns in COLUMNS.items()}


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
    width = len(COLUMNS[kind])
    rows = []
    for number, line in enumerate(lines, 2):
        cells = fit_cells(line, width)
        if len(cells) != width:
            raise InputError(
                path,
                f"row has {len(cells)} cells, the {kind} table has {width} columns (NIST's pipeline stops here)",
                number,
            )
        if max(map(len, cells)) > MAX_CELL:
            longest = max(cells, key=len)
            raise InputError(
                path,
                f"a cell of {len(longest):,} characters ({longest[:60]}...), more than {MAX_CELL:,}: NIST's score "
                "tables pad every row to the widest cell, which would make them gigabytes",
                number,
            )
        rows.append(TableRow(kind, document, path, number, list(cells)))
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
