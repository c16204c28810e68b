"""NIST's TA2 docker output (``run_task2_evaluation_pipeline.py``'s folders) and the console table
of ``aifcheck pipeline ta2``.

    OUT/SPARQL-KB-source/source.txt    "Direct mount." (NIST's docker: or the line of s3_location.txt)
    OUT/SPARQL-KB-input/task2_kb.ttl   a copy of the KB
    OUT/queries/<query_id>.rq          the query run: aifcheck's template, its entry point in a comment
    OUT/SPARQL-output/<query_id>.rq.tsv, SPARQL-CLEAN-output/..., SPARQL-VALID-output/...
    OUT/logs/run.log, logs/validate-responses.log

OUT is written whole or not at all (aifcheck.render.output.new_folder).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterable
from pathlib import Path

from aifcheck.errors import cut, printable
from aifcheck.extract.query import query_text
from aifcheck.loading.rdf import literal_text
from aifcheck.pipeline.shared.events import Event
from aifcheck.pipeline.ta2.run import KB_FILE, TA2Pipeline
from aifcheck.pipeline.ta2.screen import CLEAN_FOLDER
from aifcheck.render.output import new_folder, write_file
from aifcheck.render.score_table import Column, score_table
from aifcheck.render.tables import stage_text

STAGES = {"SPARQL-output": "sparql", CLEAN_FOLDER: "clean", "SPARQL-VALID-output": "valid"}
_TIME = "%m/%d/%Y %I:%M:%S %p"  # NIST's logger's


def write_pipeline_ta2(
    result: TA2Pipeline, kb: Path, out: Path, force: bool = False, inputs: Iterable[str | os.PathLike] = ()
) -> None:
    """Write NIST's TA2 docker output for ``result`` (of the KB ``kb``, with the other ``inputs``)
    as the folder ``out``; log lines name the files as they will be, under ``out``."""
    with new_folder(out, force, (kb, *inputs)) as folder:
        write_file(folder / "SPARQL-KB-source" / "source.txt", "Direct mount.")
        (folder / "SPARQL-KB-input").mkdir()
        shutil.copyfile(kb, folder / "SPARQL-KB-input" / KB_FILE)
        for query in result.queries:
            entry_point = literal_text(query.entrypoint)  # escaped: one comment line
            header = f"# QueryID: {query.query_id}\n# Entry point, bound to ?query_link_target: {entry_point}\n"
            write_file(folder / "queries" / f"{query.query_id}.rq", header + query_text(query.template))
        for stage, attribute in STAGES.items():
            (folder / stage).mkdir()
            for file in getattr(result, attribute):
                write_file(folder / stage / file.path, stage_text(file))
        when = time.strftime(_TIME)
        write_file(folder / "logs" / "run.log", log_text(result.run_log, "run_task2_evaluation_pipeline.py", when, out))
        write_file(folder / "logs" / "validate-responses.log", log_text(result.log, "validate_responses.py", when, out))


def log_text(events: Iterable[Event], program: str, when: str, out: Path) -> str:
    """NIST's log lines; a row's event names it as NIST does, ``<folder>/<file>:<line>``."""
    return "".join(
        f"{when} - {program} - {event.level} - {event.message}"
        + (f" at {out / CLEAN_FOLDER / event.where.path}:{event.where.line}" if event.where is not None else "")
        + "\n"
        for event in events
    )


CELL = 200  # characters of a cell shown in the console table: a 50 MB entry point is cut, not padded to


def console_table(result: TA2Pipeline) -> str:
    """One line per query: its entry point and its rows in SPARQL-output and SPARQL-VALID-output."""
    sparql = {file.path: len(file.rows) for file in result.sparql}
    valid = {file.path: len(file.rows) for file in result.valid}
    columns = (
        Column("query", "query", "s"),
        Column("type", "type", "s"),
        Column("entrypoint", "entry point", "s"),
        Column("sparql", "SPARQL rows", "s", "R"),
        Column("valid", "VALID rows", "s", "R"),
    )
    rows = [
        {
            "query": cut(printable(q.query_id), CELL),
            "type": cut(printable(q.entrypoint_type), CELL),
            "entrypoint": cut(printable(q.entrypoint), CELL),
            "sparql": str(sparql[q.file_name]),
            "valid": str(valid[q.file_name]),
        }
        for q in sorted(result.queries, key=lambda q: q.file_name)
    ]
    return score_table(columns, rows, "pretty")
