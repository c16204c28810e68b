"""NIST's clean stage (clean_sparql_output.py, aifcheck.pipeline.shared.clean) on every cell of every
line of every ``.tsv`` file, the header and the ranking files included. Every line is written back
with a newline."""

from __future__ import annotations

from collections.abc import Iterable

from aifcheck.loading.tsv import TsvTable
from aifcheck.pipeline.shared.clean import clean_cells
from aifcheck.pipeline.shared.events import EventLog
from aifcheck.pipeline.shared.tables import TextFile, text_lines


def clean_file(file: TsvTable | TextFile) -> TsvTable:
    """A table with its cells cleaned; a ranking file, copied as text, read as a table without a
    header line (its lines split at every tab)."""
    if isinstance(file, TextFile):
        return TsvTable.numbered(file.path, None, (clean_cells(line.split("\t")) for line in text_lines(file.text)))
    header = clean_cells(file.columns) if file.headed else None
    return TsvTable.numbered(file.path, header, (clean_cells(row.cells) for row in file.rows))


def clean(files: Iterable[TsvTable | TextFile], log: EventLog, source: str, target: str) -> tuple[TsvTable, ...]:
    """The files of SPARQL-CLEAN-output; ``source`` and ``target`` name the two folders in the log."""
    cleaned = []
    for file in files:
        log.info(f"cleaning: {source}/{file.path}, output: {target}/{file.path}")
        cleaned.append(clean_file(file))
    return tuple(cleaned)
