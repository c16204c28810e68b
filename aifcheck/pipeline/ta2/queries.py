"""NIST's TA2 queries table (``generate_queries.py``'s output: the queries of NIST's TA2 docker,
``queries_to_score`` for its scorer, the queries file for its pooler): tab-separated with a header,
columns found by name.

Columns: ``query_id``, ``entity_id``, ``entrypoint_type`` (``kbid`` or ``name``), ``entrypoint``,
``clusters`` (C, how many clusters of a query are pooled and scored) and ``documents`` (K, how
many documents per cluster); others are ignored, and each reader requires those it uses. Cells are
stripped. A query ID given twice keeps its first place and its last values, as NIST's dictionary
does. C and K are read as NIST reads them, with ``int()`` (so a negative number is accepted: NIST
then takes every cluster or document).
"""

from __future__ import annotations

import os
from collections.abc import Collection
from dataclasses import dataclass

from aifcheck.errors import InputError
from aifcheck.loading.tsv import check_unique, read_table
from aifcheck.names import longer_than_a_file_name

SCORER_COLUMNS = ("query_id", "entity_id", "entrypoint_type", "entrypoint", "clusters", "documents")
POOLER_COLUMNS = ("query_id", "entrypoint", "clusters", "documents")
PIPELINE_COLUMNS = ("query_id", "entrypoint_type", "entrypoint")
_COUNTS = ("clusters", "documents")
# NIST's two query templates (generate_queries.py), by entry point type
TEMPLATES = {"kbid": "AIDA_P3_TA2_P0001", "name": "AIDA_P3_TA2_P0002"}


@dataclass(frozen=True)
class Query:
    query_id: str
    entity_id: str
    entrypoint_type: str  # kbid or name
    entrypoint: str
    line: int  # its line in the table
    clusters: int | None = None  # C; None when the table was read without it
    documents: int | None = None  # K

    @property
    def file_name(self) -> str:
        """Its response file, ``<query_id>.rq.tsv``."""
        return f"{self.query_id}.rq.tsv"

    @property
    def template(self) -> str:
        """NIST's query template for its entry point type (one of TEMPLATES)."""
        return TEMPLATES[self.entrypoint_type]


def read_queries(
    path: str | os.PathLike, required: tuple[str, ...] = SCORER_COLUMNS, entry_points: Collection[str] | None = None
) -> dict[str, Query]:
    """The queries of the table, by ID, in the table's order; C and K are read when ``required``
    names them. ``entry_points``: the entry point types a query can be made for (NIST's TA2 docker
    makes one of each row): a row of another type, or whose ID cannot name its response file, is an
    error. InputError, located, for a row NIST's code stops on."""
    table = read_table(path, required)
    check_unique(table.path, ("query_id",), table.cells(("query_id",)))
    counts = [name for name in _COUNTS if name in required]
    queries: dict[str, Query] = {}
    for number, cells in table.cells((*SCORER_COLUMNS[:4], *counts)):
        query_id, entity_id, kind, entrypoint, *texts = cells
        if entry_points is not None:
            if not query_id or query_id in (".", "..") or "/" in query_id or "\0" in query_id:
                raise InputError(table.path, f"query_id {query_id!r} cannot name NIST's file <query_id>.rq.tsv", number)
            if longer_than_a_file_name(f"{query_id}.rq.tsv"):
                raise InputError(
                    table.path,
                    f"a query_id of {len(query_id):,} characters: longer than NIST's file <query_id>.rq.tsv may be",
                    number,
                )
            if kind not in entry_points:
                raise InputError(
                    table.path,
                    f"entrypoint_type {kind!r} is neither kbid nor name (NIST's two query templates)",
                    number,
                )
        values = {}
        for name, text in zip(counts, texts, strict=True):
            try:
                values[name] = int(text)
            except ValueError:
                raise InputError(
                    table.path, f"{name} {text!r} is not an integer (NIST's code stops on it)", number
                ) from None
        queries[query_id] = Query(query_id, entity_id, kind, entrypoint, number, **values)
    return queries
