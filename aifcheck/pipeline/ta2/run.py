"""NIST's TA2 docker stages (``run_task2_evaluation_pipeline.py``) on a team's ``task2_kb.ttl``.

One SPARQL query per row of NIST's TA2 queries table, from NIST's template for its entry point
type (``queries/AIDA_P3_TA2_P0001.rq`` for a KB ID, ``P0002`` for a name), printed as NIST's
SPARQL stage prints it (``SPARQL-output/<query_id>.rq.tsv``); then NIST's clean stage
(``clean_sparql_output.py``) and validate stage (``validate_responses.py --task task2``, in
``aifcheck.pipeline.ta2.screen``). Each stage returns its files as values, sorted by name (the
order NIST's validate stage reads them in); ``aifcheck.render.ta2.pipeline`` writes them in
NIST's layout. ``pipeline_ta2`` runs them all.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from aifcheck.errors import UsageError
from aifcheck.loading.kb import KB, load_kb
from aifcheck.loading.tsv import TsvTable
from aifcheck.pipeline.shared.auxdata import TA2_CORE, Aux, load_aux
from aifcheck.pipeline.shared.clean import clean_cells
from aifcheck.pipeline.shared.events import Event, EventLog
from aifcheck.pipeline.shared.sparql import run_table
from aifcheck.pipeline.ta2.locate import KbPlaces, kb_places
from aifcheck.pipeline.ta2.queries import PIPELINE_COLUMNS, TEMPLATES, Query, read_queries
from aifcheck.pipeline.ta2.screen import validate_stage

KB_FILE = "task2_kb.ttl"
S3_FILE = "s3_location.txt"
# what NIST's driver logs of its stages, before its closing message (GraphDB's steps aside)
_DRIVER = (
    "Inspecting the input directory.",
    "Applying SPARQL queries.",
    "Copying SPARQL queries to be applied.",
    f"Applying queries to {KB_FILE} ... ",
    "Cleaning SPARQL output.",
    "Validating SPARQL output.",
)
# clean_sparql_output.py: a cell holding <https://...#NAME> becomes NAME (the first such IRI)


@dataclass(frozen=True)
class TA2Pipeline:
    """What NIST's TA2 docker gives for a KB: each stage's files, sorted by name, and the
    validate stage's log (``logs/validate-responses.log``)."""

    queries: tuple[Query, ...]
    sparql: tuple[TsvTable, ...]  # SPARQL-output
    clean: tuple[TsvTable, ...]  # SPARQL-CLEAN-output
    valid: tuple[TsvTable, ...]  # SPARQL-VALID-output
    log: tuple[Event, ...]
    places: KbPlaces | None = None  # where the KB writes the tables' clusters and mentions, when asked

    @property
    def errors(self) -> int:
        """The validate log's lines holding "ERROR", which NIST's driver counts."""
        return sum("ERROR" in f"{event.level} - {event.message}" for event in self.log)

    @property
    def summary(self) -> str:
        """NIST's driver's closing message."""
        if not self.valid:
            return "*** Unable to find validated output files ***"
        return f"SPARQL output had {self.errors} error(s)." if self.errors else "SPARQL output had no errors."

    @property
    def run_log(self) -> tuple[Event, ...]:
        """NIST's driver's log (``logs/run.log``): its stages, then its closing message (which
        NIST logs with a newline)."""
        log = EventLog("run_task2_evaluation_pipeline.py")
        for text in (*_DRIVER, f"{self.summary}\n"):
            log.record("DEFAULT_INFO", text)
        return tuple(log.events)


def pipeline_ta2(
    kb: str | os.PathLike,
    queries: str | os.PathLike | Sequence[Query],
    aux: str | os.PathLike | Aux,
    places: bool = False,
) -> TA2Pipeline:
    """NIST's TA2 docker stages on the KB ``kb`` (a ``task2_kb.ttl``): one query per row of
    ``queries`` (NIST's queries table, or its queries), cleaned, then validated
    against NIST's AUX-data folder ``aux`` (or an Aux loaded with ``TA2_CORE``); ``places``: also
    the KB's lines of the tables' clusters and mentions, from the same load (for explanations).
    Raises UsageError (a missing folder) or InputError (a file that cannot be read, located)."""
    rows = (
        tuple(read_queries(queries, PIPELINE_COLUMNS, TEMPLATES).values())
        if isinstance(queries, (str, os.PathLike))
        else tuple(queries)
    )
    tables = aux if isinstance(aux, Aux) else load_aux(aux, TA2_CORE)
    with load_kb(kb, lines=places) as store:
        sparql = sparql_stage(store, rows)
        clean = clean_stage(sparql)
        found = kb_places(store, str(kb), sparql, clean) if places else None
    valid, log = validate_stage(clean, tables)
    return TA2Pipeline(rows, sparql, clean, valid, log, found)


def find_kb(run: str | os.PathLike) -> Path:
    """The KB of a run folder as NIST's docker takes it: the folder holds ``task2_kb.ttl`` and
    nothing else. NIST also takes ``s3_location.txt`` (an archive on S3 it downloads): refused."""
    run = Path(run)
    if not run.is_dir():
        raise UsageError(f"RUN {run} is not a folder")
    items = sorted(p.name for p in run.iterdir())
    if S3_FILE in items:
        raise UsageError(
            f"{run / S3_FILE}: NIST's docker downloads the KB this names from S3; aifcheck reads local files: "
            f"put the {KB_FILE} in RUN instead"
        )
    if items != [KB_FILE]:
        found = ", ".join(items[:5]) + (", ..." if len(items) > 5 else "") if items else "nothing"
        raise UsageError(f"RUN {run} must hold {KB_FILE} and nothing else, as NIST's docker requires; it holds {found}")
    return run / KB_FILE


def sparql_stage(kb: KB, queries: Sequence[Query]) -> tuple[TsvTable, ...]:
    """Each query's table as NIST's SPARQL stage prints it (``SPARQL-output/<query_id>.rq.tsv``)."""
    files = {query.file_name: _query_file(kb, query) for query in queries}
    return tuple(files[name] for name in sorted(files))


def _query_file(kb: KB, query: Query) -> TsvTable:
    """The query's table as NIST's SPARQL stage prints it. The entry point goes as a one-value list:
    run_table takes an empty string for a missing value, and NIST queries an empty entry point too."""
    table = run_table(kb, query.template, query_link_target=[query.entrypoint])
    return replace(table, path=query.file_name)


def clean_stage(files: Sequence[TsvTable]) -> tuple[TsvTable, ...]:
    """NIST's clean stage (``SPARQL-CLEAN-output``): every cell holding an IRI
    ``<https://...#NAME>`` becomes NAME, the header's cells too."""
    return tuple(
        TsvTable.numbered(f.path, clean_cells(f.columns), (clean_cells(r.cells) for r in f.rows)) for f in files
    )
