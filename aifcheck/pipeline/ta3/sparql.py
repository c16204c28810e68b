"""NIST's SPARQL stage of the TA3 docker: the TA3 tables of each claim frame kept, and the kept
ranking file of each query copied beside them.

``SPARQL-output/ConditionN/<query>/<frame>.ttl/<TABLE>.rq.tsv`` for each table of aifcheck's
``queries/AIDA_P3_TA3_*.rq`` in a query set (aifcheck.extract.query.QUERY_SETS: the tag's by
default, as NIST's docker prints them; ``march-2022`` as NIST's stored example outputs), and
``SPARQL-output/ConditionN/<query>/<query>.ranking.tsv`` as NIST's docker copies it (the lines the
depth kept, as its driver wrote them). A query folder is made for every folder that kept a frame
or a ranking line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from aifcheck.errors import InputError
from aifcheck.extract.query import TAG, orders_by_line, table_names
from aifcheck.loading.kb import load_kb
from aifcheck.loading.tsv import TsvTable
from aifcheck.pipeline.shared.sparql import run_table
from aifcheck.pipeline.shared.tables import TextFile
from aifcheck.pipeline.ta3.select import FrameFile, FrameSelection
from aifcheck.spread.parallel import IN_THIS_PROCESS, Spread, map_files

Progress = Callable[[str, int, int], None]  # (what, done, total)


def frame_tables(frame: FrameFile, query_set: str = TAG) -> tuple[TsvTable, ...]:
    """The TA3 tables of one claim frame. The one place this package runs aifcheck's queries."""
    names = table_names("ta3")
    with load_kb(frame.path, lines=any(orders_by_line(name, query_set) for name in names)) as kb:
        found = [run_table(kb, name, query_set=query_set) for name in names]
    return tuple(replace(t, path=f"{frame.folder}/{t.path}") for t in found)


def _tables_at(_path: str, frame: FrameFile, query_set: str) -> tuple[TsvTable, ...]:
    return frame_tables(frame, query_set)


def _lost(path: str, reason: str) -> tuple[TsvTable, ...]:
    raise InputError(path, reason)


def sparql_output(
    selection: FrameSelection,
    query_set: str = TAG,
    spread: Spread = IN_THIS_PROCESS,
    progress: Progress | None = None,
) -> tuple[tuple[TsvTable | TextFile, ...], tuple[str, ...]]:
    """The files of SPARQL-output, and the query folders NIST's docker makes (ConditionN/<query>),
    in its order (a query with only a ranking file has a folder too). The claim frames are queried
    as ``spread`` says (``--jobs``); ``progress`` hears ("SPARQL-output", done, total) after each."""
    files: list[TsvTable | TextFile] = []
    frames = selection.frames
    paths, arguments = [f.path for f in frames], [(f, query_set) for f in frames]
    for count, tables in enumerate(map_files(_tables_at, paths, _lost, spread, arguments), 1):
        files.extend(tables)
        if progress is not None:
            progress("SPARQL-output", count, len(frames))
    folders = {f"{f.condition}/{f.query}" for f in selection.frames}
    for ranking in selection.rankings:  # each is <query>.ranking.tsv (select.py checked it)
        folders.add(ranking.path.rsplit("/", 1)[0])
        files.append(ranking)
    return tuple(sorted(files, key=lambda f: f.path)), tuple(sorted(folders))
