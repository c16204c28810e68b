"""NIST's clean stage (clean_sparql_output.py, aifcheck.pipeline.shared.clean) on every cell of every
line of every ``.tsv`` file, the header and the ranking files included. Every line is written back
with a newline."""

from __future__ import annotations

from collections.abc import Iterable

from aifcheck.pipeline.shared.clean import clean_cells
from aifcheck.pipeline.shared.events import EventLog
from aifcheck.pipeline.shared.tables import StageTable, TextFile, text_lines


def clean_file(file: StageTable | TextFile) -> StageTable:
    if isinstance(file, TextFile):
        lines = [line.split("\t") for line in text_lines(file.text)]
        return StageTable(file.path, None, tuple(clean_cells(cells) for cells in lines))
    header = clean_cells(file.header) if file.header is not None else None
    return StageTable(file.path, header, tuple(clean_cells(row) for row in file.rows))


def clean(files: Iterable[StageTable | TextFile], log: EventLog, source: str, target: str) -> tuple[StageTable, ...]:
    """The files of SPARQL-CLEAN-output; ``source`` and ``target`` name the two folders in the log."""
    cleaned = []
    for file in files:
        log.info(f"cleaning: {source}/{file.path}, output: {target}/{file.path}")
        cleaned.append(clean_file(file))
    return tuple(cleaned)
