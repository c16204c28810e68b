"""Which documents of a run NIST scores, and their tables as NIST's SPARQL stage prints them.

A run is a folder of document KBs (``<doc>.ttl`` as submitted) or a folder in NIST's SPARQL-output
layout (``<doc>.ttl/<table>.rq.tsv``). Of a folder of KBs, NIST's driver scores the core documents
whose KB has no ``*-report.txt`` (the AIF validator's report of an invalid KB) beside it.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...errors import UsageError
from ...loading.kb import load_kb
from ...loading.paths import entries
from ...pipeline.sparql import run_table
from ...pipeline.aux import Aux
from .tables import FILE_NAMES, KINDS, read_layout

TURTLE = "turtle"
SPARQL = "sparql-output"


@dataclass(frozen=True)
class Selection:
    kind: str  # TURTLE or SPARQL
    documents: tuple[str, ...]  # the documents whose tables NIST's stages read, sorted
    sources: dict[str, Path]  # document -> its KB file (TURTLE) or table folder (SPARQL)
    total: int  # KBs in the run (TURTLE)
    invalid: tuple[str, ...]  # KBs with a validation report
    not_core: tuple[str, ...]  # documents skipped, or dropped by validation, as not core documents


def run_kind(run: Path) -> str:
    if not run.is_dir():
        raise UsageError(f"RUN {run} is not a folder")
    listed = entries(run, "RUN")
    has_files = any(p.is_file() and p.suffix == ".ttl" for p in listed)
    has_folders = any(p.is_dir() and p.suffix == ".ttl" for p in listed)
    if has_files == has_folders:
        what = "both" if has_files else "neither"
        raise UsageError(f"RUN {run} holds {what} document KBs (<doc>.ttl files) {'and' if has_files else 'nor'} NIST's SPARQL-output layout (<doc>.ttl/ folders)")
    return TURTLE if has_files else SPARQL


def select(run: Path, aux: Aux) -> Selection:
    kind = run_kind(run)
    if kind == SPARQL:
        found = read_layout(run)
        return Selection(kind, tuple(sorted(found)), {d: run / f"{d}.ttl" for d in found}, len(found), (), tuple(d for d in sorted(found) if not aux.is_core(d)))
    # a <doc>.ttl that is no file (a FIFO, a link to nothing) is read, and refused: never scored as a missing document
    kbs = [p for p in entries(run) if p.suffix == ".ttl" and not p.is_dir()]
    invalid = tuple(p.stem for p in kbs if (run / f"{p.stem}-report.txt").exists() or (run / f"{p.name}-report.txt").exists())
    not_core = tuple(p.stem for p in kbs if p.stem not in invalid and not aux.is_core(p.stem))
    chosen = {p.stem: p for p in kbs if p.stem not in invalid and aux.is_core(p.stem)}
    return Selection(kind, tuple(sorted(chosen)), chosen, len(kbs), invalid, not_core)


def kb_tables(path: str) -> dict[str, tuple[str, str]]:
    """kind -> (path to name in messages, text) of the tables NIST's SPARQL stage makes of a KB."""
    with load_kb(path, lines=False) as kb:  # TA1 tables are sorted, not in the file's order
        return {kind: (f"{path}#{FILE_NAMES[kind]}", run_table(kb, f"AIDA_P3_TA1_{kind}_A0001").to_tsv()) for kind in KINDS}
