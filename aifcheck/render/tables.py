"""NIST's tables written as NIST's SPARQL stage lays them out: ``DIR/<input>/<TABLE>.rq.tsv``
(aifcheck.pipeline.shared.sparql prints them)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from aifcheck.errors import InputError
from aifcheck.extract.query import TAG, EntryPoints
from aifcheck.loading.tsv import TsvTable
from aifcheck.pipeline.shared.sparql import nist_tables
from aifcheck.pipeline.shared.tables import TextFile
from aifcheck.render.output import write_atomically
from aifcheck.spread.parallel import Spread


@dataclass
class LayoutResult:
    """What write_nist_layout wrote, and the inputs it could not read."""

    written: list[Path] = field(default_factory=list)
    errors: list[InputError] = field(default_factory=list)


def write_nist_layout(
    inputs: Sequence[str | os.PathLike],
    task: str,
    outdir: str | os.PathLike,
    entry_points: EntryPoints | None = None,
    spread: Spread | None = None,
    query_set: str = TAG,
) -> LayoutResult:
    """Write every table of ``task`` for every input as ``DIR/<input file name>/<TABLE>.rq.tsv``
    (the folders: aifcheck.pipeline.shared.sparql.nist_tables). An unreadable input is reported in the
    result and the others are still written. The tables are written here, as they come back: a
    cluster's workers may not see DIR."""
    result = LayoutResult()
    for outcome in nist_tables(inputs, task, outdir, entry_points, spread, query_set):
        if isinstance(outcome, InputError):
            result.errors.append(outcome)
            continue
        outcome.folder.mkdir(parents=True, exist_ok=True)
        for table in outcome.tables:
            target = outcome.folder / table.path
            write_atomically(target, stage_text(table))
            result.written.append(target)
    return result


def joined_tsv(tables: Sequence[TsvTable]) -> str:
    """The tables of several files under one header (each file's rows together, in file order)."""
    if not tables:
        return ""
    return stage_text(tables[0]) + "".join("\t".join(row.cells) + "\n" for t in tables[1:] for row in t.rows)


def stage_text(file: TsvTable | TextFile) -> str:
    """A file of NIST's TA2 or TA3 docker stages as NIST's scripts write it: a copied file's text
    as it was; a table's header (a ranking file has none) and rows, cells joined by tabs, each line
    ending in a newline."""
    if isinstance(file, TextFile):
        return file.text
    lines = [row.cells for row in file.rows]
    if file.headed:
        lines.insert(0, file.columns)
    return "".join("\t".join(cells) + "\n" for cells in lines)
