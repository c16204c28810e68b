"""Which documents of a run NIST scores, and their tables as NIST's SPARQL stage prints them.

A run is a folder of document KBs (``<doc>.ttl`` as submitted), a folder in NIST's SPARQL-output
layout (``<doc>.ttl/<table>.rq.tsv``), or an empty folder (nothing to score, as NIST's driver
says). Of a folder of KBs, NIST's driver scores the core documents whose KB has no
``*-report.txt`` (the AIF validator's report of an invalid KB) beside it; of the SPARQL-output
layout, the core documents.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from aifcheck.errors import UsageError
from aifcheck.loading.kb import KB, load_kb
from aifcheck.loading.paths import entries
from aifcheck.pipeline.shared.auxdata import Aux
from aifcheck.pipeline.shared.sparql import run_table
from aifcheck.pipeline.ta1.tables import FILE_NAMES, KINDS, Cells, read_layout

TURTLE = "turtle"
SPARQL = "sparql-output"
EMPTY = "empty"
# NIST's docker writes its stages' tables here, in OUT; its gold is /data/gold/SPARQL-VALID-output
DOCKER_TABLES = "SPARQL-output"
GOLD_TABLES = "SPARQL-VALID-output"
LATER_STAGES = ("SPARQL-CLEAN-output", "SPARQL-VALID-output", "SPARQL-FILTERED-output")


@dataclass(frozen=True)
class KbSelection:
    kind: str  # TURTLE, SPARQL or EMPTY
    documents: tuple[str, ...]  # the core documents whose tables NIST's stages read, sorted
    sources: dict[str, Path]  # document -> its KB file (TURTLE) or table folder (SPARQL)
    total: int  # the run's <doc>.ttl entries, as NIST's driver counts them
    reports: int  # the run's *-report.txt files, NIST's count of invalid KBs
    invalid: tuple[str, ...]  # KBs with a validation report
    not_core: tuple[str, ...]  # documents skipped as not core documents
    missing: tuple[str, str] | None = None  # SPARQL: the first (folder, table file) a document's folder lacks

    @property
    def valid(self) -> int:
        """NIST's count of valid KBs: its entries less its reports."""
        return self.total - self.reports


def run_folder(run: Path) -> tuple[Path, str | None]:
    """The folder of a run's KBs or tables, and a note where it is worth one: every folder NIST's
    TA1 docker reads or writes is accepted as RUN. Its input (KBs, or tables in the SPARQL-output
    layout) is RUN; its output folder (``SPARQL-output/`` and the later stages' folders) gives its
    ``SPARQL-output/``; a later stage's folder is in the SPARQL-output layout, and its tables go
    through the stages again, as NIST's stages take them (a note names the folder that gives the
    docker's scores)."""
    if not run.is_dir():
        raise UsageError(f"RUN {run} is not a folder")
    if run.name in LATER_STAGES and any(p.suffix == ".ttl" for p in entries(run, "RUN")):
        return run, (
            f"{run} is NIST's {run.name}: its tables go through NIST's stages again, as NIST's stages take them; "
            f"the docker's output folder ({run.parent}) gives the scores of its {DOCKER_TABLES}/"
        )
    tables = run / DOCKER_TABLES
    if tables.is_dir() and not any(p.suffix == ".ttl" for p in entries(run, "RUN")):
        return tables, f"{run} is NIST's docker output: its {DOCKER_TABLES}/ is scored"
    return run, None


def gold_folder(gold: Path) -> tuple[Path, str | None]:
    """The folder of the gold tables (``<doc>.ttl/<table>.rq.tsv``): --gold itself, or the
    ``SPARQL-VALID-output/`` of NIST's gold folder (the docker's /data/gold), with a note."""
    if not gold.is_dir():
        raise UsageError(f"--gold: {gold} is not a folder")
    tables = gold / GOLD_TABLES
    if tables.is_dir() and not any(p.suffix == ".ttl" for p in entries(gold, "--gold")):
        return tables, f"--gold {gold} is NIST's gold folder: its {GOLD_TABLES}/ is read"
    return gold, None


def run_kind(run: Path) -> str:
    if not run.is_dir():
        raise UsageError(f"RUN {run} is not a folder")
    listed = entries(run, "RUN")
    has_files = any(p.is_file() and p.suffix == ".ttl" for p in listed)
    has_folders = any(p.is_dir() and p.suffix == ".ttl" for p in listed)
    if has_files and has_folders:
        raise UsageError(
            f"RUN {run} holds both document KBs (<doc>.ttl files) and NIST's SPARQL-output layout (<doc>.ttl/ folders)"
        )
    return TURTLE if has_files else SPARQL if has_folders else EMPTY


def select(run: Path, aux: Aux) -> KbSelection:
    kind = run_kind(run)
    names = [p.name for p in entries(run)]
    total, reports = sum(n.endswith(".ttl") for n in names), sum(n.endswith("-report.txt") for n in names)
    if kind != TURTLE:
        found = read_layout(run)
        # NIST's driver looks at every document's folder, core or not, before anything else
        missing = next(
            (
                (f"{run}/{d}.ttl", name)
                for d in sorted(found)
                for kind_, name in sorted(FILE_NAMES.items(), key=lambda item: item[1])
                if kind_ not in found[d]
            ),
            None,
        )
        core = tuple(d for d in sorted(found) if aux.is_core(d))
        return KbSelection(
            kind,
            core,
            {d: run / f"{d}.ttl" for d in core},
            total,
            reports,
            (),
            tuple(d for d in sorted(found) if not aux.is_core(d)),
            missing,
        )
    # a <doc>.ttl that is no file (a FIFO, a link to nothing) is read, and refused: never scored as a missing document
    kbs = [p for p in entries(run) if p.suffix == ".ttl" and not p.is_dir()]
    invalid = tuple(
        p.stem for p in kbs if (run / f"{p.stem}-report.txt").exists() or (run / f"{p.name}-report.txt").exists()
    )
    not_core = tuple(p.stem for p in kbs if p.stem not in invalid and not aux.is_core(p.stem))
    chosen = {p.stem: p for p in kbs if p.stem not in invalid and aux.is_core(p.stem)}
    return KbSelection(kind, tuple(sorted(chosen)), chosen, total, reports, invalid, not_core)


def kb_tables(path: str) -> dict[str, tuple[str, Cells]]:
    """kind -> (path to name in messages, the table's lines as cells, header first) of the tables
    NIST's SPARQL stage makes of a KB."""
    with load_kb(path, lines=False) as kb:  # TA1 tables are sorted, not in the file's order
        return tables_of(kb, path)


def tables_of(kb: KB, path: str) -> dict[str, tuple[str, Cells]]:
    """kind -> (path to name in messages, the table's lines as cells) of the tables of a loaded KB."""
    found = {}
    for kind in KINDS:
        table = run_table(kb, f"AIDA_P3_TA1_{kind}_A0001")
        found[kind] = (f"{path}#{FILE_NAMES[kind]}", (table.columns, *(row.cells for row in table.rows)))
    return found
