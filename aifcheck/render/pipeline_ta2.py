"""NIST's TA2 docker output (``run_task2_evaluation_pipeline.py``'s folders) and the console table
of ``aifcheck pipeline ta2``.

    OUT/SPARQL-KB-source/source.txt    "Direct mount." (NIST's docker: or the line of s3_location.txt)
    OUT/SPARQL-KB-input/task2_kb.ttl   a copy of the KB
    OUT/queries/<query_id>.rq          the query run: aifcheck's template, its entry point in a comment
    OUT/SPARQL-output/<query_id>.rq.tsv, SPARQL-CLEAN-output/..., SPARQL-VALID-output/...
    OUT/logs/run.log, logs/validate-responses.log

Everything is written into a temporary folder beside OUT, which takes OUT's place when complete.
"""
from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterable
from pathlib import Path

import pyoxigraph

from ..errors import OutputError, UsageError, printable
from ..extract.query import query_text
from ..pipeline.ta2 import KB_FILE, TA2Pipeline
from ..pipeline.ta2_validate import CLEAN_FOLDER, Event, ResponseFile
from .score_table import Column, score_table

STAGES = {"SPARQL-output": "sparql", CLEAN_FOLDER: "clean", "SPARQL-VALID-output": "valid"}
_TIME = "%m/%d/%Y %I:%M:%S %p"  # NIST's logger's


def check_output(out: Path, kb: Path, force: bool) -> None:
    """UsageError when OUT cannot take NIST's output: a file, a folder holding something (unless
    ``force``), or a folder the KB is in."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"-o {out}: not a folder")
    target = out.resolve()
    if target.parent == target:
        raise UsageError(f"-o {out}: the root folder cannot be replaced")
    if target in kb.resolve().parents:
        raise UsageError(f"-o {out}: holds the input {kb}, which the output would replace")
    if out.is_dir() and any(out.iterdir()) and not force:
        raise UsageError(f"-o {out} exists and is not empty (give --force to replace it)")


def write_pipeline_ta2(result: TA2Pipeline, kb: Path, out: Path, force: bool = False) -> None:
    """Write NIST's TA2 docker output for ``result`` (of the KB ``kb``) as the folder ``out``."""
    check_output(out, kb, force)
    target = out.resolve()
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    try:
        _write_folder(result, kb, out, partial)
        _put_in_place(partial, target)
    except OSError as exc:
        shutil.rmtree(partial, ignore_errors=True)
        raise OutputError(f"cannot write {out}: {exc.strerror or exc}") from None


def _write_folder(result: TA2Pipeline, kb: Path, out: Path, folder: Path) -> None:
    """NIST's layout under ``folder``; log lines name the files as they will be, under ``out``."""
    _write(folder / "SPARQL-KB-source" / "source.txt", "Direct mount.")
    (folder / "SPARQL-KB-input").mkdir()
    shutil.copyfile(kb, folder / "SPARQL-KB-input" / KB_FILE)
    for query in result.queries:
        entry_point = str(pyoxigraph.Literal(query.entrypoint))  # escaped: one comment line
        header = f"# QueryID: {query.query_id}\n# Entry point, bound to ?query_link_target: {entry_point}\n"
        _write(folder / "queries" / f"{query.query_id}.rq", header + query_text(query.template))
    for stage, attribute in STAGES.items():
        (folder / stage).mkdir()
        for file in getattr(result, attribute):
            _write(folder / stage / file.name, tsv(file))
    when = time.strftime(_TIME)
    _write(folder / "logs" / "run.log", log_text(result.run_log, "run_task2_evaluation_pipeline.py", when, out))
    _write(folder / "logs" / "validate-responses.log", log_text(result.log, "validate_responses.py", when, out))


def _put_in_place(partial: Path, target: Path) -> None:
    """Move the complete folder to ``target``; a folder already there is replaced."""
    old = target.with_name(f".{target.name}.{os.getpid()}.old") if target.exists() else None
    if old is not None:
        os.replace(target, old)
    try:
        os.replace(partial, target)
    except OSError:
        if old is not None:
            os.replace(old, target)
        raise
    if old is not None:
        shutil.rmtree(old)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="")


def tsv(file: ResponseFile) -> str:
    """A stage's file as NIST writes it: its header and rows, cells joined by tabs, one per line."""
    return "".join("\t".join(cells) + "\n" for cells in (file.header, *file.rows))


def log_text(events: Iterable[Event], program: str, when: str, out: Path) -> str:
    """NIST's log lines; a row's event names it as NIST does, ``<folder>/<file>:<line>``."""
    return "".join(
        f"{when} - {program} - {event.level} - {event.message}"
        + (f" at {out / CLEAN_FOLDER / event.file}:{event.line}" if event.file is not None else "") + "\n"
        for event in events
    )


def console_table(result: TA2Pipeline) -> str:
    """One line per query: its entry point and its rows in SPARQL-output and SPARQL-VALID-output."""
    sparql = {file.name: len(file.rows) for file in result.sparql}
    valid = {file.name: len(file.rows) for file in result.valid}
    columns = (Column("query", "query", "s"), Column("type", "type", "s"), Column("entrypoint", "entry point", "s"),
               Column("sparql", "SPARQL rows", "s", "R"), Column("valid", "VALID rows", "s", "R"))
    rows = [{"query": printable(q.query_id), "type": q.entrypoint_type, "entrypoint": printable(q.entrypoint),
             "sparql": str(sparql[q.file_name]), "valid": str(valid[q.file_name])}
            for q in sorted(result.queries, key=lambda q: q.file_name)]
    return score_table(columns, rows, "pretty")
